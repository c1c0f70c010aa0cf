"""The limits a rule file runs within (documented in docs/language/types-and-errors.md, "Limits").

They make checking and running an untrusted .lg file finish, in bounded
memory, with a located error when a file asks for more.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

from ..core.errors import Diagnostic, RuleSourceError, SourceText
from .ast import Span

MAX_INT = 2**63 - 1  # every number a rule keeps lies in -MAX_INT .. MAX_INT
MAX_TEXT = 100_000  # characters of a text a rule builds
MAX_WORK = 2_000_000  # items gone through by loops and aggregates in one turn (or the setup, or folding constants)
# A loop over at most this many items whose body runs no other loop (nor anything that could) is not
# counted: it costs at most SMALL_LOOP per item of a counted loop, so the budget still bounds a turn.
SMALL_LOOP = 64
# characters of .lg source read for one file (the shipped editions have under 60,000); a file on disk or
# standard input is also read as at most this many bytes (sourcefile), so the one limit holds everywhere
MAX_INPUT = 1 << 20
# bytes of a game log (`play --log`) read back by `replay`: logs are not rule files, and a game that plays
# out the longest turn limit (MAX_TURN_LIMIT) logs some tens of MiB
MAX_LOG_INPUT = 256 << 20
# turns a game may last (a rule file's `turn limit`, --turn-limit, a log's, the API's): with MAX_WORK per
# turn this bounds a game's time and its event log's memory (the shipped editions stop at 3,000 at most)
MAX_TURN_LIMIT = 100_000


def describe_int_limit() -> str:
    """Return the integer range as people read it."""
    return f"-{MAX_INT:,} to {MAX_INT:,}"


def shown(value: object) -> str:
    """Return a value as an error message quotes it: a number too long to print whole by its size."""
    if value.__class__ is int and value.bit_length() > 200:
        return f"{'-' if value < 0 else ''}<a number of about {int(value.bit_length() * 0.30103)} digits>"
    return repr(value)


TOO_DEEP = (
    "the file nests too deeply for landlord-dsl (an expression or block hundreds of levels deep)",
    "split long expressions with `let` or functions",
)


# how many times the usual recursion limit the formatter's printer may use: it recurses more deeply per level
# of nesting than the parser and checker (up to 1.5 times as many frames), so with this headroom `fmt` formats
# every file `check` accepts (issue 35, item 14)
PRINTER_RECURSION_FACTOR = 2


@contextlib.contextmanager
def recursion_headroom(factor: int) -> Iterator[None]:
    """Run the body with Python's recursion limit raised `factor` times (never lowered), then restore it."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(max(before, before * factor))
    try:
        yield
    finally:
        sys.setrecursionlimit(before)


def too_deep(where: SourceText | str) -> RuleSourceError:
    """Return the error for rules nested deeper than Python can parse, check, print or compile them.

    Given the source, it points at the file's longest line (where such nesting
    is); given a rule set's name (once the text is no longer at hand), it
    starts with that name.
    """
    if isinstance(where, str):
        return RuleSourceError([Diagnostic(f"{where}: {TOO_DEEP[0]}", hint=TOO_DEEP[1])])
    lines = where.text.split("\n")
    number = max(range(len(lines)), key=lambda i: len(lines[i])) + 1 if lines else 1
    span = Span(where.name, number, 1, number, len(lines[number - 1]) + 1 if lines else 2)
    return RuleSourceError([where.diagnostic(TOO_DEEP[0], span, TOO_DEEP[1])])
