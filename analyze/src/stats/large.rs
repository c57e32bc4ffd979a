//! Large responses per condition, in the two definitions a reader meets. The report's own: per
//! run the median of its large responses (`RunResult::write_s_median`), then per condition the
//! median of those run medians with their min-max range (`ConditionResult::write_s`), so that
//! each run counts once and the range shows how runs disagree. The study's: the median of every
//! large response of the condition's ok runs pooled (`ConditionResult::write_s_pooled`), which
//! is what its figure drew. They differ when runs disagree or hold different numbers of
//! responses; both are computed here and nowhere else, and the chart draws both.

use crate::dataset::LargeResponse;
use crate::report::Spread;

/// The spread of one value of `responses` (every large response of a condition's ok runs),
/// pooled: its median is the study's definition. `n` counts responses.
pub fn pooled<'a>(responses: impl IntoIterator<Item = &'a LargeResponse>, value: impl Fn(&LargeResponse) -> Option<f64>) -> Option<Spread> {
    let values: Vec<f64> = responses.into_iter().filter_map(value).collect();
    Spread::of(&values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::summary::median;

    fn response(run: u32, write_s: f64, complete_s: Option<f64>) -> LargeResponse {
        LargeResponse {
            run,
            download_id: format!("d{run}-{write_s}"),
            write_start_ms: None,
            write_end_ms: None,
            write_s: Some(write_s),
            client_complete_s: complete_s,
            bytes_received: 0,
        }
    }

    /// Runs 0, 1 and 2 of one condition wrote 1 and 2 s; 3 and 10 s; 4, 5 and 6 s. Their
    /// medians are 1.5, 6.5 and 5 s, whose median is 5 s (the report's bar). Pooled, the seven
    /// writes 1, 2, 3, 4, 5, 6, 10 have the median 4 s (the study's). Run 3 is another
    /// condition's and counts in neither.
    #[test]
    fn pooled_median_of_all_responses_differs_from_the_median_of_run_medians() {
        let rows = [
            response(0, 1.0, Some(8.0)),
            response(0, 2.0, Some(8.125)),
            response(1, 3.0, None),
            response(1, 10.0, Some(8.375)),
            response(2, 4.0, Some(8.0)),
            response(2, 5.0, Some(8.25)),
            response(2, 6.0, Some(8.5)),
            response(3, 100.0, Some(100.0)),
        ];
        let runs = [0, 1, 2];
        let of_runs = || rows.iter().filter(|r| runs.contains(&(r.run as usize)));
        let pooled_write = pooled(of_runs(), |r| r.write_s).unwrap();
        assert_eq!((pooled_write.median, pooled_write.min, pooled_write.max, pooled_write.n), (4.0, 1.0, 10.0, 7));
        let run_medians: Vec<f64> = runs
            .iter()
            .map(|&run| median(&rows.iter().filter(|r| r.run as usize == run).filter_map(|r| r.write_s).collect::<Vec<_>>()).unwrap())
            .collect();
        assert_eq!(run_medians, [1.5, 6.5, 5.0]);
        assert_eq!(median(&run_medians), Some(5.0));
        // A response that never completed has a write time but no completion time: six
        // completions 8, 8, 8.125, 8.25, 8.375, 8.5 have the median (8.125 + 8.25) / 2.
        let pooled_complete = pooled(of_runs(), |r| r.client_complete_s).unwrap();
        assert_eq!((pooled_complete.median, pooled_complete.n), (8.1875, 6));
    }

    #[test]
    fn no_large_responses_give_no_pooled_median() {
        assert_eq!(pooled(&[], |r| r.write_s), None);
    }
}
