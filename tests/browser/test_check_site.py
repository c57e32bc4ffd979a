"""Proves check_site.py passes a good site and catches each kind of bad one.

Each case builds a small site in a temp dir (a good one, or the good one with
one fault added), runs the real checker on it in a subprocess, and asserts on
the exit code, the ``page: problem`` line, and which check categories failed:
a fault must be caught, and must not drag unrelated categories down with it.

    .venv/bin/python -m pytest tests/browser -q
"""

from __future__ import annotations

import re
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

import weight
from links import classify

HERE = Path(__file__).resolve().parent
CHECKER = HERE / "check_site.py"
RUN_TIMEOUT_S = 120

SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100">'
    '<title>A bar</title><rect x="10" y="10" width="120" height="80" fill="#36c"/></svg>\n'
)

def linked_svg(href: str, target: str = ' target="_top"') -> str:
    """A chart whose mark links to a page, as the report's run dots do."""
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100">'
            f'<title>Runs</title><a href="{href}"{target}><circle cx="50" cy="50" r="8"/></a></svg>\n')


PAGE = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>body {{ font-family: sans-serif; margin: 1rem; }} .wrap {{ overflow-x: auto; }}</style>
</head>
<body>
{body}
</body>
</html>
"""

INDEX_BODY = """<h1 id="top-heading">Datasets</h1>
<p><a href="ds/en/index.html#results">Report (en)</a>
 · <a href="#summary">Summary</a> · <a href="ds/en/data.csv">CSV</a>
 · <a href="https://example.org/source">source</a></p>
<img src="ds/en/figures/bar.svg" alt="Bar chart of p95 latency">
<svg width="40" height="20" role="img"><title>Inline mark</title><circle cx="10" cy="10" r="8"/></svg>
<div class="wrap">
<p class="scroll-cue">Scroll sideways →</p>
<table id="summary">
<caption>Summary</caption>
<tr><th>dataset</th><th>runs</th>{wide_headers}</tr>
<tr><td>ds</td><td>1</td>{wide_cells}</tr>
</table>
</div>
{extra}
"""

REPORT_BODY = """<h1>Report</h1>
<p><a href="../../index.html">All datasets</a> · <a href="runs/r1.html">Run r1</a>
 · <a href="../ja/index.html#%E7%B5%90%E6%9E%9C" hreflang="ja">日本語</a></p>
<h2 id="results">Results</h2>
<img src="figures/bar.svg" alt="Bar chart">
<object data="figures/runs.svg" type="image/svg+xml" aria-label="Runs chart"></object>
<img src="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='8' height='8'/%3E"
 alt="An inline data: image">
