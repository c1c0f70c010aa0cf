"""Engine stage: a game the caller steps, one request at a time, and clones (issue 29; docs/state.md).

A `State` is a game paused at its next request: a decision or a bid for a seat, or a chance request
(dice, a shuffle) when no seed answers chance inside it. The caller reads the request, applies an answer,
and clones the state to look ahead.

How it pauses (design (b) of issue 29's report): a state keeps `base`, a Game at the last turn boundary
that is never run again, and `prefix`, every answer given since, chance answers included. To reach the
next request it forks `base` and replays the turn with the prefix through today's compiled rules; the
first request beyond the prefix raises `_Pause`, which unwinds the turn. A clone shares `base` and
copies the prefix, so cloning is cheap; stepping replays the turn once per external answer, which is
what makes it slower than driven play. A stepped game and a driven game (`Game.play`) with the same
seed and the same answers log byte-identical events: the same compiled code runs.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..core.errors import LandlordError, UsageError
from ..program.requests import BidRequest, DecisionRequest, DiceRequest, SeededChance, ShuffleRequest
from .game import Agent, Game

if TYPE_CHECKING:
    from ..program.compiled import Program

# What current_player() returns when no seat acts (OpenSpiel's numbers).
CHANCE = -1
TERMINAL = -4

# A shuffle of more cards than this has too many orders to list (8! = 40,320): chance_outcomes refuses it.
MAX_LISTED_SHUFFLE = 8

Request = DecisionRequest | BidRequest | DiceRequest | ShuffleRequest


class _Pause(BaseException):
    """A request beyond the answers given: unwinds the replayed turn (a BaseException, so that no
    handler of the rules or the engine catches it)."""


class _Asked(Agent):
    """Every seat of a replayed game: answers from the state's prefix, or pauses the game."""

    def __init__(self, state: State) -> None:
        self.state = state

    def choose(self, game: Game, request: DecisionRequest) -> int:
        return self.state._answer(request, game)

    def bid(self, game: Game, request: BidRequest) -> int | None:
        return self.state._answer(request, game)

    def __deepcopy__(self, memo: dict) -> _Asked:
        return self


class _Chance:
    """The chance source of a replayed game: answers from the prefix, then from the seed or by pausing."""

    def __init__(self, state: State) -> None:
        self.state = state

    def roll(self, request: DiceRequest) -> tuple[int, ...]:
        return self.state._answer(request, None)

    def shuffle(self, request: ShuffleRequest) -> list[int]:
        return self.state._answer(request, None)

    def __deepcopy__(self, memo: dict) -> _Chance:
        return self


