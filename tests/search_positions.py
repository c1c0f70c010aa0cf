"""What the searchers' tests share (tests/test_search.py, tests/test_learned_value.py): each edition compiled
once, and a stepped position at a decision worth searching."""

from __future__ import annotations

import functools
import random

import landlord_dsl as ld
from landlord_dsl.agents.search import bot_answer
from landlord_dsl.program.requests import DecisionRequest

ED1906 = "landlords-game-1906"
ED1933 = "monopoly-1933-atlantic-city"


@functools.cache
def program(name: str) -> ld.Program:
    """Return the shipped edition `name` compiled under its default options (once a process)."""
    return ld.compile_rules(ld.load_edition(name))


def at_decision(name: str, players: int, seed: int = 2) -> ld.State:
    """Return a state (no seed: chance answered here from `seed`, the decisions by the heuristic bot) at
    the first decision with two or more options."""
    state = ld.new_state(program(name), players)
    rng = random.Random(seed)
    while True:
        if state.is_chance():
            state.apply_chance(state.sample_chance(rng))
            continue
        request = state.request()
        if isinstance(request, DecisionRequest) and len(request.legal) > 1:
            return state
        state.apply(bot_answer(state))
