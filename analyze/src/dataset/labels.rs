//! The optional `label` column of the requests table: per run and per label, the requests, the
//! errors and the 2xx latencies, for the per-endpoint statistics.
//!
//! A second, narrow pass over the requests, made only when the table has a `label` column and
//! the first pass found no problem: the first pass (and its speed) is the same for every dataset,
//! and a dataset without labels pays one header read. The pass reads four columns (run_id,
//! status, latency_ms, label); every other rule about them was applied by the first pass. The
//! label text itself is checked, and trimmed, by [`request_row::label_text`]: the names rule
//! (`request_row::name`) the writers apply, so ` a`, `a` and `a ` are one endpoint.
//!
//! Labels are bounded like a report's series: beyond [`MAX_LABELS`], the labels with the most
//! requests over the dataset are kept and the rest are counted together as one group whose size
//! is said ([`Labels::merged`]).

use super::error::{DataError, Place, Problems};
use super::parquet;
use super::requests::RunIndex;
use super::table::TableSource;
use request_row::{label_text, LABEL};
use std::collections::HashMap;

/// Receives each row of the label pass: its run, status, latency (`None` without a response)
/// and label.
pub type RowSink<'a> = dyn FnMut(u32, i64, Option<f64>, &str) + 'a;

/// The most labels a report shows one by one; with more, the rest are one group.
pub const MAX_LABELS: usize = 12;

/// One label's requests in one run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LabelRequests {
    pub requests: u64,
    /// Requests without a 2xx response (as a run's errors are counted).
    pub errors: u64,
    /// Latencies of the 2xx responses, in file order.
    pub latencies_ms: Vec<f64>,
}

impl LabelRequests {
    fn add(&mut self, status: i64, latency_ms: Option<f64>) {
        self.requests += 1;
        match latency_ms {
            Some(latency) if (200..300).contains(&status) => self.latencies_ms.push(latency),
            _ => self.errors += 1,
        }
    }

    fn absorb(&mut self, other: LabelRequests) {
        self.requests += other.requests;
        self.errors += other.errors;
        self.latencies_ms.extend(other.latencies_ms);
    }
}

/// The labels of a dataset with more than one.
#[derive(Debug, Clone, PartialEq)]
pub struct Labels {
    /// The labels shown, most requests over the dataset first (ties by text); when
    /// [`Labels::merged`] is not 0, one more group follows them: the other labels together.
    pub names: Vec<String>,
    /// How many labels the last group holds (0: every label is shown by name).
    pub merged: usize,
    /// Per run (runs.csv order), per group (`names`, then the merged group if any).
    pub runs: Vec<Vec<LabelRequests>>,
}

impl Labels {
    /// The groups of a run: `names.len()`, plus one for the merged labels.
    pub fn groups(&self) -> usize {
        self.names.len() + usize::from(self.merged > 0)
    }
}

/// The requests table's labels, or `None` when it has no `label` column or no run with two labels.
pub fn read(source: &TableSource, index: &RunIndex, runs: usize, problems: &mut Problems) -> Option<Labels> {
    let mut per_run: Vec<HashMap<String, LabelRequests>> = vec![HashMap::new(); runs];
    let mut add = |run: u32, status: i64, latency_ms: Option<f64>, label: &str| {
        if let Some(slot) = per_run.get_mut(run as usize) {
            match slot.get_mut(label) {
                Some(counts) => counts.add(status, latency_ms),
                None => slot.entry(label.to_string()).or_default().add(status, latency_ms),
            }
        }
    };
    let found = match source {
        TableSource::Csv(path) => read_csv(path, &source.file_name(), index, problems, &mut add),
        TableSource::Parquet(_) | TableSource::ParquetFolder(_) => parquet::label_rows(source, index, problems, &mut add),
    };
    if !found {
        return None;
    }
    group(per_run)
}

