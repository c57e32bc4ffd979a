//! The words of the cause hints (`stats::hints`): the report's section, its rows and its rules, in
//! English and Japanese.

use crate::model::Lang;
use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct HintWords {
    pub heading: &'static str,
    /// Says, above the rows, that each is a hint and not a measured cause.
    pub caption: &'static str,
    pub hint: &'static str,
    pub evidence: &'static str,
    /// Each kind's name, the table's first column.
    pub syn_kind: &'static str,
    pub warm_up_kind: &'static str,
    pub saturation_kind: &'static str,
    pub starved_kind: &'static str,
    /// The SYN cluster: "{near}" of "{slow}" requests at "{from}" or more took "{range}", near
    /// "{timeouts}", in "{runs}" of "{of}" runs.
    pub syn: &'static str,
    /// The warm-up: "{share}" of each run, its p50 "{first}" against "{rest}", "{ratio}".
    pub warm_up: &'static str,
    /// The plateau: "{step}" times the concurrency, "{change}" requests/s from "{rate_from}" to
    /// "{rate_to}", the mean latency "{latency}" times from "{mean_from}" to "{mean_to}",
    /// "{predicted}" by Little's law.
    pub saturation: &'static str,
    /// The conditions of a plateau: "{from}" (the lower one's label) and the higher level "{to}".
    pub saturation_conditions: &'static str,
    /// The starved runs "{list}" (each "r07 (0.41)"), "{runs}" of "{of}", the median and limit.
    pub starved: &'static str,
    /// The rules, one note each for the kinds the report shows.
    pub syn_rule: &'static str,
    pub warm_up_rule: &'static str,
    pub saturation_rule: &'static str,
    pub starved_rule: &'static str,
}

pub fn words(lang: Lang) -> &'static HintWords {
    match lang {
        Lang::En => &EN,
        Lang::Ja => &JA,
    }
}

static EN: HintWords = HintWords {
    heading: "Hints from the data",
    caption: "where the data carries the mark of a known cause, that cause with the figures that show it: a hint, not a measured cause",
    hint: "Hint",
    evidence: "Evidence",
    syn_kind: "SYN retransmits (a listen backlog that overflowed)",
    warm_up_kind: "Warm-up",
    saturation_kind: "Saturation",
    starved_kind: "Server starved of CPU",
    syn: "{near} of the {slow} requests that took {from} or longer took {range}, just above the kernel's SYN retransmission timeout ({timeouts}), in {runs} of {of} runs: connections retried after a full listen backlog dropped their SYN",
    warm_up: "In {runs} of {of} runs the first {share} of requests by send time were slower than the rest: p50 {first} against {rest} ({ratio}× as slow; medians over those runs): a warm-up at the start of each run (caches, connection pools, lazy loading)",
    saturation: "{step}× the concurrency brought {change} requests/s ({rate_from} → {rate_to}) while the mean latency rose {latency}× ({mean_from} → {mean_to}; Little's law for a closed loop at these rates: {predicted}×): the server was saturated at the lower level already",
    saturation_conditions: "{from} → {to}",
    starved: "{runs} of {of} runs got markedly less CPU: the server's CPU seconds per second of the load were {list}, against the condition's median {median} (lower limit {limit}): another program on the host may have taken its CPU",
    syn_rule: "SYN retransmits: a run shows them when {min_slow} or more of its 2xx responses took {from} or longer, at least {most} of those lie within {window} above one of Linux's SYN retransmission timeouts ({timeouts}), at most {gap} as many lie within {window} below them, and the slow ones are at most {tail} of the run's 2xx responses (a tail, not the run); a condition, when more than half of its ok runs show them.",
    warm_up_rule: "Warm-up: a run of {min} or more 2xx responses whose sends are timed finely shows one when the p50 of its first {share} of 2xx responses by send time is more than {ratio}× the p50 of the rest and more than {floor} above it; a condition, when more than half of the ok runs judged show one. Send times are read only for a report, so analyze check judges none.",
    saturation_rule: "Saturation: for a numeric factor whose name says it is the load's concurrency, among conditions equal in the other factors whose ok runs are all closed loops, from the lowest level where it holds to the highest: the concurrency rises {step}× or more, the median requests/s gains less than {gain}, and the median mean latency rises by at least {little} of what Little's law predicts for a closed loop (the concurrency's rise over the throughput's).",
    starved_rule: "Server starved of CPU: the runs the variance review flags for a server that got markedly less CPU than its condition's other runs, gathered per condition.",
};

