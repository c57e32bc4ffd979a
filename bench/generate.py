#!/usr/bin/env python3
"""Writes a synthetic benchmark dataset in the dataset format (datasets/README.md).

    bench/.venv/bin/python bench/generate.py --rows 10000000

makes bench/data/csv-<N>/ (runs.csv + requests.csv), bench/data/parquet-<N>/ (runs.csv +
requests.parquet) and bench/data/hive-<N>/ (runs.csv + requests/run_id=<run>/part-00000.parquet,
the same rows as Spark's partitionBy("run_id") writes them: one folder per run, run_id only in
the folder's name). The campaign: 30 runs = 10 conditions (route: 5 levels x clients: 2 levels)
x 3 repetitions, run in a shuffled order per repetition, all `ok`. Each run's requests follow an
open-loop schedule; latencies are log-normal, with a slow mixture component (a heavy tail) for
some conditions; about 0.1% of requests fail with 500/503 (latency present), a few get no
response (status 0, empty latency_ms).

Deterministic: the same --rows, --seed and --chunk give byte-identical files. Values are generated as
integer thousandths of a millisecond and stored as k/1000, so the CSV text (3 decimals) and the
Parquet doubles are the same numbers. Rows are made and written in chunks of --chunk rows, so
100M rows never need 100M-row arrays. The Parquet file is converted from the finished CSV by
polars' streaming engine (scan_csv -> sink_parquet, row groups of ~1M rows), so both formats hold
identical values; the hive folder is cut from the Parquet file, run by run, in the same row order.
A folder is written under a temporary name and renamed when complete.
"""

from __future__ import annotations

import argparse
import datetime as dt
import shutil
import sys
import time
from pathlib import Path

import numpy as np
import polars as pl

from canonical import REQUEST_COLUMNS

GENERATOR_VERSION = 2
HERE = Path(__file__).resolve().parent

ROUTES = ("static", "api", "search", "upload", "download")
CLIENTS = (8, 64)
REPETITIONS = 3

# Per route: median latency (ms) at 8 clients, log-normal sigma, typical body size (bytes).
ROUTE_MODEL = {
    "static": (1.2, 0.30, 4_096),
    "api": (8.0, 0.40, 640),
    "search": (25.0, 0.50, 12_000),
    "upload": (40.0, 0.45, 128),
    "download": (15.0, 0.35, 262_144),
}
# Conditions with a slow component: (probability, slow median multiplier, slow sigma).
HEAVY_TAIL = {
    ("search", 64): (0.04, 12.0, 0.6),
    ("upload", 64): (0.03, 20.0, 0.8),
    ("api", 64): (0.02, 8.0, 0.5),
    ("download", 8): (0.01, 30.0, 0.7),
}
CLIENT_SLOWDOWN = {8: 1.0, 64: 1.8}
# Open-loop schedule interval in microseconds (= thousandths of a ms), per client count.
INTERVAL_US = {8: 1_000, 64: 250}
ERROR_RATE = 0.001  # 500/503 with a latency
NO_RESPONSE_RATE = 0.00002  # status 0, empty latency_ms

# Exit status of a size skipped for lack of disk (--skip-if-no-room): EX_TEMPFAIL.
SKIPPED = 75
BYTES_PER_CSV_ROW = 54  # measured: 47 at 1M rows, 50 at 10M (longer numbers), for the disk check
BYTES_PER_PARQUET_ROW = 13


def campaign(seed: int, rows: int) -> list[dict]:
    """The 30 runs in execution order, with their request counts (they add up to `rows`)."""
    rng = np.random.default_rng([seed, 0])
    conditions = [(r, c) for r in ROUTES for c in CLIENTS]
    order = []
    for rep in range(1, REPETITIONS + 1):
        for i in rng.permutation(len(conditions)):
            order.append((conditions[i], rep))
    base, extra = divmod(rows, len(order))
    start = dt.datetime(2025, 1, 6, 9, 0, 0, tzinfo=dt.timezone.utc)
    runs = []
    for i, ((route, clients), rep) in enumerate(order):
        n = base + (1 if i < extra else 0)
        runs.append(
            {
                "index": i,
                "run_id": f"run-{i + 1:02d}",
                "route": route,
                "clients": clients,
                "repetition": rep,
                "started_at_utc": start.strftime("%Y-%m-%dT%H:%M:%SZ"),
                "n": n,
            }
        )
        duration_s = n * INTERVAL_US[clients] / 1e6
        start += dt.timedelta(seconds=int(duration_s) + 60)
    return runs


