"""Code generation, shared part: the compiler's state and the facts its passes share.

Holds the Compiler's tables (indices of declarations, folded constants,
tables and board fields), the names generated code refers to, and the
checks that keep a rule within the limits (kept values, the work budget).
Expressions are translated in codegen_expr, statements in codegen_stmt,
and whole functions and the Program in compiler.
"""

from __future__ import annotations

import ast as pyast
import contextlib
import typing
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import attrs

from ..checking.builtins import BUILTINS
from ..checking.checker import Model
from ..checking.loader import RuleSet
from ..core.errors import Diagnostic
from ..core.types import ACCOUNT, INT, PLAYER, SPACE, TEXT, strip_optional
from ..language import ast
from ..language.limits import MAX_INT, SMALL_LOOP
from ..language.parser import source_of
from ..program.runtime import RUNTIME, Fixed, out_of_limits, show_value
from .generated_names import Prefix, is_local_name, local_name, without_readable_names

_NOTHING = object()  # the value of an expression no option fixes
_STATEMENTS = typing.get_args(ast.Stmt)
_SIMPLE = (int, str, bool, type(None))


# What code reads: (whether it reads the game's state, `g.` (`g, ` alone only passes it on); the generated
# locals and round reads it names)
Reads = tuple[bool, frozenset[str]]
_NO_NAMES: frozenset[str] = frozenset()
_NONE: frozenset[Any] = _NO_NAMES  # (Compiled.requires when nothing is required)


class Compiled(NamedTuple):
    """A translated expression: its Python code and what code generation knows of it.

    Every fact is worked out where the node is compiled, from the facts of the
    parts its code is written from (`made`): nothing reads the generated code
    back. (A NamedTuple rather than an attrs class: the compiler makes one per
    node, and this is cheaper.)
    """

    code: str
    value: Any = _NOTHING  # its value, where the options fix it
    cheap: bool = False  # cheap and safe to evaluate twice: a local, a number, the acting player or his space
    local: bool = False  # a local variable of the generated function
    bounded: bool = False  # its value lies within the limits already (a lookup in a table checked when made)
    space_read: str | None = None  # a space variable's value for a space (`g.sv[i][s]`): the space's code (`s`)
    by_space: tuple[str, str] | None = None  # a lookup in a table by space (`_tab3[v0]`): the table and the local
    # whether working it out can fail: False only for code that divides nothing, makes no list or text and
    # calls nothing but a group's getter (an itemgetter of a list by space), `len`, or the `count` of what a
    # getter gives, on numbers, truth values, the game's lists by indices the compiler has proved, tables by space
    can_fail: bool = True
    reads: Reads = (True, frozenset())  # what it reads (see `Reads`)
    # whether it can start a loop: a comprehension, generator or lambda, a loop counted against the work
    # budget (`_work`), or a call of a function of the rules whose body has an aggregate
    loops: bool = True
    binds: frozenset[str] = frozenset()  # the names its own loops (comprehensions, lambdas) bind
    # its code is constants, the names in `reads`, and operators alone: no call, subscript, attribute,
    # and no other name (a value the compiler bound, say)
    plain: bool = False
    # what its being true implies of the counted groups (ExpressionCompiler.counted_group): for each
    # (counted field f, code of a player p, code of a space s), p owns every space of s's group under f
    # (`owns_all(p, s.color)`, or an `and` with it); combined only by `and`
    requires: frozenset[tuple[int, str, str]] = frozenset()

    @property
    def fixed(self) -> bool:
        """Return True if the options fix the expression's value (it is `value`)."""
        return self.value is not _NOTHING

    @property
    def never_fails(self) -> bool:
        """Return True if working out the expression cannot fail (see `can_fail`)."""
        return not self.can_fail


_new_tuple = tuple.__new__


def _once(known: dict[int, tuple[Any, bool]], node: Any, work: Callable[[Any], bool]) -> bool:
    """Return what `work` says of a syntax node, worked out once a node: `known` holds it by the node's id,
    with the node itself, so that its id names nothing else while the answer is kept."""
    kept = known.get(id(node))
    if kept is not None:
        return kept[1]
    answer = work(node)
    known[id(node)] = (node, answer)
    return answer


