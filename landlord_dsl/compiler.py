"""Pass 3: compile a checked Model, with chosen option values, into a Program.

Every expression and statement becomes a Python closure `f(game, frame)`;
names are resolved to list indices here, constants and options are folded,
and handlers are grouped per space, so the running game does no lookups by
name. Nothing here raises for a checked model except for bad option values.
"""

from __future__ import annotations

import operator
from typing import Any, Callable

import attrs

from . import ast
from .builtins import IMPLEMENTATIONS
from .checker import Model
from .engine import EndGame, EndTurn, MAX_OFFER_ROUNDS
from .errors import Diagnostic, LandlordError, did_you_mean
from .loader import RuleSet
from .parser import source_of
from .requests import Option
from .types import ACCOUNT, DICE, GROUP, PLAYER, SPACE, CARD, strip_optional

Fn = Callable[[Any, Any], Any]
_NOTHING = object()
_CONSTANT_FRAME = 64  # constant expressions bind few names; aggregates in them need slots


@attrs.define
class Program:
    """A compiled rule set for one choice of option values."""

    title: str
    name: str
    players: tuple[int, int]
    turn_limit: int | None
    dice_count: int
    options: dict[str, Any]
    rules_hash: str
    sources: dict
    account_names: list[str]
    account_labels: list[str]
    account_unlimited: list[bool]
    space_names: list[str]
    space_labels: list[str]
    start_space: int
    game_var_init: list[Any]
    player_var_init: list[Any]
    space_var_init: list[list[Any]]
    card_names: list[str]
    card_texts: list[str]
    card_space: list[int | None]
    card_deck: list[str]
    title_card: list[int | None]
    card_effects: list[tuple[Fn, int]]
    deck_cards: dict[str, list[int]]
    deck_kept: dict[str, bool]
    deck_enabled: dict[str, Fn]
    rule_names: list[str]
    rule_off: list[bool]
    rule_spans: list[ast.Span]
    setup_handlers: tuple
    turn_handlers: tuple
    shortfall_handlers: tuple
    land_handlers: list[tuple]
    pass_handlers: list[tuple]
    end_conditions: list[tuple[Fn, str]]
    score: Fn | None


# Closures for the names whose value depends on the moment (see types.CONTEXT_NAMES).
_CONTEXT: dict[str, Fn] = {
    "player": lambda g, f: g.actor,
    "players": lambda g, f: g.seats,
    "player_count": lambda g, f: g.n,
    "here": lambda g, f: g.pos[g.actor],
    "origin": lambda g, f: g.origin,
    "dice": lambda g, f: g.dice,
    "spaces": lambda g, f: range(g.board_size),
    "due": lambda g, f: g.due,
    "creditor": lambda g, f: g.creditor,
    "creditor_player": lambda g, f: g.creditor if g.creditor is not None and g.creditor >= 0 else None,
    "card": lambda g, f: g.card,
}

_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
            ">": operator.gt, ">=": operator.ge}


