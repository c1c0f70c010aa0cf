"""Pass 3: compile a checked Model, with chosen option values, into a Program.

The compiler generates Python source: one function per handler, card,
action, function, end condition and score, in which the .lg file's local
names are Python locals, expressions are inlined, and options, constants
and tables are folded to literals. The source is compiled once with
`compile`/`exec` into a private namespace holding only the engine's
helpers, so a running game does no lookups by name and no interpretation.
The generated source is kept on the Program (`python_source`) for reading;
what runs is its syntax tree after one last pass (read_game_lists_once),
with the same line numbers.

Nothing in a .lg file becomes code except through this translation of its
checked AST: names are the checker's resolved references, never user text.
"""

from __future__ import annotations

import ast as pyast
import contextlib
import operator
import re
import typing
from types import SimpleNamespace
from typing import Any, Callable

import attrs

from . import ast
from .builtins import IMPLEMENTATIONS, INLINE, owner_getter
from .checker import Model
from .engine import MAX_NESTING, MAX_OFFER_ROUNDS, EndGame, EndTurn
from .errors import Diagnostic, LandlordError, SourceText, did_you_mean
from .limits import MAX_INT, MAX_TEXT, MAX_WORK, SMALL_LOOP, describe_int_limit, shown
from .loader import RuleSet
from .parser import source_of
from .requests import ChoiceSite
from .types import ACCOUNT, BOOL, CARD, DICE, INT, PLAYER, SPACE, TEXT, strip_optional

_NOTHING = object()
_STATEMENTS = typing.get_args(ast.Stmt)
_LOCAL = re.compile(r"v\d+")
_UNROLLED = ("sum", "count", "all", "any")
_UNROLL_LIMIT = 8
_INLINE_LIMIT = 400  # characters of generated code a function body may have to be written in place


def _string_literal(code: str) -> str | None:
    """Return the string a piece of generated code is, if it is a single string literal."""
    try:
        value = pyast.literal_eval(code)
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, str) else None


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
_SIMPLE = (int, str, bool, type(None))

# Ownership built-ins over a group whose spaces the compiler can fix, written in place:
# `{owners}` is the tuple of the group's owners (one C call), `{n}` its size (never 0),
# `{0}` the player. The built-ins themselves are the reference (tests/test_compiler.py).
_OWNERSHIP = {
    "count_owned": "{owners}.count({0})",
    "owns_all": "({owners}.count({0}) == {n})",
    "owners": "sorted(set({owners}) - {{None}})",
}


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
    space_kinds: list[str]
    start_space: int
    game_var_init: list[Any]
    player_var_init: list[Any]
    space_var_init: list[list[Any]]
    card_names: list[str]
    card_texts: list[str]
    card_space: list[int | None]
    card_deck: list[str]
    title_card: list[int | None]
    card_effects: list[Callable]
    deck_cards: dict[str, list[int]]
    deck_kept: dict[str, bool]
    deck_enabled: dict[str, Callable]
    rule_names: list[str]
    rule_off: list[bool]
    rule_replaces: list[tuple[int, ...]]
    # (rule index, condition, body, repeat) for every `when` trigger, in declaration order
    triggers: list[tuple[int, Callable, Callable, bool]]
    rule_spans: list[ast.Span]
    # One generated function per event (and per space for land/pass) that runs,
    # in declaration order, the handlers of the rules in force; None if no rule
    # handles that event there.
    on_setup: Callable | None
    on_turn: Callable | None
    on_shortfall: Callable | None
    on_land: list[Callable | None]
    on_pass: list[Callable | None]
    end_conditions: list[tuple[Callable, str]]
    score: Callable | None
    python_source: str = ""
    # per card: True when it, or its deck, is tagged `reconstruction` (narration and `show` say so)
    card_reconstructed: list[bool] = attrs.field(factory=list)
    # per card: the space a `share of` card is a share of, else None (the built-ins `shares`, `shareholders`)
    card_share: list[int | None] = attrs.field(factory=list)
    # Each space field's value on every space (None where the space's kind lacks it),
    # folded for these options; group-valued fields hold their spaces' indices.
    space_fields: dict[str, list] = attrs.field(factory=dict)
    # (span of a statement or expression, notes naming the declarations from other files
    # whose values it uses): what a run-time error there adds (Game.fail)
    origins: list[tuple[ast.Span, tuple[Diagnostic, ...]]] = attrs.field(factory=list)
    # the declared types of the game, player and space variables (types.py strings), to check saved games
    var_types: tuple[tuple[str, ...], ...] = ((), (), ())
    # variable names by index, for reading state by name (Game.player_var and friends)
    game_var_names: list[str] = attrs.Factory(list)
    player_var_names: list[str] = attrs.Factory(list)
    space_var_names: list[str] = attrs.Factory(list)


# How `show` and the narration describe a card that is_reconstruction says is one.
RECONSTRUCTED_CARD = "reconstructed card, not the edition's own text"


def is_reconstruction(decl) -> bool:
    """Return True if a deck or card declaration is tagged `reconstruction`."""
    return decl.provenance is not None and decl.provenance.confidence == "reconstruction"


# ------------------------------------------------------ run-time helpers
# Called from generated code for the rare, checked cases; each raises a
# located RuleRuntimeError instead of letting a Python error escape.

def _present(g, value, span, what):
    if value is None:
        raise g.fail(f"{what} is none here", span, "guard it, e.g. `if x != none { ... }`")
    return value


def _field(g, column, space, name, span):
    value = column[space]
    if value is None:
        raise g.fail(f"space '{g.prog.space_names[space]}' has no field '{name}'", span,
                     "its kind does not declare it; guard the use by kind or group")
    return value


def _lookup(g, container, key, span):
    try:
        return container[key]
    except (KeyError, IndexError, TypeError):
        if isinstance(container, dict):
            raise g.fail(f"the table has no entry {shown(key)}", span,
                         "known keys: " + ", ".join(map(repr, container))) from None
        raise g.fail(f"index {shown(key)} is outside the list", span) from None


