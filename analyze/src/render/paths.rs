//! File names and relative links of a rendered report, decided once so every page agrees.

use crate::report::Report;

/// The longest run id used as its own file name; a longer one is shortened and hashed.
const MAX_PLAIN_SLUG: usize = 100;
/// How much of an id a hashed slug keeps, for the reader's sake.
const HASHED_PREFIX: usize = 60;
/// Slugs that would give a run's anchor (`run-{slug}`) the id of a fixed section of the report
/// page, or name a device on Windows, so they are never used plain.
const RESERVED_SLUGS: [&str; 5] = ["section", "con", "prn", "aux", "nul"];

/// A file-name-safe, unique slug per run (same order as `report.runs`).
///
/// Injective by construction: an id that is short, lowercase ASCII letters, digits, `.`, `_`
/// or `-`, and does not start with `.`, is its own slug; any other id becomes a readable prefix
/// (other characters replaced by `_`, at most 60) then `~` and a stable hash of the whole id.
/// Plain slugs never contain `~` and hashed ones always do, so the two kinds cannot meet; two
/// hashed slugs that still meet (a hash collision) are told apart by a counter in run order.
/// Uppercase is hashed too, so two ids differing only in case stay apart on a file system that
/// ignores case. Every slug is at most 100 bytes, so `latency-over-time-{slug}.svg` stays far
/// below the usual 255-byte limit on a file name.
pub fn run_slugs(report: &Report) -> Vec<String> {
    unique_slugs(report.runs.iter().map(|r| r.run_id.as_str()))
}

fn unique_slugs<'a>(ids: impl ExactSizeIterator<Item = &'a str>) -> Vec<String> {
    let mut slugs: Vec<String> = Vec::with_capacity(ids.len());
    let mut used: std::collections::HashSet<String> = std::collections::HashSet::with_capacity(ids.len());
    for id in ids {
        let mut slug = slug_of(id);
        if used.contains(&slug) {
            let base = slug;
            slug = (1u64..).map(|n| format!("{base}-{n}")).find(|s| !used.contains(s)).expect("a free counter");
        }
        used.insert(slug.clone());
        slugs.push(slug);
    }
    slugs
}

/// The slug of one id, before hash collisions are told apart.
fn slug_of(id: &str) -> String {
    let plain_char = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '_' | '.');
    let windows_device = |s: &str| (s.starts_with("com") || s.starts_with("lpt")) && s.len() == 4 && s.as_bytes()[3].is_ascii_digit();
    let stem = id.split('.').next().unwrap_or(id);
    let plain = !id.is_empty()
        && id.len() <= MAX_PLAIN_SLUG
        && !id.starts_with('.')
        && id.chars().all(plain_char)
        && !RESERVED_SLUGS.contains(&stem)
        && !windows_device(stem);
    if plain {
        return id.to_string();
    }
    let prefix: String = id
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') { c } else { '_' })
        .take(HASHED_PREFIX)
        .collect::<String>()
        .trim_start_matches('.')
        .to_string();
    format!("{prefix}~{:012x}", fnv1a(id.as_bytes()) >> 16)
}

