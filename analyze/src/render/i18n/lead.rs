//! The words of what a report finds: the lead under its title (how conditions are compared,
//! which fail, which is best), the notes on a failing condition's values, and the table of CPU
//! and memory per condition. Kept apart from [`super::Strings`] like the tools' words; the
//! glossary test holds them to the same terms.

use crate::model::{HeadlineMetric, Lang, Oriented};
use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct LeadWords {
    /// The lead's first sentence: "{metric}", "{direction}" and "{scope}".
    pub compared_by: &'static str,
    /// The scope of the comparison: the series at each level of x, the levels of the compared
    /// factor, or every condition at once.
    pub scope_series: &'static str,
    pub scope_factor: &'static str,
    /// The compared factor is the only one whose level varies (a sweep of one factor).
    pub scope_factor_alone: &'static str,
    pub scope_all: &'static str,
    pub higher_better: &'static str,
    pub lower_better: &'static str,
    /// Said once when some condition fails: why it is not ranked.
    pub threshold_rule: &'static str,
    /// One group's findings: "{group}" and "{findings}", or the findings alone.
    pub group_line: &'static str,
    pub group_line_alone: &'static str,
    /// Between the findings of one group.
    pub findings_sep: &'static str,
    /// A failing condition: "{condition}" and its "{share}".
    pub failed_sessions: &'static str,
    pub failed_requests: &'static str,
    /// After the failing conditions of a group.
    pub not_ranked: &'static str,
    /// The best, the next and the worst of a group: "{condition}" and its "{value}", then, for the
    /// next and the worst, the variance review's verdict on its gap from the best. A supported gap
    /// says its basis, the ratio of the runs' geometric means ("{factor}", at least 1), and its 95%
    /// "{interval}": the medians beside it need not give the same ratio.
    pub best: &'static str,
    pub next: &'static str,
    pub worst: &'static str,
    pub verdict_supported: &'static str,
    pub verdict_negligible: &'static str,
    pub verdict_not_shown: &'static str,
    pub verdict_one_run: &'static str,
    pub verdict_not_compared: &'static str,
    /// Between the notes in parentheses after a value.
    pub note_sep: &'static str,
    /// Between a condition's name and its value in a list: ", " / "は".
    pub name_sep: &'static str,
    /// When no group the study compares has two conditions: why none is ranked, then each
    /// condition with its value.
    pub none_compared: &'static str,
    pub only_ranked: &'static str,
    pub none_ranked: &'static str,
    /// The group line when no condition is ranked because every one has only its tools' printed
    /// summaries, not the rows the headline percentile is taken from.
    pub none_ranked_summaries: &'static str,
    /// In a failing condition's cell: what its value leaves out, and its share.
    pub failing_sessions_cell: &'static str,
    pub failing_requests_cell: &'static str,
    /// The headline heading and caption when metrics stand beside the headline value.
    pub heading_beside: &'static str,
    pub caption_beside: &'static str,
    /// The CPU and memory table.
    pub resources_table: &'static str,
    pub resources_caption: &'static str,
    /// The headline chart's key for failing conditions: "{threshold}".
    pub chart_failing_key: &'static str,
    /// The condition the time-series chart shows when some condition fails.
    pub worst_failing: &'static str,
}

pub fn lead_words(lang: Lang) -> &'static LeadWords {
    match lang {
        Lang::En => &EN,
        Lang::Ja => &JA,
    }
}

