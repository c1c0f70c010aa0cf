"""The asking blocks of the driven program compiled on first use (compiling/asking.py, issue 31).

The driven program compiles, in place of each choice's asking block (the
legal entries gathered and the agent asked, for seats whose agent is not a
folded bot), a call that compiles the block's lines of the full source the
first time it runs. These tests check that agents asked play the same games
as with the blocks compiled with the rest (`Compiler.lazy_asking = False`),
that an error inside a block is located as before, and that each block is
compiled once per program.
"""

from __future__ import annotations

import functools
import traceback

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

import landlord_dsl as ld
import test_properties as properties
from landlord_dsl.agents import HeuristicAgent, RandomAgent
from landlord_dsl.checking.options import resolve_options
from landlord_dsl.compiling.asking import AskingBlocks
from landlord_dsl.compiling.compiler import Compiler
from landlord_dsl.compiling.generated_names import ASKING


class AskedHeuristic(HeuristicAgent):
    """HeuristicAgent's policy asked with the full request, reading its hints and labels (never folded)."""

    def choose(self, game, request):
        [option.label for option in request.options]  # (the labels the block's `_describe` works out)
        return super().choose(game, request)


def whole(rules: ld.RuleSet, options: dict | None = None) -> ld.Program:
    """Return the Program of `rules` with its asking blocks compiled with the rest (before issue 31's change)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Compiler, "lazy_asking", False)
        return ld.compile_rules(rules, options)


@functools.cache
def programs(name: str) -> tuple[ld.Program, ld.Program]:
    rules = ld.load_edition(name)
    return ld.compile_rules(rules), whole(rules)


def asking_of(program: ld.Program) -> AskingBlocks:
    return program.on_turn.__globals__[ASKING]


def agents(players: int, seed: int) -> list:
    """A mix of seats: asked at random, asked with the heuristic's policy, and a folded bot."""
    kinds = [lambda k: RandomAgent(seed + k), lambda k: AskedHeuristic(), lambda k: HeuristicAgent()]
    return [kinds[k % 3](k) for k in range(players)]


def log_of(program: ld.Program, players: int, seed: int, turn_limit: int | None = 80) -> tuple[list[str], str | None]:
    """Return the log lines of a game of `program` with `agents`, and the located error that ended it, if any."""
    game = ld.new_game(program, players=players, seed=seed, agents=agents(players, seed), turn_limit=turn_limit)
    try:
        game.play()
    except ld.RuleRuntimeError as err:
        return game.log_lines(), err.render()
    return game.log_lines(), None


def players_of(program: ld.Program) -> int:
    low, high = program.players
    return min(max(3, low), high)


@pytest.mark.parametrize("name", sorted(ld.shipped_editions()))
def test_asked_agents_play_the_same_games_as_with_the_blocks_compiled_with_the_rest(name):
    lazy, full = programs(name)
    assert lazy.python_source == full.python_source
    for seed in range(2):
        assert log_of(lazy, players_of(lazy), seed) == log_of(full, players_of(full), seed), (name, seed)
    assert asking_of(lazy).compiled > 0
    assert ASKING not in full.python_source


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(properties.mutants(), st.integers(0, 1000))
def test_asked_agents_play_the_same_games_on_generated_rule_files(mutant, seed):
    # editions mutated by test_properties' strategy (as test_state's stepped against driven): what loads
    # plays the same with the blocks compiled on first use, failures included
    name, kind, text = mutant
    note(f"mutation {kind} of {name}:\n{text}")
    try:
        rules = ld.load_text(text, f"{name}-mutant.lg")
        full = whole(rules)
    except ld.LandlordError:
        return
    lazy = ld.compile_rules(rules)
    assert log_of(lazy, lazy.players[0], seed, 40) == log_of(full, full.players[0], seed, 40)


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_asked_agents_play_the_same_games_under_any_options(data, seed):
    path = data.draw(st.sampled_from(properties.FILES))
    options = dict(data.draw(properties.option_strategy(path)))
    rules = ld.load_edition(path)
    lazy = ld.compile_rules(rules, options)
    full = whole(rules, options)
    assert log_of(lazy, lazy.players[0], seed, 40) == log_of(full, full.players[0], seed, 40)


