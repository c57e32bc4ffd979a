//! The sentences of the pages that are built around numbers: flag reasons, ranks, lists, run
//! statuses and the figures' alternative texts. The fixed words are in [`super::Strings`]; what
//! needs a number, a plural or a different word order per language is a function here, so the
//! views hold no word of either language.

use super::{fill, grammar};
use crate::model::{Lang, RunStatus, Text};
use crate::render::format;
use crate::report::review::{DatasetFlag, FlagCause, FlagKind};

/// A run's status as a word: English keeps runs.csv's own values.
pub fn status_word(lang: Lang, status: RunStatus) -> &'static str {
    let t = super::strings(lang);
    match status {
        RunStatus::Ok => t.status_ok,
        RunStatus::Aborted => t.status_aborted,
        RunStatus::Excluded => t.status_excluded,
    }
}

/// "69th of 72" / "72件中69番目".
pub fn rank_of(lang: Lang, rank: u64, n: u64) -> String {
    fill(super::strings(lang).rank_of, &[("rank", &grammar::ordinal(lang, rank)), ("n", &format::count(n))])
}

/// "the 69th" / "69番目": a rank in running text.
pub fn rank_ordinal(lang: Lang, rank: u64) -> String {
    fill(super::strings(lang).rank_ordinal, &[("rank", &grammar::ordinal(lang, rank))])
}

/// A list of words: "p99 and p99.9", "a, b and c"; "p99、p99.9".
pub fn list(lang: Lang, items: &[String]) -> String {
    let t = super::strings(lang);
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => fill(t.list_last, &[("rest", &rest.join(t.list_sep)), ("last", last)]),
    }
}

/// A flag's reason in words, with its numbers; `headline` names the metric conditions are
/// compared by ("p95") and `value` prints one of its values with its unit ("12.00 ms").
pub fn flag_reason(lang: Lang, kind: &FlagKind, headline: &str, value: &dyn Fn(f64) -> String) -> String {
    let t = super::strings(lang);
    let none = t.no_note;
    match kind {
        FlagKind::Errors { count, requests } => {
            fill(t.flag_errors, &[("count", &format::count(*count)), ("requests", &format::count(*requests))])
        }
        FlagKind::IncompleteLargeResponses { count } => fill(t.flag_incomplete, &[("count", &format::count(*count))]),
        FlagKind::ScheduleLag { max_lag_ms, threshold_ms } => {
            fill(t.flag_schedule_lag, &[("max_lag", &format::ms(*max_lag_ms)), ("threshold", &format::ms(*threshold_ms))])
        }
        FlagKind::NoisyLag { max_lag_ms, median_ms, limit_ms } => fill(
            t.flag_noisy_lag,
            &[("max_lag", &format::ms(*max_lag_ms)), ("median", &format::ms(*median_ms)), ("limit", &format::ms(*limit_ms))],
        ),
        FlagKind::NoisyLoad { load1, median, limit } => fill(
            t.flag_noisy_load,
            &[("load", &format::decimal(*load1, 2)), ("median", &format::decimal(*median, 2)), ("limit", &format::decimal(*limit, 2))],
        ),
        FlagKind::HostLoad { load1, threshold } => {
            fill(t.flag_host_load, &[("load", &format::decimal(*load1, 2)), ("threshold", &format::decimal(*threshold, 2))])
        }
        FlagKind::Outlier { value_ms, median_ms, factor } => fill(
            t.flag_outlier,
            &[("headline", headline), ("value", &value(*value_ms)), ("factor", &format::ratio(*factor)), ("median", &value(*median_ms))],
        ),
        FlagKind::Starved { share, median, limit } => fill(
            t.flag_starved,
            &[("share", &format::decimal(*share, 2)), ("median", &format::decimal(*median, 2)), ("limit", &format::decimal(*limit, 2))],
        ),
        FlagKind::Aborted { note } => fill(t.flag_aborted, &[("note", &noted(note, lang, none))]),
        FlagKind::Excluded { note } => fill(t.flag_excluded, &[("note", &noted(note, lang, none))]),
    }
}

/// The label of the given factors' levels ("nginx · buffering on · 2"), by
/// [`model::condition_label`](crate::model::condition_label)'s rule in `lang`.
pub fn levels_label(lang: Lang, report: &crate::report::Report, levels: &[usize], factors: &[usize]) -> String {
    joined_label(lang, factors.iter().filter_map(|&f| report.factors.get(f)?.levels.get(*levels.get(f)?).map(|l| l.label.get(lang))))
}

/// The label of a condition of `report` from its `levels` (every factor's), as tables, charts and
/// `analyze check` name it; "-" without factors.
pub fn condition_label(lang: Lang, report: &crate::report::Report, levels: &[usize]) -> String {
    levels_label(lang, report, levels, &(0..report.factors.len()).collect::<Vec<_>>())
}

