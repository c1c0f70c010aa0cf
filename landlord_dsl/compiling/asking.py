"""The asking blocks of a driven program, compiled on first use (issue 31).

Each `choose` the generator folds for the bots (codegen_stmt's `_s_Choose`)
has two branches: the folded bot's pick, and, for any other agent, the block
that gathers the legal entries and asks through `Game.choose`. In a game
whose seats are all folded bots the second never runs, yet it is about a
quarter of the generated source, and its `_describe` closures make the
chooser's locals cell variables of the whole function. So the source the
driven program compiles (`driven_text`) has, in place of each asking block,
one line that calls `AskingBlocks` with the block's line number and the
caller's `locals()`, after blank lines that keep every later line where it
was. The first call of a block compiles the block's own lines of the full
source (`Program.python_source`, which the stepped pass, the native build and
`show --python` read) into a function of the names it reads, at their lines
under the program's file name, so tracebacks and `Program.line_table` locate
an error in it as in the full source; later calls reuse that function.
"""

from __future__ import annotations

import builtins
import symtable
from collections.abc import Callable
from typing import Any, NamedTuple

from .generated_names import ASKING


class Block(NamedTuple):
    """An asking block of the full source: its lines (0-based, `end` excluded), the choice's number, and
    whether it is an offer (its `break` out of the rounds, when nothing is legal, becomes a return of None)."""

    start: int
    end: int
    n: str
    offer: bool


def driven_text(lines: list[str], blocks: list[Block], first: int) -> dict[int, Block]:
    """Replace, in `lines` (a function's, whose first line is line `first` + 1 of the source), each of
    `blocks` (indices into `lines`) by the call of `ASKING` on its last line, blank lines before it;
    return the blocks by the number of the line that calls them, with their lines in the whole source."""
    called = {}
    for start, end, n, offer in blocks:
        indent = lines[start][: len(lines[start]) - len(lines[start].lstrip())]
        line = first + end  # the block's last line, counted from 1 in the whole source
        call = f"{ASKING}({line}, locals())"
        lines[start:end] = [""] * (end - start - 1) + [
            f"{indent}if (_pick{n} := {call}) is None: break" if offer else f"{indent}_pick{n} = {call}"
        ]
        called[line] = Block(first + start, first + end, n, offer)
    return called


class AskingBlocks:
    """The asking blocks of one program: called as `(line, the caller's locals)`, runs the block whose call
    is on that line and returns its pick (None for an offer with nothing legal: the rounds end).

    `compiled` counts the blocks compiled so far (each once)."""

    def __init__(self, source: str, filename: str, namespace: dict[str, Any], blocks: dict[int, Block]):
        self.source, self.filename, self.namespace, self.blocks = source, filename, namespace, blocks
        self.made: dict[int, tuple[Callable[..., Any], tuple[str, ...]]] = {}
        self.lines: list[str] | None = None
        self.compiled = 0

    def __call__(self, line: int, local: dict[str, Any]) -> Any:
        made = self.made.get(line)
        if made is None:
            made = self.made[line] = self._compile(line, local)
        function, names = made
        return function(*[local[name] for name in names])

    def _compile(self, line: int, local: dict[str, Any]) -> tuple[Callable[..., Any], tuple[str, ...]]:
        """Return the function running the block called on `line`, and the caller's locals it takes."""
        if self.lines is None:
            self.lines = self.source.split("\n")
        start, end, n, offer = self.blocks[line]
        body = self.lines[start:end]
        if offer:  # `if not _legalN:` then `break`: the rounds end
            test = next(k for k, text in enumerate(body) if text.strip() == f"if not _legal{n}:")
            body[test + 1] = body[test + 1].replace("break", "return None")
        indent = body[-1][: len(body[-1]) - len(body[-1].lstrip())]
        body.append(f"{indent}return _pick{n}")

        def text(names: tuple[str, ...]) -> str:  # the def on the line before the block's first
            return "\n" * (start - 1) + f"def _ask{line}({', '.join(names)}):\n" + "\n".join(body) + "\n"

        names = tuple(
            name
            for name in sorted(_read_not_set(symtable.symtable(text(()), self.filename, "exec").get_children()[0]))
            if name in local or (name not in self.namespace and not hasattr(builtins, name))
        )
        made: dict[str, Any] = {}
        exec(compile(text(names), self.filename, "exec"), self.namespace, made)  # the generated source's lines
        self.compiled += 1
        return made[f"_ask{line}"], names


def _read_not_set(table: symtable.SymbolTable) -> set[str]:
    """Return the names a function (and the functions within it) reads without setting: those it is given."""
    names = {s.get_name() for s in table.get_symbols() if s.is_global() and not s.is_declared_global()}
    for child in table.get_children():
        names |= _read_not_set(child)
    return names
