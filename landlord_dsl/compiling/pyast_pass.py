"""The game's lists read into locals once a call in generated code: as it is written, or by a pass over its tree.

Each generated function reads the game's stable lists (and the acting
player) into locals once, at its start, where it reads them at least twice.
The generator writes those locals itself (`lists_read_once`, on each
function's text), so the source is compiled as it is, never parsed; the pass
over the syntax tree that used to add them (`read_game_lists_once`:
`_GameListReads`, then `_SharedGetterCalls`, which calls a group's getter
once where one expression calls it again on the same list, keeping the
source's line numbers) stays for what the text scan does not follow (a
nested function or lambda that takes a game of its own, which the generator
does not write) and for a line naming a getter twice (`may_share_getter_calls`;
no shipped file has one under any option), and as the oracle the
generator's text is tested against (`tests/test_pyast_pass.py`: the same tree
for every shipped file, option and listing). The pass leaves a function the
generator already rewrote as it is.
"""

from __future__ import annotations

import ast as pyast
import re
from collections.abc import Iterable
from typing import NamedTuple, TypeVar

from .generated_names import GAME, Prefix, is_owner_getter

_AST = pyast.AST


def child_nodes(node: pyast.AST) -> list[pyast.AST]:
    """Return `ast.iter_child_nodes(node)` as a list, made without a generator for each node."""
    out: list[pyast.AST] = []
    for name in node._fields:
        value = getattr(node, name, None)
        if isinstance(value, list):
            out += [item for item in value if isinstance(item, _AST)]
        elif isinstance(value, _AST):
            out.append(value)
    return out


def walk(root: pyast.AST) -> list[pyast.AST]:
    """Return the nodes `ast.walk(root)` gives, in its order (breadth first, children in field order), as a
    list, made faster. It is made before the caller looks at any node, where `ast.walk` lists a node's
    children only when it gets to the node: the same nodes, as long as the caller changes no node below
    one it is given (changing the node itself, e.g. its fields, is fine either way)."""
    out: list[pyast.AST] = [root]
    for node in out:  # (the list grows as it is read: each node's children are appended when it is reached)
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, list):
                out += [item for item in value if isinstance(item, _AST)]
            elif isinstance(value, _AST):
                out.append(value)
    return out


# The game's lists that nothing rebinds while a turn is played (only Game.restore
# does, between turns; everything else changes them in place), and the per-variable
# lists inside `sv`/`pv` and the counts of the groups' owners (`gcount`, `gcount_at`) and the seats' complete
# titles and titles passing a kept test (`gfull`, `gkept`, whose seats' lists are replaced, not changed): a
# generated function may read each once into a local.
_STABLE_LISTS = frozenset({"owner", "bal", "pos", "titles", "hands", "holder", "active", "gv"})
_STABLE_ROWS = frozenset({"sv", "pv", "gcount", "gcount_at", "gfull", "gkept"})
# What stays the same for the whole of a call of generated code, though not for a turn: the acting
# player changes only between such calls, or around them (a shortfall's handlers run with the debtor
# acting, and Game._shortfall puts the player acting before back before it returns).
_STABLE_DURING_A_CALL = frozenset({"actor"})

_Node = TypeVar("_Node", bound=pyast.AST)
# nodes with no parts, which hold no read: a name's context, an operator
_LEAVES = (pyast.expr_context, pyast.operator, pyast.unaryop, pyast.cmpop, pyast.boolop)


