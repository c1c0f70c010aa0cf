"""The stepped compilation (issue 29; docs/state.md): the generated rules again, as generators.

A stepped game (`ld.new_state`) pauses at each request it cannot answer inside: a decision or a bid
for a seat, or a throw or a shuffle when no seed answers chance. This pass makes that pause a `yield`.
It rewrites the Python syntax tree of the generated module (its source parsed: the game's lists already
read into locals as the generator wrote them, or by `read_game_lists_once` where it did not; keeping its
line numbers, so `Program.line_table` still locates an error) so that

* every call of an engine method that may ask (`g.choose`, `g.auction`, `g.draw`, `g.deal`, the moves,
  loans)
  becomes `(yield from g.<method>_s(...))`, the method's generator twin (engine/stepping.py);
* a throw or a shuffle stays the driven call when the game answers chance inside (a seed), and is
  `yield from g.<method>_s(...)` otherwise;
* a payment keeps its quick path inline (`g.pay_out_q(...)`, the driven `pay_out` without the
  shortfall), and only a payer short of money goes through `g.transfer_s`, whose `on shortfall` rules
  may ask; the payment's arguments are worked out once;
* every call of a generated function that can reach one of these (to a fixpoint) is `yield from`.

What cannot ask (expressions, `_describe` labels, pure functions, end conditions, the score) stays as
it was: the stepped module `build_stepped` runs holds the generator functions alone, in a copy of the
driven module's namespace, so they call the driven code for the rest. The driven compilation is
untouched: driven play runs the same code as before. `compile_ruleset(..., keyed=True)` makes the keyed
stepped compilation from the syntax tree the driven one ran (`build_stepped`'s `parsed`), the source
parsed once.

The **keyed** stepped compilation (`Program.stepped(keyed=True)`, the exact analysis's) also lays out
each paused call's continuation, so that two requests whose futures are the same can be told from two
whose futures differ without reading the interpreter's frames (`_Keyed`): every generator function
notes its depth in the game's continuation stack (`g.kstack`) when it starts, and each of its calls
that may ask first puts there `(site, v1, v2, ...)`: the call's number in the module and the values of
the locals the function may still read after it, which this pass works out from the syntax tree
(`_Keyed._block`); the engine's generator twins put their own entries (engine/stepping.py). The stack
at a request, with the game's state, is the request's continuation key.

The keyed compilation also has, for each call site whose key is not OPAQUE, a *resume entry*
(`_Resumes`, made and compiled on demand: `SteppedProgram.resume`): the rest of the function from that
call, entered with the locals the key holds, so that a turn paused there can be rebuilt from its
continuation stack (`SteppedGame.resumed`) instead of replayed from its start.

What `build_stepped` makes (the stepped module's code, and each resume entry as it is first made) is kept
in the private per-user cache, as Python keeps a module's bytecode (code_cache.py): the next process given
the same source takes it from there without parsing or rewriting anything.
"""

from __future__ import annotations

import ast as pyast
import copy
import itertools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from ..program.compiled import OPAQUE, SLOW, UNSET, SteppedProgram
from . import code_cache
from .generated_names import Prefix
from .pyast_pass import child_nodes, placed_at, read_lists_once_in, walk

if TYPE_CHECKING:
    from ..program.compiled import Program

# Engine methods that may ask (each has a generator twin NAME_s in engine/stepping.py).
ASKING = frozenset({"choose", "auction", "draw", "deal", "advance", "move_steps", "move_to", "borrow", "repay_loans"})
# Chance: answered inside by a seed (the driven call), or asked (NAME_s).
CHANCE = frozenset({"roll", "shuffle", "roll_set"})
# Payments: a quick path NAME_q that returns SLOW when the payer is short, else `transfer_s`.
PAYMENTS = frozenset({"pay_in", "pay_out", "pay_within"})
REACHING = ASKING | CHANCE | PAYMENTS | {"transfer"}

_Made = TypeVar("_Made", bound=pyast.AST)


class SteppingError(Exception):
    """Generated code this pass cannot make stepped (a request inside a nested scope): a compiler bug."""


def _game_call(node: pyast.AST, names: frozenset[str] | set[str]) -> str | None:
    """Return the method's name if `node` is a call `g.NAME(...)` of one of `names`, else None."""
    if (
        isinstance(node, pyast.Call)
        and isinstance(node.func, pyast.Attribute)
        and isinstance(node.func.value, pyast.Name)
        and node.func.value.id == "g"
        and node.func.attr in names
    ):
        return node.func.attr
    return None


def _g(attr: str) -> pyast.Attribute:
    return pyast.Attribute(pyast.Name("g", pyast.Load()), attr, pyast.Load())


def _call(method: str, call: pyast.Call) -> pyast.Call:
    return pyast.Call(_g(method), call.args, call.keywords)


def _made_at(node: _Made, where: pyast.AST) -> _Made:
    """Return `node`, made by this pass, located: it (if it has no location) and the nodes made with it
    below it get the location of their nearest located ancestor (`where` for `node` itself), as
    `ast.fix_missing_locations` would give them, without walking the located nodes they hold (the parsed
    module's, or made and located before: the pass makes its nodes bottom up, locating each as it is made)."""
    if "lineno" in node._attributes:
        if not hasattr(node, "lineno"):
            placed_at(node, where)
        where = node
    todo: list[tuple[pyast.AST, pyast.AST]] = [(node, where)]
    for parent, at in todo:
        for child in child_nodes(parent):
            if "lineno" in child._attributes:
                if hasattr(child, "lineno"):
                    continue
                todo.append((placed_at(child, at), child))
            else:  # (an operator, a context, `arguments`: no location of its own)
                todo.append((child, at))
    return node


def _simple(node: pyast.expr) -> bool:
    """Return True if evaluating `node` again, before anything changes, gives the same value cheaply and
    does nothing else: a name, a constant, `x.y`, `x[y]` or `x + y` of such."""
    if isinstance(node, (pyast.Name, pyast.Constant)):
        return True
    if isinstance(node, pyast.Attribute):
        return isinstance(node.value, pyast.Name)
    if isinstance(node, pyast.Subscript):
        return _simple(node.value) and _simple(node.slice)
    if isinstance(node, pyast.BinOp):
        return isinstance(node.op, (pyast.Add, pyast.Sub)) and _simple(node.left) and _simple(node.right)
    return False