/// Keeps the [`MAX_LABELS`] labels with the most requests (ties by text), the rest as one group;
/// `None` unless some run has more than one label (runs of different tools, each naming its one
/// endpoint its own way, are not endpoints to compare).
pub fn group(per_run: Vec<HashMap<String, LabelRequests>>) -> Option<Labels> {
    if per_run.iter().all(|run| run.len() < 2) {
        return None;
    }
    let mut totals: HashMap<&str, u64> = HashMap::new();
    for run in &per_run {
        for (label, counts) in run {
            *totals.entry(label.as_str()).or_default() += counts.requests;
        }
    }
    let mut order: Vec<(&str, u64)> = totals.into_iter().collect();
    order.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    let (names, merged) = if order.len() > MAX_LABELS {
        (order[..MAX_LABELS - 1].iter().map(|(l, _)| l.to_string()).collect::<Vec<_>>(), order.len() - (MAX_LABELS - 1))
    } else {
        (order.iter().map(|(l, _)| l.to_string()).collect(), 0)
    };
    let position: HashMap<&str, usize> = names.iter().enumerate().map(|(i, l)| (l.as_str(), i)).collect();
    let groups = names.len() + usize::from(merged > 0);
    let runs = per_run
        .into_iter()
        .map(|run| {
            let mut slots = vec![LabelRequests::default(); groups];
            // Merged in label order, so the merged group's latencies come in the same order on
            // every machine (a hash map's order is not).
            let mut entries: Vec<(String, LabelRequests)> = run.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            for (label, counts) in entries {
                let slot = position.get(label.as_str()).copied().unwrap_or(groups - 1);
                slots[slot].absorb(counts);
            }
            slots
        })
        .collect();
    Some(Labels { names, merged, runs })
}