def _divide(g, a, b, span, modulo):
    if b == 0:
        raise g.fail("division by zero", span)
    return a % b if modulo else a // b


def _ledger(g, payee, span):
    if payee is None:
        raise g.fail("this payment has nobody to pay or be paid (an owner that is none?)", span)
    return g.nacc + payee if payee >= 0 else -payee - 1


def _switch(g, rule, enable):
    g.switch_rule(rule, enable)


def _end_game(g):
    g.end_reason = f"ended by rule '{g.rule_name()}'"
    raise EndGame()


def _show(g, value, kind):
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


def _too_deep(g):
    raise g.fail("rules trigger each other too deeply (an endless chain of moves or draws?)")


def _out_of_limits(value, what: str) -> tuple[str, str] | None:
    """Return (message, hint) if a number or text a rule keeps lies outside the limits, else None."""
    if value.__class__ is int:
        if -MAX_INT <= value <= MAX_INT:
            return None
        return (f"{what} is outside the numbers landlord-dsl keeps ({describe_int_limit()})",
                "a number that grows every time (say, squared each turn) soon leaves any range; bound it")
    if value.__class__ is str and len(value) > MAX_TEXT:
        return (f"{what} is a text of {len(value):,} characters, more than the {MAX_TEXT:,} a rule may build",
                "a text that grows every time (say, doubled each turn) soon leaves any range; bound it")
    return None


def _kept_int(g, value, span):
    """Return a number a rule keeps (stores, returns, shows), failing if it is outside the integer range."""
    if value is None or -MAX_INT <= value <= MAX_INT:
        return value
    message, hint = _out_of_limits(value, "this number")
    raise g.fail(message, span, hint)


def _kept_text(g, value, span):
    """Return a text a rule keeps, failing if it is longer than MAX_TEXT."""
    if value is None or len(value) <= MAX_TEXT:
        return value
    message, hint = _out_of_limits(value, "this text")
    raise g.fail(message, span, hint)


def _work(g, items, span):
    """Return a collection a loop or aggregate is about to go through, counting its items against the budget."""
    g.work += len(items)
    if g.work > MAX_WORK:
        raise g.fail(f"the rules went through more than {MAX_WORK:,} items (loops and aggregates) in one turn",
                     span, "nest fewer loops over large collections; the budget keeps every turn finite")
    return items


class _Fixed:
    """What compiled code sees as the game while values fixed before any game are worked out.

    Failures are located in the rule files, as check errors, and loops count
    against one work budget for all of the folding.
    """

    def __init__(self, sources: dict[str, SourceText], space_names: list[str]):
        self.sources = sources
        self.prog = SimpleNamespace(space_names=space_names)
        self.work = 0

    def fail(self, message: str, span=None, hint: str | None = None) -> LandlordError:
        """Return a LandlordError located at `span`."""
        source = self.sources.get(span.file) if span is not None else None
        return LandlordError([(source or SourceText("", "")).diagnostic(message, span, hint)])


_RUNTIME = {
    "_too_deep": _too_deep, "_kept_int": _kept_int, "_kept_text": _kept_text, "_work": _work,
    "_present": _present, "_field": _field, "_lookup": _lookup, "_divide": _divide, "_ledger": _ledger,
    "_switch": _switch, "_end_game": _end_game, "_show": _show,
    "_EndTurn": EndTurn, "_MAX_OFFER": MAX_OFFER_ROUNDS, "_MAX_NESTING": MAX_NESTING,
}


# The game's lists that nothing rebinds while a turn is played (only Game.restore
# does, between turns; everything else changes them in place), and the per-variable
# lists inside `sv`/`pv`: a generated function may read each once into a local.
_STABLE_LISTS = frozenset({"owner", "bal", "pos", "titles", "hands", "holder", "active", "gv"})
_STABLE_ROWS = frozenset({"sv", "pv"})


class _GameListReads(pyast.NodeTransformer):
    """Replace reads of the game's stable lists by locals bound once at the top of the function.

    Used on each top-level generated function `def f(g, ...)` read at least
    twice; nested functions that take a `g` of their own are left alone.
    """

    def __init__(self, function: pyast.FunctionDef):
        self.counts: dict[str, int] = {}
        self.reads: dict[str, pyast.expr] = {}
        self.counting = True
        for node in function.body:
            self.visit(node)
        self.alias = {key: f"_h_{key}" for key, count in self.counts.items() if count >= 2}
        self.counting = False

    @staticmethod
    def _key(node: pyast.AST) -> str | None:
        if isinstance(node, pyast.Attribute) and isinstance(node.value, pyast.Name) and node.value.id == "g" \
                and isinstance(node.ctx, pyast.Load) and node.attr in _STABLE_LISTS:
            return node.attr
        if isinstance(node, pyast.Subscript) and isinstance(node.ctx, pyast.Load) \
                and isinstance(node.value, pyast.Attribute) and isinstance(node.value.value, pyast.Name) \
                and node.value.value.id == "g" and node.value.attr in _STABLE_ROWS \
                and isinstance(node.slice, pyast.Constant) and isinstance(node.slice.value, int):
            return f"{node.value.attr}{node.slice.value}"
        return None

    def visit(self, node):
        if isinstance(node, (pyast.FunctionDef, pyast.Lambda)) and "g" in {a.arg for a in node.args.args}:
            return node  # another game's g, as far as this pass can tell
        key = self._key(node)
        if key is not None:
            if self.counting:
                self.counts[key] = self.counts.get(key, 0) + 1
                self.reads[key] = node
                return node
            if key in self.alias:
                return pyast.copy_location(pyast.Name(self.alias[key], pyast.Load()), node)
        return self.generic_visit(node)

    def rewrite(self, function: pyast.FunctionDef) -> None:
        if not self.alias:
            return
        function.body = [self.visit(node) for node in function.body]
        bind = [pyast.Assign([pyast.Name(name, pyast.Store())], self.reads[key]) for key, name in self.alias.items()]
        function.body[:0] = bind