static EN: LeadWords = LeadWords {
    compared_by: "Conditions compared by {metric} ({direction}){scope}.",
    scope_series: " at each level of {x}",
    scope_factor: " across the levels of {factor}, the other factors alike",
    scope_factor_alone: " across the levels of {factor}",
    scope_all: "",
    higher_better: "higher is better",
    lower_better: "lower is better",
    threshold_rule: "A condition is not ranked when more than {threshold} of its sessions failed or of its requests got no 2xx response: its latencies then describe only what succeeded.",
    group_line: "{group}: {findings}.",
    group_line_alone: "{findings}.",
    findings_sep: "; ",
    failed_sessions: "{condition} failed {share} of its sessions",
    failed_requests: "{condition} got no 2xx response to {share} of its requests",
    not_ranked: " (not ranked)",
    best: "best {condition}, {value}",
    next: "next {condition}, {value}",
    worst: "worst {condition}, {value}",
    verdict_supported: "{factor}× apart from the best as geometric means of runs, 95% interval {interval}×, supported by the runs",
    verdict_negligible: "a negligible gap from the best, within {threshold}",
    verdict_not_shown: "a gap from the best these runs cannot tell from chance",
    verdict_one_run: "one run each: no verdict",
    verdict_not_compared: "the variance review does not pair it with the best",
    note_sep: "; ",
    name_sep: ", ",
    none_compared: "Each condition stands alone: the study compares no two of them, so none is ranked. By {metric}:",
    only_ranked: "only {condition} is ranked, {value}",
    none_ranked: "no condition is ranked",
    none_ranked_summaries: "no condition is ranked by {metric}: its runs hold only their tools' summaries, not the rows {metric} is taken from (requests/s ranks them: headline = \"requests_per_s\" in dataset.toml's [report])",
    failing_sessions_cell: "{excludes}; {share} of sessions failed (median of runs)",
    failing_requests_cell: "{excludes}; {share} of requests failed (median of runs)",
    heading_beside: "By condition: {list}",
    caption_beside: "; beside it, the median of the runs' {list}",
    resources_table: "CPU and memory by condition",
    resources_caption: "per condition and process group: the median over its ok runs of each run's average CPU and peak RSS, with the min-max range",
    chart_failing_key: "A hollow marker with its share beside it: more than {threshold} of that condition failed, so its value covers only what succeeded.",
    worst_failing: "the condition with the largest share failed",
};

static JA: LeadWords = LeadWords {
    compared_by: "{scope}{metric}で比較（{direction}）。",
    scope_series: "{x}の水準ごとに、条件を",
    scope_factor: "ほかの因子が同じ条件の間で、{factor}の水準を",
    scope_factor_alone: "{factor}の水準を",
    scope_all: "条件を",
    higher_better: "大きいほど良い",
    lower_better: "小さいほど良い",
    threshold_rule: "セッションの{threshold}超が失敗した条件、またはリクエストの{threshold}超が2xx応答を得られなかった条件には順位を付けません。その応答時間は成功した分だけを表すためです。",
    group_line: "{group}：{findings}。",
    group_line_alone: "{findings}。",
    findings_sep: "。",
    failed_sessions: "{condition}はセッションの{share}が失敗",
    failed_requests: "{condition}はリクエストの{share}が2xx応答なし",
    not_ranked: "（順位なし）",
    best: "最良は{condition}の{value}",
    next: "次は{condition}の{value}",
    worst: "最も悪いのは{condition}の{value}",
    verdict_supported: "最良との差は各測定の幾何平均で{factor}倍、95%区間は{interval}倍、測定で裏付けあり",
    verdict_negligible: "最良との差は実質なし（{threshold}以内）",
    verdict_not_shown: "最良との差はこの測定では偶然と区別できない",
    verdict_one_run: "各1回の測定のため判定なし",
    verdict_not_compared: "ばらつきの確認では最良と比較していない",
    note_sep: "、",
    name_sep: "は",
    none_compared: "どの条件もほかと比較する組がなく、順位は付けません。{metric}は次のとおりです。",
    only_ranked: "順位が付くのは{condition}の{value}のみ",
    none_ranked: "順位の付く条件はない",
    none_ranked_summaries: "どの条件にも{metric}による順位は付かない。どの測定もツールの集計値だけで、{metric}を求める行がないため（毎秒リクエスト数なら順位が付く：dataset.tomlの[report]にheadline = \"requests_per_s\"）",
    failing_sessions_cell: "{excludes}。セッションの{share}が失敗（回の中央値）",
    failing_requests_cell: "{excludes}。リクエストの{share}が失敗（回の中央値）",
    heading_beside: "条件別：{list}",
    caption_beside: "。併記は各測定の{list}の中央値",
    resources_table: "条件別のCPUとメモリ",
    resources_caption: "条件とプロセスグループごとに、正常に終わった各測定の平均CPUと最大RSSの中央値と最小〜最大の範囲",
    chart_failing_key: "白抜きの印と横の割合：その条件の{threshold}超が失敗しており、値は成功した分だけを表します。",
    worst_failing: "失敗の割合が最も大きい条件",
};

