"""Local servers for the browser check.

Owns two loopback-only servers and nothing else:

* ``StaticSite``: a plain static file server over the site's *parent* folder, so
  the site is reached under a sub-path (``http://127.0.0.1:PORT/site/``), as on a
  static host that serves it from a folder. Relative links that only work at a
  host's root fail here.
* ``Sink``: a fake HTTP proxy that Chromium is told to use for every non-loopback
  request. It reads the request line and hangs up. Chromium itself (not the
  pages) calls home at start-up even with ``--disable-background-networking``;
  the sink makes sure none of that, and nothing a bad page asks for, leaves the
  machine, whose network is closed and watched.
"""

from __future__ import annotations

import functools
import http.server
import socket
import threading
from pathlib import Path


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves files without logging each request to stderr."""

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass

    def do_GET(self) -> None:
        # Chromium asks for /favicon.ico at the host's root when a page names no
        # icon. The root belongs to the host, not to a site under a sub-path, so
        # answer it here instead of reporting a 404 against the site.
        if self.path == "/favicon.ico":
            self.send_response(204)
            self.end_headers()
            return
        super().do_GET()


class StaticSite:
    """Serves ``site_dir.parent`` on 127.0.0.1 at a free port, in a thread."""

    def __init__(self, site_dir: Path) -> None:
        handler = functools.partial(_QuietHandler, directory=str(site_dir.parent))
        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        port = self._server.server_address[1]
        self.origin = f"http://127.0.0.1:{port}"
        # Always ends with "/": the site's root folder URL.
        self.base_url = f"{self.origin}/{site_dir.name}/"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> "StaticSite":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


class Sink:
    """A proxy that accepts, records the first request line, and closes."""

    def __init__(self) -> None:
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(32)
        self.port = self._sock.getsockname()[1]
        self.requests: list[str] = []
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._accept_loop, daemon=True)

    def _accept_loop(self) -> None:
        while True:
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return  # closed
            with conn:
                conn.settimeout(1.0)
                try:
                    first = conn.recv(512).split(b"\r\n", 1)[0]
                except OSError:
                    first = b"?"
            with self._lock:
                self.requests.append(first.decode("latin-1"))

    def __enter__(self) -> "Sink":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self._sock.shutdown(socket.SHUT_RDWR)  # wakes the blocked accept()
        except OSError:
            pass
        self._sock.close()
