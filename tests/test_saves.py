"""Saved games are untrusted input: restore checks them completely (issue 13, item 14).

Each case edits a real saved game the way a person (or a corrupted disk)
might, and restore must refuse it with a LandlordError that says what is
wrong, leaving the game it was restoring into untouched.
"""

from __future__ import annotations

import json
import re

import pytest

import landlord_dsl as ld
from landlord_dsl.engine.saves import state_from_json, state_to_json


@pytest.fixture(scope="module")
def program():
    return ld.compile_rules(ld.load_edition("landlords-game-1906"))


@pytest.fixture(scope="module")
def saved(program) -> dict:
    game = ld.new_game(program, players=3, seed=4)
    game.setup()
    for _ in range(40):
        game.play_turn()
    data = json.loads(state_to_json(game.save()))
    assert any(h is not None for h in data["holders"]) and data["minted"] > 0
    return data


def _restore(program, data: dict) -> ld.Game:
    game = ld.new_game(program, players=3, seed=0)
    game.restore(state_from_json(json.dumps(data)))
    return game


def _first_deck_card(data: dict) -> int:
    return next(cards[0] for cards in data["decks"].values() if cards)


CASES = {
    "negative money": (lambda d: d["balances"].__setitem__(-1, -d["balances"][-1] - 1), "ledger sums to"),
    "money added to a player and to minted": (
        lambda d: (d["balances"].__setitem__(-1, d["balances"][-1] + 500), d.__setitem__("minted", d["minted"] + 500)),
        "ledger sums to 500",
    ),
    "a card both held and in a deck": (lambda d: d["holders"].__setitem__(_first_deck_card(d), 0), "held by a player"),
    "a card in two decks": (lambda d: d["decks"]["luxury_cards"].append(_first_deck_card(d)), "is in"),
    "a card lost": (
        lambda d: d["decks"].__setitem__("chance_cards", d["decks"]["chance_cards"][1:]),
        "held by nobody: lost",
    ),
    "an unknown deck": (lambda d: d["decks"].__setitem__("jokers", []), "decks: wanted the decks"),
    "a position of 9999": (lambda d: d["positions"].__setitem__(0, 9999), "positions"),
    "a position of -3": (lambda d: d["positions"].__setitem__(1, -3), "positions"),
    "no seats left in a running game": (lambda d: d.__setitem__("seats", []), "nobody is left"),
    "a seat twice": (lambda d: d.__setitem__("seats", [0, 0, 1]), "seats"),
    "an unknown seat": (lambda d: d.__setitem__("seats", [0, 1, 7]), "seats"),
    "a balance as a string": (lambda d: d["balances"].__setitem__(3, "500"), 'not "500" @ state.balances[3]'),
    "a balance as a fraction": (lambda d: d["balances"].__setitem__(3, 1.9), "not 1.9 @ state.balances[3]"),
    "a balance as a boolean": (lambda d: d["balances"].__setitem__(3, True), "not true @ state.balances[3]"),
    "a missing field": (lambda d: d.pop("turn"), "missing @ state.turn"),
    "an extra field": (lambda d: d.__setitem__("cheat", 1), "unknown fields: cheat"),
    "a balance too few": (lambda d: d["balances"].pop(), "balances: wanted 5"),
    "a holder who is no seat": (lambda d: d["holders"].__setitem__(0, 5), "holders"),
    "a deck card that is no card": (lambda d: d["decks"]["chance_cards"].append(10_000), "decks.chance_cards"),
    "a variable of the wrong type": (lambda d: d["game_vars"].__setitem__(0, 3), "game_vars[0]"),
    "a player variable list too short": (lambda d: d["player_vars"][0].pop(), "player_vars[0]"),
    "a space variable of the wrong type": (lambda d: d["space_vars"][0].__setitem__(2, "x"), "space_vars[0][2]"),
    "a rule switch that is no boolean": (lambda d: d["active_rules"].__setitem__(0, 1), "active_rules"),
    "a dice state of the wrong size": (lambda d: d["chance_state"].__setitem__(1, [1, 2, 3]), "chance_state"),
    "an empty dice state": (lambda d: d.__setitem__("chance_state", []), "chance_state"),
    "a loan to oneself": (lambda d: d["loans"].append([1, 1, 100, 10]), "loans[0]"),
    "dice of 9": (lambda d: d.__setitem__("dice", [9, 1]), "dice"),
    # issue 35, item 11: what Game() refuses, and numbers outside the rules' range, are refused here too
    "two seats with one name": (lambda d: d.__setitem__("names", ["Ann", "Ann", "Bo"]), "names: the name 'Ann' is"),
    "a blank name": (lambda d: d.__setitem__("names", ["Ann", " ", "Bo"]), "names: seat 2 has an empty name"),
    "a balance above the largest number": (
        lambda d: (
            d["balances"].__setitem__(-1, 2**63 + 5),
            d["balances"].__setitem__(0, d["balances"][0] - 2**63 - 5),
        ),
        "balances: wanted 5 integers (the accounts, then the players) from -9,223,372,036,854,775,807",
    ),
    "minted of 10**30": (lambda d: d.__setitem__("minted", 10**30), "minted: wanted an integer from -9,223"),
    "turn 10**30": (lambda d: d.__setitem__("turn", 10**30), "turn: wanted a turn number from 0 to 100,000"),
    "a loan of 10**30": (lambda d: d["loans"].append([0, 1, 10**30, 10]), "loans[0]: wanted"),
    "a next seat who has left": (
        lambda d: (d.__setitem__("seats", [0, 1]), d.__setitem__("next_seat", 2)),
        "next_seat",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_tampered_saved_game_is_refused_with_its_fault(program, saved, case):
    tamper, says = CASES[case]
    data = json.loads(json.dumps(saved))
    tamper(data)
    game = ld.new_game(program, players=3, seed=0)
    before = state_to_json(game.save())
    with pytest.raises(ld.LandlordError) as caught:
        game.restore(state_from_json(json.dumps(data)))
    assert says in caught.value.render()
    assert state_to_json(game.save()) == before, "a refused state must change nothing"


@pytest.mark.parametrize("value", [2**63, -(2**63), 10**30])
def test_a_number_variable_outside_the_rules_range_is_refused_on_restore(program, saved, value):
    # issue 35, item 11: it restored, and the next rule to use it failed at a line of the shipped edition
    game_int = program.var_types[0].index("int")
    player_int = program.var_types[1].index("int")
    for put, where in (
        (lambda d: d["game_vars"].__setitem__(game_int, value), f"game_vars[{game_int}]"),
        (lambda d: d["player_vars"][player_int].__setitem__(2, value), f"player_vars[{player_int}][2]"),
    ):
        data = json.loads(json.dumps(saved))
        put(data)
        with pytest.raises(ld.SaveError, match=re.escape(f"{where}: not a value of type int (from -9,223")):
            _restore(program, data)


def test_the_untampered_saved_game_restores_equal(program, saved):
    game = _restore(program, saved)
    assert json.loads(state_to_json(game.save())) == saved
    assert game.invariant_problems() == []


@pytest.mark.parametrize(
    "text, says",
    [
        ("[1, 2]", "not a JSON object"),
        ("[" * 100_000 + "]" * 100_000, "not a saved landlord-dsl game"),
        ('{"players": "many"}', "not a valid saved game"),
    ],
)
def test_malformed_json_is_a_landlord_error(text, says):
    with pytest.raises(ld.LandlordError, match=says):
        state_from_json(text)


def test_a_state_built_in_python_is_checked_too(program, saved):
    # restore is also called with a GameState that never went through JSON
    state = state_from_json(json.dumps(saved))
    state.positions = [0, 1, 40]
    with pytest.raises(ld.LandlordError, match="positions"):
        ld.new_game(program, players=3).restore(state)
