//! The words of the charts, in English and Japanese: titles, axis titles, legends, captions and
//! the accessible descriptions. Numbers are formatted by `crate::render::format`; a term the
//! pages also use is the glossary's word (`super::glossary`).

use super::{fill, grammar};
use crate::model::{HeadlineMetric, Lang};
use crate::render::format;

/// Joins the parts of a condition's or series' label (the one word in `i18n`).
pub fn join(lang: Lang) -> &'static str {
    crate::render::i18n::strings(lang).label_join
}

/// The plain strings of one language.
#[derive(serde::Serialize)]
pub struct Labels {
    pub no_data: &'static str,
    pub no_points: &'static str,
    pub time_axis: &'static str,
    /// The send-lag chart's axes and its note on lags of 0 or less.
    pub scheduled_axis: &'static str,
    pub lag_log_axis: &'static str,
    pub lag_floor_note: &'static str,
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
    /// The diamond of the write-vs-completion chart: the pooled median.
    pub pooled_legend: &'static str,
    /// What the temp-file chart draws.
    pub tempfiles_key: &'static str,
    pub tempfiles_representatives: &'static str,
    /// What the CPU and memory chart draws.
    pub resources_key: &'static str,
    /// What the ECDF of the conditions draws.
    pub ecdf_conditions_key: &'static str,
    /// What the write-vs-completion chart draws, in one caption.
    pub large_key: &'static str,
    pub tempfiles_title: &'static str,
    pub tempfiles_axis: &'static str,
    pub cpu_axis: &'static str,
    pub rss_axis: &'static str,
    pub all_runs: &'static str,
    /// Filled by `charts::each_level`.
    pub each_level: &'static str,
    /// A headline chart of one level of the factor the report draws one chart per level of
    /// (`at_level`): `{text}` is the chart's title or description, `{level}` "Route = small".
    pub at_level: &'static str,
    /// The drawn title of such a chart (`at_level_title`): "p95 latency by condition: Route = small".
    pub at_level_title: &'static str,
    /// Filled by `charts::run_mark`.
    pub run_mark: &'static str,
    /// Filled by `charts::range_mark`.
    pub range_mark: &'static str,
    /// Filled by `charts::point_mark`.
    pub point_mark: &'static str,
    /// Filled by `charts::time_series_title`.
    pub time_series_title: &'static str,
    /// Filled by `charts::send_lag_title`.
    pub send_lag_title: &'static str,
    /// Filled by `charts::lag_threshold`.
    pub lag_threshold: &'static str,
    /// Filled by `charts::send_lag_reduced`.
    pub send_lag_reduced: &'static str,
    /// Filled by `charts::ecdf_title`.
    pub ecdf_title: &'static str,
    /// Filled by `charts::ecdf_reduced`.
    pub ecdf_reduced: &'static str,
    /// Filled by `charts::resources_title`.
    pub resources_title: &'static str,
    /// Filled by `charts::failed`.
    pub failed: &'static str,
    /// Filled by `charts::time_series_errors_reduced`.
    pub time_series_errors_reduced: &'static str,
    /// Filled by `charts::send_lag_desc`.
    pub send_lag_desc: &'static str,
    /// Filled by `charts::time_series_banded`.
    pub time_series_banded: &'static str,
    /// Filled by `charts::time_series_all`.
    pub time_series_all: &'static str,
    /// Filled by `charts::column_mark`: one response, or several.
    pub column_mark_one: &'static str,
    pub column_mark: &'static str,
    /// Filled by `charts::slowest_mark`.
    pub slowest_mark: &'static str,
    /// Filled by `charts::time_series_coincide`.
    pub time_series_coincide: &'static str,
    /// Filled by `charts::ecdf_conditions_desc`.
    pub ecdf_conditions_desc: &'static str,
    /// Filled by `charts::resources_desc`.
    pub resources_desc: &'static str,
    /// A condition's median marker over one run.
    pub median_mark_one: &'static str,
    /// A condition's median marker over several runs.
    pub median_mark: &'static str,
    /// A request answered without a 2xx status.
    pub error_mark: &'static str,
    /// A request with no response.
    pub error_mark_no_response: &'static str,
    /// The conditions' ECDF chart when it shows every condition.
    pub ecdf_conditions_title_all: &'static str,
    /// The conditions' ECDF chart of one level.
    pub ecdf_conditions_title: &'static str,
    /// The caption of a log value axis (`{axis}` names it, `{ratio}` is the ratio from which an axis is logarithmic).
    pub scale_log: &'static str,
    /// The caption of a linear value axis that starts at 0.
    pub scale_linear: &'static str,
    /// The caption of a linear value axis that starts above 0.
    pub scale_linear_above_zero: &'static str,
    /// The legend entry of the series drawn as one grey range.
    pub other_series: &'static str,
    /// Which series are drawn on their own when there are too many.
    pub other_series_note: &'static str,
    /// A run with no factors.
    pub run_name: &'static str,
    /// A run and its condition.
    pub run_name_in_condition: &'static str,
    /// A time series' description of one point per response (`charts::time_series_desc`).
    pub time_series_desc: &'static str,
    /// A time series' description of a run drawn in columns of send time.
    pub time_series_desc_banded: &'static str,
    /// The sentence a time series' description adds on its dashed reference line.
    pub time_series_desc_reference: &'static str,
    /// The write-end line of a run with one large response.
    pub write_end_one: &'static str,
    /// The write-end lines of a run with several large responses.
    pub write_end_many: &'static str,
    /// In place of a time series of one response.
    pub too_few_one_response: &'static str,
    /// On the page of a run with one 2xx response, in place of its charts (`{value}` in ms).
    pub one_response_run: &'static str,
    /// In place of a time series whose responses share one send time.
    pub too_few_one_send_time: &'static str,
    /// In place of a time series whose responses fall on too few send times.
    pub too_few_send_times: &'static str,
    /// A run's ECDF description with nothing marked.
    pub ecdf_desc: &'static str,
    /// A run's ECDF description with its marked percentiles.
    pub ecdf_desc_marked: &'static str,
    /// One response with a write time but no completion time.
    pub incomplete_one: &'static str,
    /// Several responses with a write time but no completion time.
    pub incomplete_many: &'static str,
    /// The large-response chart's description.
    pub large_desc: &'static str,
    /// The temp-file chart's description.
    pub tempfiles_desc: &'static str,
    /// The headline figure's description (`charts::headline_desc`): with nothing drawn; its
    /// first part, over one run or several (`{count}` may be a range); the x axis; the scale;
    /// the series; and the whole, `{parts}` joined by `Strings::clause_sep`.
    pub headline_no_data: &'static str,
    pub headline_median_one: &'static str,
    pub headline_median_many: &'static str,
    pub headline_x_axis: &'static str,
    pub headline_log: &'static str,
    pub headline_linear: &'static str,
    pub headline_series: &'static str,
    pub headline_desc: &'static str,
    /// A time series' sentence on its error marks (`charts::time_series_errors`): `{marks}` is
    /// one kind of mark, or both joined by `errors_marked_both`.
    pub errors_marked: &'static str,
    pub errors_marked_both: &'static str,
    pub non_2xx_marks_one: &'static str,
    pub non_2xx_marks_many: &'static str,
    pub no_response_marks_one: &'static str,
    pub no_response_marks_many: &'static str,
    /// The legend of a time series with errors.
    pub legend_2xx: &'static str,
    pub legend_non_2xx: &'static str,
    pub legend_no_response: &'static str,
    /// The legend of a time series drawn in columns: its band, median line and slowest marks.
    pub legend_band: &'static str,
    pub legend_median: &'static str,
    pub legend_slowest: &'static str,
    /// The axes as `scale_log` and its kin name them.
    pub axis_y: &'static str,
    pub axis_x: &'static str,
    /// The comparison's forest chart (`charts::compare_forest`): its title, its figure's alt
    /// text, the ratio axis and the two directions along it (`{direction}` is the comparison's
    /// `faster`, `slower`, `better` or `worse`).
    pub forest_title: &'static str,
    pub forest_alt: &'static str,
    pub forest_axis: &'static str,
    pub forest_lower: &'static str,
    pub forest_higher: &'static str,
    /// The caption: `{levels}` the intervals' confidence levels, `{low}`–`{high}` the band a
    /// negligible verdict's interval lies in, `{threshold}` the negligible difference.
    pub forest_key: &'static str,
    /// A row's text: the condition and its ratio with the interval (`{ratio}`, as the table
    /// prints it); the ratio and why it has no interval; the page's head (`{head}`: condition and
    /// verdict) of a condition without a ratio, and of one decided by its failed requests.
    pub forest_row: &'static str,
    pub forest_row_why: &'static str,
    pub forest_no_ratio: &'static str,
    pub forest_by_failures: &'static str,
    /// The legend entry of the rows their failed requests decided.
    pub forest_failures_legend: &'static str,
    /// The description: the counts of conditions by verdict and by side of 1, then `{rows}`,
    /// each a `forest_desc_row`; `forest_desc_failures` when failed requests decided some.
    pub forest_desc: &'static str,
    pub forest_desc_failures: &'static str,
    pub forest_desc_row: &'static str,
}

