//! The keys of a run's note and their sentences, in English and Japanese: what measure and
//! analyze's importers write in runs.csv's `note` (in [`crate::note`]'s syntax), what analyze's
//! pages say for each, and what measure says on the terminal ([`english`]). One table for both
//! programs, so measure writes only keys analyze knows, and a key without its sentence in both
//! languages is a compile error.

macro_rules! note_keys {
    ($($variant:ident = $key:literal [$($param:literal),*];)*) => {
        /// Every message an importer or measure writes into a run's note.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum NoteKey { $($variant),* }

        impl NoteKey {
            pub const ALL: &'static [NoteKey] = &[$(NoteKey::$variant),*];

            /// The key as runs.csv spells it.
            pub fn key(self) -> &'static str {
                match self { $(NoteKey::$variant => $key),* }
            }

            /// The names of its parameters, in the order they are written.
            pub fn params(self) -> &'static [&'static str] {
                match self { $(NoteKey::$variant => &[$($param),*]),* }
            }
        }
    };
}

note_keys! {
    AbGnuplot = "ab.gnuplot-resolution" [];
    AbFailures = "ab.failures" ["failed", "connect", "receive", "length", "exceptions"];
    AbWriteErrors = "ab.write-errors" ["count"];
    AbOddMedian = "ab.odd-median" ["median", "low", "high"];
    AbSummaryWholeMs = "ab.summary-whole-ms" [];
    AbStatusAssumed = "ab.status-assumed" [];
    AbFailuresUnplaced = "ab.failures-unplaced" ["errors", "requests", "non_2xx", "receive"];
    ArtilleryBasis = "artillery.basis" [];
    ArtilleryErrorStatuses = "artillery.error-statuses" ["responses", "failed"];
    ArtilleryErrors = "artillery.errors" ["list"];
    ArtilleryPeriods = "artillery.periods" ["periods", "seconds"];
    AutocannonBasis = "autocannon.basis" ["samples"];
    AutocannonMinNonZero = "autocannon.min-nonzero" ["min", "percentile", "lowest"];
    AutocannonNon2xxIncluded = "autocannon.non2xx-included" ["count"];
    AutocannonRanked2xx = "autocannon.ranked-2xx" ["ranked", "responses"];
    AutocannonUnanswered = "autocannon.unanswered" ["sent", "responses", "errors"];
    AutocannonTimeouts = "autocannon.timeouts" ["timeouts", "errors"];
    AutocannonDuration = "autocannon.duration" ["seconds"];
    HdrPrecision = "hdr.precision" ["digits", "sub_buckets", "exact"];
    HdrSubBuckets = "hdr.sub-buckets" ["sub_buckets"];
    HdrHgrmMs = "hdr.hgrm-ms" [];
    HdrErrorsUnknown = "hdr.errors-unknown" [];
    HdrLog = "hdr.log" ["intervals", "seconds", "unit"];
    HeyCap = "hey.cap" ["max"];
    HeyBeyondCap = "hey.beyond-cap" ["rows", "max"];
    HeyCsv = "hey.csv-resolution" [];
    HeySummary = "hey.summary-resolution" [];
    JmeterBasis = "jmeter.basis" [];
    K6Disagrees = "k6.expected-response-disagrees" ["count"];
    K6SendTimes = "k6.send-times" [];
    K6CsvSeconds = "k6.csv-seconds" [];
    K6SummaryBasis = "k6.summary-basis" [];
    K6ThresholdPassed = "k6.threshold-passed" ["threshold"];
    K6ThresholdFailed = "k6.threshold-failed" ["threshold"];
    LocustBuckets = "locust.buckets" [];
    LocustFailures = "locust.failures" ["count"];
    LocustJson = "locust.json-basis" [];
    OhaSeconds = "oha.seconds" [];
    OhaRank = "oha.rank" [];
    OhaCsv = "oha.csv-basis" [];
    OhaSqlite = "oha.sqlite-basis" [];
    OhaCorrected = "oha.corrected" ["rows"];
    SiegeResolution = "siege.resolution" [];
    SiegeVerboseOrder = "siege.verbose-order" [];
    SiegeLogged = "siege.logged" ["path"];
    SiegeLogLine = "siege.log-line" [];
    SiegeUncounted = "siege.uncounted" [];
    SiegeUnanswered = "siege.unanswered" ["count"];
    VegetaNs = "vegeta.ns" [];
    WrkBasis = "wrk.basis" [];
    WrkSocketErrors = "wrk.socket-errors" ["connect", "read", "write", "timeout"];
    Wrk2Corrected = "wrk2.corrected" [];
    Wrk2Rank = "wrk2.rank" [];
    Wrk2Calibration = "wrk2.calibration" ["ranked", "requests"];
    MeasureSigkill = "measure.sigkill" ["server"];
    MeasureNoWrite = "measure.no-write" ["download"];
    MeasureShortDownload = "measure.short-download" ["download", "received", "bytes", "why"];
    MeasureNoSession = "measure.no-session" [];
    MeasureAborted = "measure.aborted" ["why"];
    MeasureImportRefused = "measure.import-refused" ["why"];
    MeasureExitedEarly = "measure.exited-early" ["server", "status", "log"];
    MeasureNotReady = "measure.not-ready" ["server", "seconds", "log"];
    MeasureNotReadyStatus = "measure.not-ready-status" ["server", "seconds", "path", "status", "log"];
    MeasureNotReadyRefused = "measure.not-ready-refused" ["server", "seconds", "address", "log"];
    MeasureNotReadySilent = "measure.not-ready-silent" ["server", "seconds", "path", "log"];
    MeasureWrongPort = "measure.wrong-port" ["server", "port", "listening"];
    MeasureWrongAddress = "measure.wrong-address" ["server", "address", "listening"];
    MeasureExited = "measure.exited" ["server", "status", "log"];
    MeasureRecipeChanged = "measure.recipe-changed" ["recipe", "now"];
    MeasureWarmup = "measure.warmup" ["what"];
    MeasureLoadSaturated = "measure.load-saturated" ["tool", "share", "cpus"];
}

