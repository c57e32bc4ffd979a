"""The variance review's verdicts against an independent computation with scipy.

analyze writes each comparison's ratio of geometric means, its 95% interval from Welch's t on the
logs, its p, the Benjamini-Hochberg decision and the verdict into summary.json. Here they are
recomputed from the run values in the same summary.json with scipy (ttest_ind with
equal_var=False, t.ppf, false_discovery_control), and every decision is compared.

    bench/.venv/bin/python -m unittest bench/test_verdicts.py

Needs the analyze binary (`cargo build --release`, found through CARGO_TARGET_DIR or
~/.cache/target); `just bench-test` builds it first.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import tempfile
import unittest
from pathlib import Path

import numpy as np
from scipy import stats

ROOT = Path(__file__).resolve().parent.parent
DATASETS = ROOT / "datasets"
Q = 0.05


def analyze_binary() -> Path:
    target = Path(os.environ.get("CARGO_TARGET_DIR", Path.home() / ".cache" / "target"))
    return target / "release" / "analyze"


def summary_of(dataset: Path, out: Path) -> dict:
    subprocess.run([analyze_binary(), "report", dataset, "--out", out, "--lang", "en"], check=True, capture_output=True)
    return json.loads((out / "summary.json").read_text())


def expected(values_a: list[float], values_b: list[float]):
    """(ratio, low, high, p), or None where no interval exists."""
    if min(len(values_a), len(values_b)) < 2 or min(values_a + values_b) <= 0:
        return None
    a, b = np.log(values_a), np.log(values_b)
    if np.var(a, ddof=1) == 0 and np.var(b, ddof=1) == 0:
        return None
    test = stats.ttest_ind(b, a, equal_var=False)
    va, vb = np.var(a, ddof=1) / len(a), np.var(b, ddof=1) / len(b)
    se = math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1))
    critical = stats.t.ppf(0.975, df)
    d = b.mean() - a.mean()
    return math.exp(d), math.exp(d - critical * se), math.exp(d + critical * se), float(test.pvalue)


def within(ratio: float, negligible: float) -> bool:
    return ratio > 0 and max(ratio, 1 / ratio) - 1 < negligible


class Verdicts(unittest.TestCase):
    def check_dataset(self, name: str) -> list[dict]:
        with tempfile.TemporaryDirectory() as tmp:
            summary = summary_of(DATASETS / name, Path(tmp) / "out")
        review = summary["variance"]
        values = {c["condition_id"]: [r["value_ms"] for r in c["runs"]] for c in review["conditions"]}
        negligible = review["thresholds"]["negligible_difference"]
        comparisons = review["comparisons"]
        computed = [expected(values[c["a_id"]], values[c["b_id"]]) for c in comparisons]
        with_p = [i for i, e in enumerate(computed) if e is not None]
        adjusted = stats.false_discovery_control([computed[i][3] for i in with_p], method="bh") if with_p else []
        discovered = {i: bool(q <= Q) for i, q in zip(with_p, adjusted)}
        for i, (c, e) in enumerate(zip(comparisons, computed)):
            label = f"{name}: {c['a_id']} vs {c['b_id']}"
            if e is None:
                self.assertIsNone(c["p_log_t"], label)
                self.assertEqual(c["verdict"], "not_shown", label)
                continue
            ratio, low, high, p = e
            self.assertAlmostEqual(c["ratio"], ratio, delta=1e-9 * ratio, msg=label)
            self.assertAlmostEqual(c["ratio_low"], low, delta=1e-7 * low, msg=label)
            self.assertAlmostEqual(c["ratio_high"], high, delta=1e-7 * high, msg=label)
            self.assertAlmostEqual(c["p_log_t"], p, delta=1e-7 + 1e-6 * p, msg=label)
            self.assertEqual(c["fdr_supported"], discovered[i], label)
            # Negligible only by equivalence (issue 48): the whole interval within the threshold.
            if within(low, negligible) and within(high, negligible):
                verdict = "negligible"
            elif discovered[i]:
                verdict = "supported"
            else:
                verdict = "not_shown"
            self.assertEqual(c["verdict"], verdict, label)
        return comparisons

    def test_app_servers_ab_every_comparison_supported(self):
        comparisons = self.check_dataset("app-servers-ab")
        self.assertEqual(len(comparisons), 16)
        self.assertTrue(all(c["verdict"] == "supported" for c in comparisons))

    def test_gunicorn_slow_client_four_largest_gaps_supported(self):
        comparisons = self.check_dataset("gunicorn-slow-client")
        largest = sorted(comparisons, key=lambda c: -max(c["ratio"], 1 / c["ratio"]))[:4]
        self.assertTrue(all(c["verdict"] == "supported" for c in largest), largest)

    def test_every_other_committed_dataset(self):
        for name in ("gthread-python-versions", "fastcgi-vs-gunicorn", "tools-compared"):
            self.check_dataset(name)


if __name__ == "__main__":
    unittest.main()
