//! Ratios with their basis (issue 50), on the committed datasets' pages as a reader checks them:
//!
//! - The lead's ratio is the variance review's ratio of geometric means over runs, not the ratio
//!   of the medians printed beside it (static-file-servers as first measured: 0.3 vs 3.2 ms beside 12.5×), so it
//!   names that basis and the review's 95% interval, and the review's table shows the same.
//! - Every ratio on a variance page reads at least 1, with a word for the larger side and its
//!   interval turned with it (1/high to 1/low), while summary.json keeps B/A.
//! - "cannot tell" beside a 95% interval that leaves out 1 says why on its row.

use analyze::model::{Lang, Oriented, Verdict};
use analyze::render::format;
use analyze::report::review::Comparison;
use analyze::report::Report;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn datasets() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../datasets");
    let mut dirs: Vec<PathBuf> =
        std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.join("dataset.toml").is_file()).collect();
    dirs.sort();
    dirs
}

fn build(dir: &Path) -> Report {
    let mut dataset = analyze::dataset::load(dir).unwrap();
    analyze::stats::build(&mut dataset, analyze::stats::Detail::Statistics)
}

fn committed(name: &str) -> Report {
    build(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../datasets").join(name))
}

/// One page of a report in `lang`, as text.
fn page(report: &Report, lang: Lang, file: &str) -> String {
    let files = analyze::render::report_files(report, lang, &BTreeMap::new(), false).unwrap();
    String::from_utf8(files[file].clone()).unwrap()
}

/// The text between `from` and `to`, tags dropped and the few entities the pages use decoded.
fn section(page: &str, from: &str, to: &str) -> String {
    let start = page.find(from).unwrap_or_else(|| panic!("{from} is on the page"));
    let end = start + page[start..].find(to).unwrap();
    // A cell's lines (value, interval, note) and the cells apart by a space.
    let html = page[start..end].replace("<br>", " ").replace("</td>", " </td>").replace("</th>", " </th>");
    let mut text = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text.replace("&amp;", "&").replace("&#x27;", "'").replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">")
}

/// The number a text starts with ("4,000 faster" gives 4000).
fn leading_number(text: &str) -> f64 {
    let digits: String = text.chars().take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ',').filter(|c| *c != ',').collect();
    digits.parse().unwrap_or_else(|_| panic!("a number starts {text:?}"))
}

/// The number a text ends with ("… 判断できない4,000" gives 4000).
fn trailing_number(text: &str) -> f64 {
    let reversed: String = text.chars().rev().take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ',').collect();
    leading_number(&reversed.chars().rev().collect::<String>())
}

/// The review's comparison of two conditions, whichever way it paired them.
fn comparison<'r>(report: &'r Report, a: &str, b: &str) -> &'r Comparison {
    report
        .variance
        .comparisons
        .iter()
        .find(|c| (c.a_id == a && c.b_id == b) || (c.a_id == b && c.b_id == a))
        .unwrap_or_else(|| panic!("the review compared {a} and {b}"))
}

/// A comparison's ratio turned to read at least 1, as factor, low and high text.
fn turned(c: &Comparison) -> (Oriented, String, String, String) {
    let o = Oriented::of(c.ratio.unwrap(), c.ratio_low, c.ratio_high).unwrap();
    let (low, high) = o.interval.unwrap();
    (o, format::factor(o.factor), format::factor(low), format::factor(high))
}

#[test]
fn an_oriented_ratio_of_0_00025_reads_4000_with_its_interval_flipped() {
    let o = Oriented::of(0.00025, Some(0.00022), Some(0.00029)).unwrap();
    let (low, high) = o.interval.unwrap();
    assert_eq!((format::factor(o.factor), format::factor(low), format::factor(high)), ("4,000".into(), "3,448".into(), "4,545".into()));
    assert!(!o.b_larger, "B is the smaller side");
}

/// Every supported gap the lead quotes is the review's ratio of geometric means with its 95%
/// interval, said as such in both languages; no "× apart" stands without its basis.
#[test]
fn every_ratio_the_lead_quotes_names_its_basis_and_the_reviews_interval() {
    let mut quoted = 0;
    for dir in datasets() {
        let report = build(&dir);
        let en = section(&page(&report, Lang::En, "index.html"), "<section id=\"findings\"", "</section>");
        let ja = section(&page(&report, Lang::Ja, "index.html"), "<section id=\"findings\"", "</section>");
        let variance = page(&report, Lang::En, "variance.html");
        let variance = match variance.contains("<table id=\"comparisons\"") {
            true => section(&variance, "<table id=\"comparisons\"", "</table>"),
            false => String::new(),
        };
        let mut expected = 0;
        for group in &report.standing.groups {
            let pairs = [(group.best_vs_next, group.ranked_ids.get(1)), (group.best_vs_worst, group.worst.as_ref())];
            for (verdict, other) in pairs {
                let (Some(Verdict::Supported), Some(other), Some(best)) = (verdict, other, group.best.as_ref()) else { continue };
                let c = comparison(&report, best, other);
                let (o, factor, low, high) = turned(c);
                let (l, h) = o.interval.unwrap();
                assert!(l <= o.factor && o.factor <= h, "{}: the factor lies in its interval: {o:?}", dir.display());
                let basis = format!("{factor}× apart from the best as geometric means of runs, 95% interval {low}–{high}×");
                assert!(en.contains(&basis), "{}: {basis}\n{en}", dir.display());
                let basis_ja = format!("最良との差は各測定の幾何平均で{factor}倍、95%区間は{low}〜{high}倍");
                assert!(ja.contains(&basis_ja), "{}: {basis_ja}\n{ja}", dir.display());
                // The review's table shows the same ratio and interval on the row of the pair.
                assert!(variance.contains(&format!("×{factor} ")) && variance.contains(&format!(" {low}–{high} ")), "{variance}");
                expected += 1;
            }
        }
        assert_eq!(en.matches("× apart from the best").count(), expected, "{}: a ratio without its basis\n{en}", dir.display());
        assert_eq!(en.matches("as geometric means of runs, 95% interval").count(), expected, "{en}");
        assert_eq!(ja.matches("各測定の幾何平均で").count(), expected, "{ja}");
        quoted += expected;
    }
    // static-file-servers' two gaps (5.99× beside 0.2 vs 1.1 ms) and gunicorn-slow-client's one at least.
    assert!(quoted >= 3, "{quoted} ratios quoted");
}

