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
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum Text {
    Plain(String),
    PerLang(BTreeMap<Lang, String>),
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
