//! The report languages and text given per language.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A report language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    #[default]
    En,
    Ja,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Ja];

    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ja => "ja",
        }
    }

    pub fn parse(code: &str) -> Option<Lang> {
        match code {
            "en" => Some(Lang::En),
            "ja" => Some(Lang::Ja),
            _ => None,
        }
    }
}

/// Text given once for every language, or per language (`{ en = "...", ja = "..." }`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Text {
    Plain(String),
    PerLang(BTreeMap<Lang, String>),
}

/// What a text is, as a refusal says it.
const TEXT_IS: &str = "a string, or a table with `en` and/or `ja` strings";
/// A text of two languages, as a refusal shows one.
const TEXT_EXAMPLE: &str = "`{ en = \"Slow\", ja = \"遅い\" }`";

/// A string, or a table of languages: written by hand rather than derived, so a mistake is
/// named (`fr` is not a language) instead of serde's "did not match any variant of untagged enum".
impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Text, D::Error> {
        deserializer.deserialize_any(TextVisitor)
    }
}

struct TextVisitor;

impl<'de> serde::de::Visitor<'de> for TextVisitor {
    type Value = Text;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "a text ({TEXT_IS})")
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Text, E> {
        Ok(Text::Plain(text.to_string()))
    }

    fn visit_string<E: serde::de::Error>(self, text: String) -> Result<Text, E> {
        Ok(Text::Plain(text))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Text, A::Error> {
        use serde::de::Error;
        let mut texts = BTreeMap::new();
        while let Some(key) = map.next_key::<String>()? {
            let Some(lang) = Lang::parse(&key) else {
                return Err(A::Error::custom(format!("`{key}` is not a language: a text is {TEXT_IS}, e.g. {TEXT_EXAMPLE}")));
            };
            let text = map
                .next_value::<String>()
                .map_err(|_| A::Error::custom(format!("`{key}` is not a string: a text is {TEXT_IS}, e.g. {TEXT_EXAMPLE}")))?;
            texts.insert(lang, text);
        }
        if texts.is_empty() {
            return Err(A::Error::custom(format!("an empty table is no text: a text is {TEXT_IS}, e.g. {TEXT_EXAMPLE}")));
        }
        Ok(Text::PerLang(texts))
    }
}

impl Text {
    /// The text in `lang`, else English, else any language given.
    pub fn get(&self, lang: Lang) -> &str {
        match self {
            Text::Plain(text) => text,
            Text::PerLang(map) => {
                map.get(&lang).or_else(|| map.get(&Lang::En)).or_else(|| map.values().next()).map(String::as_str).unwrap_or("")
            }
        }
    }
}
