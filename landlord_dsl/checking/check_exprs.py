"""Pass 2c (checking): the expression pass.

`ExpressionPass` infers the type of every expression, records it and what
each name refers to in the Model's side tables, and reports every misuse
(an unknown name, a field of something that may be none, mixed types). It is
a part of `checker.Checker`.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..core.dispatch import dispatch_table, handles
from ..core.errors import Diagnostic, did_you_mean
from ..core.types import (
    ACCOUNT,
    ANY,
    BOOL,
    BUILTIN_FIELDS,
    CARD,
    CONTEXT_NAMES,
    DECK,
    DICE,
    GROUP,
    INT,
    NONE,
    PLAYER,
    SHORTFALL_NAMES,
    SPACE,
    TEXT,
    choice_name,
    choice_of,
    comparable,
    compatible,
    describe,
    dice_set_name,
    dice_set_of,
    element_of,
    is_optional,
    list_of,
    optional,
    strip_optional,
    table_name,
    table_of,
)
from ..language import ast
from .builtins import BUILTINS
from .check_base import PassBase
from .model import MAX_NUMBER, Scope, param_type
from .narrowing import LANDED_ON, narrowing_path, narrowings


class ExpressionPass(PassBase):
    """The checker's methods that type expressions."""

    # --------------------------------------------------------- expressions
    @handles(ast.Name)
    def _name_type(self, e: ast.Name, scope: Scope, constant: bool = False, report: bool = True) -> str:
        m = self.m
        n = e.name
        local = scope.lookup(n)
        if local is not None:
            self.annotations.set_ref(e, ("local", local[1]))
            return local[0]
        if n in m.options:
            self.annotations.set_ref(e, ("option", n))
            o = m.options[n]
            if o.choice is not None or o.choices is not None:
                return choice_of(o.choice or n)
            return BOOL if isinstance(o.default, bool) else INT if isinstance(o.default, int) else TEXT
        if n in m.consts:
            self.annotations.set_ref(e, ("const", n))
            return self.annotations.type_of(m.consts[n])
        if n in m.space_index:
            self.annotations.set_ref(e, ("space", m.space_index[n]))
            return SPACE
        if n in m.groups:
            self.annotations.set_ref(e, ("group", n))
            return GROUP
        if any(a.name == n for a in m.accounts):
            self.annotations.set_ref(e, ("account", n))
            return ACCOUNT
        if n in m.decks:
            self.annotations.set_ref(e, ("deck", n))
            return DECK
        if n in m.tables:
            self.annotations.set_ref(e, ("table", n))
            return table_of(n)
        if n in m.dice_sets:
            self.annotations.set_ref(e, ("dice_set", n))
            return dice_set_of(n)
        if n in m.game_vars and not constant:
            self.annotations.set_ref(e, ("game_var", n))
            return self.annotations.type_of(m.game_vars[n])
        if n in CONTEXT_NAMES and not constant:
            self.annotations.set_ref(e, ("context", n))
            return CONTEXT_NAMES[n]
        if n in SHORTFALL_NAMES and scope.shortfall:
            self.annotations.set_ref(e, ("context", n))
            return SHORTFALL_NAMES[n]
        if n == "card" and scope.in_card:
            self.annotations.set_ref(e, ("context", n))
            return CARD
        if report:
            if constant and (n in CONTEXT_NAMES or n in m.game_vars):
                self.error(
                    f"'{n}' changes during a game and cannot be used here",
                    e.span,
                    "board fields, tables, constants and starting values must be fixed",
                )
            elif n in SHORTFALL_NAMES:
                self.error(f"'{n}' exists only inside `on shortfall`", e.span, None)
            elif n == "card":
                self.error("'card' exists only inside a card's effect", e.span, None)
            else:
                everything = (
                    list(m.options)
                    + list(m.consts)
                    + list(m.space_index)
                    + list(m.groups)
                    + [a.name for a in m.accounts]
                    + list(m.decks)
                    + list(m.tables)
                    + list(m.dice_sets)
                    + list(m.game_vars)
                    + list(CONTEXT_NAMES)
                    + scope.visible()
                )
                longer = sorted({w for w in everything if w.startswith(n + "_")})  # `turn` for `turn_number`
                hint = did_you_mean(n, everything) or (f"did you mean '{longer[0]}'?" if len(longer) == 1 else None)
                self.error(f"unknown name '{n}'", e.span, hint, code="unknown-name", subject=n)
        return ANY

    def expr(self, e: ast.Expr, scope: Scope, constant: bool = False) -> str:
        """Return the type of an expression (recorded for the compiler), not none where a test proved it so."""
        t = _EXPRESSIONS[type(e)](self, e, scope, constant)
        if is_optional(t) and narrowing_path(e) in scope.narrowed:
            t = strip_optional(t)
        self.annotations.set_type(e, t)
        return t

    def conform(self, want: str, e: ast.Expr, got: str) -> str:
        """Return the type `e` has where a value of type `want` is wanted.

        Where a choice's value is wanted, written texts (a text, or an `if`
        giving written texts) are the choice's values: each is checked to be
        one and recorded with the choice's type. Otherwise `got` is returned.
        """
        name = choice_name(strip_optional(want))
        if name is None or got != TEXT or not _writes_texts(e):
            return got
        values = self.m.choices.get(name)
        chosen = choice_of(name)
        for node in _written_texts(e):
            if isinstance(node, ast.TextLit) and values is not None and node.value not in values:
                self.error(
                    f"\"{node.value}\" is not one of the values of '{name}'",
                    node.span,
                    did_you_mean(node.value, values) or "its values: " + ", ".join(f'"{v}"' for v in values),
                )
            self.annotations.set_type(node, chosen)
        return chosen

    @handles(ast.IntLit)
    def _int_lit(self, e: ast.IntLit, scope: Scope, constant: bool) -> str:
        if abs(e.value) > MAX_NUMBER:
            self.error(
                "this number is too large", e.span, f"numbers may have at most {len(str(MAX_NUMBER)) - 1} digits"
            )
        return INT

    @handles(ast.TextLit)
    def _text_lit(self, e: ast.TextLit, scope: Scope, constant: bool) -> str:
        return TEXT

    @handles(ast.BoolLit)
    def _bool_lit(self, e: ast.BoolLit, scope: Scope, constant: bool) -> str:
        return BOOL

    @handles(ast.NoneLit)
    def _none_lit(self, e: ast.NoneLit, scope: Scope, constant: bool) -> str:
        return NONE

    @handles(ast.ListLit)
    def _list_lit(self, e: ast.ListLit, scope: Scope, constant: bool) -> str:
        items = {self.expr(i, scope, constant) for i in e.items} - {ANY}
        if len(items) > 1:
            self.error(
                "a list must hold one type of thing", e.span, "found " + ", ".join(describe(t) for t in sorted(items))
            )
        return list_of(next(iter(items)) if items else ANY)

    @handles(ast.Index)
    def _index(self, e: ast.Index, scope: Scope, constant: bool) -> str:
        m = self.m
        subject_t = self.expr(e.subject, scope, constant)
        key_t = self.expr(e.key, scope, constant)
        name = table_name(subject_t)
        if name is not None:
            want, value_t = m.table_types.get(name, (ANY, ANY))
            if not compatible(want, key_t):
                self.error(f"table '{name}' is looked up by {describe(want)}, not {describe(key_t)}", e.key.span, None)
            elif isinstance(e.key, ast.Name) and e.key.name == "player_count":
                self._player_count_keys(name, e.key)
            return value_t
        if subject_t == DICE or dice_set_name(subject_t) is not None:
            self._die_index(e, subject_t, key_t)
            return INT
        elem = element_of(subject_t)
        if elem is not None and subject_t != GROUP:
            if not compatible(INT, key_t):
                self.error("a list is indexed by a number", e.key.span, None)
            return elem
        if subject_t != ANY:
            self.error(f"cannot index {describe(subject_t)}", e.span, "only tables, lists and dice have [ ]")
        return ANY

    def _player_count_keys(self, name: str, key: ast.Name) -> None:
        """Warn of a table looked up by `player_count` that lacks an entry for a number of players the header
        allows (a game of that many players stops at the lookup: 'the table has no entry 4'); return nothing."""
        table, players = self.m.tables.get(name), self.m.header.players
        if table is None or players is None or key.name in self.names_seen:
            return
        keys = {k.value for k, _ in table.entries if isinstance(k, ast.IntLit)}
        if len(keys) < len(table.entries):  # a key worked out from a constant: left to the game
            return
        missing = [n for n in range(players[0], players[1] + 1) if n not in keys]
        if missing:
            shown = ", ".join(map(str, missing))
            # at the table where a variant declares it again (the lookup is then in a file its author did not
            # write), else at the lookup
            at, where = key.span, ""
            if table.span is not None and at is not None and table.span.file != at.file:
                at, where = table.span, f" ({Path(at.file).name}, line {at.line})"
            source = self.sources.get(at.file) if at is not None else None
            # a warning, not an error: a file that checked must still check, and games at the numbers of
            # players the table has go on as before (a game at one it lacks stops at the lookup)
            self.warnings.append(
                Diagnostic(
                    f"table '{name}' is looked up by the number of players{where}, and has no entry {shown}: a "
                    f"game of {shown} players stops there",
                    at,
                    source.line(at.line) if source is not None and at is not None else None,
                    f"the rules are for {players[0]} to {players[1]} players: give '{name}' an entry for each, "
                    "or change the header's `players`",
                    "warning",
                )
            )

    def _die_index(self, e: ast.Index, subject_t: str, key_t: str) -> None:
        """Report a die picked by something other than a number, or by a written number past the last die."""
        if not compatible(INT, key_t):
            self.error(f"a die is picked by its number, not {describe(key_t)}", e.key.span, None)
            return
        name = dice_set_name(subject_t)
        count = self.m.dice_sets[name].count if name is not None else self.m.header.dice or 2
        if isinstance(e.key, ast.IntLit) and e.key.value >= count:
            what = f"'{name}' throws" if name is not None else "the edition throws"
            self.error(
                f"there is no die [{e.key.value}]: {what} {count} {'die' if count == 1 else 'dice'}",
                e.key.span,
                "dice count from 0: "
                + ("[0] is the only die" if count == 1 else f"[0] is the first, [{count - 1}] the last"),
            )

    @handles(ast.Unary)
    def _unary(self, e: ast.Unary, scope: Scope, constant: bool) -> str:
        t = self.expr(e.operand, scope, constant)
        want = INT if e.op == "-" else BOOL
        if not compatible(want, t):
            self.error(f"`{e.op}` needs {describe(want)}, not {describe(t)}", e.operand.span, None)
        return want

    @handles(ast.Conditional)
    def _conditional(self, e: ast.Conditional, scope: Scope, constant: bool) -> str:
        ct = self.expr(e.condition, scope, constant)
        if not compatible(BOOL, ct):
            self.error(f"the condition must be true/false, not {describe(ct)}", e.condition.span, None)
        a = self.expr(e.then, scope.child(narrowings(e.condition, True)), constant)
        b = self.expr(e.otherwise, scope.child(narrowings(e.condition, False)), constant)
        a, b = self.conform(b, e.then, a), self.conform(a, e.otherwise, b)
        if a == NONE and b != NONE:
            return optional(b)
        if b == NONE and a != NONE:
            return optional(a)
        if not (compatible(a, b) or compatible(b, a)):
            self.error(f"both branches must give the same type ({describe(a)} vs {describe(b)})", e.span, None)
        if TEXT in (a, b):  # a choice's value and any text give a text
            return TEXT
        return a if a != ANY else b

    @handles(ast.Aggregate)
    def _aggregate(self, e: ast.Aggregate, scope: Scope, constant: bool) -> str:
        ct = self.expr(e.collection, scope, constant)
        elem = element_of(ct)
        if elem is None:
            self.error(f"cannot go through {describe(ct)}", e.collection.span, "use a list or a group")
            elem = ANY
        inner = scope.child()
        self.annotations.set_ref(e, ("local", self.define(inner, e.var, elem, e.span)))
        bt = self.expr(e.body, inner, constant)
        if e.op == "sum":
            if not compatible(INT, bt):
                self.error(f"`sum` adds numbers, not {describe(bt)}", e.body.span, None)
            return INT
        if e.op == "map":
            return list_of(bt)
        if not compatible(BOOL, bt):
            self.error(f"`{e.op}` needs a true/false test after ':'", e.body.span, None)
        return INT if e.op == "count" else list_of(elem) if e.op == "filter" else BOOL

    def _none_hint(self, e: ast.Field) -> str:
        """Return the hint for a field of something that may be none: the test to write, in the file's own words
        where the subject is written on one line."""
        span = e.subject.span
        source = self.sources.get(span.file)
        line = source.line(span.line) if source is not None and span.line == span.end_line else None
        subject = line[span.column - 1 : span.end_column - 1] if line else ""
        if not subject:
            return "test it first: `x != none and x.field`, or `if x != none { ... }` around statements"
        return (
            f"test it first: `{subject} != none and {subject}.{e.name}`, "
            f"or `if {subject} != none {{ ... }}` around statements"
        )

    @handles(ast.Field)
    def _field(self, e: ast.Field, scope: Scope, constant: bool) -> str:
        m = self.m
        subject_t = self.expr(e.subject, scope, constant)
        if subject_t == ANY:
            return ANY
        base = strip_optional(subject_t)
        fields = dict(BUILTIN_FIELDS.get(DICE if dice_set_name(base) is not None else base, {}))
        if base == PLAYER:
            fields.update({n: self.annotations.type_of(v) for n, v in m.player_vars.items()})
        elif base == SPACE:
            fields.update(m.space_fields)
            fields.update({n: self.annotations.type_of(v) for n, v in m.space_vars.items()})
        if e.name not in fields:
            if not fields:
                self.error(f"{describe(subject_t)} has no fields", e.span, None)
            else:
                self.error(
                    f"{describe(base)} has no field '{e.name}'",
                    e.span,
                    did_you_mean(e.name, fields) or "fields: " + ", ".join(sorted(fields)),
                )
            return ANY
        if base == CARD and e.name in ("name", "text") and not self.in_template:
            self.annotations.card_names_read = True
        if is_optional(subject_t):
            self.error(f"'{e.name}' of something that may be none", e.span, self._none_hint(e))
        elif (
            base == SPACE
            and e.name in m.space_fields
            and e.name not in m.space_vars
            and e.name not in BUILTIN_FIELDS.get(SPACE, {})
        ):  # a field of some kinds of space only
            self._landed_field(e, scope)
        return fields[e.name]

    def _landed_field(self, e: ast.Field, scope: Scope) -> None:
        """Report `here.FIELD` where `here` is still a space `on land SELECTOR` runs on and no kind of those
        spaces declares the field: the read fails in every game that reaches it."""
        m = self.m
        if not (isinstance(e.subject, ast.Name) and self.annotations.ref(e.subject) == ("context", "here")):
            return
        selector = next((p.removeprefix(LANDED_ON) for p in scope.narrowed if p.startswith(LANDED_ON)), None)
        if selector is None:
            return
        indices = ([m.space_index[selector]] if selector in m.space_index else []) + m.groups.get(selector, [])
        kinds = sorted({m.spaces[i].kind for i in indices if m.spaces[i].kind in m.kinds})
        declared = {f.name for k in kinds for f in m.kinds[k].fields}
        if not kinds or e.name in declared:
            return
        what = f"kind '{kinds[0]}'" if len(kinds) == 1 else "kinds " + ", ".join(f"'{k}'" for k in kinds)
        self.error(
            f"the spaces `on land {selector}` runs on have no field '{e.name}'",
            e.span,
            f"they are of {what}, whose fields are {', '.join(sorted(declared))}"
            if declared
            else f"they are of {what}, which declares no fields",
        )

    @handles(ast.Call)
    def _call(self, e: ast.Call, scope: Scope, constant: bool) -> str:
        m = self.m
        arg_types = [self.expr(a, scope, constant) for a in e.args]
        if e.function in m.functions:
            f = m.functions[e.function]
            params = tuple(param_type(p.type) for p in f.params)
            result = m.function_types.get(e.function, ANY)
            self.annotations.set_ref(e, ("function", e.function))
            if constant and e.function in self.game_functions:
                self.error(
                    f"'{e.function}' reads the game and cannot be used here",
                    e.span,
                    "board fields, tables, constants and starting values must be fixed",
                )
        elif e.function in BUILTINS:
            sig = BUILTINS[e.function]
            params, result = sig.params, sig.result
            self.annotations.set_ref(e, ("builtin", e.function))
            if constant and not sig.fixed:
                self.error(f"'{e.function}' depends on the game and cannot be used here", e.span, None)
        else:
            self.error(
                f"unknown function '{e.function}'",
                e.span,
                did_you_mean(e.function, list(BUILTINS) + list(m.functions)),
                code="unknown-function",
                subject=e.function,
            )
            return ANY
        if len(arg_types) != len(params):
            self.error(
                f"'{e.function}' takes {len(params)} argument{'s' if len(params) != 1 else ''}, not {len(arg_types)}",
                e.span,
                None,
            )
            return result
        for i, (want, got) in enumerate(zip(params, arg_types)):
            got = self.conform(want, e.args[i], got)
            if not compatible(want, got):
                self.error(
                    f"argument {i + 1} of '{e.function}' must be {describe(want)}, not {describe(got)}",
                    e.args[i].span,
                    self.mismatch_hint(want, got, e.args[i]),
                )
        return result

    @handles(ast.Binary)
    def _binary(self, e: ast.Binary, scope: Scope, constant: bool) -> str:
        a = self.expr(e.left, scope, constant)
        if e.op == "has":
            if not compatible(CARD, a):
                self.error(
                    f"`has` tests a card's tags, not {describe(a)}",
                    e.left.span,
                    "test a card that cannot be none, e.g. `c != none and c has ...`"
                    if strip_optional(a) == CARD
                    else None,
                )
            tags = {t for d in self.m.decks.values() for c in d.cards for t in c.tags}
            if e.right.name not in tags:  # type: ignore[union-attr]
                self.error(
                    f"no card is tagged '{e.right.name}'",  # type: ignore[union-attr]
                    e.right.span,
                    did_you_mean(e.right.name, tags) or "tag a card with `tagged NAME` after its text",  # type: ignore[union-attr]
                )
            return BOOL
        if e.op in ("and", "or"):
            b = self.expr(e.right, scope.child(narrowings(e.left, e.op == "and")), constant)
        else:
            b = self.expr(e.right, scope, constant)
        op = e.op
        if op in ("and", "or"):
            for t, side in ((a, e.left), (b, e.right)):
                if not compatible(BOOL, t):
                    self.error(f"`{op}` needs true/false, not {describe(t)}", side.span, None)
            return BOOL
        if op in ("+", "-", "*", "/", "%"):
            if op == "+" and a == TEXT and b == TEXT:
                return TEXT
            for t, side in ((a, e.left), (b, e.right)):
                if not compatible(INT, t):
                    self.error(f"`{op}` needs numbers, not {describe(t)}", side.span, None)
            return INT
        if op in ("<", "<=", ">", ">="):
            for t, side in ((a, e.left), (b, e.right)):
                if not compatible(INT, t):
                    self.error(f"`{op}` compares numbers, not {describe(t)}", side.span, None)
            return BOOL
        if op in ("==", "!=", "in", "not in") and _CARD_TYPE.search(f"{a} {b}"):
            self.annotations.cards_compared = True
        if op in ("==", "!="):
            a, b = self.conform(b, e.left, a), self.conform(a, e.right, b)
            if not comparable(a, b):
                chosen = choice_name(strip_optional(a)) or choice_name(strip_optional(b))
                hint = f"a '{chosen}' value is compared with another, or with a written value" if chosen else None
                self.error(f"cannot compare {describe(a)} with {describe(b)}", e.span, hint)
            return BOOL
        if op in ("in", "not in"):
            if isinstance(e.right, ast.ListLit) and b == list_of(TEXT) and choice_name(strip_optional(a)):
                b = list_of(strip_optional(a))
                for item in e.right.items:
                    self.conform(a, item, TEXT)
                self.annotations.set_type(e.right, b)
            elem = element_of(b)
            if elem is None:
                self.error(f"`{op}` needs a list or group on the right, not {describe(b)}", e.right.span, None)
            elif not comparable(elem, a):
                self.error(f"cannot look for {describe(a)} among {describe(b)}", e.span, None)
            return BOOL
        raise AssertionError(op)  # pragma: no cover


_EXPRESSIONS = dispatch_table(ExpressionPass, ast.Expr)
_CARD_TYPE = re.compile(rf"\b{CARD}\b")  # a type that is, may be, or holds a card ("card?", "list[card]")


def _writes_texts(e: ast.Expr) -> bool:
    """Return True if `e` is a written text, or an `if` whose every branch is one."""
    if isinstance(e, ast.Conditional):
        return _writes_texts(e.then) and _writes_texts(e.otherwise)
    return isinstance(e, ast.TextLit)


def _written_texts(e: ast.Expr) -> list[ast.Expr]:
    """Return the written texts of `e` (see `_writes_texts`) and the `if`s that give them."""
    if isinstance(e, ast.Conditional):
        return [e, *_written_texts(e.then), *_written_texts(e.otherwise)]
    return [e]
