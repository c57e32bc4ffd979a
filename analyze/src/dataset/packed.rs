//! A run's times in 4 bytes each where that loses nothing, while the report's one pass holds
//! every 2xx response's latency, send time and scheduled time (24 bytes a response as `f64`).
//!
//! Times in ms with at most three decimals, as `measure` writes them and most load generators
//! report them, are whole numbers of microseconds: `n` is kept as a `u32` when `n as f64 /
//! 1000.0` gives back the very bits read (the division rounds the exact quotient once, as
//! reading the decimal text did). A value that does not round-trip (more decimals, -0.0, a
//! negative one, or one beyond 2^32 µs, 71 minutes) turns that part of the run into plain
//! `f64`s, so nothing is ever approximated: unpacked, the values are the bits read.

/// A run's values in ms in file order: packed while every one is a whole microsecond.
#[derive(Debug, Clone, PartialEq)]
pub enum TimesMs {
    Micros(Vec<u32>),
    Float(Vec<f64>),
}

impl Default for TimesMs {
    fn default() -> Self {
        TimesMs::Float(Vec::new())
    }
}

/// `n` µs in ms: the double nearest n / 1000, which is what reading its decimal text gives.
#[inline(always)]
fn unpack(n: u32) -> f64 {
    f64::from(n) / 1000.0
}

/// The whole microseconds whose [`unpack`] is `ms` to the bit, if there are such.
#[inline(always)]
fn pack(ms: f64) -> Option<u32> {
    let n = nearest_micros(ms);
    (unpack(n).to_bits() == ms.to_bits()).then_some(n)
}

/// The whole number of microseconds nearest `ms`, saturated to `u32` (NaN to 0): the candidate
/// [`unpack`] must confirm, so a value out of range or between two microseconds only fails the
/// check, never packs wrongly. Branch-free, so a slice of them is one straight loop.
#[inline(always)]
fn nearest_micros(ms: f64) -> u32 {
    (ms * 1000.0 + 0.5) as u32
}

impl TimesMs {
    /// Empty; packed when `packed`, else plain `f64` from the start (`analyze check`, which
    /// holds only the latencies, 8 bytes a response, and saves the division a value costs).
    pub fn new(packed: bool) -> Self {
        if packed {
            TimesMs::Micros(Vec::new())
        } else {
            TimesMs::Float(Vec::new())
        }
    }

