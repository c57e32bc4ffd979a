"""Crawl the served site in Chromium and judge every page.

Owns the checks. Starts at index.html, visits each page reachable by internal
links once (breadth first, in link order), and for each page counts checks into
a ``Tally``: it opened, no SEVERE console message, every request succeeded and
stayed inside the site folder, links and fragments resolve, images load,
cheap accessibility rules hold, nothing scrolls sideways at phone width, and the
page with its figures keeps within the weight budget (``weight.py``).
Fragments are judged after the crawl, once every target page's ids are known;
then every SVG file of the site and the whole site are weighed. Finally the
start page is opened once from file:// (``from_file.py``).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from selenium.common.exceptions import TimeoutException, WebDriverException

import browser
import from_file
import weight
from links import Link, Targets, classify, page_name
from netlog import judge_requests, relative, severe_news
from tally import Tally

MAX_PAGES = 5000
LANG_DIRS = ("en", "ja")  # a page under <lang>/ must say <html lang="<lang>...">
# Issue 50: chart text a phone shows at 390 px, and how far down a report's first chart may start.
MIN_CHART_TEXT_PX = 11
FIRST_CHART_MAX_PX = 1700


@dataclass
class Stats:
    """Counts for the one-line summary."""

    pages: int = 0
    links: int = 0
    external_links: int = 0
    images: int = 0
    screenshots: list[Path] = field(default_factory=list)


@dataclass
class _Page:
    """What the language check needs of a page it has seen."""

    lang: str
    switches: list[dict]


@dataclass
class _Fragment:
    page: str
    raw: str
    target: str
    fragment: str


class Crawler:
    """One crawl of one served site with one browser."""

    def __init__(self, driver, origin: str, base_url: str, site_dir: Path, shots: Path | None):
        self.driver = driver
        self.origin = origin
        self.base_url = base_url
        self.site_dir = site_dir
        self.shots = shots
        self.tally = Tally()
        self.stats = Stats()
        self.targets = Targets()
        self._ids: dict[str, set[str]] = {}
        self._fragments: list[_Fragment] = []
        self._pages: dict[str, _Page] = {}
        self._shot_kinds: set[str] = set()
        # Site-relative URLs that failed on the start page over http.
        self._start_failures: set[str] = set()
        # Its SEVERE console messages over http, with the site URL cut out.
        self._start_console: set[str] = set()

    # -- the crawl ---------------------------------------------------------

    def run(self) -> None:
        start = self.base_url + "index.html"
        queue, queued = deque([start]), {start}
        while queue:
            url = queue.popleft()
            if self.stats.pages >= MAX_PAGES:
                self.tally.check("pages", False, page_name(url, self.base_url),
                                 f"not visited: stopped after {MAX_PAGES} pages")
                break
            for target in self._visit(url):
                if target not in queued:
                    queued.add(target)
                    queue.append(target)
        self._judge_fragments()
        self._judge_language_switches()
        self._judge_weights()
        from_file.check_start_page(self.driver, self.site_dir, self.base_url, self.targets,
                                   self.tally, self._start_failures, self._start_console)

    def _visit(self, url: str) -> list[str]:
        """Open one page, run every check on it; return the HTML pages it links to."""
        name = page_name(url, self.base_url)
        self.stats.pages += 1
        browser.take_logs(self.driver)  # drop anything left from before
        try:
            self.driver.get(url)
            images_settled = browser.wait_for_images(self.driver)
            facts = browser.page_facts(self.driver)
        except TimeoutException:
            self.tally.check("pages", False, name,
                             f"did not finish loading within {browser.PAGE_LOAD_TIMEOUT_S} s")
            return []
        except WebDriverException as err:
            self.tally.check("pages", False, name, f"could not be opened: {err.msg}")
            return []
        self.tally.check("pages", images_settled, name,
                         f"images still loading after {browser.IMAGE_WAIT_MS} ms")
        self._ids[url] = set(facts["ids"])
        self._pages[url] = _Page((facts["lang"] or "").strip(), facts["switches"])
        self._screenshot_if_wanted(name, phone=False)
        self._check_images(name, facts["images"])
        for sheet in facts["stylesheets"]:
            self.tally.check("images", sheet["loaded"], name,
                             f"stylesheet {sheet['raw']!r} did not load: the page is unstyled")
        embedded_pages = self._check_objects(name, facts["objects"])
        self._check_a11y(name, facts)
        self._check_weight(name, url, facts)
        self._check_layout(name, facts["viewport"])
        next_pages = self._check_links(name, facts["links"]) + embedded_pages
        for ref in facts["absoluteRefs"]:
            self.tally.check("links", False, name,
                             f"{ref} is an absolute path: it breaks from file:// and "
                             "under another sub-path; make it relative")
        # Logs last: they then hold everything the checks above made the page do.
        self._check_logs(name, browser.take_logs(self.driver))
        return next_pages

    # -- per-page checks -----------------------------------------------------

    def _check_logs(self, name: str, logs: browser.PageLogs) -> None:
        judged = judge_requests(logs.requests, self._inside_http, self.origin + "/favicon.ico")
        for req, msg in judged:
            self.tally.check("requests", not msg, name, msg)
        failed = {req.url for req, msg in judged if msg}
        severe = severe_news(logs.severe, failed)
        if name == "index.html":
            self._start_failures = {relative(u, self.base_url) for u in failed}
            self._start_console = {m.replace(self.base_url, "") for m in severe}
        self.tally.check("console", not severe, name, "console error: " + "; ".join(severe)[:500])

    def _inside_http(self, url: str) -> str:
        """'' if ``url`` is inside the served site, else what is wrong with it."""
        parts = urlsplit(url)
        if f"{parts.scheme}://{parts.netloc}" != self.origin:
            return "request to another origin (a self-contained site makes none)"
        if not url.startswith(self.base_url):
            return "request outside the site folder"
        return ""

    def _check_images(self, name: str, images: list[dict]) -> None:
        for img in images:
            self.stats.images += 1
            self.tally.check("images", img["loaded"], name,
                             f"broken image: {img['raw']!r} (naturalWidth is 0)")
            self.tally.check("a11y", bool((img["alt"] or "").strip()), name,
                             f"image {img['raw']!r} has no alt text")

    def _check_objects(self, name: str, objects: list[dict]) -> list[str]:
        """Charts embedded with <object>: each loads as an SVG with a title and a label, and its
        links resolve and open in the whole window (a link inside an <object> without
        target="_top" opens the page inside the chart's box). Returns the pages they lead to."""
        pages = []
        for obj in objects:
            self.stats.images += 1
            self.tally.check("images", obj["loaded"], name,
                             f"embedded chart {obj['raw']!r} did not load as an SVG document")
            self.tally.check("a11y", bool((obj["label"] or "").strip()), name,
                             f"embedded chart {obj['raw']!r} has no aria-label")
            if obj["loaded"]:
                self.tally.check("a11y", bool(obj["title"]), name,
                                 f"embedded chart {obj['raw']!r} has no <title>")
            for a in obj["links"]:
                self.tally.check("links", a["target"] in ("_top", "_parent", "_blank"), name,
                                 f"link {a['raw']!r} in the embedded chart {obj['raw']!r} opens "
                                 "inside the chart's box: give it target=\"_top\"")
            pages += self._check_links(f"{name} ({obj['raw']})", obj["links"])
        return pages

    def _check_a11y(self, name: str, facts: dict) -> None:
        lang = (facts["lang"] or "").strip()
        self.tally.check("a11y", bool(lang), name, "<html> has no lang attribute")
        dirs = [d for d in urlsplit(name).path.split("/")[:-1] if d in LANG_DIRS]
        if lang and dirs:
            want = dirs[-1]
            self.tally.check("a11y", lang.lower().split("-")[0] == want, name,
                             f'<html lang="{lang}"> but the page is under {want}/')
        self.tally.check("a11y", bool(facts["title"]), name, "empty or missing <title>")
        for t in facts["tables"]:
            label = f"table {t['n']}" + (f" ({t['label']})" if t["label"] else "")
            self.tally.check("a11y", bool(t["caption"]), name, f"{label} has no <caption>")
            self.tally.check("a11y", t["headers"] > 0, name, f"{label} has no <th> cells")
        for s in facts["svgs"]:
            label = f"inline svg {s['n']}" + (f" ({s['label']})" if s["label"] else "")
            self.tally.check("a11y", bool(s["title"]), name, f"{label} has no <title>")
        dups = facts["duplicateIds"]
        self.tally.check("a11y", not dups, name, "duplicate ids: " + ", ".join(dups[:10]))

    def _check_layout(self, name: str, viewport: str | None) -> None:
        self.tally.check(
            "layout", "width=device-width" in (viewport or "").replace(" ", ""), name,
            '<meta name="viewport" content="width=device-width, initial-scale=1"> is missing: '
            "phones lay the page out 980 px wide and shrink it")
        self._check_fit(name, browser.fit(self.driver))
        browser.set_phone_width(self.driver, True)
        try:
            m = browser.overflow(self.driver)
            self._check_fit(name, browser.fit(self.driver))
            self._check_charts(name, browser.charts(self.driver))
            self._screenshot_if_wanted(name, phone=True)
        finally:
            browser.set_phone_width(self.driver, False)
        why = ", ".join(m["culprits"]) or "no single element found"
        self.tally.check(
            "layout", m["scrollWidth"] <= m["innerWidth"] + 1, name,
            f"scrolls sideways at {browser.PHONE[0]} px (document {m['scrollWidth']} px wide): "
            f"{why}; wrap wide tables in a box with overflow-x: auto")

    def _check_charts(self, name: str, probe: dict) -> None:
        """At a phone's width: every embedded chart's text at least MIN_CHART_TEXT_PX as shown,
        and on a report page the first chart within FIRST_CHART_MAX_PX of the top."""
        px = f"at {probe['width']} px"
        for c in probe["charts"]:
            small = c["smallest"]
            self.tally.check(
                "charts", small is None or small >= MIN_CHART_TEXT_PX, name,
                f"chart {c['src']!r} {px} shows text at {small or 0:.1f} px (font-size "
                f"{c['drawn']} in a drawing {c['drawnWidth']:.0f} px wide shown "
                f"{c['shownWidth']} px wide), under {MIN_CHART_TEXT_PX} px: keep it at its "
                "drawn width in a box that scrolls, or draw it narrow")
        first = probe["firstChart"]
        if (shot_kind(name) or "").startswith("report-") and first is not None:
            self.tally.check(
                "charts", first["top"] <= FIRST_CHART_MAX_PX, name,
                f"the first chart ({first['src']!r}) starts {first['top']:,} px down {px}, "
                f"below {FIRST_CHART_MAX_PX:,} px: the answer's picture is not on a phone's "
                "first screens")

    def _check_fit(self, name: str, fit: dict) -> None:
        """At one width: no table cut off by its frame without a visible cue to scroll to the
        rest, and no short word of a table cell broken across lines."""
        px = f"at {fit['width']} px"
        for t in fit["tables"]:
            label = f"table {t['n']}" + (f" ({t['label']})" if t["label"] else "")
            size = (f"from column {t['firstHidden']!r} on, it is {t['tableWidth']} px wide "
                    f"in a {t['frameWidth']} px frame")
            if not t["hidden"]:
                self.tally.check("tables", True, name, "")
            elif not t["inBox"]:
                self.tally.check("tables", False, name,
                                 f"{label} {px} has columns past the window's edge: {size}; put it "
                                 "in a box with overflow-x: auto and a visible .scroll-cue")
            elif not t["scrollable"]:
                self.tally.check("tables", False, name,
                                 f"{label} {px} has columns out of view in a box that cannot "
                                 f"scroll to them: {size}")
            else:
                self.tally.check("tables", t["cue"], name,
                                 f"{label} {px} has columns out of view and nothing says its box "
                                 f"scrolls (no visible .scroll-cue): {size}")
        for w in fit["brokenWords"]:
            self.tally.check("words", False, name,
                             f"{w['word']!r} is broken across {w['lines']} lines {px} "
                             f"in the cell {w['cell']!r} (lang {w['lang']})")
        if not fit["brokenWords"]:
            self.tally.check("words", True, name, "")

    def _check_weight(self, name: str, url: str, facts: dict) -> None:
        """The page and what it embeds (its <img>, <object> and stylesheet files) within the budget."""
        page = weight.local_file(url, self.base_url, self.site_dir)
        if page is None:
            return
        embedded = [weight.local_file(e["url"] or "", self.base_url, self.site_dir)
                    for e in facts["images"] + facts["objects"] + facts["stylesheets"]]
        measured = weight.page_weight(page, [f for f in embedded if f is not None])
        problem = measured.problem()
        self.tally.check("weight", not problem, name, problem)

    def _judge_weights(self) -> None:
        """Every SVG of the site (embedded or only linked) within one chart's budget, and the
        whole site folder within its own."""
        count, problems = weight.svg_problems(self.site_dir)
        for svg, problem in problems:
            self.tally.check("weight", False, svg, problem)
        for _ in range(count - len(problems)):
            self.tally.check("weight", True, "")
        problem = weight.site_problem(self.site_dir)
        self.tally.check("weight", not problem, "site", problem)

    def _check_links(self, name: str, links: list[dict]) -> list[str]:
        pages = []
        for a in links:
            link: Link = classify(a["raw"], a["url"], self.base_url)
            if link.kind == "skip":
                continue
            if link.kind == "external":
                self.stats.external_links += 1
                continue
            self.stats.links += 1
            if link.kind == "problem":
                self.tally.check("links", False, name, link.problem)
                continue
            target = self.targets.get(link.target)
            if not self.tally.check("links", target.status == 200, name,
                                    f"link to a missing file: {a['raw']!r} "
                                    f"(HTTP {target.status or 'unreachable'})"):
                continue
            if target.is_html:
                pages.append(link.target)
                if link.fragment:
                    self._fragments.append(_Fragment(name, a["raw"], link.target, link.fragment))
        return pages

    def _judge_fragments(self) -> None:
        for f in self._fragments:
            ids = self._ids.get(f.target)
            if ids is None:
                continue  # the target page failed to open: already reported
            ok = f.fragment in ids or f.fragment.lower() == "top"
            self.tally.check("fragments", ok, f.page,
                             f"link {f.raw!r}: no element with id {f.fragment!r} on "
                             f"{page_name(f.target, self.base_url)}")

    def _judge_language_switches(self) -> None:
        """The language switch (``<a hreflang>``) of every page leads to the same page in the
        other language: under an ``en/`` or ``ja/`` folder, the same path with that folder
        swapped, when such a page exists; elsewhere (a site index), a page in the language it
        names whose own switch leads back."""
        for url, page in self._pages.items():
            name = page_name(url, self.base_url)
            counterpart = self._counterpart(url)
            if counterpart and not page.switches:
                self.tally.check("language", False, name,
                                 f"no language switch (<a hreflang>), though "
                                 f"{page_name(counterpart, self.base_url)} exists")
                continue
            for sw in page.switches:
                link = classify(sw["raw"], sw["url"], self.base_url)
                if link.kind != "internal":
                    continue  # an outside or broken link: the links check reports it
                where = page_name(link.target, self.base_url)
                if counterpart:
                    ok = link.target == counterpart
                    msg = (f"language switch {sw['raw']!r} leads to {where}, not to the same "
                           f"page in the other language, {page_name(counterpart, self.base_url)}")
                else:
                    back = self._pages.get(link.target)
                    ok = back is None or any(
                        classify(b["raw"], b["url"], self.base_url).target == url
                        for b in back.switches)
                    msg = f"language switch {sw['raw']!r} leads to {where}, whose switch does not lead back"
                if not self.tally.check("language", ok, name, msg):
                    continue
                target = self._pages.get(link.target)
                got = (target.lang if target else "").lower().split("-")[0]
                want = (sw["hreflang"] or "").lower().split("-")[0]
                self.tally.check("language", target is None or got == want, name,
                                 f'language switch {sw["raw"]!r} says hreflang="{sw["hreflang"]}" '
                                 f'but {where} is <html lang="{target.lang if target else ""}">')

    def _counterpart(self, url: str) -> str | None:
        """The same page in the other language (the last en/ or ja/ folder of its path
        swapped), if the site has that page; else None."""
        if not url.startswith(self.base_url):
            return None
        parts = url[len(self.base_url):].split("/")
        for i in range(len(parts) - 2, -1, -1):
            if parts[i] in LANG_DIRS:
                swapped = parts[:i] + [LANG_DIRS[1 - LANG_DIRS.index(parts[i])]] + parts[i + 1:]
                other = self.base_url + "/".join(swapped)
                if other in self._pages or self.targets.get(other).status == 200:
                    return other
                return None
        return None

    # -- screenshots -----------------------------------------------------------

    def _screenshot_if_wanted(self, name: str, phone: bool) -> None:
        """One PNG per page type, language and width (the first page of each kind), so every
        page type can be read as a reader sees it: index, report, variance, dataset and run,
        each in en and ja, at desktop width and at phone width ("-phone")."""
        if self.shots is None:
            return
        kind = shot_kind(name)
        if kind is None:
            return
        if phone:
            kind += "-phone"
        if kind not in self._shot_kinds:
            self._shot_kinds.add(kind)
            path = self.shots / f"{kind}.png"
            browser.screenshot(self.driver, path)
            self.stats.screenshots.append(path)


def shot_kind(name: str) -> str | None:
    """The screenshot name of a page: "index" for the site's index, else its type and language
    ("report-ja", "variance-en", "dataset-en", "run-ja"); None for other pages."""
    if name == "index.html":
        return "index"
    parts = name.split("/")
    if len(parts) < 3:
        return None
    if "runs" in parts[:-1]:
        kind, lang = "run", parts[parts.index("runs") - 1]
    else:
        kind = {"index.html": "report", "variance.html": "variance", "dataset.html": "dataset"}.get(parts[-1])
        lang = parts[-2]
    return f"{kind}-{lang}" if kind else None
