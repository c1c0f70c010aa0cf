"""The Play page in a real browser (issue 32 §1, docs/play-in-browser.md): headless Chromium, driven over the DevTools
protocol (tests/cdp.py), plays 1906 and 1933 to the end through the page's own buttons, with every host but
the loopback server unreachable; the page's diagnostics of a pasted file are `landlord-dsl check`'s; its
"simulate" prints `landlord-dsl simulate --json`'s summary; the log it downloads passes `landlord-dsl replay`.

The page is built by examples/build_play_page.py from what `.ci/pyodide` installs. Without Chromium or
Pyodide the tests skip, unless CI (CI=true, or LANDLORD_REQUIRE_PYODIDE=1 as .ci/run sets) requires them,
when they fail.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cdp import Browser, Server, find_chromium
from pyodide_support import ROOT, missing

pytestmark = pytest.mark.slow

ERRORS = sorted((ROOT / "tests" / "golden" / "errors").glob("*.lg"))
VARIANT_ERRORS = sorted((ROOT / "tests" / "golden" / "variants").glob("*.lg"))


def _required() -> bool:
    return bool(os.environ.get("CI")) or os.environ.get("LANDLORD_REQUIRE_PYODIDE") == "1"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return the folder of the Play page, built from the working tree."""
    reasons = [r for r in (missing(), None if find_chromium() else "no Chromium on PATH") if r]
    if reasons:
        if _required():
            pytest.fail(f"{'; '.join(reasons)}: CI requires them (.ci/run installs Chromium and runs .ci/pyodide)")
        pytest.skip(f"{'; '.join(reasons)} (apt-get install chromium; bash .ci/pyodide)")
    spec = importlib.util.spec_from_file_location("_build_play_page", ROOT / "examples" / "build_play_page.py")
    builder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(builder)
    out = tmp_path_factory.mktemp("play")
    builder.build(out)
    return out


@pytest.fixture(scope="module")
def page(site, tmp_path_factory):
    """Yield (browser, server, downloads folder) with the page loaded and Python ready in it."""
    server = Server(site)
    work = tmp_path_factory.mktemp("browser")
    downloads = work / "downloads"
    downloads.mkdir()
    browser = Browser(find_chromium(), work / "profile", downloads=downloads)
    try:
        browser.goto(server.origin + "/index.html")
        browser.wait_for("document.body && document.body.dataset.phase === 'setup'", timeout=180)
        yield browser, server, downloads
    finally:
        browser.close()
        server.close()


def _text(browser: Browser, element: str) -> str:
    return browser.evaluate(f"document.getElementById({element!r}).textContent")


def _set(browser: Browser, element: str, value: str) -> None:
    """Give a field of the page a value as a person would, its change and input events fired."""
    browser.evaluate(
        f"(function (e) {{ e.value = {json.dumps(value)}; e.dispatchEvent(new Event('input'));"
        f" e.dispatchEvent(new Event('change')); }})(document.getElementById({element!r}))"
    )


def _click(browser: Browser, selector: str) -> None:
    browser.evaluate(f"document.querySelector({selector!r}).click()")


_SETTLED = "['deciding', 'over', 'setup'].includes(document.body.dataset.phase)"


def _play_through(browser: Browser) -> dict:
    """Answer every decision with the page's first option (every bid with Pass) until the end; return what
    was seen: the number of answers, the costs and worths shown, the narration's rule lines."""
    seen = {"answers": 0, "stakes": set()}
    while True:
        browser.wait_for(_SETTLED, timeout=120)
        phase = browser.evaluate("document.body.dataset.phase")
        assert phase != "setup", _text(browser, "message")
        if phase == "over":
            break
        seen["stakes"].update(
            browser.evaluate("[...document.querySelectorAll('#options .stake')].map(s => s.textContent)")
        )
        bid = browser.evaluate("!document.getElementById('bidding').hidden")
        _click(browser, "#pass" if bid else "#options button.option")
        seen["answers"] += 1
    seen["story"] = browser.evaluate("[...document.querySelectorAll('#story .why')].map(s => s.textContent)")
    seen["end"] = _text(browser, "scores")
    return seen


def _download_log(browser: Browser, downloads: Path) -> Path:
    for old in downloads.iterdir():
        old.unlink()
    _click(browser, "#download")
    target = downloads / "game.log"
    end = time.monotonic() + 30
    while not (target.is_file() and target.stat().st_size and not list(downloads.glob("*.crdownload"))):
        assert time.monotonic() < end, f"no log downloaded: {list(downloads.iterdir())}"
        time.sleep(0.1)
    return target


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "landlord_dsl", *args], capture_output=True, text=True, check=False, cwd=cwd
    )


