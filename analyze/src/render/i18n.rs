//! Every word of the report, in English and Japanese, in one home: the pages' fixed words here
//! ([`Strings`]), the charts' words in [`charts`], the sentences built around numbers in
//! [`prose`], and in [`glossary`] the one word each language uses for each term, which a test
//! holds every string to. A struct, not a lookup table, so a string missing in one language is
//! a compile error rather than a blank on the page.

pub mod charts;
pub mod compare;
pub mod counted;
#[cfg(test)]
mod glossary;
pub mod grammar;
pub mod history;
pub mod labels;
pub mod lead;
pub mod notes;
pub mod prose;
pub mod published;
pub mod slo;

use crate::model::Lang;
use serde::Serialize;

/// A template with its `{name}` placeholders filled, in one pass: a value is inserted as
/// written, so a value that itself holds `{name}` is never filled again. A placeholder with no
/// value given stays as written.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let value = after.find('}').and_then(|close| values.iter().find(|(name, _)| *name == &after[..close]).map(|(_, v)| (close, *v)));
        match value {
            Some((close, value)) => {
                out.push_str(value);
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[derive(Debug, Clone, Serialize)]
pub struct Strings {
    pub lang_name: &'static str,
    pub other_lang_link: &'static str,
    /// Above a table wider than its box, shown only while the box can scroll sideways.
    pub scroll_cue: &'static str,
    pub report: &'static str,
    pub all_datasets: &'static str,
    pub measured: &'static str,
    pub integrity: &'static str,
    pub runs_label: &'static str,
    /// The requests of open-loop runs are the probe; of the others, the load itself.
    pub requests_label: &'static str,
    pub probe_requests_label: &'static str,
    pub ok_responses_label: &'static str,
    pub errors_label: &'static str,
    pub non_2xx_label: &'static str,
    pub no_response_label: &'static str,
    pub large_responses_label: &'static str,
    pub incomplete_label: &'static str,
    pub incomplete_count: &'static str,
    pub expected_bytes: &'static str,
    pub max_lag_label: &'static str,
    pub unit_ms: &'static str,
    pub range: &'static str,
    pub figures: &'static str,
    pub large_table: &'static str,
    pub large_caption: &'static str,
    pub condition: &'static str,
    pub write_s: &'static str,
    pub complete_s: &'static str,
    /// The pooled medians' column headers (the study's definition, `stats::large`).
    pub write_pooled_s: &'static str,
    pub complete_pooled_s: &'static str,
    pub tempfile_table: &'static str,
    pub tempfile_caption: &'static str,
    pub tempfile_peak: &'static str,
    pub run_table: &'static str,
    pub run_caption: &'static str,
    pub run_caption_closed: &'static str,
    pub run: &'static str,
    pub status: &'static str,
    pub rank: &'static str,
    pub lag: &'static str,
    pub note: &'static str,
    pub repetition: &'static str,
    /// A run's start, and what its page says when runs.csv has none.
    pub started: &'static str,
    /// Latency from the intended send: the run page's column, fact and sentences.
    pub from_intended: &'static str,
    pub intended_label: &'static str,
    pub intended_none_closed: &'static str,
    pub intended_none_sessions: &'static str,
    pub intended_gap_later: &'static str,
    pub intended_gap_other: &'static str,
    pub intended_same: &'static str,
    pub methods_intended: &'static str,
    pub start_not_recorded: &'static str,
    pub methods: &'static str,
    pub environment: &'static str,
    pub variance: &'static str,
    pub variance_intro: &'static str,
    pub small_n: &'static str,
    pub interval_method: &'static str,
    pub spread_table: &'static str,
    pub spread_caption: &'static str,
    pub runs_values: &'static str,
    pub max_over_min: &'static str,
    pub range_over_median: &'static str,
    pub median_interval: &'static str,
    pub representative: &'static str,
    pub widest: &'static str,
    /// After the widest condition, when some of its runs are flagged: "{runs}" lists them.
    pub widest_flagged: &'static str,
    pub comparisons: &'static str,
    pub comparisons_caption: &'static str,
    /// One thing set against another, "{a} vs {b}": Japanese writes 「{a}対{b}」 without spaces
    /// (「sync 2プロセス対NGINX」, 「3対3」), as it writes no space between two Japanese words.
    pub versus: &'static str,
    pub runs_compared: &'static str,
    pub chance_header: &'static str,
    pub pair_header: &'static str,
    /// The verdicts of a comparison (`model::Verdict`).
    pub verdict_supported: &'static str,
    pub verdict_negligible: &'static str,
    pub verdict_not_shown: &'static str,
    /// Why a comparison has no interval (`model::NoInterval`).
    pub no_interval_spread: &'static str,
    pub no_interval_zero: &'static str,
    /// The ranges column: "{chance}" is the chance of apart ranges with no difference.
    pub ranges_apart_cell: &'static str,
    pub ranges_overlap_cell: &'static str,
    pub ratio_header: &'static str,
    pub p_header: &'static str,
    pub ranges_header: &'static str,
    pub comparisons_count: &'static str,
    pub comparisons_rule: &'static str,
    /// What the design can show: the ranges at the fewest runs, and the log-t interval.
    pub design_ranges_never: &'static str,
    pub design_ranges_can: &'static str,
    pub design_log_t: &'static str,
    /// How the review pairs conditions: the series at each x level, or the compared factor.
    pub pairing_series: &'static str,
    pub pairing_factor: &'static str,
    /// Pairs with a single run on a side.
    pub comparisons_one_run: &'static str,
    /// Flag rules that hit most runs, reported once.
    pub dataset_flags: &'static str,
    pub comparisons_neighbours: &'static str,
    pub limits_heading: &'static str,
    pub session_limits: &'static str,
    pub session_limits_one: &'static str,
    /// When a group compares more than the bound of levels of the compared factor.
    pub comparisons_neighbours_factor: &'static str,
    pub verdict: &'static str,
    pub flags: &'static str,
    pub flags_caption: &'static str,
    pub no_flags: &'static str,
    pub reason: &'static str,
    pub factors: &'static str,
    pub percentiles: &'static str,
    pub percentile: &'static str,
    pub value: &'static str,
    pub back_to_report: &'static str,
    /// A run table too long for one page: what the report page says instead, `{n}` runs listed
    /// `{per}` to a page.
    pub run_pages_intro: &'static str,
    /// A run table's cell for a note several runs share, listed once under the table.
    pub note_ref: &'static str,
    pub shared_notes: &'static str,
    /// One page of the paged run list: its link, and its title (`{n}` runs in all).
    pub run_page_range: &'static str,
    pub run_list_title: &'static str,
    /// The accessible name of the list of those pages.
    pub run_pages_label: &'static str,
    pub in_variance: &'static str,
    pub statuses: &'static str,
    pub cpu_avg: &'static str,
    pub rss_peak: &'static str,
    pub process: &'static str,
    pub load_before_after: &'static str,
    pub left_out: &'static str,
    pub none: &'static str,
    pub datasets: &'static str,
    pub dataset: &'static str,
    pub headline_finding: &'static str,
    pub markdown_twin: &'static str,
    pub summary_json: &'static str,
    pub csv_tables: &'static str,
    /// Before the links, at the top of a report, to the dataset's page and the files to download.
    pub data_links: &'static str,
    pub generated_by: &'static str,
    pub author_text: &'static str,
    pub author_table: &'static str,
    /// Between the ends of a range: an en dash in English, 〜 in Japanese.
    pub range_dash: &'static str,
    /// Between the levels of a condition's label: " · " in English; in Japanese "／", since
    /// "・" already joins words inside a level's label.
    pub label_join: &'static str,
    pub maximum: &'static str,
    /// " (maximum)" / "（最大値）": after a rank that is the last.
    pub maximum_tag: &'static str,
    /// What a percentile the requests do not resolve needs (`stats::resolvable`): "needs ≥ 3,688
    /// requests", filled into the four below as `{needs}`.
    pub needs: &'static str,
    /// A percentile cell whose value is the run's maximum and which the run's requests do not
    /// resolve: "= max (needs ≥ 3,688 requests)".
    pub equals_max_needs: &'static str,
    /// A percentile value the run's requests do not resolve: "12.50 (needs ≥ 3,688 requests)".
    pub value_needs: &'static str,
    /// A percentile named in a list with what it needs: "p99.9 (needs ≥ 3,688 requests)".
    pub percentile_needs: &'static str,
    /// Under a verdict on a percentile the condition's runs do not resolve.
    pub verdict_unresolved: &'static str,
    /// After the lead's first sentence when the headline percentile is one some condition's runs
    /// do not resolve: the ranking is of maxima.
    pub lead_unresolved: &'static str,
    /// The maximum as a column header.
    pub maximum_header: &'static str,
    /// A column header with its unit: "p95 (ms)" / "p95（ms）".
    pub in_ms: &'static str,
    /// A value with a note: "{main} ({note})" / "{main}（{note}）".
    pub aside: &'static str,
    /// Between the items of a list in running text.
    pub list_sep: &'static str,
    /// How many runs have a status: "12 ok" / "ok 12回".
    pub status_count: &'static str,
    /// Between two sentences: a space in English, nothing in Japanese.
    pub sentence_gap: &'static str,
    /// Between a label and its value: ": " / "：".
    pub colon: &'static str,
    /// Between the links of a navigation line.
    pub link_sep: &'static str,
    /// A table's caption after its title: "{main}: {note}" / "{main}：{note}".
    pub caption: &'static str,
    /// A number of runs: "30" / "30回".
    pub runs_count: &'static str,
    /// A number of requests or responses: "2,160" / "2,160件".
    pub items_count: &'static str,
    /// A count with its label inside a list: "non-2xx: 0" / "2xx以外の応答0件".
    pub label_count: &'static str,
    /// A percentile and its rank inside a list: "p95: the 69th" / "p95が69番目".
    pub rank_item: &'static str,
    pub percentile_table: &'static str,
    pub percentile_caption: &'static str,
    pub maximum_note: &'static str,
    pub metric: &'static str,
    pub published_table: &'static str,
    pub ecdf_conditions_alt: &'static str,
    pub setup: &'static str,
    pub setup_caption: &'static str,
    pub setting: &'static str,
    pub readme_link: &'static str,
    pub readme_note: &'static str,
    pub readme_title: &'static str,
    /// Said after the README's title when the page's language has no README of its own.
    pub readme_untranslated: &'static str,
    pub table_n: &'static str,
    pub methods_latency: &'static str,
    pub methods_latency_probe: &'static str,
    /// Every condition has a single run.
    pub one_run_each: &'static str,
    pub methods_percentile: &'static str,
    pub methods_ranks: &'static str,
    pub methods_level1: &'static str,
    pub methods_condition: &'static str,
    pub methods_large: &'static str,
    pub methods_tempfiles: &'static str,
    pub methods_resources: &'static str,
    pub methods_lag: &'static str,
    pub methods_lag_limit: &'static str,
    pub methods_lag_no_limit: &'static str,
    pub methods_verdicts: &'static str,
    pub methods_status: &'static str,
    pub sessions_table: &'static str,
    pub sessions_caption: &'static str,
    pub sessions_label: &'static str,
    /// A run's sessions in the facts: "{n} ({failed} failed, {share})".
    pub sessions_fact: &'static str,
    pub failed_sessions: &'static str,
    /// Column headers of the sessions table: how many failed, and their share.
    pub failed_header: &'static str,
    pub failed_share_header: &'static str,
    /// Failed sessions per step: "step {step}: {n}".
    pub failed_at_step: &'static str,
    /// A step dataset.toml names (`{name}`) and its failed sessions (`{n}`).
    pub failed_at_named_step: &'static str,
    pub session_time: &'static str,
    pub session_time_caption: &'static str,
    pub minimum_header: &'static str,
    pub mean_header: &'static str,
    pub methods_sessions: &'static str,
    /// Under a headline value when dataset.toml says the authors averaged their runs.
    pub mean_cell: &'static str,
    /// After the headline caption then: what the mean is and why it is there.
    pub mean_caption: &'static str,
    /// Under the headline table then: why the report still leads with the median.
    pub mean_why: &'static str,
    /// Filled by `prose::run_title`.
    pub run_title: &'static str,
    /// Filled by `prose::worst_time_series_alt`.
    pub worst_time_series_alt: &'static str,
    /// Filled by `prose::run_ecdf_alt`.
    pub run_ecdf_alt: &'static str,
    /// Filled by `prose::run_send_lag_alt`.
    pub run_send_lag_alt: &'static str,
    /// Filled by `prose::run_time_series_alt`.
    pub run_time_series_alt: &'static str,
    /// Filled by `prose::run_resources_alt`.
    pub run_resources_alt: &'static str,
    /// Filled by `prose::run_tempfile_alt`.
    pub run_tempfile_alt: &'static str,
    /// Filled by `prose::labelled`.
    pub labelled: &'static str,
    /// A flag's reason: requests without a 2xx response.
    pub flag_errors: &'static str,
    /// A flag's reason: large responses short of their bytes.
    pub flag_incomplete: &'static str,
    /// A flag's reason: the probe sent late.
    pub flag_schedule_lag: &'static str,
    /// A flag's reason: a send lag above the dataset's usual.
    pub flag_noisy_lag: &'static str,
    /// A flag's reason: a load average above the dataset's usual.
    pub flag_noisy_load: &'static str,
    /// A flag's reason: the host's load average over its threshold.
    pub flag_host_load: &'static str,
    /// A flag's reason: a run far from its condition's median.
    pub flag_outlier: &'static str,
    /// A flag's reason: an aborted run and its note.
    /// In place of an aborted or excluded run's missing note.
    pub no_note: &'static str,
    pub flag_aborted: &'static str,
    /// A flag's reason: an excluded run and its note.
    pub flag_excluded: &'static str,
    /// The headline figure's alternative text on a log scale.
    pub headline_alt_log: &'static str,
    /// The headline figure's alternative text on a linear scale.
    pub headline_alt_linear: &'static str,
    /// A flag rule that hit most runs: `{what}` is the rule's sentence.
    pub dataset_flag: &'static str,
    /// The host-load rule on most runs when the load is the study's own.
    pub dataset_flag_own_load: &'static str,
    /// The host-load rule's sentence in `dataset_flag`.
    pub dataset_flag_host_load: &'static str,
    /// The errors rule's sentence in `dataset_flag`.
    pub dataset_flag_errors: &'static str,
    /// The incomplete-large-responses rule's sentence in `dataset_flag`.
    pub dataset_flag_incomplete: &'static str,
    /// The schedule-lag rule's sentence in `dataset_flag`.
    pub dataset_flag_schedule_lag: &'static str,
    /// The noisy-lag rule's sentence in `dataset_flag`.
    pub dataset_flag_noisy_lag: &'static str,
    /// The noisy-load rule's sentence in `dataset_flag`.
    pub dataset_flag_noisy_load: &'static str,
    /// A run's status (`model::RunStatus`): English keeps runs.csv's own values.
    pub status_ok: &'static str,
    pub status_aborted: &'static str,
    pub status_excluded: &'static str,
    /// A rank among `{n}`: "69th of 72" / "72件中69番目"; `{rank}` is `grammar::ordinal`'s.
    pub rank_of: &'static str,
    /// A rank in running text: "the 69th" / "69番目".
    pub rank_ordinal: &'static str,
    /// The last item of a list of several after the others, joined by `list_sep`: "{rest} and
    /// {last}" / "{rest}、{last}".
    pub list_last: &'static str,
    /// A factor at a level: "Concurrency = 20" / "ツール：ab".
    pub factor_level: &'static str,
    /// A factor at a level that starts with a digit: Japanese writes no separator (「並列度20」).
    pub factor_level_number: &'static str,
    /// Between the clauses of one sentence built from parts: "; " in English; Japanese ends each
    /// as a sentence.
    pub clause_sep: &'static str,
}

pub fn strings(lang: Lang) -> &'static Strings {
    match lang {
        Lang::En => &EN,
        Lang::Ja => &JA,
    }
}

static EN: Strings = Strings {
    lang_name: "English",
    other_lang_link: "日本語",
    scroll_cue: "Scroll sideways for more columns →",
    report: "Report",
    all_datasets: "All datasets",
    measured: "Measured",
    integrity: "Integrity",
    runs_label: "Runs",
    requests_label: "Requests",
    probe_requests_label: "Probe requests",
    ok_responses_label: "2xx responses",
    errors_label: "Errors (non-2xx or no response)",
    non_2xx_label: "non-2xx",
    no_response_label: "no response",
    large_responses_label: "Large responses",
    incomplete_label: "Incomplete large responses",
    incomplete_count: "{n} incomplete",
    expected_bytes: "each expected to deliver {bytes} bytes",
    max_lag_label: "Largest schedule lag (sent - scheduled)",
    unit_ms: "ms",
    range: "range",
    figures: "Charts",
    large_table: "App write time vs client completion time",
    large_caption: "per condition, the median over its runs of each run's median response (s), with the min-max range; then the median of all its responses pooled, the original study's definition",
    condition: "Condition",
    write_s: "Write time (s)",
    complete_s: "Completion time (s)",
    write_pooled_s: "Write time, median of all responses (s)",
    complete_pooled_s: "Completion time, median of all responses (s)",
    tempfile_table: "Reverse-proxy temp files",
    tempfile_caption: "each run's peak logical size of open temp files (MiB), as the median over runs with the min-max range",
    tempfile_peak: "Peak temp files (MiB)",
    run_table: "Every run",
    run_caption: "each run's {p} with its rank, errors and schedule lag",
    run_caption_closed: "each run's {p} with its rank and errors",
    run: "Run",
    status: "Status",
    rank: "Rank",
    lag: "Max lag (ms)",
    note: "Note",
    repetition: "Repetition",
    started: "Started (UTC)",
    start_not_recorded: "start not recorded",
    methods: "Methods",
    environment: "Environment",
    variance: "Variance review",
    variance_intro: "How far repeated runs of the same condition disagree, and which differences the runs can and cannot support.",
    small_n: "{n} runs per condition: this page shows every run, the min-max range of each condition, and what the runs support about each comparison.",
    interval_method: "For conditions with 6 or more runs, the interval for the median is distribution-free: from the sorted run values it takes the k-th smallest and the k-th largest, with the largest k whose coverage 1 - 2·P(B ≤ k-1), B ~ Binomial(n, 1/2), is at least 95%.",
    spread_table: "Spread per condition",
    spread_caption: "every run's {p}{unit}, the spread and the representative run",
    runs_values: "Runs",
    max_over_min: "max / min",
    range_over_median: "(max - min) / median",
    median_interval: "Interval for the median",
    representative: "Representative run",
    widest: "Widest condition",
    widest_flagged: " (includes flagged runs: {runs}; see Flags)",
    comparisons: "Comparisons",
    comparisons_caption: "{pairing}, by their runs' {p}: the ratio B/A of geometric means with its 95% interval (Welch's t on logs) and p, and whether the ranges are apart, with the chance of that if there were no difference (2·n!·m!/(n+m)!)",
    versus: "{a} vs {b}",
    runs_compared: "Runs",
    chance_header: "Chance if no difference",
    pair_header: "Conditions (A vs B)",
    verdict_supported: "difference supported",
    verdict_negligible: "negligible (within {threshold})",
    verdict_not_shown: "not shown",
    no_interval_spread: "no interval: neither side varies",
    no_interval_zero: "no interval: a run value is 0",
    ranges_apart_cell: "apart (chance {chance})",
    ranges_overlap_cell: "overlap",
    ratio_header: "B/A (95% interval)",
    p_header: "p",
    ranges_header: "Ranges",
    comparisons_count: "Of these {total} comparisons, {supported} show a difference, {negligible} a negligible one, and {not_shown} cannot tell. {apart} have ranges that do not overlap; if no condition differed from any other, chance alone would give about {expected} of those (the sum of the chances in the table).",
    comparisons_rule: "A difference is supported when its p passes Benjamini-Hochberg at a false discovery rate of {q} over the {with_p} comparisons with an interval and the ratio is more than {threshold} away from 1; negligible when the ratio is within {threshold} of 1 and passes, or when the whole interval lies within {threshold} of 1 (dataset.toml: thresholds.negligible_difference); otherwise not shown.",
    design_ranges_never: "Even at {n} runs against {m}, the most this review compares, the ranges fail to overlap {chance} of the time with no real difference, so the ranges alone can never show a difference at {q}.",
    design_ranges_can: "At {n} runs against {m}, the most this review compares, the ranges fail to overlap {chance} of the time even with no real difference.",
    design_log_t: "The ratio of geometric means with its 95% interval, from Welch's t-test on the logarithms of the run values, can show a difference with few runs when the gap is large against the run-to-run spread. It assumes that runs vary by a factor (log-normally), as latencies and throughputs do.",
    pairing_series: "conditions at the same {x} compared",
    pairing_factor: "the levels of {factor} compared among conditions that agree on every other factor",
    comparisons_one_run: "{n} pairs have a condition with a single run: one run cannot show variance, so those pairs get no chance and no verdict.",
    dataset_flags: "Flags of most runs",
    comparisons_neighbours: "At some levels of {x} there are more than {max} conditions: there only neighbours in the table's order are compared, and {left} other pairs are left out. Every condition's runs are listed below.",
    limits_heading: "What these runs cannot show",
    session_limits: "The runs were measured one after another on one machine, on one day. Their ranges show how runs of that sitting vary; they cannot show how the results would vary on another day, on another machine or with other software versions, and with {n} runs per condition they support no confidence level.",
    session_limits_one: "The runs were measured one after another on one machine, on one day, one run per condition: they show no run-to-run variation at all, so no difference between conditions can be told from noise here.",
    comparisons_neighbours_factor: "More than {max} levels of {factor} are compared: only neighbours in the table's order are, and {left} other pairs are left out. Every condition's runs are listed below.",
    verdict: "Verdict",
    flags: "Flags",
    flags_caption: "runs that deserve a second look, with the reason",
    no_flags: "No run is flagged.",
    reason: "Reason",
    factors: "Factors",
    percentiles: "Percentiles",
    percentile: "Percentile",
    value: "Value",
    back_to_report: "Back to the report",
    note_ref: "note {n}",
    shared_notes: "Notes shared by several runs (the Note column names them):",
    run_pages_intro: "{n} runs are too many for one page: they are listed {per} to a page below, and all of them in runs.csv.",
    run_page_range: "Runs {from}–{to}",
    run_list_title: "Every run: {from}–{to} of {n}",
    run_pages_label: "Pages of runs",
    in_variance: "Its condition in the variance review",
    statuses: "HTTP statuses",
    cpu_avg: "Average CPU (% of one core)",
    rss_peak: "Peak RSS (MiB)",
    process: "Process",
    load_before_after: "Host load (1-min average) before / after the run",
    left_out: "left out",
    none: "none",
    datasets: "Datasets",
    dataset: "Dataset",
    headline_finding: "Headline",
    markdown_twin: "Markdown version",
    summary_json: "summary.json",
    csv_tables: "CSV tables",
    data_links: "Data and downloads",
    generated_by: "Generated by analyze from the dataset's raw rows; every number is computed.",
    author_text: "The author's text",
    author_table: "Table {n} of the author's text",
    range_dash: "–",
    label_join: " · ",
    maximum: "maximum",
    maximum_tag: " (maximum)",
    needs: "needs ≥ {n} requests",
    equals_max_needs: "= max ({needs})",
    value_needs: "{value} ({needs})",
    percentile_needs: "{p} ({needs})",
    verdict_unresolved: "{p} cannot be told from the maximum with these runs' requests ({needs})",
    lead_unresolved: "With these runs' requests {p} cannot be told from each run's maximum ({needs}).",
    maximum_header: "Maximum",
    in_ms: "{name} (ms)",
    sentence_gap: " ",
    colon: ": ",
    link_sep: " · ",
    caption: "{main}: {note}",
    runs_count: "{n}",
    items_count: "{n}",
    label_count: "{label}: {n}",
    rank_item: "{p}: {rank}",
    aside: "{main} ({note})",
    list_sep: ", ",
    status_count: "{n} {status}",
    percentile_table: "Percentiles by condition",
    percentile_caption: "per condition, the median over its runs of each run's percentile, with the min-max range (ms)",
    maximum_note: "With {n} responses per run, {list} fall on the last rank: they are each run's maximum, not an estimate of a tail, and the table shows them once, as the maximum.",
    metric: "Metric",
    published_table: "Published values",
    setup: "Setup",
    setup_caption: "the settings of the experiment, from the dataset's plan.toml",
    setting: "Setting",
    readme_link: "How the data was measured",
    readme_note: "the dataset's README: what was measured, how, and how it differs from the original study",
    readme_title: "The dataset's README",
    readme_untranslated: "",
    table_n: "Table {n}",
    ecdf_conditions_alt: "Latency distribution of each condition's representative run at {level} (ECDF, log scale)",
    methods_latency: "Latency is the time of one request as requests.csv records it (latency_ms); in datasets written by measure, from the start of connect until the response body has been read. Only 2xx responses are ranked; requests with a non-2xx status or no response are counted as errors.",
    methods_latency_probe: "Latency is the time of one request of the probe as requests.csv records it (latency_ms); in datasets written by measure, from the start of connect until the response body has been read. Only 2xx responses are ranked; requests with a non-2xx status or no response are counted as errors.",
    one_run_each: "Every condition has a single run: one run cannot show variance, so no condition is compared with another here.",
    methods_percentile: "Per run, the latencies are sorted ascending and each percentile p is the nearest rank: the value at rank ceil(p × n / 100), computed exactly in integers.",
    methods_ranks: "Runs had n = {n} responses; at n = {at_n} the ranks are {list}.",
    methods_level1: "These per-run statistics (the counts, each percentile with its rank, and the chart points, reduced as analyze reduces them) were computed from the request rows by {engine} {version}, whose percentile_disc takes the same nearest rank; this report was made from its run-level tables (level1.json), not from the rows.",
    methods_condition: "Per condition (one combination of factor levels), the tables show the median of its ok runs' values ({runs} runs per condition; the mean of the middle two for an even count) and the min-max range. The representative run is the one whose {p} is that median (the lower middle for an even count); the charts of a single run show it.",
    methods_large: "Write time (write_s) is how long the app took to write one large response: from the call until the last chunk was handed to the operating system. Completion time (client_complete_s) is how long the client took to receive it: from sending the request until the last byte was read, including a slow client's pacing. Per run, the median over its large responses; per condition, the median of those run medians with the min-max range: the table's first columns and the chart's bars, numbers and ranges, so each run counts once. The original study's chart drew the median of all responses pooled over the condition's runs instead; the table gives it in its own columns and the chart marks it with a diamond.",
    methods_tempfiles: "Temp files: per run, the peak of the sampled logical size (st_size, not disk usage) of the reverse proxy's open temp files.",
    methods_resources: "CPU: per process group, all its processes summed (a master and its workers together); the tables give the CPU seconds used between the first and the last sample over the time between them, in % of one core. The charts draw the same between consecutive samples: the kernel counts CPU time in clock ticks ({tick} ms on Linux), so at {interval} ms between samples (the median gap of each run's samples) those values move in steps of {step}.",
    from_intended: "From the intended send",
    intended_label: "Intended send",
    intended_none_closed: "closed loop: no intended send time (each request left when the one before it finished)",
    intended_none_sessions: "sessions: no intended send time per request",
    intended_gap_later: "Timed from when each request was scheduled to leave, {p} is {intended} ms, against {service} ms timed from when it left: the client sent requests up to {lag} ms late, and timing from the actual send hides that wait.",
    intended_gap_other: "Timed from when each request was scheduled to leave, {p} is {intended} ms, against {service} ms timed from when it left.",
    intended_same: "Timed from when each request was scheduled to leave, the percentiles differ from the service latency's by no more than {threshold} or {floor} ms: the client kept its schedule (largest lag {lag} ms).",
    methods_intended: "Latency from the intended send adds each request's send lag to its latency: latency_ms + (sent_ms − scheduled_ms), so a request is timed from when the open loop's schedule said it should leave. A client that falls behind its schedule times its late requests from when they finally left and hides the wait that delayed them (coordinated omission). Run pages give both, with the same nearest ranks, and say where they differ by more than {threshold} and more than {floor} ms.",
    methods_lag: "Schedule lag is the send time minus the scheduled time of a probe request (open loop: every request has its own scheduled time); a run's lag is its largest. A run is flagged when its lag is above {lag_ms} ms, or when it stands out from this dataset's runs: above the median of their lags plus {k} × 1.4826 × their median absolute deviation, the latter counted as at least {floor} ms{limit}.",
    methods_lag_limit: " (median {median} ms, limit {limit} ms)",
    methods_lag_no_limit: " (not applied: fewer than 5 runs)",
    methods_verdicts: "Variance review: {pairing}, by their runs' {p}. {design}{rule}",
    methods_status: "Only runs with status ok enter the statistics; aborted and excluded runs are listed with their notes.",
    sessions_table: "Sessions",
    sessions_caption: "per condition: sessions started in its ok runs and the share that failed; times are those of the sessions that succeeded (failed ones left out, as the original study did), each the median of the runs' values with the min-max range",
    sessions_label: "Sessions",
    sessions_fact: "{n} ({failed} failed, {share})",
    failed_sessions: "Failed sessions",
    failed_header: "Failed",
    failed_share_header: "Share failed",
    failed_at_step: "step {step}: {n}",
    failed_at_named_step: "{name}: {n}",
    session_time: "Session time",
    session_time_caption: "the time of the sessions that succeeded (ms); failed sessions have no time",
    minimum_header: "Minimum",
    mean_header: "Mean",
    mean_cell: "mean {value}",
    mean_caption: "; under each, the mean of its runs, as the published numbers were computed",
    mean_why: "The table leads with the median of the runs and their min-max range, not the mean: with {n} runs, one disturbed run moves the mean by 1/{n} of its excess, however large, while the median stays within the other runs' values. The mean is shown because the published numbers are means of runs, so that the two can be set side by side.",
    methods_sessions: "A session (sessions.csv) is one user's visit: its requests in order, each sent when the previous one ended (seed 003: GET the page, POST the form and follow its redirect, GET the page). It succeeded when every request got a 2xx response; its time runs from its first send to the end of its last response. A session ends at its first failed request (no response, a timeout, another status) and is counted as failed, with no time. Per run: the share of sessions that failed; over the sessions that succeeded the min, the max, the mean (what the original study printed as its average: a mean, which one slow session moves) and our nearest-rank p50 and p95. Per condition, the median of those run values over its ok runs with the min-max range.",
    run_title: "Run {run_id}",
    worst_time_series_alt: "Latency over time of run {run_id} (the representative run of {worst}), log scale",
    run_ecdf_alt: "Sorted latencies of run {run_id} (ECDF, log scale) with the {p_label} rank marked",
    run_send_lag_alt: "Send lag of each request of run {run_id} against its scheduled time, log scale",
    run_time_series_alt: "Latency over time of run {run_id}, log scale",
    run_resources_alt: "CPU and RSS of the server processes during run {run_id}",
    run_tempfile_alt: "Temp-file logical size of the reverse proxy over time during run {run_id}",
    labelled: "{label} {value}",
    flag_errors: "{count} of {requests} requests got no 2xx response",
    flag_incomplete: "{count} large response(s) did not deliver the expected bytes",
    flag_schedule_lag: "the probe was sent up to {max_lag} ms late (threshold {threshold} ms): the load generator, not the server, may have limited it",
    flag_noisy_lag: "the probe was sent up to {max_lag} ms late, well above this dataset's usual lag (median of the runs {median} ms, limit {limit} ms): the load generator or the host may have been busy",
    flag_noisy_load: "the host's load average was {load}, above this dataset's usual load (median of the runs {median}, limit {limit})",
    flag_host_load: "the host's load average was {load} (threshold {threshold})",
    flag_outlier: "{headline} = {value} is {factor} away from its condition's median {median}",
    no_note: "no note",
    flag_aborted: "aborted: {note}",
    flag_excluded: "excluded: {note}",
    headline_alt_log: "{p_label} by condition: median of the runs with the min-max range, log scale",
    headline_alt_linear: "{p_label} by condition: median of the runs with the min-max range, linear scale",
    dataset_flag: "{runs} of {of} runs: {what}. Reported once here, not on each run.",
    dataset_flag_own_load: "{runs} of {of} runs started with the host's 1-minute load average above {threshold} ({span}). These runs load the host themselves (the load generator and the server keep both cores busy for the whole run) and were measured back to back, so the load average, which takes minutes to decay, still held the previous run: the load is the study's own, not another program's. Reported once here, not on each run.",
    dataset_flag_host_load: "the host's 1-minute load average was above {threshold} ({span})",
    dataset_flag_errors: "requests without a 2xx response ({span} per run)",
    dataset_flag_incomplete: "large responses did not deliver the expected bytes",
    dataset_flag_schedule_lag: "requests were sent more than {threshold} ms behind their schedule ({span})",
    dataset_flag_noisy_lag: "the send lag stood out from the dataset's runs ({span})",
    dataset_flag_noisy_load: "the host's load average stood out from the dataset's runs ({span})",
    status_ok: "ok",
    status_aborted: "aborted",
    status_excluded: "excluded",
    rank_of: "{rank} of {n}",
    rank_ordinal: "the {rank}",
    list_last: "{rest} and {last}",
    factor_level: "{factor} = {level}",
    factor_level_number: "{factor} = {level}",
    clause_sep: "; ",
};

static JA: Strings = Strings {
    lang_name: "日本語",
    other_lang_link: "English",
    scroll_cue: "表は横にスクロールできます→",
    report: "レポート",
    all_datasets: "データセット一覧",
    measured: "測定日",
    integrity: "データの健全性",
    runs_label: "測定回数",
    requests_label: "リクエスト数",
    probe_requests_label: "計測用リクエストの件数",
    ok_responses_label: "2xx応答",
    errors_label: "エラー（2xx以外または応答なし）",
    non_2xx_label: "2xx以外の応答",
    no_response_label: "応答なし",
    large_responses_label: "大きな応答",
    incomplete_label: "受信が不完全な大きな応答",
    incomplete_count: "うち不完全{n}件",
    expected_bytes: "予定サイズは各{bytes}バイト",
    max_lag_label: "予定時刻からの送信の遅れの最大値",
    unit_ms: "ms",
    range: "範囲",
    figures: "グラフ",
    large_table: "アプリの書き込み時間とクライアントの受信完了時間",
    large_caption: "条件ごとに、各測定内の応答の中央値を取り、さらに測定間の中央値と最小〜最大の範囲を示す（秒）。続く列は全応答をまとめた中央値（元の記事の定義）",
    condition: "条件",
    write_s: "書き込み時間（秒）",
    complete_s: "受信完了時間（秒）",
    write_pooled_s: "書き込み時間：全応答の中央値（秒）",
    complete_pooled_s: "受信完了時間：全応答の中央値（秒）",
    tempfile_table: "リバースプロキシの一時ファイル",
    tempfile_caption: "各測定で使用中の一時ファイルの論理サイズの最大値（MiB）の、測定間の中央値と最小〜最大の範囲",
    tempfile_peak: "一時ファイルの最大（MiB）",
    run_table: "全測定",
    run_caption: "各測定の{p}と順位、エラー、送信の遅れ",
    run_caption_closed: "各測定の{p}と順位、エラー",
    run: "測定",
    status: "状態",
    rank: "順位",
    lag: "最大の遅れ（ms）",
    note: "備考",
    repetition: "反復番号",
    started: "開始時刻（UTC）",
    start_not_recorded: "開始時刻の記録なし",
    methods: "集計方法",
    environment: "実行環境",
    variance: "ばらつきの確認",
    variance_intro: "同じ条件で繰り返した測定どうしがどれだけ食い違うか、またその測定から言える差と言えない差を示します。",
    small_n: "1条件あたり{n}回の測定です。このページでは、全測定の値、条件ごとの最小〜最大の範囲、そして各比較について測定から言えることを示します。",
    interval_method: "6回以上測定した条件では、中央値の区間を分布を仮定せずに求めます。測定値を並べ、小さい方からk番目と大きい方からk番目を取り、被覆確率 1 - 2·P(B ≤ k-1)（Bは二項分布 Binomial(n, 1/2) に従う）が95%以上となる最大のkを使います。",
    spread_table: "条件ごとのばらつき",
    spread_caption: "各測定の{p}{unit}、ばらつき、代表の測定",
    runs_values: "測定",
    max_over_min: "最大 / 最小",
    range_over_median: "（最大 - 最小）/ 中央値",
    median_interval: "中央値の区間",
    representative: "代表の測定",
    widest: "ばらつきが最も大きい条件",
    widest_flagged: "（注意が必要な測定{runs}を含む。「注意が必要な測定」を参照）",
    comparisons: "比較",
    comparisons_caption: "{pairing}。各測定の{p}による。幾何平均の比B/Aとその95%区間（対数にウェルチのt検定）・p値、および範囲が重ならないかどうかと、差がない場合にそうなる確率（2·n!·m!/(n+m)!）",
    versus: "{a}対{b}",
    runs_compared: "測定回数",
    chance_header: "差がない場合に範囲が重ならない確率",
    pair_header: "条件（A対B）",
    verdict_supported: "差あり",
    verdict_negligible: "実質同じ（{threshold}以内）",
    verdict_not_shown: "判断できない",
    no_interval_spread: "区間なし：どちらの測定値もばらつかない",
    no_interval_zero: "区間なし：値が0の測定がある",
    ranges_apart_cell: "重ならない（確率{chance}）",
    ranges_overlap_cell: "重なる",
    ratio_header: "B/A（95%区間）",
    p_header: "p値",
    ranges_header: "範囲",
    comparisons_count: "{total}件の比較のうち、差ありが{supported}件、実質同じが{negligible}件、判断できないものが{not_shown}件です。範囲が重ならない比較は{apart}件で、どの条件にも差がなくても、偶然だけで約{expected}件はそうなります（表の確率の合計）。",
    comparisons_rule: "差ありと判定するのは、区間のある{with_p}件の比較にベンジャミニ・ホッホベルグ法（偽発見率{q}）を適用してp値が有意となり、かつ比が1から{threshold}を超えて離れている場合です。比が1から{threshold}以内で有意となる場合、または区間全体が1から{threshold}以内に収まる場合は実質同じとします（dataset.tomlの thresholds.negligible_difference）。それ以外は判断できないとします。",
    design_ranges_never: "この確認で最も測定の多い{n}回対{m}回の比較でも、実際に差がなくても範囲が重ならない確率が{chance}あるため、範囲だけでは{q}の水準で差を示せません。",
    design_ranges_can: "この確認で最も測定の多い{n}回対{m}回の比較では、実際に差がなくても範囲が重ならない確率が{chance}あります。",
    design_log_t: "幾何平均の比とその95%区間（各測定値の対数にウェルチのt検定を適用）は、測定間のばらつきに比べて差が大きければ、少ない測定回数でも差を示せます。測定値が倍率でばらつく（対数正規分布に従う）ことを前提とします。応答時間やスループットはこのようにばらつきます。",
    pairing_series: "同じ{x}の条件どうしを比較",
    pairing_factor: "{factor}の水準どうしを、ほかの因子がすべて同じ条件の間で比較",
    comparisons_one_run: "{n}組の比較では、一方の条件の測定が1回しかありません。1回の測定ではばらつきを示せないため、これらの組には確率も判定も付けません。",
    dataset_flags: "多くの測定に共通する注意",
    comparisons_neighbours: "{x}の水準によっては条件が{max}個を超えるため、そこでは表の並びで隣り合う条件どうしだけを比較し、残りの{left}組は比較していません。各条件の全測定は下に一覧します。",
    limits_heading: "これらの測定からは分からないこと",
    session_limits: "測定はすべて1台のマシンで、同じ日に続けて行いました。範囲が示すのは、この一続きの測定どうしのばらつきです。別の日、別のマシン、別のバージョンのソフトウェアで結果がどれだけ変わるかは分かりません。また、1条件あたり{n}回の測定では信頼水準を示せません。",
    session_limits_one: "測定はすべて1台のマシンで、同じ日に続けて行い、各条件の測定は1回だけです。測定間のばらつきがまったく分からないため、ここでは条件間の差と偶然のばらつきを区別できません。",
    comparisons_neighbours_factor: "{factor}の水準が{max}個を超えるため、表の並びで隣り合う水準どうしだけを比較し、残りの{left}組は比較していません。各条件の全測定は下に一覧します。",
    verdict: "判定",
    flags: "注意が必要な測定",
    flags_caption: "確認が必要な測定とその理由",
    no_flags: "注意が必要な測定はありません。",
    reason: "理由",
    factors: "因子",
    percentiles: "パーセンタイル",
    percentile: "パーセンタイル",
    value: "値",
    back_to_report: "レポートに戻る",
    note_ref: "注{n}",
    shared_notes: "複数の測定に共通の備考（備考欄は番号で示します）：",
    run_pages_intro: "{n}件の測定は1ページに載せきれないため、下の各ページに{per}件ずつ載せます（runs.csvにはすべての測定があります）。",
    run_page_range: "{from}〜{to}件目の測定",
    run_list_title: "全測定：{n}件中{from}〜{to}件目",
    run_pages_label: "測定のページ",
    in_variance: "ばらつきの確認でこの条件を見る",
    statuses: "HTTPステータス",
    cpu_avg: "平均CPU（1コアに対する%）",
    rss_peak: "最大RSS（MiB）",
    process: "プロセス",
    load_before_after: "ホストの負荷（1分平均）測定前／測定後",
    left_out: "除外",
    none: "なし",
    datasets: "データセット",
    dataset: "データセット",
    headline_finding: "主な結果",
    markdown_twin: "Markdown版",
    summary_json: "summary.json",
    csv_tables: "CSVの表",
    data_links: "データとダウンロード",
    generated_by: "このページは、analyzeがデータセットの生データから生成しました。数値はすべて計算で求めたものです。",
    author_text: "著者による本文",
    author_table: "本文の表{n}",
    range_dash: "〜",
    label_join: "／",
    maximum: "最大値",
    maximum_tag: "（最大値）",
    needs: "{n}件以上のリクエストが必要",
    equals_max_needs: "＝最大値（{needs}）",
    value_needs: "{value}（{needs}）",
    percentile_needs: "{p}（{needs}）",
    verdict_unresolved: "この測定のリクエスト数では{p}を最大値と区別できない（{needs}）",
    lead_unresolved: "この測定のリクエスト数では、{p}は各測定の最大値と区別できません（{needs}）。",
    maximum_header: "最大値",
    in_ms: "{name}（ms）",
    sentence_gap: "",
    colon: "：",
    link_sep: "｜",
    caption: "{main}：{note}",
    runs_count: "{n}回",
    items_count: "{n}件",
    label_count: "{label}{n}件",
    rank_item: "{p}が{rank}",
    aside: "{main}（{note}）",
    list_sep: "、",
    status_count: "{status}{n}回",
    percentile_table: "条件別のパーセンタイル",
    percentile_caption: "条件ごとに、各測定のパーセンタイルの中央値と最小〜最大の範囲（ms）",
    maximum_note: "1回の測定の応答は{n}件なので、{list}は最後の順位に当たります。これは各測定の最大値であり、分布の裾の推定値ではないため、表では最大値の列にまとめています。",
    metric: "指標",
    published_table: "公開値との比較",
    setup: "実験の設定",
    setup_caption: "データセットのplan.tomlにある実験の設定",
    setting: "設定",
    readme_link: "データの測り方",
    readme_note: "データセットのREADME：何をどう測ったか、元の記事との違い",
    readme_title: "データセットのREADME",
    readme_untranslated: "（英語）",
    table_n: "表{n}",
    ecdf_conditions_alt: "{level}：各条件の代表の測定の応答時間（累積分布、ECDF、対数目盛）",
    methods_latency: "応答時間は、requests.csvに記録されたリクエスト1件の時間（latency_ms）です。measureで作ったデータセットでは、接続を開始してから応答本文を読み終えるまでの時間です。順位を付けるのは2xx応答だけで、2xx以外の応答や応答のないリクエストはエラーとして数えます。",
    one_run_each: "どの条件も測定が1回だけです。1回の測定ではばらつきを示せないため、ここでは条件どうしを比較しません。",
    methods_latency_probe: "応答時間は、requests.csvに記録された計測用リクエスト1件の時間（latency_ms）です。measureで作ったデータセットでは、接続を開始してから応答本文を読み終えるまでの時間です。順位を付けるのは2xx応答だけで、2xx以外の応答や応答のないリクエストはエラーとして数えます。",
    methods_percentile: "各測定で応答時間を短い順に並べ、パーセンタイルpは順位 ceil(p × n / 100) の値（最近接順位法。整数で厳密に計算）とします。",
    methods_ranks: "各測定の応答はn = {n}件で、n = {at_n}のときの順位は、{list}です。",
    methods_level1: "測定ごとのこれらの統計（件数、各パーセンタイルとその順位、analyzeと同じ方法で間引いたグラフの点）は、{engine} {version}がリクエスト行から計算しました。そのpercentile_discも同じ最近接順位法で順位を取ります。このレポートは行ではなく、その測定単位の表（level1.json）から作りました。",
    methods_condition: "条件（因子の水準の組み合わせ）ごとに、正常に終わった測定の値の中央値（1条件{runs}回。偶数個なら中央2つの平均）と最小〜最大の範囲を示します。代表の測定は{p}がその中央値になる測定（偶数個なら小さい方の中央）で、1回分のグラフはこの測定を表示します。",
    methods_large: "書き込み時間（write_s）は、アプリが大きな応答1件を書き込むのにかかった時間で、呼び出されてから最後のデータをOSに渡すまでです。受信完了時間（client_complete_s）は、クライアントがその応答を受け取るのにかかった時間で、リクエストを送ってから最後のバイトを読むまでです（遅いクライアントの読み取り速度の調整を含みます）。測定ごとに大きな応答の中央値を取り、条件ごとにその中央値と最小〜最大の範囲を示します。表の最初の列とグラフの棒・数値・範囲はこの値で、各測定を1回ずつ数えています。元の記事のグラフは、代わりに条件の全測定の応答をまとめた中央値を描いています。この値は表の別の列に示し、グラフにはひし形の印で描いています。",
    methods_tempfiles: "一時ファイル：測定ごとに、リバースプロキシが開いている一時ファイルの論理サイズ（st_size。ディスク使用量ではありません）を標本化し、その最大値を取ります。",
    methods_resources: "CPU：プロセスグループごとに全プロセスを合計します（マスターとワーカーの合計など）。表の値は、最初と最後の標本の間に使ったCPU秒をその時間で割った、1コアに対する%です。グラフは同じ値を連続する標本の間で描いています。カーネルはCPU時間をクロックティック（Linuxでは{tick} ms）単位で数えるため、標本間隔（各測定の標本の間隔の中央値）が{interval} msならグラフの値は{step}刻みになります。",
    from_intended: "予定送信時刻から",
    intended_label: "予定送信時刻",
    intended_none_closed: "クローズドループのため予定送信時刻なし（各リクエストは前のリクエストの完了後に送信）",
    intended_none_sessions: "セッション形式のためリクエストごとの予定送信時刻なし",
    intended_gap_later: "各リクエストの予定送信時刻から計ると{p}は{intended} msで、実際の送信時刻から計った{service} msより大きくなります。クライアントの送信は最大{lag} ms遅れており、実際の送信時刻から計るとその待ち時間が隠れます。",
    intended_gap_other: "各リクエストの予定送信時刻から計ると{p}は{intended} msで、実際の送信時刻から計ると{service} msです。",
    intended_same: "各リクエストの予定送信時刻から計っても、各パーセンタイルと応答時間との差は{threshold}以内または{floor} ms以内です。クライアントは予定どおりに送信していました（最大の遅れ{lag} ms）。",
    methods_intended: "予定送信時刻からの応答時間は、各リクエストの応答時間に送信の遅れを足した値（latency_ms + (sent_ms − scheduled_ms)）で、オープンループの予定で送信するはずだった時刻から計ります。予定より遅れたクライアントは、遅れたリクエストを実際に送信した時刻から計るため、送信を遅らせた待ち時間が隠れます（coordinated omission）。各測定のページでは両方を同じ最近接順位で示し、差が{threshold}を超え、かつ{floor} msを超える場合はそのことを述べます。",
    methods_lag: "送信の遅れは、計測用リクエストの実際の送信時刻から予定時刻を引いた値です（オープンループで、リクエストごとに予定時刻があります）。測定ごとにその最大値を取ります。遅れが{lag_ms} msを超える測定と、このデータセットの測定の中で突出している測定に印を付けます。突出とみなす上限は、各測定の遅れの中央値に、中央絶対偏差の1.4826倍（{floor} ms未満なら{floor} ms）の{k}倍を足した値です{limit}。",
    methods_lag_limit: "（中央値{median} ms、上限{limit} ms）",
    methods_lag_no_limit: "（測定が5回未満のため適用していません）",
    methods_verdicts: "ばらつきの確認：{pairing}（各測定の{p}による）。{design}{rule}",
    methods_status: "正常に終わった測定（runs.csvの状態がok）だけを集計に使い、中断・除外した測定は備考とともに一覧に載せます。",
    sessions_table: "セッション",
    sessions_caption: "条件ごとに、正常に終わった測定で開始したセッション数と失敗した割合。時間は成功したセッションのもの（元の記事と同じく失敗したセッションは除く）で、各測定の値の中央値と最小〜最大の範囲",
    sessions_label: "セッション数",
    sessions_fact: "{n}（失敗{failed}件、{share}）",
    failed_sessions: "失敗したセッション",
    failed_header: "失敗数",
    failed_share_header: "失敗率",
    failed_at_step: "ステップ{step}：{n}件",
    failed_at_named_step: "{name}：{n}件",
    session_time: "セッション時間",
    session_time_caption: "成功したセッションの時間（ms）。失敗したセッションには時間がない",
    minimum_header: "最小値",
    mean_header: "平均値",
    mean_cell: "平均{value}",
    mean_caption: "。各値の下は測定の平均で、公開値と同じ計算方法",
    mean_why: "表は平均ではなく、測定の中央値と最小〜最大の範囲を主に示します。{n}回の測定では、乱れた測定が1回あるだけで、平均はその測定の外れ方の1/{n}だけ動きます（外れ方には上限がありません）。一方、中央値はほかの測定の値の範囲にとどまります。平均を併記するのは、公開値が測定の平均であり、両者を並べて比べられるようにするためです。",
    methods_sessions: "セッション（sessions.csv）は利用者1人の訪問で、リクエストを順に、前のリクエストが終わってから送ります（シード003では、ページの取得、フォームのPOSTとリダイレクト先の取得、ページの取得）。すべてのリクエストが2xx応答を得たセッションを成功とし、その時間は最初の送信から最後の応答の終わりまでです。リクエストが失敗した時点（応答なし、タイムアウト、ほかのステータス）でセッションは終わり、失敗として数え、時間は持ちません。測定ごとに、失敗したセッションの割合と、成功したセッションの最小・最大・平均（元の記事が平均として示した値。遅いセッション1件で動く算術平均です）、そして最近接順位法のp50とp95を求めます。条件ごとに、正常に終わった測定のそれらの値の中央値と最小〜最大の範囲を示します。",
    run_title: "測定{run_id}",
    worst_time_series_alt: "測定{run_id}（{worst}の代表の測定）の応答時間の推移（対数目盛）",
    run_ecdf_alt: "測定{run_id}の応答時間を並べた累積分布（対数目盛）と{p_label}の順位",
    run_send_lag_alt: "測定{run_id}の各リクエストの送信の遅れと予定送信時刻（対数目盛）",
    run_time_series_alt: "測定{run_id}の応答時間の推移（対数目盛）",
    run_resources_alt: "測定{run_id}中のサーバープロセスのCPUとRSS",
    run_tempfile_alt: "測定{run_id}中のリバースプロキシの一時ファイルの論理サイズの推移",
    labelled: "{label}{value}",
    flag_errors: "{requests}件中{count}件のリクエストが2xx応答を得られなかった",
    flag_incomplete: "大きな応答{count}件が予定のバイト数を受信できなかった",
    flag_schedule_lag: "計測用リクエストの送信が最大{max_lag} ms遅れた（閾値{threshold} ms）：サーバーではなく負荷生成側が律速した可能性がある",
    flag_noisy_lag: "計測用リクエストの送信が最大{max_lag} ms遅れた。このデータセットの通常の遅れ（全測定の中央値{median} ms、上限{limit} ms）を大きく超えており、負荷生成側かホストが混んでいた可能性がある",
    flag_noisy_load: "ホストの負荷平均が{load}で、このデータセットの通常の値（全測定の中央値{median}、上限{limit}）を超えていた",
    flag_host_load: "ホストの負荷平均が{load}だった（閾値{threshold}）",
    flag_outlier: "{headline} = {value}が条件の中央値{median}から{factor}離れている",
    no_note: "備考なし",
    flag_aborted: "中断：{note}",
    flag_excluded: "除外：{note}",
    headline_alt_log: "条件別の{p_label}：測定の中央値と最小〜最大の範囲（対数目盛）",
    headline_alt_linear: "条件別の{p_label}：測定の中央値と最小〜最大の範囲（等間隔の目盛）",
    dataset_flag: "{of}回中{runs}回の測定で、{what}。各測定ではなく、ここでまとめて示します。",
    dataset_flag_own_load: "{of}回中{runs}回の測定で、開始時のホストの1分間の負荷平均が{threshold}を超えていました（{span}）。これらの測定では負荷生成ツールとサーバーが測定中ずっと両方のコアを使い、しかも間を置かずに続けて測定したため、数分かけて下がる負荷平均に直前の測定の負荷が残っていました。この負荷は測定自体によるもので、ほかのプログラムによるものではありません。各測定ではなく、ここでまとめて示します。",
    dataset_flag_host_load: "ホストの1分間の負荷平均が{threshold}を超えていた（{span}）",
    dataset_flag_errors: "2xx応答を得られなかったリクエストがあった（1測定あたり{span}件）",
    dataset_flag_incomplete: "大きな応答が予定のバイト数を受信できなかった",
    dataset_flag_schedule_lag: "リクエストの送信が予定より{threshold} ms以上遅れた（{span}）",
    dataset_flag_noisy_lag: "送信の遅れがデータセットのほかの測定より目立って大きかった（{span}）",
    dataset_flag_noisy_load: "ホストの負荷平均がデータセットのほかの測定より目立って高かった（{span}）",
    status_ok: "正常",
    status_aborted: "中断",
    status_excluded: "除外",
    rank_of: "{n}件中{rank}番目",
    rank_ordinal: "{rank}番目",
    list_last: "{rest}、{last}",
    factor_level: "{factor}：{level}",
    factor_level_number: "{factor}{level}",
    clause_sep: "。",
};

/// The words of the metric conditions are compared by (dataset.toml's `report.headline`), in
/// every place the report names it: `{p}` stands for the headline percentile ("p95").
#[derive(Debug, Serialize)]
pub struct MetricWords {
    /// The headline section's heading and its table's title.
    pub heading: &'static str,
    /// What the headline table shows, with the direction that is better.
    pub caption: &'static str,
    /// The metric in running text and headers: "{p}", "requests/s".
    pub label: &'static str,
    /// The unit after the label in a caption (" (ms)"), empty when the values carry their own.
    pub unit: &'static str,
    /// A column header with the unit: "{name} (ms)".
    pub in_unit: &'static str,
    /// What picks a condition's representative run, in the charts' key.
    pub representative_by: &'static str,
    /// The condition whose representative run the report's time series shows: the worst one.
    pub worst: &'static str,
    /// The headline chart's title and y axis.
    pub chart_title: &'static str,
    pub chart_axis: &'static str,
    /// The headline chart's y axis on a linear scale.
    pub chart_axis_linear: &'static str,
    /// A headline value in a chart mark's title: "{p} = {value}", "{value} requests/s".
    pub mark_value: &'static str,
    /// Values of 0 on the headline chart's log axis; for latency the charts' own note.
    pub floor_note: Option<&'static str>,
    /// What a value of this metric leaves out (or takes in) for a condition that fails, before
    /// its share: "successful sessions only".
    pub excludes: &'static str,
    /// A value of this metric beside another's in a cell or sentence: "{value} failed", "{p} {value}".
    pub beside: &'static str,
}

/// The words of `metric` in `lang`.
pub fn metric_words(lang: Lang, metric: crate::model::HeadlineMetric) -> &'static MetricWords {
    use crate::model::HeadlineMetric::*;
    let words = match lang {
        Lang::En => &METRIC_EN,
        Lang::Ja => &METRIC_JA,
    };
    match metric {
        Percentile => &words[0],
        RequestsPerS => &words[1],
        ErrorRate => &words[2],
        FailedShare => &words[3],
        SessionMeanMs => &words[4],
    }
}

