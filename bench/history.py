#!/usr/bin/env python3
"""Issue 37's cost target: `analyze history` over 1,000 measurements of 10 conditions in under 1 s.

    python3 bench/history.py                      # 1,000 measurements, 5 rounds
    python3 bench/history.py --measurements 200 --reps 3

The measurements are generated into bench/data/history-<n>/m0000 ... (when missing; deterministic):
each a dataset of 10 conditions (route=c0..c9) of 3 runs, each run 20 requests whose latencies are
drawn log-normal at the condition's level (5% run-to-run spread), and condition c3 10% slower from
the middle measurement on, so the history has one change to find. `analyze history` is timed over
all of them (loading every dataset, building its statistics, finding the changes, printing the text
summary) beside `analyze check` of one measurement, in alternated rounds, each round starting at the
next command; the medians and min-max ranges are written to bench/HISTORY_RESULTS.md and
bench/history_results.json. The change found is checked, so a fast wrong answer fails.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import random
import statistics
import sys
from pathlib import Path

import timing

HERE = Path(__file__).resolve().parent
TARGET_S = 1.0
CONDITIONS = 10
RUNS = 3
REQUESTS = 20


def generate(folder: Path, measurements: int) -> list[Path]:
    dirs = [folder / f"m{m:04}" for m in range(measurements)]
    if all((d / "runs.csv").exists() for d in dirs):
        return dirs
    rng = random.Random(37)
    for m, d in enumerate(dirs):
        d.mkdir(parents=True, exist_ok=True)
        day = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc) + dt.timedelta(hours=m)
        runs = ["run_id,route,repetition,started_at_utc,status"]
        rows = ["run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes"]
        for c in range(CONDITIONS):
            level = 2.0 + c
            if c == 3 and m >= measurements // 2:
                level *= 1.1
            for k in range(RUNS):
                run = f"c{c}r{k}"
                start = (day + dt.timedelta(seconds=c * RUNS + k)).strftime("%Y-%m-%dT%H:%M:%SZ")
                runs.append(f"{run},c{c},{k + 1},{start},ok")
                run_level = level * math.exp(rng.gauss(0, 0.05))
                for s in range(REQUESTS):
                    latency = run_level * (0.5 + s / (REQUESTS - 1))
                    rows.append(f"{run},{s},{s * 10}.000,{s * 10}.000,{latency:.3f},200,12")
        (d / "runs.csv").write_text("\n".join(runs) + "\n")
        (d / "requests.csv").write_text("\n".join(rows) + "\n")
        (d / "dataset.toml").write_text(f'title = "measurement {m}"\n[history]\nseries = "bench"\nrevision = "r{m}"\n')
    return dirs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--measurements", type=int, default=1000)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--bin", default=str(Path(os.environ.get("CARGO_TARGET_DIR", Path.home() / ".cache/target")) / "release/analyze"))
    args = parser.parse_args()
    dirs = generate(HERE / "data" / f"history-{args.measurements}", args.measurements)
    out = HERE / "data" / "history-out.json"
    commands = {
        "history": [args.bin, "history", *map(str, dirs), "--format", "json"],
        "check one measurement": [args.bin, "check", str(dirs[0])],
    }
    samples: dict[str, list[timing.Sample]] = {name: [] for name in commands}
    names = list(commands)
    for rep in range(args.reps):
        for i in range(len(names)):
            name = names[(rep + i) % len(names)]
            samples[name].append(timing.run_timed(commands[name], stdout=out if name == "history" else None))
    found = json.loads(out.read_text())
    changes = {c["condition_id"]: [(x["before"], x["after"]) for x in c["changes"]] for c in found["conditions"]}
    middle = args.measurements // 2
    if changes.get("route=c3") != [(middle, middle + 1)] or any(v for k, v in changes.items() if k != "route=c3"):
        print(f"wrong history: {changes}", file=sys.stderr)
        return 1
    rows = []
    for name, got in samples.items():
        wall = [s.wall_s for s in got]
        rows.append({
            "command": name,
            "median_s": statistics.median(wall),
            "min_s": min(wall),
            "max_s": max(wall),
            "peak_rss_mib": max(s.max_rss_kib for s in got) / 1024,
        })
    history = rows[0]
    result = {
        "date": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "measurements": args.measurements,
        "conditions": CONDITIONS,
        "reps": args.reps,
        "load1_before": os.getloadavg()[0],
        "rows": rows,
        "target_s": TARGET_S,
        "met": history["median_s"] < TARGET_S,
    }
    (HERE / "history_results.json").write_text(json.dumps(result, indent=2) + "\n")
    lines = [
        "# `analyze history`: 1,000 measurements of 10 conditions (issue 37)",
        "",
        f"Measured {result['date']} by `bench/history.py` ({args.reps} alternated rounds; load average "
        f"{result['load1_before']:.2f} at the end). Each measurement: 10 conditions × 3 runs × 20 requests;",
        "one 10% step in one condition, which the run checks is found between the right two measurements.",
        "",
        "| command | median (s) | min-max (s) | peak RSS (MiB) |",
        "| --- | ---: | ---: | ---: |",
    ]
    for row in rows:
        lines.append(f"| {row['command']} | {row['median_s']:.3f} | {row['min_s']:.3f}-{row['max_s']:.3f} | {row['peak_rss_mib']:.0f} |")
    lines += ["", f"Target: under {TARGET_S:.0f} s: {'met' if result['met'] else 'not met'}.", ""]
    (HERE / "HISTORY_RESULTS.md").write_text("\n".join(lines))
    print("\n".join(lines))
    return 0 if result["met"] else 1


if __name__ == "__main__":
    sys.exit(main())
