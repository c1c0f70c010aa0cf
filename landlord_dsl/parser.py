"""Pass 1: .lg text to a typed AST.

The grammar is loaded once per process (LALR, strict, with positions). Lark's
trees and exceptions stop here: the AstBuilder turns every tree into frozen
attrs nodes, and every syntax error becomes a Diagnostic with the line, a
caret and a hint (the keyword meant, the usual spelling, or the tokens that
would have been accepted). After an error, reading goes on at the next
declaration, so one file reports all its syntax errors.
"""

from __future__ import annotations

import difflib
import functools
import re
from typing import Any

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.parsers.lalr_analysis import Shift

from . import ast, parser_cache
from .errors import Diagnostic, LandlordError, SourceText, did_you_mean
from .resources import grammar_path


@functools.lru_cache(maxsize=1)
def _lark() -> Lark:
    # strict=True proves the grammar free of conflicts and terminal collisions,
    # an analysis that takes half a second; the built parser is kept in a cache
    # only this user can write (parser_cache), keyed by the grammar's hash.
    return parser_cache.build(
        grammar_path().read_text(encoding="utf-8"),
        parser="lalr",
        start=["start", "hole"],
        strict=True,
        propagate_positions=True,
        maybe_placeholders=True,
    )


def header_title(text: str) -> str | None:
    """Return the title a file's header gives, or None, reading only the header's tokens (nothing is checked).

    `landlord-dsl list` names many files this way without parsing and checking each.
    """
    previous = None
    try:
        for token in _lark().lex(text):
            if token.value == "}":
                return None
            if previous == "title" and token.type == "STRING":
                return _unquote(token.value)
            previous = token.value
    except UnexpectedInput:
        return None
    return None


def _unquote(token: str) -> str:
    body = token[1:-1]
    out, i = [], 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


