//! Exact number parsing from CSV bytes.
//!
//! Decimal fields such as `1234.567` are the hot path of a 10^8-row ingest. A decimal with at
//! most 15 significant digits and at most 22 fraction digits is parsed as an integer mantissa
//! divided by an exact power of ten: both operands are exact doubles and IEEE division rounds
//! correctly, so the result equals `str::parse::<f64>` (Clinger's fast path). Anything else
//! (exponents, long mantissas, `inf`) falls back to the standard library.

pub(crate) const POWERS_OF_TEN: [f64; 23] =
    [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

/// Parses a decimal number, surrounding spaces allowed. `None` when it is not a number.
/// The result may be NaN or infinite when the text says so (`NaN`, `inf`): callers decide.
#[inline]
pub fn parse_f64(field: &[u8]) -> Option<f64> {
    let field = trim(field);
    let (negative, digits) = match field.first() {
        Some(b'-') => (true, &field[1..]),
        Some(b'+') => (false, &field[1..]),
        _ => (false, field),
    };
    let mut mantissa: u64 = 0;
    let mut significant = 0u32;
    let mut fraction_digits = 0usize;
    let mut seen_point = false;
    let mut seen_digit = false;
    for &byte in digits {
        match byte {
            b'0'..=b'9' => {
                seen_digit = true;
                if mantissa != 0 || byte != b'0' {
                    significant += 1;
                }
                mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(byte - b'0'));
                if seen_point {
                    fraction_digits += 1;
                }
            }
            b'.' if !seen_point => seen_point = true,
            _ => return slow_parse(field),
        }
    }
    if !seen_digit {
        return slow_parse(field);
    }
    if significant > 15 || fraction_digits >= POWERS_OF_TEN.len() {
        return slow_parse(field);
    }
    let value = mantissa as f64 / POWERS_OF_TEN[fraction_digits];
    Some(if negative { -value } else { value })
}

#[cold]
fn slow_parse(field: &[u8]) -> Option<f64> {
    std::str::from_utf8(field).ok()?.parse::<f64>().ok()
}

/// Parses a whole number (optionally signed), surrounding spaces allowed.
#[inline]
pub fn parse_i64(field: &[u8]) -> Option<i64> {
    let field = trim(field);
    let (negative, digits) = match field.first() {
        Some(b'-') => (true, &field[1..]),
        Some(b'+') => (false, &field[1..]),
        _ => (false, field),
    };
    if digits.is_empty() || digits.len() > 18 {
        return None;
    }
    let mut value: i64 = 0;
    for &byte in digits {
        if !byte.is_ascii_digit() {
            return None;
        }
        value = value * 10 + i64::from(byte - b'0');
    }
    Some(if negative { -value } else { value })
}

/// True when the field is empty or only spaces.
#[inline]
pub fn is_blank(field: &[u8]) -> bool {
    trim(field).is_empty()
}

#[inline]
fn trim(field: &[u8]) -> &[u8] {
    let mut field = field;
    while let [b' ' | b'\t', rest @ ..] = field {
        field = rest;
    }
    while let [rest @ .., b' ' | b'\t'] = field {
        field = rest;
    }
    field
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn parses_typical_latencies() {
        assert_eq!(parse_f64(b"1.570"), Some(1.57));
        assert_eq!(parse_f64(b"5945.110"), Some(5945.11));
        assert_eq!(parse_f64(b" 12 "), Some(12.0));
        assert_eq!(parse_f64(b"-0.5"), Some(-0.5));
        assert_eq!(parse_f64(b".5"), Some(0.5));
        assert_eq!(parse_f64(b"1e3"), Some(1000.0));
    }

    #[test]
    fn rejects_text() {
        assert_eq!(parse_f64(b"abc"), None);
        assert_eq!(parse_f64(b""), None);
        assert_eq!(parse_f64(b"."), None);
        assert_eq!(parse_f64(b"1.2.3"), None);
        assert_eq!(parse_i64(b"1.0"), None);
        assert_eq!(parse_i64(b"x"), None);
    }

    #[test]
    fn nan_and_infinity_parse_so_callers_can_name_them() {
        assert!(parse_f64(b"NaN").unwrap().is_nan());
        assert!(parse_f64(b"inf").unwrap().is_infinite());
    }

    #[test]
    fn parses_integers() {
        assert_eq!(parse_i64(b"0"), Some(0));
        assert_eq!(parse_i64(b"200"), Some(200));
        assert_eq!(parse_i64(b"-3"), Some(-3));
    }

    proptest! {
        #[test]
        fn fast_path_equals_the_standard_library(int in 0u64..10_000_000_000, frac in 0u64..1_000_000, digits in 0usize..7) {
            let text = if digits == 0 { format!("{int}") } else { format!("{int}.{frac:0width$}", width = digits) };
            let text = if digits > 0 && text.len() > int.to_string().len() + 1 + digits { format!("{int}.{}", &format!("{frac:0width$}", width = digits)[..digits]) } else { text };
            prop_assert_eq!(parse_f64(text.as_bytes()), text.parse::<f64>().ok());
        }

        #[test]
        fn any_display_of_a_double_round_trips(value in proptest::num::f64::NORMAL | proptest::num::f64::ZERO) {
            let text = value.to_string();
            prop_assert_eq!(parse_f64(text.as_bytes()), Some(value));
        }
    }
}
