//! RFC 3339 timestamps read as real instants: a date that does not exist (`2026-02-30`), a time
//! past 23:59:59 or an offset past 23:59 is refused, and every instant has one UTC date.
//!
//! Hand-written rather than a date crate because the grammar is this one line of the RFC and
//! the calendar is the proleptic Gregorian one (Howard Hinnant's `days_from_civil`); nothing
//! else about time is needed. Leap seconds (`:60`) are refused: no tool of ours writes them.

/// Seconds since 1970-01-01T00:00:00Z, with the fraction in nanoseconds: orders instants across
/// offsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Instant {
    pub unix_seconds: i64,
    pub nanos: u32,
}

impl Instant {
    /// The instant in UTC to the second, `YYYY-MM-DDTHH:MM:SSZ` (the form runs.csv uses).
    pub fn utc_rfc3339_seconds(self) -> String {
        let of_day = self.unix_seconds.rem_euclid(86_400);
        format!("{}T{:02}:{:02}:{:02}Z", self.utc_date(), of_day / 3600, of_day % 3600 / 60, of_day % 60)
    }

    /// The UTC calendar date, `YYYY-MM-DD`.
    pub fn utc_date(self) -> String {
        let (y, m, d) = civil_from_days(self.unix_seconds.div_euclid(86_400));
        format!("{y:04}-{m:02}-{d:02}")
    }
}

/// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)`, with `t` or a space accepted for `T` and
/// `z` for `Z`; `None` unless it names a real instant.
pub fn parse_rfc3339(text: &str) -> Option<Instant> {
    let b = text.as_bytes();
    let number = |range: std::ops::Range<usize>| -> Option<i64> {
        let digits = b.get(range)?;
        digits.iter().all(u8::is_ascii_digit).then(|| digits.iter().fold(0, |n, d| n * 10 + i64::from(d - b'0')))
    };
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') || b[13] != b':' || b[16] != b':' {
        return None;
    }
    let (year, month, day) = (number(0..4)?, number(5..7)?, number(8..10)?);
    let (hour, minute, second) = (number(11..13)?, number(14..16)?, number(17..19)?);
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) || hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let mut i = 19;
    let mut nanos: u32 = 0;
    if b[i] == b'.' {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            if i - start < 9 {
                nanos = nanos * 10 + u32::from(b[i] - b'0');
            }
            i += 1;
        }
        if i == start {
            return None;
        }
        nanos *= 10u32.pow(9usize.saturating_sub(i - start) as u32);
    }
    let offset_seconds = match &b[i..] {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), _, _, b':', _, _] => {
            let (h, m) = (number(i + 1..i + 3)?, number(i + 4..i + 6)?);
            if h > 23 || m > 59 {
                return None;
            }
            let magnitude = h * 3600 + m * 60;
            if *sign == b'+' {
                magnitude
            } else {
                -magnitude
            }
        }
        _ => return None,
    };
    let local = days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second;
    Some(Instant { unix_seconds: local - offset_seconds, nanos })
}

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day count since 1970-01-01.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn reads_offsets_and_fractions_as_one_instant() {
        let utc = parse_rfc3339("2026-11-30T04:05:06Z").unwrap();
        assert_eq!(utc.unix_seconds, 1_796_011_506);
        assert_eq!(parse_rfc3339("2026-11-30T13:05:06+09:00"), Some(utc));
        assert_eq!(parse_rfc3339("2026-11-29 23:05:06-05:00"), Some(utc));
        assert_eq!(parse_rfc3339("2026-11-30T04:05:06.25z").unwrap().nanos, 250_000_000);
    }

    #[test]
    fn refuses_times_that_do_not_exist() {
        for text in [
            "2026-02-30T00:00:00Z",
            "2026-02-29T00:00:00Z",
            "2026-04-31T00:00:00Z",
            "2026-13-01T00:00:00Z",
            "2026-11-30T99:99:99Z",
            "2026-11-30T24:00:00Z",
            "2026-11-30T23:59:60Z",
            "2026-11-30T04:05:06+99:99",
            "2026-11-30T04:05:06+24:00",
            "2026-11-30T04:05:06.Z",
            "2026-11-30",
            "2026-11-30T04:05:06",
            "２０２６-11-30T04:05:06Z",
        ] {
            assert_eq!(parse_rfc3339(text), None, "{text}");
        }
        assert!(parse_rfc3339("2024-02-29T00:00:00Z").is_some(), "a leap day");
        assert!(parse_rfc3339("2000-02-29T00:00:00Z").is_some(), "a 400-year leap day");
        assert!(parse_rfc3339("1900-02-29T00:00:00Z").is_none(), "1900 was not a leap year");
    }

    #[test]
    fn the_date_is_taken_in_utc() {
        assert_eq!(parse_rfc3339("2026-12-01T08:00:00+09:00").unwrap().utc_date(), "2026-11-30");
        assert_eq!(parse_rfc3339("2026-11-30T20:00:00-05:00").unwrap().utc_date(), "2026-12-01");
        assert_eq!(parse_rfc3339("1969-12-31T23:59:59Z").unwrap().utc_date(), "1969-12-31");
    }

    proptest! {
        #[test]
        fn days_round_trip(days in -800_000i64..800_000) {
            let (y, m, d) = civil_from_days(days);
            prop_assert!((1..=12).contains(&m) && d >= 1 && d <= days_in_month(y, m));
            prop_assert_eq!(days_from_civil(y, m, d), days);
        }
    }
}
