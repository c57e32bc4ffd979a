//! The words of the published-vs-measured section: the original article's name, its metrics and
//! units, the verdict of each value and of each ordered table. Kept apart from [`super::Strings`]
//! as the tools' words are; the glossary test reads them through [`samples`].

use super::fill;
use crate::dataset::manifest::OriginalArticle;
use crate::model::{Lang, Oriented, PublishedMetric, Unit};
use crate::render::format;
use crate::report::{OrderRelation, PublishedVerdict};
use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct PublishedWords {
    /// Before the original article's name.
    pub original: &'static str,
    /// A table's caption after its label.
    pub table_caption: &'static str,
    /// The caption of a table without a label.
    pub table_title: &'static str,
    pub published_header: &'static str,
    pub median_header: &'static str,
    pub range_header: &'static str,
    /// The rule of the verdicts, under the tables: `{threshold}` is the allowance.
    pub rule: &'static str,
    pub orders_heading: &'static str,
    pub orders_caption: &'static str,
    pub order_table: &'static str,
    pub order_original: &'static str,
    pub order_here: &'static str,
    pub order_separated: &'static str,
    pub order_overlap: &'static str,
    pub order_broken: &'static str,
    /// Between the pairs a verdict names.
    pub pair_sep: &'static str,
    /// A reference row's verdict: `{reason}`.
    pub reference: &'static str,
    pub untitled: &'static str,
    /// The published metrics' names (`model::PublishedMetric`); the percentiles are their keys.
    pub metric_max: &'static str,
    pub metric_mean: &'static str,
    pub metric_write: &'static str,
    pub metric_completion: &'static str,
    pub metric_requests_per_s: &'static str,
    pub metric_error_rate: &'static str,
    pub metric_failed_share: &'static str,
    pub metric_session_min: &'static str,
    pub metric_session_mean: &'static str,
    pub metric_session_max: &'static str,
    pub metric_session_p50: &'static str,
    pub metric_session_p95: &'static str,
    /// Units as a column header writes them (ms and % are the same in both).
    pub unit_s: &'static str,
    pub unit_requests_per_s: &'static str,
    /// A published value's verdict (`report::PublishedVerdict`): `{threshold}` is the allowance,
    /// `{ratio}` the larger of the median here and the published value over the smaller (`ratio`'s
    /// text), so that it reads at least 1: the published value over the median where lower here.
    pub verdict_inside: &'static str,
    pub verdict_near: &'static str,
    pub verdict_higher_by: &'static str,
    pub verdict_higher: &'static str,
    pub verdict_lower_by: &'static str,
    pub verdict_lower: &'static str,
    pub verdict_not_measured: &'static str,
    /// A ratio in running text: "3.49×" / "3.49倍".
    pub ratio: &'static str,
    /// One pair of an ordered table in a verdict (`report::OrderRelation`).
    pub pair_same: &'static str,
    pub pair_tie: &'static str,
    pub pair_reversed_apart: &'static str,
    pub pair_reversed_overlap: &'static str,
    pub pair_unmeasured: &'static str,
    /// The original article's title as a name.
    pub quoted_title: &'static str,
}

pub fn words(lang: Lang) -> &'static PublishedWords {
    match lang {
        Lang::En => &EN,
        Lang::Ja => &JA,
    }
}

