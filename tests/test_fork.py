"""Game.fork: a copy of a game at a turn boundary plays on exactly as the original, and independently.

Every shipped edition and variant is forked at many turn boundaries (and before the setup); each fork,
played to the end, must log byte-identically what the unforked game logged, with heuristic bots (shared,
stateless) and with random bots (whose generators the fork copies).
"""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import landlord_dsl as ld
from landlord_dsl.agents import HeuristicAgent, RandomAgent, ScriptedAgent, SharedScript
from landlord_dsl.engine.fields import copy_fields, fields_of
from landlord_dsl.engine.game import _FORK_FLAT, _FORK_ROWS


@functools.cache
def program(name: str):
    return ld.compile_rules(ld.load_edition(name))


def players_of(name: str) -> int:
    low, high = program(name).players
    return min(max(3, low), high)


def agents_of(kind: str, n: int, seed: int) -> list:
    if kind == "random":
        return [RandomAgent(seed * 10 + seat) for seat in range(n)]
    return [HeuristicAgent() for _ in range(n)]


# long enough for many forks, short enough that random bots' games (which seldom end) stay quick
TURN_LIMIT = 120


def new(name: str, kind: str, seed: int):
    n = players_of(name)
    return ld.new_game(program(name), players=n, seed=seed, agents=agents_of(kind, n, seed), turn_limit=TURN_LIMIT)


def full_log(name: str, kind: str, seed: int) -> list[str]:
    game = new(name, kind, seed)
    game.play()
    return game.log_lines()


def forks_match(name: str, kind: str, seed: int, every: int) -> int:
    """Fork a game before its setup and every `every` turns; assert each fork ends as the unforked game
    did; return how many forks were checked."""
    expected = full_log(name, kind, seed)
    game = new(name, kind, seed)
    forks = [game.fork()]
    game.setup()
    forks.append(game.fork())
    while not game.over:
        game.play_turn()
        if game.turn % every == 0:
            forks.append(game.fork())
    game.log.append(("end", game.turn, game.end_reason))
    assert game.log_lines() == expected
    for fork in forks:
        fork.play()
        assert fork.log_lines() == expected, f"{name} seed {seed}: a fork made at some turn played differently"
    return len(forks)


@pytest.mark.parametrize("name", ld.shipped_editions())
@pytest.mark.parametrize("kind", ["heuristic", "random"])
def test_forks_of_every_shipped_file_play_on_as_the_original(name, kind):
    assert forks_match(name, kind, seed=3, every=9) >= 3


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), every=st.integers(4, 40), kind=st.sampled_from(["heuristic", "random"]))
def test_forks_play_on_as_the_original_for_any_seed(seed, every, kind):
    forks_match("monopoly-1933-atlantic-city", kind, seed, every)


def test_a_fork_and_its_original_are_independent():
    # 1933 Atlantic City, 4 seats: play 30 turns, fork, then change and play the fork; the original is untouched
    game = ld.new_game(program("monopoly-1933-atlantic-city"), players=4, seed=5)
    game.setup()
    for _ in range(30):
        game.play_turn()
    before = game.log_lines()
    saved = game.save()
    fork = game.fork()
    fork.bal[fork.nacc] += 1
    fork.pv[0][0] = "changed" if isinstance(fork.pv[0][0], str) else 99
    fork.decks[next(iter(fork.decks))].reverse()
    for _ in range(20):
        fork.play_turn()
    fork.chance.rng.random()
    assert game.log_lines() == before
    assert game.save() == saved
    game.play()  # the original still plays to the end (and so does the fork)
    fork.play()


def test_fork_keeps_one_agent_for_seats_that_shared_one():
    # 1906 edition, replay-style: one scripted agent answers for all seats; the fork's seats share one copy
    script = SharedScript([0] * 1000)
    game = ld.new_game(program("landlords-game-1906"), players=3, agents=script.seats(3))
    fork = game.fork()
    assert fork.agents[0] is fork.agents[1] is fork.agents[2]
    assert isinstance(fork.agents[0], ScriptedAgent) and fork.agents[0] is not script.agent
    heuristic = ld.new_game(program("landlords-game-1906"), players=3)
    assert heuristic.fork().agents == heuristic.agents  # stateless: shared