/// gunicorn-slow-client's review holds ratios far below 1 (sync x2 direct against buffering on
/// at 2 downloads, about 0.00025): the page turns each over, flips its interval, and says
/// which side is faster; summary.json keeps B/A.
#[test]
fn every_ratio_on_the_variance_page_reads_at_least_1_with_its_interval_flipped() {
    let report = committed("gunicorn-slow-client");
    let en = section(&page(&report, Lang::En, "variance.html"), "<table id=\"comparisons\"", "</table>");
    let ja = section(&page(&report, Lang::Ja, "variance.html"), "<table id=\"comparisons\"", "</table>");
    let mut below_1 = 0;
    for c in &report.variance.comparisons {
        let (o, factor, low, high) = turned(c);
        // p95 latency: lower is faster.
        let (word, word_ja) = if o.b_larger { ("slower", "遅い") } else { ("faster", "速い") };
        // The interval on the cell's second line.
        let cell = format!("×{factor} {word} {low}–{high} ");
        assert!(en.contains(&cell), "{cell}\n{en}");
        let cell_ja = format!("{factor}倍{word_ja} {low}〜{high} ");
        assert!(ja.contains(&cell_ja), "{cell_ja}\n{ja}");
        below_1 += usize::from(c.ratio.unwrap() < 1.0);
    }
    assert!(below_1 >= 3, "the study has ratios below 1 to turn: {below_1}");
    // An interval may still reach below 1 where the runs cannot tell; the factor never does.
    let factors_en: Vec<f64> = en.split('×').skip(1).map(leading_number).collect();
    let factors_ja: Vec<f64> = ja.split('倍').map(trailing_number).take(ja.matches('倍').count()).collect();
    assert_eq!((factors_en.len(), factors_ja.len()), (report.variance.comparisons.len(), report.variance.comparisons.len()));
    assert!(factors_en.iter().chain(&factors_ja).all(|&f| f >= 1.0), "{factors_en:?} {factors_ja:?}");
    // The JSON keeps B/A.
    let summary: serde_json::Value = serde_json::from_str(&page(&report, Lang::En, "summary.json")).unwrap();
    let ratios: Vec<f64> = summary["variance"]["comparisons"].as_array().unwrap().iter().map(|c| c["ratio"].as_f64().unwrap()).collect();
    assert_eq!(ratios.len(), report.variance.comparisons.len());
    for (json, c) in ratios.iter().zip(&report.variance.comparisons) {
        assert!((json / c.ratio.unwrap() - 1.0).abs() < 1e-9, "summary.json {json} against {c:?}");
    }
    assert!(ratios.iter().any(|&r| r < 0.001), "{ratios:?}");
}

/// A "cannot tell" whose unadjusted 95% interval leaves out 1 (its p did not pass
/// Benjamini-Hochberg over the review's comparisons) says so on its row, and no other row does.
#[test]
fn cannot_tell_beside_an_interval_without_1_says_why_on_its_row() {
    let mut found = 0;
    for name in ["gunicorn-slow-client", "fastcgi-vs-gunicorn"] {
        let report = committed(name);
        let apart: Vec<&Comparison> = report
            .variance
            .comparisons
            .iter()
            .filter(|c| c.verdict == Verdict::NotShown && (c.ratio_low.unwrap() > 1.0 || c.ratio_high.unwrap() < 1.0))
            .collect();
        assert!(apart.iter().all(|c| !c.fdr_supported));
        let with_p = report.variance.comparisons.iter().filter(|c| c.p_log_t.is_some()).count();
        let en = section(&page(&report, Lang::En, "variance.html"), "<table id=\"comparisons\"", "</table>");
        let ja = section(&page(&report, Lang::Ja, "variance.html"), "<table id=\"comparisons\"", "</table>");
        let q = format::threshold_percent(report.variance.comparison_summary.fdr_q);
        let note = format!(
            "its 95% interval leaves out 1 (no difference), but its p does not pass the false discovery rate of {q} held over the {with_p} comparisons"
        );
        let note_ja = format!("95%区間は1（差なし）を含まないが、p値が{with_p}件の比較に対する偽発見率{q}の制御を通らない");
        assert_eq!(en.matches(&note).count(), apart.len(), "{name}\n{en}");
        assert_eq!(ja.matches(&note_ja).count(), apart.len(), "{name}\n{ja}");
        found += apart.len();
    }
    // gunicorn-slow-client's 「0.63 (0.44〜0.89) p 0.030 … 判断できない」 among them.
    assert!(found >= 4, "{found}");
}
