//! The table of CPU and memory per condition (resources.csv): per process group, the median and
//! min-max range over a condition's ok runs of each run's average CPU and peak RSS.

use super::*;
use crate::render::i18n::lead::lead_words;

/// The CPU and memory section: per condition and process group, over its runs.
pub fn section(page: &Context) -> Option<Section> {
    let heading = lead_words(page.lang).resources_table.to_string();
    Some(Section { id: "resources-section", heading, table: page.resources_table()?, notes: Vec::new() })
}

impl Context<'_> {
    /// One row per condition and process group; `None` when no run sampled its processes.
    pub fn resources_table(&self) -> Option<Table> {
        let t = self.t;
        let w = lead_words(self.lang);
        let mut rows: Vec<Vec<Cell>> = Vec::new();
        for (c, condition) in self.report.conditions.iter().enumerate() {
            for usage in &condition.resources {
                let variance = Some(paths::condition_link("", c));
                rows.push(vec![
                    Cell::text(self.condition_label(condition)),
                    Cell::text(usage.process.clone()),
                    self.spread_cell(usage.cpu_percent, |v| format::decimal(v, 1), None, variance.clone()),
                    self.spread_cell(usage.peak_rss_bytes, format::mib, None, variance),
                ]);
            }
        }
        (!rows.is_empty()).then(|| Table {
            id: "resources".into(),
            caption: self.caption(w.resources_table, w.resources_caption),
            headers: vec![t.condition.into(), t.process.into(), t.cpu_avg.into(), t.rss_peak.into()],
            rows,
        })
    }
}
