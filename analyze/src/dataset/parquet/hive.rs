//! The files of a `requests/` folder of Parquet parts, as Spark and Hive write them: which files
//! hold rows, in which order they are read, and the run each one's folder names.
//!
//! A part lives below `key=value` partition folders (`requests/date=2026-11-01/run_id=r1/part-0.parquet`);
//! the `run_id=` folder, at any depth, names the run of every row below it, and other keys are
//! ignored. Values are unescaped as Spark's `ExternalCatalogUtils.unescapePathName` does (`%2F` is
//! `/`), and kept as text (`run_id=007` is the run `007`). Names starting with `_` or `.`
//! (`_SUCCESS`, `_committed_*`, `_temporary/`, `.part-0.parquet.crc`) and `*.crc` files are what
//! Hadoop leaves beside the data and are skipped. Every other file is a part: one that is not
//! Parquet is reported by the reader, never skipped. Folders are walked in sorted order, so the
//! rows are read in the same order on every machine and the report is byte-identical.

use crate::dataset::error::{shown, DataError};
use std::path::{Path, PathBuf};

/// The partition key whose value is the run.
const RUN_KEY: &str = "run_id";
/// The value Hive and Spark write for a null partition value.
const NULL_VALUE: &str = "__HIVE_DEFAULT_PARTITION__";
/// Folder levels walked at most: deeper is a symbolic link loop, not a layout.
const MAX_DEPTH: usize = 32;

/// One Parquet file of the folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// Its path from the dataset folder (`requests/run_id=r1/part-0.parquet`), as messages name it.
    pub name: String,
    pub path: PathBuf,
    /// The value of its `run_id=` folder, unescaped; `None` when no folder above it names one.
    pub run_id: Option<String>,
}

/// The parts of `folder` (shown as `shown`, e.g. `requests`) in sorted path order, and a problem
/// for each thing in it that cannot be a part or a partition folder.
pub fn list(folder: &Path, shown_as: &str) -> (Vec<Part>, Vec<DataError>) {
    let mut walk = Walk { parts: Vec::new(), problems: Vec::new() };
    walk.folder(folder, shown_as, None, 0);
    (walk.parts, walk.problems)
}

struct Walk {
    parts: Vec<Part>,
    problems: Vec<DataError>,
}

impl Walk {
    fn folder(&mut self, path: &Path, name: &str, run_id: Option<&str>, depth: usize) {
        if depth > MAX_DEPTH {
            self.problems.push(DataError::file(name, format!("is nested {MAX_DEPTH} folders deep (a symbolic link loop?)")));
            return;
        }
        let entries = match std::fs::read_dir(path).and_then(|entries| entries.collect::<Result<Vec<_>, _>>()) {
            Ok(entries) => entries,
            Err(error) => {
                self.problems.push(DataError::file(name, format!("cannot be read: {error}")));
                return;
            }
        };
        let mut named = Vec::with_capacity(entries.len());
        for entry in entries {
            match entry.file_name().into_string() {
                Ok(file_name) => named.push((file_name, entry.path())),
                Err(raw) => self.problems.push(DataError::file(
                    &format!("{name}/{}", raw.to_string_lossy()),
                    "has a name that is not UTF-8: rename it (Spark writes UTF-8 names)",
                )),
            }
        }
        named.sort();
        for (file_name, child) in named {
            if is_beside_the_data(&file_name) {
                continue;
            }
            let child_name = format!("{name}/{file_name}");
            let meta = match std::fs::metadata(&child) {
                Ok(meta) => meta,
                Err(error) => {
                    self.problems.push(DataError::file(&child_name, format!("cannot be read: {error}")));
                    continue;
                }
            };
            if meta.is_dir() {
                match partition(&file_name) {
                    Some((key, value)) if key == RUN_KEY => match run_id {
                        Some(outer) => self.problems.push(DataError::file(
                            &child_name,
                            format!("is a second run_id folder, inside run_id={}: a run is named once", shown(outer)),
                        )),
                        None if value == NULL_VALUE => self.problems.push(DataError::file(
                            &child_name,
                            "names no run (Hive's null partition): every request needs a run_id".to_string(),
                        )),
                        None => self.folder(&child, &child_name, Some(&value), depth + 1),
                    },
                    Some(_) => self.folder(&child, &child_name, run_id, depth + 1),
                    None => self.problems.push(DataError::file(
                        &child_name,
                        "is a folder whose name is not key=value: a folder of requests holds Parquet files and \
                         partition folders such as run_id=r1 or date=2026-11-30",
                    )),
                }
            } else if meta.is_file() {
                self.parts.push(Part { name: child_name, path: child, run_id: run_id.map(str::to_string) });
            } else {
                self.problems.push(DataError::file(
                    &child_name,
                    "is not a regular file (a pipe, socket or device?): a part of requests must be a Parquet file",
                ));
            }
        }
    }
}

