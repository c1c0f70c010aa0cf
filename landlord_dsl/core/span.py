"""A region of a source file: where a diagnostic points and where each syntax-tree node was written."""

from __future__ import annotations

import attrs

from .frozen import quick_init


@quick_init  # (the parser makes thousands)
@attrs.frozen
class Span:
    """A region of a source file; lines and columns are 1-based."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int


NO_SPAN = Span("<none>", 1, 1, 1, 1)
