//! Every Japanese page of the committed site is in Japanese: its visible text holds no English word
//! but names (the datasets' factor values, servers, tools, formats, files and run ids), units,
//! identifiers (file paths, config keys, column names, command-line flags), formula letters and the
//! listed terms below. The committed datasets are rendered into a temp dir with `analyze site` and
//! every `*/ja/**.html` page and `index.ja.html` is read.

use assert_cmd::Command;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Latin words a Japanese page writes as they are: products, protocols and abbreviations, the
/// language switch, and the publishers the articles cite.
const TERMS: &[&str] = &[
    // Load tools, servers and libraries (names, not prose).
    "ab",
    "apachebench",
    "hey",
    "wrk",
    "wrk2",
    "siege",
    "locust",
    "oha",
    "autocannon",
    "artillery",
    "k6",
    "vegeta",
    "jmeter",
    "hdrhistogram",
    "ddsketch",
    "nginx",
    "unit",
    "gunicorn",
    "uwsgi",
    "django",
    "runserver",
    "cpython",
    "python",
    "fastcgi",
    "flup",
    "java",
    "debian",
    "linux",
    "pyenv",
    "rest",
    "framework",
    "quickstart",
    "gthread",
    "sync",
    "prefork",
    "threaded",
    "sqlite",
    "markdown",
    "ec2",
    "vcpu",
    "coordinated",
    "omission",
    "analyze",
    "measure",
    "import",
    "check",
    "report",
    "site",
    "mysql",
    "amd",
    "epyc",
    "intel",
    "xeon",
    // Protocols, formats and abbreviations.
    "http",
    "https",
    "utc",
    "cpu",
    "rss",
    "ecdf",
    "csv",
    "json",
    "readme",
    "svg",
    "png",
    "tcp",
    // TCP's SYN, which the cause hints name (SYN再送).
    "syn",
    "url",
    "api",
    "os",
    "gil",
    "wsgi",
    "sigkill",
    "pid",
    "ci",
    "get",
    "post",
    "tls",
    "cdn",
    "rust",
    "asyncio",
    // 「APサーバー」 is how Japanese names an application server.
    "ap",
    // runs.csv's status values, named as the file writes them.
    "ok",
    "aborted",
    "excluded",
    // The language switch.
    "english",
    // Formula words: ceil(p·n/100), floor(...), round(...).
    "ceil",
    "floor",
    "round",
    // Names the articles and the environment cite: publishers, an EC2 instance type, an HTTP
    // status, a CPU, a Linux feature, a Debian package.
    "classmethod",
    "beproud",
    "high-cpu",
    "medium",
    "bad",
    "gateway",
    "processor",
    "cgroup",
    "nginx-light",
];

/// Units a number may carry.
const UNITS: &[&str] = &["ms", "s", "ns", "µs", "us", "kb", "mb", "gb", "kib", "mib", "gib", "b", "k", "m"];