static EN: PublishedWords = PublishedWords {
    original: "The original article",
    table_caption: "each value as published, beside the median and the min-max range of the runs here",
    table_title: "Published {metric}",
    published_header: "Published ({unit})",
    median_header: "Median here ({unit})",
    range_header: "Range here ({unit})",
    rule: "A published value agrees when it lies inside the min-max range of the runs here, or within {threshold} of the nearest run (dataset.toml: thresholds.negligible_difference). Otherwise every run is higher or lower here, and the ratio is the larger of the median here and the published value over the smaller: how far apart the two are, not which is right.",
    orders_heading: "The original's order",
    orders_caption: "where the original ranked its conditions: the order of its values, the order of the medians here, and whether the runs separate each neighbouring pair",
    order_table: "Table",
    order_original: "In the original",
    order_here: "Here (medians)",
    order_separated: "holds, and the runs of each neighbouring pair are apart",
    order_overlap: "holds in the medians, but the runs overlap for {pairs}",
    order_broken: "does not hold: here {pairs}",
    pair_sep: "; ",
    reference: "not measured here: {reason}",
    untitled: "untitled",
    metric_max: "maximum latency",
    metric_mean: "mean time per request",
    metric_write: "app write time",
    metric_completion: "client completion time",
    metric_requests_per_s: "requests/s",
    metric_error_rate: "error rate",
    metric_failed_share: "share of failed sessions",
    metric_session_min: "shortest session time",
    metric_session_mean: "mean session time",
    metric_session_max: "longest session time",
    metric_session_p50: "session time p50",
    metric_session_p95: "session time p95",
    unit_s: "s",
    unit_requests_per_s: "requests/s",
    verdict_inside: "agrees: inside the range",
    verdict_near: "agrees: within {threshold} of the nearest run",
    verdict_higher_by: "higher here: {ratio} the published value",
    verdict_higher: "higher here",
    verdict_lower_by: "lower here: the published value is {ratio} the median here",
    verdict_lower: "lower here",
    verdict_not_measured: "not measured here",
    ratio: "{ratio}×",
    pair_same: "{larger} and {smaller}",
    pair_tie: "{larger} = {smaller}",
    pair_reversed_apart: "{smaller} > {larger}, runs apart",
    pair_reversed_overlap: "{smaller} > {larger}, runs overlapping",
    pair_unmeasured: "{larger} or {smaller} not measured",
    quoted_title: "\u{201c}{title}\u{201d}",
};

static JA: PublishedWords = PublishedWords {
    original: "元の記事",
    table_caption: "公開値と、この測定の中央値・最小〜最大の範囲",
    table_title: "公開値：{metric}",
    published_header: "公開値（{unit}）",
    median_header: "この測定の中央値（{unit}）",
    range_header: "この測定の範囲（{unit}）",
    rule: "公開値がこの測定の最小〜最大の範囲に入るか、最も近い測定との差がその値の{threshold}以内なら「一致」とします（dataset.tomlの thresholds.negligible_difference）。それ以外は、すべての測定が公開値より大きいか小さいかを示し、倍率はこの測定の中央値と公開値の大きい方を小さい方で割った値です。倍率は両者の隔たりを示すもので、どちらが正しいかを示すものではありません。",
    orders_heading: "元の記事の順序",
    orders_caption: "元の記事が条件を順位づけた表について、公開値の順序、この測定の中央値の順序、隣り合う条件の測定の範囲が重ならないか",
    order_table: "表",
    order_original: "元の記事",
    order_here: "この測定（中央値）",
    order_separated: "成り立つ。隣り合う条件の測定の範囲はすべて離れている",
    order_overlap: "中央値では成り立つが、{pairs}は測定の範囲が重なる",
    order_broken: "成り立たない。この測定では{pairs}",
    pair_sep: "、",
    reference: "この測定では測っていない：{reason}",
    untitled: "題名なし",
    metric_max: "応答時間の最大値",
    metric_mean: "1リクエストの平均時間",
    metric_write: "アプリの書き込み時間",
    metric_completion: "クライアントの受信完了時間",
    metric_requests_per_s: "毎秒リクエスト数",
    metric_error_rate: "エラー率",
    metric_failed_share: "失敗したセッションの割合",
    metric_session_min: "セッション時間の最小値",
    metric_session_mean: "セッション時間の平均値",
    metric_session_max: "セッション時間の最大値",
    metric_session_p50: "セッション時間のp50",
    metric_session_p95: "セッション時間のp95",
    unit_s: "秒",
    unit_requests_per_s: "毎秒リクエスト数",
    verdict_inside: "一致（範囲内）",
    verdict_near: "一致（最も近い測定との差が{threshold}以内）",
    verdict_higher_by: "この測定の方が大きい（公開値の{ratio}）",
    verdict_higher: "この測定の方が大きい",
    verdict_lower_by: "この測定の方が小さい（公開値はこの測定の中央値の{ratio}）",
    verdict_lower: "この測定の方が小さい",
    verdict_not_measured: "この測定にはない値",
    ratio: "{ratio}倍",
    pair_same: "{larger}と{smaller}",
    pair_tie: "{larger} = {smaller}",
    pair_reversed_apart: "{smaller} > {larger}（測定の範囲も離れている）",
    pair_reversed_overlap: "{smaller} > {larger}（測定の範囲は重なる）",
    pair_unmeasured: "{larger}か{smaller}は測っていない",
    quoted_title: "「{title}」",
};

