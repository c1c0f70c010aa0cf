"""The Python-AST pass, the compiler's last step: generated source to the syntax tree that runs.

It rewrites each generated function to read the game's stable lists into
locals once, keeping the source's line numbers.
"""

from __future__ import annotations

import ast as pyast

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
        if (
            isinstance(node, pyast.Attribute)
            and isinstance(node.value, pyast.Name)
            and node.value.id == "g"
            and isinstance(node.ctx, pyast.Load)
            and node.attr in _STABLE_LISTS
        ):
            return node.attr
        if (
            isinstance(node, pyast.Subscript)
            and isinstance(node.ctx, pyast.Load)
            and isinstance(node.value, pyast.Attribute)
            and isinstance(node.value.value, pyast.Name)
            and node.value.value.id == "g"
            and node.value.attr in _STABLE_ROWS
            and isinstance(node.slice, pyast.Constant)
            and isinstance(node.slice.value, int)
        ):
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
