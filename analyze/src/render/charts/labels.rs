//! Every fixed string of the charts, in English and Japanese: titles, axis titles, legends,
//! captions and the accessible descriptions. Numbers are formatted by `crate::render::format`.

use crate::dataset::Lang;
use crate::render::format;

/// Joins the parts of a condition's or series' label.
pub const JOIN: &str = " · ";

/// The plain strings of one language.
pub struct Labels {
    pub no_data: &'static str,
    pub no_points: &'static str,
    pub time_axis: &'static str,
    pub latency_log_axis: &'static str,
    pub share_axis: &'static str,
    pub headline_key: &'static str,
    /// Values of 0 on a log y axis.
    pub floor_note: &'static str,
    /// Values of 0 on a log x axis.
    pub floor_note_left: &'static str,
    pub large_title: &'static str,
    pub large_axis: &'static str,
    pub write_legend: &'static str,
    pub complete_legend: &'static str,
    pub response_legend: &'static str,
    pub tempfiles_title: &'static str,
    pub tempfiles_axis: &'static str,
    pub cpu_axis: &'static str,
    pub rss_axis: &'static str,
    pub all_runs: &'static str,
}

const EN: Labels = Labels {
    no_data: "No data to draw",
    no_points: "No responses to draw for this run",
    time_axis: "Time since the run started (s)",
    latency_log_axis: "Latency (ms, log scale)",
    share_axis: "Responses at or below (%)",
    headline_key: "Marker: median of the runs. Vertical line: fastest to slowest run. Faint points: each run.",
    floor_note: "▽ marks a value of 0 ms, drawn at the bottom edge: a log axis has no place for 0.",
    floor_note_left: "▽ marks a value of 0 ms, drawn at the left edge: a log axis has no place for 0.",
    large_title: "Large responses: server write time and client completion time",
    large_axis: "Time (s)",
    write_legend: "Write (median of the runs)",
    complete_legend: "Completion (median of the runs)",
    response_legend: "Each response",
    tempfiles_title: "Temporary files over time",
    tempfiles_axis: "Temporary files (MiB, logical size)",
    cpu_axis: "CPU (% of one core)",
    rss_axis: "RSS (MiB)",
    all_runs: "All runs",
};

const JA: Labels = Labels {
    no_data: "描画するデータがありません",
    no_points: "このランには描画する応答がありません",
    time_axis: "ラン開始からの時間（s）",
    latency_log_axis: "レイテンシ（ms、対数目盛）",
    share_axis: "この値以下の応答の割合（%）",
    headline_key: "マーカー：各ランの中央値。縦線：最速〜最遅のラン。薄い点：各ラン。",
    floor_note: "▽ は 0 ms の値です。対数軸には 0 の位置がないため、下端に描いています。",
    floor_note_left: "▽ は 0 ms の値です。対数軸には 0 の位置がないため、左端に描いています。",
    large_title: "大きな応答：サーバーの書き込み時間とクライアントの受信完了時間",
    large_axis: "時間（s）",
    write_legend: "書き込み（ランの中央値）",
    complete_legend: "受信完了（ランの中央値）",
    response_legend: "各応答",
    tempfiles_title: "一時ファイルの推移",
    tempfiles_axis: "一時ファイル（MiB、論理サイズ）",
    cpu_axis: "CPU（1 コアに対する %）",
    rss_axis: "RSS（MiB）",
    all_runs: "全ラン",
};

pub fn labels(lang: Lang) -> &'static Labels {
    match lang {
        Lang::En => &EN,
        Lang::Ja => &JA,
    }
}

/// "p95 latency by condition".
pub fn headline_title(lang: Lang, p: &str) -> String {
    match lang {
        Lang::En => format!("p{p} latency by condition"),
        Lang::Ja => format!("条件別の p{p} レイテンシ"),
    }
}

/// "p95 latency (ms, log scale)".
pub fn headline_axis(lang: Lang, p: &str) -> String {
    match lang {
        Lang::En => format!("p{p} latency (ms, log scale)"),
        Lang::Ja => format!("p{p} レイテンシ（ms、対数目盛）"),
    }
}

/// The headline figure's description: "p95 latency by condition: median of 3 runs with min-max
/// range; x axis: downloads; log-scale y axis; series: direct, nginx." `runs` is the fewest and
/// most runs behind a condition, `None` when nothing is drawn.
pub fn headline_desc(lang: Lang, p: &str, runs: Option<(usize, usize)>, x_axis: &str, series: &[String]) -> String {
    let title = headline_title(lang, p);
    let Some((fewest, most)) = runs else {
        return match lang {
            Lang::En => format!("{title}: no data."),
            Lang::Ja => format!("{title}：データなし。"),
        };
    };
    let count = if fewest == most { fewest.to_string() } else { format!("{fewest}–{most}") };
    let mut parts = vec![match lang {
        Lang::En => format!("{title}: median of {count} {} with min-max range", if most == 1 { "run" } else { "runs" }),
        Lang::Ja => format!("{title}：{count} ランの中央値と最小〜最大の範囲"),
    }];
    if !x_axis.is_empty() {
        parts.push(match lang {
            Lang::En => format!("x axis: {x_axis}"),
            Lang::Ja => format!("横軸：{x_axis}"),
        });
    }
    parts.push(match lang {
        Lang::En => "log-scale y axis".to_string(),
        Lang::Ja => "縦軸は対数目盛".to_string(),
    });
    if !series.is_empty() {
        let list = series.join(", ");
        parts.push(match lang {
            Lang::En => format!("series: {list}"),
            Lang::Ja => format!("系列：{list}"),
        });
    }
    match lang {
        Lang::En => format!("{}.", parts.join("; ")),
        Lang::Ja => format!("{}。", parts.join("。")),
    }
}

