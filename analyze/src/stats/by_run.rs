//! Rows of a side table (large responses, temp-file samples, resource samples) grouped by their
//! run once, in file order. Per-run and per-condition statistics look their rows up here: a scan
//! of every row for each run costs runs × rows, which 10^5 runs make hours.

use crate::dataset::{LargeResponse, ResourceSample, TempfileSample};

/// Rows of one table by run index (the dataset's run order).
pub struct ByRun<'a, T> {
    rows: Vec<Vec<&'a T>>,
}

impl<'a, T> ByRun<'a, T> {
    /// Groups `rows` (absent: no table) into `runs` runs; a row naming no run is left out.
    pub fn of(rows: Option<&'a [T]>, runs: usize, run_of: impl Fn(&T) -> usize) -> Self {
        let mut grouped: Vec<Vec<&'a T>> = (0..runs).map(|_| Vec::new()).collect();
        for row in rows.into_iter().flatten() {
            if let Some(slot) = grouped.get_mut(run_of(row)) {
                slot.push(row);
            }
        }
        ByRun { rows: grouped }
    }

    /// The rows of run `run`, in file order.
    pub fn get(&self, run: usize) -> &[&'a T] {
        self.rows.get(run).map_or(&[], Vec::as_slice)
    }
}

/// The side tables of one dataset, grouped by run.
pub struct SideTables<'a> {
    pub large: ByRun<'a, LargeResponse>,
    pub tempfiles: ByRun<'a, TempfileSample>,
    pub resources: ByRun<'a, ResourceSample>,
}

impl<'a> SideTables<'a> {
    pub fn of(dataset: &'a crate::dataset::Dataset) -> Self {
        let runs = dataset.runs.len();
        SideTables {
            large: ByRun::of(dataset.large_responses.as_deref(), runs, |r| r.run as usize),
            tempfiles: ByRun::of(dataset.tempfiles.as_deref(), runs, |r| r.run as usize),
            resources: ByRun::of(dataset.resources.as_deref(), runs, |r| r.run as usize),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_go_to_their_run_in_file_order_and_strays_are_left_out() {
        let rows = [(1usize, 'a'), (0, 'b'), (1, 'c'), (7, 'd')];
        let by_run = ByRun::of(Some(&rows[..]), 3, |r| r.0);
        let letters = |run| by_run.get(run).iter().map(|r| r.1).collect::<String>();
        assert_eq!((letters(0), letters(1), letters(2), letters(9)), ("b".into(), "ac".into(), String::new(), String::new()));
    }
}
