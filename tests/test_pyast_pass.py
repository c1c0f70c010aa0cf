"""The compiler's last pass, on generated Python: it changes how often things are read, never a value.

`read_game_lists_once` reads the game's stable lists (and the acting player)
into locals once per generated function, and, within one expression, calls a
group's getter once where Python is sure to have made an earlier call of it:
the left of an `and` or `or`, the test of a conditional, the first comparison
of a chain. Random expressions of `and`, `or`, `not`, conditionals,
comparisons and getter calls give the same value both ways, with no more
getter calls than before.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import landlord_dsl as ld
from landlord_dsl.checking.options import resolve_options
from landlord_dsl.compiling.compiler import Compiler
from landlord_dsl.compiling.generated_names import Prefix, is_owner_getter
from landlord_dsl.compiling.pyast_pass import lists_read_once, may_share_getter_calls, read_game_lists_once
from landlord_dsl.program.runtime import RUNTIME
from sweep_params import variants_slow


def _bindings_sorted(tree: ast.Module) -> ast.Module:
    """Return the tree with each function's leading bindings of the game's lists (`_h_owner = g.owner`, ...)
    sorted by name: the generator binds them in the order its text first reads each list, the pass in the
    order its walk meets them, and at a function's start the order of those reads changes nothing."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            lead = 0
            while lead < len(node.body) and _is_list_binding(node.body[lead]):
                lead += 1
            node.body[:lead] = sorted(node.body[:lead], key=lambda b: b.targets[0].id)  # type: ignore[attr-defined]
    return tree


def _is_list_binding(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Assign)
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Name)
        and statement.targets[0].id.startswith(Prefix.PASS_ALIAS)
    )


def _same_code(a: ast.Module, b: ast.Module) -> bool:
    """Return True if two generated modules are the same, their functions' list bindings in any order."""
    return ast.dump(_bindings_sorted(a)) == ast.dump(_bindings_sorted(b))


def _rewritten(body: str) -> str:
    tree = read_game_lists_once(f"def f(g, k):\n    return {body}\n")
    return ast.unparse(tree)


def test_a_call_made_again_on_the_right_of_an_and_reads_the_first():
    source = _rewritten("_og1(g.owner).count(k) == 1 and None not in _og1(g.owner)")
    assert source.count("_og1(") == 1 and ":= _og1(" in source


def test_a_call_in_one_branch_is_not_read_in_the_other_or_after_the_conditional():
    source = _rewritten("(_og1(g.owner) if k else _og1(g.owner)) + _og1(g.owner)")
    assert source.count("_og1(") == 3 and ":=" not in source


def test_a_call_on_the_right_of_an_or_is_not_read_after_it():
    source = _rewritten("(k or _og1(g.owner)) and _og1(g.owner)")
    assert source.count("_og1(") == 2 and ":=" not in source


def test_a_call_in_a_comprehension_is_left_alone():
    source = _rewritten("_og1(g.owner) and [_og1(g.owner) for k in g.titles]")
    assert source.count("_og1(") == 2


_ATOMS = st.sampled_from(["_og1(g.owner)", "_og2(g.owner)", "_og1(g.pos)", "k", "()", "(0,)", "g.actor"])


