"""A generated dataset whose runs sit on the traps of nearest-rank percentiles and of the chart
reductions: 2xx counts of 1, 2, 20, 72, 300, 301, 999, 1000, 1001, 4000, 4001 and 41000, ties (latencies
drawn from a few hundred integer-microsecond values), requests with no response (empty
latency, status 0), non-2xx responses with a latency, a run with only errors, two runs with more
errors than analyze marks one by one, an aborted run listed in runs.csv with no requests, and a headline
percentile (97.5) that is not one of the standard five. Seeded: the same files every time."""

import csv
import random
from pathlib import Path

HEADLINE = 97.5

# run_id -> (2xx responses, non-2xx with a latency, no response, distinct latency values or 0 for many)
RUNS = {
    "n0001": (1, 0, 0, 0),
    "n0002": (2, 0, 0, 0),
    "n0020": (20, 0, 0, 0),
    "n0072": (72, 1, 1, 0),
    "n0300": (300, 0, 0, 0),
    "n0301-errors": (301, 160, 141, 0),
    "n0999": (999, 0, 0, 0),
    "n1000-ties": (1000, 0, 0, 7),
    "n1001-nulls": (1001, 3, 5, 0),
    "n4000": (4000, 0, 0, 0),
    "n4001": (4001, 2, 2, 300),
    "n41000": (41000, 900, 700, 400),
    "only-errors": (0, 3, 2, 0),
    "no-requests": (0, 0, 0, 0),
}


def write(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "dataset.toml").write_text(f'title = "rank traps"\npercentile = {HEADLINE}\n')
    with open(folder / "runs.csv", "w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["run_id", "server", "repetition", "started_at_utc", "status", "note"])
        for i, run_id in enumerate(RUNS):
            # analyze refuses an ok run without rows: the run without requests was aborted.
            status, note = ("aborted", "the client never started") if RUNS[run_id][:3] == (0, 0, 0) else ("ok", "")
            out.writerow([run_id, "ab"[i % 2], i // 2 + 1, f"2026-11-30T10:{i:02d}:00Z", status, note])
    rng = random.Random(20261130)
    with open(folder / "requests.csv", "w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["run_id", "seq", "scheduled_ms", "sent_ms", "latency_ms", "status", "body_bytes"])
        for run_id, (ok, non_2xx, none, distinct) in RUNS.items():
            kinds = ["ok"] * ok + ["non_2xx"] * non_2xx + ["none"] * none
            rng.shuffle(kinds)
            values = [rng.randint(200, 90_000) for _ in range(distinct)]
            for seq, kind in enumerate(kinds):
                scheduled = seq * 10
                # Lags of both signs, in microseconds; a few sends at the same instant as another.
                sent = scheduled * 1000 + rng.randint(-50, 4000)
                if run_id == "n0072" and seq == 0:
                    sent = -50  # a send before the run's start, whatever the draws
                micros = rng.choice(values) if values else int(rng.lognormvariate(8.0, 1.0))
                if kind == "ok":
                    status, latency = rng.choice((200, 200, 200, 201, 204)), micros
                elif kind == "non_2xx":
                    status, latency = rng.choice((301, 404, 500, 503)), micros
                else:
                    status, latency = 0, None
                out.writerow(
                    [
                        run_id,
                        seq,
                        f"{scheduled}.000",
                        f"{sent / 1000:.3f}",
                        "" if latency is None else f"{latency / 1000:.3f}",
                        status,
                        0 if latency is None else 12,
                    ]
                )
    return folder
