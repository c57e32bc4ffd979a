//! A `requests/` folder of Parquet files, as Spark and Hive write it (`requests/date=.../run_id=r1/
//! part-0.parquet`), is read like requests.csv: the same report byte for byte, every problem named
//! by the file's path (and its row and column), exit 2.

use assert_cmd::Command;
use parquet::column::writer::ColumnWriter;
use parquet::data_type::ByteArray;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn repo_dataset(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../datasets").join(name)
}

fn tiny() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny")
}

/// The rows of a requests.csv without quoted fields, as text cells.
fn csv_rows(dataset: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(dataset.join("requests.csv")).unwrap();
    assert!(!text.contains('"'), "a plain split reads only unquoted CSV");
    text.lines().skip(1).map(|l| l.split(',').map(String::from).collect()).collect()
}

/// Writes `rows` (text cells in requests.csv's column order) as one Parquet file of row groups
/// of at most `group` rows, as Spark types them: `run_id` a string (left out when `with_run_id`
/// is false, as Spark's `partitionBy` leaves it out), `status` an INT32, `seq` and `body_bytes`
/// INT64, times doubles; an empty cell is a null.
fn write_part(path: &Path, rows: &[Vec<String>], with_run_id: bool, group: usize) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let types = ["BYTE_ARRAY", "INT64", "DOUBLE", "DOUBLE", "DOUBLE", "INT32", "INT64"];
    let names = ["run_id", "seq", "scheduled_ms", "sent_ms", "latency_ms", "status", "body_bytes"];
    let first = usize::from(!with_run_id);
    let fields: Vec<String> =
        (first..7).map(|i| format!("OPTIONAL {} {}{};", types[i], names[i], if i == 0 { " (UTF8)" } else { "" })).collect();
    let schema = std::sync::Arc::new(parse_message_type(&format!("message spark_schema {{ {} }}", fields.join(" "))).unwrap());
    let file = std::fs::File::create(path).unwrap();
    let mut writer = SerializedFileWriter::new(file, schema, std::sync::Arc::new(WriterProperties::builder().build())).unwrap();
    for chunk in rows.chunks(group.max(1)) {
        let mut row_group = writer.next_row_group().unwrap();
        let mut index = first;
        while let Some(mut column) = row_group.next_column().unwrap() {
            let cells: Vec<&str> = chunk.iter().map(|r| r[index].as_str()).collect();
            let levels: Vec<i16> = cells.iter().map(|c| i16::from(!c.is_empty())).collect();
            let present = cells.iter().filter(|c| !c.is_empty());
            match column.untyped() {
                ColumnWriter::ByteArrayColumnWriter(w) => {
                    w.write_batch(&present.map(|c| ByteArray::from(*c)).collect::<Vec<_>>(), Some(&levels), None).unwrap();
                }
                ColumnWriter::Int64ColumnWriter(w) => {
                    w.write_batch(&present.map(|c| c.parse().unwrap()).collect::<Vec<i64>>(), Some(&levels), None).unwrap();
                }
                ColumnWriter::Int32ColumnWriter(w) => {
                    w.write_batch(&present.map(|c| c.parse().unwrap()).collect::<Vec<i32>>(), Some(&levels), None).unwrap();
                }
                ColumnWriter::DoubleColumnWriter(w) => {
                    w.write_batch(&present.map(|c| c.parse().unwrap()).collect::<Vec<f64>>(), Some(&levels), None).unwrap();
                }
                _ => unreachable!("only the four types above are written"),
            }
            column.close().unwrap();
            index += 1;
        }
        row_group.close().unwrap();
    }
    writer.close().unwrap();
}

/// Copies `dataset` into `parent/<its name>` with every file but requests.csv.
fn copy_without_requests(dataset: &Path, parent: &Path) -> PathBuf {
    let dir = parent.join(dataset.file_name().unwrap());
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(dataset).unwrap() {
        let entry = entry.unwrap();
        if entry.file_name() != "requests.csv" && entry.file_type().unwrap().is_file() {
            std::fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
        }
    }
    dir
}