def _calls(function: pyast.FunctionDef) -> tuple[bool, set[str]]:
    """Return whether `function` calls an engine method that may ask, and the names of the functions it
    calls by name."""
    direct, named = False, set()
    for node in walk(function):
        if isinstance(node, pyast.Call):
            if isinstance(node.func, pyast.Name):
                named.add(node.func.id)
            elif not direct and _game_call(node, REACHING):
                direct = True
    return direct, named


def _generators(functions: dict[str, pyast.FunctionDef]) -> set[str]:
    """Return the names of the functions that reach a request: those that call an engine method that may
    ask, or a function that does (to a fixpoint)."""
    calls = {name: _calls(f) for name, f in functions.items()}
    generators = {name for name, (direct, _) in calls.items() if direct}
    while True:
        more = {name for name, (_, named) in calls.items() if name not in generators and named & generators}
        if not more:
            return generators
        generators |= more


class _ToGenerators(pyast.NodeTransformer):
    """Rewrite one generated function that may ask into a generator (see the module's docstring).

    Only the nodes with a call to rewrite at or below them are visited (`rewrite` finds them first): the
    rest of a function, most of it, is left as it is without a visit of each node.
    """

    def __init__(self, generators: set[str]) -> None:
        self.generators = generators
        self.temporaries = 0
        self.paths: set[int] = set()  # the ids of the nodes with a call to rewrite at or below them

    def rewrite(self, function: pyast.FunctionDef) -> None:
        """Rewrite the generated function `function` in place."""
        self.paths = self._paths_to_calls(function)
        self.visit(function)

    def _paths_to_calls(self, function: pyast.FunctionDef) -> set[int]:
        """Return the ids of the nodes of `function` that are, or hold, a call this class rewrites (an
        engine method that may ask, or a generator function)."""
        generators, Call, Name = self.generators, pyast.Call, pyast.Name
        above: dict[int, pyast.AST] = {}
        paths: set[int] = set()
        todo: list[pyast.AST] = [function]
        for node in todo:  # (breadth first, each node's parent noted as its children are listed)
            for child in child_nodes(node):
                above[id(child)] = node
                todo.append(child)
            if node.__class__ is Call and (
                _game_call(node, REACHING) or (node.func.__class__ is Name and node.func.id in generators)
            ):
                at: pyast.AST | None = node
                while at is not None and id(at) not in paths:
                    paths.add(id(at))
                    at = above.get(id(at))
        return paths

    def generic_visit(self, node: pyast.AST) -> pyast.AST:
        """`NodeTransformer.generic_visit`, visiting only the children on a path to a call to rewrite."""
        paths = self.paths
        for field, old in pyast.iter_fields(node):
            if isinstance(old, list):
                if not any(id(value) in paths for value in old):
                    continue
                values: list[Any] = []
                for value in old:
                    if id(value) in paths:
                        value = self.visit(value)
                        if value is None:
                            continue
                        if not isinstance(value, pyast.AST):
                            values.extend(value)
                            continue
                    values.append(value)
                old[:] = values
            elif id(old) in paths:
                made = self.visit(old)
                if made is None:
                    delattr(node, field)
                else:
                    setattr(node, field, made)
        return node

    def visit_FunctionDef(self, node: pyast.FunctionDef) -> pyast.AST:
        if self.nested:
            self._refuse(node, "a function defined inside generated code")
            return node
        self.nested = True
        self.generic_visit(node)
        self.nested = False
        return node

    nested = False

    def _refuse(self, scope: pyast.AST, what: str) -> None:
        """Raise SteppingError if a request can be made inside `scope` (where `yield` cannot go)."""
        for node in walk(scope):
            if isinstance(node, pyast.Call) and (
                _game_call(node, REACHING) or (isinstance(node.func, pyast.Name) and node.func.id in self.generators)
            ):
                raise SteppingError(f"a request inside {what} (line {node.lineno}) cannot be stepped")

    def visit_Lambda(self, node: pyast.Lambda) -> pyast.AST:
        self._refuse(node, "a lambda")
        return node

    def _comprehension(self, node: pyast.AST) -> pyast.AST:
        self._refuse(node, "a comprehension")
        return node

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension

    def visit_Expr(self, node: pyast.Expr) -> Any:
        value = node.value
        if isinstance(value, pyast.Call):
            method = _game_call(value, PAYMENTS)
            if method is not None and not value.keywords:
                return self._payment(node, value, method)
            method = _game_call(value, CHANCE)
            if method is not None:
                self.generic_visit(value)
                asked = pyast.Expr(pyast.YieldFrom(_call(method + "_s", value)))
                return _made_at(pyast.If(_g("chance_inside"), [pyast.Expr(value)], [asked]), node)
        return self.generic_visit(node)

    def _payment(self, node: pyast.Expr, call: pyast.Call, method: str) -> list[pyast.stmt]:
        """`g.pay_X(a, b, c, span)` as a statement: its arguments bound once, the quick path, else the
        shortfall's generator."""
        self.generic_visit(call)
        bound: list[pyast.stmt] = []
        args: list[pyast.expr] = []
        for arg in call.args:
            if _simple(arg):
                args.append(arg)
                continue
            self.temporaries += 1
            name = f"_pay{self.temporaries}"
            bound.append(_made_at(pyast.Assign([pyast.Name(name, pyast.Store())], arg), node))
            args.append(pyast.Name(name, pyast.Load()))
        quick = pyast.Call(_g(method + "_q"), args, [])
        slow = pyast.Call(_g("transfer_s"), [copy.copy(a) for a in args], [])
        test = pyast.Compare(quick, [pyast.Is()], [pyast.Name("_SLOW", pyast.Load())])
        branch = pyast.If(test, [pyast.Expr(pyast.YieldFrom(slow))], [])
        return [*bound, _made_at(branch, node)]

    def visit_Call(self, node: pyast.Call) -> pyast.AST:
        self.generic_visit(node)
        method = _game_call(node, REACHING)
        if method is not None:
            return _made_at(pyast.YieldFrom(_call(method + "_s", node)), node)
        if isinstance(node.func, pyast.Name) and node.func.id in self.generators:
            return _made_at(pyast.YieldFrom(node), node)
        return node


def _check_only_called(tree: pyast.Module, generators: set[str]) -> None:
    """Raise SteppingError if a generated function that becomes a generator is used other than by a call
    (a table of functions, say): its callers could not know to `yield from` it."""
    called: set[int] = set()
    named: list[pyast.Name] = []
    for node in walk(tree):  # (one walk of the whole module)
        if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Name):
            called.add(id(node.func))
        elif isinstance(node, pyast.Name) and node.id in generators:
            named.append(node)
    for name in named:
        if id(name) not in called:
            raise SteppingError(f"'{name.id}' (line {name.lineno}) is used other than by a call")


