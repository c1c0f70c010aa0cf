"""Pass 1 (parsing): Lark's trees to the typed AST.

`AstBuilder` is the Lark Transformer that turns every parse tree into frozen
attrs nodes (ast.py), each located by its Span; Lark's trees stop here. The
parser runs its methods as it reduces each rule (treeless.py), so no tree is
made; as a Transformer it reads the same trees to the same nodes (the tests
hold the two ways to each other).
"""

from __future__ import annotations

from typing import Any

import attrs
from lark import Token, Transformer, v_args
from lark.tree import Meta

from ..core.frozen import quick_maker
from . import ast

# a Span made without calling the class: the parser makes one for most nodes
_make_span = quick_maker(ast.Span)


def unquote(token: str) -> str:
    """Return the text a string literal stands for, its escapes (\\n, \\t, \\", \\\\) read."""
    body = token[1:-1]
    if "\\" not in body:
        return body
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


class AstBuilder(Transformer):
    """Turns Lark trees into ast nodes. Raises nothing domain-specific."""

    def __init__(self, file: str, at: ast.Span | None = None):
        super().__init__()
        self.file = file
        self.at = at  # the one span every node gets (the text an expression hole sits in)
        self.old_syntax: list[ast.OldSyntax] = []  # what the file writes in a form that will be dropped

    def _old(self, message: str, span: ast.Span) -> None:
        self.old_syntax.append(ast.OldSyntax(message, f"`landlord-dsl fmt {self.file}` rewrites it", span))

    def _span(self, meta: Any) -> ast.Span:
        if self.at is not None:
            return self.at
        if meta.empty:  # (a Lark Meta and the parser's extents both have it)
            return _make_span(self.file, 1, 1, 1, 1)
        return _make_span(self.file, meta.line, meta.column, meta.end_line, meta.end_column)

    def _tspan(self, tok: Token) -> ast.Span:
        if self.at is not None:
            return self.at
        return _make_span(self.file, tok.line, tok.column, tok.end_line or tok.line, tok.end_column or tok.column + 1)  # type: ignore[operator]

    # -- terminals
    def STRING(self, tok: Token) -> str:
        return unquote(str(tok))

    def INT(self, tok: Token) -> int:
        # Python refuses to read integers of thousands of digits; any such number is far
        # beyond the checker's limit anyway, so it stands in as one that is too large.
        return int(tok) if len(tok) <= 100 else 10**100

    # (no NAME method: a name is kept as its token, as Lark's Transformer keeps a terminal it has no method for,
    # and the parser then calls nothing for each name)

    # keyword-keeping rules give back their keyword
    def _keyword(self, children: list) -> str:
        return str(children[0])

    confidence = unlimited = rising = repeat = kind_flag = type_name = var_scope = deck_policy = _keyword
    rule_state = event = removable = choose_mode = direction = switch = _keyword
    aggregate_op = assign_op = _keyword
    placement_side = _keyword

    def bool(self, children: list) -> bool:
        return str(children[0]) == "true"

    # -- expressions
    @v_args(meta=True)
    def int_lit(self, meta: Meta, children: list[Any]) -> ast.IntLit:
        return ast.IntLit(children[0], span=self._span(meta))

    @v_args(meta=True)
    def neg_int_lit(self, meta: Meta, children: list[Any]) -> ast.IntLit:
        return ast.IntLit(-children[0], span=self._span(meta))

    @v_args(meta=True)
    def text_lit(self, meta: Meta, children: list[Any]) -> ast.TextLit:
        return ast.TextLit(children[0], span=self._span(meta))

    @v_args(meta=True)
    def bool_lit(self, meta: Meta, children: list[Any]) -> ast.BoolLit:
        return ast.BoolLit(children[0], span=self._span(meta))

    @v_args(meta=True)
    def none_lit(self, meta: Meta, children: list[Any]) -> ast.NoneLit:
        return ast.NoneLit(span=self._span(meta))

    @v_args(meta=True)
    def name(self, meta: Meta, children: list[Any]) -> ast.Name:
        return ast.Name(str(children[0]), span=self._span(meta))

    @v_args(meta=True)
    def list_lit(self, meta: Meta, children: list[Any]) -> ast.ListLit:
        return ast.ListLit(tuple(c for c in children if c is not None), span=self._span(meta))

    @v_args(meta=True)
    def field(self, meta: Meta, children: list[Any]) -> ast.Field:
        subject, name = children
        return ast.Field(subject, str(name), span=self._span(meta))

    @v_args(meta=True)
    def index(self, meta: Meta, children: list[Any]) -> ast.Index:
        return ast.Index(children[0], children[1], span=self._span(meta))

    @v_args(meta=True)
    def call(self, meta: Meta, children: list[Any]) -> ast.Call:
        name, *args = children
        return ast.Call(str(name), tuple(a for a in args if a is not None), span=self._span(meta))

    @v_args(meta=True)
    def negate(self, meta: Meta, children: list[Any]) -> ast.Unary:
        return ast.Unary("-", children[0], span=self._span(meta))

    @v_args(meta=True)
    def not_op(self, meta: Meta, children: list[Any]) -> ast.Unary:
        return ast.Unary("not", children[0], span=self._span(meta))

    @v_args(meta=True)
    def binary(self, meta: Meta, children: list[Any]) -> ast.Binary:
        left, op, right = children
        return ast.Binary(str(op), left, right, span=self._span(meta))

    compare = binary  # (not a method calling self.binary: Lark's v_args wrapper is made anew at each such call)

    @v_args(meta=True)
    def or_op(self, meta: Meta, children: list[Any]) -> ast.Binary:
        return ast.Binary("or", children[0], children[1], span=self._span(meta))

    @v_args(meta=True)
    def and_op(self, meta: Meta, children: list[Any]) -> ast.Binary:
        return ast.Binary("and", children[0], children[1], span=self._span(meta))

    @v_args(meta=True)
    def member(self, meta: Meta, children: list[Any]) -> ast.Binary:
        return ast.Binary("in", children[0], children[1], span=self._span(meta))

    @v_args(meta=True)
    def has_tag(self, meta: Meta, children: list[Any]) -> ast.Binary:
        subject, tag = children
        span = self.at or ast.Span(self.file, tag.line, tag.column, tag.end_line, tag.end_column)
        name = ast.Name(str(tag), span=span)
        return ast.Binary("has", subject, name, span=self._span(meta))

    @v_args(meta=True)
    def not_member(self, meta: Meta, children: list[Any]) -> ast.Binary:
        return ast.Binary("not in", children[0], children[1], span=self._span(meta))

    @v_args(meta=True)
    def if_expr(self, meta: Meta, children: list[Any]) -> ast.Conditional:
        return ast.Conditional(*children, span=self._span(meta))  # type: ignore[misc]

    @v_args(meta=True)
    def aggregate(self, meta: Meta, children: list[Any]) -> ast.Aggregate:
        op, var, collection, body = children
        return ast.Aggregate(op, str(var), collection, body, span=self._span(meta))

    # -- statements
    @v_args(meta=True)
    def block(self, meta: Meta, children: list[Any]) -> tuple[ast.Stmt, ...]:
        return tuple(children)

    @v_args(meta=True)
    def pay_stmt(self, meta: Meta, children: list[Any]) -> ast.Pay:
        amount, payer, payee, purpose = children
        if purpose is None:
            return ast.Pay(amount, payer, payee, span=self._span(meta))
        return ast.Pay(amount, payer, payee, str(purpose), span=self._span(meta), purpose_span=self._tspan(purpose))

    def target(self, children: list[Any]) -> tuple[str, ...]:
        return tuple(str(c) for c in children)

    @v_args(meta=True)
    def set_stmt(self, meta: Meta, children: list[Any]) -> ast.Set:
        target, op, value = children
        return ast.Set(target, op, value, span=self._span(meta))

    @v_args(meta=True)
    def let_stmt(self, meta: Meta, children: list[Any]) -> ast.Let:
        return ast.Let(str(children[0]), children[1], span=self._span(meta))

    @v_args(meta=True)
    def if_stmt(self, meta: Meta, children: list[Any]) -> ast.If:
        condition, then, otherwise = children
        return ast.If(condition, then, otherwise, span=self._span(meta))

    def else_clause(self, children: list[Any]) -> tuple[ast.Stmt, ...]:
        (body,) = children
        return (body,) if isinstance(body, ast.If) else body

    @v_args(meta=True)
    def for_stmt(self, meta: Meta, children: list[Any]) -> ast.For:
        var, collection, body = children
        return ast.For(str(var), collection, body, span=self._span(meta))

    @v_args(meta=True)
    def choose_stmt(self, meta: Meta, children: list[Any]) -> ast.Choose:
        mode, chooser, prompt, done_when, *options = children
        return ast.Choose(mode == "offer", chooser, prompt, tuple(options), span=self._span(meta), done_when=done_when)

    def done_guard(self, children: list[Any]) -> ast.Expr:
        return children[0]

    def option_binding(self, children: list[Any]) -> tuple[str, ast.Expr]:
        return (str(children[0]), children[1])

    def option_guard(self, children: list[Any]) -> ast.Expr:
        return children[0]

    option_cost = option_value = option_guard

    @v_args(meta=True)
    def choice_option(self, meta: Meta, children: list[Any]) -> ast.ChoiceOption:
        name, label, binding, guard, cost, value, body = children
        return ast.ChoiceOption(str(name), label, binding, guard, cost, value, body, span=self._span(meta))

    @v_args(meta=True)
    def roll_stmt(self, meta: Meta, children: list[Any]) -> ast.Roll:
        dice, thrower = children
        return ast.Roll(thrower, span=self._span(meta), dice=str(dice), name_span=self._tspan(dice))

    @v_args(meta=True)
    def move_steps(self, meta: Meta, children: list[Any]) -> ast.MoveSteps:
        direction, steps, via, stop = children
        return ast.MoveSteps(
            direction,
            steps,
            str(via) if via is not None else None,
            span=self._span(meta),
            name_span=self._tspan(via) if via is not None else self._span(meta),
            stop_at=str(stop) if stop is not None else None,
            stop_span=self._tspan(stop) if stop is not None else self._span(meta),
        )

    def stopping(self, children: list[Any]) -> Token:
        return children[0]

    @v_args(meta=True)
    def move_to(self, meta: Meta, children: list[Any]) -> ast.MoveTo:
        return ast.MoveTo(children[0], span=self._span(meta))

    @v_args(meta=True)
    def send_stmt(self, meta: Meta, children: list[Any]) -> ast.Send:
        return ast.Send(*children, span=self._span(meta))  # type: ignore[misc]

    @v_args(meta=True)
    def draw_stmt(self, meta: Meta, children: list[Any]) -> ast.Draw:
        return ast.Draw(str(children[0]), span=self._span(meta), name_span=self._tspan(children[0]))

    @v_args(meta=True)
    def give_stmt(self, meta: Meta, children: list[Any]) -> ast.Give:
        return ast.Give(*children, span=self._span(meta))  # type: ignore[misc]

    @v_args(meta=True)
    def give_turn_stmt(self, meta: Meta, children: list[Any]) -> ast.GiveTurn:
        return ast.GiveTurn(children[0], span=self._span(meta))

    @v_args(meta=True)
    def return_stmt(self, meta: Meta, children: list[Any]) -> ast.Return:
        return ast.Return(children[0], str(children[1]), span=self._span(meta), name_span=self._tspan(children[1]))

    @v_args(meta=True)
    def shuffle_stmt(self, meta: Meta, children: list[Any]) -> ast.Shuffle:
        return ast.Shuffle(str(children[0]), span=self._span(meta), name_span=self._tspan(children[0]))

    @v_args(meta=True)
    def deal_stmt(self, meta: Meta, children: list[Any]) -> ast.Deal:
        return ast.Deal(children[0], str(children[1]), span=self._span(meta), name_span=self._tspan(children[1]))

    @v_args(meta=True)
    def auction_stmt(self, meta: Meta, children: list[Any]) -> ast.Auction:
        return ast.Auction(*children, span=self._span(meta))  # type: ignore[misc]

    @v_args(meta=True)
    def borrow_stmt(self, meta: Meta, children: list[Any]) -> ast.Borrow:
        return ast.Borrow(*children, span=self._span(meta))  # type: ignore[misc]

    @v_args(meta=True)
    def repay_stmt(self, meta: Meta, children: list[Any]) -> ast.RepayLoans:
        return ast.RepayLoans(span=self._span(meta), interest=children[0] is None)

    @v_args(meta=True)
    def end_turn_stmt(self, meta: Meta, children: list[Any]) -> ast.EndTurn:
        return ast.EndTurn(span=self._span(meta))

    @v_args(meta=True)
    def end_game_stmt(self, meta: Meta, children: list[Any]) -> ast.EndGame:
        return ast.EndGame(span=self._span(meta))

    @v_args(meta=True)
    def say_stmt(self, meta: Meta, children: list[Any]) -> ast.Say:
        return ast.Say(children[0], span=self._span(meta))

    @v_args(meta=True)
    def check_end_stmt(self, meta: Meta, children: list[Any]) -> ast.CheckEnd:
        return ast.CheckEnd(span=self._span(meta))

    @v_args(meta=True)
    def eliminate_stmt(self, meta: Meta, children: list[Any]) -> ast.Eliminate:
        return ast.Eliminate(children[0], span=self._span(meta))

    @v_args(meta=True)
    def switch_stmt(self, meta: Meta, children: list[Any]) -> ast.Switch:
        return ast.Switch(
            children[0] == "enable", str(children[1]), span=self._span(meta), name_span=self._tspan(children[1])
        )

    # -- header and declarations
    @v_args(meta=True)
    def provenance(self, meta: Meta, children: list[Any]) -> ast.Provenance:
        source, confidence, note = children
        return ast.Provenance(source, confidence, note, span=self._span(meta))

    @v_args(meta=True)
    def title(self, meta: Meta, children: list[Any]) -> tuple[str, str, ast.Span]:
        return ("title", children[0], self._span(meta))

    @v_args(meta=True)
    def players(self, meta: Meta, children: list[Any]) -> tuple[str, tuple[int, int], ast.Span]:
        return ("players", (children[0], children[1]), self._span(meta))

    @v_args(meta=True)
    def dice(self, meta: Meta, children: list[Any]) -> tuple[str, int, ast.Span]:
        return ("dice", children[0], self._span(meta))

    @v_args(meta=True)
    def turn_limit(self, meta: Meta, children: list[Any]) -> tuple[str, int, ast.Span]:
        return ("turn_limit", children[0], self._span(meta))

    @v_args(meta=True)
    def extends(self, meta: Meta, children: list[Any]) -> tuple[str, str, ast.Span]:
        return ("extends", children[0], self._span(meta))

    @v_args(meta=True)
    def header(self, meta: Meta, children: list[Any]) -> ast.Header:
        name, *items = children
        fields: dict[str, Any] = {}
        spans: dict[str, ast.Span] = {}
        for item in items:
            if isinstance(item, ast.Provenance):
                fields["provenance"] = item
            else:
                fields[item[0]], spans[item[0]] = item[1], item[2]
        return ast.Header(name, span=self._span(meta), item_spans=tuple(spans.items()), **fields)

    def option_choices(self, children: list[Any]) -> tuple[str, ...]:
        return tuple(children)

    @v_args(meta=True)
    def option_decl(self, meta: Meta, children: list[Any]) -> ast.OptionDecl:
        name, choice, label, default, choices, prov = children
        value = default.value
        return ast.OptionDecl(
            str(name),
            label,
            value,
            choices,
            prov,
            span=self._span(meta),
            default_span=default.span,
            choice=str(choice) if choice is not None else None,
        )

    @v_args(meta=True)
    def choice_decl(self, meta: Meta, children: list[Any]) -> ast.ChoiceDecl:
        name, label, *values, prov = children
        return ast.ChoiceDecl(str(name), label, tuple(v for v in values if v is not None), prov, span=self._span(meta))

    @v_args(meta=True)
    def account_decl(self, meta: Meta, children: list[Any]) -> ast.AccountDecl:
        name, label, unlimited, prov = children
        return ast.AccountDecl(str(name), label, unlimited is not None, prov, span=self._span(meta))

    @v_args(meta=True)
    def const_decl(self, meta: Meta, children: list[Any]) -> ast.ConstDecl:
        return ast.ConstDecl(str(children[0]), children[1], children[2], span=self._span(meta))

    def table_entry(self, children: list[Any]) -> tuple[ast.Expr, ast.Expr]:
        return (children[0], children[1])

    @v_args(meta=True)
    def table_decl(self, meta: Meta, children: list[Any]) -> ast.TableDecl:
        name, label, rising, *rest = children
        prov = rest.pop()
        entries = tuple(e for e in rest if e is not None)
        return ast.TableDecl(str(name), label, rising is not None, entries, prov, span=self._span(meta))

    @v_args(meta=True)
    def group_decl(self, meta: Meta, children: list[Any]) -> ast.GroupDecl:
        return ast.GroupDecl(str(children[0]), children[1], children[2], span=self._span(meta))

    @v_args(meta=True)
    def field_decl(self, meta: Meta, children: list[Any]) -> ast.FieldDecl:
        return ast.FieldDecl(str(children[0]), children[1], span=self._span(meta))

    def kind_field(self, children: list[Any]) -> ast.FieldDecl:
        return children[0]

    def kind_field_bare(self, children: list[Any]) -> ast.FieldDecl:
        self._old("kind fields are separated by commas, like a space's field values", children[0].span)
        return children[0]

    @v_args(meta=True)
    def early_provenance(self, meta: Meta, children: list[Any]) -> ast.Provenance:
        self._old("a citation before the `{` is in its old place: it now comes after the closing `}`", children[0].span)
        return children[0]

    def rule_body(self, children: list[Any]) -> tuple[ast.Handler | ast.Trigger, ...]:
        return tuple(children)

    @v_args(meta=True)
    def kind_decl(self, meta: Meta, children: list[Any]) -> ast.KindDecl:
        name, label, *rest = children
        prov = rest.pop()
        flags = [r for r in rest if isinstance(r, str)]
        fields = tuple(r for r in rest if isinstance(r, ast.FieldDecl))
        return ast.KindDecl(
            str(name), label, "titled" in flags, "improvable" in flags, fields, prov, span=self._span(meta)
        )

    @v_args(meta=True)
    def var_decl(self, meta: Meta, children: list[Any]) -> ast.VarDecl:
        scope, name, type_name, initial, prov = children
        return ast.VarDecl(scope or "game", str(name), type_name, initial, prov, span=self._span(meta))

    @v_args(meta=True)
    def field_value(self, meta: Meta, children: list[Any]) -> tuple[str, ast.Expr, ast.Span]:
        return (str(children[0]), children[1], self._span(meta))

    def field_values(self, children: list[Any]) -> tuple[tuple[str, ast.Expr, ast.Span], ...]:
        return tuple(c for c in children if c is not None)

    @v_args(meta=True)
    def member_of(self, meta: Meta, children: list[Any]) -> tuple[tuple[str, ...], ast.Span]:
        return (tuple(str(c) for c in children), self._span(meta))

    @v_args(meta=True)
    def space_decl(self, meta: Meta, children: list[Any]) -> ast.SpaceDecl:
        name, label, kind, fields, member_of, prov = children
        fields = fields or ()
        groups, group_span = member_of if member_of else ((), self._span(meta))
        return ast.SpaceDecl(
            str(name),
            label,
            str(kind),
            tuple((f[0], f[1]) for f in fields),
            groups,
            prov,
            span=self._span(meta),
            field_spans=tuple(f[2] for f in fields),
            group_span=group_span,
            kind_span=self._tspan(kind),
        )

    @v_args(meta=True)
    def board_decl(self, meta: Meta, children: list[Any]) -> ast.BoardDecl:
        return ast.BoardDecl(tuple(children), span=self._span(meta))

    def deck_source(self, children: list[Any]) -> tuple[str, str | None]:
        return ("titles", str(children[0]) if children[0] is not None else None)

    def enabled_when(self, children: list[Any]) -> ast.Expr:
        return children[0]

    def deck_size(self, children: list[Any]) -> int:
        return children[0]

    def card_copies(self, children: list[Any]) -> int:
        return children[0]

    @v_args(meta=True)
    def card_decl(self, meta: Meta, children: list[Any]) -> ast.CardDecl:
        name, text, copies, share, tags, *rest = children
        prov, body = _cited(rest)
        return ast.CardDecl(
            str(name),
            text,
            1 if copies is None else copies,
            prov,
            body,
            span=self._span(meta),
            tags=tags or (),
            share_of=str(share) if share is not None else None,
            share_span=self._tspan(share) if share is not None else self._span(meta),
        )

    def card_share(self, children: list[Any]) -> Token:
        return children[0]

    def card_tags(self, children: list[Any]) -> tuple[str, ...]:
        return tuple(str(c) for c in children)

    @v_args(meta=True)
    def deck_decl(self, meta: Meta, children: list[Any]) -> ast.DeckDecl:
        name, label, policy, of_titles, size, enabled, *rest = children
        prov = next((r for r in rest if isinstance(r, ast.Provenance)), None)
        cards = [r for r in rest if isinstance(r, ast.CardDecl)]
        return ast.DeckDecl(
            str(name),
            label,
            policy == "kept",
            of_titles is not None,
            of_titles[1] if of_titles else None,
            size,
            enabled,
            prov,
            tuple(cards),
            span=self._span(meta),
        )

    @v_args(meta=True)
    def param(self, meta: Meta, children: list[Any]) -> ast.Param:
        return ast.Param(str(children[0]), children[1], span=self._span(meta))

    @v_args(meta=True)
    def function_decl(self, meta: Meta, children: list[Any]) -> ast.FunctionDecl:
        name, *rest = children
        body, prov = rest[-2], rest[-1]
        params = tuple(p for p in rest[:-2] if p is not None)
        return ast.FunctionDecl(str(name), params, body, prov, span=self._span(meta))

    @v_args(meta=True)
    def action_decl(self, meta: Meta, children: list[Any]) -> ast.ActionDecl:
        name, *rest = children
        params = tuple(p for p in rest if isinstance(p, ast.Param))
        prov, body = _cited([r for r in rest if not isinstance(r, ast.Param)])
        return ast.ActionDecl(str(name), params, prov, body, span=self._span(meta))

    @v_args(meta=True)
    def do_stmt(self, meta: Meta, children: list[Any]) -> ast.Do:
        name, *args = children
        return ast.Do(str(name), tuple(a for a in args if a is not None), span=self._span(meta))

    @v_args(meta=True)
    def handler(self, meta: Meta, children: list[Any]) -> ast.Handler:
        event, selector, body = children
        sel_span = self._tspan(selector) if selector is not None else self._span(meta)
        return ast.Handler(
            event,
            str(selector) if selector is not None else None,
            body,
            span=self._span(meta),
            selector_span=sel_span,
        )

    def replaces(self, children: list[Any]) -> tuple[str, ...]:
        return tuple(str(c) for c in children)

    @v_args(meta=True)
    def trigger(self, meta: Meta, children: list[Any]) -> ast.Trigger:
        condition, repeat, body = children
        return ast.Trigger(condition, repeat is not None, body, span=self._span(meta))

    @v_args(meta=True)
    def rule_decl(self, meta: Meta, children: list[Any]) -> ast.RuleDecl:
        name, label, state, replaces, placement, *rest = children
        side, anchor = placement if placement is not None else (None, None)
        prov, parts = _cited(rest)
        return ast.RuleDecl(
            str(name),
            label,
            state == "off",
            replaces or (),
            prov,
            tuple(p for p in parts if isinstance(p, ast.Handler)),
            tuple(p for p in parts if isinstance(p, ast.Trigger)),
            span=self._span(meta),
            placement=side,
            anchor=str(anchor) if anchor is not None else None,
            anchor_span=self._tspan(anchor) if anchor is not None else self._span(meta),
        )

    def placement(self, children: list[Any]) -> tuple[str, Token]:
        return str(children[0]), children[1]

    @v_args(meta=True)
    def extension_decl(self, meta: Meta, children: list[Any]) -> ast.FunctionDecl | ast.ActionDecl | ast.RuleDecl:
        doc, decl = children
        return attrs.evolve(decl, extension=doc, span=self._span(meta))

    @v_args(meta=True)
    def replace_handler_decl(self, meta: Meta, children: list[Any]) -> ast.ReplaceHandlerDecl:
        event, selector, rule, body, prov = children
        handler = ast.Handler(
            event,
            str(selector) if selector is not None else None,
            body,
            span=self._span(meta),
            selector_span=self._tspan(selector) if selector is not None else self._span(meta),
            provenance=prov,
        )
        return ast.ReplaceHandlerDecl(str(rule), handler, span=self._span(meta), rule_span=self._tspan(rule))

    @v_args(meta=True)
    def end_decl(self, meta: Meta, children: list[Any]) -> ast.EndDecl:
        name, condition, prov = children
        return ast.EndDecl(str(name) if name is not None else None, condition, prov, span=self._span(meta))

    @v_args(meta=True)
    def score_decl(self, meta: Meta, children: list[Any]) -> ast.ScoreDecl:
        return ast.ScoreDecl(children[0], children[1], span=self._span(meta))

    @v_args(meta=True)
    def remove_decl(self, meta: Meta, children: list[Any]) -> ast.RemoveDecl:
        return ast.RemoveDecl(children[0], str(children[1]), span=self._span(meta))

    def dice_sides(self, children: list[Any]) -> tuple[int, ...]:
        return tuple(range(1, children[0] + 1))

    def dice_face_list(self, children: list[Any]) -> tuple[int, ...]:
        return tuple(face.value for face in children if face is not None)

    @v_args(meta=True)
    def dice_decl(self, meta: Meta, children: list[Any]) -> ast.DiceDecl:
        name, label, count, faces, prov = children
        faces = faces if faces is not None else tuple(range(1, 7))
        return ast.DiceDecl(str(name), label, count, faces, prov, span=self._span(meta))

    @v_args(meta=True)
    def purpose_decl(self, meta: Meta, children: list[Any]) -> ast.PurposeDecl:
        name, label, prov = children
        return ast.PurposeDecl(str(name), label, prov, span=self._span(meta))

    @v_args(meta=True)
    def reroute_decl(self, meta: Meta, children: list[Any]) -> ast.RerouteDecl:
        *purposes, account, prov = children
        return ast.RerouteDecl(
            tuple(str(p) for p in purposes),
            str(account),
            prov,
            span=self._span(meta),
            account_span=self._tspan(account),
            purpose_spans=tuple(self._tspan(p) for p in purposes),
        )

    @v_args(meta=True)
    def reference_decl(self, meta: Meta, children: list[Any]) -> ast.ReferenceDecl:
        return ast.ReferenceDecl(children[0], children[1], children[2], span=self._span(meta))

    def start(self, children: list[Any]) -> tuple[ast.Header, tuple[ast.Declaration, ...]]:
        header, *decls = children
        return header, tuple(decls)

    def hole(self, children: list[Any]) -> ast.Expr:
        return children[0]


def _cited(rest: list) -> tuple[ast.Provenance | None, Any]:
    """Return the citation and the body of `[early_provenance] body [provenance]` (one of the two is None)."""
    cited = [r for r in rest if isinstance(r, ast.Provenance)]
    (body,) = [r for r in rest if r is not None and not isinstance(r, ast.Provenance)]
    return (cited[0] if cited else None), body