/// `dataset` with its requests as Spark's `partitionBy("date", "run_id")` writes them: per run
/// two parts (the second in row groups of 7 rows) below `date=...` and `run_id=...` folders, every
/// other run's parts still carrying a run_id column, and Hadoop's marker and checksum files beside
/// them. The folders are created in reverse order, so only a sorted read gives the rows in order.
fn hive_copy(dataset: &Path, parent: &Path) -> PathBuf {
    let dir = copy_without_requests(dataset, parent);
    let mut by_run: BTreeMap<String, Vec<Vec<String>>> = BTreeMap::new();
    let mut order = Vec::new();
    for row in csv_rows(dataset) {
        if !by_run.contains_key(&row[0]) {
            order.push(row[0].clone());
        }
        by_run.entry(row[0].clone()).or_default().push(row);
    }
    let requests = dir.join("requests");
    for (i, run) in order.iter().enumerate().rev() {
        let rows = &by_run[run];
        let folder = requests.join(format!("date=2026-11-{}", 10 + i / 4)).join(format!("run_id={run}"));
        let half = rows.len() / 2;
        write_part(&folder.join("part-00001.parquet"), &rows[half..], i % 2 == 0, 7);
        write_part(&folder.join("part-00000.parquet"), &rows[..half], i % 2 == 0, 1 << 20);
        std::fs::write(folder.join(".part-00000.parquet.crc"), b"crc").unwrap();
    }
    std::fs::write(requests.join("_SUCCESS"), b"").unwrap();
    dir
}

fn analyze(args: &[&str]) -> std::process::Output {
    Command::cargo_bin("analyze").unwrap().args(args).output().unwrap()
}

/// Every file below `dir`, by relative path, with its bytes.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut found = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                found.insert(path.strip_prefix(dir).unwrap().to_path_buf(), std::fs::read(&path).unwrap());
            }
        }
    }
    found
}