static METRIC_EN: [MetricWords; 5] = [
    MetricWords {
        heading: "Latency by condition",
        caption: "median of the runs' {p}, with the min-max range (ms)",
        label: "{p}",
        unit: " (ms)",
        in_unit: "{name} (ms)",
        representative_by: "headline percentile",
        worst: "the slowest condition",
        chart_title: "{p} latency by condition",
        chart_axis: "{p} latency (ms, log scale)",
        chart_axis_linear: "{p} latency (ms)",
        mark_value: "{p} = {value}",
        floor_note: None,
        excludes: "2xx responses only",
        beside: "{p} {value}",
    },
    MetricWords {
        heading: "Requests/s by condition",
        caption: "median of the runs' requests/s, with the min-max range; higher is better",
        label: "requests/s",
        unit: "",
        in_unit: "{name} (requests/s)",
        representative_by: "requests/s",
        worst: "the condition with the fewest requests/s",
        chart_title: "Requests/s by condition",
        chart_axis: "Requests/s (log scale)",
        chart_axis_linear: "Requests/s",
        mark_value: "{value} requests/s",
        floor_note: Some("▽ marks a value of 0 requests/s, drawn at the bottom edge: a log scale has no place for 0."),
        excludes: "error responses counted too",
        beside: "{value} requests/s",
    },
    MetricWords {
        heading: "Error rate by condition",
        caption: "median of the runs' error rate, with the min-max range; lower is better",
        label: "error rate",
        unit: " (%)",
        in_unit: "{name} (%)",
        representative_by: "error rate",
        worst: "the condition with the highest error rate",
        chart_title: "Error rate by condition",
        chart_axis: "Error rate (%, log scale)",
        chart_axis_linear: "Error rate (%)",
        mark_value: "error rate {value}",
        floor_note: Some("▽ marks an error rate of 0, drawn at the bottom edge: a log scale has no place for 0."),
        excludes: "above the threshold",
        beside: "{value} errors",
    },
    MetricWords {
        heading: "Failed sessions by condition",
        caption: "median of the runs' share of failed sessions, with the min-max range; lower is better",
        label: "share of failed sessions",
        unit: " (%)",
        in_unit: "{name} (%)",
        representative_by: "share of failed sessions",
        worst: "the condition with the most failed sessions",
        chart_title: "Failed sessions by condition",
        chart_axis: "Failed sessions (%, log scale)",
        chart_axis_linear: "Failed sessions (%)",
        mark_value: "{value} of sessions failed",
        floor_note: Some("▽ marks a share of 0, drawn at the bottom edge: a log scale has no place for 0."),
        excludes: "above the threshold",
        beside: "{value} failed",
    },
    MetricWords {
        heading: "Session time by condition",
        caption: "median of the runs' mean time of the sessions that succeeded, with the min-max range (ms); lower is better",
        label: "mean session time",
        unit: " (ms)",
        in_unit: "{name} (ms)",
        representative_by: "mean session time",
        worst: "the condition with the longest mean session time",
        chart_title: "Mean session time by condition",
        chart_axis: "Mean session time (ms, log scale)",
        chart_axis_linear: "Mean session time (ms)",
        mark_value: "mean session time {value}",
        floor_note: None,
        excludes: "successful sessions only",
        beside: "mean session {value}",
    },
];

