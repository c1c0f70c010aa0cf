"""The stepped pass (compiling/stepped_pass.py) made quicker without changing what it makes (issues 29 and 31).

The pass visits only the nodes on the way to a call it rewrites, locates the nodes it makes as it makes
them, and reads what each part of a statement loads with a flat walk. Each shortcut is held here to the
plain way of doing the same on every shipped file: the whole `NodeTransformer` visit, `ast.fix_missing_locations`,
and the node-by-node scan.
"""

from __future__ import annotations

import ast

import pytest

import landlord_dsl as ld
from landlord_dsl.compiling import stepped_pass
from landlord_dsl.compiling.generated_names import Prefix
from landlord_dsl.compiling.pyast_pass import child_nodes
from landlord_dsl.compiling.stepped_pass import (
    _SCOPES,
    _generators,
    _Scan,
    _scan,
    _ToGenerators,
    resume_entries,
    stepped_module,
)


@pytest.fixture(scope="module")
def generated_sources() -> list[str]:
    return [ld.compile_rules(ld.load_edition(name)).python_source for name in ld.shipped_editions()]


def _functions(source: str) -> dict[str, ast.FunctionDef]:
    return {f.name: f for f in ast.parse(source).body if isinstance(f, ast.FunctionDef)}


class _EveryNode(_ToGenerators):
    """The rewrite visiting every node, as `ast.NodeTransformer` does."""

    generic_visit = ast.NodeTransformer.generic_visit


def test_visiting_only_the_ways_to_the_calls_rewrites_as_visiting_every_node(generated_sources):
    for source in generated_sources:
        ours, theirs = _functions(source), _functions(source)
        generators = _generators(ours)
        assert generators
        quick, full = _ToGenerators(generators), _EveryNode(generators)
        for name in sorted(generators):
            quick.rewrite(ours[name])
            full.visit(theirs[name])
            assert ast.dump(ours[name], include_attributes=True) == ast.dump(theirs[name], include_attributes=True)
        assert quick.temporaries == full.temporaries > 0


def _scan_node_by_node(function: ast.FunctionDef) -> _Scan:
    """`_scan` as it was written first: every node visited, its names unioned into its parent's."""
    out: dict[int, frozenset[str]] = {}
    yields: set[int] = set()
    jumps: set[int] = set()
    stored: set[str] = set()

    def visit(node: ast.AST, noted: bool, nested: bool) -> tuple[set[str], bool, bool]:
        names: set[str] = set()
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                names.add(node.id)
            elif not nested and isinstance(node.ctx, ast.Store):
                stored.add(node.id)
        asks = isinstance(node, ast.YieldFrom)
        jump = isinstance(node, (ast.Break, ast.Continue))
        below = isinstance(node, (ast.stmt, ast.excepthandler))
        inner = nested or (node is not function and isinstance(node, _SCOPES))
        for child in child_nodes(node):
            n, a, j = visit(child, below, inner)
            names |= n
            asks, jump = asks or a, jump or j
        if noted or below:
            out[id(node)] = frozenset(names)
            if asks:
                yields.add(id(node))
            if jump:
                jumps.add(id(node))
        return names, asks, jump

    visit(function, True, False)
    return _Scan(out, yields, jumps, stored)


SCOPED = """
def f(g, xs):
    total = 0
    for x in xs:
        if x > (limit := 3):
            break
        total += sum([y for y in range(x) if (z := y)])
        key = lambda k, w=total: k + w
        def inner(a):
            b = a
            return b + total
    return (yield from g.choose(total, key, inner))
"""


@pytest.mark.parametrize("rewritten", [False, True])
def test_the_flat_scan_finds_what_the_node_by_node_scan_finds(generated_sources, rewritten):
    # rewritten: the generator functions after the rewrite (their `yield from`s in place), as `_Keyed` scans them
    for source in [*generated_sources, SCOPED]:
        functions = _functions(source)
        if rewritten:
            generators = _generators(functions) | ({"f"} if source is SCOPED else set())
            rewrite = _ToGenerators(generators)
            for name in sorted(generators):
                rewrite.rewrite(functions[name])
        for function in functions.values():
            assert _scan(function) == _scan_node_by_node(function), function.name


def test_a_nested_scope_stores_nothing_of_the_function():
    (function,) = _functions(SCOPED).values()
    stored = _scan(function).stored
    assert {"total", "x", "limit", "key"} <= stored  # (a nested def's name is no Name node: not counted)
    assert not {"y", "z", "b"} & stored  # (bound inside the comprehension or the nested function)


