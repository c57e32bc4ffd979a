"""The page-weight budget (issue 39): what a reader on a slow link downloads, in bytes as the
files lie on disk (uncompressed; a static host may compress them, a reader's cache may not help).

- one chart (any ``.svg`` file of the site): at most ``SVG_MAX`` bytes;
- one page with the figures and stylesheets it embeds (each ``<img src>``, ``<object data>`` and
  ``<link rel="stylesheet">`` file inside the site, counted once): at most ``PAGE_MAX`` bytes;
- the whole site folder (every file in it): at most ``SITE_MAX`` bytes.

A kilobyte here is 1,000 bytes, a megabyte 1,000,000: the budget is the stricter reading.
Pure functions over paths and URLs; ``crawl.py`` counts the checks.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

SVG_MAX = 150_000
PAGE_MAX = 600_000
SITE_MAX = 25_000_000


def local_file(url: str, base_url: str, site_dir: Path) -> Path | None:
    """The file of the site a URL served from ``base_url`` names, or None (another origin, a
    ``data:`` URL, a folder, or nothing there)."""
    if not url.startswith(base_url):
        return None
    path = urlsplit(url[len(base_url):]).path
    candidate = site_dir / unquote(path)
    return candidate if candidate.is_file() else None


@dataclass
class PageWeight:
    """A page's own bytes and those of the distinct files it embeds (figures, stylesheets)."""

    page: int
    figures: int
    count: int

    @property
    def total(self) -> int:
        return self.page + self.figures

    def problem(self) -> str:
        """'' within the budget, else what is over it, in words a person can act on."""
        if self.total <= PAGE_MAX:
            return ""
        files = "the 1 file" if self.count == 1 else f"the {self.count} files"
        return (f"weighs {self.total:,} bytes with {files} it embeds (page {self.page:,}, "
                f"embedded {self.figures:,}): over the budget of {PAGE_MAX:,} bytes a page with its "
                "figures may weigh; draw fewer marks or split the page")


def page_weight(page_file: Path, figure_files: list[Path]) -> PageWeight:
    """The weight of a page and the files it embeds, each file counted once."""
    distinct = sorted(set(figure_files))
    return PageWeight(page_file.stat().st_size, sum(f.stat().st_size for f in distinct), len(distinct))


def svg_problems(site_dir: Path) -> tuple[int, list[tuple[str, str]]]:
    """How many SVG files the site holds, and (its path in the site, what is wrong) for each SVG
    over ``SVG_MAX`` bytes."""
    svgs = sorted(site_dir.rglob("*.svg"))
    problems = []
    for svg in svgs:
        size = svg.stat().st_size
        if size > SVG_MAX:
            problems.append((svg.relative_to(site_dir).as_posix(),
                             f"{size:,} bytes: over the budget of {SVG_MAX:,} bytes one chart may "
                             "weigh; draw fewer marks"))
    return len(svgs), problems


def site_problem(site_dir: Path) -> str:
    """'' when every file of the site adds up to at most ``SITE_MAX`` bytes, else what it weighs."""
    sizes = [p.stat().st_size for p in site_dir.rglob("*") if p.is_file()]
    total = sum(sizes)
    if total <= SITE_MAX:
        return ""
    return (f"{total:,} bytes in {len(sizes):,} files: over the budget of {SITE_MAX:,} bytes the "
            "whole site may weigh")
