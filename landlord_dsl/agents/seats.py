"""Agents stage: seat specs, the players `--seats` and `--agents` name (`mcts:400,bot,bot,random`).

A spec is a kind with an optional budget after a colon: `mcts:400` (iterations a decision), `mcts:2s`
(seconds a decision), `rollout:8` (rollouts an answer), `challenger:16` (the search set to beat bots).
`make_seat` turns a spec into a new player for a seat of a game, seeded from the game's seed and the
seat, so that the same game plays the same way.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

import attrs

from ..core.errors import Diagnostic, UsageError
from ..engine.game import Agent
from . import make_agent
from .search import ChallengerAgent, MCTSAgent, RolloutAgent, StateAgent

# every kind a seat may be, with what its budget means (None: it takes none)
KINDS: dict[str, str | None] = {
    "bot": None,
    "random": None,
    "human": None,
    "rollout": "rollouts per candidate answer (default 8)",
    "mcts": "iterations per decision, or seconds with an s (mcts:2s; default 200 iterations)",
    "challenger": "iterations per decision, or seconds with an s (challenger:2s; default 16 iterations)",
}
SEARCH_KINDS = ("rollout", "mcts", "challenger")
TIMED_KINDS = ("mcts", "challenger")  # the kinds whose budget may be seconds


@attrs.frozen
class SeatSpec:
    """A seat's kind and budget: `iterations` (a count) or `seconds`, or neither (the kind's default)."""

    kind: str
    iterations: int | None = None
    seconds: float | None = None

    def __str__(self) -> str:
        if self.seconds is not None:
            return f"{self.kind}:{self.seconds:g}s"
        return self.kind if self.iterations is None else f"{self.kind}:{self.iterations}"

    @property
    def searches(self) -> bool:
        """Return True if the seat answers from the State (it must be played by `play_stepped`)."""
        return self.kind in SEARCH_KINDS


def _unknown(kind: str, where: str) -> UsageError:
    close = difflib.get_close_matches(kind, KINDS, n=1)
    hint = f"did you mean '{close[0]}'? " if close else ""
    return UsageError(
        [
            Diagnostic(
                f"unknown {where} '{kind}'",
                hint=f"{hint}the kinds are {', '.join(KINDS)}, a search with an optional budget (mcts:400)",
            )
        ]
    )


def parse_seat(text: str, where: str = "seat kind") -> SeatSpec:
    """Return the SeatSpec a text names (`bot`, `mcts:400`, `mcts:2s`, `rollout:8`).

    :raises UsageError: an unknown kind (with the nearest known one), a budget for a kind that takes
        none, or a budget that is not a positive whole number (or seconds).
    """
    kind, sep, budget = text.strip().partition(":")
    kind = kind.strip()
    if kind not in KINDS:
        raise _unknown(kind, where)
    if not sep:
        return SeatSpec(kind)
    meaning = KINDS[kind]
    if meaning is None:
        raise UsageError(f"the {where} '{kind}' takes no budget (not '{text.strip()}')")
    budget = budget.strip()
    try:
        if budget.endswith("s") and kind in TIMED_KINDS:
            seconds = float(budget[:-1])
            if not seconds > 0:
                raise ValueError
            return SeatSpec(kind, seconds=seconds)
        iterations = int(budget)
        if iterations < 1:
            raise ValueError
    except ValueError:
        raise UsageError(f"'{text.strip()}': the budget of {kind} is {meaning}, a positive number") from None
    return SeatSpec(kind, iterations=iterations)


def parse_seats(text: str, where: str = "--seats") -> list[SeatSpec]:
    """Return the SeatSpecs of a comma-separated list (`mcts:400,bot,bot,random`).

    :raises UsageError: the list names no seat, or one of its specs is wrong (`parse_seat`).
    """
    specs = [parse_seat(part, "seat kind") for part in text.split(",") if part.strip()]
    if not specs:
        raise UsageError(f"{where} names no seat: give seat kinds separated by commas, e.g. mcts:400,bot,bot")
    return specs


def make_seat(spec: SeatSpec | str, seed: int, seat: int, reserve: int | None = None) -> Agent | StateAgent:
    """Return a new player of `spec` for seat `seat` of the game played from `seed`: an Agent (bot,
    random, human) or a StateAgent (rollout, mcts, challenger), seeded from the seed and the seat. `reserve` is a
    bot's (None: the rules')."""
    if isinstance(spec, str):
        spec = parse_seat(spec)
    if not spec.searches:  # bot, random, human: the agents driven play makes
        return make_agent(spec.kind, seed, seat, reserve)
    own_seed = seed * 1009 + seat  # (make_agent's seed for a random seat)
    if spec.kind == "rollout":
        return RolloutAgent(spec.iterations or 8, seed=own_seed)
    if spec.kind == "mcts":
        return MCTSAgent(spec.iterations or 200, seconds=spec.seconds, seed=own_seed)
    if spec.kind == "challenger":
        return ChallengerAgent(spec.iterations or 16, seconds=spec.seconds, seed=own_seed)
    raise _unknown(spec.kind, "seat kind")


def make_seats(
    specs: Sequence[SeatSpec | str | object], seed: int, reserve: int | None = None
) -> list[Agent | StateAgent]:
    """Return the players of a table for the game played from `seed`: a spec (or its text) made by
    `make_seat`; an Agent, a StateAgent or a callable `f(state) -> action` taken as it is."""
    from .stepped import as_seat

    return [
        make_seat(s, seed, i, reserve) if isinstance(s, (SeatSpec, str)) else as_seat(s) for i, s in enumerate(specs)
    ]


def any_search(specs: Sequence[SeatSpec | str | object]) -> bool:
    """Return True if some seat must be played through the State (a search kind, a StateAgent, a callable)."""
    for s in specs:
        if isinstance(s, str):
            s = parse_seat(s)
        if isinstance(s, SeatSpec):
            if s.searches:
                return True
        elif not isinstance(s, Agent):
            return True
    return False
