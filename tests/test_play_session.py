"""The Play page's Python side (issue 32 §1, docs/play-in-browser.md), under CPython: the parser tables the page ships,
and a game played one human decision at a time (landlord_dsl.presentation.play_session).

tests/test_play_page.py plays the page itself in headless Chromium."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lark import Lark

import landlord_dsl as ld
from landlord_dsl.core.errors import UsageError
from landlord_dsl.language import grammar, parser_cache
from landlord_dsl.presentation.play_session import PlaySession


def test_prepared_tables_in_an_empty_cache_folder_load_without_building_the_grammar(monkeypatch, tmp_path):
    name, tables = grammar.prepared_tables()
    folder = tmp_path / "landlord-dsl"
    folder.mkdir(mode=0o700)
    (folder / name).write_bytes(tables)
    (folder / name).chmod(0o600)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))

    class NoBuilding(Lark):
        def __init__(self, *args, **kwargs):
            raise AssertionError("the grammar was built, not loaded from the prepared tables")

    monkeypatch.setattr(parser_cache, "Lark", NoBuilding)
    grammar.lark_parser.cache_clear()
    try:
        parser = grammar.lark_parser()
        assert parser.parse('edition "x" {\n title "X"\n}\n', start="start") is not None
    finally:
        grammar.lark_parser.cache_clear()


def test_tables_prepared_for_another_python_are_named_for_it():
    name, _ = grammar.prepared_tables((3, 13))
    assert name.endswith("-py313.pickle")
    text = grammar.grammar_path().read_text(encoding="utf-8")
    assert name == parser_cache.file_name(text, (3, 13), **grammar._OPTIONS)


def _play_to_the_end(session: PlaySession, pick) -> tuple[dict, int, list[dict]]:
    shown = session.advance()
    frames = list(shown["frames"])
    asked = 0
    while shown["request"] is not None:
        shown = session.answer(pick(shown["request"]))
        frames += shown["frames"]
        asked += 1
    return shown, asked, frames


@pytest.mark.parametrize("edition", ["landlords-game-1906", "monopoly-1933-atlantic-city"])
def test_a_human_seat_is_asked_each_decision_with_labels_costs_and_worths_and_the_log_replays(edition, tmp_path):
    rules = ld.load_edition(edition)
    session = PlaySession(rules, edition, ["human", "bot", "bot"], seed=4)
    seen_worth = []

    def last_option_or_pass(request):
        assert request["seat"] == 0 and request["prompt"] and request["context"].startswith("cash ")
        if request["kind"] == "bid":
            assert request["minimum"] <= request["maximum"]
            return None
        assert all(set(o) == {"action", "label", "cost", "worth", "done"} and o["label"] for o in request["options"])
        seen_worth.extend(o["worth"] for o in request["options"])
        return request["options"][-1]["action"]

    end, asked, frames = _play_to_the_end(session, last_option_or_pass)
    assert asked > 5 and any(seen_worth)
    assert end["scores"] is not None and end["winners"]
    # narration: every frame a sentence, the rule that caused it and its citation; the last one the end
    assert frames[-1]["text"].startswith("The game ends")
    cited = [f for f in frames if f["rule"]]
    assert cited and all(f["cite"] for f in cited)
    log = tmp_path / "game.log"
    log.write_text(session.log(), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "landlord_dsl", "replay", str(log)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and ": ok," in done.stdout, done.stdout + done.stderr


def test_bots_alone_play_the_game_the_cli_plays_with_the_same_seed():
    edition = "landlords-game-1906"
    session = PlaySession(ld.load_edition(edition), edition, ["bot"] * 3, seed=9)
    end = session.advance()
    assert end["request"] is None
    game = ld.new_game(edition, players=3, seed=9)
    game.play()
    assert session.state.log_lines() == game.log_lines()
    assert end["scores"] == list(game.result().scores)


def test_a_seat_of_another_kind_no_seed_and_an_answer_out_of_turn_are_refused():
    rules = ld.load_edition("landlords-game-1906")
    with pytest.raises(UsageError, match="human, bot"):
        PlaySession(rules, "landlords-game-1906", ["human", "mcts"], seed=1)
    with pytest.raises(UsageError, match="whole number"):
        PlaySession(rules, "landlords-game-1906", ["human", "bot"], seed=None)
    session = PlaySession(rules, "landlords-game-1906", ["bot", "bot"], seed=1)
    session.advance()
    with pytest.raises(UsageError, match="no human decision"):
        session.answer(0)


def test_the_board_data_draws_the_rule_files_board():
    session = PlaySession(ld.load_edition("monopoly-1933-atlantic-city"), "x", ["human", "bot"], seed=2)
    board = session.board()
    assert board["svg"].startswith("<svg") and 'id="space-0"' in board["svg"]
    assert board["names"] == ["Player 1 (you)", "Player 2"] and len(board["spaces"]) == 40


# ------------------------------------------------------------------ the worker's entry (cli.web)
@pytest.fixture
def web(monkeypatch, tmp_path):
    from landlord_dsl.cli import web

    monkeypatch.setattr(web, "FILES", tmp_path / "files")
    monkeypatch.chdir(tmp_path)
    return web


def _call(web, op, **args):
    return json.loads(web.call(op, json.dumps(args)))


def test_the_pages_check_is_the_clis_check_of_the_file_under_its_name(web, tmp_path):
    case = sorted((Path(__file__).parent / "golden" / "errors").glob("*.lg"))[0]
    answer = _call(web, "check", filename=case.name, text=case.read_text(encoding="utf-8"))["result"]
    shutil.copy(case, tmp_path / case.name)
    done = subprocess.run(
        [sys.executable, "-m", "landlord_dsl", "check", case.name],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert (answer["status"], answer["stdout"], answer["stderr"]) == (done.returncode, done.stdout, done.stderr)
    assert answer["status"] == 1 and answer["stderr"].startswith(case.name + ":")


def test_a_pasted_file_name_that_is_not_a_plain_lg_name_is_refused(web):
    answer = _call(web, "check", filename="../x.lg", text="")
    assert answer["ok"] is False and "ending in .lg" in answer["error"]


def test_the_worker_entry_starts_answers_and_logs_a_game(web):
    editions = _call(web, "editions")["result"]
    assert {"name": "landlords-game-1906", "title": "The Landlord's Game (Economic Game Co., 1906)"} in editions
    started = _call(web, "start", edition="landlords-game-1906", kinds=["human", "bot"], seed=3)["result"]
    assert started["board"]["svg"].startswith("<svg") and started["shown"]["request"]["seat"] == 0
    shown = _call(web, "answer", action=started["shown"]["request"]["options"][0]["action"])["result"]
    assert shown["frames"] and shown["request"] is not None
    assert _call(web, "log")["result"].startswith('{"edition": "landlords-game-1906"')
    refused = _call(web, "start", edition="landlords-game-1906", kinds=["human"], seed=1, options=["nope=1"])
    assert refused["ok"] is False and "nope" in refused["error"]


def test_the_options_form_lists_an_editions_options_with_their_defaults_and_choices(web):
    declared = {o["name"]: o for o in _call(web, "options", edition="landlords-game-1906")["result"]}
    assert declared["single_tax"]["default"] == "never" and "from_start" in declared["single_tax"]["choices"]
    assert declared["faster_game"]["default"] is False and declared["faster_game"]["choices"] is None
    assert declared["single_tax_turn"]["label"].startswith("Turn at which")
