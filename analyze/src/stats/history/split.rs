//! The strongest split of one series: where two sides of it differ most, scored by the pooled t
//! of its two sides. The segmentation tests it ([`super::segment`]) and the simulated null
//! draws it ([`super::null`]); neither is needed to compute it.

/// The fewest measurements on each side of a change.
pub const MIN_SEGMENT: usize = 2;

/// The place and score of the strongest split of `values`, by prefix sums.
pub(super) fn best_of(values: &[f64]) -> Option<(usize, f64)> {
    let n = values.len();
    if n < 2 * MIN_SEGMENT {
        return None;
    }
    let (total, total_sq) = values.iter().fold((0.0, 0.0), |(s, q), v| (s + v, q + v * v));
    let (mut sum, mut sum_sq) = (0.0, 0.0);
    let mut best: Option<(usize, f64)> = None;
    for k in 1..n {
        sum += values[k - 1];
        sum_sq += values[k - 1] * values[k - 1];
        if k < MIN_SEGMENT || n - k < MIN_SEGMENT {
            continue;
        }
        let score = score(k, sum, sum_sq, n - k, total - sum, total_sq - sum_sq);
        if best.is_none_or(|(_, b)| score > b) {
            best = Some((k, score));
        }
    }
    best
}

/// The pooled t of two groups from their counts, sums and sums of squares.
fn score(n1: usize, s1: f64, q1: f64, n2: usize, s2: f64, q2: f64) -> f64 {
    let (a, b) = (n1 as f64, n2 as f64);
    let (m1, m2) = (s1 / a, s2 / b);
    let squares = (q1 - s1 * m1).max(0.0) + (q2 - s2 * m2).max(0.0);
    let pooled = squares / (a + b - 2.0);
    let difference = (m2 - m1).abs();
    let se = (pooled * (1.0 / a + 1.0 / b)).sqrt();
    // Sums of squares are exact only to their rounding: below it, the segments do not vary.
    let noise = 1e-12 * (q1 + q2).abs().max(1e-300);
    if squares <= noise {
        return if difference > 1e-12 * (m1.abs() + m2.abs()).max(1e-300) { f64::INFINITY } else { 0.0 };
    }
    difference / se
}
