"""The stepped interface (ld.new_state, engine/state.py): a game the caller steps and clones.

The central property: a stepped game answered by the same agents as a driven game (`Game.play`), with
the same seed, logs byte-identical events, on every shipped edition and variant; whether chance is
answered inside the state (a seed) or by the caller (`apply_chance`); and a clone played on logs what
the original played on does.
"""

from __future__ import annotations

import ast
import copy
import functools
import pickle
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

import landlord_dsl as ld
import test_properties as properties
from landlord_dsl.agents import HeuristicAgent, RandomAgent
from landlord_dsl.compiling.stepped_pass import ASKING, PAYMENTS, SteppingError, stepped_tree
from landlord_dsl.compiling.stepped_pass import CHANCE as CHANCE_METHODS
from landlord_dsl.engine.state import CHANCE, REBASE_TURNS, TERMINAL
from landlord_dsl.engine.stepping import SteppedGame
from landlord_dsl.program.requests import BidRequest, DecisionRequest, DiceRequest, SeededChance
from sweep_params import variants_slow


@functools.cache
def program(name: str):
    return ld.compile_rules(ld.load_edition(name))


def players_of(name: str) -> int:
    low, high = program(name).players
    return min(max(3, low), high)


def answer(state, agents, chance=None):
    """Apply to `state` what `agents` (one a seat) answer, or `chance` (a SeededChance) throws or shuffles."""
    request = state.request()
    if state.is_chance():
        assert state.current_player() == CHANCE
        state.apply_chance(chance.roll(request) if isinstance(request, DiceRequest) else chance.shuffle(request))
        return
    seat = state.current_player()
    assert seat == request.seat
    agent = agents[seat]
    if isinstance(request, DecisionRequest):
        state.apply(agent.choose(state.game, request))
    else:
        assert isinstance(request, BidRequest)
        state.apply(agent.bid(state.game, request))


def stepped_matches_driven(name, kind, seed, inside, turn_limit=None):
    program_matches(program(name), players_of(name), kind, seed, inside, turn_limit)


def program_matches(prog, n, kind, seed, inside, turn_limit=None):
    """Play `prog` driven and stepped with the same agents and seed; assert the two logs are identical
    (or that both fail with the same error)."""

    def agents():
        if kind == "random":
            return [RandomAgent(seed * 7 + seat) for seat in range(n)]
        return [HeuristicAgent() for _ in range(n)]

    driven = ld.new_game(prog, players=n, seed=seed, agents=agents(), turn_limit=turn_limit)
    try:
        driven.play()
        failure = None
    except ld.LandlordError as err:
        failure = str(err)
    state = ld.new_state(prog, players=n, seed=seed if inside else None, turn_limit=turn_limit)
    chance = None if inside else SeededChance(seed)
    bots = agents()
    try:
        while not state.is_terminal():
            answer(state, bots, chance)
    except ld.LandlordError as err:
        assert str(err) == failure
        return
    assert failure is None, f"the driven game failed, the stepped one did not: {failure}"
    assert state.current_player() == TERMINAL
    assert state.log_lines() == driven.log_lines(), f"{prog.title} ({kind}, seed {seed}): stepped and driven differ"
    assert state.scores() == driven.scores()


@pytest.mark.parametrize("name", variants_slow(ld.shipped_editions()))
def test_stepped_heuristic_games_log_as_driven_ones_on_every_shipped_file(name):
    stepped_matches_driven(name, "heuristic", seed=4, inside=True)


@pytest.mark.parametrize("name", variants_slow(ld.shipped_editions()))
def test_stepped_games_with_chance_answered_outside_log_as_driven_ones(name):
    stepped_matches_driven(name, "random", seed=6, inside=False, turn_limit=60)