static JA: HintWords = HintWords {
    heading: "データが示す手がかり",
    caption: "既知の原因の跡がデータに見えるところについて、その原因と根拠の数値。測定した原因ではなく手がかりです",
    hint: "手がかり",
    evidence: "根拠",
    syn_kind: "SYN再送（接続待ちキューのあふれ）",
    warm_up_kind: "ウォームアップ",
    saturation_kind: "飽和",
    starved_kind: "サーバーのCPU不足",
    syn: "{of}回中{runs}回の測定で、{from}以上かかったリクエスト{slow}件のうち{near}件が{range}で、カーネルのSYN再送のタイムアウト（{timeouts}）のすぐ上にある。接続待ちキュー（バックログ）があふれてSYNが捨てられ、再送された接続と考えられる",
    warm_up: "{of}回中{runs}回の測定で、送信時刻で最初の{share}のリクエストがそれ以降より遅い。p50が{first}、それ以降は{rest}（{ratio}倍。それらの測定の中央値）。各測定の始めのウォームアップ（キャッシュ、接続プール、遅延読み込みなど）と考えられる",
    saturation: "並列度を{step}倍にしてもリクエスト/秒は{change}（{rate_from} → {rate_to}）で、平均応答時間は{latency}倍（{mean_from} → {mean_to}。このスループットのクローズドループならリトルの法則から{predicted}倍）になった。低い方の水準ですでにサーバーが飽和していたと考えられる",
    saturation_conditions: "{from} → {to}",
    starved: "{of}回中{runs}回の測定でサーバーが得たCPUが目立って少なかった。負荷をかけた1秒あたりのサーバーのCPU時間（秒）は{list}で、条件の中央値{median}（下限{limit}）を下回る。ホスト上の別のプログラムがCPUを使っていた可能性がある",
    syn_rule: "SYN再送：2xx応答のうち{from}以上かかったものが{min_slow}件以上あり、その{most}以上がLinuxのSYN再送のタイムアウト（{timeouts}）のいずれかのすぐ上（{window}以内）にあり、すぐ下（{window}以内）にあるものがその{gap}以下で、遅いものが測定の2xx応答の{tail}以下（測定全体ではなく裾）であるとき、その測定に見えるとします。条件には、正常な測定の半数を超えて見えるときに示します。",
    warm_up_rule: "ウォームアップ：2xx応答が{min}件以上あり送信時刻が細かく記録された測定で、送信時刻で最初の{share}の2xx応答のp50が、それ以降のp50の{ratio}倍を超え、かつ{floor}より大きく上回るとき、その測定に見えるとします。条件には、判定できた正常な測定の半数を超えて見えるときに示します。送信時刻はレポートを作るときにだけ読むため、analyze check では判定しません。",
    saturation_rule: "飽和：名前から負荷の並列度とわかる数値の因子について、ほかの因子が同じで正常な測定がすべてクローズドループの条件どうしを、成り立つ最も低い水準から最も高い水準まで比べます。並列度が{step}倍以上になり、リクエスト/秒の中央値の伸びが{gain}未満で、平均応答時間の中央値が、クローズドループについてリトルの法則が予測する伸び（並列度の伸びをスループットの伸びで割ったもの）の{little}以上に伸びるときに示します。",
    starved_rule: "サーバーのCPU不足：ばらつきの確認で、同じ条件のほかの測定より目立って少ないCPUしか得られなかったとされた測定を、条件ごとにまとめたものです。",
};
