"""Pass 2: resolve every name, infer every type, collect every problem.

`check_declarations` walks the merged declarations of an edition (and its
variants) once. It never stops at the first problem: every diagnostic is
collected and raised together as one LandlordError. What it returns, a
Model (model.py), is what the compiler needs: declarations by name, the
board, and for every expression node its type and what each name refers to.

The `Checker` is made of its passes: the declaration pass (check_decls.py),
the body and statement pass (check_bodies.py) and the expression pass
(check_exprs.py), with flow narrowing in narrowing.py.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..core.errors import RuleCheckError, SourceText
from ..language import ast
from ..language.limits import MAX_TURN_LIMIT
from .check_bodies import BodyPass
from .check_decls import DeclarationPass
from .check_exprs import ExpressionPass
from .model import MAX_DICE, MAX_PLAYERS, Model


class Checker(DeclarationPass, BodyPass, ExpressionPass):
    """The type checker: its passes, run in order by `check`."""

    def check(self, header: ast.Header, decls: Iterable[ast.Declaration]) -> Model:
        """Return the Model of an edition's merged declarations; raise LandlordError with every problem found."""
        decls = list(decls)
        m = Model(
            header=header,
            options={},
            accounts=[],
            consts={},
            tables={},
            groups={},
            group_labels={},
            kinds={},
            game_vars={},
            player_vars={},
            space_vars={},
            spaces=[],
            space_index={},
            space_fields={},
            decks={},
            functions={},
            actions={},
            rules=[],
            ends=[],
            score=None,
            annotations=self.annotations,
            function_types={},
            table_types={},
        )
        self.m = m
        if header.players is not None and not (1 <= header.players[0] <= header.players[1] <= MAX_PLAYERS):
            self.error(
                f"the player range must go from a smaller to a larger number, at most {MAX_PLAYERS}",
                header.item_span("players"),
                "write e.g. `players 2 to 4`",
            )
        if header.dice is not None and not 1 <= header.dice <= MAX_DICE:
            self.error(f"an edition throws from 1 to {MAX_DICE} dice", header.item_span("dice"), "write e.g. `dice 2`")
        if header.turn_limit is not None and not 1 <= header.turn_limit <= MAX_TURN_LIMIT:
            self.error(
                f"the turn limit must be from 1 to {MAX_TURN_LIMIT:,}",
                header.item_span("turn_limit"),
                "the limit bounds how long a game can run; a game longer than that cannot be played in bounded time",
            )
        self._collect(decls)
        self._check_type_names(decls)
        self._check_citations(header, decls)
        self._check_board()
        self._check_groups(decls)
        self._check_reroutes()
        self._check_title_decks()
        self._check_bodies()
        self._check_paid_fields()
        if not m.spaces:
            self.error("the edition has no board", header.span, "add a `board { space ... }` block")
        if self.diagnostics:
            self.diagnostics.sort(key=lambda d: (d.span.file, d.span.line, d.span.column) if d.span else ("", 0, 0))
            raise RuleCheckError(self.diagnostics)
        return m


def check_declarations(
    header: ast.Header,
    decls: Iterable[ast.Declaration],
    sources: dict[str, SourceText],
    checker: Checker | None = None,
) -> Model:
    """Check merged declarations; return the Model or raise LandlordError with every problem.

    A `checker` given is the one run: after a failure its partial Model (`checker.m`) still
    says what type each declaration it got to was given.
    """
    return (checker or Checker(sources)).check(header, decls)
