"""`landlord-dsl coverage` and `ld.coverage` (issue 26, "Rules that never fire"): the counting, on small
hand-written rule files counted by hand; that the counters change no game; and the command's formats."""

from __future__ import annotations

import functools
import io
import json
import re
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import landlord_dsl as ld
from landlord_dsl.checking.loader import load
from landlord_dsl.cli.main import main
from landlord_dsl.compiling.compiler import compile_counted, compile_ruleset
from landlord_dsl.studies.rule_coverage import coverage, inventory, render_text, unlisted

_COUNTER = re.compile(r"^\s*_cov\[\d+\] \+= (?:1|\d+ - \(.*\)\.index\(\w+\))$")

# Two players, ten turns a game unless the end condition comes first. The counts by hand, per game:
# turns 1-3 take the `then` arm, turns 4-9 the last `else` (the game ends after turn 9: `end late`),
# the `else if` never holds; the pack is never shuffled, so the one draw, at turn 1, is always `first`;
# `choose` at turn 2 has `a` and `b` (`c` is never legal) and the bot takes the one worth more, `b`.
SMALL = """edition "x" { players 2 to 4 turn limit 10 }
account bank "Bank" unlimited
option generous "Pay twice" = false
kind start "Start" { }
board {
    space go "Go" : start
}
player var coins = 0
deck pack "Pack" returned {
    card first "Pays one" {
        pay 1 from bank to player
    }
    card second "Pays nothing" { }
}
rule counting "Counting" {
    on turn {
        if turn_number <= 3 {
            pay 1 from bank to player
        } else if turn_number > 100 {
            pay 2 from bank to player
        } else {
            set player.coins += 1
        }
        if generous {
            pay 1 from bank to player
        }
        if turn_number == 1 {
            draw pack
        }
        if turn_number == 2 {
            choose "Which?" {
                option a "A" value 1 { }
                option b "B" value 5 {
                    pay 3 from bank to player
                }
                option c "C" when false { }
            }
        }
    }
}
rule quiet "Said in words only" { }
end late when turn_number >= 9
end never_reached when turn_number > 50
"""


@pytest.fixture(scope="module")
def small():
    return ld.load_text(SMALL, "small.lg")


@pytest.fixture(scope="module")
def small_report(small):
    return coverage(small, games=5, players=2)


def _line_of(text):
    """Return the line of SMALL that holds `text`."""
    return next(i for i, line in enumerate(SMALL.splitlines(), 1) if text in line)


def _by_key(report):
    return {item.key: item for item in report.items}


def test_counts_match_a_count_by_hand(small_report):
    items = _by_key(small_report)
    first_if = "rule counting > on turn > if turn_number <= 3"
    expected = {
        "rule counting": (5, 45),
        "rule counting > on turn": (5, 45),
        f"{first_if} > then": (5, 15),
        f"{first_if} > else": (5, 30),
        f"{first_if} > else > if turn_number > 100": (5, 30),
        f"{first_if} > else > if turn_number > 100 > then": (0, 0),
        f"{first_if} > else > if turn_number > 100 > else": (5, 30),
        f"{first_if} > else > if turn_number > 100 > else > set player.coins += 1": (5, 30),
        'rule counting > on turn > if turn_number == 2 > then > choose "Which?" > option a': (0, 0),
        'rule counting > on turn > if turn_number == 2 > then > choose "Which?" > option b': (5, 5),
        'rule counting > on turn > if turn_number == 2 > then > choose "Which?" > option c': (0, 0),
        "card first of pack": (5, 5),
        "card second of pack": (0, 0),
        "end late": (5, 5),
        "end never_reached": (0, 0),
    }
    assert {key: (items[key].games, items[key].times) for key in expected} == expected
    assert "rule quiet" not in items  # nothing in it can fire


def test_never_fired_items_come_outermost_with_their_place(small_report):
    never = {item.key: item for item in small_report.never_fired()}
    first_if = "rule counting > on turn > if turn_number <= 3"
    assert f"{first_if} > else > if turn_number > 100 > then" in never
    # inside an arm that never ran: implied, not listed again
    assert f"{first_if} > else > if turn_number > 100 > then > pay 2 from bank to player" not in never
    assert never["card second of pack"].line == _line_of('card second "Pays nothing"')
    assert never["card second of pack"].file == "small.lg"
    assert never["end never_reached"].line == _line_of("end never_reached")
    generous = never["rule counting > on turn > if generous > then"]
    assert not generous.compiled  # the option fixes the condition: the arm is not in the program
    assert small_report.never_fired(outermost=False)[-1].key == "end never_reached"


