//! JMeter: the JTL CSV a test plan's listeners write (header `timeStamp,elapsed,label,
//! responseCode,...`), one row per sample.
//!
//! Traps: `timeStamp` is the sample's start in Unix ms and `elapsed` includes connecting;
//! `responseCode` is text ("Non HTTP response code: java.net.ConnectException" without a
//! response); `success` is JMeter's verdict (assertions included), not "2xx".

use super::error::ImportError;
use super::text::{implausible_unix_ns, Csv};
use super::{Labels, Piece, Row, Start};
use super::{Message, NoteKey};

/// A JTL CSV (one text): see [`Blocks`].
pub fn csv(file: &str, text: &str) -> Result<Piece, ImportError> {
    let mut blocks = Blocks::new(file);
    super::stream::Blocks::block(&mut blocks, text, 1)?;
    super::stream::Blocks::finish(Box::new(blocks))
}

/// A JTL CSV read block by block: the header from the first block.
pub struct Blocks {
    file: String,
    header: Option<Vec<String>>,
    rows: Vec<Row>,
    /// Request names: JMeter groups samples by their `label`.
    labels: Labels,
    first: Option<(i64, u64)>,
}

impl Blocks {
    pub fn new(file: &str) -> Self {
        Blocks { file: file.to_string(), header: None, rows: Vec::new(), labels: Labels::default(), first: None }
    }
}

impl super::stream::Blocks for Blocks {
    fn block(&mut self, text: &str, first_line: u64) -> Result<(), ImportError> {
        let file = self.file.clone();
        let csv = match self.header.take() {
            Some(header) => Csv::block(&file, header, text, first_line, b',')?,
            None => Csv::parse(&file, text, b',')?,
        };
        self.header = Some(csv.header.clone());
        let (timestamp, elapsed, code) = (csv.column("timeStamp")?, csv.column("elapsed")?, csv.column("responseCode")?);
        let bytes = csv.header.iter().position(|h| h == "bytes");
        let label = csv.header.iter().position(|h| h == "label");
        for row in &csv.rows {
            let sent_ms = csv.count(row, timestamp)?;
            let sent = i64::try_from(sent_ms).ok().and_then(|ms| ms.checked_mul(1_000_000)).unwrap_or(i64::MAX);
            if let Some(why) = implausible_unix_ns(sent) {
                return Err(csv.lines.bad(row.0, row.1[timestamp].0, format!("timeStamp: {why}")));
            }
            if self.first.is_none_or(|(s, _)| sent < s) {
                self.first = Some((sent, row.0));
            }
            let latency = csv.count(row, elapsed)? as f64;
            let latency = super::response_time(latency, |why| csv.lines.bad(row.0, row.1[elapsed].0, format!("elapsed: {why}")))?;
            let (column, text) = &row.1[code];
            let status = match text.trim().parse::<u16>() {
                Ok(c) if (100..=599).contains(&c) => c,
                Ok(_) => return Err(csv.lines.bad(row.0, *column, format!("responseCode {text:?} is not an HTTP status"))),
                Err(_) if text.starts_with("Non HTTP response code") => 0,
                Err(_) => {
                    return Err(csv.lines.bad(
                        row.0,
                        *column,
                        format!("responseCode {text:?} is neither a status nor \"Non HTTP response code: ...\""),
                    ))
                }
            };
            let body = match bytes {
                Some(b) if status != 0 => Some(csv.count(row, b)?),
                _ => None,
            };
            let sample = Row::new(Some(sent), (status != 0).then_some(latency), status, body);
            self.rows.push(match label {
                Some(l) => {
                    let (column, name) = &row.1[l];
                    sample.labelled(self.labels.intern_checked(name, |why| csv.lines.bad(row.0, *column, format!("label: {why}")))?)
                }
                None => sample,
            });
        }
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<Piece, ImportError> {
        let Some((started, line)) = self.first else {
            return Err(ImportError::file(&self.file, "has a header but no sample"));
        };
        Ok(Piece {
            rows: Some(self.rows),
            labels: self.labels,
            started: Some(Start { unix_ns: started, step_ns: 1_000_000, at: super::Place::new(&self.file, line, 1) }),
            notes: vec![Message::plain(NoteKey::JmeterBasis)],
            ..Piece::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture() -> String {
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/import/jmeter/jmeter.jtl")).unwrap()
    }

    #[test]
    fn samples_become_rows_and_non_http_codes_no_response() {
        let rows = csv("j.jtl", &fixture()).unwrap().rows.unwrap();
        assert_eq!(rows.len(), fixture().lines().count() - 1);
        assert!(rows.iter().any(|r| r.status == 0 && r.latency_ms().is_none()));
        assert!(rows.iter().filter(|r| r.status == 200).all(|r| r.latency_ms().is_some()));
    }

    #[test]
    fn a_row_with_a_missing_field_names_its_line() {
        let mut text: String = fixture().lines().take(4).map(|l| format!("{l}\n")).collect();
        text.push_str("1796049880000,12,page\n");
        assert_eq!(csv("j.jtl", &text).unwrap_err().place.map(|p| p.0), Some(5));
    }
}
