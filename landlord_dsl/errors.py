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
            raw = self.line_text
            text = raw.expandtabs(4)
            # columns count characters of the raw line; tabs are shown as spaces, so measure on the expanded text
            start = len(raw[:span.column - 1].expandtabs(4))
            end = len(raw[:span.end_column - 1].expandtabs(4)) if span.end_line == span.line else start + 1
            width = max(1, min(end - start, max(1, len(text) - start)))
            lines.append(f" {gutter} | {text}")
            lines.append(f" {' ' * len(gutter)} | {' ' * start}{'^' * width}")
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
        # Lines end at "\n" only, as the parser counts them (str.splitlines also breaks at \f, \x85, ...).
        self._lines = [line.removesuffix("\r") for line in text.split("\n")]

    def line(self, number: int) -> str | None:
        """Return line `number` (1-based) without its newline, or None."""
        if 1 <= number <= len(self._lines):
            return self._lines[number - 1]
        return None

    def diagnostic(self, message: str, span: Span | None, hint: str | None = None) -> Diagnostic:
        """Return a Diagnostic at `span` quoting this file's line."""
        text = self.line(span.line) if span is not None else None
        return Diagnostic(message, span, text, hint)