    pub fn len(&self) -> usize {
        match self {
            TimesMs::Micros(values) => values.len(),
            TimesMs::Float(values) => values.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Room left before the vector grows.
    pub fn spare(&self) -> usize {
        match self {
            TimesMs::Micros(values) => values.capacity() - values.len(),
            TimesMs::Float(values) => values.capacity() - values.len(),
        }
    }

    pub fn reserve(&mut self, additional: usize) {
        match self {
            TimesMs::Micros(values) => values.reserve(additional),
            TimesMs::Float(values) => values.reserve(additional),
        }
    }

    /// The values as `f64`, every one from here on too.
    fn widen(&mut self) -> &mut Vec<f64> {
        if let TimesMs::Micros(values) = self {
            let mut wide = Vec::with_capacity(values.capacity().max(values.len() + 1));
            wide.extend(values.iter().map(|&n| unpack(n)));
            *self = TimesMs::Float(wide);
        }
        match self {
            TimesMs::Float(values) => values,
            TimesMs::Micros(_) => unreachable!("widened above"),
        }
    }

    #[inline]
    pub fn push(&mut self, ms: f64) {
        match self {
            TimesMs::Float(values) => values.push(ms),
            TimesMs::Micros(values) => match pack(ms) {
                Some(n) => values.push(n),
                None => self.widen().push(ms),
            },
        }
    }

    pub fn extend_from_slice(&mut self, ms: &[f64]) {
        match self {
            TimesMs::Float(values) => values.extend_from_slice(ms),
            TimesMs::Micros(values) => {
                // All of them packed at once, then checked at once: a loop without a branch
                // per value, where packing one by one took 5% of a report's profile.
                let start = values.len();
                values.extend(ms.iter().map(|&value| nearest_micros(value)));
                let exact =
                    ms.iter().zip(&values[start..]).fold(true, |exact, (value, &n)| exact & (unpack(n).to_bits() == value.to_bits()));
                if !exact {
                    values.truncate(start);
                    self.widen().extend_from_slice(ms);
                }
            }
        }
    }

    /// The values as read, in order, after those already in `out`, which is given room for
    /// `total` values in all. Plain values move into an empty `out` without a copy (`check`'s
    /// latencies, and a run one worker read whole).
    pub fn unpack_into(self, out: &mut Vec<f64>, total: usize) {
        match self {
            TimesMs::Float(values) if out.is_empty() => *out = values,
            // Room for `total` was made when this filled `out` first.
            TimesMs::Float(values) => out.extend_from_slice(&values),
            TimesMs::Micros(values) => {
                out.reserve_exact(total.saturating_sub(out.len()));
                out.extend(values.into_iter().map(unpack));
            }
        }
        out.reserve_exact(total.saturating_sub(out.len()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn bits(values: &[f64]) -> Vec<u64> {
        values.iter().map(|v| v.to_bits()).collect()
    }

    fn unpacked(times: TimesMs) -> Vec<f64> {
        let mut out = Vec::new();
        let total = times.len();
        times.unpack_into(&mut out, total);
        out
    }

    #[test]
    fn three_decimals_pack_and_anything_else_is_kept_as_read() {
        for text in ["0", "0.001", "0.027", "227.354", "9986.459", "4294967.295"] {
            let ms: f64 = text.parse().unwrap();
            let n = pack(ms).unwrap_or_else(|| panic!("{text} packs"));
            assert_eq!(unpack(n).to_bits(), ms.to_bits(), "{text}");
        }
        for text in ["-0.0", "-1", "0.0001", "829.937077", "4294967.296", "1700000000000.5", "inf", "NaN"] {
            assert_eq!(pack(text.parse().unwrap()), None, "{text}");
        }
        // A double that is not any three-decimal text (a difference of two such).
        assert_eq!(pack(250.121 - 250.0), None);
    }

    #[test]
    fn a_value_that_does_not_pack_turns_the_rest_into_f64_and_keeps_every_bit() {
        let read = [1.5, 2.25, 829.937077, -0.0, 3.0, 7.125];
        let mut one_by_one = TimesMs::new(true);
        for &v in &read {
            one_by_one.push(v);
        }
        assert!(matches!(one_by_one, TimesMs::Float(_)));
        assert_eq!(bits(&unpacked(one_by_one.clone())), bits(&read));
        let mut at_once = TimesMs::new(true);
        at_once.extend_from_slice(&read[..2]);
        assert!(matches!(at_once, TimesMs::Micros(_)), "1.5 and 2.25 are whole microseconds");
        at_once.extend_from_slice(&read[2..]);
        assert_eq!(at_once, one_by_one);
    }

    proptest! {
        #[test]
        fn parts_unpack_one_after_another_to_the_values_read(
            a in proptest::collection::vec(0u32..5_000_000, 0..40),
            b in proptest::collection::vec(any::<f64>(), 0..5),
            c in proptest::collection::vec(0u32..5_000_000, 0..40),
            packed in any::<bool>(),
        ) {
            // Parts of whole microseconds and of any bits at all, read a slice and a value at a time.
            let parts: Vec<Vec<f64>> = vec![a.iter().map(|&n| f64::from(n) / 1000.0).collect(), b, c.iter().map(|&n| f64::from(n) / 1000.0).collect()];
            let mut whole = Vec::new();
            let mut expected = Vec::new();
            for part in &parts {
                let (mut sliced, mut pushed) = (TimesMs::new(packed), TimesMs::new(packed));
                let half = part.len() / 2;
                sliced.extend_from_slice(&part[..half]);
                sliced.extend_from_slice(&part[half..]);
                part.iter().for_each(|&v| pushed.push(v));
                prop_assert_eq!(std::mem::discriminant(&sliced), std::mem::discriminant(&pushed));
                prop_assert_eq!(bits(&unpacked(pushed)), bits(part));
                prop_assert_eq!(sliced.len(), part.len());
                let total = whole.len() + sliced.len() + 7;
                sliced.unpack_into(&mut whole, total);
                expected.extend_from_slice(part);
            }
            prop_assert_eq!(bits(&whole), bits(&expected));
        }

        #[test]
        fn any_bits_unpack_to_themselves(v in any::<f64>()) {
            if let Some(n) = pack(v) {
                prop_assert_eq!(unpack(n).to_bits(), v.to_bits());
            }
        }
    }
}
