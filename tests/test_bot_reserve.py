"""The heuristic bot's reserve follows the rules' money scale, and a run whose bots never buy says so
(issue 18, item 2)."""

from __future__ import annotations

import io
import json

import pytest

import landlord_dsl as ld
from landlord_dsl.agents import RESERVE_CAP, HeuristicAgent, default_reserve, make_agent
from landlord_dsl.cli.main import main
from landlord_dsl.studies.simulate import GameRecord, Summary

# A small-money game: 1933 Monopoly with 90 to start and no salary, and the two-card decks
# (option proxy_decks=false), so money only ever shrinks. A bot keeping back 100 never buys here.
POOR = """\
edition "poor-1933" {
    title "Monopoly 1933 with 90 to start and no salary"
    extends "monopoly-1933-atlantic-city"
}

const start_cash = 90
const salary = 0
"""


@pytest.fixture
def poor(tmp_path):
    path = tmp_path / "poor-1933.lg"
    path.write_text(POOR, encoding="utf-8")
    return str(path)


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


@pytest.mark.parametrize("name", ld.shipped_editions())
def test_the_shipped_editions_keep_the_reserve_of_100(name):
    """The cap is the reserve the bots always had; every shipped edition gives each seat at least
    four times that before the first turn, except the three small-money variants."""
    program = ld.compile_rules(ld.load_edition(name))
    low, high = program.players
    small = {
        "landlords-game-1904-without-lot-tickets": 25,  # 100 to start (1904 patent, without the lot tickets)
        "landlords-game-1906-monopolist-demonstration": 25,
        "landlords-game-1906-average-hands": 18,  # 75 in cash besides the dealt titles
    }
    for players in range(max(low, 2), min(high, 6) + 1):
        assert default_reserve(program, players) == small.get(name, RESERVE_CAP), players


def test_the_default_reserve_is_a_quarter_of_the_starting_money(poor):
    program = ld.compile_rules(ld.load_text(POOR, "poor-1933.lg"), {"proxy_decks": "false"})
    assert default_reserve(program, 2) == 90 // 4
    game = ld.new_game(program, players=2, seed=3)
    bot = game.agents[0]
    assert isinstance(bot, HeuristicAgent) and bot.reserve is None and bot.reserve_for(game) == 22
    assert make_agent("bot", 0, 0, 7).reserve_for(game) == 7  # type: ignore[attr-defined]


def test_a_restored_game_keeps_its_bots_reserve():
    """The default is measured on a setup played aside, not on the game's own log, which a game
    restored from a save does not have: the restored game plays on exactly as the saved one."""
    program = ld.compile_rules(ld.load_edition("landlords-game-1904-without-lot-tickets"))
    game = ld.new_game(program, players=3, seed=4)
    game.setup()
    for _ in range(12):
        game.play_turn()
    clone = ld.new_game(program, players=3, seed=0)
    clone.restore(game.save())
    mark = len(game.log)
    for _ in range(30):
        game.play_turn()
        clone.play_turn()
    assert clone.log == game.log[mark:]


def test_simulate_warns_when_the_bots_never_buy(poor, capsys):
    code, out = run(
        "simulate", poor, "--option", "proxy_decks=false", "--games", "6", "--jobs", "1", "--bot-reserve", "100"
    )
    err = capsys.readouterr().err
    assert code == 0 and "money conserved" in out
    assert (
        "warning: no title deed reached a player after the setup in any of the 6 games "
        "(the bots keep back 100; see --bot-reserve)\n"
    ) in err

    code, out = run("simulate", poor, "--option", "proxy_decks=false", "--games", "6", "--jobs", "1", "--json")
    summary = json.loads(out)
    assert code == 0 and capsys.readouterr().err == ""
    assert summary["bot_reserve"] == 22 and summary["warnings"] == []
    assert summary["bot_activity"]["titles_taken_in_play"] > 0


def test_the_json_summary_carries_the_warnings(poor):
    code, out = run(
        "simulate",
        poor,
        "--option",
        "proxy_decks=false",
        "--games",
        "4",
        "--jobs",
        "1",
        "--json",
        "--bot-reserve",
        "90",
    )
    summary = json.loads(out)
    assert code == 0 and summary["bot_reserve"] == 90
    assert summary["bot_activity"]["titles_taken_in_play"] == 0
    assert summary["warnings"] == [
        "no title deed reached a player after the setup in any of the 4 games "
        "(the bots keep back 90; see --bot-reserve)"
    ]


