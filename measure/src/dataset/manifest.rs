//! dataset.toml: the document measure generates (built with `toml_edit`, so every string, key and table is
//! quoted and laid out by the TOML crate), and writing it without losing what a user put there.
//!
//! measure generates dataset.toml from the plan and rewrites it after every run and on `--resume`, but the
//! file is also where a user adds what only they know (`[published]` numbers, `[thresholds]`, `lang`,
//! comments) or corrects a label. So an existing file wins: measure adds the keys it lacks and keeps
//! `[environment]` current (its keys are set to what measure recorded; keys measure does not record stay),
//! and leaves every other key, comment and layout as it found them. Deleting a key has measure write its own
//! again. With no existing file the generated text is written as is.

use super::{write_atomic, MANIFEST_FILE};
use crate::input::BadInput;
use crate::plan::Text;
use anyhow::{anyhow, Context, Result};
use std::collections::BTreeMap;
use std::path::Path;
use toml_edit::{value, Array, ArrayOfTables, DocumentMut, InlineTable, Item, Table, TableLike, Value};

/// The table measure keeps current in an existing file.
const ENVIRONMENT: &str = "environment";

/// Free-form facts about the machine and the tools, as `[environment]` string pairs.
pub type Environment = BTreeMap<String, String>;

/// The `[environment]` of an existing dataset.toml (kept when a study is resumed); text that is not TOML
/// is [`BadInput`] at its line and column.
pub fn read_environment(path: &Path, dataset_toml: &str) -> Result<Environment> {
    let table: toml::Table = dataset_toml.parse().map_err(|e| BadInput::toml(path, dataset_toml, &e))?;
    let Some(env) = table.get(ENVIRONMENT).and_then(|e| e.as_table()) else {
        return Ok(Environment::new());
    };
    let recorded = |v: &toml::Value| v.as_str().or_else(|| v.get("en").and_then(toml::Value::as_str)).map(str::to_owned);
    Ok(env.iter().map(|(k, v)| (k.clone(), recorded(v).unwrap_or_else(|| v.to_string()))).collect())
}

/// What an `[environment]` value says measure recorded: the string, or the English of a value given
/// per language (`{ en = "...", ja = "..." }`, which a user writes so Japanese pages read it in Japanese).
fn recorded_text(item: &Item) -> Option<&str> {
    item.as_str().or_else(|| item.as_table_like()?.get("en")?.as_str())
}

/// `{ en = "...", ja = "..." }`.
fn inline(text: &Text) -> Value {
    Value::InlineTable(InlineTable::from_iter([("en", text.en.as_str()), ("ja", text.ja.as_str())]))
}

/// One level of a factor, in the order the report shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Level {
    pub value: String,
    pub label: Text,
}

/// One `[[factors]]` entry; `levels` fixes the order and labels of its values (else analyze sorts them).
#[derive(Debug, Clone, PartialEq)]
pub struct Factor {
    pub name: String,
    pub label: Text,
    pub levels: Option<Vec<Level>>,
}

/// What measure writes into dataset.toml: only keys `analyze` reads (it denies unknown ones).
#[derive(Debug, Clone)]
pub struct Generated<'a> {
    /// The comment on the first line (without `# `).
    pub comment: &'a str,
    pub title: Text,
    pub description: Text,
    pub percentile: u32,
    pub large_response_bytes: Option<u64>,
    pub x: String,
    pub series: Vec<String>,
    pub factors: Vec<Factor>,
    pub environment: &'a Environment,
    /// The sessions' step names, step 0 first (`[sessions] steps`); empty without sessions.
    pub session_steps: Vec<Text>,
    /// `[report]`: how analyze leads the report (its headline metric); none: analyze's default.
    pub report: Option<toml::Table>,
    /// `[history]`: the series and the revision measured (a command plan's `[code] revision`).
    pub history: Option<(String, String)>,
}