static METRIC_JA: [MetricWords; 5] = [
    MetricWords {
        heading: "条件別の応答時間",
        caption: "各測定の{p}の中央値と最小〜最大の範囲（ms）",
        label: "{p}",
        unit: "（ms）",
        in_unit: "{name}（ms）",
        representative_by: "主指標のパーセンタイル",
        worst: "最も遅い条件",
        chart_title: "条件別の応答時間 {p}",
        chart_axis: "応答時間 {p}（ms、対数目盛）",
        chart_axis_linear: "応答時間 {p}（ms）",
        mark_value: "{p} = {value}",
        floor_note: None,
        excludes: "2xx応答のみ",
        beside: "{p} {value}",
    },
    MetricWords {
        heading: "条件別の毎秒リクエスト数",
        caption: "各測定の毎秒リクエスト数の中央値と最小〜最大の範囲。大きいほど良い",
        label: "毎秒リクエスト数",
        unit: "",
        in_unit: "{name}（毎秒リクエスト数）",
        representative_by: "毎秒リクエスト数",
        worst: "毎秒リクエスト数が最も少ない条件",
        chart_title: "条件別の毎秒リクエスト数",
        chart_axis: "毎秒リクエスト数（対数目盛）",
        chart_axis_linear: "毎秒リクエスト数",
        mark_value: "毎秒{value}リクエスト",
        floor_note: Some("▽は毎秒0リクエストの値です。対数目盛には0の位置がないため、下端に描いています。"),
        excludes: "エラー応答も数える",
        beside: "毎秒{value}リクエスト",
    },
    MetricWords {
        heading: "条件別のエラー率",
        caption: "各測定のエラー率の中央値と最小〜最大の範囲。小さいほど良い",
        label: "エラー率",
        unit: "（%）",
        in_unit: "{name}（%）",
        representative_by: "エラー率",
        worst: "エラー率が最も高い条件",
        chart_title: "条件別のエラー率",
        chart_axis: "エラー率（%、対数目盛）",
        chart_axis_linear: "エラー率（%）",
        mark_value: "エラー率{value}",
        floor_note: Some("▽はエラー率0の値です。対数目盛には0の位置がないため、下端に描いています。"),
        excludes: "閾値を超える",
        beside: "エラー{value}",
    },
    MetricWords {
        heading: "条件別のセッション失敗率",
        caption: "各測定のセッション失敗率の中央値と最小〜最大の範囲。小さいほど良い",
        label: "セッション失敗率",
        unit: "（%）",
        in_unit: "{name}（%）",
        representative_by: "セッション失敗率",
        worst: "セッション失敗率が最も高い条件",
        chart_title: "条件別のセッション失敗率",
        chart_axis: "セッション失敗率（%、対数目盛）",
        chart_axis_linear: "セッション失敗率（%）",
        mark_value: "セッション失敗率{value}",
        floor_note: Some("▽は失敗率0の値です。対数目盛には0の位置がないため、下端に描いています。"),
        excludes: "閾値を超える",
        beside: "失敗{value}",
    },
    MetricWords {
        heading: "条件別のセッション時間",
        caption: "各測定の、成功したセッションの平均時間の中央値と最小〜最大の範囲（ms）。小さいほど良い",
        label: "平均セッション時間",
        unit: "（ms）",
        in_unit: "{name}（ms）",
        representative_by: "平均セッション時間",
        worst: "平均セッション時間が最も長い条件",
        chart_title: "条件別の平均セッション時間",
        chart_axis: "平均セッション時間（ms、対数目盛）",
        chart_axis_linear: "平均セッション時間（ms）",
        mark_value: "平均セッション時間{value}",
        floor_note: None,
        excludes: "成功したセッションのみ",
        beside: "平均セッション時間{value}",
    },
];

