//! The glossary: for each term of the report, the one word each language uses for it, and the
//! variants that crept in before (a chart said ラン where the table said 測定). The tests below
//! hold every string of [`super`] (the pages' words, the charts' words and the sentences built
//! around numbers) to it, and hold the Japanese strings to the punctuation a Japanese technical
//! text uses. Add a term here before using a new word for it anywhere.

use crate::model::Lang;

/// One term: the word in each language and the words that must not stand in for it.
pub struct Term {
    pub en: &'static str,
    pub ja: &'static str,
    pub not_en: &'static [&'static str],
    pub not_ja: &'static [&'static str],
}

pub const GLOSSARY: &[Term] = &[
    Term {
        en: "latency", ja: "応答時間", not_en: &["response time"], not_ja: &["レイテンシ", "遅延時間", "レスポンスタイム"]
    },
    Term { en: "run", ja: "測定", not_en: &["measurement run", "trial"], not_ja: &["ラン", "試行", "実行回"] },
    Term { en: "representative run", ja: "代表の測定", not_en: &["typical run"], not_ja: &["代表測定", "代表的な測定"] },
    Term { en: "condition", ja: "条件", not_en: &[], not_ja: &["コンディション"] },
    Term { en: "factor", ja: "因子", not_en: &[], not_ja: &["要素"] },
    Term { en: "level", ja: "水準", not_en: &[], not_ja: &["レベル"] },
    Term {
        en: "probe request",
        ja: "計測用リクエスト",
        not_en: &[],
        not_ja: &["計測要求", "計測用の要求", "計測用のリクエスト", "プローブ"],
    },
    Term { en: "request", ja: "リクエスト", not_en: &[], not_ja: &["要求"] },
    Term { en: "response", ja: "応答", not_en: &[], not_ja: &["レスポンス"] },
    Term { en: "large response", ja: "大きな応答", not_en: &["big response"], not_ja: &["大きい応答", "巨大"] },
    Term {
        en: "schedule lag",
        ja: "送信の遅れ",
        not_en: &["scheduling lag", "send delay"],
        not_ja: &["スケジュール遅延", "ラグ", "送信遅延"],
    },
    Term { en: "write time", ja: "書き込み時間", not_en: &["server write"], not_ja: &["サーバーの書き込み", "書込"] },
    Term { en: "completion time", ja: "受信完了時間", not_en: &[], not_ja: &["受信側の完了", "完了までの時間"] },
    Term { en: "client", ja: "クライアント", not_en: &[], not_ja: &["受信側"] },
    Term {
        en: "temp file", ja: "一時ファイル", not_en: &["temporary file"], not_ja: &["テンポラリ", "一時的なファイル"]
    },
    Term { en: "sample", ja: "標本", not_en: &[], not_ja: &["サンプル"] },
    Term { en: "log scale", ja: "対数目盛", not_en: &["log axis", "logarithmic"], not_ja: &["対数軸", "対数スケール"] },
    Term { en: "chart", ja: "グラフ", not_en: &["plot"], not_ja: &["この図", "図表", "プロット"] },
    Term { en: "median", ja: "中央値", not_en: &[], not_ja: &["メディアン"] },
    Term {
        en: "min-max range",
        ja: "最小〜最大の範囲",
        not_en: &["min–max", "min to max"],
        not_ja: &["最小-最大", "最小–最大", "最小から最大"],
    },
    Term { en: "spread", ja: "ばらつき", not_en: &[], not_ja: &["散らばり", "バラツキ"] },
    Term { en: "nearest rank", ja: "最近接順位", not_en: &[], not_ja: &["最近順位"] },
    Term { en: "flag", ja: "注意が必要な測定", not_en: &[], not_ja: &["フラグ"] },
    Term { en: "threshold", ja: "閾値", not_en: &[], not_ja: &["しきい値", "閾値値"] },
    Term { en: "limit", ja: "上限", not_en: &[], not_ja: &["基準"] },
    Term { en: "verdict", ja: "判定", not_en: &[], not_ja: &["結論"] },
    Term { en: "ECDF", ja: "累積分布", not_en: &[], not_ja: &["経験分布"] },
    Term { en: "host load", ja: "ホストの負荷", not_en: &[], not_ja: &["ホスト負荷"] },
    Term { en: "app", ja: "アプリ", not_en: &[], not_ja: &["アプリケーション"] },
    Term { en: "ok", ja: "正常", not_en: &[], not_ja: &["okの"] },
    Term { en: "this report", ja: "本レポート", not_en: &[], not_ja: &["本書"] },
    Term { en: "original article", ja: "元の記事", not_en: &[], not_ja: &["原著", "元記事", "オリジナル記事"] },
    Term { en: "baseline", ja: "ベースライン", not_en: &[], not_ja: &["基準データ", "比較元"] },
    Term { en: "candidate", ja: "比較対象", not_en: &[], not_ja: &["候補", "比較先"] },
    Term { en: "regression", ja: "悪化", not_en: &[], not_ja: &["リグレッション", "デグレ", "劣化"] },
    Term { en: "objective", ja: "SLO", not_en: &[], not_ja: &["サービスレベル", "目標値"] },
];

