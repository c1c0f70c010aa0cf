"""Issue 31: a keyed stepped game's turn re-entered at a chance request ends as the turn replayed.

The resumable compilation (compiling/stepped_pass.py `_Resumes`, engine/stepping.py `SteppedGame.resumed`)
rebuilds the paused calls of a turn from its continuation stack, so that the exact analysis answers each
outcome of a request without replaying the turn up to it. For random requests in keyed stepped games of
every shipped file, the game put back as it was at the request and resumed from there with an answer, and
the same turn replayed from its start with the same answers, must end with identical logs and state: the
whole game (every attribute, the continuation stack included). Each request is resumed twice with two
different answers, so that what one resumed run changes cannot reach the next.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import landlord_dsl as ld
from landlord_dsl.engine.fields import fields_of
from landlord_dsl.engine.stepping import SteppedGame
from landlord_dsl.program.requests import BidRequest, DecisionRequest, DiceRequest, DrawRequest, ShuffleRequest

ROOT = Path(__file__).resolve().parent.parent
# the engine's steps a shipped file's turn rarely pauses in (a space passed, a trigger, a shortfall) each
# pause at a throw in this one's
FRAMES = "tests/data/resume-frames.lg"
FILES = [
    *ld.shipped_editions(),
    *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "examples").glob("*.lg")),
    FRAMES,
]
TURNS = 40
# the tags of the continuation entries of most resumable requests: every one whose paused calls include
# another is resumed (a card's effect, a space passed, the triggers, a shortfall, ...), beside two at random
COMMON = {"turn", "roll", "roll_set"}


def _answer(request: Any, seed: tuple) -> Any:
    """Return an answer to `request` drawn from a generator seeded with `seed` (the same seed, the same answer)."""
    rng = random.Random(repr(seed))
    if isinstance(request, DiceRequest):
        return tuple(rng.randint(1, request.sides) for _ in range(request.count))
    if isinstance(request, ShuffleRequest):
        order = list(range(request.size))
        rng.shuffle(order)
        return order
    if isinstance(request, DrawRequest):
        return rng.choice(request.cards)
    if isinstance(request, DecisionRequest):
        return rng.randrange(len(request.legal))
    if isinstance(request, BidRequest):
        return request.minimum if rng.random() < 0.4 else None
    raise AssertionError(f"unexpected request {request!r}")


def _capture(value: Any) -> tuple:
    """Return what puts `value` back in place (`_restore`): its lists, dicts and sets, and those inside them,
    by identity and content (the continuation stack's locals may hold the game's own lists)."""
    kind = type(value)
    if kind is list:
        return (list, value, [_capture(v) for v in value])
    if kind is dict:
        return (dict, value, {k: _capture(v) for k, v in value.items()})
    if kind is set:
        return (set, value, set(value))
    return (None, value, None)


def _restore(captured: tuple) -> Any:
    kind, value, inner = captured
    if kind is list:
        value[:] = [_restore(c) for c in inner]
    elif kind is dict:
        restored = {k: _restore(c) for k, c in inner.items()}
        value.clear()
        value.update(restored)
    elif kind is set:
        value.clear()
        value.update(inner)
    return value


class _Saved:
    """A game's every attribute, to put the game back as it was (the same objects, their contents restored)."""

    def __init__(self, game: SteppedGame) -> None:
        self.attributes = {name: _capture(value) for name, value in fields_of(game).items()}

    def put(self, game: SteppedGame) -> None:
        for name in list(fields_of(game)):
            if name not in self.attributes:
                delattr(game, name)
        for name, captured in self.attributes.items():
            setattr(game, name, _restore(captured))


def _plain(value: Any) -> Any:
    kind = type(value)
    if kind is list or kind is tuple:
        return (kind.__name__, [_plain(v) for v in value])
    if kind is dict:
        return {k: _plain(v) for k, v in value.items()}
    if kind is set:
        return sorted(map(repr, value))
    return value


def _state(game: SteppedGame) -> dict:
    """Return everything in the game, as plain values to compare."""
    return {name: _plain(value) for name, value in fields_of(game).items() if name != "chance"}


