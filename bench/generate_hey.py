#!/usr/bin/env python3
"""Writes a synthetic `hey -o csv` file for the import case of the benchmark.

    bench/.venv/bin/python bench/generate_hey.py --rows 10000000

makes bench/data/hey-<N>/hey.csv: the eight columns hey writes (response-time, DNS+dialup, DNS,
Request-write, Response-delay, Response-read, status-code, offset), times in seconds with 4
decimals as hey prints them (`%4.4f`), rows in the order responses completed, as hey appends them.

The run it imitates: `hey -c 50 -z ...` against one server, closed loop: each of 50 workers sends
its next request when the previous response is read. Latencies are log-normal (median 2.5 ms) with
a slow component (2% at about 12x); a worker's first request dials (DNS+dialup about 1 ms, DNS
about 0.3 ms) and the others reuse the connection (0.0000); about 0.1% of responses are 500 (after
a long wait) or 503 (at once). hey's CSV holds only requests that got a response, so there is no
row without one.

Synthetic: real hey keeps at most 1,000,000 results (its maxRes), so no real hey run writes a 10M-row
CSV; the importer notes that cap for files of 1,000,000 rows or more, which this file also gets.

Deterministic: the same --rows and --seed give byte-identical files. Values are drawn as integer
tenths of a millisecond (hey's resolution) and written as k/10000 s with 4 decimals. The file is
written under a temporary name and renamed when complete; an existing identical one is left alone.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

import numpy as np
import polars as pl

GENERATOR_VERSION = 1
HERE = Path(__file__).resolve().parent
HEADER = ("response-time", "DNS+dialup", "DNS", "Request-write", "Response-delay", "Response-read", "status-code", "offset")

WORKERS = 50
MEDIAN_TENTHS_MS = 25.0  # 2.5 ms
SIGMA = 0.45
SLOW_SHARE, SLOW_FACTOR, SLOW_SIGMA = 0.02, 12.0, 0.6
ERROR_RATE = 0.001
BYTES_PER_ROW = 55  # e.g. "0.0031,0.0000,0.0000,0.0000,0.0027,0.0004,200,123.4567\n"
SKIPPED = 75  # EX_TEMPFAIL, as generate.py


def columns(rows: int, seed: int) -> dict[str, np.ndarray]:
    """Every column in tenths of a millisecond (status as the code), in completion order."""
    rng = np.random.default_rng([seed, 9])
    per_worker = -(-rows // WORKERS) if rows else 0
    shape = (WORKERS, per_worker)
    total = np.rint(rng.lognormal(np.log(MEDIAN_TENTHS_MS), SIGMA, shape))
    slow = rng.random(shape) < SLOW_SHARE
    total[slow] = np.rint(rng.lognormal(np.log(MEDIAN_TENTHS_MS * SLOW_FACTOR), SLOW_SIGMA, int(slow.sum())))
    total = np.maximum(total, 2).astype(np.int64)
    status = np.full(shape, 200, dtype=np.int64)
    u = rng.random(shape)
    is500 = u < ERROR_RATE * 0.7
    is503 = (u >= ERROR_RATE * 0.7) & (u < ERROR_RATE)
    status[is500], status[is503] = 500, 503
    total[is500] = rng.integers(50_000, 300_000, int(is500.sum()))  # 5-30 s upstream timeout
    total[is503] = rng.integers(1, 5, int(is503.sum()))

    # Phases: the first request of a worker dials; the rest reuse its connection.
    dial = np.zeros(shape, dtype=np.int64)
    dns = np.zeros(shape, dtype=np.int64)
    dial[:, 0] = rng.integers(5, 15, WORKERS)
    dns[:, 0] = rng.integers(2, 5, WORKERS)
    total[:, 0] += dial[:, 0]
    write = (rng.random(shape) < 0.3).astype(np.int64)
    read = np.minimum(rng.integers(0, 15, shape), total - dial - write - 1)
    read = np.maximum(read, 0)
    delay = total - dial - write - read

    # Closed loop: a worker's next send follows its previous response after a small gap.
    gap = rng.integers(0, 2, shape)
    offset = np.cumsum(total + gap, axis=1) - (total + gap) + rng.integers(0, 10, (WORKERS, 1))
    done = offset + total
    flat = {"response-time": total, "DNS+dialup": dial, "DNS": dns, "Request-write": write,
            "Response-delay": delay, "Response-read": read, "status-code": status, "offset": offset}
    flat = {k: v.reshape(-1)[: WORKERS * per_worker] for k, v in flat.items()}
    # Rows beyond `rows` (the last workers' last requests) are dropped after ordering by completion.
    order = np.argsort(done.reshape(-1), kind="stable")[:rows]
    return {k: v[order] for k, v in flat.items()}


def write_csv(path: Path, rows: int, seed: int) -> None:
    data = columns(rows, seed)
    frame = pl.DataFrame(
        {name: (data[name] if name == "status-code" else data[name] / 10_000.0) for name in HEADER}
    )
    with open(path, "wb") as f:
        frame.write_csv(f, include_header=True, float_precision=4, line_terminator="\n")


def provenance(rows: int, seed: int) -> str:
    return (
        "# Synthetic hey -o csv file\n\n"
        f"generator: bench/generate_hey.py version {GENERATOR_VERSION}\nrows: {rows}\nseed: {seed}\n\n"
        "Made for `just bench`'s import case; not a real hey run (hey keeps at most 1,000,000 results). "
        "See bench/README.md.\n"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, required=True, help="rows (responses), e.g. 10000000")
    ap.add_argument("--seed", type=int, default=20261201, help="random seed (default: %(default)s)")
    ap.add_argument("--out", type=Path, default=HERE / "data", help="parent folder (default: bench/data)")
    ap.add_argument("--force", action="store_true", help="rewrite even if an identical file exists")
    ap.add_argument("--skip-if-no-room", action="store_true",
                    help=f"without room on disk, say so and exit {SKIPPED} without writing")
    args = ap.parse_args()
    if args.rows < 1:
        ap.error("--rows must be >= 1")

    folder = args.out / f"hey-{args.rows}"
    readme = folder / "README.md"
    if not args.force and (folder / "hey.csv").exists() and readme.exists() and readme.read_text() == provenance(args.rows, args.seed):
        print(f"up to date: {folder}/hey.csv (use --force to rewrite)")
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    need = args.rows * BYTES_PER_ROW
    free = shutil.disk_usage(args.out).free
    if need * 1.2 > free:
        print(f"{'skipping' if args.skip_if_no_room else 'error'}: {args.rows} hey rows need about {need / 1e9:.1f} GB "
              f"and {args.out} has {free / 1e9:.1f} GB free", file=sys.stderr)
        return SKIPPED if args.skip_if_no_room else 1

    tmp = args.out / f".hey-{args.rows}.partial"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    t0 = time.perf_counter()
    write_csv(tmp / "hey.csv", args.rows, args.seed)
    (tmp / "README.md").write_text(provenance(args.rows, args.seed))
    shutil.rmtree(folder, ignore_errors=True)
    tmp.rename(folder)
    size = (folder / "hey.csv").stat().st_size
    print(f"wrote {folder}/hey.csv: {args.rows} rows, {size / 1e6:.1f} MB in {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