impl Generated<'_> {
    /// The document, laid out as measure has always written it: text as inline tables, one level a line.
    pub fn document(&self) -> DocumentMut {
        let mut doc = DocumentMut::new();
        doc.insert("title", value(inline(&self.title)));
        if let Some(mut key) = doc.key_mut("title") {
            key.leaf_decor_mut().set_prefix(format!("# {}\n", self.comment));
        }
        doc.insert("description", value(inline(&self.description)));
        doc.insert("percentile", value(i64::from(self.percentile)));
        if let Some(bytes) = self.large_response_bytes {
            doc.insert("large_response_bytes", value(i64::try_from(bytes).unwrap_or(i64::MAX)));
        }
        doc.insert("x", value(self.x.as_str()));
        doc.insert("series", value(Array::from_iter(self.series.iter().map(String::as_str))));
        if let Some(report) = &self.report {
            // The headline first, then the other keys (in the order of their names); each value through
            // its TOML text, which toml_edit reads back as it was.
            let mut table = Table::new();
            let keys = report.keys().filter(|k| *k == "headline").chain(report.keys().filter(|k| *k != "headline"));
            for key in keys {
                if let Ok(v) = report[key].to_string().parse::<Value>() {
                    table.insert(key, value(v));
                }
            }
            doc.insert("report", Item::Table(table));
        }
        let mut factors = ArrayOfTables::new();
        for factor in &self.factors {
            let mut table = Table::new();
            table.insert("name", value(factor.name.as_str()));
            table.insert("label", value(inline(&factor.label)));
            if let Some(levels) = &factor.levels {
                table.insert("levels", value(one_a_line(levels.iter().map(level_entry))));
            }
            factors.push(table);
        }
        doc.insert("factors", Item::ArrayOfTables(factors));
        if !self.session_steps.is_empty() {
            let mut sessions = Table::new();
            sessions.insert("steps", value(one_a_line(self.session_steps.iter().map(inline))));
            doc.insert("sessions", Item::Table(sessions));
        }
        if let Some((series, revision)) = &self.history {
            let mut history = Table::new();
            history.insert("series", value(series.as_str()));
            history.insert("revision", value(revision.as_str()));
            doc.insert("history", Item::Table(history));
        }
        let mut environment = Table::new();
        for (k, v) in self.environment {
            environment.insert(k, value(v.as_str()));
        }
        doc.insert(ENVIRONMENT, Item::Table(environment));
        doc
    }
}

/// `{ value = ..., label = ... }`.
fn level_entry(level: &Level) -> Value {
    let mut entry = InlineTable::new();
    entry.insert("value", level.value.as_str().into());
    entry.insert("label", inline(&level.label));
    Value::InlineTable(entry)
}

/// `[\n    { ... },\n]`: one entry (a level, a step) a line, so a diff shows the one that changed.
fn one_a_line(entries: impl IntoIterator<Item = Value>) -> Array {
    let mut array = Array::new();
    for mut entry in entries {
        entry.decor_mut().set_prefix("\n    ");
        entry.decor_mut().set_suffix("");
        array.push_formatted(entry);
    }
    array.set_trailing_comma(true);
    array.set_trailing("\n");
    array
}

/// Writes `dir/dataset.toml`: `generated` merged into the file already there, if any. An existing file that
/// is not valid TOML is refused with its line and column and left as it is.
pub fn write_dataset_toml(dir: &Path, generated: &Generated) -> Result<()> {
    let path = dir.join(MANIFEST_FILE);
    let fresh = generated.document();
    let text = match std::fs::read_to_string(&path) {
        Ok(existing) => merge(&existing, &fresh).map_err(|e| {
            anyhow!("{}:{e}; measure keeps what this file holds, so it must be valid TOML: fix it and run again", path.display())
        })?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => fresh.to_string(),
        Err(e) => return Err(e).with_context(|| format!("failed to read {}", path.display())),
    };
    write_atomic(dir, MANIFEST_FILE, &text)
}

/// `existing` with the keys of `generated` it lacks added and its `[environment]` updated from
/// `generated`'s. An error names the line and column of `existing` (`3:7: message`).
pub fn merge(existing: &str, fresh: &DocumentMut) -> Result<String, String> {
    let mut doc: DocumentMut = existing.parse().map_err(|e: toml_edit::TomlError| located(existing, &e))?;
    for (key, item) in fresh.iter() {
        if key != ENVIRONMENT && !doc.contains_key(key) {
            doc.insert(key, item.clone());
        }
    }
    let Some(recorded) = fresh.get(ENVIRONMENT).and_then(Item::as_table_like) else {
        return Ok(doc.to_string());
    };
    if !doc.contains_key(ENVIRONMENT) {
        doc.insert(ENVIRONMENT, fresh[ENVIRONMENT].clone());
    } else if let Some(env) = doc.get_mut(ENVIRONMENT).and_then(Item::as_table_like_mut) {
        update_environment(env, recorded);
    } else {
        return Err(format!("{}: `environment` is not a table of strings", line_of_key(existing, ENVIRONMENT)));
    }
    Ok(doc.to_string())
}

/// Sets each recorded key to its recorded value (keeping a changed value's comment), then orders the table
/// by key as measure writes it; a key the user added stays.
fn update_environment(env: &mut dyn TableLike, recorded: &dyn TableLike) {
    let mut changed = false;
    for (key, item) in recorded.iter() {
        let value = item.as_str();
        match env.get_mut(key) {
            // A value given per language whose English is what was recorded keeps its translation.
            Some(old) if recorded_text(old) == value => {}
            Some(old) => {
                let decor = old.as_value().map(|v| v.decor().clone());
                *old = item.clone();
                if let (Some(decor), Some(new)) = (decor, old.as_value_mut()) {
                    *new.decor_mut() = decor;
                }
                changed = true;
            }
            None => {
                env.insert(key, item.clone());
                changed = true;
            }
        }
    }
    if changed {
        env.sort_values();
    }
}

