"""Pass 1 (parsing): reading on after a syntax error.

`Recovery` is Lark's `on_error` handler: after each syntax error it skips to
the next top-level declaration, so one file reports all its syntax errors
(at most MAX_SYNTAX_ERRORS); `SyntaxErrors` carries them with what could be
read around them.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Iterable

from lark import Token
from lark.exceptions import UnexpectedEOF, UnexpectedInput
from lark.parsers.lalr_analysis import Shift
from lark.parsers.lalr_parser_state import ParserState

from ..core.errors import Diagnostic, RuleSyntaxError, SourceText
from . import ast
from .grammar import keyword_terminals, lark_parser
from .syntax_errors import code_of, syntax_error

MAX_SYNTAX_ERRORS = 20  # reported per file; past that, the rest of the file is not read
_WORD_AT_START = re.compile(r"[a-z_]+\b")


class SyntaxErrors(RuleSyntaxError):
    """The syntax errors of one file, with what could be read around them.

    `partial` is the module without the declarations the errors were in (None
    if the file could not be read past an error); `damaged` lists those
    declarations as (first line, last line, first word).
    """

    def __init__(
        self, diagnostics: Iterable[Diagnostic], partial: ast.Module | None, damaged: list[tuple[int, int, str]]
    ):
        super().__init__(diagnostics)
        self.partial = partial
        self.damaged = damaged


@functools.lru_cache(maxsize=1)
def _between_declarations() -> frozenset[str]:
    """Return what the parser accepts between two declarations: every declaration's keyword and the end.

    (A state inside an expression may accept the end too: a text's `{...}` hole is an expression.)
    """
    parser = lark_parser().parse_interactive('edition "x" { }', start="start")
    parser.exhaust_lexer()
    return frozenset(parser.accepts())


def _declaration_word(line: str, misspelt: bool = False) -> str | None:
    """Return the keyword a line starts with in its first column (or, with `misspelt`, a word close to one), or None."""
    match = _WORD_AT_START.match(code_of(line))
    if match is None:
        return None
    word = match.group(0)
    if word in keyword_terminals() or (misspelt and difflib.get_close_matches(word, keyword_terminals(), 1, 0.75)):
        return word
    return None


class Recovery:
    """Lark `on_error` handler: after each syntax error, skip to the next top-level declaration.

    The parser's stack is cut back to the state between two declarations
    (one that accepts both the next declaration's keyword and the end of the
    file), and reading goes on at the next line that starts, in its first
    column, with a keyword; the declaration the error is in is left out.
    """

    def __init__(self, source: SourceText):
        self.source = source
        self.diagnostics: list[Diagnostic] = []
        self.damaged: list[tuple[int, int, str]] = []
        self.last: UnexpectedInput | None = None
        self.again: set[int] = set()  # where lines were read again, each at most once

    # the lines and where each starts: made at the first error only (a file without one never reads them)
    @functools.cached_property
    def lines(self) -> list[str]:
        """Return the text's lines, without their newlines."""
        return self.source.text.split("\n")

    @functools.cached_property
    def offsets(self) -> list[int]:
        """Return where each line starts in the text (and, last, where a line after the last would)."""
        offsets = [0]
        for line in self.lines:
            offsets.append(offsets[-1] + len(line) + 1)
        return offsets

    def record(self, err: UnexpectedInput) -> None:
        if err is not self.last:  # the error recovery gave up on is raised again
            self.diagnostics.extend(syntax_error(err, self.source).diagnostics)
        self.last = err

    def __call__(self, err: UnexpectedInput) -> bool:
        self.record(err)
        errors = sum(d.severity != "note" for d in self.diagnostics)
        if errors >= MAX_SYNTAX_ERRORS or isinstance(err, UnexpectedEOF):
            return False
        token = getattr(err, "token", None)
        if token is not None and token.type == "$END":
            return False
        parser = err.interactive_parser
        counter = parser.lexer_thread.state.line_ctr  # type: ignore[union-attr]
        line = err.line if isinstance(getattr(err, "line", None), int) and err.line > 0 else 1
        # The declaration keyword that starts the error's line was read as part of the one before (a
        # '{' never closed, an expression cut short): the error is that one's, and this line is read again.
        word = _declaration_word(self.lines[line - 1])
        values = parser.parser_state.value_stack
        taken = (
            (
                isinstance(values[-1], Token)
                and values[-1].type == "NAME"
                and values[-1] == word
                and values[-1].line == line
            )
            if values
            else False
        )
        again = (
            word is not None
            and self.offsets[line - 1] not in self.again
            and (err.column == 1 or (taken and re.fullmatch(r"[a-z_]+\s*", self.lines[line - 1][: err.column - 1])))
        )
        start = next(
            (n for n in range(line - 1 if again else line, 0, -1) if _declaration_word(self.lines[n - 1])), line
        )
        for number in range(line if again else line + 1, len(self.lines) + 1):
            word = _declaration_word(self.lines[number - 1], misspelt=True)
            resume = self.offsets[number - 1]
            if word is None or (resume < counter.char_pos and number != line):
                continue
            terminal = keyword_terminals().get(word, "RULE")  # a misspelt one: read it where a declaration may start
            if not self._unwind(parser.parser_state, terminal):
                continue
            self.damaged.append((start, number - 1, _declaration_word(self.lines[start - 1]) or ""))
            if number == line:
                self.again.add(resume)
            counter.char_pos, counter.line, counter.column, counter.line_start_pos = resume, number, 1, resume
            return True
        return False

    @staticmethod
    def _unwind(state: ParserState, terminal: str) -> bool:
        """Cut the parser's stack back to a state between declarations that accepts `terminal`; return False if none."""
        states = state.parse_conf.parse_table.states
        between = _between_declarations()
        depth = len(state.state_stack)
        while depth > 1:
            actions = states[state.state_stack[depth - 1]]
            # there every declaration's keyword is shifted; inside an expression it is only a lookahead
            if terminal in actions and all(k in actions and (k == "$END" or actions[k][0] is Shift) for k in between):
                del state.state_stack[depth:]
                del state.value_stack[depth - 1 :]
                return True
            depth -= 1
        return False