def _expressions():
    return st.recursive(
        _ATOMS,
        lambda inner: st.one_of(
            st.tuples(inner, st.sampled_from(["and", "or"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            st.tuples(inner, inner, inner).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
            st.tuples(inner, inner, inner).map(lambda t: f"({t[0]} == {t[1]} == {t[2]})"),
            inner.map(lambda t: f"(not {t})"),
            st.tuples(inner, inner).map(lambda t: f"len(({t[0]}, {t[1]}))"),
        ),
        max_leaves=12,
    )


class _Game:
    def __init__(self, owner, pos, actor):
        self.owner, self.pos, self.actor = owner, pos, actor


@settings(max_examples=300, deadline=None)
@given(
    body=_expressions(),
    owner=st.lists(st.sampled_from([None, 0, 1]), min_size=3, max_size=3),
    pos=st.lists(st.integers(0, 2), min_size=3, max_size=3),
    k=st.sampled_from([(), (0,), 0, 1]),
)
def test_the_pass_gives_the_same_value_with_no_more_getter_calls(body, owner, pos, k):
    calls = {"before": 0, "after": 0}

    def getter(which, indices):
        def get(values):
            calls[which] += 1
            return tuple(values[i] for i in indices)

        return get

    results = {}
    for which, source in (("before", f"def f(g, k):\n    return {body}\n"), ("after", _rewritten(body))):
        scope = {"_og1": getter(which, (0, 1)), "_og2": getter(which, (1, 2))}
        exec(compile(source, "<test>", "exec"), scope)
        results[which] = scope["f"](_Game(owner, pos, 1), k)
    assert results["after"] == results["before"], _rewritten(body)
    assert calls["after"] <= calls["before"]


def test_a_list_of_group_sizes_is_no_owner_getter():
    """`_ogn3[s]` is a group's size: only the names generated_names gives owner getters are shared."""
    assert is_owner_getter("_og3") and is_owner_getter("_ogc12")
    assert not is_owner_getter("_ogn3") and not is_owner_getter("_og") and not is_owner_getter("_f_og1")
    source = _rewritten("_ogn1[k](g.owner) == _ogn1[k](g.owner)")
    assert ":=" not in source


@pytest.mark.parametrize("edition", ["landlords-game-1906", "monopoly-1933-atlantic-city"])
def test_generated_names_keep_the_contract_with_the_pass(edition):
    """The generator names every value it binds with a Prefix and a number, recognised by the pass where
    that matters (an owner getter), and writes no name of the pass's own (`_h_...`, `_got...`) but the
    aliases of the game's lists it binds in their place (lists_read_once), each bound from its list."""
    rules = ld.load_edition(edition)
    compiler = Compiler(rules, resolve_options(rules, None))
    compiler.lists_once = False
    program = compiler.compile()
    assert program is not None
    made = list(compiler.names_by_id.values())  # what CodeGenerator.ref bound
    assert made and not set(made) & set(RUNTIME)
    for name in made:
        prefix = max((p for p in Prefix if name.startswith(p) and name[len(p) :].isdigit()), key=len, default=None)
        assert prefix is not None, name
        getter = prefix in (Prefix.OWNER_GETTER, Prefix.OWNER_GETTERS)
        assert is_owner_getter(name) == getter, name
    assert any(is_owner_getter(name) for name in made)
    written = {node.id for node in ast.walk(ast.parse(program.python_source)) if isinstance(node, ast.Name)}
    assert not [name for name in written if name.startswith((Prefix.PASS_ALIAS, Prefix.PASS_SHARED))]
    aliased = ld.compile_rules(rules).python_source
    bound = set()
    for node in ast.walk(ast.parse(aliased)):
        if isinstance(node, ast.Name) and node.id.startswith(Prefix.PASS_SHARED):
            raise AssertionError(node.id)
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            if name.startswith(Prefix.PASS_ALIAS):
                read = ast.unparse(node.value).replace("g.", "").replace("[", "").replace("]", "")
                assert name == f"{Prefix.PASS_ALIAS}{read}"
                bound.add(name)
    assert bound and bound == {
        node.id for node in ast.walk(ast.parse(aliased)) if isinstance(node, ast.Name) and node.id in bound
    }


@pytest.mark.parametrize("edition", ["landlords-game-1939", "monopoly-1933-atlantic-city"])
def test_every_node_the_pass_makes_is_where_fix_missing_locations_would_put_it(edition):
    """Issue 31: the pass locates the nodes it makes itself instead of walking the whole tree with
    `ast.fix_missing_locations` (a fifth of its time); what it gives is that tree exactly. The shipped
    files' code binds aliases; a getter's result stored and read is made here (no shipped file calls a
    getter twice in one expression since the game counts the groups' owners)."""
    shared = "def f(g, k):\n    return _og1(g.owner).count(k) == 1 and (\n        None not in _og1(g.owner))\n"
    for source in (ld.compile_rules(ld.load_edition(edition)).python_source, shared):
        tree = read_game_lists_once(source)
        before = ast.dump(tree, include_attributes=True)
        assert ast.dump(ast.fix_missing_locations(tree), include_attributes=True) == before
        names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
        assert any(n.startswith(Prefix.PASS_ALIAS if source != shared else Prefix.PASS_SHARED) for n in names)


def test_the_stepped_compilation_is_the_same_text_in_every_process():
    """Its temporaries were numbered in the order of a set of names, which differs with the string hash seed."""
    import subprocess
    import sys

    code = (
        "import ast, landlord_dsl as ld\n"
        "from landlord_dsl.compiling.stepped_pass import stepped_tree\n"
        "p = ld.compile_rules(ld.load_edition('monopoly-1933-atlantic-city'))\n"
        "print(ast.unparse(stepped_tree(p.python_source)[0]))\n"
    )
    texts = {
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, env={"PYTHONHASHSEED": seed}
        ).stdout
        for seed in ("1", "2", "3")
    }
    assert len(texts) == 1


@pytest.fixture(scope="module")
def generated_sources() -> list[str]:
    return [ld.compile_rules(ld.load_edition(name)).python_source for name in ld.shipped_editions()]


def test_the_fast_walk_gives_ast_walks_nodes_in_its_order(generated_sources):
    # pyast_pass.walk and child_nodes stand in for ast.walk and ast.iter_child_nodes in the stepped pass,
    # whose site numbers follow the order of the walk: the same nodes, in the same order, on every shipped file
    from landlord_dsl.compiling.pyast_pass import child_nodes, walk

    for source in generated_sources:
        tree = read_game_lists_once(source)
        nodes = walk(tree)
        assert [id(n) for n in nodes] == [id(n) for n in ast.walk(tree)]
        assert all([id(c) for c in child_nodes(n)] == [id(c) for c in ast.iter_child_nodes(n)] for n in nodes)


# Issue 31: the generator writes the locals the pass used to add (pyast_pass.lists_read_once), so the
# driven code is compiled from its source, neither parsed nor rewritten. The pass stays as the oracle:
# the source the generator now writes parses to the tree the pass made of what it wrote before.

_SHIPPED_FILES = sorted(
    str(path)
    for folder in ("editions", "editions/variants", "examples")
    for path in (Path(__file__).resolve().parent.parent / folder).glob("*.lg")
)


def _both_ways(rules, options=None, readable=False, counters=None):
    """Return the compilers that wrote the lists read once themselves and left them to the pass, and what
    each compiled."""
    made = []
    for lists_once in (True, False):
        compiler = Compiler(rules, resolve_options(rules, options), readable=readable, counters=counters)
        compiler.lists_once = lists_once
        made.append((compiler, compiler.compile()))
    return made


def _assert_the_generator_writes_what_the_pass_made(rules, options=None, readable=False, counters=None):
    (written, new), (_, old) = _both_ways(rules, options, readable, counters)
    assert not written.lists_read_by_pass  # (every function's text was followed: none was left to the pass)
    assert not may_share_getter_calls(written.source)  # (so the source itself is what ran)
    assert _same_code(ast.parse(new.python_source), read_game_lists_once(old.python_source))
    assert len(new.line_table) == len(new.python_source.splitlines())
    # every statement on one line (what lists_read_once and may_share_getter_calls rely on)
    for node in ast.walk(ast.parse(new.python_source)):
        if isinstance(node, ast.stmt) and not hasattr(node, "body"):
            assert node.lineno == node.end_lineno, ast.unparse(node)


@pytest.mark.parametrize(
    "path", variants_slow(_SHIPPED_FILES, name=lambda p: Path(p).stem), ids=lambda p: p.rsplit("/", 1)[-1]
)
def test_the_generator_reads_the_game_lists_once_as_the_pass_did(path):
    """Every shipped edition, variant and example: the optimised code (its locals named by slot, and after
    the .lg names as `show --python` lists it) and the code with coverage counters."""
    from landlord_dsl.studies.rule_coverage import inventory

    rules = ld.load_edition(path)
    _assert_the_generator_writes_what_the_pass_made(rules)
    _assert_the_generator_writes_what_the_pass_made(rules, readable=True)
    _assert_the_generator_writes_what_the_pass_made(rules, counters=inventory(rules).counters)


def _flipped(rules):
    """Yield option values: each option of the rules given another value than its default."""
    for name, declared in rules.model.options.items():
        default = declared.default
        if isinstance(default, bool):
            yield {name: not default}
        elif isinstance(default, int):
            yield from ({name: default + 1}, {name: 0})
        else:
            yield from ({name: choice} for choice in (declared.choices or ()) if choice != default)


@pytest.mark.slow
@pytest.mark.parametrize("path", _SHIPPED_FILES, ids=lambda p: p.rsplit("/", 1)[-1])
def test_the_generator_reads_the_game_lists_once_as_the_pass_did_under_every_option(path):
    rules = ld.load_edition(path)
    for options in _flipped(rules):
        _assert_the_generator_writes_what_the_pass_made(rules, options)


def test_the_keyed_stepped_compilation_is_made_of_the_same_tree():
    """The exact analysis's keyed compilation parses the source (the pass's tree is no longer made): the
    same stepped tree as from the pass's."""
    from landlord_dsl.compiling.stepped_pass import stepped_module

    (_, new), (_, old) = _both_ways(ld.load_edition("monopoly-1933-atlantic-city"))
    made = stepped_module(_bindings_sorted(ast.parse(new.python_source)), False, True, generators_only=True)
    oracle = stepped_module(
        _bindings_sorted(read_game_lists_once(old.python_source)), False, True, generators_only=True
    )
    assert made[1] == oracle[1] and ast.dump(made[0]) == ast.dump(oracle[0])


@pytest.mark.parametrize(
    "body",
    [
        # strings, an f-string's literal parts and comments hold no read; an f-string's holes do
        "x = 'g.owner' + \"g.bal[1]\" + g.pos[k] + g.pos[k]  # g.owner g.owner",
        'x = f"g.owner {{g.owner}} {(g.owner[k])} {(g.names[k])}" + str(g.owner[1])',
        'x = f"{({g.bal[0]: 1}[g.bal[0]])}" if g.pos[k] else g.pos[1]',
        # the walk meets a conditional's test, and a dict's keys, first
        "x = (g.bal[k] if g.owner[k] else g.bal[1]) + g.owner[2]",
        "x = {g.bal[1]: g.owner[1], g.pos[1]: g.bal[2], g.sv[3][k]: g.owner[3] + g.sv[3][0]}",
        "if g.sv[1][k] if g.pv[2][k] else g.pv[2][1] + g.sv[1][0]:\n        pass",
        "for v1 in (g.titles[k] if g.actor else g.titles[g.actor]):\n        pass",
        # assigned to, not read; a row by a number only
        "g.actor = g.actor + 1\n    g.sv[3] = g.sv[3]\n    g.sv[3][k] += g.sv[3][k] + g.sv[k][1] + g.sv[k][1]",
        "y = g.actor == 1 or g.actor <= 2 or g.actor != 3",
        # a nested function that takes no game is scanned; one that does is left to the pass
        "def _describe1(k, x):\n        return g.owner[k] + g.owner[x]\n    return _describe1",
        "h = lambda g: g.owner[1] + g.owner[2]\n    return g.bal[0] + g.bal[1]",
        "h = lambda k: g.owner[k] + g.owner[2]\n    return h",
        "x = g.ownerx + g.ownerx + xg.owner + xg.owner + g.prog.owner + g.prog.owner",
    ],
)
def test_the_generators_reads_are_the_passs(body):
    """`lists_read_once` on text the generator could write: the pass's tree, or None where it does not
    follow the text (the pass then rewrites it, and a function already rewritten is left as it is)."""
    text = f"def f(g, k):\n    {body}"
    made = lists_read_once(text)
    oracle = ast.dump(_bindings_sorted(read_game_lists_once(text)))
    if made is None:
        assert "lambda g" in body
        return
    bindings, rewritten = made
    head, rest = rewritten.split("\n", 1)
    written = "\n".join([head, *bindings, rest])
    assert ast.dump(_bindings_sorted(ast.parse(written))) == oracle
    assert ast.dump(_bindings_sorted(read_game_lists_once(written))) == oracle  # (the pass leaves it as it is)


def test_the_pass_is_needed_only_where_a_line_names_a_getter_twice():
    """`_SharedGetterCalls` shares a call made twice in one expression, and the generator writes each statement
    on one line: a function naming a getter twice on different lines, or a group's size twice, needs no pass."""
    assert may_share_getter_calls(["def f(g):\n    x = _og1(g.owner) + _og1(g.owner)"])
    assert may_share_getter_calls(["def f(g):\n    x = _og1(g.owner)\n    y = _ogc2[s](l) == _ogc2[s](l)"])
    assert not may_share_getter_calls(["def f(g):\n    x = _og1(g.owner)\n    y = _og1(g.owner)"])
    assert not may_share_getter_calls(["def h(g):\n    return _ogn1[k] + _ogn1[k] + _og1(g.owner) + _og2(g.owner)"])
    shared = "def f(g, k):\n    return _og1(g.owner).count(k) == 1 and None not in _og1(g.owner)\n"
    assert "_got" in ast.unparse(read_game_lists_once(shared))  # (what the pass is kept for)
