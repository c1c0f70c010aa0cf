"""Exact analysis, results: the per-space and rent rows an analysis returns, and their text, Markdown and JSON.

Stage: the last one of `analyze` (landlord_dsl.studies.analysis); nothing here runs a game.
"""

from __future__ import annotations

import textwrap
from typing import Any

import attrs

from ...core.errors import Diagnostic, LandlordError

_WIDTH = 100  # the text report's width


@attrs.frozen
class SpaceRow:
    """Long-run figures for one space, or for one space in one status (e.g. in jail).

    `throw` and `turn` are probabilities (0..1) that a dice throw (any throw of
    the dice in the token's turn, movement or not) or a turn ends there;
    `visits` is the expected number of landings there per turn.
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
    economy_turns: int = 0  # the turns bots played on in the game the economy check replays the states in

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
            "dice_throws_per_turn": self.throws_per_turn,
            "throws_per_turn": self.throws_per_turn,  # the old name of dice_throws_per_turn, kept for scripts
            "economy_checked": self.economy_checked,
            "exact": self.exact,
            "warnings": [d.render() for d in self.warnings],
            # each row's dice_throw is its throw (kept under that name too, for scripts)
            "spaces": [{**attrs.asdict(r), "dice_throw": r.throw} for r in self.rows],
            "rents": [attrs.asdict(r) for r in self.rents],
        }

    def _table(self, markdown: bool) -> tuple[list[str], list[str]]:
        """Return the lines of the spaces' table and of the rents' table (a rent column with nothing in
        it, such as cost where no rule's decision builds, left out)."""
        head = ["#", "space", "dice throw %", "turn %", "visits/turn"]
        body = []
        for r in self.rows:
            name = r.label + (f" [{r.status}]" if r.status else "")
            body.append([str(r.index), name, f"{100 * r.throw:.4f}", f"{100 * r.turn:.4f}", f"{r.visits:.5f}"])
        rent_head = ["#", "title", "level", "rent/landing", "rent/opponent turn", "cost", "payback (turns)"]
        rents = [
            [
                str(rent.index),
                rent.label,
                rent.level,
                f"{rent.rent_per_landing:.2f}",
                f"{rent.rent_per_turn:.3f}",
                "-" if rent.cost is None else str(rent.cost),
                "-" if rent.payback is None else f"{rent.payback:.1f}",
            ]
            for rent in self.rents
        ]
        kept = [i for i, _ in enumerate(rent_head) if i < 5 or any(row[i] != "-" for row in rents)]
        rent_head, rents = [rent_head[i] for i in kept], [[row[i] for i in kept] for row in rents]
        return _render_grid(head, body, markdown), _render_grid(rent_head, rents, markdown)

    def assumptions(self) -> list[str]:
        """Return the sentences that say what the figures assume and how far they are exact."""
        policy = (
            ", then ".join(self.policy) + " where offered, else the heuristic bot"
            if self.policy
            else "the heuristic bot"
        )
        carried = ", ".join(v for v in self.movement_state if v != "position")
        states = f"{self.states} states of the token: its square" + (f" and {carried}" if carried else "")
        if not self.economy_checked:
            check = "Not checked against a game further on (the economy check was turned off)."
        elif self.warnings:
            check = "Not exact for real games: in a game further on the token moved otherwise (warning below)."
        else:
            check = (
                f"Checked: every state's turn, replayed in a game that bots played on for {self.economy_turns} "
                "turns, moved the token the same way. That is evidence, not proof, for real games: a decision that "
                "reads money may go otherwise when a player is poorer."
            )
        return [
            f"Exact for the movement of one token under these rules, decisions answered by {policy} in a "
            f"reference economy ({self.players} players, the game just after setup); each card drawn is any "
            "card of its deck, equally likely (the order of a deck is not followed).",
            f"{states}; {self.throws_per_turn:.4f} dice throws a turn.",
            check,
        ]

    @staticmethod
    def legend() -> list[tuple[str, str]]:
        """Return (column, meaning) for each column of the spaces' table."""
        return [
            (
                "dice throw %",
                "share of all dice throws that end on the space, after any move the landing makes (a card that "
                "moves the token, a space that sends it on). A dice throw is any throw of the dice in the token's "
                "turn, one a landing asks for (to work out a rent, say) included; simulate --stats counts movement "
                "throws only: a turn's first throw and those that move the token.",
            ),
            ("turn %", "share of turns that end on the space."),
            (
                "visits/turn",
                "landings on the space per turn, a space the token is sent on from included: a space can be "
                "visited and end no throw.",
            ),
            ("[status]", "the part of the row in that status of the token; the plain row is every status."),
        ]

    def render_text(self) -> str:
        """Return the analysis as a plain-text report: what it assumes, the tables and a legend (the same
        text for the same rules: no timing in it)."""
        spaces, rents = self._table(False)
        out = [self.title, "Where one token ends its throws and turns, in the long run", ""]
        out += [textwrap.fill(sentence, _WIDTH) for sentence in self.assumptions()] + [""]
        for d in self.warnings:
            out += ["warning: " + d.render(), ""]
        out += spaces + [""]
        for column, meaning in self.legend():
            out.append(textwrap.fill(meaning, _WIDTH, initial_indent=f"{column:<13}", subsequent_indent=" " * 13))
        if self.rents:
            out += ["", "Rent an opponent pays (reference economy, from the rules' landing handlers):"] + rents
        return "\n".join(out) + "\n"

    def render_markdown(self) -> str:
        """Return the analysis as Markdown: what it assumes, two tables and a legend."""
        spaces, rents = self._table(True)
        out = [f"## {self.title}", "", " ".join(self.assumptions()), ""]
        for d in self.warnings:
            out += ["!!! warning", "    " + d.render().replace("\n", "\n    "), ""]
        out += spaces + [""] + [f"- **{column}**: {meaning}" for column, meaning in self.legend()]
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