/// A condition label from level labels given without their report (a comparison's), in `lang`.
pub fn labels_label(lang: Lang, labels: &[Text]) -> String {
    joined_label(lang, labels.iter().map(|l| l.get(lang)))
}

/// Level labels joined by `lang`'s separator, by the one condition-label rule.
fn joined_label<'a>(lang: Lang, labels: impl IntoIterator<Item = &'a str>) -> String {
    crate::model::condition_label(labels, super::strings(lang).label_join)
}

/// A flag rule that hit most runs, in one sentence with its cause: "54 of 55 runs had ...".
pub fn dataset_flag(lang: Lang, flag: &DatasetFlag) -> String {
    let t = super::strings(lang);
    let (runs, of) = (format::count(flag.runs), format::count(flag.of));
    let span = |digits: usize, unit: &str| {
        let (min, max) = (format::decimal(flag.min, digits), format::decimal(flag.max, digits));
        if min == max {
            format!("{min}{unit}")
        } else {
            format!("{min}{}{max}{unit}", t.range_dash)
        }
    };
    let threshold = |digits: usize| flag.threshold.map(|t| format::decimal(t, digits)).unwrap_or_default();
    let (template, span) = match flag.kind {
        "host_load" if flag.cause == Some(FlagCause::OwnLoad) => {
            return fill(t.dataset_flag_own_load, &[("runs", &runs), ("of", &of), ("threshold", &threshold(2)), ("span", &span(2, ""))]);
        }
        "host_load" if matches!(flag.cause, Some(FlagCause::LoadedBefore { .. })) => {
            let before = match flag.cause {
                Some(FlagCause::LoadedBefore { load1 }) => format::decimal(load1, 2),
                _ => String::new(),
            };
            return fill(
                t.dataset_flag_loaded_before,
                &[("runs", &runs), ("of", &of), ("threshold", &threshold(2)), ("span", &span(2, "")), ("before", &before)],
            );
        }
        "host_load" => (t.dataset_flag_host_load, span(2, "")),
        "errors" => (t.dataset_flag_errors, span(0, "")),
        "incomplete_large_responses" => (t.dataset_flag_incomplete, String::new()),
        "schedule_lag" => (t.dataset_flag_schedule_lag, span(2, " ms")),
        "noisy_lag" => (t.dataset_flag_noisy_lag, span(2, " ms")),
        "noisy_load" => (t.dataset_flag_noisy_load, span(2, "")),
        other => (other, String::new()),
    };
    let what = fill(template, &[("threshold", &threshold(2)), ("span", &span)]);
    fill(t.dataset_flag, &[("runs", &runs), ("of", &of), ("what", &what)])
}

/// A run page's title: "Run r06" / "測定r06".
pub fn run_title(lang: Lang, run_id: &str) -> String {
    fill(super::strings(lang).run_title, &[("run_id", run_id)])
}

/// The alternative text of the report's headline figure.
/// `log`: the chart's value axis is logarithmic (else linear: `charts::headline_scale`).
pub fn headline_alt(lang: Lang, p_label: &str, log: bool) -> String {
    let t = super::strings(lang);
    fill(if log { t.headline_alt_log } else { t.headline_alt_linear }, &[("p_label", p_label)])
}

/// The alternative text of the report's time series: the representative run of `worst`, the
/// condition with the worst headline value ("the slowest condition").
pub fn worst_time_series_alt(lang: Lang, run_id: &str, worst: &str) -> String {
    fill(super::strings(lang).worst_time_series_alt, &[("run_id", run_id), ("worst", worst)])
}

/// The alternative text of a run page's ECDF.
pub fn run_ecdf_alt(lang: Lang, run_id: &str, p_label: &str) -> String {
    fill(super::strings(lang).run_ecdf_alt, &[("run_id", run_id), ("p_label", p_label)])
}

/// The alternative text of a run page's time series.
pub fn run_send_lag_alt(lang: Lang, run_id: &str) -> String {
    fill(super::strings(lang).run_send_lag_alt, &[("run_id", run_id)])
}

pub fn run_time_series_alt(lang: Lang, run_id: &str) -> String {
    fill(super::strings(lang).run_time_series_alt, &[("run_id", run_id)])
}

/// The alternative text of a run page's CPU and memory chart.
pub fn run_resources_alt(lang: Lang, run_id: &str) -> String {
    fill(super::strings(lang).run_resources_alt, &[("run_id", run_id)])
}

/// The alternative text of a run page's temp-file chart.
pub fn run_tempfile_alt(lang: Lang, run_id: &str) -> String {
    fill(super::strings(lang).run_tempfile_alt, &[("run_id", run_id)])
}

