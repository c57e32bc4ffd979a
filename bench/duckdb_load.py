#!/usr/bin/env python3
"""The import case's peer: DuckDB loads a `hey -o csv` file into a table.

    bench/.venv/bin/python bench/duckdb_load.py HEY_CSV --db FILE.duckdb   # persisted (the timed peer)
    bench/.venv/bin/python bench/duckdb_load.py HEY_CSV --memory           # in memory (for reference)
    bench/.venv/bin/python bench/duckdb_load.py --canonical FILE.duckdb --run-id r1 --factor tool=hey
    bench/.venv/bin/python bench/duckdb_load.py --facts FILE.duckdb
    bench/.venv/bin/python bench/duckdb_load.py --dataset-facts IMPORTED_DATASET

Loading reads the CSV with explicit column types (no sniffing) into table `hey` and, with --db,
writes it to a fresh database file (DuckDB checkpoints it when the connection closes), which is
the like-for-like peer of `analyze import`, since that writes a dataset to disk. --canonical and
--facts read a loaded table back and are never timed: --canonical prints the benchmark's
canonical text (bench/canonical.py) of the table seen as one run, --facts the row count, the
status counts and exact sums and extremes of the times in hey's 0.1 ms units; --dataset-facts the
same facts of an imported dataset's requests.csv, which run.py compares with the table's.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import duckdb

from canonical import condition_key, nearest_rank, render
from duckdb_stats import requests_source

COLUMNS = (
    "{'response-time': 'DOUBLE', 'DNS+dialup': 'DOUBLE', 'DNS': 'DOUBLE', 'Request-write': 'DOUBLE', "
    "'Response-delay': 'DOUBLE', 'Response-read': 'DOUBLE', 'status-code': 'INTEGER', 'offset': 'DOUBLE'}"
)


def load(con: duckdb.DuckDBPyConnection, path: Path) -> None:
    quoted = "'" + str(path).replace("'", "''") + "'"
    con.execute(
        f"CREATE TABLE hey AS SELECT * FROM read_csv({quoted}, header = true, delim = ',', quote = '\"', "
        f"columns = {COLUMNS}, auto_detect = false)"
    )


def canonical(con: duckdb.DuckDBPyConnection, run_id: str, factors: dict) -> str:
    """The table as one run: n and the nearest-rank p95 (ms) of its 2xx responses."""
    n, p95_s = con.execute(
        'SELECT count(*), quantile_disc("response-time", 0.95) FROM hey WHERE "status-code" BETWEEN 200 AND 299'
    ).fetchone()
    p95_ms = round(p95_s * 10_000) / 10  # hey's 4-decimal seconds as the importer's exact ms
    return render([(run_id, n, nearest_rank(n), p95_ms)], [(condition_key(factors), p95_ms, p95_ms, p95_ms)])


# The facts, in 0.1 ms units (hey's resolution), computed exactly in integers.
FACTS = """
SELECT count(*) AS rows,
       sum(lat) AS latency_sum, min(lat) AS latency_min, max(lat) AS latency_max,
       max(sent) - min(sent) AS sent_span
FROM (SELECT CAST(round({latency} * {scale}) AS BIGINT) AS lat, CAST(round({sent} * {scale}) AS BIGINT) AS sent
      FROM {source})
"""
STATUSES = "SELECT {status} AS s, count(*) FROM {source} GROUP BY s ORDER BY s"


def facts(con: duckdb.DuckDBPyConnection, source: str, latency: str, sent: str, status: str, scale: int) -> str:
    row = con.execute(FACTS.format(latency=latency, sent=sent, scale=scale, source=source)).fetchone()
    names = ("rows", "latency_sum_0.1ms", "latency_min_0.1ms", "latency_max_0.1ms", "sent_span_0.1ms")
    lines = [f"{k}={v}" for k, v in zip(names, row)]
    lines += [f"status_{s}={c}" for s, c in con.execute(STATUSES.format(status=status, source=source)).fetchall()]
    return "\n".join(lines) + "\n"


def table_facts(con: duckdb.DuckDBPyConnection) -> str:
    return facts(con, "hey", '"response-time"', '"offset"', '"status-code"', 10_000)


def dataset_facts(con: duckdb.DuckDBPyConnection, dataset: Path) -> str:
    """The same facts of an imported dataset's requests.csv (times in ms, so 0.1 ms is x10)."""
    source = requests_source(dataset)
    return facts(con, source, "latency_ms", "sent_ms", "status", 10)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", type=Path, nargs="?", help="the hey -o csv file to load")
    ap.add_argument("--db", type=Path, help="a new database file to load into")
    ap.add_argument("--memory", action="store_true", help="load into an in-memory database")
    ap.add_argument("--canonical", type=Path, metavar="DB", help="print the canonical text of a loaded database")
    ap.add_argument("--facts", type=Path, metavar="DB", help="print the facts of a loaded database")
    ap.add_argument("--dataset-facts", type=Path, metavar="DIR", help="print the facts of an imported dataset")
    ap.add_argument("--run-id", default="r1")
    ap.add_argument("--factor", action="append", default=[], help="KEY=VALUE, as given to analyze import")
    args = ap.parse_args()
    if args.dataset_facts:
        sys.stdout.write(dataset_facts(duckdb.connect(":memory:"), args.dataset_facts))
        return 0
    if args.canonical or args.facts:
        con = duckdb.connect(str(args.canonical or args.facts), read_only=True)
        if args.canonical:
            factors = dict(f.split("=", 1) for f in args.factor)
            sys.stdout.write(canonical(con, args.run_id, factors))
        else:
            sys.stdout.write(table_facts(con))
        return 0
    if args.csv is None or args.memory == (args.db is not None):
        ap.error("give HEY_CSV and exactly one of --db FILE or --memory")
    if args.db is not None and args.db.exists():
        ap.error(f"{args.db} exists: the load is timed into a fresh database file")
    con = duckdb.connect(":memory:" if args.memory else str(args.db))
    load(con, args.csv)
    con.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