def read_game_lists_once(source: str) -> pyast.Module:
    """Return the syntax tree of generated source whose functions read the game's stable lists into
    locals first. Its line numbers are the source's, so tracebacks and profiles point into it."""
    tree = pyast.parse(source)
    for function in tree.body:
        if isinstance(function, pyast.FunctionDef) and function.args.args and function.args.args[0].arg == "g":
            _GameListReads(function).rewrite(function)
    return pyast.fix_missing_locations(tree)


class _Code:
    """Lines of generated Python with indentation."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.depth = 0

    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)


class Compiler:
    def __init__(self, ruleset: RuleSet, options: dict[str, Any], optimize: bool = True):
        self.rs = ruleset
        self.m: Model = ruleset.model
        self.options = options
        # False: a plain translation, for tests that check the optimised code plays the same games
        self.optimize = optimize
        m = self.m
        self.account_index = {a.name: i for i, a in enumerate(m.accounts)}
        self.game_var_index = {n: i for i, n in enumerate(m.game_vars)}
        self.player_var_index = {n: i for i, n in enumerate(m.player_vars)}
        self.space_var_index = {n: i for i, n in enumerate(m.space_vars)}
        self.rule_index = {r.name: i for i, r in enumerate(m.rules)}
        self.groups = {name: tuple(members) for name, members in m.groups.items()}
        self.tagged = self._tagged_cards()
        self.consts: dict[str, Any] = {}
        self.tables: dict[str, dict] = {}
        self.columns: dict[str, list] = {}
        self.owner_getters: dict[Any, tuple[str, str]] = {}  # by group, or by group-valued field name
        self.ns: dict[str, Any] = dict(_RUNTIME)
        self.ns.update({f"_b_{name}": impl for name, impl in IMPLEMENTATIONS.items()})
        self.names_by_id: dict[int, str] = {}
        # what generated code may assume of a local space variable: the spaces it can hold
        self.domains: dict[str, frozenset[int]] = {}
        # locals replaced by (code, value): an unrolled aggregate's item, an inlined function's arguments
        self.bound: dict[int, tuple[str, Any]] = {}
        self.counter = 0
        self.source: list[str] = []
        self.sources = {mod.source_name: source_of(mod) for mod in ruleset.modules}
        self.fixed = _Fixed(self.sources, [s.name for s in m.spaces])
        self.origins: list[tuple[ast.Span, tuple[Diagnostic, ...]]] = []
        self.in_progress: set[tuple[str, str]] = set()  # fixed values being worked out (Compiler.folding)
        self.growing: dict[str, bool] = {}
        self.light_functions: dict[str, bool] = {}  # by function: whether its body is light (Compiler.light)  # by function: whether its body may give a number beyond its inputs'

    # ---------------------------------------------------------- namespace
    def _unique(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def ref(self, value: Any, prefix: str = "_k") -> str:
        """Return a name in the generated namespace bound to `value` (one per object)."""
        key = id(value)
        if key not in self.names_by_id:
            name = self._unique(prefix)
            self.ns[name] = value
            self.names_by_id[key] = name
        return self.names_by_id[key]

    def literal(self, value: Any) -> str:
        if value.__class__ is int and not -MAX_INT <= value <= MAX_INT:
            return self.ref(value)  # a folded step beyond the range (repr may refuse it); kept values are checked
        if isinstance(value, _SIMPLE):
            return repr(value)
        if isinstance(value, tuple) and all(isinstance(v, _SIMPLE) for v in value):
            return repr(value)
        return self.ref(value)

    def span(self, span: ast.Span) -> str:
        return self.ref(span, "_sp")

    def type_of(self, e: ast.Expr) -> str:
        return self.m.types.get(id(e), "any")

    def constant(self, e: ast.Expr) -> Any:
        """Return the value of an expression the checker proved fixed (it needs no game).

        A failure (a division by zero, a missing table key, a number beyond the
        limits...) raises a LandlordError located in the rule file.
        """
        code, value = self.expr(e)
        if value is _NOTHING:
            # `g` a global, so that the loops of generator expressions see it too
            value = eval(compile(code, "<constant>", "eval"), dict(self.ns, g=self.fixed))  # noqa: S307 - our own code
        self.check_kept(value, e.span)
        return value

    def check_kept(self, value: Any, span: ast.Span) -> None:
        """Raise a located LandlordError if a value fixed before the game is outside the limits."""
        problem = _out_of_limits(value, "this value")
        if problem is not None:
            raise self.fixed.fail(problem[0], span, "what is worked out before the game must lie within the limits "
                                  "too (see 'Limits' in the language reference)")

    def may_grow(self, e: Any) -> bool:
        """Return True if an expression may give a number or text beyond the values it reads.

        Values read (literals, variables, fields, table entries) are within the
        limits already; only arithmetic, `+` of texts, `sum` and `percent` can
        leave them, directly or in the body of a function called.
        """
        if isinstance(e, tuple):
            return any(self.may_grow(x) for x in e)
        if not attrs.has(type(e)) or isinstance(e, ast.Span):
            return False
        if isinstance(e, ast.Binary) and e.op in ("+", "-", "*") or isinstance(e, ast.Aggregate) and e.op == "sum":
            return True
        if isinstance(e, ast.Call):
            kind, name = self.m.refs[id(e)]
            if kind == "builtin" and name == "percent":
                return True
            if kind == "function":
                if name not in self.growing:
                    self.growing[name] = self.may_grow(self.m.functions[name].body)
                if self.growing[name]:
                    return True
        return any(self.may_grow(getattr(e, f.name)) for f in attrs.fields(type(e)) if f.name != "span")

    def counted(self, collection: ast.Expr, code: str, inner: Any, span: ast.Span) -> str:
        """Return code for a collection a loop goes through: counted against the work budget unless the loop
        is small (at most SMALL_LOOP items) and `inner` (its body, or guard, cost and value) runs no loop."""
        if self.optimize and self.light(inner):
            bound = self.static_bound(collection)
            if bound is not None and bound <= SMALL_LOOP:
                return code
        return f"_work(g, {code}, {self.span(span)})"

    def light(self, node: Any) -> bool:
        """Return True if running `node` (expressions, or `let`/`set`/`if` statements) can start no loop:
        no aggregate, no call of a function that has one, no other statement."""
        if isinstance(node, tuple):
            return all(self.light(x) for x in node)
        if node is None or not attrs.has(type(node)) or isinstance(node, ast.Span):
            return True
        if isinstance(node, ast.Aggregate):
            return False
        if isinstance(node, ast.Call) and self.m.refs[id(node)][0] == "function":
            name = node.function
            if name not in self.light_functions:
                self.light_functions[name] = self.light(self.m.functions[name].body)
            if not self.light_functions[name]:
                return False
        if isinstance(node, _STATEMENTS) and not isinstance(node, (ast.Let, ast.Set, ast.If)):
            return False
        return all(self.light(getattr(node, f.name)) for f in attrs.fields(type(node)) if f.name != "span")

    def static_bound(self, e: ast.Expr) -> int | None:
        """Return the most items a collection can hold in any game of this program, or None if not known."""
        value = self.expr(e)[1]
        if isinstance(value, (tuple, list)):
            return len(value)
        if isinstance(e, ast.Name) and self.m.refs[id(e)] == ("context", "players"):
            return (self.m.header.players or (2, 8))[1]
        if isinstance(e, ast.Name) and self.m.refs[id(e)] == ("context", "spaces"):
            return len(self.m.spaces)
        if self._holdings(e) == "titles":
            return len(self.titled)
        if self._holdings(e) == "hands":  # title deeds and the decks' cards
            return len(self.titled) + sum(c.copies for d in self.m.decks.values() for c in d.cards)
        if isinstance(e, ast.Field) and e.name in self.m.space_fields and e.name not in self.space_var_index \
                and strip_optional(self.type_of(e.subject)) == SPACE:
            groups = [v for v in self._column(e.name) if v is not None]  # a space without the field fails anyway
            if all(isinstance(v, tuple) for v in groups):
                return max(map(len, groups), default=0)
        if isinstance(e, ast.Aggregate) and e.op in ("filter", "map"):
            return self.static_bound(e.collection)
        return None

    def kept(self, e: ast.Expr, compiled: tuple[str, Any] | None = None) -> str:
        """Return code for a value a rule keeps (stores, returns, pays, shows): checked to lie within the limits.

        A fixed value is checked now; otherwise only one that may have grown
        beyond the values it was made from is checked as the game runs.
        `compiled`: what self.expr(e) gave, if already called.
        """
        code, value = compiled or self.expr(e)
        if value is not _NOTHING:
            self.check_kept(value, e.span)
            return code
        t = strip_optional(self.type_of(e))
        if t not in (INT, TEXT) or not self.may_grow(e):
            return code
        if t == INT and self.type_of(e) == INT and self.optimize:  # never none: compare in place, call only to fail
            kept = self._unique("_n")
            return (f"({kept} if -{MAX_INT} <= ({kept} := {code}) <= {MAX_INT} "
                    f"else _kept_int(g, {kept}, {self.span(e.span)}))")
        return f"{'_kept_int' if t == INT else '_kept_text'}(g, {code}, {self.span(e.span)})"

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

    @contextlib.contextmanager
    def folding(self, key: tuple[str, str], span: ast.Span | None, what: str):
        """Within the block, the fixed value `key` is being worked out: a use of it is a cycle, reported at `span`."""
        if key in self.in_progress:
            raise self.fixed.fail(f"{what} is worked out from itself", span,
                                  "a constant, table or board field cannot be defined in terms of itself")
        self.in_progress.add(key)
        try:
            yield
        finally:
            self.in_progress.discard(key)

    def _table(self, name: str, span: ast.Span | None = None) -> dict:
        if name not in self.tables:
            decl = self.m.tables[name]
            with self.folding(("table", name), span, f"table '{name}'"):
                self.tables[name] = {self.constant(k): self.constant(v) for k, v in decl.entries}
        return self.tables[name]

    def _column(self, name: str, span: ast.Span | None = None) -> list:
        if name not in self.columns:
            column: list = [None] * len(self.m.spaces)
            with self.folding(("field", name), span, f"field '{name}'"):
                for i, s in enumerate(self.m.spaces):
                    for field_name, value in s.fields:
                        if field_name == name:
                            column[i] = self.constant(value)
            self.columns[name] = column
        return self.columns[name]

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
                "share_of": f"g.prog.card_share[{sub}]",
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

    def _holdings(self, e: ast.Expr) -> str | None:
        """Return the engine's list a player's `titles` or `cards` read (`titles`/`hands`), or None."""
        if isinstance(e, ast.Field) and e.name in ("titles", "cards") \
                and strip_optional(self.type_of(e.subject)) == PLAYER:
            return "titles" if e.name == "titles" else "hands"
        return None

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
                p = _show(None, value, kind)
            literal += p
        if literal or not pieces:
            pieces.append(repr(literal))
        return " + ".join(pieces)

    # --------------------------------------------------------- statements
    def block(self, out: _Code, stmts) -> None:
        before = len(out.lines)
        for s in stmts:
            self.note_origins(s)
            getattr(self, "_s_" + type(s).__name__)(out, s)
        if len(out.lines) == before:
            out.line("pass")

    def note_origins(self, node: Any) -> None:
        """Record the declarations of other files (a variant's, say) whose values `node` uses, if any."""
        if len(self.sources) < 2:
            return
        file, m = node.span.file, self.m
        found: dict[ast.Span, str] = {}
        by_ref = {"const": (m.consts, "constant"), "option": (m.options, "option"), "table": (m.tables, "table"),
                  "game_var": (m.game_vars, "variable"), "function": (m.functions, "function")}
        stack = [node]
        while stack:
            n = stack.pop()
            if isinstance(n, tuple):
                stack.extend(n)
                continue
            if not attrs.has(type(n)) or isinstance(n, ast.Span):
                continue
            kind, payload = m.refs.get(id(n), (None, None))
            if kind in by_ref and isinstance(payload, str) and payload in by_ref[kind][0]:
                found[by_ref[kind][0][payload].span] = f"{by_ref[kind][1]} '{payload}'"
            elif kind == "space":
                found[m.spaces[payload].span] = f"space '{m.spaces[payload].name}'"
            if isinstance(n, ast.Field):
                for table, what in ((m.player_vars, "player variable"), (m.space_vars, "space variable")):
                    if n.name in table:
                        found[table[n.name].span] = f"{what} '{n.name}'"
                if n.name in m.space_fields:
                    setters = [sp for sp in m.spaces if sp.span.file != file and any(f == n.name for f, _ in sp.fields)]
                    for sp in setters[:3]:
                        found[sp.span] = f"field '{n.name}' of space '{sp.name}'"
            elif isinstance(n, ast.Do) and n.action in m.actions:
                found[m.actions[n.action].span] = f"action '{n.action}'"
            stack.extend(getattr(n, f.name) for f in attrs.fields(type(n)) if f.name != "span")
        notes = tuple(attrs.evolve(self.sources[span.file].diagnostic(f"{what}, used there, is declared here", span),
                                   severity="note")
                      for span, what in found.items() if span.file != file and span.file in self.sources)
        if notes:
            self.origins.append((node.span, notes))

    def ledger(self, e: ast.Expr) -> str:
        """Return code for the ledger index of a payer or payee."""
        t = self.type_of(e)
        code, value = self.expr(e)
        if strip_optional(t) == ACCOUNT and value is not _NOTHING:
            return repr(-value - 1)
        if t == PLAYER:
            return f"g.nacc + {code}"
        return f"_ledger(g, {code}, {self.span(e.span)})"

    def present(self, e: ast.Expr, what: str) -> str:
        code = self.code(e)
        if self.type_of(e).endswith("?") or self.type_of(e) == "any":
            return f"_present(g, {code}, {self.span(e.span)}, {what!r})"
        return code

    def _s_Pay(self, out, s):
        out.line(f"g.transfer({self.code(s.amount)}, {self.ledger(s.payer)}, {self.ledger(s.payee)}, "
                 f"{self.span(s.span)})")

    def _s_Set(self, out, s):
        kind, payload = self.m.refs[id(s)]
        value = self.kept(s.value)
        op = s.op
        if kind == "local":
            target = f"v{payload}"
        elif kind == "game_var":
            target = f"g.gv[{self.game_var_index[payload]}]"
        else:
            field, (owner_kind, owner) = payload
            owner_code = {"local": lambda: f"v{owner}", "space": lambda: repr(owner),
                          "game_var": lambda: f"g.gv[{self.game_var_index.get(owner, 0)}]",
                          "context": lambda: _CONTEXT[owner]}[owner_kind]()
            index = (self.player_var_index if kind == "player_var" else self.space_var_index)[field]
            target = f"g.{'pv' if kind == 'player_var' else 'sv'}[{index}][{owner_code}]"
        if op == "=":
            out.line(f"{target} = {value}")
        else:  # adding again and again may leave the range even when what is added does not grow
            # worked out before it is stored: a value out of range is never kept, and the target is read once
            out.line(f"_sum = {target} {op[0]} ({value})")
            out.line(f"if not -{MAX_INT} <= _sum <= {MAX_INT}:")
            out.line(f"    _kept_int(g, _sum, {self.span(s.span)})")
            out.line(f"{target} = _sum")

    def _s_Let(self, out, s):
        out.line(f"v{self.m.refs[id(s)][1]} = {self.kept(s.value)}")

    def _s_If(self, out, s):
        cond, cv = self.expr(s.condition)
        if cv is not _NOTHING:
            chosen = s.then if cv else s.otherwise
            if chosen:
                self.block(out, chosen)
            return
        out.line(f"if {cond}:")
        out.depth += 1
        self.block(out, s.then)
        out.depth -= 1
        if s.otherwise:
            out.line("else:")
            out.depth += 1
            self.block(out, s.otherwise)
            out.depth -= 1

    def _s_For(self, out, s):
        slot = self.m.refs[id(s)][1]
        out.line(f"for v{slot} in {self.counted(s.collection, f'list({self.code(s.collection)})', s.body, s.span)}:")
        out.depth += 1
        self.block(out, s.body)
        out.depth -= 1

    def _s_Choose(self, out, s):
        n = self._unique("")
        legal, pick, chosen = f"_legal{n}", f"_pick{n}", f"_k{n}"
        seat = self.code(s.chooser) if s.chooser is not None else "g.actor"
        prompt = self.text(self.m.templates.get(id(s), [s.prompt]))
        names = [o.name for o in s.options]
        labels: list[str | None] = []
        dynamic = []  # (option number, label code, option) for labels that depend on the game
        for k, o in enumerate(s.options):
            code = self.text(self.m.templates.get(id(o), [o.label or o.name]))
            fixed = _string_literal(code)
            labels.append(fixed)
            if fixed is None:
                dynamic.append((k, code, o))
        done = len(s.options)  # an offer's "done" is the option after the rule's own
        if s.repeat:
            names.append("done")
            labels.append("Done")
        site = self.ref(ChoiceSite(tuple(names), tuple(labels), s.prompt, s.span), "_site")
        if s.repeat:
            out.line(f"for _round{n} in range(_MAX_OFFER):")
            out.depth += 1
        self._legal(out, s, legal)
        if s.repeat:
            out.line(f"if not {legal}:")
            out.line("    break")
            if s.done_when is None:
                out.line(f"{legal}.append(({done}, None, 0, 0))")
            else:
                out.line(f"if {self.code(s.done_when)}:")
                out.line(f"    {legal}.append(({done}, None, 0, 0))")
        describe = "None"
        if dynamic:
            # the labels people read, computed only if somebody reads them
            describe = f"_describe{n}"
            out.line(f"def {describe}(k, x):")
            out.depth += 1
            for k, code, o in dynamic:
                out.line(f"if k == {k}:")
                out.depth += 1
                if o.binding is not None:
                    out.line(f"v{self.m.refs[id(o)][1]} = x")
                out.line(f"return {code}")
                out.depth -= 1
            out.depth -= 1
        ask = f"g.choose({seat}, {prompt}, {legal}, {site}, {describe})"
        if s.repeat:
            out.line(f"{pick} = {ask}")
        else:  # one legal option is taken without asking (Game.choose does the same)
            out.line(f"{pick} = {legal}[0] if len({legal}) == 1 else {ask}")
        out.line(f"{chosen} = {pick}[0]")
        if s.repeat:
            out.line(f"if {chosen} == {done}:")
            out.line("    break")
        for k, o in enumerate(s.options):
            out.line(f"{'if' if k == 0 else 'elif'} {chosen} == {k}:")
            out.depth += 1
            if o.binding is not None:
                out.line(f"v{self.m.refs[id(o)][1]} = {pick}[1]")
            self.block(out, o.body)
            out.depth -= 1
        if s.repeat:
            out.depth -= 1
            out.line("else:")  # the loop ran out of rounds: say so in the log
            out.line(f"    g.offer_closed({site})")

    def _legal(self, out: _Code, s: ast.Choose, legal: str) -> None:
        """Generate code collecting the legal entries (option number, bound value, cost, value)."""
        out.line(f"{legal} = []")
        for k, o in enumerate(s.options):
            var = f"v{self.m.refs[id(o)][1]}" if o.binding is not None else "None"
            domain = self.domain_of(o.binding[1]) if o.binding is not None else None
            with self.narrowed([(var, domain)], fresh=True):
                guard = self.code(o.guard) if o.guard is not None else None
                with self.narrowed(self._membership(o.guard)):
                    cost = self.code(o.cost) if o.cost is not None else "0"
                    value = self.code(o.value) if o.value is not None else "0"
            append = f"{legal}.append(({k}, {var}, {cost}, {value}))"
            if o.binding is not None:
                coll = self.iterable(o.binding[1])
                out.line(f"for {var} in {self.counted(o.binding[1], coll, (o.guard, o.cost, o.value), o.span)}:")
                out.depth += 1
            if guard is not None:
                out.line(f"if {guard}:")
                out.line(f"    {append}")
            else:
                out.line(append)
            if o.binding is not None:
                out.depth -= 1

    def _s_Roll(self, out, s):
        out.line("g.roll()" if s.thrower is None else f"g.roll({self.present(s.thrower, 'the thrower')})")

    def _s_GiveTurn(self, out, s):
        out.line(f"g.give_turn({self.present(s.player, 'the player to play next')}, {self.span(s.span)})")

    def _s_MoveSteps(self, out, s):
        if s.stop_at is not None:
            stops = self.groups[s.stop_at] if s.stop_at in self.groups else (self.m.space_index[s.stop_at],)
            out.line(f"g.move_steps({self.code(s.steps)}, {s.direction == 'forward'}, None, {self.span(s.span)}, "
                     f"{self.literal(tuple(stops))})")
            return
        if s.via is None and s.direction == "forward":
            out.line(f"g.advance({self.code(s.steps)}, {self.span(s.span)})")
            return
        via = self.literal(self.groups[s.via]) if s.via is not None else "None"
        out.line(f"g.move_steps({self.code(s.steps)}, {s.direction == 'forward'}, {via}, {self.span(s.span)})")

    def _s_MoveTo(self, out, s):
        out.line(f"g.move_to({self.present(s.destination, 'the destination')})")

    def _s_Send(self, out, s):
        out.line(f"g.send({self.present(s.who, 'the player to send')}, "
                 f"{self.present(s.destination, 'the destination')})")

    def _s_Draw(self, out, s):
        out.line(f"g.draw({s.deck!r})")

    def _s_Give(self, out, s):
        out.line(f"g.set_holder({self.present(s.card, 'the card to give')}, "
                 f"{self.present(s.recipient, 'the player to receive it')})")

    def _s_Return(self, out, s):
        out.line(f"g.return_card({self.present(s.card, 'the card to return')}, {s.deck!r})")

    def _s_Shuffle(self, out, s):
        out.line(f"g.shuffle({s.deck!r})")

    def _s_Deal(self, out, s):
        out.line(f"g.deal({self.code(s.count)}, {s.deck!r})")

    def _s_Auction(self, out, s):
        step = "1"
        if s.step is not None:
            code, value = self.expr(s.step)
            step = repr(max(1, value)) if value is not _NOTHING else f"max(1, {code})"
        first = self.code(s.first) if s.first is not None else "None"
        value = self.code(s.value) if s.value is not None else "None"
        space = f"_space{self._unique('')}"
        out.line(f"{space} = {self.code(s.space)}")
        # an owned title is not for sale: skip the call (and its price) at once
        out.line(f"if g.owner[{space}] is None:")
        out.line(f"    g.auction({space}, {self.code(s.start)}, {step}, {first}, "
                 f"{self.code(s.proceeds)}, {self.span(s.span)}, {value})")

    def _s_Borrow(self, out, s):
        out.line(f"g.borrow({self.code(s.amount)}, {self.code(s.interest)})")

    def _s_RepayLoans(self, out, s):
        out.line("g.repay_loans()" if s.interest else "g.repay_loans(interest=False)")

    def _s_EndTurn(self, out, s):
        out.line("raise _EndTurn()")

    def _s_EndGame(self, out, s):
        out.line("_end_game(g)")

    def _s_Switch(self, out, s):
        out.line(f"_switch(g, {self.rule_index[s.rule]}, {s.enable})")

    def _s_Eliminate(self, out, s):
        out.line(f"g.eliminate({self.present(s.who, 'the player to eliminate')})")

    def _s_Do(self, out, s):
        out.line(f"_a_{s.action}(g{''.join(', ' + self.kept(a) for a in s.args)})")

    # ------------------------------------------------------------ program
    def function(self, name: str, params: list[str], body: Callable[[_Code], None]) -> str:
        """Generate `def name(g, params): body` into the program source; return its name."""
        out = _Code()
        out.line(f"def {name}({', '.join(['g'] + params)}):")
        out.depth += 1
        body(out)
        self.source.append("\n".join(out.lines))
        return name

    def statements_function(self, prefix: str, stmts) -> str:
        return self.function(self._unique(prefix), [], lambda out: self.block(out, stmts))

    def expression_function(self, prefix: str, e: ast.Expr) -> str:
        self.note_origins(e)
        return self.function(self._unique(prefix), [], lambda out: self.return_expression(out, e))

    def return_expression(self, out: _Code, e: ast.Expr) -> None:
        """Generate `return e`; an `any`/`all` at the top becomes a loop (end conditions run every turn)."""
        if self.optimize and isinstance(e, ast.Aggregate) and e.op in ("any", "all"):
            var = f"v{self.m.refs[id(e)][1]}"
            found = e.op == "any"
            out.line(f"for {var} in {self.counted(e.collection, self.code(e.collection), e.body, e.span)}:")
            body = self.code(e.body)
            out.line(f"    if {body if found else f'not ({body})'}:")
            out.line(f"        return {found}")
            out.line(f"return {not found}")
        else:
            out.line(f"return {self.kept(e)}")

    def dispatcher(self, entries: list[tuple[int, ast.Handler]], made: dict[tuple, str]) -> str | None:
        """Generate (once per distinct list) a function running these handlers of the rules in force.

        The handlers' bodies are written into the dispatcher itself, one after
        another, each under the test that its rule is in force: a turn runs
        many handlers, and a call per handler is most of what they cost.
        """
        if not entries:
            return None
        key = tuple((rule, id(handler)) for rule, handler in entries)
        if key not in made:
            def body(out: _Code) -> None:
                out.line("saved = g.rule")
                out.line("depth = g.depth = g.depth + 1")
                out.line("if depth > _MAX_NESTING:")
                out.line("    _too_deep(g)")
                out.line("try:")
                out.depth += 1
                for rule, handler in entries:
                    out.line(f"# rule {self.m.rules[rule].name}: on {handler.event} "
                             f"{handler.selector or ''}".rstrip())
                    out.line(f"if g.active[{rule}]:")
                    out.depth += 1
                    out.line(f"g.rule = {rule}")
                    self.block(out, handler.body)
                    out.depth -= 1
                out.depth -= 1
                out.line("finally:")
                out.line("    g.depth = depth - 1")
                out.line("    g.rule = saved")
            made[key] = self.function(self._unique("_dispatch"), [], body)
        return made[key]

    def _tagged_cards(self) -> dict[str, frozenset[int]]:
        """Return, for every card tag, the indices of the cards carrying it (numbered as `compile` does)."""
        m = self.m
        index = sum(1 for s in m.spaces if m.kinds[s.kind].titled)  # the title cards come first
        tagged: dict[str, set[int]] = {}
        for d in m.decks.values():
            if d.of_titles:
                continue
            for c in d.cards:
                for t in c.tags:
                    tagged.setdefault(t, set()).update(range(index, index + c.copies))
                index += c.copies
        return {t: frozenset(cards) for t, cards in tagged.items()}

    def compile(self, build: bool = True) -> Program | None:
        """Return the Program; with `build=False` only generate its source (every fixed value folded) and return None."""
        m, rs = self.m, self.rs
        spaces = m.spaces
        card_names, card_texts, card_space, card_deck, effects = [], [], [], [], []
        card_reconstructed: list[bool] = []
        card_share: list[int | None] = []
        self.title_card: list[int | None] = [None] * len(spaces)
        self.titled = frozenset(i for i, s in enumerate(spaces) if m.kinds[s.kind].titled)
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
                card_reconstructed.append(is_reconstruction(m.decks[card_deck[-1]]) if card_deck[-1] else False)
                card_share.append(None)
                effects.append(None)
        for f in m.functions.values():
            # the checker gives a function's parameters the first slots of its own frame
            self.note_origins(f.body)
            self.function(f"_f_{f.name}", [f"v{i}" for i in range(len(f.params))],
                          lambda out, f=f: self.return_expression(out, f.body))
        for a in m.actions.values():
            self.function(f"_a_{a.name}", [f"v{self.m.refs[id(p)][1]}" for p in a.params],
                          lambda out, a=a: self.block(out, a.body))
        deck_cards: dict[str, list[int]] = {}
        effect_names: list[str | None] = [None] * len(card_names)
        for d in m.decks.values():
            if d.of_titles:
                deck_cards[d.name] = [c for c in self.title_card if c is not None and card_deck[c] == d.name]
                continue
            deck_cards[d.name] = []
            for c in d.cards:
                name = self.statements_function("_card", c.body)
                for _ in range(c.copies):
                    deck_cards[d.name].append(len(card_names))
                    card_names.append(c.name)
                    card_texts.append(c.text)
                    card_space.append(None)
                    card_deck.append(d.name)
                    card_reconstructed.append(is_reconstruction(d) or is_reconstruction(c))
                    card_share.append(m.space_index[c.share_of] if c.share_of is not None else None)
                    effect_names.append(name)
        handlers = [(ri, h) for ri, rule in enumerate(m.rules) for h in rule.handlers]
        events: dict[str, list] = {"setup": [], "turn": [], "shortfall": []}
        land: list[list] = [[] for _ in spaces]
        passing: list[list] = [[] for _ in spaces]
        for ri, h in handlers:
            if h.event in events:
                events[h.event].append((ri, h))
                continue
            target = land if h.event == "land" else passing
            if h.selector is None:
                members = range(len(spaces))
            elif h.selector in m.space_index:
                members = [m.space_index[h.selector]]
            else:
                members = m.groups[h.selector]
            for s in members:
                target[s].append((ri, h))
        dispatchers: dict[tuple, str] = {}
        event_names = {event: self.dispatcher(entries, dispatchers) for event, entries in events.items()}
        land_names = [self.dispatcher(entries, dispatchers) for entries in land]
        pass_names = [self.dispatcher(entries, dispatchers) for entries in passing]
        # a trigger whose condition is false under these options can never fire: leave it out
        trigger_names = [(ri, self.expression_function("_when", t.condition),
                          self.statements_function(f"_rule{ri}_when_", t.body), t.repeat)
                         for ri, rule in enumerate(m.rules) for t in rule.triggers
                         if self.expr(t.condition)[1] is not False]
        end_names = [(self.expression_function("_end", e.condition), e) for e in m.ends]
        score_name = self.expression_function("_score", m.score.formula) if m.score is not None else None
        enabled_names = {d.name: self.expression_function("_enabled", d.enabled)
                         for d in m.decks.values() if d.enabled is not None}
        source = "\n\n".join(self.source) + "\n"
        if not build:  # Python's own limits (parentheses nested too deeply, say) are met here too
            compile(source, f"<compiled {rs.name}>", "exec")
            return None
        code = read_game_lists_once(source) if self.optimize else source
        exec(compile(code, f"<compiled {rs.name}>", "exec"), self.ns)  # noqa: S102 - generated from the checked AST
        ns = self.ns

        def no_effect(g):
            return None

        card_effects = [ns[name] if name else no_effect for name in effect_names]
        function = lambda name: ns[name] if name else None  # noqa: E731
        header = m.header
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
            space_kinds=[s.kind for s in spaces],
            start_space=0,
            game_var_init=[self.constant(v.initial) for v in m.game_vars.values()],
            player_var_init=[self.constant(v.initial) for v in m.player_vars.values()],
            space_var_init=[[self.constant(v.initial)] * len(spaces) for v in m.space_vars.values()],
            card_names=card_names,
            card_texts=card_texts,
            card_space=card_space,
            card_deck=card_deck,
            title_card=self.title_card,
            card_effects=card_effects,
            deck_cards=deck_cards,
            deck_kept={d.name: d.kept for d in m.decks.values()},
            deck_enabled={d.name: (ns[enabled_names[d.name]] if d.name in enabled_names else (lambda g: True))
                          for d in m.decks.values()},
            rule_names=[r.name for r in m.rules],
            rule_off=[r.off for r in m.rules],
            rule_replaces=[tuple(self.rule_index[x] for x in r.replaces) for r in m.rules],
            triggers=[(ri, ns[cond], ns[body], repeat) for ri, cond, body, repeat in trigger_names],
            rule_spans=[r.span for r in m.rules],
            on_setup=function(event_names["setup"]),
            on_turn=function(event_names["turn"]),
            on_shortfall=function(event_names["shortfall"]),
            on_land=[function(name) for name in land_names],
            on_pass=[function(name) for name in pass_names],
            end_conditions=[(ns[name], e.provenance.source if e.provenance else f"line {e.span.line}")
                            for name, e in end_names],
            score=ns[score_name] if score_name else None,
            python_source=source,
            card_reconstructed=card_reconstructed,
            card_share=card_share,
            space_fields={name: list(self._column(name)) for name in self.m.space_fields},
            origins=self.origins,
            var_types=tuple(tuple(m.types.get(id(v), "any") for v in table.values())
                            for table in (m.game_vars, m.player_vars, m.space_vars)),
            game_var_names=list(m.game_vars),
            player_var_names=list(m.player_vars),
            space_var_names=list(m.space_vars),
        )


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


