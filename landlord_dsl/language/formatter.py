"""The canonical layout of .lg files (`landlord-dsl fmt`).

The formatter prints the AST back as text: four-space indentation, one
statement per line, braces at line ends, minimal parentheses (but an `and`
inside an `or` keeps its own), lines longer than the width (WIDTH unless
asked otherwise, as `fmt --width` does) broken at their
loosest places with continuations one level deeper (`fit`). Comments are
kept: each is emitted before the first declaration, space, card, handler,
option or statement that starts after it, or at the end of its block; a
comment on the last line of a statement, or of a header item, stays at the end of that line. One
blank line between items is kept where the source had one. Formatting is
idempotent and preserves meaning: parse(format(x)) == parse(x).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import attrs

from ..core.dispatch import covers, dispatch_table, handles
from ..core.errors import LandlordError, SourceText, UsageError
from . import ast
from .limits import PRINTER_RECURSION_FACTOR, recursion_headroom, too_deep
from .parser import parse
from .syntax_errors import blank_strings, code_of

WIDTH = 100
MIN_WIDTH = 20  # narrower, a line could not hold an indented head and its opening brace
INDENT = "    "

# Binding strength of each expression form, larger binding tighter: `if` 0, `or` 1, `and` 2, `not` 3,
# comparisons 4, `+ -` 5, `* / %` 6, unary minus 7, field, index and call 8, anything else 9.
_BINARY_LEVEL = {
    "or": 1,
    "and": 2,
    "==": 4,
    "!=": 4,
    "<": 4,
    "<=": 4,
    ">": 4,
    ">=": 4,
    "in": 4,
    "not in": 4,
    "has": 4,
    "+": 5,
    "-": 5,
    "*": 6,
    "/": 6,
    "%": 6,
}


def quote(text: str) -> str:
    """Return a .lg string literal for `text`."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{escaped}"'


def _level(e: ast.Expr) -> int:
    if isinstance(e, ast.Conditional):
        return 0
    if isinstance(e, ast.Binary):
        return _BINARY_LEVEL[e.op]
    if isinstance(e, ast.Unary):
        return 3 if e.op == "not" else 7
    if isinstance(e, ast.IntLit) and e.value < 0:
        return 7
    if isinstance(e, (ast.Field, ast.Index, ast.Call)):
        return 8
    return 9


def expr(e: ast.Expr, minimum: int = 0) -> str:
    """Return an expression as text, parenthesised if it binds looser than `minimum`."""
    text = _EXPRESSIONS[type(e)](e)
    return f"({text})" if _level(e) < minimum else text


def _unary(e: ast.Unary) -> str:
    return f"not {expr(e.operand, 3)}" if e.op == "not" else f"-{expr(e.operand, 7)}"


def _binary(e: ast.Binary) -> str:
    level = _BINARY_LEVEL[e.op]
    if level == 4:  # comparisons do not chain
        return f"{expr(e.left, 5)} {e.op} {expr(e.right, 5)}"
    return f"{_operand(e.left, e.op, level)} {e.op} {_operand(e.right, e.op, level + 1)}"


def _operand(e: ast.Expr, op: str, minimum: int) -> str:
    """Return an operand of `op` as text, parenthesised if it binds looser than `minimum`.

    An `and` directly under an `or` keeps its parentheses, `(a and b) or c`:
    they are not needed, but a reader need not remember which binds tighter.
    """
    if op == "or" and isinstance(e, ast.Binary) and e.op == "and":
        return f"({expr(e)})"
    return expr(e, minimum)


# The text of each expression form, its operands printed by `expr`.
_EXPRESSIONS: dict[type, Callable[[Any], str]] = {
    ast.IntLit: lambda e: str(e.value),
    ast.TextLit: lambda e: quote(e.value),
    ast.BoolLit: lambda e: "true" if e.value else "false",
    ast.NoneLit: lambda e: "none",
    ast.Name: lambda e: e.name,
    ast.ListLit: lambda e: "[" + ", ".join(expr(i) for i in e.items) + "]",
    ast.Field: lambda e: f"{expr(e.subject, 8)}.{e.name}",
    ast.Index: lambda e: f"{expr(e.subject, 8)}[{expr(e.key)}]",
    ast.Call: lambda e: f"{e.function}(" + ", ".join(expr(a) for a in e.args) + ")",
    ast.Unary: _unary,
    ast.Binary: _binary,
    ast.Conditional: lambda e: f"if {expr(e.condition, 1)} then {expr(e.then)} else {expr(e.otherwise)}",
    ast.Aggregate: lambda e: f"{e.op}({e.var} in {expr(e.collection)}: {expr(e.body)})",
}
covers(ast.Expr, _EXPRESSIONS, "the formatter's expressions")


