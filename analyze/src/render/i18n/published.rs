//! The words of the published-vs-measured section: the original article's name, its metrics and
//! units, the verdict of each value and of each ordered table. Kept apart from [`super::Strings`]
//! as the tools' words are; the glossary test reads them through [`samples`].

use crate::dataset::manifest::OriginalArticle;
use crate::model::{Lang, PublishedMetric, Unit};
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
    rule: "A published value agrees when it lies inside the min-max range of the runs here, or within {threshold} of the nearest run (dataset.toml: thresholds.negligible_difference). Otherwise every run is higher or lower here, and the ratio is the median here over the published value: how far apart the two are, not which is right.",
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
};

static JA: PublishedWords = PublishedWords {
    original: "元の記事",
    table_caption: "公開値と、この測定の中央値・最小〜最大の範囲",
    table_title: "公開値：{metric}",
    published_header: "公開値（{unit}）",
    median_header: "この測定の中央値（{unit}）",
    range_header: "この測定の範囲（{unit}）",
    rule: "公開値がこの測定の最小〜最大の範囲に入るか、最も近い測定との差がその値の{threshold}以内なら「一致」とします（dataset.tomlの thresholds.negligible_difference）。それ以外は、すべての測定が公開値より大きいか小さいかを示し、倍率はこの測定の中央値を公開値で割った値です。倍率は両者の隔たりを示すもので、どちらが正しいかを示すものではありません。",
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
};

/// The name of a published metric.
pub fn metric(lang: Lang, metric: PublishedMetric) -> &'static str {
    use PublishedMetric::*;
    match (lang, metric) {
        (_, P50) => "p50",
        (_, P90) => "p90",
        (_, P95) => "p95",
        (_, P99) => "p99",
        (_, P999) => "p99.9",
        (Lang::En, Max) => "maximum latency",
        (Lang::En, Mean) => "mean time per request",
        (Lang::En, Write) => "app write time",
        (Lang::En, Completion) => "client completion time",
        (Lang::En, RequestsPerS) => "requests/s",
        (Lang::En, ErrorRate) => "error rate",
        (Lang::En, FailedShare) => "share of failed sessions",
        (Lang::En, SessionMin) => "shortest session time",
        (Lang::En, SessionMean) => "mean session time",
        (Lang::En, SessionMax) => "longest session time",
        (Lang::En, SessionP50) => "session time p50",
        (Lang::En, SessionP95) => "session time p95",
        (Lang::Ja, Max) => "応答時間の最大値",
        (Lang::Ja, Mean) => "1リクエストの平均時間",
        (Lang::Ja, Write) => "アプリの書き込み時間",
        (Lang::Ja, Completion) => "クライアントの受信完了時間",
        (Lang::Ja, RequestsPerS) => "毎秒リクエスト数",
        (Lang::Ja, ErrorRate) => "エラー率",
        (Lang::Ja, FailedShare) => "失敗したセッションの割合",
        (Lang::Ja, SessionMin) => "セッション時間の最小値",
        (Lang::Ja, SessionMean) => "セッション時間の平均値",
        (Lang::Ja, SessionMax) => "セッション時間の最大値",
        (Lang::Ja, SessionP50) => "セッション時間のp50",
        (Lang::Ja, SessionP95) => "セッション時間のp95",
    }
}

/// A unit as a column header writes it.
pub fn unit(lang: Lang, unit: Unit) -> &'static str {
    match (lang, unit) {
        (_, Unit::Ms) => "ms",
        (Lang::En, Unit::S) => "s",
        (Lang::Ja, Unit::S) => "秒",
        (Lang::En, Unit::RequestsPerS) => "requests/s",
        (Lang::Ja, Unit::RequestsPerS) => "毎秒リクエスト数",
        (_, Unit::Percent) => "%",
    }
}