const EN: Labels = Labels {
    no_data: "No data to draw",
    no_points: "No responses to draw for this run",
    time_axis: "Time since the run started (s)",
    scheduled_axis: "Scheduled send time since the run started (s)",
    lag_log_axis: "Send lag (ms, log scale)",
    lag_floor_note: "▽ marks a request sent on time or early (a lag of 0 ms or less), drawn at the bottom edge: a log scale has no place for it.",
    latency_log_axis: "Latency (ms, log scale)",
    share_axis: "Responses at or below (%)",
    headline_key: "Marker: median of the runs. Vertical line: fastest to slowest run. Faint points: each run.",
    floor_note: "▽ marks a value of 0 ms, drawn at the bottom edge: a log scale has no place for 0.",
    floor_note_left: "▽ marks a value of 0 ms, drawn at the left edge: a log scale has no place for 0.",
    large_title: "Large responses: app write time and client completion time",
    large_axis: "Time (s)",
    write_legend: "Write time (median of the runs)",
    complete_legend: "Completion time (median of the runs)",
    response_legend: "Each response",
    pooled_legend: "Median of all responses (the study's definition)",
    tempfiles_key: "At each sample, the sum of the logical sizes (st_size, not disk usage) of the reverse proxy's open temp files; the line joins the samples, and the marker at its end only names the line.",
    tempfiles_representatives: "One line per condition with temp files: its representative run.",
    resources_key: "CPU: % of one core between consecutive samples, summed over the processes of a group (a master and its workers, say); the kernel counts CPU time in 10 ms ticks, so the values move in steps. RSS: resident memory summed over the group. The marker at a line's end only names the line.",
    ecdf_conditions_key: "One line per condition: the sorted latencies of its condition's representative run (the run whose {by} is the condition's median; the percentiles a line's title gives are that one run's, not the tables' medians of runs). A line that rises late means most requests were slow; a line that rises early and flattens near the top means only a few were.",
    large_key: "Bar and number: per condition, the median over its runs of each run's median response. Line: the runs' min-max range. Diamond: the median of all responses pooled, as the original study drew it. Dots: every response. Log scale, so milliseconds and seconds are both visible.",
    tempfiles_title: "Temp files over time",
    tempfiles_axis: "Temp files (MiB, logical size)",
    cpu_axis: "CPU (% of one core)",
    rss_axis: "RSS (MiB)",
    all_runs: "All runs",
    each_level: "each {factor}",
    at_level: "{text} ({level} only; one chart per level, each with its own axis)",
    at_level_title: "{text}: {level}",
    run_mark: "{run}: {value}",
    range_mark: "{condition}: runs from {low} to {high}",
    point_mark: "sent at {sent_s} s, {latency} ms",
    time_series_title: "Latency over time: {run}",
    send_lag_title: "Send lag: {run}",
    lag_threshold: "threshold {value_ms} ms",
    send_lag_reduced: "{shown} of {total} responses drawn: in each pixel column the least and the greatest lag.",
    ecdf_title: "Latency distribution (ECDF): {run}",
    ecdf_reduced: "{shown} of {total} points drawn (evenly spaced ranks, the slowest requests above p99, and the p{p} rank)",
    resources_title: "CPU and memory over time: {run}",
    failed: "This chart could not be drawn: {error}",
    time_series_errors_reduced: "{shown} of {total} errors marked (in each of {columns} columns of send time the fastest and slowest non-2xx response and the first request with no response)",
    send_lag_desc: "{title}. One point per 2xx response: its scheduled send time (s) against how late it was sent (ms, log scale). Dashed line: the flag threshold, {threshold_ms} ms.",
    time_series_banded: "{columns} columns of send time and their {columns} slowest responses (dots) stand for {total} 2xx responses: each column draws the band from p50 to p95 of its responses and their median (line). Point at a column for its values.",
    time_series_all: "{total} points: one per 2xx response.",
    column_mark_one: "{from}–{to} s: 1 response, {latency} ms",
    column_mark: "{from}–{to} s: {requests} responses, p50 {p50} ms, p95 {p95} ms, slowest {max} ms",
    slowest_mark: "slowest of its column: sent at {sent_s} s, {latency} ms",
    time_series_coincide: "{total} responses at {shown} distinct points: responses with the same send time and latency are drawn as one point.",
    ecdf_conditions_desc: "{title}. Share of 2xx responses at or below each latency (ms, log scale), one line per run: {list}.",
    resources_desc: "{title}. Top: CPU in % of one core; bottom: resident memory (MiB); against time (s), one line per process group: {list}.",
    median_mark_one: "{condition}: {runs} run, {value}",
    median_mark: "{condition}: median of {runs} runs, {value}",
    error_mark: "sent at {sent_s} s, status {status}, {latency} ms",
    error_mark_no_response: "sent at {sent_s} s, no response",
    ecdf_conditions_title_all: "Latency distribution by condition (ECDF of the representative runs)",
    ecdf_conditions_title: "Latency distribution by condition (ECDF of the representative runs): {level}",
    scale_log: "Log scale on the {axis} axis: its largest value is {ratio} times its smallest or more.",
    scale_linear: "Linear scale on the {axis} axis: its largest value is less than {ratio} times its smallest.",
    scale_linear_above_zero: "Linear scale on the {axis} axis: its largest value is less than {ratio} times its smallest. The axis does not start at 0.",
    other_series: "{n} other series (grey: their lowest to highest run)",
    other_series_note: "Drawn on their own: the {shown} series with the highest median; the other {others} are one grey range per level. The table lists every condition.",
    run_name: "run {run}",
    run_name_in_condition: "run {run} ({condition})",
    time_series_desc: "{title}. One point per 2xx response, {total} in all: send time (s) against latency (ms, log scale).",
    time_series_desc_banded: "{title}. {total} 2xx responses in {columns} columns of send time (s): per column the band from p50 to p95 of its responses, their median and the slowest, against latency (ms, log scale).",
    time_series_desc_reference: "Dashed line: {reference}.",
    write_end_one: "Dotted vertical line: the moment the app finished writing the run's large response.",
    write_end_many: "Dotted vertical lines: the moments the app finished writing each of the run's {n} large responses.",
    too_few_one_response: "No course over time to show: the run has one response. The ECDF shows its latency.",
    one_response_run: "The run has one 2xx response, of {value} ms: its distribution and its course over time would be one point each, so no chart is drawn.",
    too_few_one_send_time: "No course over time to show: all {n} responses have one send time. The ECDF shows their latencies.",
    too_few_send_times: "No course over time to show: the {n} responses have only {send_times} send times. The ECDF shows their latencies.",
    ecdf_desc: "{title}. Share of 2xx responses at or below each latency (ms, log scale).",
    ecdf_desc_marked: "{title}. Share of 2xx responses at or below each latency (ms, log scale). Marked: {marked}.",
    incomplete_one: "{count} response has no completion time and is drawn with its write time only.",
    incomplete_many: "{count} responses have no completion time and are drawn with their write time only.",
    large_desc: "{title}. For each of {conditions} conditions, a bar for the median write time and one for the median completion time (s), and a dot per response.",
    tempfiles_desc: "{title}: logical size of the temp files (MiB) against time (s), one line per run: {list}.",
    headline_no_data: "{title}: no data.",
    headline_median_one: "{title}: median of {count} run with min-max range",
    headline_median_many: "{title}: median of {count} runs with min-max range",
    headline_x_axis: "x axis: {x_axis}",
    headline_log: "log-scale y axis",
    headline_linear: "linear y axis",
    headline_series: "series: {list}",
    headline_desc: "{parts}.",
    errors_marked: "Marked in vermillion: {marks}.",
    errors_marked_both: "{errors} and {unanswered}",
    non_2xx_marks_one: "{n} response with a non-2xx status (crosses, at their latency)",
    non_2xx_marks_many: "{n} responses with a non-2xx status (crosses, at their latency)",
    no_response_marks_one: "{n} request with no response (triangles along the top edge)",
    no_response_marks_many: "{n} requests with no response (triangles along the top edge)",
    legend_2xx: "2xx response",
    legend_non_2xx: "non-2xx response",
    legend_no_response: "no response (top edge)",
    legend_band: "p50–p95 of a column",
    legend_median: "median",
    legend_slowest: "slowest response",
    axis_y: "y",
    axis_x: "x",
    forest_title: "{metric}, candidate / baseline, by condition",
    forest_alt: "{metric} of every matched condition as the ratio candidate / baseline with its interval, on one shared log scale",
    forest_axis: "candidate / baseline (log scale)",
    forest_lower: "← lower: {direction}",
    forest_higher: "higher: {direction} →",
    forest_key: "Each row: the ratio of the two sides' geometric means over their runs (marker) and its {levels} interval (line). The line at 1 is no difference; the band {low}–{high} is within {threshold} of 1, and a verdict is negligible when the whole interval lies in it.",
    forest_row: "{condition}: {ratio}",
    forest_row_why: "{condition}: {ratio}, {why}",
    forest_no_ratio: "{head}; no ratio to draw",
    forest_by_failures: "{head}; {metric} of the requests that succeeded {ratio}",
    forest_failures_legend: "decided by failed requests",
    forest_desc: "{metric} of each of the {matched} matched conditions as the ratio candidate / baseline with its interval, on one shared log scale. Verdicts: candidate {better} in {faster}, {worse} in {slower}, negligible in {negligible}, cannot tell in {not_shown}. The ratio is below 1 in {below} and above 1 in {above}.{failures} {rows}.",
    forest_desc_failures: " Failed requests decided {n} of the verdicts.",
    forest_desc_row: "{head}, {ratio}",
};

