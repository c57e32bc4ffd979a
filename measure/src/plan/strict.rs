//! Reading a plan's text into its kind's struct with every structural problem at once: each unknown key
//! (a typo), each value of the wrong type or out of its set (`tool = "jmeter"`), and a missing key, each
//! named by its key path so the error places it at its line and column.
//!
//! serde stops at the first problem. So the text is parsed once into a `toml_edit` document (which keeps
//! where each key was written), then deserialized; at an error, the key it points at is recorded and taken
//! out of the document, and the deserialization runs again, until it succeeds or meets a problem it cannot
//! go past (a missing key). The structs keep `deny_unknown_fields`: they stay the one list of known keys.

use super::locate::KeyPath;
use super::{PlanError, Problem};
use serde::de::DeserializeOwned;
use std::ops::Range;
use toml_edit::{DocumentMut, ImDocument, Item, Table, TableLike, Value};

/// At most this many structural problems are reported (each costs one more pass over the plan).
const MAX_PROBLEMS: usize = 50;

/// `text` as a `T`, with the unknown keys it holds (left out, they change nothing of the `T`, so the
/// caller checks its rules too and reports everything at once); or every structural problem, when a value
/// of the wrong type or a missing key leaves no `T` to check.
pub fn deserialize<T: DeserializeOwned>(text: &str) -> Result<(T, Vec<Problem>), PlanError> {
    let doc = ImDocument::parse(text.to_owned())
        .map_err(|e| PlanError::Syntax { message: e.message().trim_end().to_string(), span: e.span() })?;
    let mut root: Table = doc.as_table().clone();
    let mut problems: Vec<Problem> = Vec::new();
    // Keys taken out for a problem already reported: their "missing field" is not a second problem.
    let mut removed: Vec<String> = Vec::new();
    // Whether every problem so far is an unknown key.
    let mut only_unknown = true;
    loop {
        let error = match toml_edit::de::from_document::<T>(DocumentMut::from(root.clone())) {
            Ok(value) if only_unknown => return Ok((value, problems)),
            Ok(_) => return Err(PlanError::Problems(problems)),
            Err(error) => error,
        };
        only_unknown &= error.message().starts_with("unknown field `");
        let message = error.message().trim_end().replace('\n', " ");
        let start = error.span().map(|s| s.start);
        if let Some(field) = missing_field(&message) {
            let table = error.span().and_then(|span| table_at(&root, &span, &KeyPath::top())).unwrap_or_else(KeyPath::top);
            if !removed.iter().any(|r| r == field) {
                problems.push(Problem::new(table.key(field), format!("is required and missing (in {})", where_table(&table))));
            }
            // The table's other keys have been read: without it, the rest of the plan can be.
            if table.is_top() || remove(&mut root, &table).is_none() {
                return Err(PlanError::Problems(problems));
            }
            removed.push(table.last_key().unwrap_or_default().to_string());
            continue;
        }
        let Some(path) = start.and_then(|s| remove_at(&mut root, s)) else {
            problems.push(Problem::new(KeyPath::top(), message));
            return Err(PlanError::Problems(problems));
        };
        removed.push(path.last_key().unwrap_or_default().to_string());
        problems.push(Problem::new(path, plain(&message)));
        if problems.len() >= MAX_PROBLEMS {
            return Err(PlanError::Problems(problems));
        }
    }
}

/// The field a "missing field `x`" message names.
fn missing_field(message: &str) -> Option<&str> {
    message.strip_prefix("missing field `")?.split('`').next()
}

/// `the top level` or `load`.
fn where_table(table: &KeyPath) -> String {
    if table.is_top() {
        "the top level".into()
    } else {
        table.to_string()
    }
}

/// serde's "unknown field `sead`, expected one of ..." said as a typo.
fn plain(message: &str) -> String {
    match message.strip_prefix("unknown field `").and_then(|rest| rest.split_once("`, ")) {
        Some((_, expected)) => format!("unknown key (a typo?); {expected}"),
        None => message.to_string(),
    }
}

fn contains(span: Option<Range<usize>>, at: usize) -> bool {
    span.is_some_and(|s| s.start <= at && at < s.end.max(s.start + 1))
}

/// What a step can descend into, mutably.
enum NodeMut<'a> {
    Table(&'a mut dyn TableLike),
    Tables(&'a mut toml_edit::ArrayOfTables),
}

fn node_of(item: &mut Item) -> Option<NodeMut<'_>> {
    match item {
        Item::Table(t) => Some(NodeMut::Table(t)),
        Item::Value(Value::InlineTable(t)) => Some(NodeMut::Table(t)),
        Item::ArrayOfTables(a) => Some(NodeMut::Tables(a)),
        _ => None,
    }
}

/// The deepest key written at byte `at`: its path, and whether it is a table (to go on into).
fn find(table: &dyn TableLike, at: usize, path: &KeyPath) -> Option<KeyPath> {
    for (key, item) in table.iter() {
        let key_span = table.get_key_value(key).and_then(|(k, _)| k.span());
        let item_here = contains(item.span(), at) || contains(key_span.clone(), at);
        let inner = match item {
            Item::Table(t) => find(t, at, &path.key(key)),
            Item::Value(Value::InlineTable(t)) => find(t, at, &path.key(key)),
            Item::ArrayOfTables(a) => a.iter().enumerate().find_map(|(i, t)| {
                let here = path.key(key).index(i);
                find(t, at, &here).or_else(|| contains(t.span(), at).then_some(here))
            }),
            _ => None,
        };
        if inner.is_some() {
            return inner;
        }
        if item_here {
            return Some(path.key(key));
        }
    }
    None
}

/// The path of the key written at byte `at`.
fn path_at(root: &Table, at: usize) -> Option<KeyPath> {
    find(root, at, &KeyPath::top())
}