class _GameListReads:
    """Replace reads of the game's stable lists by locals bound once at the top of the function.

    Used on each top-level generated function `def f(g, ...)` read at least
    twice; nested functions that take a `g` of their own are left alone. One
    walk finds every read and where it is, so the rewrite replaces those and
    visits nothing else.
    """

    def __init__(self, function: pyast.FunctionDef):
        self.counts: dict[str, int] = {}
        self.reads: dict[str, pyast.expr] = {}
        # each read: (the node holding it, its field, its index in that field or None, the read, its key)
        self.places: list[tuple[pyast.AST, str, int | None, pyast.expr, str]] = []
        self._scan(function)
        self.alias = {key: f"{Prefix.PASS_ALIAS}{key}" for key, count in self.counts.items() if count >= 2}

    def _scan(self, function: pyast.FunctionDef) -> None:
        """Find the reads in the function's body, in the order Python's NodeVisitor visits them (each
        node before its parts, parts in field order), not looking inside a read or another game's function."""
        stack: list[tuple[pyast.AST, str, int | None, pyast.AST]] = [
            (function, "body", i, node) for i, node in reversed(list(enumerate(function.body)))
        ]
        counts, reads, places, leaves = self.counts, self.reads, self.places, _LEAVES
        while stack:
            parent, field, index, node = stack.pop()
            kind = type(node)
            if kind is pyast.Attribute or kind is pyast.Subscript:
                key = self._key(node)
                if key is not None:
                    assert isinstance(node, pyast.expr)
                    counts[key] = counts.get(key, 0) + 1
                    reads[key] = node
                    places.append((parent, field, index, node, key))
                    continue
            elif isinstance(node, (pyast.FunctionDef, pyast.Lambda)) and GAME in {a.arg for a in node.args.args}:
                continue  # another game's g, as far as this pass can tell
            parts: list[tuple[pyast.AST, str, int | None, pyast.AST]] = []
            for name in node._fields:
                value = getattr(node, name, None)
                if isinstance(value, list):
                    parts.extend((node, name, i, item) for i, item in enumerate(value) if isinstance(item, pyast.AST))
                elif isinstance(value, pyast.AST) and not isinstance(value, leaves):
                    parts.append((node, name, None, value))
            stack.extend(reversed(parts))

    @staticmethod
    def _key(node: pyast.AST) -> str | None:
        if (
            isinstance(node, pyast.Attribute)
            and isinstance(node.value, pyast.Name)
            and node.value.id == GAME
            and isinstance(node.ctx, pyast.Load)
            and (node.attr in _STABLE_LISTS or node.attr in _STABLE_DURING_A_CALL)
        ):
            return node.attr
        if (
            isinstance(node, pyast.Subscript)
            and isinstance(node.ctx, pyast.Load)
            and isinstance(node.value, pyast.Attribute)
            and isinstance(node.value.value, pyast.Name)
            and node.value.value.id == GAME
            and node.value.attr in _STABLE_ROWS
            and isinstance(node.slice, pyast.Constant)
            and isinstance(node.slice.value, int)
        ):
            return f"{node.value.attr}{node.slice.value}"
        return None

    def rewrite(self, function: pyast.FunctionDef) -> None:
        if not self.alias:
            return
        for parent, field, index, node, key in self.places:
            if key in self.alias:
                new = placed_at(pyast.Name(self.alias[key], pyast.Load()), node)
                if index is None:
                    setattr(parent, field, new)
                else:
                    getattr(parent, field)[index] = new
        bind = [
            placed_at(pyast.Assign([placed_at(pyast.Name(name, pyast.Store()), function)], self.reads[key]), function)
            for key, name in self.alias.items()
        ]
        function.body[:0] = bind


# The generator's side of the same rewrite (`lists_read_once`): a read as the pass finds one, in generated
# source text. Generated code writes no string with a line break, no raw, bytes or triple-quoted string,
# and an f-string's holes hold no `"`, `\` or `#` (codegen_expr._in_fstring): so a plain string is skipped
# whole, and an f-string's literal parts are skipped while its holes are scanned as code.
_ROWS_PATTERN = "|".join(sorted(_STABLE_ROWS, key=len, reverse=True))
_LISTS_PATTERN = "|".join(sorted(_STABLE_LISTS | _STABLE_DURING_A_CALL, key=len, reverse=True))
# (no look-behind, so that the regular expression skips quickly to a character that may start one: what
# comes before a match is looked at after it, _reads_in)
_CODE_TOKENS = re.compile(
    r"""'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|f"|\#[^\n]*|lambda\b|def\b"""
    rf"""|{GAME}\.(?:(?P<row>{_ROWS_PATTERN})\[(?P<index>\d+)\]|(?P<list>{_LISTS_PATTERN})\b)"""
)
_LAMBDA_PARAMS = re.compile(r"[^:]*")
_DEF_PARAMS = re.compile(r"[ \t]+\w+\(([^)]*)\)")
_FSTRING_END = re.compile(r'(?:[^"\\\n]|\\.)*"')
_FSTRING_BRACES = re.compile(r"\{\{|\}\}|\{")
_HOLE_BRACES = re.compile(r"'[^'\n]*'|[{}]")
# what follows a read that is assigned to, not read (`g.actor = ...`, `g.sv[3] += ...`)
_ASSIGNED = re.compile(r"[ \t]*(?:[-+*/%&|^@]|//|\*\*|<<|>>)?=(?!=)")