class _Builder(Transformer):
    """Turns Lark trees into ast nodes. Raises nothing domain-specific."""

    def __init__(self, file: str, at: ast.Span | None = None):
        super().__init__()
        self.file = file
        self.at = at  # the one span every node gets (the text an expression hole sits in)

    def _span(self, meta: Any) -> ast.Span:
        if self.at is not None:
            return self.at
        if getattr(meta, "empty", True):
            return ast.Span(self.file, 1, 1, 1, 1)
        return ast.Span(self.file, meta.line, meta.column, meta.end_line, meta.end_column)

    def _tspan(self, tok: Token) -> ast.Span:
        if self.at is not None:
            return self.at
        return ast.Span(self.file, tok.line, tok.column, tok.end_line or tok.line, tok.end_column or tok.column + 1)

    # -- terminals
    def STRING(self, tok: Token) -> str:
        return _unquote(str(tok))

    def INT(self, tok: Token) -> int:
        # Python refuses to read integers of thousands of digits; any such number is far
        # beyond the checker's limit anyway, so it stands in as one that is too large.
        return int(tok) if len(tok) <= 100 else 10 ** 100

    def NAME(self, tok: Token) -> Token:
        return tok

    # keyword-keeping rules give back their keyword
    def _keyword(self, children: list) -> str:
        return str(children[0])

    confidence = unlimited = rising = repeat = kind_flag = type_name = var_scope = deck_policy = _keyword
    rule_state = event = removable = choose_mode = direction = switch = _keyword
    aggregate_op = assign_op = _keyword

    def bool(self, children: list) -> bool:
        return str(children[0]) == "true"

    # -- expressions
    @v_args(meta=True)
    def int_lit(self, meta, children):
        return ast.IntLit(children[0], span=self._span(meta))

    @v_args(meta=True)
    def neg_int_lit(self, meta, children):
        return ast.IntLit(-children[0], span=self._span(meta))

    @v_args(meta=True)
    def text_lit(self, meta, children):
        return ast.TextLit(children[0], span=self._span(meta))

    @v_args(meta=True)
    def bool_lit(self, meta, children):
        return ast.BoolLit(children[0], span=self._span(meta))

    @v_args(meta=True)
    def none_lit(self, meta, children):
        return ast.NoneLit(span=self._span(meta))

    @v_args(meta=True)
    def name(self, meta, children):
        return ast.Name(str(children[0]), span=self._span(meta))

    @v_args(meta=True)
    def list_lit(self, meta, children):
        return ast.ListLit(tuple(c for c in children if c is not None), span=self._span(meta))

    @v_args(meta=True)
    def field(self, meta, children):
        subject, name = children
        return ast.Field(subject, str(name), span=self._span(meta))

    @v_args(meta=True)
    def index(self, meta, children):
        return ast.Index(children[0], children[1], span=self._span(meta))

    @v_args(meta=True)
    def call(self, meta, children):
        name, *args = children
        return ast.Call(str(name), tuple(a for a in args if a is not None), span=self._span(meta))

    @v_args(meta=True)
    def negate(self, meta, children):
        return ast.Unary("-", children[0], span=self._span(meta))

    @v_args(meta=True)
    def not_op(self, meta, children):
        return ast.Unary("not", children[0], span=self._span(meta))

    @v_args(meta=True)
    def binary(self, meta, children):
        left, op, right = children
        return ast.Binary(str(op), left, right, span=self._span(meta))

    @v_args(meta=True)
    def compare(self, meta, children):
        return self.binary(meta, children)

    @v_args(meta=True)
    def or_op(self, meta, children):
        return ast.Binary("or", children[0], children[1], span=self._span(meta))

    @v_args(meta=True)
    def and_op(self, meta, children):
        return ast.Binary("and", children[0], children[1], span=self._span(meta))

    @v_args(meta=True)
    def member(self, meta, children):
        return ast.Binary("in", children[0], children[1], span=self._span(meta))

    @v_args(meta=True)
    def has_tag(self, meta, children):
        subject, tag = children
        name = ast.Name(str(tag), span=self.at or ast.Span(self.file, tag.line, tag.column, tag.end_line, tag.end_column))
        return ast.Binary("has", subject, name, span=self._span(meta))

    @v_args(meta=True)
    def not_member(self, meta, children):
        return ast.Binary("not in", children[0], children[1], span=self._span(meta))

    @v_args(meta=True)
    def if_expr(self, meta, children):
        return ast.Conditional(*children, span=self._span(meta))

    @v_args(meta=True)
    def aggregate(self, meta, children):
        op, var, collection, body = children
        return ast.Aggregate(op, str(var), collection, body, span=self._span(meta))

    # -- statements
    @v_args(meta=True)
    def block(self, meta, children):
        return tuple(children)

    @v_args(meta=True)
    def pay_stmt(self, meta, children):
        return ast.Pay(*children, span=self._span(meta))

    def target(self, children):
        return tuple(str(c) for c in children)

    @v_args(meta=True)
    def set_stmt(self, meta, children):
        target, op, value = children
        return ast.Set(target, op, value, span=self._span(meta))

    @v_args(meta=True)
    def let_stmt(self, meta, children):
        return ast.Let(str(children[0]), children[1], span=self._span(meta))

    @v_args(meta=True)
    def if_stmt(self, meta, children):
        condition, then, otherwise = children
        return ast.If(condition, then, otherwise, span=self._span(meta))

    def else_clause(self, children):
        (body,) = children
        return (body,) if isinstance(body, ast.If) else body

    @v_args(meta=True)
    def for_stmt(self, meta, children):
        var, collection, body = children
        return ast.For(str(var), collection, body, span=self._span(meta))

    @v_args(meta=True)
    def choose_stmt(self, meta, children):
        mode, chooser, prompt, done_when, *options = children
        return ast.Choose(mode == "offer", chooser, prompt, tuple(options), span=self._span(meta),
                          done_when=done_when)

    def done_guard(self, children):
        return children[0]

    def option_binding(self, children):
        return (str(children[0]), children[1])

    def option_guard(self, children):
        return children[0]

    option_cost = option_value = option_guard

    @v_args(meta=True)
    def choice_option(self, meta, children):
        name, label, binding, guard, cost, value, body = children
        return ast.ChoiceOption(str(name), label, binding, guard, cost, value, body, span=self._span(meta))

    @v_args(meta=True)
    def roll_stmt(self, meta, children):
        return ast.Roll(children[0], span=self._span(meta))

    @v_args(meta=True)
    def move_steps(self, meta, children):
        direction, steps, via, stop = children
        return ast.MoveSteps(direction, steps, str(via) if via is not None else None, span=self._span(meta),
                             name_span=self._tspan(via) if via is not None else self._span(meta),
                             stop_at=str(stop) if stop is not None else None,
                             stop_span=self._tspan(stop) if stop is not None else self._span(meta))

    def stopping(self, children):
        return children[0]

    @v_args(meta=True)
    def move_to(self, meta, children):
        return ast.MoveTo(children[0], span=self._span(meta))

    @v_args(meta=True)
    def send_stmt(self, meta, children):
        return ast.Send(*children, span=self._span(meta))

    @v_args(meta=True)
    def draw_stmt(self, meta, children):
        return ast.Draw(str(children[0]), span=self._span(meta), name_span=self._tspan(children[0]))

    @v_args(meta=True)
    def give_stmt(self, meta, children):
        return ast.Give(*children, span=self._span(meta))

    @v_args(meta=True)
    def give_turn_stmt(self, meta, children):
        return ast.GiveTurn(children[0], span=self._span(meta))

    @v_args(meta=True)
    def return_stmt(self, meta, children):
        return ast.Return(children[0], str(children[1]), span=self._span(meta), name_span=self._tspan(children[1]))

    @v_args(meta=True)
    def shuffle_stmt(self, meta, children):
        return ast.Shuffle(str(children[0]), span=self._span(meta), name_span=self._tspan(children[0]))

    @v_args(meta=True)
    def deal_stmt(self, meta, children):
        return ast.Deal(children[0], str(children[1]), span=self._span(meta), name_span=self._tspan(children[1]))

    @v_args(meta=True)
    def auction_stmt(self, meta, children):
        return ast.Auction(*children, span=self._span(meta))

    @v_args(meta=True)
    def borrow_stmt(self, meta, children):
        return ast.Borrow(*children, span=self._span(meta))

    @v_args(meta=True)
    def repay_stmt(self, meta, children):
        return ast.RepayLoans(span=self._span(meta), interest=children[0] is None)

    @v_args(meta=True)
    def end_turn_stmt(self, meta, children):
        return ast.EndTurn(span=self._span(meta))

    @v_args(meta=True)
    def end_game_stmt(self, meta, children):
        return ast.EndGame(span=self._span(meta))

    @v_args(meta=True)
    def eliminate_stmt(self, meta, children):
        return ast.Eliminate(children[0], span=self._span(meta))

    @v_args(meta=True)
    def switch_stmt(self, meta, children):
        return ast.Switch(children[0] == "enable", str(children[1]), span=self._span(meta),
                          name_span=self._tspan(children[1]))

    # -- header and declarations
    @v_args(meta=True)
    def provenance(self, meta, children):
        source, confidence, note = children
        return ast.Provenance(source, confidence, note, span=self._span(meta))

    def title(self, children):
        return ("title", children[0])

    def players(self, children):
        return ("players", (children[0], children[1]))

    def dice(self, children):
        return ("dice", children[0])

    def turn_limit(self, children):
        return ("turn_limit", children[0])

    def extends(self, children):
        return ("extends", children[0])

    @v_args(meta=True)
    def header(self, meta, children):
        name, *items = children
        fields: dict[str, Any] = {}
        for item in items:
            if isinstance(item, ast.Provenance):
                fields["provenance"] = item
            else:
                fields[item[0]] = item[1]
        return ast.Header(name, span=self._span(meta), **fields)

    def option_choices(self, children):
        return tuple(children)

    @v_args(meta=True)
    def option_decl(self, meta, children):
        name, label, default, choices, prov = children
        value = default.value
        return ast.OptionDecl(str(name), label, value, choices, prov, span=self._span(meta),
                              default_span=default.span)

    @v_args(meta=True)
    def account_decl(self, meta, children):
        name, label, unlimited, prov = children
        return ast.AccountDecl(str(name), label, unlimited is not None, prov, span=self._span(meta))

    @v_args(meta=True)
    def const_decl(self, meta, children):
        return ast.ConstDecl(str(children[0]), children[1], children[2], span=self._span(meta))

    def table_entry(self, children):
        return (children[0], children[1])

    @v_args(meta=True)
    def table_decl(self, meta, children):
        name, label, rising, *rest = children
        prov = rest.pop()
        entries = tuple(e for e in rest if e is not None)
        return ast.TableDecl(str(name), label, rising is not None, entries, prov, span=self._span(meta))

    @v_args(meta=True)
    def group_decl(self, meta, children):
        return ast.GroupDecl(str(children[0]), children[1], children[2], span=self._span(meta))

    @v_args(meta=True)
    def field_decl(self, meta, children):
        return ast.FieldDecl(str(children[0]), children[1], span=self._span(meta))

    @v_args(meta=True)
    def kind_decl(self, meta, children):
        name, label, *rest = children
        prov = rest.pop()
        flags = [r for r in rest if isinstance(r, str)]
        fields = tuple(r for r in rest if isinstance(r, ast.FieldDecl))
        return ast.KindDecl(
            str(name), label, "titled" in flags, "improvable" in flags, fields, prov, span=self._span(meta)
        )

    @v_args(meta=True)
    def var_decl(self, meta, children):
        scope, name, type_name, initial, prov = children
        return ast.VarDecl(scope or "game", str(name), type_name, initial, prov, span=self._span(meta))

    @v_args(meta=True)
    def field_value(self, meta, children):
        return (str(children[0]), children[1], self._span(meta))

    def field_values(self, children):
        return tuple(c for c in children if c is not None)

    @v_args(meta=True)
    def member_of(self, meta, children):
        return (tuple(str(c) for c in children), self._span(meta))

    @v_args(meta=True)
    def space_decl(self, meta, children):
        name, label, kind, fields, member_of, prov = children
        fields = fields or ()
        groups, group_span = member_of if member_of else ((), self._span(meta))
        return ast.SpaceDecl(
            str(name), label, str(kind),
            tuple((f[0], f[1]) for f in fields), groups, prov,
            span=self._span(meta),
            field_spans=tuple(f[2] for f in fields),
            group_span=group_span,
            kind_span=self._tspan(kind),
        )

    @v_args(meta=True)
    def board_decl(self, meta, children):
        return ast.BoardDecl(tuple(children), span=self._span(meta))

    def deck_source(self, children):
        return ("titles", str(children[0]) if children[0] is not None else None)

    def enabled_when(self, children):
        return children[0]

    def deck_size(self, children):
        return children[0]

    def card_copies(self, children):
        return children[0]

    @v_args(meta=True)
    def card_decl(self, meta, children):
        name, text, copies, share, tags, prov, body = children
        return ast.CardDecl(str(name), text, 1 if copies is None else copies, prov, body, span=self._span(meta),
                            tags=tags or (), share_of=str(share) if share is not None else None,
                            share_span=self._tspan(share) if share is not None else self._span(meta))

    def card_share(self, children):
        return children[0]

    def card_tags(self, children):
        return tuple(str(c) for c in children)

    @v_args(meta=True)
    def deck_decl(self, meta, children):
        name, label, policy, of_titles, size, enabled, prov, *cards = children
        return ast.DeckDecl(
            str(name), label, policy == "kept", of_titles is not None, of_titles[1] if of_titles else None,
            size, enabled, prov, tuple(cards), span=self._span(meta),
        )

    @v_args(meta=True)
    def param(self, meta, children):
        return ast.Param(str(children[0]), children[1], span=self._span(meta))

    @v_args(meta=True)
    def function_decl(self, meta, children):
        name, *rest = children
        body, prov = rest[-2], rest[-1]
        params = tuple(p for p in rest[:-2] if p is not None)
        return ast.FunctionDecl(str(name), params, body, prov, span=self._span(meta))

    @v_args(meta=True)
    def action_decl(self, meta, children):
        name, *rest = children
        body, prov = rest[-1], rest[-2]
        params = tuple(p for p in rest[:-2] if p is not None)
        return ast.ActionDecl(str(name), params, prov, body, span=self._span(meta))

    @v_args(meta=True)
    def do_stmt(self, meta, children):
        name, *args = children
        return ast.Do(str(name), tuple(a for a in args if a is not None), span=self._span(meta))

    @v_args(meta=True)
    def handler(self, meta, children):
        event, selector, body = children
        sel_span = self._tspan(selector) if selector is not None else self._span(meta)
        return ast.Handler(
            event, str(selector) if selector is not None else None, body,
            span=self._span(meta), selector_span=sel_span,
        )

    def replaces(self, children):
        return tuple(str(c) for c in children)

    @v_args(meta=True)
    def trigger(self, meta, children):
        condition, repeat, body = children
        return ast.Trigger(condition, repeat is not None, body, span=self._span(meta))

    @v_args(meta=True)
    def rule_decl(self, meta, children):
        name, label, state, replaces, prov, *parts = children
        return ast.RuleDecl(
            str(name), label, state == "off", replaces or (), prov,
            tuple(p for p in parts if isinstance(p, ast.Handler)),
            tuple(p for p in parts if isinstance(p, ast.Trigger)),
            span=self._span(meta),
        )

    @v_args(meta=True)
    def end_decl(self, meta, children):
        name, condition, prov = children
        return ast.EndDecl(str(name) if name is not None else None, condition, prov, span=self._span(meta))

    @v_args(meta=True)
    def score_decl(self, meta, children):
        return ast.ScoreDecl(children[0], children[1], span=self._span(meta))

    @v_args(meta=True)
    def remove_decl(self, meta, children):
        return ast.RemoveDecl(children[0], str(children[1]), span=self._span(meta))

    @v_args(meta=True)
    def reference_decl(self, meta, children):
        return ast.ReferenceDecl(children[0], children[1], children[2], span=self._span(meta))

    def start(self, children):
        header, *decls = children
        return header, tuple(decls)

    def hole(self, children):
        return children[0]


