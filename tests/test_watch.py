"""The HTML replay (`play --html`): what it records, how it is built, and what a browser shows.

The browser tests open the page in headless Chromium and compare what it shows
at a given event with the positions and cash worked out independently from the
game's own event log. They skip only outside CI when no Chromium is installed;
in CI (.ci/run installs Chromium) a missing browser is a failure.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import time
from html import escape
from html.parser import HTMLParser

import pytest

import landlord_dsl as ld
from landlord_dsl.cli.main import main
from landlord_dsl.presentation.narrate import describe_event, quiet_event
from landlord_dsl.presentation.watch import record, replay_data, replay_html
from sweep_params import variants_slow


def _game(edition: str, seed: int, players: int = 4, **kwargs):
    rules = ld.load_edition(edition)
    program = ld.compile_rules(rules, kwargs.pop("options", None))
    return rules, ld.new_game(program, players=players, seed=seed, **kwargs)


def _recorded(edition: str, seed: int, players: int = 4, **kwargs):
    rules, game = _game(edition, seed, players, **kwargs)
    recording = record(game, rules)
    game.play()
    return rules, game, recording


def _told(game) -> list[int]:
    """Return the indices in the event log of the events a person is told about."""
    return [i for i, e in enumerate(game.log) if not quiet_event(e) and describe_event(game, e) is not None]


def _state_after(game, upto: int) -> tuple[list[int], list[int]]:
    """Return (positions, cash per seat) after log event `upto`, worked out from the log alone."""
    pos = [game.prog.start_space] * game.n
    bal = [0] * (game.nacc + game.n)
    for event in game.log[: upto + 1]:
        if event[0] in ("move", "send"):
            pos[event[2]] = event[4]
        elif event[0] == "pay":
            _, _, amount, src, dst, _ = event
            bal[src] -= amount
            bal[dst] += amount
    return pos, bal[game.nacc :]


@pytest.mark.parametrize("edition", ["landlords-game-1904", "landlords-game-1906", "monopoly-1933-atlantic-city"])
def test_recording_a_game_does_not_change_it_and_keeps_one_frame_per_told_event(edition):
    _, plain = _game(edition, 5)
    plain.play()
    _, game, recording = _recorded(edition, 5)
    assert game.log_lines() == plain.log_lines()
    told = _told(game)
    assert len(recording.frames) == len(told) > 10
    for frame, index in zip(recording.frames, told):
        assert frame["text"] == describe_event(game, game.log[index]).strip()
        if game.log[index][0] in ("move", "send"):
            assert frame["pos"] == _state_after(game, index)[0]
    last = recording.frames[-1]
    assert last["pos"] == list(game.pos) and last["cash"] == [game.cash(s) for s in range(game.n)]


def test_a_frame_names_the_rule_and_its_citation():
    rules, _, recording = _recorded("landlords-game-1906", 7)
    cited = [f for f in recording.frames if f["rule"]]
    assert cited
    by_name = {r.name: r.provenance.source for r in rules.model.rules if r.provenance}
    for frame in cited:
        assert frame["cite"] == by_name.get(frame["rule"], "")


def test_nothing_from_the_rule_file_or_the_game_can_become_markup():
    source = (
        'edition "inject" { title "T </script><script>alert(1)</script>" players 2 to 2 turn limit 4 }\n'
        'account bank "Bank </script>" unlimited\n'
        'kind plain "Plain" { }\n'
        "board {\n"
        '    space a "A </script><img src=x onerror=alert(2)>" : plain\n'
        '    space b "B" : plain\n'
        "}\n"
        'rule r "</script>" { on setup { pay 5 from bank to player } on turn { roll dice move forward dice.total } }\n'
    )
    rules = ld.load_text(source, "inject.lg")
    game = ld.new_game(rules, players=2, seed=1)
    recording = record(game, rules)
    game.play()
    page = replay_html(game, rules, recording)
    assert page.count("</script>") == 2  # the data block's and the program's own closing tags
    assert "<img" not in page and "<script>alert" not in page


class _Attributes(HTMLParser):
    """Collects every attribute name in a page, as a browser's tokenizer splits them."""

    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def handle_starttag(self, tag, attrs):
        self.names.update(name for name, _ in attrs)