class _Unscannable(Exception):
    """Generated text the scan of `lists_read_once` does not follow (another scope that may take a `g`)."""


def lists_read_once(text: str) -> tuple[list[str], str] | None:
    """Return the lines binding a generated function's game-list locals and its text with its reads of them
    replaced, as `_GameListReads` rewrites its syntax tree, or None where the text holds something the scan
    does not follow (a nested function or lambda, which may take a game of its own; the generator writes
    none that does). `text` is the function, `def NAME(g, ...):` first, at column 0; a binding line is
    indented one level, to go right after the `def`.

    The aliases are bound in the order the text first reads each list. The pass binds them in the order its
    walk meets them, which differs where a line's conditional expression or dict holds two first reads; at the
    function's start, reading the game's lists in one order or another changes nothing (the tests compare
    the two with the bindings sorted)."""
    try:
        reads = _reads_in(text)
    except _Unscannable:
        return None
    counts: dict[str, int] = {}
    for _, _, key in reads:
        counts[key] = counts.get(key, 0) + 1
    alias = {key: f"{Prefix.PASS_ALIAS}{key}" for key, count in counts.items() if count >= 2}  # (the text's order)
    if not alias:
        return [], text
    pieces: list[str] = []
    written = 0
    for start, end, key in reads:
        if key in alias:
            pieces += [text[written:start], alias[key]]
            written = end
    pieces.append(text[written:])
    bindings = [f"    {name} = {_read_text(key)}" for key, name in alias.items()]
    return bindings, "".join(pieces)


def _read_text(key: str) -> str:
    """Return the code of the read a key names (`g.owner`, `g.sv[3]`)."""
    digits = len(key) - len(key.rstrip("0123456789"))
    if digits and key[:-digits] in _STABLE_ROWS:
        return f"{GAME}.{key[:-digits]}[{key[-digits:]}]"
    return f"{GAME}.{key}"


def _reads_in(text: str, start: int = 0, stop: int | None = None) -> list[tuple[int, int, str]]:
    """Return each read of a game list in text[start:stop] (as code): where it starts and ends, and its key;
    raise _Unscannable at a nested scope that takes a `g`."""
    stop = len(text) if stop is None else stop
    found: list[tuple[int, int, str]] = []
    search = _CODE_TOKENS.search
    at = start
    while (match := search(text, at, stop)) is not None:
        begin, at = match.start(), match.end()
        before = text[begin - 1] if begin else "\n"
        kind = text[begin]
        if kind == GAME:
            if not (before.isalnum() or before in "_.") and not _ASSIGNED.match(text, at):
                key = match["list"] or f"{match['row']}{match['index']}"
                found.append((begin, at, key))
        elif kind == "f" and at - begin == 2:  # f": an f-string, unless the f ends a name
            if before.isalnum() or before == "_":
                at = begin + 1
                continue
            end = _FSTRING_END.match(text, at)
            if end is None:
                raise _Unscannable("an f-string not closed on its line")
            last = end.end() - 1  # (its closing quote)
            while (brace := _FSTRING_BRACES.search(text, at, last)) is not None:
                at = brace.end()
                if brace.group() != "{":
                    continue  # an escaped brace of a literal part
                depth = 1
                for inner in _HOLE_BRACES.finditer(text, at, last):
                    token = inner.group()
                    depth += 1 if token == "{" else -1 if token == "}" else 0
                    if depth == 0:
                        found += _reads_in(text, at, inner.start())
                        at = inner.end()
                        break
                else:
                    raise _Unscannable("an f-string's hole not closed")
            at = end.end()
        elif kind == "l" or kind == "d":  # lambda, def: a nested scope, scanned unless it takes a `g`
            if before.isalnum() or before == "_":
                continue
            if kind == "l":
                params = _LAMBDA_PARAMS.match(text, at).group()  # type: ignore[union-attr]
            else:
                if not text[text.rfind("\n", 0, begin) + 1 : begin].isspace():
                    continue  # (the function's own def, at column 0)
                header = _DEF_PARAMS.match(text, at)
                if header is None:
                    raise _Unscannable("a def the scan does not follow")
                params = header[1]
            if "=" in params or GAME in (part.strip(" *") for part in params.split(",")):
                raise _Unscannable("a nested scope that may take a game")  # (defaults are not scanned)
        # else a string or a comment: skipped
    return found