def made(
    code: str,
    *parts: Compiled,
    fails: bool = False,
    game: bool = False,
    names: frozenset[str] = _NO_NAMES,
    loops: bool = False,
    binds: frozenset[str] = _NO_NAMES,
    plain: bool = True,
    value: Any = _NOTHING,
    cheap: bool = False,
    local: bool = False,
    bounded: bool = False,
    space_read: str | None = None,
    by_space: tuple[str, str] | None = None,
) -> Compiled:
    """Return the Compiled of `code`, written from the code of `parts` and code of its own, with the parts'
    facts and those of its own code combined: its own code can fail (`fails`), reads the game (`game`),
    names these locals or round reads (`names`), can start a loop (`loops`) binding `binds`, and is
    constants and operators alone (`plain`); `value` ... `by_space`: the Compiled's fields of those names."""
    for part in parts:  # (written out: the compiler makes one per node)
        part_game, part_names = part.reads
        if part.can_fail:
            fails = True
        if part_game:
            game = True
        if part_names:
            names = names | part_names
        if part.loops:
            loops = True
        if part.binds:
            binds = binds | part.binds
        if not part.plain:
            plain = False
    # (the tuple made directly, in Compiled's field order: the compiler makes one per node)
    return _new_tuple(
        Compiled,
        (code, value, cheap, local, bounded, space_read, by_space, fails, (game, names), loops, binds, plain, _NONE),
    )


class Code:
    """Lines of generated Python with indentation, each with the place in the rules it comes from.

    `where[i]` is (the index of the rule whose handler line i runs in, or
    None; the span of the .lg statement or expression it translates, or
    None), so run-time errors can name both (Program.line_table).
    `asking` holds the asking blocks among the lines (StatementCompiler._s_Choose), each as (its first
    line's index, the index after its last, the choice's number, whether it is an offer), which the
    driven program compiles on first use (compiling/asking.py).
    """

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.where: list[tuple[int | None, ast.Span | None]] = []
        self.asking: list[tuple[int, int, str, bool]] = []
        self.depth = 0
        self.rule: int | None = None
        self.span: ast.Span | None = None

    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)
        self.where.append((self.rule, self.span))

    def fork(self) -> Code:
        """Return an empty Code that writes at this one's indentation and place, to be `extend`ed into it."""
        other = Code()
        other.depth, other.rule, other.span = self.depth, self.rule, self.span
        return other

    def extend(self, other: Code) -> None:
        """Append the lines of a `fork` of this Code."""
        if other.asking:
            at = len(self.lines)
            self.asking.extend((start + at, end + at, n, offer) for start, end, n, offer in other.asking)
        self.lines.extend(other.lines)
        self.where.extend(other.where)

    def indented(self) -> _Indented:
        """Return a context manager within which lines are written one level deeper."""
        return _Indented(self)

    def at(self, span: ast.Span, rule: int | None = None) -> _At:
        """Return a context manager within which lines translate the .lg code at `span` (in a handler of `rule`,
        if given)."""
        return _At(self, span, rule)


# (classes rather than generator context managers: the compiler enters a thousand of these a compilation)
class _Indented:
    __slots__ = ("code",)

    def __init__(self, code: Code):
        self.code = code

    def __enter__(self) -> None:
        self.code.depth += 1

    def __exit__(self, *exc: object) -> None:
        self.code.depth -= 1


class _At:
    __slots__ = ("code", "outer", "rule", "span")

    def __init__(self, code: Code, span: ast.Span, rule: int | None):
        self.code, self.span, self.rule = code, span, rule

    def __enter__(self) -> None:
        code = self.code
        self.outer = code.rule, code.span
        code.span = self.span
        if self.rule is not None:
            code.rule = self.rule

    def __exit__(self, *exc: object) -> None:
        self.code.rule, self.code.span = self.outer