_PLACEHOLDER_TITLE = "{{DATA}} onload=alert(1) x {{BOARD}} {{TITLE}}"


def _placeholder_page(title: str = _PLACEHOLDER_TITLE) -> tuple[str, dict]:
    """Return a replay page (and its data) whose title, labels, rule name and names hold the template's placeholders."""
    source = (
        f'edition "inject" {{ title "{title}" players 2 to 2 turn limit 4 }}\n'
        'account bank "{{DATA}}" unlimited\n'
        'kind plain "Plain" { }\n'
        "board {\n"
        '    space a "{{DATA}} onerror=alert(2)" : plain\n'
        '    space b "{{BOARD}}" : plain\n'
        "}\n"
        'rule r "{{TITLE}}" { on setup { pay 5 from bank to player } on turn { roll dice move forward dice.total } }\n'
    )
    rules = ld.load_text(source, "inject.lg")
    game = ld.new_game(rules, players=2, seed=1, names=["{{DATA}}", "{{TITLE}}"])
    recording = record(game, rules)
    game.play()
    return replay_html(game, rules, recording), replay_data(game, rules, recording)


def test_a_template_placeholder_in_a_text_stays_text():
    """Issue 35 item 1: a title holding "{{DATA}}" once had the data pasted into the board's attributes."""
    page, data = _placeholder_page()
    attributes = _Attributes()
    attributes.feed(page)
    assert not {name for name in attributes.names if name.startswith("on")}
    assert page.count('<script type="application/json" id="data">') == 1
    blob = page.split('<script type="application/json" id="data">', 1)[1].split("</script>", 1)[0]
    assert json.loads(blob) == data
    assert page.count('"frames":') == 1 and page.count(": the board</title>") == 1
    assert escape(_PLACEHOLDER_TITLE) in page


def test_play_writes_the_replay_page(tmp_path):
    target = tmp_path / "game.html"
    assert main(["play", "landlords-game-1906", "--seed", "7", "--html", str(target)], out=io.StringIO()) == 0
    page = target.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and 'id="space-39"' in page
    assert not re.search(r"""(src|href)=["']https?:""", page)  # self-contained: nothing fetched


# ------------------------------------------------------------- in a browser


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="module")
def chromium():
    found = _chromium()
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is missing in CI: .ci/run installs it (apt-get install chromium)")
        pytest.skip("no Chromium on this machine (CI installs it)")
    return found


