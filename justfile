# Every recipe shares the release profile, so polars is built once per machine.
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
    just report
    just browser-test

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

# Re-run the slow-download study against real Gunicorn and nginx on loopback (6-8 minutes).
measure *args: build
    {{bin}}/measure run {{args}}

fmt:
    cargo fmt --all

fmt-check:
    cargo fmt --all -- --check

lint:
    cargo clippy --release --workspace --all-targets -- -D warnings

# What CI runs.
ci: fmt-check lint test
