"""Code generation for expressions: a checked .lg expression to Python expression text.

Each expression gives its code and, when the options fix it, its value,
so constants fold, short fixed aggregates unroll, small functions inline,
and reads that cannot fail are written without checks.
"""

from __future__ import annotations

import contextlib
import operator
import re
from typing import Any

import attrs

from . import ast
from .builtins import INLINE, owner_getter
from .codegen import _NOTHING, CodeGenerator
from .runtime import show_value
from .types import ACCOUNT, BOOL, CARD, DICE, INT, PLAYER, SPACE, strip_optional

_LOCAL = re.compile(r"v\d+")
_UNROLLED = ("sum", "count", "all", "any")
_UNROLL_LIMIT = 8
_INLINE_LIMIT = 400  # characters of generated code a function body may have to be written in place


def _has_aggregate(e: Any) -> bool:
    """Return True if an expression contains an aggregate (sum, count, all, any, filter, map)."""
    if isinstance(e, ast.Aggregate):
        return True
    if isinstance(e, tuple):
        return any(_has_aggregate(x) for x in e)
    if not attrs.has(type(e)):
        return False
    return any(_has_aggregate(getattr(e, f.name)) for f in attrs.fields(type(e)) if f.name != "span")


# generated code cheap and safe to evaluate twice: a local, a number, the acting player or his space
_CHEAP = re.compile(r"v\d+|-?\d+|g\.actor|g\.pos\[g\.actor\]")


# Ownership built-ins over a group whose spaces the compiler can fix, written in place:
# `{owners}` is the tuple of the group's owners (one C call), `{n}` its size (never 0),
# `{0}` the player. The built-ins themselves are the reference (tests/test_compiler.py).
_OWNERSHIP = {
    "count_owned": "{owners}.count({0})",
    "owns_all": "({owners}.count({0}) == {n})",
    "owners": "sorted(set({owners}) - {{None}})",
}