def _maybe_named_other_than_called(source: str, generators: set[str]) -> bool:
    """Return False if the text `source` names none of `generators` other than right before a `(` (so its
    tree uses them only by a call, and `_check_only_called` would find nothing: it need not walk the
    tree); True if it may (a name in a string counts too: the tree is then walked)."""
    if not generators:
        return False
    named = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(generators))) + r")\b(?!\()")
    return named.search(source) is not None


def _names(node: pyast.AST, ctx: type) -> set[str]:
    """Return the names `node` loads (ctx Load) or binds (Store), nested scopes included."""
    return {n.id for n in walk(node) if isinstance(n, pyast.Name) and isinstance(n.ctx, ctx)}


_SCOPES = (pyast.FunctionDef, pyast.Lambda, pyast.ListComp, pyast.SetComp, pyast.DictComp, pyast.GeneratorExp)


class _Scan(NamedTuple):
    """What one walk of a generated function finds (`_scan`)."""

    loads: dict[int, frozenset[str]]  # by id: the names each statement, `except` clause, or expression right
    # below a statement (an `if`'s test, a loop's iterator, ...) loads, nested ones included
    yields: set[int]  # the ids of those that hold a `yield from` somewhere below
    jumps: set[int]  # the ids of those that hold a `break` or `continue` somewhere below
    stored: set[str]  # the names the function binds outside nested scopes (functions, lambdas, comprehensions)


# the classes of the nodes a statement's part (`_scan`) is walked flat only without: statements hold the
# nodes `_Scan.loads` notes, and names stored inside a nested scope are not the function's
_STATEMENT_OR_SCOPE = frozenset(
    c
    for c in vars(pyast).values()
    if isinstance(c, type) and issubclass(c, (pyast.stmt, pyast.excepthandler, *_SCOPES))
)


def _scan(function: pyast.FunctionDef) -> _Scan:
    """Return what `function` loads, where it may ask or jump, and what it binds (`_Scan`): one walk of it.

    Statements are gone through one by one; each part of a statement that is not one (an expression, say)
    is walked flat, unless it holds a statement or a nested scope (a lambda, a comprehension), which the
    node-by-node walk (`visit`) then goes through as it would the whole function.
    """
    out: dict[int, frozenset[str]] = {}
    yields: set[int] = set()
    jumps: set[int] = set()
    stored: set[str] = set()
    statement = (pyast.stmt, pyast.excepthandler)
    Name, Load, Store, YieldFrom = pyast.Name, pyast.Load, pyast.Store, pyast.YieldFrom

    def visit(node: pyast.AST, noted: bool, nested: bool) -> tuple[set[str], bool, bool]:
        names: set[str] = set()
        if isinstance(node, pyast.Name):
            if isinstance(node.ctx, pyast.Load):
                names.add(node.id)
            elif not nested and isinstance(node.ctx, pyast.Store):
                stored.add(node.id)
        asks = isinstance(node, pyast.YieldFrom)
        jump = isinstance(node, (pyast.Break, pyast.Continue))
        below = isinstance(node, statement)
        inner = nested or (node is not function and isinstance(node, _SCOPES))
        for child in child_nodes(node):
            n, a, j = (
                visit_part(child, inner) if below and not isinstance(child, statement) else visit(child, below, inner)
            )
            names |= n
            asks = asks or a
            jump = jump or j
        if noted or below:
            out[id(node)] = frozenset(names)
            if asks:
                yields.add(id(node))
            if jump:
                jumps.add(id(node))
        return names, asks, jump

    def visit_part(node: pyast.AST, nested: bool) -> tuple[set[str], bool, bool]:
        """`visit` of a statement's part (`noted`), walked flat where it holds no statement or scope."""
        names: set[str] = set()
        stores: list[str] = []
        asks = False
        for n in walk(node):
            kind = n.__class__
            if kind is Name:
                ctx = n.ctx.__class__  # type: ignore[attr-defined]
                if ctx is Load:
                    names.add(n.id)  # type: ignore[attr-defined]
                elif ctx is Store:
                    stores.append(n.id)  # type: ignore[attr-defined]
            elif kind is YieldFrom:
                asks = True
            elif kind in _STATEMENT_OR_SCOPE:
                return visit(node, True, nested)
        if not nested:
            stored.update(stores)
        out[id(node)] = frozenset(names)
        if asks:
            yields.add(id(node))
        return names, asks, False  # (only a statement breaks or continues)

    visit(function, True, False)
    return _Scan(out, yields, jumps, stored)


# the scopes whose bindings are not those of the function around them (`_closure_reads`)
_INNER_SCOPES = (*_SCOPES, pyast.AsyncFunctionDef, pyast.ClassDef)


def _closure_reads(function: pyast.FunctionDef | pyast.AsyncFunctionDef) -> frozenset[str]:
    """Return the names that defining the nested function `function` may read of the function around it:
    what its decorators, defaults and annotations load (worked out where it is defined), and what its
    body loads that it does not bind itself (read through its closure when it is called; a name it
    binds is its own all through it). Every name it loads if it declares one `global` or `nonlocal`.
    The generated `_describe` labels bind the loop variables of the options they label (`v1 = x`):
    counted as reads of the function's own `v1`, they kept a value no later code reads in the keys."""
    loads = _names(function, pyast.Load)
    if any(isinstance(n, (pyast.Global, pyast.Nonlocal)) for n in walk(function)):
        return frozenset(loads)
    arguments = function.args
    params = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
    params += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
    defined: list[Any] = [*function.decorator_list, *arguments.defaults, function.returns]
    defined += [d for d in arguments.kw_defaults if d is not None] + [a.annotation for a in params]
    outside: set[str] = set()
    for part in defined:
        if part is not None:
            outside |= _names(part, pyast.Load)
    bound = {a.arg for a in params}
    todo: list[pyast.AST] = list(function.body)
    while todo:  # (the body's own bindings: not those of a scope nested in it)
        node = todo.pop()
        if isinstance(node, pyast.Name) and not isinstance(node.ctx, pyast.Load):
            bound.add(node.id)
        elif not isinstance(node, _INNER_SCOPES):
            todo += child_nodes(node)
    return frozenset(outside | (loads - bound))