@settings(max_examples=12, deadline=None)
@given(
    name=st.sampled_from(ld.shipped_editions()),
    seed=st.integers(0, 2**32 - 1),
    kind=st.sampled_from(["heuristic", "random"]),
    inside=st.booleans(),
)
def test_stepped_and_driven_games_agree_for_any_seed(name, seed, kind, inside):
    stepped_matches_driven(name, kind, seed, inside, turn_limit=40)


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), seed=st.integers(0, 2**32 - 1), kind=st.sampled_from(["heuristic", "random"]))
def test_stepped_and_driven_games_agree_under_any_options(data, seed, kind):
    # every shipped file compiled with option values drawn at random (test_properties' strategy)
    path = data.draw(st.sampled_from(properties.FILES))
    options = data.draw(properties.option_strategy(path))
    prog = properties.program(path, options)
    program_matches(prog, prog.players[0], kind, seed, data.draw(st.booleans()), turn_limit=40)


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(properties.mutants(), st.integers(0, 1000))
def test_stepped_and_driven_games_agree_on_generated_rule_files(mutant, seed):
    # editions mutated by test_properties' strategy (constants scaled, rules dropped or repeated, spaces
    # swapped, fields zeroed): what loads plays the same stepped and driven, failures included
    name, kind, text = mutant
    note(f"mutation {kind} of {name}:\n{text}")
    try:
        rules = ld.load_text(text, f"{name}-mutant.lg")
    except ld.LandlordError:
        return
    prog = ld.compile_rules(rules)
    program_matches(prog, prog.players[0], "random", seed, inside=seed % 2 == 0, turn_limit=40)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", variants_slow(ld.shipped_editions()))
def test_stepped_games_log_as_driven_ones_with_two_to_four_seats(name, players):
    # every shipped edition and variant, seeded (chance inside: heuristic bots asked through the state)
    # and without a seed (chance answered outside from SeededChance: heuristic and random agents); a
    # number of seats the rules refuse is refused by new_state as by new_game
    prog = program(name)
    low, high = prog.players
    if not low <= players <= high:
        with pytest.raises(ld.UsageError, match=f"players, not {players}"):
            ld.new_state(prog, players=players)
        return
    program_matches(prog, players, "heuristic", seed=players, inside=True)
    program_matches(prog, players, "heuristic", seed=players + 20, inside=False)
    program_matches(prog, players, "random", seed=players + 40, inside=False, turn_limit=80)


def play_to_end(state, agents, chance=None):
    """Answer `state` to its end with `agents` (and `chance` at chance nodes); return its log lines."""
    while not state.is_terminal():
        answer(state, agents, chance)
    return state.log_lines()


@pytest.mark.parametrize("inside", [True, False])
def test_clones_taken_anywhere_play_on_as_the_original(inside):
    # 1933 Atlantic City, 4 seats, heuristic bots answering through the state, with a seed (the clone
    # carries the generator's state in its turn-boundary base) and without (the dice come from outside):
    # clones taken at every 5th request, clones of clones taken before they are read, and clones past
    # REBASE_TURNS turns from the state's first base all end with the original's log
    prog = program("monopoly-1933-atlantic-city")
    bots = [HeuristicAgent() for _ in range(4)]
    state = ld.new_state(prog, players=4, seed=11 if inside else None, turn_limit=3 * REBASE_TURNS)
    chance = None if inside else SeededChance(11)
    clones, steps = [], 0
    while not state.is_terminal():
        if steps % 5 == 0:
            clone = state.clone()
            twice = clone.clone()  # (before the clone is ever read)
            clones.append((clone, twice, None if inside else chance.fork(), state.log_lines()))
        answer(state, bots, chance)
        steps += 1
    end = state.log_lines()
    assert state.game.turn == 3 * REBASE_TURNS and len(clones) > 15
    for clone, twice, clone_chance, then in clones[::3]:
        assert clone.log_lines() == then
        other_chance = None if inside else copy.deepcopy(clone_chance)
        assert play_to_end(clone, bots, clone_chance) == end
        assert play_to_end(twice, bots, other_chance) == end