/// "run r1 (nginx · 2)".
pub fn run_name(lang: Lang, run_id: &str, condition: &str) -> String {
    match (lang, condition.is_empty()) {
        (Lang::En, true) => format!("run {run_id}"),
        (Lang::En, false) => format!("run {run_id} ({condition})"),
        (Lang::Ja, true) => format!("ラン {run_id}"),
        (Lang::Ja, false) => format!("ラン {run_id}（{condition}）"),
    }
}

pub fn time_series_title(lang: Lang, run: &str) -> String {
    match lang {
        Lang::En => format!("Latency over time: {run}"),
        Lang::Ja => format!("レイテンシの推移：{run}"),
    }
}

pub fn time_series_desc(lang: Lang, run: &str, reference: Option<&str>) -> String {
    let title = time_series_title(lang, run);
    match (lang, reference) {
        (Lang::En, Some(r)) => {
            format!("{title}. One point per 2xx response: send time (s) against latency (ms, log scale). Dashed line: {r}.")
        }
        (Lang::En, None) => format!("{title}. One point per 2xx response: send time (s) against latency (ms, log scale)."),
        (Lang::Ja, Some(r)) => format!("{title}。2xx 応答ごとに 1 点：送信時刻（s）とレイテンシ（ms、対数目盛）。破線：{r}。"),
        (Lang::Ja, None) => format!("{title}。2xx 応答ごとに 1 点：送信時刻（s）とレイテンシ（ms、対数目盛）。"),
    }
}

/// The sentence of a time series' description that says how errors are marked, when there are any.
pub fn time_series_errors(lang: Lang, non_2xx: u64, no_response: u64) -> Option<String> {
    let (n, m) = (format::count(non_2xx), format::count(no_response));
    let plural = |k: u64, word: &str| if k == 1 { word.to_string() } else { format!("{word}s") };
    let (responses, requests) = (plural(non_2xx, "response"), plural(no_response, "request"));
    let en_errors = format!("{n} {responses} with a non-2xx status (crosses, at their latency)");
    let en_unanswered = format!("{m} {requests} with no response (triangles along the top edge)");
    let ja_errors = format!("2xx 以外の応答 {n} 件（×、そのレイテンシの位置）");
    let ja_unanswered = format!("応答のないリクエスト {m} 件（▲、上端）");
    match (lang, non_2xx > 0, no_response > 0) {
        (_, false, false) => None,
        (Lang::En, true, true) => Some(format!("Marked in vermillion: {en_errors} and {en_unanswered}.")),
        (Lang::En, true, false) => Some(format!("Marked in vermillion: {en_errors}.")),
        (Lang::En, false, true) => Some(format!("Marked in vermillion: {en_unanswered}.")),
        (Lang::Ja, true, true) => Some(format!("朱色の印：{ja_errors}と{ja_unanswered}。")),
        (Lang::Ja, true, false) => Some(format!("朱色の印：{ja_errors}。")),
        (Lang::Ja, false, true) => Some(format!("朱色の印：{ja_unanswered}。")),
    }
}

/// Legend labels of a time series with errors: 2xx responses, non-2xx responses, no response.
pub fn time_series_legend(lang: Lang) -> [&'static str; 3] {
    match lang {
        Lang::En => ["2xx response", "non-2xx response", "no response (top edge)"],
        Lang::Ja => ["2xx 応答", "2xx 以外の応答", "応答なし（上端）"],
    }
}

/// The caption of a time series whose error marks were reduced.
pub fn time_series_errors_reduced(lang: Lang, shown: &str, total: &str) -> String {
    match lang {
        Lang::En => format!(
            "{shown} of {total} errors marked (per two pixel columns the fastest and slowest non-2xx response and the first request with no response)"
        ),
        Lang::Ja => format!("エラー {total} 件中 {shown} 件を表示（2 画素列ごとに最速と最遅の 2xx 以外の応答、および最初の応答なしのリクエスト）"),
    }
}

/// The headline reference: "p95 = 5,958.77 ms".
pub fn reference(p: &str, value_ms: &str) -> String {
    format!("p{p} = {value_ms} ms")
}