const JA: Labels = Labels {
    no_data: "描画するデータがありません",
    no_points: "この測定には描画する応答がありません",
    time_axis: "測定開始からの時間（秒）",
    scheduled_axis: "測定開始からの予定送信時刻（秒）",
    lag_log_axis: "送信の遅れ（ms、対数目盛）",
    lag_floor_note: "▽は予定どおりかそれより早く送信したリクエスト（遅れ0 ms以下）で、下端に描いています。対数目盛には0以下の位置がないためです。",
    latency_log_axis: "応答時間（ms、対数目盛）",
    share_axis: "この値以下の応答の割合（%）",
    headline_key: "印：各測定の値の中央値。縦線：最小〜最大。薄い点：各測定の値。",
    floor_note: "▽は0 msの値です。対数目盛には0の位置がないため、下端に描いています。",
    floor_note_left: "▽は0 msの値です。対数目盛には0の位置がないため、左端に描いています。",
    large_title: "大きな応答：アプリの書き込み時間とクライアントの受信完了時間",
    large_axis: "時間（秒）",
    write_legend: "書き込み時間（測定の中央値）",
    complete_legend: "受信完了時間（測定の中央値）",
    response_legend: "各応答",
    pooled_legend: "全応答の中央値（元の記事の定義）",
    tempfiles_key: "各標本の時点で、リバースプロキシが開いている一時ファイルの論理サイズ（st_size。ディスク使用量ではありません）の合計。線は標本を結んだもので、線の端の印は線の区別のためだけのものです。",
    tempfiles_representatives: "一時ファイルのある条件ごとに1本：その条件の代表の測定。",
    resources_key: "CPU：連続する標本の間の、1コアに対する%。グループ内の全プロセスの合計です（たとえばマスターとワーカーの合計）。カーネルはCPU時間を10 ms単位で数えるため、値は階段状に変わります。RSS：グループ内の常駐メモリの合計。線の端の印は線の区別のためだけのものです。",
    ecdf_conditions_key: "条件ごとに1本の線：その条件の代表の測定（{by}が条件の中央値になる測定）の応答時間を並べたもの。線の説明にあるパーセンタイルはその1回の値で、表にある回の中央値ではありません。線の立ち上がりが遅ければ大半のリクエストが遅く、早く立ち上がって上端近くで横ばいになれば遅かったのは一部だけです。",
    large_key: "棒と数値：条件ごとに、各測定の応答の中央値を取り、さらに測定間の中央値を取った値。線：測定間の最小〜最大。ひし形：全応答をまとめた中央値（元の記事のグラフと同じ定義）。点：各応答。ミリ秒と秒の両方が見えるよう対数目盛で描いています。",
    tempfiles_title: "一時ファイルの推移",
    tempfiles_axis: "一時ファイル（MiB、論理サイズ）",
    cpu_axis: "CPU（1コアに対する%）",
    rss_axis: "RSS（MiB）",
    all_runs: "全測定",
    each_level: "{factor}の各水準",
    at_level: "{text}（{level}のみ。水準ごとに1つの図で、軸はそれぞれ独自）",
    at_level_title: "{text}（{level}）",
    run_mark: "{run}：{value}",
    range_mark: "{condition}：測定の最小{low}〜最大{high}",
    point_mark: "送信{sent_s}秒、{latency} ms",
    time_series_title: "応答時間の推移：{run}",
    send_lag_title: "送信の遅れ：{run}",
    lag_threshold: "閾値 {value_ms} ms",
    send_lag_reduced: "{total}件中{shown}件を描画：横1ピクセルごとに最小と最大の遅れ。",
    ecdf_title: "応答時間の累積分布（ECDF）：{run}",
    ecdf_reduced: "{total}点中{shown}点を描画（等間隔の順位、p99を超える遅いリクエスト、およびp{p}の順位）",
    resources_title: "CPUとメモリの推移：{run}",
    failed: "このグラフは描画できませんでした：{error}",
    time_series_errors_reduced: "エラー{total}件中{shown}件を表示（送信時刻の{columns}列それぞれで最速と最遅の2xx以外の応答、および最初の応答のないリクエスト）",
    send_lag_desc: "{title}。2xx応答ごとに1点：予定送信時刻（秒）と送信の遅れ（ms、対数目盛）。破線：注意の閾値{threshold_ms} ms。",
    time_series_banded: "2xx応答{total}件を送信時刻の{columns}列と、各列で最も遅い応答の{columns}個の点で描画：列ごとに応答のp50〜p95の帯と中央値（線）。列を指すとその値を表示します。",
    time_series_all: "2xx応答ごとに1点、全{total}点。",
    column_mark_one: "{from}〜{to}秒：応答1件、{latency} ms",
    column_mark: "{from}〜{to}秒：応答{requests}件、p50 {p50} ms、p95 {p95} ms、最遅{max} ms",
    slowest_mark: "列で最も遅い応答：送信{sent_s}秒、{latency} ms",
    time_series_coincide: "{total}件の応答が{shown}点に重なっています。送信時刻と応答時間が同じ応答は1点で描いています。",
    ecdf_conditions_desc: "{title}。各応答時間（ms、対数目盛）以下の2xx応答の割合。測定ごとに1本の線：{list}。",
    resources_desc: "{title}。上：CPU（1コアに対する%）、下：常駐メモリ（MiB）。横軸は時間（秒）、プロセスグループごとに1本の線：{list}。",
    median_mark_one: "{condition}：{runs}回の測定の中央値、{value}",
    median_mark: "{condition}：{runs}回の測定の中央値、{value}",
    error_mark: "送信{sent_s}秒、ステータス{status}、{latency} ms",
    error_mark_no_response: "送信{sent_s}秒、応答なし",
    ecdf_conditions_title_all: "条件別の応答時間の累積分布（代表の測定のECDF）",
    ecdf_conditions_title: "条件別の応答時間の累積分布（代表の測定のECDF）：{level}",
    scale_log: "{axis}軸は対数目盛：最大値が最小値の{ratio}倍以上のため。",
    scale_linear: "{axis}軸は等間隔の目盛：最大値が最小値の{ratio}倍未満のため。",
    scale_linear_above_zero: "{axis}軸は等間隔の目盛：最大値が最小値の{ratio}倍未満のため。目盛は0から始まっていません。",
    other_series: "その他の{n}系列（灰色：最小〜最大）",
    other_series_note: "中央値が最も大きい{shown}系列だけを個別に描き、残りの{others}系列は水準ごとに1本の灰色の範囲にまとめています。全条件は表にあります。",
    run_name: "測定{run}",
    run_name_in_condition: "測定{run}（{condition}）",
    time_series_desc: "{title}。2xx応答ごとに1点、全{total}件：送信時刻（秒）と応答時間（ms、対数目盛）。",
    time_series_desc_banded: "{title}。2xx応答{total}件を送信時刻（秒）の{columns}列にまとめ、列ごとに応答のp50〜p95の帯、中央値、最も遅い応答を応答時間（ms、対数目盛）で描いています。",
    time_series_desc_reference: "破線：{reference}。",
    write_end_one: "縦の点線：この測定の大きな応答1件それぞれについて、アプリが書き込みを終えた時刻。",
    write_end_many: "縦の点線：この測定の大きな応答{n}件それぞれについて、アプリが書き込みを終えた時刻。",
    too_few_one_response: "時間の推移は描けません：応答が1件だけです。応答時間は累積分布のグラフにあります。",
    one_response_run: "この測定の2xx応答は1件（{value} ms）だけです。分布も時間の推移も1点になるため、グラフは描きません。",
    too_few_one_send_time: "時間の推移は描けません：{n}件の応答の送信時刻がすべて同じです。応答時間は累積分布のグラフにあります。",
    too_few_send_times: "時間の推移は描けません：{n}件の応答の送信時刻が{send_times}種類しかありません。応答時間は累積分布のグラフにあります。",
    ecdf_desc: "{title}。各応答時間（ms、対数目盛）以下の2xx応答の割合。",
    ecdf_desc_marked: "{title}。各応答時間（ms、対数目盛）以下の2xx応答の割合。印：{marked}。",
    incomplete_one: "{count}件の応答には完了時間がなく、書き込み時間だけを描いています。",
    incomplete_many: "{count}件の応答には完了時間がなく、書き込み時間だけを描いています。",
    large_desc: "{title}。{conditions}条件それぞれについて、書き込み時間と受信完了時間（秒）の中央値の棒と、応答ごとの点。",
    tempfiles_desc: "{title}：一時ファイルの論理サイズ（MiB）と時間（秒）、測定ごとに1本の線：{list}。",
    headline_no_data: "{title}：データなし。",
    headline_median_one: "{title}：{count}回の測定の中央値と最小〜最大の範囲",
    headline_median_many: "{title}：{count}回の測定の中央値と最小〜最大の範囲",
    headline_x_axis: "横軸：{x_axis}",
    headline_log: "縦軸は対数目盛",
    headline_linear: "縦軸は等間隔の目盛",
    headline_series: "系列：{list}",
    headline_desc: "{parts}。",
    errors_marked: "朱色の印：{marks}。",
    errors_marked_both: "{errors}と{unanswered}",
    non_2xx_marks_one: "2xx以外の応答{n}件（×、その応答時間の位置）",
    non_2xx_marks_many: "2xx以外の応答{n}件（×、その応答時間の位置）",
    no_response_marks_one: "応答のないリクエスト{n}件（▲、上端）",
    no_response_marks_many: "応答のないリクエスト{n}件（▲、上端）",
    legend_2xx: "2xx応答",
    legend_non_2xx: "2xx以外の応答",
    legend_no_response: "応答なし（上端）",
    legend_band: "列のp50〜p95",
    legend_median: "中央値",
    legend_slowest: "最も遅い応答",
    axis_y: "縦",
    axis_x: "横",
    forest_title: "条件ごとの{metric}の比（比較対象÷ベースライン）",
    forest_alt: "対応する全条件の{metric}の比（比較対象÷ベースライン）とその区間、共通の対数目盛",
    forest_axis: "比較対象÷ベースライン（対数目盛）",
    forest_lower: "←低い：{direction}",
    forest_higher: "高い：{direction}→",
    forest_key: "各行：両側の測定の幾何平均の比（印）とその{levels}区間（線）。1の線は差なし、{low}〜{high}の帯は1から{threshold}以内で、区間全体がこの帯に入ると判定は実質同じです。",
    forest_row: "{condition}：{ratio}",
    forest_row_why: "{condition}：{ratio}、{why}",
    forest_no_ratio: "{head}。描ける比はありません",
    forest_by_failures: "{head}。成功したリクエストの{metric}の比は{ratio}",
    forest_failures_legend: "失敗したリクエストで判定",
    forest_desc: "対応する{matched}件の条件それぞれの{metric}の比（比較対象÷ベースライン）とその区間を、共通の対数目盛に描いたグラフです。判定は、比較対象が{better}が{faster}件、{worse}が{slower}件、実質同じが{negligible}件、判断できないが{not_shown}件です。比が1より小さい条件は{below}件、大きい条件は{above}件です。{failures}{rows}。",
    forest_desc_failures: "失敗したリクエストで決まった判定が{n}件あります。",
    forest_desc_row: "{head}、{ratio}",
};