class Compiler:
    def __init__(self, ruleset: RuleSet, options: dict[str, Any]):
        self.rs = ruleset
        self.m: Model = ruleset.model
        self.options = options
        m = self.m
        self.account_index = {a.name: i for i, a in enumerate(m.accounts)}
        self.game_var_index = {n: i for i, n in enumerate(m.game_vars)}
        self.player_var_index = {n: i for i, n in enumerate(m.player_vars)}
        self.space_var_index = {n: i for i, n in enumerate(m.space_vars)}
        self.deck_names = list(m.decks)
        self.consts: dict[str, Any] = {}
        self.tables: dict[str, dict] = {}
        self.groups = {name: tuple(members) for name, members in m.groups.items()}
        self.group_sets = {name: frozenset(members) for name, members in m.groups.items()}
        self.rule_index = {r.name: i for i, r in enumerate(m.rules)}
        self.functions: dict[str, list] = {}

    # ----------------------------------------------------------- helpers
    def type_of(self, e: ast.Expr) -> str:
        return self.m.types.get(id(e), "any")

    def constant(self, e: ast.Expr) -> Any:
        """Evaluate an expression that the checker proved needs no game."""
        fn, value = self.expr(e)
        return value if value is not _NOTHING else fn(None, [None] * _CONSTANT_FRAME)

    def framed(self, e: ast.Expr, owner: object) -> Fn:
        """Compile a top-level expression that gets a fresh frame of its own on each use."""
        body = self.fn(e)
        size = max(1, self.m.frames.get(id(owner), 0))
        return lambda g, f: body(g, [None] * size)

    def payee(self, e: ast.Expr) -> Fn:
        """Compile a payer/payee expression to a ledger index."""
        t = strip_optional(self.type_of(e))
        fn, value = self.expr(e)
        span = e.span
        if t == ACCOUNT:
            if value is not _NOTHING:
                index = -value - 1
                return lambda g, f: index
            return lambda g, f: -fn(g, f) - 1
        if t == PLAYER:
            def player_index(g, f):
                seat = fn(g, f)
                if seat is None:
                    raise g.fail("this payment has no player to pay or be paid (an owner that is none?)", span)
                return g.nacc + seat
            return player_index

        def any_index(g, f):
            v = fn(g, f)
            if v is None:
                raise g.fail("this payment has nobody to pay or be paid", span)
            return g.nacc + v if v >= 0 else -v - 1
        return any_index

    # ------------------------------------------------------- expressions
    def expr(self, e: ast.Expr) -> tuple[Fn, Any]:
        """Return (closure, constant value or _NOTHING)."""
        method = getattr(self, "_e_" + type(e).__name__)
        return method(e)

    def fn(self, e: ast.Expr) -> Fn:
        return self.expr(e)[0]

    @staticmethod
    def _const(value: Any) -> tuple[Fn, Any]:
        return (lambda g, f: value), value

    def _e_IntLit(self, e):
        return self._const(e.value)

    def _e_TextLit(self, e):
        return self._const(e.value)

    def _e_BoolLit(self, e):
        return self._const(e.value)

    def _e_NoneLit(self, e):
        return self._const(None)

    def _e_ListLit(self, e):
        parts = [self.expr(i) for i in e.items]
        if all(v is not _NOTHING for _, v in parts):
            return self._const(tuple(v for _, v in parts))
        fns = [p[0] for p in parts]
        return (lambda g, f: [x(g, f) for x in fns]), _NOTHING

    def _e_Name(self, e):
        kind, payload = self.m.refs[id(e)]
        if kind == "local":
            slot = payload
            return (lambda g, f: f[slot]), _NOTHING
        if kind == "option":
            return self._const(self.options[payload])
        if kind == "const":
            if payload not in self.consts:
                self.consts[payload] = self.constant(self.m.consts[payload].value)
            return self._const(self.consts[payload])
        if kind == "space":
            return self._const(payload)
        if kind == "group":
            return self._const(self.groups[payload])
        if kind == "account":
            return self._const(-self.account_index[payload] - 1)
        if kind == "deck":
            return self._const(payload)
        if kind == "table":
            return self._const(self._table(payload))
        if kind == "game_var":
            i = self.game_var_index[payload]
            return (lambda g, f: g.gv[i]), _NOTHING
        if kind == "context":
            return _CONTEXT[payload], _NOTHING
        raise AssertionError(kind)  # pragma: no cover

    def _table(self, name: str) -> dict:
        if name not in self.tables:
            decl = self.m.tables[name]
            self.tables[name] = {self.constant(k): self.constant(v) for k, v in decl.entries}
        return self.tables[name]

    def _e_Field(self, e):
        t = strip_optional(self.type_of(e.subject))
        sub, value = self.expr(e.subject)
        name = e.name
        m = self.m
        span = e.span
        if t == PLAYER:
            if name in self.player_var_index:
                i = self.player_var_index[name]
                return (lambda g, f: g.pv[i][sub(g, f)]), _NOTHING
            return {
                "cash": lambda g, f: g.bal[g.nacc + sub(g, f)],
                "space": lambda g, f: g.pos[sub(g, f)],
                "seat": lambda g, f: sub(g, f) + 1,
                "name": lambda g, f: g.names[sub(g, f)],
                "cards": lambda g, f: [c for c, h in enumerate(g.holder) if h == sub(g, f)],
                "titles": lambda g, f: list(g.titles[sub(g, f)]),
            }[name], _NOTHING
        if t == SPACE:
            if name in self.space_var_index:
                i = self.space_var_index[name]
                return (lambda g, f: g.sv[i][sub(g, f)]), _NOTHING
            if name in m.space_fields:
                column = self._space_column(name)
                label = self.m.spaces

                def space_field(g, f):
                    s = sub(g, f)
                    v = column[s]
                    if v is None:
                        raise g.fail(f"space '{label[s].name}' has no field '{name}'", span,
                                     "its kind does not declare it; guard the use by kind or group")
                    return v
                if value is not _NOTHING:
                    return self._const(space_field(None, None))
                return space_field, _NOTHING
            title_card = self.title_card
            return {
                "owner": lambda g, f: g.owner[sub(g, f)],
                "index": lambda g, f: sub(g, f),
                "name": lambda g, f: g.prog.space_labels[sub(g, f)],
                "kind": lambda g, f: m.spaces[sub(g, f)].kind,
                "title": lambda g, f: title_card[sub(g, f)],
            }[name], _NOTHING
        if t == CARD:
            return {
                "name": lambda g, f: g.prog.card_names[sub(g, f)],
                "text": lambda g, f: g.prog.card_texts[sub(g, f)],
                "space": lambda g, f: g.prog.card_space[sub(g, f)],
                "holder": lambda g, f: g.holder[sub(g, f)],
            }[name], _NOTHING
        if t == DICE:
            return {
                "total": lambda g, f: g.dice_total,
                "double": lambda g, f: g.dice_double,
                "first": lambda g, f: g.dice[0],
                "second": lambda g, f: g.dice[1] if len(g.dice) > 1 else 0,
            }[name], _NOTHING
        if t == ACCOUNT:
            labels = [a.label or a.name for a in m.accounts]
            if name == "balance":
                return (lambda g, f: g.bal[-sub(g, f) - 1]), _NOTHING
            return (lambda g, f: labels[-sub(g, f) - 1]), _NOTHING
        raise AssertionError((t, name))  # pragma: no cover

    def _space_column(self, name: str) -> list:
        if not hasattr(self, "_columns"):
            self._columns: dict[str, list] = {}
        if name not in self._columns:
            column: list = [None] * len(self.m.spaces)
            for i, s in enumerate(self.m.spaces):
                for field_name, value in s.fields:
                    if field_name == name:
                        column[i] = self.constant(value)
            self._columns[name] = column
        return self._columns[name]

    def _e_Index(self, e):
        sub, sv = self.expr(e.subject)
        key, kv = self.expr(e.key)
        span = e.span
        if sv is not _NOTHING and kv is not _NOTHING:
            try:
                return self._const(sv[kv])
            except (KeyError, IndexError):
                pass

        def index(g, f):
            container, k = sub(g, f), key(g, f)
            try:
                return container[k]
            except (KeyError, IndexError, TypeError):
                if isinstance(container, dict):
                    raise g.fail(f"the table has no entry {k!r}", span,
                                 "known keys: " + ", ".join(map(repr, container))) from None
                raise g.fail(f"index {k!r} is outside the list", span) from None
        return index, _NOTHING

    def _e_Call(self, e):
        kind, name = self.m.refs[id(e)]
        args = [self.fn(a) for a in e.args]
        if kind == "builtin":
            impl = IMPLEMENTATIONS[name]
            if len(args) == 1:
                a0 = args[0]
                return (lambda g, f: impl(g, a0(g, f))), _NOTHING
            if len(args) == 2:
                a0, a1 = args
                return (lambda g, f: impl(g, a0(g, f), a1(g, f))), _NOTHING
            return (lambda g, f: impl(g, *[a(g, f) for a in args])), _NOTHING
        decl = self.m.functions[name]
        size = max(self.m.frames.get(id(decl), 0), len(decl.params), 1)
        cell = self.functions.setdefault(name, [None])
        if cell[0] is None:
            cell[0] = True  # placeholder while compiling (no recursion is allowed)
            cell[0] = self.fn(decl.body)
        body_cell = cell
        nargs = len(args)

        def call(g, f):
            frame = [None] * size
            for i in range(nargs):
                frame[i] = args[i](g, f)
            return body_cell[0](g, frame)
        return call, _NOTHING

    def _e_Unary(self, e):
        x, v = self.expr(e.operand)
        if e.op == "-":
            if v is not _NOTHING:
                return self._const(-v)
            return (lambda g, f: -x(g, f)), _NOTHING
        if v is not _NOTHING:
            return self._const(not v)
        return (lambda g, f: not x(g, f)), _NOTHING

    def _e_Binary(self, e):
        op = e.op
        a, av = self.expr(e.left)
        b, bv = self.expr(e.right)
        span = e.span
        if op == "and":
            if av is not _NOTHING:
                return (b, bv) if av else self._const(False)
            return (lambda g, f: a(g, f) and b(g, f)), _NOTHING
        if op == "or":
            if av is not _NOTHING:
                return self._const(True) if av else (b, bv)
            return (lambda g, f: a(g, f) or b(g, f)), _NOTHING
        if op in ("in", "not in"):
            negate = op == "not in"
            if isinstance(e.right, ast.Name) and self.m.refs[id(e.right)][0] == "group":
                members = self.group_sets[e.right.name]
                if negate:
                    return (lambda g, f: a(g, f) not in members), _NOTHING
                return (lambda g, f: a(g, f) in members), _NOTHING
            if negate:
                return (lambda g, f: a(g, f) not in b(g, f)), _NOTHING
            return (lambda g, f: a(g, f) in b(g, f)), _NOTHING
        if op in ("/", "%"):
            py = operator.floordiv if op == "/" else operator.mod

            def divide(g, f):
                d = b(g, f)
                if d == 0:
                    raise g.fail("division by zero", span)
                return py(a(g, f), d)
            if av is not _NOTHING and bv is not _NOTHING and bv != 0:
                return self._const(py(av, bv))
            return divide, _NOTHING
        py = {"+": operator.add, "-": operator.sub, "*": operator.mul, **_COMPARE}[op]
        if av is not _NOTHING and bv is not _NOTHING:
            return self._const(py(av, bv))
        if bv is not _NOTHING:
            if op == "+":
                return (lambda g, f: a(g, f) + bv), _NOTHING
            if op == "*":
                return (lambda g, f: a(g, f) * bv), _NOTHING
            if op == "==":
                return (lambda g, f: a(g, f) == bv), _NOTHING
            if op == "!=":
                return (lambda g, f: a(g, f) != bv), _NOTHING
            if op == ">=":
                return (lambda g, f: a(g, f) >= bv), _NOTHING
            if op == "<":
                return (lambda g, f: a(g, f) < bv), _NOTHING
            return (lambda g, f: py(a(g, f), bv)), _NOTHING
        return (lambda g, f: py(a(g, f), b(g, f))), _NOTHING

    def _e_Conditional(self, e):
        c, cv = self.expr(e.condition)
        a, av = self.expr(e.then)
        b, bv = self.expr(e.otherwise)
        if cv is not _NOTHING:
            return (a, av) if cv else (b, bv)
        return (lambda g, f: a(g, f) if c(g, f) else b(g, f)), _NOTHING

    def _e_Aggregate(self, e):
        _, slot = self.m.refs[id(e)]
        coll = self.fn(e.collection)
        body = self.fn(e.body)
        op = e.op
        if op == "sum":
            def agg(g, f):
                total = 0
                for x in coll(g, f):
                    f[slot] = x
                    total += body(g, f)
                return total
        elif op == "count":
            def agg(g, f):
                n = 0
                for x in coll(g, f):
                    f[slot] = x
                    if body(g, f):
                        n += 1
                return n
        elif op == "all":
            def agg(g, f):
                for x in coll(g, f):
                    f[slot] = x
                    if not body(g, f):
                        return False
                return True
        elif op == "any":
            def agg(g, f):
                for x in coll(g, f):
                    f[slot] = x
                    if body(g, f):
                        return True
                return False
        else:
            def agg(g, f):
                out = []
                for x in coll(g, f):
                    f[slot] = x
                    if body(g, f):
                        out.append(x)
                return out
        return agg, _NOTHING

    # -------------------------------------------------------- statements
    def block(self, stmts) -> Fn:
        fns = [self.stmt(s) for s in stmts]
        fns = [f for f in fns if f is not None]
        if not fns:
            return lambda g, f: None
        if len(fns) == 1:
            return fns[0]
        if len(fns) == 2:
            s0, s1 = fns

            def two(g, f):
                s0(g, f)
                s1(g, f)
            return two
        fns_t = tuple(fns)

        def run(g, f):
            for s in fns_t:
                s(g, f)
        return run

    def stmt(self, s: ast.Stmt) -> Fn | None:
        return getattr(self, "_s_" + type(s).__name__)(s)

    def _s_Pay(self, s):
        amount = self.fn(s.amount)
        payer = self.payee(s.payer)
        payee = self.payee(s.payee)
        span = s.span
        return lambda g, f: g.transfer(amount(g, f), payer(g, f), payee(g, f), span)

    def _s_Set(self, s):
        kind, payload = self.m.refs[id(s)]
        value = self.fn(s.value)
        op = s.op
        if kind == "local":
            slot = payload
            if op == "=":
                def set_local(g, f):
                    f[slot] = value(g, f)
            elif op == "+=":
                def set_local(g, f):
                    f[slot] += value(g, f)
            else:
                def set_local(g, f):
                    f[slot] -= value(g, f)
            return set_local
        if kind == "game_var":
            i = self.game_var_index[payload]
            gv_column = lambda g: g.gv  # noqa: E731
            key = lambda g, f: i  # noqa: E731
            column = gv_column
        else:
            field, owner_ref = payload
            key = self._owner_fn(owner_ref)
            i = (self.player_var_index if kind == "player_var" else self.space_var_index)[field]
            column = (lambda g: g.pv[i]) if kind == "player_var" else (lambda g: g.sv[i])
        if op == "=":
            def set_var(g, f):
                column(g)[key(g, f)] = value(g, f)
        elif op == "+=":
            def set_var(g, f):
                column(g)[key(g, f)] += value(g, f)
        else:
            def set_var(g, f):
                column(g)[key(g, f)] -= value(g, f)
        return set_var

    def _owner_fn(self, ref: tuple[str, Any]) -> Fn:
        """Return a closure giving the player or space whose variable a `set` changes."""
        kind, payload = ref
        if kind == "local":
            return lambda g, f: f[payload]
        if kind == "space":
            return lambda g, f: payload
        if kind == "game_var":
            i = self.game_var_index[payload]
            return lambda g, f: g.gv[i]
        return _CONTEXT[payload]

    def _s_Let(self, s):
        _, slot = self.m.refs[id(s)]
        value = self.fn(s.value)

        def let(g, f):
            f[slot] = value(g, f)
        return let

    def _s_If(self, s):
        cond, cv = self.expr(s.condition)
        then = self.block(s.then)
        other = self.block(s.otherwise) if s.otherwise is not None else None
        if cv is not _NOTHING:
            if cv:
                return then
            return other
        if other is None:
            def if_(g, f):
                if cond(g, f):
                    then(g, f)
        else:
            def if_(g, f):
                if cond(g, f):
                    then(g, f)
                else:
                    other(g, f)
        return if_

    def _s_For(self, s):
        _, slot = self.m.refs[id(s)]
        coll = self.fn(s.collection)
        body = self.block(s.body)

        def for_(g, f):
            for x in list(coll(g, f)):
                f[slot] = x
                body(g, f)
        return for_

    def text(self, parts: list) -> Fn:
        """Compile a checked template (text and expressions) into a closure giving a string."""
        if all(isinstance(p, str) for p in parts):
            constant = "".join(parts)
            return lambda g, f: constant
        pieces = []
        for p in parts:
            if isinstance(p, str):
                pieces.append(lambda g, f, p=p: p)
            else:
                value, kind = self.fn(p), strip_optional(self.type_of(p))
                pieces.append(lambda g, f, value=value, kind=kind: show_value(g, value(g, f), kind))
        return lambda g, f: "".join(piece(g, f) for piece in pieces)

    def _s_Choose(self, s):
        chooser = self.fn(s.chooser) if s.chooser is not None else None
        prompt_text = self.text(self.m.templates.get(id(s), [s.prompt]))
        prompt = s.prompt
        compiled = []
        for o in s.options:
            slot = self.m.refs[id(o)][1] if o.binding is not None else None
            compiled.append((
                o.name,
                self.text(self.m.templates.get(id(o), [o.label or o.name])),
                slot,
                self.fn(o.binding[1]) if o.binding is not None else None,
                self.fn(o.guard) if o.guard is not None else None,
                self.fn(o.cost) if o.cost is not None else None,
                self.fn(o.value) if o.value is not None else None,
                self.block(o.body),
            ))
        repeat = s.repeat
        span = s.span

        def legal_options(g, f):
            legal = []
            for name, label, slot, binding, guard, cost, value, body in compiled:
                if binding is None:
                    if guard is None or guard(g, f):
                        legal.append((name, label, slot, None, cost, value, body))
                else:
                    for x in list(binding(g, f)):
                        f[slot] = x
                        if guard is None or guard(g, f):
                            legal.append((name, label, slot, x, cost, value, body))
            return legal

        def describe(g, f, item) -> Option:
            name, label, slot, x, cost, value, _ = item
            if slot is not None:
                f[slot] = x

                def lazy_label():
                    f[slot] = x
                    return label(g, f)
            else:
                def lazy_label():
                    return label(g, f)
            return Option(name, lazy_label, cost(g, f) if cost else 0, value(g, f) if value else 0)

        def choose(g, f):
            seat = chooser(g, f) if chooser is not None else g.actor
            legal = legal_options(g, f)
            if not legal:
                raise g.fail(f"no option of '{prompt}' is allowed here", span,
                             "add an option without a `when`, so there is always a way on")
            if len(legal) == 1:
                pick = legal[0]
            else:
                pick = legal[g.decide(seat, prompt_text(g, f), [describe(g, f, item) for item in legal])]
            if pick[2] is not None:
                f[pick[2]] = pick[3]
            pick[6](g, f)

        def offer(g, f):
            seat = chooser(g, f) if chooser is not None else g.actor
            for _ in range(MAX_OFFER_ROUNDS):
                legal = legal_options(g, f)
                if not legal:
                    return
                options = [describe(g, f, item) for item in legal] + [Option("done", "Done")]
                answer = g.decide(seat, prompt_text(g, f), options)
                if answer == len(legal):
                    return
                pick = legal[answer]
                if pick[2] is not None:
                    f[pick[2]] = pick[3]
                pick[6](g, f)
        return offer if repeat else choose

    def _s_Roll(self, s):
        return lambda g, f: g.roll()

    def _s_MoveSteps(self, s):
        steps = self.fn(s.steps)
        forward = s.direction == "forward"
        via = self.groups[s.via] if s.via is not None else None
        span = s.span
        return lambda g, f: g.move_steps(steps(g, f), forward, via, span)

    def _s_MoveTo(self, s):
        dest = self.fn(s.destination)
        return lambda g, f: g.move_to(dest(g, f))

    def _s_Send(self, s):
        who = self.fn(s.who)
        dest = self.fn(s.destination)
        span = s.span

        def send(g, f):
            seat = who(g, f)
            if seat is None:
                raise g.fail("nobody to send (a player that is none)", span)
            g.send(seat, dest(g, f))
        return send

    def _s_Draw(self, s):
        deck = s.deck
        return lambda g, f: g.draw(deck)

    def _s_Give(self, s):
        card = self.fn(s.card)
        who = self.fn(s.recipient)
        span = s.span

        def give(g, f):
            c, seat = card(g, f), who(g, f)
            if c is None or seat is None:
                raise g.fail("`give` needs a card and a player, one of them is none", span)
            g.set_holder(c, seat)
        return give

    def _s_Return(self, s):
        card = self.fn(s.card)
        deck = s.deck
        span = s.span

        def return_(g, f):
            c = card(g, f)
            if c is None:
                raise g.fail("`return` needs a card, this one is none", span)
            g.return_card(c, deck)
        return return_

    def _s_Shuffle(self, s):
        deck = s.deck
        return lambda g, f: g.shuffle(deck)

    def _s_Deal(self, s):
        count = self.fn(s.count)
        deck = s.deck
        return lambda g, f: g.deal(count(g, f), deck)

    def _s_Auction(self, s):
        space = self.fn(s.space)
        start = self.fn(s.start)
        step = self.fn(s.step) if s.step is not None else (lambda g, f: 1)
        first = self.fn(s.first) if s.first is not None else (lambda g, f: None)
        proceeds = self.fn(s.proceeds)
        span = s.span
        return lambda g, f: g.auction(space(g, f), start(g, f), max(1, step(g, f)), first(g, f), proceeds(g, f), span)

    def _s_Borrow(self, s):
        amount = self.fn(s.amount)
        interest = self.fn(s.interest)
        return lambda g, f: g.borrow(amount(g, f), interest(g, f))

    def _s_RepayLoans(self, s):
        return lambda g, f: g.repay_loans()

    def _s_EndTurn(self, s):
        def end_turn(g, f):
            raise EndTurn()
        return end_turn

    def _s_EndGame(self, s):
        def end_game(g, f):
            g.end_reason = f"ended by rule '{g.rule_name()}'"
            raise EndGame()
        return end_game

    def _s_Eliminate(self, s):
        who = self.fn(s.who)
        span = s.span

        def eliminate(g, f):
            seat = who(g, f)
            if seat is None:
                raise g.fail("nobody to eliminate (a player that is none)", span)
            g.eliminate(seat)
        return eliminate

    def _s_Switch(self, s):
        index = self.rule_index[s.rule]
        enable = s.enable

        def switch(g, f):
            if g.active[index] != enable:
                g.active[index] = enable
                g.log.append(("rule", g.turn, index, enable, g.rule))
        return switch

    # ---------------------------------------------------------- program
    def compile(self) -> Program:
        m, rs = self.m, self.rs
        header = m.header
        spaces = m.spaces
        # title deeds come first among the cards, one per titled space in board order
        card_names, card_texts, card_space, card_deck, effects = [], [], [], [], []
        self.title_card: list[int | None] = [None] * len(spaces)
        title_decks = [d for d in m.decks.values() if d.of_titles]

        def title_deck_of(space: int) -> str:
            for d in title_decks:
                if d.titles_in is None or space in m.groups[d.titles_in]:
                    return d.name
            return ""

        for i, s in enumerate(spaces):
            if m.kinds[s.kind].titled:
                self.title_card[i] = len(card_names)
                card_names.append(s.name)
                card_texts.append(s.label)
                card_space.append(i)
                card_deck.append(title_deck_of(i))
                effects.append((lambda g, f: None, 1))
        deck_cards: dict[str, list[int]] = {}
        for d in m.decks.values():
            if d.of_titles:
                deck_cards[d.name] = [c for c in self.title_card if c is not None and card_deck[c] == d.name]
                continue
            deck_cards[d.name] = []
            for c in d.cards:
                body = self.block(c.body)
                for _ in range(c.copies):
                    deck_cards[d.name].append(len(card_names))
                    card_names.append(c.name)
                    card_texts.append(c.text)
                    card_space.append(None)
                    card_deck.append(d.name)
                    effects.append((body, max(1, self.m.frames.get(id(c), 0))))
        handlers: dict[str, list] = {"setup": [], "turn": [], "shortfall": []}
        land: list[list] = [[] for _ in spaces]
        passing: list[list] = [[] for _ in spaces]
        for ri, rule in enumerate(m.rules):
            for h in rule.handlers:
                entry = (ri, self.block(h.body), max(1, self.m.frames.get(id(h), 0)))
                if h.event in handlers:
                    handlers[h.event].append(entry)
                    continue
                target = land if h.event == "land" else passing
                if h.selector is None:
                    members = range(len(spaces))
                elif h.selector in m.space_index:
                    members = [m.space_index[h.selector]]
                else:
                    members = m.groups[h.selector]
                for s in members:
                    target[s].append(entry)
        ends = [(self.framed(e.condition, e), e.provenance.source if e.provenance else f"line {e.span.line}")
                for e in m.ends]
        score = self.framed(m.score.formula, m.score) if m.score is not None else None
        return Program(
            title=header.title or header.name,
            name=header.name,
            players=header.players or (2, 8),
            turn_limit=header.turn_limit,
            dice_count=header.dice or 2,
            options=dict(self.options),
            rules_hash=rs.rules_hash,
            sources={mod.source_name: source_of(mod) for mod in rs.modules},
            account_names=[a.name for a in m.accounts],
            account_labels=[a.label or a.name for a in m.accounts],
            account_unlimited=[a.unlimited for a in m.accounts],
            space_names=[s.name for s in spaces],
            space_labels=[s.label for s in spaces],
            start_space=0,
            game_var_init=[self.constant(v.initial) for v in m.game_vars.values()],
            player_var_init=[self.constant(v.initial) for v in m.player_vars.values()],
            space_var_init=[[self.constant(v.initial)] * len(spaces) for v in m.space_vars.values()],
            card_names=card_names,
            card_texts=card_texts,
            card_space=card_space,
            card_deck=card_deck,
            title_card=self.title_card,
            card_effects=effects,
            deck_cards=deck_cards,
            deck_kept={d.name: d.kept for d in m.decks.values()},
            deck_enabled={d.name: (self.framed(d.enabled, d) if d.enabled is not None else (lambda g, f: True))
                          for d in m.decks.values()},
            rule_names=[r.name for r in m.rules],
            rule_off=[r.off for r in m.rules],
            rule_spans=[r.span for r in m.rules],
            setup_handlers=tuple(handlers["setup"]),
            turn_handlers=tuple(handlers["turn"]),
            shortfall_handlers=tuple(handlers["shortfall"]),
            land_handlers=[tuple(x) for x in land],
            pass_handlers=[tuple(x) for x in passing],
            end_conditions=ends,
            score=score,
        )


