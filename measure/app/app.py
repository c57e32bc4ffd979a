"""The framework-free WSGI app of the slow-download experiment.

Two endpoints, nothing else, so that what we measure is the server (Gunicorn, nginx) and not a framework:

* ``/fast`` returns a 12-byte JSON body at once: the probe that tells whether a worker is free.
* ``/large?id=<download id>&run=<run id>`` returns ``MEASURE_BLOCKS`` copies of one prepared block of
  ``MEASURE_BLOCK_BYTES`` bytes (16 MiB = 64 KiB x 256 in the study). It logs when the app started returning
  the response and when the server had written the last chunk: Gunicorn calls the body iterable's ``close()``
  only after its last ``write``, so that moment is the end of the server's write.

Times are ``time.monotonic()`` (CLOCK_MONOTONIC on Linux), the clock the Rust harness reads with
``clock_gettime(CLOCK_MONOTONIC)``, so both sides share one time line without clock offsets.

The log is JSON lines appended to the file named by ``MEASURE_APP_LOG``. Each line is one ``os.write`` on an
``O_APPEND`` descriptor and far below PIPE_BUF, so lines of the two sync worker processes never interleave.
Every worker also logs a ``boot`` line when it imports the app: the harness waits for them before it starts a
run, because Gunicorn's socket accepts connections before its workers can serve them.
"""

import json
import os
import time
from urllib.parse import parse_qs

BLOCK_BYTES = int(os.environ.get("MEASURE_BLOCK_BYTES", "65536"))
BLOCKS = int(os.environ.get("MEASURE_BLOCKS", "256"))
LOG_PATH = os.environ.get("MEASURE_APP_LOG")

# Prepared once per worker: the response costs no CPU to produce, only to write.
BLOCK = b"x" * BLOCK_BYTES
LARGE_BYTES = BLOCK_BYTES * BLOCKS
FAST_BODY = b'{"ok": true}'  # 12 bytes


def _log(record):
    """Append one JSON line atomically (a single write on an O_APPEND descriptor)."""
    if not LOG_PATH:
        return
    line = (json.dumps(record, separators=(",", ":")) + "\n").encode()
    fd = os.open(LOG_PATH, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line)
    finally:
        os.close(fd)


class LargeBody:
    """The /large body: yields the prepared block BLOCKS times and logs the write's end in close()."""

    def __init__(self, download_id, run_id, started):
        self.download_id = download_id
        self.run_id = run_id
        self.started = started
        self.blocks_handed = 0
        self.closed = False

    def __iter__(self):
        for _ in range(BLOCKS):
            self.blocks_handed += 1
            yield BLOCK

    def close(self):
        # The server calls close() after writing the last chunk, or after giving up on the client.
        if self.closed:
            return
        self.closed = True
        _log(
            {
                "event": "large",
                "download_id": self.download_id,
                "run_id": self.run_id,
                "pid": os.getpid(),
                "start_s": self.started,
                "end_s": time.monotonic(),
                "blocks_handed": self.blocks_handed,
                "blocks": BLOCKS,
            }
        )


def application(environ, start_response):
    """Route /fast and /large; everything else is 404."""
    started = time.monotonic()
    path = environ.get("PATH_INFO", "")
    if path == "/fast":
        start_response(
            "200 OK",
            [("Content-Type", "application/json"), ("Content-Length", str(len(FAST_BODY)))],
        )
        return [FAST_BODY]
    if path == "/large":
        query = parse_qs(environ.get("QUERY_STRING", ""))
        download_id = query.get("id", [""])[0]
        run_id = query.get("run", [""])[0]
        start_response(
            "200 OK",
            [("Content-Type", "application/octet-stream"), ("Content-Length", str(LARGE_BYTES))],
        )
        return LargeBody(download_id, run_id, started)
    body = b"not found\n"
    start_response("404 Not Found", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]


_log({"event": "boot", "pid": os.getpid(), "t_s": time.monotonic()})