pub fn labels(lang: Lang) -> &'static Labels {
    match lang {
        Lang::En => &EN,
        Lang::Ja => &JA,
    }
}

/// "p95 latency by condition", "Requests/s by condition": the headline chart's title; `p` is
/// the headline percentile as written ("95").
pub fn headline_title(lang: Lang, metric: HeadlineMetric, p: &str) -> String {
    fill(crate::render::i18n::metric_words(lang, metric).chart_title, &[("p", &format!("p{p}"))])
}

/// "p95 latency (ms, log scale)".
pub fn headline_axis(lang: Lang, metric: HeadlineMetric, p: &str) -> String {
    fill(crate::render::i18n::metric_words(lang, metric).chart_axis, &[("p", &format!("p{p}"))])
}

/// The headline chart's y axis title on a linear scale: "p95 latency (ms)".
pub fn headline_axis_linear(lang: Lang, metric: HeadlineMetric, p: &str) -> String {
    fill(crate::render::i18n::metric_words(lang, metric).chart_axis_linear, &[("p", &format!("p{p}"))])
}

/// The caption that says which scale the value axis takes, and why (`axis` names it: "y",
/// "x"); `from_zero` is false for a linear axis that starts above 0.
pub fn scale_note(lang: Lang, log: bool, from_zero: bool, axis: &str) -> String {
    let ratio = format::count(crate::render::charts::LOG_FROM_RATIO as u64);
    let words = labels(lang);
    let template = match (log, from_zero) {
        (true, _) => words.scale_log,
        (false, true) => words.scale_linear,
        (false, false) => words.scale_linear_above_zero,
    };
    fill(template, &[("axis", axis), ("ratio", &ratio)])
}