@pytest.mark.parametrize("edition", ["landlords-game-1906", "monopoly-1933-atlantic-city"])
def test_a_game_is_played_to_the_end_through_the_pages_controls_and_its_log_replays(page, edition, tmp_path):
    browser, server, downloads = page
    _set(browser, "edition", edition)
    _set(browser, "players", "3")
    _set(browser, "seed", "5")
    # the edition's options, each a field of the form: a choice a list, a flag a box
    option = (
        "#options-form [data-option='single_tax']" if "1906" in edition else "#options-form [data-option='proxy_decks']"
    )
    browser.wait_for(f"!!document.querySelector({option!r})", timeout=60)
    if "1906" in edition:
        browser.evaluate(f"document.querySelector({option!r}).value = 'from_start'")
        chosen = {"single_tax": "from_start"}
    else:
        browser.evaluate(f"document.querySelector({option!r}).checked = false")
        chosen = {"proxy_decks": False}
    _click(browser, "#start")
    seen = _play_through(browser)
    # each human decision was shown with its options' costs and worths; each told event with its rule and citation
    assert seen["answers"] > 5
    assert any(s.startswith("costs ") for s in seen["stakes"]) and any("worth " in s for s in seen["stakes"])
    assert seen["story"] and all(line.startswith("rule ") and " \u2014 " in line for line in seen["story"])
    assert "Player 1 (you)" in seen["end"] and "(winner)" in seen["end"]
    log = _download_log(browser, downloads)
    replayed = _cli("replay", str(log))
    assert replayed.returncode == 0 and ": ok," in replayed.stdout, replayed.stdout + replayed.stderr
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert header["edition"] == edition
    assert {name: header["options"][name] for name in chosen} == chosen
    # nothing came from anywhere but the page's own folder on the loopback server
    resources = browser.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
    assert resources and all(r.startswith((server.origin + "/", "blob:")) for r in resources)
    assert any(p.startswith("/wheels/landlord_dsl-") for p in server.paths)
    _click(browser, "#again")


def test_the_diagnostics_of_a_pasted_file_are_exactly_what_check_prints(page, tmp_path):
    browser, _, _ = page
    browser.evaluate("document.getElementById('own').open = true")
    for case in ERRORS + VARIANT_ERRORS:
        text = case.read_text(encoding="utf-8")
        _set(browser, "filename", case.name)
        _set(browser, "source", text)
        browser.evaluate("document.getElementById('diagnostics').removeAttribute('data-status')")
        _click(browser, "#check")
        browser.wait_for("document.getElementById('diagnostics').hasAttribute('data-status')", timeout=60)
        shown = _text(browser, "diagnostics")
        (tmp_path / case.name).write_text(text, encoding="utf-8")
        expected = _cli("check", case.name, cwd=tmp_path)
        assert expected.stderr.startswith(case.name + ":")  # located: file:line:col
        assert shown == expected.stdout + expected.stderr, case.name
        assert browser.evaluate("+document.getElementById('diagnostics').dataset.status") == expected.returncode


def test_a_pasted_variant_is_played_and_its_log_replays_beside_it(page, tmp_path):
    browser, _, downloads = page
    variant = (
        'edition "house" {\n  title "House rules"\n  extends "landlords-game-1906"\n'
        '  source "house-rule: ours" original\n}\nconst wages = 150 source "house-rule" original\n'
    )
    browser.evaluate("document.getElementById('own').open = true")
    _set(browser, "filename", "house.lg")
    _set(browser, "source", variant)
    _set(browser, "players", "2")
    # the form holds the options of the edition chosen above (1933's, the last game's): not the pasted file's
    browser.evaluate("document.querySelectorAll('#options-form input').forEach(f => { f.checked = !f.checked; })")
    for seat in range(2):
        browser.evaluate(f"document.querySelector('#seats select[data-seat=\"{seat}\"]').value = 'bot'")
    _click(browser, "#play-own")
    seen = _play_through(browser)
    assert seen["answers"] == 0 and "(winner)" in seen["end"]
    (tmp_path / "house.lg").write_text(variant, encoding="utf-8")
    log = _download_log(browser, downloads)
    shutil.copy(log, tmp_path / "game.log")
    replayed = _cli("replay", "game.log", cwd=tmp_path)
    assert replayed.returncode == 0 and ": ok," in replayed.stdout, replayed.stdout + replayed.stderr
    _click(browser, "#again")
    browser.evaluate("document.getElementById('own').open = false")


