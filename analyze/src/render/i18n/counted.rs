//! The words of runs imported from a tool's summary alone (no per-request rows): their counts
//! are the tool's, and their headline is a percentile the tool printed, said as such wherever a
//! count or a headline value of theirs appears, in English and Japanese.

use crate::model::Lang;
use crate::report::Report;
use serde::Serialize;

/// Up to this many conditions a sentence names; beyond, it counts them.
const NAMED_CONDITIONS: usize = 5;

#[derive(Debug, Serialize)]
pub struct CountedWords {
    /// A run's count in a table cell, below the number: "as wrk counted them" (`{tool}`).
    pub by_tool: &'static str,
    /// In place of a count the tool could not make (an HdrHistogram file).
    pub not_known: &'static str,
    /// A tool's rank of the run's printed headline, below it: "by wrk's rule".
    pub rank_by_tool: &'static str,
    /// Below a printed headline value that is the headline percentile: "as Artillery printed it".
    pub printed: &'static str,
    /// Below one that stands in for it: "p99 as wrk printed it; no p95 printed" (`{printed}`,
    /// `{tool}`, `{p}`).
    pub printed_instead: &'static str,
    /// The same after the value in running text, which names the percentile: "p99 6.53 ms (as
    /// wrk printed it; no p95 printed)".
    pub printed_instead_after: &'static str,
    /// A number of runs, `{runs}` in the sentences below: one, and any other count.
    pub runs_one: &'static str,
    pub runs_many: &'static str,
    /// Above a failing condition's printed headline: its share, without the "2xx responses
    /// only" of a headline from rows (a tool's percentiles may rank its failed requests too).
    pub failing_share: &'static str,
    /// In the lead's group line: a condition with a printed headline only, not ranked.
    pub not_ranked: &'static str,
    /// More than one tool counted or printed: in place of `{tool}`.
    pub their_tools: &'static str,
    /// The integrity section's requests when no ok run has rows (`{n}`, `{tool}`).
    pub total_all_tools: &'static str,
    /// When some have rows: `{n}` in all, `{m}` of them the tools' of `{runs}` without rows.
    pub total_some_tools: &'static str,
    /// The part of an integrity count its tools made: "500 as Artillery counted them".
    pub counted_part: &'static str,
    /// The runs whose tool cannot count failed requests, left out of the 2xx and error counts.
    pub errors_unknown_runs: &'static str,
    /// More conditions than a sentence names: "{n} conditions".
    pub conditions_many: &'static str,
    /// The Methods paragraph on runs without rows (`{p}`).
    pub method: &'static str,
    /// Under the headline chart: the conditions it does not draw (`{list}`, `{p}`).
    pub chart_not_drawn: &'static str,
    /// The variance review: the conditions it does not review (`{list}`).
    pub not_reviewed: &'static str,
}

pub fn words(lang: Lang) -> &'static CountedWords {
    match lang {
        Lang::En => &EN,
        Lang::Ja => &JA,
    }
}

static EN: CountedWords = CountedWords {
    by_tool: "as {tool} counted them",
    not_known: "not known",
    rank_by_tool: "by {tool}'s rule",
    printed: "as {tool} printed it",
    printed_instead: "{printed} as {tool} printed it; no {p} printed",
    printed_instead_after: "as {tool} printed it; no {p} printed",
    failing_share: "{share} errors",
    runs_one: "{n} run",
    runs_many: "{n} runs",
    not_ranked: "{condition}: {value}, not ranked (only its tool's summary)",
    their_tools: "their tools",
    total_all_tools: "{n} (as {tool} counted them: no run has per-request rows)",
    total_some_tools: "{n} ({m} of them as {tool} counted them, in {runs} without per-request rows)",
    counted_part: "{n} as {tool} counted them",
    errors_unknown_runs: "not counting {runs} whose tool does not count failed requests",
    conditions_many: "{n} conditions",
    method: "A run imported from a tool's summary alone has no rows to rank: its counts are the tool's, and its {p} is the one the tool printed, by the tool's own rule, or, when the tool printed none, the percentile it printed nearest above (a higher percentile never understates the {p}; the nearest below only when it printed none above), each marked as the tool's. Those values are shown where they are, but not drawn, ranked or reviewed beside the {p} of runs with rows: another percentile, or one taken by another rule, is not the same number.",
    chart_not_drawn: "Not drawn: {list}, whose runs have only the percentiles their tools printed, not a {p} by the nearest rank (the table gives them).",
    not_reviewed: "Not reviewed: {list}, whose runs have only the percentiles their tools printed by their own rules, which are not compared with nearest-rank values.",
};

