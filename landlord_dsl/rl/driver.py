"""Turning the engine's calls to agents into pauses a caller can step through.

The engine asks agents synchronously (`Agent.choose`, `Agent.bid`), from deep
inside compiled rules. A `Driver` runs the game in a worker thread whose
seats are `_Paused` agents: each hands its request to the caller and waits
for the answer. Exactly one of the two threads runs at any time (each blocks
on a queue while the other works), so the game sees the same calls in the
same order as a game played directly: same seed and same answers, same game.
"""

from __future__ import annotations

import queue
import threading
from typing import TYPE_CHECKING, Sequence

from ..agents import Agent
from ..engine import Game, GameResult
from ..requests import BidRequest, DecisionRequest

if TYPE_CHECKING:
    from ..compiler import Program


class _Abandoned(BaseException):
    """Unwinds an unfinished game's thread (not an Exception: no rule or engine handler catches it)."""


_ABANDON = object()


class _Paused(Agent):
    """A seat whose every decision is handed to the driver's caller."""

    def __init__(self, driver: "Driver"):
        self.driver = driver

    def choose(self, game, request):
        return self.driver._ask(request)

    def bid(self, game, request):
        return self.driver._ask(request)


class Driver:
    """One game, played in a worker thread up to each decision of a paused seat.

    `agents` has one entry per seat: an Agent plays that seat inside the
    game; None makes it a paused seat, whose requests appear as `request`
    until `answer` is called. When the game is over `request` is None and
    `result` holds the GameResult.
    """

    def __init__(self, program: "Program", agents: Sequence[Agent | None], seed: int,
                 turn_limit: int | None = None):
        self.game = Game(program, [a if a is not None else _Paused(self) for a in agents], seed=seed,
                         turn_limit=turn_limit)
        self.request: DecisionRequest | BidRequest | None = None
        self.result: GameResult | None = None
        self._to_caller: queue.SimpleQueue = queue.SimpleQueue()
        self._to_engine: queue.SimpleQueue = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="landlord-dsl game", daemon=True)
        self._thread.start()
        self._wait()

    def _run(self) -> None:
        try:
            result = self.game.play()
        except _Abandoned:
            return
        except BaseException as err:  # noqa: BLE001 - handed to the caller's thread, raised there
            self._to_caller.put(("error", err))
            return
        self._to_caller.put(("done", result))

    def _ask(self, request):
        """Return the caller's answer to `request` (runs in the game's thread)."""
        self._to_caller.put(("ask", request))
        answer = self._to_engine.get()
        if answer is _ABANDON:
            raise _Abandoned()
        return answer

    def _wait(self) -> None:
        kind, payload = self._to_caller.get()
        self.request = payload if kind == "ask" else None
        if kind == "done":
            self.result = payload
            self._thread.join()
        elif kind == "error":
            self._thread.join()
            raise payload

    def answer(self, value: int | None) -> None:
        """Give the pending request its answer and run the game to the next one (or to its end)."""
        if self.request is None:
            raise RuntimeError("the game is not waiting for an answer")
        self._to_engine.put(value)
        self._wait()

    def close(self) -> None:
        """Stop an unfinished game: its thread unwinds (running the engine's `finally`s) and ends."""
        if self.request is not None:
            self.request = None
            self._to_engine.put(_ABANDON)
            self._thread.join()
