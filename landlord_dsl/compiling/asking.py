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
was.

The first call of a block compiles the asking blocks of the function it is
in, each from its own lines of the full source (`Program.python_source`,
which the stepped pass, the native build and `show --python` read) into a
function of the caller's locals it reads (`_asking` followed by the line of
its call), at their lines under the program's file name, so tracebacks and
`Program.line_table` locate an error in it as in the full source. That call
runs the block's function with what it reads of `locals()`; and the calling
function's code is compiled again with each call replaced by a call of the
block's function given those locals by name, so that later asks cost a
call, not a copy of the caller's locals (about 3 µs in 1933's turn).
"""

from __future__ import annotations

import builtins
import symtable
from collections.abc import Callable
from typing import Any, NamedTuple

from .generated_names import ASKING


class Block(NamedTuple):
    """An asking block of the full source: its lines (0-based, `end` excluded), the choice's number, whether
    it is an offer (its `break` out of the rounds, when nothing is legal, becomes a return of None), and
    the name of the function it is in."""

    start: int
    end: int
    n: str
    offer: bool
    function: str


def driven_text(lines: list[str], blocks: list[Block], first: int) -> dict[int, Block]:
    """Replace, in `lines` (a function's, whose first line is line `first` + 1 of the source), each of
    `blocks` (indices into `lines`) by the call of `ASKING` on its last line, blank lines before it;
    return the blocks by the number of the line that calls them, with their lines in the whole source."""
    called = {}
    for start, end, n, offer, function in blocks:
        line = first + end  # the block's last line, counted from 1 in the whole source
        lines[start:end] = [""] * (end - start - 1) + [_call(lines[start], n, offer, f"{ASKING}({line}, locals())")]
        called[line] = Block(first + start, first + end, n, offer, function)
    return called


def _call(like: str, n: str, offer: bool, call: str) -> str:
    """Return the line, indented as `like`, that sets choice n's pick to what `call` returns (and, for an
    offer, ends the rounds when it returns None)."""
    indent = like[: len(like) - len(like.lstrip())]
    return f"{indent}if (_pick{n} := {call}) is None: break" if offer else f"{indent}_pick{n} = {call}"


class AskingBlocks:
    """The asking blocks of one program: called as `(line, the caller's locals)`, runs the block whose call
    is on that line and returns its pick (None for an offer with nothing legal: the rounds end).

    `callers` holds, by name, each function with asking blocks: where it starts (the lines before it) and
    its driven text. `compiled` counts the blocks compiled so far (each once a program)."""

    def __init__(
        self,
        source: str,
        filename: str,
        namespace: dict[str, Any],
        blocks: dict[int, Block],
        callers: dict[str, tuple[int, str]],
    ):
        self.source, self.filename, self.namespace = source, filename, namespace
        self.blocks, self.callers = blocks, callers
        self.made: dict[int, tuple[Callable[..., Any], tuple[str, ...]]] = {}
        self.functions: dict[str, Any] = {}  # the driven program's functions with asking blocks (`bind`)
        self.lines: list[str] | None = None
        self.compiled = 0

    def bind(self) -> None:
        """Note the driven program's functions that have asking blocks, once it is run into the namespace."""
        self.functions = {name: self.namespace[name] for name in self.callers}

    def __call__(self, line: int, local: dict[str, Any]) -> Any:
        made = self.made.get(line)
        if made is None:
            self._compile(self.blocks[line].function, local)
            made = self.made[line]
        function, names = made
        return function(*[local[name] for name in names])

    def _compile(self, caller: str, local: dict[str, Any]) -> None:
        """Compile the asking blocks of the function `caller` (whose locals are, at one call, `local`), and
        the function again with each block's call given the locals it reads."""
        if self.lines is None:
            self.lines = self.source.split("\n")
        first, text = self.callers[caller]
        lines = text.split("\n")
        for line, block in self.blocks.items():
            if block.function == caller:
                function, names = self.made[line] = self._block(line, block, local)
                self.namespace[function.__name__] = function
                lines[line - first - 1] = _call(
                    lines[line - first - 1], block.n, block.offer, f"{function.__name__}({', '.join(names)})"
                )
        made: dict[str, Any] = {}
        exec(compile("\n" * first + "\n".join(lines) + "\n", self.filename, "exec"), self.namespace, made)
        self.functions[caller].__code__ = made[caller].__code__  # (the function the Program holds)
        if len(self.made) == len(self.blocks):
            self.lines = None

    def _block(self, line: int, block: Block, local: dict[str, Any]) -> tuple[Callable[..., Any], tuple[str, ...]]:
        """Return the function running a block whose call is on `line`, and the caller's locals it reads."""
        assert self.lines is not None
        start, end, n, offer, _ = block
        body = self.lines[start:end]
        if offer:  # `if not _legalN:` then `break`: the rounds end
            test = next(k for k, text in enumerate(body) if text.strip() == f"if not _legal{n}:")
            body[test + 1] = body[test + 1].replace("break", "return None")
        indent = body[-1][: len(body[-1]) - len(body[-1].lstrip())]
        body.append(f"{indent}return _pick{n}")
        name = f"{ASKING}{line}"

        def text(names: tuple[str, ...]) -> str:  # the def on the line before the block's first
            return "\n" * (start - 1) + f"def {name}({', '.join(names)}):\n" + "\n".join(body) + "\n"

        read = _read_not_set(symtable.symtable(text(()), self.filename, "exec").get_children()[0])
        names = tuple(
            name
            for name in sorted(read)
            if name in local or (name not in self.namespace and not hasattr(builtins, name))
        )
        made: dict[str, Any] = {}
        exec(compile(text(names), self.filename, "exec"), self.namespace, made)  # the generated source's lines
        self.compiled += 1
        return made[name], names


def _read_not_set(table: symtable.SymbolTable) -> set[str]:
    """Return the names a function (and the functions within it) reads without setting: those it is given."""
    names = {s.get_name() for s in table.get_symbols() if s.is_global() and not s.is_declared_global()}
    for child in table.get_children():
        names |= _read_not_set(child)
    return names
