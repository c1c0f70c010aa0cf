"""Pass 2 (checking): what the checker's passes share.

`PassBase` holds the diagnostics collected so far, the Model being built and
the side tables of every node, and reports a problem with `error`. The
passes (check_decls, check_bodies, check_exprs) each extend it, and
`checker.Checker` is made of all three.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.errors import Diagnostic, SourceText, did_you_mean
from ..core.types import DICE, INT, NONE, compatible, describe, dice_set_name, is_optional, strip_optional
from ..language import ast
from ..language.formatter import expr
from .model import Annotations

if TYPE_CHECKING:
    from .model import Model, Scope


class PassBase:
    """The state of one checking run, and the methods one pass calls on another."""

    m: Model

    def __init__(self, sources: dict[str, SourceText]):
        self.sources = sources
        self.diagnostics: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []  # what `check` points out in rules that check
        self.unkeyed: list[Diagnostic] = []  # citations without a source key: warnings under `check --strict`
        self.annotations = Annotations()
        self.in_template = 0  # (the depth of prompts' and labels' holes being checked: `template`)
        self.game_functions: set[str] = set()
        self.references: dict[str, ast.ReferenceDecl] = {}
        self.choice_decls: dict[str, ast.ChoiceDecl] = {}  # the choices declared, which are type names
        self.names_seen: dict[str, ast.Span] = {}  # every top-level name claimed, with where
        self.paid_fields: dict[str, ast.Span] = {}  # board fields some `pay` pays as they stand, with the first

    # ------------------------------------------------------------ reporting
    def error(
        self,
        message: str,
        span: ast.Span | None,
        hint: str | None = None,
        *,
        code: str | None = None,
        subject: str | None = None,
    ) -> None:
        source = self.sources.get(span.file) if span is not None else None
        line = source.line(span.line) if source and span else None
        self.diagnostics.append(Diagnostic(message, span, line, hint, code=code, subject=subject))

    def warn(self, message: str, span: ast.Span | None, hint: str | None = None) -> None:
        """Note what `check` points out in rules that check (a warning, located as an error is); return nothing."""
        source = self.sources.get(span.file) if span is not None else None
        line = source.line(span.line) if source and span else None
        self.warnings.append(Diagnostic(message, span, line, hint, "warning"))

    def mismatch_hint(self, want: str, got: str, e: ast.Expr) -> str | None:
        """Return a hint for a value `e` of type `got` given where `want` is wanted, or None.

        Two slips have a fix to name: a value that may be none where none is
        not allowed (test it first: the test narrows it), and a throw where a
        number is wanted (its `.total`).
        """
        if is_optional(got) and got != NONE and compatible(want, strip_optional(got)):
            shown = expr(e)
            return (
                f"it may be none: rule none out first, e.g. `if {shown} != none {{ ... }}`; "
                f"inside, it is {describe(strip_optional(got))}"
            )
        if want == INT and (got == DICE or dice_set_name(got) is not None):
            return f"`{expr(e)}.total` is the sum of the throw (`.first`, `.second` or `[i]` a single die)"
        return None

    def _purpose_hint(self, name: str) -> str:
        """Return the hint for an unknown purpose: the nearest declared one, or how to declare it."""
        declared = list(self.m.purposes)
        return did_you_mean(name, declared) or (
            f"the purposes are {', '.join(declared)}; declare another with `purpose {name}`"
            if declared
            else f"declare it with `purpose {name}`"
        )

    def _span_in_text(self, span: ast.Span, text: str, start: int, length: int) -> ast.Span:
        """Return the span of text[start:start + length] in the file, or `span` if it cannot be found.

        The text is the first string literal on the line of `span` after its
        start (a `choose` prompt, an option label); with escapes before the
        piece the columns would not match, so the statement's span is kept.
        """
        source = self.sources.get(span.file)
        line = source.line(span.line) if source is not None else None
        quote = line.find('"', span.column - 1) if line else -1
        if quote < 0 or "\\" in line[quote + 1 : quote + 1 + start] or line[quote + 1 : quote + 1 + len(text)] != text:  # type: ignore[index]
            return span
        column = quote + 2 + start
        return ast.Span(span.file, span.line, column, span.line, column + length)

    if TYPE_CHECKING:  # defined by the passes; named here so that each pass may call the others

        def expr(self, e: ast.Expr, scope: Scope, constant: bool = False) -> str: ...

        def _name_type(self, e: ast.Name, scope: Scope, constant: bool = False, report: bool = True) -> str: ...

        def conform(self, want: str, e: ast.Expr, got: str) -> str: ...

        def define(self, scope: Scope, name: str, type_: str, span: ast.Span) -> int: ...
