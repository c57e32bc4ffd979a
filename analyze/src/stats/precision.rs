//! The precision numbers are published at. Inputs carry at most microseconds (three decimals of
//! a millisecond, six of a second), but a difference of two such values (`sent_ms -
//! scheduled_ms`) or the mean of two middle values picks up binary rounding noise in the last
//! bits (`0.9279999999998836`). Values derived that way are rounded here to a nanosecond, far
//! below anything measured and far above the noise, so exports print `0.928`.

/// Beyond this magnitude the scaled value would lose its integer precision; such values carry
/// no noise below a nanosecond anyway and are returned unchanged.
const LIMIT: f64 = 1e9;

/// Milliseconds rounded to a nanosecond (6 decimals).
pub fn ms(value: f64) -> f64 {
    round_to(value, 1e6)
}

/// Seconds rounded to a nanosecond (9 decimals).
pub fn seconds(value: f64) -> f64 {
    round_to(value, 1e9)
}

/// Requests per second rounded to a millionth: responses over a span of microsecond times is a
/// quotient whose last digits (`5545.4827444741295`) say nothing the times did.
pub fn rate(value: f64) -> f64 {
    round_to(value, 1e6)
}

/// A fraction (a share of sessions, say) rounded to 10^-9: the median of two shares is a mean.
pub fn fraction(value: f64) -> f64 {
    round_to(value, 1e9)
}

/// A percentage rounded to 10^-6 (a share of 10^-8): a share scaled by 100 picks up binary noise.
pub fn percent(value: f64) -> f64 {
    round_to(value, 1e6)
}

/// No number is printed with more decimals than this (a nanosecond of a millisecond).
pub const MAX_DECIMALS: u8 = 6;

/// The decimals of the shortest text that reads back as `value`, at most [`MAX_DECIMALS`]: the
/// digits a tool printed, from the value the importer kept.
pub fn decimals_of(value: f64) -> u8 {
    (0..MAX_DECIMALS).find(|&d| format!("{:.*}", usize::from(d), value).parse::<f64>() == Ok(value)).unwrap_or(MAX_DECIMALS)
}

fn round_to(value: f64, scale: f64) -> f64 {
    if !value.is_finite() || value.abs() >= LIMIT {
        return value;
    }
    (value * scale).round() / scale
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_difference_of_microsecond_times_prints_as_measured() {
        let lag = 9000.928_f64 - 9000.0;
        assert_ne!(lag.to_string(), "0.928", "the raw difference carries noise");
        assert_eq!(ms(lag).to_string(), "0.928");
        assert_eq!(ms(250.121 - 250.0).to_string(), "0.121");
    }

    #[test]
    fn the_mean_of_two_middle_values_prints_as_measured() {
        assert_eq!(seconds(6.581029 / 2.0 + 6.582736 / 2.0).to_string(), "6.5818825");
        assert_eq!(ms(0.5005 + 0.501).to_string(), "1.0015");
    }

    #[test]
    fn a_rate_keeps_six_decimals() {
        assert_eq!(rate(5545.4827444741295).to_string(), "5545.482744");
        assert_eq!(rate(10_000.0 / 13.002).to_string(), "769.112444");
    }

    #[test]
    fn huge_and_non_finite_values_pass_unchanged() {
        assert_eq!(ms(1e300), 1e300);
        assert!(ms(f64::NAN).is_nan());
    }
}
