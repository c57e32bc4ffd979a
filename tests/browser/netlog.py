"""Judging what the browser logged while a page was open.

Pure functions over ``browser.Request`` records and console messages: which
requests are a problem and why, and which console errors say something new.
"""

from __future__ import annotations

from typing import Callable

import browser


def judge_requests(
    requests: list[browser.Request], inside: Callable[[str], str], ignore: str
) -> list[tuple[browser.Request, str]]:
    """Pair each request with '' if it is fine, else a one-line problem.

    ``inside(url)`` returns '' for a URL inside the site, else what is wrong;
    ``ignore`` is one URL not to judge (the host root's favicon.ico).
    """
    judged = []
    for req in requests:
        if req.url == ignore:
            continue
        where = inside(req.url)
        if where:
            msg = f"{where}: {req.url}" + (" (blocked)" if req.blocked else "")
        elif req.error and not req.canceled:
            msg = f"failed request: {req.url} ({req.error})"
        elif req.status is not None and req.status >= 400:
            msg = f"failed request: {req.url} (HTTP {req.status})"
        else:
            msg = ""
        judged.append((req, msg))
    return judged


def severe_news(severe: list[str], failed_urls: set[str]) -> list[str]:
    """SEVERE console messages, less the "Failed to load resource" echo of a
    request already reported (Chromium starts those with the URL)."""
    return [m for m in severe if m.split(" ", 1)[0] not in failed_urls]


def relative(url: str, base: str) -> str:
    """``url`` relative to the site root ``base`` (unchanged if outside it)."""
    url = url.split("#", 1)[0]
    return url[len(base):] if url.startswith(base) else url
