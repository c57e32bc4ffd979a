"""Open the site's start page from disk (file://), as a person double-clicking it would.

Reports only what breaks from file:// but not over http: whatever already
failed over http was reported by the crawl, and saying it again would only
double the list. Everything here counts in the ``file`` category.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

from selenium.common.exceptions import WebDriverException

import browser
from links import Targets, classify
from netlog import judge_requests, relative, severe_news
from tally import Tally


def check_start_page(driver, site_dir: Path, base_url: str, targets: Targets, tally: Tally,
                     start_failures: set[str], start_console: set[str]) -> None:
    """Open ``site_dir/index.html`` from file:// and check it, its images and its links.

    ``start_failures`` are site-relative URLs that already failed on the start page
    over http; ``start_console`` its SEVERE console messages with the site URL cut out.
    """
    base = site_dir.resolve().as_uri() + "/"
    name = "index.html (file://)"
    known = start_failures
    browser.take_logs(driver)
    try:
        driver.get(base + "index.html")
        browser.wait_for_images(driver)
        facts = browser.page_facts(driver)
    except WebDriverException as err:
        tally.check("file", False, name, f"could not be opened: {err.msg}")
        return
    tally.check("file", True, name)
    for img in facts["images"]:
        if relative(img["url"], base) not in known:
            tally.check("file", img["loaded"], name,
                       f"broken image from file://: {img['raw']!r}")
    for a in facts["links"]:
        link = classify(a["raw"], a["url"], base)
        if link.kind != "internal":
            continue  # folders and absolute paths were reported by the crawl
        over_http = targets.get(base_url + relative(link.target, base))
        if over_http.status != 200:
            continue  # reported by the crawl
        path = Path(url2pathname(unquote(urlsplit(link.target).path)))
        tally.check("file", path.is_file(), name,
                   f"link {a['raw']!r} does not open from file://")

    def inside(url: str) -> str:
        if url.startswith(base):
            return ""
        if url.startswith("file:"):
            return "request outside the site folder"
        return "request to another origin (a self-contained site makes none)"

    logs = browser.take_logs(driver)
    judged = [(r, m) for r, m in judge_requests(logs.requests, inside, "")
              if relative(r.url, base) not in known]
    for req, msg in judged:
        tally.check("file", not msg, name, msg)
    # URLs whose console echo is already said: here, or over http.
    failed = {req.url for req, msg in judged if msg} | known | {base + k for k in known}
    severe = [m for m in severe_news(logs.severe, failed)
              if m.replace(base, "") not in start_console]
    tally.check("file", not severe, name, "console error: " + "; ".join(severe)[:500])