/// The axis names [`scale_note`] takes: the vertical and the horizontal.
pub fn axis_names(lang: Lang) -> (&'static str, &'static str) {
    let words = labels(lang);
    (words.axis_y, words.axis_x)
}

/// A headline value in a mark's title: "p95 = 12.00 ms", "769.2 requests/s".
pub fn mark_value(lang: Lang, metric: HeadlineMetric, p: &str, value: &str) -> String {
    fill(crate::render::i18n::metric_words(lang, metric).mark_value, &[("p", &format!("p{p}")), ("value", value)])
}

/// The x levels of a chart that overlays them all: "each Python".
pub fn each_level(lang: Lang, factor: &str) -> String {
    fill(labels(lang).each_level, &[("factor", factor)])
}

/// A headline chart's title or description at one level: "p95 latency by condition (Route = small
/// only; one chart per level, each with its own axis)".
pub fn at_level(lang: Lang, text: &str, level: &str) -> String {
    fill(labels(lang).at_level, &[("text", text), ("level", level)])
}

/// The title drawn on a headline chart at one level: "p95 latency by condition: Route = small".
pub fn at_level_title(lang: Lang, text: &str, level: &str) -> String {
    fill(labels(lang).at_level_title, &[("text", text), ("level", level)])
}

/// The title of a run's mark: "run r1 (nginx · 2): p95 = 12.00 ms".
pub fn run_mark(lang: Lang, run: &str, value: &str) -> String {
    fill(labels(lang).run_mark, &[("run", run), ("value", value)])
}

/// The title of a condition's median marker: "nginx · 2: median of 3 runs, p95 = 12.00 ms".
pub fn median_mark(lang: Lang, condition: &str, runs: usize, value: &str) -> String {
    let words = labels(lang);
    let template = grammar::plural(runs as u64, words.median_mark_one, words.median_mark);
    fill(template, &[("condition", condition), ("runs", &runs.to_string()), ("value", value)])
}

/// The title of a condition's range line: "nginx · 2: runs from 11.00 to 13.00 ms".
pub fn range_mark(lang: Lang, condition: &str, low: &str, high: &str) -> String {
    fill(labels(lang).range_mark, &[("condition", condition), ("low", low), ("high", high)])
}

/// The title of a time-series point: "sent at 12.350 s, 52.00 ms". A time series is of one
/// run, which its title names, so its marks do not repeat it.
pub fn point_mark(lang: Lang, sent_s: &str, latency: &str) -> String {
    fill(labels(lang).point_mark, &[("sent_s", sent_s), ("latency", latency)])
}

/// The title of a request without a 2xx response: "sent at 1.500 s, status 503, 2.00 ms" or
/// "…, no response".
pub fn error_mark(lang: Lang, sent_s: &str, status: u16, latency: Option<&str>) -> String {
    let words = labels(lang);
    match latency {
        Some(latency) => fill(words.error_mark, &[("sent_s", sent_s), ("status", &status.to_string()), ("latency", latency)]),
        None => fill(words.error_mark_no_response, &[("sent_s", sent_s)]),
    }
}

/// The values of one column of a time series drawn in columns, as numbers formatted for it.
pub struct ColumnValues<'a> {
    pub from_s: &'a str,
    pub to_s: &'a str,
    pub requests: u64,
    pub p50: &'a str,
    pub p95: &'a str,
    pub max: &'a str,
}

/// The title of a column of send time: "12.30–12.40 s: 440 responses, p50 9.80 ms, p95
/// 52.00 ms, slowest 1,000.00 ms"; of one response, its latency alone.
pub fn column_mark(lang: Lang, column: &ColumnValues) -> String {
    let words = labels(lang);
    let template = if column.requests == 1 { words.column_mark_one } else { words.column_mark };
    let requests = format::count(column.requests);
    let values = [
        ("from", column.from_s),
        ("to", column.to_s),
        ("requests", requests.as_str()),
        ("p50", column.p50),
        ("p95", column.p95),
        ("max", column.max),
        ("latency", column.max),
    ];
    fill(template, &values)
}

/// The title of a column's slowest response: "slowest of its column: sent at 12.345 s,
/// 1,000.00 ms" (the column's own title gives its span).
pub fn slowest_mark(lang: Lang, sent_s: &str, latency: &str) -> String {
    fill(labels(lang).slowest_mark, &[("sent_s", sent_s), ("latency", latency)])
}

/// The title of a run's ECDF line: "run r06 (nginx · 2): p50 = 10.00 ms, p95 = 52.00 ms, max = 1,000.00 ms".
pub fn ecdf_line_mark(lang: Lang, run: &str, values: &[(String, String)]) -> String {
    let list: Vec<String> = values.iter().map(|(name, value)| format!("{name} = {value} ms")).collect();
    run_mark(lang, run, &list.join(crate::render::i18n::strings(lang).list_sep))
}

/// The headline chart's note on values of 0.
pub fn headline_floor_note(lang: Lang, metric: HeadlineMetric) -> &'static str {
    crate::render::i18n::metric_words(lang, metric).floor_note.unwrap_or(labels(lang).floor_note)
}

/// The ECDF of the conditions' key: which run stands for a condition.
pub fn ecdf_conditions_key(lang: Lang, metric: HeadlineMetric) -> String {
    fill(labels(lang).ecdf_conditions_key, &[("by", crate::render::i18n::metric_words(lang, metric).representative_by)])
}

