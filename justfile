# Every recipe shares the release profile, so the dependencies are built once per machine.
# CI (.ci/run) calls `just ci`; nothing here is conditional.

export CARGO_TARGET_DIR := env_var_or_default("CARGO_TARGET_DIR", env_var("HOME") + "/.cache/target")
bin := CARGO_TARGET_DIR + "/release"

# List the recipes.
default:
    @just --list

# Build every binary of the workspace (release profile, shared by report, test and bench).
build:
    cargo build --release --workspace

# Render every dataset under datasets/ into site/ (both languages) and open nothing.
report: build
    {{bin}}/analyze site datasets --out site

# Check one dataset without writing anything: just check datasets/gunicorn-slow-client
check dataset="datasets/gunicorn-slow-client": build
    {{bin}}/analyze check {{dataset}}

# Unit, snapshot and end-to-end tests, then the built site in headless Chromium.
test: build
    cargo test --release --workspace
    just bench-test
    just spark-test
    just report
    just browser-test
    just browser-checker-test

# The browser checker's own tests: fixture sites it must pass and fail.
browser-checker-test: python-tools
    .venv/bin/python -m pytest tests/browser -q -p no:cacheprovider

# Open every page of site/ in headless Chromium; fails on console errors, broken links or images.
browser-test: python-tools
    .venv/bin/python tests/browser/check_site.py site --screenshots target/screenshots

# The Python tools of the browser test (a git-ignored virtual environment).
python-tools:
    test -x .venv/bin/python || python3 -m venv .venv
    .venv/bin/pip install --quiet --disable-pip-version-check -r tests/browser/requirements.txt

# Preview site/ on http://127.0.0.1:8000 with a plain static server.
serve port="8000":
    python3 -m http.server --bind 127.0.0.1 --directory site {{port}}

# Run a plan of measure/plans (README there lists them with their durations); default: the slow-download
# study against real Gunicorn and nginx on loopback (6-8 minutes). E.g. just measure measure/plans/fastcgi-vs-gunicorn.toml
measure plan="measure/plans/study.toml" *args: build
    {{bin}}/measure run --plan {{plan}} {{args}}

# Benchmark analyze against DuckDB and polars on generated data (bench/README.md): 1M, 10M and 100M
# rows (100M only when the disk has room for its 6.5 GB), or the sizes given; and the import case:
# `analyze import` of a 10M-row hey CSV against DuckDB loading it (import_size="" leaves it out);
# at 10M also one Parquet file against the same rows as a hive-partitioned folder (bench/hive.py).
bench size="1000000 10000000 100000000" import_size="10000000": build bench-tools
    #!/usr/bin/env bash
    set -euo pipefail
    sizes=()
    for n in {{size}}; do
        status=0
        bench/.venv/bin/python bench/generate.py --rows "$n" --skip-if-no-room || status=$?
        case $status in
            0) sizes+=("$n") ;;
            75) ;; # no room on disk: generate.py said so
            *) exit "$status" ;;
        esac
    done
    import_sizes=()
    for n in {{import_size}}; do
        status=0
        bench/.venv/bin/python bench/generate_hey.py --rows "$n" --skip-if-no-room || status=$?
        case $status in
            0) import_sizes+=("$n") ;;
            75) ;; # no room on disk: generate_hey.py said so
            *) exit "$status" ;;
        esac
    done
    cases=()
    if [ ${#sizes[@]} -gt 0 ]; then cases+=(stats); else sizes=(0); fi
    if [ ${#import_sizes[@]} -gt 0 ]; then cases+=(import); else import_sizes=(0); fi
    bench/.venv/bin/python bench/run.py --cases "${cases[@]}" --rows "${sizes[@]}" --import-rows "${import_sizes[@]}"
    if [[ " ${sizes[*]} " == *" 10000000 "* ]]; then bench/.venv/bin/python bench/hive.py --rows 10000000; fi

# Self-tests of the benchmark's reference implementations (DuckDB's quantile_disc rank, polars).
bench-test: bench-tools
    bench/.venv/bin/python -m unittest discover -s bench -p 'test_*.py'

# The benchmark's Python tools (a git-ignored virtual environment).
bench-tools:
    test -x bench/.venv/bin/python || python3 -m venv bench/.venv
    bench/.venv/bin/pip install --quiet --disable-pip-version-check -r bench/requirements.txt

# Level 1 (per-run statistics and chart inputs) on Apache Spark in local mode (spark/README.md):
# just spark datasets/gunicorn-slow-client /tmp/level1. IN and OUT may be any Spark-readable URI.
spark in out: spark-tools
    PYSPARK_PYTHON=spark/.venv/bin/python spark/.venv/bin/spark-submit --master "local[2]" \
        --driver-memory 2g --conf spark.ui.showConsoleProgress=false --conf spark.sql.shuffle.partitions=8 \
        spark/analyze_level1.py {{in}} {{out}}

# The Spark job against analyze on the default dataset, the rank traps and hive-partitioned Parquet.
spark-test: build spark-tools
    cargo build --release -p analyze --example chart_inputs
    spark/.venv/bin/python -m pytest spark/tests -q -p no:cacheprovider

# A pinned pyspark in a git-ignored virtual environment, and a Java runtime (Debian's) when missing.
spark-tools:
    command -v java >/dev/null 2>&1 || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y openjdk-17-jre-headless)
    test -x spark/.venv/bin/python || python3 -m venv spark/.venv
    spark/.venv/bin/pip install --quiet --disable-pip-version-check -r spark/requirements.txt

fmt:
    cargo fmt --all

fmt-check:
    cargo fmt --all -- --check

lint:
    cargo clippy --release --workspace --all-targets -- -D warnings

# What CI runs.
ci: fmt-check lint test