/// Names a dataset gives its runs and conditions: every cell of its tables but the prose ones.
fn dataset_names(datasets: &Path) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for entry in std::fs::read_dir(datasets).unwrap() {
        let dir = entry.unwrap().path();
        // The dataset's own folder name, which a comparison page cites.
        if dir.is_dir() {
            names.extend(dir.file_name().map(|n| n.to_string_lossy().to_lowercase()));
        }
        for (file, skip) in [
            ("runs.csv", &["note", "started_at_utc", "status"][..]),
            ("servers.csv", &["shape", "description"][..]),
            ("sources.csv", &["sha256"][..]),
        ] {
            let Ok(mut reader) = csv::Reader::from_path(dir.join(file)) else { continue };
            let headers = reader.headers().unwrap().clone();
            for record in reader.records() {
                for (header, cell) in headers.iter().zip(record.unwrap().iter()) {
                    if !skip.contains(&header) {
                        names.extend(words(cell).into_iter().map(|(_, w)| w.to_lowercase()));
                    }
                }
            }
        }
        // The request labels (the `label` column of requests.csv: get-page, post-form), as the
        // per-label tables list them.
        if let Ok(mut reader) = csv::Reader::from_path(dir.join("requests.csv")) {
            if let Some(label) = reader.headers().unwrap().iter().position(|h| h == "label") {
                let labels: BTreeSet<String> = reader.records().map(|r| r.unwrap()[label].to_lowercase()).collect();
                names.extend(labels.iter().flat_map(|l| words(l).into_iter().map(|(_, w)| w)));
            }
        }
        // The settings of plan.toml (keys and values: kind, closed-loop, app, hello), as the
        // setup table lists them.
        if let Ok(plan) = std::fs::read_to_string(dir.join("plan.toml")).map(|t| t.parse::<toml::Table>()) {
            fn collect(value: &toml::Value, names: &mut BTreeSet<String>) {
                match value {
                    toml::Value::Table(table) => {
                        for (key, value) in table {
                            names.extend(words(key).into_iter().map(|(_, w)| w.to_lowercase()));
                            collect(value, names);
                        }
                    }
                    toml::Value::Array(items) => items.iter().for_each(|v| collect(v, names)),
                    toml::Value::String(s) if !s.contains(' ') => {
                        names.insert(s.to_lowercase());
                    }
                    toml::Value::Boolean(b) => {
                        names.insert(b.to_string());
                    }
                    _ => {}
                }
            }
            if let Ok(plan) = plan {
                collect(&toml::Value::Table(plan), &mut names);
            }
        }
        // The keys of dataset.toml's environment (arch, cpu_model) and their values as measure
        // recorded them (server_stop = "supervisor"), as its table lists them: data, not prose.
        if let Ok(text) = std::fs::read_to_string(dir.join("dataset.toml")) {
            if let Some(environment) = text.parse::<toml::Table>().ok().and_then(|t| t.get("environment").cloned()) {
                for (key, value) in environment.as_table().into_iter().flatten() {
                    names.insert(key.to_lowercase());
                    if let Some(value) = value.as_str() {
                        names.extend(words(value).into_iter().map(|(_, w)| w.to_lowercase()));
                    }
                }
            }
        }
    }
    names
}