/// The headline figure's description: "p95 latency by condition: median of 3 runs with min-max
/// range; x axis: downloads; log-scale y axis; series: direct, nginx." `runs` is the fewest and
/// most runs behind a condition, `None` when nothing is drawn.
pub fn headline_desc(
    lang: Lang,
    metric: HeadlineMetric,
    p: &str,
    runs: Option<(usize, usize)>,
    x_axis: &str,
    series: &[String],
    log: bool,
) -> String {
    let title = headline_title(lang, metric, p);
    let words = labels(lang);
    let Some((fewest, most)) = runs else {
        return fill(words.headline_no_data, &[("title", &title)]);
    };
    let t = crate::render::i18n::strings(lang);
    let count = if fewest == most { fewest.to_string() } else { format!("{fewest}{}{most}", t.range_dash) };
    let median = grammar::plural(most as u64, words.headline_median_one, words.headline_median_many);
    let mut parts = vec![fill(median, &[("title", &title), ("count", &count)])];
    if !x_axis.is_empty() {
        parts.push(fill(words.headline_x_axis, &[("x_axis", x_axis)]));
    }
    parts.push(if log { words.headline_log } else { words.headline_linear }.to_string());
    if !series.is_empty() {
        parts.push(fill(words.headline_series, &[("list", &series.join(t.list_sep))]));
    }
    fill(words.headline_desc, &[("parts", &parts.join(t.clause_sep))])
}

/// The counts a forest chart's description states ([`forest_desc`]): the matched conditions by
/// verdict, by side of 1, and those their failed requests decided.
pub struct ForestCounts {
    pub matched: u64,
    pub faster: u64,
    pub slower: u64,
    pub negligible: u64,
    pub not_shown: u64,
    pub below: u64,
    pub above: u64,
    pub by_failures: u64,
}

/// The forest chart's description: what it draws, the counts, then `rows` (one sentence part
/// per condition). `better` and `worse` are the comparison's direction words.
pub fn forest_desc(lang: Lang, metric: &str, (better, worse): (&str, &str), n: &ForestCounts, rows: &[String]) -> String {
    let words = labels(lang);
    let t = crate::render::i18n::strings(lang);
    let count = |v: u64| format::count(v);
    let failures = if n.by_failures == 0 { String::new() } else { fill(words.forest_desc_failures, &[("n", &count(n.by_failures))]) };
    fill(
        words.forest_desc,
        &[
            ("metric", metric),
            ("matched", &count(n.matched)),
            ("better", better),
            ("worse", worse),
            ("faster", &count(n.faster)),
            ("slower", &count(n.slower)),
            ("negligible", &count(n.negligible)),
            ("not_shown", &count(n.not_shown)),
            ("below", &count(n.below)),
            ("above", &count(n.above)),
            ("failures", &failures),
            ("rows", &rows.join(t.clause_sep)),
        ],
    )
}

/// The legend entry of the series the headline chart draws as one grey range.
pub fn other_series(lang: Lang, n: usize) -> String {
    fill(labels(lang).other_series, &[("n", &format::count(n as u64))])
}

/// The caption that says which series are drawn on their own when there are too many.
pub fn other_series_note(lang: Lang, shown: usize, others: usize) -> String {
    fill(labels(lang).other_series_note, &[("shown", &shown.to_string()), ("others", &format::count(others as u64))])
}

/// "run r1 (nginx · 2)".
pub fn run_name(lang: Lang, run_id: &str, condition: &str) -> String {
    let words = labels(lang);
    let template = if condition.is_empty() { words.run_name } else { words.run_name_in_condition };
    fill(template, &[("run", run_id), ("condition", condition)])
}

pub fn time_series_title(lang: Lang, run: &str) -> String {
    fill(labels(lang).time_series_title, &[("run", run)])
}

/// A time series' description: what it draws and how many responses that stands for (one point
/// each, or `columns` columns of send time when `columns` is given), then its reference line.
pub fn time_series_desc(lang: Lang, run: &str, total: u64, columns: Option<usize>, reference: Option<&str>) -> String {
    let title = time_series_title(lang, run);
    let words = labels(lang);
    let total = format::count(total);
    let mut desc = match columns {
        Some(columns) => fill(words.time_series_desc_banded, &[("title", &title), ("total", &total), ("columns", &columns.to_string())]),
        None => fill(words.time_series_desc, &[("title", &title), ("total", &total)]),
    };
    if let Some(reference) = reference {
        desc.push_str(crate::render::i18n::strings(lang).sentence_gap);
        desc.push_str(&fill(words.time_series_desc_reference, &[("reference", reference)]));
    }
    desc
}

/// The sentence of a time series' description that says how errors are marked, when there are any.
pub fn time_series_errors(lang: Lang, non_2xx: u64, no_response: u64) -> Option<String> {
    let words = labels(lang);
    let errors = fill(grammar::plural(non_2xx, words.non_2xx_marks_one, words.non_2xx_marks_many), &[("n", &format::count(non_2xx))]);
    let unanswered = fill(
        grammar::plural(no_response, words.no_response_marks_one, words.no_response_marks_many),
        &[("n", &format::count(no_response))],
    );
    let marks = match (non_2xx > 0, no_response > 0) {
        (false, false) => return None,
        (true, true) => fill(words.errors_marked_both, &[("errors", &errors), ("unanswered", &unanswered)]),
        (true, false) => errors,
        (false, true) => unanswered,
    };
    Some(fill(words.errors_marked, &[("marks", &marks)]))
}

/// Legend labels of a time series with errors: 2xx responses, non-2xx responses, no response.
pub fn time_series_legend(lang: Lang) -> [&'static str; 3] {
    let words = labels(lang);
    [words.legend_2xx, words.legend_non_2xx, words.legend_no_response]
}

/// Legend labels of a time series drawn in columns: the band, the median line, the slowest.
pub fn time_series_band_legend(lang: Lang) -> [&'static str; 3] {
    let words = labels(lang);
    [words.legend_band, words.legend_median, words.legend_slowest]
}

/// The caption of a time series whose error marks were reduced, in `columns` columns.
pub fn time_series_errors_reduced(lang: Lang, shown: &str, total: &str, columns: usize) -> String {
    fill(labels(lang).time_series_errors_reduced, &[("shown", shown), ("total", total), ("columns", &columns.to_string())])
}

/// The caption of the write-end lines of a time series.
pub fn write_end_note(lang: Lang, n: usize) -> String {
    let words = labels(lang);
    fill(grammar::plural(n as u64, words.write_end_one, words.write_end_many), &[("n", &n.to_string())])
}

/// The headline reference: "p95 = 5,958.77 ms".
pub fn send_lag_title(lang: Lang, run: &str) -> String {
    fill(labels(lang).send_lag_title, &[("run", run)])
}

pub fn send_lag_desc(lang: Lang, run: &str, threshold_ms: &str) -> String {
    let title = send_lag_title(lang, run);
    fill(labels(lang).send_lag_desc, &[("title", &title), ("threshold_ms", threshold_ms)])
}

/// The send-lag chart's reference line: "threshold 20.00 ms".
pub fn lag_threshold(lang: Lang, value_ms: &str) -> String {
    fill(labels(lang).lag_threshold, &[("value_ms", value_ms)])
}

/// Under the send-lag chart of a long run.
pub fn send_lag_reduced(lang: Lang, shown: &str, total: &str) -> String {
    fill(labels(lang).send_lag_reduced, &[("shown", shown), ("total", total)])
}

