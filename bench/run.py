#!/usr/bin/env python3
"""Benchmark harness: analyze vs DuckDB vs polars (and `cat` as the floor), CSV and Parquet.

    bench/.venv/bin/python bench/run.py --rows 10000000
    bench/.venv/bin/python bench/run.py --cases import --import-rows 10000000

For each size and format: warm the page cache, check that every tool gives identical numbers
(fail loudly otherwise), then time the tools round-robin and write bench/RESULTS.md and
bench/results.json (entries for other sizes already there are kept). Datasets come from
bench/generate.py. The import case times `analyze import` of a hey CSV (bench/generate_hey.py)
against DuckDB loading the same file into a table, after checking that the imported dataset's
numbers equal DuckDB's over its table. Refuses to run while a cargo/rustc build is running
(--allow-busy to override, and the results then say so).
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import canonical
import summary
import timing

HERE = Path(__file__).resolve().parent
PY = sys.executable


def default_analyze_bin() -> Path:
    if os.environ.get("ANALYZE_BIN"):
        return Path(os.environ["ANALYZE_BIN"])
    target = os.environ.get("CARGO_TARGET_DIR") or str(Path.home() / ".cache" / "target")
    return Path(target) / "release" / "analyze"


def machine_info(analyze_bin: Path | None) -> dict:
    def first(path: str, key: str) -> str:
        try:
            for line in Path(path).read_text().splitlines():
                if line.startswith(key):
                    return line.split(":", 1)[1].strip()
        except OSError:
            pass
        return "unknown"

    mem_kib = first("/proc/meminfo", "MemTotal").split()[0]
    analyze = "not measured"
    if analyze_bin is not None:
        r = subprocess.run([analyze_bin, "--version"], capture_output=True, text=True)
        analyze = (r.stdout.strip() or r.stderr.strip()) + f" (`{analyze_bin}`)"
    commit = subprocess.run(["git", "-C", str(HERE), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return {
        "date_utc": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S"),
        "cpu_model": first("/proc/cpuinfo", "model name"),
        "nproc": os.cpu_count(),
        "memory": f"{int(mem_kib) / 2**20:.1f} GiB" if mem_kib.isdigit() else "unknown",
        "kernel": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "duckdb": metadata.version("duckdb"),
        "polars": metadata.version("polars"),
        "numpy": metadata.version("numpy"),
        "analyze": analyze,
        "git_commit": commit.stdout.strip() or "none (no commit yet)",
    }


def python_startup(module: str, n: int = 3) -> float:
    """Median wall time of `python -c 'import MODULE'`: the fixed cost inside each Python tool's time."""
    return statistics.median(timing.run_timed([PY, "-c", f"import {module}"]).wall_s for _ in range(n))


class Tools:
    """The command line of each tool for one dataset folder."""

    def __init__(self, dataset: Path, analyze_bin: Path | None, duckdb_method: str, polars_engine: str, scratch: Path):
        self.dataset = dataset
        self.file, self.format = canonical.requests_file(dataset)
        self.analyze_bin = analyze_bin
        self.duckdb_method = duckdb_method
        self.polars_engine = polars_engine
        self.scratch = scratch
        scratch.mkdir(parents=True, exist_ok=True)
        self.counter = 0

    def names(self) -> list[str]:
        names = ["cat", "analyze check", "analyze report", "duckdb", "polars"]
        return [n for n in names if self.analyze_bin is not None or not n.startswith("analyze")]

    def fresh_out(self) -> Path:
        self.counter += 1
        out = self.scratch / f"report-{self.dataset.name}-{self.counter}"
        shutil.rmtree(out, ignore_errors=True)
        return out

    def argv(self, name: str, out: Path | None = None) -> list[str]:
        d = str(self.dataset)
        return {
            "cat": lambda: ["cat", str(self.file)],
            "analyze check": lambda: [str(self.analyze_bin), "check", d],
            "analyze report": lambda: [str(self.analyze_bin), "report", d, "--out", str(out)],
            "duckdb": lambda: [PY, str(HERE / "duckdb_stats.py"), d, "--method", self.duckdb_method],
            "polars": lambda: [PY, str(HERE / "polars_stats.py"), d, "--engine", self.polars_engine],
        }[name]()