/// Reads requests.csv's labels; `false` when it has no `label` column.
fn read_csv(path: &std::path::Path, file: &str, index: &RunIndex, problems: &mut Problems, add: &mut RowSink) -> bool {
    let cannot = |e: &dyn std::fmt::Display| DataError::file(file, format!("cannot be read: {e}"));
    let handle = match std::fs::File::open(path) {
        Ok(handle) => handle,
        Err(error) => {
            problems.push(cannot(&error));
            return false;
        }
    };
    let mut reader = csv::ReaderBuilder::new().has_headers(true).flexible(true).buffer_capacity(1 << 20).from_reader(handle);
    let header = match reader.byte_headers() {
        Ok(header) => header.clone(),
        Err(error) => {
            problems.push(cannot(&error));
            return false;
        }
    };
    let find = |name: &str| header.iter().position(|h| h.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(h) == name.as_bytes());
    let (Some(label), Some(run_id), Some(status), Some(latency)) = (find(LABEL), find("run_id"), find("status"), find("latency_ms")) else {
        return false;
    };
    let mut record = csv::ByteRecord::new();
    loop {
        match reader.read_byte_record(&mut record) {
            Ok(true) => {}
            Ok(false) => break,
            Err(error) => {
                problems.push(cannot(&error));
                break;
            }
        }
        let line = record.position().map_or(0, |p| p.line());
        let Some(run) = record.get(run_id).and_then(|id| index.get(id)).filter(|&r| r != RunIndex::IGNORED) else { continue };
        let text = |i: usize| record.get(i).and_then(|b| std::str::from_utf8(b).ok()).unwrap_or("").trim();
        let Ok(status_code) = text(status).parse::<i64>() else { continue };
        let latency_ms = text(latency).parse::<f64>().ok();
        let cell = record.get(label).unwrap_or(b"");
        let checked = std::str::from_utf8(cell).map_err(|_| "is not UTF-8 text".to_string()).and_then(label_text);
        match checked {
            Ok(name) => add(run, status_code, latency_ms, name),
            Err(message) => problems.push(DataError {
                file: file.to_string(),
                place: Place::Line { line, field: Some((label + 1, LABEL.to_string())) },
                message,
            }),
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_text(body: &str) -> (Option<Labels>, Vec<String>) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("requests.csv");
        std::fs::write(&path, body).unwrap();
        let mut problems = Problems::default();
        let labels = read(&TableSource::Csv(path), &RunIndex::new(["a", "b"]), 2, &mut problems);
        (labels, problems.errors().iter().map(ToString::to_string).collect())
    }

    #[test]
    fn counts_each_labels_requests_errors_and_2xx_latencies_per_run() {
        let (labels, problems) = read_text(
            "run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes,label\n\
             a,0,0,0,5,200,0,get-page\na,1,0,0,7,302,0,post-form\na,2,0,0,3,200,0,get-page\n\
             a,3,0,0,,0,,post-form\nb,0,0,0,9,502,0,get-page\nb,1,0,0,4,200,0,\"post-form\"\n",
        );
        assert!(problems.is_empty(), "{problems:?}");
        let labels = labels.unwrap();
        assert_eq!(labels.names, ["get-page", "post-form"], "most requests first");
        assert_eq!(labels.merged, 0);
        assert_eq!(labels.runs[0][0], LabelRequests { requests: 2, errors: 0, latencies_ms: vec![5.0, 3.0] });
        assert_eq!(labels.runs[0][1], LabelRequests { requests: 2, errors: 2, latencies_ms: vec![] });
        assert_eq!(labels.runs[1][0], LabelRequests { requests: 1, errors: 1, latencies_ms: vec![] });
        assert_eq!(labels.runs[1][1], LabelRequests { requests: 1, errors: 0, latencies_ms: vec![4.0] });
    }

    #[test]
    fn one_label_per_run_is_no_labels() {
        let (labels, _) = read_text("run_id,latency_ms,status,label\na,5,200,page\nb,5,200,http://h/page\n");
        assert_eq!(labels, None, "two tools naming one endpoint differently");
    }

    #[test]
    fn no_label_column_or_one_label_is_no_labels() {
        let (labels, _) = read_text("run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes\na,0,0,0,5,200,0\n");
        assert_eq!(labels, None);
        let (labels, _) =
            read_text("run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes,label\na,0,0,0,5,200,0,x\nb,0,0,0,5,200,0,x\n");
        assert_eq!(labels, None);
    }

    #[test]
    fn a_label_with_a_control_character_is_refused_at_its_place() {
        let (_, problems) = read_text("run_id,latency_ms,status,label\na,5,200,\"x\ty\"\na,5,200,z\n");
        assert_eq!(problems, ["requests.csv:2:4: label: holds the control character '\\t': a request name is one line of text"]);
    }

    #[test]
    fn labels_that_differ_only_in_surrounding_spaces_are_one_endpoint() {
        let (labels, problems) = read_text("run_id,latency_ms,status,label\na,5,200, a\na,6,200,a\na,7,200,\"a \"\na,8,200,b\n");
        assert!(problems.is_empty(), "{problems:?}");
        let labels = labels.unwrap();
        assert_eq!(labels.names, ["a", "b"]);
        assert_eq!(labels.runs[0][0].latencies_ms, vec![5.0, 6.0, 7.0]);
    }

    #[test]
    fn beyond_the_limit_the_labels_with_fewest_requests_are_one_group() {
        let mut per_run = vec![HashMap::new()];
        for i in 0..(MAX_LABELS + 3) {
            let counts = LabelRequests { requests: 100 - i as u64, errors: 1, latencies_ms: vec![i as f64] };
            per_run[0].insert(format!("l{i:02}"), counts);
        }
        let labels = group(per_run).unwrap();
        assert_eq!(labels.names.len(), MAX_LABELS - 1);
        assert_eq!(labels.merged, 4, "the four smallest together");
        assert_eq!(labels.groups(), MAX_LABELS);
        let rest = &labels.runs[0][MAX_LABELS - 1];
        assert_eq!((rest.requests, rest.errors), ((100 - 14..=100 - 11).sum::<u64>(), 4));
        assert_eq!(rest.latencies_ms, vec![11.0, 12.0, 13.0, 14.0], "in label order");
    }
}