/// The name of a published metric.
pub fn metric(lang: Lang, metric: PublishedMetric) -> &'static str {
    use PublishedMetric::*;
    let w = words(lang);
    match metric {
        P50 => "p50",
        P90 => "p90",
        P95 => "p95",
        P99 => "p99",
        P999 => "p99.9",
        Max => w.metric_max,
        Mean => w.metric_mean,
        Write => w.metric_write,
        Completion => w.metric_completion,
        RequestsPerS => w.metric_requests_per_s,
        ErrorRate => w.metric_error_rate,
        FailedShare => w.metric_failed_share,
        SessionMin => w.metric_session_min,
        SessionMean => w.metric_session_mean,
        SessionMax => w.metric_session_max,
        SessionP50 => w.metric_session_p50,
        SessionP95 => w.metric_session_p95,
    }
}

/// A unit as a column header writes it.
pub fn unit(lang: Lang, unit: Unit) -> &'static str {
    match unit {
        Unit::Ms => "ms",
        Unit::S => words(lang).unit_s,
        Unit::RequestsPerS => words(lang).unit_requests_per_s,
        Unit::Percent => "%",
    }
}

/// A published value's verdict, with its size as a ratio of at least 1: "higher here: 3.49× the
/// published value", "lower here: the published value is 4.00× the median here" (for 0.25;
/// summary.json keeps the median here over the published value).
pub fn verdict(lang: Lang, verdict: PublishedVerdict, ratio_here: Option<f64>, threshold: f64) -> String {
    let w = words(lang);
    let template = match (verdict, ratio_here) {
        (PublishedVerdict::InsideRange, _) => w.verdict_inside,
        (PublishedVerdict::NearNearestRun, _) => w.verdict_near,
        (PublishedVerdict::HigherHere, Some(_)) => w.verdict_higher_by,
        (PublishedVerdict::HigherHere, None) => w.verdict_higher,
        (PublishedVerdict::LowerHere, Some(_)) => w.verdict_lower_by,
        (PublishedVerdict::LowerHere, None) => w.verdict_lower,
        (PublishedVerdict::NotMeasured, _) => w.verdict_not_measured,
    };
    let oriented = ratio_here.and_then(|r| Oriented::of(r, None, None));
    let ratio_text = oriented.map(|o| ratio(lang, o.factor)).unwrap_or_default();
    fill(template, &[("threshold", &format::percent(threshold)), ("ratio", &ratio_text)])
}

/// A ratio in running text: "3.49×" / "3.49倍".
pub fn ratio(lang: Lang, ratio: f64) -> String {
    fill(words(lang).ratio, &[("ratio", &format::decimal(ratio, 2))])
}

/// One pair of an ordered table in a verdict: `larger` was published above `smaller`. A pair that
/// stands as published is only named (the verdict says its runs overlap); any other says how it
/// stands here.
pub fn pair(lang: Lang, relation: OrderRelation, apart: bool, larger: &str, smaller: &str) -> String {
    let w = words(lang);
    let template = match relation {
        OrderRelation::Same => w.pair_same,
        OrderRelation::Tie => w.pair_tie,
        OrderRelation::Reversed if apart => w.pair_reversed_apart,
        OrderRelation::Reversed => w.pair_reversed_overlap,
        OrderRelation::Unmeasured => w.pair_unmeasured,
    };
    fill(template, &[("larger", larger), ("smaller", smaller)])
}

/// The original article by its own name: "“title” (description), author, date (publisher)"; an
/// article without a title is named by its description.
pub fn original(lang: Lang, article: &OriginalArticle) -> String {
    let t = super::strings(lang);
    let aside = |main: &str, note: &str| fill(t.aside, &[("main", main), ("note", note)]);
    let description = article.description.as_ref().map(|d| d.get(lang).to_string());
    let name = match (&article.title, description) {
        (Some(title), description) => {
            let quoted = fill(words(lang).quoted_title, &[("title", title)]);
            match description {
                Some(description) => aside(&quoted, &description),
                None => quoted,
            }
        }
        (None, description) => description.unwrap_or_else(|| words(lang).untitled.to_string()),
    };
    let mut parts = vec![name];
    parts.extend(article.author.clone());
    parts.extend(article.date.clone());
    let text = parts.join(t.list_sep);
    match &article.publisher {
        Some(publisher) => aside(&text, publisher),
        None => text,
    }
}