def fixed_value_problems(ruleset: RuleSet) -> list[Diagnostic]:
    """Return the problems met working out, under the options' defaults, what is fixed before a game.

    Every constant, table entry, board field and starting value is worked
    out (each problem reported, located), then, if they all can be, the
    rules' source is generated, which folds the fixed parts of their
    expressions. An empty list: the rule set compiles.
    """
    compiler = Compiler(ruleset, resolve_options(ruleset, None))
    m = compiler.m
    fixed = [c.value for c in m.consts.values()]
    fixed += [e for t in m.tables.values() for pair in t.entries for e in pair]
    fixed += [value for s in m.spaces for _, value in s.fields]
    fixed += [v.initial for table in (m.game_vars, m.player_vars, m.space_vars) for v in table.values()]
    problems: list[Diagnostic] = []
    try:
        for e in fixed:
            try:
                compiler.constant(e)
            except LandlordError as err:
                problems.extend(d for d in err.diagnostics if d not in problems)  # a constant fails wherever used
        if not problems:
            compiler.compile(build=False)
    except LandlordError as err:
        problems.extend(err.diagnostics)
    except (RecursionError, MemoryError, SyntaxError):
        from .parser import TOO_DEEP

        problems.append(Diagnostic(f"{ruleset.name}: {TOO_DEEP[0]}", hint=TOO_DEEP[1]))
    return sorted(problems, key=lambda d: (d.span.file, d.span.line, d.span.column) if d.span else ("", 0, 0))


def compile_ruleset(ruleset: RuleSet, options: dict[str, Any] | None = None, optimize: bool = True) -> Program:
    """Compile a checked RuleSet with the given option values into a Program.

    `optimize=False` gives a plain translation (no inlining, unrolling or
    proofs that field reads cannot fail): slower, and playing the same games.
    """
    try:
        return Compiler(ruleset, resolve_options(ruleset, options), optimize).compile()
    except (RecursionError, MemoryError, SyntaxError):  # SyntaxError: Python's limit on nested parentheses
        from .parser import TOO_DEEP

        raise LandlordError([Diagnostic(f"{ruleset.name}: {TOO_DEEP[0]}", hint=TOO_DEEP[1])]) from None