/// The words of imported runs: a tool's own numbers set beside ours, and each tool's rank rule.
/// Kept apart from [`Strings`] so that the glossary of the report's own terms stays one table.
#[derive(Debug, Serialize)]
pub struct ToolWords {
    pub section: &'static str,
    pub imported_from: &'static str,
    pub tool_value: &'static str,
    pub tool_rank: &'static str,
    pub nearest_value: &'static str,
    pub nearest_rank: &'static str,
    pub requests_per_s: &'static str,
    pub error_rate: &'static str,
    pub mean_ms: &'static str,
    /// Row labels of the tool's min, mean and max.
    pub min_mean_max: [&'static str; 3],
    pub printed_by_tool: &'static str,
    /// A run imported without per-request rows: its counts are the tool's.
    pub counted_by_tool: &'static str,
    pub counted_by_tool_short: &'static str,
    pub errors_not_counted: &'static str,
    /// The run page's last note: what the tool printed, `{list}`.
    pub printed_note: &'static str,
    /// `{tool}` ranks by `{rule}`.
    pub explains: &'static str,
    pub differs: &'static str,
    /// Why a tool's value differs from ours, one sentence per cause, computed from the run.
    pub rank_cause: &'static str,
    pub rank_cause_item: &'static str,
    pub rounded_cause: &'static str,
    pub resolution_cause: &'static str,
    pub interpolated_cause: &'static str,
    pub interpolated_agrees: &'static str,
    pub interpolated_differs: &'static str,
    pub approximate_cause: &'static str,
    /// The tool's requests/s beside the rows', and why they differ.
    pub rate_compared: &'static str,
    pub sends_whole_seconds: &'static str,
    pub sends_missing: &'static str,
    pub sends_recorded: &'static str,
    pub same: &'static str,
    pub no_rows: &'static str,
    pub tools_heading: &'static str,
    pub tools_caption: &'static str,
    pub tool: &'static str,
    pub rule: &'static str,
    pub ours: &'static str,
    pub theirs: &'static str,
    pub throughput_method: &'static str,
    /// After `throughput_method` when dataset.toml takes the tool's figures.
    pub throughput_tool_method: &'static str,
    /// After `throughput_method` when a run's rows time their sends too coarsely for its span.
    pub coarse_sends_method: &'static str,
    /// The run page's requests/s when the rows cannot give one and the tool printed none:
    /// `{step}` is the resolution of the rows' send times, `{span}` the run's span in s.
    pub rate_withheld: &'static str,
    pub rate_withheld_no_sends: &'static str,
    /// In place of `{tool}` when the run's files do not name their tool.
    pub unnamed_tool: &'static str,
}

pub fn tool_words(lang: Lang) -> &'static ToolWords {
    match lang {
        Lang::En => &TOOL_EN,
        Lang::Ja => &TOOL_JA,
    }
}

