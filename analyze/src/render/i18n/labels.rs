//! The words of the per-label statistics (requests by endpoint): the report's and the run
//! page's tables and the note on labels counted together, in English and Japanese.

use crate::model::Lang;
use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct LabelWords {
    pub heading: &'static str,
    /// The report's table: per condition and label, the median and range over its ok runs.
    pub caption: &'static str,
    /// The run page's table.
    pub run_caption: &'static str,
    pub label: &'static str,
    pub requests: &'static str,
    /// The errors with their share of the label's requests: "3 (8.3%)".
    pub errors_and_share: &'static str,
    pub max: &'static str,
    /// A label with an empty name: the tool gave the request none.
    pub unnamed: &'static str,
    /// The row of the labels beyond the limit: "{n} other labels".
    pub others: &'static str,
    /// "The {shown} labels with the most requests are shown by name; the other {n} are one row."
    pub limit_note: &'static str,
    /// What the percentiles are of.
    pub rule: &'static str,
    /// The ECDF chart per label: its alt text, title and description ("{run}", "{list}").
    pub ecdf_alt: &'static str,
    pub ecdf_title: &'static str,
    pub ecdf_desc: &'static str,
    /// The tables of a tool's own per-label figures (a run without request rows: Locust).
    pub tool_heading: &'static str,
    pub tool_caption: &'static str,
    pub tool_run_caption: &'static str,
    /// The tool's failures with their share of the label's requests.
    pub failures_and_share: &'static str,
    /// What the figures are, for Locust's rounded buckets ("{tool}").
    pub tool_rule_buckets: &'static str,
    /// What the figures are, for Artillery's DDSketch summaries per endpoint ("{tool}"): its
    /// failures are this import's (no 2xx response), not Artillery's errors.
    pub tool_rule_sketch: &'static str,
    /// What the figures are, for any other rule ("{tool}", "{rule}").
    pub tool_rule: &'static str,
    /// A run whose tool printed more names than a table shows ("{shown}").
    pub tool_limit_note: &'static str,
}

pub fn words(lang: Lang) -> &'static LabelWords {
    match lang {
        Lang::En => &EN,
        Lang::Ja => &JA,
    }
}

static EN: LabelWords = LabelWords {
    heading: "Requests by label",
    caption: "per condition and request label (the name the load tool gave each request): the median over the condition's ok runs, with their range below",
    run_caption: "This run's requests per request label (the name the load tool gave each request)",
    label: "Label",
    requests: "Requests",
    errors_and_share: "Errors (share)",
    max: "Max",
    unnamed: "(no name)",
    others: "{n} other labels",
    limit_note: "The {shown} labels with the most requests over the dataset are shown by name; the other {n} are counted together in one row.",
    rule: "Percentiles are nearest-rank values of each label's 2xx response times, as for the whole run; errors are requests without a 2xx response.",
    ecdf_alt: "Empirical CDF of the 2xx response times of each request label in run {run}",
    ecdf_title: "Latency distribution by request label (ECDF): run {run}",
    ecdf_desc: "Share of each label's 2xx responses at or below each latency (ms, log scale) in run {run}, the representative run of its condition, one line per label: {list}.",
    tool_heading: "Requests by label, as the load tool printed them",
    tool_caption: "per run and request label, the load tool's own figures (the run has no request rows to compute ours from)",
    tool_run_caption: "This run's requests per request label, as the load tool printed them (the run has no request rows to compute ours from)",
    failures_and_share: "Failures (share)",
    tool_rule_buckets: "These are {tool}'s own figures, not computed here: {tool} rounds each response time into a bucket (whole ms below 100 ms, 10 ms below 1 s, 100 ms below 10 s) and takes its percentiles from the buckets, over every response, failed ones included, so a percentile can differ from the true value by up to a bucket; Max is its unrounded slowest time. Failures are the requests {tool} counted as failed.",
    tool_rule_sketch: "These are {tool}'s own figures, not computed here: its per-endpoint summaries of the time to the first byte over every response, failed ones included, whose percentiles are DDSketch estimates (within 1 % of the value at their rank) rounded to 0.1 ms. Failures are the requests without a 2xx response, counted from {tool}'s per-endpoint status codes and errors ({tool} itself counts a 404 or a 500 as a response, not as an error).",
    tool_rule: "These are {tool}'s own figures ({rule}), not computed here; failures are the requests {tool} counted as failed.",
    tool_limit_note: "A run whose tool printed more request names than fit shows the {shown} with the most requests by name and the rest in one row, with their requests, failures and longest time (printed percentiles cannot be combined).",
};

static JA: LabelWords = LabelWords {
    heading: "ラベル別のリクエスト",
    caption: "条件とリクエストのラベル（負荷ツールが各リクエストに付けた名前）ごとの、正常に終わった測定の中央値。下に測定間の範囲",
    run_caption: "この測定のリクエストをラベル（負荷ツールが各リクエストに付けた名前）ごとに集計したもの",
    label: "ラベル",
    requests: "リクエスト数",
    errors_and_share: "エラー数（割合）",
    max: "最大",
    unnamed: "（名前なし）",
    others: "その他のラベル{n}個",
    limit_note: "データセット全体でリクエスト数が多い{shown}個のラベルを名前ごとに示し、残りの{n}個は1行にまとめています。",
    rule: "パーセンタイルは、測定全体と同じく、各ラベルの2xx応答時間の最近接順位による値です。エラーは2xx応答のなかったリクエストです。",
    ecdf_alt: "測定{run}のリクエストのラベルごとの2xx応答時間の経験累積分布",
    ecdf_title: "ラベル別の応答時間の累積分布（ECDF）：測定{run}",
    ecdf_desc: "条件の代表の測定{run}で、各応答時間（ms、対数目盛）以下の2xx応答の割合。ラベルごとに1本の線：{list}。",
    tool_heading: "ラベル別のリクエスト（負荷ツールの表示値）",
    tool_caption: "測定とリクエストのラベルごとの、負荷ツール自身の表示値（この測定にはこちらで計算するためのリクエスト行がありません）",
    tool_run_caption: "この測定のリクエストをラベルごとに負荷ツールが集計した表示値（こちらで計算するためのリクエスト行がありません）",
    failures_and_share: "失敗数（割合）",
    tool_rule_buckets: "これは{tool}自身の値で、ここで計算したものではありません。{tool}は各応答時間をバケットに丸め（100 ms未満は1 ms単位、1 s未満は10 ms単位、10 s未満は100 ms単位）、失敗した応答も含めたバケットからパーセンタイルを求めるため、真の値とは最大でバケット1つ分ずれることがあります。最大は丸める前の最も遅い時間です。失敗数は{tool}が失敗と数えたリクエストです。",
    tool_rule_sketch: "これは{tool}自身の値で、ここで計算したものではありません。エンドポイントごとの、失敗した応答も含むすべての応答の最初のバイトまでの時間の集計で、パーセンタイルはDDSketchによる推定（その順位の値の1 %以内）を0.1 ms単位に丸めたものです。失敗数は2xx応答のなかったリクエストで、{tool}のエンドポイントごとのステータスコードとエラーの数から数えました（{tool}自身は404や500を応答として数え、エラーとはしません）。",
    tool_rule: "これは{tool}自身の値（{rule}）で、ここで計算したものではありません。失敗数は{tool}が失敗と数えたリクエストです。",
    tool_limit_note: "負荷ツールが表に収まらないほど多くのリクエスト名を出した測定では、リクエスト数の多い{shown}個を名前ごとに示し、残りは1行にまとめてリクエスト数・失敗数・最長時間を示します（表示されたパーセンタイルは合算できません）。",
};
