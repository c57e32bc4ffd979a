# Every recipe shares the release profile and one feature set per dependency (`just one-build`), so
# each dependency is built once per machine. CI (.ci/run) calls `just test`; nothing here is conditional.

export CARGO_TARGET_DIR := env_var_or_default("CARGO_TARGET_DIR", env_var("HOME") + "/.cache/target")
bin := CARGO_TARGET_DIR + "/release"

# Marks every process started during one `just test` (inherited by the recipes it calls and by every
# process a test starts), so its last step, `just leftover-processes`, can tell what a test left running.
# The Rust tests also get their own temporary folder (TMPDIR), which every server's run folder and every
# test's files are in: a process that rewrites its environment (nginx's title does) still names it.
export MEASURE_TEST_RUN := env_var_or_default("MEASURE_TEST_RUN", "just-test-" + uuid())
test_tmp := "/tmp/" + MEASURE_TEST_RUN

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

# Every check and test, installing what it lacks: the Debian packages (as root; else it names them),
# formatting, clippy, the Rust unit/snapshot/end-to-end tests (measure against real servers), the
# set-up's own tests, the benchmark's and the Spark job's references, then the built site in Chromium.
test: system-packages node-tools fmt-check one-build lint build
    mkdir -p {{test_tmp}} && TMPDIR={{test_tmp}} cargo test --release --workspace
    just system-packages-test
    just bench-test
    just spark-test
    just report
    just browser-test
    just browser-checker-test
    just leftover-processes

