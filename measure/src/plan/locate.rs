//! Where a key of a plan is written: a [`KeyPath`] (`servers.nginx.command[2]`) and its line and column in
//! the plan's text, found through `toml_edit`'s spans. A problem the validation finds (a missing `{port}`,
//! a factor that is not declared, a tool that is not installed) is named by its key path, and placed with
//! it when the plan is loaded from a file, so the error names the file, the line and the key.

use crate::input::line_column;
use std::fmt;
use toml_edit::{Array, ArrayOfTables, ImDocument, Item, TableLike, Value};

/// One step of a key path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Step {
    Key(String),
    Index(usize),
}

/// A key of a plan, as a dotted path with array indices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyPath(Vec<Step>);

impl KeyPath {
    /// The plan as a whole (its top-level table): a problem of no one key.
    pub fn top() -> KeyPath {
        KeyPath(Vec::new())
    }

    /// Whether this is [`KeyPath::top`].
    pub fn is_top(&self) -> bool {
        self.0.is_empty()
    }

    /// The last key of the path (`None` at the top or after an index).
    pub fn last_key(&self) -> Option<&str> {
        match self.0.last() {
            Some(Step::Key(k)) => Some(k),
            _ => None,
        }
    }

    pub(crate) fn steps(&self) -> &[Step] {
        &self.0
    }

    /// A top-level key.
    pub fn root(key: &str) -> KeyPath {
        KeyPath(vec![Step::Key(key.into())])
    }

    /// This path and one key more.
    pub fn key(&self, key: &str) -> KeyPath {
        let mut steps = self.0.clone();
        steps.push(Step::Key(key.into()));
        KeyPath(steps)
    }

    /// This path and an array index.
    pub fn index(&self, i: usize) -> KeyPath {
        let mut steps = self.0.clone();
        steps.push(Step::Index(i));
        KeyPath(steps)
    }
}

/// A bare key as TOML allows it; others are written quoted.
fn bare(key: &str) -> bool {
    !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

impl fmt::Display for KeyPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, step) in self.0.iter().enumerate() {
            match step {
                Step::Key(k) if i > 0 && bare(k) => write!(f, ".{k}")?,
                Step::Key(k) if bare(k) => write!(f, "{k}")?,
                Step::Key(k) => write!(f, "{}{k:?}", if i > 0 { "." } else { "" })?,
                Step::Index(n) => write!(f, "[{n}]")?,
            }
        }
        Ok(())
    }
}

/// What a step can descend into.
enum Node<'a> {
    Table(&'a dyn TableLike),
    Array(&'a Array),
    Tables(&'a ArrayOfTables),
    Leaf,
}

fn item_node(item: &Item) -> Node<'_> {
    if let Some(t) = item.as_table_like() {
        Node::Table(t)
    } else if let Some(a) = item.as_array() {
        Node::Array(a)
    } else if let Some(a) = item.as_array_of_tables() {
        Node::Tables(a)
    } else {
        Node::Leaf
    }
}

fn value_node(value: &Value) -> Node<'_> {
    match value {
        Value::InlineTable(t) => Node::Table(t),
        Value::Array(a) => Node::Array(a),
        _ => Node::Leaf,
    }
}

/// The 1-based line and column (in characters) where `path` is written in `text`: its key, or its
/// element for an index. A path that goes further than the text (a key the plan lacks) is placed at the
/// deepest part that is there. `None` when the text does not parse or has none of the path.
pub fn locate(text: &str, path: &KeyPath) -> Option<(u64, u64)> {
    let doc = ImDocument::parse(text).ok()?;
    let mut node = Node::Table(doc.as_table());
    let mut found = None;
    for step in &path.0 {
        let (span, next) = match (node, step) {
            (Node::Table(t), Step::Key(k)) => match t.get_key_value(k) {
                Some((key, item)) => (key.span().or_else(|| item.span()), item_node(item)),
                None => break,
            },
            (Node::Array(a), Step::Index(i)) => match a.get(*i) {
                Some(v) => (v.span(), value_node(v)),
                None => break,
            },
            (Node::Tables(a), Step::Index(i)) => match a.get(*i) {
                Some(t) => (t.span(), Node::Table(t)),
                None => break,
            },
            _ => break,
        };
        found = span.or(found);
        node = next;
    }
    found.map(|span| line_column(text, span.start))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAN: &str = "kind = \"command\"\n\
        [factors]\n\
        server = [\"a\", \"b\"]\n\
        \n\
        [servers.a]\n\
        command = [\"srv\",\n    \"--port\", \"x\"]\n\
        files = { \"www/index.html\" = \"hi\" }\n\
        \n\
        [[exclude]]\n\
        server = \"a\"\n";

    #[test]
    fn paths_read_as_toml_keys() {
        let p = KeyPath::root("servers").key("http-server").key("files").key("www/index.html");
        assert_eq!(p.to_string(), "servers.http-server.files.\"www/index.html\"");
        assert_eq!(KeyPath::root("servers").key("a").key("command").index(2).to_string(), "servers.a.command[2]");
        assert_eq!(KeyPath::root("exclude").index(0).key("server").to_string(), "exclude[0].server");
    }

    #[test]
    fn keys_and_elements_are_placed_where_they_are_written() {
        assert_eq!(locate(PLAN, &KeyPath::root("factors").key("server")), Some((3, 1)));
        assert_eq!(locate(PLAN, &KeyPath::root("factors").key("server").index(1)), Some((3, 16)));
        assert_eq!(locate(PLAN, &KeyPath::root("servers").key("a").key("command")), Some((6, 1)));
        assert_eq!(locate(PLAN, &KeyPath::root("servers").key("a").key("command").index(2)), Some((7, 15)));
        assert_eq!(locate(PLAN, &KeyPath::root("servers").key("a").key("files").key("www/index.html")), Some((8, 11)));
        assert_eq!(locate(PLAN, &KeyPath::root("exclude").index(0).key("server")), Some((11, 1)));
    }

    #[test]
    fn a_missing_key_is_placed_at_the_deepest_part_that_is_there() {
        assert_eq!(locate(PLAN, &KeyPath::root("servers").key("a").key("ready")), Some((5, 10)));
        assert_eq!(locate(PLAN, &KeyPath::root("load")), None);
        assert_eq!(locate("not = [toml", &KeyPath::root("not")), None);
    }
}