/// `line:column: message` of a parse error.
fn located(text: &str, e: &toml_edit::TomlError) -> String {
    let start = e.span().map_or(0, |s| s.start).min(text.len());
    let before = &text[..start];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("{line}:{column}: {}", e.message().trim_end().replace('\n', ": "))
}

/// `line:1` of the first line defining `key` at the top level (for a message about a key of the wrong type).
fn line_of_key(text: &str, key: &str) -> String {
    let line = text
        .lines()
        .position(|l| {
            let l = l.trim_start();
            l.strip_prefix(key).is_some_and(|rest| rest.trim_start().starts_with('=')) || l.starts_with(&format!("[{key}]"))
        })
        .map_or(1, |i| i + 1);
    format!("{line}:1")
}

/// The environment the layout fixtures in `testdata/` were written with by the hand-written renderer this
/// module replaced: keys and values that need every kind of TOML quoting.
#[cfg(test)]
pub(crate) fn fixture_environment() -> Environment {
    [
        ("kernel", "6.12"),
        ("odd key", "a \"quoted\" | value"),
        ("python_3.11", "3.11.2 (/usr/bin/python3)"),
        ("back\\slash", "c:\\dir\\"),
        ("esc", "bell\u{7} esc\u{1b} nl\n tab\t"),
        ("ja", "日本語の値"),
        ("it's", "it's 'single'"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const GENERATED: &str = "# Generated by `measure run`; read by `analyze`.\n\
        title = { en = \"Slow\", ja = \"遅い\" }\n\
        description = { en = \"Slow clients\", ja = \"遅いクライアント\" }\n\
        percentile = 95\n\
        x = \"downloads\"\n\
        series = [\"route\"]\n\
        \n[[factors]]\nname = \"route\"\nlabel = { en = \"Route\", ja = \"経路\" }\n\
        levels = [\n    { value = \"direct\", label = { en = \"direct\", ja = \"直接\" } },\n    \
        { value = \"nginx-on\", label = { en = \"nginx\", ja = \"NGINX\" } },\n]\n\
        \n[[factors]]\nname = \"downloads\"\nlabel = { en = \"Downloads\", ja = \"ダウンロード\" }\n\
        \n[environment]\nkernel = \"6.12\"\nmeasured_on = \"2026-11-30\"\nresumed_on = \"2026-12-01\"\n";

    fn environment() -> Environment {
        [("kernel", "6.12"), ("measured_on", "2026-11-30"), ("resumed_on", "2026-12-01")]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn generated(environment: &Environment) -> Generated<'_> {
        let level = |value: &str, en: &str, ja: &str| Level { value: value.into(), label: Text::new(en, ja) };
        Generated {
            comment: "Generated by `measure run`; read by `analyze`.",
            title: Text::new("Slow", "遅い"),
            description: Text::new("Slow clients", "遅いクライアント"),
            percentile: 95,
            large_response_bytes: None,
            x: "downloads".into(),
            series: vec!["route".into()],
            factors: vec![
                Factor {
                    name: "route".into(),
                    label: Text::new("Route", "経路"),
                    levels: Some(vec![level("direct", "direct", "直接"), level("nginx-on", "nginx", "NGINX")]),
                },
                Factor { name: "downloads".into(), label: Text::new("Downloads", "ダウンロード"), levels: None },
            ],
            environment,
            session_steps: Vec::new(),
            report: None,
            history: None,
        }
    }

    fn fresh() -> DocumentMut {
        GENERATED.parse().unwrap()
    }

    #[test]
    fn the_document_is_laid_out_as_measure_always_wrote_it() {
        assert_eq!(generated(&environment()).document().to_string(), GENERATED);
    }

    /// Hostile keys and values are quoted by the TOML crate and read back as they were.
    #[test]
    fn hostile_text_reads_back_unchanged() {
        let env: Environment = [
            ("odd key", "a \"quoted\" | value"),
            ("python_3.11", "3.11.2 (/usr/bin/python3)"),
            ("back\\slash", "c:\\dir\\"),
            ("controls", "bell\u{7} esc\u{1b} nl\n tab\t"),
            ("it's", "it's 'single' and \"double\""),
            ("", "empty key"),
            ("日本語", "値\u{3000}全角スペース"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let mut g = generated(&env);
        g.title = Text::new("\"]\n[evil]\nx = 1 #", "'''\n\"\"\"");
        let text = g.document().to_string();
        let parsed: toml::Table = text.parse().unwrap();
        assert_eq!(parsed["title"]["en"].as_str(), Some("\"]\n[evil]\nx = 1 #"));
        assert_eq!(parsed["title"]["ja"].as_str(), Some("'''\n\"\"\""));
        assert!(!parsed.contains_key("evil"));
        let back: Environment =
            parsed["environment"].as_table().unwrap().iter().map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string())).collect();
        assert_eq!(back, env);
        assert!(text.contains("\"python_3.11\" = \"3.11.2 (/usr/bin/python3)\"\n"), "{text}");
    }

    #[test]
    fn an_unedited_file_is_rewritten_to_the_generated_bytes() {
        let before = GENERATED.replace("resumed_on = \"2026-12-01\"\n", "");
        assert_eq!(merge(&before, &fresh()).unwrap(), GENERATED);
        assert_eq!(merge(GENERATED, &fresh()).unwrap(), GENERATED);
    }

    #[test]
    fn keeps_published_values_thresholds_comments_and_edited_labels() {
        let edited = GENERATED.replace("resumed_on = \"2026-12-01\"\n", "").replace("ja = \"遅い\"", "ja = \"遅いクライアント\"")
            + "\n# From the study's table 1.\n[published]\nsource = { en = \"the study\", ja = \"元の記事\" }\n\
               values = [\n    { condition = \"route=direct\", metric = \"p95\", value_ms = 1.57 },\n]\n\
               \n[thresholds]\nlag_ms = 30\n";
        let merged = merge(&edited, &fresh()).unwrap();
        let expected = edited.replace("measured_on = \"2026-11-30\"\n", "measured_on = \"2026-11-30\"\nresumed_on = \"2026-12-01\"\n");
        assert_eq!(merged, expected);
        assert!(merged.contains("# From the study's table 1.\n[published]\n") && merged.contains("value_ms = 1.57"));
        assert!(merged.contains("ja = \"遅いクライアント\""), "the user's label wins: {merged}");
    }

    #[test]
    fn environment_takes_what_measure_recorded_and_keeps_the_users_keys() {
        let edited = "title = { en = \"Mine\", ja = \"私の\" }\n\n[environment]\nrack = \"b7\" # where it ran\n\
                      kernel = \"6.1\" # the old one\n";
        let merged = merge(edited, &fresh()).unwrap();
        let env = merged.split("[environment]\n").nth(1).unwrap().split("\n\n").next().unwrap();
        assert_eq!(
            env,
            "kernel = \"6.12\" # the old one\nmeasured_on = \"2026-11-30\"\nrack = \"b7\" # where it ran\nresumed_on = \"2026-12-01\""
        );
        assert!(merged.starts_with("title = { en = \"Mine\", ja = \"私の\" }\ndescription = "), "{merged}");
        assert!(merged.contains("[[factors]]\nname = \"route\""), "a missing key is added: {merged}");
    }

    #[test]
    fn a_file_holding_only_published_values_gets_everything_else() {
        let user = "[published]\nvalues = [{ condition = \"route=direct\", metric = \"p95\", value_ms = 2 }]\n";
        let merged = merge(user, &fresh()).unwrap();
        let parsed: toml::Table = merged.parse().unwrap();
        let keys: Vec<&str> = parsed.keys().map(String::as_str).collect();
        assert_eq!(keys, ["description", "environment", "factors", "percentile", "published", "series", "title", "x"]);
        assert_eq!(parsed["published"]["values"][0]["value_ms"].as_integer(), Some(2));
        assert_eq!(parsed["environment"]["kernel"].as_str(), Some("6.12"));
    }

    #[test]
    fn invalid_toml_names_its_line_and_column_and_the_file_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let broken = "title = { en = \"Slow\" }\n[published]\nvalues = [ {\n";
        std::fs::write(dir.path().join(MANIFEST_FILE), broken).unwrap();
        let env = environment();
        let err = format!("{:#}", write_dataset_toml(dir.path(), &generated(&env)).unwrap_err());
        assert!(err.contains("dataset.toml:3:13: invalid inline table: expected `}`; measure keeps"), "{err}");
        assert_eq!(std::fs::read_to_string(dir.path().join(MANIFEST_FILE)).unwrap(), broken);
        let err = merge("x = 1\nenvironment = 3\n", &fresh()).unwrap_err();
        assert!(err.starts_with("2:1: `environment` is not a table"), "{err}");
    }

    #[test]
    fn a_new_folder_gets_the_generated_text() {
        let dir = tempfile::tempdir().unwrap();
        let env = environment();
        write_dataset_toml(dir.path(), &generated(&env)).unwrap();
        assert_eq!(std::fs::read_to_string(dir.path().join(MANIFEST_FILE)).unwrap(), GENERATED);
    }
}
