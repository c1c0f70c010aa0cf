"""What the engine asks of the outside world: chance and decisions.

Rules never sample and never pick. A dice roll or a shuffle is a chance
request answered by a ChanceSource; a player's option is a DecisionRequest
(or a BidRequest in an auction) answered by that player's Agent.
"""

from __future__ import annotations

import itertools
import random
from typing import Callable, NamedTuple, Protocol, Sequence

import attrs


@attrs.frozen
class DiceRequest:
    """Throw `count` fair six-sided dice."""

    count: int

    def outcomes(self) -> list[tuple[tuple[int, ...], float]]:
        """Return every outcome with its probability (for exact enumeration)."""
        faces = list(itertools.product(range(1, 7), repeat=self.count))
        return [(f, 1.0 / len(faces)) for f in faces]


@attrs.frozen
class ShuffleRequest:
    """Put `size` cards in a uniformly random order."""

    deck: str
    size: int


class Option:
    """One legal answer to a decision: name, label, and hints for bots.

    `cost` is the money the chooser expects to spend by taking it; `value` is
    what the rule's author says it is worth to the chooser. The label may be
    given as a function and is then computed only when someone reads it:
    games create hundreds of thousands of options and bots never read labels.
    """

    __slots__ = ("name", "_label", "cost", "value")

    def __init__(self, name: str, label: "str | Callable[[], str]", cost: int = 0, value: int = 0):
        self.name = name
        self._label = label
        self.cost = cost
        self.value = value

    @property
    def label(self) -> str:
        if not isinstance(self._label, str):
            self._label = self._label()
        return self._label

    def __repr__(self) -> str:
        return f"Option({self.name!r}, {self.label!r}, cost={self.cost}, value={self.value})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Option) and (self.name, self.label, self.cost, self.value) == (
            other.name, other.label, other.cost, other.value)

    def __hash__(self) -> int:
        return hash((self.name, self.cost, self.value))


class DecisionRequest(NamedTuple):
    """A player must pick one of `options` (an index into the sequence)."""

    seat: int
    rule: str
    prompt: str
    options: Sequence[Option]


@attrs.frozen
class BidRequest:
    """A player may bid an amount in [minimum, maximum] or pass (None).

    `value` is the rules' hint of what the title is worth to a bidder (bots
    bid up to it); without a hint it is the opening price plus a quarter.
    """

    seat: int
    rule: str
    space: str
    high_bid: int | None
    minimum: int
    maximum: int
    start: int
    value: int


class ChanceSource(Protocol):
    def roll(self, request: DiceRequest) -> tuple[int, ...]: ...

    def shuffle(self, request: ShuffleRequest) -> list[int]: ...


class SeededChance:
    """Answers chance requests from a seeded generator: same seed, same game."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def roll(self, request: DiceRequest) -> tuple[int, ...]:
        randint = self.rng.randint
        if request.count == 2:
            return (randint(1, 6), randint(1, 6))
        return tuple(randint(1, 6) for _ in range(request.count))

    def shuffle(self, request: ShuffleRequest) -> list[int]:
        order = list(range(request.size))
        self.rng.shuffle(order)
        return order

    def get_state(self) -> object:
        return self.rng.getstate()

    def set_state(self, state: object) -> None:
        self.rng.setstate(state)  # type: ignore[arg-type]


class ScriptedChance:
    """Answers dice requests from a fixed list of throws (for tests).

    Shuffles keep the declared order unless `shuffles` gives a permutation.
    Running out of throws raises an error that says so.
    """

    def __init__(self, throws: list[tuple[int, ...]], shuffles: list[list[int]] | None = None):
        self.throws = list(throws)
        self.shuffles = list(shuffles or [])

    def roll(self, request: DiceRequest) -> tuple[int, ...]:
        from .errors import LandlordError

        if not self.throws:
            raise LandlordError("the scripted dice ran out of throws")
        throw = tuple(self.throws.pop(0))
        if len(throw) != request.count:
            raise LandlordError(f"a scripted throw has {len(throw)} dice, the rules throw {request.count}")
        return throw

    def shuffle(self, request: ShuffleRequest) -> list[int]:
        if self.shuffles:
            return list(self.shuffles.pop(0))
        return list(range(request.size))
