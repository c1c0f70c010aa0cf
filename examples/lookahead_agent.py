"""A tiny look-ahead agent on the stepped interface (docs/state.md).

Seat 0 weighs each option of every decision it faces by playing the game on
a few turns from a resample of the state (heuristic bots answering, dice drawn
from its own generator) and takes the option whose rollouts leave it the
best score against its best opponent. The other seats, and seat 0's bids,
are the heuristic bot. Chance is answered outside the state (no seed), so a
rollout cannot know the real dice, and each rollout starts from a resample
of the state (the decks' unseen cards in an order drawn again), so it cannot
know the real order of the decks either.

    python examples/lookahead_agent.py [EDITION] [TURNS]
"""

from __future__ import annotations

import random
import sys

import landlord_dsl as ld
from landlord_dsl.program.requests import DecisionRequest

HEURISTIC = ld.HeuristicAgent()
EDITION = "monopoly-1933-atlantic-city"


def heuristic_answer(state: ld.State) -> int | None:
    """Return the heuristic bot's answer to the pending decision or bid."""
    request = state.request()
    if isinstance(request, DecisionRequest):
        return HEURISTIC.choose(state.game, request)
    return HEURISTIC.bid(state.game, request)


def play_on(state: ld.State, turns: int, rng: random.Random) -> ld.State:
    """Play `state` on for `turns` turns (or to the end), heuristic answers
    and dice from `rng`; return it."""
    until = state.game.turn + turns
    while not state.is_terminal() and state.game.turn < until:
        if state.is_chance():
            state.apply_chance(state.sample_chance(rng))
        else:
            state.apply(heuristic_answer(state))
    return state


def look_ahead(
    state: ld.State,
    rng: random.Random,
    turns: int = 2,
    samples: int = 2,
) -> int:
    """Return the option of the pending decision whose rollouts leave its
    seat furthest ahead."""
    seat = state.current_player()
    best, best_margin = 0, None
    for action in state.legal_actions():
        margin = 0
        for _ in range(samples):
            child = state.resample(seat, rng)
            child.apply(action)
            scores = play_on(child, turns, rng).scores()
            rivals = [s for other, s in enumerate(scores) if other != seat]
            margin += scores[seat] - max(rivals)
        if best_margin is None or margin > best_margin:
            best, best_margin = action, margin
    return best


def play(
    edition: str = EDITION,
    turn_limit: int = 40,
    seed: int = 1,
) -> tuple[int, ...]:
    """Play one game, seat 0 looking ahead, against heuristic bots; return
    the final scores."""
    state = ld.new_state(edition, players=3, turn_limit=turn_limit)
    dice, thinking = random.Random(seed), random.Random(seed + 1)
    while not state.is_terminal():
        deciding = isinstance(state.request(), DecisionRequest)
        if state.is_chance():
            state.apply_chance(state.sample_chance(dice))
        elif state.current_player() == 0 and deciding:
            state.apply(look_ahead(state, thinking))
        else:
            state.apply(heuristic_answer(state))
    return state.scores()


if __name__ == "__main__":
    edition = sys.argv[1] if len(sys.argv) > 1 else EDITION
    turns = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    print("scores (seat 0 looks ahead):", play(edition, turns))
