#!/usr/bin/env python3
"""Issue 47: how fast measure's open-loop client keeps its schedule, beside `oha -q` on the same server.

    python3 bench/open_loop.py                          # 5k, 10k, 20k, 30k, 40k requests/s, 5 s each
    python3 bench/open_loop.py --rates 1000 5000 --seconds 3

For each connection mode (a new connection per request; kept alive) and each rate, on loopback against
nginx 1.22 with one worker serving a 12-byte file (the same nginx.conf for both tools):

  measure  a command plan with `tool = "open-loop"`, `rate = "{rate}"`, `duration_s` (and
           `keep_alive = true` for the kept-alive mode), one run per rate; measure starts the nginx of
           each run itself. Send lag per request = sent_ms - scheduled_ms of its requests.csv.
  oha      `oha -q RATE -z Ds --latency-correction --db-url FILE` against an nginx this script starts
           (`--disable-keepalive` for the new-connection mode). Send lag per request = its `start` minus
           its `start_latency_correction` (the time the rate limiter scheduled it) in oha's database.

A rate is held when the send lag's p99 is under 1 ms, no request failed and at least 99% of the
scheduled requests were sent. Also recorded per new-connection run: the TIME_WAIT sockets on each side
of the connections afterwards (`ss`), and measure's peak RSS (its own, the client's memory with it).

Writes bench/OPEN_LOOP_RESULTS.md and bench/open_loop_results.json. The load average and any build
running are recorded with each sample: on two shared cores, a build makes every figure worse.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import json
import os
import resource
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
NGINX = "/usr/sbin/nginx"
BODY = '{"ok": true}'
HELD_P99_MS = 1.0

NGINX_CONF = """daemon off;
worker_processes 1;
pid {run_dir}/nginx.pid;
error_log stderr warn;
events {{
    worker_connections 16384;
}}
http {{
    access_log off;
    keepalive_requests 1000000;
    client_body_temp_path {run_dir}/client_body_temp;
    proxy_temp_path {run_dir}/proxy_temp;
    fastcgi_temp_path {run_dir}/fastcgi_temp;
    uwsgi_temp_path {run_dir}/uwsgi_temp;
    scgi_temp_path {run_dir}/scgi_temp;
    server {{
        listen 127.0.0.1:{port} backlog=4096;
        root {run_dir}/www;
        default_type application/json;
    }}
}}
"""


def toml_string(text: str) -> str:
    return json.dumps(text)


def plan_text(rates: list[int], seconds: int, keep_alive: bool, out: Path) -> str:
    # The plan's file keeps {run_dir} and {port} for measure to fill; nginx's own braces need no escaping.
    conf = NGINX_CONF.replace("{{", "{").replace("}}", "}")
    return f"""kind = "command"
dataset = {toml_string(str(out))}
title = {{ en = "open-loop bench", ja = "open-loop bench" }}
description = {{ en = "bench/open_loop.py", ja = "bench/open_loop.py" }}
seed = 47
repetitions = 1

[factors]
rate = {json.dumps(rates)}

[servers.nginx]
command = ["{NGINX}", "-p", "{{run_dir}}", "-c", "{{run_dir}}/nginx.conf", "-e", "stderr"]
ready = "/fast"
stop_signal = "QUIT"

[servers.nginx.files]
"nginx.conf" = '''
{conf}'''
"www/fast" = {toml_string(BODY)}

[load]
tool = "open-loop"
path = "/fast"
rate = "{{rate}}"
duration_s = {seconds}
keep_alive = {"true" if keep_alive else "false"}
request_timeout_s = 10
run_timeout_s = {seconds * 4 + 60}

[sampling]
interval_ms = 1000

