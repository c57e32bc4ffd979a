"""Self-tests of the benchmark's reference implementations (not of analyze).

    bench/.venv/bin/python -m unittest discover -s bench -p 'test_*.py'
"""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import polars as pl

import canonical
import duckdb_stats
import polars_stats

HERE = Path(__file__).resolve().parent


class NearestRank(unittest.TestCase):
    def test_rank_of_72_is_69(self):
        self.assertEqual(canonical.nearest_rank(72), 69)

    def test_rank_of_20_is_19_not_20(self):
        self.assertEqual(canonical.nearest_rank(20), 19)

    def test_rank_of_100_is_95(self):
        self.assertEqual(canonical.nearest_rank(100), 95)

    def test_small_and_odd_counts(self):
        self.assertEqual([canonical.nearest_rank(n) for n in (1, 2, 19, 21, 1000)], [1, 2, 19, 20, 950])

    def test_matches_ceil_for_every_n_up_to_100000(self):
        for n in range(1, 100_001):
            # ceil(95 n / 100) with exact integer arithmetic: -(-95 n // 100)
            self.assertEqual(canonical.nearest_rank(n), -(-95 * n // 100))

    def test_empty_sample_is_an_error(self):
        with self.assertRaises(ValueError):
            canonical.nearest_rank(0)


def write_tiny_dataset(folder: Path) -> str:
    """A dataset whose answer is known by hand; returns the expected canonical text.

    run a1 (api, 8):  latencies 1..20 shuffled, plus a 500 (999 ms) and a no-response -> n 20, rank 19, p95 19
    run a2 (api, 8):  1..72 shuffled (x 0.5)                                          -> n 72, rank 69, p95 34.5
    run s1 (search,8): 1..100 shuffled, one 204 among them                            -> n 100, rank 95, p95 95
    run x1 (search,8): aborted, not counted
    condition api/8: p95s 19 and 34.5 -> median 26.75 (mean of the middle two), min 19, max 34.5
    """
    (folder / "runs.csv").write_text(
        "run_id,route,clients,repetition,started_at_utc,status,note\n"
        "a1,api,8,1,2025-01-01T00:00:00Z,ok,\n"
        "a2,api,8,2,2025-01-01T00:10:00Z,ok,\n"
        "s1,search,8,1,2025-01-01T00:20:00Z,ok,\n"
        'x1,search,8,2,2025-01-01T00:30:00Z,aborted,"client crashed, see log"\n'
    )
    rng = random.Random(7)
    rows = []

    def add(run, values, statuses=None):
        order = list(range(len(values)))
        rng.shuffle(order)
        for seq, i in enumerate(order):
            status = statuses[i] if statuses else 200
            lat = "" if values[i] is None else f"{values[i]:.3f}"
            rows.append(f"{run},{seq},{seq}.000,{seq}.010,{lat},{status},100")

    add("a1", [float(v) for v in range(1, 21)] + [999.0, None], [200] * 20 + [500, 0])
    add("a2", [v * 0.5 for v in range(1, 73)])
    add("s1", [float(v) for v in range(1, 101)], [204 if v == 50 else 200 for v in range(1, 101)])
    add("x1", [5000.0] * 10)
    (folder / "requests.csv").write_text(",".join(canonical.REQUEST_COLUMNS) + "\n" + "\n".join(rows) + "\n")
    return (
        "run_id,n,rank,p95_ms\n"
        "a1,20,19,19.0000\n"
        "a2,72,69,34.5000\n"
        "s1,100,95,95.0000\n"
        "condition,median_ms,min_ms,max_ms\n"
        "clients=8;route=api,26.7500,19.0000,34.5000\n"
        "clients=8;route=search,95.0000,95.0000,95.0000\n"
    )


def to_parquet(csv_dir: Path, pq_dir: Path) -> None:
    pq_dir.mkdir()
    (pq_dir / "runs.csv").write_text((csv_dir / "runs.csv").read_text())
    pl.read_csv(csv_dir / "requests.csv", schema=polars_stats.REQUEST_SCHEMA).write_parquet(pq_dir / "requests.parquet")


class ReferenceImplementations(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        root = Path(cls.tmp.name)
        cls.csv_dir = root / "csv"
        cls.csv_dir.mkdir()
        cls.expected = write_tiny_dataset(cls.csv_dir)
        cls.pq_dir = root / "parquet"
        to_parquet(cls.csv_dir, cls.pq_dir)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_duckdb_quantile_disc_gives_the_hand_computed_answer(self):
        for d in (self.csv_dir, self.pq_dir):
            self.assertEqual(duckdb_stats.compute(d, "quantile_disc"), self.expected, d)

    def test_duckdb_explicit_rank_gives_the_hand_computed_answer(self):
        for d in (self.csv_dir, self.pq_dir):
            self.assertEqual(duckdb_stats.compute(d, "rank"), self.expected, d)

    def test_polars_gives_the_hand_computed_answer(self):
        for d in (self.csv_dir, self.pq_dir):
            for engine in ("in-memory", "streaming"):
                self.assertEqual(polars_stats.compute(d, engine), self.expected, (d, engine))

    def test_summary_json_matches_when_analyze_agrees(self):
        summary = {
            "runs": [
                {"run_id": "s1", "status": "ok", "p95_ms": 95.0, "p95_rank": 95},
                {"run_id": "a1", "status": "ok", "p95_ms": 19.0, "p95_rank": 19},
                {"run_id": "a2", "status": "ok", "p95_ms": 34.5, "p95_rank": 69},
                {"run_id": "x1", "status": "aborted", "p95_ms": None, "p95_rank": None},
            ],
            "conditions": [
                {"factors": {"route": "api", "clients": 8}, "runs": ["a1", "a2"],
                 "p95_ms": {"median": 26.75, "min": 19.0, "max": 34.5}},
                {"factors": {"route": "search", "clients": "8"}, "runs": ["s1"],
                 "p95_ms": {"median": 95.0, "min": 95.0, "max": 95.0}},
            ],
        }
        text = canonical.from_summary_json(summary)
        self.assertEqual(canonical.differences(self.expected, text), [])

    def test_a_wrong_rank_is_reported(self):
        wrong = self.expected.replace("a1,20,19,19.0000", "a1,20,20,20.0000")
        self.assertEqual(len(canonical.differences(self.expected, wrong)), 1)

    def test_both_requests_files_is_an_error(self):
        with tempfile.TemporaryDirectory() as t:
            (Path(t) / "requests.csv").write_text("")
            (Path(t) / "requests.parquet").write_text("")
            with self.assertRaises(SystemExit):
                canonical.requests_file(Path(t))


class Generator(unittest.TestCase):
    def test_small_dataset_is_well_formed_and_formats_agree(self):
        with tempfile.TemporaryDirectory() as t:
            out = Path(t)
            cmd = [sys.executable, str(HERE / "generate.py"), "--rows", "30031", "--out", str(out), "--chunk", "400"]
            subprocess.run(cmd, check=True, capture_output=True)
            csv_dir, pq_dir = out / "csv-30031", out / "parquet-30031"
            self.assertFalse((csv_dir / "requests.parquet").exists())
            self.assertFalse((pq_dir / "requests.csv").exists())
            req = pl.read_csv(csv_dir / "requests.csv", schema=polars_stats.REQUEST_SCHEMA)
            self.assertEqual(req.columns, list(canonical.REQUEST_COLUMNS))
            self.assertEqual(req.height, 30031)
            per_run = req.group_by("run_id", maintain_order=True).agg(
                pl.len().alias("n"), (pl.col("seq") == pl.int_range(pl.len())).all().alias("seq_ok")
            )
            self.assertEqual(per_run.height, 30)
            self.assertTrue(per_run["seq_ok"].all())
            # rows are grouped by run: each run_id appears in one contiguous block
            self.assertEqual(req["run_id"].rle().len(), 30)
            self.assertTrue((req["sent_ms"] >= req["scheduled_ms"]).all())
            runs = pl.read_csv(csv_dir / "runs.csv")
            self.assertEqual(runs.columns, ["run_id", "route", "clients", "repetition", "started_at_utc", "status", "note"])
            self.assertEqual(runs.select(pl.struct("route", "clients").n_unique()).item(), 10)
            self.assertEqual(duckdb_stats.compute(csv_dir), duckdb_stats.compute(pq_dir))
            # deterministic: the same arguments give the same bytes
            first = (csv_dir / "requests.csv").read_bytes()
            subprocess.run(cmd + ["--force"], check=True, capture_output=True)
            self.assertEqual((csv_dir / "requests.csv").read_bytes(), first)


class HeyGenerator(unittest.TestCase):
    def test_hey_csv_is_heys_columns_consistent_and_deterministic(self):
        with tempfile.TemporaryDirectory() as t:
            out = Path(t)
            cmd = [sys.executable, str(HERE / "generate_hey.py"), "--rows", "20011", "--out", str(out)]
            subprocess.run(cmd, check=True, capture_output=True)
            path = out / "hey-20011" / "hey.csv"
            text = path.read_text()
            self.assertTrue(text.startswith(
                "response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset\n"))
            hey = pl.read_csv(path)
            self.assertEqual(hey.height, 20011)
            # hey prints %4.4f: every time has exactly 4 decimals
            first = text.splitlines()[1].split(",")
            self.assertTrue(all(len(v.split(".")[1]) == 4 for i, v in enumerate(first) if i != 6), first)
            tenths = {c: (hey[c] * 10_000).round().cast(pl.Int64) for c in hey.columns if c != "status-code"}
            parts = tenths["DNS+dialup"] + tenths["Request-write"] + tenths["Response-delay"] + tenths["Response-read"]
            self.assertTrue((parts == tenths["response-time"]).all())
            self.assertTrue((tenths["Response-delay"] >= 1).all())
            self.assertEqual(set(hey["status-code"].unique()), {200, 500, 503})
            # rows in completion order, as hey appends them
            done = tenths["offset"] + tenths["response-time"]
            self.assertTrue((done.diff().drop_nulls() >= 0).all())
            subprocess.run(cmd + ["--force"], check=True, capture_output=True)
            self.assertEqual(path.read_text(), text)

    def test_duckdb_load_facts_count_every_row_and_status(self):
        with tempfile.TemporaryDirectory() as t:
            out = Path(t)
            csv = out / "hey.csv"
            csv.write_text(
                "response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset\n"
                "0.0038,0.0000,0.0000,0.0000,0.0026,0.0012,200,0.0008\n"
                "0.0041,0.0002,0.0000,0.0000,0.0027,0.0012,503,0.0005\n"
                "0.0045,0.0002,0.0000,0.0001,0.0029,0.0013,200,0.0002\n"
            )
            db = out / "hey.duckdb"
            load = [sys.executable, str(HERE / "duckdb_load.py")]
            subprocess.run(load + [str(csv), "--db", str(db)], check=True, capture_output=True)
            facts = subprocess.run(load + ["--facts", str(db)], check=True, capture_output=True, text=True).stdout
            self.assertEqual(facts.split(), [
                "rows=3", "latency_sum_0.1ms=124", "latency_min_0.1ms=38", "latency_max_0.1ms=45",
                "sent_span_0.1ms=6", "status_200=2", "status_503=1"])
            text = subprocess.run(load + ["--canonical", str(db), "--factor", "tool=hey"],
                                  check=True, capture_output=True, text=True).stdout
            # 2xx: 3.8 and 4.5 ms; nearest rank of p95 of 2 is 2
            self.assertEqual(text, "run_id,n,rank,p95_ms\nr1,2,2,4.5000\ncondition,median_ms,min_ms,max_ms\n"
                                   "tool=hey,4.5000,4.5000,4.5000\n")


if __name__ == "__main__":
    unittest.main()
