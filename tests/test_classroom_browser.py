"""The classroom server in real browsers (issue 32 §2, docs/classroom.md): uvicorn on a free loopback port,
headless Chromium (tests/cdp.py) with two browser contexts, two devices, joined to one table of
landlords-game-1906 with a human seat each (the third a bot); they play it to the end through the page's
own controls, the teacher's view shows the narration with rules and citations, and the log each device
downloads passes `landlord-dsl replay`. The teacher's page, at a phone's width, offers an edition's options
as fields and starts a table with them; the docs' screenshots are taken again and compared. Without Chromium
the tests skip, unless CI requires it."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
import urllib.request

import pytest

from cdp import Browser, Tab, find_chromium
from pyodide_support import ROOT

pytestmark = pytest.mark.slow

uvicorn = pytest.importorskip("uvicorn")

from landlord_dsl.checking.loader import load  # noqa: E402
from landlord_dsl.cli.serve import serving_in_thread  # noqa: E402
from landlord_dsl.presentation.classroom import Classroom  # noqa: E402

KEY = "browser-test-key"
_SETTLED = "['deciding', 'waiting', 'over'].includes(document.body.dataset.phase)"


@pytest.fixture
def server():
    """Yield the origin of a classroom server on a free loopback port (uvicorn in a thread)."""
    if not find_chromium():
        if os.environ.get("CI"):
            pytest.fail("no Chromium on PATH: CI requires it (.ci/run installs it)")
        pytest.skip("no Chromium on PATH (apt-get install chromium)")
    with serving_in_thread(Classroom(None, load), KEY) as origin:
        yield origin


def _post(url: str, data: dict) -> dict:
    request = urllib.request.Request(url, json.dumps(data).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def _join(tab: Tab, link: str, table: str, seat: int) -> None:
    tab.goto(link)
    tab.wait_for(f"!!document.querySelector('#free input[data-seat=\"{seat}\"]')", timeout=30)
    tab.evaluate(f"document.querySelector('#free input[data-seat=\"{seat}\"]').click()")
    tab.evaluate("document.getElementById('take').click()")
    # joined when the server's answer has given this device its secret: the seating box may hide sooner,
    # when another device's move reaches this page first
    joined = f"!!localStorage.getItem('landlord-table-{table}')"
    tab.wait_for(f"{joined} && document.getElementById('seating').hidden && " + _SETTLED, timeout=30)


def test_two_devices_play_a_table_to_the_end_in_their_browsers_and_each_log_replays(server, tmp_path):
    table = _post(
        f"{server}/tables?key={KEY}", {"edition": "landlords-game-1906", "kinds": ["human", "human", "bot"], "seed": 5}
    )
    link = f"{server}/t/{table['id']}?token={table['token']}"
    with Browser(find_chromium(), tmp_path / "profile") as browser:
        devices = [browser.new_context(), browser.new_context()]
        for seat, tab in enumerate(devices):
            _join(tab, link, table["id"], seat)
        # the second context is another device: the first's seat secret is not in its storage
        stored = [tab.evaluate(f"localStorage.getItem('landlord-table-{table['id']}')") for tab in devices]
        assert all(stored) and stored[0] != stored[1]
        answers, stakes, end = [0, 0], set(), time.monotonic() + 600
        while not all(tab.evaluate("document.body.dataset.phase") == "over" for tab in devices):
            assert time.monotonic() < end, "the game did not end"
            for seat, tab in enumerate(devices):
                if tab.evaluate("document.body.dataset.phase") != "deciding":
                    continue
                stakes.update(tab.evaluate("[...document.querySelectorAll('#options .stake')].map(s => s.textContent)"))
                bid = tab.evaluate("!document.getElementById('bidding').hidden")
                tab.evaluate(f"document.querySelector({'#pass' if bid else '#options button.option'!r}).click()")
                answers[seat] += 1
                tab.wait_for("document.body.dataset.phase !== 'deciding' || " + _SETTLED, timeout=30)
                if seat == 0 and answers[0] == 3:
                    # the device's page is closed and opened again: it rejoins its seat, no seat offered
                    tab.goto(link)
                    tab.wait_for(_SETTLED, timeout=30)
                    assert tab.evaluate("document.getElementById('seating').hidden")
                    assert tab.evaluate("document.getElementById('story').children.length") > 10
            time.sleep(0.05)
        assert all(answers) and any(s.startswith("costs ") for s in stakes)
        # the teacher's view: the narration with each event's rule and citation, the scores
        teacher = browser.new_context()
        teacher.goto(f"{server}/t/{table['id']}?teacher={table['teacher']}")
        teacher.wait_for("document.body.dataset.phase === 'over'", timeout=30)
        why = teacher.evaluate("[...document.querySelectorAll('#story .why')].map(s => s.textContent)")
        assert why and all(line.startswith("rule ") for line in why) and any(" \u2014 " in line for line in why)
        assert "(winner)" in teacher.evaluate("document.getElementById('scores').textContent")
        summary = teacher.evaluate("fetch(document.getElementById('download-summary').href).then(r => r.text())")
        assert summary.startswith(f"Table {table['id']}: landlords-game-1906") and "(winner)" in summary
        for seat, tab in enumerate(devices):
            text = tab.evaluate("fetch(document.getElementById('download-log').href).then(r => r.text())")
            log = tmp_path / f"seat-{seat}.log"
            log.write_text(text, encoding="utf-8")
            replayed = subprocess.run(
                [sys.executable, "-m", "landlord_dsl", "replay", str(log)], capture_output=True, text=True, check=False
            )
            assert replayed.returncode == 0 and ": ok," in replayed.stdout, replayed.stdout + replayed.stderr
            header = json.loads(text.splitlines()[0])
            assert header["edition"] == "landlords-game-1906" and header["seed"] == 5
            assert header["names"] == ["Player 1", "Player 2", "Player 3 (bot)"]


def test_the_teachers_page_offers_the_editions_options_as_fields_and_starts_a_table_with_them(server, tmp_path):
    # landlords-game-1906 declares single_tax (a choice, default never) and shelter_tax_on_jail_square (a flag,
    # default true): the teacher picks them in the form, and the table's log records them, the others at their
    # defaults
    with Browser(find_chromium(), tmp_path / "profile") as browser:
        browser.emulate(390, 844, 2, mobile=True)  # on a phone, the form fits the screen
        browser.goto(f"{server}/?key={KEY}")
        browser.wait_for("!!document.querySelector(\"#options-form [data-option='single_tax']\")", timeout=60)
        assert browser.evaluate("document.documentElement.scrollWidth") == 390
        fields = browser.evaluate(
            "[...document.querySelectorAll('#options-form .option-field')].map(f => f.dataset.option)"
        )
        assert fields == list(load("landlords-game-1906").model.options)
        browser.evaluate(
            "(function (f) { f.value = 'from_start'; f.dispatchEvent(new Event('change')); })"
            "(document.querySelector(\"#options-form [data-option='single_tax']\"))"
        )
        browser.evaluate("document.querySelector(\"#options-form [data-option='shelter_tax_on_jail_square']\").click()")
        browser.evaluate("document.getElementById('start').click()")
        started = browser.wait_for("document.body.dataset.started", timeout=60)
        # the table listed (its code, token and links, each line named) still fits the phone's screen
        browser.wait_for(f"!!document.querySelector('#tables tr[data-table=\"{started}\"]')", timeout=30)
        assert browser.evaluate("document.documentElement.scrollWidth") == 390
    with urllib.request.urlopen(f"{server}/tables?key={KEY}", timeout=30) as answer:
        table = next(t for t in json.loads(answer.read()) if t["id"] == started)
    with urllib.request.urlopen(f"{server}/t/{started}/log?teacher={table['teacher']}", timeout=30) as answer:
        header = json.loads(answer.read().decode().splitlines()[0])
    defaults = {name: option.default for name, option in load("landlords-game-1906").model.options.items()}
    assert header["options"] == defaults | {"single_tax": "from_start", "shelter_tax_on_jail_square": False}


def _png_size(path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n", path
    return int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")


def test_the_screenshots_in_the_docs_show_what_the_classroom_shows_today(server, tmp_path):
    # examples/classroom_screenshots.py took docs/assets/classroom/*.png; taken again (on this test's server),
    # each shows the same text in a picture of the same size, the phone's pages no wider than its screen
    spec = importlib.util.spec_from_file_location("_classroom_shots", ROOT / "examples" / "classroom_screenshots.py")
    shots = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(shots)
    shown = shots.shots(server, tmp_path / "shots", tmp_path, KEY)
    assert shown == json.loads((shots.OUT / "screens.json").read_text(encoding="utf-8"))
    for name in shown:
        assert _png_size(tmp_path / "shots" / name) == _png_size(shots.OUT / name), name
    phone = [name for name in shown if "-phone-" in name]
    assert len(phone) == 2 and all(shown[name]["width"] == shots.PHONE[0] for name in phone)