def placed_at(node: _Node, where: pyast.AST) -> _Node:
    """Return a node the pass made, at the place of `where` (its line and column, first and last): where
    `ast.fix_missing_locations` would put it, without walking the whole tree to find it."""
    node.lineno, node.col_offset = where.lineno, where.col_offset  # type: ignore[attr-defined]
    node.end_lineno, node.end_col_offset = where.end_lineno, where.end_col_offset  # type: ignore[attr-defined]
    return node


def read_game_lists_once(source: str) -> pyast.Module:
    """Return the syntax tree of generated source whose functions read the game's stable lists into
    locals first, and call a group's getter once per expression (`_SharedGetterCalls`). Its line numbers
    are the source's, so tracebacks and profiles point into it; every node the pass makes is given one."""
    tree = pyast.parse(source)
    getter_lines = frozenset(n for n, line in enumerate(source.split("\n"), 1) if Prefix.OWNER_GETTER in line)
    for function in tree.body:
        if isinstance(function, pyast.FunctionDef):
            read_lists_once_in(function, getter_lines)
    return tree


def read_lists_once_in(function: pyast.FunctionDef, getter_lines: frozenset[int] | None = None) -> None:
    """Rewrite one top-level generated function as `read_game_lists_once` does (if its first parameter is the
    game), in place; each function is rewritten on its own, so rewriting some of a module's gives them the
    code rewriting all would. `getter_lines` are the source's lines that name a group's getter, where a
    shared call is looked for (None: every line)."""
    if function.args.args and function.args.args[0].arg == GAME:
        _GameListReads(function).rewrite(function)
        span = range(function.lineno, (function.end_lineno or function.lineno) + 1)
        if getter_lines is None or not getter_lines.isdisjoint(span):
            _SharedGetterCalls(function, getter_lines).rewrite()


_GETTER_NAME = re.compile(rf"(?<![\w.])(?:{Prefix.OWNER_GETTERS}|{Prefix.OWNER_GETTER})\d+(?!\w)")
# a getter's name, then the same name further on the same line
_GETTER_TWICE_ON_A_LINE = re.compile(rf"({_GETTER_NAME.pattern})(?=[^\n]*(?<![\w.])\1(?!\w))")


def may_share_getter_calls(functions: Iterable[str]) -> bool:
    """Return True if `_SharedGetterCalls` may change a function of these (each the text of one generated
    function): a line of one names a group's getter twice, which two calls of it in one expression need
    (the generator writes each statement, and each compound statement's header, on one line). False: the
    pass would leave them all as they are."""
    return any(Prefix.OWNER_GETTER in text and _GETTER_TWICE_ON_A_LINE.search(text) for text in functions)


def _getter_call(node: pyast.AST) -> str | None:
    """Return a key for a call of one of the compiler's group getters (`_og3(l)`, `_ogc5[s](l)`: an
    itemgetter, which has no effect and cannot fail) on a list held in a local or read from the game; else None."""
    if not (isinstance(node, pyast.Call) and len(node.args) == 1 and not node.keywords):
        return None
    getter, (arg,) = node.func, node.args
    if isinstance(getter, pyast.Subscript) and isinstance(getter.slice, (pyast.Name, pyast.Constant)):
        getter = getter.value
    if not (isinstance(getter, pyast.Name) and is_owner_getter(getter.id)):
        return None
    if not (isinstance(arg, pyast.Name) or (isinstance(arg, pyast.Attribute) and isinstance(arg.value, pyast.Name))):
        return None
    return pyast.dump(node)


