"""What the engine asks of the outside world: chance and decisions.

Rules never sample and never pick. A dice roll or a shuffle is a chance
request answered by a ChanceSource; a player's option is a DecisionRequest
(or a BidRequest in an auction) answered by that player's Agent.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, Protocol

import attrs

from ..core.errors import LandlordError


@attrs.frozen
class DiceRequest:
    """Throw `count` fair dice of `sides` faces each: the answer numbers the face each die shows, 1 to `sides`.

    `dice` names what is thrown: the edition's dice, or a set declared with
    `dice NAME ...` (whose faces may show other things than their numbers).
    """

    count: int
    sides: int = 6
    dice: str = "dice"

    def outcomes(self) -> list[tuple[tuple[int, ...], float]]:
        """Return every outcome with its probability (for exact enumeration)."""
        faces = list(itertools.product(range(1, self.sides + 1), repeat=self.count))
        return [(f, 1.0 / len(faces)) for f in faces]


@attrs.frozen
class ShuffleRequest:
    """Put `size` cards in a uniformly random order."""

    deck: str
    size: int


@attrs.frozen
class DrawRequest:
    """Draw the top card of `deck`, one of the `cards` on top of it whose order nobody has seen (a shuffle
    presented as draws, `new_state(draws=True)`): each is equally likely, and the answer is the one drawn
    (its card index). Asked where a card is taken from the top of such a deck (a draw or a deal)."""

    deck: str
    cards: tuple[int, ...]


class Option(NamedTuple):
    """One legal answer to a decision: its name, a label for people, and hints for bots.

    `cost` is the money the chooser expects to spend by taking it; `value` is
    what the rule's author says it is worth to the chooser.
    """

    name: str
    label: str
    cost: int = 0
    value: int = 0


@attrs.frozen
class ChoiceSite:
    """What is fixed about one `choose`/`offer` in the rules: made once, when they are compiled.

    `names` and `labels` are indexed by option number (the option's position
    in the rule); a label of None is computed at the decision, from the
    state of the game then. `prompt` is the prompt as written, for errors.
    `done` is the option number of an offer's "done" (None for a `choose`):
    taking it is recorded as -1 in `Game.decisions`, so that a bot closing an
    offer need not count its menu.
    """

    names: tuple[str, ...]
    labels: tuple[str | None, ...]
    prompt: str
    span: Any = None
    done: int | None = None


class DecisionRequest:
    """A player must pick one of the legal options (the answer is an index into them).

    `legal` holds one `(option number, bound value, cost, value)` tuple per
    legal option, in the order offered: the cheap view bots use. `options`
    gives the same options as `Option`s, with names and labels for people;
    they are built only when asked for, because games ask hundreds of
    thousands of questions that bots answer from the hints alone.
    """

    __slots__ = ("_describe", "_rule", "_rule_names", "_site", "legal", "prompt", "seat")

    def __init__(
        self,
        seat: int,
        prompt: str,
        legal: Sequence[tuple],
        site: ChoiceSite,
        describe: Callable[[int, Any], str] | None = None,
        rule: int = -1,
        rule_names: Sequence[str] = (),
    ):
        self.seat = seat
        self.prompt = prompt
        self.legal = legal
        self._site = site
        self._describe = describe
        self._rule = rule
        self._rule_names = rule_names

    @classmethod
    def from_options(cls, seat: int, prompt: str, options: Sequence[Option], rule: str = "-") -> DecisionRequest:
        """Return a request offering these options (for tests and tools; games make their own)."""
        site = ChoiceSite(tuple(o.name for o in options), tuple(o.label for o in options), prompt)
        legal = [(k, None, o.cost, o.value) for k, o in enumerate(options)]
        return cls(seat, prompt, legal, site, rule=0, rule_names=(rule,))

    @property
    def rule(self) -> str:
        """Return the name of the rule that asks ("-" outside any rule)."""
        return self._rule_names[self._rule] if self._rule >= 0 else "-"

    @property
    def site(self) -> ChoiceSite:
        """Return what is fixed about the asking `choose`/`offer` (its options as written, its place)."""
        return self._site

    @property
    def names(self) -> tuple[str, ...]:
        """Return the legal options' names, in order."""
        names = self._site.names
        return tuple(names[entry[0]] for entry in self.legal)

    @property
    def costs(self) -> tuple[int, ...]:
        """Return the legal options' cost hints, in order."""
        return tuple(entry[2] for entry in self.legal)

    @property
    def values(self) -> tuple[int, ...]:
        """Return the legal options' value hints, in order."""
        return tuple(entry[3] for entry in self.legal)

    @property
    def options(self) -> tuple[Option, ...]:
        """Return the legal options with their names, labels and hints."""
        return tuple(Option(self._site.names[k], self._label(k, x), cost, value) for k, x, cost, value in self.legal)

    def _label(self, k: int, x: Any) -> str:
        """Return the label of option `k` (for the item `x`): as written, or computed now."""
        label = self._site.labels[k]
        if label is not None:
            return label
        # a request made without a describe function (from_options) has every label written
        assert self._describe is not None
        return self._describe(k, x)

    def __repr__(self) -> str:
        return (
            f"DecisionRequest(seat={self.seat}, rule={self.rule!r}, prompt={self.prompt!r}, options={self.options!r})"
        )