/// The Latin words of a text, each with its byte offset.
fn words(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut start = None;
    let is_word = |c: char| c.is_ascii_alphanumeric() || "_.-/+'’µ~".contains(c);
    for (i, c) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
        match (start, is_word(c)) {
            (None, true) if c.is_ascii_alphanumeric() || c == 'µ' => start = Some(i),
            (Some(s), false) => {
                let word = text[s..i].trim_end_matches(['.', '-', '/', '\'', '’']);
                if word.chars().any(|c| c.is_ascii_alphabetic()) {
                    out.push((s, word.to_string()));
                }
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// Whether a word is allowed on a Japanese page.
fn allowed(word: &str, before: Option<char>, names: &BTreeSet<String>) -> bool {
    let lower = word.to_lowercase();
    let lower = lower.trim_end_matches("'s");
    if matches!(before, Some('-' | '.' | '/')) {
        return true; // a command-line flag (-g, --excludeErrorStats), a file extension or a URL path
    }
    lower.chars().count() == 1
        || names.contains(lower)
        || TERMS.contains(&lower)
        || UNITS.contains(&lower)
        // Identifiers: paths, config keys and columns (latency_ms, thresholds.negligible_difference),
        // and words with digits (r01, p95, 2xx, x1, 3.11, T19).
        || lower.contains(['_', '.', '/', '~'])
        || lower.chars().any(|c| c.is_ascii_digit())
        // A name joined with a hyphen (nginx-off, hey-csv) when each part is allowed.
        || (lower.contains('-') && lower.split('-').all(|part| part.is_empty() || allowed(part, None, names)))
        // A formula (n+m) of allowed parts.
        || (lower.contains('+') && lower.split('+').all(|part| part.is_empty() || allowed(part, None, names)))
        // The short hex of a sha256.
        || (lower.len() >= 6 && lower.chars().all(|c| c.is_ascii_hexdigit()))
}

/// The text a reader sees: the page without its tags, scripts, styles and comments, and without
/// its code (`<code>`, `<pre>`).
fn visible_text(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        text.push_str(&rest[..open]);
        text.push(' ');
        let tail = &rest[open..];
        let lower = tail.get(..8).unwrap_or(tail).to_ascii_lowercase();
        let close = if lower.starts_with("<!--") {
            tail.find("-->").map(|i| i + 3)
        } else if let Some(element) = ["script", "style", "code", "pre"]
            .into_iter()
            .find(|e| lower.strip_prefix('<').and_then(|l| l.strip_prefix(e)).is_some_and(|l| l.starts_with(['>', ' '])))
        {
            // Code is literal (a command, a config line, a path): its words are names.
            let end = format!("</{element}>");
            tail.find(&end).map(|i| i + end.len())
        } else {
            tail.find('>').map(|i| i + 1)
        };
        rest = &tail[close.unwrap_or(tail.len())..];
    }
    text.push_str(rest);
    decode_entities(&text)
}

/// `&amp;`, `&lt;`, `&gt;`, `&quot;` and numeric references (`&#x2F;`, `&#39;`), as the templates escape.
fn decode_entities(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let tail = &rest[amp..];
        let entity = tail.find(';').filter(|&end| end <= 10).map(|end| (&tail[1..end], end));
        let decoded = entity.and_then(|(name, end)| {
            let c = match name {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                _ => name
                    .strip_prefix("#x")
                    .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                    .or_else(|| name.strip_prefix('#').and_then(|dec| dec.parse().ok()))
                    .and_then(char::from_u32),
            };
            c.map(|c| (c, end))
        });
        match decoded {
            Some((c, end)) => {
                out.push(c);
                rest = &tail[end + 1..];
            }
            None => {
                out.push('&');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn ja_pages(site: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, under_ja: bool, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let ja = under_ja || path.file_name().is_some_and(|n| n == "ja");
            if path.is_dir() {
                walk(&path, ja, out);
            } else if ja && path.extension().is_some_and(|e| e == "html") {
                out.push(path);
            }
        }
    }
    let mut out: Vec<PathBuf> = Some(site.join("index.ja.html")).filter(|p| p.exists()).into_iter().collect();
    walk(site, false, &mut out);
    out.sort();
    out
}

/// The English words of each Japanese page (page → words with their context).
fn english_on_ja_pages(site: &Path, names: &BTreeSet<String>) -> BTreeMap<String, Vec<String>> {
    let mut found = BTreeMap::new();
    for page in ja_pages(site) {
        let text = visible_text(&std::fs::read_to_string(&page).unwrap());
        let mut offenders = Vec::new();
        for (at, word) in words(&text) {
            let before = text[..at].chars().next_back();
            // A quoted value ("tool") is a literal, and so is a placeholder of a command plan ({port}).
            let after = &text[at + word.len()..];
            let quoted = (before == Some('"') && after.starts_with('"')) || (before == Some('{') && after.starts_with('}'));
            if !quoted && !allowed(&word, before, names) {
                let from = text[..at].char_indices().rev().nth(30).map_or(0, |(i, _)| i);
                let to = text[at..].char_indices().nth(40).map_or(text.len(), |(i, _)| at + i);
                offenders.push(format!("{word:?} in “{}”", text[from..to].split_whitespace().collect::<Vec<_>>().join(" ")));
            }
        }
        if !offenders.is_empty() {
            found.insert(page.strip_prefix(site).unwrap().display().to_string(), offenders);
        }
    }
    found
}

#[test]
fn japanese_pages_hold_no_english_prose() {
    let datasets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../datasets");
    let out = tempfile::tempdir().unwrap();
    // JA_SITE=DIR reads a site built elsewhere (e.g. by another commit's analyze) instead.
    let site = match std::env::var_os("JA_SITE") {
        Some(dir) => PathBuf::from(dir),
        None => {
            let site = out.path().join("site");
            Command::cargo_bin("analyze").unwrap().arg("site").arg(&datasets).arg("--out").arg(&site).assert().success();
            site
        }
    };
    let names = dataset_names(&datasets);
    assert!(ja_pages(&site).len() > 50, "the site has its Japanese pages");
    let found = english_on_ja_pages(&site, &names);
    let report: Vec<String> = found
        .iter()
        .map(|(page, words)| {
            let distinct: BTreeSet<&str> = words.iter().filter_map(|w| w.split('"').nth(1)).collect();
            let shown: Vec<&str> = distinct.into_iter().collect();
            format!(
                "{page}: {} English words ({}), e.g.\n    {}",
                words.len(),
                shown.join(" "),
                words.iter().take(2).cloned().collect::<Vec<_>>().join("\n    ")
            )
        })
        .collect();
    assert!(found.is_empty(), "English on Japanese pages:\n{}", report.join("\n"));
    assert!(site.join("index.ja.html").exists(), "the site has a Japanese index");
}

#[test]
fn names_units_and_identifiers_pass_and_prose_does_not() {
    let names: BTreeSet<String> = ["nginx-off", "r01"].map(String::from).into();
    let text = visible_text(
        "<p>abの表示値は427.88リクエスト/秒（r01、nginx-off、latency_ms、-g、p95 = 2 ms、sha256 ddd9df092765）</p><script>var x = 'English';</script>",
    );
    let bad: Vec<String> =
        words(&text).into_iter().filter(|(at, w)| !allowed(w, text[..*at].chars().next_back(), &names)).map(|(_, w)| w).collect();
    assert!(bad.is_empty(), "{bad:?}");
    let prose = visible_text("<td>正常（ab -g: send times have 1 s resolution）</td>");
    let bad: Vec<String> =
        words(&prose).into_iter().filter(|(at, w)| !allowed(w, prose[..*at].chars().next_back(), &names)).map(|(_, w)| w).collect();
    assert_eq!(bad, ["send", "times", "have", "resolution"]);
}

// ---- no space between two Japanese characters ----------------------------------------------

/// Whether `c` is written without spaces around it in Japanese: kana, kanji, the CJK and
/// full-width punctuation (「」、。：（）・).
fn is_japanese(c: char) -> bool {
    matches!(c as u32, 0x3000..=0x30FF | 0x31F0..=0x31FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0xFF00..=0xFFEF)
}

/// Each place in `run` where ASCII whitespace stands between two Japanese characters, with the
/// text around it. A blank line (a paragraph break in Markdown) is no space.
fn japanese_spaces(run: &str) -> Vec<String> {
    let chars: Vec<(usize, char)> = run.char_indices().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let (start, c) = chars[i];
        if !c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let mut end = i;
        while end < chars.len() && chars[end].1.is_ascii_whitespace() {
            end += 1;
        }
        let space = &run[start..chars.get(end).map_or(run.len(), |&(e, _)| e)];
        let between = i > 0 && end < chars.len() && is_japanese(chars[i - 1].1) && is_japanese(chars[end].1);
        if between && space.matches('\n').count() < 2 {
            let from = chars[i.saturating_sub(12)].0;
            let to = chars.get(end + 12).map_or(run.len(), |&(e, _)| e);
            out.push(format!("“{}”", run[from..to].replace('\n', "⏎").replace('\u{1}', "…")));
        }
        i = end;
    }
    out
}

/// The runs of text a reader reads as one line in an HTML page or an SVG figure: an inline
/// element (`<a>`, `<strong>`, `<span>`…) continues a run, every other tag ends it; code
/// (`<code>`, `<pre>`) is a literal that stands in the run as a non-Japanese mark; attributes a
/// reader sees (`title`, `alt`, `aria-label`) are runs of their own.
fn text_runs(page: &str) -> Vec<String> {
    const INLINE: &[&str] = &[
        "a", "abbr", "b", "bdi", "cite", "em", "i", "kbd", "mark", "q", "s", "small", "span", "strong", "sub", "sup", "time", "u", "var",
        "tspan",
    ];
    let mut runs = vec![String::new()];
    let mut rest = page;
    while let Some(open) = rest.find('<') {
        runs.last_mut().unwrap().push_str(&decode_entities(&rest[..open]));
        let tail = &rest[open..];
        let Some(close) = tail.find('>') else { break };
        let tag = &tail[1..close];
        let name: String =
            tag.trim_start_matches('/').chars().take_while(|c| c.is_ascii_alphanumeric()).collect::<String>().to_ascii_lowercase();
        for attribute in ["title", "alt", "aria-label"] {
            if let Some(value) = tag.split(&format!(" {attribute}=\"")).nth(1).and_then(|v| v.split('"').next()) {
                runs.push(decode_entities(value));
            }
        }
        let literal = ["script", "style", "code", "pre"].contains(&name.as_str()) && !tag.starts_with('/') || tag.starts_with("!--");
        rest = if literal {
            let end = if tag.starts_with("!--") { "-->".to_string() } else { format!("</{name}>") };
            match tail.find(&end) {
                Some(at) => &tail[at + end.len()..],
                None => "",
            }
        } else {
            &tail[close + 1..]
        };
        if name == "code" || name == "pre" {
            runs.last_mut().unwrap().push('\u{1}');
        } else if !INLINE.contains(&name.as_str()) {
            runs.push(String::new());
        }
    }
    runs.last_mut().unwrap().push_str(&decode_entities(rest));
    runs
}

/// Every Japanese file of a rendered site or report under `root` (pages, Markdown twins,
/// figures: under a `ja` folder, or `index.ja.html`; every file when `all_japanese`), with each
/// space between two Japanese characters it shows.
fn spaces_on_japanese_pages(root: &Path, all_japanese: bool) -> (usize, BTreeMap<String, Vec<String>>) {
    fn walk(dir: &Path, ja: bool, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let ja = ja || path.file_name().is_some_and(|n| n == "ja" || n == "index.ja.html");
            if path.is_dir() {
                walk(&path, ja, out);
            } else if ja && path.extension().is_some_and(|e| e == "html" || e == "svg" || e == "md") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(root, all_japanese, &mut files);
    let mut found = BTreeMap::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let runs = if file.extension().is_some_and(|e| e == "md") { vec![text] } else { text_runs(&text) };
        let spaces: Vec<String> = runs.iter().flat_map(|r| japanese_spaces(r)).collect();
        if !spaces.is_empty() {
            found.insert(file.strip_prefix(root).unwrap().display().to_string(), spaces);
        }
    }
    (files.len(), found)
}

fn listed(found: &BTreeMap<String, Vec<String>>) -> String {
    found.iter().map(|(file, spaces)| format!("{file}: {}", spaces.join(", "))).collect::<Vec<_>>().join("\n")
}

/// Japanese writes no space between two Japanese words: the committed site (every Japanese
/// page, Markdown twin and figure) has none, nor does a freshly rendered one.
#[test]
fn the_committed_site_has_no_space_between_two_japanese_characters() {
    let site = Path::new(env!("CARGO_MANIFEST_DIR")).join("../site");
    let (files, found) = spaces_on_japanese_pages(&site, false);
    assert!(files > 500, "the committed site has its Japanese pages and figures ({files})");
    assert!(found.is_empty(), "spaces between Japanese characters in site/:\n{}", listed(&found));
}

/// The fixture report rendered in Japanese (its pages, report.md and figures), and its
/// Markdown snapshot.
#[test]
fn the_fixture_report_in_japanese_has_no_space_between_two_japanese_characters() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("out");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny");
    Command::cargo_bin("analyze").unwrap().arg("report").arg(&fixture).arg("--out").arg(&out).args(["--lang", "ja"]).assert().success();
    let (files, found) = spaces_on_japanese_pages(&out, true);
    assert!(files > 10, "{files} files");
    assert!(found.is_empty(), "spaces between Japanese characters in the fixture's report:\n{}", listed(&found));
    let snapshot = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/integration__snapshots__report_md_ja.snap");
    let spaces = japanese_spaces(&std::fs::read_to_string(snapshot).unwrap());
    assert!(spaces.is_empty(), "{spaces:?}");
}

#[test]
fn a_space_between_japanese_words_is_found_and_names_or_tags_between_them_are_not() {
    let runs = text_runs(
        "<td>sync 2プロセス 対 NGINX</td><td>直接</td>\n<td>対</td><p>この <code>plan.toml</code> です。<a href=\"x\">詳しく</a> 見る</p>",
    );
    let found: Vec<String> = runs.iter().flat_map(|r| japanese_spaces(r)).collect();
    assert_eq!(found, ["“sync 2プロセス 対 NGINX”", "“この … です。詳しく 見る”"]);
    assert_eq!(japanese_spaces("文です。\n\n次の段落"), Vec::<String>::new(), "a paragraph break");
    assert_eq!(japanese_spaces("文です\n続き"), ["“文です⏎続き”"], "a soft line break shows as a space");
    assert_eq!(japanese_spaces("p95 = 776.22 ms。 朱色の印"), ["“= 776.22 ms。 朱色の印”"]);
}
