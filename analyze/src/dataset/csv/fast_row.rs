//! The hot path of requests.csv: one pass over a plain line that splits and parses its fields
//! together. Anything unusual (a quote, a sign, an exponent, a blank where a number belongs, an
//! unknown run, a wrong field count) returns `None` and the line goes through the general
//! tokenizer and validator, which names the problem. So this path never decides an error; it only
//! accepts lines the general path would accept, with the same values (decimals of at most 15
//! digits are exact as mantissa / 10^k, the same computation as `number::parse_f64`), and it
//! applies the contract's rules through [`plausible`], so a value it accepts the contract accepts.

use crate::dataset::number::POWERS_OF_TEN;
use crate::dataset::requests::{plausible, RequestRow, RunIndex, COLUMNS};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    RunId,
    Seq,
    Scheduled,
    Sent,
    Latency,
    Status,
    Body,
    Other,
}

/// The kind of every column of one file, in file order.
pub struct FastLayout {
    kinds: Vec<Kind>,
}

impl FastLayout {
    /// Whether a line this path accepts is known to be UTF-8: true unless the file has columns
    /// it skips without reading (everything it reads is ASCII or a known run id).
    pub fn proves_utf8(&self) -> bool {
        !self.kinds.contains(&Kind::Other)
    }

    /// `slots[i]` is the file column of `COLUMNS[i]`.
    pub fn new(slots: &[usize; 7], columns: usize) -> Self {
        let order = [Kind::RunId, Kind::Seq, Kind::Scheduled, Kind::Sent, Kind::Latency, Kind::Status, Kind::Body];
        debug_assert_eq!(order.len(), COLUMNS.len());
        let mut kinds = vec![Kind::Other; columns];
        for (slot, kind) in slots.iter().zip(order) {
            kinds[*slot] = kind;
        }
        FastLayout { kinds }
    }

    /// Parses the plain line at the start of `rest`: the row and the bytes consumed (newline
    /// included), or `None` for the general path.
    #[inline]
    pub fn parse_line(&self, rest: &[u8], runs: &RunIndex, last_run: &mut (Vec<u8>, u32)) -> Option<(RequestRow, usize)> {
        let mut i = 0usize;
        let mut row = RequestRow { run: 0, seq: 0, scheduled_ms: 0.0, sent_ms: 0.0, latency_ms: None, status: 0 };
        let mut status = 0i64;
        let mut body_bytes = None;
        let count = self.kinds.len();
        for (index, kind) in self.kinds.iter().enumerate() {
            match kind {
                Kind::RunId => {
                    // Rows come grouped by run: most lines start with the previous line's id.
                    let known = &last_run.0;
                    let tail = &rest[i..];
                    if !known.is_empty()
                        && tail.len() > known.len()
                        && matches!(tail[known.len()], b',' | b'\n' | b'\r')
                        && known.iter().zip(tail).all(|(a, b)| a == b)
                    {
                        i += known.len();
                        row.run = last_run.1;
                        continue_after_field(&mut i, index, count, rest)?;
                        continue;
                    }
                    let start = i;
                    i = skip_field(rest, i)?;
                    let id = &rest[start..i];
                    row.run = {
                        let run = runs.get(id)?;
                        last_run.0.clear();
                        last_run.0.extend_from_slice(id);
                        last_run.1 = run;
                        run
                    };
                }
                Kind::Seq => row.seq = integer(rest, &mut i)? as i64,
                Kind::Scheduled => row.scheduled_ms = decimal(rest, &mut i)?,
                Kind::Sent => row.sent_ms = decimal(rest, &mut i)?,
                Kind::Latency => {
                    if !at_separator(rest, i) {
                        row.latency_ms = Some(decimal(rest, &mut i)?);
                    }
                }
                Kind::Status => status = integer(rest, &mut i)? as i64,
                Kind::Body => {
                    if !at_separator(rest, i) {
                        body_bytes = Some(integer(rest, &mut i)? as i64);
                    }
                }
                Kind::Other => i = skip_field(rest, i)?,
            }
            continue_after_field(&mut i, index, count, rest)?;
        }
        if !plausible(row.latency_ms, status, row.scheduled_ms, row.sent_ms, body_bytes) {
            return None;
        }
        row.status = status as u16;
        Some((row, i))
    }
}

/// Steps over the separator after field `index` of `count`: a comma, or the line's end.
#[inline]
fn continue_after_field(i: &mut usize, index: usize, count: usize, rest: &[u8]) -> Option<()> {
    if index + 1 < count {
        if rest.get(*i) != Some(&b',') {
            return None;
        }
        *i += 1;
    } else {
        match rest.get(*i) {
            None => {}
            Some(b'\n') => *i += 1,
            Some(b'\r') if rest.get(*i + 1) == Some(&b'\n') => *i += 2,
            Some(_) => return None,
        }
    }
    Some(())
}