/// The words of a paired verdict within rounds (`report::review::PairedComparison`): the lead's
/// line and the variance review's paragraph. One home for both, so they say the same.
#[derive(Debug, Serialize)]
pub struct PairedWords {
    /// The lead's line: "{b}" vs "{a}", "{change}" (`slower`... with the factor), "{interval}", "{verdict}", "{rounds}".
    pub line: &'static str,
    /// "×{factor} slower": the change of b against a, as a factor of at least 1, by what the headline
    /// measures; the lead's paired line, the review's paragraph and its comparisons table say it so.
    pub slower: &'static str,
    pub faster: &'static str,
    pub higher: &'static str,
    pub lower: &'static str,
    pub supported: &'static str,
    /// "{threshold}".
    pub negligible: &'static str,
    pub not_shown: &'static str,
    /// After `not_shown`: "{detectable}", the smallest change these rounds detect at 80% power.
    pub detectable_only: &'static str,
    /// Below 6 rounds: "{rounds}" and "{floor}" (2/2^rounds).
    pub too_few: &'static str,
    /// The variance review's paragraph: "{b}", "{a}", "{change}" (b against a, as `slower`...),
    /// "{interval}" (turned the same way), "{rounds}",
    /// "{p_t}", "{p_perm}", "{floor}", "{verdict}".
    pub review: &'static str,
    /// After it: "{drift}" (the SD both shared round to round) and "{narrower}" (how many times narrower).
    pub review_drift: &'static str,
    /// Or, when the rounds shared no drift.
    pub review_no_drift: &'static str,
    /// "{detectable}" and "{rounds_5}" (the rounds that would detect 5%).
    pub review_detectable: &'static str,
}

pub fn paired_words(lang: Lang) -> &'static PairedWords {
    match lang {
        Lang::En => &PAIRED_EN,
        Lang::Ja => &PAIRED_JA,
    }
}

static PAIRED_EN: PairedWords = PairedWords {
    line: "{b} vs {a}: {change} ({interval}), {verdict}; paired over {rounds} rounds.",
    slower: "×{factor} slower",
    faster: "×{factor} faster",
    higher: "×{factor} higher",
    lower: "×{factor} lower",
    supported: "supported",
    negligible: "a negligible difference, within {threshold}",
    not_shown: "not told from chance",
    detectable_only: " (only a change beyond ×{detectable} was detectable)",
    too_few: "no verdict: swapping the two within {rounds} rounds cannot give a p below {floor}, so 6 rounds are the fewest that decide",
    review: "Paired within rounds, {b} vs {a}: {change} ({interval}) over {rounds} rounds; p {p_t} by t on the rounds' log ratios, {p_perm} by swapping the two within rounds (the smallest {rounds} rounds allow: {floor}); {verdict}.",
    review_drift: " The rounds drifted by {drift} (standard deviation) alike for both, which the pairing removed: its interval is {narrower}× narrower than the same rounds' unpaired one.",
    review_no_drift: " The rounds shared no drift for the pairing to remove.",
    review_detectable: " At 80% power these rounds detect a change beyond ×{detectable}; {rounds_5} rounds would detect 5%.",
};