def _stepped(source: str, keyed: bool, make=stepped_module) -> list[str]:
    """Return the dumps, lines and columns included, of the stepped module of `source` and of the resume
    entries of every keyed call site, in site order (`make`: the pass)."""
    holders: dict = {}
    tree = make(ast.parse(source), False, keyed, False, source, holders if keyed else None)[0]
    entries: dict = {}
    for function in {id(f): f for f in holders.values()}.values():
        entries.update(resume_entries(function))
    modules = [tree, *(ast.Module([entries[site]], []) for site in sorted(entries))]
    return [ast.dump(module, include_attributes=True) for module in modules]


@pytest.mark.parametrize("keyed", [False, True])
def test_every_node_the_stepped_pass_makes_is_where_fix_missing_locations_would_put_it(
    generated_sources, keyed, monkeypatch
):
    # the pass locates each node as it makes it (`_made_at`) instead of walking every function it rewrote
    # afterwards: the same modules and resume entries, node for node and place for place, as the pass that
    # located only the top node it made and then ran `ast.fix_missing_locations` over each rewritten function
    quick = [_stepped(source, keyed) for source in generated_sources]

    def then_fixed(tree, *args, **kwargs):
        tree, generators = stepped_module(tree, *args, **kwargs)
        for function in tree.body:
            if isinstance(function, ast.FunctionDef) and function.name in generators:
                ast.fix_missing_locations(function)
        return tree, generators

    monkeypatch.setattr(stepped_pass, "_made_at", lambda node, where: ast.copy_location(node, where))
    assert [_stepped(source, keyed, then_fixed) for source in generated_sources] == quick


def _closure_reads_of(text: str) -> frozenset[str]:
    (function,) = ast.parse(text).body
    return stepped_pass._closure_reads(function)


def test_a_nested_function_reads_of_its_definer_only_what_it_does_not_bind():
    # a `_describe` label binds the loop variable of the option it labels: its own, not the definer's
    label = "def describe(k, x, w=limit):\n    if k == 0:\n        v1 = x\n        return f'{names[v1]} {w} {cash}'\n"
    assert _closure_reads_of(label) == {"limit", "names", "cash"}
    # a name it binds anywhere is its own all through it; a comprehension's variable stays counted (safe side)
    assert _closure_reads_of("def f(a):\n    b = a\n    return [c for c in b] + [d]\n") == {"c", "d"}
    assert _closure_reads_of("@deco(v)\ndef f(a: T) -> R:\n    return a\n") == {"deco", "v", "T", "R"}
    # a `nonlocal` (or `global`) name is the definer's: everything loaded counts
    assert _closure_reads_of("def f():\n    nonlocal v\n    v = 1\n    return v + w\n") == {"v", "w"}


LABELLED = """
def f(g, options):
    v1 = options[0]
    for v0 in options:
        g.choose(0, 'Pick one', [], None)
        def label(k, x):
            v1 = x
            return f'{v1} of {v0}'
        g.choose(0, 'Again', [], label)
    return 0
"""


def test_a_key_holds_no_local_that_only_a_nested_function_binds_and_reads():
    # 1933's keys at the throws of its move rule held the loop variables of the building offer after it,
    # which only the offer's `_describe` labels read, after binding their own: a continuation split in two
    # by a value no code reads again. (`v0`, the loop's, is live at the first call: the loop reads it next.)
    tree = stepped_module(ast.parse(LABELLED), False, True, False, LABELLED, {})[0]
    keys = [
        [e.id for e in node.args[2].elts if isinstance(e, ast.Name)]
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "_keyed"
    ]
    assert keys == [["_key_at1", "_key_seq1", "options", "v0"], ["_key_at1", "_key_seq1", "options"]]


def test_a_keyed_function_gives_unset_only_the_locals_its_keys_read(generated_sources):
    # a keyed function, and each of its resume entries, starts by giving UNSET to the locals a key entry may
    # read before the function's own flow assigns them; the others need no value there, and the assignment
    # costs a store a name at every resumed run of the analysis (1933: 17 names instead of about 80)
    narrowed = 0
    for source in generated_sources:
        holders: dict = {}
        tree = stepped_module(ast.parse(source), False, True, False, source, holders)[0]
        for function in (f for f in tree.body if isinstance(f, ast.FunctionDef)):
            keyed = {
                e.id
                for node in ast.walk(function)
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "_keyed"
                for e in node.args[2].elts
                if isinstance(e, ast.Name)
            }
            stored = {n.id for n in ast.walk(function) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
            unset = [
                {t.id for t in s.targets}
                for s in function.body
                if isinstance(s, ast.Assign) and isinstance(s.value, ast.Name) and s.value.id == "_KEY_UNSET"
            ]
            given = unset[0] if unset else set()
            args = {a.arg for a in function.args.args}
            # (the loops' sequences and counts the pass adds are assigned before the loop that keys them)
            made = {name for name in stored if name.startswith(str(Prefix.PASS_KEYED))}
            assert given == (keyed & stored) - args - made
            narrowed += len(stored - args - given)
    assert narrowed > 0
