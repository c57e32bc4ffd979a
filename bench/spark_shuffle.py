#!/usr/bin/env python3
"""Measures the shuffle of the Spark job's aggregates (bench/SPARK.md, "Shuffle volume per run").

    spark/.venv/bin/python bench/spark_shuffle.py [bench/data/parquet-10000000]

Runs, in local[2], run_stats (six percentile_disc and the counts), one percentile_disc alone and
the ECDF's (run, value) counts, each to Spark's no-op sink, and prints the shuffle bytes written,
summed over the stages in Spark's monitoring API (the UI listens on 127.0.0.1 only).
"""

import json
import sys
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "spark"))

import analyze_level1 as level1  # noqa: E402

PORT = 4471


def main() -> int:
    dataset = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "bench" / "data" / "parquet-10000000")
    builder = (
        level1.SparkSession.builder.master("local[2]")
        .config("spark.driver.memory", "2g")
        .config("spark.sql.shuffle.partitions", "8")
        .config("spark.ui.port", str(PORT))
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
    )
    spark = level1.session(builder=builder)
    spark.sparkContext.setLogLevel("ERROR")
    app = spark.sparkContext.applicationId

    def written() -> int:
        with urllib.request.urlopen(f"http://127.0.0.1:{PORT}/api/v1/applications/{app}/stages") as r:
            return sum(stage.get("shuffleWriteBytes", 0) for stage in json.load(r))

    requests, _ = level1.read_requests(spark, dataset)
    runs = level1.read_runs(spark, dataset)
    aggregates = {
        "run_stats (six percentile_disc, counts, min, max, lag)": lambda: level1.run_stats(spark, requests, runs, level1.DEFAULT_HEADLINE),
        "one percentile_disc": lambda: spark.sql(
            "SELECT run_id, percentile_disc(0.95) WITHIN GROUP (ORDER BY latency_ms) FROM level1_requests"
            " WHERE latency_ms IS NOT NULL AND status BETWEEN 200 AND 299 GROUP BY run_id"
        ),
        "(run, value) counts": lambda: level1.ok_rows(requests).groupBy("run_id", "latency_ms").count(),
    }
    pairs = level1.ok_rows(requests).select("run_id", "latency_ms").distinct().count()
    print(f"{dataset}: {pairs:,} distinct (run, 2xx latency) pairs")
    for name, make in aggregates.items():
        before = written()
        make().write.mode("overwrite").format("noop").save()
        size = written() - before
        print(f"{name}: {size / 1e6:.1f} MB shuffle written, {size / pairs:.1f} bytes per distinct pair")
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
