"""CLI stage: colour and progress on a terminal, drawn by rich when it is installed (the `terminal` extra).

Escape codes are written only to a terminal, and never while NO_COLOR is set
(https://no-color.org) unless a command is told `--color always`. Without
rich there is no colour, and progress is a plain bar of characters redrawn
with a carriage return. Output that is not a terminal (a file, a pipe, the
tests' captured streams) is the same with or without rich.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TextIO

Progress = Callable[[int, int], None]  # called with (done, total)


def rich_installed() -> bool:
    """Return True if rich can be imported."""
    try:
        import rich  # noqa: F401
    except ImportError:
        return False
    return True


def is_terminal(stream: TextIO) -> bool:
    """Return True if `stream` is a terminal."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def colour_wanted(stream: TextIO, choice: str = "auto") -> bool:
    """Return True when colour goes to `stream`: `choice` "always", or "auto" on a terminal without NO_COLOR.

    "always" without rich installed says on standard error that there will be no colour (and returns True:
    painter() then paints nothing)."""
    if choice == "always" and not rich_installed():
        sys.stderr.write(
            "warning: --color always needs rich, which is not installed: pip install 'landlord-dsl[terminal]'\n"
        )
    if choice != "auto":
        return choice == "always"
    return not os.environ.get("NO_COLOR") and is_terminal(stream)


def painter(colour: bool) -> Callable[[str, str], str]:
    """Return paint(text, style): `text` in a rich style ("red", "bold", ...) as escape codes when `colour`
    and rich is installed, else `text` unchanged."""
    if not colour or not rich_installed():
        return lambda text, style: text
    from rich.console import Console
    from rich.text import Text

    # the 8 standard colours: what every terminal shows, and what the docs' `lg-diff` lexer reads
    console = Console(file=io.StringIO(), force_terminal=True, no_color=False, color_system="standard", width=1 << 20)

    def paint(text: str, style: str) -> str:
        with console.capture() as captured:
            console.print(Text(text, style=style), end="", soft_wrap=True)
        return captured.get()

    return paint


def table_text(header: Sequence[str], rows: Sequence[Sequence[str]], colour: bool) -> str:
    """Return the rows under their header as a table: drawn by rich (ruled, header in bold) when `colour`
    and rich is installed, else plain columns two spaces apart under a rule of dashes; no line ends in
    spaces."""
    if colour and rich_installed():
        from rich.console import Console
        from rich.table import Table

        table = Table(*header, header_style="bold", show_edge=False)
        for row in rows:
            table.add_row(*row)
        console = Console(file=io.StringIO(), force_terminal=True, color_system="standard", width=1 << 12)
        with console.capture() as captured:
            console.print(table)
        return "\n".join(line.rstrip() for line in captured.get().splitlines()) + "\n"
    widths = [max([len(h), *(len(row[i]) for row in rows)]) for i, h in enumerate(header)]  # rows may be none
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths)), "  ".join("-" * w for w in widths)]
    lines += ["  ".join(v.ljust(w) for v, w in zip(row, widths)) for row in rows]
    return "\n".join(line.rstrip() for line in lines) + "\n"


@contextmanager
def progress(stream: TextIO, what: str, enabled: bool = True) -> Iterator[Progress | None]:
    """Yield a callback (done, total) that shows progress on `stream`, or None when there is nothing to draw on.

    On a terminal with colour allowed and rich installed it is rich's bar (with
    the rate and the time left); on other terminals, a plain bar; elsewhere, or
    when not `enabled`, None.
    """
    if not enabled or not is_terminal(stream):
        yield None
    elif colour_wanted(stream) and rich_installed():
        with _rich_progress(stream, what) as callback:
            yield callback
    else:
        yield _plain_progress(stream, what)


@contextmanager
def stages(stream: TextIO, what: str, enabled: bool = True) -> Iterator[Callable[[str], None] | None]:
    """Yield a callback (stage) that shows on one line of `stream` which stage of a long step is running,
    the line cleared at the end; or None when `stream` is no terminal or not `enabled`.

    For work whose total is not known in advance (the exact analysis), where a bar would have no end."""
    if not enabled or not is_terminal(stream):
        yield None
        return

    def show(stage: str) -> None:
        stream.write(f"\r\x1b[K  {what}: {stage}...")
        stream.flush()

    try:
        yield show
    finally:
        stream.write("\r\x1b[K")
        stream.flush()


@contextmanager
def _rich_progress(stream: TextIO, what: str) -> Iterator[Progress]:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    bar = Progress(
        TextColumn(f"  {what}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(file=stream),
        transient=False,
    )
    task = bar.add_task(what, total=None)
    with bar:
        yield lambda done, total: bar.update(task, completed=done, total=total)


def _plain_progress(stream: TextIO, what: str) -> Progress:
    def draw(done: int, total: int) -> None:
        width = 30
        filled = width * done // max(total, 1)
        stream.write(f"\r  [{'#' * filled}{'.' * (width - filled)}] {done}/{total} {what}")
        if done >= total:
            stream.write("\n")
        stream.flush()

    return draw