#[inline]
fn at_separator(rest: &[u8], i: usize) -> bool {
    matches!(rest.get(i), None | Some(b',' | b'\n' | b'\r'))
}

/// Skips an unquoted field; `None` if it holds a quote.
#[inline]
fn skip_field(rest: &[u8], mut i: usize) -> Option<usize> {
    while let Some(&byte) = rest.get(i) {
        match byte {
            b',' | b'\n' | b'\r' => break,
            b'"' => return None,
            _ => i += 1,
        }
    }
    Some(i)
}

/// Digits only, at most 18.
#[inline(always)]
fn integer(rest: &[u8], i: &mut usize) -> Option<u64> {
    if let Some((value, count)) = word(rest, *i).and_then(leading_digits) {
        if count > 0 {
            *i += count;
            return Some(value);
        }
        return None;
    }
    let start = *i;
    let value = digits(rest, i, 0);
    let count = *i - start;
    (count > 0 && count <= 18).then_some(value)
}

/// Accumulates the digits at `*i` onto `value` (wrapping: callers bound the digit count).
#[inline(always)]
fn digits(rest: &[u8], i: &mut usize, mut value: u64) -> u64 {
    while let Some(&byte) = rest.get(*i) {
        let digit = byte.wrapping_sub(b'0');
        if digit > 9 {
            break;
        }
        value = value.wrapping_mul(10).wrapping_add(u64::from(digit));
        *i += 1;
    }
    value
}

/// `digits[.digits]` with at most 15 digits in all: exact as mantissa / 10^k.
#[inline(always)]
fn decimal(rest: &[u8], i: &mut usize) -> Option<f64> {
    if let Some((whole_value, whole)) = word(rest, *i).and_then(leading_digits) {
        let after = *i + whole;
        let (mantissa, fraction, end) = if rest.get(after) == Some(&b'.') {
            match word(rest, after + 1).and_then(leading_digits) {
                Some((fraction_value, fraction)) => {
                    (whole_value * POWERS_OF_TEN_U64[fraction] + fraction_value, fraction, after + 1 + fraction)
                }
                None => return decimal_bytewise(rest, i),
            }
        } else {
            (whole_value, 0, after)
        };
        if whole + fraction == 0 || whole + fraction > 15 {
            return None;
        }
        *i = end;
        return Some(mantissa as i64 as f64 / POWERS_OF_TEN[fraction]);
    }
    decimal_bytewise(rest, i)
}

/// [`decimal`] a byte at a time, for the last bytes of a block and for long numbers.
#[inline(never)]
fn decimal_bytewise(rest: &[u8], i: &mut usize) -> Option<f64> {
    let start = *i;
    let mut mantissa = digits(rest, i, 0);
    let whole = *i - start;
    let mut fraction = 0;
    if rest.get(*i) == Some(&b'.') {
        *i += 1;
        let point = *i;
        mantissa = digits(rest, i, mantissa);
        fraction = *i - point;
    }
    if whole + fraction == 0 || whole + fraction > 15 {
        return None;
    }
    // Below 10^15 the mantissa fits an i64, whose conversion is one instruction.
    Some(mantissa as i64 as f64 / POWERS_OF_TEN[fraction])
}

const POWERS_OF_TEN_U64: [u64; 8] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000];

/// The eight bytes at `at` as a little-endian word (first byte lowest), when there are eight.
#[inline(always)]
fn word(rest: &[u8], at: usize) -> Option<u64> {
    rest.get(at..at + 8).map(|bytes| u64::from_le_bytes(bytes.try_into().expect("8 bytes")))
}