/// Every sentence of this module with sample arguments, for the glossary and punctuation tests.
#[cfg(test)]
pub fn samples(lang: Lang) -> Vec<String> {
    let kinds = [
        FlagKind::Errors { count: 2, requests: 72 },
        FlagKind::IncompleteLargeResponses { count: 1 },
        FlagKind::ScheduleLag { max_lag_ms: 25.0, threshold_ms: 20.0 },
        FlagKind::NoisyLag { max_lag_ms: 13.7, median_ms: 1.2, limit_ms: 6.5 },
        FlagKind::NoisyLoad { load1: 1.8, median: 0.3, limit: 0.9 },
        FlagKind::HostLoad { load1: 1.5, threshold: 1.0 },
        FlagKind::Outlier { value_ms: 900.0, median_ms: 100.0, factor: 9.0 },
        FlagKind::Starved { share: 0.41, median: 0.93, limit: 0.6 },
        FlagKind::Aborted { note: crate::model::Note::default() },
        FlagKind::Excluded { note: crate::model::Note::default() },
    ];
    let ms = |v: f64| format!("{} ms", format::ms(v));
    let mut out: Vec<String> = kinds.iter().map(|k| flag_reason(lang, k, "p95", &ms)).collect();
    out.extend([RunStatus::Ok, RunStatus::Aborted, RunStatus::Excluded].map(|s| status_word(lang, s).to_string()));
    out.extend([rank_of(lang, 69, 72), rank_ordinal(lang, 69), list(lang, &["p99".into(), "p99.9".into()])]);
    out.extend([list(lang, &["p90".into(), "p99".into(), "p99.9".into()]), factor_level(lang, "c", "20"), factor_level(lang, "c", "ab")]);
    out.extend([
        headline_alt(lang, "p95", true),
        headline_alt(lang, "p95", false),
        worst_time_series_alt(lang, "r06", super::metric_words(lang, crate::model::HeadlineMetric::Percentile).worst),
        run_ecdf_alt(lang, "r06", "p95"),
        run_time_series_alt(lang, "r06"),
        run_resources_alt(lang, "r06"),
        run_tempfile_alt(lang, "r06"),
        super::charts::run_name(lang, "r06", "nginx"),
        run_title(lang, "r06"),
    ]);
    out
}

/// A run's note in `lang`, or `none` when it has none.
fn noted(note: &crate::model::Note, lang: Lang, none: &str) -> String {
    if note.is_empty() {
        none.to_string()
    } else {
        super::notes::note_text(note, lang)
    }
}

/// A factor at one of its levels, as a column header or a caption names it: "Concurrency = 20";
/// in Japanese 「並列度20」 for a number and 「ツール：ab」 otherwise.
pub fn factor_level(lang: Lang, factor: &str, level: &str) -> String {
    let t = super::strings(lang);
    let template = if level.starts_with(|c: char| c.is_ascii_digit()) { t.factor_level_number } else { t.factor_level };
    fill(template, &[("factor", factor), ("level", level)])
}

/// A label and its value in running text: "requests/s 545.64"; Japanese writes no space between
/// them (「エラー（2xx以外または応答なし）0 / 10,000」).
pub fn labelled(lang: Lang, label: &str, value: &str) -> String {
    fill(super::strings(lang).labelled, &[("label", label), ("value", value)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_join_their_last_item_as_each_language_does() {
        let items = |words: &[&str]| words.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        assert_eq!(list(Lang::En, &items(&["p90", "p99", "p99.9"])), "p90, p99 and p99.9");
        assert_eq!(list(Lang::En, &items(&["p99", "p99.9"])), "p99 and p99.9");
        assert_eq!(list(Lang::Ja, &items(&["p90", "p99", "p99.9"])), "p90、p99、p99.9");
        assert_eq!(list(Lang::En, &items(&["p99"])), "p99");
        assert_eq!(list(Lang::Ja, &[]), "");
    }

    #[test]
    fn a_factor_level_that_is_a_number_follows_the_factor_directly_in_japanese() {
        assert_eq!(factor_level(Lang::En, "Concurrency", "20"), "Concurrency = 20");
        assert_eq!(factor_level(Lang::En, "Tool", "ab"), "Tool = ab");
        assert_eq!(factor_level(Lang::Ja, "並列度", "20"), "並列度20");
        assert_eq!(factor_level(Lang::Ja, "ツール", "ab"), "ツール：ab");
    }

    #[test]
    fn ranks_read_as_each_language_counts() {
        assert_eq!(rank_of(Lang::En, 69, 1_000), "69th of 1,000");
        assert_eq!(rank_of(Lang::Ja, 69, 1_000), "1,000件中69番目");
        assert_eq!(rank_ordinal(Lang::En, 2), "the 2nd");
        assert_eq!(rank_ordinal(Lang::Ja, 2), "2番目");
        assert_eq!(status_word(Lang::Ja, RunStatus::Aborted), "中断");
    }
}