def test_applying_to_a_clone_leaves_the_original_as_it_was():
    # 1906, seeded: a clone answered differently from the original diverges; the original is unchanged
    prog = program("landlords-game-1906")
    state = ld.new_state(prog, players=3, seed=5)
    while not isinstance(state.request(), DecisionRequest):
        state.apply(None)
    before, request = state.log_lines(), state.request()
    clone = state.clone()
    clone.apply(len(request.legal) - 1)
    clone.request()
    assert state.log_lines() == before and state.request() is request
    state.apply(0)
    assert clone.log_lines() != state.log_lines()


@pytest.mark.parametrize("inside", [True, False])
def test_a_pickled_state_plays_on_as_the_original(inside):
    # 1933 Atlantic City, 3 seats, mid-game (seeded, and with chance from outside): pickle.loads of
    # pickle.dumps plays on to the same log as the original; a pickled Program compiles its rules again
    prog = program("monopoly-1933-atlantic-city")
    bots = [HeuristicAgent() for _ in range(3)]
    state = ld.new_state(prog, players=3, seed=21 if inside else None, turn_limit=60)
    chance = None if inside else SeededChance(21)
    for _ in range(150):
        answer(state, bots, chance)
    then = state.log_lines()
    copied = pickle.loads(pickle.dumps(state))
    assert copied.log_lines() == then and copied.legal_actions() == state.legal_actions()
    assert copied.game.prog.rules_hash == prog.rules_hash
    copied_chance = None if inside else chance.fork()
    assert play_to_end(copied, bots, copied_chance) == play_to_end(state, bots, chance)
    again = pickle.loads(pickle.dumps(prog))
    assert again is not prog and again.python_source == prog.python_source
    assert pickle.loads(pickle.dumps(state)).game.prog is again  # (compiled once in a process)


def test_a_pickled_variant_program_is_compiled_again_with_its_options():
    # 1906 prolonged game (a variant: its base edition's text and its own) under the single tax option:
    # the unpickled Program has the same rules and options, and plays the same game
    prog = ld.compile_rules(ld.load_edition("landlords-game-1906-prolonged-game"), {"single_tax": "at_turn"})
    again = pickle.loads(pickle.dumps(prog))
    assert again.rules_hash == prog.rules_hash and again.options == prog.options
    assert again.options["single_tax"] == "at_turn"
    driven = ld.new_game(prog, players=2, seed=3)
    driven.play()
    replayed = ld.new_game(again, players=2, seed=3)
    replayed.play()
    assert replayed.log_lines() == driven.log_lines()


def test_a_rule_failure_is_located_as_in_driven_play_and_raised_again_on_every_later_read(tmp_path):
    # 1906 with negative wages (as test_engine's located failure): the stepped game fails where the
    # driven one does, with the same located message; reading the state afterwards fails the same way
    # again (it does not go on with a next turn), and so does a clone of it
    import re
    from pathlib import Path

    source = (Path(__file__).resolve().parents[1] / "editions" / "landlords-game-1906.lg").read_text()
    path = tmp_path / "broken.lg"
    path.write_text(re.sub(r"const wages = 100", "const wages = -50", source))
    prog = ld.compile_rules(ld.load_edition(path))
    for seed in range(50):
        try:
            ld.new_game(prog, players=4, seed=seed).play()
        except ld.RuleRuntimeError as err:
            message = err.render()
            break
    else:
        pytest.fail("no seed reaches the negative wages")
    assert "negative amount" in message and "broken.lg:" in message
    state = ld.new_state(prog, players=4, seed=seed)
    with pytest.raises(ld.RuleRuntimeError) as info:
        play_to_end(state, [HeuristicAgent() for _ in range(4)])
    assert info.value.render() == message
    for read in (state.is_terminal, state.request, lambda: state.clone().log_lines()):
        with pytest.raises(ld.RuleRuntimeError) as again:
            read()
        assert again.value.render() == message


def test_the_stepped_compilation_is_built_once_and_only_for_a_state():
    # 1904: driven play never builds the stepped twin; the first state does, and later states reuse it
    prog = ld.compile_rules(ld.load_edition("landlords-game-1904"))
    ld.new_game(prog, players=2, seed=1).play()
    assert prog.stepped_built is None
    ld.new_state(prog, players=2, seed=1).is_terminal()
    built = prog.stepped_built
    assert built is not None and prog.stepped() is built
    ld.new_state(prog, players=3).is_terminal()
    assert prog.stepped_built is built


