"""Turning the engine's calls to agents into pauses a caller can step through.

The engine asks agents synchronously (`Agent.choose`, `Agent.bid`), from deep
inside compiled rules. A `Driver` runs the game in a greenlet (a coroutine
with its own stack, in the caller's thread) whose seats are `_Paused`
agents: each switches back to the caller with its request, and the game
goes on when the caller switches in with the answer. Nothing runs in
parallel and nothing but these switches decides the order, so the game sees
the same calls in the same order as a game played directly: same seed and
same answers, same game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import greenlet

from ..agents import Agent
from ..engine.game import Game, GameResult
from ..program.requests import BidRequest, DecisionRequest

if TYPE_CHECKING:
    from ..program.compiled import Program


class _Abandoned(BaseException):
    """Unwinds an unfinished game (not an Exception: no rule or engine handler catches it)."""


class _Paused(Agent):
    """A seat whose every decision is handed to the driver's caller."""

    def __init__(self, driver: Driver):
        self.driver = driver

    def choose(self, game: Game, request: DecisionRequest) -> int:
        return self.driver._ask(request)

    def bid(self, game: Game, request: BidRequest) -> int | None:
        return self.driver._ask(request)


class Driver:
    """One game, played up to each decision of a paused seat.

    `agents` has one entry per seat: an Agent plays that seat inside the
    game; None makes it a paused seat, whose requests appear as `request`
    until `answer` is called. When the game is over `request` is None and
    `result` holds the GameResult. A rule error raises from the `answer`
    (or the construction) that ran into it.
    """

    def __init__(self, program: Program, agents: Sequence[Agent | None], seed: int, turn_limit: int | None = None):
        self.game = Game(
            program, [a if a is not None else _Paused(self) for a in agents], seed=seed, turn_limit=turn_limit
        )
        self.request: DecisionRequest | BidRequest | None = None
        self.result: GameResult | None = None
        self._play = greenlet.greenlet(self._run)
        self._resume(None)

    def _run(self, _: None) -> tuple[str, object]:
        try:
            return "done", self.game.play()
        except _Abandoned:
            return "abandoned", None
        except Exception as err:  # handed to the caller, raised there
            return "error", err

    def _ask(self, request: DecisionRequest | BidRequest) -> Any:
        """Return the caller's answer to `request`, an entry's index or a bid (None: no bid), as `answer`
        gave it (runs inside the game)."""
        parent = self._play.parent
        assert parent is not None  # set by _resume before the game runs
        return parent.switch(("ask", request))

    def _resume(self, value: int | None) -> None:
        self._play.parent = greenlet.getcurrent()  # come back to whoever resumed the game
        kind, payload = self._play.switch(value)
        self.request = payload if kind == "ask" else None
        if kind == "done":
            self.result = payload
        elif kind == "error":
            raise payload

    def answer(self, value: int | None) -> None:
        """Give the pending request its answer and run the game to the next one (or to its end)."""
        if self.request is None:
            raise RuntimeError("the game is not waiting for an answer")
        self._resume(value)

    def close(self) -> None:
        """Stop an unfinished game: it unwinds at its pending request, running the engine's `finally`s."""
        if self.request is not None:
            self.request = None
            self._play.parent = greenlet.getcurrent()
            self._play.throw(_Abandoned())
