//! Arbitrary bytes through ingest and rendering: runs.csv, requests.csv, requests.parquet,
//! dataset.toml and article.md, each mutated from a valid file (byte flips, inserts, cuts) or
//! replaced by random bytes. `analyze::dataset::load` must never panic and must answer either
//! a dataset (which then renders) or problems that each name their file and stay short.
//!
//! A bounded proptest rather than cargo-fuzz, so it runs in `cargo test` (a few seconds); raise
//! PROPTEST_CASES to search longer.

use analyze::dataset::{self, LoadError};
use analyze::{render, stats};
use proptest::prelude::*;
use std::path::Path;

const RUNS: &str = "run_id,route,repetition,started_at_utc,status,note\n\
                    run-a,direct,1,2026-11-30T01:00:00Z,ok,\n\
                    run-b,nginx,1,2026-11-30T01:01:00+09:00,ok,\"a, note\"\n\
                    run-c,nginx,2,2026-11-30T01:02:00Z,ok,\n\
                    run-skip,direct,2,2026-11-30T01:03:00Z,excluded,\n";
const REQUESTS: &str = "run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes\n\
                        run-a,0,0.0,0.5,1.5,200,12\nrun-a,1,125.0,125.5,2.5,200,12\n\
                        run-b,0,0.0,0.5,3.5,503,12\nrun-b,1,125.0,125.5,4.5,200,12\n\
                        run-c,0,0.0,0.5,5.5,200,12\nrun-c,1,125.0,125.5,,0,\n";
const MANIFEST: &str = "title = { en = \"T\", ja = \"ティー\" }\npercentile = 99.9\nx = \"route\"\n\
                        [[factors]]\nname = \"route\"\nlevels = [{ value = \"nginx\", label = \"N\" }]\n\
                        [thresholds]\nlag_ms = 5\n";
const ARTICLE: &str = "# Notes\n\nThe p{{ p }} of run-a: {{ runs[\"run-a\"].headline }} ms ({{ integrity.requests }} requests).\n";

/// A byte edit: replace, insert or delete at a position (taken modulo the length).
#[derive(Debug, Clone)]
enum Edit {
    Replace(usize, u8),
    Insert(usize, u8),
    Delete(usize),
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    let edit = prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Edit::Replace(p, b)),
        (any::<usize>(), prop_oneof![any::<u8>(), Just(b','), Just(b'"'), Just(b'\n'), Just(b'\r'), Just(b'=')])
            .prop_map(|(p, b)| Edit::Insert(p, b)),
        any::<usize>().prop_map(Edit::Delete),
    ];
    proptest::collection::vec(edit, 0..8)
}

fn mutate(original: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut bytes = original.to_vec();
    for edit in edits {
        let len = bytes.len().max(1);
        match *edit {
            Edit::Replace(p, b) if !bytes.is_empty() => bytes[p % len] = b,
            Edit::Insert(p, b) => bytes.insert(p % (bytes.len() + 1), b),
            Edit::Delete(p) if !bytes.is_empty() => {
                bytes.remove(p % len);
            }
            _ => {}
        }
    }
    bytes
}

/// A file's bytes: the valid one mutated, or random bytes.
fn variant(original: &'static [u8]) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        6 => edits().prop_map(move |e| mutate(original, &e)),
        1 => proptest::collection::vec(any::<u8>(), 0..300),
    ]
}

/// Loads `dir`; a dataset must render in both languages, problems must each be short and name a
/// file of the dataset.
fn load_and_render(dir: &Path) -> Result<(), TestCaseError> {
    match dataset::load_with(dir, dataset::Keep::Points) {
        Ok(mut loaded) => {
            let report = stats::build(&mut loaded, stats::Detail::WithFigures);
            let articles_ok = render::check_articles(&report, &loaded.articles, None).is_ok();
            for lang in analyze::model::Lang::ALL {
                let rendered = render::report_files(&report, lang, &loaded.articles, false);
                prop_assert!(rendered.is_ok() || !articles_ok, "check_articles passed, rendering failed: {:?}", rendered.err());
            }
        }
        Err(LoadError::Invalid(invalid)) => {
            prop_assert!(!invalid.errors.is_empty() || invalid.more > 0);
            for error in &invalid.errors {
                let text = error.to_string();
                prop_assert!(text.len() < 1_000, "a message of {} bytes: {}", text.len(), &text[..200]);
                let known = ["runs.", "requests.", "dataset.toml", "article", "large_responses.", "tempfiles.", "resources."];
                prop_assert!(known.iter().any(|k| text.starts_with(k)), "{} names no file", text);
            }
        }
        Err(other) => return Err(TestCaseError::fail(format!("unexpected: {other}"))),
    }
    Ok(())
}

fn dataset_dir(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    for (name, bytes) in files {
        std::fs::write(root.path().join(name), bytes).unwrap();
    }
    root
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_csv_tables_never_panic(runs in variant(RUNS.as_bytes()), requests in variant(REQUESTS.as_bytes())) {
        let dir = dataset_dir(&[("runs.csv", &runs), ("requests.csv", &requests)]);
        load_and_render(dir.path())?;
    }

    #[test]
    fn mutated_dataset_toml_and_articles_never_panic(manifest in variant(MANIFEST.as_bytes()), article in variant(ARTICLE.as_bytes())) {
        let dir = dataset_dir(&[("runs.csv", RUNS.as_bytes()), ("requests.csv", REQUESTS.as_bytes()), ("dataset.toml", &manifest), ("article.md", &article)]);
        load_and_render(dir.path())?;
    }

    #[test]
    fn mutated_requests_parquet_never_panics(edits in edits()) {
        let original = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/parquet-writers/polars_zstd_stats.parquet")).unwrap();
        let runs = "run_id,route,repetition,started_at_utc,status,note\nrun-a,x,1,2026-11-30T01:00:00Z,ok,\n\
                    run-b,y,1,2026-11-30T01:00:00Z,ok,\nrun-c,x,2,2026-11-30T01:00:00Z,ok,\nrun-skip,y,2,2026-11-30T01:00:00Z,excluded,\n";
        let dir = dataset_dir(&[("runs.csv", runs.as_bytes()), ("requests.parquet", &mutate(&original, &edits))]);
        load_and_render(dir.path())?;
    }
}