fn report(dataset: &Path, out: &Path, lang: &str) -> BTreeMap<PathBuf, Vec<u8>> {
    let output = analyze(&["report", dataset.to_str().unwrap(), "--out", out.to_str().unwrap(), "--lang", lang]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    files(out)
}

fn check_stderr(dataset: &Path) -> String {
    let output = analyze(&["check", dataset.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "stdout: {}", String::from_utf8_lossy(&output.stdout));
    String::from_utf8(output.stderr).unwrap()
}

#[test]
fn the_default_dataset_as_a_hive_folder_gives_the_report_of_its_csv_byte_for_byte() {
    let root = tempfile::tempdir().unwrap();
    let original = repo_dataset("gunicorn-slow-client");
    let hive = hive_copy(&original, root.path());
    let parts = files(&hive.join("requests")).into_keys().filter(|p| p.extension().is_some_and(|e| e == "parquet")).count();
    assert_eq!(parts, 2 * 30, "two parts per run");
    for lang in ["en", "ja"] {
        let from_csv = report(&original, &root.path().join(format!("csv-{lang}")), lang);
        let from_hive = report(&hive, &root.path().join(format!("hive-{lang}")), lang);
        assert_eq!(from_csv.keys().collect::<Vec<_>>(), from_hive.keys().collect::<Vec<_>>());
        for (path, bytes) in &from_csv {
            assert!(bytes == &from_hive[path], "{lang}: {} differs", path.display());
        }
        let summary = String::from_utf8(from_hive[Path::new("summary.json")].clone()).unwrap();
        assert!(summary.contains("\"run_id\": \"r30\""), "every run is in the summary");
    }
    let check = |dataset: &Path| {
        let output = analyze(&["check", dataset.to_str().unwrap()]);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        output.stdout
    };
    assert_eq!(check(&hive), check(&original), "check says the same of both");
}

#[test]
fn a_folder_of_plain_parquet_parts_with_a_run_id_column_reads_like_one_file() {
    let root = tempfile::tempdir().unwrap();
    let dataset = copy_without_requests(&tiny(), root.path());
    let rows = csv_rows(&tiny());
    // Parts cut across runs, so a run's rows are in two files.
    for (i, chunk) in rows.chunks(100).enumerate() {
        write_part(&dataset.join("requests").join(format!("part-{i:05}.parquet")), chunk, true, 33);
    }
    let from_csv = report(&tiny(), &root.path().join("csv"), "en");
    let from_parts = report(&dataset, &root.path().join("parts"), "en");
    assert!(from_csv == from_parts, "the same report");
}

#[test]
fn a_requests_parquet_folder_as_spark_writes_it_is_read_too() {
    let root = tempfile::tempdir().unwrap();
    let dataset = copy_without_requests(&tiny(), root.path());
    // df.write.parquet("requests.parquet"): a folder of that name, parts with every column.
    for (i, chunk) in csv_rows(&tiny()).chunks(120).enumerate() {
        write_part(&dataset.join("requests.parquet").join(format!("part-{i:05}-c000.snappy.parquet")), chunk, true, 1 << 20);
    }
    std::fs::write(dataset.join("requests.parquet/_SUCCESS"), b"").unwrap();
    assert!(report(&tiny(), &root.path().join("csv"), "en") == report(&dataset, &root.path().join("folder"), "en"));
    std::fs::create_dir_all(dataset.join("requests")).unwrap();
    std::fs::copy(tiny().join("requests.csv"), dataset.join("requests.csv")).unwrap();
    let stderr = check_stderr(&dataset);
    assert!(
        stderr.contains("  requests.csv: requests.csv, the folder requests.parquet/ and the folder requests/ all exist: keep one\n"),
        "{stderr}"
    );
}

#[test]
fn partition_values_are_text_and_unescaped_as_spark_escapes_them() {
    let root = tempfile::tempdir().unwrap();
    let dataset = copy_without_requests(&tiny(), root.path());
    // The side tables name the runs by their old ids: only runs and requests are renamed here.
    for side in ["resources.csv", "large_responses.csv", "tempfiles.csv"] {
        std::fs::remove_file(dataset.join(side)).unwrap();
    }
    // Run ids a folder name cannot hold as they are, and one that is a number with leading zeros.
    let renamed = [("r01", "007"), ("r02", "a/b c%"), ("r03", "x=1")];
    let rename = |id: &str| renamed.iter().find(|(from, _)| *from == id).map_or(id.to_string(), |(_, to)| to.to_string());
    let runs = std::fs::read_to_string(tiny().join("runs.csv")).unwrap();
    let runs: Vec<String> =
        runs.lines().map(|line| line.split_once(',').map_or(line.to_string(), |(id, rest)| format!("{},{rest}", rename(id)))).collect();
    std::fs::write(dataset.join("runs.csv"), runs.join("\n") + "\n").unwrap();
    let mut csv = String::from("run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes\n");
    let mut by_run: BTreeMap<String, Vec<Vec<String>>> = BTreeMap::new();
    for mut row in csv_rows(&tiny()) {
        row[0] = rename(&row[0]);
        csv.push_str(&row.join(","));
        csv.push('\n');
        by_run.entry(row[0].clone()).or_default().push(row);
    }
    let escaped = |id: &str| id.replace('%', "%25").replace('/', "%2F").replace('=', "%3D");
    for (run, rows) in &by_run {
        write_part(&dataset.join("requests").join(format!("run_id={}", escaped(run))).join("part-0.parquet"), rows, false, 1 << 20);
    }
    let as_csv = copy_without_requests(&dataset, &root.path().join("csv"));
    std::fs::write(as_csv.join("requests.csv"), csv).unwrap();
    let summary = |dataset: &Path, out: &str| report(dataset, &root.path().join(out), "en")[Path::new("summary.json")].clone();
    let from_hive = summary(&dataset, "hive");
    assert_eq!(from_hive, summary(&as_csv, "from-csv"));
    let text = String::from_utf8(from_hive).unwrap();
    for id in ["\"run_id\": \"007\"", "\"run_id\": \"a/b c%\"", "\"run_id\": \"x=1\""] {
        assert!(text.contains(id), "{id} is a run of the summary");
    }
}

#[test]
fn run_id_folders_may_sit_above_other_partitions() {
    let root = tempfile::tempdir().unwrap();
    let dataset = copy_without_requests(&tiny(), root.path());
    let mut by_run: BTreeMap<String, Vec<Vec<String>>> = BTreeMap::new();
    for row in csv_rows(&tiny()) {
        by_run.entry(row[0].clone()).or_default().push(row);
    }
    for (run, rows) in &by_run {
        write_part(&dataset.join(format!("requests/run_id={run}/hour=01/part-0.parquet")), rows, false, 1 << 20);
    }
    assert!(report(&tiny(), &root.path().join("csv"), "en") == report(&dataset, &root.path().join("hive"), "en"));
}

/// The tiny fixture with its requests as `requests/run_id=<run>/part-0.parquet`, each file with
/// its run_id column, after `edit` changes the rows of a run.
fn tiny_hive(parent: &Path, edit: impl Fn(&str, &mut Vec<Vec<String>>)) -> PathBuf {
    let dataset = copy_without_requests(&tiny(), parent);
    let mut by_run: BTreeMap<String, Vec<Vec<String>>> = BTreeMap::new();
    for row in csv_rows(&tiny()) {
        by_run.entry(row[0].clone()).or_default().push(row);
    }
    for (run, rows) in &mut by_run {
        edit(run, rows);
        write_part(&dataset.join(format!("requests/run_id={run}/part-0.parquet")), rows, true, 1 << 20);
    }
    dataset
}

#[test]
fn an_empty_requests_folder_is_an_error() {
    let root = tempfile::tempdir().unwrap();
    let dataset = copy_without_requests(&tiny(), root.path());
    std::fs::create_dir_all(dataset.join("requests/run_id=r01")).unwrap();
    std::fs::write(dataset.join("requests/_SUCCESS"), b"").unwrap();
    let stderr = check_stderr(&dataset);
    assert!(
        stderr.contains("  requests/: holds no Parquet files: write requests/run_id=<run>/part-0.parquet, or requests.csv instead\n"),
        "{stderr}"
    );
}

#[test]
fn requests_given_twice_is_an_error() {
    let root = tempfile::tempdir().unwrap();
    let dataset = tiny_hive(root.path(), |_, _| {});
    write_part(&dataset.join("requests.parquet"), &csv_rows(&tiny()), true, 1 << 20);
    let stderr = check_stderr(&dataset);
    assert!(stderr.contains("  requests.parquet: both requests.parquet and the folder requests/ exist: keep one\n"), "{stderr}");
    std::fs::remove_file(dataset.join("requests.parquet")).unwrap();
    std::fs::copy(tiny().join("requests.csv"), dataset.join("requests.csv")).unwrap();
    let stderr = check_stderr(&dataset);
    assert!(stderr.contains("  requests.csv: both requests.csv and the folder requests/ exist: keep one\n"), "{stderr}");
}

#[test]
fn a_file_that_is_not_parquet_or_is_cut_short_is_named() {
    let root = tempfile::tempdir().unwrap();
    let dataset = tiny_hive(root.path(), |_, _| {});
    std::fs::write(dataset.join("requests/run_id=r02/notes.txt"), b"not parquet at all").unwrap();
    let cut = dataset.join("requests/run_id=r05/part-0.parquet");
    let bytes = std::fs::read(&cut).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let stderr = check_stderr(&dataset);
    assert!(stderr.contains("  requests/run_id=r02/notes.txt: cannot be read as Parquet: "), "{stderr}");
    assert!(stderr.contains("  requests/run_id=r05/part-0.parquet: cannot be read as Parquet: "), "{stderr}");
}

#[test]
fn a_partition_naming_no_run_is_an_error_naming_the_file() {
    let root = tempfile::tempdir().unwrap();
    let dataset = tiny_hive(root.path(), |_, _| {});
    let rows: Vec<Vec<String>> = csv_rows(&tiny()).into_iter().take(3).collect();
    write_part(&dataset.join("requests/run_id=r99/part-0.parquet"), &rows, false, 1 << 20);
    let stderr = check_stderr(&dataset);
    assert!(
        stderr.contains("  requests/run_id=r99/part-0.parquet: is in the folder run_id=\"r99\", a run that runs.csv does not list\n"),
        "{stderr}"
    );
}

#[test]
fn a_run_id_column_that_disagrees_with_its_folder_names_file_and_row() {
    let root = tempfile::tempdir().unwrap();
    let dataset = tiny_hive(root.path(), |run, rows| {
        if run == "r03" {
            rows[2][0] = "r04".to_string();
            rows[4][0] = "zz".to_string();
        }
    });
    let stderr = check_stderr(&dataset);
    let folder = "the file is in the folder run_id=\"r03\": a row's run and its folder must agree";
    assert!(stderr.contains(&format!("  requests/run_id=r03/part-0.parquet: row 3: run_id: is \"r04\", but {folder}\n")), "{stderr}");
    assert!(stderr.contains(&format!("  requests/run_id=r03/part-0.parquet: row 5: run_id: is \"zz\", but {folder}\n")), "{stderr}");
}

#[test]
fn a_bad_value_in_a_part_names_its_file_row_and_column() {
    let root = tempfile::tempdir().unwrap();
    let dataset = tiny_hive(root.path(), |run, rows| {
        if run == "r07" {
            rows[1][4] = "-2.5".to_string();
        }
    });
    let stderr = check_stderr(&dataset);
    assert!(
        stderr.contains("  requests/run_id=r07/part-0.parquet: row 2: latency_ms: -2.5 is negative: a latency cannot be\n"),
        "{stderr}"
    );
}

#[test]
fn a_seq_repeated_in_another_part_names_both_files() {
    let root = tempfile::tempdir().unwrap();
    let dataset = tiny_hive(root.path(), |_, _| {});
    let rows: Vec<Vec<String>> = csv_rows(&tiny()).into_iter().filter(|r| r[0] == "r02").skip(3).take(1).collect();
    write_part(&dataset.join("requests/run_id=r02/part-1.parquet"), &rows, false, 1 << 20);
    let stderr = check_stderr(&dataset);
    let seq = &rows[0][1];
    assert!(
        stderr.contains(&format!(
            "  requests/run_id=r02/part-1.parquet: row 1: seq: {seq} appears again in this run (first on row 4 of requests/run_id=r02/part-0.parquet)\n"
        )),
        "{stderr}"
    );
}

#[test]
fn a_part_without_run_id_outside_a_run_folder_is_an_error() {
    let root = tempfile::tempdir().unwrap();
    let dataset = tiny_hive(root.path(), |_, _| {});
    let rows: Vec<Vec<String>> = csv_rows(&tiny()).into_iter().take(3).collect();
    write_part(&dataset.join("requests/date=2026-11-30/part-0.parquet"), &rows, false, 1 << 20);
    std::fs::create_dir_all(dataset.join("requests/misc")).unwrap();
    let stderr = check_stderr(&dataset);
    assert!(stderr.contains("  requests/date=2026-11-30/part-0.parquet: missing column `run_id`\n"), "{stderr}");
    assert!(stderr.contains("  requests/misc: is a folder whose name is not key=value: "), "{stderr}");
}

#[test]
fn a_refused_folder_leaves_the_report_alone() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("out");
    report(&tiny(), &out, "en");
    let before = files(&out);
    let dataset = tiny_hive(&root.path().join("bad"), |run, rows| {
        if run == "r01" {
            rows[0][0] = "r02".to_string();
        }
    });
    let output = analyze(&["report", dataset.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(files(&out) == before, "the previous report is whole");
}
