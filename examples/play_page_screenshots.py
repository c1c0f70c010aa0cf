"""Take the Play page's screenshots for docs/play-in-browser.md (docs/assets/play/*.png) in headless Chromium.

    bash .ci/pyodide                                  # once
    python examples/play_page_screenshots.py [--site DIR] [--out DIR]

Builds the page (build_play_page.py) unless --site names a built one, plays the scenes below through the
page's own controls and writes a PNG of each (the part of the page it is about; play-decision-page.png
is the whole page, the board too; play-phone-*.png are the page on a phone's screen), with
`screens.json`: what each screenshot shows as text (the decision and its options, the diagnostics, the
scores, the page's width on the phone). tests/test_play_page.py takes them again and fails while the
text differs from the committed screens.json or a picture's size from the committed one.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT / "tests", ROOT / "examples"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from build_play_page import build  # noqa: E402

from cdp import Browser, Server, find_chromium  # noqa: E402

OUT = ROOT / "docs" / "assets" / "play"
WIDTH = 1100
PHONE = (390, 844, 2)  # a phone's screen in CSS pixels, and its device pixels to one
PAGE_WIDTH = "document.documentElement.scrollWidth"
ERROR_FILE = ROOT / "tests" / "golden" / "errors" / "01-unknown-account.lg"
SETTLED = "['deciding', 'over', 'setup'].includes(document.body.dataset.phase)"


def _set(browser: Browser, element: str, value: str) -> None:
    browser.evaluate(
        f"(function (e) {{ e.value = {json.dumps(value)}; e.dispatchEvent(new Event('input'));"
        f" e.dispatchEvent(new Event('change')); }})(document.getElementById({element!r}))"
    )


def _answer_first(browser: Browser) -> str:
    """Answer the pending decision with its first option (a bid with Pass); return the phase after it."""
    bid = browser.evaluate("!document.getElementById('bidding').hidden")
    browser.evaluate("document.querySelector(%r).click()" % ("#pass" if bid else "#options button.option"))
    browser.wait_for("document.body.dataset.phase !== 'waiting' && " + SETTLED, timeout=120)
    return browser.evaluate("document.body.dataset.phase")


def _start(browser: Browser, edition: str, seed: int) -> None:
    _set(browser, "edition", edition)
    _set(browser, "players", "3")
    _set(browser, "seed", str(seed))
    browser.evaluate("document.getElementById('start').click()")
    browser.wait_for("['deciding', 'over'].includes(document.body.dataset.phase)", timeout=120)


def shots(origin: str, out: Path, work: Path) -> dict:
    """Take the screenshots of the page served at `origin` into `out`; return what each shows (also written
    to out/screens.json)."""
    executable = find_chromium()
    if executable is None:
        raise RuntimeError("no Chromium on PATH")
    out.mkdir(parents=True, exist_ok=True)
    shown: dict = {}
    with Browser(executable, work / "profile", width=WIDTH) as browser:
        browser.goto(origin + "/index.html")
        browser.wait_for("document.body && document.body.dataset.phase === 'setup'", timeout=300)

        # a pasted file with a mistake: the diagnostics `landlord-dsl check` prints
        browser.evaluate("document.getElementById('own').open = true")
        _set(browser, "filename", ERROR_FILE.name)
        _set(browser, "source", ERROR_FILE.read_text(encoding="utf-8"))
        browser.evaluate("document.getElementById('check').click()")
        browser.wait_for("document.getElementById('diagnostics').hasAttribute('data-status')", timeout=120)
        diagnostics = browser.evaluate("document.getElementById('diagnostics').textContent")
        shown["play-check.png"] = {"diagnostics": diagnostics}
        browser.screenshot(out / "play-check.png", "#setup")
        browser.evaluate("document.getElementById('own').open = false")

        # a 1933 game at the human seat's first decision: its options with their costs and worths
        _start(browser, "monopoly-1933-atlantic-city", 2)
        shown["play-decision.png"] = {
            "prompt": browser.evaluate("document.getElementById('prompt').textContent"),
            "options": browser.evaluate("[...document.querySelectorAll('#options button')].map(b => b.textContent)"),
            "players": browser.evaluate(
                "[...document.querySelectorAll('#players-table tbody tr')].map(r => r.textContent)"
            ),
        }
        browser.screenshot(out / "play-decision.png", "#decision", "aside")
        browser.screenshot(out / "play-decision-page.png")

        # the end of a 1906 game: the scores and the log to download
        browser.evaluate("document.getElementById('again').click()")
        _start(browser, "landlords-game-1906", 1)
        while browser.evaluate("document.body.dataset.phase") == "deciding":
            _answer_first(browser)
        shown["play-end.png"] = {"scores": browser.evaluate("document.getElementById('scores').textContent")}
        browser.screenshot(out / "play-end.png", "#decision", "aside")

        # on a phone (390 by 844 CSS pixels, 2 device pixels to one): the form with 1906's options, then a
        # 1933 decision (the board follows it); `width` is the page's, the screen's unless something is wider
        browser.emulate(*PHONE, mobile=True)
        browser.evaluate("document.getElementById('again').click()")
        browser.wait_for("document.body.dataset.phase === 'setup'", timeout=60)
        _set(browser, "edition", "landlords-game-1906")
        _set(browser, "players", "3")
        browser.wait_for("!!document.querySelector(\"#options-form [data-option='single_tax']\")", timeout=60)
        shown["play-phone-form.png"] = {
            "width": browser.evaluate(PAGE_WIDTH),
            "options": browser.evaluate(
                "[...document.querySelectorAll('#options-form label')].map(l => l.textContent.trim())"
            ),
        }
        browser.screenshot(out / "play-phone-form.png", "header", "#setup")
        _start(browser, "monopoly-1933-atlantic-city", 2)
        shown["play-phone-decision.png"] = {
            "width": browser.evaluate(PAGE_WIDTH),
            "prompt": browser.evaluate("document.getElementById('prompt').textContent"),
        }
        browser.screenshot(out / "play-phone-decision.png", "header", "#decision")
    (out / "screens.json").write_text(json.dumps(shown, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return shown


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="an already built page (default: build one)")
    parser.add_argument("--out", type=Path, default=OUT, help=f"where to write them (default {OUT})")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        site = args.site
        if site is None:
            site = Path(scratch) / "site"
            build(site)
        with Server(site) as server:
            shown = shots(server.origin, args.out, Path(scratch))
    print(f"wrote {', '.join(shown)} and screens.json into {args.out}")


if __name__ == "__main__":
    main()