HINT = """edition "hint" { players 2 to 2 turn limit 4 }
account bank "Bank" unlimited
kind start "Start" { }
board {
    space go "Go" : start
    space two "Two" : start
}
rule r "r" {
    on turn {
        offer "Pick" {
            option o "O" value 10 / (player.cash - player.cash) {
                pay 1 from player to bank
            }
        }
    }
}
"""


def test_an_error_inside_an_asking_block_is_located_at_its_rule(tmp_path):
    # the hint fails in the block compiled on first use: located at the hint's line, as with the block
    # compiled with the rest, and the traceback's compiled frame shows the generated line that failed
    path = tmp_path / "hint.lg"
    path.write_text(HINT)
    rules = ld.load_edition(path)
    messages, functions = [], []
    for program in (ld.compile_rules(rules), whole(rules)):
        game = ld.new_game(program, players=2, seed=0, agents=[RandomAgent(0), RandomAgent(1)])
        with pytest.raises(ld.RuleRuntimeError) as info:
            game.play()
        messages.append(info.value.render())
        failed = [f for f in traceback.extract_tb(info.tb) if f.filename.startswith("<compiled ")][-1]
        assert "_divide(" in (failed.line or "")
        assert program.python_source.split("\n")[failed.lineno - 1].strip() == failed.line
        functions.append(failed.name)
    assert "hint.lg:11:" in messages[0]
    assert messages[0] == messages[1]
    assert functions[0].startswith("_ask") and functions[1].startswith("_dispatch")


def test_each_block_is_compiled_once_per_program_and_none_in_a_game_of_bots():
    # (in 1904, 1906 and 1939 a game of bots compiles one block: the setup `default_reserve` plays aside,
    # every seat taking its first option, asks; 1933's setup asks nothing)
    rules = ld.load_edition("monopoly-1933-atlantic-city")
    program = ld.compile_rules(rules)
    asking = asking_of(program)
    game = ld.new_game(program, players=3, seed=1)  # the default seats: folded bots
    assert asking.compiled == 0
    game.play()
    assert asking.compiled == 0
    log_of(program, 3, 1)
    compiled = asking.compiled
    assert compiled == len(asking.made) > 0
    functions = dict(asking.made)
    for seed in range(2, 5):
        log_of(program, 3, seed)
    assert asking.compiled == len(asking.made) >= compiled
    assert all(asking.made[line] is made for line, made in functions.items())  # (kept, not made again)
    for name, function in asking.functions.items():  # a caller of compiled blocks calls them directly now
        blocks = [line for line, block in asking.blocks.items() if block.function == name]
        if any(line in asking.made for line in blocks):
            assert ASKING not in function.__code__.co_names
            assert all(f"{ASKING}{line}" in function.__code__.co_names for line in blocks)
            assert not function.__code__.co_cellvars
    other = asking_of(ld.compile_rules(rules))  # another program compiles its own
    assert other is not asking and other.compiled == 0


def test_the_full_source_is_what_tools_read_and_the_driven_text_keeps_its_lines():
    rules = ld.load_edition("monopoly-1933-atlantic-city")
    compiler = Compiler(rules, resolve_options(rules, None))
    program = compiler.compile()
    assert program is not None
    driven = compiler.driven_source()
    assert program.python_source == whole(rules).python_source
    assert driven.count("\n") == program.python_source.count("\n") == len(program.line_table)
    assert len(driven) < len(program.python_source)
    full_lines, driven_lines = program.python_source.split("\n"), driven.split("\n")
    calls = [k for k, line in enumerate(driven_lines) if f"{ASKING}(" in line]
    assert sorted(k + 1 for k in calls) == sorted(compiler.asking_blocks)
    for k, (a, b) in enumerate(zip(full_lines, driven_lines)):
        assert a == b or any(block.start <= k < block.end for block in compiler.asking_blocks.values())
    assert "_describe" not in driven and "g.choose(" not in driven.replace("def ", "")
