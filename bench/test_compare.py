"""`analyze compare`'s decisions against an independent computation with scipy.

For pairs of datasets (committed ones, and copies of them with known changes made here), the run
values are read from the datasets' own files (each run's nearest-rank p95 of its 2xx latencies from
requests.csv, or the tool's requests/s from run_stats.csv), and everything compare.json states is
recomputed from them: the ratio of geometric means candidate/baseline, its 95% interval (Welch's t on
the logs: scipy.stats.ttest_ind with equal_var=False, t.ppf) at the false-coverage-rate level that
matches the Benjamini-Hochberg verdicts (1 - R·q/m for the R discoveries of m, 1 - (R + 1)·q/m for
the others), p, Benjamini-Hochberg (scipy.stats.false_discovery_control), the verdict (negligible by
equivalence: the whole interval within the threshold) and its direction, the distribution-free
chance 2/C(n+m, n), the --fail-on-regression decision, and the detectable change's alpha. The failed requests, judged first, are recomputed too: each
run's requests and non-2xx from requests.csv, the overdispersion from the runs' Pearson χ², twice the
smaller tail of scipy.stats.hypergeom on the counts divided by it, Benjamini-Hochberg, and the verdict.

    bench/.venv/bin/python -m unittest bench/test_compare.py

Needs the analyze binary (`cargo build --release`, found through CARGO_TARGET_DIR or ~/.cache/target).
"""

from __future__ import annotations

import csv
import json
import math
import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

import numpy as np
from scipy import stats

ROOT = Path(__file__).resolve().parent.parent
DATASETS = ROOT / "datasets"
TINY = ROOT / "analyze" / "tests" / "fixtures" / "tiny"
Q = 0.05


def analyze_binary() -> Path:
    target = Path(os.environ.get("CARGO_TARGET_DIR", Path.home() / ".cache" / "target"))
    return target / "release" / "analyze"


def compare(baseline: Path, candidate: Path, *args: str) -> tuple[dict, int]:
    done = subprocess.run(
        [analyze_binary(), "compare", baseline, candidate, "--format", "json", *args], capture_output=True, text=True
    )
    if done.returncode not in (0, 1):
        raise AssertionError(done.stderr)
    return json.loads(done.stdout), done.returncode


def ok_runs(dataset: Path) -> dict[str, str]:
    with open(dataset / "runs.csv", newline="") as f:
        return {row["run_id"]: row["status"] for row in csv.DictReader(f) if row["status"] == "ok"}


def p95_by_run(dataset: Path) -> dict[str, float]:
    """Each ok run's nearest-rank p95 of its 2xx latencies: the value at rank ceil(0.95 n)."""
    latencies: dict[str, list[float]] = {run: [] for run in ok_runs(dataset)}
    with open(dataset / "requests.csv", newline="") as f:
        for row in csv.DictReader(f):
            if row["run_id"] in latencies and 200 <= int(row["status"]) < 300:
                latencies[row["run_id"]].append(float(row["latency_ms"]))
    out = {}
    for run, values in latencies.items():
        values.sort()
        if values:
            out[run] = values[math.ceil(95 * len(values) / 100) - 1]
    return out


def failures_by_run(dataset: Path) -> dict[str, tuple[int, int]]:
    """Each ok run's requests and those without a 2xx response, from requests.csv."""
    counts: dict[str, list[int]] = {run: [0, 0] for run in ok_runs(dataset)}
    with open(dataset / "requests.csv", newline="") as f:
        for row in csv.DictReader(f):
            if row["run_id"] in counts:
                counts[row["run_id"]][0] += 1
                counts[row["run_id"]][1] += not (200 <= int(row["status"] or 0) < 300)
    return {run: (n, e) for run, (n, e) in counts.items()}


def dispersion(sides: list[list[tuple[int, int]]]) -> float:
    chi2, df = 0.0, 0
    for runs in sides:
        n, e = sum(r[0] for r in runs), sum(r[1] for r in runs)
        if n == 0 or e == 0 or e == n or len(runs) < 2:
            continue
        p = e / n
        chi2 += sum((re - rn * p) ** 2 / (rn * p * (1 - p)) for rn, re in runs)
        df += len(runs) - 1
    return max(1.0, chi2 / df) if df else 1.0


def fisher(a_errors: int, a_requests: int, b_errors: int, b_requests: int) -> float:
    """Twice the smaller tail of the hypergeometric distribution of b's errors, at most 1."""
    population, failed = a_requests + b_requests, a_errors + b_errors
    if population == 0 or failed in (0, population):
        return 1.0
    h = stats.hypergeom(population, failed, b_requests)
    return min(1.0, 2 * min(h.cdf(b_errors), h.sf(b_errors - 1)))


