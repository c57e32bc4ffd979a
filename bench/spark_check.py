#!/usr/bin/env python3
"""Checks the Spark job's output of a benchmark dataset against analyze's, as spark-test does.

    spark/.venv/bin/python bench/spark_check.py LEVEL1_DIR SUMMARY_JSON [DATASET CHART_INPUTS_BIN]

LEVEL1_DIR is what spark/analyze_level1.py wrote, SUMMARY_JSON the summary.json of `analyze report`
on the same rows. Every run_stats count, percentile and rank and every status count must equal
analyze's (spark/tests/test_level1.py's assert_same_statistics); given the dataset and the
chart_inputs example (cargo build --release -p analyze --example chart_inputs), every ECDF,
time-series and error-mark point too (assert_same_charts). Prints `agree: ...` and exits 0, or
raises at the first difference. bench/spark_compare.py runs it after its timings.
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "spark" / "tests"))

import test_level1  # noqa: E402  (puts spark/ on the path through conftest)
from analyze_level1 import SparkSession, session  # noqa: E402


def main(argv: list[str]) -> int:
    if len(argv) not in (2, 4):
        print(__doc__, file=sys.stderr)
        return 2
    level1, summary = Path(argv[0]), json.loads(Path(argv[1]).read_text())
    builder = (
        SparkSession.builder.master("local[2]")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.memory", "2g")
    )
    spark = session(builder=builder)
    spark.sparkContext.setLogLevel("ERROR")
    try:
        test_level1.assert_same_statistics(spark, level1, summary)
        checked = f"{len(summary['runs'])} runs: every count, percentile, rank and status count equal"
        if len(argv) == 4:
            charts = test_level1.analyze_charts(argv[3], Path(argv[2]))
            test_level1.assert_same_charts(spark, level1, charts)
            points = sum(len(run["time_series"]["points"]) for run in charts.values())
            checked += f"; every chart point equal ({points:,} time-series points)"
    finally:
        spark.stop()
    print(f"agree: {checked}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