def write_runs_csv(path: Path, runs: list[dict]) -> None:
    lines = ["run_id,route,clients,repetition,started_at_utc,status,note"]
    for r in runs:
        lines.append(f"{r['run_id']},{r['route']},{r['clients']},{r['repetition']},{r['started_at_utc']},ok,")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def chunk_frame(run: dict, start: int, count: int, rng: np.random.Generator, run_scale: float) -> pl.DataFrame:
    """Rows seq = start .. start+count-1 of one run."""
    route, clients = run["route"], run["clients"]
    med, sigma, body = ROUTE_MODEL[route]
    med *= CLIENT_SLOWDOWN[clients] * run_scale

    seq = np.arange(start, start + count, dtype=np.int64)
    scheduled_us = seq * INTERVAL_US[clients]
    lag_us = rng.exponential(60.0, count)
    stall = rng.random(count) < 0.001
    lag_us[stall] += rng.exponential(2_000.0, int(stall.sum()))  # stalls of a few ms
    sent_us = scheduled_us + np.rint(lag_us).astype(np.int64)

    latency = rng.lognormal(np.log(med), sigma, count)
    tail = HEAVY_TAIL.get((route, clients))
    if tail is not None:
        p, mult, slow_sigma = tail
        slow = rng.random(count) < p
        latency[slow] = rng.lognormal(np.log(med * mult), slow_sigma, int(slow.sum()))
    body_bytes = np.maximum(0, np.rint(rng.normal(body, body * 0.05, count))).astype(np.int64)
    status = np.full(count, 200, dtype=np.int32)

    # Errors: a 500 after a long upstream wait, a 503 rejected at once, so a tool that forgets the
    # 2xx filter gets a different p95.
    u = rng.random(count)
    err = u < ERROR_RATE
    is500 = err & (rng.random(count) < 0.7)
    is503 = err & ~is500
    status[is500] = 500
    status[is503] = 503
    latency[is500] = rng.uniform(5_000.0, 30_000.0, int(is500.sum()))
    latency[is503] = rng.uniform(0.05, 0.5, int(is503.sum()))
    body_bytes[err] = 162
    none = (u >= ERROR_RATE) & (u < ERROR_RATE + NO_RESPONSE_RATE)
    status[none] = 0
    body_bytes[none] = 0

    latency_k = np.maximum(1, np.rint(latency * 1000.0)).astype(np.int64)
    return pl.DataFrame(
        {
            "run_id": pl.repeat(run["run_id"], count, eager=True, dtype=pl.String),
            "seq": seq,
            "scheduled_ms": scheduled_us / 1000.0,
            "sent_ms": sent_us / 1000.0,
            "latency_ms": pl.Series(latency_k / 1000.0).set(pl.Series(none), None),
            "status": status,
            "body_bytes": body_bytes,
        }
    )


def write_requests_csv(path: Path, runs: list[dict], seed: int, chunk: int) -> None:
    with open(path, "wb") as f:
        f.write((",".join(REQUEST_COLUMNS) + "\n").encode())
        for run in runs:
            rng = np.random.default_rng([seed, 1, run["index"]])
            run_scale = float(rng.lognormal(0.0, 0.05))
            for start in range(0, run["n"], chunk):
                df = chunk_frame(run, start, min(chunk, run["n"] - start), rng, run_scale)
                df.write_csv(f, include_header=False, float_precision=3, null_value="", line_terminator="\n")


REQUEST_SCHEMA = {
    "run_id": pl.String,
    "seq": pl.Int64,
    "scheduled_ms": pl.Float64,
    "sent_ms": pl.Float64,
    "latency_ms": pl.Float64,
    "status": pl.Int32,
    "body_bytes": pl.Int64,
}


def csv_to_parquet(src: Path, dst: Path, row_group: int) -> None:
    """Streams requests.csv into requests.parquet (zstd, ~row_group rows per row group)."""
    (
        pl.scan_csv(src, schema=REQUEST_SCHEMA)
        .sink_parquet(dst, compression="zstd", row_group_size=row_group, maintain_order=True)
    )


def parquet_to_hive(src: Path, dst: Path, runs: list[dict], row_group: int) -> None:
    """Writes each run's rows of requests.parquet (in file order, without the run_id column) to
    dst/run_id=<run>/part-00000.parquet, and Hadoop's _SUCCESS marker beside them."""
    for run in runs:
        run_id = run["run_id"]
        if not run_id.replace("-", "").replace("_", "").isalnum():
            raise SystemExit(f"run id {run_id!r} would need escaping in a folder name")
        folder = dst / f"run_id={run_id}"
        folder.mkdir(parents=True)
        (
            pl.scan_parquet(src)
            .filter(pl.col("run_id") == run_id)
            .drop("run_id")
            .sink_parquet(folder / "part-00000.parquet", compression="zstd", row_group_size=row_group, maintain_order=True)
        )
    (dst / "_SUCCESS").write_bytes(b"")


def provenance(rows: int, seed: int, chunk: int) -> str:
    return (
        "# Synthetic benchmark dataset\n\n"
        f"generator: bench/generate.py version {GENERATOR_VERSION}\n"
        f"rows: {rows}\nseed: {seed}\nchunk: {chunk}\n\n"
        "Made for `just bench`; not an experiment. See bench/README.md.\n"
    )


