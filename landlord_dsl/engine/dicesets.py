"""Engine stage: the sets of dice an edition declares besides its own (`dice NAME ...`, thrown by `roll NAME`).

A set is thrown on its own, as a chance request of its own, so the edition's
dice and their draws are the same with or without it. Each throw is logged
as a `throw` event that numbers the face each die shows (1 for the first
face declared); what the faces show (their pips, or a text) is the
Program's `DiceSet`. `DiceSets` is a part of `engine.Game`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..core.errors import LandlordError
from ..program.requests import DiceRequest

if TYPE_CHECKING:
    from ..program.compiled import Program


def is_double(faces: Sequence[object]) -> bool:
    """Return whether a throw's faces (numbers, or what a set's faces show) are a double: two dice or more,
    all alike."""
    return len(faces) > 1 and faces.count(faces[0]) == len(faces)


class DiceSets:
    """The game's state and throws of the declared sets of dice, numbered as `Program.dice_sets` orders them."""

    if not TYPE_CHECKING:  # (mypy would have the mixin declare the fields it sets: they are Game's)
        __slots__ = ()

    prog: Program
    log: list[tuple]
    turn: int
    actor: int
    rule: int
    _roll: Callable[[DiceRequest], tuple[int, ...]]

    def _start_dice_sets(self) -> None:
        """Give every declared set its chance request and the state before its first throw (no face shown)."""
        sets = self.prog.dice_sets
        self.set_requests = [DiceRequest(s.count, len(s.faces), s.name) for s in sets]
        self.set_faces: list[tuple[int, ...]] = [(0,) * s.count for s in sets]  # face numbers; 0: not thrown yet
        self.set_pips: list[tuple[int, ...]] = [(0,) * s.count for s in sets]
        self.set_shown: list[tuple[str, ...]] = [("",) * s.count for s in sets]
        self.set_double: list[bool] = [False] * len(sets)

    def show_set(self, k: int, faces: tuple[int, ...]) -> None:
        """Make set `k` show `faces` (face numbers): its pips, its faces as text, and whether they are a double."""
        dice = self.prog.dice_sets[k]
        shown = tuple(dice.shown(face) for face in faces)
        self.set_faces[k] = faces
        self.set_pips[k] = tuple(dice.pips(face) for face in faces)
        self.set_shown[k] = shown
        self.set_double[k] = all(faces) and is_double(shown)

    def roll_set(self, k: int, seat: int | None = None) -> None:
        """Throw declared set `k`: by `seat` (for the log), the acting player if None."""
        request = self.set_requests[k]
        faces = tuple(self._roll(request))
        if len(faces) != request.count or not all(type(f) is int and 1 <= f <= request.sides for f in faces):
            raise LandlordError(
                f"the chance source answered {faces!r} to a throw of {request.count} '{request.dice}' "
                f"{'die' if request.count == 1 else 'dice'} of {request.sides} faces (each 1 to {request.sides})"
            )
        self.show_set(k, faces)
        self.log.append(("throw", self.turn, self.actor if seat is None else seat, request.dice, faces, self.rule))