pub fn reference(p: &str, value_ms: &str) -> String {
    format!("p{p} = {value_ms} ms")
}

/// The caption of a time series drawn in columns: how many columns stand for how many responses.
pub fn time_series_banded(lang: Lang, columns: usize, total: u64) -> String {
    fill(labels(lang).time_series_banded, &[("columns", &columns.to_string()), ("total", &format::count(total))])
}

/// The caption of a time series drawn point by point, each 2xx response a point of its own.
pub fn time_series_all(lang: Lang, total: u64) -> String {
    fill(labels(lang).time_series_all, &[("total", &format::count(total))])
}

/// The caption of a time series whose responses coincide (same send time and latency), each
/// place drawn once: not a reduction.
pub fn time_series_coincide(lang: Lang, shown: &str, total: &str) -> String {
    fill(labels(lang).time_series_coincide, &[("total", total), ("shown", shown)])
}

/// Shown in place of a time series whose responses fall on too few send times to show a course.
pub fn too_few_send_times(lang: Lang, responses: u64, send_times: usize) -> String {
    let words = labels(lang);
    let template = match (responses, send_times) {
        (1, _) => words.too_few_one_response,
        (_, 1) => words.too_few_one_send_time,
        _ => words.too_few_send_times,
    };
    fill(template, &[("n", &format::count(responses)), ("send_times", &send_times.to_string())])
}

/// "Latency distribution by condition: Slow downloads = 2".
pub fn ecdf_conditions_title(lang: Lang, level: &str) -> String {
    let words = labels(lang);
    if level.is_empty() {
        words.ecdf_conditions_title_all.to_string()
    } else {
        fill(words.ecdf_conditions_title, &[("level", level)])
    }
}

pub fn ecdf_conditions_desc(lang: Lang, level: &str, lines: &[String]) -> String {
    let title = ecdf_conditions_title(lang, level);
    let list = lines.join(crate::render::i18n::strings(lang).list_sep);
    fill(labels(lang).ecdf_conditions_desc, &[("title", &title), ("list", &list)])
}

pub fn ecdf_title(lang: Lang, run: &str) -> String {
    fill(labels(lang).ecdf_title, &[("run", run)])
}

pub fn ecdf_desc(lang: Lang, run: &str, marked: Option<&str>) -> String {
    let title = ecdf_title(lang, run);
    let words = labels(lang);
    let template = if marked.is_some() { words.ecdf_desc_marked } else { words.ecdf_desc };
    fill(template, &[("title", &title), ("marked", marked.unwrap_or_default())])
}

/// The caption of a reduced ECDF.
pub fn ecdf_reduced(lang: Lang, shown: &str, total: &str, p: &str) -> String {
    fill(labels(lang).ecdf_reduced, &[("shown", shown), ("total", total), ("p", p)])
}

/// "69th of 72 = 5,958.77 ms" / "72件中69番目 = 5,958.77 ms".
/// The last rank is labelled as the maximum it is.
pub fn rank_label(lang: Lang, rank: u64, n: u64, value_ms: &str) -> String {
    let tag = if rank == n { super::strings(lang).maximum_tag } else { "" };
    format!("{}{tag} = {value_ms} ms", super::prose::rank_of(lang, rank, n))
}

pub fn large_desc(lang: Lang, conditions: usize) -> String {
    let words = labels(lang);
    fill(words.large_desc, &[("title", words.large_title), ("conditions", &conditions.to_string())])
}

/// Responses that have a write time but no completion time.
pub fn incomplete_note(lang: Lang, n: u64, count: &str) -> String {
    let words = labels(lang);
    fill(grammar::plural(n, words.incomplete_one, words.incomplete_many), &[("count", count)])
}

pub fn tempfiles_desc(lang: Lang, runs: &[String]) -> String {
    let list = runs.join(crate::render::i18n::strings(lang).list_sep);
    let words = labels(lang);
    fill(words.tempfiles_desc, &[("title", words.tempfiles_title), ("list", &list)])
}

pub fn resources_title(lang: Lang, run: &str) -> String {
    fill(labels(lang).resources_title, &[("run", run)])
}

pub fn resources_desc(lang: Lang, run: &str, processes: &[String]) -> String {
    let title = resources_title(lang, run);
    let list = processes.join(crate::render::i18n::strings(lang).list_sep);
    fill(labels(lang).resources_desc, &[("title", &title), ("list", &list)])
}

/// Shown instead of a chart when plotting failed.
pub fn failed(lang: Lang, error: &str) -> String {
    fill(labels(lang).failed, &[("error", error)])
}

