"""Measuring one command: wall time, CPU time and peak RSS, and the checks that keep a machine quiet.

Peak RSS needs care. ru_maxrss is the high-water mark of the process *including the memory image
it had before exec*: a child forked from this Python harness starts with the harness's own peak
(tens of MB) already on its books (Linux's exec_mmap keeps the old mm's hiwater). So the tool is
not forked from here: `setsid --fork` (util-linux, ~1 MB) is, which forks the tool and exits at
once without waiting for it. This process is a child subreaper (prctl PR_SET_CHILD_SUBREAPER), so
the orphaned tool becomes its child and os.wait4 returns the tool's own rusage, with a floor of
about 1.5 MB, as /usr/bin/time would report.

Wall time is time.perf_counter() from before starting setsid to the return of wait4 (it includes
about 1 ms for setsid). CPU time is the tool's user + system time.
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

PR_SET_CHILD_SUBREAPER = 36


@dataclass
class Sample:
    """One timed execution."""

    wall_s: float
    cpu_s: float  # user + system
    max_rss_kib: int
    exit_code: int


_subreaper = False


def _become_subreaper() -> None:
    global _subreaper
    if not _subreaper:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER) failed")
        _subreaper = True


def _adopted_children() -> list[int]:
    """Our current children (the orphaned tool is one once setsid has exited)."""
    pids = []
    for task in Path("/proc/self/task").iterdir():
        try:
            pids += [int(p) for p in (task / "children").read_text().split()]
        except OSError:
            pass
    return pids


def run_timed(argv: list[str], stdout: Path | None = None) -> Sample:
    """Runs argv (stdout to the file `stdout`, or discarded), times it, raises if it fails.

    stderr goes to a temporary file (never a pipe a chatty tool could fill) and is shown on failure.
    """
    _become_subreaper()
    if _adopted_children():
        raise RuntimeError(f"unexpected child processes {_adopted_children()} before timing {argv[0]}")
    with tempfile.TemporaryFile() as err, open(stdout or os.devnull, "wb") as out:
        t0 = time.perf_counter()
        subprocess.run(["setsid", "--fork", *map(str, argv)], stdout=out, stderr=err,
                       stdin=subprocess.DEVNULL, check=True)
        children = _adopted_children()
        try:
            _, status, ru = os.wait4(children[0] if len(children) == 1 else -1, 0)
        except BaseException:  # e.g. Ctrl-C: do not leave the tool running in its own session
            for pid in children:
                os.kill(pid, signal.SIGKILL)
            raise
        wall = time.perf_counter() - t0
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            err.seek(0)
            text = err.read().decode(errors="replace")
            raise RuntimeError(f"{' '.join(map(str, argv))} exited with {code}:\n{text[-4000:]}")
    return Sample(wall_s=wall, cpu_s=ru.ru_utime + ru.ru_stime, max_rss_kib=ru.ru_maxrss, exit_code=code)


def warm_page_cache(paths: list[Path], passes: int = 2) -> float:
    """Reads every file through `passes` times so all tools start from a warm page cache."""
    t0 = time.perf_counter()
    for _ in range(passes):
        for p in paths:
            with open(p, "rb", buffering=0) as f:
                while f.read(16 << 20):
                    pass
    return time.perf_counter() - t0


# Process names (not command lines: an unrelated process's environment or arguments may well
# mention ~/.cargo) of a build in progress.
BUILD_PROCESSES = "^(cargo|rustc|clippy-driver|rustdoc|cc1|cc1plus|ld|ld.lld|mold)$"


def busy_processes() -> list[str]:
    """Running build processes (a cargo build would steal a core from the benchmark)."""
    r = subprocess.run(["pgrep", "-a", BUILD_PROCESSES], capture_output=True, text=True)
    return [line[:160] for line in r.stdout.splitlines() if line]


def load_average() -> tuple[float, float, float]:
    return os.getloadavg()


def dir_size(path: Path) -> tuple[int, str, int]:
    """(total bytes, largest file relative to path, its bytes) of a folder tree."""
    total, largest, largest_size = 0, "", 0
    for root, _, files in os.walk(path):
        for name in files:
            p = Path(root) / name
            size = p.stat().st_size
            total += size
            if size > largest_size:
                largest, largest_size = str(p.relative_to(path)), size
    return total, largest, largest_size
