"""Engine stage: moving the acting player round the board.

`Movement` is a part of `engine.Game`: counted moves that pass spaces and
land (`advance`), moves back and jumps along a group (`move_steps`), moves
to a space, and sending a token without passing anything.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core.span import Span
from ..language.limits import shown

if TYPE_CHECKING:
    from ..core.errors import RuleRuntimeError
    from ..program.compiled import Program


@functools.lru_cache(maxsize=4096)
def _jump_points(start: int, group: tuple[int, ...], size: int) -> tuple[int, int]:
    """Return (steps to the group's first member ahead of `start`, the member after that one)."""
    first = min(group, key=lambda s: (s - start - 1) % size)
    landing = min(group, key=lambda s: (s - first - 1) % size)
    return (first - start) % size or size, landing


class Movement:
    """The moves of `engine.Game` (a mixin: the game's state lives in Game)."""

    if not TYPE_CHECKING:  # (mypy would have the mixin declare the fields it sets: they are Game's)
        __slots__ = ()

    if TYPE_CHECKING:
        prog: Program
        pos: list[int]
        origin: int
        actor: int
        turn: int
        rule: int
        board_size: int
        passes: list[tuple[int, Callable]]  # (space, its `on pass` dispatcher), for each space that has one
        log: list[tuple]

        def fail(self, message: str, span: Any = None, hint: str | None = None) -> RuleRuntimeError: ...

    def jump_target(self, start: int, steps: int, group: tuple[int, ...]) -> int | None:
        """Return where a move of `steps` ends if it jumps once along `group`, or None.

        The mover counts to the first member of the group ahead; if steps are
        left there, one step jumps to the next member, and the rest are
        counted on from it. None if the count runs out at or before the first
        member (or the group has fewer than two members).
        """
        size = self.board_size
        if len(group) < 2:
            return None
        reach, landing = _jump_points(start, group, size)
        if reach >= steps:
            return None
        return (landing + steps - reach - 1) % size

    def move_steps(
        self,
        steps: int,
        forward: bool,
        via: tuple[int, ...] | None = None,
        span: Span | None = None,
        stops: tuple[int, ...] = (),
    ) -> None:
        """Move the acting player: forward (optionally jumping along `via`) or backward.

        With `stops`, the move ends on the first of those spaces it reaches
        (never the one it starts from) if that comes before the count runs out.
        """
        if steps < 0:
            raise self.fail(f"cannot move a negative number of steps ({shown(steps)})", span)
        start, size = self.pos[self.actor], self.board_size
        if stops:
            sign = 1 if forward else -1
            steps = min(steps, *(((stop - start) * sign) % size or size for stop in stops))
        if via is not None:
            dest = self.jump_target(start, steps, via)
            if dest is None:
                raise self.fail(
                    "this move cannot jump: the count ends before the first jump point",
                    span,
                    "guard the option with `via(group, steps) != none`",
                )
            # a jump travels along the track: the spaces it skips are passed, not landed on
            self.advance((dest - start) % size or size)
        elif forward:
            self.advance(steps)
        else:
            self._relocate((start - steps) % size)

    def move_to(self, dest: int) -> None:
        """Move the acting player forward to `dest`, passing what lies between."""
        distance = (dest - self.pos[self.actor]) % self.board_size
        if distance:
            self.advance(distance)
        else:
            self._relocate(dest)

    def _relocate(self, dest: int) -> None:
        """Move the acting player to `dest` without passing anything, then land."""
        seat = self.actor
        self.origin = start = self.pos[seat]
        self.pos[seat] = dest
        self.log.append(("move", self.turn, seat, start, dest, self.rule))
        self.land()

    def advance(self, steps: int, span: Span | None = None) -> None:
        """Move the acting player `steps` forward along the track, passing and then landing.

        `on pass` handlers fire, in the order reached, for every space the
        move reaches or goes past (each once per move), the landing space
        included; then the landing handlers of the space the player is on.
        """
        if steps < 0:
            raise self.fail(f"cannot move a negative number of steps ({shown(steps)})", span)
        seat = self.actor
        pos = self.pos
        start = pos[seat]
        size = self.board_size
        self.origin = start
        dest = (start + steps) % size
        pos[seat] = dest
        self.log.append(("move", self.turn, seat, start, dest, self.rule))
        passes = self.passes
        if len(passes) == 1:
            space, handler = passes[0]
            if ((space - start) % size or size) <= steps:
                handler(self)
        elif passes:
            passed = sorted(
                (distance, s, handler) for s, handler in passes if (distance := (s - start) % size or size) <= steps
            )
            for _, _, handler in passed:
                handler(self)
        dispatch = self.prog.on_land[pos[seat]]  # where he is now: a pass may have moved him
        if dispatch is not None:
            dispatch(self)

    def send(self, seat: int, dest: int) -> None:
        self.log.append(("send", self.turn, seat, self.pos[seat], dest, self.rule))
        self.pos[seat] = dest

    def land(self) -> None:
        dispatch = self.prog.on_land[self.pos[self.actor]]
        if dispatch is not None:
            dispatch(self)