/// FNV-1a, 64 bits: stable across platforms and releases (unlike std's hasher), so a run keeps
/// its page name from one report to the next.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// A file or folder name as one segment of a relative URL: every byte outside RFC 3986's
/// unreserved set (letters, digits, `-._~`) percent-encoded, so a dataset folder named `h#1`,
/// `q?x=1` or `100%25` links to itself rather than to a fragment, a query or another folder.
pub fn url_segment(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for &byte in name.as_bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Names of the site's own top-level entries (besides the marker and staging folders, which
/// start with `.`): a dataset folder of the same name would collide with them.
pub const SITE_FILES: [&str; 3] = ["index.html", "index.ja.html", STYLESHEET];

/// The pages' shared stylesheet, one copy in each folder of pages (a report's language folder, a
/// comparison's, a history's, the site's root) so that each folder still reads on its own: inlined,
/// its 8 KB were over half of a median page, repeated on all 422 pages of the committed site.
pub const STYLESHEET: &str = "style.css";

/// The stylesheet's address from the page at `page`, a path relative to the folder holding it.
pub fn stylesheet_href(page: &str) -> String {
    format!("{}{STYLESHEET}", "../".repeat(page.matches('/').count()))
}

/// The site's folder of histories: `history/<series>/<lang>/`.
pub const HISTORY_FOLDER: &str = "history";

/// The site's index page in `lang`, at the site's root: `index.html` in English,
/// `index.<lang>.html` in the others.
pub fn site_index(lang: crate::model::Lang) -> String {
    match lang {
        crate::model::Lang::En => "index.html".to_string(),
        other => format!("index.{}.html", other.code()),
    }
}

/// Why a dataset folder name cannot be a folder of the site, if it cannot.
pub fn site_name_problem(name: &str) -> Option<String> {
    if SITE_FILES.contains(&name) {
        Some(format!("the dataset folder {name:?} has the name of the site's own page {name}: rename the folder"))
    } else if name.starts_with('.') {
        Some(format!("the dataset folder {name:?} starts with `.`, which the site keeps for its own files: rename the folder"))
    } else if name == HISTORY_FOLDER {
        Some(format!("the dataset folder {name:?} has the name of the site's folder of histories: rename the folder"))
    } else {
        None
    }
}

/// Dataset folder names that would share one folder of the site: the same text once read as
/// UTF-8 (two names that differ only in bytes that are not UTF-8), or the same but for case,
/// which a file system that ignores case (macOS, Windows, where a site is often checked out)
/// makes one folder. One problem per clash, naming both.
pub fn site_name_clashes(names: &[String]) -> Vec<String> {
    let mut first: std::collections::HashMap<String, &str> = std::collections::HashMap::new();
    let mut clashes = Vec::new();
    for name in names {
        match first.entry(name.to_lowercase()) {
            std::collections::hash_map::Entry::Occupied(seen) => clashes
                .push(format!("the dataset folders {:?} and {name:?} would be one folder of the site: rename one of them", seen.get())),
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(name);
            }
        }
    }
    clashes
}

/// A run table longer than this is split into pages of this many runs ([`run_list_page`]), so
/// no page lists 10^5 runs; up to it the report page lists every run itself.
pub const RUNS_PER_PAGE: usize = 1000;

/// Page `page` (1-based) of the paged run list, relative to the report folder. A folder of its
/// own, so no run's page (`runs/{slug}.html`) can take its name.
pub fn run_list_page(page: usize) -> String {
    format!("run-list/{page}.html")
}

/// The page of a run, relative to the report folder.
pub fn run_page(slug: &str) -> String {
    format!("runs/{slug}.html")
}

/// The anchor of a condition on the variance page.
pub fn condition_anchor(condition: usize) -> String {
    format!("condition-{condition}")
}

/// A link to a condition's runs on the variance page, from a page `root` away from the report folder.
pub fn condition_link(root: &str, condition: usize) -> String {
    format!("{root}variance.html#{}", condition_anchor(condition))
}

/// The report's own pages and downloads, relative to the report folder.
pub const REPORT_PAGE: &str = "index.html";
pub const VARIANCE_PAGE: &str = "variance.html";
pub const MARKDOWN_TWIN: &str = "report.md";
pub const SUMMARY_JSON: &str = "summary.json";
pub const RUNS_CSV: &str = "runs.csv";
pub const CONDITIONS_CSV: &str = "conditions.csv";

/// The dataset's README, rendered, relative to the report folder.
pub const README_PAGE: &str = "dataset.html";

/// Figure file names, relative to the report folder.
pub const HEADLINE_FIGURE: &str = "figures/headline-by-condition.svg";
pub const LARGE_FIGURE: &str = "figures/write-vs-completion.svg";
pub const TEMPFILE_FIGURE: &str = "figures/tempfiles.svg";

