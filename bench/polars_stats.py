#!/usr/bin/env python3
"""Reference implementation in polars (Python): per-run nearest-rank p95, per-condition median/min/max.

    bench/.venv/bin/python bench/polars_stats.py DATASET_DIR

Prints the canonical text (bench/canonical.py) to stdout. Lazy: scan_csv with an explicit schema
(or scan_parquet), filter to 2xx with a latency, group by run, sort each run's latencies and take
the value at 0-based index (95 n + 99) // 100 - 1. polars' own quantile() is not used: its
'higher' interpolation picks index ceil(q (n - 1)), one rank too high whenever 20 divides n (n = 20:
rank 20, nearest rank 19).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import polars as pl

from canonical import factor_columns, render, requests_file

REQUEST_SCHEMA = {
    "run_id": pl.String,
    "seq": pl.Int64,
    "scheduled_ms": pl.Float64,
    "sent_ms": pl.Float64,
    "latency_ms": pl.Float64,
    "status": pl.Int32,
    "body_bytes": pl.Int64,
}


def scan_requests(dataset: Path) -> pl.LazyFrame:
    path, fmt = requests_file(dataset)
    if fmt == "csv":
        return pl.scan_csv(path, schema=REQUEST_SCHEMA)
    return pl.scan_parquet(path)


def per_run(requests: pl.LazyFrame) -> pl.LazyFrame:
    """(run_id, n, rank, p95) over the 2xx requests with a latency."""
    n = pl.len().cast(pl.Int64)
    rank = (95 * n + 99) // 100
    return (
        requests.filter(pl.col("status").is_between(200, 299) & pl.col("latency_ms").is_not_null())
        .group_by("run_id")
        .agg(n=n, rank=rank, p95=pl.col("latency_ms").sort().get(rank - 1))
    )


def compute(dataset: Path, engine: str = "auto") -> str:
    factors = factor_columns(dataset / "runs.csv")  # sorted by name
    runs = pl.scan_csv(dataset / "runs.csv", infer_schema=False).filter(pl.col("status") == "ok")
    cond = pl.concat_str([pl.lit(f"{f}=") + pl.col(f) for f in factors], separator=";") if factors else pl.lit("")
    joined = (
        runs.select("run_id", cond.alias("condition"))
        .join(per_run(scan_requests(dataset)), on="run_id", how="left")
        .with_columns(pl.col("n").fill_null(0))
        .collect(engine=engine)
    )
    conditions = (
        joined.group_by("condition")
        .agg(
            pl.col("p95").median().alias("median"),
            pl.col("p95").min().alias("min"),
            pl.col("p95").max().alias("max"),
        )
        .rows()
    )
    run_rows = [
        (r["run_id"], r["n"], r["rank"] if r["n"] else "NA", r["p95"]) for r in joined.iter_rows(named=True)
    ]
    return render(run_rows, conditions)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dataset", type=Path, help="dataset folder")
    ap.add_argument("--engine", choices=("auto", "in-memory", "streaming"), default="auto")
    args = ap.parse_args()
    sys.stdout.write(compute(args.dataset, args.engine))
    return 0


if __name__ == "__main__":
    sys.exit(main())
