"""What an <a href> points at, and whether that file exists on the local server.

Pure classification (``classify``) plus a cached HEAD look-up (``Targets``).
A site that must work from file:// and under any sub-path may only link
relatively, to files (not folders), inside its own folder.
"""

from __future__ import annotations

import urllib.error
import urllib.request
from dataclasses import dataclass
from urllib.parse import unquote, urldefrag, urlsplit

HEAD_TIMEOUT_S = 5
_IGNORED_SCHEMES = ("mailto", "tel", "javascript", "data", "blob", "about")


@dataclass(frozen=True)
class Link:
    """One link, resolved against the site.

    ``kind`` is one of: ``skip`` (not a document link: mailto:, tel:, ...),
    ``external`` (another origin; not followed, not fetched), ``problem``
    (``problem`` says why it cannot work), or ``internal`` (``target`` is the
    absolute URL without fragment or query; ``fragment`` is decoded, may be "").
    """

    kind: str
    target: str = ""
    fragment: str = ""
    problem: str = ""


def classify(raw: str, url: str, base_url: str) -> Link:
    """Classify one link: ``raw`` as written, ``url`` as the browser resolved it."""
    raw = raw.strip()
    scheme = urlsplit(url).scheme.lower()
    if not raw or scheme in _IGNORED_SCHEMES:
        return Link("skip")
    base = urlsplit(base_url)
    parts = urlsplit(url)
    if (parts.scheme, parts.netloc) != (base.scheme, base.netloc):
        return Link("external")
    if raw.startswith("/"):
        return Link(
            "problem",
            problem=f"link {raw!r} is an absolute path: it breaks under a sub-path "
            "and from file://; make it relative",
        )
    if not parts.path.startswith(base.path):
        return Link("problem", problem=f"link {raw!r} leaves the site folder")
    target = f"{parts.scheme}://{parts.netloc}{parts.path}"
    if parts.path.endswith("/"):
        return Link(
            "problem",
            problem=f"link {raw!r} names a folder: a web server shows its index.html, "
            "file:// does not; link to the index.html inside it",
        )
    return Link("internal", target=target, fragment=unquote(urldefrag(url).fragment))


@dataclass(frozen=True)
class Target:
    """A HEAD answer: HTTP status (0 if unreachable) and whether it is HTML."""

    status: int
    is_html: bool


class Targets:
    """HEAD each internal target once against the local server, bypassing proxies."""

    def __init__(self) -> None:
        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        self._cache: dict[str, Target] = {}

    def get(self, url: str) -> Target:
        if url not in self._cache:
            self._cache[url] = self._head(url)
        return self._cache[url]

    def _head(self, url: str) -> Target:
        req = urllib.request.Request(url, method="HEAD")
        try:
            with self._opener.open(req, timeout=HEAD_TIMEOUT_S) as resp:
                ctype = resp.headers.get("Content-Type", "")
                return Target(resp.status, ctype.startswith("text/html"))
        except urllib.error.HTTPError as err:
            return Target(err.code, False)
        except (urllib.error.URLError, OSError):
            return Target(0, False)


def page_name(url: str, base_url: str) -> str:
    """A page's path inside the site, for messages: ``ds/en/index.html``."""
    path = urldefrag(url).url
    return unquote(path[len(base_url):] if path.startswith(base_url) else path)