/// The words of the ranking rules (`model::Rule`): each rule's short name for a table cell (in
/// English its key, as run_stats.csv writes it) and how it picks a percentile, in words.
#[derive(Debug, Serialize)]
pub struct RuleWords {
    pub nearest_rank_label: &'static str,
    pub nearest_rank_text: &'static str,
    pub floor_plus_one_label: &'static str,
    pub floor_plus_one_text: &'static str,
    pub rounded_plus_one_label: &'static str,
    pub rounded_plus_one_text: &'static str,
    pub hdr_histogram_label: &'static str,
    pub hdr_histogram_text: &'static str,
    pub hdr_histogram_rounded_label: &'static str,
    pub hdr_histogram_rounded_text: &'static str,
    pub dd_sketch_label: &'static str,
    pub dd_sketch_text: &'static str,
    pub nearest_rank_plus_one_label: &'static str,
    pub nearest_rank_plus_one_text: &'static str,
    pub rounded_buckets_label: &'static str,
    pub rounded_buckets_text: &'static str,
    pub interpolated_label: &'static str,
    pub interpolated_text: &'static str,
    pub approximate_label: &'static str,
    pub approximate_text: &'static str,
    pub no_percentiles_label: &'static str,
    pub no_percentiles_text: &'static str,
}

pub fn rule_words(lang: Lang) -> &'static RuleWords {
    match lang {
        Lang::En => &RULE_EN,
        Lang::Ja => &RULE_JA,
    }
}