def test_every_asking_engine_method_has_a_generator_twin():
    # the stepped pass rewrites these calls into `yield from g.NAME_s(...)` (or NAME_q for a payment's
    # quick path): SteppedGame must have each, as a generator where it may ask
    import inspect

    for name in ASKING | CHANCE_METHODS | PAYMENTS | {"transfer"}:
        assert inspect.isgeneratorfunction(getattr(SteppedGame, name + "_s")), name
    for name in PAYMENTS:
        assert not inspect.isgeneratorfunction(getattr(SteppedGame, name + "_q")), name


def test_the_stepped_pass_refuses_a_request_it_cannot_yield():
    # generated code never asks inside a lambda or a comprehension (yield cannot go there); the pass
    # says so rather than compiling code that would ask without pausing
    source = "def _a(g):\n    g.choose(0, 'p', [], None)\n\ndef _b(g):\n    return [_a(g) for _ in range(2)]\n"
    with pytest.raises(SteppingError, match="inside a comprehension"):
        stepped_tree(source)
    _, generators = stepped_tree("def _a(g):\n    g.roll()\n\ndef _c(g):\n    _a(g)\n\ndef _d(g):\n    return 1\n")
    assert generators == {"_a", "_c"}


def test_the_stepped_pass_refuses_a_generator_used_other_than_by_a_call_given_the_source_or_not():
    # build_stepped gives the source, so that a module naming its generators only in calls (every shipped
    # one) is not walked for other uses: the text search may only skip the walk where the walk finds nothing
    from landlord_dsl.compiling.stepped_pass import stepped_module

    table = "def _a(g):\n    g.roll()\n\ndef _b(g):\n    return [_a, _ab(g)]\n"
    for source in (None, table):
        with pytest.raises(SteppingError, match=r"'_a' .* is used other than by a call"):
            stepped_module(ast.parse(table), False, False, source=source)
    called = "def _a(g):\n    g.roll()\n\ndef _b(g):\n    _a(g)\n    return _ab(g), '_a'\n"
    assert stepped_module(ast.parse(called), False, False, source=called)[1] == {"_a", "_b"}


def test_a_clone_plays_on_as_the_original_and_independently():
    # 1933 Atlantic City, 3 seats, chance outside: clone at many requests; each clone, answered on by
    # copies of the same bots and dice, ends with the original's log; applying to a clone leaves it alone
    prog = program("monopoly-1933-atlantic-city")
    state = ld.new_state(prog, players=3, turn_limit=50)
    chance, bots, steps, clones = SeededChance(9), [RandomAgent(s) for s in range(3)], 0, []
    while not state.is_terminal():
        if steps % 17 == 0:
            clones.append((state.clone(), chance.fork(), [bot.fork() for bot in bots], state.log_lines()))
        answer(state, bots, chance)
        steps += 1
    assert len(clones) > 5
    for clone, clone_chance, clone_bots, then in clones:
        assert clone.log_lines() == then
        while not clone.is_terminal():
            answer(clone, clone_bots, clone_chance)
        assert clone.log_lines() == state.log_lines()
    fresh = ld.new_state(prog, players=3, turn_limit=50)
    before = fresh.log_lines()
    other = copy.deepcopy(fresh)
    other.apply_chance(other.sample_chance(random.Random(0)))
    other.request()
    assert fresh.log_lines() == before and fresh.request() == ld.new_state(prog, players=3).request()


def test_chance_outcomes_are_every_throw_with_its_exact_probability():
    # 1933 Atlantic City, no seed: the first dice request (after the setup's shuffles) lists 36 throws
    state = ld.new_state(program("monopoly-1933-atlantic-city"), players=2)
    rng = random.Random(1)
    while not isinstance(state.request(), DiceRequest):
        assert state.is_chance()
        with pytest.raises(ld.UsageError, match="too many to list"):
            state.chance_outcomes()
        state.apply_chance(state.sample_chance(rng))
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 36 and sum(p for _, p in outcomes) == 1
    assert all(p == Fraction(1, 36) for _, p in outcomes) and outcomes[0][0] == (1, 1)
    assert state.legal_actions() == []


