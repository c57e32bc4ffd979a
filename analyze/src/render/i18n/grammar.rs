//! The grammar no template can carry: which of a template pair a count takes, and the English
//! ordinal suffix. Every other word and sentence is a field of a language's table and is filled by
//! [`super::fill`], so the placeholder test in `glossary.rs` sees both languages side by side;
//! this is the one module outside those tables (and `model/`) that holds per-language code, kept
//! small so that a rule of one language has one home.

use crate::model::Lang;
use crate::render::format;

/// The template of a count: `one` for exactly one, `many` otherwise. English is the only one of
/// the report's languages that inflects for number; Japanese tables give the same text for both.
pub fn plural<'a>(n: u64, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// A rank as running text writes it: "69th" in English; Japanese writes the number and lets the
/// template say 番目.
pub fn ordinal(lang: Lang, n: u64) -> String {
    match lang {
        Lang::En => format!("{}{}", format::count(n), english_ordinal_suffix(n)),
        Lang::Ja => format::count(n),
    }
}

/// 1st, 2nd, 3rd, 4th; 11th to 13th; 21st, 111th.
fn english_ordinal_suffix(n: u64) -> &'static str {
    match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_ordinals_take_their_suffix() {
        assert_eq!(ordinal(Lang::En, 69), "69th");
        assert_eq!(ordinal(Lang::En, 1), "1st");
        assert_eq!(ordinal(Lang::En, 22), "22nd");
        assert_eq!(ordinal(Lang::En, 113), "113th");
        assert_eq!(ordinal(Lang::En, 111), "111th");
        assert_eq!(ordinal(Lang::En, 1003), "1,003rd");
    }

    #[test]
    fn japanese_ordinals_are_the_number() {
        assert_eq!(ordinal(Lang::Ja, 1003), "1,003");
    }

    #[test]
    fn one_takes_the_singular_and_every_other_count_the_plural() {
        assert_eq!(plural(1, "run", "runs"), "run");
        assert_eq!(plural(0, "run", "runs"), "runs");
        assert_eq!(plural(2, "run", "runs"), "runs");
    }
}