# Names for grammar terminals, as a person reading an error would say them.
_TOKEN_NAMES = {
    "NAME": "a name", "INT": "a number", "STRING": "a quoted string", "LBRACE": "'{'",
    "RBRACE": "'}'", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'",
    "COMMA": "','", "COLON": "':'", "EQUAL": "'='", "DOT": "'.'", "$END": "end of file",
    "VBAR": "'|'", "MINUS": "'-'", "PLUS": "'+'", "STAR": "'*'", "SLASH": "'/'",
    "PERCENT": "'%'", "COMPARE": "a comparison", "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '/' or '%'",
}


def _describe(terminal: str) -> str:
    if terminal in _TOKEN_NAMES:
        return _TOKEN_NAMES[terminal]
    pattern = _lark().get_terminal(terminal).pattern if terminal in {t.name for t in _lark().terminals} else None
    if pattern is not None and pattern.type == "str":
        return f"'{pattern.value}'"
    return terminal.lower()


def _expected_hint(expected: set[str]) -> str | None:
    names = sorted({_describe(t) for t in expected})
    if not names:
        return None
    if len(names) > 8:
        names = names[:8] + ["..."]
    return "expected " + ", ".join(names)


def _syntax_error(err: UnexpectedInput, source: SourceText) -> LandlordError:
    line = getattr(err, "line", None) or 1
    column = getattr(err, "column", None) or 1
    if isinstance(err, UnexpectedEOF) or (isinstance(err, UnexpectedToken) and err.token.type == "$END"):
        unclosed = _unclosed_brace(source.text, source.name)
        if unclosed is not None and "RBRACE" in set(err.expected):
            return LandlordError([source.diagnostic("this '{' is never closed", unclosed,
                                                    "the file ends before its '}'")])
        last = max(1, len(source.text.rstrip("\n").split("\n")))
        line_text = source.line(last) or ""
        span = ast.Span(source.name, last, len(line_text) + 1, last, len(line_text) + 2)
        hint = _expected_hint(set(err.expected)) or ""
        if "RBRACE" in set(err.expected):
            hint = "a '{' is never closed" + (f"; {hint}" if hint else "")
        return LandlordError([source.diagnostic("unexpected end of file", span, hint or None)])
    if isinstance(err, UnexpectedCharacters):
        char = source.text[err.pos_in_stream] if err.pos_in_stream < len(source.text) else "?"
        span = ast.Span(source.name, line, column, line, column + 1)
        if char == '"':
            return LandlordError([source.diagnostic("a string is never closed on this line", span,
                                                    'close it with " before the end of the line')])
        if char == "\ufeff" and err.pos_in_stream == 0:
            return LandlordError([source.diagnostic("the text starts with a byte-order mark (U+FEFF)", span,
                                                    "save the file as UTF-8 without a byte-order mark")])
        start = _word_start(source.text, err.pos_in_stream)
        column -= err.pos_in_stream - start
        rest = source.text[start:]
        word = re.match(r"[A-Za-z_][A-Za-z0-9_]*", rest)
        hint = _slip_hint(rest, set(err.allowed or ()), source.line(line) or "", column)
        if hint is None:
            hint = ("names are lower_case letters, digits and '_'" if char.isalpha()
                    else _expected_hint(set(err.allowed or ())))
        if word is not None:
            span = ast.Span(source.name, line, column, line, column + len(word.group(0)))
            return LandlordError([source.diagnostic(f"unexpected {word.group(0)!r}", span, hint)])
        return LandlordError([source.diagnostic(f"unexpected character {char!r}", span, hint)])
    assert isinstance(err, UnexpectedToken)
    tok = err.token
    if tok.start_pos is not None:
        start = _word_start(source.text, tok.start_pos)
        whole = re.match(r"[A-Za-z_][A-Za-z0-9_]*", source.text[start:])
        if whole is not None and len(whole.group(0)) > len(str(tok)):  # a keyword read off the front or back of a word
            tok = Token("NAME", whole.group(0), start, line, column - (tok.start_pos - start))
            column = tok.column
    width = max(1, len(str(tok)))
    span = ast.Span(source.name, line, column, line, column + width)
    expected = set(err.expected)
    hint = _slip_hint(source.text[tok.start_pos:] if tok.start_pos is not None else str(tok), expected,
                      source.line(line) or "", column) or _expected_hint(expected)
    if tok.type == "RBRACE":
        message = "unexpected '}'"
        if not _braces_balance(source.text):
            hint = (hint + "; " if hint else "") + "check that every '{' and '}' pair up"
    elif column == 1 and str(tok) in _keyword_terminals() and (unclosed := _unclosed_brace(
            source.text[:tok.start_pos], source.name)) is not None:
        return LandlordError([source.diagnostic("this '{' is never closed", unclosed,
                                                f"'{tok}' at line {line} starts a new declaration before its '}}'")])
    elif (cut := _cut_expression(source, line, column)) is not None:
        return LandlordError([cut])
    elif tok.type in ("NAME", "COMPARE", "ADD_OP", "MUL_OP", "INT", "STRING"):
        message = f"unexpected {str(tok)!r}"
    else:
        message = f"unexpected {_describe(tok.type)}"
    return LandlordError([source.diagnostic(message, span, hint)])