static PAIRED_JA: PairedWords = PairedWords {
    line: "{b}対{a}：{change}（{interval}）、{verdict}（{rounds}ラウンドの対比較）。",
    slower: "{factor}倍遅い",
    faster: "{factor}倍速い",
    higher: "{factor}倍高い",
    lower: "{factor}倍低い",
    supported: "測定で裏付けあり",
    negligible: "差は実質なし（{threshold}以内）",
    not_shown: "偶然と区別できない",
    detectable_only: "（検出できたのは{detectable}倍を超える変化のみ）",
    too_few: "判定なし：{rounds}ラウンドでは、ラウンド内で二つを入れ替える検定のpが{floor}を下回らないため、判定には6ラウンド以上が必要",
    review: "ラウンド内の対比較、{b}対{a}：{rounds}ラウンドで{change}（{interval}）。各ラウンドの対数比のt検定でp {p_t}、ラウンド内で二つを入れ替える並べ替え検定でp {p_perm}（{rounds}ラウンドで取りうる最小は{floor}）。{verdict}。",
    review_drift: "ラウンド間で両者に共通する{drift}（標準偏差）の変動があり、対比較がこれを除いたため、区間は同じラウンドを対にしない場合より{narrower}倍狭い。",
    review_no_drift: "ラウンド間で両者に共通する変動はなく、対比較で除くものはなかった。",
    review_detectable: "このラウンド数で検出力80%で検出できるのは{detectable}倍を超える変化。5%の変化の検出には{rounds_5}ラウンドが必要。",
};

/// What an article cites of the variance review's verdict between two conditions
/// (`between["A"]["B"].says`): "{b}" against "{a}", "{change}" (`PairedWords::slower`...) and
/// "{interval}" turned the same way. Only a supported verdict orders them.
#[derive(Debug, Serialize)]
pub struct BetweenWords {
    pub supported: &'static str,
    /// And "{threshold}".
    pub negligible: &'static str,
    pub not_shown: &'static str,
}

pub fn between_words(lang: Lang) -> &'static BetweenWords {
    match lang {
        Lang::En => &BETWEEN_EN,
        Lang::Ja => &BETWEEN_JA,
    }
}

static BETWEEN_EN: BetweenWords = BetweenWords {
    supported: "{b} is {change} than {a} ({interval} as geometric means of runs, 95% interval; a difference these runs support)",
    negligible: "{b} and {a} differ negligibly (the former {change}, {interval}; within {threshold})",
    not_shown: "these runs do not separate {b} from {a} (the former {change}, {interval} as geometric means of runs: cannot tell)",
};

static BETWEEN_JA: BetweenWords = BetweenWords {
    supported: "{b}は{a}より{change}（各測定の幾何平均で、95%区間{interval}。測定で裏付けあり）",
    negligible: "{b}と{a}の差は実質なし（前者が{change}、{interval}。{threshold}以内）",
    not_shown: "この測定では{b}と{a}を分けられない（前者が{change}、各測定の幾何平均で{interval}。判断できない）",
};

/// A ratio b over a, turned to at least 1, in the words of what `metric` measures: "×4,000
/// faster" for 0.00025 of a latency, "×1.30 higher" for a share. One home for every page's
/// ratio words (the lead, the variance review, the comparison).
pub fn change_words(lang: Lang, metric: HeadlineMetric, oriented: &Oriented) -> String {
    let w = paired_words(lang);
    // Requests/s: lower is slower; a latency: higher is slower; a share: higher or lower.
    let times = !matches!(metric, HeadlineMetric::ErrorRate | HeadlineMetric::FailedShare);
    let template = match (times, oriented.b_larger, metric.higher_is_better()) {
        (true, true, true) | (true, false, false) => w.faster,
        (true, _, _) => w.slower,
        (false, true, _) => w.higher,
        (false, false, _) => w.lower,
    };
    super::fill(template, &[("factor", &crate::render::format::factor(oriented.factor))])
}