class State:
    """A game of a compiled Program paused at its next request; see docs/state.md.

    Made by `new_state`. Reading methods replay what `apply` and `apply_chance` recorded, when needed.

    Example:

        >>> state = ld.new_state("landlords-game-1906", players=2, seed=7)
        >>> while not state.is_terminal():
        ...     state.apply(state.legal_actions()[0])
        >>> len(state.scores())
        2

    :param program: the compiled rules (from `compile_rules`).
    :param players: seats.
    :param seed: the seed of the dice and shuffles, or None to be asked for each (`apply_chance`).
    :param turn_limit: the turns after which the game stops (default: the rules').
    :raises UsageError: the rules are not for that many players.
    """

    def __init__(self, program: Program, players: int, seed: int | None, turn_limit: int | None = None) -> None:
        self._asked = _Asked(self)
        self._chance = _Chance(self)
        self._base = Game(program, [self._asked] * players, chance=self._chance, turn_limit=turn_limit)
        self._prefix: list[Any] = []
        self._seeded = SeededChance(seed) if seed is not None else None
        self._cursor = 0
        self._pending: Request | None = None
        self._view: Game = self._base  # the game as it stood at the pending request (or the end)
        self._stale = True

    # ---------------------------------------------------------------- replay
    def _answer(self, request: Request, game: Game | None) -> Any:
        """Return the next answer of the prefix; beyond it, a seeded chance answer (recorded), or pause."""
        at = self._cursor
        if at < len(self._prefix):
            self._cursor = at + 1
            return self._prefix[at]
        if self._seeded is not None and isinstance(request, (DiceRequest, ShuffleRequest)):
            answer: Any = (
                self._seeded.roll(request) if isinstance(request, DiceRequest) else self._seeded.shuffle(request)
            )
            self._prefix.append(answer)
            self._cursor = at + 1
            return answer
        self._pending = request
        work = self._work
        self._view = work.fork(agents=work.agents)  # before the pause unwinds the turn's `finally`s
        raise _Pause

    def _advance(self) -> None:
        """Replay from the base with the prefix and play on to the next request beyond it, or the end."""
        self._stale = False
        while True:
            work = self._work = self._base.fork(agents=[self._asked] * self._base.n)
            work.chance = self._chance
            self._cursor, self._pending = 0, None
            try:
                if not work.started:
                    work._as_rule_failure(work.setup)
                elif not work.over:
                    work._as_rule_failure(work.play_turn)
            except _Pause:
                return
            if self._cursor != len(self._prefix):  # (answers are only recorded as they are asked for)
                raise LandlordError("a stepped game's turn used fewer answers than were given")
            self._base, self._prefix = work, []
            if work.over:
                work.log_end()
                self._view = work
                return

    def _ready(self) -> None:
        if self._stale:
            self._advance()

    # ------------------------------------------------------------------ asking
    def is_terminal(self) -> bool:
        """Return True if the game is over (no request is pending)."""
        self._ready()
        return self._pending is None

    def is_chance(self) -> bool:
        """Return True if the pending request is a chance request (dice or a shuffle), answered by `apply_chance`."""
        self._ready()
        return isinstance(self._pending, (DiceRequest, ShuffleRequest))

    def current_player(self) -> int:
        """Return the seat (0-based) whose decision or bid is pending, CHANCE (-1) at a chance request,
        TERMINAL (-4) when the game is over."""
        self._ready()
        pending = self._pending
        if pending is None:
            return TERMINAL
        if isinstance(pending, (DecisionRequest, BidRequest)):
            return pending.seat
        return CHANCE

    def request(self) -> Request | None:
        """Return the pending request: a DecisionRequest or BidRequest (what an Agent is handed), a
        DiceRequest or ShuffleRequest at a chance node, or None when the game is over."""
        self._ready()
        return self._pending

    def legal_actions(self) -> list[int | None]:
        """Return what `apply` accepts now: option indices for a decision; None (pass) and every amount
        from the minimum to the maximum for a bid; nothing at a chance node or the end."""
        self._ready()
        pending = self._pending
        if isinstance(pending, DecisionRequest):
            return list(range(len(pending.legal)))
        if isinstance(pending, BidRequest):
            return [None, *range(pending.minimum, pending.maximum + 1)]
        return []

    def chance_outcomes(self) -> list[tuple[Any, Fraction]]:
        """Return every outcome of the pending chance request with its exact probability: each throw (a
        tuple of faces, 1 to sides) of a dice request; each order (a permutation, as a ShuffleRequest's
        answer) of a shuffle of at most MAX_LISTED_SHUFFLE cards. A larger shuffle raises UsageError:
        answer it with a permutation of your own (`sample_chance`)."""
        self._ready()
        pending = self._pending
        if isinstance(pending, DiceRequest):
            p = Fraction(1, pending.sides**pending.count)
            return [(throw, p) for throw in itertools.product(range(1, pending.sides + 1), repeat=pending.count)]
        if isinstance(pending, ShuffleRequest):
            if pending.size > MAX_LISTED_SHUFFLE:
                raise UsageError(
                    f"a shuffle of {pending.size} cards has {math.factorial(pending.size):,} orders, too many to "
                    f"list (at most {MAX_LISTED_SHUFFLE} cards); apply_chance one of them, e.g. sample_chance(rng)"
                )
            p = Fraction(1, math.factorial(pending.size))
            return [(list(order), p) for order in itertools.permutations(range(pending.size))]
        raise UsageError("no chance request is pending (is_chance() is False)")

    def sample_chance(self, rng: random.Random) -> Any:
        """Return an outcome of the pending chance request drawn with `rng` (uniform, as the dice and the
        shuffle are): a throw, or a permutation of the deck."""
        self._ready()
        pending = self._pending
        if isinstance(pending, DiceRequest):
            return tuple(rng.randint(1, pending.sides) for _ in range(pending.count))
        if isinstance(pending, ShuffleRequest):
            order = list(range(pending.size))
            rng.shuffle(order)
            return order
        raise UsageError("no chance request is pending (is_chance() is False)")

    # ---------------------------------------------------------------- answering
    def apply(self, action: int | None) -> None:
        """Answer the pending decision (an option's index) or bid (an amount, or None to pass); returns
        nothing. An answer not in `legal_actions()` raises UsageError and changes nothing.

        :param action: one of `legal_actions()`.
        :raises UsageError: the answer is not legal now, or no decision or bid is pending.
        """
        self._ready()
        pending = self._pending
        if isinstance(pending, DecisionRequest):
            if type(action) is not int or not 0 <= action < len(pending.legal):
                raise UsageError(f"{action!r} is not an option of '{pending.prompt}' (0 to {len(pending.legal) - 1})")
        elif isinstance(pending, BidRequest):
            if action is not None and (type(action) is not int or not pending.minimum <= action <= pending.maximum):
                raise UsageError(
                    f"{action!r} is not a bid for {pending.space} (None, or {pending.minimum} to {pending.maximum})"
                )
        else:
            what = "the game is over" if pending is None else "a chance request is pending: use apply_chance"
            raise UsageError(f"no decision or bid to apply {action!r} to: {what}")
        self._prefix.append(action)
        self._stale = True

    def apply_chance(self, outcome: Sequence[int]) -> None:
        """Answer the pending chance request: a throw (one face, 1 to sides, a die) or a shuffle's order
        (a permutation of range(size)); returns nothing. Anything else raises UsageError.

        :param outcome: the faces thrown, or the deck's new order.
        :raises UsageError: the outcome does not fit the request, or no chance request is pending.
        """
        self._ready()
        pending = self._pending
        if isinstance(pending, DiceRequest):
            throw = tuple(outcome)
            if len(throw) != pending.count or not all(type(f) is int and 1 <= f <= pending.sides for f in throw):
                raise UsageError(
                    f"{outcome!r} is not a throw of {pending.count} dice of {pending.sides} faces "
                    f"(each 1 to {pending.sides})"
                )
            self._prefix.append(throw)
        elif isinstance(pending, ShuffleRequest):
            order = list(outcome)
            if sorted(order) != list(range(pending.size)):
                raise UsageError(f"{outcome!r} is not an order of the {pending.size} cards of {pending.deck}")
            self._prefix.append(order)
        else:
            raise UsageError("no chance request is pending (is_chance() is False): use apply")
        self._stale = True

    # ----------------------------------------------------------------- reading
    @property
    def game(self) -> Game:
        """Return the game as it stood when the pending request was made (or at the end), to read as agents
        read the game they are handed. It is shared with this state's clones: do not change it."""
        self._ready()
        return self._view

    @property
    def log(self) -> list[tuple]:
        """Return the event log so far (events.py's tuples), as `Game.log`."""
        return self.game.log

    def log_lines(self) -> list[str]:
        """Return the event log so far as JSON lines, as `Game.log_lines`."""
        return self.game.log_lines()

    def scores(self) -> tuple[int, ...]:
        """Return every seat's score now, by the rules' score formula (Game.scores)."""
        return self.game.scores()

    def __deepcopy__(self, memo: dict) -> State:
        """Return `clone()`: the Program and the turn's start are shared, never changed (`copy.deepcopy`)."""
        return self.clone()

    def clone(self) -> State:
        """Return an independent copy: it shares the turn's start (never run again) and copies the
        answers since, and the seeded generator; applying to one never changes the other."""
        other = State.__new__(State)
        other._asked, other._chance = _Asked(other), _Chance(other)
        other._base, other._prefix = self._base, self._prefix[:]
        other._seeded = self._seeded.fork() if self._seeded is not None else None
        other._cursor, other._pending, other._view, other._stale = 0, self._pending, self._view, self._stale
        return other


def new_state(program: Program, players: int, seed: int | None = None, turn_limit: int | None = None) -> State:
    """Return a State at the first request of a new game of `program` between `players` seats.

    With a `seed`, dice and shuffles are answered inside the state, exactly as `Game(seed=seed)` throws
    them; with None, every throw and shuffle is a chance request for the caller.
    """
    return State(program, players, seed, turn_limit)  # (Game refuses a number of seats the rules do not allow)