[host]
load1_per_cpu_max = 100
idle_wait_max_s = 0
"""


def percentile(sorted_values: list[float], p: float) -> float:
    """Nearest rank (the rule analyze's tables use for a percentile)."""
    if not sorted_values:
        return float("nan")
    rank = max(1, -(-len(sorted_values) * p // 100))
    return sorted_values[int(rank) - 1]


def summary(lags_ms: list[float], asked: int, failed: int) -> dict:
    lags = sorted(lags_ms)
    s = {
        "asked": asked,
        "sent": len(lags),
        "failed": failed,
        "lag_p50_ms": percentile(lags, 50),
        "lag_p99_ms": percentile(lags, 99),
        "lag_max_ms": lags[-1] if lags else float("nan"),
    }
    s["held"] = bool(lags) and s["lag_p99_ms"] < HELD_P99_MS and failed == 0 and len(lags) >= 0.99 * asked
    return s


def busy() -> dict:
    load1 = os.getloadavg()[0]
    builds = subprocess.run(["pgrep", "-c", "-x", "rustc|cargo|cc1|ld"], capture_output=True, text=True).stdout.strip()
    utc = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return {"load1": round(load1, 2), "build_processes": int(builds or 0), "utc": utc}


def time_wait(port: int) -> dict:
    """TIME_WAIT sockets to and from `port`: the client's side holds an ephemeral port each."""
    out = subprocess.run(["ss", "-tanH", "state", "time-wait"], capture_output=True, text=True).stdout
    client = server = 0
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 4:
            continue
        local, peer = parts[-2], parts[-1]
        if local.endswith(f":{port}"):
            server += 1
        elif peer.endswith(f":{port}"):
            client += 1
    return {"client_side": client, "server_side": server}


def run_measure(measure: Path, rates: list[int], seconds: int, keep_alive: bool, work: Path) -> list[dict]:
    out = work / ("measure-keepalive" if keep_alive else "measure-new")
    plan = work / ("plan-keepalive.toml" if keep_alive else "plan-new.toml")
    plan.write_text(plan_text(rates, seconds, keep_alive, out))
    samples = []
    # One run per invocation (a plan of one rate), so the TIME_WAIT count and the peak RSS are per run.
    for rate in rates:
        shutil.rmtree(out, ignore_errors=True)
        plan.write_text(plan_text([rate], seconds, keep_alive, out))
        before = busy()
        wrapped = ["/usr/bin/time", "-f", "%M", "-o", str(work / "rss.txt"), str(measure), "run", "--plan", str(plan), "--out", str(out)]
        done = subprocess.run(wrapped, capture_output=True, text=True, cwd=work)
        if done.returncode != 0:
            # An aborted run (its load outlived run_timeout_s: the client fell far behind) holds nothing.
            nan = float("nan")
            s = {"asked": rate * seconds, "sent": 0, "failed": rate * seconds, "lag_p50_ms": nan, "lag_p99_ms": nan, "lag_max_ms": nan, "held": False}
            why = (done.stdout + done.stderr).strip().splitlines()
            s.update(tool="measure", keep_alive=keep_alive, rate=rate, seconds=seconds, time_wait={"client_side": 0, "server_side": 0}, **before)
            s["aborted"] = why[-2] if len(why) > 1 else "measure failed"
            s["peak_rss_mb"] = ""
            samples.append(s)
            print(json.dumps(s), flush=True)
            continue
        servers = list(csv.DictReader(open(out / "servers.csv")))
        port = int(servers[0]["port"]) if servers else 0
        tw = time_wait(port)
        lags, failed = [], 0
        with open(out / "requests.csv") as f:
            for row in csv.DictReader(f):
                lags.append(float(row["sent_ms"]) - float(row["scheduled_ms"]))
                failed += row["status"] != "200"
        s = summary(lags, rate * seconds, failed)
        s.update(tool="measure", keep_alive=keep_alive, rate=rate, seconds=seconds, time_wait=tw, **before)
        s["peak_rss_mb"] = round(int((work / "rss.txt").read_text().split()[-1]) / 1024, 1)
        samples.append(s)
        print(json.dumps(s), flush=True)
    return samples


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_nginx(work: Path) -> tuple[subprocess.Popen, int]:
    run_dir = work / "nginx"
    (run_dir / "www").mkdir(parents=True, exist_ok=True)
    (run_dir / "www" / "fast").write_text(BODY)
    port = free_port()
    (run_dir / "nginx.conf").write_text(NGINX_CONF.format(run_dir=run_dir, port=port))
    # nginx's workers run as `nobody` under a root master: the folders must be theirs to read (as measure
    # opens a run's folder up).
    for path in (work, run_dir, run_dir / "www"):
        path.chmod(0o755)
    (run_dir / "www" / "fast").chmod(0o644)
    log = open(work / "nginx.log", "ab")
    proc = subprocess.Popen([NGINX, "-p", str(run_dir), "-c", str(run_dir / "nginx.conf"), "-e", "stderr"], start_new_session=True, stderr=log)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return proc, port
        except OSError:
            time.sleep(0.05)
    proc.kill()
    sys.exit("nginx did not start")


def run_oha(oha: str, rates: list[int], seconds: int, keep_alive: bool, work: Path) -> list[dict]:
    samples = []
    for rate in rates:
        # A fresh nginx on a fresh port per run, as measure's runs have, so the TIME_WAIT count is this run's.
        proc, port = start_nginx(work)
        try:
            samples.append(oha_once(oha, rate, seconds, keep_alive, work, port))
        finally:
            stop(proc)
    return samples


def stop(proc: subprocess.Popen) -> None:
    os.killpg(proc.pid, signal.SIGQUIT)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def oha_once(oha: str, rate: int, seconds: int, keep_alive: bool, work: Path, port: int) -> dict:
    db = work / "oha.db"
    db.unlink(missing_ok=True)
    before = busy()
    args = [oha, "--no-tui", "--output-format", "json", "-q", str(rate), "-z", f"{seconds}s", "--latency-correction", "--db-url", str(db)]
    if not keep_alive:
        args.append("--disable-keepalive")
    done = subprocess.run(args + [f"http://127.0.0.1:{port}/fast"], capture_output=True, text=True, timeout=seconds + 60)
    if done.returncode != 0:
        sys.exit(f"oha failed:\n{done.stderr}")
    report = json.loads(done.stdout)
    tw = time_wait(port)
    con = sqlite3.connect(db)
    # oha's rate limiter sleeps until t0 + i/q for tick i and stamps start_latency_correction when it wakes,
    # so start - start_latency_correction leaves out the limiter's own lateness. The intended time is
    # rebuilt from the schedule: tick i (the i-th stamp) was due at the first stamp + i/q.
    rows = con.execute("SELECT start, start_latency_correction, status FROM oha ORDER BY start_latency_correction, start").fetchall()
    con.close()
    stamped = [(start, corr) for start, corr, _ in rows if corr is not None]
    t0 = stamped[0][1] if stamped else 0.0
    lags = [(start - (t0 + i / rate)) * 1e3 for i, (start, _) in enumerate(stamped)]
    failed = sum(1 for *_, status in rows if status != 200) + sum(report.get("errorDistribution", {}).values())
    s = summary(lags, rate * seconds, failed)
    s.update(tool="oha", keep_alive=keep_alive, rate=rate, seconds=seconds, time_wait=tw, **before)
    s["latency_p99_ms"] = (report.get("latencyPercentiles", {}).get("p99") or float("nan")) * 1e3
    print(json.dumps(s), flush=True)
    return s


def render(samples: list[dict], meta: dict) -> str:
    lines = [
        "# Open-loop clients: the highest rate each holds",
        "",
        "Written by `bench/open_loop.py` (`just bench-open-loop`); issue 47. On loopback against nginx 1.22",
        "(one worker, a 12-byte file), each rate for "
        f"{meta['seconds']} s. A rate is **held** when the send lag's p99 is under {HELD_P99_MS:g} ms, no request",
        "failed and at least 99% of the scheduled requests were sent. Send lag: measure's `sent_ms - scheduled_ms`",
        "(`sent_ms` is the connect on a new connection, the write on a kept-alive one); oha's `start` in its",
        "`--db-url` database (when a worker began the request, connect included) minus the time its schedule",
        "gave the request: with `--latency-correction` oha stamps `start_latency_correction` when its rate limiter",
        "wakes for request i, which leaves the limiter's own lateness out, so the intended time is the first stamp",
        "+ i/rate. oha runs with its default 50 workers.",
        "",
        f"Taken {min(s['utc'] for s in samples)} to {max(s['utc'] for s in samples)} on {meta['cpus']} CPUs; "
        f"load average before each sample {min(s['load1'] for s in samples):.2f} to {max(s['load1'] for s in samples):.2f}; "
        f"build processes seen before a sample: up to {max(s['build_processes'] for s in samples)}.",
    ]
    if meta["busy"]:
        lines += ["", "**Taken on a busy host** (load average at or above 1.5, or a build running): other helpers' builds",
                  "shared the two cores, so every figure here is worse than a quiet machine gives."]
    lines += ["", "## Highest rate held", "", "| client | connection | highest rate held (requests/s) |", "| --- | --- | ---: |"]
    stepped = [s for s in samples if not s.get("million")]
    for tool in ("measure", "oha"):
        for keep_alive in (False, True):
            mine = [s for s in stepped if s["tool"] == tool and s["keep_alive"] == keep_alive]
            if not mine:
                continue
            held = [s["rate"] for s in mine if s["held"]]
            tried = ", ".join(f"{s['rate']:,}" for s in mine)
            best = f"{max(held):,}" if held else f"none of {tried}"
            lines.append(f"| {tool} | {'kept alive' if keep_alive else 'new per request'} | {best} |")
    for tool in ("measure", "oha"):
        if not any(s["tool"] == tool for s in stepped):
            lines.append(f"| {tool} | both | not measured in this file (`--tools`; oha must be installed) |")
    lines += ["", "## Every sample", "",
              "| client | connection | rate/s | sent | failed | lag p50 ms | lag p99 ms | lag max ms | held | TIME_WAIT client/server | measure RSS MB | load1 |",
              "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |"]
    for s in samples:
        tw = s["time_wait"]
        lines.append(
            f"| {s['tool']} | {'kept alive' if s['keep_alive'] else 'new'} | {s['rate']:,} | {s['sent']:,} | {s['failed']:,} | "
            f"{s['lag_p50_ms']:.3f} | {s['lag_p99_ms']:.3f} | {s['lag_max_ms']:.1f} | {'yes' if s['held'] else 'no'} | "
            f"{tw['client_side']:,}/{tw['server_side']:,} | {s.get('peak_rss_mb', '')} | {s['load1']:.2f} |"
        )
    for s in samples:
        if s.get("aborted") and not s.get("million"):
            lines.append(f"\nmeasure at {s['rate']:,}/s ({'kept alive' if s['keep_alive'] else 'new'}): {s['aborted']}")
    for s in samples:
        if s.get("million") and s.get("aborted"):
            lines += ["", "## A million requests", "", f"One run of measure's client, {s['asked']:,} requests kept alive at "
                      f"{s['rate']:,}/s: aborted ({s['aborted']})."]
        elif s.get("million"):
            lines += ["", "## A million requests", "",
                      f"One run of measure's client, {s['asked']:,} requests kept alive at {s['rate']:,}/s: {s['sent']:,} sent, "
                      f"{s['failed']:,} failed, send lag p99 {s['lag_p99_ms']:.3f} ms, measure's peak RSS {s['peak_rss_mb']} MB "
                      "(the client's results, the rows as text and the CSV written at the end)."]
    lines += ["", "## TIME_WAIT and ephemeral ports", "", meta["ports"], ""]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rates", type=int, nargs="+", default=[5_000, 10_000, 20_000, 30_000, 40_000])
    ap.add_argument("--seconds", type=int, default=5)
    ap.add_argument("--million", action="store_true", help="also one run of 1,000,000 kept-alive requests (25,000/s for 40 s): measure's peak RSS")
    ap.add_argument("--merge", action="store_true", help="keep the samples of open_loop_results.json of the tools not run now")
    ap.add_argument("--tools", nargs="+", choices=["measure", "oha"], default=["measure", "oha"])
    target = Path(os.environ.get("CARGO_TARGET_DIR", Path.home() / ".cache/target"))
    ap.add_argument("--measure-bin", type=Path, default=target / "release/measure")
    ap.add_argument("--oha", default=shutil.which("oha") or str(Path.home() / ".cargo/bin/oha"))
    args = ap.parse_args()
    if not args.measure_bin.exists():
        sys.exit(f"{args.measure_bin} does not exist: cargo build --release -p measure (or --measure-bin)")
    if "oha" in args.tools and not Path(args.oha).exists():
        sys.exit(f"oha is not installed: cargo install --locked oha (or --oha)")
    port_range = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
    tw_reuse = Path("/proc/sys/net/ipv4/tcp_tw_reuse").read_text().strip()
    ports = int(port_range[1]) - int(port_range[0]) + 1
    meta = {
        "cpus": os.cpu_count(),
        "seconds": args.seconds,
        "ports": (
            f"This host: ip_local_port_range {port_range[0]}-{port_range[1]} ({ports:,} ephemeral ports), "
            f"tcp_tw_reuse = {tw_reuse}. A connection's TIME_WAIT lasts 60 s on the side that closes first and, "
            f"on the client's side, holds its ephemeral port: {ports:,} / 60 s = {ports // 60:,} new connections a "
            "second is the most a client that closes first sustains to one server address without reuse "
            "(tcp_tw_reuse = 1, or 2 on loopback, lets connect() take a TIME_WAIT port a second old, about "
            f"{ports:,} a second). measure's client waits for the server to close first, so the TIME_WAIT "
            "sockets are the server's, which hold no port of the client's. The TIME_WAIT column above counts, after "
            "each run, the sockets on each side of that run's server port: the side that holds them closed first."
        ),
    }
    results = []
    with tempfile.TemporaryDirectory(prefix="open-loop-bench-") as tmp:
        work = Path(tmp)
        for keep_alive in (False, True):
            if "measure" in args.tools:
                results += run_measure(args.measure_bin.resolve(), args.rates, args.seconds, keep_alive, work)
            if "oha" in args.tools:
                results += run_oha(args.oha, args.rates, args.seconds, keep_alive, work)
        if args.million:
            million = run_measure(args.measure_bin.resolve(), [25_000], 40, True, work)
            for s in million:
                s["million"] = True
            results += million
    if args.merge and (HERE / "open_loop_results.json").exists():
        kept = json.loads((HERE / "open_loop_results.json").read_text())["samples"]
        kept = [s for s in kept if s["tool"] not in args.tools and not (s.get("million") and args.million)]
        results = kept + results
    meta["busy"] = any(s["build_processes"] > 0 or s["load1"] >= 1.5 for s in results)
    (HERE / "open_loop_results.json").write_text(json.dumps({"meta": meta, "samples": results}, indent=1) + "\n")
    (HERE / "OPEN_LOOP_RESULTS.md").write_text(render(results, meta))
    print(f"wrote {HERE / 'OPEN_LOOP_RESULTS.md'}")


if __name__ == "__main__":
    main()
