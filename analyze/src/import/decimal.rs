//! A double as the text `Display` (`{}`) writes, fast for the short decimals the tools record.
//!
//! requests.csv holds three times per request; at ten million requests, `Display`'s shortest
//! round-trip search (Grisu with a Dragon fallback) was the largest cost of `analyze import`.
//! The values import writes are decimals of a few digits (hey's 0.1 ms, a nanosecond at most),
//! so [`push`] first looks for an integer `n < 10^15` with `n / 10^d == v` for d = 0..=9: that
//! decimal has at most 15 significant digits, and no two distinct decimals of at most 15
//! significant digits round to the same double (DBL_DIG), so it is the one shortest decimal
//! `Display` prints. Anything else (zero, huge, tiny, long) is written by `Display` itself.
//! A property test pins the two to the same bytes.

use crate::dataset::number::POWERS_OF_TEN;

/// Appends `value` as `format!("{value}")` would.
pub fn push(out: &mut Vec<u8>, value: f64) {
    let magnitude = value.abs();
    if value != 0.0 && magnitude < 1e15 {
        for (decimals, &power) in POWERS_OF_TEN[..10].iter().enumerate() {
            let scaled = magnitude * power;
            if scaled >= 1e15 {
                break;
            }
            // The nearest integer (a guess: a wrong one only fails the test below). Both
            // operands of the division are exact doubles and it rounds correctly, so equality
            // means the decimal n / 10^decimals is read back as exactly `value`.
            let n = (scaled + 0.5) as u64;
            if n as f64 / power == magnitude {
                if value < 0.0 {
                    out.push(b'-');
                }
                push_scaled(out, n, decimals);
                return;
            }
        }
    }
    use std::io::Write as _;
    let _ = write!(out, "{value}");
}

/// Appends `n / 10^decimals` in plain notation, without trailing zeros after the point.
fn push_scaled(out: &mut Vec<u8>, mut n: u64, mut decimals: usize) {
    while decimals > 0 && n % 10 == 0 {
        n /= 10;
        decimals -= 1;
    }
    let mut digits = [0u8; 20];
    let mut len = 0;
    while n > 0 || len <= decimals {
        digits[len] = b'0' + (n % 10) as u8;
        n /= 10;
        len += 1;
    }
    for i in (0..len).rev() {
        out.push(digits[i]);
        if i == decimals && decimals > 0 {
            out.push(b'.');
        }
    }
}

/// Appends a whole number as `Display` writes it.
pub fn push_int(out: &mut Vec<u8>, value: i64) {
    if value < 0 {
        out.push(b'-');
    }
    push_scaled(out, value.unsigned_abs(), 0);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn text(value: f64) -> String {
        let mut out = Vec::new();
        push(&mut out, value);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn writes_what_display_writes() {
        for value in
            [0.0, -0.0, 0.6, 3.8, 12000.0, 0.0000001, 1234.5678, -0.5, 1e15, 1e-10, 0.1 + 0.2, 363427.55, f64::NAN, f64::INFINITY, 5e-324]
        {
            assert_eq!(text(value), value.to_string(), "{value:?}");
        }
        let mut out = Vec::new();
        for value in [0, 7, -12, 1_000_000, i64::MIN] {
            out.clear();
            push_int(&mut out, value);
            assert_eq!(String::from_utf8(out.clone()).unwrap(), value.to_string());
        }
    }

    proptest! {
        #[test]
        fn short_decimals_are_written_as_display_writes_them(n in 0u64..10_000_000_000_000_000, decimals in 0usize..=12, negative: bool) {
            let value = n as f64 / 10f64.powi(decimals as i32);
            let value = if negative { -value } else { value };
            prop_assert_eq!(text(value), value.to_string());
        }

        #[test]
        fn any_double_is_written_as_display_writes_it(bits: u64) {
            let value = f64::from_bits(bits);
            prop_assert_eq!(text(value), value.to_string());
        }

        #[test]
        fn nanosecond_offsets_are_written_as_display_writes_them(sent in 0.0..1e9f64, origin in 0.0..1e3f64) {
            let value = ((sent - origin) * 1e6).round() / 1e6;
            prop_assert_eq!(text(value), value.to_string());
        }
    }
}