/// The path of the table (below the top) spanning exactly `span`: where a key is missing.
fn table_at(table: &dyn TableLike, span: &Range<usize>, path: &KeyPath) -> Option<KeyPath> {
    table.iter().find_map(|(key, item)| {
        let here = path.key(key);
        let inner = |t: &dyn TableLike, own: Option<Range<usize>>| {
            if own.as_ref() == Some(span) {
                Some(here.clone())
            } else {
                table_at(t, span, &here)
            }
        };
        match item {
            Item::Table(t) => inner(t, t.span()),
            Item::Value(Value::InlineTable(t)) => inner(t, t.span()),
            Item::ArrayOfTables(a) => a.iter().enumerate().find_map(|(i, t)| {
                let here = here.index(i);
                if t.span().as_ref() == Some(span) {
                    Some(here)
                } else {
                    table_at(t, span, &here)
                }
            }),
            _ => None,
        }
    })
}

/// Takes the key written at byte `at` out of `root`; its path.
fn remove_at(root: &mut Table, at: usize) -> Option<KeyPath> {
    let path = path_at(root, at)?;
    remove(root, &path)
}

/// Takes `path` out of `root`; its path.
fn remove(root: &mut Table, path: &KeyPath) -> Option<KeyPath> {
    let steps = path.steps();
    let (last, parents) = steps.split_last()?;
    let mut node = NodeMut::Table(root);
    for step in parents {
        node = match (node, step) {
            (NodeMut::Table(t), super::locate::Step::Key(k)) => node_of(t.get_mut(k)?)?,
            (NodeMut::Tables(a), super::locate::Step::Index(i)) => NodeMut::Table(a.get_mut(*i)?),
            _ => return None,
        };
    }
    match (node, last) {
        (NodeMut::Table(t), super::locate::Step::Key(k)) => t.remove(k).map(|_| path.clone()),
        (NodeMut::Tables(a), super::locate::Step::Index(i)) => {
            a.remove(*i);
            Some(path.clone())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Plan {
        seed: u64,
        load: Load,
        #[serde(default)]
        blocks: Vec<Block>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Load {
        tool: Tool,
        #[serde(default)]
        requests: u32,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "kebab-case")]
    enum Tool {
        Hey,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Block {
        level: Vec<u32>,
    }

    fn problems(text: &str) -> Vec<String> {
        match deserialize::<Plan>(text) {
            Err(PlanError::Problems(p)) | Ok((_, p)) => p.iter().map(ToString::to_string).collect(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_good_plan_reads_as_its_struct() {
        let plan = deserialize::<Plan>("seed = 1\n[load]\ntool = \"hey\"\nrequests = 5\n").unwrap();
        assert_eq!(plan, (Plan { seed: 1, load: Load { tool: Tool::Hey, requests: 5 }, blocks: Vec::new() }, Vec::new()));
    }

    #[test]
    fn a_plan_with_only_unknown_keys_is_read_without_them_so_its_rules_can_be_checked_too() {
        let (plan, unknown) = deserialize::<Plan>("seed = 1\nsead = 2\n[load]\ntool = \"hey\"\nrequests = 5\n").unwrap();
        assert_eq!(plan.seed, 1);
        assert_eq!(unknown.len(), 1);
        assert!(matches!(
            deserialize::<Plan>("seed = 1\nsead = 2\n[load]\ntool = \"hey\"\nrequests = \"5\"\n"),
            Err(PlanError::Problems(_))
        ));
    }

    #[test]
    fn every_typo_and_bad_value_is_reported_at_once() {
        let text = "sead = 1\nseed = 2\nspeed = 3\n[load]\ntool = \"hey\"\nrequest = 5\nrequests = \"many\"\n\
                    [[blocks]]\nlevel = [1]\n[[blocks]]\nlevels = [2]\n";
        assert_eq!(
            problems(text),
            [
                "sead: unknown key (a typo?); expected one of `seed`, `load`, `blocks`",
                "speed: unknown key (a typo?); expected one of `seed`, `load`, `blocks`",
                "load.request: unknown key (a typo?); expected `tool` or `requests`",
                "load.requests: invalid type: string \"many\", expected u32",
                "blocks[1].levels: unknown key (a typo?); expected `level`",
                "blocks[1].level: is required and missing (in blocks[1])",
            ]
        );
    }

    #[test]
    fn a_missing_key_is_named_with_its_table_after_the_rest() {
        assert_eq!(
            problems("sead = 1\nseed = 2\n[load]\nrequests = 5\n"),
            ["sead: unknown key (a typo?); expected one of `seed`, `load`, `blocks`", "load.tool: is required and missing (in load)"]
        );
        // A table without a key it needs is set aside, so the keys after it are still read.
        assert_eq!(
            problems("[load]\nrequests = 5\n[[blocks]]\nlevl = 1\n"),
            [
                "load.tool: is required and missing (in load)",
                "blocks[0].levl: unknown key (a typo?); expected `level`",
                "blocks[0].level: is required and missing (in blocks[0])",
                "seed: is required and missing (in the top level)",
            ]
        );
        assert_eq!(problems("[load]\ntool = \"hey\"\n"), ["seed: is required and missing (in the top level)"]);
        // A value refused for its type is one problem, not two.
        assert_eq!(problems("seed = 1\n[load]\ntool = \"jmeter\"\n"), ["load.tool: unknown variant `jmeter`, expected `hey`"]);
    }

    #[test]
    fn text_that_is_not_toml_is_one_syntax_error_with_its_place() {
        let Err(PlanError::Syntax { span, .. }) = deserialize::<Plan>("seed = 1\nload = [\n") else { panic!() };
        assert!(span.is_some());
    }
}