class CodeGenerator:
    """The state code generation shares: declarations by index, folded values, generated names."""

    def __init__(
        self,
        ruleset: RuleSet,
        options: dict[str, Any],
        optimize: bool = True,
        readable: bool = False,
        counters: dict[Any, int] | None = None,
    ):
        self.rs = ruleset
        self.m: Model = ruleset.model
        self.options = options
        # False: a plain translation, for tests that check the optimised code plays the same games
        self.optimize = optimize
        # True: locals are named after the .lg names they hold (`show --python`); the code is the same
        self.readable = readable
        # coverage counters (rule_coverage.py): by .lg node (or (node, arm)), the index of the counter that its
        # runs add to; without them (the normal program) no counting line is generated at all
        self.counters = counters or {}
        self.counters_used: set[int] = set()  # the counters some generated line adds to
        m = self.m
        # the checker's tables by node, read at nearly every node compiled (Model's properties, fetched once)
        self.refs: dict[int, tuple[str, Any]] = m.refs
        self.types: dict[int, str] = m.types
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
        # the groups whose owners the game keeps counted (Program.counted_groups), numbered in the order met;
        # and by group-valued field so read: its number and, by space, the number of the space's group
        self.counted_groups: dict[tuple[int, ...], int] = {}
        self.counted_fields: dict[str, tuple[int, tuple[int | None, ...]]] = {}
        # the counted fields (by number) under which the game keeps each seat's titles in groups it owns
        # whole (Program.complete_fields), numbered in the order met
        self.complete_fields: dict[int, int] = {}
        # the tests of a title by its group's counts under which the game keeps each seat's titles that pass
        # (Program.kept_tests): (counted field number, the counts by space), numbered in the order met
        self.kept_tests: dict[tuple[int, tuple[Any, ...]], int] = {}
        self.ns: dict[str, Any] = dict(RUNTIME)
        self.ns.update({f"{Prefix.BUILTIN}{name}": builtin.implementation for name, builtin in BUILTINS.items()})
        if counters is not None:
            self.ns["_cov"] = [0] * (max(counters.values(), default=-1) + 1)
        self.names_by_id: dict[int, str] = {}
        # what generated code may assume of a local space variable: the spaces it can hold, and (for one
        # bound to a player's titles) the code of the player who owns it
        self.domains: dict[str, frozenset[int]] = {}
        self.owned_by: dict[str, str] = {}
        # (counted field, code of a player, code of a space variable): the player owns the space's group under
        # that field whole, for every value the variable takes (an option's loop over the titles the game keeps
        # for groups he owns whole, StatementCompiler._options): `owns_all` over that group is true
        self.whole_owned: frozenset[tuple[int, str, str]] = frozenset()
        # values worked out for every space a variable can hold (ExpressionCompiler.values_by_space), by
        # (code, variable, its spaces); and the names of the tables made of them, by their values
        self.space_values: dict[tuple[str, str, frozenset[int]], tuple | None] = {}
        self.space_tables: dict[tuple, str] = {}
        self.group_sets: dict[str, str] = {}  # the names of the groups' sets of spaces, by group
        self.member_tables: dict[tuple[str, bool, int], str] = {}  # by (group field, its own excluded, i): i-th members
        # locals that stand for other code: an unrolled aggregate's item, an inlined function's arguments
        self.bound: dict[int, Compiled] = {}
        self.consts_made: dict[tuple[type, Any], Compiled] = {}  # the literals' Compiled, by (class, value) (_const)
        self.locals_made: dict[tuple[object, str], Compiled] = {}  # the .lg locals' Compiled, by (slot, name)
        # whether every space of a domain (None: the board) has a space field, by (field, domain)
        self.fields_everywhere: dict[tuple[str, frozenset[int] | None], bool] = {}
        # whether every space of a domain has a group with members under a space field, by (field, domain)
        self.groups_everywhere: dict[tuple[str, frozenset[int] | None], bool] = {}
        # by id of a fixed tuple: (the tuple, its spaces as a set, or None if it holds other than spaces) (domain_of)
        self.space_sets: dict[int, tuple[tuple, frozenset[int] | None]] = {}
        # the value a function's body has without its arguments (ExpressionCompiler._value_without_arguments),
        # by the body, where working it out made nothing
        self.values_without_arguments: dict[int, Any] = {}
        # a function's body compiled as its own function's, by the function (ExpressionCompiler.function_body),
        # where compiling it made nothing
        self.bodies_compiled: dict[int, Compiled] = {}
        self.bodies_with_aggregates: dict[str, bool] = {}  # by function name: whether its body has an aggregate
        self.reads_dice_faces = False  # some generated code reads the edition's dice one by one
        # the decks a `return` may put a card into, each with whether that card may be other than a title deed;
        # and the decks drawn from
        self.decks_returned_to: dict[str, bool] = {}
        self.decks_drawn: set[str] = set()
        self.inlining: set[str] = set()  # actions being written in place of a call (StatementCompiler._s_Do)
        # while the legal options of a choice are gathered (StatementCompiler._gathering): what of the
        # moment its guards and hints read, as the locals that hold it, with the code that binds each
        self.round_reads: dict[str, str] | None = None
        self.round_names: dict[str, str] = {}
        # the options of the choice last compiled for a round (StatementCompiler._options): the choice, the
        # round names, the options, and the round reads compiling them made
        self.options_made: tuple[Any, dict[str, str], list, dict[str, str]] | None = None
        self.handler_lines: dict[int, Code] = {}  # by handler, its body's lines in a dispatcher (Compiler)
        self.counter = 0
        self.source: list[str] = []  # the generated functions
        self.line_table: list[tuple[int | None, ast.Span | None]] = []  # by line of the source: Code.where
        self.sources = {mod.source_name: source_of(mod) for mod in ruleset.modules}
        self.fixed = Fixed(self.sources, [s.name for s in m.spaces])
        self.origins: list[tuple[ast.Span, tuple[Diagnostic, ...]]] = []
        self.in_progress: set[tuple[str, str]] = set()  # fixed values being worked out (Compiler.folding)
        self.title_card: list[int | None] = []  # by space: its title deed's card (set by Compiler.compile)
        self.titled: frozenset[int] = frozenset()  # the spaces with title deeds (set by Compiler.compile)
        self.growing: dict[str, bool] = {}  # by function: whether its body may give a number beyond its inputs'
        self.light_functions: dict[str, bool] = {}  # by function: whether its body is light (Compiler.light)
        # by id(node): (the node, whether it is light / may grow), worked out once a node (`light`, `may_grow`)
        self.lightness: dict[int, tuple[Any, bool]] = {}
        self.growth: dict[int, tuple[Any, bool]] = {}

    # ---------------------------------------------------------- namespace
    def _unique(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def ref(self, value: Any, prefix: Prefix = Prefix.CONSTANT) -> str:
        """Return a name in the generated namespace bound to `value` (one per object)."""
        key = id(value)
        if key not in self.names_by_id:
            name = self._unique(prefix)
            self.ns[name] = value
            self.names_by_id[key] = name
        return self.names_by_id[key]

    def local(self, slot: object, name: str) -> str:
        """Return the Python name of the .lg local `name` held in frame slot `slot`."""
        return local_name(slot, name, self.readable)

    def is_local(self, code: str) -> bool:
        """Return True if `code` is just the Python name of a .lg local (as `local` names it)."""
        return is_local_name(code)

    def plain_length(self, code: str) -> int:
        """Return the length of `code` with its locals named by slot alone, as without `readable`.

        Decisions taken on the length of generated code use it, so readable
        names change no decision (a text literal that looks like such a name
        is shortened too; at worst a call is then inlined that would not be).
        """
        return len(without_readable_names(code)) if self.readable else len(code)

    def literal(self, value: Any) -> str:
        """Return code for a value: a Python literal where `is_literal` says it can be one, else a name bound to it."""
        return repr(value) if self.is_literal(value) else self.ref(value)

    @staticmethod
    def is_literal(value: Any) -> bool:
        """Return True if `literal` writes the value as a Python literal (a number within the range, a text, a
        truth value, none, or a tuple of those), False if as a name bound to it."""
        if value.__class__ is int and not -MAX_INT <= value <= MAX_INT:
            return False  # a folded step beyond the range (repr may refuse it); kept values are checked
        if isinstance(value, _SIMPLE):
            return True
        return isinstance(value, tuple) and all(isinstance(v, _SIMPLE) for v in value)

    def span(self, span: ast.Span) -> str:
        return self.ref(span, Prefix.SPAN)

    def count(self, out: Code, key: Any) -> bool:
        """With coverage counters, generate the line that counts one run of the node (or arm) `key` is for,
        and return True; without them, or for a key that has none, generate nothing and return False."""
        index = self.counters.get(key)
        if index is None:
            return False
        self.counters_used.add(index)
        out.line(f"_cov[{index}] += 1")
        return True

    def type_of(self, e: ast.Expr) -> str:
        return self.types.get(id(e), "any")

    def resolved(self, node: Any) -> tuple[str, Any]:
        """Return what the checker resolved a name, call or statement to: (kind, payload), as Model.refs holds it."""
        return self.refs[id(node)]

    def expr(self, e: ast.Expr) -> Compiled:
        """Return the Python expression for `e` with what is known of it (codegen_expr)."""
        raise NotImplementedError

    def fixed_text(self, node: Any, text: str) -> str:
        """Return a text whose `{...}` holes are fixed before a game (a card's), its holes worked out."""
        shown = []
        for part in self.m.templates.get(id(node), [text]):
            if isinstance(part, str):
                shown.append(part)
                continue
            value, kind = self.constant(part), strip_optional(self.type_of(part))
            if kind == SPACE:
                shown.append(self.m.spaces[value].label)
            elif kind == ACCOUNT:
                account = self.m.accounts[-value - 1]
                shown.append(account.label or account.name)
            else:
                shown.append(show_value(None, value, kind))
        return "".join(shown)

    def constant(self, e: ast.Expr) -> Any:
        """Return the value of an expression the checker proved fixed (it needs no game).

        A failure (a division by zero, a missing table key, a number beyond the
        limits...) raises a LandlordError located in the rule file.
        """
        compiled = self.expr(e)
        value = compiled.value
        if not compiled.fixed:
            # our own code (never user text); `g` a global, so that the loops of generator expressions see it too
            value = eval(compile(compiled.code, "<constant>", "eval"), dict(self.ns, g=self.fixed))
        self.check_kept(value, e.span)
        return value

    def check_kept(self, value: Any, span: ast.Span) -> None:
        """Raise a located LandlordError if a value fixed before the game is outside the limits."""
        problem = out_of_limits(value, "this value")
        if problem is not None:
            raise self.fixed.fail(
                problem[0],
                span,
                "what is worked out before the game must lie within the limits "
                "too (see 'Limits' in the language reference)",
            )

    def may_grow(self, e: Any) -> bool:
        """Return True if an expression may give a number or text beyond the values it reads.

        Values read (literals, variables, fields, table entries) are within the
        limits already; only arithmetic, `+` of texts, `sum` and built-ins that grow (`percent`) can
        leave them, directly or in the body of a function called.
        """
        return _once(self.growth, e, self._may_grow)

    def _may_grow(self, e: Any) -> bool:
        if isinstance(e, tuple):
            return any(self.may_grow(x) for x in e)
        if not attrs.has(type(e)) or isinstance(e, ast.Span):
            return False
        if (isinstance(e, ast.Binary) and e.op in ("+", "-", "*")) or (isinstance(e, ast.Aggregate) and e.op == "sum"):
            return True
        if isinstance(e, ast.Call):
            kind, name = self.resolved(e)
            if kind == "builtin" and BUILTINS[name].grows:
                return True
            if kind == "function":
                if name not in self.growing:
                    self.growing[name] = self.may_grow(self.m.functions[name].body)
                if self.growing[name]:
                    return True
        return any(self.may_grow(getattr(e, f.name)) for f in attrs.fields(type(e)) if f.name != "span")

    def counted(self, collection: ast.Expr, code: str, inner: Any, span: ast.Span, light: bool | None = None) -> str:
        """Return code for a collection a loop goes through: counted against the work budget unless the loop
        is small (at most SMALL_LOOP items) and `inner` (its body, or guard, cost and value) runs no loop
        (`light`, if given, says so of the code generated for `inner`)."""
        if self.uncounted(collection, inner, light):
            return code
        return f"_work(g, {code}, {self.span(span)})"

    def uncounted(self, collection: ast.Expr, inner: Any, light: bool | None = None) -> bool:
        """Return True if a loop through `collection` is not counted against the work budget (`counted`)."""
        if self.optimize and (self.light(inner) if light is None else light):
            bound = self.static_bound(collection)
            return bound is not None and bound <= SMALL_LOOP
        return False

    def counted_loop(
        self, out: Code, collection: ast.Expr, code: str, inner: Any, span: ast.Span, light: bool | None = None
    ) -> str:
        """Return code for the collection a `for` statement goes through, as `counted` does, but with the
        count written as lines before the loop (no call, in the common case of a budget not run out)."""
        counted = self.counted(collection, code, inner, span, light)
        if not self.optimize or counted == code:
            return counted
        size = _literal_size(code)
        if size is not None:  # a tuple written out: its length is known now
            out.line(f"g.work += {size}")
            out.line("if g.work > _MAX_WORK:")
            out.line(f"    _work(g, (), {self.span(span)})")
            return code
        items = f"_items{self._unique('')}"
        out.line(f"{items} = {code}")
        out.line(f"g.work += len({items})")
        out.line("if g.work > _MAX_WORK:")
        out.line(f"    _work(g, (), {self.span(span)})")  # over the budget: the error `_work` gives
        return items

    def light(self, node: Any) -> bool:
        """Return True if running `node` (expressions, or `let`/`set`/`if` statements) can start no loop:
        no aggregate, no call of a function that has one, no other statement."""
        return _once(self.lightness, node, self._light)

    def _light(self, node: Any) -> bool:
        if isinstance(node, tuple):
            return all(self.light(x) for x in node)
        if node is None or not attrs.has(type(node)) or isinstance(node, ast.Span):
            return True
        if isinstance(node, ast.Aggregate):
            return False
        if (
            isinstance(node, ast.Call)
            and self.refs[id(node)][0] == "function"
            and not self.light_function(node.function)
        ):
            return False
        if isinstance(node, _STATEMENTS) and not isinstance(node, (ast.Let, ast.Set, ast.If)):
            return False
        return all(self.light(getattr(node, f.name)) for f in attrs.fields(type(node)) if f.name != "span")

    def light_function(self, name: str) -> bool:
        """Return True if the body of the rules' function `name` is light (`light`; worked out once)."""
        if name not in self.light_functions:
            self.light_functions[name] = self.light(self.m.functions[name].body)
        return self.light_functions[name]

    def static_bound(self, e: ast.Expr) -> int | None:
        """Return the most items a collection can hold in any game of this program, or None if not known."""
        value = self.expr(e).value
        if isinstance(value, (tuple, list)):
            return len(value)
        if isinstance(e, ast.Name) and self.refs[id(e)] == ("context", "players"):
            return (self.m.header.players or (2, 8))[1]
        if isinstance(e, ast.Name) and self.refs[id(e)] == ("context", "spaces"):
            return len(self.m.spaces)
        if self._holdings(e) == "titles":
            return len(self.titled)
        if self._holdings(e) == "hands":  # title deeds and the decks' cards
            return len(self.titled) + sum(c.copies for d in self.m.decks.values() for c in d.cards)
        if (
            isinstance(e, ast.Field)
            and e.name in self.m.space_fields
            and e.name not in self.space_var_index
            and strip_optional(self.type_of(e.subject)) == SPACE
        ):
            groups = [v for v in self._column(e.name) if v is not None]  # a space without the field fails anyway
            if all(isinstance(v, tuple) for v in groups):
                return max(map(len, groups), default=0)
        if isinstance(e, ast.Aggregate) and e.op in ("filter", "map"):
            return self.static_bound(e.collection)
        return None

    def kept(self, e: ast.Expr, compiled: Compiled | None = None) -> str:
        """Return code for a value a rule keeps (stores, returns, pays, shows): checked to lie within the limits
        (the code of `kept_compiled`)."""
        return self.kept_compiled(e, compiled).code

    def kept_compiled(self, e: ast.Expr, compiled: Compiled | None = None) -> Compiled:
        """Return a value a rule keeps (stores, returns, pays, shows), checked to lie within the limits.

        A fixed value is checked now; otherwise only one that may have grown
        beyond the values it was made from is checked as the game runs.
        `compiled`: what self.expr(e) gave, if already called.
        """
        compiled = compiled or self.expr(e)
        code = compiled.code
        if compiled.fixed:
            self.check_kept(compiled.value, e.span)
            return compiled
        if compiled.bounded:
            return compiled
        t = strip_optional(self.type_of(e))
        if t not in (INT, TEXT) or not self.may_grow(e):
            return compiled
        if t == INT and self.type_of(e) == INT and self.optimize:  # never none: compare in place, call only to fail
            kept = self._unique("_n")
            return made(
                f"({kept} if -{MAX_INT} <= ({kept} := {code}) <= {MAX_INT} "
                f"else _kept_int(g, {kept}, {self.span(e.span)}))",
                compiled,
                fails=True,
                plain=False,
            )
        return made(
            f"{'_kept_int' if t == INT else '_kept_text'}(g, {code}, {self.span(e.span)})",
            compiled,
            fails=True,
            plain=False,
        )

    @contextlib.contextmanager
    def folding(self, key: tuple[str, str], span: ast.Span | None, what: str) -> Iterator[None]:
        """Within the block, the fixed value `key` is being worked out: a use of it is a cycle, reported at `span`."""
        if key in self.in_progress:
            raise self.fixed.fail(
                f"{what} is worked out from itself",
                span,
                "a constant, table or board field cannot be defined in terms of itself",
            )
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

    def _holdings(self, e: ast.Expr) -> str | None:
        """Return the engine's list a player's `titles` or `cards` read (`titles`/`hands`), or None."""
        if (
            isinstance(e, ast.Field)
            and e.name in ("titles", "cards")
            and strip_optional(self.type_of(e.subject)) == PLAYER
        ):
            return "titles" if e.name == "titles" else "hands"
        return None

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


def _literal_size(code: str) -> int | None:
    """Return the length of generated code that is a tuple literal (of literals), else None."""
    if not code.startswith("("):
        return None
    try:
        value = pyast.literal_eval(code)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return len(value) if value.__class__ is tuple else None