/// What Spark, Hadoop and Hive write beside the data: markers, checksums, staging folders.
fn is_beside_the_data(name: &str) -> bool {
    name.starts_with('_') || name.starts_with('.') || name.ends_with(".crc")
}

/// The key and unescaped value of a partition folder's name `key=value`.
fn partition(name: &str) -> Option<(String, String)> {
    let (key, value) = name.split_once('=')?;
    if key.is_empty() {
        return None;
    }
    Some((unescape(key), unescape(value)))
}

/// Spark's `unescapePathName`: `%` and two hex digits is the character of that code; anything
/// else is kept as it is.
fn unescape(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%' && at + 2 < bytes.len() && bytes[at + 1].is_ascii_hexdigit() && bytes[at + 2].is_ascii_hexdigit() {
            let code = u8::from_str_radix(&text[at + 1..at + 3], 16).expect("two hex digits");
            out.push(char::from(code));
            at += 3;
            continue;
        }
        let c = text[at..].chars().next().expect("at is on a character boundary");
        out.push(c);
        at += c.len_utf8();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_unescaped_as_spark_escapes_them() {
        assert_eq!(unescape("a%2Fb"), "a/b");
        assert_eq!(unescape("50%25"), "50%");
        assert_eq!(unescape("x%3Dy%3a"), "x=y:");
        assert_eq!(unescape("007"), "007");
        // Not an escape: kept as written.
        assert_eq!(unescape("%zz%2"), "%zz%2");
        assert_eq!(unescape("%"), "%");
        assert_eq!(unescape("日本%20語"), "日本 語");
    }

    #[test]
    fn a_partition_is_key_equals_value() {
        assert_eq!(partition("run_id=r%2F1"), Some(("run_id".to_string(), "r/1".to_string())));
        assert_eq!(partition("date="), Some(("date".to_string(), String::new())));
        assert_eq!(partition("=x"), None);
        assert_eq!(partition("parts"), None);
    }

    #[test]
    fn hadoops_files_are_skipped() {
        for name in ["_SUCCESS", "_committed_123", "_started_1", "_temporary", ".part-0.parquet.crc", "part-0.parquet.crc", ".DS_Store"] {
            assert!(is_beside_the_data(name), "{name}");
        }
        assert!(!is_beside_the_data("part-00000-1b2c.c000.snappy.parquet"));
    }

    #[test]
    fn parts_are_listed_in_path_order_with_their_run() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("requests");
        for path in [
            "date=2026-11-30/run_id=r10/part-1.parquet",
            "date=2026-11-30/run_id=r10/part-0.parquet",
            "date=2026-11-29/run_id=a%2Fb/part-0.parquet",
            "date=2026-11-29/run_id=a%2Fb/.part-0.parquet.crc",
            "date=2026-11-29/_SUCCESS",
            "_temporary/0/part-9.parquet",
        ] {
            let file = root.join(path);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(file, b"").unwrap();
        }
        let (parts, problems) = list(&root, "requests");
        assert!(problems.is_empty(), "{problems:?}");
        let got: Vec<(&str, Option<&str>)> = parts.iter().map(|p| (p.name.as_str(), p.run_id.as_deref())).collect();
        assert_eq!(
            got,
            vec![
                ("requests/date=2026-11-29/run_id=a%2Fb/part-0.parquet", Some("a/b")),
                ("requests/date=2026-11-30/run_id=r10/part-0.parquet", Some("r10")),
                ("requests/date=2026-11-30/run_id=r10/part-1.parquet", Some("r10")),
            ]
        );
    }

    #[test]
    fn folders_that_are_not_partitions_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("requests");
        for path in ["run_id=a/run_id=b/p.parquet", "stuff/p.parquet", "run_id=__HIVE_DEFAULT_PARTITION__/p.parquet", "plain.parquet"] {
            let file = root.join(path);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(file, b"").unwrap();
        }
        let (parts, problems) = list(&root, "requests");
        assert_eq!(
            parts.iter().map(|p| (p.name.as_str(), p.run_id.as_deref())).collect::<Vec<_>>(),
            vec![("requests/plain.parquet", None)]
        );
        let messages: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert_eq!(messages.len(), 3, "{messages:?}");
        assert!(messages[0].starts_with("requests/run_id=__HIVE_DEFAULT_PARTITION__: names no run"), "{messages:?}");
        assert!(messages[1].starts_with("requests/run_id=a/run_id=b: is a second run_id folder, inside run_id=\"a\""), "{messages:?}");
        assert!(messages[2].starts_with("requests/stuff: is a folder whose name is not key=value"), "{messages:?}");
    }
}