def test_fork_with_agents_given_uses_them_and_checks_their_number():
    game = ld.new_game(program("landlords-game-1904"), players=2, seed=1)
    bots = [RandomAgent(1), RandomAgent(2)]
    assert game.fork(agents=bots).agents == bots
    with pytest.raises(ld.UsageError, match="needs 2 agents, not 3"):
        game.fork(agents=[*bots, RandomAgent(3)])


def test_fork_leaves_listeners_and_observers_behind():
    game = ld.new_game(program("monopoly-1933-atlantic-city"), players=2, seed=2)
    heard: list[tuple] = []
    game.listen(heard.append)
    game.observe(object())
    game.setup()
    fork = game.fork()
    count = len(heard)
    fork.play_turn()
    assert len(heard) == count and fork.observers == [] and type(fork.log) is list


def test_every_changing_attribute_of_a_game_is_copied_by_fork():
    # a new mutable attribute of Game must be added to the fork's lists (or be shown never to change)
    game = ld.new_game(program("monopoly-1933-atlantic-city"), players=4, seed=8)
    fresh = ld.new_game(program("monopoly-1933-atlantic-city"), players=4, seed=8)
    game.track_wealth()
    game.play()
    special = {"log", "decks", "short", "wealth_history", "agents", "observers"}
    special |= {"gcount", "gcount_at", "gfull", "gkept"}  # (counted again from the fork's owners: Cards.count_groups)
    fresh_fields = fields_of(fresh)
    for name, value in fields_of(game).items():
        if isinstance(value, (list, dict, set)) and name not in special and name not in _FORK_FLAT + _FORK_ROWS:
            assert value == fresh_fields[name], f"Game.{name} changes during play but fork does not copy it"


def test_the_fork_benchmark_runs_and_reports_each_figure(capsys):
    # benchmarks/bench_state.py on 1904 (quick): no timing asserted, only that every figure is there
    import importlib.util
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_state.py"
    spec = importlib.util.spec_from_file_location("_bench_state", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert (
        module.main(["--edition", "landlords-game-1904", "--games", "1", "--repeat", "2", "--best", "1", "--json"]) == 0
    )
    figures = json.loads(capsys.readouterr().out)
    assert all(figures[key] > 0 for key in ("turn_us", "fork_us", "save_restore_us"))
    stepped = ("clone_us", "clone_outside_us", "clone_first_use_us", "stepped_per_driven", "stepped_per_asked")
    assert all(figures[key] > 0 for key in stepped)
    assert all(figures[key] > 0 for key in ("resample_us", "resample_first_use_us", "observation_us"))


def test_a_game_declares_its_fields_and_a_subclass_may_keep_its_own():
    # docs/engine.md, "The game's fields": a Game has no __dict__; a subclass without __slots__ has one, and
    # a fork carries what it holds
    game = ld.new_game(program("monopoly-1933-atlantic-city"), players=4, seed=8)
    assert not hasattr(game, "__dict__")
    with pytest.raises(AttributeError):
        game.notes = []  # type: ignore[attr-defined]

    class Noted(ld.Game):
        pass

    noted = Noted(game.prog, [HeuristicAgent() for _ in range(4)], seed=8)
    noted.notes = ["kept"]  # type: ignore[attr-defined]
    noted.setup()
    noted.play_turn()
    fork = noted.fork()
    assert type(fork) is Noted and fork.notes == ["kept"]  # type: ignore[attr-defined]
    assert fork.notes is noted.notes  # type: ignore[attr-defined]  (a subclass's own values: the same objects)
    fork.play()
    noted.play()
    assert fork.log == noted.log


def test_the_fields_of_a_game_leave_out_a_field_a_subclass_reads_by_a_property():
    # (the exact analysis's game reads its dice through properties that tell its chance source of each read:
    # copying or listing its fields must not read them that way)
    reads = []

    class Base:
        __slots__ = ("dice", "turn")

    class Watched(Base):
        __slots__ = ("_dice",)

        @property
        def dice(self):
            reads.append(self._dice)
            return self._dice

        @dice.setter
        def dice(self, value):
            self._dice = value

    watched = Watched()
    watched.dice, watched.turn = (3, 4), 7
    assert fields_of(watched) == {"turn": 7, "_dice": (3, 4)}
    other = Watched.__new__(Watched)
    copy_fields(watched, other)
    assert (other._dice, other.turn) == ((3, 4), 7) and reads == []