def output_of(argv: list[str]) -> str:
    r = subprocess.run(argv, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"FAILED: {' '.join(argv)} exited with {r.returncode}\n{r.stderr[-4000:]}")
    return r.stdout


def agreement(tools: Tools) -> tuple[dict[str, str], dict | None]:
    """Each tool's canonical text, and the report output's size; exits if any two differ."""
    texts = {
        "duckdb": output_of(tools.argv("duckdb")),
        "polars": output_of(tools.argv("polars")),
    }
    report = None
    if tools.analyze_bin is not None:
        output_of(tools.argv("analyze check"))
        out = tools.fresh_out()
        output_of(tools.argv("analyze report", out))
        summary_json = out / "summary.json"
        if not summary_json.exists():
            raise SystemExit(f"FAILED: `analyze report` wrote no {summary_json}")
        texts["analyze"] = canonical.from_summary_json(json.loads(summary_json.read_text()))
        total, largest, largest_bytes = timing.dir_size(out)
        files = sum(len(f) for _, _, f in os.walk(out))
        report = {"total_bytes": total, "files": files, "largest_file": largest, "largest_bytes": largest_bytes}
        shutil.rmtree(out)
    check_identical(texts, f"{tools.dataset.name}")
    return texts, report


def check_identical(texts: dict[str, str], what: str) -> None:
    names = list(texts)
    ref = names[0]
    failed = False
    for other in names[1:]:
        diff = canonical.differences(texts[ref], texts[other])
        if diff:
            failed = True
            print(f"DISAGREEMENT on {what}: {ref} vs {other}:", file=sys.stderr)
            for line in diff[:20]:
                print(f"  {line}", file=sys.stderr)
    if failed:
        dump = HERE / "data" / f"disagreement-{what}"
        dump.mkdir(parents=True, exist_ok=True)
        for name, text in texts.items():
            (dump / f"{name.replace(' ', '-')}.txt").write_text(text)
        raise SystemExit(f"FAILED: the tools disagree on {what}; their outputs are in {dump}. Nothing was timed.")


def time_round_robin(tools: Tools, reps: int) -> dict:
    """reps samples of every tool; round i starts at tool i (mod count) so no tool always goes first."""
    names = tools.names()
    samples: dict[str, list[dict]] = {n: [] for n in names}
    for i in range(reps):
        order = names[i % len(names):] + names[: i % len(names)]
        for name in order:
            out = tools.fresh_out() if name == "analyze report" else None
            s = timing.run_timed(tools.argv(name, out))
            if out is not None:
                shutil.rmtree(out, ignore_errors=True)
            samples[name].append({"wall_s": s.wall_s, "cpu_s": s.cpu_s, "max_rss_kib": s.max_rss_kib})
        print(f"  round {i + 1}/{reps}: " + ", ".join(f"{n} {samples[n][-1]['wall_s']:.2f}s" for n in names))
    return {n: {"argv": tools.argv(n, Path("OUTDIR")), "samples": samples[n]} for n in names}


IMPORT_RUN_ID = "r1"
IMPORT_FACTOR = "tool=hey"
IMPORT_STARTED_AT = "2026-12-01T00:00:00Z"


class ImportTools:
    """The command lines of the import case for one hey CSV: each writes into a fresh place."""

    def __init__(self, file: Path, analyze_bin: Path, scratch: Path):
        self.file = file
        self.analyze_bin = analyze_bin
        self.scratch = scratch
        scratch.mkdir(parents=True, exist_ok=True)
        self.counter = 0

    def names(self) -> list[str]:
        return ["cat", "analyze import", "duckdb", "duckdb (in memory)"]

    def fresh_out(self) -> Path:
        """A folder that does not exist yet (analyze creates the dataset; DuckDB a file inside)."""
        self.counter += 1
        out = self.scratch / f"import-{self.file.parent.name}-{self.counter}"
        shutil.rmtree(out, ignore_errors=True)
        return out

    def argv(self, name: str, out: Path) -> list[str]:
        f = str(self.file)
        return {
            "cat": lambda: ["cat", f],
            "analyze import": lambda: [str(self.analyze_bin), "import", f, "--into", str(out), "--run-id", IMPORT_RUN_ID,
                                       "--factor", IMPORT_FACTOR, "--started-at", IMPORT_STARTED_AT],
            "duckdb": lambda: [PY, str(HERE / "duckdb_load.py"), f, "--db", str(out / "hey.duckdb")],
            "duckdb (in memory)": lambda: [PY, str(HERE / "duckdb_load.py"), f, "--memory"],
        }[name]()

    def prepare(self, name: str, out: Path) -> None:
        if name == "duckdb":
            out.mkdir(parents=True)


