"""Take the classroom's screenshots for docs/classroom.md (docs/assets/classroom/*.png) in headless Chromium.

    python examples/classroom_screenshots.py [--out DIR]      # needs the web extra and Chromium

Starts a classroom server (`landlord-dsl serve`'s app) on a free loopback port, and in one browser page:
the teacher's page at a laptop's width, 1933's option in its form, starting a table of 1933 (seed 2, two
human seats and a bot) through its controls (classroom-teacher.png: the form and the list of tables); then, as a
student's phone (390 by 844 CSS pixels, 2 device pixels to one), the table's join link: the seats to take
(classroom-phone-seats.png) and, seat 1 taken, its first decision (classroom-phone-decision.png). Writes
`screens.json` with what each shows as text (the tables' codes and tokens are new each time, and left out);
tests/test_classroom_browser.py takes them again and fails while the text differs from the committed
screens.json or a picture's size from the committed one.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))

from cdp import Browser, find_chromium  # noqa: E402
from landlord_dsl.checking.loader import load  # noqa: E402
from landlord_dsl.cli.serve import serving_in_thread  # noqa: E402
from landlord_dsl.presentation.classroom import Classroom  # noqa: E402

OUT = ROOT / "docs" / "assets" / "classroom"
WIDTH = 1100
PHONE = (390, 844, 2)  # a phone's screen in CSS pixels, and its device pixels to one
PAGE_WIDTH = "document.documentElement.scrollWidth"
EDITION = "monopoly-1933-atlantic-city"
KEY = "screenshots"


def _set(browser: Browser, selector: str, value: str) -> None:
    browser.evaluate(
        f"(function (e) {{ e.value = {json.dumps(value)}; e.dispatchEvent(new Event('change')); }})"
        f"(document.querySelector({json.dumps(selector)}))"
    )


def shots(origin: str, out: Path, work: Path, key: str = KEY) -> dict:
    """Take the screenshots of the classroom served at `origin` (its teacher's key `key`) into `out`; return
    what each shows (also written to out/screens.json)."""
    executable = find_chromium()
    if executable is None:
        raise RuntimeError("no Chromium on PATH")
    out.mkdir(parents=True, exist_ok=True)
    shown: dict = {}
    with Browser(executable, work / "profile", width=WIDTH) as browser:
        # the teacher: the form (the chosen edition's options), a table of 1933 started, the list of tables
        browser.goto(f"{origin}/?key={key}")
        browser.wait_for("!!document.querySelector('#options-form .option-field')", timeout=60)
        _set(browser, "#edition", EDITION)
        browser.wait_for("!!document.querySelector(\"#options-form [data-option='proxy_decks']\")", timeout=60)
        _set(browser, "#players", "3")
        _set(browser, "#seed", "2")
        _set(browser, "#seats [data-seat='2']", "bot")
        browser.evaluate("document.getElementById('start').click()")
        table_id = browser.wait_for("document.body.dataset.started", timeout=60)
        browser.wait_for(f"!!document.querySelector('#tables tr[data-table=\"{table_id}\"]')", timeout=30)
        row = f"#tables tr[data-table='{table_id}'] td"
        shown["classroom-teacher.png"] = {
            "options": browser.evaluate(
                "[...document.querySelectorAll('#options-form label')].map(l => l.textContent.trim())"
            ),
            "table": browser.evaluate(f"[...document.querySelectorAll({row!r})].slice(2, 4).map(c => c.textContent)"),
        }
        browser.screenshot(out / "classroom-teacher.png", "section.card", "section.card + section.card")
        token = browser.evaluate(f"document.querySelectorAll({row!r})[1].textContent")

        # a student's phone: the join link, the seats to take, then seat 1's first decision
        browser.emulate(*PHONE, mobile=True)
        browser.goto(f"{origin}/t/{table_id}?token={token}")
        browser.wait_for("!!document.querySelector('#free input') && !document.getElementById('seating').hidden")
        shown["classroom-phone-seats.png"] = {
            "width": browser.evaluate(PAGE_WIDTH),
            "seats": browser.evaluate("[...document.querySelectorAll('#free label')].map(l => l.textContent.trim())"),
        }
        browser.screenshot(out / "classroom-phone-seats.png", "header", "#seating")
        browser.evaluate("document.querySelector('#free input[data-seat=\"0\"]').click()")
        browser.evaluate("document.getElementById('take').click()")
        browser.wait_for("document.body.dataset.phase === 'deciding'", timeout=60)
        shown["classroom-phone-decision.png"] = {
            "width": browser.evaluate(PAGE_WIDTH),
            "prompt": browser.evaluate("document.getElementById('prompt').textContent"),
            "options": browser.evaluate("[...document.querySelectorAll('#options button')].map(b => b.textContent)"),
        }
        browser.screenshot(out / "classroom-phone-decision.png", "#decision")
    (out / "screens.json").write_text(json.dumps(shown, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return shown


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"where to write them (default {OUT})")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch, serving_in_thread(Classroom(None, load), KEY) as origin:
        shown = shots(origin, args.out, Path(scratch))
    print(f"wrote {', '.join(shown)} and screens.json into {args.out}")


if __name__ == "__main__":
    main()