def test_simulate_on_the_page_prints_the_summary_simulate_json_prints(page):
    browser, _, _ = page
    browser.evaluate("document.getElementById('own').open = false")  # (else it simulates the pasted file)
    _set(browser, "edition", "landlords-game-1906")
    browser.wait_for("!!document.querySelector(\"#options-form [data-option='single_tax']\")", timeout=60)
    _set(browser, "seed", "11")
    _set(browser, "games", "12")  # the page's default is 100; the same function with fewer games here
    assert _text(browser, "simulate") == "Simulate 12 games"
    browser.evaluate("document.getElementById('simulate-box').open = true")
    _click(browser, "#simulate")
    browser.wait_for("document.getElementById('simulation').hasAttribute('data-status')", timeout=300)
    shown = _text(browser, "simulation")
    expected = _cli("simulate", "landlords-game-1906", "--games", "12", "--seed", "11", "--json")
    assert expected.returncode == 0
    assert json.loads(shown) == json.loads(expected.stdout)
    assert shown == expected.stdout


def _png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n", path
    return int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")


def test_the_screenshots_in_the_docs_show_what_the_page_shows_today(page, tmp_path):
    # examples/play_page_screenshots.py took docs/assets/play/*.png; taken again, each shows the same text
    # (decision, options, diagnostics, scores) in a picture of the same size
    _, server, _ = page
    spec = importlib.util.spec_from_file_location("_shots", ROOT / "examples" / "play_page_screenshots.py")
    shots = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(shots)
    shown = shots.shots(server.origin, tmp_path / "shots", tmp_path)
    committed = shots.OUT
    assert shown == json.loads((committed / "screens.json").read_text(encoding="utf-8"))
    for name in shown:
        assert _png_size(tmp_path / "shots" / name) == _png_size(committed / name), name
    # on a phone's screen nothing is wider than the screen (an edition's title in the list once made the form
    # 722 px wide in 390), and the picture is the screen's width in device pixels
    width, _, scale = shots.PHONE
    phone = [name for name in shown if name.startswith("play-phone-")]
    assert len(phone) == 2 and all(shown[name]["width"] == width for name in phone)
    assert all(_png_size(committed / name)[0] == width * scale for name in phone)


def test_the_benchmark_reports_the_load_and_every_decision(site):
    # benchmarks/bench_play_page.py, one cold load and game: no timing asserted, only that every figure is there
    spec = importlib.util.spec_from_file_location("_bench_play", ROOT / "benchmarks" / "bench_play_page.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    figures = bench.measure("landlords-game-1906", 1, site)
    assert figures["runs"] == 1 and figures["decisions"] > 5
    assert figures["ready"][0] > 0 and figures["first_decision"][0] > 0
    assert set(figures["stages"][0]) == {"pyodide", "wheels", "imported"}
    assert 0 <= figures["decision_p50"] <= figures["decision_p95"] <= figures["decision_max"]
    assert bench.table(figures).count("\n") == 8 and figures["first_decision_cpu"][0] > 0
    assert bench.percentile([1, 2, 3, 4, 5], 50) == 3 and bench.percentile([0, 10], 95) == 9.5


def test_an_uploaded_file_is_checked_under_its_own_name(page, tmp_path):
    browser, _, _ = page
    case = VARIANT_ERRORS[0]
    browser.evaluate("document.getElementById('own').open = true")
    _set(browser, "source", "")
    root = browser.command("DOM.getDocument", {}, session=browser.session)["root"]["nodeId"]
    field = browser.command("DOM.querySelector", {"nodeId": root, "selector": "#upload"}, session=browser.session)
    browser.command("DOM.setFileInputFiles", {"files": [str(case)], "nodeId": field["nodeId"]}, session=browser.session)
    browser.wait_for("document.getElementById('source').value.length > 0", timeout=30)
    assert browser.evaluate("document.getElementById('source').value") == case.read_text(encoding="utf-8")
    assert browser.evaluate("document.getElementById('filename').value") == case.name
    browser.evaluate("document.getElementById('diagnostics').removeAttribute('data-status')")
    _click(browser, "#check")
    browser.wait_for("document.getElementById('diagnostics').hasAttribute('data-status')", timeout=60)
    shutil.copy(case, tmp_path / case.name)
    expected = _cli("check", case.name, cwd=tmp_path)
    assert _text(browser, "diagnostics") == expected.stdout + expected.stderr
    browser.evaluate("document.getElementById('own').open = false")
