"""The contract between generated rule code and the game (landlord_dsl/program/game_contract.py, issue 28 §3).

Type checkers check that `Game` satisfies `RulesGame` (engine.py); these tests check the other side:
the code generated for every shipped file, optimised and plain, and the run-time helpers it calls,
use no member of the game that the contract does not list.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

import landlord_dsl as ld
from landlord_dsl.compiling.compiler import compile_ruleset
from landlord_dsl.core.resources import editions_dir
from landlord_dsl.program import runtime
from landlord_dsl.program.game_contract import RulesGame

FILES = sorted(editions_dir().rglob("*.lg"))
_MEMBER = re.compile(r"(?<![\w.])g\.(\w+)")
_CONTRACT = set(RulesGame.__annotations__) | {name for name in vars(RulesGame) if not name.startswith("_")}


def _members_used(code: str) -> set[str]:
    return set(_MEMBER.findall(code))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_generated_code_uses_only_the_games_contract(path: Path):
    rules = ld.load_edition(path)
    for optimize in (True, False):
        used = _members_used(compile_ruleset(rules, optimize=optimize).python_source)
        assert used, path.stem  # (the pattern finds the game's members at all)
        assert used <= _CONTRACT, sorted(used - _CONTRACT)


def test_the_run_time_helpers_use_only_the_games_contract():
    """Except `g.fail`'s own needs: the helpers also run against `runtime.Fixed` while values are fixed."""
    used = _members_used(inspect.getsource(runtime))
    assert used <= _CONTRACT | {"sources"}, sorted(used - _CONTRACT)


def test_the_contract_lists_only_what_a_game_has():
    game = ld.new_game(ld.load_edition("landlords-game-1906"), players=2, seed=0)
    assert all(hasattr(game, name) for name in _CONTRACT), sorted(n for n in _CONTRACT if not hasattr(game, n))
