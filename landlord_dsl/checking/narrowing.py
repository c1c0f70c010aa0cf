"""Flow narrowing for the checker (pass 2): which names and fields are known not to be none.

After `if x != none`, `x` (or `s.owner`, or `f(s)`) is known not to be none
in the branch; a statement that changes the game forgets what was known of
everything but the locals it does not set. Paths are keyed by their
canonical text (the formatter's).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from ..language import ast
from ..language.formatter import expr as canonical

if TYPE_CHECKING:
    from .model import Model, Scope


# `here@SELECTOR` in a scope's narrowings: `here` is a space `on land SELECTOR` runs on. Not a local name, so
# the first statement that changes the game forgets it (a move, a card, a payment whose shortfall sends
# the player elsewhere): it holds only until then.
LANDED_ON = "here@"


def narrowing_path(e: ast.Expr) -> str | None:
    """Return the canonical text of a name, field, index or call: the key of flow narrowing.

    Expressions have no side effects, so the same text means the same value
    within a condition and, unless a statement changes the game, after it.
    """
    if isinstance(e, (ast.Name, ast.Field, ast.Index, ast.Call)):
        return canonical(e)
    return None


def still_narrowed(narrowed: frozenset[str], stmts: Iterable[ast.Stmt], scope: Scope) -> frozenset[str]:
    """Return the narrowings that still hold once `stmts` have run.

    A statement that changes the game (a payment, a card given, a variable
    set...) may make any field, variable or call none again; only local
    names it does not `set` stay known not to be none.
    """
    assigned: set[str] = set()
    changes_game = False
    for s in walk_statements(list(stmts)):
        if isinstance(s, ast.Set) and len(s.target) == 1 and scope.lookup(s.target[0]) is not None:
            assigned.add(s.target[0])
        elif not isinstance(s, (ast.Let, ast.If, ast.For)):
            changes_game = True
    if not changes_game and not assigned:
        return narrowed
    return frozenset(p for p in narrowed if p.isidentifier() and scope.lookup(p) is not None and p not in assigned)


def narrowings(cond: ast.Expr, holds: bool) -> frozenset[str]:
    """Return the paths known not to be none when `cond` is `holds`."""
    if isinstance(cond, ast.Binary):
        if cond.op in ("==", "!=") and (isinstance(cond.left, ast.NoneLit) or isinstance(cond.right, ast.NoneLit)):
            other = cond.right if isinstance(cond.left, ast.NoneLit) else cond.left
            path = narrowing_path(other)
            if path is not None and holds == (cond.op == "!="):
                return frozenset({path})
            return frozenset()
        if cond.op == "and" and holds:
            return narrowings(cond.left, True) | narrowings(cond.right, True)
        if cond.op == "or" and not holds:
            return narrowings(cond.left, False) | narrowings(cond.right, False)
    if isinstance(cond, ast.Unary) and cond.op == "not":
        return narrowings(cond.operand, not holds)
    return frozenset()


def purposes_paid(bodies: Iterable[tuple[ast.Stmt, ...]]) -> set[str]:
    """Return the purposes the payments in these bodies are made for (`pay ... as NAME`), nested ones included."""
    return {s.purpose for body in bodies for s in walk_statements(body) if isinstance(s, ast.Pay) and s.purpose}


def statement_blocks(m: Model) -> list[tuple[ast.Stmt, ...]]:
    """Return every block of statements of a checked model: its rules' handlers and triggers, its actions and
    its cards' effects (nested blocks are reached by `walk_statements`)."""
    blocks = [h.body for r in m.rules for h in r.handlers] + [t.body for r in m.rules for t in r.triggers]
    return blocks + [a.body for a in m.actions.values()] + [c.body for d in m.decks.values() for c in d.cards]


def walk_statements(stmts: Iterable[ast.Stmt]) -> Iterator[ast.Stmt]:
    """Yield every statement in a block, nested ones included."""
    stack = list(stmts)
    while stack:
        s = stack.pop()
        yield s
        if isinstance(s, ast.If):
            stack.extend(s.then)
            stack.extend(s.otherwise or ())
        elif isinstance(s, ast.For):
            stack.extend(s.body)
        elif isinstance(s, ast.Choose):
            for o in s.options:
                stack.extend(o.body)