class ExpressionCompiler(CodeGenerator):
    """Translates expressions; the statement and program passes build on it."""

    # -------------------------------------------------------- expressions
    def expr(self, e: ast.Expr) -> tuple[str, Any]:
        """Return (Python expression text, constant value or _NOTHING)."""
        return getattr(self, "_e_" + type(e).__name__)(e)

    def code(self, e: ast.Expr) -> str:
        return self.expr(e)[0]

    def _const(self, value: Any) -> tuple[str, Any]:
        return self.literal(value), value

    def _e_IntLit(self, e):
        return self._const(e.value)

    _e_TextLit = _e_BoolLit = _e_IntLit

    def _e_NoneLit(self, e):
        return self._const(None)

    def _e_ListLit(self, e):
        parts = [self.expr(i) for i in e.items]
        if all(v is not _NOTHING for _, v in parts):
            return self._const(tuple(v for _, v in parts))
        # a list's items are kept: a loop or a local may hold them
        return "[" + ", ".join(self.kept(i, part) for i, part in zip(e.items, parts)) + "]", _NOTHING

    def _e_Name(self, e):
        kind, payload = self.m.refs[id(e)]
        if kind == "local":
            if payload in self.bound:
                return self.bound[payload]
            return f"v{payload}", _NOTHING
        if kind == "option":
            return self._const(self.options[payload])
        if kind == "const":
            if payload not in self.consts:
                with self.folding(("const", payload), e.span, f"constant '{payload}'"):
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
            return self.ref(self._table(payload, e.span), "_t"), self._table(payload)
        if kind == "game_var":
            return f"g.gv[{self.game_var_index[payload]}]", _NOTHING
        if kind == "context":
            return _CONTEXT[payload], _NOTHING
        raise AssertionError(kind)  # pragma: no cover

    def _e_Field(self, e):
        t = strip_optional(self.type_of(e.subject))
        sub, value = self.expr(e.subject)
        name = e.name
        if t == PLAYER:
            if name in self.player_var_index:
                return f"g.pv[{self.player_var_index[name]}][{sub}]", _NOTHING
            return {
                "cash": f"g.bal[g.nacc + {sub}]",
                "space": f"g.pos[{sub}]",
                "seat": f"({sub} + 1)",
                "name": f"g.names[{sub}]",
                "cards": f"list(g.hands[{sub}])",
                "titles": f"list(g.titles[{sub}])",
            }[name], _NOTHING
        if t == SPACE:
            if name in self.space_var_index:
                return f"g.sv[{self.space_var_index[name]}][{sub}]", _NOTHING
            if name in self.m.space_fields:
                column = self._column(name, e.span)
                if value is not _NOTHING and column[value] is not None:
                    return self._const(column[value])
                col = self.ref(column, "_col")
                domain = self.domains.get(sub) if self.optimize else None
                if all(column[i] is not None for i in (range(len(column)) if domain is None else domain)):
                    return f"{col}[{sub}]", _NOTHING
                checked = f"_field(g, {col}, {sub}, {name!r}, {self.span(e.span)})"
                if self.optimize and _CHEAP.fullmatch(sub):  # look twice rather than call: the common case has the field
                    return f"({col}[{sub}] if {col}[{sub}] is not None else {checked})", _NOTHING
                return checked, _NOTHING
            if name == "index":
                return sub, value
            if name == "title":
                return f"{self.ref(self.title_card, '_titles')}[{sub}]", _NOTHING
            return {
                "owner": f"g.owner[{sub}]",
                "name": f"g.prog.space_labels[{sub}]",
                "kind": f"g.prog.space_kinds[{sub}]",
            }[name], _NOTHING
        if t == CARD:
            return {
                "name": f"g.prog.card_names[{sub}]",
                "text": f"g.prog.card_texts[{sub}]",
                "space": f"g.prog.card_space[{sub}]",
                "holder": f"g.holder[{sub}]",
                "deck": f"g.prog.card_deck[{sub}]",  # a deck's value is its name
            }[name], _NOTHING
        if t == DICE:
            return {
                "total": "g.dice_total",
                "double": "g.dice_double",
                "first": "g.dice[0]",
                "second": "(g.dice[1] if len(g.dice) > 1 else 0)",
            }[name], _NOTHING
        if t == ACCOUNT:
            if name == "balance":
                return f"g.bal[-({sub}) - 1]", _NOTHING
            return f"g.prog.account_labels[-({sub}) - 1]", _NOTHING
        raise AssertionError((t, name))  # pragma: no cover

    def _e_Index(self, e):
        sub, sv = self.expr(e.subject)
        key, kv = self.expr(e.key)
        if sv is not _NOTHING and kv is not _NOTHING:
            try:
                return self._const(sv[kv])
            except (KeyError, IndexError, TypeError):
                pass
        return f"_lookup(g, {sub}, {key}, {self.span(e.span)})", _NOTHING

    def _e_Call(self, e):
        kind, name = self.m.refs[id(e)]
        parts = [self.expr(a) for a in e.args]
        args = [code for code, _ in parts]
        if kind == "builtin":
            if name in _OWNERSHIP and self.optimize:
                fixed = self._fixed_group_owners(e.args[-1], parts[-1][1])
                if fixed is not None:
                    return _OWNERSHIP[name].format(*args[:-1], owners=fixed[0], n=fixed[1]), _NOTHING
            if name in INLINE and self.optimize:
                return INLINE[name].format(*args), _NOTHING
            return f"_b_{name}(g{''.join(', ' + a for a in args)})", _NOTHING
        decl = self.m.functions[name]
        # a function whose value the options fix (say, a multiplier that is 1 unless
        # a faster game is chosen) is that value: arguments change nothing, so skip them,
        # provided none of them could fail (a missing field is a rule bug to report)
        if self.optimize and all(value is not _NOTHING or _CHEAP.fullmatch(code) for code, value in parts):
            value = self._value_without_arguments(decl)
            if value is not _NOTHING:
                return self._const(value)
        if self.optimize and self._inlinable(decl, args):
            outer, self.bound = self.bound, {i: (a, _NOTHING) for i, a in enumerate(args)}
            try:
                code, value = self.expr(decl.body)
            finally:
                self.bound = outer
            if len(code) <= _INLINE_LIMIT:
                return code, value
        return f"_f_{name}(g{''.join(', ' + a for a in args)})", _NOTHING

    def _value_without_arguments(self, decl: ast.FunctionDecl) -> Any:
        """Return the value of a function's body if the options alone fix it, else _NOTHING.

        The body's locals are its own: none of the caller's bindings (its
        arguments, an unrolled item) may stand for them.
        """
        outer, self.bound = self.bound, {}
        try:
            return self.expr(decl.body)[1]
        finally:
            self.bound = outer

    def _fixed_group_owners(self, group: ast.Expr, value: Any) -> tuple[str, str] | None:
        """Return code for (the owners of a group's spaces, the group's size), or None.

        Only where the group is fixed before the game: a constant group (its
        `value`, already worked out), or a group-valued field of a space
        variable every space of whose domain has the field, with members. Its
        owner getter is then made once, here.
        """
        if value is not _NOTHING:
            if not (isinstance(value, tuple) and value):
                return None
            if value not in self.owner_getters:
                self.owner_getters[value] = (self.ref(owner_getter(value), "_og"), str(len(value)))
            getter, size = self.owner_getters[value]
            return f"{getter}(g.owner)", size
        if not (isinstance(group, ast.Field) and group.name in self.m.space_fields
                and group.name not in self.space_var_index
                and strip_optional(self.type_of(group.subject)) == SPACE):
            return None
        sub = self.code(group.subject)
        column = self._column(group.name, group.span)
        domain = self.domains.get(sub)
        if not _CHEAP.fullmatch(sub) or not all(
                isinstance(column[i], tuple) and column[i] for i in (range(len(column)) if domain is None else domain)):
            return None
        if group.name not in self.owner_getters:
            getters = [owner_getter(t) if isinstance(t, tuple) else None for t in column]
            sizes = [len(t) if isinstance(t, tuple) else 0 for t in column]
            self.owner_getters[group.name] = (self.ref(getters, "_ogc"), self.ref(sizes, "_ogn"))
        getters, sizes = self.owner_getters[group.name]
        return f"{getters}[{sub}](g.owner)", f"{sizes}[{sub}]"

    def _inlinable(self, decl: ast.FunctionDecl, args: list[str]) -> bool:
        """Return True if a call may be replaced by the function's body, arguments substituted.

        Only for arguments cheap to evaluate more than once, and only for bodies
        without aggregates when there are arguments (an aggregate's loop name
        could hide the caller's name an argument is written with).
        """
        return all(_CHEAP.fullmatch(a) for a in args) and not (args and _has_aggregate(decl.body))

    def _e_Unary(self, e):
        x, v = self.expr(e.operand)
        if e.op == "-":
            return self._const(-v) if v is not _NOTHING else (f"(-{x})", _NOTHING)
        return self._const(not v) if v is not _NOTHING else (f"(not {x})", _NOTHING)

    def _e_Binary(self, e):
        op = e.op
        a, av = self.expr(e.left)
        if op == "has":
            return f"({a} in {self.ref(self.tagged[e.right.name], '_tagged')})", _NOTHING
        if op == "and":  # on the right of `s in lots and ...`, s is one of the lots
            with self.narrowed(self._membership(e.left)):
                b, bv = self.expr(e.right)
        else:
            b, bv = self.expr(e.right)
        # Expressions have no side effects, so a constant on either side folds.
        if op == "and":
            if av is not _NOTHING:
                return (b, bv) if av else self._const(False)
            if bv is not _NOTHING:
                return (a, av) if bv else self._const(False)
            return f"({a} and {b})", _NOTHING
        if op == "or":
            if av is not _NOTHING:
                return self._const(True) if av else (b, bv)
            if bv is not _NOTHING:
                return self._const(True) if bv else (a, av)
            return f"({a} or {b})", _NOTHING

        if op in ("in", "not in"):
            if isinstance(e.right, ast.Name) and self.m.refs[id(e.right)][0] == "group":
                b = self.ref(frozenset(self.groups[e.right.name]), "_set")
            return f"({a} {op} {b})", _NOTHING
        if op in ("/", "%"):
            if av is not _NOTHING and bv is not _NOTHING and bv != 0:
                return self._const(av // bv if op == "/" else av % bv)
            if bv is not _NOTHING and bv != 0:
                return f"({a} {'//' if op == '/' else '%'} {b})", _NOTHING
            return f"_divide(g, {a}, {b}, {self.span(e.span)}, {op == '%'})", _NOTHING
        if op in ("==", "!=") and (av is None or bv is None) and (av is _NOTHING or bv is _NOTHING):
            return f"({a} {'is' if op == '==' else 'is not'} {b})", _NOTHING  # comparing with none
        if av is not _NOTHING and bv is not _NOTHING:
            py = {"+": operator.add, "-": operator.sub, "*": operator.mul, "==": operator.eq, "!=": operator.ne,
                  "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}[op]
            return self._const(py(av, bv))
        return f"({a} {op} {b})", _NOTHING

    def _e_Conditional(self, e):
        c, cv = self.expr(e.condition)
        a, av = self.expr(e.then)
        b, bv = self.expr(e.otherwise)
        if cv is not _NOTHING:
            return (a, av) if cv else (b, bv)
        return f"({a} if {c} else {b})", _NOTHING

    def _e_Aggregate(self, e):
        _, slot = self.m.refs[id(e)]
        var = f"v{slot}"
        items = self.expr(e.collection)[1]
        if self.optimize and e.op in _UNROLLED and isinstance(items, tuple) and len(items) <= _UNROLL_LIMIT:
            return self._unrolled(e, slot, items)
        coll = self.counted(e.collection, self.iterable(e.collection), e.body, e.span)
        with self.narrowed([(var, self.domain_of(e.collection))], fresh=True):
            body = self.kept(e.body) if e.op == "map" else self.code(e.body)
        return {
            "sum": f"sum({body} for {var} in {coll})",
            "count": f"sum(1 for {var} in {coll} if {body})",
            "all": f"all({body} for {var} in {coll})",
            "any": f"any({body} for {var} in {coll})",
            "filter": f"[{var} for {var} in {coll} if {body}]",
            "map": f"[{body} for {var} in {coll}]",
        }[e.op], _NOTHING

    def _unrolled(self, e: ast.Aggregate, slot: int, items: tuple) -> tuple[str, Any]:
        """Return an aggregate over a short fixed collection written out item by item.

        `all(r in railroads: r.owner != none)` becomes one `and` of four
        tests with the spaces as constants, which also lets their fields fold.
        """
        parts = []
        outer = self.bound.get(slot)
        for item in items:
            self.bound[slot] = self._const(item)
            parts.append(self.expr(e.body))
        if outer is None:
            del self.bound[slot]
        else:
            self.bound[slot] = outer
        if e.op in ("all", "any"):
            decided = e.op == "any"  # the value one item can settle the whole at
            codes = []
            for code, value in parts:
                if value is _NOTHING:
                    codes.append(code)
                elif bool(value) == decided:
                    if not codes:
                        return self._const(decided)
                    codes.append(repr(decided))
                    break
            if not codes:
                return self._const(not decided)
            if self.type_of(e.body) != BOOL:  # `and`/`or` give an operand, `all`/`any` a bool
                codes = [f"bool({c})" for c in codes]
            return "(" + f" {'or' if decided else 'and'} ".join(codes) + ")", _NOTHING
        if all(value is not _NOTHING for _, value in parts):
            return self._const(sum(value if e.op == "sum" else 1 if value else 0 for _, value in parts))
        terms = [code if e.op == "sum" else f"(1 if {code} else 0)" for code, _ in parts]
        return "(0 + " + " + ".join(terms) + ")", _NOTHING

    def domain_of(self, e: ast.Expr) -> frozenset[int] | None:
        """Return the spaces a collection of spaces can hold (None if that is not known here)."""
        if self._holdings(e) == "titles":
            return self.titled
        value = self.expr(e)[1]
        if isinstance(value, tuple) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            return frozenset(value)
        return None

    def _membership(self, test: ast.Expr | None) -> list[tuple[str, frozenset[int] | None]]:
        """Return (variable code, spaces) for every `VARIABLE in COLLECTION` that `test` requires.

        `test` requires its own membership tests, and those of every operand
        of an `and` at its top.
        """
        if isinstance(test, ast.Binary) and test.op == "and":
            return self._membership(test.left) + self._membership(test.right)
        if isinstance(test, ast.Binary) and test.op == "in" and isinstance(test.left, ast.Name) \
                and strip_optional(self.type_of(test.left)) == SPACE:
            var = self.code(test.left)
            if _LOCAL.fullmatch(var):
                return [(var, self.domain_of(test.right))]
        return []

    @contextlib.contextmanager
    def narrowed(self, facts: list[tuple[str, frozenset[int] | None]], fresh: bool = False):
        """Within the block, generated code may rely on each local `var` holding one of its spaces.

        Used only where nothing can assign the variable (expressions and the
        guards and hints of options), so a fact about its value cannot go stale.
        `fresh`: the variables are bound here, anew (a loop's), so what was
        known of a variable of that name outside does not apply.
        """
        saved = dict(self.domains)
        for var, domain in facts:
            outer = None if fresh else self.domains.get(var)
            if domain is None:
                if fresh:
                    self.domains.pop(var, None)
            else:
                self.domains[var] = domain if outer is None else outer & domain
        try:
            yield
        finally:
            self.domains = saved

    def iterable(self, e: ast.Expr) -> str:
        """Return code for a collection that is only read while it is looped over.

        Expressions change nothing, so an aggregate or the options of a
        `choose` can loop over the engine's own lists of a player's titles
        and cards instead of the copies `player.titles` and `player.cards`
        give everywhere else.
        """
        holdings = self._holdings(e)
        if holdings is not None:
            return f"g.{holdings}[{self.code(e.subject)}]"
        return self.code(e)

    def text(self, parts: list) -> str:
        """Return Python code building a prompt or label from a checked template.

        A text whose holes the options fix is a single string literal.
        """
        pieces: list[str] = []
        literal = ""  # text known now: constant holes are shown once, here
        for p in parts:
            if not isinstance(p, str):
                code, value = self.expr(p)
                code = self.kept(p, (code, value))
                kind = strip_optional(self.type_of(p))
                if value is _NOTHING or kind in (PLAYER, SPACE, CARD, ACCOUNT) or not self.optimize:
                    if literal:
                        pieces.append(repr(literal))
                        literal = ""
                    if self.optimize and self.type_of(p) == INT:  # never none, never a bool: its digits
                        pieces.append(f"str({code})")
                    else:
                        pieces.append(f"_show(g, {code}, {kind!r})")
                    continue
                p = show_value(None, value, kind)
            literal += p
        if literal or not pieces:
            pieces.append(repr(literal))
        return " + ".join(pieces)


# Python code for the names whose value depends on the moment (types.CONTEXT_NAMES).
_CONTEXT: dict[str, str] = {
    "player": "g.actor",
    "players": "g.seats",
    "player_count": "g.n",
    "turn_number": "g.turn",
    "here": "g.pos[g.actor]",
    "origin": "g.origin",
    "dice": "g.dice",
    "spaces": "range(g.board_size)",
    "due": "g.due",
    "creditor": "g.creditor",
    "creditor_player": "(g.creditor if g.creditor is not None and g.creditor >= 0 else None)",
    "card": "g.card",
}