/// Every string and sentence of this module with sample arguments, for the glossary tests.
#[cfg(test)]
pub fn samples(lang: Lang) -> Vec<String> {
    let Ok(serde_json::Value::Object(map)) = serde_json::to_value(words(lang)) else { panic!("the words serialize as an object") };
    let mut out: Vec<String> = map.into_values().filter_map(|v| v.as_str().map(str::to_string)).collect();
    out.extend(PublishedMetric::ALL.iter().map(|&m| metric(lang, m).to_string()));
    out.extend([Unit::Ms, Unit::S, Unit::RequestsPerS, Unit::Percent].map(|u| unit(lang, u).to_string()));
    for v in [
        PublishedVerdict::InsideRange,
        PublishedVerdict::NearNearestRun,
        PublishedVerdict::HigherHere,
        PublishedVerdict::LowerHere,
        PublishedVerdict::NotMeasured,
    ] {
        out.push(verdict(lang, v, Some(3.49), 0.05));
        out.push(verdict(lang, v, None, 0.05));
    }
    for relation in [OrderRelation::Same, OrderRelation::Tie, OrderRelation::Reversed, OrderRelation::Unmeasured] {
        out.push(pair(lang, relation, true, "uWSGI", "Gunicorn"));
        out.push(pair(lang, relation, false, "uWSGI", "Gunicorn"));
    }
    out.push(ratio(lang, 3.49));
    // The original's own words are dataset text in any language; the sample keeps to ASCII.
    let article = OriginalArticle {
        title: Some("A comparison".into()),
        author: Some("An author".into()),
        date: Some("2018.09.04".into()),
        ..Default::default()
    };
    out.push(original(lang, &article));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_original_is_named_by_title_author_and_date() {
        let article = OriginalArticle {
            title: Some("NGINX Unit 、uWSGI、Gunicornのベンチマークを比較してみた".into()),
            author: Some("岩田智哉".into()),
            date: Some("2018.09.04".into()),
            publisher: Some("Classmethod".into()),
            description: None,
        };
        assert_eq!(
            original(Lang::En, &article),
            "\u{201c}NGINX Unit 、uWSGI、Gunicornのベンチマークを比較してみた\u{201d}, 岩田智哉, 2018.09.04 (Classmethod)"
        );
        assert_eq!(
            original(Lang::Ja, &article),
            "「NGINX Unit 、uWSGI、Gunicornのベンチマークを比較してみた」、岩田智哉、2018.09.04（Classmethod）"
        );
        let untitled =
            OriginalArticle { description: Some(crate::model::Text::Plain("an article on gthread".into())), ..Default::default() };
        assert_eq!(original(Lang::En, &untitled), "an article on gthread");
        assert_eq!(original(Lang::Ja, &OriginalArticle::default()), "題名なし");
    }

    #[test]
    fn a_verdict_states_its_size() {
        assert_eq!(verdict(Lang::En, PublishedVerdict::HigherHere, Some(3.4947), 0.05), "higher here: 3.49× the published value");
        // Lower here: the published value over the median, so the size reads at least 1
        // (1 / 0.0591 = 16.92), not 0.06.
        assert_eq!(
            verdict(Lang::Ja, PublishedVerdict::LowerHere, Some(0.0591), 0.05),
            "この測定の方が小さい（公開値はこの測定の中央値の16.92倍）"
        );
        assert_eq!(
            verdict(Lang::En, PublishedVerdict::LowerHere, Some(0.25), 0.05),
            "lower here: the published value is 4.00× the median here"
        );
        assert_eq!(verdict(Lang::En, PublishedVerdict::NearNearestRun, None, 0.05), "agrees: within 5.0% of the nearest run");
        assert_eq!(verdict(Lang::En, PublishedVerdict::LowerHere, None, 0.05), "lower here");
    }
}
