"""Headless Chromium for the browser check: start it locked down, read its logs.

Owns the WebDriver session and turning Chromium's logs into plain records.
It judges nothing: ``crawl.py`` decides what is a problem.

Locked down means: Debian's ``/usr/bin/chromium`` driven by the system
``/usr/bin/chromedriver`` (Selenium Manager is never asked to download one), a
fresh profile, every non-loopback request blocked inside the browser (CDP
``Network.setBlockedURLs``) and, should anything slip past that, sent to a local
sink proxy instead of the network, and no DNS look-ups.
"""

from __future__ import annotations

import base64
import json
import math
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("SE_OFFLINE", "1")  # never let Selenium Manager reach out

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
PAGE_LOAD_TIMEOUT_S = 20
SCRIPT_TIMEOUT_S = 15
IMAGE_WAIT_MS = 8000
DESKTOP = (1280, 900)
PHONE = (390, 844)
SCREENSHOT_MAX_HEIGHT = 12000
_HERE = Path(__file__).resolve().parent
_PAGE_PROBE = (_HERE / "page_probe.js").read_text(encoding="utf-8")
_OVERFLOW_PROBE = (_HERE / "overflow_probe.js").read_text(encoding="utf-8")
_FIT_PROBE = (_HERE / "fit_probe.js").read_text(encoding="utf-8")
_CHART_PROBE = (_HERE / "chart_probe.js").read_text(encoding="utf-8")

_ARGS = [
    # Required on this machine (closed network, no GPU, small /dev/shm).
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    # Quieter start, and overlay scrollbars as on a phone, so a vertical
    # scrollbar neither hides nor fakes a horizontal overflow.
    "--disable-extensions",
    "--disable-default-apps",
    "--no-default-browser-check",
    "--hide-scrollbars",
    # No DNS at all; the servers are IP literals.
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
]


@dataclass
class Request:
    """One network request a page made, as the performance log tells it."""

    url: str
    status: int | None = None
    error: str | None = None
    blocked: bool = False
    canceled: bool = False


@dataclass
class PageLogs:
    """What the browser logged while one page was open."""

    severe: list[str]
    requests: list[Request]


def start(sink_port: int, user_data_dir: str) -> webdriver.Chrome:
    """Start Chromium with the locked-down options and bounded timeouts."""
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in _ARGS:
        opts.add_argument(arg)
    opts.add_argument(f"--user-data-dir={user_data_dir}")
    opts.add_argument(f"--window-size={DESKTOP[0]},{DESKTOP[1]}")
    opts.add_argument(f"--proxy-server=http://127.0.0.1:{sink_port}")
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=opts)
    driver.set_page_load_timeout(PAGE_LOAD_TIMEOUT_S)
    driver.set_script_timeout(SCRIPT_TIMEOUT_S)
    return driver


def block_all_but(driver: webdriver.Chrome, origin: str) -> bool:
    """Block, inside the browser, every request that is not to ``origin`` or file://.

    Returns False when this Chromium lacks ``urlPatterns``; the sink proxy then
    still keeps such requests on the machine, they just fail a little later.
    """
    driver.execute_cdp_cmd("Network.enable", {})
    patterns = [
        {"urlPattern": f"{origin}/*", "block": False},
        {"urlPattern": "file:///*", "block": False},
        {"urlPattern": "data\\:*", "block": False},
        {"urlPattern": "*://*/*", "block": True},
    ]
    try:
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urlPatterns": patterns})
    except Exception:  # noqa: BLE001 - an old Chromium: the sink is the fallback
        return False
    return True


