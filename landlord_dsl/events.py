"""Engine stage: what a running game reports to its observers.

`ThrowEvent` (each throw of the dice) and `TurnEvent` (each finished turn)
are handed to the objects given to `Game.observe`; the game is the same
with or without them.
"""

from __future__ import annotations

import attrs


@attrs.frozen
class ThrowEvent:
    """A throw of the dice, reported to observers: who threw, the dice, and where the thrower stood."""

    turn: int
    seat: int
    dice: tuple[int, ...]
    total: int
    double: bool
    position: int


@attrs.frozen
class TurnEvent:
    """A finished turn, reported to observers: where the player began and ended it, and how often he threw."""

    turn: int
    seat: int
    start: int
    end: int
    throws: int
    still_playing: bool
