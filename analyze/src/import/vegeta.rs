//! vegeta: `vegeta encode --to csv` and `--to json` (one result per request).
//!
//! Request names: vegeta's reports group by nothing, so a row is labelled by its `url` as the file
//! gives it, as k6's importer labels a point without a `name` tag by its `url` (old CSVs of 7
//! fields carry no URL: no label).
//!
//! Trap: times are nanoseconds (the timestamp is Unix ns in CSV, RFC 3339 in JSON; latency is ns
//! in both); a request without a response has code 0 and an error text.

use super::error::ImportError;
use super::text::{implausible_unix_ns, parse_shifted, rfc3339_unix_ns, split_csv, Lines};
use super::{Labels, Piece, Row, Start};
use super::{Message, NoteKey};

/// A first line like `1796049880123456789,200,1234567,0,20200,...`: vegeta's CSV has no header.
pub fn looks_like_csv(first: &str) -> bool {
    let fields: Vec<&str> = first.split(',').take(5).collect();
    fields.len() == 5 && fields[0].len() >= 16 && fields.iter().all(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()))
}

fn result(sent_unix_ns: i64, code: u16, latency_ms: f64, bytes_in: u64) -> Row {
    let answered = code != 0;
    Row::new(Some(sent_unix_ns), answered.then_some(latency_ms), code, answered.then_some(bytes_in))
}

/// The rows, and the line of the first send (the run's start).
fn finish(file: &str, rows: Vec<Row>, labels: Labels, first: Option<(i64, u64)>) -> Result<Piece, ImportError> {
    let Some((started, line)) = first else {
        return Err(ImportError::file(file, "holds no result"));
    };
    Ok(Piece {
        rows: Some(rows),
        labels,
        started: Some(Start { unix_ns: started, step_ns: 1, at: super::Place::new(file, line, 1) }),
        notes: vec![Message::plain(NoteKey::VegetaNs)],
        ..Piece::default()
    })
}

fn code_of(text: &str) -> Option<u16> {
    let code = text.parse::<u16>().ok()?;
    (code == 0 || (100..=599).contains(&code)).then_some(code)
}

/// vegeta's CSV or JSON results read block by block: the rows, the CSV's width (its first
/// line's), and the earliest send with its line.
pub struct Blocks {
    file: String,
    json: bool,
    rows: Vec<Row>,
    /// The request names: each result's `url`.
    labels: Labels,
    width: Option<usize>,
    first: Option<(i64, u64)>,
    /// The attack the results are of, and the seqs seen: one run is one attack.
    attack: Attack,
}

/// vegeta numbers the requests of one attack 0, 1, 2, ... (`seq`) and names the attack: a seq
/// seen twice, or a second attack name, is a second attack's results in the same file.
#[derive(Default)]
struct Attack {
    name: Option<(String, u64)>,
    /// One bit per seq below [`SEQS`].
    seen: Vec<u64>,
}

/// The seqs checked for repeats: 2^27 (16 MiB of bits), far past any run's requests.
const SEQS: u64 = 1 << 27;

impl Attack {
    fn result(&mut self, file: &str, n: u64, name: &str, seq: Option<u64>) -> Result<(), ImportError> {
        match &self.name {
            None => self.name = Some((name.to_string(), n)),
            Some((first, line)) if first != name => {
                return Err(super::one_run::second_run(
                    file,
                    n,
                    &format!("a result of the attack {name:?}, where line {line} is of the attack {first:?}"),
                ));
            }
            Some(_) => {}
        }
        let Some(seq) = seq.filter(|s| *s < SEQS) else { return Ok(()) };
        let (word, bit) = ((seq / 64) as usize, seq % 64);
        if word >= self.seen.len() {
            self.seen.resize(word + 1, 0);
        }
        if self.seen[word] & (1 << bit) != 0 {
            return Err(super::one_run::second_run(
                file,
                n,
                &format!("seq {seq} again: vegeta numbers one attack's requests once each, from 0"),
            ));
        }
        self.seen[word] |= 1 << bit;
        Ok(())
    }
}

impl Blocks {
    pub fn new(file: &str, json: bool) -> Self {
        Blocks {
            file: file.to_string(),
            json,
            rows: Vec::new(),
            labels: Labels::default(),
            width: None,
            first: None,
            attack: Attack::default(),
        }
    }

