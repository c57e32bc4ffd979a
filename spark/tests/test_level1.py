"""Spark's run-level tables equal what analyze computes from the raw rows: every run_stats
statistic against `analyze report`'s summary.json, every chart input against analyze's own
reduction (the chart_inputs example), on the default dataset, on a dataset built on the rank
traps, and on a hive-partitioned Parquet copy of it, which analyze also reads directly."""

import csv
import json
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest
import trap_dataset
from conftest import ROOT

import analyze_level1

DEFAULT = ROOT / "datasets" / "gunicorn-slow-client"


def analyze_report(analyze_bin, dataset: Path, out: Path, lang="en") -> Path:
    done = subprocess.run([analyze_bin, "report", dataset, "--out", out, "--lang", lang], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return out


def analyze_summary(analyze_bin, dataset: Path, tmp: Path) -> dict:
    return json.loads((analyze_report(analyze_bin, dataset, tmp / "report") / "summary.json").read_text())


def files(folder: Path) -> dict:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# The paragraph of Methods that says which engine computed level 1, in each page that has Methods.
LEVEL1_SENTENCE = re.compile(r"<p>(These per-run statistics|測定ごとのこれらの統計)[^<]*</p>\n?|(These per-run statistics|測定ごとのこれらの統計)[^\n]*\n\n")


# Latency from the intended send needs each row's lag beside its latency, which the run-level
# tables do not carry (docs/beyond-one-machine.md): the report of the rows has these pieces and the
# report of the tables leaves them out; everything else must be equal.
INTENDED_PIECES = [
    re.compile(r"<p>(Latency from the intended send|予定送信時刻からの応答時間は)[^<]*</p>\n?"),
    re.compile(r"(Latency from the intended send|予定送信時刻からの応答時間は)[^\n]*\n\n"),
    re.compile(r"<th scope=\"col\">(From the intended send \(ms\)|予定送信時刻から（ms）)</th>"),
    re.compile(r"<p class=\"note\">(Timed from when each request|各リクエストの予定送信時刻から)[^<]*</p>"),
    re.compile(r"<figure>(?:<div class=\"figure-wrap\"><p class=\"scroll-cue\"[^>]*>[^<]*</p>)?<object data=\"[^\"]*send-lag-[^\"]*\"[^>]*><a [^>]*>[^<]*</a></object>(?:</div>)?<figcaption>[^<]*</figcaption></figure>\n?"),
]
# The intended-send cell closing each row of a run page's percentile table.
INTENDED_CELL = re.compile(r"(<tr><th scope=\"row\">p[0-9.]+</th><td[^>]*>[^<]*</td><td[^>]*>[^<]*</td>)<td[^>]*>[^<]*</td></tr>")


def without_intended(name: str, content: bytes) -> bytes:
    text = content.decode()
    if name == ".analyze-output":
        return "".join(line for line in text.splitlines(keepends=True) if "figures/send-lag-" not in line).encode()
    if name.startswith("runs/") and INTENDED_PIECES[2].search(text):
        text = INTENDED_CELL.sub(r"\1</tr>", text)
    for piece in INTENDED_PIECES:
        text = piece.sub("", text)
    return text.encode()


def assert_same_reports(analyze_bin, raw: Path, level1_out: Path, tmp: Path, version: str, lang="en"):
    """analyze's report of Spark's tables equals its report of the raw rows: summary.json
    statistic by statistic, every chart byte for byte, every other file byte for byte but for the
    Methods sentence that names the engine and the latency from the intended send (INTENDED_PIECES)."""
    assert raw.name == level1_out.name, "the dataset's name is its folder's: keep it"
    want = files(analyze_report(analyze_bin, raw, tmp / f"from-rows-{lang}" / raw.name, lang))
    got = files(analyze_report(analyze_bin, level1_out, tmp / f"from-spark-{lang}" / raw.name, lang))
    lags = [name for name in want if name.startswith("figures/send-lag-")]
    for name in lags:
        del want[name]
    assert not [name for name in got if name.startswith("figures/send-lag-")], "no send lags in run-level tables"
    want = {name: without_intended(name, content) if name.endswith((".html", ".md", ".analyze-output")) else content for name, content in want.items()}
    assert sorted(got) == sorted(want)
    summary, expected = json.loads(got.pop("summary.json")), json.loads(want.pop("summary.json"))
    for part in ("runs", "conditions"):
        for item in expected[part]:
            item.pop("from_intended_ms", None)
            item.pop("intended_gap", None)
        assert not any("from_intended_ms" in item for item in summary[part]), part
    assert summary.pop("level1") == {"engine": "Apache Spark", "version": version}
    assert sorted(summary) == sorted(expected)
    for key in expected:
        if key == "runs":
            for got_run, want_run in zip(summary["runs"], expected["runs"], strict=True):
                assert got_run == want_run, f"run {want_run['run_id']}"
        assert summary[key] == expected[key], key
    charts = [name for name in want if name.endswith(".svg")]
    assert len(charts) >= 5, charts
    for name in charts:
        assert got.pop(name) == want.pop(name), f"chart {name}"
    for name, content in want.items():
        stripped, sentences = LEVEL1_SENTENCE.subn("", got[name].decode())
        assert stripped == content.decode(), name
        if name in ("index.html", "report.md"):
            assert sentences == 1 and f"Apache Spark {version}" in got[name].decode(), name


def analyze_charts(chart_inputs_bin, dataset: Path) -> dict:
    done = subprocess.run([chart_inputs_bin, dataset], check=True, capture_output=True, text=True)
    return {run["run_id"]: run for run in json.loads(done.stdout)["runs"]}


def table(spark, folder: Path, name: str):
    return [row.asDict() for row in spark.read.parquet(str(folder / f"{name}.parquet")).collect()]


def by_run(rows):
    grouped = {}
    for row in rows:
        grouped.setdefault(row["run_id"], []).append(row)
    return grouped


def assert_same_statistics(spark, out: Path, summary: dict):
    stats = {row["run_id"]: row for row in table(spark, out, "run_stats")}
    statuses = by_run(table(spark, out, "run_statuses"))
    assert sorted(stats) == sorted(run["run_id"] for run in summary["runs"])
    headline_key = analyze_level1.key(round(summary["percentile"] * 1000))
    for run in summary["runs"]:
        got = stats[run["run_id"]]
        where = f"run {run['run_id']}"
        for name in ("requests", "ok_responses", "errors", "non_2xx", "no_response", "max_lag_ms", "headline_ms", "headline_rank"):
            assert got[name] == run[name], f"{where}: {name}"
        assert got["p95_ms"] == run["p95_ms"] and got["p95_rank"] == run["p95_rank"], where
        # Every percentile analyze reports, value and rank, and no other.
        spark_keys = {k[1:-3].replace("_", ".") for k in got if k.startswith("p") and k.endswith("_ms")}
        assert spark_keys == {"50", "90", "95", "99", "99.9", headline_key}, where
        for key, value in run["percentiles_ms"].items():
            stem = "p" + key.replace(".", "_")
            assert (got[f"{stem}_ms"], got[f"{stem}_rank"]) == (value, run["percentile_ranks"][key]), f"{where}: p{key}"
        if not run["percentiles_ms"]:
            assert got["p50_ms"] is None and got["p50_rank"] is None, where
        assert got["headline_percentile"] == summary["percentile"] and got["rule"] == "nearest-rank"
        assert {str(s["status"]): s["requests"] for s in statuses.get(run["run_id"], [])} == run["statuses"], where


def assert_same_charts(spark, out: Path, charts: dict):
    stats = {row["run_id"]: row for row in table(spark, out, "run_stats")}
    ecdf, points, bands, errors = (by_run(table(spark, out, name)) for name in ("run_ecdf", "run_points", "run_bands", "run_errors"))
    for run_id, want in charts.items():
        n = stats[run_id]["ok_responses"]
        got_ecdf = [[row["latency_ms"], row["rank"] / n] for row in sorted(ecdf.get(run_id, []), key=lambda r: r["rank"])]
        assert got_ecdf == want["ecdf"]["points"] and want["ecdf"]["total"] == n, f"run {run_id}: ECDF"
        if got_ecdf:
            assert (stats[run_id]["min_ms"], stats[run_id]["max_ms"]) == (got_ecdf[0][0], got_ecdf[-1][0]), run_id
        got_points = sorted([row["t_s"], row["latency_ms"]] for row in points.get(run_id, []))
        assert got_points == want["time_series"]["points"] and want["time_series"]["total"] == n, f"run {run_id}: time series"
        columns = ("column", "requests", "p50_ms", "p95_ms", "max_ms", "slowest_t_s", "send_times")
        got_columns = sorted([row[c] for c in columns] for row in bands.get(run_id, []))
        assert got_columns == want["time_series"]["columns"], f"run {run_id}: columns of send time"
        got_errors = [[row["t_s"], row["latency_ms"], row["status"]] for row in errors.get(run_id, [])]
        got_errors.sort(key=lambda p: (p[0], p[1] is None, p[1] or 0.0, p[2]))
        assert got_errors == want["errors"]["points"], f"run {run_id}: error marks"
        assert want["errors"]["total"] == stats[run_id]["errors"], run_id


@pytest.fixture(scope="module")
def traps(tmp_path_factory) -> Path:
    return trap_dataset.write(tmp_path_factory.mktemp("traps") / "traps")


@pytest.fixture(scope="module")
def traps_level1(spark, traps, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("traps-level1") / "traps"
    analyze_level1.level1(spark, str(traps), str(out))
    return out


@pytest.fixture(scope="module")
def hive_traps(spark, traps, tmp_path_factory) -> Path:
    """The trap dataset with its requests as requests/date=.../run_id=.../part-*.parquet."""
    folder = tmp_path_factory.mktemp("hive") / "traps"
    folder.mkdir()
    for name in ("runs.csv", "dataset.toml"):
        shutil.copy(traps / name, folder / name)
    rows = spark.read.option("header", "true").csv(str(traps / "requests.csv"))
    typed = rows.selectExpr(
        "run_id", "CAST(seq AS BIGINT) seq", "CAST(scheduled_ms AS DOUBLE) scheduled_ms", "CAST(sent_ms AS DOUBLE) sent_ms",
        "CAST(latency_ms AS DOUBLE) latency_ms", "CAST(status AS INT) status", "CAST(body_bytes AS BIGINT) body_bytes",
        "CASE WHEN run_id < 'n1' THEN '2026-11-29' ELSE '2026-11-30' END AS date",
    )
    typed.repartition(3).write.partitionBy("date", "run_id").parquet(str(folder / "requests"))
    assert len(list((folder / "requests").glob("date=*/run_id=*/*.parquet"))) >= 10
    return folder


def test_default_dataset_statistics_and_charts_equal_analyzes(spark, analyze_bin, chart_inputs_bin, tmp_path):
    out = tmp_path / "level1" / DEFAULT.name
    analyze_level1.level1(spark, str(DEFAULT), str(out))
    assert_same_statistics(spark, out, analyze_summary(analyze_bin, DEFAULT, tmp_path))
    assert_same_charts(spark, out, analyze_charts(chart_inputs_bin, DEFAULT))
    # The side tables pass through unchanged, and the job says what ran it.
    for name in ("runs.csv", "dataset.toml", "large_responses.csv", "tempfiles.csv", "resources.csv"):
        assert (out / name).read_bytes() == (DEFAULT / name).read_bytes(), name
    marker = json.loads((out / "level1.json").read_text())
    assert marker == {"engine": "Apache Spark", "version": spark.version, "rule": "nearest-rank", "requests": "requests.csv"}
    assert sorted(p.name for p in out.glob("*.parquet")) == [
        "run_bands.parquet", "run_ecdf.parquet", "run_errors.parquet", "run_points.parquet", "run_stats.parquet", "run_statuses.parquet"
    ]
    # analyze's report of these tables is its report of the rows, in both languages.
    for lang in ("en", "ja"):
        assert_same_reports(analyze_bin, DEFAULT, out, tmp_path, spark.version, lang)


def test_rank_traps_give_analyzes_statistics_and_charts(spark, analyze_bin, chart_inputs_bin, traps, traps_level1, tmp_path):
    out = traps_level1
    summary = analyze_summary(analyze_bin, traps, tmp_path)
    assert_same_statistics(spark, out, summary)
    charts = analyze_charts(chart_inputs_bin, traps)
    assert_same_charts(spark, out, charts)
    # The traps are really hit: hand-worked ranks, a reduced series and reduced error marks.
    runs = {run["run_id"]: run for run in summary["runs"]}
    assert runs["n0020"]["percentile_ranks"]["95"] == 19
    assert runs["n0072"]["percentile_ranks"]["95"] == 69
    assert runs["n1000-ties"]["percentile_ranks"]["99.9"] == 999
    assert runs["n1001-nulls"]["percentile_ranks"]["97.5"] == 976 and runs["n1001-nulls"]["no_response"] == 5
    # A run of 300 2xx responses is drawn point by point, one of 301 in columns of send time.
    assert len(charts["n0300"]["time_series"]["points"]) == 300 and not charts["n0300"]["time_series"]["columns"]
    assert not charts["n0301-errors"]["time_series"]["points"] and charts["n0301-errors"]["time_series"]["columns"]
    big = charts["n41000"]["time_series"]
    assert not big["points"] and len(big["columns"]) == analyze_level1.COLUMNS and sum(c[1] for c in big["columns"]) == 41000
    assert len(charts["n0300"]["errors"]["points"]) == 0
    assert len(charts["n0301-errors"]["errors"]["points"]) < charts["n0301-errors"]["errors"]["total"] == 301
    assert len(charts["n41000"]["errors"]["points"]) < charts["n41000"]["errors"]["total"] == 1600
    assert runs["no-requests"]["requests"] == 0 and runs["only-errors"]["ok_responses"] == 0
    assert_same_reports(analyze_bin, traps, out, tmp_path, spark.version)


def rows_by_run(dataset: Path) -> dict:
    runs = {}
    with open(dataset / "requests.csv", newline="") as f:
        for row in csv.DictReader(f):
            runs.setdefault(row["run_id"], []).append(row)
    return runs


def test_mean_and_time_span_follow_their_definitions(spark, traps, traps_level1):
    """mean_ms: each distinct 2xx latency times its count, added in ascending order, over n;
    first_sent_ms and last_done_ms: the first send and the last completion (send + latency)."""
    stats = {row["run_id"]: row for row in table(spark, traps_level1, "run_stats")}
    for run_id, rows in rows_by_run(traps).items():
        ok = [float(r["latency_ms"]) for r in rows if r["latency_ms"] and 200 <= int(r["status"]) <= 299]
        total = 0.0
        for value, count in sorted(Counter(ok).items()):
            total += value * float(count)
        assert stats[run_id]["mean_ms"] == (total / len(ok) if ok else None), run_id
        assert stats[run_id]["first_sent_ms"] == min(float(r["sent_ms"]) for r in rows), run_id
        done = [float(r["sent_ms"]) + float(r["latency_ms"]) for r in rows if r["latency_ms"]]
        assert stats[run_id]["last_done_ms"] == (max(done) if done else None), run_id
    assert stats["n0072"]["first_sent_ms"] == -0.05, "a send before the run's start is kept"


def test_hive_partitioned_parquet_gives_the_same_tables(spark, analyze_bin, chart_inputs_bin, traps, hive_traps, tmp_path):
    out = tmp_path / "level1" / "traps"
    analyze_level1.level1(spark, str(hive_traps), str(out))
    assert_same_statistics(spark, out, analyze_summary(analyze_bin, traps, tmp_path))
    assert_same_charts(spark, out, analyze_charts(chart_inputs_bin, traps))
    assert_same_reports(analyze_bin, traps, out, tmp_path, spark.version)
    assert json.loads((out / "level1.json").read_text())["requests"] == "requests"
    # analyze reads the hive folder itself (Spark's parts, run_id only in the folder names): its
    # report is the report of the same rows in one requests.csv, byte for byte, in both languages,
    # and the report of Spark's tables but for the Methods sentence naming the engine.
    for lang in ("en", "ja"):
        want = files(analyze_report(analyze_bin, traps, tmp_path / f"csv-{lang}" / traps.name, lang))
        got = files(analyze_report(analyze_bin, hive_traps, tmp_path / f"hive-{lang}" / traps.name, lang))
        assert sorted(got) == sorted(want)
        for name in want:
            assert got[name] == want[name], f"{lang}: {name}"
    assert_same_reports(analyze_bin, hive_traps, out, tmp_path / "hive-direct", spark.version)


def test_the_same_input_gives_byte_identical_tables(spark, traps, traps_level1, tmp_path):
    again = tmp_path / "again"
    analyze_level1.level1(spark, str(traps), str(again))
    names = sorted(path.name for path in traps_level1.iterdir())
    assert names == sorted(path.name for path in again.iterdir())
    for name in names:
        assert (traps_level1 / name).read_bytes() == (again / name).read_bytes(), name


def test_requests_of_a_run_missing_from_runs_csv_are_refused(spark, tmp_path):
    dataset = tmp_path / "bad"
    dataset.mkdir()
    (dataset / "runs.csv").write_text("run_id,repetition,started_at_utc,status\na,1,2026-11-30T00:00:00Z,ok\n")
    (dataset / "requests.csv").write_text("run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes\na,0,0,0,1,200,0\nzz,0,0,0,1,200,0\n")
    with pytest.raises(analyze_level1.Level1Error, match="runs.csv does not list: 'zz'"):
        analyze_level1.level1(spark, str(dataset), str(tmp_path / "out"))
    assert not (tmp_path / "out").exists() and not (tmp_path / "out.building").exists()


def test_a_folder_the_job_did_not_write_is_never_replaced(spark, tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    with pytest.raises(analyze_level1.Level1Error, match="was not written by this job"):
        analyze_level1.level1(spark, str(DEFAULT), str(out))
    assert (out / "notes.txt").read_text() == "keep me"


def labelled_dataset(folder: Path) -> Path:
    """Three runs whose requests are a session's three steps plus a name that needs escaping,
    with 502s and requests without a response, from a fixed generator."""
    folder.mkdir(parents=True)
    (folder / "runs.csv").write_text(
        "run_id,server,repetition,started_at_utc,status\n"
        + "".join(f"r{i},s,{i},2026-12-01T00:0{i}:00Z,ok\n" for i in (1, 2, 3))
    )
    state = 23
    lines = ["run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes,label"]
    for run in ("r1", "r2", "r3"):
        for seq in range(600):
            state = (state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
            label = ["get-page", "post-form", "get-page-again", "a, <b>"][(state >> 40) % 4]
            status = [502, 0, 200, 200, 200, 200, 200, 200, 200, 200][(state >> 20) % 10]
            latency = "" if status == 0 else str(((state >> 33) % 250_000 + 1) / 1000)
            quoted = f'"{label}"' if "," in label else label
            lines.append(f"{run},{seq},{seq * 5},{seq * 5},{latency},{status},10,{quoted}")
    (folder / "requests.csv").write_text("\n".join(lines) + "\n")
    return folder


def test_per_label_statistics_equal_analyzes(spark, analyze_bin, tmp_path):
    dataset = labelled_dataset(tmp_path / "labelled")
    out = tmp_path / "level1" / "labelled"
    analyze_level1.level1(spark, str(dataset), str(out))
    summary = analyze_summary(analyze_bin, dataset, tmp_path)
    got = {(row["run_id"], row["label"]): row for row in table(spark, out, "label_stats")}
    expected = {(run["run_id"], label["label"]): label for run in summary["runs"] for label in run["labels"]}
    assert sorted(got) == sorted(expected) and len(got) == 12
    for where, label in expected.items():
        row = got[where]
        assert (row["requests"], row["errors"]) == (label["requests"], label["errors"]), where
        assert {k: row[f"p{k}_ms"] for k in ("50", "95", "99")} == label["percentiles_ms"], where
        assert row["max_ms"] == label["max_ms"], where
    # A level-1 folder with the label table is still a dataset analyze reads.
    done = subprocess.run([analyze_bin, "check", out], capture_output=True, text=True)
    assert done.returncode in (0, 1), done.stderr