/// A rule's short name for a table cell: its key in English, a Japanese name in Japanese.
pub fn rule_label(rule: crate::model::Rule, lang: Lang) -> &'static str {
    rule_words_of(rule, lang).0
}

/// How a rule picks a percentile, in words.
pub fn rule_text(rule: crate::model::Rule, lang: Lang) -> &'static str {
    rule_words_of(rule, lang).1
}

/// A rule's label and text in `lang`.
fn rule_words_of(rule: crate::model::Rule, lang: Lang) -> (&'static str, &'static str) {
    use crate::model::Rule::*;
    let w = rule_words(lang);
    match rule {
        NearestRank => (w.nearest_rank_label, w.nearest_rank_text),
        FloorPlusOne => (w.floor_plus_one_label, w.floor_plus_one_text),
        RoundedPlusOne => (w.rounded_plus_one_label, w.rounded_plus_one_text),
        HdrHistogram => (w.hdr_histogram_label, w.hdr_histogram_text),
        HdrHistogramRounded => (w.hdr_histogram_rounded_label, w.hdr_histogram_rounded_text),
        DdSketch => (w.dd_sketch_label, w.dd_sketch_text),
        NearestRankPlusOne => (w.nearest_rank_plus_one_label, w.nearest_rank_plus_one_text),
        RoundedBuckets => (w.rounded_buckets_label, w.rounded_buckets_text),
        Interpolated => (w.interpolated_label, w.interpolated_text),
        Approximate => (w.approximate_label, w.approximate_text),
        NoPercentiles => (w.no_percentiles_label, w.no_percentiles_text),
    }
}