def _drive(
    game: SteppedGame, turn: Any, answers: Any, first: int = 0, stop: int | None = None, answer: Any = None
) -> tuple[int, Any]:
    """Run the generator `turn` (sent `answer` first), answering its `j`-th request (from `first`) with
    `answers(j, request)`; stop before answering request `stop` and return (its number, the request), or
    (-1, None) at the end."""
    j = first
    try:
        while True:
            request = turn.send(answer)
            if j == stop:
                return j, request
            answer = answers(j, request)
            j += 1
    except StopIteration:
        return -1, None


def _game(name: str, deferred: bool) -> SteppedGame:
    program = ld.compile_rules(ld.load_edition(ROOT / name if name.endswith(".lg") else name))
    decks = frozenset(program.deck_cards) if deferred else frozenset()
    seats = max(program.players[0], min(3, program.players[1]))
    return SteppedGame(program, [None] * seats, chance=None, chance_inside=False, keyed=True, deferred=decks)


# (the decks dealt as drawn add requests that are not resumed, a draw's, before those that are: CI runs them)
@pytest.mark.parametrize("deferred", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["dealt", "deferred"])
@pytest.mark.parametrize("name", FILES)
def test_a_turn_resumed_at_a_chance_request_ends_as_the_turn_replayed(name, deferred):
    game = _game(name, deferred)
    rng = random.Random(f"{name} {deferred}")
    _drive(game, game.setup_s(), lambda j, r: _answer(r, ("setup", j)))
    resumed = 0
    tags: set[str] = set()  # (the engine's steps paused at the requests resumed)
    for number in range(TURNS):
        if game.over:
            break
        game.kstack.clear()  # (the turn's call at its foot, as the analysis runs it: `SteppedGame.resumed`)
        start = _Saved(game)

        def played(j: int, request: Any, number: int = number) -> Any:
            return _answer(request, (number, j))

        # the turn as it is played on, and the requests at which it can be resumed
        requests: list[tuple[int, Any]] = []
        rare: list[tuple[int, Any]] = []  # (those whose paused calls include one of the engine's but the turn's)

        def noting(j: int, request: Any, requests: list = requests, rare: list = rare) -> Any:
            answer = played(j, request)
            if game.resumed(request, answer) is not None:
                requests.append((j, request))
                if {entry[0] for entry in game.kstack if isinstance(entry[0], str)} - COMMON:
                    rare.append((j, request))
            return answer

        _drive(game, game.play_turn_s(), noting)
        ended = _state(game)
        for k, _ in rng.sample(requests, min(2, len(requests))) + rare:
            for other in (False, True):

                def answers(j: int, request: Any, k: int = k, other: bool = other, number: int = number) -> Any:
                    return _answer(request, (number, j, "other") if other and j >= k else (number, j))

                # the turn replayed from its start, with the same answers, paused at request k and played on
                start.put(game)
                replay = game.play_turn_s()
                at, request = _drive(game, replay, answers, stop=k)
                assert at == k
                paused = _Saved(game)
                paused_in = {entry[0] for entry in game.kstack if isinstance(entry[0], str)}
                _drive(game, replay, answers, k + 1, answer=answers(k, request))
                replayed_to_end = _state(game)
                # the turn resumed at request k from the game put back as it was there
                paused.put(game)
                turn = game.resumed(request, answers(k, request))
                assert turn is not None
                _drive(game, turn, answers, k + 1)
                assert _state(game) == replayed_to_end, f"turn {game.turn}: resumed at request {k}"
                resumed += 1
                tags |= paused_in
        start.put(game)
        _drive(game, game.play_turn_s(), played)
        assert _state(game) == ended
    assert resumed or name.endswith(".lg"), f"{name}: no request was resumed"
    if name == FRAMES:
        assert {"advance", "trigger", "turn-triggers", "transfer", "shortfall"} <= tags
        # (a deck dealt as drawn asks no shuffle: its order is asked card by card, a request not resumed)
        assert deferred or {"shuffle", "draw"} <= tags