def import_agreement(tools: ImportTools) -> dict:
    """Imports once and loads once, then checks that the imported dataset says what DuckDB's table
    says: analyze's own report (summary.json) and DuckDB over the imported requests.csv give the
    same run n and nearest-rank p95 as DuckDB over its loaded table, and the row count, status
    counts and exact sums and extremes of the times are equal. Exits on any difference."""
    out = tools.fresh_out()
    output_of(tools.argv("analyze import", out))
    report = tools.fresh_out()
    output_of([str(tools.analyze_bin), "report", str(out), "--out", str(report)])
    db_dir = tools.fresh_out()
    tools.prepare("duckdb", db_dir)
    output_of(tools.argv("duckdb", db_dir))
    db = db_dir / "hey.duckdb"
    load = [PY, str(HERE / "duckdb_load.py")]
    texts = {
        "duckdb table": output_of(load + ["--canonical", str(db), "--run-id", IMPORT_RUN_ID, "--factor", IMPORT_FACTOR]),
        "analyze report of the import": canonical.from_summary_json(json.loads((report / "summary.json").read_text())),
        "duckdb over the import": output_of([PY, str(HERE / "duckdb_stats.py"), str(out)]),
    }
    check_identical(texts, f"import-{tools.file.parent.name}")
    facts = {
        "duckdb table": output_of(load + ["--facts", str(db)]),
        "imported requests.csv": output_of(load + ["--dataset-facts", str(out)]),
    }
    if facts["duckdb table"] != facts["imported requests.csv"]:
        check_identical({k: v.replace("=", ",") for k, v in facts.items()}, f"import-facts-{tools.file.parent.name}")
    result = {
        "canonical": texts["duckdb table"],
        "facts": facts["duckdb table"],
        "requests_csv_bytes": (out / "requests.csv").stat().st_size,
        "duckdb_file_bytes": db.stat().st_size,
    }
    for d in (out, report, db_dir):
        shutil.rmtree(d)
    return result


def time_import_round_robin(tools: ImportTools, reps: int) -> dict:
    """As time_round_robin, each sample writing into a fresh place that is removed afterwards."""
    names = tools.names()
    samples: dict[str, list[dict]] = {n: [] for n in names}
    for i in range(reps):
        order = names[i % len(names):] + names[: i % len(names)]
        for name in order:
            out = tools.fresh_out()
            tools.prepare(name, out)
            s = timing.run_timed(tools.argv(name, out))
            shutil.rmtree(out, ignore_errors=True)
            samples[name].append({"wall_s": s.wall_s, "cpu_s": s.cpu_s, "max_rss_kib": s.max_rss_kib})
        print(f"  round {i + 1}/{reps}: " + ", ".join(f"{n} {samples[n][-1]['wall_s']:.2f}s" for n in names))
    return {n: {"argv": tools.argv(n, Path("OUT")), "samples": samples[n]} for n in names}


def measure_import(rows: int, args, analyze_bin: Path, machine: dict) -> dict:
    file = args.data / f"hey-{rows}" / "hey.csv"
    if not file.exists():
        raise SystemExit(f"missing {file}: run `bench/.venv/bin/python bench/generate_hey.py --rows {rows}` first")
    tools = ImportTools(file, analyze_bin, args.data / ".out")
    timing.warm_page_cache([file], args.warm_passes)
    print(f"{file}: checking that the import and DuckDB's table agree ...")
    agreed = import_agreement(tools)
    print(f"{rows:,} hey rows: the import and DuckDB's table agree")
    reps = args.reps or 5
    load_before = timing.load_average()
    busy_before = timing.busy_processes()
    timing.warm_page_cache([file], args.warm_passes)
    print(f"{file}: timing {reps} rounds of {', '.join(tools.names())}")
    measured = time_import_round_robin(tools, reps)
    for t in measured.values():
        t["summary"] = summary.summarize(t["samples"])
    summary.add_ratios(measured)
    return {
        f"import-hey-{rows}": {
            "case": "import",
            "rows": rows,
            "format": "hey-csv",
            "file": str(file.relative_to(HERE.parent)) if file.is_relative_to(HERE.parent) else str(file),
            "file_bytes": file.stat().st_size,
            "measured_at": machine["date_utc"],
            "machine": machine,
            "repetitions": reps,
            "warm_passes": args.warm_passes,
            "load_before": list(load_before),
            "load_after": list(timing.load_average()),
            "busy": sorted(set(busy_before) | set(timing.busy_processes())),
            "agreement": agreed,
            "tools": measured,
        }
    }