/// Every function of this module with sample arguments, for the glossary and punctuation tests.
#[cfg(test)]
pub fn samples(lang: Lang) -> Vec<String> {
    let series = ["direct".to_string(), "nginx".to_string()];
    let mut out = vec![
        headline_desc(lang, HeadlineMetric::Percentile, "95", None, "", &[], true),
        headline_desc(lang, HeadlineMetric::Percentile, "95", Some((3, 3)), "Slow downloads", &series, true),
        headline_desc(lang, HeadlineMetric::Percentile, "95", Some((2, 3)), "Slow downloads", &series, false),
        other_series(lang, 4),
        other_series_note(lang, 8, 4),
        forest_desc(
            lang,
            "p95",
            if lang == Lang::En { ("faster", "slower") } else { ("速い", "遅い") },
            &ForestCounts { matched: 10, faster: 0, slower: 1, negligible: 1, not_shown: 8, below: 8, above: 2, by_failures: 1 },
            &[fill(
                labels(lang).forest_desc_row,
                &[("head", "direct"), ("ratio", &format!("0.81 (0.23{}2.84)", crate::render::i18n::strings(lang).range_dash))],
            )],
        ),
    ];
    for metric in HeadlineMetric::ALL {
        out.extend([
            headline_desc(lang, metric, "95", Some((5, 5)), "Concurrency", &series, false),
            headline_axis(lang, metric, "95"),
            headline_axis_linear(lang, metric, "95"),
            mark_value(lang, metric, "95", "12.00"),
            ecdf_conditions_key(lang, metric),
            headline_floor_note(lang, metric).to_string(),
        ]);
    }
    out.extend([
        run_name(lang, "r06", "nginx"),
        run_name(lang, "r06", ""),
        scale_note(lang, true, false, axis_names(lang).0),
        scale_note(lang, false, true, axis_names(lang).0),
        scale_note(lang, false, false, axis_names(lang).1),
        run_mark(lang, "r06", "p95 = 12.00 ms"),
        each_level(lang, "Python"),
        at_level(lang, "p95 latency by condition", "Route = small"),
        median_mark(lang, "nginx", 1, "p95 = 12.00 ms"),
        median_mark(lang, "nginx", 3, "p95 = 12.00 ms"),
        range_mark(lang, "nginx", "11.00 ms", "13.00 ms"),
        point_mark(lang, "12.35", "52.00"),
        error_mark(lang, "1.500", 503, Some("2.00")),
        error_mark(lang, "1.500", 0, None),
        column_mark(lang, &ColumnValues { from_s: "12.30", to_s: "12.40", requests: 440, p50: "9.80", p95: "52.00", max: "1,000.00" }),
        column_mark(lang, &ColumnValues { from_s: "12.30", to_s: "12.40", requests: 1, p50: "9.80", p95: "9.80", max: "9.80" }),
        slowest_mark(lang, "12.345", "1,000.00"),
        ecdf_line_mark(lang, "r06", &[("p50".to_string(), "10.00".to_string()), ("p95".to_string(), "52.00".to_string())]),
        time_series_title(lang, "r06"),
        send_lag_title(lang, "r06"),
        send_lag_desc(lang, "r06", "20.00"),
        lag_threshold(lang, "20.00"),
        send_lag_reduced(lang, "10", "200"),
        time_series_desc(lang, "r06", 72, None, Some("p95 = 1.00 ms")),
        time_series_desc(lang, "r06", 1, None, None),
        time_series_desc(lang, "r06", 10_000, Some(100), Some("p95 = 1.00 ms")),
        time_series_errors_reduced(lang, "10", "200", 100),
        write_end_note(lang, 1),
        write_end_note(lang, 2),
        time_series_banded(lang, 100, 10_000),
        time_series_all(lang, 72),
        time_series_coincide(lang, "2", "200"),
        too_few_send_times(lang, 1, 1),
        too_few_send_times(lang, 200, 1),
        too_few_send_times(lang, 200, 2),
        ecdf_conditions_title(lang, "Slow downloads = 2"),
        ecdf_conditions_title(lang, ""),
        ecdf_conditions_desc(lang, "Slow downloads = 2", &series),
        ecdf_title(lang, "r06"),
        ecdf_desc(lang, "r06", Some("p95")),
        ecdf_desc(lang, "r06", None),
        ecdf_reduced(lang, "10", "200", "95"),
        rank_label(lang, 69, 72, "5.00"),
        rank_label(lang, 72, 72, "7.00"),
        large_desc(lang, 7),
        incomplete_note(lang, 1, "1"),
        incomplete_note(lang, 2, "2"),
        tempfiles_desc(lang, &series),
        resources_title(lang, "r06"),
        resources_desc(lang, "r06", &series),
        failed(lang, "error"),
    ]);
    for (n, m) in [(1, 0), (0, 1), (2, 3)] {
        out.extend(time_series_errors(lang, n, m));
    }
    out.extend(time_series_legend(lang).map(str::to_string));
    out.extend(time_series_band_legend(lang).map(str::to_string));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_labels_in_both_languages() {
        assert_eq!(rank_label(Lang::En, 69, 72, "5,958.77"), "69th of 72 = 5,958.77 ms");
        assert_eq!(rank_label(Lang::Ja, 69, 72, "5,958.77"), "72件中69番目 = 5,958.77 ms");
        assert_eq!(rank_label(Lang::En, 2_850_000, 3_000_000, "5,945.11"), "2,850,000th of 3,000,000 = 5,945.11 ms");
        assert_eq!(rank_label(Lang::En, 72, 72, "7.01"), "72nd of 72 (maximum) = 7.01 ms");
        assert_eq!(rank_label(Lang::Ja, 72, 72, "7.01"), "72件中72番目（最大値） = 7.01 ms");
    }

    #[test]
    fn headline_descriptions_count_their_runs_in_each_language() {
        let series = ["direct".to_string(), "nginx".to_string()];
        let metric = HeadlineMetric::Percentile;
        assert_eq!(
            headline_desc(Lang::En, metric, "95", Some((1, 1)), "Slow downloads", &series, true),
            "p95 latency by condition: median of 1 run with min-max range; x axis: Slow downloads; log-scale y axis; series: direct, nginx."
        );
        assert_eq!(
            headline_desc(Lang::En, metric, "95", Some((2, 3)), "", &[], false),
            "p95 latency by condition: median of 2–3 runs with min-max range; linear y axis."
        );
        assert_eq!(
            headline_desc(Lang::Ja, metric, "95", Some((2, 3)), "並列度", &series, true),
            "条件別の応答時間 p95：2〜3回の測定の中央値と最小〜最大の範囲。横軸：並列度。縦軸は対数目盛。系列：direct、nginx。"
        );
        assert_eq!(headline_desc(Lang::Ja, metric, "95", None, "", &[], true), "条件別の応答時間 p95：データなし。");
    }

    #[test]
    fn error_marks_take_the_plural_their_count_needs() {
        assert_eq!(
            time_series_errors(Lang::En, 1, 0).as_deref(),
            Some("Marked in vermillion: 1 response with a non-2xx status (crosses, at their latency).")
        );
        assert_eq!(
            time_series_errors(Lang::En, 0, 3).as_deref(),
            Some("Marked in vermillion: 3 requests with no response (triangles along the top edge).")
        );
        assert_eq!(
            time_series_errors(Lang::Ja, 2, 1).as_deref(),
            Some("朱色の印：2xx以外の応答2件（×、その応答時間の位置）と応答のないリクエスト1件（▲、上端）。")
        );
        assert_eq!(time_series_errors(Lang::En, 0, 0), None);
    }

    #[test]
    fn a_time_series_says_how_many_responses_its_points_or_columns_stand_for() {
        assert_eq!(
            time_series_desc(Lang::En, "run r06", 10_000, Some(100), Some("p95 = 52.00 ms")),
            "Latency over time: run r06. 10,000 2xx responses in 100 columns of send time (s): per column the band from p50 to p95 of its \
             responses, their median and the slowest, against latency (ms, log scale). Dashed line: p95 = 52.00 ms."
        );
        assert_eq!(
            time_series_desc(Lang::Ja, "測定r06", 72, None, None),
            "応答時間の推移：測定r06。2xx応答ごとに1点、全72件：送信時刻（秒）と応答時間（ms、対数目盛）。"
        );
        assert_eq!(
            time_series_banded(Lang::Ja, 100, 10_000),
            "2xx応答10,000件を送信時刻の100列と、各列で最も遅い応答の100個の点で描画：列ごとに応答のp50〜p95の帯と中央値（線）。列を指すとその値を表示します。"
        );
        assert_eq!(
            time_series_banded(Lang::En, 100, 10_000),
            "100 columns of send time and their 100 slowest responses (dots) stand for 10,000 2xx responses: each column draws the band \
             from p50 to p95 of its responses and their median (line). Point at a column for its values."
        );
        assert_eq!(time_series_all(Lang::Ja, 72), "2xx応答ごとに1点、全72点。");
        assert_eq!(time_series_all(Lang::En, 72), "72 points: one per 2xx response.");
        assert_eq!(
            time_series_desc(Lang::En, "run r06", 72, None, None),
            "Latency over time: run r06. One point per 2xx response, 72 in all: send time (s) against latency (ms, log scale)."
        );
        let column = ColumnValues { from_s: "1.20", to_s: "1.30", requests: 2_222, p50: "9.80", p95: "52.00", max: "1,000.00" };
        assert_eq!(column_mark(Lang::En, &column), "1.20–1.30 s: 2,222 responses, p50 9.80 ms, p95 52.00 ms, slowest 1,000.00 ms");
        assert_eq!(column_mark(Lang::Ja, &ColumnValues { requests: 1, ..column }), "1.20〜1.30秒：応答1件、1,000.00 ms");
    }

    #[test]
    fn an_ecdf_line_lists_its_values_after_the_run() {
        let values = [("p50".to_string(), "10.00".to_string()), ("max".to_string(), "1,000.00".to_string())];
        assert_eq!(ecdf_line_mark(Lang::En, "run r06", &values), "run r06: p50 = 10.00 ms, max = 1,000.00 ms");
        assert_eq!(ecdf_line_mark(Lang::Ja, "測定r06", &values), "測定r06：p50 = 10.00 ms、max = 1,000.00 ms");
    }
}