def take_logs(driver: webdriver.Chrome) -> PageLogs:
    """Drain the console and performance logs gathered since the last call."""
    severe = [e["message"] for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    by_id: dict[str, Request] = {}
    ordered: list[Request] = []
    for entry in driver.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        method, params = msg.get("method"), msg.get("params", {})
        rid = params.get("requestId")
        if method == "Network.requestWillBeSent":
            redirect = params.get("redirectResponse")
            if redirect and rid in by_id:
                by_id[rid].status = redirect.get("status")
            req = Request(url=params["request"]["url"])
            by_id[rid] = req
            ordered.append(req)
        elif method == "Network.responseReceived" and rid in by_id:
            by_id[rid].status = params["response"].get("status")
        elif method == "Network.loadingFailed" and rid in by_id:
            req = by_id[rid]
            req.blocked = params.get("blockedReason") is not None
            req.canceled = bool(params.get("canceled"))
            req.error = params.get("errorText") or params.get("blockedReason") or "failed"
    kept = [r for r in ordered if r.url.split(":", 1)[0] in ("http", "https", "file")]
    return PageLogs(severe=severe, requests=kept)


_WAIT_FOR_IMAGES = """
const done = arguments[arguments.length - 1];
const imgs = Array.from(document.images);
for (const img of imgs) { if (img.loading === 'lazy') img.loading = 'eager'; }
// A chart embedded with <object> is settled once its document is complete, or once its fetch
// ended in an HTTP error or no response (Chromium fires no event for a failed <object>, so the
// resource timing entry says it).
const objectSettled = (o) => {
  const doc = o.contentDocument;
  if (doc && doc.readyState === 'complete' && doc.documentElement) return true;
  return performance.getEntriesByName(o.data).some((e) => !(e.responseStatus >= 200 && e.responseStatus < 400));
};
const objectLoaded = (o) => new Promise((resolve) => {
  const poll = () => (objectSettled(o) ? resolve() : setTimeout(poll, 20));
  poll();
});
const objects = Array.from(document.querySelectorAll('object[data]'));
const timer = setTimeout(() => done('timeout'), arguments[0]);
Promise.allSettled([...imgs.map((img) => img.decode()), ...objects.map(objectLoaded)]).then(() => {
  clearTimeout(timer);
  done('ok');
});
"""


def wait_for_images(driver: webdriver.Chrome) -> bool:
    """Wait (bounded) until every image and <object> has loaded or failed; False on timeout."""
    return driver.execute_async_script(_WAIT_FOR_IMAGES, IMAGE_WAIT_MS) == "ok"


def page_facts(driver: webdriver.Chrome) -> dict:
    """Links, ids, images, tables, inline SVGs, lang, title, viewport: see page_probe.js."""
    return driver.execute_script(_PAGE_PROBE)


def overflow(driver: webdriver.Chrome) -> dict:
    """{scrollWidth, innerWidth, culprits} at the current width: see overflow_probe.js."""
    return driver.execute_script(_OVERFLOW_PROBE)


_TWO_FRAMES = """
const done = arguments[arguments.length - 1];
requestAnimationFrame(() => requestAnimationFrame(() => done(true)));
"""


def fit(driver: webdriver.Chrome) -> dict:
    """{width, tables, brokenWords} at the current width: see fit_probe.js. Measured after two
    animation frames, as a reader sees the page once it has rendered at this width (a scroll
    timeline, which shows a table's scroll cue, takes effect at a frame)."""
    driver.execute_async_script(_TWO_FRAMES)
    return driver.execute_script(_FIT_PROBE)


def charts(driver: webdriver.Chrome) -> dict:
    """{width, charts, firstChart} at the current width: see chart_probe.js."""
    driver.execute_async_script(_TWO_FRAMES)
    return driver.execute_script(_CHART_PROBE)


def set_phone_width(driver: webdriver.Chrome, on: bool) -> None:
    """Lay the open page out at a phone's width (390 CSS px), or back to desktop."""
    if on:
        width, height = PHONE
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )
    else:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def screenshot(driver: webdriver.Chrome, path: Path) -> None:
    """Save a PNG of the whole page (capped at SCREENSHOT_MAX_HEIGHT px)."""
    metrics = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})
    size = metrics["cssContentSize"]
    clip = {
        "x": 0,
        "y": 0,
        "width": math.ceil(size["width"]),
        "height": min(math.ceil(size["height"]), SCREENSHOT_MAX_HEIGHT),
        "scale": 1,
    }
    shot = driver.execute_cdp_cmd(
        "Page.captureScreenshot",
        {"format": "png", "captureBeyondViewport": True, "clip": clip},
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(base64.b64decode(shot["data"]))


def new_profile_dir() -> tempfile.TemporaryDirectory:
    """A fresh, throw-away Chromium profile."""
    return tempfile.TemporaryDirectory(prefix="check-site-chromium-", ignore_cleanup_errors=True)
