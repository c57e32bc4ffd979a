"""Self-tests of bench/spark_compare.py: the timing waits for every process a command leaves behind
and keeps a failure's stderr, and SPARK_RESULTS.md's ratios are of the medians.

    bench/.venv/bin/python -m unittest discover -s bench -p 'test_*.py'
"""

import tempfile
import unittest
from pathlib import Path

import spark_compare


def sample(wall, cpu, exit_code=0, **extra):
    return {"wall_s": wall, "cpu_s": cpu, "max_rss_kib": 1024 * 100, "exit_code": exit_code,
            "start_utc": "03:00:00", "load1": [1.0, 2.0], **extra}


class RunTree(unittest.TestCase):
    def test_waits_for_a_process_that_outlives_the_command_and_keeps_its_exit_status(self):
        with tempfile.TemporaryDirectory() as tmp:
            stderr = Path(tmp) / "err.log"
            # The shell exits at once with 3; the sleep it started goes on for 0.5 s, as
            # spark-submit's JVM outlives its launcher.
            s = spark_compare.run_tree(["sh", "-c", "sleep 0.5 & echo failing >&2; exit 3"], stderr)
            self.assertEqual(s.exit_code, 3)
            self.assertGreaterEqual(s.wall_s, 0.5)
            self.assertEqual(stderr.read_text(), "failing\n")

    def test_a_failed_sample_keeps_the_end_of_its_stderr(self):
        with tempfile.TemporaryDirectory() as tmp:
            s = spark_compare.sample("analyze check", ["sh", "-c", "echo java.lang.OutOfMemoryError >&2; exit 56"],
                                     Path(tmp) / "err.log")
            self.assertEqual(s["exit_code"], 56)
            self.assertIn("java.lang.OutOfMemoryError", s["stderr_tail"])


class Render(unittest.TestCase):
    def entries(self):
        return {"parquet-10": {
            "rows": 10, "format": "parquet", "date_utc": "2026-12-01 03:00", "driver_memory": "2g",
            "wrappers": {"analyze": "quiet", "spark": "nice"}, "level1_of": "2026-12-01 03:00", "check": "agree: 30 runs",
            "tools": {
                "analyze check": [sample(1.0, 1.5), sample(3.0, 1.5), sample(2.0, 1.5)],
                "analyze report": [sample(2.0, 3.0), sample(4.0, 3.0), sample(9.0, 3.0)],
                spark_compare.SPARK: [sample(300.0, 600.0), sample(500.0, 400.0),
                                      sample(99.0, 9.0, exit_code=56, stderr_tail="Java heap space")],
            },
        }}

    def test_ratios_are_of_the_medians_of_successful_runs_in_wall_and_cpu_time(self):
        text = spark_compare.render(self.entries())
        # Spark: median of 300 and 500 s is 400 s, over analyze report's median of 4 s; CPU 500 over 3.
        self.assertIn("| 10 | parquet | spark local[2] | 2 (+1 failed) | 400 (300-500) | 500 | 100 | 100x (CPU 167x) |", text)
        self.assertIn("| 10 | parquet | analyze check | 3 | 2.0 (1.0-3.0) | 1.5 | 100 | 0.50x (CPU 0.50x) |", text)

    def test_a_failed_job_is_listed_with_its_exit_status_and_stderr(self):
        text = spark_compare.render(self.entries())
        self.assertIn("exit 56 after 99.0 s (driver memory 2g); end of stderr: `Java heap space`", text)
        self.assertIn("agree: 30 runs", text)


if __name__ == "__main__":
    unittest.main()