pub fn time_series_figure(slug: &str) -> String {
    format!("figures/latency-over-time-{slug}.svg")
}

/// The ECDF of the conditions at one x level (its index among the x factor's levels).
/// The headline chart of level `level` of the factor the report draws it once per level of.
pub fn headline_level_figure(level: usize) -> String {
    format!("figures/headline-by-condition-{level}.svg")
}

pub fn ecdf_conditions_figure(level: usize) -> String {
    format!("figures/ecdf-by-condition-{level}.svg")
}

pub fn ecdf_figure(slug: &str) -> String {
    format!("figures/ecdf-{slug}.svg")
}

/// The ECDF of each request label of a run.
pub fn label_ecdf_figure(slug: &str) -> String {
    format!("figures/ecdf-by-label-{slug}.svg")
}

pub fn run_tempfile_figure(slug: &str) -> String {
    format!("figures/tempfiles-{slug}.svg")
}

pub fn send_lag_figure(slug: &str) -> String {
    format!("figures/send-lag-{slug}.svg")
}

pub fn resources_figure(slug: &str) -> String {
    format!("figures/resources-{slug}.svg")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn slugs(ids: &[&str]) -> Vec<String> {
        unique_slugs(ids.iter().copied())
    }

    fn file_name_safe(slug: &str) -> bool {
        !slug.is_empty()
            && slug.len() <= MAX_PLAIN_SLUG
            && !slug.starts_with('.')
            && slug.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '~'))
    }

    #[test]
    fn url_segments_escape_what_a_url_would_read_as_syntax() {
        assert_eq!(url_segment("h#1"), "h%231");
        assert_eq!(url_segment("q?x=1"), "q%3Fx%3D1");
        assert_eq!(url_segment("100%25"), "100%2525");
        assert_eq!(url_segment("a b/遅"), "a%20b%2F%E9%81%85");
        assert_eq!(url_segment("gunicorn-slow-client"), "gunicorn-slow-client");
    }

    #[test]
    fn plain_ids_are_their_own_slugs() {
        assert_eq!(slugs(&["r01", "run-2", "a_b.c"]), vec!["r01", "run-2", "a_b.c"]);
    }

    #[test]
    fn ids_that_sanitize_alike_get_different_pages() {
        let got = slugs(&["a_-1", "a/", "a_", "a?"]);
        assert_eq!(got[0], "a_-1");
        assert!(got[1].starts_with("a_~") && got[3].starts_with("a_~"), "{got:?}");
        assert_eq!(got.iter().collect::<std::collections::HashSet<_>>().len(), 4, "{got:?}");
    }

    #[test]
    fn a_long_id_gets_a_short_stable_name() {
        let long = "x".repeat(240);
        let slug = slug_of(&long);
        assert_eq!(slug.len(), 60 + 1 + 12);
        assert_eq!(slug, slug_of(&long), "stable");
        assert_ne!(slug, slug_of(&"x".repeat(241)));
    }

    #[test]
    fn ids_that_would_clash_with_page_ids_or_devices_are_hashed() {
        for id in ["section", "con", "nul.txt", "com1", "lpt9", "R1", ".hidden", ""] {
            let slug = slug_of(id);
            assert!(slug.contains('~'), "{id:?} -> {slug}");
            assert!(file_name_safe(&slug), "{slug}");
        }
    }

    proptest! {
        #[test]
        fn distinct_ids_get_distinct_file_name_safe_slugs(
            ids in proptest::collection::hash_set("(\\PC|[a_./~-]){0,12}|[a-z]{90,130}", 1..40)
        ) {
            let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
            let got = slugs(&ids);
            let unique: std::collections::HashSet<String> = got.iter().map(|s| s.to_lowercase()).collect();
            prop_assert_eq!(unique.len(), ids.len(), "{:?} -> {:?}", ids, got);
            for slug in &got {
                prop_assert!(file_name_safe(slug), "{}", slug);
            }
        }
    }
}
