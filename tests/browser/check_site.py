#!/usr/bin/env python3
"""End-to-end browser check of a generated static site.

    check_site.py SITE_DIR [--screenshots DIR] [--serve]

Serves SITE_DIR's parent on 127.0.0.1 (so the site sits under a sub-path),
crawls every page reachable from SITE_DIR/index.html in headless Chromium, and
checks console errors, failed and foreign requests, links, #fragments, images,
cheap accessibility rules and the phone layout; then opens the start page from
file://. Prints each problem as ``page: problem``, a summary, and exits 1 if
there was any problem, 2 if the check could not run. See README.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from selenium.common.exceptions import WebDriverException

import browser
from crawl import Crawler
from servers import Sink, StaticSite


def parse_args(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].strip())
    ap.add_argument("site_dir", type=Path, metavar="SITE_DIR",
                    help="folder holding the site's index.html")
    ap.add_argument("--screenshots", type=Path, default=Path("target/screenshots"),
                    metavar="DIR", help="where to save PNG screenshots (default: %(default)s)")
    ap.add_argument("--serve", action="store_true",
                    help="after checking, keep serving the site until Ctrl-C, to look at it")
    return ap.parse_args(argv)


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    site_dir = args.site_dir.resolve()
    if not (site_dir / "index.html").is_file():
        print(f"error: {site_dir}/index.html not found (run `just report` first?)", file=sys.stderr)
        return 2
    for exe in (browser.CHROMIUM, browser.CHROMEDRIVER):
        if not Path(exe).is_file():
            print(f"error: {exe} not found: apt-get install chromium chromium-driver",
                  file=sys.stderr)
            return 2

    started = time.monotonic()
    with Sink() as sink, StaticSite(site_dir) as site, browser.new_profile_dir() as profile:
        try:
            driver = browser.start(sink.port, profile)
        except WebDriverException as err:
            print(f"error: could not start {browser.CHROMIUM} via {browser.CHROMEDRIVER}: "
                  f"{err.msg}", file=sys.stderr)
            return 2
        try:
            if not browser.block_all_but(driver, site.origin):
                print("note: this Chromium cannot block by URL pattern; "
                      "foreign requests go to the local sink instead", file=sys.stderr)
            crawler = Crawler(driver, site.origin, site.base_url, site_dir, args.screenshots)
            crawler.run()
        finally:
            driver.quit()

        tally, stats = crawler.tally, crawler.stats
        for problem in tally.problems:
            print(problem)
        print(f"{stats.pages} pages, {stats.links} links, {stats.images} images checked "
              f"({stats.external_links} links to other sites not followed) "
              f"in {time.monotonic() - started:.1f} s, served at {site.base_url}")
        if stats.screenshots:
            print("screenshots: " + ", ".join(str(p) for p in stats.screenshots))
        for line in tally.lines():
            print(line)

        if args.serve:
            print(f"serving {site.base_url}index.html until Ctrl-C", flush=True)
            try:
                while True:
                    time.sleep(3600)
            except KeyboardInterrupt:
                pass
    return 1 if tally.problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
