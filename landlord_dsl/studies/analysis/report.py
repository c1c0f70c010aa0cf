"""Exact analysis, results: the per-space and rent rows an analysis returns, and their text, Markdown and JSON.

Stage: the last one of `analyze` (landlord_dsl.studies.analysis); nothing here runs a game.
"""

from __future__ import annotations

from typing import Any

import attrs

from ...core.errors import Diagnostic, LandlordError


@attrs.frozen
class SpaceRow:
    """Long-run figures for one space, or for one space in one status (e.g. in jail).

    `throw` and `turn` are probabilities (0..1) that a throw or a turn ends
    there; `visits` is the expected number of landings there per turn.
    """

    index: int
    name: str
    label: str
    status: str
    throw: float
    turn: float
    visits: float


@attrs.frozen
class RentRow:
    """What one title earns its owner at one level, per landing and per opponent turn.

    `cost` is the money laid out to reach the level as the rules charge it
    (None if it could not be measured); `payback` is cost / rent_per_turn, in
    opponent turns (None without a cost or a rent).
    """

    index: int
    name: str
    label: str
    level: str
    rent_per_landing: float
    rent_per_turn: float
    cost: int | None
    payback: float | None


@attrs.frozen
class Analysis:
    """The result of `analyze`: per-space rows, rent rows and what they assume."""

    edition: str
    title: str
    players: int
    policy: tuple[str, ...]
    draws: str
    states: int
    throws_per_turn: float
    rows: tuple[SpaceRow, ...]
    rents: tuple[RentRow, ...]
    movement_state: tuple[str, ...]
    warnings: tuple[Diagnostic, ...]
    seconds: float
    economy_checked: bool = True

    @property
    def exact(self) -> bool:
        """Return True when the economy check ran and found the movement independent of the economy."""
        return self.economy_checked and not self.warnings

    def by_space(self, name: str) -> SpaceRow:
        """Return the all-statuses row of the space called `name`."""
        for row in self.rows:
            if row.name == name and not row.status:
                return row
        raise LandlordError(f"no space '{name}' in this analysis")

    def to_json(self) -> dict[str, Any]:
        """Return the analysis as plain JSON data (the schema is in docs/analysis.md)."""
        return {
            "schema": "landlord-dsl/analysis/1",
            "edition": self.edition,
            "title": self.title,
            "players": self.players,
            "policy": list(self.policy),
            "draws": self.draws,
            "states": self.states,
            "movement_state": list(self.movement_state),
            "throws_per_turn": self.throws_per_turn,
            "economy_checked": self.economy_checked,
            "exact": self.exact,
            "warnings": [d.render() for d in self.warnings],
            "spaces": [attrs.asdict(r) for r in self.rows],
            "rents": [attrs.asdict(r) for r in self.rents],
        }

    def _table(self, markdown: bool) -> tuple[list[str], list[str]]:
        """Return the lines of the spaces' table and of the rents' table."""
        head = ["#", "space", "throw %", "turn %", "visits/turn"]
        body = []
        for r in self.rows:
            name = r.label + (f" [{r.status}]" if r.status else "")
            body.append([str(r.index), name, f"{100 * r.throw:.4f}", f"{100 * r.turn:.4f}", f"{r.visits:.5f}"])
        rents = []
        for rent in self.rents:
            rents.append(
                [
                    str(rent.index),
                    rent.label,
                    rent.level,
                    f"{rent.rent_per_landing:.2f}",
                    f"{rent.rent_per_turn:.3f}",
                    "-" if rent.cost is None else str(rent.cost),
                    "-" if rent.payback is None else f"{rent.payback:.1f}",
                ]
            )
        rent_head = ["#", "title", "level", "rent/landing", "rent/opponent turn", "cost", "payback (turns)"]
        return _render_grid(head, body, markdown), _render_grid(rent_head, rents, markdown)

    def render_text(self) -> str:
        """Return the analysis as a plain-text report."""
        spaces, rents = self._table(False)
        out = [
            f"{self.title}: exact long-run movement of one token",
            f"policy: {', '.join(self.policy) or 'heuristic bot'}; draws: {self.draws}; "
            f"{self.states} movement states ({', '.join(self.movement_state)}); "
            f"{self.throws_per_turn:.4f} throws a turn; {self.seconds * 1000:.0f} ms",
            "",
        ]
        for d in self.warnings:
            out += ["warning: " + d.render(), ""]
        out += spaces
        if self.rents:
            out += ["", "Rent an opponent pays (reference economy, from the rules' landing handlers):"] + rents
        return "\n".join(out) + "\n"

    def render_markdown(self) -> str:
        """Return the analysis as Markdown (two tables)."""
        spaces, rents = self._table(True)
        out = [
            f"## {self.title}",
            "",
            f"Policy: {', '.join(self.policy) or 'heuristic bot'}. Draws: {self.draws}. "
            f"{self.states} movement states ({', '.join(self.movement_state)}). "
            f"{self.throws_per_turn:.4f} throws a turn.",
            "",
        ]
        for d in self.warnings:
            out += ["!!! warning", "    " + d.render().replace("\n", "\n    "), ""]
        out += spaces
        if self.rents:
            out += ["", "### Rent per opponent turn", ""] + rents
        return "\n".join(out) + "\n"


def _render_grid(head: list[str], rows: list[list[str]], markdown: bool) -> list[str]:
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
        return lines + ["| " + " | ".join(r) + " |" for r in rows]
    widths = [max(len(x) for x in col) for col in zip(head, *rows)]
    left = {1, 2}

    def fmt(r):
        return "  ".join(c.ljust(w) if i in left else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))

    return [fmt(head), "  ".join("-" * w for w in widths)] + [fmt(r) for r in rows]