_OPEN_ENDED = re.compile(r"(?:[-+*/%=<>(\[,]|\b(?:and|or|not|in))\s*$")


def _cut_expression(source: SourceText, line: int, column: int) -> Diagnostic | None:
    """Return the error for a line that ends inside an expression, when that is why `line` fails, else None.

    Then the keyword that starts the next declaration was read as a name,
    and the parser fails just after it: the slip is on the line before.
    """
    text = source.line(line) or ""
    match = re.fullmatch(r"([a-z_]+)\s+", text[:column - 1])
    if match is None or match.group(1) not in _keyword_terminals():
        return None
    previous = next((n for n in range(line - 1, 0, -1) if code_of(source.line(n) or "").strip()), None)
    if previous is None:
        return None
    code = code_of(source.line(previous) or "").rstrip()
    if not _OPEN_ENDED.search(code):
        return None
    span = ast.Span(source.name, previous, len(code), previous, len(code) + 1)
    return source.diagnostic("this line ends in the middle of an expression", span,
                             f"'{match.group(1)}' on line {line} was read as part of it")


def _word_start(text: str, pos: int) -> int:
    """Return where the word through `pos` starts (the lexer may have read its front as a keyword)."""
    start = pos
    while start > 0 and pos < len(text) and (text[pos].isalnum() or text[pos] == "_") and (
            text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    return start


# Other languages' spellings, and what .lg says instead.
_SLIPS = {"elif": "else if", "elsif": "else if", "elseif": "else if", "True": "true", "False": "false",
          "None": "none", "null": "none", "&&": "and", "||": "or", "!": "not", "=": "=="}


def _slip_hint(rest: str, expected: set[str], line_text: str, column: int) -> str | None:
    """Return a hint for a common slip at the start of `rest` (the text from the error on), or None.

    Slips: another language's spelling (`elif`, `&&`, `True`, `=` to compare),
    a misspelt keyword (did you mean), or a label left unquoted.
    """
    word = re.match(r"[A-Za-z_][A-Za-z0-9_]*|&&|\|\||!(?!=)|=(?!=)", rest)
    if word is None:
        return None
    found = word.group(0)
    if found == "=":
        return "to compare, write '=='; a single '=' only gives a value" if "COMPARE" in expected else None
    if found in _SLIPS:
        return f"write '{_SLIPS[found]}' instead of '{found}'"
    keywords = [value for value, name in _keyword_terminals().items() if name in expected]
    close = did_you_mean(found, keywords) if keywords else None
    if close is not None:
        return close
    if "STRING" in expected and re.fullmatch(r"\s*[a-z_]+\s+[a-z_][a-z0-9_]*\s+", line_text[:column - 1]):
        label = code_of(line_text)[column - 1:].split("{")[0].strip()
        return f'a label is written in quotes: "{label or found}"'
    return None


def _unclosed_brace(text: str, file: str) -> ast.Span | None:
    """Return where the '{' that is never closed in `text` is, or None if every '{' is closed.

    A '}' that starts its line closes the open '{' of a line indented as
    much; the braces opened on lines indented more and still open are the
    ones never closed. Otherwise the outermost brace left open at the end.
    """
    stack: list[tuple[int, int, int]] = []  # (line, column, indentation of its line)
    never: list[tuple[int, int, int]] = []
    for number, line in enumerate(text.split("\n"), 1):
        code = code_of(line)
        indent = len(code) - len(code.lstrip())
        for index, ch in enumerate(code):
            if ch == "{":
                stack.append((number, index + 1, indent))
            elif ch == "}" and stack:
                if index == indent and any(entry[2] == indent for entry in stack):
                    while stack[-1][2] != indent:
                        never.append(stack.pop())
                stack.pop()
    found = never[0] if never else (stack[0] if stack else None)
    if found is None:
        return None
    return ast.Span(file, found[0], found[1], found[0], found[1] + 1)


_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def blank_strings(line: str) -> str:
    """Return a source line with its string literals replaced by spaces (columns unchanged).

    What is left of a '#' in the result is code; from it on, a comment.
    """
    return _STRING.sub(lambda m: " " * len(m.group(0)), line)


def code_of(line: str) -> str:
    """Return a source line with string literals and any comment blanked out (columns unchanged)."""
    blanked = blank_strings(line)
    at = blanked.find("#")
    return blanked if at < 0 else blanked[:at] + " " * (len(blanked) - at)


def _braces_balance(text: str) -> bool:
    """Return True if the braces outside strings and comments pair up."""
    depth = 0
    for line in text.split("\n"):
        for ch in code_of(line):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth < 0:
                    return False
    return depth == 0


TOO_DEEP = ("the file nests too deeply for landlord-dsl (an expression or block hundreds of levels deep)",
            "split long expressions with `let` or functions")


def too_deep(source: SourceText) -> LandlordError:
    """Return the error for a file nested beyond Python's recursion, at its longest line."""
    lines = source.text.split("\n")
    number = max(range(len(lines)), key=lambda i: len(lines[i])) + 1 if lines else 1
    span = ast.Span(source.name, number, 1, number, len(lines[number - 1]) + 1 if lines else 2)
    return LandlordError([source.diagnostic(TOO_DEEP[0], span, TOO_DEEP[1])])


MAX_SYNTAX_ERRORS = 20  # reported per file; past that, the rest of the file is not read
_WORD_AT_START = re.compile(r"[a-z_]+\b")


class SyntaxErrors(LandlordError):
    """The syntax errors of one file, with what could be read around them.

    `partial` is the module without the declarations the errors were in (None
    if the file could not be read past an error); `damaged` lists those
    declarations as (first line, last line, first word).
    """

    def __init__(self, diagnostics, partial: "ast.Module | None", damaged: list[tuple[int, int, str]]):
        super().__init__(diagnostics)
        self.partial = partial
        self.damaged = damaged


@functools.lru_cache(maxsize=1)
def _keyword_terminals() -> dict[str, str]:
    """Return the grammar's word keywords, each with its terminal's name."""
    return {t.pattern.value: t.name for t in _lark().terminals
            if t.pattern.type == "str" and t.pattern.value.isalpha()}


@functools.lru_cache(maxsize=1)
def _between_declarations() -> frozenset[str]:
    """Return what the parser accepts between two declarations: every declaration's keyword and the end.

    (A state inside an expression may accept the end too: a text's `{...}` hole is an expression.)
    """
    parser = _lark().parse_interactive('edition "x" { }', start="start")
    parser.exhaust_lexer()
    return frozenset(parser.accepts())


def _declaration_word(line: str, misspelt: bool = False) -> str | None:
    """Return the keyword a line starts with in its first column (or, with `misspelt`, a word close to one), or None."""
    match = _WORD_AT_START.match(code_of(line))
    if match is None:
        return None
    word = match.group(0)
    if word in _keyword_terminals() or (misspelt and difflib.get_close_matches(word, _keyword_terminals(), 1, 0.75)):
        return word
    return None


class _Recovery:
    """Lark `on_error` handler: after each syntax error, skip to the next top-level declaration.

    The parser's stack is cut back to the state between two declarations
    (one that accepts both the next declaration's keyword and the end of the
    file), and reading goes on at the next line that starts, in its first
    column, with a keyword; the declaration the error is in is left out.
    """

    def __init__(self, source: SourceText):
        self.source = source
        self.lines = source.text.split("\n")
        self.offsets = [0]
        for line in self.lines:
            self.offsets.append(self.offsets[-1] + len(line) + 1)
        self.diagnostics: list[Diagnostic] = []
        self.damaged: list[tuple[int, int, str]] = []
        self.last: UnexpectedInput | None = None
        self.again: set[int] = set()  # where lines were read again, each at most once

    def record(self, err: UnexpectedInput) -> None:
        if err is not self.last:  # the error recovery gave up on is raised again
            self.diagnostics.extend(_syntax_error(err, self.source).diagnostics)
        self.last = err

    def __call__(self, err: UnexpectedInput) -> bool:
        self.record(err)
        if len(self.diagnostics) >= MAX_SYNTAX_ERRORS or isinstance(err, UnexpectedEOF):
            return False
        token = getattr(err, "token", None)
        if token is not None and token.type == "$END":
            return False
        parser = err.interactive_parser
        counter = parser.lexer_thread.state.line_ctr
        line = err.line if isinstance(getattr(err, "line", None), int) and err.line > 0 else 1
        # The declaration keyword that starts the error's line was read as part of the one before (a
        # '{' never closed, an expression cut short): the error is that one's, and this line is read again.
        word = _declaration_word(self.lines[line - 1])
        values = parser.parser_state.value_stack
        taken = (isinstance(values[-1], Token) and values[-1].type == "NAME" and values[-1] == word
                 and values[-1].line == line) if values else False
        again = (word is not None and self.offsets[line - 1] not in self.again
                 and (err.column == 1 or (taken and re.fullmatch(r"[a-z_]+\s*", self.lines[line - 1][:err.column - 1]))))
        start = next((n for n in range(line - 1 if again else line, 0, -1) if _declaration_word(self.lines[n - 1])),
                     line)
        for number in range(line if again else line + 1, len(self.lines) + 1):
            word = _declaration_word(self.lines[number - 1], misspelt=True)
            resume = self.offsets[number - 1]
            if word is None or (resume < counter.char_pos and number != line):
                continue
            terminal = _keyword_terminals().get(word, "RULE")  # a misspelt one: read it where a declaration may start
            if not self._unwind(parser.parser_state, terminal):
                continue
            self.damaged.append((start, number - 1, _declaration_word(self.lines[start - 1]) or ""))
            if number == line:
                self.again.add(resume)
            counter.char_pos, counter.line, counter.column, counter.line_start_pos = resume, number, 1, resume
            return True
        return False

    @staticmethod
    def _unwind(state, terminal: str) -> bool:
        """Cut the parser's stack back to a state between declarations that accepts `terminal`; return False if none."""
        states = state.parse_conf.parse_table.states
        between = _between_declarations()
        depth = len(state.state_stack)
        while depth > 1:
            actions = states[state.state_stack[depth - 1]]
            # there every declaration's keyword is shifted; inside an expression it is only a lookahead
            if terminal in actions and all(k in actions and (k == "$END" or actions[k][0] is Shift) for k in between):
                del state.state_stack[depth:]
                del state.value_stack[depth - 1:]
                return True
            depth -= 1
        return False


def parse(text: str, file: str = "<string>") -> ast.Module:
    """Parse .lg source text; return its Module, or raise LandlordError (SyntaxErrors for every syntax error)."""
    source = SourceText(file, text)
    recovery = _Recovery(source)
    partial = None
    try:
        tree = _lark().parse(text, start="start", on_error=recovery)
        header, decls = _Builder(file).transform(tree)
        partial = ast.Module(header, decls, source_name=file, source_text=text)
    except UnexpectedInput as err:
        recovery.record(err)
    except RecursionError:
        raise too_deep(source) from None
    except VisitError as err:  # pragma: no cover - the builder raises nothing by design
        if isinstance(err.orig_exc, RecursionError):
            raise too_deep(source) from None
        raise LandlordError(f"{file}: internal error while reading the file: {err.orig_exc}") from None
    if recovery.diagnostics:
        raise SyntaxErrors(recovery.diagnostics, partial, recovery.damaged)
    assert partial is not None
    return partial


def parse_hole(text: str, at: ast.Span) -> ast.Expr | str:
    """Parse the expression of a `{...}` hole in a prompt or label.

    Returns the expression, every node of it located at `at` (the text it
    sits in), or, if the hole is not an expression, what is wrong with it.
    """
    try:
        return _Builder(at.file, at).transform(_lark().parse(text, start="hole"))
    except UnexpectedInput as err:
        if isinstance(err, UnexpectedCharacters):
            return f"the character {text[err.pos_in_stream]!r} has no meaning there"
        if isinstance(err, UnexpectedEOF) or (isinstance(err, UnexpectedToken) and err.token.type == "$END"):
            return "it ends too soon" if text.strip() else "it is empty"
        return f"{str(err.token)!r} cannot follow {text[:err.token.start_pos].strip()!r}"
    except (RecursionError, VisitError):
        return "it nests too deeply"


def source_of(module: ast.Module) -> SourceText:
    """Return the SourceText a module was parsed from."""
    return SourceText(module.source_name, module.source_text)
