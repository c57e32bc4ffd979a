"""The shared contract of the benchmark: the statistic's definition and the canonical output.

Every tool (DuckDB, polars, `analyze`) must produce the same canonical text for a dataset,
so that the agreement check in run.py can compare them byte for byte before any timing.

The statistic (exact definition, see bench/README.md):
  per ok run: the latencies of requests with 200 <= status <= 299 and a non-empty latency_ms,
  sorted ascending; p95 is the value at 1-based nearest rank ceil(95 n / 100) = (95 n + 99) // 100.
  per condition (ok runs sharing every factor level): median of the runs' p95 (mean of the middle
  two for an even count), min and max.

Canonical text (one line each, sorted, values formatted by `fmt_ms`):
  run_id,n,rank,p95_ms
  <run rows sorted by run_id>
  condition,median_ms,min_ms,max_ms
  <condition rows sorted by condition key "factor=level;factor=level" (factors by name)>
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

# Columns of runs.csv that are not factors (datasets/README.md, "runs.csv").
RUNS_RESERVED = ("run_id", "repetition", "started_at_utc", "status", "note", "load1_before", "load1_after")

# requests.csv / requests.parquet columns and their types, in file order.
REQUEST_COLUMNS = ("run_id", "seq", "scheduled_ms", "sent_ms", "latency_ms", "status", "body_bytes")

# A value of n (or rank) that a tool does not report (analyze's summary.json has the rank only).
UNKNOWN = "?"


def nearest_rank(n: int, percent: int = 95) -> int:
    """1-based nearest rank ceil(percent * n / 100), in integers (no float rounding)."""
    if n <= 0:
        raise ValueError(f"nearest rank of an empty sample (n={n})")
    return (percent * n + 99) // 100


def fmt_ms(x: float | None) -> str:
    """Milliseconds as canonical text: rounded to 4 decimals (data has 3; a median of two may add a 5)."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "NA"
    return f"{x:.4f}"


def fmt_level(v) -> str:
    """A factor level as text; integral numbers lose a trailing '.0' so 8, 8.0 and "8" agree."""
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def condition_key(levels: dict) -> str:
    """`clients=8;route=api`: factors sorted by name."""
    return ";".join(f"{k}={fmt_level(levels[k])}" for k in sorted(levels))


def factor_columns(runs_csv: Path) -> list[str]:
    """The factor columns of a runs.csv: every column that is not reserved, sorted by name."""
    with open(runs_csv, newline="", encoding="utf-8-sig") as f:
        header = next(csv.reader(f))
    return sorted(c for c in header if c not in RUNS_RESERVED)


def requests_file(dataset: Path) -> tuple[Path, str]:
    """The dataset's requests table and its format ("csv" or "parquet"); never both."""
    c, p = dataset / "requests.csv", dataset / "requests.parquet"
    if c.exists() and p.exists():
        raise SystemExit(f"{dataset}: holds both requests.csv and requests.parquet (the format allows one)")
    if c.exists():
        return c, "csv"
    if p.exists():
        return p, "parquet"
    raise SystemExit(f"{dataset}: no requests.csv or requests.parquet")


def render(runs: list[tuple], conditions: list[tuple]) -> str:
    """Canonical text from (run_id, n, rank, p95) and (condition_key, median, min, max) rows."""
    lines = ["run_id,n,rank,p95_ms"]
    for run_id, n, rank, p95 in sorted(runs, key=lambda r: r[0]):
        lines.append(f"{run_id},{n},{rank},{fmt_ms(p95)}")
    lines.append("condition,median_ms,min_ms,max_ms")
    for key, med, lo, hi in sorted(conditions, key=lambda r: r[0]):
        lines.append(f"{key},{fmt_ms(med)},{fmt_ms(lo)},{fmt_ms(hi)}")
    return "\n".join(lines) + "\n"


def median(xs: list[float]) -> float:
    """Median; the mean of the middle two for an even count."""
    s = sorted(xs)
    m = len(s) // 2
    return s[m] if len(s) % 2 else (s[m - 1] + s[m]) / 2


def from_summary_json(summary: dict) -> str:
    """Canonical text from analyze's OUTDIR/summary.json (runs[] and conditions[]).

    The contract gives each run's p95 and its rank; n is taken from `ok_responses` (the 2xx
    responses, which all have a latency) when summary.json has it, else it is UNKNOWN and the
    agreement check compares n only between tools that report it.
    """
    runs = []
    for r in summary["runs"]:
        if r.get("status", "ok") != "ok":
            continue
        rank = r.get("p95_rank")
        n = r.get("ok_responses", UNKNOWN)
        runs.append((r["run_id"], n, UNKNOWN if rank is None else rank, r.get("p95_ms")))
    conditions = []
    for c in summary["conditions"]:
        p = c.get("p95_ms") or {}
        conditions.append((condition_key(c["factors"]), p.get("median"), p.get("min"), p.get("max")))
    return render(runs, conditions)


def differences(a: str, b: str) -> list[str]:
    """Line-by-line differences of two canonical texts; a field equal to UNKNOWN matches anything."""
    la, lb = a.splitlines(), b.splitlines()
    out = []
    if len(la) != len(lb):
        out.append(f"line count differs: {len(la)} vs {len(lb)}")
    for i, (x, y) in enumerate(zip(la, lb), start=1):
        fx, fy = x.split(","), y.split(",")
        same = len(fx) == len(fy) and all(p == q or UNKNOWN in (p, q) for p, q in zip(fx, fy))
        if not same:
            out.append(f"line {i}: {x!r} vs {y!r}")
    return out