def tool_rate_by_run(dataset: Path) -> dict[str, float]:
    """Each ok run's requests/s as its tool printed it (dataset.toml: report.throughput_from = "tool")."""
    runs = ok_runs(dataset)
    with open(dataset / "run_stats.csv", newline="") as f:
        return {row["run_id"]: float(row["requests_per_s"]) for row in csv.DictReader(f) if row["run_id"] in runs}


def within(ratio: float, negligible: float) -> bool:
    return ratio > 0 and max(ratio, 1 / ratio) - 1 < negligible


class Compare(unittest.TestCase):
    def check_failures(self, report: dict, base_counts: dict, cand_counts: dict, gate: float | None) -> dict[str, str]:
        """Checks every condition's failures against scipy; returns the verdicts the failures decide."""
        margin = report["thresholds"]["error_share"]
        tested, decided = [], {}
        for c in report["conditions"]:
            label = c["condition_id"]
            sides = [[counts[r["run_id"]] for r in c[side]["runs"]] for side, counts in (("base", base_counts), ("cand", cand_counts))]
            f = c["failures"]
            for side, runs in zip(("base", "cand"), sides):
                self.assertEqual(f[side]["requests"], sum(r[0] for r in runs), label)
                self.assertEqual(f[side]["errors"], sum(r[1] for r in runs), label)
            (bn, be), (cn, ce) = [(sum(r[0] for r in runs), sum(r[1] for r in runs)) for runs in sides]
            if len(sides[0]) >= 2 and len(sides[1]) >= 2 and be + ce > 0:
                phi = dispersion(sides)
                self.assertAlmostEqual(f["dispersion"], phi, delta=1e-9 * phi, msg=label)
                p = fisher(*(round(x / phi) for x in (be, bn, ce, cn)))
                self.assertAlmostEqual(f["p"], p, delta=1e-9 + 1e-6 * p, msg=label)
                tested.append((c, p))
            else:
                self.assertIsNone(f["p"], label)
        adjusted = stats.false_discovery_control([p for _, p in tested], method="bh") if tested else []
        discovered = {id(c): bool(q <= Q) for (c, _), q in zip(tested, adjusted)}
        for c in report["conditions"]:
            f, label = c["failures"], c["condition_id"]
            self.assertEqual(f["fdr_supported"], discovered.get(id(c), False), label)
            difference = f["cand"]["errors"] / f["cand"]["requests"] - f["base"]["errors"] / f["base"]["requests"]
            if abs(difference) <= margin:
                verdict = "within"
            elif discovered.get(id(c), False):
                verdict = "rise" if difference > 0 else "fall"
            else:
                verdict = "not_shown"
            self.assertEqual(f["verdict"], verdict, label)
            if verdict != "within":
                self.assertEqual(c["decided_by"], "failures", label)
                decided[label] = {"rise": "supported_slower", "fall": "supported_faster", "not_shown": "not_shown"}[verdict]
                self.assertEqual(c["verdict"], decided[label], label)
                self.assertEqual(c["regression"], gate is not None and verdict == "rise", label)
        return decided

    def check(self, report: dict, exit_status: int, base_values: dict, cand_values: dict, gate: float | None) -> None:
        negligible = report["thresholds"]["negligible_difference"]
        higher = report["higher_is_better"]
        conditions = report["conditions"]
        samples = []
        for c in conditions:
            label = c["condition_id"]
            a = [base_values[r["run_id"]] for r in c["base"]["runs"]]
            b = [cand_values[r["run_id"]] for r in c["cand"]["runs"]]
            # The run values compare.json states are the datasets' own.
            for side, values in (("base", a), ("cand", b)):
                for stated, value in zip((r["value"] for r in c[side]["runs"]), values):
                    self.assertAlmostEqual(stated, value, delta=1e-9 * abs(value), msg=label)
                self.assertAlmostEqual(c[side]["median"], float(np.median(values)), delta=1e-6 * abs(np.median(values)), msg=label)
            samples.append((a, b))

        computed = []
        for a, b in samples:
            if min(len(a), len(b)) < 2 or min(a + b) <= 0:
                computed.append(None)
                continue
            la, lb = np.log(a), np.log(b)
            va, vb = np.var(la, ddof=1) / len(a), np.var(lb, ddof=1) / len(b)
            if va + vb == 0:
                computed.append(None)
                continue
            se = math.sqrt(va + vb)
            df = (va + vb) ** 2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1))
            d = lb.mean() - la.mean()
            p = float(stats.ttest_ind(lb, la, equal_var=False).pvalue)
            computed.append((d, se, df, p))
        with_p = [i for i, e in enumerate(computed) if e is not None]
        adjusted = stats.false_discovery_control([computed[i][3] for i in with_p], method="bh") if with_p else []
        discovered = {i: bool(q <= Q) for i, q in zip(with_p, adjusted)}
        # The false-coverage-rate level of each interval (Benjamini and Yekutieli 2005).
        selected = sum(discovered.values())
        for i in with_p:
            d, se, df, p = computed[i]
            level = 1 - (selected if discovered[i] else selected + 1) * Q / len(with_p)
            critical = stats.t.ppf(1 - (1 - level) / 2, df)
            computed[i] = (math.exp(d), math.exp(d - critical * se), math.exp(d + critical * se), p, level)
        self.assertEqual(report["summary"]["with_interval"], len(with_p))

        regressions = []
        for i, (c, e, (a, b)) in enumerate(zip(conditions, computed, samples)):
            label = c["condition_id"]
            n, m = len(a), len(b)
            chance = 2 / math.comb(n + m, n) if n >= 2 and m >= 2 else None
            self.assertEqual(c["chance_if_no_difference"] is None, chance is None, label)
            if chance is not None:
                self.assertAlmostEqual(c["chance_if_no_difference"], chance, delta=1e-15, msg=label)
            if e is None:
                self.assertIsNone(c["p_log_t"], label)
                self.assertEqual(c["verdict"], "not_shown", label)
                self.assertFalse(c["regression"], label)
                continue
            ratio, low, high, p, level = e
            self.assertAlmostEqual(c["ratio"], ratio, delta=1e-9 * ratio, msg=label)
            if c["decided_by"] == "failures":
                # Its verdict is the failures' (check_failures); the ratio is still the runs'.
                if c["regression"]:
                    regressions.append(label)
                continue
            self.assertAlmostEqual(c["ratio_low"], low, delta=1e-7 * low, msg=label)
            self.assertAlmostEqual(c["ratio_high"], high, delta=1e-7 * high, msg=label)
            self.assertAlmostEqual(c["p_log_t"], p, delta=1e-7 + 1e-6 * p, msg=label)
            self.assertEqual(c["fdr_supported"], discovered[i], label)
            self.assertAlmostEqual(c["interval_level"], level, delta=1e-12, msg=label)
            if within(low, negligible) and within(high, negligible):
                verdict = "negligible"
            elif discovered[i]:
                better = ratio > 1 if higher else ratio < 1
                verdict = "supported_faster" if better else "supported_slower"
            else:
                verdict = "not_shown"
            self.assertEqual(c["verdict"], verdict, label)
            beyond = gate is not None and (high < 1 - gate if higher else low > 1 + gate)
            regression = verdict == "supported_slower" and beyond
            self.assertEqual(c["regression"], regression, label)
            if regression:
                regressions.append(label)

            # A verdict never disagrees with its interval.
            self.assertEqual(low > 1 or high < 1, discovered[i], label)
            self.assertAlmostEqual(c["detectable"]["alpha"], 1 - level, delta=1e-12, msg=label)
            self.assertGreater(c["detectable"]["change"], 1, label)
            if gate is not None and not regression:
                limit = math.log(1 - gate) if higher else math.log(1 + gate)
                d = math.log(ratio)
                margin = limit - d if higher else d - limit
                self.assertEqual(c["regression_undecided"], margin > 0, label)

        self.assertEqual(report["summary"]["regressions"], regressions)
        self.assertEqual(exit_status, 1 if regressions else 0)

    def test_tiny_with_one_condition_failing_most_requests_fast(self):
        # direct/2's candidate runs answer 503 in 1 ms to 18 of their 20 requests: the p95 of the
        # two that succeed is the condition's, yet it is the worse side.
        with tempfile.TemporaryDirectory() as tmp:
            failing = Path(tmp) / "failing"
            shutil.copytree(TINY, failing)
            fail_requests(failing, {"r04", "r05", "r06"}, keep=2)
            report, status = compare(TINY, failing, "--fail-on-regression", "10%")
            decided = self.check_failures(report, failures_by_run(TINY), failures_by_run(failing), 0.1)
            self.check(report, status, p95_by_run(TINY), p95_by_run(failing), 0.1)
        self.assertEqual(decided, {"route=direct,downloads=2": "supported_slower"})
        self.assertEqual(report["summary"]["regressions"], ["route=direct,downloads=2"])
        self.assertEqual(status, 1)

    def test_tiny_with_one_condition_slowed_by_half(self):
        with tempfile.TemporaryDirectory() as tmp:
            slowed = Path(tmp) / "slowed"
            shutil.copytree(TINY, slowed)
            scale_latencies(slowed, {"r04": 1.5, "r05": 1.5, "r06": 1.5})
            report, status = compare(TINY, slowed, "--fail-on-regression", "10%")
            self.assertEqual(self.check_failures(report, failures_by_run(TINY), failures_by_run(slowed), 0.1), {})
            self.check(report, status, p95_by_run(TINY), p95_by_run(slowed), 0.1)
        self.assertEqual(report["summary"]["regressions"], ["route=direct,downloads=2"])

    def test_the_model_study_against_a_copy_with_known_changes(self):
        # direct/2 sync 40% faster, nginx-off/2 30% slower, and every run jittered by a few per cent.
        rng = np.random.default_rng(20261201)
        study = DATASETS / "gunicorn-slow-client"
        with tempfile.TemporaryDirectory() as tmp:
            changed = Path(tmp) / "changed"
            shutil.copytree(study, changed)
            effect = {("direct", "2", "sync"): 0.6, ("nginx-off", "2", "sync"): 1.3}
            factors = {}
            with open(study / "runs.csv", newline="") as f:
                for row in csv.DictReader(f):
                    factors[row["run_id"]] = (row["route"], row["downloads"], row["worker"])
            scale_latencies(changed, {run: effect.get(key, 1.0) * math.exp(rng.normal(0, 0.03)) for run, key in factors.items()})
            report, status = compare(study, changed, "--fail-on-regression", "10%")
            self.check(report, status, p95_by_run(study), p95_by_run(changed), 0.1)
        verdicts = {c["condition_id"]: c["verdict"] for c in report["conditions"]}
        self.assertEqual(verdicts["route=direct,downloads=2,worker=sync"], "supported_faster")
        self.assertEqual(len(report["conditions"]), 10)

    def test_requests_per_s_where_a_fall_is_the_regression(self):
        study = DATASETS / "app-servers-ab"
        with tempfile.TemporaryDirectory() as tmp:
            changed = Path(tmp) / "changed"
            shutil.copytree(study, changed)
            path = changed / "run_stats.csv"
            with open(path, newline="") as f:
                rows = list(csv.DictReader(f))
            with open(study / "runs.csv", newline="") as f:
                server = {row["run_id"]: row["server"] for row in csv.DictReader(f)}
            # uWSGI 2x1 serves 30% fewer requests/s; the rest as measured.
            for row in rows:
                if server[row["run_id"]] == "uwsgi-2x1":
                    row["requests_per_s"] = f"{float(row['requests_per_s']) * 0.7:.2f}"
            with open(path, "w", newline="") as f:
                writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
                writer.writeheader()
                writer.writerows(rows)
            report, status = compare(study, changed, "--fail-on-regression", "10")
            self.check(report, status, tool_rate_by_run(study), tool_rate_by_run(changed), 0.1)
        self.assertTrue(report["higher_is_better"])
        uwsgi = sorted(c["condition_id"] for c in report["conditions"] if c["factors"]["server"] == "uwsgi-2x1")
        self.assertEqual(len(uwsgi), 2)
        self.assertEqual(sorted(report["summary"]["regressions"]), uwsgi)

    @unittest.skipUnless((DATASETS / "gunicorn-slow-client-rerun").is_dir(), "the re-measurement is not committed yet")
    def test_the_model_study_against_its_re_measurement(self):
        study, rerun = DATASETS / "gunicorn-slow-client", DATASETS / "gunicorn-slow-client-rerun"
        report, status = compare(study, rerun, "--fail-on-regression", "10%")
        self.check(report, status, p95_by_run(study), p95_by_run(rerun), 0.1)
        self.assertEqual(report["summary"]["matched"], 10)


def fail_requests(dataset: Path, runs: set[str], keep: int) -> None:
    """Every request of these runs but the `keep` fastest answers 503 in 1 ms."""
    path = dataset / "requests.csv"
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = list(reader)
    latency, status = header.index("latency_ms"), header.index("status")
    by_run: dict[str, list[list[str]]] = {}
    for row in rows:
        if row[0] in runs and row[latency]:
            by_run.setdefault(row[0], []).append(row)
    for run_rows in by_run.values():
        for row in sorted(run_rows, key=lambda r: float(r[latency]), reverse=True)[: len(run_rows) - keep]:
            row[latency], row[status] = "1.000", "503"
    with open(path, "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def scale_latencies(dataset: Path, factor_by_run: dict[str, float]) -> None:
    """Multiplies every latency of requests.csv by its run's factor (three decimals, as written)."""
    path = dataset / "requests.csv"
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = list(reader)
    latency = header.index("latency_ms")
    for row in rows:
        factor = factor_by_run.get(row[0], 1.0)
        if row[latency] and factor != 1.0:
            row[latency] = f"{float(row[latency]) * factor:.3f}"
    with open(path, "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


if __name__ == "__main__":
    unittest.main()