impl NoteKey {
    /// The key runs.csv spells `key`, or the one an older key was renamed to (a dataset written
    /// before the rename keeps loading): `autocannon.resent` named the requests autocannon wrote
    /// without an answer, most of them in flight when it stopped, not resent ones.
    pub fn from_key(key: &str) -> Option<NoteKey> {
        match key {
            "autocannon.resent" => Some(NoteKey::AutocannonUnanswered),
            _ => NoteKey::ALL.iter().copied().find(|k| k.key() == key),
        }
    }

    /// The part before the first dot: the tool (or `measure`) the key belongs to.
    pub fn namespace(self) -> &'static str {
        self.key().split('.').next().unwrap_or_default()
    }

    /// The key's sentence: (English, Japanese), with `{param}` for each of its parameters.
    pub fn words(self) -> (&'static str, &'static str) {
        use NoteKey::*;
        match self {
            AbGnuplot => (
                "ab -g: send times have 1 s resolution and latencies are whole milliseconds; rows are re-ordered by send second (ab writes them sorted by total time)",
                "ab -gの出力は送信時刻が1秒単位、応答時間が整数ミリ秒。abは行を総時間の順に書き出すため、送信時刻（秒）の順に並べ直している",
            ),
            AbFailures => (
                "ab's {failed} failed requests are {connect} connect, {receive} receive, {length} length and {exceptions} exception failures, and ab counts one reset connection up to three times (receive, length, exception): a receive failure is a request that got no response (counted as an error here), a length failure is a body unlike the first response's, and a connect failure carried no request",
                "abの失敗{failed}件の内訳は接続{connect}件・受信{receive}件・長さ{length}件・例外{exceptions}件。abはリセットされた1本の接続を最大3回（受信・長さ・例外）数える。受信の失敗は応答のなかったリクエスト（本レポートではエラーとして数える）、長さの失敗は最初の応答と本文の長さが違う応答、接続の失敗はリクエストを送っていない",
            ),
            AbWriteErrors => (
                "ab counted {count} write errors (a request it could not send)",
                "abは書き込みエラー（送れなかったリクエスト）を{count}件数えた",
            ),
            AbOddMedian => (
                "ab's Connection Times median ({median} ms) for an odd count is the mean of the values at ranks {low} and {high}, not the median",
                "abのConnection Timesの中央値（{median} ms）は、件数が奇数のとき{low}番目と{high}番目の値の平均で、本来の中央値ではない",
            ),
            AbSummaryWholeMs => ("ab prints whole milliseconds in its summary", "abの集計の表示は整数ミリ秒"),
            AbStatusAssumed => (
                "ab -g has no status column: every row is given status 200 because ab's summary counted no request without a 2xx response: no non-2xx response and no receive failure",
                "ab -gの出力にはステータスの列がない。abの集計が2xx以外の応答も受信の失敗も数えていないため、全行をステータス200とした",
            ),
            AbFailuresUnplaced => (
                "ab counted {errors} of {requests} requests without a 2xx response ({non_2xx} non-2xx responses, {receive} receive failures); its -g file has a row for every completed request, those among them, and does not say which: every row is given status 200, the run's errors are ab's count, and its latency percentiles rank every completed request",
                "abは{requests}件のリクエストのうち{errors}件を2xxの応答なしと数えた（2xx以外の応答{non_2xx}件、受信の失敗{receive}件）。-gの出力には完了したリクエストすべての行があり、これらも含まれるが、どの行かは書かれていない。そのため全行をステータス200とし、測定のエラー数はabの集計値とした。応答時間のパーセンタイルは完了したリクエストすべてを順位付けしたもの",
            ),
            ArtilleryBasis => (
                "Artillery's http.response_time is the time to the first byte, in whole ms; its percentiles are DDSketch estimates (within 1 %), printed to 0.1 ms; its requests/s is the mean of its periods' rates",
                "Artilleryのhttp.response_timeは最初の1バイトまでの時間（整数ミリ秒）。パーセンタイルはDDSketchによる推定値（誤差1 %以内）で、0.1 ms単位で表示される。毎秒リクエスト数は各期間の値の平均",
            ),
            ArtilleryErrorStatuses => (
                "{responses} responses were 4xx or 5xx: Artillery counts them as responses, not errors (vusers.failed {failed}); this report counts every non-2xx as an error",
                "{responses}件の応答が4xxか5xx。Artilleryはこれをエラーではなく応答として数える（vusers.failedは{failed}）が、本レポートは2xx以外をすべてエラーとして数える",
            ),
            ArtilleryErrors => (
                "Artillery's errors (requests without a response): {list}",
                "Artilleryのエラー（応答のなかったリクエスト）：{list}",
            ),
            ArtilleryPeriods => (
                "Artillery's {periods} intermediate periods (10 s each) are not kept as a time series: only the aggregate is imported; the run lasted {seconds} s from its first metric to its last",
                "Artilleryの途中経過{periods}期間（各10秒）は時系列として残さず、全体の集計だけを取り込んだ。最初の記録から最後の記録までは{seconds}秒",
            ),
            AutocannonBasis => (
                "autocannon records whole milliseconds (truncated) in an HdrHistogram and ranks them by the nearest rank; its requests/s is the mean of its {samples} one-second samples, its mean rounded up to 2 decimals",
                "autocannonは応答時間を整数ミリ秒（切り捨て）でHdrHistogramに記録し、最近接順位法で順位を取る。毎秒リクエスト数は1秒ごとの{samples}個の値の平均で、平均値は小数第2位に切り上げて表示される",
            ),
            AutocannonMinNonZero => (
                "autocannon's min ({min} ms) is its smallest non-zero time: its p{percentile} is {lowest} ms, so the shortest was under 1 ms; no min is kept",
                "autocannonの最小値（{min} ms）は0を除いた最小の値。p{percentile}が{lowest} msなので最短は1 ms未満で、最小値は取り込んでいない",
            ),
            AutocannonNon2xxIncluded => (
                "autocannon's latencies include its {count} non-2xx responses (it ran without --excludeErrorStats)",
                "autocannonの応答時間には2xx以外の応答{count}件が含まれる（--excludeErrorStatsなしで実行）",
            ),
            AutocannonRanked2xx => (
                "autocannon ranked {ranked} of {responses} responses: the 2xx ones (--excludeErrorStats)",
                "autocannonが順位を取ったのは{responses}件の応答のうち2xxの{ranked}件（--excludeErrorStats）",
            ),
            AutocannonUnanswered => (
                "autocannon wrote {sent} requests for {responses} responses and {errors} errors: the others got neither, in flight when it stopped or written to a connection the server closed (requests.sent counts every request written)",
                "autocannonは{sent}件のリクエストを書き込み、応答は{responses}件、エラーは{errors}件。残りはどちらにもならなかった（停止した時点で応答待ちだったか、サーバーが閉じた接続に書き込まれた。requests.sentは書き込んだリクエストをすべて数える）",
            ),
            AutocannonTimeouts => (
                "{timeouts} of autocannon's {errors} errors are timeouts",
                "autocannonのエラー{errors}件のうち{timeouts}件はタイムアウト",
            ),
            AutocannonDuration => (
                "autocannon's run took {seconds} s (its duration, to 0.01 s)",
                "autocannonの実行時間は{seconds}秒（0.01秒単位の記録）",
            ),
            HdrPrecision => (
                "an HdrHistogram of {digits} significant digits ({sub_buckets} sub-buckets): each value is the highest of its bucket, exact to 1 part in {exact}",
                "有効数字{digits}桁（サブバケット{sub_buckets}個）のHdrHistogram。各値はそのバケットの上端で、精度は{exact}分の1",
            ),
            HdrSubBuckets => (
                "an HdrHistogram of {sub_buckets} sub-buckets: each value is the highest of its bucket",
                "サブバケット{sub_buckets}個のHdrHistogram。各値はそのバケットの上端",
            ),
            HdrHgrmMs => ("the .hgrm prints times in ms", ".hgrmの時間の単位はms"),
            HdrErrorsUnknown => (
                "a histogram counts the times it recorded, not failed requests: the errors are not known",
                "ヒストグラムは記録した時間を数えるだけで、失敗したリクエストは数えない。エラーの件数は不明",
            ),
            HdrLog => (
                "{intervals} intervals of an HdrHistogram interval log ({seconds} s) added up into one histogram, read by HdrHistogram's value at percentile; the log records {unit} (its Interval_Max prints each interval's max in ms)",
                "HdrHistogramの区間ログ（{seconds}秒）の{intervals}区間を1つのヒストグラムに合算し、HdrHistogramのパーセンタイル値の規則で読んだ。ログの記録単位は{unit}（Interval_Maxは各区間の最大値をmsで表示）",
            ),
            HeyCap => (
                "hey keeps at most {max} results: this run reached that cap, so requests after the first {max} responses are missing from hey's rows and tables",
                "heyが保持する結果は最大{max}件。この測定はその上限に達したため、最初の{max}件より後のリクエストはheyの行にも集計にも含まれない",
            ),
            HeyBeyondCap => (
                "this hey CSV has {rows} rows, more than the {max} results hey keeps: it was not written by a stock hey (a modified or generated file), and no row is missing for the cap",
                "このheyのCSVは{rows}行あり、heyが保持する{max}件を超える。標準のheyが書いたファイルではない（改変または生成されたもの）ため、上限による欠けはない",
            ),
            HeyCsv => (
                "hey -o csv: times have 0.1 ms resolution; requests that got no response are not in the file (hey's summary counts them)",
                "hey -o csvの時間は0.1 ms単位。応答のなかったリクエストはファイルに含まれない（heyの集計には含まれる）",
            ),
            HeySummary => ("hey prints times in seconds with 4 decimals (0.1 ms)", "heyの時間の表示は秒単位で小数4桁（0.1 ms）"),
            JmeterBasis => (
                "JMeter's elapsed is whole ms and includes connecting; its success column (assertions) is not used, the status is",
                "JMeterのelapsedは整数ミリ秒で接続時間を含む。success列（アサーションの結果）は使わず、ステータスで判定した",
            ),
            K6Disagrees => (
                "k6's expected_response tag disagrees with \"2xx\" on {count} requests: this report ranks by status (2xx), k6 by its response callback",
                "{count}件のリクエストでk6のexpected_responseタグと「2xx」の判定が食い違う。本レポートはステータス（2xx）で、k6は応答コールバックで判定する",
            ),
            K6SendTimes => (
                "k6 stamps a point when the request ends: send times here are that time minus http_req_duration",
                "k6はリクエストの終了時に時刻を記録するため、送信時刻はその時刻からhttp_req_durationを引いた値",
            ),
            K6CsvSeconds => (
                "k6 --out csv: timestamps are whole seconds, so send times have 1 s resolution",
                "k6 --out csvの時刻は整数秒のため、送信時刻は1秒単位",
            ),
            K6SummaryBasis => (
                "k6's http_req_duration percentiles interpolate between the two neighbouring ranks; its errors are http_req_failed (k6's verdict of each response, by default not 2xx/3xx)",
                "k6のhttp_req_durationのパーセンタイルは隣り合う2つの順位の間を補間した値。エラーはhttp_req_failed（応答ごとのk6の判定で、既定では2xx・3xx以外）",
            ),
            K6ThresholdPassed => ("k6 threshold {threshold} passed", "k6の閾値{threshold}は合格"),
            K6ThresholdFailed => ("k6 threshold {threshold} failed", "k6の閾値{threshold}は不合格"),
            LocustBuckets => (
                "Locust rounds latencies into buckets (whole ms below 100 ms, 10 ms below 1 s, 100 ms below 10 s) before ranking, so its percentiles are bucket values",
                "Locustは応答時間をバケットに丸めてから（100 ms未満は1 ms、1秒未満は10 ms、10秒未満は100 ms単位）順位を取るため、パーセンタイルはバケットの値",
            ),
            LocustFailures => ("Locust's failures file lists {count} failures", "Locustの失敗ファイルには失敗が{count}件ある"),
            LocustJson => (
                "Locust --json: percentiles recomputed from its rounded buckets by Locust's rule; requests/s over its first start to last request",
                "Locust --jsonの出力から、丸めたバケットを使ってLocustの規則でパーセンタイルを計算し直した。毎秒リクエスト数は最初の開始から最後のリクエストまでの値",
            ),
            OhaSeconds => ("oha prints times in seconds", "ohaの時間の表示は秒単位"),
            OhaRank => ("oha's percentiles take rank floor(p·n/100)+1", "ohaのパーセンタイルは順位 floor(p·n/100)+1 の値"),
            OhaCsv => (
                "oha --output-format csv: one row per response (requests without one are not in it), times in s from the run's start to the ns; no clock time",
                "oha --output-format csvの出力は応答ごとに1行（応答のないリクエストは含まれない）。時間は測定開始からの秒数（ns単位）で、時刻は記録されない",
            ),
            OhaSqlite => (
                "oha's sqlite output: one row per response (requests without one are not in it), times in s to the ns; its run's start to the second",
                "ohaのSQLite出力は応答ごとに1行（応答のないリクエストは含まれない）。時間は秒数（ns単位）で、測定の開始時刻は秒単位",
            ),
            OhaCorrected => (
                "{rows} rows have a start_latency_correction: their duration counts from when oha scheduled the request, not from its send",
                "{rows}行にstart_latency_correctionがある。これらの時間は送信時ではなく、ohaがリクエストを予定した時点から数えている",
            ),
            SiegeResolution => (
                "siege prints times in seconds with two decimals (10 ms resolution)",
                "siegeの時間の表示は秒単位で小数2桁（10 ms単位）",
            ),
            SiegeVerboseOrder => (
                "siege -v prints no send time: the rows are in the order siege printed them, without times",
                "siege -vは送信時刻を出力しないため、行はsiegeが出力した順で、時刻はない",
            ),
            SiegeLogged => ("siege logged this run to {path}", "siegeはこの測定を{path}に記録した"),
            SiegeLogLine => (
                "siege's log line has no minimum or maximum, and its date no time zone (not used)",
                "siegeのログの行には最小値も最大値もなく、日時にはタイムゾーンがない（日時は使っていない）",
            ),
            SiegeUncounted => (
                "without siege's summary, requests that got no response are not counted",
                "siegeの集計がないため、応答のなかったリクエストは数えていない",
            ),
            SiegeUnanswered => (
                "siege's {count} failed transactions without a response are rows without one, after the others (siege -v does not say when they were)",
                "siegeが数えた応答のない失敗{count}件は、応答なしの行として他の行の後に置いた（siege -vにはその時刻がない）",
            ),
            VegetaNs => (
                "vegeta records nanoseconds; they are converted to ms exactly on their digits",
                "vegetaはナノ秒で記録する。msへの換算は桁をずらすだけで、誤差はない",
            ),
            WrkBasis => (
                "wrk counts 3xx responses as successes and prints no minimum; it records whole microseconds and prints two decimals of each time's unit",
                "wrkは3xxの応答を成功として数え、最小値を表示しない。記録は整数マイクロ秒で、表示は各時間の単位で小数2桁",
            ),
            WrkSocketErrors => (
                "wrk counted socket errors (connect {connect}, read {read}, write {write}, timeout {timeout}): connection events, not requests, so not in these counts (a read error is counted each time the server closes a connection, even after a complete response; a timeout is a response slower than --timeout, left out of wrk's percentiles)",
                "wrkはソケットエラー（接続{connect}件・読み込み{read}件・書き込み{write}件・タイムアウト{timeout}件）を数えた。これはリクエストではなく接続の出来事なので、ここでの件数には含めない（読み込みエラーは、応答を受け取り終えた後でもサーバーが接続を閉じるたびに数えられる。タイムアウトは--timeoutより遅い応答で、wrkのパーセンタイルから除かれる）",
            ),
            Wrk2Corrected => (
                "wrk2 times each request from when its constant-rate plan meant to send it (coordinated omission corrected)",
                "wrk2は各リクエストの時間を、一定レートの計画で送るはずだった時点から計る（coordinated omissionの補正）",
            ),
            Wrk2Rank => ("wrk2's percentiles take rank round(p·n/100) of the histogram", "wrk2のパーセンタイルはヒストグラムの順位 round(p·n/100) の値"),
            Wrk2Calibration => (
                "wrk2's histogram ranks {ranked} of the {requests} requests: it leaves out the first 10 s of calibration",
                "wrk2のヒストグラムが順位を取るのは{requests}件のうち{ranked}件。最初の10秒間の較正を除いている",
            ),
            MeasureSigkill => ("{server} needed SIGKILL to stop", "{server}は停止にSIGKILLが必要だった"),
            MeasureNoWrite => ("{download}: the app logged no write", "{download}：アプリは書き込みを記録しなかった"),
            MeasureShortDownload => (
                "{download}: {received} of {bytes} bytes ({why})",
                "{download}：{bytes}バイト中{received}バイト（{why}）",
            ),
            MeasureNoSession => ("no session was started", "セッションが1つも始まらなかった"),
            MeasureAborted => ("the run was stopped: {why}", "測定を中止した：{why}"),
            MeasureImportRefused => ("analyze import refused the tool's files: {why}", "analyze importがツールのファイルを受け付けなかった：{why}"),
            MeasureExitedEarly => (
                "{server} exited before it was ready (status {status}); its last output: {log}",
                "{server}は準備が整う前に終了した（ステータス{status}）。最後の出力：{log}",
            ),
            MeasureNotReady => (
                "{server} was not ready after {seconds} s; its last output: {log}",
                "{server}は{seconds}秒たっても準備が整わなかった。最後の出力：{log}",
            ),
            MeasureNotReadyStatus => (
                "{server} was not ready after {seconds} s: GET {path} answered {status}; its last output: {log}",
                "{server}は{seconds}秒たっても準備が整わなかった：GET {path}への応答はステータス{status}。最後の出力：{log}",
            ),
            MeasureNotReadyRefused => (
                "{server} was not ready after {seconds} s: nothing accepted connections on {address}; its last output: {log}",
                "{server}は{seconds}秒たっても準備が整わなかった：{address}で接続を受け付けるものがなかった。最後の出力：{log}",
            ),
            MeasureNotReadySilent => (
                "{server} was not ready after {seconds} s: GET {path} got no response within 1 s; its last output: {log}",
                "{server}は{seconds}秒たっても準備が整わなかった：GET {path}に1秒以内の応答がなかった。最後の出力：{log}",
            ),
            MeasureWrongAddress => (
                "{server} listened on {listening}, not on {address} where measure connects",
                "{server}はmeasureが接続する{address}ではなく{listening}で待ち受けた",
            ),
            MeasureWrongPort => (
                "{server} listened on {listening}, not on the port {port} it was given",
                "{server}は渡されたポート{port}ではなく{listening}で待ち受けた",
            ),
            MeasureWarmup => (
                "a warm-up load of {what} ran before the measured load; its responses are not in the run's rows",
                "測定する負荷の前に{what}のウォームアップ負荷をかけた。その応答はこの測定の行に含まない",
            ),
            MeasureLoadSaturated => (
                "{tool} kept its CPUs ({cpus}) {share}% busy: its requests/s may measure the load tool, not the server",
                "{tool}は割り当てられたCPU（{cpus}）を{share}%使い切っていた。この1秒あたりリクエスト数はサーバーではなく負荷ツールの限界かもしれない",
            ),
            MeasureExited => (
                "{server} exited during the run (status {status}); its last output: {log}",
                "{server}は測定中に終了した（ステータス{status}）。最後の出力：{log}",
            ),
            MeasureRecipeChanged => (
                "set aside: measured under recipe {recipe}; the condition's recipe became {now}, so it was measured again whole",
                "除外：レシピ{recipe}で測定した。条件のレシピが{now}に変わったため、条件ごと測り直した",
            ),
        }
    }
}

