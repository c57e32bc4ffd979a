#!/usr/bin/env python3
"""Times level 1 on Spark (spark/analyze_level1.py, local[2]) against analyze on the same data.

    bench/.venv/bin/python bench/spark_compare.py --rows 10000000 --reps 3 --spark-under nice
    bench/.venv/bin/python bench/spark_compare.py --rows 100000000 --tools "spark local[2]" --reps 1 --spark-under nice
    quiet bench/.venv/bin/python bench/spark_compare.py --rows 10000000 100000000 \
        --tools "analyze check" "analyze report" --reps 3

Uses the datasets of bench/generate.py (bench/data/csv-N, bench/data/parquet-N; --formats, Parquet by
default) and the timing of bench/timing.py (wall, CPU, peak RSS). Per size and format, round robin:
`analyze check` (statistics only), `analyze report` (statistics, every chart, the whole site of
one dataset) and the Spark job (run_stats and the chart tables, JVM start included), the first
command rotating each round; the job runs in the first --spark-reps rounds only. Each sample
records the load average before and after it.

--tools times some of them only and keeps the other tools' samples of an earlier invocation, so
the job (tens of minutes at 10^8 rows on 2 busy cores: run it under `nice`) and analyze's runs
(seconds: run them under `quiet`, which waits until no build runs) can be timed apart.
--analyze-under CMD and --spark-under CMD instead run each sample of that tool under a wrapper:
the wrapper starts this script again with --sample, which times the command inside it, so a
wait for a lock is not counted.

A job that fails does not stop the others: its exit status and the end of its stderr go into the
results (the whole stderr stays in bench/data/spark-stderr-FORMAT-N-ROUND.log). The first
successful job's output is kept in bench/data/spark-level1-FORMAT-N and checked with
bench/spark_check.py against analyze's summary.json (every count, percentile and rank) and,
when the chart_inputs example is built beside analyze, every chart point, unless --no-check.

Writes bench/spark_results.json (entries and tools it did not time are kept) and
bench/SPARK_RESULTS.md from it.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import timing

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SPARK_VENV = ROOT / "spark" / ".venv" / "bin"
SPARK = "spark local[2]"
TOOLS = ("analyze check", "analyze report", SPARK)


def default_analyze_bin() -> Path:
    target = os.environ.get("CARGO_TARGET_DIR") or str(Path.home() / ".cache" / "target")
    return Path(target) / "release" / "analyze"


def argv_of(name: str, dataset: Path, analyze: Path, out: Path, driver_memory: str) -> list:
    """The command line of one tool; `out` is a fresh folder it may write (report, level 1)."""
    if name == "analyze check":
        return [analyze, "check", dataset]
    if name == "analyze report":
        return [analyze, "report", dataset, "--out", out]
    # As `just spark` runs it.
    return [
        "env", f"PYSPARK_PYTHON={SPARK_VENV / 'python'}",
        SPARK_VENV / "spark-submit", "--master", "local[2]", "--driver-memory", driver_memory,
        "--conf", "spark.ui.showConsoleProgress=false", "--conf", "spark.sql.shuffle.partitions=8",
        ROOT / "spark" / "analyze_level1.py", dataset, out,
    ]


def run_tree(argv: list, stderr: Path) -> timing.Sample:
    """Runs argv in its own session and waits for every process it started, not only the first:
    spark-submit's JVM and Python driver may outlive the process that started them. They are all
    orphaned to this process (a child subreaper), so each one's rusage comes from wait4: the CPU
    time is their sum and the peak RSS the largest (a JVM's includes the children it reaped).
    stderr goes to the file `stderr`; a failure is returned as the exit code, not raised."""
    timing._become_subreaper()
    if timing._adopted_children():
        raise RuntimeError(f"unexpected child processes {timing._adopted_children()} before timing {argv[0]}")
    with open(stderr, "wb") as err:
        t0 = time.perf_counter()
        subprocess.run(["setsid", "--fork", *map(str, argv)], stdout=subprocess.DEVNULL, stderr=err,
                       stdin=subprocess.DEVNULL, check=True)
        main = timing._adopted_children()
        code, cpu, rss = None, 0.0, 0
        while timing._adopted_children():
            pid, status, ru = os.wait4(-1, 0)
            cpu += ru.ru_utime + ru.ru_stime
            rss = max(rss, ru.ru_maxrss)
            if pid in main and code is None:
                code = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - t0
    return timing.Sample(wall_s=wall, cpu_s=cpu, max_rss_kib=rss, exit_code=code if code is not None else -1)


def sample(name: str, argv: list, stderr: Path) -> dict:
    """One timed execution with the load average around it, as a JSON-ready dict."""
    load_before = timing.load_average()[0]
    start = dt.datetime.now(dt.timezone.utc).strftime("%H:%M:%S")
    s = run_tree(argv, stderr)
    out = dataclasses.asdict(s) | {"start_utc": start, "load1": [load_before, timing.load_average()[0]]}
    if s.exit_code != 0:
        out["stderr_tail"] = stderr.read_text(errors="replace")[-3000:]
    elif name != SPARK:  # the job's log is kept either way: its stages and their times
        stderr.unlink()
    return out


def sample_under(wrapper: list[str], name: str, argv: list, stderr: Path) -> dict:
    """`sample`, run by this script started again under `wrapper` (the time is taken inside it)."""
    if not wrapper:
        return sample(name, argv, stderr)
    cmd = [*wrapper, sys.executable, __file__, "--sample", json.dumps([name, [str(a) for a in argv], str(stderr)])]
    done = subprocess.run(cmd, stdout=subprocess.PIPE, check=True, text=True)
    return json.loads(done.stdout)


def check_agreement(level1: Path, summary: Path, dataset: Path, analyze: Path) -> str:
    """bench/spark_check.py in spark's venv: 'agree: ...' or the first difference it found. The
    chart points too when the chart_inputs example is built beside analyze."""
    chart_inputs = analyze.parent / "examples" / "chart_inputs"
    charts = [dataset, chart_inputs] if chart_inputs.exists() else []
    done = subprocess.run([SPARK_VENV / "python", HERE / "spark_check.py", level1, summary, *charts],
                          capture_output=True, text=True)
    return done.stdout.strip().splitlines()[-1] if done.returncode == 0 else f"differ: {(done.stdout + done.stderr)[-1500:]}"


def measure(rows: int, fmt: str, args, previous: dict | None) -> dict:
    """Times the tools of args.tools on one dataset; the other tools' samples in `previous` (the
    entry of an earlier invocation) are kept."""
    dataset = HERE / "data" / f"{fmt}-{rows}"
    timing.warm_page_cache([p for p in dataset.iterdir() if p.is_file()])
    scratch = HERE / "data" / f"spark-compare-{fmt}-{rows}"
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir()
    samples: dict[str, list] = {name: [] for name in args.tools}
    kept: dict[str, Path] = {}  # the first successful output of the report and of the job
    for rnd in range(args.reps):
        order = TOOLS[rnd % len(TOOLS):] + TOOLS[:rnd % len(TOOLS)]
        for name in order:
            if name not in args.tools or (name == SPARK and rnd >= args.spark_reps):
                continue
            out = scratch / f"{name.replace(' ', '-').replace('[2]', '')}-{rnd}" / dataset.name
            out.parent.mkdir()
            argv = argv_of(name, dataset, args.analyze_bin, out, args.driver_memory)
            stderr = HERE / "data" / f"{'spark' if name == SPARK else name.replace(' ', '-')}-stderr-{fmt}-{rows}-{rnd}.log"
            wrapper = args.spark_under if name == SPARK else args.analyze_under
            s = sample_under(shlex.split(wrapper), name, argv, stderr)
            samples[name].append(s)
            status = "ok" if s["exit_code"] == 0 else f"exit {s['exit_code']}"
            print(f"{rows:,} {fmt} round {rnd + 1}: {name} {s['wall_s']:.1f} s ({status}), load1 {s['load1'][0]:.1f} -> {s['load1'][1]:.1f}",
                  flush=True)
            if s["exit_code"] == 0 and name != "analyze check" and name not in kept:
                kept[name] = out
            elif s["exit_code"] == 0 and out.exists():
                shutil.rmtree(out.parent)
    now = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M")
    entry = previous or {"rows": rows, "format": fmt, "tools": {}, "wrappers": {}}
    entry["date_utc"] = now
    for name, runs in samples.items():  # a tool measured now replaces its earlier samples
        entry["tools"][name] = runs
        wrapper = args.spark_under if name == SPARK else args.analyze_under
        entry["wrappers"]["spark" if name == SPARK else "analyze"] = " ".join(filter(None, [args.ran_under, wrapper]))
    if SPARK in samples:
        entry["driver_memory"] = args.driver_memory
    # The first successful job's output is kept (a few MB), so a later invocation that times only
    # analyze can still check it.
    level1 = HERE / "data" / f"spark-level1-{fmt}-{rows}"
    if SPARK in kept:
        shutil.rmtree(level1, ignore_errors=True)
        kept[SPARK].parent.rename(level1)
        entry["level1_of"] = now
        entry["check"] = "not checked"
    if level1.exists() and not args.no_check and args.analyze_bin.exists():
        report = kept.get("analyze report")
        if report is None:  # untimed: only its summary.json is used
            report = scratch / "check-report" / dataset.name
            report.parent.mkdir()
            subprocess.run([args.analyze_bin, "report", dataset, "--out", report], check=True, stdout=subprocess.DEVNULL)
        entry["check"] = check_agreement(level1 / dataset.name, report / "summary.json", dataset, args.analyze_bin)
        print(f"{rows:,} {fmt}: Spark's run_stats against analyze's summary.json: {entry['check']}", flush=True)
    if not args.keep_outputs:
        shutil.rmtree(scratch, ignore_errors=True)
    return entry


def fmt_s(x: float) -> str:
    return f"{x:,.1f}" if x < 100 else f"{x:,.0f}"


def ratio_text(x: float) -> str:
    return f"{x:,.0f}x" if x >= 10 else f"{x:.2f}x"


def render(entries: dict) -> str:
    """SPARK_RESULTS.md from the entries of spark_results.json (pure)."""
    lines = [
        "# Spark local[2] against analyze (generated by bench/spark_compare.py)",
        "",
        "Wall time of the successful runs (median and min-max), CPU time (median, all processes) and peak RSS "
        "(largest process); Spark's include starting its JVM and Python driver. Ratios are of medians, "
        "to `analyze report` of the same rows, of wall time and of CPU time (all the processes' user and "
        "system time: less sensitive to other work on the machine than wall time). load1 is the 1-minute load average over the runs of "
        "that tool (lowest before, highest after) on this 2-core machine; the wrapper is what each "
        "sample ran under (`quiet`: no new builds start; `nice`: lower priority beside others' work). "
        "Raw samples are in bench/spark_results.json.",
        "",
        "| rows | format | tool | runs | wall s (median, min-max) | CPU s | peak RSS MiB | x analyze report | load1 | under |",
        "| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |",
    ]
    notes = []
    for key in sorted(entries, key=lambda k: (entries[k]["rows"], entries[k]["format"])):
        e = entries[key]
        ok = {name: [s for s in runs if s["exit_code"] == 0] for name, runs in e["tools"].items()}
        report = ok.get("analyze report") or []
        base = statistics.median(s["wall_s"] for s in report) if report else None
        base_cpu = statistics.median(s["cpu_s"] for s in report) if report else None
        for name in sorted(e["tools"], key=TOOLS.index):
            runs, good = e["tools"][name], ok[name]
            failed = [s for s in runs if s["exit_code"] != 0]
            under = e["wrappers"]["spark" if name == SPARK else "analyze"] or "-"
            loads = [s["load1"] for s in runs]
            load = f"{min(l[0] for l in loads):.1f}-{max(l[1] for l in loads):.1f}" if loads else "-"
            if good:
                walls = [s["wall_s"] for s in good]
                med = statistics.median(walls)
                med_cpu = statistics.median(s["cpu_s"] for s in good)
                ratio = f"{ratio_text(med / base)} (CPU {ratio_text(med_cpu / base_cpu)})" if base else "-"
                wall = f"{fmt_s(med)} ({fmt_s(min(walls))}-{fmt_s(max(walls))})"
                cpu = fmt_s(med_cpu)
                rss = f"{max(s['max_rss_kib'] for s in good) / 1024:,.0f}"
            else:
                wall = cpu = rss = ratio = "-"
            runs_cell = f"{len(good)}" + (f" (+{len(failed)} failed)" if failed else "")
            lines.append(f"| {e['rows']:,} | {e['format']} | {name} | {runs_cell} | {wall} | {cpu} | {rss} | {ratio} | {load} | {under} |")
            for s in failed:
                tail = " ".join(s.get("stderr_tail", "").split()[-60:])
                notes.append(f"- {e['rows']:,} {e['format']}, {name}, started {s['start_utc']} UTC: exit {s['exit_code']} "
                             f"after {fmt_s(s['wall_s'])} s (driver memory {e.get('driver_memory', '?')}); end of stderr: `{tail}`")
        if "check" in e:
            notes.append(f"- {e['rows']:,} {e['format']}: the output of the job of {e.get('level1_of', '?')} UTC against "
                         f"analyze's (bench/spark_check.py): {e['check']}")
        else:
            notes.append(f"- {e['rows']:,} {e['format']}: agreement not checked (no successful job)")
    return "\n".join(lines + [""] + notes) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, nargs="+", default=[10_000_000])
    ap.add_argument("--formats", nargs="+", choices=("csv", "parquet"), default=["parquet"])
    ap.add_argument("--reps", type=int, default=3, help="rounds of analyze check and report")
    ap.add_argument("--tools", nargs="+", choices=TOOLS, default=list(TOOLS),
                    help="the tools to time (the others' samples from an earlier invocation are kept)")
    ap.add_argument("--spark-reps", type=int, help="rounds that also run the job (default: every round)")
    ap.add_argument("--driver-memory", default="2g", help="spark-submit --driver-memory (just spark: 2g)")
    ap.add_argument("--analyze-under", default="", help="wrapper command for analyze's samples, e.g. quiet")
    ap.add_argument("--spark-under", default="", help="wrapper command for the job's samples, e.g. nice")
    ap.add_argument("--ran-under", default="",
                    help="what this invocation itself runs under, for the record (e.g. quiet)")
    ap.add_argument("--analyze-bin", type=Path, default=default_analyze_bin())
    ap.add_argument("--no-check", action="store_true", help="skip the agreement check of the job's run_stats")
    ap.add_argument("--keep-outputs", action="store_true", help="keep bench/data/spark-compare-FORMAT-N/")
    ap.add_argument("--sample", help=argparse.SUPPRESS)  # internal: one sample, under a wrapper
    args = ap.parse_args()
    if args.sample:
        name, argv, stderr = json.loads(args.sample)
        print(json.dumps(sample(name, argv, Path(stderr))))
        return 0
    if args.spark_reps is None:
        args.spark_reps = args.reps
    results_json = HERE / "spark_results.json"

    def entries() -> dict:  # read again before each write: another invocation may have written
        return json.loads(results_json.read_text())["entries"] if results_json.exists() else {}

    for rows in args.rows:
        for fmt in args.formats:
            key = f"{fmt}-{rows}"
            entry = measure(rows, fmt, args, entries().get(key))
            merged = entries()
            if key in merged:  # keep the samples of tools this invocation did not time
                entry["tools"] = merged[key]["tools"] | {k: v for k, v in entry["tools"].items() if k in args.tools}
                kinds = {"spark" if name == SPARK else "analyze" for name in args.tools}
                entry["wrappers"] = merged[key]["wrappers"] | {k: v for k, v in entry["wrappers"].items() if k in kinds}
            merged[key] = entry
            results_json.write_text(json.dumps({"entries": merged}, indent=1, sort_keys=True) + "\n")
            (HERE / "SPARK_RESULTS.md").write_text(render(merged))
    print((HERE / "SPARK_RESULTS.md").read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