def test_an_arm_left_out_by_one_option_value_fires_under_the_other(small):
    report = coverage(small, games=2, players=2, options={"generous": True})
    arm = _by_key(report)["rule counting > on turn > if generous > then"]
    assert arm.compiled and (arm.games, arm.times) == (2, 18)


@pytest.mark.parametrize("proxy_decks", [True, False])
def test_the_cards_of_a_deck_the_options_switch_off_are_left_out_not_never_fired(proxy_decks):
    """1933 (Monopoly, Atlantic City), the `proxy_decks` option: the decks whose `when` the options make
    false (the 1933 text's named cards, or the 1935 proxy decks) can never be drawn, so their cards and
    what is inside them are left out by the options; the other decks' cards are in the program."""
    report = coverage("monopoly-1933-atlantic-city", games=1, players=4, options={"proxy_decks": proxy_decks})
    cards = [item for item in report.items if item.kind == "card"]
    off = "_attested" if proxy_decks else "_cards"
    assert cards and all(item.compiled == (not item.key.endswith(off)) for item in cards)
    inside = [i for i in report.items if i.kind == "statement" and any(c.key in i.key for c in cards if not c.compiled)]
    assert inside and all(not item.compiled for item in inside)


def test_the_counted_program_is_the_normal_one_with_counting_lines_added():
    """The instrumentation adds lines `_cov[i] += 1` and nothing else (but, where a loop stops at the first item
    whose lone test is false, one adding the tests of the later items); the normal program has none."""
    for name in ("landlords-game-1904", "landlords-game-1906", "monopoly-1933-atlantic-city", "landlords-game-1939"):
        rules = ld.load_edition(name)
        normal = compile_ruleset(rules).python_source
        counted = compile_counted(rules, None, inventory(rules).counters)[0].python_source
        assert "_cov" not in normal
        assert [line for line in counted.splitlines() if not _COUNTER.match(line)] == normal.splitlines(), name
        assert counted != normal


def _log(program, players, seed):
    game = ld.new_game(program, players=players, seed=seed)
    game.play()
    return game.log


_PAIRED = ("landlords-game-1906", "landlords-game-1939", "monopoly-1933-atlantic-city+monopoly-1933-paupers")


@functools.cache
def _programs(name):
    """Return the normal and the counted program of a rule set (a `+` combination included)."""
    rules = load(name)
    return compile_ruleset(rules), compile_counted(rules, None, inventory(rules).counters)[0]


@settings(max_examples=15, deadline=None)
@given(name=st.sampled_from(_PAIRED), players=st.integers(2, 5), seed=st.integers(0, 10**6))
def test_counting_never_changes_a_game(name, players, seed):
    """Whatever the rules, players and seed, the counted program plays the normal program's game."""
    normal, counted = _programs(name)
    low, high = normal.players
    players = min(max(players, low), high)
    assert _log(counted, players, seed) == _log(normal, players, seed)


def test_coverage_plays_the_games_simulate_plays():
    from landlord_dsl.studies.simulate import simulate

    rules = ld.load_edition("landlords-game-1906")
    report = coverage(rules, games=3, players=3, seed=5)
    records = simulate(compile_ruleset(rules), 3, 3, seed=5)
    turns = sum(r.turns for r in records)
    assert _by_key(report)["rule moving"].games == 3
    handlers = [i for i in report.items if i.kind == "handler" and i.key.endswith("on turn")]
    assert max(i.times for i in handlers) == turns


def _run(*argv):
    out = io.StringIO()
    status = main(list(argv), out=out)
    return status, out.getvalue()


def test_cli_text_lists_what_never_fired_first(tmp_path):
    path = tmp_path / "small.lg"
    path.write_text(SMALL, encoding="utf-8")
    status, text = _run("coverage", str(path), "--games", "3", "--players", "2", "--no-progress")
    assert status == 0
    lines = text.splitlines()
    assert lines[0] == "Coverage of x: 3 games, 2 players, seeds 0-2"
    never, fired = text.index("Never fired ("), text.index("Fired (")
    assert never < fired
    arm = "rule counting > on turn > if turn_number <= 3 > else > if turn_number > 100 > then"
    assert re.search(rf"small\.lg:{_line_of('turn_number > 100')} +branch +{re.escape(arm)}  \(1 inside\)", text)
    assert re.search(rf"small\.lg:{_line_of('card first')} +card +3 +3 +card first of pack", text)


