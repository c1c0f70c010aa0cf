"""The stepped compilation (issue 29; docs/state.md): the generated rules again, as generators.

A stepped game (`ld.new_state`) pauses at each request it cannot answer inside: a decision or a bid
for a seat, or a throw or a shuffle when no seed answers chance. This pass makes that pause a `yield`.
It rewrites the Python syntax tree of the generated module (after `read_game_lists_once`, keeping its
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
it was. The driven compilation is untouched: driven play runs the same code as before.
"""

from __future__ import annotations

import ast as pyast
import copy
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..program.compiled import SLOW, SteppedProgram
from .generated_names import Prefix
from .pyast_pass import read_game_lists_once

if TYPE_CHECKING:
    from ..program.compiled import Program

# Engine methods that may ask (each has a generator twin NAME_s in engine/stepping.py).
ASKING = frozenset({"choose", "auction", "draw", "deal", "advance", "move_steps", "move_to", "borrow", "repay_loans"})
# Chance: answered inside by a seed (the driven call), or asked (NAME_s).
CHANCE = frozenset({"roll", "shuffle", "roll_set"})
# Payments: a quick path NAME_q that returns SLOW when the payer is short, else `transfer_s`.
PAYMENTS = frozenset({"pay_in", "pay_out", "pay_within"})
REACHING = ASKING | CHANCE | PAYMENTS | {"transfer"}


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


def _reaching(function: pyast.FunctionDef, generators: set[str]) -> bool:
    """Return True if `function` calls an engine method that may ask, or a generated function that does."""
    for node in pyast.walk(function):
        if isinstance(node, pyast.Call) and (
            _game_call(node, REACHING) or (isinstance(node.func, pyast.Name) and node.func.id in generators)
        ):
            return True
    return False


class _ToGenerators(pyast.NodeTransformer):
    """Rewrite one generated function that may ask into a generator (see the module's docstring)."""

    def __init__(self, generators: set[str]) -> None:
        self.generators = generators
        self.temporaries = 0

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
        for node in pyast.walk(scope):
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
                return pyast.copy_location(pyast.If(_g("chance_inside"), [pyast.Expr(value)], [asked]), node)
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
            bound.append(pyast.copy_location(pyast.Assign([pyast.Name(name, pyast.Store())], arg), node))
            args.append(pyast.Name(name, pyast.Load()))
        quick = pyast.Call(_g(method + "_q"), args, [])
        slow = pyast.Call(_g("transfer_s"), [copy.copy(a) for a in args], [])
        test = pyast.Compare(quick, [pyast.Is()], [pyast.Name("_SLOW", pyast.Load())])
        branch = pyast.If(test, [pyast.Expr(pyast.YieldFrom(slow))], [])
        return [*bound, pyast.copy_location(branch, node)]

    def visit_Call(self, node: pyast.Call) -> pyast.AST:
        self.generic_visit(node)
        method = _game_call(node, REACHING)
        if method is not None:
            return pyast.copy_location(pyast.YieldFrom(_call(method + "_s", node)), node)
        if isinstance(node.func, pyast.Name) and node.func.id in self.generators:
            return pyast.copy_location(pyast.YieldFrom(node), node)
        return node


def _check_only_called(tree: pyast.Module, generators: set[str]) -> None:
    """Raise SteppingError if a generated function that becomes a generator is used other than by a call
    (a table of functions, say): its callers could not know to `yield from` it."""
    called: set[int] = set()
    for node in pyast.walk(tree):
        if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Name):
            called.add(id(node.func))
    for node in pyast.walk(tree):
        if isinstance(node, pyast.Name) and node.id in generators and id(node) not in called:
            raise SteppingError(f"'{node.id}' (line {node.lineno}) is used other than by a call")


def stepped_tree(source: str, optimize: bool = True) -> tuple[pyast.Module, set[str]]:
    """Return the syntax tree of the stepped compilation of generated `source` (optimized as the driven
    one is when `optimize`) and the names of its functions that are generators."""
    tree = read_game_lists_once(source) if optimize else pyast.parse(source)
    functions = {f.name: f for f in tree.body if isinstance(f, pyast.FunctionDef)}
    generators: set[str] = set()
    while True:  # functions that reach a request, to a fixpoint
        more = {name for name, f in functions.items() if name not in generators and _reaching(f, generators)}
        if not more:
            break
        generators |= more
    _check_only_called(tree, generators)
    rewrite = _ToGenerators(generators)
    for name in generators:
        rewrite.visit(functions[name])
    return pyast.fix_missing_locations(tree), generators


def decks_read(tree: pyast.Module, decks: list[str]) -> frozenset[str]:
    """Return the decks whose order the generated code reads (a call of the `cards_in` builtin with the
    deck's name; every deck if one names its deck otherwise)."""
    read: set[str] = set()
    builtin = f"{Prefix.BUILTIN}cards_in"
    for node in pyast.walk(tree):
        if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Name) and node.func.id == builtin:
            deck = node.args[1] if len(node.args) == 2 else None
            if not (isinstance(deck, pyast.Constant) and isinstance(deck.value, str)):
                return frozenset(decks)
            read.add(deck.value)
    return frozenset(read)


def build_stepped(program: Program, source: str, namespace: dict[str, Any], filename: str, optimize: bool) -> Any:
    """Return the SteppedProgram of `program`: its entry points from the stepped compilation of `source`,
    run in a copy of the driven compilation's `namespace` under its `filename` (so tracebacks and
    `Program.line_table` locate the stepped code's lines as the driven code's)."""
    tree, generators = stepped_tree(source, optimize)
    ns = dict(namespace)
    ns["_SLOW"] = SLOW
    exec(compile(tree, filename, "exec"), ns)  # generated from the checked AST only

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
        decks_read=decks_read(tree, list(program.deck_cards)),
    )