def test_wrong_answers_are_refused_and_change_nothing():
    # 1904 patent, seeded: decisions are the first requests; an answer out of range, a throw at a
    # decision, and a decision at the end are UsageErrors
    state = ld.new_state(program("landlords-game-1904"), players=2, seed=3)
    while not isinstance(state.request(), DecisionRequest):
        state.apply(None)  # a bid before any decision: pass
    legal = state.legal_actions()
    with pytest.raises(ld.UsageError, match="is not an option"):
        state.apply(len(legal))
    with pytest.raises(ld.UsageError, match="no chance request"):
        state.apply_chance((1, 1))
    assert state.legal_actions() == legal
    ended = ld.new_state(program("landlords-game-1904"), players=2, seed=3, turn_limit=1)
    while not ended.is_terminal():
        answer(ended, [HeuristicAgent(), HeuristicAgent()])
    with pytest.raises(ld.UsageError, match="the game is over"):
        ended.apply(0)
    assert ended.log[-1][0] == "end"


def test_new_state_takes_rules_by_name_and_checks_the_players():
    state = ld.new_state("landlords-game-1906", players=2, seed=1)
    assert state.current_player() in (0, 1) and not state.is_terminal()
    with pytest.raises(ld.UsageError, match="players, not 9"):
        ld.new_state("landlords-game-1906", players=9)


def test_the_state_page_shows_the_look_ahead_example_and_its_first_example_runs(capsys):
    # docs/state.md: the example file is shown verbatim; the page's first example plays a game to the end
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    page = (root / "docs" / "state.md").read_text(encoding="utf-8")
    example = (root / "examples" / "lookahead_agent.py").read_text(encoding="utf-8")
    assert f'```python title="examples/lookahead_agent.py"\n{example}```' in page
    first = page.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(first, "docs/state.md", "exec"), {})
    assert capsys.readouterr().out.startswith("(")


def test_the_look_ahead_example_plays_a_game(monkeypatch):
    # examples/lookahead_agent.py on 1904 (quick): seat 0 looks ahead through clones to the turn limit
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "examples" / "lookahead_agent.py"
    spec = importlib.util.spec_from_file_location("_lookahead_agent", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    looked = []
    real = module.look_ahead
    monkeypatch.setattr(module, "look_ahead", lambda state, rng: looked.append(1) or real(state, rng))
    scores = module.play("landlords-game-1904", turn_limit=30)
    assert len(scores) == 3 and looked, "seat 0 was never asked a decision"


@pytest.mark.parametrize("name", variants_slow(ld.shipped_editions()))
def test_the_keyed_compilation_made_with_the_driven_one_is_the_one_made_later(name):
    # analyze compiles with keyed=True: the keyed stepped module is made from the syntax tree the driven
    # module ran (its reads of the game's lists already rewritten), and holds the generator functions alone;
    # made later from the source, whole, its generator functions are the same code, and the decks read the same
    import ast

    from landlord_dsl.compiling.compiler import compile_ruleset
    from landlord_dsl.compiling.pyast_pass import read_game_lists_once
    from landlord_dsl.compiling.stepped_pass import stepped_module

    source = program(name).python_source
    alone, generators = stepped_module(read_game_lists_once(source), False, True, generators_only=True)
    whole, _ = stepped_tree(source, keyed=True)
    assert [f.name for f in alone.body] == [f.name for f in whole.body if f.name in generators]
    kept = {f.name: ast.unparse(f) for f in whole.body}
    assert all(ast.unparse(f) == kept[f.name] for f in alone.body)
    at_once = compile_ruleset(ld.load_edition(name), keyed=True)
    assert at_once.keyed_built is not None and at_once.stepped(keyed=True) is at_once.keyed_built
    assert at_once.keyed_built.decks_read == ld.compile_rules(ld.load_edition(name)).stepped(keyed=True).decks_read
