#!/usr/bin/env python3
"""Reference implementation in DuckDB: per-run nearest-rank p95 and per-condition median/min/max.

    bench/.venv/bin/python bench/duckdb_stats.py DATASET_DIR [--method quantile_disc|rank]
    bench/.venv/bin/python bench/duckdb_stats.py --self-test

Prints the canonical text (bench/canonical.py) to stdout. Reads requests.csv with read_csv and
explicit column types (no type sniffing), or requests.parquet with read_parquet.

--method quantile_disc (default) uses `quantile_disc(latency_ms, 0.95)`. DuckDB's discrete
quantile takes the 0-based index max(1, n - floor(n - q n)) - 1; with the literal 0.95 (a
DECIMAL(3,2) in DuckDB) that is computed in integers and equals the nearest rank ceil(95 n/100).
--self-test checks this against (95 n + 99) // 100 for n = 1, 2, 19, 20, 21, 72, 100, 1000 and
every n in 1..3000, and exits 1 on any difference. --method rank is the explicit formulation
(row_number() over the run's sorted latencies, keep the row at the nearest rank), for a DuckDB
whose quantile_disc would not match.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import duckdb

from canonical import factor_columns, nearest_rank, render, requests_file

CSV_COLUMNS = (
    "{'run_id': 'VARCHAR', 'seq': 'BIGINT', 'scheduled_ms': 'DOUBLE', 'sent_ms': 'DOUBLE', "
    "'latency_ms': 'DOUBLE', 'status': 'INTEGER', 'body_bytes': 'BIGINT'}"
)


def sql_string(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def quote_path(p: Path) -> str:
    return sql_string(str(p))


def requests_source(dataset: Path) -> str:
    path, fmt = requests_file(dataset)
    if fmt == "csv":
        return (
            f"read_csv({quote_path(path)}, header = true, delim = ',', quote = '\"', "
            f"columns = {CSV_COLUMNS}, auto_detect = false)"
        )
    return f"read_parquet({quote_path(path)})"


def per_run_sql(source: str, method: str) -> str:
    """SQL giving (run_id, n, p95) over the 2xx requests with a latency."""
    ok = f"SELECT run_id, latency_ms FROM {source} WHERE status BETWEEN 200 AND 299 AND latency_ms IS NOT NULL"
    if method == "quantile_disc":
        return f"SELECT run_id, count(*) AS n, quantile_disc(latency_ms, 0.95) AS p95 FROM ({ok}) GROUP BY run_id"
    if method == "rank":
        return (
            "SELECT run_id, n, latency_ms AS p95 FROM ("
            "  SELECT run_id, latency_ms,"
            "    row_number() OVER (PARTITION BY run_id ORDER BY latency_ms) AS rn,"
            "    count(*) OVER (PARTITION BY run_id) AS n"
            f"  FROM ({ok})"
            ") WHERE rn = (95 * n + 99) // 100"
        )
    raise ValueError(f"unknown method {method!r}")


def condition_key_sql(factors: list[str]) -> str:
    """SQL for canonical.condition_key over runs.csv read as text: 'clients=8;route=api'."""
    if not factors:
        return "''"
    parts = [f"{sql_string(f + '=')} || r.\"{f}\"" for f in factors]
    return "concat_ws(';', " + ", ".join(parts) + ")"


def compute(dataset: Path, method: str = "quantile_disc") -> str:
    con = duckdb.connect()
    factors = factor_columns(dataset / "runs.csv")  # sorted by name, as condition_key wants
    runs_src = f"read_csv({quote_path(dataset / 'runs.csv')}, header = true, all_varchar = true)"
    con.execute(
        f"CREATE TEMP TABLE per_run AS "
        f"WITH p AS ({per_run_sql(requests_source(dataset), method)}) "
        f"SELECT r.run_id, coalesce(p.n, 0) AS n, p.p95, {condition_key_sql(factors)} AS cond "
        f"FROM {runs_src} r LEFT JOIN p USING (run_id) WHERE r.status = 'ok'"
    )
    runs = [
        (run_id, n, nearest_rank(n) if n else "NA", p95)
        for run_id, n, p95 in con.execute("SELECT run_id, n, p95 FROM per_run").fetchall()
    ]
    conditions = con.execute("SELECT cond, median(p95), min(p95), max(p95) FROM per_run GROUP BY cond").fetchall()
    return render(runs, conditions)


def self_test() -> int:
    """Does quantile_disc(x, 0.95) pick the nearest rank? 0 if it does for every n tested."""
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE t AS SELECT g.range AS n, v.range + 1 AS x "
        "FROM range(1, 3001) g, range(3000) v WHERE v.range < g.range"
    )
    named = (1, 2, 19, 20, 21, 72, 100, 1000)
    failures = []
    for q in ("0.95", "0.95::DOUBLE"):
        got = dict(con.execute(f"SELECT n, quantile_disc(x, {q}) FROM t GROUP BY n").fetchall())
        for n in named:
            print(f"quantile_disc(1..{n}, {q}) = {got[n]}; nearest rank = {nearest_rank(n)}")
        bad = [n for n in range(1, 3001) if got[n] != nearest_rank(n)]
        if bad:
            failures.append(f"{q}: differs at n = {bad[:10]}{' ...' if len(bad) > 10 else ''}")
        else:
            print(f"quantile_disc(x, {q}) equals the nearest rank for every n in 1..3000")
    for f in failures:
        print(f"MISMATCH {f}", file=sys.stderr)
    print(f"duckdb {duckdb.__version__}: quantile_disc {'does NOT match' if failures else 'matches'} nearest rank")
    return 1 if failures else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dataset", type=Path, nargs="?", help="dataset folder")
    ap.add_argument("--method", choices=("quantile_disc", "rank"), default="quantile_disc")
    ap.add_argument("--self-test", action="store_true", help="check quantile_disc against nearest rank")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    if args.dataset is None:
        ap.error("a dataset folder is required")
    sys.stdout.write(compute(args.dataset, args.method))
    return 0


if __name__ == "__main__":
    sys.exit(main())