def _dump_dom(browser: str, url: str, profile, budget_ms: int = 0) -> str:
    args = [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        "--dump-dom",
    ]
    if budget_ms:
        args.append(f"--virtual-time-budget={budget_ms}")
    proc = subprocess.run(args + [url], capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


class _Shown(HTMLParser):
    """Collects what the page shows: the frame, tokens' spaces, cash and positions in the players' table."""

    def __init__(self) -> None:
        super().__init__()
        self.frame: int | None = None
        self.tokens: dict[int, int] = {}
        self.cash: list[int] = []
        self.on: list[int] = []
        self.narration = ""
        self._in_narration = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body" and "data-frame" in a:
            self.frame = int(a["data-frame"])
        if tag == "circle" and "data-seat" in a:
            self.tokens[int(a["data-seat"])] = int(a["data-space"])
        if tag == "td" and "data-cash" in a:
            self.cash.append(int(a["data-cash"]))
        if tag == "td" and "data-space" in a:
            self.on.append(int(a["data-space"]))
        self._in_narration = a.get("id") == "narration"

    def handle_data(self, data):
        if self._in_narration:
            self.narration += data

    def handle_endtag(self, tag):
        self._in_narration = False


def _shown(dom: str) -> _Shown:
    parser = _Shown()
    parser.feed(dom)
    return parser


@pytest.mark.slow
@pytest.mark.parametrize("edition,seed", [("landlords-game-1906", 7), ("monopoly-1933-atlantic-city", 3)])
def test_the_page_shows_the_engines_positions_and_cash_at_the_event_stepped_to(chromium, tmp_path, edition, seed):
    rules, game, recording = _recorded(edition, seed)
    page = tmp_path / "replay.html"
    page.write_text(replay_html(game, rules, recording), encoding="utf-8")
    told = _told(game)
    for k in (0, len(told) // 3, len(told) - 1):
        dom = _dump_dom(chromium, f"{page.as_uri()}#steps={k}", tmp_path / "profile")
        shown = _shown(dom)
        pos, cash = _state_after(game, told[k])
        assert shown.frame == k
        assert shown.cash == cash, k
        assert shown.on == pos, k
        assert [shown.tokens[s] for s in range(game.n)] == pos, k
        assert shown.narration == describe_event(game, game.log[told[k]]).strip()


@pytest.mark.slow
def test_a_huge_step_count_in_the_address_opens_at_the_last_event_at_once(chromium, tmp_path):
    """Issue 35 item 14: a page opened at #steps=100000000 froze the tab (each step redraws the page)."""
    rules, game, recording = _recorded("landlords-game-1906", 7)
    page = tmp_path / "replay.html"
    page.write_text(replay_html(game, rules, recording), encoding="utf-8")
    began = time.monotonic()
    dom = _dump_dom(chromium, f"{page.as_uri()}#steps=100000000", tmp_path / "profile")
    assert _shown(dom).frame == len(recording.frames) - 1
    assert time.monotonic() - began < 30


@pytest.mark.slow
def test_a_template_placeholder_in_the_title_runs_no_script(chromium, tmp_path):
    """Issue 35 item 1: this title once broke out of the board's aria-label and its onload ran in Chromium."""
    page = tmp_path / "replay.html"
    page.write_text(
        _placeholder_page("{{DATA}} onload=document.documentElement.dataset.pwned=1 x")[0], encoding="utf-8"
    )
    dom = _dump_dom(chromium, f"{page.as_uri()}#steps=1", tmp_path / "profile")
    assert "data-pwned" not in dom
    assert _shown(dom).frame == 1  # the page's own script ran and read its data


@pytest.mark.slow
def test_the_play_button_moves_the_game_on(chromium, tmp_path):
    rules, game, recording = _recorded("landlords-game-1904", 2)
    page = tmp_path / "replay.html"
    page.write_text(replay_html(game, rules, recording), encoding="utf-8")
    still = _shown(_dump_dom(chromium, f"{page.as_uri()}", tmp_path / "profile", budget_ms=3000))
    playing = _shown(_dump_dom(chromium, f"{page.as_uri()}#play", tmp_path / "profile", budget_ms=3000))
    assert still.frame == 0
    assert playing.frame is not None and playing.frame >= 3


def test_the_replays_in_the_docs_are_the_games_the_rules_play_today():
    import importlib.util
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location("make_replays", root / "examples" / "make_replays.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    for file, edition, options, players, seed, heading in module.REPLAYS:
        page = root / "docs" / "replays" / file
        assert page.is_file(), f"{page} is missing: run python examples/make_replays.py"
        assert page.read_text(encoding="utf-8") == module.build(edition, options, players, seed, heading), (
            f"{page} is out of date: run python examples/make_replays.py"
        )


def test_replaying_a_log_gives_the_same_page_as_the_game_itself(tmp_path):
    log, live, replayed = tmp_path / "game.jsonl", tmp_path / "live.html", tmp_path / "replayed.html"
    assert (
        main(
            ["play", "monopoly-1933-atlantic-city", "--seed", "5", "--log", str(log), "--html", str(live)],
            out=io.StringIO(),
        )
        == 0
    )
    out = io.StringIO()
    assert main(["replay", str(log), "--html", str(replayed)], out=out) == 0
    assert "replayed as recorded" in out.getvalue()
    assert replayed.read_text(encoding="utf-8") == live.read_text(encoding="utf-8")


def test_a_log_that_does_not_replay_gives_no_page(tmp_path):
    log, page = tmp_path / "game.jsonl", tmp_path / "replayed.html"
    assert main(["play", "landlords-game-1904", "--seed", "2", "--log", str(log)], out=io.StringIO()) == 0
    lines = log.read_text(encoding="utf-8").splitlines()
    lines[2] = lines[2].replace("500", "501")  # an event edited by hand
    assert lines[2].endswith("]") and "501" in lines[2]
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["replay", str(log), "--html", str(page)], out=io.StringIO()) == 1
    assert not page.exists()


@pytest.mark.parametrize("edition", variants_slow(ld.shipped_editions()))
def test_every_shipped_edition_and_variant_gives_a_replay_page(edition):
    import json

    rules, game, recording = _recorded(edition, 1, turn_limit=40)
    page = replay_html(game, rules, recording)
    data = json.loads(page.split('<script type="application/json" id="data">', 1)[1].split("</script>", 1)[0])
    assert len(data["frames"]) == len(_told(game)) > 0
    assert data["frames"][-1]["cash"] == [game.cash(s) for s in range(game.n)]
    assert f'id="space-{len(data["spaces"]) - 1}"' in page


@pytest.mark.slow
def test_the_address_names_the_event_shown_counted_as_the_page_counts(chromium, tmp_path):
    """Issue 36: `#frame=120` showed event 121 (the page counts from 1, the address counted from 0)."""
    rules, game, recording = _recorded("landlords-game-1906", 7)
    page = tmp_path / "replay.html"
    page.write_text(replay_html(game, rules, recording), encoding="utf-8")
    dom = _dump_dom(chromium, f"{page.as_uri()}#frame=120", tmp_path / "profile")
    assert _shown(dom).frame == 119 and f"event 120 of {len(recording.frames)}<" in dom
    assert _shown(_dump_dom(chromium, f"{page.as_uri()}#frame=1", tmp_path / "profile")).frame == 0


_FRAMED = """<!DOCTYPE html><html><body><pre id="out"></pre><script>
const CASES = %s;
async function run() {
  const out = [];
  for (const [width, address] of CASES) {
    const f = document.createElement("iframe");
    f.style.width = width + "px"; f.style.height = "760px"; f.style.border = "0";
    document.body.appendChild(f);
    await new Promise(done => { f.onload = done; f.src = address; });
    await new Promise(ok => setTimeout(ok, 2500));
    const d = f.contentDocument;
    out.push({width, hash: f.contentWindow.location.hash, frame: +d.body.dataset.frame,
              players: d.querySelector("#players").getBoundingClientRect().bottom});
    f.remove();
  }
  document.getElementById("out").textContent = JSON.stringify(out);
}
run();
</script></body></html>
"""


@pytest.mark.slow
def test_a_replay_in_a_docs_frame_shows_the_players_and_writes_the_event_to_its_address(chromium, tmp_path):
    """Issue 36: in the docs' 760-pixel frame the players' table lay below the board, out of sight, and a
    playing page did not say in its address which event it showed."""
    import sys

    sys.path.insert(0, os.path.dirname(__file__))
    import browser_check

    rules, game, recording = _recorded("landlords-game-1906", 7)
    (tmp_path / "replay.html").write_text(replay_html(game, rules, recording), encoding="utf-8")
    cases = [[688, "replay.html#play"], [930, "replay.html#frame=40"], [358, "replay.html"], [1200, "replay.html"]]
    (tmp_path / "framed.html").write_text(_FRAMED % json.dumps(cases), encoding="utf-8")
    server = browser_check._Server(tmp_path)
    try:
        dom = _dump_dom(chromium, server.url + "framed.html", tmp_path / "profile", budget_ms=20000)
    finally:
        server.close()
    found = json.loads(re.search(r'<pre id="out">(.*?)</pre>', dom, re.S).group(1))
    assert [r["width"] for r in found] == [c[0] for c in cases]
    for r in found:
        assert r["players"] <= 760, r  # the whole players' table is in the frame
    playing, opened = found[0], found[1]
    assert playing["frame"] >= 3 and playing["hash"] == f"#frame={playing['frame'] + 1}"
    assert opened["frame"] == 39 and opened["hash"] == "#frame=40"
    assert found[2]["hash"] == ""  # a page opened without an address keeps it until it moves