def show_value(g, value, kind: str) -> str:
    """Return a value as a person reads it: names for players, spaces, cards and accounts."""
    if value is None:
        return "nobody" if kind == PLAYER else "none"
    if kind == PLAYER:
        return g.names[value]
    if kind == SPACE:
        return g.prog.space_labels[value]
    if kind == CARD:
        return g.prog.card_texts[value]
    if kind == ACCOUNT:
        return g.prog.account_labels[-value - 1]
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def resolve_options(ruleset: RuleSet, chosen: dict[str, Any] | None) -> dict[str, Any]:
    """Return every option's value: the defaults overridden by `chosen` (validated)."""
    decls = ruleset.model.options
    values = {name: d.default for name, d in decls.items()}
    problems = []
    for name, value in (chosen or {}).items():
        if name not in decls:
            problems.append(Diagnostic(f"unknown option '{name}'", hint=did_you_mean(name, decls)
                                       or "options: " + ", ".join(decls)))
            continue
        d = decls[name]
        if isinstance(d.default, bool):
            if isinstance(value, str):
                if value.lower() not in ("true", "false", "yes", "no", "1", "0"):
                    problems.append(Diagnostic(f"option '{name}' is true or false, not {value!r}"))
                    continue
                value = value.lower() in ("true", "yes", "1")
        elif isinstance(d.default, int):
            try:
                value = int(value)
            except (TypeError, ValueError):
                problems.append(Diagnostic(f"option '{name}' is a number, not {value!r}"))
                continue
        elif d.choices is not None and value not in d.choices:
            problems.append(Diagnostic(f"option '{name}' must be one of {', '.join(d.choices)}, not {value!r}"))
            continue
        values[name] = value
    if problems:
        raise LandlordError(problems)
    return values


def compile_ruleset(ruleset: RuleSet, options: dict[str, Any] | None = None) -> Program:
    """Compile a checked RuleSet with the given option values into a Program."""
    return Compiler(ruleset, resolve_options(ruleset, options)).compile()