/// Every string of one language: the pages' words, the charts' words and, with sample
/// numbers, every sentence built around numbers.
pub fn every_string(lang: Lang) -> Vec<String> {
    let mut out = Vec::new();
    for value in [
        serde_json::to_value(super::strings(lang)),
        serde_json::to_value(super::charts::labels(lang)),
        serde_json::to_value(super::tool_words(lang)),
        serde_json::to_value(super::rule_words(lang)),
        serde_json::to_value(super::lead::lead_words(lang)),
        serde_json::to_value(super::lead::paired_words(lang)),
        serde_json::to_value(super::compare::words(lang)),
        serde_json::to_value(super::slo::words(lang)),
        serde_json::to_value(super::hints::words(lang)),
        serde_json::to_value(super::counted::words(lang)),
        serde_json::to_value(super::site::words(lang)),
    ] {
        let Ok(serde_json::Value::Object(map)) = value else { panic!("the words serialize as an object") };
        out.extend(map.into_values().filter_map(|v| v.as_str().map(str::to_string)));
    }
    for metric in crate::model::HeadlineMetric::ALL {
        let Ok(serde_json::Value::Object(map)) = serde_json::to_value(super::metric_words(lang, metric)) else {
            panic!("the metric's words serialize as an object")
        };
        out.extend(map.into_values().filter_map(|v| v.as_str().map(str::to_string)));
    }
    out.extend(super::charts::samples(lang));
    out.extend(super::prose::samples(lang));
    out.extend(super::published::samples(lang));
    out.extend(super::notes::samples(lang));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::format::is_cjk;

    fn offenders(lang: Lang, bad: impl Fn(&str) -> Option<String>) -> Vec<String> {
        every_string(lang).iter().filter_map(|s| bad(s).map(|why| format!("{why}: {s}"))).collect()
    }

    /// Every template of one language by its name: the pages' words, the charts' words, each
    /// metric's, the tools', the rules', the published section's, the lead's, the comparison's
    /// and the objectives' words.
    fn named_templates(lang: Lang) -> Vec<(String, String)> {
        let mut values = vec![
            ("".to_string(), serde_json::to_value(super::super::strings(lang)).unwrap()),
            ("charts.".to_string(), serde_json::to_value(super::super::charts::labels(lang)).unwrap()),
            ("tools.".to_string(), serde_json::to_value(super::super::tool_words(lang)).unwrap()),
            ("published.".to_string(), serde_json::to_value(super::super::published::words(lang)).unwrap()),
            ("lead.".to_string(), serde_json::to_value(super::super::lead::lead_words(lang)).unwrap()),
            ("paired.".to_string(), serde_json::to_value(super::super::lead::paired_words(lang)).unwrap()),
            ("compare.".to_string(), serde_json::to_value(super::super::compare::words(lang)).unwrap()),
            ("slo.".to_string(), serde_json::to_value(super::super::slo::words(lang)).unwrap()),
            ("hints.".to_string(), serde_json::to_value(super::super::hints::words(lang)).unwrap()),
            ("counted.".to_string(), serde_json::to_value(super::super::counted::words(lang)).unwrap()),
            ("site.".to_string(), serde_json::to_value(super::super::site::words(lang)).unwrap()),
            ("rules.".to_string(), serde_json::to_value(super::super::rule_words(lang)).unwrap()),
        ];
        for metric in crate::model::HeadlineMetric::ALL {
            values.push((format!("{metric:?}."), serde_json::to_value(super::super::metric_words(lang, metric)).unwrap()));
        }
        let mut out = Vec::new();
        for (prefix, value) in values {
            let serde_json::Value::Object(map) = value else { panic!("the words serialize as an object") };
            out.extend(map.into_iter().filter_map(|(k, v)| v.as_str().map(|s| (format!("{prefix}{k}"), s.to_string()))));
        }
        out
    }

    /// The `{name}` placeholders of a template, sorted.
    fn placeholders(template: &str) -> Vec<String> {
        let mut out: Vec<String> = template
            .split('{')
            .skip(1)
            .filter_map(|rest| rest.split_once('}').map(|(name, _)| name))
            .filter(|name| !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
            .map(str::to_string)
            .collect();
        out.sort();
        out.dedup();
        out
    }

    #[test]
    fn both_languages_carry_the_same_placeholders_in_every_template() {
        let en: std::collections::BTreeMap<String, String> = named_templates(Lang::En).into_iter().collect();
        let ja: std::collections::BTreeMap<String, String> = named_templates(Lang::Ja).into_iter().collect();
        assert_eq!(en.keys().collect::<Vec<_>>(), ja.keys().collect::<Vec<_>>(), "the same templates in both languages");
        let differing: Vec<String> = en
            .iter()
            .filter(|(name, text)| placeholders(text) != placeholders(&ja[*name]))
            .map(|(name, text)| format!("{name}: en {:?} ja {:?}", placeholders(text), placeholders(&ja[name])))
            .collect();
        assert!(differing.is_empty(), "templates whose placeholders differ between en and ja:\n{}", differing.join("\n"));
    }

    /// A note's sentences are pairs in one table (`NoteKey::words`), not the EN/JA statics
    /// above: each carries exactly its key's parameters in both languages.
    #[test]
    fn every_note_sentence_carries_its_key_s_parameters_in_both_languages() {
        let differing: Vec<String> = crate::model::NoteKey::ALL
            .iter()
            .filter_map(|&key| {
                let (en, ja) = key.words();
                let mut params: Vec<String> = key.params().iter().map(|p| p.to_string()).collect();
                params.sort();
                (placeholders(en) != params || placeholders(ja) != params)
                    .then(|| format!("{key:?}: params {params:?} en {:?} ja {:?}", placeholders(en), placeholders(ja)))
            })
            .collect();
        assert!(differing.is_empty(), "note sentences whose placeholders differ from their key's parameters:\n{}", differing.join("\n"));
    }

    #[test]
    fn placeholders_are_found_by_name() {
        assert_eq!(placeholders("{n} of {total}, {n} again, {not a name}, {}"), vec!["n", "total"]);
    }

    #[test]
    fn every_string_uses_the_glossary_word_for_each_term() {
        for lang in Lang::ALL {
            let found = offenders(lang, |s| {
                GLOSSARY.iter().find_map(|term| {
                    let (avoid, word) = match lang {
                        Lang::En => (term.not_en, term.en),
                        Lang::Ja => (term.not_ja, term.ja),
                    };
                    avoid
                        .iter()
                        .find(|a| s.to_lowercase().contains(&a.to_lowercase()))
                        .map(|a| format!("\"{a}\" where the glossary says \"{word}\""))
                })
            });
            assert!(found.is_empty(), "{lang:?}:\n{}", found.join("\n"));
        }
    }

    #[test]
    fn glossary_terms_are_used_in_the_report() {
        let en = every_string(Lang::En).join("\n").to_lowercase();
        let ja = every_string(Lang::Ja).join("\n");
        for term in GLOSSARY {
            assert!(en.contains(&term.en.to_lowercase()), "no English string uses \"{}\"", term.en);
            assert!(ja.contains(term.ja), "no Japanese string uses \"{}\"", term.ja);
        }
    }

    /// Japanese text takes full-width punctuation next to Japanese words, 〜 for ranges and no
    /// space between two Japanese characters.
    #[test]
    fn japanese_strings_use_japanese_punctuation() {
        let found = offenders(Lang::Ja, |s| {
            let chars: Vec<char> = s.chars().collect();
            for (i, &c) in chars.iter().enumerate() {
                let before = i.checked_sub(1).map(|j| chars[j]);
                let after = chars.get(i + 1).copied();
                // A Japanese letter, not punctuation: "P(B ≤ k-1)（B" is a formula beside a
                // full-width parenthesis, which is how it is written.
                let letter = |c: char| is_cjk(c) && !"（）「」『』、。：；〜・".contains(c);
                let touches_ja = before.is_some_and(letter) || after.is_some_and(letter);
                match c {
                    ':' | '(' | ')' | ',' | ';' if touches_ja => return Some(format!("ASCII '{c}' next to Japanese")),
                    '–' | '—' => return Some("a dash where Japanese writes 〜".to_string()),
                    '·' if touches_ja => return Some("'·' next to Japanese".to_string()),
                    ' ' if before.is_some_and(is_cjk) && after.is_some_and(is_cjk) => {
                        return Some("a space between two Japanese characters".to_string())
                    }
                    _ => {}
                }
            }
            None
        });
        assert!(found.is_empty(), "{}", found.join("\n"));
    }

    /// Every dataset's articles use the same words as the report around them.
    #[test]
    fn every_article_uses_the_glossary_words() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../datasets");
        let mut checked = 0;
        for entry in std::fs::read_dir(&root).expect("the datasets folder") {
            let dir = entry.expect("a dataset").path();
            for (file, lang) in [("article.md", Lang::En), ("article.ja.md", Lang::Ja)] {
                let Ok(text) = std::fs::read_to_string(dir.join(file)) else { continue };
                checked += 1;
                for term in GLOSSARY {
                    let avoid = if lang == Lang::En { term.not_en } else { term.not_ja };
                    for a in avoid {
                        assert!(
                            !text.to_lowercase().contains(&a.to_lowercase()),
                            "{}/{file} says \"{a}\" where the glossary says \"{}\"",
                            dir.display(),
                            if lang == Lang::En { term.en } else { term.ja }
                        );
                    }
                }
            }
        }
        assert!(checked >= 10, "every one of the five datasets has both articles: {checked} found");
    }

    /// English strings carry no Japanese punctuation (a copy-paste between the two tables).
    #[test]
    fn english_strings_use_english_punctuation() {
        let found = offenders(Lang::En, |s| s.chars().find(|&c| "：、。（）〜「」".contains(c) || is_cjk(c)).map(|c| format!("'{c}'")));
        // The link to the other language is its name in that language.
        let found: Vec<String> = found.into_iter().filter(|f| !f.ends_with(": 日本語")).collect();
        assert!(found.is_empty(), "{}", found.join("\n"));
    }
}