# Where `fit` may break a line, the loosest first at one bracket depth: before a clause keyword of a
# statement or declaration (not the one right after its first word); before `else`, `then`, `or`, `and`,
# a comparison, a binary `+` or `-`, and `*`, `/` or `%` (an `if` expression binds loosest: one inside an
# operand has parentheses); after the `=` of a `let`, `set`, `const` or `var`; after an opening bracket,
# or after a `,` inside brackets or the `:` of an aggregate.
_CLAUSE, _ELSE, _THEN, _OR, _AND, _COMPARE, _ADD, _MULTIPLY, _ASSIGN, _ITEM = range(10)
_COMPARISONS = frozenset(("==", "!=", "<", ">", "<=", ">=", "in", "has"))
_CLAUSES = frozenset(
    (
        "from", "to", "by", "via", "stopping", "start", "step", "first", "value", "interest", "cost", "when",
        "for", "done", "choices", "replaces", "tagged", "share", "size", "as",
    )
)  # fmt: skip
_ASSIGNING = frozenset(("let", "set", "const", "var", "player", "space"))
_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|[a-z_][a-z0-9_]*|[0-9]+|==|!=|<=|>=|\+=|-=|\S')


_OPERATOR_WORDS = frozenset(("and", "or", "not", "in", "has", "if", "then", "else"))


def _ends_value(token: str) -> bool:
    """Return True if `token` can end an operand (a name, number, string or closing bracket, not `and`...)."""
    return (token[0].isalnum() or token[0] in '_")]}"') and token not in _OPERATOR_WORDS


def _break_kind(tokens: list[str], i: int, gap: str, brackets: list[str]) -> int | None:
    """Return the kind of break point before token i (None if none), `brackets` the ones open before it."""
    token, previous = tokens[i], tokens[i - 1]
    if (token in _CLAUSES and i >= 2 and _ends_value(previous)) or (token == "in" and previous == "}"):
        return _CLAUSE
    if token in ("or", "and"):
        return _OR if token == "or" else _AND
    if token == "else" and previous != "}":
        return _ELSE
    if token == "then":
        return _THEN
    binding = token == "in" and (tokens[i - 2 : i - 1] in (["("], ["for"]))  # sum(x in ...), for x in ...
    if (token in _COMPARISONS or tokens[i : i + 2] == ["not", "in"]) and _ends_value(previous) and not binding:
        return _COMPARE
    if token in ("+", "-") and _ends_value(previous) and gap:
        return _ADD
    if token in ("*", "/", "%"):
        return _MULTIPLY
    if previous in ("=", "+=", "-=") and not brackets and tokens[0] in _ASSIGNING:
        return _ASSIGN
    if previous in ("(", "[", "{") and token not in ")]}":
        return _ITEM
    if (previous == "," and brackets) or (previous == ":" and brackets[-1:] == ["("]):
        return _ITEM
    return None


def _break_points(code: str) -> list[tuple[tuple[int, int], int, str]]:
    """Return where a line of code (no comment, no indentation) may break: ((bracket depth, kind), column, gap).

    The break puts the text from `column` on a new line; `gap` is what stood
    before it on the line ("" after an opening bracket, else a space).
    """
    found = [(m.start(), m.group(0)) for m in _TOKEN.finditer(code)]
    tokens = [token for _, token in found]
    points = []
    brackets: list[str] = []
    for i, (column, token) in enumerate(found):
        if i > 0:
            gap = code[found[i - 1][0] + len(tokens[i - 1]) : column]
            kind = _break_kind(tokens, i, gap, brackets)
            if kind is not None:
                points.append(((len(brackets), kind), column, gap))
        if token in ("(", "[", "{"):
            brackets.append(token)
        elif token in (")", "]", "}") and brackets:
            brackets.pop()
    return points