static RULE_EN: RuleWords = RuleWords {
    nearest_rank_label: "nearest-rank",
    nearest_rank_text: "the nearest rank ceil(p·n/100)",
    floor_plus_one_label: "floor-plus-one",
    floor_plus_one_text: "rank floor(p·n/100)+1",
    rounded_plus_one_label: "rounded-plus-one",
    rounded_plus_one_text: "rank round(p·n/100)+1, halves rounded up",
    hdr_histogram_label: "hdr-histogram",
    hdr_histogram_text: "HdrHistogram's value at percentile: the nearest rank ceil(p·n/100), read as the highest value of its bucket (exact to the histogram's precision)",
    hdr_histogram_rounded_label: "hdr-histogram-rounded",
    hdr_histogram_rounded_text: "HdrHistogram's C library (wrk2): rank round(p·n/100), read as the highest value of its bucket (exact to the histogram's precision)",
    dd_sketch_label: "ddsketch",
    dd_sketch_text: "a DDSketch estimate: the 1 %-wide bucket holding rank floor(q·(n-1))+1, so within 1 % of that value",
    nearest_rank_plus_one_label: "nearest-rank-plus-one",
    nearest_rank_plus_one_text: "rank ceil(p·n/100)+1, one above the nearest rank",
    rounded_buckets_label: "rounded-buckets",
    rounded_buckets_text: "latencies rounded into buckets (whole ms below 100 ms, 10 ms below 1 s), then rank floor(p·n/100)+1",
    interpolated_label: "interpolated",
    interpolated_text: "linear interpolation between two ranks",
    approximate_label: "approximate",
    approximate_text: "an approximate estimator",
    no_percentiles_label: "no-percentiles",
    no_percentiles_text: "no percentile (it prints min, mean and max only)",
};

static RULE_JA: RuleWords = RuleWords {
    nearest_rank_label: "最近接順位",
    nearest_rank_text: "最近接順位 ceil(p·n/100)",
    floor_plus_one_label: "切り捨て＋1",
    floor_plus_one_text: "順位 floor(p·n/100)+1",
    rounded_plus_one_label: "四捨五入＋1",
    rounded_plus_one_text: "順位 round(p·n/100)+1（0.5は切り上げ）",
    hdr_histogram_label: "HdrHistogram",
    hdr_histogram_text: "HdrHistogramのパーセンタイル値：最近接順位 ceil(p·n/100) のバケットの最大値（ヒストグラムの精度まで正確）",
    hdr_histogram_rounded_label: "HdrHistogram（丸め）",
    hdr_histogram_rounded_text: "HdrHistogramのCライブラリ（wrk2）：順位 round(p·n/100) のバケットの最大値（ヒストグラムの精度まで正確）",
    dd_sketch_label: "DDSketch",
    dd_sketch_text: "DDSketchによる推定：順位 floor(q·(n-1))+1 を含む幅1 %のバケットの代表値（その値の1 %以内）",
    nearest_rank_plus_one_label: "最近接順位＋1",
    nearest_rank_plus_one_text: "順位 ceil(p·n/100)+1（最近接順位の一つ上）",
    rounded_buckets_label: "丸めたバケット",
    rounded_buckets_text: "応答時間をバケットに丸めてから（100 ms未満は1 ms単位、1 s未満は10 ms単位）順位 floor(p·n/100)+1",
    interpolated_label: "補間",
    interpolated_text: "二つの順位の間の線形補間",
    approximate_label: "近似",
    approximate_text: "近似推定",
    no_percentiles_label: "パーセンタイルなし",
    no_percentiles_text: "パーセンタイルなし（最小・平均・最大のみ）",
};

