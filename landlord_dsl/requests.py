"""What the engine asks of the outside world: chance and decisions.

Rules never sample and never pick. A dice roll or a shuffle is a chance
request answered by a ChanceSource; a player's option is a DecisionRequest
(or a BidRequest in an auction) answered by that player's Agent.
"""

from __future__ import annotations

import itertools
import random
from typing import Protocol

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


@attrs.frozen
class Option:
    """One legal answer to a decision: name, label, and hints for bots."""

    name: str
    label: str
    cost: int = 0   # money the chooser expects to spend by taking it
    value: int = 0  # what the rule's author says it is worth to the chooser


@attrs.frozen
class DecisionRequest:
    """A player must pick one of `options` (indices into the tuple)."""

    seat: int
    rule: str
    prompt: str
    options: tuple[Option, ...]


@attrs.frozen
class BidRequest:
    """A player may bid an amount in [minimum, maximum] or pass (None)."""

    seat: int
    rule: str
    space: str
    high_bid: int | None
    minimum: int
    maximum: int
    start: int


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
