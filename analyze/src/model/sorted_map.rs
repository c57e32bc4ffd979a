//! A small map kept as one sorted vector: what a run's few keyed values (its percentiles, ranks,
//! statuses, factor levels) are held in, because a report holds one per run for 10^5 runs.
//!
//! A `BTreeMap` allocates a node of eleven slots for any map with an entry (368 bytes for
//! `String` keys and `f64` values); five per run made 180 MB of a 100,000-run report. This
//! holds exactly its entries, keeps the same order (by key, as `BTreeMap` iterates) and writes
//! the same JSON, so summary.json does not change. Lookups are binary searches; inserts shift,
//! which is fine for maps of a handful of entries.

use serde::ser::{Serialize, SerializeMap, Serializer};
use std::borrow::Borrow;
use std::collections::BTreeMap;

/// Entries sorted by key, each key once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SortedMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for SortedMap<K, V> {
    fn default() -> Self {
        SortedMap { entries: Vec::new() }
    }
}

impl<K: Ord, V> SortedMap<K, V> {
    pub fn new() -> Self {
        Self::default()
    }

    fn position<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.entries.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    /// Sets `key` to `value`, returning the value it replaces (as `BTreeMap::insert`).
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.position(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.position(key).ok().map(|i| &self.entries[i].1)
    }

    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.position(key).is_ok()
    }

    /// Gives back the spare capacity of the pushes that built it.
    pub fn shrink_to_fit(&mut self) {
        self.entries.shrink_to_fit();
    }
}

impl<K, V> SortedMap<K, V> {
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries in key order, as `(&key, &value)` like a `BTreeMap`'s.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&K, &V)> + ExactSizeIterator + Clone {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator + Clone {
        self.entries.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator + Clone {
        self.entries.iter().map(|(_, v)| v)
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for SortedMap<K, V> {
    /// Sorted by key; of equal keys the last wins, as collecting into a `BTreeMap` does.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(items: I) -> Self {
        let mut entries: Vec<(K, V)> = items.into_iter().collect();
        // Stable, so equal keys keep their order and the last of each is the one kept.
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let mut kept: Vec<(K, V)> = Vec::with_capacity(entries.len());
        for entry in entries {
            match kept.last_mut() {
                Some(last) if last.0 == entry.0 => *last = entry,
                _ => kept.push(entry),
            }
        }
        kept.shrink_to_fit();
        SortedMap { entries: kept }
    }
}

impl<K: Ord, V> From<BTreeMap<K, V>> for SortedMap<K, V> {
    fn from(map: BTreeMap<K, V>) -> Self {
        SortedMap { entries: map.into_iter().collect() }
    }
}

impl<K: Ord, V> From<SortedMap<K, V>> for BTreeMap<K, V> {
    fn from(map: SortedMap<K, V>) -> Self {
        map.entries.into_iter().collect()
    }
}

impl<'a, K, V> IntoIterator for &'a SortedMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(k, v)| (k, v))
    }
}

impl<K, V> IntoIterator for SortedMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<K: Ord + Borrow<Q>, Q: Ord + ?Sized, V> std::ops::Index<&Q> for SortedMap<K, V> {
    type Output = V;

    fn index(&self, key: &Q) -> &V {
        self.get(key).expect("no entry for the key")
    }
}

impl<K: Serialize, V: Serialize> Serialize for SortedMap<K, V> {
    /// As a `BTreeMap` of the same entries serializes: a map in key order.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.entries.len()))?;
        for (k, v) in &self.entries {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_and_serializes_as_a_btreemap_of_the_same_entries() {
        let entries = [("99.9", 7.0), ("50", 1.0), ("95", 5.0), ("5", 0.5), ("50", 2.0), ("10", 0.8)];
        let tree: BTreeMap<String, f64> = entries.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        let sorted: SortedMap<String, f64> = entries.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        assert_eq!(sorted.iter().collect::<Vec<_>>(), tree.iter().collect::<Vec<_>>(), "key order, the last of equal keys");
        assert_eq!(serde_json::to_string_pretty(&sorted).unwrap(), serde_json::to_string_pretty(&tree).unwrap());
        assert_eq!(sorted.get("50"), Some(&2.0));
        assert_eq!(sorted["95"], 5.0);
        assert_eq!(sorted.get("90"), None);
        assert_eq!(sorted.len(), 5);
    }

    #[test]
    fn inserts_in_order_and_replaces_like_a_btreemap() {
        let mut sorted = SortedMap::new();
        let mut tree = BTreeMap::new();
        for (k, v) in [(503u16, 1u64), (200, 5), (0, 2), (200, 6), (404, 1)] {
            assert_eq!(sorted.insert(k, v), tree.insert(k, v));
        }
        assert_eq!(sorted.iter().collect::<Vec<_>>(), tree.iter().collect::<Vec<_>>());
        assert_eq!(BTreeMap::from(sorted.clone()), tree);
        assert_eq!(SortedMap::from(tree), sorted);
    }

    #[test]
    fn an_empty_map_serializes_as_an_empty_object() {
        assert_eq!(serde_json::to_string(&SortedMap::<String, f64>::new()).unwrap(), "{}");
    }
}
