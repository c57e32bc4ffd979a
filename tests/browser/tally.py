"""Counting checks and collecting problems; printing the verdict.

Every check is counted in one category, passed or failed. A failed check keeps
its page and a one-line message, so the output reads ``page: problem``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Printed in this order; each is one kind of thing the checker looks at.
CATEGORIES = {
    "pages": "each page reachable from index.html opens (HTTP 200, in time)",
    "console": "no console message of level SEVERE",
    "requests": "every request succeeds and stays inside the site folder on 127.0.0.1",
    "links": "every internal link is relative and names an existing file",
    "fragments": "every #fragment names an id on its target page",
    "images": "every <img> loads (naturalWidth > 0), every <object> chart as an SVG, and every stylesheet",
    "a11y": "html lang, <title>, table caption and th, img alt, chart label, svg title, unique ids",
    "layout": "viewport meta, and no sideways scrolling at 390 px",
    "tables": "at 1280 and 390 px, no table cut off by its frame without a visible scroll cue",
    "words": "at 1280 and 390 px, no word of a short text of a table cell broken across lines",
    "charts": "at 390 px, chart text at least 11 px as shown; a report's first chart within 1,700 px of the top",
    "language": "each page's language switch leads to the same page in the other language",
    "weight": "no SVG over 150 KB, no page with its figures and stylesheet over 600 KB, the site under 25 MB",
    "file": "the start page works when opened from file://",
}


@dataclass
class Problem:
    """One failed check: where, and what is wrong, in words a person can act on."""

    page: str
    category: str
    message: str

    def __str__(self) -> str:
        return f"{self.page}: {self.message}"


@dataclass
class Tally:
    """Passed and failed counts per category, and the failures themselves."""

    passed: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CATEGORIES, 0))
    failed: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CATEGORIES, 0))
    problems: list[Problem] = field(default_factory=list)

    def check(self, category: str, ok: bool, page: str, message: str = "") -> bool:
        """Count one check; on failure keep ``message`` against ``page``."""
        if ok:
            self.passed[category] += 1
        else:
            self.failed[category] += 1
            self.problems.append(Problem(page, category, message))
        return ok

    def lines(self) -> list[str]:
        """Per-category lines, then the closing ``checks: N passed, M failed``."""
        out = []
        for name in CATEGORIES:
            p, f = self.passed[name], self.failed[name]
            if p or f:
                out.append(f"{name}: {p} passed, {f} failed")
        total_p, total_f = sum(self.passed.values()), sum(self.failed.values())
        out.append(f"checks: {total_p} passed, {total_f} failed")
        return out