"""

JA_BODY = """<h1>レポート</h1>
<p><a href="../en/index.html" hreflang="en">English</a></p>
<h2 id="結果">結果</h2>
<table><caption>全測定</caption>
<tr><th>測定</th><th>状態</th><th>p95（ms）</th></tr>
<tr><th>r1</th><td>正常</td><td>5,958</td></tr>
</table>
"""

RUN_BODY = """<h1>Run r1</h1>
<p><a href="../index.html#results">Back to the report</a></p>
"""


def build_site(root: Path, extra: str = "", files: dict[str, str] | None = None) -> Path:
    """Write the good fixture site (four pages) under root/site.

    ``extra`` goes into index.html's body; ``files`` adds or replaces files.
    """
    site = root / "site"
    (site / "ds/en/figures").mkdir(parents=True)
    (site / "ds/en/runs").mkdir()
    (site / "ds/ja").mkdir()
    wide = 30  # a table much wider than a phone, inside its own scrolling box
    (site / "index.html").write_text(PAGE.format(
        lang="en", title="Datasets", body=INDEX_BODY.format(
            extra=extra,
            wide_headers="".join(f"<th>column {i}</th>" for i in range(wide)),
            wide_cells="".join(f"<td>{i}.000</td>" for i in range(wide)))), encoding="utf-8")
    (site / "ds/en/index.html").write_text(
        PAGE.format(lang="en", title="Report", body=REPORT_BODY), encoding="utf-8")
    (site / "ds/en/runs/r1.html").write_text(
        PAGE.format(lang="en", title="Run r1", body=RUN_BODY), encoding="utf-8")
    (site / "ds/ja/index.html").write_text(
        PAGE.format(lang="ja", title="レポート", body=JA_BODY), encoding="utf-8")
    (site / "ds/en/figures/bar.svg").write_text(SVG, encoding="utf-8")
    (site / "ds/en/figures/runs.svg").write_text(linked_svg("../runs/r1.html"), encoding="utf-8")
    (site / "ds/en/data.csv").write_text("run,p95_ms\nr1,12.5\n", encoding="utf-8")
    for rel, text in (files or {}).items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(text, encoding="utf-8")
    return site


def run_checker(site: Path, shots: Path) -> tuple[int, str, dict[str, tuple[int, int]], float]:
    """Run check_site.py; return exit code, stdout, {category: (passed, failed)}, seconds."""
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, str(CHECKER), str(site), "--screenshots", str(shots)],
        capture_output=True, text=True, timeout=RUN_TIMEOUT_S,
    )
    elapsed = time.monotonic() - started
    counts = {
        m[1]: (int(m[2]), int(m[3]))
        for m in re.finditer(r"^(\w+): (\d+) passed, (\d+) failed$", proc.stdout, re.M)
    }
    assert proc.stderr.strip() == "", proc.stderr
    return proc.returncode, proc.stdout, counts, elapsed


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", data[16:24])


def test_good_site_passes_every_check(tmp_path: Path) -> None:
    code, out, counts, _ = run_checker(build_site(tmp_path), tmp_path / "shots")
    assert code == 0, out
    assert "4 pages, " in out, out
    assert "(1 links to other sites not followed)" in out, out
    assert out.rstrip().splitlines()[-1].endswith(" passed, 0 failed"), out
    for category in ("pages", "console", "requests", "links", "fragments", "images",
                     "a11y", "layout", "tables", "words", "language", "weight", "file", "charts"):
        passed, failed = counts[category]
        assert passed > 0 and failed == 0, (category, out)
    # #results, #summary, run page -> #results, en -> ja #結果 (percent-encoded)
    assert counts["fragments"] == (4, 0), out
    assert png_size(tmp_path / "shots/index.png")[0] == 1280
    assert png_size(tmp_path / "shots/report-en.png")[0] == 1280
    assert png_size(tmp_path / "shots/report-en-phone.png")[0] == 390
    assert png_size(tmp_path / "shots/run-en.png")[0] == 1280
    assert png_size(tmp_path / "shots/report-ja.png")[0] == 1280
    assert png_size(tmp_path / "shots/report-ja-phone.png")[0] == 390
    assert png_size(tmp_path / "shots/index-phone.png")[0] == 390


# A table wider than any window (30 columns of 200 px) in a box that scrolls.
WIDE_ROW = "".join(f'<th style="min-width: 200px">c{i}</th>' for i in range(30))
# A cell held to one character's width, breaking between any two: 正/常, 5,/958.
NARROW_CELL = '<td style="width: 1em; word-break: break-all">{}</td>'


def svg_of(size: int) -> str:
    """A valid chart of exactly ``size`` bytes: the small bar with a long description."""
    head, tail = SVG.split("<title>", 1)
    filler = size - len(SVG) - len("<desc></desc>")
    return f"{head}<desc>{'x' * filler}</desc><title>{tail}"


# Five charts of 125,000 bytes, each within one chart's budget, together over a page's.
HEAVY_FIGURES = "".join(
    f'<object data="ds/en/figures/heavy-{i}.svg" type="image/svg+xml" aria-label="heavy {i}"></object>'
    for i in range(5))


# A chart drawn 760 px wide with 12 px text, scaled to a phone's width: 5.6 px.
SMALL_TEXT_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="760" height="200" viewBox="0 0 760 200">'
    '<title>Wide</title><text x="10" y="100" font-size="12">p95 (ms)</text></svg>\n'
)


def run_page_with_switch(lang: str, switch: str) -> str:
    return PAGE.format(lang=lang, title="Run r1", body=f"<h1>r1</h1>{switch}")



# Each: the fault added to index.html, the line that must be printed, the
# categories that must fail (all others must pass), and optionally files to add.
BAD_SITES = {
    "wide_table_without_scroll_cue": (
        f'<div class="wrap"><table><caption>wide</caption><tr>{WIDE_ROW}</tr></table></div>',
        "index.html: table 2 (wide) at 1280 px has columns out of view and nothing says "
        "its box scrolls (no visible .scroll-cue): from column 'c6' on",
        {"tables"},
    ),
    "wide_table_with_a_hidden_scroll_cue": (
        f'<div class="wrap"><p class="scroll-cue" style="visibility: hidden">Scroll →</p>'
        f'<table><caption>wide</caption><tr>{WIDE_ROW}</tr></table></div>',
        "index.html: table 2 (wide) at 1280 px has columns out of view and nothing says "
        "its box scrolls",
        {"tables"},
    ),
    "wide_table_clipped_by_a_box_that_cannot_scroll": (
        f'<div style="overflow: hidden"><p class="scroll-cue">Scroll →</p>'
        f'<table><caption>wide</caption><tr>{WIDE_ROW}</tr></table></div>',
        "index.html: table 2 (wide) at 1280 px has columns out of view in a box that cannot "
        "scroll to them",
        {"tables"},
    ),
    "short_japanese_word_broken": (
        f'<table lang="ja"><caption>状態</caption><tr><th>r1</th>{NARROW_CELL.format("正常")}</tr></table>',
        "index.html: '正常' is broken across 2 lines at 1280 px in the cell '正常' (lang ja)",
        {"words"},
    ),
    "number_broken": (
        f'<table><caption>p95</caption><tr><th>r1</th>{NARROW_CELL.format("5,958")}</tr></table>',
        "index.html: '5,958' is broken across",
        {"words"},
    ),
    "run_page_switch_leads_to_the_report_index": (
        "",
        "ds/en/runs/r1.html: language switch '../../ja/index.html' leads to ds/ja/index.html, "
        "not to the same page in the other language, ds/ja/runs/r1.html",
        {"language"},
        {"ds/en/runs/r1.html": run_page_with_switch(
            "en", '<a href="../../ja/index.html" hreflang="ja">日本語</a>'),
         "ds/ja/runs/r1.html": run_page_with_switch(
            "ja", '<a href="../../en/runs/r1.html" hreflang="en">English</a>')},
    ),
    "page_without_its_language_switch": (
        "",
        "ds/ja/index.html: no language switch (<a hreflang>), though ds/en/index.html exists",
        {"language"},
        {"ds/ja/index.html": PAGE.format(lang="ja", title="レポート",
                                         body='<h1>レポート</h1><h2 id="結果">結果</h2>')},
    ),
    "site_index_switch_that_does_not_lead_back": (
        '<a href="index.ja.html" hreflang="ja">日本語</a>',
        "index.html: language switch 'index.ja.html' leads to index.ja.html, whose switch "
        "does not lead back",
        {"language"},
        {"index.ja.html": PAGE.format(lang="ja", title="データセット",
                                      body='<a href="ds/ja/index.html" hreflang="ja">x</a>')},
    ),
    "broken_image": (
        '<img src="figures/missing.svg" alt="gone">',
        "index.html: broken image: 'figures/missing.svg'",
        {"images", "requests"},
    ),
    "broken_object_chart": (
        '<object data="ds/en/figures/missing.svg" type="image/svg+xml" aria-label="gone"></object>',
        "index.html: embedded chart 'ds/en/figures/missing.svg' did not load as an SVG document",
        {"images", "requests"},
    ),
    "object_chart_without_label": (
        '<object data="ds/en/figures/bar.svg" type="image/svg+xml"></object>',
        "index.html: embedded chart 'ds/en/figures/bar.svg' has no aria-label",
        {"a11y"},
    ),
    "object_chart_link_opens_inside_the_chart": (
        '<object data="ds/en/figures/inside.svg" type="image/svg+xml" aria-label="c"></object>',
        "index.html: link '../runs/r1.html' in the embedded chart 'ds/en/figures/inside.svg' "
        "opens inside the chart's box",
        {"links"},
        {"ds/en/figures/inside.svg": linked_svg("../runs/r1.html", target="")},
    ),
    "object_chart_link_to_missing_run": (
        '<object data="ds/en/figures/gone.svg" type="image/svg+xml" aria-label="c"></object>',
        "index.html (ds/en/figures/gone.svg): link to a missing file: '../runs/r9.html' (HTTP 404)",
        {"links"},
        {"ds/en/figures/gone.svg": linked_svg("../runs/r9.html")},
    ),
    "link_to_missing_page": (
        '<a href="ds/en/nope.html">nope</a>',
        "index.html: link to a missing file: 'ds/en/nope.html' (HTTP 404)",
        {"links"},
    ),
    "link_to_missing_file": (
        '<a href="ds/en/report.md">markdown</a>',
        "index.html: link to a missing file: 'ds/en/report.md' (HTTP 404)",
        {"links"},
    ),
    "link_to_missing_fragment": (
        '<a href="ds/en/index.html#nowhere">nowhere</a>',
        "index.html: link 'ds/en/index.html#nowhere': no element with id 'nowhere' "
        "on ds/en/index.html",
        {"fragments"},
    ),
    "console_error": (
        '<script>console.error("x")</script>',
        "index.html: console error: ",
        {"console"},
    ),
    "external_request": (
        '<img src="http://203.0.113.1/x.png" alt="remote">',
        "index.html: request to another origin (a self-contained site makes none): "
        "http://203.0.113.1/x.png (blocked)",
        {"requests", "images"},
    ),
    "table_without_caption": (
        "<table><tr><th>a</th></tr><tr><td>1</td></tr></table>",
        "index.html: table 2 has no <caption>",
        {"a11y"},
    ),
    "table_without_header_cells": (
        "<table><caption>c</caption><tr><td>1</td></tr></table>",
        "index.html: table 2 (c) has no <th> cells",
        {"a11y"},
    ),
    "image_without_alt": (
        '<img src="ds/en/figures/bar.svg">',
        "index.html: image 'ds/en/figures/bar.svg' has no alt text",
        {"a11y"},
    ),
    "inline_svg_without_title": (
        '<svg width="10" height="10"><rect width="10" height="10"/></svg>',
        "index.html: inline svg 2 has no <title>",
        {"a11y"},
    ),
    "page_language_does_not_match_its_folder": (
        '<a href="ds/ja/other.html">other</a>',
        'ds/ja/other.html: <html lang="en"> but the page is under ja/',
        {"a11y"},
        {"ds/ja/other.html": PAGE.format(lang="en", title="Other", body="<p>x</p>")},
    ),
    "no_viewport_meta": (
        '<a href="plain.html">plain</a>',
        'plain.html: <meta name="viewport"',
        {"layout"},
        {"plain.html": PAGE.replace('<meta name="viewport" content="width=device-width, '
                                    'initial-scale=1">\n', "").format(
            lang="en", title="Plain", body="<p>x</p>")},
    ),
    "wide_page_on_a_phone": (
        '<div id="banner" style="width: 800px">too wide</div>',
        "index.html: scrolls sideways at 390 px (document 816 px wide): div#banner",
        {"layout"},
    ),
    "link_to_a_folder": (
        '<a href="ds/en/">folder</a>',
        "index.html: link 'ds/en/' names a folder",
        {"links"},
    ),
    "absolute_link": (
        '<a href="/site/ds/en/index.html">absolute</a>',
        "index.html: link '/site/ds/en/index.html' is an absolute path",
        {"links"},
    ),
    "svg_over_the_budget": (
        '<object data="ds/en/figures/fat.svg" type="image/svg+xml" aria-label="fat"></object>',
        "ds/en/figures/fat.svg: 150,001 bytes: over the budget of 150,000 bytes one chart may weigh",
        {"weight"},
        {"ds/en/figures/fat.svg": svg_of(150_001)},
    ),
    "svg_over_the_budget_that_no_page_embeds": (
        "",
        "ds/en/figures/unlinked.svg: 200,000 bytes: over the budget",
        {"weight"},
        {"ds/en/figures/unlinked.svg": svg_of(200_000)},
    ),
    "page_with_figures_over_the_budget": (
        HEAVY_FIGURES + HEAVY_FIGURES,
        "index.html: weighs ",
        {"weight"},
        {f"ds/en/figures/heavy-{i}.svg": svg_of(125_000) for i in range(5)},
    ),
    "chart_text_too_small_on_a_phone": (
        '<object data="ds/en/figures/wide.svg" type="image/svg+xml" aria-label="wide" '
        'style="max-width: 100%; height: auto"></object>',
        "index.html: chart 'ds/en/figures/wide.svg' at 390 px shows text at 5.",
        {"charts"},
        {"ds/en/figures/wide.svg": SMALL_TEXT_SVG},
    ),
    "report_first_chart_below_the_first_screens": (
        "",
        "ds/en/index.html: the first chart ('figures/bar.svg') starts ",
        {"charts"},
        {"ds/en/index.html": PAGE.format(lang="en", title="Report", body=REPORT_BODY.replace(
            '<h2 id="results">Results</h2>', '<div style="height: 2000px"></div><h2 id="results">Results</h2>'))},
    ),
    "site_over_the_budget": (
        "",
        "site: 25,",
        {"weight"},
        {"ds/en/raw.csv": "x" * 25_000_000},
    ),
    # Works over http under /site/, breaks from file://: only the file:// visit
    # and the absolute-path rule can see it.
    "absolute_image_path": (
        '<img src="/site/ds/en/figures/bar.svg" alt="abs">',
        "index.html (file://): broken image from file://: '/site/ds/en/figures/bar.svg'",
        {"links", "file"},
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_SITES))
def test_bad_site_is_caught(tmp_path: Path, case: str) -> None:
    extra, expected_line, failing, *files = BAD_SITES[case]
    site = build_site(tmp_path, extra, files[0] if files else None)
    code, out, counts, elapsed = run_checker(site, tmp_path / "shots")
    assert code == 1, out
    assert any(line.startswith(expected_line) for line in out.splitlines()), out
    assert {c for c, (_, failed) in counts.items() if failed and c != "checks"} == failing, out
    assert counts["checks"][1] >= 1, out
    # Blocked, not waited for: a foreign request must not stall the check.
    assert elapsed < 30, f"took {elapsed:.1f} s"


def test_missing_index_is_a_usage_error(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, str(CHECKER), str(tmp_path)],
                          capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    assert proc.returncode == 2
    assert "index.html not found" in proc.stderr


BASE = "http://127.0.0.1:8000/site/"


@pytest.mark.parametrize(("raw", "url", "kind"), [
    ("a/b.html#x", BASE + "a/b.html#x", "internal"),
    ("https://example.org/", "https://example.org/", "external"),
    ("mailto:a@b.c", "mailto:a@b.c", "skip"),
    ("/site/a.html", BASE + "a.html", "problem"),
    ("../other/a.html", "http://127.0.0.1:8000/other/a.html", "problem"),
    ("a/", BASE + "a/", "problem"),
])
def test_classify_link(raw: str, url: str, kind: str) -> None:
    assert classify(raw, url, BASE).kind == kind


def test_classify_decodes_the_fragment() -> None:
    link = classify("p.html#%E7%B5%90%E6%9E%9C", BASE + "p.html#%E7%B5%90%E6%9E%9C", BASE)
    assert (link.target, link.fragment) == (BASE + "p.html", "結果")


def test_a_figure_embedded_twice_weighs_once(tmp_path: Path) -> None:
    page, chart = tmp_path / "p.html", tmp_path / "c.svg"
    page.write_text("x" * 1000)
    chart.write_text("y" * 599_001)
    measured = weight.page_weight(page, [chart, chart])
    assert (measured.page, measured.figures, measured.count, measured.total) == (1000, 599_001, 1, 600_001)
    assert measured.problem().startswith("weighs 600,001 bytes with the 1 file it embeds (page 1,000, embedded 599,001)")
    chart.write_text("y" * 599_000)
    assert weight.page_weight(page, [chart]).problem() == "", "600,000 bytes is within the budget"
