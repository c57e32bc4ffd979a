//! The house's layers, checked. Every path into the crate (`crate::`, `super::`, `self::` and a
//! module's own children, in `use` lines and inline alike) of every non-test source file of
//! analyze is resolved to the module it names, and the check fails on
//!
//! - a reference from a lower layer to a higher one ([`LAYERS`], the order docs/architecture.md
//!   draws), and
//! - a circle between the files (and subfolders) of one folder: `a` uses `b` and `b` uses `a`,
//!   directly or round a longer loop. A folder's own `mod.rs` (or `x.rs` beside `x/`) is left
//!   out: it is the module tree (a parent hands work to its children, children share its items),
//!   not a file beside them.
//!
//! Comments, strings and test code (`#[cfg(test)]` items, test files) are left out: a doc link
//! or a test fixture is no dependency of the program.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// analyze's top-level modules from the bottom up: a module may use its own layer and those
/// below. `lib.rs` and `main.rs` sit above them all.
const LAYERS: &[&[&str]] = &[
    // Shared vocabulary and terminal text: import nothing of the crate above.
    &["model", "terminal"],
    // Ingest and validation of a dataset folder.
    &["dataset"],
    // The one results struct and its parts: plain data.
    &["report"],
    // Statistics: from a dataset to a report.
    &["stats"],
    // Imports of other tools' output into a dataset folder.
    &["import"],
    // Pure renderers: from a report to files.
    &["render"],
    // The one writer.
    &["output"],
    // Read, build and compare, for every command.
    &["pipeline"],
    // The command line and its subcommands.
    &["cli"],
    &["cmd"],
];

/// References that break the rule and are known, with why they stay for now: (from file, to
/// module path, why).
const KNOWN: &[(&str, &str, &str)] = &[
    (
        "render/charts/compare.rs",
        "render::view::compare_metric_label",
        "the compared metric's name lives in the comparison page's view, another change's file this round",
    ),
    (
        "render/charts/history.rs",
        "render::view::",
        "the history chart links measurements by the history page's site rule (view/history.rs), another change's file this round",
    ),
    (
        "render/i18n/charts.rs",
        "render::charts::LOG_FROM_RATIO",
        "the scale note states the axis rule's ratio: the rule is the charts', its words are i18n's",
    ),
];

/// Circles between the files of one folder that are known, with why they stay for now: (folder,
/// its files round the circle, sorted). The check fails on any other.
const KNOWN_CIRCLES: &[(&str, &[&str], &str)] = &[
    ("src/dataset", &["csv", "labels", "parquet", "requests", "table"], "the request readers share the CSV and Parquet row code both ways"),
    ("src/dataset", &["manifest", "runs", "schema"], "the manifest's column checks and the schema read each other"),
    ("src/dataset", &["run_stats", "tool_labels"], "run_stats and its labels' table share their column rules"),
    ("src/import", &["oha", "stream"], "the streaming reader reuses oha's row parser, which uses the stream"),
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, sorted.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).expect("src is readable").map(|e| e.expect("an entry").path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a source file: `render/view/report.rs` is `render::view::report`,
/// `render/view/mod.rs` is `render::view`, `lib.rs` is the crate root.
fn module_of(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_string());
    }
    parts
}

/// The folder that holds a module's children: `x/` beside `x.rs`, the folder of a `mod.rs`.
fn children_dir(file: &Path) -> Option<PathBuf> {
    let name = file.file_name()?.to_string_lossy();
    let dir = if matches!(name.as_ref(), "mod.rs" | "lib.rs" | "main.rs") { file.parent()?.to_path_buf() } else { file.with_extension("") };
    dir.is_dir().then_some(dir)
}

/// The names of the modules in `dir` (files and folders, but `mod.rs`).
fn child_modules(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter_map(|p| {
                    let name = p.file_name()?.to_string_lossy().into_owned();
                    if p.is_dir() {
                        Some(name)
                    } else {
                        name.strip_suffix(".rs").filter(|n| *n != "mod").map(str::to_string)
                    }
                })
                .collect()
        })
        .unwrap_or_default()
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Ident(String),
    Punct(char),
    /// `::`
    Path,
}

