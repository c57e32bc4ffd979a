//! The columns of send time a latency-over-time chart of a large run is drawn in
//! (`stats::bands` computes them; a level-1 table carries them by index): how many there are and
//! which send times each covers. Here, at the bottom, so ingest checks a level-1 column's index by
//! the same rule the statistics cut rows by.

/// Columns of send time of a run drawn in columns: about six pixels of the chart each.
pub const COLUMNS: usize = 100;
/// Fewer distinct send times than this show no course over time (siege's rows have none: every
/// response is at 0 s), so the chart says so instead of drawing a bare frame.
pub const MIN_SEND_TIMES: usize = 3;

/// The column, of [`COLUMNS`], of a send time: columns are equal slices of 0..=`last_sent_s`
/// (the last holds its end), computed as `floor(t / last * COLUMNS)` in that order, which the
/// Spark job repeats. A run whose sends all share one instant has one column.
#[inline]
pub fn column_of(t_s: f64, last_sent_s: f64) -> usize {
    if last_sent_s > 0.0 {
        ((t_s / last_sent_s) * COLUMNS as f64).floor().clamp(0.0, (COLUMNS - 1) as f64) as usize
    } else {
        0
    }
}

/// The send times column `column` covers, [from, to) (the last column including its end): the
/// extent its band is drawn over. In floating point a send time at exactly a column's start may
/// fall into the column before ([`column_of`] divides, this multiplies); a chart cannot show the
/// difference.
pub fn column_span(column: usize, last_sent_s: f64) -> (f64, f64) {
    if last_sent_s > 0.0 {
        let width = last_sent_s / COLUMNS as f64;
        (column as f64 * width, if column + 1 == COLUMNS { last_sent_s } else { (column + 1) as f64 * width })
    } else {
        (0.0, 0.0)
    }
}
