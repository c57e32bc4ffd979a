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
    /// The margin to the limit (`report::slo::SloMargin`): the column, its cell, the note of a
    /// verdict too close to call, and the rule.
    pub margin: &'static str,
    pub margin_below: &'static str,
    pub margin_above: &'static str,
    /// A median at twice its limit or more: "{times}" is the median over the limit.
    pub margin_times: &'static str,
    pub margin_resolves: &'static str,
    pub margin_close: &'static str,
    pub margin_rule: &'static str,
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
    margin: "Margin to the limit",
    margin_below: "{margin} below the limit",
    margin_above: "{margin} above the limit",
    margin_times: "{times}× the limit",
    margin_resolves: "the runs resolve {resolvable}",
    margin_close: "too close to call: the 95% interval of the runs' geometric mean ({low}–{high}) holds the limit, so another sitting may judge it the other way",
    margin_rule: "The margin is the median's distance from the limit. The runs resolve a margin beyond the smallest distance at which a condition of their spread and number of runs is judged on the right side of the limit with 80% power at 5% (t on the logs of the runs); where the 95% interval of the runs' geometric mean holds the limit, the verdict is too close to call.",
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
    margin: "限度までの余裕",
    margin_below: "限度より{margin}下",
    margin_above: "限度より{margin}上",
    margin_times: "限度の{times}倍",
    margin_resolves: "回で見分けられる幅{resolvable}",
    margin_close: "際どい：回の幾何平均の95%区間（{low}〜{high}）が限度を含むため、別の機会には逆に判定されうる",
    margin_rule: "余裕は、回の中央値と限度の差です。回で見分けられる幅は、同じばらつきと回数の条件が、有意水準5%・検出力80%で限度の正しい側と判定される最小の差です（回の対数のt）。回の幾何平均の95%区間が限度を含むときは、判定は際どいとします。",
    check_failed: "SLOの判定{total}件のうち{fail}件が未達のため、--slo により失敗とします",
    check_passed: "SLOの判定{total}件はすべて達成",
};