def test_an_edition_that_deals_every_deed_at_the_setup_is_not_warned_of_deeds_never_taken():
    """Issue 26: magie-1939 (BANKER AND GOVERNMENT OFFICIAL) deals all 21 Deed cards at the setup, so no deed
    is left to reach a player in play but by a trade, whatever --bot-reserve: the warning would be false."""
    code, out = run("simulate", "landlords-game-1939", "--games", "3", "--jobs", "1", "--json")
    summary = json.loads(out)
    assert code == 0 and summary["bot_activity"]["titles_taken_in_play"] == 0
    assert not any("title deed" in w for w in summary["warnings"])


def test_a_deed_left_over_by_the_setup_and_never_taken_is_warned_of():
    summary = Summary(2, bot_reserve=5)
    summary.add(GameRecord(0, 10, 5, "end", (1, 2), (1,), True, titles=0, choices=3, titles_open=0))
    assert summary.result()["warnings"] == []
    summary.add(GameRecord(1, 10, 5, "end", (1, 2), (1,), True, titles=0, choices=3, titles_open=2))
    assert summary.result()["warnings"] == [
        "no title deed reached a player after the setup in any of the 2 games (the bots keep back 5; see --bot-reserve)"
    ]


def test_a_run_without_a_real_decision_is_warned_about():
    summary = Summary(2, bot_reserve=5)
    summary.add(GameRecord(0, 10, 5, "end", (1, 2), (1,), True, titles=3, choices=0))
    assert summary.result()["warnings"] == [
        "no decision other than 'done' was taken in any of the 1 games (the bots keep back 5; see --bot-reserve)"
    ]
    other = Summary(2)
    other.add(GameRecord(1, 10, 5, "end", (1, 2), (1,), True, titles=0, choices=4))
    summary.merge(other)
    assert summary.result()["warnings"] == [] and summary.result()["bot_activity"] == {
        "titles_taken_in_play": 3,
        "decisions_other_than_done": 4,
    }


def test_sweep_warns_per_cell_and_keeps_the_reserve_in_its_records(poor, tmp_path, capsys):
    out_file = tmp_path / "cells.jsonl"
    argv = ["sweep", poor, "--option", "proxy_decks=false", "--games", "3", "--jobs", "1", "--out", str(out_file)]
    code, _ = run(*argv, "--players", "2", "--bot-reserve", "100")
    err = capsys.readouterr().err
    assert code == 0
    assert "warning: proxy_decks=false, 2 players: no title deed reached a player after the setup" in err
    assert json.loads(out_file.read_text().splitlines()[0])["bot_reserve"] == 100
    code, _ = run(*argv, "--players", "2")  # another reserve: the recorded cell is not reused
    assert code == 0 and len(out_file.read_text().splitlines()) == 2
    assert capsys.readouterr().err == ""


def test_play_takes_a_bot_reserve_and_refuses_a_negative_one(capsys):
    assert run("play", "landlords-game-1906", "--turn-limit", "5", "--bot-reserve", "0")[0] == 0
    with pytest.raises(SystemExit) as exit_:
        run("play", "landlords-game-1906", "--bot-reserve", "-1")
    assert exit_.value.code == 2
    assert "--bot-reserve: must be at least 0, not -1" in capsys.readouterr().err


def test_a_bot_reserve_changes_what_the_bots_do(poor):
    program = ld.compile_rules(ld.load_text(POOR, "poor-1933.lg"), {"proxy_decks": "false"})
    logs = []
    for reserve in (0, 100):
        game = ld.new_game(program, agents=[HeuristicAgent(reserve) for _ in range(2)], seed=1)
        game.play()
        logs.append(game.log_lines())
    assert logs[0] != logs[1]


def test_simulate_many_refuses_a_negative_reserve():
    from landlord_dsl.core.errors import UsageError
    from landlord_dsl.studies.parallel import simulate_many

    with pytest.raises(UsageError, match="a bot reserve cannot be negative"):
        simulate_many(ld.load_edition("landlords-game-1904"), 1, 2, jobs=1, bot_reserve=-1)
