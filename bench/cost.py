#!/usr/bin/env python3
"""Issue 26's cost targets: what a hostile or careless dataset costs `analyze check` and `report`.

    python3 bench/cost.py                               # every case, 5 rounds
    python3 bench/cost.py --cases identical --reps 3
    python3 bench/cost.py --baseline-bin /tmp/analyze-before   # also time another build's report

Cases (generated into bench/data/cost-<case>/ when missing; deterministic):
  identical  one run of 20,000,000 identical latencies (5 ms): ties everywhere. Target: `report`'s
             median wall time at most 2x `check`'s, measured in the same rounds.
  whole-ms   one run of 20,000,000 whole-millisecond latencies (1-400 ms, as ab writes them): few
             distinct values. Shown against `check`, no target of its own.
  runs       100,000 runs of one request each, ten to each of 10,000 levels. Target: `report`'s peak
             RSS under 1 GB (10^9 bytes); `check` in a few seconds.
  runs-30k   30,000 runs of one request each, ten to each of 3,000 levels (issue 38). Target: `report`'s
             median wall time within 10x `check`'s + 5 s, measured in the same rounds, and its peak
             RSS under 1 GB.

The commands are timed round-robin, each round starting at the next command, so none always goes
first; each sample records the load average before it and any build process running then (the
results say so: a build steals a core of two). Writes bench/COST_RESULTS.md and bench/cost_results.json
(entries for the cases not measured are kept). Refuses to start while a build runs (--allow-busy).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

import timing

HERE = Path(__file__).resolve().parent
RUNS_HEADER = "run_id,route,repetition,started_at_utc,status,note\n"
REQUESTS_HEADER = "run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes\n"
# Targets (issue 26's "Done when").
REPORT_OVER_CHECK = 2.0
REPORT_PEAK_BYTES = 1_000_000_000
# Issue 38's: report of 30,000 one-request runs within 10x check + 5 s.
RUNS_30K_OVER_CHECK = 10.0
RUNS_30K_PLUS_S = 5.0


def _requests_of_one_run(path: Path, n: int, latency_of) -> None:
    """Rows of run r1: one request every 50 µs, sent 0.5 ms after its schedule."""
    with open(path, "w") as f:
        f.write(REQUESTS_HEADER)
        block = 100_000
        for start in range(0, n, block):
            f.write("".join(
                f"r1,{seq},{seq * 0.05:.2f},{seq * 0.05 + 0.5:.2f},{latency_of(seq)},200,12\n"
                for seq in range(start, min(n, start + block))
            ))


def generate(case: str, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    if case in ("identical", "whole-ms"):
        (folder / "runs.csv").write_text(RUNS_HEADER + "r1,direct,1,2026-12-01T00:00:00Z,ok,\n")
        if case == "identical":
            latency_of = lambda seq: "5"  # noqa: E731
        else:
            # Whole milliseconds from 1 to 400, most of them low (u^3 of a hash u in [0, 1)).
            latency_of = lambda seq: str(1 + ((seq * 2654435761 % 2**32) ** 3 * 400 >> 96))  # noqa: E731
        _requests_of_one_run(folder / "requests.csv", 20_000_000, latency_of)
    elif case in ("runs", "runs-30k"):
        count = 100_000 if case == "runs" else 30_000
        levels = count // 10
        runs, requests = [RUNS_HEADER], [REQUESTS_HEADER]
        for r in range(count):
            runs.append(f"r{r},l{r % levels},{r // levels + 1},2026-12-01T00:00:00Z,ok,\n")
            requests.append(f"r{r},0,0,0.5,{1 + r % 7},200,12\n")
        (folder / "runs.csv").write_text("".join(runs))
        (folder / "requests.csv").write_text("".join(requests))
    else:
        raise ValueError(case)


CASES = ("identical", "whole-ms", "runs", "runs-30k")


def time_case(case: str, dataset: Path, bins: dict[str, Path], reps: int, scratch: Path) -> dict:
    commands = {"analyze check": ("check", bins["analyze"])}
    commands["analyze report"] = ("report", bins["analyze"])
    if "baseline" in bins:
        commands["baseline report"] = ("report", bins["baseline"])
    names = list(commands)
    samples: dict[str, list[dict]] = {n: [] for n in names}
    for i in range(reps):
        for name in names[i % len(names):] + names[: i % len(names)]:
            verb, binary = commands[name]
            out = scratch / f"out-{case}"
            shutil.rmtree(out, ignore_errors=True)
            argv = [str(binary), verb, str(dataset)] + (["--out", str(out)] if verb == "report" else [])
            load = timing.load_average()[0]
            busy = timing.busy_processes()
            s = timing.run_timed(argv)
            shutil.rmtree(out, ignore_errors=True)
            samples[name].append({"wall_s": s.wall_s, "cpu_s": s.cpu_s, "max_rss_kib": s.max_rss_kib,
                                  "load1_before": load, "builds_running": len(busy)})
        print(f"  {case} round {i + 1}/{reps}: " + ", ".join(f"{n} {samples[n][-1]['wall_s']:.2f}s" for n in names), flush=True)
    tools = {}
    for name in names:
        walls = [s["wall_s"] for s in samples[name]]
        tools[name] = {
            "samples": samples[name],
            "wall_median_s": statistics.median(walls),
            "wall_min_s": min(walls),
            "wall_max_s": max(walls),
            "cpu_median_s": statistics.median(s["cpu_s"] for s in samples[name]),
            "peak_rss_max_mb": max(s["max_rss_kib"] for s in samples[name]) * 1024 / 1e6,
        }
    return tools


def verdict(case: str, tools: dict) -> str:
    check, report = tools["analyze check"], tools["analyze report"]
    ratio = report["wall_median_s"] / check["wall_median_s"]
    if case == "identical":
        met = "meets" if ratio <= REPORT_OVER_CHECK else "misses"
        return f"`report` takes {ratio:.2f}x `check`'s median; target <= {REPORT_OVER_CHECK:g}x: **{met} the target**"
    if case == "runs":
        peak = report["peak_rss_max_mb"]
        met = "meets" if peak * 1e6 < REPORT_PEAK_BYTES else "misses"
        return (f"`report`'s peak RSS {peak:,.0f} MB (largest of the rounds); target < 1,000 MB: **{met} the target**; "
                f"`report` takes {ratio:.2f}x `check`'s median")
    if case == "runs-30k":
        bar = RUNS_30K_OVER_CHECK * check["wall_median_s"] + RUNS_30K_PLUS_S
        peak = report["peak_rss_max_mb"]
        met = "meets" if report["wall_median_s"] <= bar and peak * 1e6 < REPORT_PEAK_BYTES else "misses"
        ratios = [r["wall_s"] / c["wall_s"] for r, c in zip(report["samples"], check["samples"])]
        return (f"`report` {report['wall_median_s']:.2f} s against `check` {check['wall_median_s']:.2f} s "
                f"({ratio:.2f}x; per round {min(ratios):.2f}-{max(ratios):.2f}x), peak RSS {peak:,.0f} MB; target <= "
                f"{RUNS_30K_OVER_CHECK:g}x check + {RUNS_30K_PLUS_S:g} s = {bar:.2f} s and < 1,000 MB: **{met} the target**")
    return f"`report` takes {ratio:.2f}x `check`'s median (no target)"


def render(results: dict) -> str:
    lines = ["# Cost of hostile datasets (issue 26)", "",
             "Written by `python3 bench/cost.py` (see its doc comment for the cases and targets); raw samples in",
             "`cost_results.json`. Wall times in seconds: median (min-max) of the rounds; load = the 1-minute",
             "load average before each sample (min-max), builds = samples that started while a cargo/rustc",
             "build ran (2 cores, shared).", ""]
    for case in CASES:
        entry = results.get(case)
        if not entry:
            continue
        lines += [f"## {case}: {entry['description']}", "",
                  f"Measured {entry['measured_at']}, {entry['reps']} rounds, binary `{entry['analyze_version']}`.", "",
                  "| command | wall (s) | CPU (s) | peak RSS (MB) | load | builds |", "| --- | ---: | ---: | ---: | ---: | ---: |"]
        for name, t in entry["tools"].items():
            loads = [s["load1_before"] for s in t["samples"]]
            builds = sum(1 for s in t["samples"] if s["builds_running"])
            lines.append(f"| `{name}` | {t['wall_median_s']:.2f} ({t['wall_min_s']:.2f}-{t['wall_max_s']:.2f}) | "
                         f"{t['cpu_median_s']:.2f} | {t['peak_rss_max_mb']:,.0f} | {min(loads):.1f}-{max(loads):.1f} | "
                         f"{builds} of {len(t['samples'])} |")
        lines += ["", f"- {entry['verdict']}", ""]
    return "\n".join(lines)


DESCRIPTIONS = {
    "identical": "one run of 20,000,000 identical latencies",
    "whole-ms": "one run of 20,000,000 whole-millisecond latencies (1-400 ms)",
    "runs": "100,000 one-request runs of 10,000 levels",
    "runs-30k": "30,000 one-request runs of 3,000 levels",
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", nargs="+", choices=CASES, default=list(CASES))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--data", type=Path, default=HERE / "data")
    target = os.environ.get("CARGO_TARGET_DIR") or str(Path.home() / ".cache" / "target")
    ap.add_argument("--analyze-bin", type=Path, default=Path(os.environ.get("ANALYZE_BIN") or Path(target) / "release" / "analyze"))
    ap.add_argument("--baseline-bin", type=Path, help="another analyze whose report is timed in the same rounds")
    ap.add_argument("--allow-busy", action="store_true", help="run even while a build is running (the results say so)")
    ap.add_argument("--results-md", type=Path, default=HERE / "COST_RESULTS.md")
    ap.add_argument("--results-json", type=Path, default=HERE / "cost_results.json")
    args = ap.parse_args()
    busy = timing.busy_processes()
    if busy and not args.allow_busy:
        print("refusing to benchmark while a build is running (--allow-busy to override):", *busy, sep="\n  ", file=sys.stderr)
        return 2
    bins = {"analyze": args.analyze_bin}
    if args.baseline_bin:
        bins["baseline"] = args.baseline_bin
    version = subprocess.run([str(args.analyze_bin), "--version"], capture_output=True, text=True).stdout.strip()
    results = json.loads(args.results_json.read_text()) if args.results_json.exists() else {}
    for case in args.cases:
        dataset = args.data / f"cost-{case}"
        if not (dataset / "requests.csv").exists():
            print(f"generating {dataset} ...", flush=True)
            generate(case, dataset)
        timing.warm_page_cache([dataset / "runs.csv", dataset / "requests.csv"])
        tools = time_case(case, dataset, bins, args.reps, args.data / ".out")
        results[case] = {
            "description": DESCRIPTIONS[case],
            "measured_at": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "reps": args.reps,
            "analyze_version": version,
            "baseline_bin": str(args.baseline_bin) if args.baseline_bin else None,
            "tools": tools,
            "verdict": verdict(case, tools),
        }
        print(f"  {results[case]['verdict']}")
    args.results_json.write_text(json.dumps(results, indent=1) + "\n")
    args.results_md.write_text(render(results) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