def _clean_places(statement: pyast.stmt) -> set[int]:
    """Return the ids of the expressions in `statement` evaluated with nothing else of the statement
    pending (no operand already worked out and waiting): a `yield from` there hides no value."""
    roots: list[Any] = []
    if isinstance(statement, (pyast.Expr, pyast.Assign, pyast.Return)):
        roots.append(statement.value)
    elif isinstance(statement, (pyast.If, pyast.While)):
        roots.append(statement.test)
    out: set[int] = set()
    while roots:
        node = roots.pop()
        if node is None:
            continue
        out.add(id(node))
        if isinstance(node, pyast.IfExp):  # (its test is worked out and used up before either branch)
            roots += [node.body, node.orelse]
    return out


_Flow = tuple[frozenset[str], frozenset[str], bool]


class _Keyed:
    """Make the generator functions of a stepped module lay out their continuation keys (the module's
    docstring).

    The locals a function may still read after a call are found from the syntax tree by a live-variable
    analysis on the safe side (`_flow`): a local counts unless every way on from the call assigns it
    before any read of it. What a loop reads counts in its body (it may go round again), and so does its
    place, which its iterator hides: a `for` loop that may ask is given a sequence and a count of its own
    (`_key_seqN`, `_key_atN`). In a `try` body, whatever its `except` and `finally` blocks read counts
    all along (an exception may come at any point). A call whose frame holds what no local shows puts
    OPAQUE in its entry, so that its requests match no other: one inside an expression after other
    operands are worked out, inside an `except` or `finally` block (the exception being handled) or a
    `with` block (its context manager).
    """

    DEPTH = f"{Prefix.PASS_KEYED}depth"
    NOTHING: frozenset[str] = frozenset()

    def __init__(self) -> None:
        self.sites = 0
        self.loops = 0
        self.locals: set[str] = set()
        self.loads: dict[int, frozenset[str]] = {}
        # (of the nodes `loads` knows: those with a `yield from` below, and those with a `break` or `continue`)
        self.yields: set[int] = set()
        self.jumps: set[int] = set()
        self.flows: dict[int, _Flow] = {}
        self.holders: dict[int, pyast.FunctionDef] = {}  # the function holding each call site, by its number
        self.keyed: set[str] = set()  # the locals some key entry of the function being instrumented reads

    def _reads(self, nodes: list[Any]) -> frozenset[str]:
        """Return every name the statements or expressions `nodes` load (`except` clauses too)."""
        out: set[str] = set()
        for node in nodes:
            known = self.loads.get(id(node))
            out |= known if known is not None else _names(node, pyast.Load)
        return frozenset(out)

    # ------------------------------------------------------------ liveness
    def _flow(self, node: pyast.stmt) -> _Flow:
        """Return (exposed, assigned, jumps) of a statement: the names it may read before assigning them,
        the names every way through it assigns (to its end, or to a `break` or `continue` in it), and
        whether it may `break` or `continue` a loop around it."""
        known = self.flows.get(id(node))
        if known is None:
            known = self.flows[id(node)] = self._flow_of(node)
        return known

    def _flow_block(self, statements: list[pyast.stmt]) -> _Flow:
        """Return (exposed, assigned, jumps) of a block of statements (`_flow`)."""
        exposed: frozenset[str] = self.NOTHING
        assigned: frozenset[str] = self.NOTHING
        jumps = False
        for statement in reversed(statements):  # (the block's flow is that of its first statement and the rest)
            e, a, j = self._flow(statement)
            exposed = e | (exposed - a)
            assigned = a if j else a | assigned
            jumps = jumps or j
        return exposed, assigned, jumps

    def _flow_of(self, node: pyast.stmt) -> _Flow:
        nothing = self.NOTHING
        if isinstance(node, pyast.If):
            body, orelse = self._flow_block(node.body), self._flow_block(node.orelse)
            return self._reads([node.test]) | body[0] | orelse[0], body[1] & orelse[1], body[2] or orelse[2]
        if isinstance(node, pyast.While):
            body, orelse = self._flow_block(node.body), self._flow_block(node.orelse)
            return self._reads([node.test]) | body[0] | orelse[0], nothing, orelse[2]
        if isinstance(node, pyast.For):
            body, orelse = self._flow_block(node.body), self._flow_block(node.orelse)
            targets = _names(node.target, pyast.Store)
            return self._reads([node.iter]) | (body[0] - targets) | orelse[0], nothing, orelse[2]
        if isinstance(node, pyast.Try):
            parts = [self._flow_block(b) for b in (node.body, node.orelse, node.finalbody)]
            parts += [self._flow_block(h.body) for h in node.handlers]
            exposed = frozenset().union(*(part[0] for part in parts)) | self._reads([h.type for h in node.handlers])
            return exposed, nothing, any(part[2] for part in parts)
        if isinstance(node, (pyast.Break, pyast.Continue)):
            return nothing, nothing, True
        if isinstance(node, (pyast.FunctionDef, pyast.AsyncFunctionDef)):
            return _closure_reads(node), nothing, False
        if isinstance(node, (pyast.Assign, pyast.AugAssign, pyast.AnnAssign)):
            aims: list[pyast.expr] = node.targets if isinstance(node, pyast.Assign) else [node.target]
            assigned: set[str] = set()
            for target in aims:
                todo: list[pyast.expr] = [target]
                while todo:  # (names, and names in tuples and lists of targets; not subscripts or attributes)
                    t = todo.pop()
                    if isinstance(t, pyast.Name):
                        assigned.add(t.id)
                    elif isinstance(t, (pyast.Tuple, pyast.List)):
                        todo += t.elts
                    elif isinstance(t, pyast.Starred):
                        todo.append(t.value)
            if isinstance(node, pyast.AnnAssign) and node.value is None:
                assigned.clear()
            return self._reads([node]), frozenset(assigned), False
        jumps = not isinstance(node, (pyast.FunctionDef, pyast.AsyncFunctionDef, pyast.ClassDef)) and (
            id(node) in self.jumps
            if id(node) in self.loads
            else any(isinstance(n, (pyast.Break, pyast.Continue)) for n in walk(node))
        )
        return self._reads([node]), nothing, jumps  # (a `with`, a `match`, a return, an expression, ...)

    # -------------------------------------------------------- instrumenting
    def instrument(self, function: pyast.FunctionDef) -> None:
        """Rewrite the generator function `function` in place to lay out its continuation keys."""
        self.function = function
        self.keyed = set()
        args = {a.arg for a in function.args.posonlyargs + function.args.args + function.args.kwonlyargs}
        self.loads, self.yields, self.jumps, stored = _scan(function)
        self.flows = {}
        alias = str(Prefix.PASS_ALIAS)
        # the game and its lists, read once into locals, are the same objects in every continuation
        self.locals = {
            name for name in (args | stored) - {"g"} if not name.startswith(alias) or name == f"{alias}actor"
        }
        body = self._block(function.body, self.NOTHING, self.NOTHING)
        start: list[pyast.stmt] = [
            pyast.Assign(
                [pyast.Name(self.DEPTH, pyast.Store())],
                pyast.Call(pyast.Name("len", pyast.Load()), [_g("kstack")], []),
            )
        ]
        # every local a key entry reads has a value at every call, so the entry can read it unassigned; the
        # others are read only where the function's own flow has assigned them (a resume entry starts with
        # the same assignment: it costs a store a name at every resumed run)
        unset = sorted((stored - args) & self.keyed)
        if unset:
            targets: list[pyast.expr] = [pyast.Name(name, pyast.Store()) for name in unset]
            start.append(pyast.Assign(targets, pyast.Name("_KEY_UNSET", pyast.Load())))
        for node in start:
            _made_at(node, function.body[0])
        function.body = start + body

    def _block(
        self, statements: list[pyast.stmt], after: frozenset[str], always: frozenset[str], opaque: bool = False
    ) -> list[pyast.stmt]:
        """Return `statements` instrumented, where `after` are the names live once the block is done and
        `always` those live all through it (what an enclosing `except` or `finally` block reads)."""
        # what is live after each statement: the flow of the statements after it, then `after`
        live_after: list[frozenset[str]] = []
        exposed: frozenset[str] = self.NOTHING
        assigned: frozenset[str] = self.NOTHING
        for statement in reversed(statements):
            live_after.append(exposed | (after - assigned) | always)
            e, a, j = self._flow(statement)
            exposed = e | (exposed - a)
            assigned = a if j else a | assigned
        live_after.reverse()
        out: list[pyast.stmt] = []
        for statement, live in zip(statements, live_after):
            out += self._statement(statement, live, always, opaque)
        return out

    def _statement(
        self, node: pyast.stmt, after: frozenset[str], always: frozenset[str], opaque: bool
    ) -> list[pyast.stmt]:
        """Return the statement `node` instrumented (with what it needs before it), `after` being the names
        live once it is done and `always` those live all through it."""
        if isinstance(node, pyast.If):
            self._sites(node, [node.test], self._flow(node)[0] | after | always, opaque)
            node.body = self._block(node.body, after, always, opaque)
            node.orelse = self._block(node.orelse, after, always, opaque)
            return [node]
        if isinstance(node, pyast.While):
            looping = self._flow(node)[0] | after
            self._sites(node, [node.test], looping | always, opaque)
            node.body = self._block(node.body, looping, always, opaque)
            node.orelse = self._block(node.orelse, after, always, opaque)
            return [node]
        if isinstance(node, pyast.For):
            return self._for(node, after, always, opaque)
        if isinstance(node, pyast.Try):
            final = self._flow_block(node.finalbody)[0]
            handled = frozenset().union(*(self._flow_block(h.body)[0] for h in node.handlers))
            through = always | final
            orelse = self._flow_block(node.orelse)[0]
            node.body = self._block(node.body, orelse | final | after, through | handled, opaque)
            for handler in node.handlers:
                handler.body = self._block(handler.body, final | after, through, True)
            node.orelse = self._block(node.orelse, final | after, through, opaque)
            node.finalbody = self._block(node.finalbody, after, always, True)
            return [node]
        if isinstance(node, (pyast.With, pyast.AsyncWith, pyast.Match, pyast.AsyncFor, pyast.TryStar)):
            self._opaque_everywhere(node)
            return [node]
        if not isinstance(node, (pyast.FunctionDef, pyast.AsyncFunctionDef, pyast.ClassDef)):
            self._sites(node, [node], self._reads([node]) | after | always, opaque)
        return [node]

    def _for(self, node: pyast.For, after: frozenset[str], always: frozenset[str], opaque: bool) -> list[pyast.stmt]:
        """Return a `for` loop instrumented: a loop that may ask is given a sequence and a count the key
        can read (`for x in E` becomes `seq = E; at = -1; for x in seq: at += 1; ...`)."""
        looping = self._flow(node)[0] | after
        asks = any(self._asks(s) for s in node.body)
        if not asks:
            self._sites(node, [node.iter], looping | always, opaque)
            node.orelse = self._block(node.orelse, after, always, opaque)
            return [node]
        self.loops += 1
        seq, at = f"{Prefix.PASS_KEYED}seq{self.loops}", f"{Prefix.PASS_KEYED}at{self.loops}"
        self.locals |= {seq, at}
        before: list[pyast.stmt] = [
            pyast.Assign([pyast.Name(seq, pyast.Store())], node.iter),
            pyast.Assign([pyast.Name(at, pyast.Store())], pyast.Constant(-1)),
        ]
        for statement in before:
            _made_at(statement, node)
        node.iter = _made_at(pyast.Name(seq, pyast.Load()), node)
        looping |= {seq, at}
        out = self._statement(before[0], looping, always, opaque) + [before[1]]
        count = pyast.AugAssign(pyast.Name(at, pyast.Store()), pyast.Add(), pyast.Constant(1))
        node.body = [_made_at(count, node), *self._block(node.body, looping, always, opaque)]
        node.orelse = self._block(node.orelse, after, always, opaque)
        return [*out, node]

    def _asks(self, node: pyast.AST) -> bool:
        """Return whether `node` holds a `yield from` (known from `_scan` where it saw the node)."""
        if id(node) in self.loads:
            return id(node) in self.yields
        return any(isinstance(n, pyast.YieldFrom) for n in walk(node))

    def _opaque_everywhere(self, node: pyast.AST) -> None:
        for inner in walk(node):
            if isinstance(inner, pyast.YieldFrom):
                self._key(inner, self.NOTHING, True)

    def _sites(self, statement: pyast.stmt, parts: list[Any], live: frozenset[str], opaque: bool) -> None:
        """Key the calls that may ask in `parts` (the statement's own expressions), `live` being the names
        the function may read after them."""
        clean = _clean_places(statement)
        for part in parts:
            if not self._asks(part):
                continue
            for node in walk(part):
                if isinstance(node, pyast.YieldFrom):
                    self._key(node, live, opaque or id(node) not in clean)

    def _key(self, node: pyast.YieldFrom, live: frozenset[str], opaque: bool) -> None:
        """Make `yield from CALL` `yield from g._keyed(CALL, depth, (site, live values...))`."""
        self.sites += 1
        self.holders[self.sites] = self.function
        held = self.NOTHING if opaque else live & self.locals
        self.keyed |= held
        values: list[pyast.expr] = (
            [pyast.Name("_KEY_OPAQUE", pyast.Load())]
            if opaque
            else [pyast.Name(name, pyast.Load()) for name in sorted(held)]
        )
        entry = pyast.Tuple([pyast.Constant(self.sites), *values], pyast.Load())
        call = pyast.Call(_g("_keyed"), [node.value, pyast.Name(self.DEPTH, pyast.Load()), entry], [])
        node.value = _made_at(call, node.value)


