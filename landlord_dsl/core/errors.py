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
import functools
from collections.abc import Iterable

import attrs

from .installation import shown_name
from .span import Span


@attrs.frozen
class Diagnostic:
    """One problem at one place in a source file.

    `message`, `hint` and `severity` ("error", "warning" or "note") are for
    people; `render()` returns them with the place and the quoted line. A
    program that must tell problems apart reads `code` instead: a short
    string that stays the same when the wording changes, or None for a
    problem that has none yet. The codes so far are those of a name nothing
    declares, each with that name in `subject`:

    | code | the name is used as |
    |---|---|
    | `unknown-name` | a value (a constant, variable, table, space, account, ...) |
    | `unknown-function` | a function called |
    | `unknown-action` | an action done with `do` |
    | `unknown-rule` | a rule replaced, placed next to, or named by `disable`/`enable` |
    | `unknown-type` | the type of a field, variable, parameter or option |
    | `unknown-purpose` | a payment's purpose, or one a `reroute` names |
    | `unknown-source-key` | a citation's source key |
    | `unknown-kind` | a space's kind |
    | `unknown-group` | a group a space is in, or one a move jumps `via` |
    | `unknown-group-or-kind` | the group or kind a deck's titles are in |
    | `unknown-space` | the space a share card is of |
    | `unknown-space-or-group` | where a move stops |
    | `unknown-space-kind-or-group` | what a `land` or `pass` handler is for |
    | `unknown-deck` | a deck drawn from or shuffled |
    | `unknown-dice` | the dice thrown |
    | `unknown-option` | an option given a value |
    """

    message: str
    span: Span | None = None
    line_text: str | None = None
    hint: str | None = None
    severity: str = "error"
    code: str | None = attrs.field(default=None, kw_only=True)
    subject: str | None = attrs.field(default=None, kw_only=True)

    def render(self) -> str:
        """Return the diagnostic as the multi-line text shown to users."""
        message, hint = visible(self.message), self.hint and visible(self.hint)
        if self.span is None:
            head = f"{self.severity}: {message}"
            return head + (f"\n   hint: {hint}" if hint else "")
        span = self.span
        lines = [f"{visible(shown_name(span.file))}:{span.line}:{span.column}: {self.severity}: {message}"]
        if self.line_text is not None:
            gutter = str(span.line)
            raw = self.line_text

            def shown(part: str) -> str:
                return visible(part.expandtabs(4))

            text = shown(raw)
            # columns count characters of the raw line; tabs are shown as spaces and control
            # characters as escapes, so measure on the text as shown
            start = len(shown(raw[: span.column - 1]))
            # a span of several lines (a declaration) is underlined to the end of its first line's code
            end = len(shown(raw[: span.end_column - 1])) if span.end_line == span.line else len(text.rstrip())
            width = max(1, min(end - start, max(1, len(text) - start)))
            lines.append(f" {gutter} | {text}")
            lines.append(f" {' ' * len(gutter)} | {' ' * start}{'^' * width}")
        if hint:
            lines.append(f" {' ' * len(str(span.line))}   hint: {hint}")
        return "\n".join(lines)


class LandlordError(Exception):
    """The one exception type landlord-dsl lets reach its users (as one of the subclasses below, or itself)."""

    exit_status = 1  # the `landlord-dsl` exit status when this error stops a command (docs/cli.md, "Exit status")

    def __init__(self, diagnostics: Iterable[Diagnostic] | str):
        if isinstance(diagnostics, str):
            diagnostics = [Diagnostic(diagnostics)]
        self.diagnostics: tuple[Diagnostic, ...] = tuple(diagnostics)
        super().__init__(self.render())

    def render(self) -> str:
        """Return every diagnostic, rendered, separated by blank lines."""
        return "\n\n".join(d.render() for d in self.diagnostics)

    def __reduce__(self) -> tuple[type[LandlordError], tuple[list[Diagnostic]]]:
        # pickled with its diagnostics, not its rendered text: an error raised in a worker
        # process (simulate --jobs, Dask) reaches the user as it was, not rendered twice
        return (type(self), (list(self.diagnostics),))


class RuleSourceError(LandlordError):
    """A rule file with problems: it does not parse, breaks the language's rules, or is no rule file at all."""


class RuleSyntaxError(RuleSourceError):
    """A rule file that does not parse."""


class RuleCheckError(RuleSourceError):
    """A rule file that parses but breaks the language's rules (names, types, `extends`, merging variants)."""


class RuleRuntimeError(LandlordError):
    """A rule did something impossible while a game was running."""


class UsageError(LandlordError):
    """A request that cannot be met as asked: a bad command-line argument, an unknown edition, file or option,
    an option value or player count the rules do not allow, an output file that cannot be opened."""

    exit_status = 2


class SaveError(LandlordError):
    """A saved game that cannot be read, or does not fit the game it is restored into."""


class GameLogError(LandlordError):
    """A game log (`play --log`) that is not one."""


class OutputError(LandlordError):
    """Output that could not be written (a full disk, a file that went away)."""


def unreadable(name: str, err: OSError | None = None) -> UsageError:
    """Return the error for a file a command was given and cannot read: `name` missing (err None, or the OS said
    so) is worded one way whatever command or reader met it, any other OSError with the system's reason."""
    if err is None or isinstance(err, FileNotFoundError):
        return UsageError(f"no such file: {name}")
    return UsageError(f"cannot read {name}: {err.strerror or err}")


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """Return a 'did you mean' hint for the closest candidate, or None."""
    matches = difflib.get_close_matches(word, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean '{matches[0]}'?" if matches else None


class SourceText:
    """The text of one source file, to quote lines in diagnostics."""

    def __init__(self, name: str, text: str):
        self.name = name
        self.text = text

    @functools.cached_property
    def _lines(self) -> list[str]:
        """Return the text's lines, split when a diagnostic first quotes one (a file without any never is)."""
        # Lines end at "\n" only, as the parser counts them (str.splitlines also breaks at \f, \x85, ...).
        return [line.removesuffix("\r") for line in self.text.split("\n")]

    def line(self, number: int) -> str | None:
        """Return line `number` (1-based) without its newline, or None."""
        if 1 <= number <= len(self._lines):
            return self._lines[number - 1]
        return None

    def diagnostic(
        self,
        message: str,
        span: Span | None,
        hint: str | None = None,
        *,
        code: str | None = None,
        subject: str | None = None,
    ) -> Diagnostic:
        """Return a Diagnostic at `span` quoting this file's line, with `code` and `subject` (see Diagnostic)."""
        text = self.line(span.line) if span is not None else None
        return Diagnostic(message, span, text, hint, code=code, subject=subject)


# C0 and C1 controls and DEL, plus the bidirectional overrides that reorder how a line reads ("Trojan source")
_INVISIBLE = frozenset(
    [*range(0x20), 0x7F, *range(0x80, 0xA0), 0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
)


def visible(text: str, keep: str = "") -> str:
    """Return `text` with every control character (but those in `keep`) written as an escape such as \\x1b.

    Everything printed to a terminal that comes from a rule file or from input
    goes through this, so a title or label cannot move the cursor, recolour the
    screen, retitle the window or reorder what a line seems to say.
    """
    if not any(ord(ch) in _INVISIBLE for ch in text):  # the usual case, kept cheap
        return text
    return "".join(
        ch
        if ord(ch) not in _INVISIBLE or ch in keep
        else f"\\x{ord(ch):02x}"
        if ord(ch) < 0x100
        else f"\\u{ord(ch):04x}"
        for ch in text
    )