def fit(line: str, width: int = WIDTH) -> list[str]:
    """Return a line as lines no wider than `width` where its code allows, each continuation one level deeper.

    The line breaks at its loosest break points (`_break_points`); the pieces
    are packed greedily (after a clause keyword or an `=` the first line keeps
    only what comes before the break); a line still too wide breaks again
    inside. A trailing comment stays at the end; a string or name longer than
    the width stays whole.
    """
    blanked = blank_strings(line)
    at = blanked.find("#")
    code, comment = (line, "") if at < 0 else (line[:at].rstrip(), "  " + line[at:].strip())
    if len(code) <= width or not code.strip():
        return [line]
    indent = code[: len(code) - len(code.lstrip())]
    code = code.strip()
    points = _break_points(code)
    if not points:
        return [line]
    loosest = min(key for key, _, _ in points)
    cuts = [(column, gap) for key, column, gap in points if key == loosest]
    ends = [column for column, _ in cuts[1:]] + [len(code)]
    # a lone token too long for a line of its own gains nothing from one: it stays where it is
    cuts = [
        cut
        for cut, end in zip(cuts, ends)
        if not (_TOKEN.fullmatch(code[cut[0] : end].rstrip()) and len(indent + INDENT) + end - cut[0] > width)
    ]
    if not cuts:
        return [line]
    head_alone = loosest[1] in (_CLAUSE, _ASSIGN)
    lines = [indent + code[: cuts[0][0]].rstrip()]
    for k, (column, gap) in enumerate(cuts):
        piece = code[column : cuts[k + 1][0] if k + 1 < len(cuts) else len(code)].rstrip()
        if len(lines[-1]) + len(gap) + len(piece) <= width and not (head_alone and k == 0):
            lines[-1] += gap + piece
        else:
            lines.append(indent + INDENT + piece)
    out = [part for text in lines for part in (fit(text, width) if text != indent + code else [text])]
    out[-1] += comment
    return out


def _fitted(lines: list[str], width: int = WIDTH) -> list[str]:
    """Return printed lines with every line wider than `width` broken (`fit`), trailing blanks dropped."""
    return [part for line in lines for part in fit(line.rstrip(), width)]