/// A template with its `{name}` placeholders filled, in one pass: a value is inserted as
/// written, so a value that itself holds `{name}` is never filled again. A placeholder with no
/// value given stays as written. The one placeholder rule of every sentence (analyze's words use
/// it too).
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let value = after.find('}').and_then(|close| values.iter().find(|(name, _)| *name == &after[..close]).map(|(_, v)| (close, *v)));
        match value {
            Some((close, value)) => {
                out.push_str(value);
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A note as runs.csv holds it, in English for a terminal: each item of a known key as its
/// sentence with its values, anything else (the user's own words, an item that does not parse)
/// as written; items joined by `; `.
pub fn english(note: &str) -> String {
    let Ok(items) = crate::note::split_items(note) else { return note.to_string() };
    let parts: Vec<String> = items
        .iter()
        .map(|(_, item)| item.trim())
        .filter(|item| !item.is_empty())
        .map(|item| item_english(item).unwrap_or_else(|| item.to_string()))
        .collect();
    parts.join(crate::note::SEPARATOR)
}

/// One item's English sentence, when it is a known key whose parameters parse.
fn item_english(item: &str) -> Option<String> {
    let length = crate::note::key_length(item)?;
    let key = NoteKey::from_key(&item[..length])?;
    let mut values: Vec<(&'static str, String)> = Vec::new();
    if let Some(mut params) = crate::note::params(item, length).ok()? {
        while let Some((_, name)) = params.name().ok()? {
            let name = *key.params().iter().find(|p| **p == name)?;
            values.push((name, params.value(name).ok()?));
            if !params.more(name).ok()? {
                break;
            }
        }
    }
    let values: Vec<(&str, &str)> = values.iter().map(|(name, value)| (*name, value.as_str())).collect();
    Some(fill(key.words().0, &values))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_reads_in_english_and_anything_else_as_written() {
        assert_eq!(english("hey.csv-resolution"), NoteKey::HeyCsv.words().0);
        assert_eq!(
            english(r#"measure.not-ready(server=mine, seconds=20, log="bind: address in use"); host busy"#),
            "mine was not ready after 20 s; its last output: bind: address in use; host busy"
        );
        // An unknown key or a broken item is shown as written.
        assert_eq!(english("measure.no-such-key; ab.failures(failed=1"), "measure.no-such-key; ab.failures(failed=1");
        assert_eq!(fill("{a} and {b} {c", &[("a", "1"), ("b", "{a}")]), "1 and {a} {c");
    }

    #[test]
    fn every_sentence_names_exactly_its_keys_parameters() {
        for &key in NoteKey::ALL {
            let mut params: Vec<&str> = key.params().to_vec();
            params.sort_unstable();
            let (en, ja) = key.words();
            for sentence in [en, ja] {
                let mut named: Vec<&str> =
                    sentence.split('{').skip(1).filter_map(|rest| rest.split_once('}').map(|(name, _)| name)).collect();
                named.sort_unstable();
                named.dedup();
                assert_eq!(named, params, "{}: {sentence}", key.key());
            }
        }
    }
}
