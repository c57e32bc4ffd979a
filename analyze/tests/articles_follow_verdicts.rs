//! Issue 50: an article orders or separates two conditions only through the variance review's
//! verdicts (`between[A][B]`), so its words follow the numbers. Read over the committed articles
//! and the committed site they render into.

use crate::common::repo;
use serde_json::Value;

/// Every `between["A"]["B"]` an article cites, as (A, B).
fn cited_pairs(source: &str) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    let mut rest = source;
    while let Some(at) = rest.find("between[\"") {
        rest = &rest[at + "between[\"".len()..];
        let a_end = rest.find('"').unwrap();
        let a = rest[..a_end].to_string();
        let after = &rest[a_end..];
        let b_start = after.find("[\"").unwrap() + 2;
        let b_end = after[b_start..].find('"').unwrap();
        pairs.push((a, after[b_start..b_start + b_end].to_string()));
        rest = &after[b_start + b_end..];
    }
    pairs
}

/// The review's verdict between conditions `a` and `b`, either way round.
fn verdict<'a>(summary: &'a Value, a: &str, b: &str) -> Option<&'a str> {
    summary["variance"]["comparisons"].as_array()?.iter().find_map(|c| {
        let ids = (c["a_id"].as_str()?, c["b_id"].as_str()?);
        (ids == (a, b) || ids == (b, a)).then(|| c["verdict"].as_str()).flatten()
    })
}

#[test]
fn every_cited_pair_is_one_the_review_compared_and_the_page_says_its_verdict() {
    let mut checked = 0;
    for entry in std::fs::read_dir(repo().join("datasets")).unwrap() {
        let dir = entry.unwrap().path();
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        for (article, lang, supported, not_shown) in [
            ("article.md", "en", "a difference these runs support", "these runs do not separate"),
            ("article.ja.md", "ja", "測定で裏付けあり）", "この測定では"),
        ] {
            let Ok(source) = std::fs::read_to_string(dir.join(article)) else { continue };
            let pairs = cited_pairs(&source);
            if pairs.is_empty() {
                continue;
            }
            let site = repo().join("site").join(&name).join(lang);
            let summary: Value = serde_json::from_str(&std::fs::read_to_string(site.join("summary.json")).unwrap()).unwrap();
            let page = std::fs::read_to_string(site.join("report.md")).unwrap();
            for (a, b) in pairs {
                let verdict = verdict(&summary, &a, &b).unwrap_or_else(|| panic!("{name}/{article}: {a} vs {b} is not compared"));
                let words = if verdict == "supported" { supported } else { not_shown };
                assert!(page.contains(words), "{name} ({lang}): {a} vs {b} is {verdict}, and the page never says so");
                checked += 1;
            }
        }
    }
    assert!(checked >= 10, "the fastcgi article cites its pairs in both languages: {checked}");
}

#[test]
fn the_fastcgi_article_does_not_order_what_its_review_cannot_tell() {
    // The pairs the issue found contradicted: prefork vs Gunicorn at 2,000 sessions (cannot
    // tell) was "the shorter", and at 500 sessions (two differences supported) "nothing separates
    // the three".
    let page = std::fs::read_to_string(repo().join("site/fastcgi-vs-gunicorn/en/report.md")).unwrap();
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(repo().join("site/fastcgi-vs-gunicorn/en/summary.json")).unwrap()).unwrap();
    let prefork = "server=fastcgi-prefork,python=3.11,sessions=2000";
    let gunicorn = "server=gunicorn-5,python=3.11,sessions=2000";
    assert_eq!(verdict(&summary, prefork, gunicorn), Some("not_shown"));
    // B against A, turned to read at least 1: prefork's sessions were the shorter by the
    // geometric means (ratio Gunicorn/prefork 3.45), which the page may say only with its verdict.
    assert!(page.contains(
        "these runs do not separate FastCGI prefork · 3.11 · 2000 from Gunicorn sync x5 · 3.11 · 2000 (the former ×3.45 faster, 1.16–10.3"
    ));
    assert!(page.contains("FastCGI prefork · 3.11 · 500 is ×1.34 slower than FastCGI threaded · 3.11 · 500"), "a supported one orders");
    for phrase in ["were the shorter", "nothing separates", "the reverse of the original"] {
        assert!(!page.contains(phrase), "{phrase}");
    }
}