def test_cli_json_has_every_item_and_markdown_tables(tmp_path):
    path = tmp_path / "small.lg"
    path.write_text(SMALL, encoding="utf-8")
    status, text = _run("coverage", str(path), "--games", "2", "--players", "2", "--format", "json")
    data = json.loads(text)
    assert status == 0 and data["games"] == 2 and data["seed"] == 0 and data["options"] == {"generous": False}
    statements = [i for i in data["items"] if i["kind"] == "statement"]
    assert any(i["key"].endswith("set player.coins += 1") and i["times"] == 12 for i in statements)
    assert "card second of pack" in data["never_fired"]
    status, text = _run("coverage", str(path), "--games", "2", "--players", "2", "--format", "markdown")
    assert "| where | kind | item |" in text and "| where | kind | games | times | item |" in text


def test_cli_toml_gives_allow_list_entries_that_read_back(tmp_path):
    path = tmp_path / "small.lg"
    path.write_text(SMALL, encoding="utf-8")
    status, text = _run("coverage", str(path), "--games", "2", "--players", "2", "--format", "toml")
    assert status == 0
    entries = tomllib.loads(text)["x"]
    assert entries["card second of pack"] == "TODO: why it never fires"
    assert entries["rule counting > on turn > if generous > then"] == "only under other options"


def test_cli_usage_errors(tmp_path):
    path = tmp_path / "small.lg"
    path.write_text(SMALL, encoding="utf-8")
    status, _ = _run("coverage", str(path), "--players", "7", "--no-progress")
    assert status == 2
    status, _ = _run("coverage", str(path), "--option", "nonsense=1", "--no-progress")
    assert status == 2


def test_the_allow_list_leaves_out_what_it_names_and_finds_stale_entries(small_report):
    """An entry allows one never-fired item, or with `*` the like items; one that allows nothing is stale."""
    first_if = "rule counting > on turn > if turn_number <= 3"
    allowed = {
        f"{first_if} > else > if turn_number > 100 > then": "never in ten turns",
        "card * of pack": "one draw a game",
        "end never_reached": "the game ends first",
        "rule counting > on turn > if generous > then": "only under option generous",
        "rule counting > on turn": "it fires: stale",
    }
    missing, stale = unlisted(small_report, allowed)
    assert [item.key for item in missing] == [
        'rule counting > on turn > if turn_number == 2 > then > choose "Which?" > option a',
        'rule counting > on turn > if turn_number == 2 > then > choose "Which?" > option c',
    ]
    assert stale == ["rule counting > on turn"]


def test_rules_with_nothing_to_fire_say_so():
    text = SMALL.split("player var")[0]  # the header, the bank and the board alone
    report = coverage(ld.load_text(text, "bare.lg"), games=1, players=2)
    assert report.items == [] and report.never_fired() == []
    assert "Nothing in these rules can fire" in render_text(report)


_HOUSE_RULE = """edition "birthday-bonus" {
    extends "landlords-game-1906"
}

rule birthday "A birthday present on the 500th turn" {
    on turn {
        if turn_number == 500 {
            pay 10 from treasury to player
        }
    }
}
"""


def test_a_users_variant_and_a_combination_are_covered_with_their_base(tmp_path):
    """A house rule's author asks first whether it ever fires: his file's items come with the base's,
    and `--format toml` lists only his own."""
    path = tmp_path / "birthday-bonus.lg"
    path.write_text(_HOUSE_RULE, encoding="utf-8")
    status, text = _run("coverage", str(path), "--games", "3", "--format", "toml")
    assert status == 0
    entries = tomllib.loads(text)["birthday-bonus"]
    assert list(entries) == ["rule birthday > on turn > if turn_number == 500 > then"]
    report = coverage(str(path), games=3)
    files = {item.file for item in report.items}
    assert str(path) in files and any(f.endswith("landlords-game-1906.lg") for f in files)
    combined = coverage("monopoly-1933-atlantic-city+monopoly-1933-paupers", games=2)
    assert any(item.file.endswith("monopoly-1933-paupers.lg") and item.games for item in combined.items)