# ------------------------------------------------------------------ resuming
_Wrap = Callable[[list[pyast.stmt]], list[pyast.stmt]]


def _load(name: str) -> pyast.Name:
    return pyast.Name(name, pyast.Load())


class _Resumes:
    """The resume entries of a keyed stepped module (issue 31): for each call site whose continuation key
    is not OPAQUE, a generator function `_key_resumeN(g, _key_callee, _key_depth, <the key's locals>)`
    that runs `yield from _key_callee` in place of the call at site N and then the rest of the function,
    as the function would have gone on after it: the rest of the enclosing block, then outward through
    the enclosing `if`, `for` (its remaining items, from the place the key records), `while` and `try`
    (its handlers and `finally` around the rest of its body) to the function's end. A `break` or
    `continue` in the rest of a loop's body ends a one-pass loop around it, whose `else` runs the loop's
    remaining passes: so each jumps as it would have. The game's lists read once into locals are read
    again (the same objects). The functions' syntax trees share the keyed module's nodes: each is
    compiled only when first asked for (`build_stepped`'s `resume`)."""

    CALLEE = f"{Prefix.PASS_KEYED}callee"
    ONCE = f"{Prefix.PASS_KEYED}ONCE"  # (None,): the one-pass loop
    REST = f"{Prefix.PASS_KEYED}rest"  # a loop's remaining items: `islice(seq, at + 1, None)`

    def __init__(self) -> None:
        self.found: dict[int, pyast.FunctionDef] = {}
        self.aliases: list[pyast.stmt] = []
        self.unset: list[str] = []
        self.fresh: set[int] = set()  # the ids of the statements made (by copy_location, located)

    def _fresh(self, node: pyast.stmt, where: pyast.stmt) -> pyast.stmt:
        """Return the statement `node`, made here, with the location of `where` (its children get it too)."""
        self.fresh.add(id(node))
        return pyast.copy_location(node, where)

    def function(self, function: pyast.FunctionDef) -> None:
        """Make the resume entries of the keyed generator function `function` (`found`, by site)."""
        alias, actor = str(Prefix.PASS_ALIAS), f"{Prefix.PASS_ALIAS}actor"
        self.aliases = [
            s
            for s in function.body
            if isinstance(s, pyast.Assign)
            and len(s.targets) == 1
            and isinstance(s.targets[0], pyast.Name)
            and s.targets[0].id.startswith(alias)
            and s.targets[0].id != actor
            and isinstance(s.value, (pyast.Attribute, pyast.Subscript))
        ]
        # every local has a value wherever the function may read it (`_Keyed.instrument`): so in its resume
        # entries, those the key does not hold (a key's own entry reads a local that may be unset)
        self.unset = [
            t.id
            for s in function.body
            if isinstance(s, pyast.Assign) and isinstance(s.value, pyast.Name) and s.value.id == "_KEY_UNSET"
            for t in s.targets
            if isinstance(t, pyast.Name)
        ]
        self._block(function.body, lambda rest: rest)

    def _block(self, block: list[pyast.stmt], wrap: _Wrap) -> None:
        for i, statement in enumerate(block):
            after = block[i + 1 :]

            def outward(rest: list[pyast.stmt], after: list[pyast.stmt] = after) -> list[pyast.stmt]:
                return wrap(rest + after)

            if isinstance(statement, (pyast.Expr, pyast.Assign, pyast.Return)):
                for site, entry in self._sites(statement.value):
                    resumed = copy.copy(statement)
                    resumed.value = pyast.YieldFrom(_load(self.CALLEE))
                    self._make(site, entry, outward([self._fresh(resumed, statement)]), statement)
            elif isinstance(statement, pyast.If):
                for site, entry in self._sites(statement.test):
                    branch = copy.copy(statement)
                    branch.test = pyast.YieldFrom(_load(self.CALLEE))
                    self._make(site, entry, outward([self._fresh(branch, statement)]), statement)
                self._block(statement.body, outward)
                self._block(statement.orelse, outward)
            elif isinstance(statement, pyast.While):
                for site, entry in self._sites(statement.test):
                    once = self._once(statement.body, [statement], statement)
                    looped = pyast.If(pyast.YieldFrom(_load(self.CALLEE)), [once], statement.orelse)
                    self._make(site, entry, outward([self._fresh(looped, statement)]), statement)
                self._block(statement.body, self._looping(statement, [statement], outward))
                self._block(statement.orelse, outward)
            elif isinstance(statement, pyast.For):
                self._for(statement, outward)
            elif isinstance(statement, pyast.Try):
                self._block(statement.body, self._trying(statement, statement.handlers, statement.orelse, outward))
                self._block(statement.orelse, self._trying(statement, [], [], outward))
            # (a `with`, `match` or the like: its calls are OPAQUE; an `except` or `finally` block's too)

    def _for(self, loop: pyast.For, outward: _Wrap) -> None:
        """The sites in a `for` loop's body: the loop was given a sequence and a count (`_Keyed._for`)."""
        first = loop.body[0] if loop.body else None
        keyed = (
            isinstance(loop.iter, pyast.Name)
            and isinstance(first, pyast.AugAssign)
            and isinstance(first.target, pyast.Name)
            and first.target.id.startswith(f"{Prefix.PASS_KEYED}at")
        )
        if keyed:
            at = first.target.id  # type: ignore[union-attr]
            rest_of = pyast.Call(_load(self.REST), [loop.iter, _load(at)], [])
            remaining = self._fresh(pyast.For(loop.target, rest_of, loop.body, loop.orelse), loop)
            self._block(loop.body, self._looping(loop, [remaining], outward))
        self._block(loop.orelse, outward)

    def _looping(self, loop: pyast.stmt, then: list[pyast.stmt], outward: _Wrap) -> _Wrap:
        """Return the wrap of the rest of a pass of `loop`'s body: one pass, then `then` (the loop's other
        passes) unless it breaks, then `outward`."""

        def wrap(rest: list[pyast.stmt]) -> list[pyast.stmt]:
            return outward([self._once(rest, then, loop)])

        return wrap

    def _trying(
        self, tried: pyast.Try, handlers: list[pyast.ExceptHandler], orelse: list[pyast.stmt], outward: _Wrap
    ) -> _Wrap:
        """Return the wrap of the rest of a `try` statement's body (with its `handlers` and `orelse`) or of its
        `else` block (with neither): inside the same `try`, then `outward`."""

        def wrap(rest: list[pyast.stmt]) -> list[pyast.stmt]:
            if not (handlers or tried.finalbody):
                return outward(rest)
            return outward([self._fresh(pyast.Try(rest, handlers, orelse, tried.finalbody), tried)])

        return wrap

    def _once(self, body: list[pyast.stmt], then: list[pyast.stmt], where: pyast.stmt) -> pyast.stmt:
        """`for _ in ONCE: body` `else: then`: `body` run as one pass of a loop, `then` unless it breaks."""
        target = pyast.Name(f"{Prefix.PASS_KEYED}once", pyast.Store())
        return self._fresh(pyast.For(target, _load(self.ONCE), body, then), where)

    def _sites(self, value: pyast.expr | None) -> list[tuple[int, pyast.Tuple]]:
        """Return the keyed calls, not OPAQUE, at the places of `value` (a statement's value or test)
        evaluated with nothing pending (`_clean_places`): their site numbers and key entries."""
        out: list[tuple[int, pyast.Tuple]] = []
        todo = [value]
        while todo:
            node = todo.pop()
            if isinstance(node, pyast.IfExp):
                todo += [node.body, node.orelse]
            elif isinstance(node, pyast.YieldFrom) and isinstance(node.value, pyast.Call):
                call = node.value
                if _game_call(call, {"_keyed"}) and len(call.args) == 3 and isinstance(call.args[2], pyast.Tuple):
                    entry = call.args[2]
                    opaque = any(isinstance(e, pyast.Name) and e.id == "_KEY_OPAQUE" for e in entry.elts)
                    site = entry.elts[0].value if isinstance(entry.elts[0], pyast.Constant) else None
                    if not opaque and isinstance(site, int):
                        out.append((site, entry))
        return out

    def _make(self, site: int, entry: pyast.Tuple, body: list[pyast.stmt], where: pyast.stmt) -> None:
        names = [e.id for e in entry.elts[1:] if isinstance(e, pyast.Name)]
        params = [pyast.arg(name) for name in ["g", self.CALLEE, _Keyed.DEPTH, *names]]
        arguments = pyast.arguments([], params, None, [], [], None, [])
        start = list(self.aliases)
        held = set(names)
        unset: list[pyast.expr] = [pyast.Name(name, pyast.Store()) for name in self.unset if name not in held]
        if unset:
            start.insert(0, pyast.Assign(unset, _load("_KEY_UNSET")))
        function = pyast.FunctionDef(f"{Prefix.PASS_KEYED}resume{site}", arguments, [*start, *body], [], None)
        self.found[site] = function = self._fresh(function, where)  # type: ignore[assignment]
        self._locate(function, function)

    def _locate(self, node: pyast.AST, where: pyast.AST) -> None:
        """Give the nodes this class made below `node` the location of their nearest located ancestor
        (`where`: the statements made have one, `_fresh`), without walking the keyed module's nodes they
        share, which have theirs."""
        for child in child_nodes(node):
            located = where
            if "lineno" in child._attributes:
                if hasattr(child, "lineno"):
                    if id(child) not in self.fresh:
                        continue  # (the keyed module's)
                else:
                    pyast.copy_location(child, where)
                located = child
            self._locate(child, located)