def _literal(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return quote(str(value))


def _auction(s: ast.Auction) -> str:
    text = f"auction {expr(s.space)} start {expr(s.start)}"
    if s.step is not None:
        text += f" step {expr(s.step)}"
    if s.first is not None:
        text += f" first {expr(s.first)}"
    if s.value is not None:
        text += f" value {expr(s.value)}"
    return text + f" to {expr(s.proceeds)}"


# The one line of each statement without a block.
_SIMPLE: dict[type, Callable[[Any], str]] = {
    ast.Pay: lambda s: (
        f"pay {expr(s.amount)} from {expr(s.payer)} to {expr(s.payee)}" + (f" as {s.purpose}" if s.purpose else "")
    ),
    ast.Set: lambda s: f"set {'.'.join(s.target)} {s.op} {expr(s.value)}",
    ast.Let: lambda s: f"let {s.name} = {expr(s.value)}",
    ast.Roll: lambda s: f"roll {s.dice}" + (f" by {expr(s.thrower)}" if s.thrower is not None else ""),
    ast.GiveTurn: lambda s: f"give turn to {expr(s.player)}",
    ast.MoveSteps: lambda s: (
        f"move {s.direction} {expr(s.steps)}"
        + (f" via {s.via}" if s.via else "")
        + (f" stopping at {s.stop_at}" if s.stop_at else "")
    ),
    ast.MoveTo: lambda s: f"move to {expr(s.destination)}",
    ast.Send: lambda s: f"send {expr(s.who)} to {expr(s.destination)}",
    ast.Draw: lambda s: f"draw {s.deck}",
    ast.Give: lambda s: f"give {expr(s.card)} to {expr(s.recipient)}",
    ast.Return: lambda s: f"return {expr(s.card)} to {s.deck}",
    ast.Shuffle: lambda s: f"shuffle {s.deck}",
    ast.Deal: lambda s: f"deal {expr(s.count)} from {s.deck}",
    ast.Auction: _auction,
    ast.Borrow: lambda s: f"borrow {expr(s.amount)} interest {expr(s.interest)}",
    ast.RepayLoans: lambda s: "repay loans" if s.interest else "repay loans without interest",
    ast.EndTurn: lambda s: "end turn",
    ast.EndGame: lambda s: "end game",
    ast.CheckEnd: lambda s: "check end",
    ast.Say: lambda s: f"say {quote(s.text)}",
    ast.Do: lambda s: f"do {s.action}(" + ", ".join(expr(a) for a in s.args) + ")",
    ast.Eliminate: lambda s: f"eliminate {expr(s.who)}",
    ast.Switch: lambda s: f"{'enable' if s.enable else 'disable'} {s.rule}",
}


class _Printer:
    def __init__(self, source: str, comments: list[_Comment], width: int = WIDTH):
        self.out: list[str] = []
        self.width = width
        self.lines = source.split("\n")  # lines as the parser counts them
        self.comments = sorted(comments, key=lambda c: c.line)
        self.last_line = 0  # last source line already accounted for

    # -- comments and blank lines
    def _blank_between(self, start: int, end: int) -> bool:
        return any(not self.lines[i - 1].strip() for i in range(start, end) if 0 < i <= len(self.lines))

    def lead(self, span: ast.Span, depth: int) -> None:
        """Emit comments and one blank line that come before a node starting at span.line."""
        previous = self.last_line
        while self.comments and self.comments[0].line < span.line:
            c = self.comments.pop(0)
            if previous and self._blank_between(previous + 1, c.line) and self.out and self.out[-1] != "":
                self.out.append("")
            self.out.append(INDENT * depth + str(c).rstrip())
            previous = c.line
        if (
            previous
            and self._blank_between(previous + 1, span.line)
            and self.out
            and self.out[-1] != ""
            and not self.out[-1].rstrip().endswith("{")
        ):
            self.out.append("")

    def trail(self, span: ast.Span) -> None:
        """Attach a comment on the node's last line to the last printed line."""
        if self.comments and self.comments[0].line == span.end_line:
            c = self.comments.pop(0)
            self.out[-1] += "  " + str(c).rstrip()
        self.last_line = max(self.last_line, span.end_line)

    def trail_at(self, line: int) -> None:
        """Attach the comment that ends source line `line`, if it has code before it, to the last printed line.

        A header's items are printed in a fixed order, not the source's, so
        each takes the comment of its own line, wherever that comment is in the queue.
        """
        if not 0 < line <= len(self.lines) or not code_of(self.lines[line - 1]).strip():
            return
        for index, c in enumerate(self.comments):
            if c.line == line:
                self.out[-1] += "  " + str(self.comments.pop(index)).rstrip()
                return

    def close(self, end_line: int, depth: int) -> None:
        """Emit comments left inside a block before its closing brace."""
        while self.comments and self.comments[0].line < end_line:
            self.out.append(INDENT * depth + str(self.comments.pop(0)).rstrip())

    def line(self, depth: int, text: str) -> None:
        self.out.append(INDENT * depth + text)

    # -- helpers
    def provenance_lines(self, depth: int, head: str, prov: ast.Provenance | None) -> list[str]:
        """Return `head` with its provenance: one line when it fits, else the citation indented below."""
        if prov is None:
            return [INDENT * depth + head]
        parts = [f"source {quote(prov.source)}" + (f" {prov.confidence}" if prov.confidence else "")]
        if prov.note is not None:
            parts.append(f"note {quote(prov.note)}")
        one = INDENT * depth + " ".join(([head] if head else []) + parts)
        if len(one) <= self.width:
            return [one]
        lines = [INDENT * depth + head] if head else []
        inner = depth + 1 if head else depth
        return lines + [INDENT * inner + part for part in parts]

    def with_provenance(self, depth: int, head: str, prov: ast.Provenance | None) -> None:
        self.out.extend(self.provenance_lines(depth, head, prov))

    def block(self, stmts: tuple[ast.Stmt, ...], depth: int, end_line: int) -> None:
        for s in stmts:
            self.stmt(s, depth)
        self.close(end_line, depth)

    def opened(
        self, depth: int, head: str, body: tuple[ast.Stmt, ...], span: ast.Span, prov: ast.Provenance | None = None
    ) -> None:
        """Print `head {`, a block of statements, and `}` (or `head { }` when empty), then the citation."""
        if not body and not any(span.line < c.line < span.end_line for c in self.comments):
            self.with_provenance(depth, head + " { }", prov)
            return
        self.line(depth, head + " {")
        self.last_line = span.line
        self.block(body, depth + 1, span.end_line)
        self.with_provenance(depth, "}", prov)

    # -- statements
    def stmt(self, s: ast.Stmt, depth: int) -> None:
        self.lead(s.span, depth)
        _STATEMENTS[type(s)](self, s, depth)
        self.trail(s.span)

    @handles(*_SIMPLE)
    def _simple(self, s: ast.Stmt, depth: int) -> None:
        self.line(depth, _SIMPLE[type(s)](s))

    @handles(ast.For)
    def _for(self, s: ast.For, depth: int) -> None:
        self.opened(depth, f"for {s.var} in {expr(s.collection)}", s.body, s.span)

    @handles(ast.Choose)
    def _choose(self, s: ast.Choose, depth: int) -> None:
        head = "offer" if s.repeat else "choose"
        if s.chooser is not None:
            head += f" by {expr(s.chooser)}"
        done = f" done when {expr(s.done_when)}" if s.done_when is not None else ""
        self.line(depth, f"{head} {quote(s.prompt)}{done} {{")
        self.last_line = s.span.line
        for o in s.options:
            self.option(o, depth + 1)
        self.close(s.span.end_line, depth + 1)
        self.line(depth, "}")

    @handles(ast.If)
    def _if_statement(self, s: ast.If, depth: int) -> None:
        self._if(s, depth, "if")

    def _if(self, s: ast.If, depth: int, opener: str) -> None:
        """Print an if statement; `else { if ... }` and `else if` are the same tree, printed as `else if`."""
        self.line(depth, f"{opener} {expr(s.condition)} {{")
        self.last_line = s.span.line
        if s.otherwise is None:
            self.block(s.then, depth + 1, s.span.end_line)
            self.line(depth, "}")
            return
        self.block(s.then, depth + 1, self._else_line(s))
        if len(s.otherwise) == 1 and isinstance(s.otherwise[0], ast.If):
            self._if(s.otherwise[0], depth, "} else if")
            return
        self.line(depth, "} else {")
        self.block(s.otherwise, depth + 1, s.span.end_line)
        self.line(depth, "}")

    def _else_line(self, s: ast.If) -> int:
        """Return the source line of the `else` that ends `s`'s then-block (comments before it stay inside)."""
        line = s.then[-1].span.end_line if s.then else s.span.line
        column = s.then[-1].span.end_column if s.then else s.span.column
        last = s.otherwise[0].span.line if s.otherwise else s.span.end_line
        for number in range(line, last + 1):
            if 0 < number <= len(self.lines):
                code = code_of(self.lines[number - 1])
                if number == line:
                    code = " " * (column - 1) + code[column - 1 :]
                if re.search(r"\belse\b", code):
                    return number
        return last

    def option(self, o: ast.ChoiceOption, depth: int) -> None:
        self.lead(o.span, depth)
        head = f"option {o.name}" + (f" {quote(o.label)}" if o.label is not None else "")
        clauses = []
        if o.binding is not None:
            clauses.append(f"for {o.binding[0]} in {expr(o.binding[1])}")
        if o.guard is not None:
            clauses.append(f"when {expr(o.guard)}")
        if o.cost is not None:
            clauses.append(f"cost {expr(o.cost)}")
        if o.value is not None:
            clauses.append(f"value {expr(o.value)}")
        empty = not o.body and not any(o.span.line < c.line < o.span.end_line for c in self.comments)
        opener = " { }" if empty else " {"
        one = " ".join([head] + clauses) + opener
        if len(INDENT * depth + one) <= self.width or not clauses:
            self.line(depth, one)
        else:
            self.line(depth, head)
            for i, clause in enumerate(clauses):
                tail = opener if i == len(clauses) - 1 else ""
                self.line(depth + 1, clause + tail)
        if not empty:
            self.last_line = o.span.line
            self.block(o.body, depth + 1, o.span.end_line)
            self.line(depth, "}")
        self.trail(o.span)

    # -- declarations
    def module(self, m: ast.Module) -> None:
        h = m.header
        self.lead(h.span, 0)
        self.line(0, f"edition {quote(h.name)} {{")
        self.trail_at(h.span.line)
        items = dict(h.item_spans)
        if h.title is not None:
            self.line(1, f"title {quote(h.title)}")
            self.trail_at(items["title"].end_line if "title" in items else 0)
        if h.extends is not None:
            self.line(1, f"extends {quote(h.extends)}")
            self.trail_at(items["extends"].end_line if "extends" in items else 0)
        if h.players is not None:
            self.line(1, f"players {h.players[0]} to {h.players[1]}")
            self.trail_at(items["players"].end_line if "players" in items else 0)
        if h.dice is not None:
            self.line(1, f"dice {h.dice}")
            self.trail_at(items["dice"].end_line if "dice" in items else 0)
        if h.turn_limit is not None:
            self.line(1, f"turn limit {h.turn_limit}")
            self.trail_at(items["turn_limit"].end_line if "turn_limit" in items else 0)
        if h.provenance is not None:
            self.with_provenance(1, "", h.provenance)
            self.trail_at(h.provenance.span.end_line)
        self.close(h.span.end_line, 1)
        self.line(0, "}")
        self.last_line = h.span.end_line
        for d in m.declarations:
            self.declaration(d)
        for c in self.comments:
            if self.out and self.out[-1] != "" and self._blank_between(self.last_line + 1, c.line):
                self.out.append("")
            self.out.append(str(c).rstrip())
            self.last_line = c.line
        self.comments = []

    def declaration(self, d: ast.Declaration) -> None:
        self.lead(d.span, 0)
        _DECLARATIONS[type(d)](self, d)
        self.trail(d.span)

    @handles(ast.OptionDecl)
    def _option_decl(self, d: ast.OptionDecl) -> None:
        head = f"option {d.name}" + (f": {d.choice}" if d.choice else "")
        head += (f" {quote(d.label)}" if d.label is not None else "") + f" = {_literal(d.default)}"
        if d.choices is not None:
            head += " choices " + " | ".join(quote(c) for c in d.choices)
        self.with_provenance(0, head, d.provenance)

    @handles(ast.ChoiceDecl)
    def _choice_decl(self, d: ast.ChoiceDecl) -> None:
        head = f"choice {d.name}" + (f" {quote(d.label)}" if d.label is not None else "")
        self._listed(head, [quote(v) for v in d.values], d.provenance)

    def _listed(self, head: str, items: list[str], prov: ast.Provenance | None) -> None:
        """Print `head { a, b }` on one line if it fits, else one item a line; then the citation."""
        one = f"{head} {{ {', '.join(items)} }}" if items else f"{head} {{ }}"
        if len(one) <= self.width:
            self.with_provenance(0, one, prov)
            return
        self.line(0, head + " {")
        for item in items:
            self.line(1, item + ",")
        self.with_provenance(0, "}", prov)

    @handles(ast.AccountDecl)
    def _account_decl(self, d: ast.AccountDecl) -> None:
        head = f"account {d.name}" + (f" {quote(d.label)}" if d.label is not None else "")
        self.with_provenance(0, head + (" unlimited" if d.unlimited else ""), d.provenance)

    @handles(ast.PurposeDecl)
    def _purpose_decl(self, d: ast.PurposeDecl) -> None:
        head = f"purpose {d.name}" + (f" {quote(d.label)}" if d.label is not None else "")
        self.with_provenance(0, head, d.provenance)

    @handles(ast.RerouteDecl)
    def _reroute_decl(self, d: ast.RerouteDecl) -> None:
        self.with_provenance(0, f"reroute {', '.join(d.purposes)} to {d.account}", d.provenance)

    @handles(ast.ConstDecl)
    def _const_decl(self, d: ast.ConstDecl) -> None:
        self.with_provenance(0, f"const {d.name} = {expr(d.value)}", d.provenance)

    @handles(ast.GroupDecl)
    def _group_decl(self, d: ast.GroupDecl) -> None:
        head = f"group {d.name}" + (f" {quote(d.label)}" if d.label is not None else "")
        self.with_provenance(0, head, d.provenance)

    @handles(ast.DiceDecl)
    def _dice_decl(self, d: ast.DiceDecl) -> None:
        head = f"dice {d.name}" + (f" {quote(d.label)}" if d.label is not None else "") + f" {d.count}"
        if d.faces == tuple(range(1, len(d.faces) + 1)):
            head += f" sides {len(d.faces)}" if len(d.faces) != 6 else ""
        else:
            head += " faces [" + ", ".join(quote(f) if isinstance(f, str) else str(f) for f in d.faces) + "]"
        self.with_provenance(0, head, d.provenance)

    @handles(ast.KindDecl)
    def _kind_decl(self, d: ast.KindDecl) -> None:
        head = f"kind {d.name}" + (f" {quote(d.label)}" if d.label is not None else "")
        head += (" titled" if d.titled else "") + (" improvable" if d.improvable else "")
        self._listed(head, [f"{f.name}: {f.type}" for f in d.fields], d.provenance)

    @handles(ast.VarDecl)
    def _var_decl(self, d: ast.VarDecl) -> None:
        scope = "" if d.scope == "game" else d.scope + " "
        annotation = f": {d.type}" if d.type else ""
        self.with_provenance(0, f"{scope}var {d.name}{annotation} = {expr(d.initial)}", d.provenance)

    @handles(ast.BoardDecl)
    def _board_decl(self, d: ast.BoardDecl) -> None:
        self.line(0, "board {")
        self.last_line = d.span.line
        for s in d.spaces:
            self.lead(s.span, 1)
            head = f"space {s.name} {quote(s.label)} : {s.kind}"
            if s.fields:
                head += " { " + ", ".join(f"{n} = {expr(v)}" for n, v in s.fields) + " }"
            if s.groups:
                head += " in " + ", ".join(s.groups)
            self.with_provenance(1, head, s.provenance)
            self.trail(s.span)
        self.close(d.span.end_line, 1)
        self.line(0, "}")

    @handles(ast.DeckDecl)
    def _deck_decl(self, d: ast.DeckDecl) -> None:
        head = f"deck {d.name}" + (f" {quote(d.label)}" if d.label is not None else "")
        head += " kept" if d.kept else " returned"
        if d.of_titles:
            head += " of titles" + (f" in {d.titles_in}" if d.titles_in else "")
        if d.size is not None:
            head += f" size {d.size}"
        if d.enabled is not None:
            head += f" when {expr(d.enabled)}"
        has_inner_comments = any(
            d.span.line < c.line < d.span.end_line and (not d.cards or c.line > d.cards[0].span.line - 1)
            for c in self.comments
        )
        if not d.cards and not has_inner_comments:
            self.with_provenance(0, head + " { }", d.provenance)
        else:
            self.line(0, head + " {")
            self.last_line = d.span.line
            for c in d.cards:
                self.lead(c.span, 1)
                card_head = f"card {c.name} {quote(c.text)}" + (f" x {c.copies}" if c.copies != 1 else "")
                if c.share_of is not None:
                    card_head += f" share of {c.share_of}"
                if c.tags:
                    card_head += " tagged " + ", ".join(c.tags)
                self.opened(1, card_head, c.body, c.span, c.provenance)
                self.trail(c.span)
            self.close(d.span.end_line, 1)
            self.with_provenance(0, "}", d.provenance)

    @handles(ast.FunctionDecl)
    def _function_decl(self, d: ast.FunctionDecl) -> None:
        self._extension(d)
        params = ", ".join(f"{p.name}: {p.type}" for p in d.params)
        head = f"function {d.name}({params}) ="
        body = expr(d.body)
        if isinstance(d.body, ast.Conditional) and len(head) + 1 + len(body) > self.width:
            self.line(0, head)
            self._conditional_lines(d.body, 1)
            if d.provenance is not None:
                self.with_provenance(1, "", d.provenance)
        elif len(f"{head} {body}") > self.width:
            self.line(0, head)
            self.line(1, body)
            if d.provenance is not None:
                self.with_provenance(1, "", d.provenance)
        else:
            self.with_provenance(0, f"{head} {body}", d.provenance)

    @handles(ast.ActionDecl)
    def _action_decl(self, d: ast.ActionDecl) -> None:
        self._extension(d)
        params = ", ".join(f"{p.name}: {p.type}" for p in d.params)
        self.opened(0, f"action {d.name}({params})", d.body, d.span, d.provenance)

    @handles(ast.RuleDecl)
    def _rule_decl(self, d: ast.RuleDecl) -> None:
        self._extension(d)
        head = f"rule {d.name}" + (f" {quote(d.label)}" if d.label is not None else "") + (" off" if d.off else "")
        if d.replaces:
            head += " replaces " + ", ".join(d.replaces)
        if d.placement is not None:
            head += f" {d.placement} {d.anchor}"
        inner = any(d.span.line < c.line < d.span.end_line for c in self.comments)
        if not d.handlers and not d.triggers and not inner:
            self.with_provenance(0, head + " { }", d.provenance)
        else:
            self.line(0, head + " {")
            self.last_line = d.span.line
            parts = sorted(list(d.handlers) + list(d.triggers), key=lambda p: (p.span.line, p.span.column))
            if any(p.span.file == "<none>" for p in parts):
                parts = list(d.handlers) + list(d.triggers)
            for h in parts:
                self.lead(h.span, 1)
                if isinstance(h, ast.Trigger):
                    self.opened(1, f"when {expr(h.condition)}" + (" repeat" if h.repeat else ""), h.body, h.span)
                else:
                    on = f"on {h.event}" + (f" {h.selector}" if h.selector else "")
                    self.opened(1, on, h.body, h.span)
                self.trail(h.span)
            self.close(d.span.end_line, 1)
            self.with_provenance(0, "}", d.provenance)

    @handles(ast.EndDecl)
    def _end_decl(self, d: ast.EndDecl) -> None:
        named = f" {d.name}" if d.name else ""
        self.with_provenance(0, f"end{named} when {expr(d.condition)}", d.provenance)

    @handles(ast.ScoreDecl)
    def _score_decl(self, d: ast.ScoreDecl) -> None:
        self.with_provenance(0, f"score {expr(d.formula)}", d.provenance)

    @handles(ast.RemoveDecl)
    def _remove_decl(self, d: ast.RemoveDecl) -> None:
        self.line(0, f"remove {d.what} {d.name}")

    def _extension(self, d: ast.FunctionDecl | ast.ActionDecl | ast.RuleDecl) -> None:
        if d.extension is not None:
            self.line(0, f"extension {quote(d.extension)}")

    @handles(ast.ReplaceHandlerDecl)
    def _replace_handler_decl(self, d: ast.ReplaceHandlerDecl) -> None:
        h = d.handler
        on = f"on {h.event}" + (f" {h.selector}" if h.selector else "")
        self.opened(0, f"replace handler {on} in rule {d.rule}", h.body, d.span, h.provenance)

    @handles(ast.ReferenceDecl)
    def _reference_decl(self, d: ast.ReferenceDecl) -> None:
        head = f"reference {quote(d.key)} {quote(d.identity)}"
        at = f"at {quote(d.where)}" if d.where is not None else None
        if at is not None and len(head) + 1 + len(at) > self.width:
            self.line(0, head)
            self.line(1, at)
        else:
            self.line(0, head + (" " + at if at else ""))

    def _conditional_lines(self, e: ast.Conditional, depth: int) -> None:
        self.line(depth, f"if {expr(e.condition, 1)} then {expr(e.then)}")
        rest: ast.Expr = e.otherwise
        while isinstance(rest, ast.Conditional):
            self.line(depth, f"else if {expr(rest.condition, 1)} then {expr(rest.then)}")
            rest = rest.otherwise
        self.line(depth, f"else {expr(rest)}")

    @handles(ast.TableDecl)
    def _table(self, d: ast.TableDecl) -> None:
        head = f"table {d.name}" + (f" {quote(d.label)}" if d.label is not None else "")
        head += " rising" if d.rising else ""
        self._listed(head, [f"{expr(k)}: {expr(v)}" for k, v in d.entries], d.provenance)


_STATEMENTS = dispatch_table(_Printer, ast.Stmt)
_DECLARATIONS = dispatch_table(_Printer, ast.Declaration)


@attrs.frozen
class _Comment:
    line: int
    text: str

    def __str__(self) -> str:
        return self.text


def _comments(text: str) -> list[_Comment]:
    """Return every `# ...` comment outside string literals, with its line."""
    found = []
    for number, line in enumerate(text.split("\n"), 1):
        at = blank_strings(line).find("#")
        if at >= 0:
            found.append(_Comment(number, line[at:]))
    return found


def format_text(
    text: str,
    file: str = "<string>",
    migrate: Callable[[ast.Module], ast.Module] | None = None,
    width: int = WIDTH,
) -> str:
    """Return `text` in canonical layout, lines broken to fit `width` columns where the code allows (a long
    string or name stays whole); raise LandlordError if it does not parse.

    Besides the layout, the only change is what `migrate` makes of the parsed
    module (the loader's `format_with_base` writes, on a card a variant
    restates, the tags its base's card has): the formatter itself reads no
    other file.
    """
    module = parse(text, file)
    if migrate is not None:
        module = migrate(module)
    if width < MIN_WIDTH:
        raise UsageError(f"a width of {width} columns is too narrow for .lg code: {MIN_WIDTH} at least")
    printer = _Printer(text, _comments(text), width)
    try:
        with recursion_headroom(PRINTER_RECURSION_FACTOR):
            printer.module(module)
    except RecursionError:
        raise too_deep(SourceText(file, text)) from None
    out = "\n".join(_fitted(printer.out, width)).strip("\n") + "\n"
    if not _same_tree(parse(out, file), module):  # pragma: no cover - a formatter bug must never change meaning
        raise LandlordError(f"{file}: the formatter would change the meaning of this file; please report it")
    return out


def _same_tree(a: object, b: object) -> bool:
    """Return True if two syntax trees are equal as their `==` says (spans left out), compared without
    recursion: attrs' own `==` recurses once a level, and CPython 3.12 bounds that in C, below the depths
    the checker accepts, whatever the recursion limit."""
    pending: list[tuple[Any, Any]] = [(a, b)]
    while pending:
        x, y = pending.pop()
        if type(x) is not type(y):
            return False
        if attrs.has(type(x)):
            pending.extend((getattr(x, f.name), getattr(y, f.name)) for f in attrs.fields(type(x)) if f.eq)
        elif isinstance(x, (tuple, list)):
            if len(x) != len(y):
                return False
            pending.extend(zip(x, y))
        elif x != y:
            return False
    return True


def format_declaration(d: ast.Declaration) -> str:
    """Return one declaration in canonical layout, without comments or trailing blanks."""
    printer = _Printer("", [])
    printer.declaration(d)
    return "\n".join(_fitted(printer.out))


def format_module(module: ast.Module) -> str:
    """Return a parsed module in canonical layout (a tree keeps no comments, so the text has none)."""
    printer = _Printer("", [])
    printer.module(module)
    return "\n".join(_fitted(printer.out)).strip("\n") + "\n"
