//! The words of the service-level objectives (dataset.toml's `[[slo]]`): the report's table and
//! `analyze check --slo`'s lines, in English and Japanese.

use crate::model::Lang;
use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct SloWords {
    pub heading: &'static str,
    pub caption: &'static str,
    pub objective: &'static str,
    pub median: &'static str,
    pub runs_met: &'static str,
    pub result: &'static str,
    pub pass: &'static str,
    pub fail: &'static str,
    pub no_runs: &'static str,
    /// A condition whose runs failed more requests than the objective allows: "{share}" and
    /// "{limit}" are shares.
    pub too_many_errors: &'static str,
    /// "{metric} ≤ {limit}" and "{metric} ≥ {limit}".
    pub at_most: &'static str,
    pub at_least: &'static str,
    /// "2 of 3".
    pub met_of: &'static str,
    /// What the objectives add up to.
    pub summary: &'static str,
    pub rule: &'static str,
    /// `analyze check --slo`'s verdict lines.
    pub check_failed: &'static str,
    pub check_passed: &'static str,
}

pub fn words(lang: Lang) -> &'static SloWords {
    match lang {
        Lang::En => &EN,
        Lang::Ja => &JA,
    }
}

static EN: SloWords = SloWords {
    heading: "Service-level objectives",
    caption: "each objective of dataset.toml for each condition it applies to, judged on the median of the condition's ok runs, with how many runs met it on their own",
    objective: "Objective",
    median: "Median of the runs",
    runs_met: "Runs that met it",
    result: "Result",
    pass: "pass",
    fail: "fail",
    no_runs: "fail: no ok run to judge",
    too_many_errors: "fail: {share} of requests failed (at most {limit})",
    at_most: "{metric} ≤ {limit}",
    at_least: "{metric} ≥ {limit}",
    met_of: "{met} of {runs}",
    summary: "{pass} of {total} objective checks pass and {fail} fail.",
    rule: "A condition passes an objective when the median of its ok runs' values meets the limit (the limit itself meets it); one run alone does not decide it, and the runs that met it on their own are counted beside. An objective on a percentile or on requests/s also fails when the median of the runs' shares of failed requests (without a 2xx response) lies above the objective's error_share, else the dataset's thresholds.error_share ({share}): the latency of the requests that succeeded says nothing of those that failed.",
    check_failed: "{fail} of {total} objective checks fail; failing because of --slo",
    check_passed: "every objective check passes ({total})",
};

static JA: SloWords = SloWords {
    heading: "SLO（サービス目標）",
    caption: "dataset.tomlの各SLOを、それが対象とする条件ごとに、正常に終わった測定の中央値で判定したもの。各測定が単独で満たした回数も示す",
    objective: "SLO",
    median: "測定の中央値",
    runs_met: "満たした測定",
    result: "結果",
    pass: "達成",
    fail: "未達",
    no_runs: "未達：判定できる正常な測定がない",
    too_many_errors: "未達：リクエストの{share}が失敗（上限{limit}）",
    at_most: "{metric} ≤ {limit}",
    at_least: "{metric} ≥ {limit}",
    met_of: "{runs}回中{met}回",
    summary: "SLOの判定{total}件のうち、達成が{pass}件、未達が{fail}件です。",
    rule: "条件がSLOを達成するのは、正常に終わった測定の値の中央値が上限または下限を満たす場合です（ちょうどその値も満たすとします）。1回の測定だけでは決めず、各測定が単独で満たした回数を横に示します。パーセンタイルやリクエスト/秒のSLOは、各測定の失敗したリクエスト（2xxの応答がないもの）の割合の中央値が、そのSLOの error_share（なければデータセットの thresholds.error_share、{share}）を超える場合も未達とします。成功したリクエストの応答時間は、失敗したリクエストについて何も示さないためです。",
    check_failed: "SLOの判定{total}件のうち{fail}件が未達のため、--slo により失敗とします",
    check_passed: "SLOの判定{total}件はすべて達成",
};
