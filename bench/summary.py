"""Summaries of timing samples and the RESULTS.md renderer. Pure: dicts in, strings out; no IO.

The input is the results.json structure written by run.py:
  {"machine": {...}, "entries": {"csv-1000000": {entry}, ...}}
and an entry holds "tools": {name: {"samples": [{"wall_s", "cpu_s", "max_rss_kib"}], ...}}.
"""

from __future__ import annotations

import statistics

# Tool names, in table order. "cat" is the floor; DuckDB and polars are the peers analyze is
# compared with.
TOOL_ORDER = ("cat", "analyze check", "analyze report", "duckdb", "polars")
PEERS = ("duckdb", "polars")
TOOL_LABEL = {
    "cat": "`cat` (floor: read the file from page cache)",
    "analyze check": "`analyze check` (ingest + validation + statistics)",
    "analyze report": "`analyze report` (full report)",
    "duckdb": "DuckDB (Python)",
    "polars": "polars (Python)",
}
# The targets for `analyze` against DuckDB, by format, at 10M rows and above.
TARGET_RATIO = {"csv": 0.5, "parquet": 1.0}
TARGET_MIN_ROWS = 10_000_000

# The import case (issue 9): `analyze import` of a hey CSV against DuckDB loading it into a table.
IMPORT_TOOL_ORDER = ("cat", "analyze import", "duckdb", "duckdb (in memory)")
IMPORT_TOOL_LABEL = {
    "cat": "`cat` (floor: read the file from page cache)",
    "analyze import": "`analyze import` (a new dataset on disk)",
    "duckdb": "DuckDB (Python): load into a table in a new database file",
    "duckdb (in memory)": "DuckDB (Python): load into an in-memory table (for reference)",
}
# Issue 9: importing 10M hey rows takes at most the time DuckDB needs to load the same file.
IMPORT_TARGET_RATIO = 1.0


def summarize(samples: list[dict]) -> dict:
    walls = [s["wall_s"] for s in samples]
    return {
        "wall_median_s": statistics.median(walls),
        "wall_min_s": min(walls),
        "wall_max_s": max(walls),
        "cpu_median_s": statistics.median(s["cpu_s"] for s in samples),
        "max_rss_median_mib": statistics.median(s["max_rss_kib"] for s in samples) / 1024,
        "n": len(samples),
    }


def add_ratios(tools: dict) -> None:
    """Adds ratio_to_duckdb and ratio_to_fastest_peer (of medians) to each tool's summary."""
    med = {name: t["summary"]["wall_median_s"] for name, t in tools.items()}
    peers = [med[p] for p in PEERS if p in med]
    fastest = min(peers) if peers else None
    for name, t in tools.items():
        s = t["summary"]
        s["ratio_to_duckdb"] = med[name] / med["duckdb"] if "duckdb" in med else None
        s["ratio_to_fastest_peer"] = med[name] / fastest if fastest else None


def verdicts(entry: dict) -> list[str]:
    """The statistics timing (`analyze check`) against the issue's target; the full report has no
    target of its own and is shown for information."""
    limit = TARGET_RATIO[entry["format"]]
    out = []
    for name in ("analyze check",):
        t = entry["tools"].get(name)
        if not t or t["summary"].get("ratio_to_duckdb") is None:
            continue
        r = t["summary"]["ratio_to_duckdb"]
        if entry["rows"] < TARGET_MIN_ROWS:
            verdict = f"(the target applies from {TARGET_MIN_ROWS:,} rows)"
        else:
            verdict = "**meets the target**" if r <= limit else "**misses the target**"
        out.append(f"- `{name}`: {r:.2f}x DuckDB's median; target <= {limit:g}x on {entry['format']}: {verdict}")
    return out


def _mb(n: int) -> str:
    return f"{n / 1e6:.1f} MB" if n >= 1e5 else f"{n / 1e3:.1f} kB"


def _ratio(x) -> str:
    return "" if x is None else f"{x:.2f}x"