    fn earliest(&mut self, sent: i64, line: u64) {
        if self.first.is_none_or(|(s, _)| sent < s) {
            self.first = Some((sent, line));
        }
    }

    fn csv_line(&mut self, lines: &Lines, n: u64, line: &str) -> Result<(), ImportError> {
        let fields = split_csv(line, b',').map_err(|(column, message)| lines.bad(n, column, message))?;
        // Every line of one vegeta version has the same fields (12 today, 7 in old versions).
        let expected = *self.width.get_or_insert(fields.len());
        if fields.len() != expected {
            let column = fields.last().map_or(1, |(c, v)| c + v.len() as u64);
            return Err(lines.bad(n, column, format!("{} fields where the first line has {expected}", fields.len())));
        }
        if fields.len() < 6 {
            let column = fields.last().map_or(1, |(c, v)| c + v.len() as u64);
            return Err(lines.bad(
                n,
                column,
                format!("{} fields where vegeta writes at least 6 (timestamp, code, latency, bytes_out, bytes_in, error)", fields.len()),
            ));
        }
        let number = |i: usize, what: &str| -> Result<&str, ImportError> {
            let (column, v) = &fields[i];
            (!v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
                .then_some(v.as_str())
                .ok_or_else(|| lines.bad(n, *column, format!("{what}: {v:?} is not a whole number")))
        };
        let sent = number(0, "timestamp (Unix ns)")?.parse::<i64>().ok().filter(|ns| implausible_unix_ns(*ns).is_none());
        let sent = sent.ok_or_else(|| {
            let why =
                fields[0].1.parse::<i64>().ok().and_then(implausible_unix_ns).unwrap_or_else(|| "is beyond any plausible time".into());
            lines.bad(n, fields[0].0, format!("timestamp {}: {why}", fields[0].1))
        })?;
        let code = code_of(number(1, "code")?)
            .ok_or_else(|| lines.bad(n, fields[1].0, format!("code {:?} is not an HTTP status", fields[1].1)))?;
        let latency = parse_shifted(number(2, "latency (ns)")?, -6).expect("digits");
        let latency = super::response_time(latency, |why| lines.bad(n, fields[2].0, format!("latency {} ns: {why}", fields[2].1)))?;
        let bytes_in: u64 = number(4, "bytes_in")?.parse().map_err(|_| lines.bad(n, fields[4].0, "bytes_in is too large"))?;
        if fields.len() >= 9 {
            let seq = number(8, "seq")?.parse::<u64>().ok();
            self.attack.result(&self.file, n, &fields[7].1, seq)?;
        }
        self.earliest(sent, n);
        // timestamp,code,latency,bytes_out,bytes_in,error,body,attack,seq,method,url,headers
        let row = result(sent, code, latency, bytes_in);
        let row = match fields.get(10) {
            Some((column, url)) if fields.len() >= 11 && !url.is_empty() => {
                row.labelled(self.labels.intern_checked(url, |why| lines.bad(n, *column, format!("url: {why}")))?)
            }
            _ => row,
        };
        self.rows.push(row);
        Ok(())
    }

    fn json_line(&mut self, lines: &Lines, n: u64, line: &str) -> Result<(), ImportError> {
        #[derive(serde::Deserialize)]
        struct Result_ {
            code: u16,
            timestamp: String,
            latency: u64,
            bytes_in: u64,
            #[serde(default)]
            url: String,
            #[serde(default)]
            attack: String,
            seq: Option<u64>,
        }
        let r: Result_ =
            serde_json::from_str(line).map_err(|e| lines.bad(n, e.column() as u64, format!("not a vegeta JSON result: {e}")))?;
        let column_of = |key: &str| line.find(&format!("\"{key}\"")).map_or(1, |c| c as u64 + 1);
        let sent = rfc3339_unix_ns(&r.timestamp)
            .ok_or_else(|| lines.bad(n, column_of("timestamp"), format!("timestamp {:?} is not RFC 3339", r.timestamp)))?;
        if let Some(why) = implausible_unix_ns(sent) {
            return Err(lines.bad(n, column_of("timestamp"), format!("timestamp {:?}: {why}", r.timestamp)));
        }
        let code = code_of(&r.code.to_string())
            .ok_or_else(|| lines.bad(n, column_of("code"), format!("code {} is not an HTTP status", r.code)))?;
        let latency = parse_shifted(&r.latency.to_string(), -6).expect("digits");
        let latency = super::response_time(latency, |why| lines.bad(n, column_of("latency"), format!("latency {} ns: {why}", r.latency)))?;
        self.attack.result(&self.file, n, &r.attack, r.seq)?;
        self.earliest(sent, n);
        let row = result(sent, code, latency, r.bytes_in);
        let row = match r.url.is_empty() {
            true => row,
            false => row.labelled(self.labels.intern_checked(&r.url, |why| lines.bad(n, column_of("url"), format!("url: {why}")))?),
        };
        self.rows.push(row);
        Ok(())
    }
}

impl super::stream::Blocks for Blocks {
    fn block(&mut self, text: &str, first_line: u64) -> Result<(), ImportError> {
        let file = self.file.clone();
        let lines = Lines::starting_at(&file, text, first_line);
        for &(n, line) in &lines.lines {
            if line.trim().is_empty() {
                continue;
            }
            if self.json {
                self.json_line(&lines, n, line)?;
            } else {
                self.csv_line(&lines, n, line)?;
            }
        }
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<Piece, ImportError> {
        finish(&self.file, self.rows, self.labels, self.first)
    }
}

fn whole(file: &str, text: &str, json: bool) -> Result<Piece, ImportError> {
    let mut blocks = Blocks::new(file, json);
    super::stream::Blocks::block(&mut blocks, text, 1)?;
    super::stream::Blocks::finish(Box::new(blocks))
}

pub fn csv(file: &str, text: &str) -> Result<Piece, ImportError> {
    whole(file, text, false)
}

pub fn json(file: &str, text: &str) -> Result<Piece, ImportError> {
    whole(file, text, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> String {
        std::fs::read_to_string(format!("{}/tests/fixtures/import/vegeta/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
    }

    #[test]
    fn nanoseconds_become_exact_milliseconds() {
        let line = "1796049880000000000,200,1234567,0,20200,,,,0,GET,http://127.0.0.1:18089/page.html,\n";
        let row = csv("v.csv", line).unwrap().rows.unwrap()[0];
        assert_eq!(row.latency_ms(), Some(1.234567));
        assert_eq!(row.sent_ns(), Some(1_796_049_880_000_000_000));
        assert_eq!(row.body_bytes(), Some(20200));
    }

    #[test]
    fn csv_and_json_fixtures_hold_the_same_results() {
        let a = csv("v.csv", &fixture("vegeta.csv")).unwrap().rows.unwrap();
        let b = json("v.json", &fixture("vegeta.json")).unwrap().rows.unwrap();
        assert_eq!(a, b);
        assert!(a.iter().any(|r| r.status == 0 && r.latency_ms().is_none()), "a request without a response");
    }

    #[test]
    fn a_timestamp_far_from_any_run_is_refused() {
        for stamp in ["0", "99999999999999999999"] {
            let error = csv("v.csv", &format!("{stamp},200,1234567,0,20200,,,,0,GET,http://x/,\n")).unwrap_err();
            assert_eq!(error.place, Some((1, 1)), "{stamp}: {error}");
        }
    }

    #[test]
    fn two_attacks_in_one_file_are_refused_where_the_second_begins() {
        for (name, json) in [("vegeta.csv", false), ("vegeta.json", true)] {
            let one = fixture(name);
            let error = whole("both", &format!("{one}{one}"), json).unwrap_err();
            let second = one.lines().count() as u64 + 1;
            assert_eq!(error.place, Some((second, 1)), "{name}: {error}");
            assert!(error.message.contains("a second run begins here (seq 0 again"), "{error}");
        }
        let other =
            "1796049880000000000,200,1234567,0,20200,,,a,0,GET,http://x/,\n1796049880000000001,200,1234567,0,20200,,,b,1,GET,http://x/,\n";
        let error = csv("v.csv", other).unwrap_err();
        assert_eq!(error.place, Some((2, 1)));
        assert!(error.message.contains(r#"the attack "b", where line 1 is of the attack "a""#), "{error}");
    }

    #[test]
    fn a_latency_with_a_unit_is_refused_at_its_column() {
        let error = csv("v.csv", "1796049880000000000,200,1.2ms,0,20200,\n").unwrap_err();
        assert_eq!(error.place, Some((1, 25)));
    }
}