# Fails, naming them, when processes started during this `just test` are still running: a server, load
# tool, supervisor or browser a test left behind. A process counts when its environment carries
# MEASURE_TEST_RUN (every process started from `just test` inherits it), when its command line names the
# Rust tests' TMPDIR (the run folder of a server that rewrote its environment, as nginx's master does), or
# when its parent counts (nginx's workers). This recipe and its callers are not counted; processes still
# exiting get 5 s. The folder is removed when nothing is left.
leftover-processes:
    #!/usr/bin/env bash
    set -euo pipefail
    mark="MEASURE_TEST_RUN=$MEASURE_TEST_RUN"
    folder={{quote(test_tmp)}}
    ancestors=" "
    pid=$$
    while [ "$pid" -gt 1 ] 2>/dev/null; do
        ancestors+="$pid "
        read -r stat 2>/dev/null <"/proc/$pid/stat" || break
        read -r _state pid _ <<<"${stat##*) }"
    done
    # Only shell builtins in the scan: it starts no process that could count itself.
    left() {
        local dir pid stat state ppid var round
        local -A parent=() title=() counted=()
        for dir in /proc/[0-9]*; do
            pid=${dir#/proc/}
            [[ "$ancestors" == *" $pid "* ]] && continue
            read -r stat 2>/dev/null <"$dir/stat" || continue
            read -r state ppid _ <<<"${stat##*) }"
            [ "$state" != Z ] && [ "$ppid" != $$ ] || continue
            mapfile -d '' cmdline 2>/dev/null <"$dir/cmdline" || continue
            parent[$pid]=$ppid
            title[$pid]="${cmdline[*]}"
            [[ "${title[$pid]}" == *"$folder"* ]] && counted[$pid]=1 && continue
            mapfile -d '' environ 2>/dev/null <"$dir/environ" || continue
            for var in "${environ[@]}"; do
                [ "$var" = "$mark" ] && counted[$pid]=1 && break
            done
        done
        for round in 1 2 3; do
            for pid in "${!parent[@]}"; do
                [ -n "${counted[${parent[$pid]}]:-}" ] && counted[$pid]=1
            done
        done
        for pid in "${!counted[@]}"; do
            echo "  pid $pid: ${title[$pid]}"
        done
    }
    for _ in $(seq 50); do
        found=$(left)
        if [ -z "$found" ]; then
            rm -rf "$folder"
            echo "no process of this test run is left"
            exit 0
        fi
        sleep 0.1
    done
    echo "error: processes started by the tests are still running ($mark, or naming $folder):" >&2
    echo "$found" >&2
    exit 1

# The Node load generators of measure's autocannon test (tools/node/package.json and its lock file;
# node_modules is git-ignored): npm ci without install scripts. Without npm it says so, and that test is
# skipped with a notice.
node-tools:
    #!/usr/bin/env bash
    set -euo pipefail
    if ! command -v npm >/dev/null; then
        echo "npm is not installed (apt-get install -y npm): measure's autocannon test will be skipped"
        exit 0
    fi
    cd tools/node && npm ci --ignore-scripts --no-audit --no-fund --silent

# The browser checker's own tests: fixture sites it must pass and fail.
browser-checker-test: python-tools (system-packages "chromium" "chromium-driver" "fonts-noto-cjk")
    .venv/bin/python -m pytest tests/browser -q -p no:cacheprovider

# Open every page of site/ in headless Chromium; fails on console errors, broken links or images.
browser-test: python-tools (system-packages "chromium" "chromium-driver" "fonts-noto-cjk")
    .venv/bin/python tests/browser/check_site.py site --screenshots target/screenshots

# The Python tools of the browser test (a git-ignored virtual environment).
python-tools: (system-packages "python3-venv")
    test -x .venv/bin/python || python3 -m venv .venv
    .venv/bin/pip install --quiet --disable-pip-version-check -r tests/browser/requirements.txt

# Preview site/ on http://127.0.0.1:8000 with a plain static server.
serve port="8000":
    python3 -m http.server --bind 127.0.0.1 --directory site {{port}}

# Run a plan of measure/plans (README there lists them with their durations); default: the slow-download
# study against real Gunicorn and nginx on loopback (6-8 minutes). E.g. just measure measure/plans/fastcgi-vs-gunicorn.toml
measure plan="measure/plans/study.toml" *args: build (system-packages "nginx-light" "uwsgi" "uwsgi-plugin-python3" "apache2-utils" "hey" "wrk" "siege" "python3-venv")
    {{bin}}/measure run --plan {{plan}} {{args}}

# What hostile datasets cost (issue 26): 20M identical or whole-ms latencies in one run, 100,000
# one-request runs; report vs check in the same rounds (bench/cost.py, bench/COST_RESULTS.md).
bench-cost reps="5": build
    python3 bench/cost.py --reps {{reps}}

# measure's open-loop client beside `oha -q` on the same nginx (issue 47): the highest rate each holds with
# send lag p99 under 1 ms, new connection per request and kept alive (bench/open_loop.py,
# bench/OPEN_LOOP_RESULTS.md). oha is installed with cargo when missing (its own target dir).
bench-open-loop rates="5000 10000 20000 30000 40000" seconds="5": (system-packages "nginx-light")
    command -v oha >/dev/null || test -x "$HOME/.cargo/bin/oha" || CARGO_TARGET_DIR="$HOME/.cache/target-oha" cargo install --locked oha
    cargo build --release -p measure
    python3 bench/open_loop.py --rates {{rates}} --seconds {{seconds}}

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
    python3 bench/history.py

# Issue 37's target: analyze history over 1,000 generated measurements of 10 conditions in under 1 s
# (bench/history.py, bench/HISTORY_RESULTS.md); `just bench` runs it last.
bench-history measurements="1000" reps="5": build
    python3 bench/history.py --measurements {{measurements}} --reps {{reps}}

# Self-tests of the benchmark's reference implementations (DuckDB's quantile_disc rank, polars).
bench-test: build bench-tools
    bench/.venv/bin/python -m unittest discover -s bench -p 'test_*.py'

# The benchmark's Python tools (a git-ignored virtual environment).
bench-tools: (system-packages "python3-venv")
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

# A pinned pyspark in a git-ignored virtual environment, and Debian's Java runtime.
spark-tools: (system-packages "openjdk-17-jre-headless" "python3-venv")
    test -x spark/.venv/bin/python || python3 -m venv spark/.venv
    spark/.venv/bin/pip install --quiet --disable-pip-version-check -r spark/requirements.txt

fmt:
    cargo fmt --all

fmt-check:
    cargo fmt --all -- --check

lint:
    cargo clippy --release --workspace --all-targets -- -D warnings

# What CI runs (.ci/run): the same as `just test`, which checks formatting and runs clippy too.
ci: test

# Fails, naming the crate, when a dependency would be compiled twice: `cargo build --workspace` (every
# recipe), `cargo test --workspace` and the example spark-test builds (`-p analyze` with its
# dev-dependencies) must give each dependency they share the same features (analyze/Cargo.toml says how).
one-build:
    #!/usr/bin/env bash
    set -euo pipefail
    features() { cargo tree --locked --prefix none --format '{p} [{f}]' "$@" | sed 's/ (\*)$//' | sort -u; }
    dir=$(mktemp -d)
    trap 'rm -rf "$dir"' EXIT
    features -e normal,build --workspace >"$dir/build"
    features -e normal,build,dev --workspace >"$dir/test"
    features -e normal,build,dev -p analyze >"$dir/example"
    status=0
    for other in test example; do
        # Crates in both builds whose lines (one per feature set) differ.
        awk -F' \\[' 'NR == FNR { a[$1] = a[$1] "[" $2; next } { b[$1] = b[$1] "[" $2 }
            END { for (k in b) if (k in a && a[k] != b[k]) print k }' "$dir/build" "$dir/$other" | sort >"$dir/drift"
        while read -r crate; do
            status=1
            echo "error: $crate has other features in the $other build than in cargo build --workspace:" >&2
            grep -F "$crate [" "$dir/build" | sed 's/^/  build:   /' >&2
            grep -F "$crate [" "$dir/$other" | sed "s/^/  $(printf '%-8s' "$other:") /" >&2
        done <"$dir/drift"
    done
    [ "$status" -ne 0 ] || echo "one feature set per dependency: cargo build --workspace, cargo test --workspace and -p analyze --example agree"
    exit "$status"

# The Debian packages the tests use, each with the file of it that they use. `system-packages` checks
# them all (`just test`); a recipe that needs only some names them. nginx-light, uWSGI and its Python 3
# plugin, ab, hey, wrk and siege: measure's servers and load tools (wrk and siege drive command plans);
# python3-venv: every virtual environment; Java 17:
# the Spark job (pyspark 4 needs 17 or newer); Chromium, its driver and a CJK font (Japanese text, not
# boxes): the browser test.
system_packages := '''
    nginx-light /usr/sbin/nginx
    uwsgi /usr/bin/uwsgi
    uwsgi-plugin-python3 /usr/lib/uwsgi/plugins/python3_plugin.so
    apache2-utils /usr/bin/ab
    hey /usr/bin/hey
    wrk /usr/bin/wrk
    siege /usr/bin/siege
    python3-venv /usr/lib/python3*/ensurepip/__init__.py
    openjdk-17-jre-headless /usr/bin/java
    chromium /usr/bin/chromium
    chromium-driver /usr/bin/chromedriver
    fonts-noto-cjk /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
'''

# Installs the missing ones of those Debian packages (all, or the ones named) when run as root; else
# names them with the apt-get line and fails. SYSTEM_PACKAGES_ROOT (default /) is where their files are
# looked for: the set-up's tests point it at a temporary folder.
system-packages *packages:
    #!/usr/bin/env bash
    set -euo pipefail
    root="${SYSTEM_PACKAGES_ROOT:-}"
    wanted=({{packages}})
    declare -A file_of
    order=()
    while read -r package file; do
        [ -n "$package" ] || continue
        file_of[$package]=$file
        order+=("$package")
    done <<'LIST'
    {{system_packages}}
    LIST
    for package in "${wanted[@]}"; do
        [ -n "${file_of[$package]:-}" ] || { echo "error: system-packages: $package is not one of: ${order[*]}" >&2; exit 2; }
    done
    [ ${#wanted[@]} -gt 0 ] || wanted=("${order[@]}")
    # The wanted packages whose file is not under $root, in the list's order.
    missing() {
        local package
        for package in "${order[@]}"; do
            [[ " ${wanted[*]} " == *" $package "* ]] || continue
            compgen -G "$root${file_of[$package]}" >/dev/null || echo "$package"
        done
    }
    mapfile -t absent < <(missing)
    [ ${#absent[@]} -gt 0 ] || exit 0
    if [ "$(id -u)" != 0 ]; then
        echo "error: these Debian packages are missing: ${absent[*]}" >&2
        echo "install them as root (then run this again): apt-get update && apt-get install -y ${absent[*]}" >&2
        exit 1
    fi
    echo "installing the missing Debian packages: ${absent[*]}"
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y "${absent[@]}"
    mapfile -t still < <(missing)
    for package in "${still[@]}"; do
        echo "error: apt-get installed $package but ${file_of[$package]} is still missing" >&2
    done
    [ ${#still[@]} -eq 0 ]

# The set-up's own tests: system-packages against a temporary root, with apt-get and id shadowed.
system-packages-test:
    JUST={{quote(just_executable())}} python3 -m unittest discover -s tests/setup -q