def is_current(folder: Path, rows: int, seed: int, chunk: int, table: str) -> bool:
    readme = folder / "README.md"
    return (folder / table).exists() and readme.exists() and readme.read_text() == provenance(rows, seed, chunk)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, required=True, help="total request rows (e.g. 1000000, 10000000, 100000000)")
    ap.add_argument("--seed", type=int, default=20250106, help="random seed (default: %(default)s)")
    ap.add_argument("--out", type=Path, default=HERE / "data", help="parent folder (default: bench/data)")
    ap.add_argument("--chunk", type=int, default=1_000_000, help="rows generated and written at a time")
    ap.add_argument("--row-group", type=int, default=1_000_000, help="Parquet row group size in rows")
    ap.add_argument("--force", action="store_true", help="rewrite even if an identical dataset exists")
    ap.add_argument(
        "--skip-if-no-room",
        action="store_true",
        help=f"without room on disk, say so and exit {SKIPPED} without writing (just bench's 100M size)",
    )
    args = ap.parse_args()
    if args.rows < 0:
        ap.error("--rows must be >= 0")

    csv_dir = args.out / f"csv-{args.rows}"
    pq_dir = args.out / f"parquet-{args.rows}"
    hive_dir = args.out / f"hive-{args.rows}"
    if not args.force and is_current(csv_dir, args.rows, args.seed, args.chunk, "requests.csv") and is_current(
        pq_dir, args.rows, args.seed, args.chunk, "requests.parquet"
    ):
        if not is_current(hive_dir, args.rows, args.seed, args.chunk, "requests"):
            write_hive(pq_dir, hive_dir, campaign(args.seed, args.rows), args)
        print(f"up to date: {csv_dir}, {pq_dir} and {hive_dir} (use --force to rewrite)")
        return 0

    args.out.mkdir(parents=True, exist_ok=True)
    need = args.rows * (BYTES_PER_CSV_ROW + BYTES_PER_PARQUET_ROW)
    free = shutil.disk_usage(args.out).free
    if need * 1.2 > free:
        print(
            f"{'skipping' if args.skip_if_no_room else 'error'}: {args.rows} rows need about {need / 1e9:.1f} GB "
            f"(CSV + Parquet) and {args.out} has {free / 1e9:.1f} GB free",
            file=sys.stderr,
        )
        return SKIPPED if args.skip_if_no_room else 1

    runs = campaign(args.seed, args.rows)
    for d in (csv_dir, pq_dir):
        shutil.rmtree(d, ignore_errors=True)
    tmp_csv = args.out / f".csv-{args.rows}.partial"
    tmp_pq = args.out / f".parquet-{args.rows}.partial"
    for d in (tmp_csv, tmp_pq):
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir()

    t0 = time.perf_counter()
    for d in (tmp_csv, tmp_pq):
        write_runs_csv(d / "runs.csv", runs)
    write_requests_csv(tmp_csv / "requests.csv", runs, args.seed, args.chunk)
    t1 = time.perf_counter()
    csv_to_parquet(tmp_csv / "requests.csv", tmp_pq / "requests.parquet", args.row_group)
    t2 = time.perf_counter()
    for d in (tmp_csv, tmp_pq):
        (d / "README.md").write_text(provenance(args.rows, args.seed, args.chunk))
    tmp_csv.rename(csv_dir)
    tmp_pq.rename(pq_dir)

    write_hive(pq_dir, hive_dir, runs, args)
    csv_size = (csv_dir / "requests.csv").stat().st_size
    pq_size = (pq_dir / "requests.parquet").stat().st_size
    print(f"wrote {csv_dir}/requests.csv: {args.rows} rows, {csv_size / 1e6:.1f} MB in {t1 - t0:.1f} s")
    print(f"wrote {pq_dir}/requests.parquet: {pq_size / 1e6:.1f} MB in {t2 - t1:.1f} s")
    return 0


def write_hive(pq_dir: Path, hive_dir: Path, runs: list[dict], args) -> None:
    """hive-<N> from parquet-<N>, under a temporary name renamed when complete."""
    shutil.rmtree(hive_dir, ignore_errors=True)
    tmp = args.out / f".hive-{args.rows}.partial"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    t0 = time.perf_counter()
    write_runs_csv(tmp / "runs.csv", runs)
    parquet_to_hive(pq_dir / "requests.parquet", tmp / "requests", runs, args.row_group)
    (tmp / "README.md").write_text(provenance(args.rows, args.seed, args.chunk))
    tmp.rename(hive_dir)
    parts = sorted((hive_dir / "requests").glob("run_id=*/*.parquet"))
    size = sum(p.stat().st_size for p in parts)
    print(f"wrote {hive_dir}/requests/: {len(parts)} files, {size / 1e6:.1f} MB in {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    sys.exit(main())