static TOOL_EN: ToolWords = ToolWords {
    section: "The tool's own numbers beside ours",
    imported_from: "Imported from",
    tool_value: "{tool} (ms)",
    tool_rank: "{tool}'s rank",
    nearest_value: "Nearest rank (ms)",
    nearest_rank: "Its rank",
    requests_per_s: "Requests/s",
    error_rate: "Error rate",
    mean_ms: "Mean time per request (ms)",
    min_mean_max: ["min", "mean", "max"],
    printed_by_tool: "printed by {tool}",
    counted_by_tool: "as {tool} counted them: the run has no per-request rows",
    counted_by_tool_short: "as {tool} counted them",
    errors_not_counted: "not known: {tool}'s output does not count failed requests",
    printed_note: "Printed by {tool}: {list}",
    explains: "{tool} ranks by {rule}; this report takes the nearest rank ceil(p·n/100) of the 2xx latencies.",
    differs: "Where the two differ, the rules took different ranks, or {tool} rounded its values (see the run's note).",
    rank_cause: "{tool} took another rank than the nearest rank at {list}.",
    rank_cause_item: "{p} ({theirs}, where the nearest rank is {ours})",
    rounded_cause: "At {list} both take the same rank, yet the values differ: {tool} rounds the times before ranking them.",
    resolution_cause: "At {list} both take the same rank, yet the values differ: the rows hold the times at another resolution than {tool}'s own numbers (see the run's note).",
    interpolated_cause: "{tool} interpolates: at {p} it reads {fraction} of the way from {lower} value ({lower_ms} ms) to {upper} ({upper_ms} ms), which gives {value} ms from the rows{verdict}.",
    interpolated_agrees: ", as {tool} printed",
    interpolated_differs: "; {tool} printed {theirs} ms",
    approximate_cause: "{tool} estimates its percentiles approximately, so its values need not be the value of any rank.",
    rate_compared: "{tool} printed {theirs} requests/s: {requests} requests over the {tool_span} s it timed. From the rows, {ours}: {responses} responses over {rows_span} s from the first send to the last completion.",
    sends_whole_seconds: "The rows give send times to the whole second, so their span can be off by up to a second: here by {diff} s.",
    sends_missing: "The rows carry no send times (every request is recorded as sent at 0), so their span is only the slowest response and the requests/s from the rows says nothing about the run.",
    sends_recorded: "The two count differently: {tool} from its own start to its end, the rows from the first send to the last completion.",
    same: "At every percentile both give the same value.",
    no_rows: "This run has no rows, only the numbers {tool} printed: there is no nearest-rank value to set beside them.",
    tools_heading: "Tools compared",
    tools_caption: "{p} of each imported run: by the nearest rank over its rows, and as the tool printed it by its own rule (ms; * = requests/s printed by the tool)",
    tool: "Tool",
    rule: "Tool's rule",
    ours: "{p}, nearest rank",
    theirs: "{p}, by the tool",
    throughput_method: "Requests/s of a run with rows: its responses (any status) over the span from its first send to its last completion (send + latency); of a run without rows, the tool's printed figure, marked as such. Error rate: requests without a 2xx response over all requests.",
    throughput_tool_method: "In this dataset all three come from the tool's printed figures wherever it printed them (dataset.toml: report.throughput_from = \"tool\"), because its rows time the sends more coarsely than the tool timed the run.",
    coarse_sends_method: "A run whose rows time their sends less than 100 times finer than the span of the run (ab -g's whole seconds over a run of a few seconds) takes the tool's printed requests/s instead, marked as such, or has none: such a span can be off by a whole step.",
    rate_withheld: "not computed: the rows time their sends to {step}, too coarse for a run of {span} s (a rate from rows needs sends timed 100 times finer than the run), and the tool printed none",
    rate_withheld_no_sends: "not computed: the rows carry no send times, and the tool printed none",
    unnamed_tool: "tool",
};

static TOOL_JA: ToolWords = ToolWords {
    section: "ツールの表示値と本レポートの計算値",
    imported_from: "取り込み元",
    tool_value: "{tool}（ms）",
    tool_rank: "{tool}の順位",
    nearest_value: "最近接順位法（ms）",
    nearest_rank: "その順位",
    requests_per_s: "毎秒リクエスト数",
    error_rate: "エラー率",
    mean_ms: "1リクエストの平均時間（ms）",
    min_mean_max: ["最小", "平均", "最大"],
    printed_by_tool: "{tool}の表示値",
    counted_by_tool: "{tool}の集計値。リクエストごとの行はありません",
    counted_by_tool_short: "{tool}の集計値",
    errors_not_counted: "不明（{tool}の出力は失敗したリクエストを数えません）",
    printed_note: "{tool}の表示値：{list}",
    explains: "{tool}の順位の取り方は{rule}です。本レポートは2xx応答時間の最近接順位 ceil(p·n/100) を取ります。",
    differs: "値が異なるのは、取った順位が違うか、{tool}が値を丸めているためです（測定の備考を参照）。",
    rank_cause: "{tool}は{list}で最近接順位と異なる順位を取っています。",
    rank_cause_item: "{p}（{theirs}。最近接順位は{ours}）",
    rounded_cause: "{list}では順位は同じですが値が異なります。{tool}は順位を取る前に時間を丸めているためです。",
    resolution_cause: "{list}では順位は同じですが値が異なります。行の時間の精度が{tool}自身の数値と異なるためです（測定の備考を参照）。",
    interpolated_cause: "{tool}は補間します。{p}では{lower}の値（{lower_ms} ms）から{upper}の値（{upper_ms} ms）へ{fraction}進んだ位置を読み、行からは{value} msになります{verdict}。",
    interpolated_agrees: "（{tool}の表示値と一致）",
    interpolated_differs: "（{tool}の表示値は{theirs} ms）",
    approximate_cause: "{tool}はパーセンタイルを近似で推定するため、その値はどの順位の値とも一致するとは限りません。",
    rate_compared: "{tool}の表示値は毎秒{theirs}リクエスト（{tool}が計測した{tool_span}秒間に{requests}件）。行から求めると毎秒{ours}リクエスト（最初の送信から最後の完了までの{rows_span}秒間に{responses}件の応答）です。",
    sends_whole_seconds: "行の送信時刻は秒単位のため、その時間は最大1秒ずれます（ここでは{diff}秒）。",
    sends_missing: "行には送信時刻がなく（すべて0に送信したと記録）、その時間は最も遅い応答の時間にすぎないため、行からの毎秒リクエスト数は測定について何も示しません。",
    sends_recorded: "数え方が異なります。{tool}は自身の開始から終了まで、行は最初の送信から最後の完了までを数えます。",
    same: "すべてのパーセンタイルで値が一致します。",
    no_rows: "この測定には行がなく、{tool}の表示値だけがあります。並べる最近接順位の値はありません。",
    tools_heading: "ツールの比較",
    tools_caption: "取り込んだ各測定の{p}：行に対する最近接順位と、ツール自身の規則による表示値（ms。* はツールが表示した毎秒リクエスト数）",
    tool: "ツール",
    rule: "ツールの規則",
    ours: "{p}（最近接順位）",
    theirs: "{p}（ツールの値）",
    throughput_method: "行のある測定の毎秒リクエスト数は、応答（状態を問わない）の数を最初の送信から最後の完了（送信＋応答時間）までの時間で割った値です。行のない測定ではツールの表示値を使い、その旨を示します。エラー率は2xx応答のなかったリクエストの割合です。",
    throughput_tool_method: "このデータセットでは、ツールが数値を表示した測定はすべて、3つともツールの表示値を使います（dataset.tomlの report.throughput_from = \"tool\"）。行の送信時刻が、ツール自身の計測時間より粗いためです。",
    coarse_sends_method: "行の送信時刻の精度が測定の時間の100分の1より粗い測定（数秒の測定に対するab -gの秒単位など）は、代わりにツールが表示した毎秒リクエスト数を使って表示値と明記するか、値を出しません。そのような時間は1刻み分ずれうるためです。",
    rate_withheld: "算出せず：行の送信時刻は{step}単位で、{span}秒の測定には粗すぎます（行から求めるには測定の時間より100倍細かい送信時刻が必要）。ツールの表示値もありません",
    rate_withheld_no_sends: "算出せず：行に送信時刻がなく、ツールの表示値もありません",
    unnamed_tool: "ツール",
};

#[cfg(test)]
mod tests {
    use super::fill;

    #[test]
    fn fill_puts_each_value_in_its_place_once() {
        assert_eq!(fill("{shown} of {total} drawn", &[("total", "3,000"), ("shown", "2,400")]), "2,400 of 3,000 drawn");
        assert_eq!(fill("run {run}: {value}", &[("run", "{value}"), ("value", "12 ms")]), "run {value}: 12 ms");
        assert_eq!(fill("{a} {missing} {} {", &[("a", "1")]), "1 {missing} {} {");
        assert_eq!(fill("応答時間の推移：{run}", &[("run", "測定r1")]), "応答時間の推移：測定r1");
    }

    /// run_stats.csv writes a rule by its key, and the English table cell shows that key.
    #[test]
    fn english_rule_labels_are_the_keys_run_stats_writes() {
        for rule in crate::model::Rule::ALL {
            assert_eq!(super::rule_label(rule, super::Lang::En), rule.name());
        }
        assert_eq!(super::rule_label(crate::model::Rule::FloorPlusOne, super::Lang::Ja), "切り捨て＋1");
        assert_eq!(super::rule_text(crate::model::Rule::Interpolated, super::Lang::En), "linear interpolation between two ranks");
    }
}
