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

/// The label of a condition (or of some of its factors): its levels' labels in factor order,
/// joined by `separator` (the language's, a word of render/i18n); "-" when there are none (a
/// dataset without factors), so no table cell, legend entry or chart title is left blank. The
/// one rule of every page, chart and check that names a condition.
pub fn condition_label<'a>(level_labels: impl IntoIterator<Item = &'a str>, separator: &str) -> String {
    let parts: Vec<&str> = level_labels.into_iter().collect();
    if parts.is_empty() {
        "-".to_string()
    } else {
        parts.join(separator)
    }
}

/// The `name=value` pairs of a condition id (or of part of one: `downloads=2`), read back as
/// [`condition_id`] writes them: `\\`, `\,` and `\=` stand for the character itself. `Err`
/// says what is wrong: a pair without `=`, an empty name, a `\` at the end.
pub fn parse_condition_pairs(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut pairs = Vec::new();
    let (mut name, mut value) = (String::new(), String::new());
    let mut in_value = false;
    let mut chars = text.chars();
    let mut finish = |name: &mut String, value: &mut String, in_value: bool| -> Result<(), String> {
        if !in_value {
            return Err(format!("{:?} is not a factor=level pair", name));
        }
        if name.is_empty() {
            return Err(format!("the pair \"={value}\" names no factor"));
        }
        pairs.push((std::mem::take(name), std::mem::take(value)));
        Ok(())
    };
    while let Some(c) = chars.next() {
        let c = match c {
            '\\' => match chars.next() {
                Some(escaped) => {
                    if in_value { &mut value } else { &mut name }.push(escaped);
                    continue;
                }
                None => return Err("ends in a lone \\ (write \\\\ for a backslash)".to_string()),
            },
            c => c,
        };
        match c {
            '=' if !in_value => in_value = true,
            ',' => {
                finish(&mut name, &mut value, in_value)?;
                in_value = false;
            }
            c => if in_value { &mut value } else { &mut name }.push(c),
        }
    }
    finish(&mut name, &mut value, in_value)?;
    Ok(pairs)
}

#[cfg(test)]
mod tests {
    use super::{condition_id, condition_label, parse_condition_pairs};
    use proptest::prelude::*;

    #[test]
    fn a_condition_label_joins_its_levels_and_is_a_dash_without_factors() {
        assert_eq!(condition_label(["nginx", "buffering on", "2"], " · "), "nginx · buffering on · 2");
        assert_eq!(condition_label(["直接", "2"], "／"), "直接／2");
        assert_eq!(condition_label(["direct"], " · "), "direct");
        assert_eq!(condition_label([], " · "), "-");
    }

    #[test]
    fn pairs_read_back_and_bad_text_says_why() {
        let pairs = parse_condition_pairs("route=direct,downloads=2").unwrap();
        assert_eq!(pairs, vec![("route".to_string(), "direct".to_string()), ("downloads".to_string(), "2".to_string())]);
        assert_eq!(parse_condition_pairs("a=1\\,b\\=2").unwrap(), vec![("a".to_string(), "1,b=2".to_string())]);
        assert!(parse_condition_pairs("route").unwrap_err().contains("not a factor=level pair"));
        assert!(parse_condition_pairs("=x").unwrap_err().contains("names no factor"));
        assert!(parse_condition_pairs("a=1,").is_err());
        assert!(parse_condition_pairs("a=1\\").unwrap_err().contains("lone"));
    }

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

        #[test]
        fn pairs_read_back_what_condition_id_wrote(
            pairs in proptest::collection::vec(("[a=,\\\\]{1,4}", "[a=,\\\\]{0,4}"), 1..4),
        ) {
            let id = condition_id(pairs.iter().map(|(n, v)| (n.as_str(), v.as_str())));
            prop_assert_eq!(parse_condition_pairs(&id).unwrap(), pairs);
        }
    }
}
