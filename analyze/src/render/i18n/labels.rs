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
};