/// The caption of a reduced time series.
pub fn time_series_reduced(lang: Lang, shown: &str, total: &str) -> String {
    match lang {
        Lang::En => {
            format!("{shown} of {total} points drawn (per pixel column the fastest and slowest, and the slowest requests above p99)")
        }
        Lang::Ja => format!("{total} 点中 {shown} 点を描画（画素列ごとの最速と最遅、および p99 を超える遅いリクエスト）"),
    }
}

pub fn ecdf_title(lang: Lang, run: &str) -> String {
    match lang {
        Lang::En => format!("Latency distribution (ECDF): {run}"),
        Lang::Ja => format!("レイテンシの累積分布（ECDF）：{run}"),
    }
}

pub fn ecdf_desc(lang: Lang, run: &str, marked: Option<&str>) -> String {
    let title = ecdf_title(lang, run);
    match (lang, marked) {
        (Lang::En, Some(m)) => format!("{title}. Share of 2xx responses at or below each latency (ms, log scale). Marked: {m}."),
        (Lang::En, None) => format!("{title}. Share of 2xx responses at or below each latency (ms, log scale)."),
        (Lang::Ja, Some(m)) => format!("{title}。各レイテンシ（ms、対数目盛）以下の 2xx 応答の割合。印：{m}。"),
        (Lang::Ja, None) => format!("{title}。各レイテンシ（ms、対数目盛）以下の 2xx 応答の割合。"),
    }
}

/// The caption of a reduced ECDF.
pub fn ecdf_reduced(lang: Lang, shown: &str, total: &str, p: &str) -> String {
    match lang {
        Lang::En => format!("{shown} of {total} points drawn (evenly spaced ranks, the slowest requests above p99, and the p{p} rank)"),
        Lang::Ja => format!("{total} 点中 {shown} 点を描画（等間隔の順位、p99 を超える遅いリクエスト、および p{p} の順位）"),
    }
}

/// "69th of 72 = 5,958.77 ms" / "72件中69番目 = 5,958.77 ms".
pub fn rank_label(lang: Lang, rank: u64, n: u64, value_ms: &str) -> String {
    match lang {
        Lang::En => format!("{} of {} = {value_ms} ms", format::ordinal_en(rank), format::count(n)),
        Lang::Ja => format!("{}件中{}番目 = {value_ms} ms", format::count(n), format::count(rank)),
    }
}

pub fn large_desc(lang: Lang, conditions: usize) -> String {
    match lang {
        Lang::En => format!(
            "{}. For each of {conditions} conditions, a bar for the median write time and one for the median completion time (s), and a dot per response.",
            EN.large_title
        ),
        Lang::Ja => format!("{}。{conditions} 条件それぞれについて、書き込み時間と受信完了時間（s）の中央値の棒、および応答ごとの点。", JA.large_title),
    }
}

/// Responses that have a write time but no completion time.
pub fn incomplete_note(lang: Lang, n: u64, count: &str) -> String {
    match lang {
        Lang::En if n == 1 => format!("{count} response has no completion time and is drawn with its write time only."),
        Lang::En => format!("{count} responses have no completion time and are drawn with their write time only."),
        Lang::Ja => format!("{count} 件の応答には受信完了時間がなく、書き込み時間のみを描いています。"),
    }
}

pub fn tempfiles_desc(lang: Lang, runs: &[String]) -> String {
    let list = runs.join(", ");
    match lang {
        Lang::En => {
            format!("{}: logical size of the temporary files (MiB) against time (s), one line per run: {list}.", EN.tempfiles_title)
        }
        Lang::Ja => format!("{}：一時ファイルの論理サイズ（MiB）と時間（s）、ランごとに 1 本の線：{list}。", JA.tempfiles_title),
    }
}

pub fn resources_title(lang: Lang, run: &str) -> String {
    match lang {
        Lang::En => format!("CPU and memory over time: {run}"),
        Lang::Ja => format!("CPU とメモリの推移：{run}"),
    }
}

pub fn resources_desc(lang: Lang, run: &str, processes: &[String]) -> String {
    let title = resources_title(lang, run);
    let list = processes.join(", ");
    match lang {
        Lang::En => format!(
            "{title}. Top: CPU in % of one core; bottom: resident memory (MiB); against time (s), one line per process group: {list}."
        ),
        Lang::Ja => format!(
            "{title}。上：CPU（1 コアに対する %）、下：常駐メモリ（MiB）、横軸は時間（s）、プロセスグループごとに 1 本の線：{list}。"
        ),
    }
}

/// Shown instead of a chart when plotting failed.
pub fn failed(lang: Lang, error: &str) -> String {
    match lang {
        Lang::En => format!("This chart could not be drawn: {error}"),
        Lang::Ja => format!("この図は描画できませんでした：{error}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_labels_in_both_languages() {
        assert_eq!(rank_label(Lang::En, 69, 72, "5,958.77"), "69th of 72 = 5,958.77 ms");
        assert_eq!(rank_label(Lang::Ja, 69, 72, "5,958.77"), "72件中69番目 = 5,958.77 ms");
        assert_eq!(rank_label(Lang::En, 2_850_000, 3_000_000, "5,945.11"), "2,850,000th of 3,000,000 = 5,945.11 ms");
    }
}
