//! `run_id` is read through its dictionary page by page (analyze/src/dataset/parquet/run_ids.rs)
//! and through the crate's typed reader when a page is not dictionary-encoded. Files written by
//! the `parquet` crate's own writer with each layout a writer may choose must give every row its
//! run and every null id its problem: a dictionary kept for the whole chunk (v1 and v2 pages), a
//! dictionary that overflows so the writer falls back to PLAIN pages midway, and no dictionary.

use analyze::dataset::parquet::scan_requests;
use analyze::dataset::requests::{RequestRow, RequestSink, RowPlace, RunIndex};
use parquet::basic::Compression;
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::properties::{WriterProperties, WriterVersion};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::ColumnPath;
use std::path::Path;
use std::sync::Arc;

const ROWS: usize = 3000;

struct Record(Vec<(RowPlace, RequestRow)>);

impl RequestSink for Record {
    fn row(&mut self, row: &RequestRow, place: RowPlace) {
        self.0.push((place, *row));
    }
}

/// The id of row `i`: runs of ten rows, `runs` distinct ids, every 97th row null.
fn id(i: usize, runs: usize) -> Option<String> {
    (i % 97 != 96).then(|| format!("run-{:04}", (i / 10) % runs))
}

fn write(path: &Path, runs: usize, props: WriterProperties) {
    let schema = parse_message_type(
        "message requests { optional binary run_id (UTF8); required int64 seq; required double scheduled_ms;
         required double sent_ms; required double latency_ms; required int64 status; }",
    )
    .unwrap();
    let file = std::fs::File::create(path).unwrap();
    let mut writer = SerializedFileWriter::new(file, Arc::new(schema), Arc::new(props)).unwrap();
    let mut group = writer.next_row_group().unwrap();
    let ids: Vec<Option<String>> = (0..ROWS).map(|i| id(i, runs)).collect();
    let mut column = 0;
    while let Some(mut writer) = group.next_column().unwrap() {
        match column {
            0 => {
                let values: Vec<ByteArray> = ids.iter().flatten().map(|s| ByteArray::from(s.as_str())).collect();
                let levels: Vec<i16> = ids.iter().map(|id| i16::from(id.is_some())).collect();
                writer.typed::<ByteArrayType>().write_batch(&values, Some(&levels), None).unwrap();
            }
            1 => {
                let seq: Vec<i64> = (0..ROWS as i64).collect();
                writer.typed::<Int64Type>().write_batch(&seq, None, None).unwrap();
            }
            2..=4 => {
                let values: Vec<f64> = (0..ROWS).map(|i| i as f64 * 0.5 + f64::from(column)).collect();
                writer.typed::<DoubleType>().write_batch(&values, None, None).unwrap();
            }
            _ => {
                writer.typed::<Int64Type>().write_batch(&vec![200; ROWS], None, None).unwrap();
            }
        }
        writer.close().unwrap();
        column += 1;
    }
    group.close().unwrap();
    writer.close().unwrap();
}

/// Each good row's (run, seq), sorted, and the problems.
fn read(path: &Path, runs: usize) -> (Vec<(u32, i64)>, Vec<String>) {
    let names: Vec<String> = (0..runs).map(|r| format!("run-{r:04}")).collect();
    let index = RunIndex::new(names.iter().map(String::as_str));
    let scan = scan_requests(path, &index, || Record(Vec::new())).unwrap();
    let mut rows: Vec<(u32, i64)> = scan.sinks.iter().flat_map(|s| s.0.iter()).map(|(_, r)| (r.run, r.seq)).collect();
    rows.sort_unstable();
    (rows, scan.problems.errors().iter().map(ToString::to_string).collect())
}

fn expected(runs: usize) -> (Vec<(u32, i64)>, usize) {
    let mut rows: Vec<(u32, i64)> = (0..ROWS).filter(|&i| id(i, runs).is_some()).map(|i| (((i / 10) % runs) as u32, i as i64)).collect();
    rows.sort_unstable();
    (rows, (0..ROWS).filter(|&i| id(i, runs).is_none()).count())
}

fn small_pages() -> parquet::file::properties::WriterPropertiesBuilder {
    WriterProperties::builder().set_compression(Compression::UNCOMPRESSED).set_data_page_row_count_limit(64).set_write_batch_size(64)
}

fn check(name: &str, runs: usize, props: WriterProperties) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("requests.parquet");
    write(&path, runs, props);
    let (rows, problems) = read(&path, runs);
    let (want, nulls) = expected(runs);
    assert_eq!(rows.len(), want.len(), "{name}: good rows");
    assert_eq!(rows, want, "{name}: every row in its run");
    assert_eq!(problems.len(), nulls, "{name}: one problem per null id: {problems:?}");
    assert!(problems.iter().all(|p| p.contains("run_id")), "{name}: {problems:?}");
}

#[test]
fn a_dictionary_kept_for_the_whole_chunk_gives_every_row_its_run() {
    check("v1 pages", 30, small_pages().build());
    check("v2 pages", 30, small_pages().set_writer_version(WriterVersion::PARQUET_2_0).build());
}

#[test]
fn a_dictionary_that_overflows_midway_hands_the_rest_to_plain_pages() {
    // 300 ids of 8 bytes (12 in the dictionary) overflow a 256-byte dictionary after about 20.
    for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
        check("fallback", 300, small_pages().set_dictionary_page_size_limit(256).set_writer_version(version).build());
    }
}

#[test]
fn a_column_without_a_dictionary_reads_the_same() {
    let props = small_pages().set_column_dictionary_enabled(ColumnPath::from("run_id"), false).build();
    check("plain", 30, props);
}
