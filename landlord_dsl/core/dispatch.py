"""Walking the AST by node class (used by the checker's passes, the formatter and the compiler).

A pass marks each of its per-node methods with `@handles(NodeClass, ...)`
(or, as the compiler does, names them by a prefix and the class's name:
`named_dispatch_table`); `dispatch_table` collects them into a dict keyed by
node class and refuses,
when the module is imported, a pass that leaves a class of the node union
(ast.Expr, ast.Stmt, ast.Declaration) without a method. A node class added to
ast.py without its handlers therefore fails every test at once, instead of
reaching a `raise AssertionError` at run time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar, get_args

F = TypeVar("F", bound=Callable[..., Any])


def handles(*classes: type) -> Callable[[F], F]:
    """Return a decorator that marks a function as the handler of `classes` (for `dispatch_table`)."""

    def mark(function: F) -> F:
        function.handles = classes  # type: ignore[attr-defined]
        return function

    return mark


def covers(union: object, handled: Iterable[type], owner: str) -> None:
    """Raise TypeError unless `handled` is exactly the node classes of `union`, naming what is missing or extra."""
    want, have = set(get_args(union)), set(handled)
    _refuse_mismatch(owner, sorted(c.__name__ for c in want - have), sorted(c.__name__ for c in have - want))


def _refuse_mismatch(owner: str, missing: list[str], extra: list[str]) -> None:
    """Raise TypeError naming the node classes `owner` has no handler for, and its handlers of no class."""
    if missing or extra:
        raise TypeError(f"{owner} handles the nodes wrongly: missing {missing or 'none'}, extra {extra or 'none'}")


def dispatch_table(owner: type, union: object) -> dict[type, Callable[..., Any]]:
    """Return {node class: the method of `owner` (or its bases) marked to handle it} for every class of `union`.

    Raises TypeError if a class of the union has no handler.
    """
    members = set(get_args(union))
    table: dict[type, Callable[..., Any]] = {}
    for klass in reversed(owner.__mro__):
        for function in vars(klass).values():
            for node_class in getattr(function, "handles", ()):
                if node_class in members:
                    table[node_class] = function
    covers(union, table, owner.__name__)
    return table


def named_dispatch_table(owner: type, union: object, prefix: str) -> dict[type, Callable[..., Any]]:
    """Return {node class: `owner`'s method named `prefix` + the class's name} for every class of `union`.

    Raises TypeError if a class of the union has no such method, or a method so named has no class.
    """
    classes = {klass.__name__: klass for klass in get_args(union)}
    named = {name[len(prefix) :] for name in dir(owner) if name.startswith(prefix)}
    _refuse_mismatch(owner.__name__, sorted(classes.keys() - named), sorted(named - classes.keys()))
    return {klass: getattr(owner, prefix + name) for name, klass in classes.items()}
