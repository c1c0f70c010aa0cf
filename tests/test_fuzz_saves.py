"""Fuzz: a tampered saved game is either restored as it is, valid, or refused (issue 13, item 14).

Real saved games (1906 and 1933, early and late, some with players out) are
mutated at random: a value anywhere in the JSON tree replaced by another of
any JSON type, a number nudged, a list item dropped, repeated or swapped, a
key dropped or added. Restoring the result must either raise LandlordError or
give a game whose own save is the tampered state and whose invariants hold,
and which then plays on with nothing but LandlordError.
"""

from __future__ import annotations

import functools
import json

from hypothesis import given
from hypothesis import strategies as st

import landlord_dsl as ld
from landlord_dsl.engine.saves import state_from_json, state_to_json

_SAVES = [
    ("landlords-game-1906", 3, 5, 30),
    ("landlords-game-1906", 4, 9, 400),
    ("monopoly-1933-atlantic-city", 2, 2, 60),
    ("monopoly-1933-atlantic-city", 4, 7, 500),
]


@functools.cache
def _program(name: str):
    return ld.compile_rules(ld.load_edition(name))


@functools.cache
def _saved(index: int) -> str:
    name, players, seed, turns = _SAVES[index]
    game = ld.new_game(_program(name), players=players, seed=seed)
    game.setup()
    for _ in range(turns):
        if game.over:
            break
        game.play_turn()
    return state_to_json(game.save())


_SCALARS = st.one_of(
    st.integers(-3, 60),
    st.integers(),
    st.floats(allow_nan=False),
    st.booleans(),
    st.none(),
    st.text(max_size=5),
    st.sampled_from(["500", "1.9", "true", "chance_cards"]),
)
_JSON = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=2),
    max_leaves=6,
)


def json_paths(value, path=()):
    """Yield the path (keys and indices) of every value inside decoded JSON, the whole first."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from json_paths(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from json_paths(item, path + (index,))


@st.composite
def tampered(draw) -> tuple[int, str]:
    index = draw(st.integers(0, len(_SAVES) - 1))
    data = json.loads(_saved(index))
    for _ in range(draw(st.integers(1, 3))):
        paths = list(json_paths(data))
        # the chance state's 625 numbers would take most draws; weigh it like one field
        plain = [p for p in paths if p[:1] != ("chance_state",) or len(p) <= 2]
        path = draw(st.sampled_from(plain))
        if not path:
            continue
        parent = data
        for step in path[:-1]:
            parent = parent[step]
        key, old = path[-1], parent[path[-1]]
        op = draw(st.sampled_from(["replace", "nudge", "drop", "repeat", "swap", "add"]))
        if op == "nudge" and type(old) is int:
            parent[key] = old + draw(st.sampled_from([-1, 1, -100, 100, 10_000]))
        elif op == "drop":
            del parent[key]
        elif op == "repeat" and isinstance(parent, list):
            parent.insert(key, old)
        elif op == "swap" and isinstance(parent, list) and len(parent) > 1:
            other = draw(st.integers(0, len(parent) - 1))
            parent[key], parent[other] = parent[other], parent[key]
        elif op == "add" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["extra", "balance", "Turn"]))] = draw(_JSON)
        else:
            parent[key] = draw(_JSON)
    return index, json.dumps(data)


@given(tampered())
def test_a_tampered_save_is_restored_as_it_is_or_refused(case):
    index, text = case
    name, players, _, turns = _SAVES[index]
    game = ld.new_game(_program(name), players=players, seed=0, turn_limit=turns + 3)
    before = state_to_json(game.save())
    try:
        game.restore(state_from_json(text))
    except ld.LandlordError as err:
        assert err.diagnostics and err.render()
        assert state_to_json(game.save()) == before
        return
    assert json.loads(state_to_json(game.save())) == json.loads(text)
    assert game.invariant_problems() == []
    try:
        game.play()
    except ld.LandlordError:
        pass