def measure_size(rows: int, args, analyze_bin: Path | None, machine: dict) -> dict:
    entries = {}
    tools_by_fmt = {}
    for fmt in args.formats:
        dataset = args.data / f"{fmt}-{rows}"
        if not dataset.is_dir():
            raise SystemExit(
                f"missing dataset {dataset}: run `bench/.venv/bin/python bench/generate.py --rows {rows}` first"
            )
        tools_by_fmt[fmt] = Tools(dataset, analyze_bin, args.duckdb_method, args.polars_engine, args.data / ".out")

    # Agreement first, for every format of this size, and across formats.
    texts_by_fmt, reports = {}, {}
    for fmt, tools in tools_by_fmt.items():
        timing.warm_page_cache([tools.file, tools.dataset / "runs.csv"], args.warm_passes)
        print(f"{tools.dataset.name}: checking agreement ...")
        texts, reports[fmt] = agreement(tools)
        texts_by_fmt[fmt] = texts
    if len(texts_by_fmt) > 1:
        check_identical({f"duckdb on {fmt}": t["duckdb"] for fmt, t in texts_by_fmt.items()}, f"formats-{rows}")
    print(f"{rows:,} rows: all tools agree ({', '.join(args.formats)})")

    for fmt, tools in tools_by_fmt.items():
        reps = args.reps or (5 if rows <= 10_000_000 else 3)
        load_before = timing.load_average()
        busy_before = timing.busy_processes()
        timing.warm_page_cache([tools.file, tools.dataset / "runs.csv"], args.warm_passes)
        print(f"{tools.dataset.name}: timing {reps} rounds of {', '.join(tools.names())}")
        measured = time_round_robin(tools, reps)
        for t in measured.values():
            t["summary"] = summary.summarize(t["samples"])
        summary.add_ratios(measured)
        texts = texts_by_fmt[fmt]
        first_text = next(iter(texts.values())).splitlines()
        n_runs = first_text.index("condition,median_ms,min_ms,max_ms") - 1
        entries[f"{fmt}-{rows}"] = {
            "rows": rows,
            "format": fmt,
            "file": str(tools.file.relative_to(HERE.parent)) if tools.file.is_relative_to(HERE.parent) else str(tools.file),
            "file_bytes": tools.file.stat().st_size,
            "measured_at": machine["date_utc"],
            "machine": machine,
            "repetitions": reps,
            "warm_passes": args.warm_passes,
            "load_before": list(load_before),
            "load_after": list(timing.load_average()),
            "busy": sorted(set(busy_before) | set(timing.busy_processes())),
            "duckdb_method": args.duckdb_method,
            "polars_engine": args.polars_engine,
            "agreement": {
                "tools": list(texts),
                "runs": n_runs,
                "conditions": len(first_text) - n_runs - 2,
                "canonical_sha": hashlib.sha256(texts["duckdb"].encode()).hexdigest()[:16],
            },
            "analyze_missing": args.analyze_missing,
            "report_output": reports[fmt],
            "tools": measured,
        }
    return entries


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, nargs="+", default=[1_000_000], help="dataset sizes (default: 1000000)")
    ap.add_argument("--cases", nargs="+", choices=("stats", "import"), default=["stats", "import"],
                    help="stats: analyze check/report vs DuckDB and polars on --rows; import: analyze import vs "
                    "DuckDB's load of a hey CSV of --import-rows (default: both)")
    ap.add_argument("--import-rows", type=int, nargs="+", default=[10_000_000],
                    help="hey CSV sizes of the import case (default: 10000000)")
    ap.add_argument("--formats", nargs="+", choices=("csv", "parquet"), default=["csv", "parquet"])
    ap.add_argument("--reps", type=int, default=0, help="rounds per tool (default: 5 up to 10M rows, 3 above)")
    ap.add_argument("--data", type=Path, default=HERE / "data", help="datasets folder (default: bench/data)")
    ap.add_argument("--analyze-bin", type=Path, default=default_analyze_bin(),
                    help="analyze binary (default: $ANALYZE_BIN or $CARGO_TARGET_DIR/release/analyze, "
                    "CARGO_TARGET_DIR defaulting to ~/.cache/target)")
    ap.add_argument("--skip-analyze", action="store_true", help="measure without analyze (not built yet)")
    ap.add_argument("--duckdb-method", choices=("auto", "quantile_disc", "rank"), default="auto",
                    help="auto: quantile_disc if its self-test passes, else the explicit rank formulation")
    ap.add_argument("--polars-engine", choices=("auto", "in-memory", "streaming"), default="streaming")
    ap.add_argument("--warm-passes", type=int, default=2, help="reads of each input before agreement and timing")
    ap.add_argument("--allow-busy", action="store_true", help="run even while cargo/rustc is running (flagged)")
    ap.add_argument("--results-md", type=Path, default=HERE / "RESULTS.md")
    ap.add_argument("--results-json", type=Path, default=HERE / "results.json")
    args = ap.parse_args()

    busy = timing.busy_processes()
    if busy and not args.allow_busy:
        print("refusing to benchmark while a build is running:", file=sys.stderr)
        for line in busy:
            print(f"  {line}", file=sys.stderr)
        print("wait for it to finish (or pass --allow-busy; the results will say so)", file=sys.stderr)
        return 2

    analyze_bin = None if args.skip_analyze else args.analyze_bin
    if analyze_bin is None and "import" in args.cases:
        args.cases = [c for c in args.cases if c != "import"]
        print("the import case needs analyze: skipped (--skip-analyze)")
    args.analyze_missing = "skipped (--skip-analyze)" if args.skip_analyze else None
    if analyze_bin is not None and not os.access(analyze_bin, os.X_OK):
        print(f"error: no analyze binary at {analyze_bin}: build it (cargo build --release -p analyze), "
              "set ANALYZE_BIN, or pass --skip-analyze", file=sys.stderr)
        return 2

    if args.duckdb_method == "auto":
        r = subprocess.run([PY, str(HERE / "duckdb_stats.py"), "--self-test"], capture_output=True, text=True)
        print(r.stdout.strip().splitlines()[-1])
        args.duckdb_method = "quantile_disc" if r.returncode == 0 else "rank"
        self_test = "passed" if r.returncode == 0 else "FAILED"
    else:
        self_test = "not run (method chosen by --duckdb-method)"

    machine = machine_info(analyze_bin)
    machine["duckdb_method_note"] = (
        "`quantile_disc(latency_ms, 0.95)` (its self-test against the nearest rank for n = 1..3000: "
        f"{self_test})." if args.duckdb_method == "quantile_disc" else
        "the explicit formulation: `row_number()` over each run's sorted latencies, keeping rank "
        f"(95 n + 99) // 100 (quantile_disc self-test: {self_test})."
    )
    machine["python_startup_note"] = (
        f"`import duckdb` {python_startup('duckdb'):.2f} s, `import polars` {python_startup('polars'):.2f} s here"
    )

    entries = {}
    if "stats" in args.cases:
        for rows in args.rows:
            entries.update(measure_size(rows, args, analyze_bin, machine))
    if "import" in args.cases:
        for rows in args.import_rows:
            entries.update(measure_import(rows, args, analyze_bin, machine))

    results = {"machine": machine, "entries": {}}
    if args.results_json.exists():
        previous = json.loads(args.results_json.read_text())
        results["entries"] = previous.get("entries", {})
        if "hive" in previous:  # bench/hive.py's measurements
            results["hive"] = previous["hive"]
    results["entries"].update(entries)
    args.results_json.write_text(json.dumps(results, indent=1) + "\n")
    profile = HERE / "PROFILE.md"
    args.results_md.write_text(summary.render_markdown(results, profile.read_text() if profile.exists() else ""))
    print(f"wrote {args.results_md} and {args.results_json}")
    for key, e in entries.items():
        print(f"{key}: " + ", ".join(
            f"{n} {t['summary']['wall_median_s']:.3f}s" for n, t in e["tools"].items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
