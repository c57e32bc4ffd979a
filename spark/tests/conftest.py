"""One local[2] SparkSession for the whole test session, and analyze's binaries."""

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "spark"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import analyze_level1  # noqa: E402


def release_dir() -> Path:
    target = os.environ.get("CARGO_TARGET_DIR") or str(Path.home() / ".cache" / "target")
    return Path(target) / "release"


@pytest.fixture(scope="session")
def spark():
    session = (
        analyze_level1.SparkSession.builder.master("local[2]")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        # Two cores and test-sized data: a few shuffle partitions, not the cluster default of 200.
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.driver.memory", "1g")
    )
    spark = analyze_level1.session(builder=session)
    spark.sparkContext.setLogLevel("ERROR")
    yield spark
    spark.stop()


@pytest.fixture(scope="session")
def analyze_bin() -> Path:
    path = release_dir() / "analyze"
    if not path.exists():
        pytest.fail(f"{path} is missing: `just spark-test` builds it (cargo build --release -p analyze)")
    return path


@pytest.fixture(scope="session")
def chart_inputs_bin() -> Path:
    path = release_dir() / "examples" / "chart_inputs"
    if not path.exists():
        pytest.fail(f"{path} is missing: `just spark-test` builds it (cargo build --release -p analyze --example chart_inputs)")
    return path