class _SharedGetterCalls:
    """Within each expression of a generated function, a getter call made again where an earlier one is sure
    to have been made (in the left of an `and`, the test of a conditional...) reads that call's result,
    which the earlier call stores with `:=`. Within one expression nothing changes the lists read."""

    # nodes whose parts are all evaluated, in the order of their fields
    _IN_ORDER = (
        pyast.Call,
        pyast.BinOp,
        pyast.UnaryOp,
        pyast.Subscript,
        pyast.Attribute,
        pyast.Starred,
        pyast.Tuple,
        pyast.List,
        pyast.Set,
        pyast.NamedExpr,
    )

    # the nodes that hold statements
    _BLOCKS = (pyast.stmt, pyast.excepthandler, pyast.match_case)

    def __init__(self, function: pyast.FunctionDef, getter_lines: frozenset[int] | None):
        self.function = function
        self.counter = 0
        self.getter_lines = getter_lines  # the source lines that name a getter (None: any line may)

    def rewrite(self) -> None:
        """Rewrite the function's expressions in place: each expression of each statement, the statements
        taken in `ast.walk`'s order (which the names of the shared results follow), skipping an expression
        on lines that name no getter."""
        blocks, lines = self._BLOCKS, self.getter_lines
        todo: list[pyast.AST] = [self.function]
        for node in todo:  # (breadth first, as ast.walk, through statements alone: no expression holds one)
            todo.extend(part for part in pyast.iter_child_nodes(node) if isinstance(part, blocks))
            if isinstance(node, pyast.stmt) and not isinstance(node, pyast.FunctionDef):
                for field, value in pyast.iter_fields(node):
                    if isinstance(value, pyast.expr) and (
                        lines is None
                        or not lines.isdisjoint(range(value.lineno, (value.end_lineno or value.lineno) + 1))
                    ):
                        self._share(node, field)

    def _share(self, statement: pyast.stmt, field: str) -> None:
        # each place a call is made: [parent, field, index or None, call, the place whose result it reads]
        self.places: list[list] = []
        self._walk(statement, field, None, {})
        read = {id(place[4]) for place in self.places if place[4] is not None}
        names: dict[int, str] = {}
        for place in self.places:
            parent, field_name, index, call, source = place
            if id(place) in read:  # made first: store the result
                self.counter += 1
                names[id(place)] = f"{Prefix.PASS_SHARED}{self.counter}"
                new: pyast.expr = pyast.NamedExpr(placed_at(pyast.Name(names[id(place)], pyast.Store()), call), call)
            elif source is not None:
                new = pyast.Name(names[id(source)], pyast.Load())
            else:
                continue
            placed_at(new, call)
            if index is None:
                setattr(parent, field_name, new)
            else:
                getattr(parent, field_name)[index] = new

    def _walk(self, parent: pyast.AST, field: str, index: int | None, made: dict[str, list]) -> _Made:
        """Walk the expression at parent.field[index] in the order Python evaluates it, given the getter calls
        `made` for sure before it (by key: where); return those made for sure once it is evaluated: in any
        case, when it is true, when it is false."""
        node = getattr(parent, field) if index is None else getattr(parent, field)[index]
        key = _getter_call(node)
        if key is not None:
            if key in made:
                self.places.append([parent, field, index, node, made[key]])
                return _Made(made, made, made)
            place = [parent, field, index, node, None]
            self.places.append(place)
            after = {**made, key: place}  # (its own parts are a getter and a list: nothing to share)
            return _Made(after, after, after)
        if isinstance(node, pyast.BoolOp):  # each operand only once those before it gave true (`and`) or false
            conjunction = isinstance(node.op, pyast.And)
            first = last = self._walk(node, "values", 0, made)
            for i in range(1, len(node.values)):
                last = self._walk(node, "values", i, last.true if conjunction else last.false)
            if conjunction:
                return _Made(first.always, last.true, first.always)
            return _Made(first.always, first.always, last.false)
        if isinstance(node, pyast.UnaryOp) and isinstance(node.op, pyast.Not):
            inner = self._walk(node, "operand", None, made)
            return _Made(inner.always, inner.false, inner.true)
        if isinstance(node, pyast.IfExp):
            test = self._walk(node, "test", None, made)
            self._walk(node, "body", None, test.true)
            self._walk(node, "orelse", None, test.false)
            return _Made(test.always, test.always, test.always)
        if isinstance(node, pyast.Compare):  # a chain stops at its first false comparison
            after = self._walk(node, "comparators", 0, self._walk(node, "left", None, made).always).always
            chained = after
            for i in range(1, len(node.comparators)):
                chained = self._walk(node, "comparators", i, chained).true
            return _Made(after, chained, after)
        if isinstance(node, self._IN_ORDER):
            running = made
            for name, value in pyast.iter_fields(node):
                if isinstance(value, list):
                    for i, item in enumerate(value):
                        if isinstance(item, pyast.expr):
                            running = self._walk(node, name, i, running).always
                elif isinstance(value, pyast.expr) and not (name == "target" and isinstance(node, pyast.NamedExpr)):
                    running = self._walk(node, name, None, running).always
            return _Made(running, running, running)
        return _Made(made, made, made)  # anything else (a scope of its own, a dict...): nothing in it is shared


class _Made(NamedTuple):
    """The getter calls made for sure once an expression is evaluated (by key: where), whatever it gives,
    when it gives true, when it gives false."""

    always: dict[str, list]
    true: dict[str, list]
    false: dict[str, list]
