//! The comparison's forest chart, as a reader of the comparison folder checks it: one chart of
//! every matched condition's ratio in both languages, first among the figures, a row per
//! condition, the line at 1, the counts in its description, and a slower condition drawn right
//! of 1.

use super::compare::{assert_exit, compare, fixture, slowed};

/// The x of the text `label` in `svg` (a tick label), and of the marks whose title starts with
/// `title` (a row's marker).
fn text_x(svg: &str, label: &str) -> Option<f64> {
    svg.split("<text").find(|t| t.split('>').nth(1).is_some_and(|s| s.starts_with(&format!("{label}</text")))).and_then(|t| attr(t, "x"))
}

fn attr(tag: &str, name: &str) -> Option<f64> {
    tag.split(&format!(" {name}=\"")).nth(1)?.split('"').next()?.parse().ok()
}

fn mark_x(svg: &str, title: &str) -> Option<f64> {
    let at = svg.find(&format!("<title>{title}"))?;
    let tag = &svg[svg[..at].rfind("<circle")?..at];
    attr(tag, "cx")
}

#[test]
fn the_forest_chart_draws_every_condition_on_one_axis_with_the_slower_one_right_of_1() {
    let root = tempfile::tempdir().unwrap();
    let candidate = slowed(root.path());
    let out = root.path().join("cmp");
    assert_exit(&compare(&["--out", out.to_str().unwrap()], &fixture(), &candidate), 0);
    for (lang, labels, slower, counts, said) in [
        (
            "en",
            ["direct · 0", "direct · 2", "nginx, buffering on · 0", "nginx, buffering on · 2"],
            "direct · 2: candidate slower",
            "p95 of each of the 4 matched conditions",
            "×1.50 slower (1.50–1.50)",
        ),
        (
            "ja",
            ["直接／0", "直接／2", "NGINX・先読みあり／0", "NGINX・先読みあり／2"],
            "直接／2：比較対象が遅い",
            "対応する4件の条件",
            "1.50倍遅い（1.50〜1.50）",
        ),
    ] {
        let svg = std::fs::read_to_string(out.join(format!("{lang}/figures/compare-forest.svg"))).unwrap();
        for label in labels {
            assert!(svg.matches(label).count() >= 2, "{lang}: a row and a description entry for {label}\n{svg}");
        }
        let desc = svg.split("<desc").nth(1).unwrap().split("</desc>").next().unwrap();
        assert!(desc.contains(counts), "{lang}: {desc}");
        // Its row says the ratio as the table does, turned to at least 1 with its direction.
        assert!(svg.replace('\u{a0}', " ").contains(said), "{lang}: {said}\n{svg}");
        // The line at 1 has its tick; the slower condition (ratio 1.5, interval 1.50–1.50) sits
        // right of it, the unchanged ones at it.
        let one = text_x(&svg, "1").unwrap_or_else(|| panic!("{lang}: no tick at 1\n{svg}"));
        let slow = mark_x(&svg, slower).unwrap_or_else(|| panic!("{lang}: no mark titled {slower}\n{svg}"));
        assert!(slow > one + 20.0, "{lang}: the slower condition at x {slow}, the line at 1 at {one}");
        // The page shows it first among its figures, right under the summary, before the table.
        let page = std::fs::read_to_string(out.join(format!("{lang}/index.html"))).unwrap().replace("&#x2F;", "/");
        let first = page.find("figures/compare-").unwrap();
        assert!(page[first..].starts_with("figures/compare-forest.svg"), "{lang}: {}", &page[first..first + 60]);
        assert!(first < page.find("id=\"compared-section\"").unwrap(), "{lang}: the forest comes before the table");
    }
}