/// The value and count of the digits a word starts with, when a non-digit follows within it
/// (`None` for eight digits or more: the bytewise path takes those). The digits are converted
/// together, without the digit-after-digit dependency of `value * 10 + digit`.
#[inline(always)]
fn leading_digits(word: u64) -> Option<(u64, usize)> {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let offsets = word ^ 0x3030_3030_3030_3030; // a digit byte becomes 0..=9
                                                // High bit set in every byte that is not 0..=9 (no carries between bytes: 0x7f + 0x76 < 0x100).
    let not_digit = (((offsets & LOW7) + 0x7676_7676_7676_7676) | offsets) & HIGH;
    if not_digit == 0 {
        return None;
    }
    let count = (not_digit.trailing_zeros() / 8) as usize;
    if count == 0 {
        return Some((0, 0));
    }
    // Keep the `count` digit bytes, moved to the top: the bytes below become leading zeros.
    let mut value = offsets << (8 * (8 - count));
    value = value.wrapping_mul(10).wrapping_add(value >> 8) & 0x00ff_00ff_00ff_00ff;
    value = value.wrapping_mul(100).wrapping_add(value >> 16) & 0x0000_ffff_0000_ffff;
    value = value.wrapping_mul(10_000).wrapping_add(value >> 32) & 0x0000_0000_ffff_ffff;
    Some((value, count))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::number::parse_f64;
    use proptest::prelude::*;

    fn layout() -> FastLayout {
        FastLayout::new(&[0, 1, 2, 3, 4, 5, 6], 7)
    }

    fn parse(line: &str) -> Option<(RequestRow, usize)> {
        layout().parse_line(line.as_bytes(), &RunIndex::new(["a"]), &mut (Vec::new(), u32::MAX))
    }

    #[test]
    fn parses_a_plain_line() {
        let (row, used) = parse("a,3,375.000,375.250,1.570,200,12\nnext").unwrap();
        assert_eq!((row.seq, row.scheduled_ms, row.sent_ms, row.latency_ms, row.status), (3, 375.0, 375.25, Some(1.57), 200));
        assert_eq!(used, 33);
    }

    #[test]
    fn no_response_and_crlf() {
        let (row, used) = parse("a,3,375,375,,0,\r\n").unwrap();
        assert_eq!((row.latency_ms, row.status, used), (None, 0, 17));
    }

    #[test]
    fn leaves_everything_unusual_to_the_general_path() {
        for line in [
            "b,3,375,375,1,200,12\n",
            "a,3,375,375,-1,200,12\n",
            "a,3,375,375,1e3,200,12\n",
            "a,3,375,375,,200,12\n",
            "\"a\",3,375,375,1,200,12\n",
            "a,3,375,375,1,200\n",
            "a,3,375,375,1,200,12,extra\n",
            "a, 3,375,375,1,200,12\n",
            "a,3,375,375,1,1000,12\n",
            "a,3,375,375,1,42,12\n",
            "a,3,375,375,1000000001,200,12\n",
            "a,3,375,375,1.2345678901234567,200,12\n",
            "\n",
        ] {
            assert!(parse(line).is_none(), "{line:?}");
        }
    }

    #[test]
    fn leading_digits_of_a_word() {
        let of = |text: &[u8; 8]| leading_digits(u64::from_le_bytes(*text));
        assert_eq!(of(b"227.354,"), Some((227, 3)));
        assert_eq!(of(b"1234567,"), Some((1_234_567, 7)));
        assert_eq!(of(b"0000009\n"), Some((9, 7)));
        assert_eq!(of(b",1234567"), Some((0, 0)));
        assert_eq!(of(b"12345678"), None, "eight digits: the bytewise path");
        assert_eq!(of(b"9\xff999999"), Some((9, 1)), "a non-ASCII byte ends the digits");
        assert_eq!(of(b"9/:99999"), Some((9, 1)), "the bytes either side of the digits are not digits");
    }

    proptest! {
        #[test]
        fn leading_digits_equal_a_plain_loop(bytes in proptest::array::uniform8(proptest::sample::select(b"0123456789.,/:\n\x80\xb0a".to_vec()))) {
            let count = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
            let expected = (count < 8).then(|| (bytes[..count].iter().fold(0u64, |v, b| v * 10 + u64::from(b - b'0')), count));
            prop_assert_eq!(leading_digits(u64::from_le_bytes(bytes)), expected);
        }

        #[test]
        fn decimals_in_a_line_equal_the_general_parser(text in "[0-9]{0,9}(\\.[0-9]{0,9})?", tail in "[,\n]") {
            let line = format!("{text}{tail}padding");
            let mut fast_end = 0;
            let fast = decimal(line.as_bytes(), &mut fast_end);
            let mut slow_end = 0;
            let slow = decimal_bytewise(line.as_bytes(), &mut slow_end);
            prop_assert_eq!(fast, slow);
            if fast.is_some() {
                prop_assert_eq!(fast_end, slow_end);
                prop_assert_eq!(fast, parse_f64(text.as_bytes()));
            }
            let mut fast_end = 0;
            let mut slow_end = 0;
            let digits_only = format!("{}{tail}padding", text.split('.').next().unwrap_or(""));
            let fast = integer(digits_only.as_bytes(), &mut fast_end);
            let slow = { let v = digits(digits_only.as_bytes(), &mut slow_end, 0); (slow_end > 0 && slow_end <= 18).then_some(v) };
            prop_assert_eq!(fast, slow);
        }

        #[test]
        fn decimals_equal_the_general_parser(whole in 0u64..10_000_000, fraction in 0u64..1000, digits in 0usize..4) {
            let text = if digits == 0 { whole.to_string() } else { format!("{whole}.{:0width$}", fraction % 10u64.pow(digits as u32), width = digits) };
            let mut i = 0;
            prop_assert_eq!(decimal(text.as_bytes(), &mut i), parse_f64(text.as_bytes()));
            prop_assert_eq!(i, text.len());
        }
    }
}