class BidRequest(NamedTuple):
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


# The agent classes whose answers the compiled rules and the engine work out themselves, without a
# request: agents.py adds HeuristicAgent (its policy is written into the option loops, codegen_stmt).
# Only an agent of exactly such a class is answered so; any other agent, a subclass too, is asked.
FOLDED_AGENTS: set[Any] = set()  # of agent classes
# The agent classes whose choices the compiled rules' option loops work out (codegen_stmt's folded
# choice): those of FOLDED_AGENTS, and any whose pick is HeuristicAgent's with the limit its `reserve`
# gives (the exact analysis's policy without preferred options, which never bids: not in FOLDED_AGENTS).
FOLDED_CHOOSERS: set[Any] = set()  # of agent classes

# How `Game.decisions` records an offer's "done" (ChoiceSite.done): as the last entry, counted from the
# end, whatever the length of the menu. Answering it back (ScriptedAgent, replay) takes the last entry.
DONE = -1


class ChanceSource(Protocol):
    """What answers chance requests: SeededChance, ScriptedChance, or a class of yours with these two methods."""

    def roll(self, request: DiceRequest) -> tuple[int, ...]:
        """Return the faces of `request.count` dice, each 1 to `request.sides`."""
        ...

    def shuffle(self, request: ShuffleRequest) -> list[int]:
        """Return a permutation of `range(request.size)`: the deck's new order."""
        ...


# `randint(1, 6)` is `1 + _randbelow(6)`, which draws 3 random bits until they are below 6. Where the
# generator works so (CPython's Random), a die is thrown that way without randint's three calls: the
# same numbers from the same state (tests/test_engine_speed.py checks it against randint).
_DIE_FROM_BITS = random.Random._randbelow is random.Random._randbelow_with_getrandbits  # type: ignore[attr-defined]


class SeededChance:
    """Answers chance requests from a seeded generator: same seed, same game."""

    # `two_dice` throws a pair as `roll` does (and Game.roll may call it directly) where dice come from bits
    pairs_from_bits = _DIE_FROM_BITS

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self._randint = self.rng.randint
        self._bits = self.rng.getrandbits

    def roll(self, request: DiceRequest) -> tuple[int, ...]:
        """Return `request.count` dice thrown by the generator."""
        sides = request.sides
        if sides != 6 or not _DIE_FROM_BITS:
            randint = self._randint
            if request.count == 2:
                return (randint(1, sides), randint(1, sides))
            return tuple(randint(1, sides) for _ in range(request.count))
        if request.count == 2:
            return self.two_dice()
        return tuple(self._die() for _ in range(request.count))

    def two_dice(self) -> tuple[int, int]:
        """Return two six-sided dice as `roll` throws them (Game.roll throws the usual pair so itself, from `rng`)."""
        bits = self._bits
        first = bits(3)
        while first >= 6:
            first = bits(3)
        second = bits(3)
        while second >= 6:
            second = bits(3)
        return (first + 1, second + 1)

    def _die(self) -> int:
        """Return one die, 1 to 6, as `rng.randint(1, 6)` would."""
        bits = self._bits
        face = bits(3)
        while face >= 6:
            face = bits(3)
        return face + 1

    def shuffle(self, request: ShuffleRequest) -> list[int]:
        """Return a permutation of the deck drawn by the generator."""
        order = list(range(request.size))
        self.rng.shuffle(order)
        return order

    def fork(self) -> SeededChance:
        """Return a copy that throws and shuffles from now on exactly as this one will, independently."""
        other = SeededChance.__new__(SeededChance)
        rng = other.rng = random.Random.__new__(random.Random)  # not Random(): that seeds from the OS first
        rng.setstate(self.rng.getstate())
        other._randint, other._bits = rng.randint, rng.getrandbits
        return other

    def __deepcopy__(self, memo: dict) -> SeededChance:
        """Return `fork()` (`copy.deepcopy`): a plain deep copy would keep the generator's methods bound
        to the original's generator, so the copy would throw from both."""
        return self.fork()

    def get_state(self) -> object:
        """Return the generator's state (saved with a game)."""
        return self.rng.getstate()

    def set_state(self, state: object) -> None:
        """Put the generator back in a state get_state returned."""
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
        """Return the next scripted throw (a LandlordError when none is left or it has the wrong number of dice)."""
        if not self.throws:
            raise LandlordError("the scripted dice ran out of throws")
        throw = tuple(self.throws.pop(0))
        if len(throw) != request.count:
            raise LandlordError(
                f"a scripted throw has {len(throw)} dice, the rules throw {request.count} ({request.dice})"
            )
        return throw

    def shuffle(self, request: ShuffleRequest) -> list[int]:
        """Return the next scripted permutation, or the declared order when none is left."""
        if self.shuffles:
            return list(self.shuffles.pop(0))
        return list(range(request.size))
