//! The id of a condition, the name links, CSV files and dataset.toml's published values use.

/// The id of a condition: `name=value` per factor joined by `,`, with `\`, `,` and `=` inside a
/// name or value written `\\`, `\,` and `\=`, so that no two conditions can share an id
/// (`a=1,b=2` as one value of `a` would otherwise read as two factors). Names and values
/// without those characters, as in most datasets, appear as written.
pub fn condition_id<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    fn escaped(out: &mut String, text: &str) {
        for c in text.chars() {
            if matches!(c, '\\' | ',' | '=') {
                out.push('\\');
            }
            out.push(c);
        }
    }
    let mut id = String::new();
    for (i, (name, value)) in pairs.into_iter().enumerate() {
        if i > 0 {
            id.push(',');
        }
        escaped(&mut id, name);
        id.push('=');
        escaped(&mut id, value);
    }
    id
}

#[cfg(test)]
mod tests {
    use super::condition_id;
    use proptest::prelude::*;

    #[test]
    fn plain_levels_read_as_written() {
        assert_eq!(condition_id([("route", "direct"), ("downloads", "2")]), "route=direct,downloads=2");
    }

    #[test]
    fn a_value_holding_a_separator_does_not_pose_as_two_factors() {
        let forged = condition_id([("a", "1,b=2")]);
        let honest = condition_id([("a", "1"), ("b", "2")]);
        assert_eq!(forged, "a=1\\,b\\=2");
        assert_ne!(forged, honest);
    }

    proptest! {
        #[test]
        fn distinct_levels_give_distinct_ids(
            a in proptest::collection::vec(("[a=,\\\\]{0,4}", "[a=,\\\\]{0,4}"), 1..4),
            b in proptest::collection::vec(("[a=,\\\\]{0,4}", "[a=,\\\\]{0,4}"), 1..4),
        ) {
            let id = |pairs: &Vec<(String, String)>| condition_id(pairs.iter().map(|(n, v)| (n.as_str(), v.as_str())));
            prop_assert_eq!(a == b, id(&a) == id(&b));
        }
    }
}