def resume_entries(function: pyast.FunctionDef) -> dict[int, pyast.FunctionDef]:
    """Return the resume entries of the keyed generator function `function` by call site (`_Resumes`):
    syntax trees made of its nodes (shared, not copied; located), each to compile alone."""
    made = _Resumes()
    made.function(function)
    return made.found


def stepped_tree(source: str, optimize: bool = True, keyed: bool = False) -> tuple[pyast.Module, set[str]]:
    """Return the syntax tree of the stepped compilation of generated `source` (optimized as the driven
    one is when `optimize`; laying out continuation keys when `keyed`, `_Keyed`) and the names of its
    functions that are generators."""
    return stepped_module(pyast.parse(source), optimize, keyed)


def stepped_module(
    tree: pyast.Module,
    read_lists_once: bool,
    keyed: bool,
    generators_only: bool = False,
    source: str | None = None,
    resumes: dict[int, pyast.FunctionDef] | None = None,
) -> tuple[pyast.Module, set[str]]:
    """Return the stepped compilation of the generated module `tree` (`stepped_tree`), made by rewriting
    `tree` in place, and the names of its functions that are generators. With `read_lists_once` the
    functions kept are first rewritten as `read_game_lists_once` does (pass False for a tree that already
    is, or for the plain translation). With `generators_only`, the module keeps the generator functions
    alone: the others are the driven compilation's code unchanged (`build_stepped`). `source`, if given, is
    the text `tree` was parsed from (its function names the same), searched before the tree is walked for
    a generator function used other than by a call. `resumes`, given with `keyed`, is filled with the
    generator function that holds each keyed call site, by the site's number (`resume_entries` makes its
    resume entries)."""
    functions = {f.name: f for f in tree.body if isinstance(f, pyast.FunctionDef)}
    # (which functions reach a request does not depend on `read_game_lists_once`, which rewrites reads of
    # the game's lists, never a call: it is worked out first, so that only the functions kept are rewritten)
    generators = _generators(functions)
    if source is None or _maybe_named_other_than_called(source, generators):
        _check_only_called(tree, generators)
    if generators_only:
        tree.body = [f for f in tree.body if isinstance(f, pyast.FunctionDef) and f.name in generators]
    if read_lists_once:
        for node in tree.body:
            if isinstance(node, pyast.FunctionDef):
                read_lists_once_in(node)
    rewrite = _ToGenerators(generators)
    for name in sorted(generators):  # in a fixed order: the temporaries it numbers are the same in every process
        rewrite.rewrite(functions[name])
    if keyed:
        keys = _Keyed()
        for name in sorted(generators):
            keys.instrument(functions[name])
    if keyed and resumes is not None:
        resumes.update(keys.holders)
    return tree, generators