/// A published value's verdict, with its size: "higher here: 3.49× the published value".
pub fn verdict(lang: Lang, verdict: PublishedVerdict, ratio: Option<f64>, threshold: f64) -> String {
    let threshold = format::percent(threshold);
    match (lang, verdict, ratio) {
        (Lang::En, PublishedVerdict::InsideRange, _) => "agrees: inside the range".to_string(),
        (Lang::En, PublishedVerdict::NearNearestRun, _) => format!("agrees: within {threshold} of the nearest run"),
        (Lang::En, PublishedVerdict::HigherHere, Some(r)) => format!("higher here: {} the published value", format::ratio(r)),
        (Lang::En, PublishedVerdict::HigherHere, None) => "higher here".to_string(),
        (Lang::En, PublishedVerdict::LowerHere, Some(r)) => format!("lower here: {} the published value", format::ratio(r)),
        (Lang::En, PublishedVerdict::LowerHere, None) => "lower here".to_string(),
        (Lang::En, PublishedVerdict::NotMeasured, _) => "not measured here".to_string(),
        (Lang::Ja, PublishedVerdict::InsideRange, _) => "一致（範囲内）".to_string(),
        (Lang::Ja, PublishedVerdict::NearNearestRun, _) => format!("一致（最も近い測定との差が{threshold}以内）"),
        (Lang::Ja, PublishedVerdict::HigherHere, Some(r)) => format!("この測定の方が大きい（公開値の{}倍）", format::decimal(r, 2)),
        (Lang::Ja, PublishedVerdict::HigherHere, None) => "この測定の方が大きい".to_string(),
        (Lang::Ja, PublishedVerdict::LowerHere, Some(r)) => format!("この測定の方が小さい（公開値の{}倍）", format::decimal(r, 2)),
        (Lang::Ja, PublishedVerdict::LowerHere, None) => "この測定の方が小さい".to_string(),
        (Lang::Ja, PublishedVerdict::NotMeasured, _) => "この測定にはない値".to_string(),
    }
}

/// A ratio in running text: "3.49×" / "3.49倍".
pub fn ratio(lang: Lang, ratio: f64) -> String {
    match lang {
        Lang::En => format::ratio(ratio),
        Lang::Ja => format!("{}倍", format::decimal(ratio, 2)),
    }
}

/// One pair of an ordered table in a verdict: `larger` was published above `smaller`. A pair that
/// stands as published is only named (the verdict says its runs overlap); any other says how it
/// stands here.
pub fn pair(lang: Lang, relation: OrderRelation, apart: bool, larger: &str, smaller: &str) -> String {
    match (lang, relation) {
        (Lang::En, OrderRelation::Same) => format!("{larger} and {smaller}"),
        (Lang::En, OrderRelation::Tie) => format!("{larger} = {smaller}"),
        (Lang::En, OrderRelation::Reversed) if apart => format!("{smaller} > {larger}, runs apart"),
        (Lang::En, OrderRelation::Reversed) => format!("{smaller} > {larger}, runs overlapping"),
        (Lang::En, OrderRelation::Unmeasured) => format!("{larger} or {smaller} not measured"),
        (Lang::Ja, OrderRelation::Same) => format!("{larger}と{smaller}"),
        (Lang::Ja, OrderRelation::Tie) => format!("{larger} = {smaller}"),
        (Lang::Ja, OrderRelation::Reversed) if apart => format!("{smaller} > {larger}（測定の範囲も離れている）"),
        (Lang::Ja, OrderRelation::Reversed) => format!("{smaller} > {larger}（測定の範囲は重なる）"),
        (Lang::Ja, OrderRelation::Unmeasured) => format!("{larger}か{smaller}は測っていない"),
    }
}

/// The original article by its own name: "“title” (description), author, date (publisher)"; an
/// article without a title is named by its description.
pub fn original(lang: Lang, article: &OriginalArticle) -> String {
    let description = article.description.as_ref().map(|d| d.get(lang).to_string());
    let aside = |text: &str| match lang {
        Lang::En => format!(" ({text})"),
        Lang::Ja => format!("（{text}）"),
    };
    let name = match (&article.title, lang) {
        (Some(t), Lang::En) => format!("\u{201c}{t}\u{201d}{}", description.as_deref().map(aside).unwrap_or_default()),
        (Some(t), Lang::Ja) => format!("「{t}」{}", description.as_deref().map(aside).unwrap_or_default()),
        (None, _) => description.unwrap_or_else(|| words(lang).untitled.to_string()),
    };
    let mut parts = vec![name];
    parts.extend(article.author.clone());
    parts.extend(article.date.clone());
    let mut text = parts.join(if lang == Lang::Ja { "、" } else { ", " });
    if let Some(publisher) = &article.publisher {
        text.push_str(&aside(publisher));
    }
    text
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
        assert_eq!(verdict(Lang::Ja, PublishedVerdict::LowerHere, Some(0.0591), 0.05), "この測定の方が小さい（公開値の0.06倍）");
        assert_eq!(verdict(Lang::En, PublishedVerdict::NearNearestRun, None, 0.05), "agrees: within 5.0% of the nearest run");
        assert_eq!(verdict(Lang::En, PublishedVerdict::LowerHere, None, 0.05), "lower here");
    }
}
