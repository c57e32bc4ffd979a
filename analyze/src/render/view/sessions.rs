//! The session tables (sessions.csv): per condition on the report page, per run on its page.

use super::*;
use crate::report::RunSessions;

/// The sessions section: per condition, how its sessions ended and how long the successful took.
pub fn section(page: &Context) -> Option<Section> {
    Some(Section { id: "sessions-section", heading: page.t.sessions_table.to_string(), table: page.sessions_table()?, notes: Vec::new() })
}

impl Context<'_> {
    /// Per condition: sessions, the share that failed, and the successful sessions' min, mean, max,
    /// p50 and p95, each the median of the runs with the min-max range.
    pub fn sessions_table(&self) -> Option<Table> {
        let t = self.t;
        let rows: Vec<Vec<Cell>> = (0..self.report.conditions.len())
            .filter_map(|c| {
                let condition = &self.report.conditions[c];
                let s = condition.sessions.as_ref()?;
                let ms = |spread| self.spread_cell(spread, format::ms, None, None);
                Some(vec![
                    Cell::text(self.condition_label(condition)),
                    Cell::number(format::count(s.sessions)),
                    Cell::number(format::count(s.failed)),
                    self.spread_cell(Some(s.failed_share), format::percent, None, None),
                    ms(s.min_ms),
                    ms(s.mean_ms),
                    ms(s.max_ms),
                    ms(s.median_ms),
                    ms(s.p95_ms),
                ])
            })
            .collect();
        (!rows.is_empty()).then(|| Table {
            id: "sessions".into(),
            caption: self.caption(t.sessions_table, t.sessions_caption),
            headers: vec![
                t.condition.into(),
                t.sessions_label.into(),
                t.failed_header.into(),
                t.failed_share_header.into(),
                self.in_ms(t.minimum_header),
                self.in_ms(t.mean_header),
                self.in_ms(t.maximum_header),
                self.in_ms("p50"),
                self.in_ms("p95"),
            ],
            rows,
        })
    }

    /// A run's sessions as facts: how many, how many failed and at which step.
    pub fn session_facts(&self, s: &RunSessions) -> Vec<KeyValue> {
        let t = self.t;
        let kv = |label: &str, value: String| KeyValue { label: label.to_string(), value, href: None };
        let mut facts = vec![kv(
            t.sessions_label,
            fill(
                t.sessions_fact,
                &[("n", &format::count(s.sessions)), ("failed", &format::count(s.failed)), ("share", &format::percent(s.failed_share))],
            ),
        )];
        if !s.failed_by_step.is_empty() {
            let named = &self.report.dataset.session_steps;
            let steps: Vec<String> = s
                .failed_by_step
                .iter()
                .map(|(step, n)| {
                    let n = format::count(*n);
                    match usize::try_from(*step).ok().and_then(|i| named.get(i)) {
                        Some(name) => fill(t.failed_at_named_step, &[("name", name.get(self.lang)), ("n", &n)]),
                        None => fill(t.failed_at_step, &[("step", &step.to_string()), ("n", &n)]),
                    }
                })
                .collect();
            facts.push(kv(t.failed_sessions, steps.join(t.list_sep)));
        }
        facts
    }

    /// A run's session times: min, mean, max, and p50 and p95 with their ranks among the
    /// sessions that succeeded.
    pub fn session_time_table(&self, s: &RunSessions) -> Option<Table> {
        let t = self.t;
        let n = s.succeeded;
        let plain = |name: &str, value: Option<f64>| value.map(|v| vec![Cell::text(name), Cell::number(format::ms(v)), Cell::text("")]);
        let ranked = |name: &str, value: Option<f64>, rank: Option<u64>| {
            Some(vec![Cell::text(name), Cell::number(format::ms(value?)), Cell::number(self.rank_text(rank?, n))])
        };
        let rows: Vec<Vec<Cell>> = [
            plain(t.minimum_header, s.min_ms),
            plain(t.mean_header, s.mean_ms),
            plain(t.maximum_header, s.max_ms),
            ranked("p50", s.median_ms, s.median_rank),
            ranked("p95", s.p95_ms, s.p95_rank),
        ]
        .into_iter()
        .flatten()
        .collect();
        (!rows.is_empty()).then(|| Table {
            id: "session-times".into(),
            caption: self.caption(t.session_time, t.session_time_caption),
            headers: vec![t.metric.into(), self.in_ms(t.value), t.rank.into()],
            rows,
        })
    }
}