def decks_read(tree: pyast.Module, decks: list[str], source: str | None = None) -> frozenset[str]:
    """Return the decks whose order the generated code reads (a call of the `cards_in` builtin with the
    deck's name; every deck if one names its deck otherwise). `source`, if given, is the text `tree` was
    parsed from: where it does not name the builtin, the tree is not walked."""
    read: set[str] = set()
    builtin = f"{Prefix.BUILTIN}cards_in"
    if source is not None and builtin not in source:
        return frozenset()
    for node in walk(tree):
        if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Name) and node.func.id == builtin:
            deck = node.args[1] if len(node.args) == 2 else None
            if not (isinstance(deck, pyast.Constant) and isinstance(deck.value, str)):
                return frozenset(decks)
            read.add(deck.value)
    return frozenset(read)


def build_stepped(
    program: Program,
    source: str,
    namespace: dict[str, Any],
    filename: str,
    optimize: bool,
    keyed: bool = False,
    parsed: pyast.Module | None = None,
) -> Any:
    """Return the SteppedProgram of `program`: its entry points from the stepped compilation of `source`
    (keyed if `keyed`), run in a copy of the driven compilation's `namespace` under its `filename` (so
    tracebacks and `Program.line_table` locate the stepped code's lines as the driven code's). `parsed`,
    if given, is the syntax tree the driven compilation ran (`read_game_lists_once` done), which is then
    rewritten in place instead of parsing `source` again. `optimize`: the functions kept are still to be
    rewritten by `read_game_lists_once` (False where the generator wrote their locals, or the driven
    compilation is the plain translation, or `parsed` is given).

    The code made is kept in the private cache (code_cache.py) and taken from there when it holds it:
    then nothing is parsed or rewritten, unless a resume entry it does not hold is asked for."""
    read_once = optimize or parsed is not None  # (what the functions kept are, rewritten or not)
    decks = list(program.deck_cards)
    key = code_cache.stepped_key(source, filename, read_once, keyed, decks)
    made = code_cache.recalled_stepped(key) if key is not None else None
    holders: dict[int, pyast.FunctionDef] = {}  # (the function holding each keyed call site, once made)
    if made is None:
        tree, names, read = _stepped_tree(source, optimize and parsed is None, keyed, decks, parsed, holders)
        made = code_cache.Stepped(compile(tree, filename, "exec"), frozenset(names), read, frozenset(holders))
        if key is not None:
            code_cache.keep_stepped(key, made)
    generators = made.generators
    ns = dict(namespace)
    ns["_SLOW"] = SLOW
    ns["_KEY_UNSET"], ns["_KEY_OPAQUE"] = UNSET, OPAQUE
    ns[_Resumes.ONCE], ns[_Resumes.REST] = (None,), _rest_of
    exec(made.code, ns)  # generated from the checked AST only
    sites = made.sites
    trees: dict[int, pyast.FunctionDef | None] = {}
    compiled: dict[int, Callable] = {}

    def entry_of(site: int) -> code_cache.Entry:
        """The resume entry of `site` from the cache, else made (the keyed compilation's tree made again first
        if it was not: a cache hit), with those of the other sites of its function, and compiled."""
        found = code_cache.recalled_entry(key, site) if key is not None else None
        if found is not None:
            return found[0]
        if site not in trees:
            if not holders:
                _stepped_tree(source, read_once, keyed, decks, None, holders)
            holder = holders[site]
            trees.update(dict.fromkeys(s for s, f in holders.items() if f is holder))
            trees.update(resume_entries(holder))
        tree = trees[site]
        # (located when made: `_Resumes._locate`)
        entry = None if tree is None else (tree.name, compile(pyast.Module([tree], []), filename, "exec"))
        if key is not None:
            code_cache.keep_entry(key, site, entry)
        return entry

    def resume(site: int) -> Callable | None:
        """The resume entry of the keyed call site `site` (`_Resumes`), made (with those of the other sites
        of its function) and compiled the first time it is asked for; None where the site has none (its
        key is OPAQUE)."""
        function = compiled.get(site)
        if function is None:
            if site not in sites:
                return None
            entry = entry_of(site)
            if entry is None:
                return None
            name, code = entry
            exec(code, ns)  # generated from the checked AST only
            function = compiled[site] = ns[name]
        return function

    def twin(function: Callable | None) -> Callable | None:
        """The generator twin of an entry point, or None where the driven function never asks."""
        if function is None or function.__name__ not in generators:
            return None
        return ns[function.__name__]

    return SteppedProgram(
        on_setup=twin(program.on_setup),
        on_turn=twin(program.on_turn),
        on_shortfall=twin(program.on_shortfall),
        on_land=[twin(f) for f in program.on_land],
        on_pass=[twin(f) for f in program.on_pass],
        card_effects=[twin(f) for f in program.card_effects],
        trigger_bodies=[twin(body) for _, _, body, _ in program.triggers],
        decks_read=made.decks_read,
        resume=resume if keyed else None,
    )


def _stepped_tree(
    source: str,
    read_lists_once: bool,
    keyed: bool,
    decks: list[str],
    parsed: pyast.Module | None,
    holders: dict[int, pyast.FunctionDef],
) -> tuple[pyast.Module, set[str], frozenset[str]]:
    """Return the syntax tree of the stepped compilation of `source` (`build_stepped`'s arguments;
    `read_lists_once`: the functions kept are yet to be rewritten by `read_game_lists_once`), made from
    `parsed` if given (rewritten in place), else from `source` parsed; the names of its generator functions;
    and the decks its rules read. `holders` is filled with the function holding each keyed call site."""
    tree = parsed if parsed is not None else pyast.parse(source)
    # (of the whole module: a function that cannot ask may read)
    read = decks_read(tree, decks, source)
    # only the generator functions are compiled again: the others, which cannot ask, are the same code in
    # both compilations, so the generators call the driven module's (a copy of its namespace holds them)
    tree, generators = stepped_module(tree, read_lists_once, keyed, True, source, holders if keyed else None)
    return tree, generators, read


def _rest_of(items: Any, at: int) -> Any:
    """Return the items of a loop's sequence after its `at`-th (a loop resumed: `_Resumes`)."""
    return itertools.islice(items, at + 1, None)
