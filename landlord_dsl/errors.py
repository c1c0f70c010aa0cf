"""Errors for people: every problem a user can cause is a LandlordError.

A LandlordError carries one or more Diagnostics. Each diagnostic knows its
file, line and column, the offending source line, and a hint, and renders as

    editions/x.lg:12:9: error: unknown account 'tresury'
       12 |     pay 10 from player to tresury
          |                           ^^^^^^^
       hint: did you mean 'treasury'?
"""

from __future__ import annotations

import difflib
from typing import Iterable

import attrs

from .ast import Span


@attrs.frozen
class Diagnostic:
    """One problem at one place in a source file."""

    message: str
    span: Span | None = None
    line_text: str | None = None
    hint: str | None = None
    severity: str = "error"

    def render(self) -> str:
        """Return the diagnostic as the multi-line text shown to users."""
        if self.span is None:
            head = f"{self.severity}: {self.message}"
            return head + (f"\n   hint: {self.hint}" if self.hint else "")
        span = self.span
        lines = [f"{span.file}:{span.line}:{span.column}: {self.severity}: {self.message}"]
        if self.line_text is not None:
            gutter = str(span.line)
            text = self.line_text.expandtabs(4)
            lines.append(f" {gutter} | {text}")
            width = 1
            if span.end_line == span.line and span.end_column > span.column:
                width = span.end_column - span.column
            width = max(1, min(width, max(1, len(text) - span.column + 1)))
            lines.append(f" {' ' * len(gutter)} | {' ' * (span.column - 1)}{'^' * width}")
        if self.hint:
            lines.append(f" {' ' * len(str(span.line))}   hint: {self.hint}")
        return "\n".join(lines)


class LandlordError(Exception):
    """The one exception type landlord-dsl lets reach its users."""

    def __init__(self, diagnostics: Iterable[Diagnostic] | str):
        if isinstance(diagnostics, str):
            diagnostics = [Diagnostic(diagnostics)]
        self.diagnostics: tuple[Diagnostic, ...] = tuple(diagnostics)
        super().__init__(self.render())

    def render(self) -> str:
        """Return every diagnostic, rendered, separated by blank lines."""
        return "\n\n".join(d.render() for d in self.diagnostics)


class RuleRuntimeError(LandlordError):
    """A rule did something impossible while a game was running."""


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """Return a 'did you mean' hint for the closest candidate, or None."""
    matches = difflib.get_close_matches(word, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean '{matches[0]}'?" if matches else None


class SourceText:
    """The text of one source file, to quote lines in diagnostics."""

    def __init__(self, name: str, text: str):
        self.name = name
        self.text = text
        self._lines = text.splitlines()

    def line(self, number: int) -> str | None:
        """Return line `number` (1-based) without its newline, or None."""
        if 1 <= number <= len(self._lines):
            return self._lines[number - 1]
        return None

    def diagnostic(self, message: str, span: Span | None, hint: str | None = None) -> Diagnostic:
        """Return a Diagnostic at `span` quoting this file's line."""
        text = self.line(span.line) if span is not None else None
        return Diagnostic(message, span, text, hint)