/// The code of a file as tokens: comments, string and char literals and lifetimes left out.
fn tokens(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == 'r' && (next == Some('"') || (next == Some('#') && matches!(chars.get(i + 2), Some('"') | Some('#')))) {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            j += 1;
            loop {
                if j >= chars.len() {
                    break;
                }
                if chars[j] == '"' && (0..hashes).all(|h| chars.get(j + 1 + h) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            i = j;
        } else if c == '"' || (c == 'b' && next == Some('"')) {
            let mut j = if c == 'b' { i + 2 } else { i + 1 };
            while j < chars.len() && chars[j] != '"' {
                if chars[j] == '\\' {
                    j += 1;
                }
                j += 1;
            }
            i = j + 1;
        } else if c == '\'' {
            // A char literal ('a', '\n', '\u{1b}') or a lifetime ('a).
            if next == Some('\\') {
                let mut j = i + 2;
                while j < chars.len() && chars[j] != '\'' {
                    j += 1;
                }
                i = j + 1;
            } else if chars.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
            }
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Token::Ident(chars[start..i].iter().collect()));
        } else if c.is_ascii_digit() {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '.') {
                if chars[i] == '.' && !chars.get(i + 1).is_some_and(|d| d.is_ascii_digit()) {
                    break;
                }
                i += 1;
            }
        } else if c == ':' && next == Some(':') {
            out.push(Token::Path);
            i += 2;
        } else {
            if !c.is_whitespace() {
                out.push(Token::Punct(c));
            }
            i += 1;
        }
    }
    out
}

/// The index after the item that starts at `i`: up to its `;` or its closing `}`, whichever
/// comes first at its own depth (attributes before it included).
fn item_end(tokens: &[Token], mut i: usize) -> usize {
    let mut depth = 0i32;
    while i < tokens.len() {
        match tokens[i] {
            Token::Punct('{') | Token::Punct('(') | Token::Punct('[') => depth += 1,
            Token::Punct('}') | Token::Punct(')') | Token::Punct(']') => {
                depth -= 1;
                if depth == 0 && tokens[i] == Token::Punct('}') {
                    return i + 1;
                }
            }
            Token::Punct(';') if depth == 0 => return i + 1,
            _ => {}
        }
        i += 1;
    }
    i
}