static JA: CountedWords = CountedWords {
    by_tool: "{tool}の集計値",
    not_known: "不明",
    rank_by_tool: "{tool}の規則",
    printed: "{tool}の表示値",
    printed_instead: "{tool}が表示した{printed}（{p}の表示なし）",
    printed_instead_after: "{tool}の表示値。{p}の表示なし",
    failing_share: "エラー{share}",
    runs_one: "{n}回",
    runs_many: "{n}回",
    not_ranked: "{condition}：{value}。ツールの集計値しかないため順位を付けません",
    their_tools: "各ツール",
    total_all_tools: "{n}（{tool}の集計値。リクエストごとの行のある測定はありません）",
    total_some_tools: "{n}（うち{m}は、リクエストごとの行のない{runs}の測定の{tool}の集計値）",
    counted_part: "{tool}の集計値{n}件",
    errors_unknown_runs: "失敗したリクエストを数えないツールの{runs}の測定を含みません",
    conditions_many: "{n}条件",
    method: "ツールの集計だけから取り込んだ測定には順位を付ける行がありません。その件数はツールの集計値で、{p}はツールが独自の規則で表示した値です。ツールが{p}を表示していなければ、表示したパーセンタイルのうちすぐ上のものを使います（上のパーセンタイルは{p}を小さく見せません。上がないときだけすぐ下のもの）。いずれもツールの値であることを示します。これらの値は表や本文には載せますが、行のある測定の{p}と並べてグラフに描いたり、順位を付けたり、レビューしたりはしません。別のパーセンタイルや別の規則で取った値は同じ数ではないためです。",
    chart_not_drawn: "{list}は描いていません。その測定にはツールが表示したパーセンタイルしかなく、最近接順位の{p}ではないためです（値は表にあります）。",
    not_reviewed: "{list}はレビューの対象外です。その測定にはツールが独自の規則で表示したパーセンタイルしかなく、最近接順位の値とは比べないためです。",
};

/// The conditions that have only a printed headline (a headline percentile, and no ok run with
/// rows): what the headline chart does not draw and the variance review does not review.
pub fn printed_only(report: &Report) -> Vec<usize> {
    if !report.headline.is_percentile() {
        return Vec::new();
    }
    (0..report.conditions.len()).filter(|&c| report.conditions[c].headline_printed.is_some()).collect()
}

/// The chart's or the review's sentence on those conditions, named (or counted, past a few);
/// `None` when there are none.
fn printed_only_sentence(lang: Lang, report: &Report, template: &str) -> Option<String> {
    let conditions = printed_only(report);
    let list = match conditions.len() {
        0 => return None,
        n if n > NAMED_CONDITIONS => super::fill(words(lang).conditions_many, &[("n", &crate::render::format::count(n as u64))]),
        _ => {
            let names: Vec<String> =
                conditions.iter().map(|&c| super::prose::condition_label(lang, report, &report.conditions[c].levels)).collect();
            super::prose::list(lang, &names)
        }
    };
    Some(super::fill(template, &[("list", &list), ("p", &format!("p{}", report.percentile))]))
}

/// Under the headline chart: which conditions it leaves out, and why.
pub fn chart_not_drawn(lang: Lang, report: &Report) -> Option<String> {
    printed_only_sentence(lang, report, words(lang).chart_not_drawn)
}

/// On the variance page: which conditions it does not review, and why.
pub fn not_reviewed(lang: Lang, report: &Report) -> Option<String> {
    printed_only_sentence(lang, report, words(lang).not_reviewed)
}
