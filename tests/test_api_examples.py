"""The examples in the API reference's docstrings (docs/api.md) run and print what they show.

Every entry point on the page carries an `Example::` block of doctest lines;
this runs each one, with `ld` bound to the package as the page says, so an
example cannot drift from what the code does.
"""

from __future__ import annotations

import doctest

import pytest

import landlord_dsl as ld
from landlord_dsl.checking import loader
from landlord_dsl.engine import game, saves, state
from landlord_dsl.program import compiled
from landlord_dsl.studies import rule_coverage

ENTRY_POINTS = [
    ld.load_edition,
    loader.load_text,
    ld.with_constants,
    ld.check,
    ld.parse,
    ld.format_source,
    ld.compile_rules,
    ld.diff,
    ld.shipped_editions,
    ld.analyze,
    ld.env,
    ld.new_game,
    ld.new_state,
    ld.coverage,
    game.Game,
    state.State,
    loader.RuleSet,
    compiled.Program,
    rule_coverage.Coverage,
    saves.state_to_json,
    saves.state_from_json,
]


@pytest.mark.parametrize("obj", ENTRY_POINTS, ids=lambda o: o.__qualname__)
def test_the_example_in_the_docstring_runs(obj):
    globs = {"ld": ld, obj.__name__: obj}
    tests = [t for t in doctest.DocTestFinder(recurse=False).find(obj, globs=globs) if t.examples]
    assert tests, f"{obj.__qualname__} has no example in its docstring"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests:
        runner.run(test)
    assert runner.failures == 0, f"{runner.failures} example line(s) of {obj.__qualname__} failed (see output)"