/// `tokens` without the items under `#[cfg(test)]`, and the names of the modules those declare
/// in files of their own (`#[cfg(test)] mod tests;`).
fn without_tests(tokens: Vec<Token>) -> (Vec<Token>, Vec<String>) {
    let is = |t: &Token, s: &str| matches!(t, Token::Ident(x) if x == s);
    let mut out = Vec::new();
    let mut test_files = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let cfg_test = tokens[i] == Token::Punct('#')
            && tokens.get(i + 1) == Some(&Token::Punct('['))
            && tokens.get(i + 2).is_some_and(|t| is(t, "cfg"))
            && tokens.get(i + 3) == Some(&Token::Punct('('))
            && tokens.get(i + 4).is_some_and(|t| is(t, "test"))
            && tokens.get(i + 5) == Some(&Token::Punct(')'));
        if !cfg_test {
            out.push(tokens[i].clone());
            i += 1;
            continue;
        }
        // Past the attribute, then the item it guards.
        let mut j = i + 7;
        let end = loop {
            // Further attributes.
            if tokens.get(j) == Some(&Token::Punct('#')) {
                let mut depth = 0;
                j += 1;
                while j < tokens.len() {
                    match tokens[j] {
                        Token::Punct('[') => depth += 1,
                        Token::Punct(']') => {
                            depth -= 1;
                            if depth == 0 {
                                j += 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
                continue;
            }
            break item_end(&tokens, j);
        };
        let item = &tokens[j..end];
        if let Some(m) = item.iter().position(|t| is(t, "mod")) {
            if item.last() == Some(&Token::Punct(';')) {
                if let Some(Token::Ident(name)) = item.get(m + 1) {
                    test_files.push(name.clone());
                }
            }
        }
        i = end;
    }
    (out, test_files)
}

/// A path into the crate found in a file: the module path it resolves to, and whether it is a
/// `mod` line's or a `pub use` re-export's (a folder's face, not a use).
#[derive(Debug)]
struct Reference {
    target: Vec<String>,
    face: bool,
}

/// The paths after `tokens[i]` (just past a `::`): `a::b::c`, or a `{...}` group of them.
fn paths_after(tokens: &[Token], mut i: usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let mut path = prefix;
    loop {
        match tokens.get(i) {
            Some(Token::Ident(name)) => {
                path.push(name.clone());
                i += 1;
                if tokens.get(i) == Some(&Token::Path) {
                    i += 1;
                    continue;
                }
                out.push(path);
                return i;
            }
            Some(Token::Punct('{')) => {
                i += 1;
                loop {
                    match tokens.get(i) {
                        Some(Token::Punct('}')) | None => return i + 1,
                        Some(Token::Punct(',')) => i += 1,
                        Some(Token::Ident(s)) if s == "self" => {
                            out.push(path.clone());
                            i += 1;
                        }
                        _ => {
                            let before = i;
                            i = paths_after(tokens, i, path.clone(), out);
                            // Skip `as name`, a glob, or anything else up to the next item.
                            while !matches!(tokens.get(i), Some(Token::Punct(',')) | Some(Token::Punct('}')) | None) {
                                i += 1;
                            }
                            if i == before {
                                i += 1;
                            }
                        }
                    }
                }
            }
            // A glob (`super::*`) or anything else: the module so far.
            _ => {
                out.push(path);
                return i;
            }
        }
    }
}

/// Every reference into the crate of one file of module `module`; `children` are the modules it
/// declares.
fn references(tokens: &[Token], module: &[String], children: &BTreeSet<String>) -> Vec<Reference> {
    let mut out = Vec::new();
    // Whether the tokens are inside a `pub use` or `mod` item, up to its `;`.
    let mut face = false;
    let mut i = 0;
    while i < tokens.len() {
        let previous = i.checked_sub(1).map(|p| &tokens[p]);
        match &tokens[i] {
            Token::Punct(';') => face = false,
            Token::Ident(word) if word == "mod" => face = true,
            Token::Ident(word) if word == "use" => {
                // `pub use` or `pub(crate) use`.
                let mut p = i;
                if p > 0 && tokens[p - 1] == Token::Punct(')') {
                    while p > 0 && tokens[p - 1] != Token::Punct('(') {
                        p -= 1;
                    }
                    p = p.saturating_sub(1);
                }
                face = p > 0 && matches!(&tokens[p - 1], Token::Ident(x) if x == "pub");
            }
            Token::Ident(word) if tokens.get(i + 1) == Some(&Token::Path) && previous != Some(&Token::Path) => {
                let start: Option<Vec<String>> = match word.as_str() {
                    "crate" => Some(Vec::new()),
                    "self" => Some(module.to_vec()),
                    "super" => {
                        let mut m = module.to_vec();
                        m.pop();
                        let mut j = i + 2;
                        while matches!(tokens.get(j), Some(Token::Ident(x)) if x == "super") && tokens.get(j + 1) == Some(&Token::Path) {
                            m.pop();
                            j += 2;
                        }
                        i = j - 2;
                        Some(m)
                    }
                    child if children.contains(child) => {
                        let mut m = module.to_vec();
                        m.push(child.to_string());
                        Some(m)
                    }
                    _ => None,
                };
                if let Some(start) = start {
                    let mut paths = Vec::new();
                    i = paths_after(tokens, i + 2, start, &mut paths);
                    out.extend(paths.into_iter().map(|target| Reference { target, face }));
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The layer of top-level module `name`; `None` for a name that is no module (a re-export such
/// as `crate::Report` is its module's).
fn layer(name: &str) -> Option<usize> {
    let name = if name == "Report" { "report" } else { name };
    LAYERS.iter().position(|layer| layer.contains(&name))
}

struct Source {
    relative: String,
    module: Vec<String>,
    references: Vec<Reference>,
}

fn sources() -> Vec<Source> {
    let root = src();
    let mut all = Vec::new();
    files(&root, &mut all);
    let mut test_files: BTreeSet<PathBuf> = BTreeSet::new();
    let mut out = Vec::new();
    for file in &all {
        let relative = file.strip_prefix(&root).expect("under src").to_path_buf();
        if relative == Path::new("main.rs") {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("a source file reads");
        let (code, tests) = without_tests(tokens(&text));
        let dir = children_dir(file);
        for name in tests {
            let base = dir.clone().unwrap_or_else(|| file.parent().expect("a folder").to_path_buf());
            test_files.insert(base.join(format!("{name}.rs")));
            test_files.insert(base.join(&name));
        }
        let children = dir.as_deref().map(child_modules).unwrap_or_default();
        let module = module_of(&relative);
        let references = references(&code, &module, &children);
        out.push((file.clone(), Source { relative: relative.to_string_lossy().into_owned(), module, references }));
    }
    out.into_iter().filter(|(file, _)| !test_files.iter().any(|t| file.starts_with(t))).map(|(_, s)| s).collect()
}

fn known(from: &str, target: &[String]) -> bool {
    KNOWN.iter().any(|(file, to, _)| *file == from && target.join("::").starts_with(to))
}

#[test]
fn no_module_uses_a_layer_above_its_own() {
    let mut wrong = Vec::new();
    for source in sources() {
        let Some(from) = source.module.first().and_then(|m| layer(m)) else { continue };
        for reference in &source.references {
            let Some(to) = reference.target.first().and_then(|m| layer(m)) else { continue };
            if to > from && !known(&source.relative, &reference.target) {
                wrong.push(format!("{} uses crate::{}", source.relative, reference.target.join("::")));
            }
        }
    }
    wrong.dedup();
    assert!(wrong.is_empty(), "references up the layers (order: {LAYERS:?}):\n{}", wrong.join("\n"));
}

/// Per folder (module path), the edges between its files: from child to child, `mod` naming
/// the folder's own file.
fn folder_edges(sources: &[Source]) -> BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> {
    let root = src();
    let mut folders: BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for source in sources {
        for depth in 0..=source.module.len() {
            let folder = &source.module[..depth];
            let dir = folder.iter().fold(root.clone(), |d, m| d.join(m));
            if !dir.is_dir() {
                continue;
            }
            let children = child_modules(&dir);
            let from = source.module.get(depth).cloned().unwrap_or_else(|| "mod".to_string());
            for reference in &source.references {
                if reference.face && from == "mod" {
                    continue;
                }
                if known(&source.relative, &reference.target) {
                    continue;
                }
                if !reference.target.starts_with(folder) {
                    continue;
                }
                let to = reference.target.get(depth).filter(|c| children.contains(*c)).cloned().unwrap_or_else(|| "mod".to_string());
                // A folder's own file and its children: the module tree, a parent that hands out
                // its children's work and children that share the parent's items.
                if to != from && from != "mod" && to != "mod" {
                    folders.entry(folder.to_vec()).or_default().entry(from.clone()).or_default().insert(to);
                }
            }
        }
    }
    folders
}

/// The circles of a graph: its strongly connected parts of more than one node (Tarjan).
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<String, usize>,
        low: BTreeMap<String, usize>,
        stack: Vec<String>,
        on_stack: BTreeSet<String>,
        found: Vec<Vec<String>>,
    }
    fn visit(s: &mut State, v: &str) {
        let n = s.index.len();
        s.index.insert(v.to_string(), n);
        s.low.insert(v.to_string(), n);
        s.stack.push(v.to_string());
        s.on_stack.insert(v.to_string());
        let next: Vec<String> = s.edges.get(v).map(|e| e.iter().cloned().collect()).unwrap_or_default();
        for w in next {
            if !s.index.contains_key(&w) {
                visit(s, &w);
                let low = s.low[v].min(s.low[&w]);
                s.low.insert(v.to_string(), low);
            } else if s.on_stack.contains(&w) {
                let low = s.low[v].min(s.index[&w]);
                s.low.insert(v.to_string(), low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut part = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(&w);
                let done = w == v;
                part.push(w);
                if done {
                    break;
                }
            }
            if part.len() > 1 {
                part.sort();
                s.found.push(part);
            }
        }
    }
    let mut state =
        State { edges, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), on_stack: BTreeSet::new(), found: Vec::new() };
    let nodes: Vec<String> = edges.keys().cloned().collect();
    for v in nodes {
        if !state.index.contains_key(&v) {
            visit(&mut state, &v);
        }
    }
    state.found
}

#[test]
fn no_files_of_one_folder_use_each_other_round_a_circle() {
    let sources = sources();
    let mut wrong = Vec::new();
    for (folder, edges) in folder_edges(&sources) {
        let name = if folder.is_empty() { "src".to_string() } else { format!("src/{}", folder.join("/")) };
        for circle in circles(&edges) {
            if KNOWN_CIRCLES.iter().any(|(f, files, _)| *f == name && *files == circle.as_slice()) {
                continue;
            }
            let uses: Vec<String> =
                circle.iter().flat_map(|a| edges[a].iter().filter(|b| circle.contains(b)).map(move |b| format!("{a} -> {b}"))).collect();
            wrong.push(format!("{name}: {}", uses.join(", ")));
        }
    }
    assert!(wrong.is_empty(), "files of one folder that use each other round a circle:\n{}", wrong.join("\n"));
}

#[test]
fn the_check_reads_paths_of_every_form() {
    let code = "use super::{charts::{self, Scale}, paths};\nuse crate::{dataset, report::Report};\n\
                fn f() { crate::stats::build(x); view::Context::new(); super::super::model::Lang::En; }\n\
                // crate::cmd in a comment\nconst S: &str = \"crate::cmd\";\n#[cfg(test)]\nmod tests { use crate::cmd; }\n";
    let (code, _) = without_tests(tokens(code));
    let module = vec!["render".to_string(), "figures".to_string()];
    let children = BTreeSet::from(["view".to_string()]);
    let found: Vec<String> = references(&code, &module, &children).into_iter().map(|r| r.target.join("::")).collect();
    assert_eq!(
        found,
        [
            "render::charts",
            "render::charts::Scale",
            "render::paths",
            "dataset",
            "report::Report",
            "stats::build",
            "render::figures::view::Context::new",
            "model::Lang::En"
        ]
    );
}
