#!/usr/bin/env python3
"""analyze on one requests.parquet vs the same rows as a hive-partitioned folder of Parquet files.

    bench/.venv/bin/python bench/hive.py --rows 10000000

Reads bench/data/parquet-<N>/ and bench/data/hive-<N>/ (bench/generate.py writes both: the same
rows, one file vs one `requests/run_id=<run>/part-00000.parquet` per run). First checks that
`analyze report` gives both the same statistics (the canonical text of bench/canonical.py) and
`analyze check` passes both; then times `analyze check` and `analyze report` on each, round-robin
(the starting command rotates each round), with a warm page cache. Writes the samples to
results.json under "hive" (the other entries are kept) and rewrites RESULTS.md. The peer of the
folder is the one file, measured in the same invocation: the ratio is of medians.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

import canonical
import summary
import timing
from run import default_analyze_bin, machine_info, output_of

HERE = Path(__file__).resolve().parent


def parts(dataset: Path) -> list[Path]:
    return sorted(p for p in (dataset / "requests").rglob("*.parquet") if not p.name.startswith((".", "_")))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, nargs="+", default=[10_000_000], help="dataset sizes (default: 10000000)")
    ap.add_argument("--reps", type=int, default=5, help="rounds (default: %(default)s)")
    ap.add_argument("--data", type=Path, default=HERE / "data", help="datasets folder (default: bench/data)")
    ap.add_argument("--analyze-bin", type=Path, default=default_analyze_bin())
    ap.add_argument("--allow-busy", action="store_true", help="run even while cargo/rustc is running (flagged)")
    ap.add_argument("--results-md", type=Path, default=HERE / "RESULTS.md")
    ap.add_argument("--results-json", type=Path, default=HERE / "results.json")
    args = ap.parse_args()
    busy = timing.busy_processes()
    if busy and not args.allow_busy:
        print("refusing to benchmark while a build is running:\n  " + "\n  ".join(busy), file=sys.stderr)
        return 2
    machine = machine_info(args.analyze_bin)
    scratch = args.data / ".out"
    scratch.mkdir(parents=True, exist_ok=True)
    measured = {}
    for rows in args.rows:
        one, folder = args.data / f"parquet-{rows}", args.data / f"hive-{rows}"
        for d in (one, folder):
            if not d.is_dir():
                raise SystemExit(f"missing dataset {d}: run `bench/.venv/bin/python bench/generate.py --rows {rows}` first")
        inputs = {"one file": [one / "requests.parquet"], "hive": parts(folder)}
        for files in inputs.values():
            timing.warm_page_cache(files + [one / "runs.csv"], 2)
        texts = {}
        for name, dataset in (("one file", one), ("hive", folder)):
            output_of([args.analyze_bin, "check", dataset])
            out = scratch / f"hive-agreement-{name.replace(' ', '-')}"
            shutil.rmtree(out, ignore_errors=True)
            output_of([args.analyze_bin, "report", dataset, "--out", out])
            texts[name] = canonical.from_summary_json(json.loads((out / "summary.json").read_text()))
            shutil.rmtree(out)
        if texts["one file"] != texts["hive"]:
            raise SystemExit(f"FAILED: analyze gives different statistics for {one} and {folder}. Nothing was timed.")
        print(f"{rows:,} rows: analyze agrees on the one file and the hive folder")

        commands = {
            "analyze check, one file": lambda o: [args.analyze_bin, "check", one],
            "analyze check, hive folder": lambda o: [args.analyze_bin, "check", folder],
            "analyze report, one file": lambda o: [args.analyze_bin, "report", one, "--out", o],
            "analyze report, hive folder": lambda o: [args.analyze_bin, "report", folder, "--out", o],
        }
        names = list(commands)
        samples = {n: [] for n in names}
        load_before = timing.load_average()
        for i in range(args.reps):
            for name in names[i % len(names):] + names[: i % len(names)]:
                out = scratch / "hive-report"
                shutil.rmtree(out, ignore_errors=True)
                s = timing.run_timed(commands[name](out))
                shutil.rmtree(out, ignore_errors=True)
                samples[name].append({"wall_s": s.wall_s, "cpu_s": s.cpu_s, "max_rss_kib": s.max_rss_kib})
            print(f"  round {i + 1}/{args.reps}: " + ", ".join(f"{n} {samples[n][-1]['wall_s']:.2f}s" for n in names))
        tools = {n: {"argv": [str(a) for a in commands[n](Path("OUTDIR"))], "summary": summary.summarize(samples[n]),
                     "samples": samples[n]} for n in names}
        for kind in ("check", "report"):
            peer = tools[f"analyze {kind}, one file"]["summary"]["wall_median_s"]
            for n in (f"analyze {kind}, one file", f"analyze {kind}, hive folder"):
                tools[n]["summary"]["ratio_to_one_file"] = tools[n]["summary"]["wall_median_s"] / peer
        measured[str(rows)] = {
            "rows": rows,
            "measured_at": machine["date_utc"],
            "git_commit": machine["git_commit"],
            "repetitions": args.reps,
            "one_file_bytes": inputs["one file"][0].stat().st_size,
            "hive_files": len(inputs["hive"]),
            "hive_bytes": sum(p.stat().st_size for p in inputs["hive"]),
            "load_before": list(load_before),
            "load_after": list(timing.load_average()),
            "busy": sorted(set(busy) | set(timing.busy_processes())),
            "tools": tools,
        }
    results = json.loads(args.results_json.read_text()) if args.results_json.exists() else {"machine": machine, "entries": {}}
    results.setdefault("hive", {}).update(measured)
    args.results_json.write_text(json.dumps(results, indent=1) + "\n")
    profile = HERE / "PROFILE.md"
    args.results_md.write_text(summary.render_markdown(results, profile.read_text() if profile.exists() else ""))
    print(f"wrote {args.results_md} and {args.results_json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