def render_entry(key: str, e: dict) -> list[str]:
    fmt_name = {"csv": "CSV", "parquet": "Parquet"}[e["format"]]
    lines = [
        f"## {e['rows']:,} rows, {fmt_name}",
        "",
        f"`{e['file']}`: {_mb(e['file_bytes'])}. Measured {e['measured_at']}; {e['repetitions']} repetitions "
        f"of each tool, round-robin; page cache warmed first ({e['warm_passes']} reads of every input file). "
        f"Load average (1 min) before {e['load_before'][0]:.2f}, after {e['load_after'][0]:.2f}.",
        "",
        f"Agreement checked before timing: {', '.join(e['agreement']['tools'])} gave identical per-run p95 "
        f"({e['agreement']['runs']} runs) and per-condition median/min/max ({e['agreement']['conditions']} conditions).",
        "",
    ]
    if e.get("busy"):
        lines += [f"**Warning: a build was running during this measurement** ({len(e['busy'])} processes).", ""]
    lines += [
        "| tool | median s | min-max s | x DuckDB | x fastest peer | CPU s (median) | peak RSS MiB (median) |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name in TOOL_ORDER:
        t = e["tools"].get(name)
        if t is None:
            if name.startswith("analyze") and e.get("analyze_missing"):
                lines.append(f"| {TOOL_LABEL[name]} | not measured: {e['analyze_missing']} | | | | | |")
            continue
        s = t["summary"]
        lines.append(
            f"| {TOOL_LABEL[name]} | {s['wall_median_s']:.3f} | {s['wall_min_s']:.3f}-{s['wall_max_s']:.3f} | "
            f"{_ratio(s['ratio_to_duckdb'])} | {_ratio(s['ratio_to_fastest_peer'])} | {s['cpu_median_s']:.2f} | "
            f"{s['max_rss_median_mib']:.0f} |"
        )
    lines.append("")
    v = verdicts(e)
    if v:
        lines += v + [""]
    rep = e.get("report_output")
    if rep:
        lines += [
            f"Report output (`analyze report`): {_mb(rep['total_bytes'])} in {rep['files']} files; "
            f"largest `{rep['largest_file']}` {_mb(rep['largest_bytes'])}.",
            "",
        ]
    return lines


def import_verdict(entry: dict) -> str:
    r = entry["tools"]["analyze import"]["summary"]["ratio_to_duckdb"]
    if entry["rows"] < TARGET_MIN_ROWS:
        verdict = f"(the target applies from {TARGET_MIN_ROWS:,} rows)"
    else:
        verdict = "**meets the target**" if r <= IMPORT_TARGET_RATIO else "**misses the target**"
    return (f"- `analyze import`: {r:.2f}x the median of DuckDB's load into a database file; "
            f"target <= {IMPORT_TARGET_RATIO:g}x: {verdict}")


def render_import_entry(e: dict) -> list[str]:
    a = e["agreement"]
    lines = [
        f"### {e['rows']:,} rows of `hey -o csv`",
        "",
        f"`{e['file']}`: {_mb(e['file_bytes'])} (synthetic: bench/generate_hey.py). Measured {e['measured_at']}; "
        f"{e['repetitions']} repetitions of each tool, round-robin, each writing into a new place that is removed "
        f"after it; page cache warmed first ({e['warm_passes']} reads of the file). "
        f"Load average (1 min) before {e['load_before'][0]:.2f}, after {e['load_after'][0]:.2f}.",
        "",
        "Agreement checked before timing: analyze's report of the imported dataset and DuckDB over its "
        "requests.csv gave the same n and nearest-rank p95 as DuckDB over its loaded table, and the row count, "
        "status counts and exact sums and extremes of the times (in 0.1 ms) were equal: "
        + "; ".join(a["facts"].split()) + ".",
        "",
    ]
    if e.get("busy"):
        lines += [f"**Warning: a build was running during this measurement** ({len(e['busy'])} processes).", ""]
    lines += [
        "| tool | median s | min-max s | x DuckDB (file) | CPU s (median) | peak RSS MiB (median) |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name in IMPORT_TOOL_ORDER:
        t = e["tools"].get(name)
        if t is None:
            continue
        s = t["summary"]
        lines.append(
            f"| {IMPORT_TOOL_LABEL[name]} | {s['wall_median_s']:.3f} | {s['wall_min_s']:.3f}-{s['wall_max_s']:.3f} | "
            f"{_ratio(s['ratio_to_duckdb'])} | {s['cpu_median_s']:.2f} | {s['max_rss_median_mib']:.0f} |"
        )
    lines += [
        "",
        import_verdict(e),
        "",
        f"Written: the dataset's requests.csv {_mb(a['requests_csv_bytes'])}; DuckDB's database file "
        f"{_mb(a['duckdb_file_bytes'])}.",
        "",
    ]
    return lines


def render_hive(key: str, e: dict) -> list[str]:
    """The section of bench/hive.py's measurement: one requests.parquet vs the same rows as a
    hive-partitioned folder, timed in the same invocation."""
    lines = [
        f"## {e['rows']:,} rows, one Parquet file vs a hive-partitioned folder",
        "",
        f"`bench/data/parquet-{key}/requests.parquet` ({_mb(e['one_file_bytes'])}) vs `bench/data/hive-{key}/requests/` "
        f"({e['hive_files']} files `run_id=<run>/part-00000.parquet`, {_mb(e['hive_bytes'])}; the run is in the folder "
        f"name, not in a column). Measured {e['measured_at']} (commit {e['git_commit']}) by `bench/hive.py`; "
        f"{e['repetitions']} rounds, round-robin, warm page cache. "
        f"Load average (1 min) before {e['load_before'][0]:.2f}, after {e['load_after'][0]:.2f}. "
        "Agreement checked before timing: the same per-run p95 and per-condition median/min/max from both.",
        "",
    ]
    if e.get("busy"):
        lines += [f"**Warning: a build was running during this measurement** ({len(e['busy'])} processes).", ""]
    lines += [
        "| command | median s | min-max s | x one file | CPU s (median) | peak RSS MiB (median) |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, t in e["tools"].items():
        s = t["summary"]
        lines.append(
            f"| `{name}` | {s['wall_median_s']:.3f} | {s['wall_min_s']:.3f}-{s['wall_max_s']:.3f} | "
            f"{_ratio(s['ratio_to_one_file'])} | {s['cpu_median_s']:.2f} | {s['max_rss_median_mib']:.0f} |"
        )
    return lines + [""]


def render_markdown(results: dict, profile: str = "") -> str:
    """RESULTS.md; `profile` (bench/PROFILE.md, written by hand from perf runs) is appended."""
    m = results["machine"]
    lines = [
        "# Benchmark results",
        "",
        "Written by `bench/run.py` and `bench/hive.py` (see bench/README.md); do not edit by hand. "
        "Raw samples are in bench/results.json.",
        "",
        "## Machine (latest run)",
        "",
        "| | |",
        "| --- | --- |",
    ]
    for label, k in (
        ("date (UTC)", "date_utc"),
        ("CPU", "cpu_model"),
        ("nproc", "nproc"),
        ("memory", "memory"),
        ("kernel", "kernel"),
        ("python", "python"),
        ("duckdb", "duckdb"),
        ("polars", "polars"),
        ("numpy", "numpy"),
        ("analyze", "analyze"),
        ("git commit", "git_commit"),
    ):
        lines.append(f"| {label} | {m.get(k, '')} |")
    lines += [
        "",
        "## Method",
        "",
        "- Statistic: per ok run, nearest-rank p95 (rank (95 n + 99) / 100 in integers) of the 2xx latencies; "
        "per condition, the median (mean of the middle two if even), min and max of its runs' p95.",
        f"- DuckDB computes it with {m.get('duckdb_method_note', '')}",
        "- polars: lazy scan, filter, group by run, sort each run's latencies and take the nearest rank by index.",
        "- Every tool is a fresh process, timed from start to exit (wall time); peak RSS and CPU time are the "
        "tool process's own `wait4` rusage (forked by `setsid --fork`, so the harness's memory is not "
        "inherited; floor about 1.5 MB). The Python tools' times include interpreter start and imports "
        f"({m.get('python_startup_note', 'not measured')}).",
        "- Before timing, each size and format is checked for agreement: every tool's per-run and "
        "per-condition numbers must be identical (and the CSV and Parquet copies must give the same numbers).",
        "- Tools alternate round-robin (the starting tool rotates each round), all on one machine in one "
        "invocation, with a warm page cache. Ratios are of medians; the peers are DuckDB and polars.",
        "",
    ]
    entries = results["entries"]
    stats = {k: e for k, e in entries.items() if e.get("case", "stats") == "stats"}
    imports = {k: e for k, e in entries.items() if e.get("case") == "import"}
    for key in sorted(stats, key=lambda k: (stats[k]["rows"], stats[k]["format"] != "csv")):
        lines += render_entry(key, stats[key])
    hive = results.get("hive", {})
    for key in sorted(hive, key=int):
        lines += render_hive(key, hive[key])
    if imports:
        lines += [
            "## Import",
            "",
            "`analyze import HEY_CSV --into NEW_DIR --run-id r1 --factor tool=hey --started-at ...` against "
            "DuckDB loading the same file into a table with explicit column types (`bench/duckdb_load.py`). The "
            "import writes a dataset to disk (fsync'd), so the peer it is held to is DuckDB loading into a new "
            "database file (checkpointed when it closes); the in-memory load is shown for reference.",
            "",
        ]
        for key in sorted(imports, key=lambda k: imports[k]["rows"]):
            lines += render_import_entry(imports[key])
    if profile.strip():
        lines += ["", profile.strip()]
    return "\n".join(lines).rstrip() + "\n"
