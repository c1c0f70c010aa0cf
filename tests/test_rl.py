"""The reinforcement-learning environments (landlord_dsl.env, landlord_dsl.rl): issue 19, section 1.

The random-policy smoke run plays LANDLORD_RL_GAMES games per edition
(2 by default); the full run is

    LANDLORD_RL_GAMES=1000 python -m pytest tests/test_rl.py -k smoke -s --run-slow -n 0

and prints its figures.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pettingzoo.test as pettingzoo_test  # the test extra installs it: no silent skip
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st

import landlord_dsl as ld
from landlord_dsl.agents import SharedScript
from landlord_dsl.core.errors import LandlordError
from landlord_dsl.program.requests import BidRequest
from landlord_dsl.rl import EnvironmentUsageError, InvalidAction, LandlordGymEnv, ResetNeeded
from landlord_dsl.rl.encoding import GAME_VARS, MAX_SEATS, PLAYER_VARS, SPACE_VARS, ActionLayout, choice_statements
from sweep_params import variants_slow

ROOT = Path(__file__).resolve().parents[1]
EDITIONS = ld.shipped_editions()
MAIN = ["landlords-game-1904", "landlords-game-1906", "monopoly-1933-atlantic-city"]

# A generated rule set small enough to reach every kind of request quickly: options per
# item of a written list, per space and per player, an offer, an auction with a step,
# players who leave, variables of every kind the observation encodes, and a turn limit.
SMALL = """edition "rl-small" { title "A small board for the environment's tests" players 2 to 3 turn limit 60 }
account bank "Bank" unlimited
kind start "Start" { }
kind lot "Lot" titled { price: int }
var rounds_seen = 0
player var favourite: space = none
player var rival: player = none
player var lucky = false
space var marks = 0
deck lots "Deeds" returned of titles { }
board {
    space go "Go" : start
    space red "Red" : lot { price = 30 }
    space blue "Blue" : lot { price = 50 }
    space green "Green" : lot { price = 70 }
    space gold "Gold" : lot { price = 90 }
}
rule setup "Cash" {
    on setup {
        for p in players { pay 200 from bank to p }
    }
}
rule turn "A turn" {
    on turn {
        roll dice
        choose "How far?" {
            option dice "Move {dice.total}" { move forward dice.total }
            option step "Move by a number" for k in [1, 2, 3] { move forward k }
        }
    }
}
rule lots "Lots" {
    on land lot {
        if here.owner == none {
            choose "Buy {here}?" {
                option buy "Buy" when player.cash >= here.price cost here.price value here.price + 10 {
                    pay here.price from player to bank
                    give here.title to player
                }
                option auction "Auction it" { auction here start 10 step 5 to bank }
            }
        } else if here.owner != player {
            pay 20 from player to here.owner
        }
    }
}
rule market "Marks and favourites" {
    on land start {
        set rounds_seen += 1
        offer "Mark a lot?" {
            option mark "Mark {s}" for s in spaces when s.kind == "lot" and s.marks < 2 value -1 {
                set s.marks += 1
                set player.favourite = s
            }
            option name "Name {q} your rival" for q in players when q != player value -1 {
                set player.rival = q
                set player.lucky = true
            }
        }
    }
}
rule bankrupt "Out when broke" {
    on shortfall { eliminate player }
}
end last_one when len(players) <= 1
score player.cash
"""


@pytest.fixture(scope="module")
def small():
    return ld.load_text(SMALL, "rl-small.lg")


def _variant_of_1906() -> ld.RuleSet:
    """Return a generated variant: the 1906 edition extended with one more rule that asks a question."""
    text = (
        'edition "rl-generated" { title "1906 with a generated question" extends "landlords-game-1906" }\n'
        'rule generated "A generated question" {\n    on turn {\n'
        '        choose "Stand still or step?" {\n'
        '            option still "Stand still" { }\n'
        '            option step "Step {k}" for k in [1, 2] { move forward k }\n'
        "        }\n    }\n}\n"
    )
    return ld.load_text(text, "rl-generated.lg")


def _turn_of(game, event) -> int:
    """Return the seat whose turn an event happened in."""
    return next(e[2] for e in game.log if e[0] == "turn" and e[1] == event[1])


def _random_game(env, seed: int, check=None) -> int:
    """Play one game with uniformly random legal actions; return the steps taken by live agents.

    Asserts that the acting agent always has a legal action and that every
    other agent's mask is empty; `check(env, agent, action)` runs before each step.
    """
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.any(), f"{agent} must act but no action is legal"
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        action = int(rng.choice(np.flatnonzero(mask)))
        if check is not None:
            check(env, agent, action)
        env.step(action)
        steps += 1
    return steps


# ------------------------------------------------------------------ the extra
def test_env_without_the_rl_extra_names_the_extra(monkeypatch):
    for name in [m for m in sys.modules if m == "landlord_dsl.rl" or m.startswith("landlord_dsl.rl.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    with pytest.raises(LandlordError, match=r"optional 'rl' extra \(pettingzoo is missing\).*landlord-dsl\[rl\]"):
        ld.env("landlords-game-1906")


# ------------------------------------------------------------- PettingZoo tests
def _layout_for_40_spaces() -> int:
    """Return the observation size documented for a 40-space board (every shipped edition's)."""
    board = 40
    seat_width = 5 + board + PLAYER_VARS
    return MAX_SEATS * seat_width + board * (MAX_SEATS + SPACE_VARS) + 3 + GAME_VARS + 4 + 12 + board


@pytest.mark.parametrize("name", variants_slow(EDITIONS))
def test_api_and_seed_tests_pass_for_every_shipped_edition(name):
    env = ld.env(name, players=4)
    # every shipped board has 40 spaces, so every edition has the one observation layout
    assert env.observation_space("player_1")["observation"].shape == (_layout_for_40_spaces(),)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's advice (a Dict observation is not a Box) is expected
        pettingzoo_test.api_test(env, num_cycles=100)
        pettingzoo_test.seed_test(lambda: ld.env(name, players=4), num_cycles=100)


def test_api_and_seed_tests_pass_with_rule_options():
    """1906 Single Tax, adopted by a vote of at least two players: the others are asked out of turn (`choose by`)."""
    options = {"single_tax": "vote"}
    env = ld.env("landlords-game-1906", players=4, options=options)
    _random_game(env, 0)
    assert any(e[0] == "decide" and "calls a vote" in e[3] and e[2] != _turn_of(env.game, e) for e in env.game.log)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pettingzoo_test.api_test(ld.env("landlords-game-1906", players=4, options=options), num_cycles=300)
        pettingzoo_test.seed_test(lambda: ld.env("landlords-game-1906", players=4, options=options), num_cycles=100)


@pytest.mark.parametrize("players", [2, 3])
def test_api_and_seed_tests_pass_for_a_generated_rule_set(small, players):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pettingzoo_test.api_test(ld.env(small, players=players), num_cycles=300)
        pettingzoo_test.seed_test(lambda: ld.env(small, players=players), num_cycles=300)


def test_api_and_seed_tests_pass_for_a_generated_variant():
    rules = _variant_of_1906()
    env = ld.env(rules, players=3)
    # the variant's own question has its slots: still, then one per item of [1, 2]
    site = next(span for span in env.layout.sites if span.file == "rl-generated.lg")
    assert env.layout.sites[site] == ((0, "plain"), (1, "ordinal"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pettingzoo_test.api_test(env, num_cycles=100)
        pettingzoo_test.seed_test(lambda: ld.env(rules, players=3), num_cycles=100)


# ---------------------------------------------------------------- action slots
def test_action_slots_follow_the_options_as_written(small):
    layout = ld.env(small, players=3).layout
    by_prompt = {c.prompt: layout.sites[c.span] for c in choice_statements(small)}
    assert by_prompt["How far?"] == ((0, "plain"), (1, "ordinal"))  # 1 + 3 slots
    assert by_prompt["Buy {here}?"] == ((0, "plain"), (1, "plain"))
    # 5 spaces, then the most players the rules allow (3), then the offer's done
    assert by_prompt["Mark a lot?"] == ((0, "space"), (5, "player"), (8, "plain"))
    assert layout.size == 9


def test_action_space_size_of_the_shipped_editions():
    """The largest question decides: 1933's raise-cash offer has options per title (40 spaces) and per card (89,
    the attested decks of `proxy_decks = false` included)."""
    sizes = {name: ld.env(name).layout.size for name in MAIN}
    assert sizes == {"landlords-game-1904": 6, "landlords-game-1906": 41, "monopoly-1933-atlantic-city": 210}
    assert ld.env(MAIN[0], bid_levels=9).layout.size == 10


def test_every_legal_slot_answers_the_entry_it_names(small):
    """Whatever is asked, a legal slot maps back to a legal entry of the same option and item."""
    env = ld.env(small, players=3)
    layout = env.layout
    seen = set()

    def check(env, agent, action):
        request = env.driver.request
        answer = env._answers[action]
        if isinstance(request, BidRequest):
            seen.add("bid")
            assert answer is None or request.minimum <= answer <= request.maximum
            return
        k, x, _, _ = request.legal[answer]
        parts = layout.sites[request.site.span] if request.site.span is not None else None
        if parts is None:
            seen.add("engine")
            assert action == k
            return
        offset, kind = parts[k]
        seen.add(kind)
        if kind in ("space", "player"):
            assert action == offset + x
        elif kind == "ordinal":
            assert offset <= action < offset + 3
        else:
            assert action == offset

    for seed in range(6):
        _random_game(env, seed, check)
    assert seen >= {"bid", "plain", "ordinal", "space", "player"}


def test_bid_levels_spread_from_the_minimum_to_all_cash():
    rules = ld.load_edition("monopoly-1933-atlantic-city")
    layout = ActionLayout(rules, ld.compile_rules(rules), bid_levels=5)
    request = BidRequest(0, "r", "x", 95, 100, 500, 60, 75)
    assert layout.bid_amounts(request) == [(0, None), (1, 100), (2, 200), (3, 300), (4, 400), (5, 500)]
    narrow = BidRequest(0, "r", "x", 95, 100, 102, 60, 75)
    # levels 100, 100, 101, 101, 102: a repeated amount keeps its first slot only
    assert layout.bid_amounts(narrow) == [(0, None), (1, 100), (3, 101), (5, 102)]
    assert ActionLayout(rules, ld.compile_rules(rules), 1).bid_amounts(request) == [(0, None), (1, 100)]


def test_an_option_over_a_list_of_unknown_length_is_a_located_error():
    text = SMALL.replace("var rounds_seen = 0", "var rounds_seen = 0\nfunction steps_allowed() = [1, 2, 3]").replace(
        "for k in [1, 2, 3]", "for k in steps_allowed()"
    )
    rules = ld.load_text(text, "rl-small.lg")
    with pytest.raises(LandlordError) as info:
        ld.env(rules, players=3)
    rendered = info.value.render()
    assert rendered == (
        "rl-small.lg:29:53: error: option 'step' has one choice per item of a list whose length is not known "
        "before the game, so it cannot have a fixed number of action slots\n"
        ' 29 |             option step "Move by a number" for k in steps_allowed() { move forward k }\n'
        "    |                                                     ^^^^^^^^^^^^^^^\n"
        "      hint: bind it to spaces, players or cards, or to a list written out in full"
    )


# ------------------------------------------------------------------ observations
def test_observation_layout_depends_on_the_board_size_only(small):
    """Not on the edition, the rules' variables or the number of players (the shipped ones: see the API test)."""
    sizes = {ld.env(MAIN[2], players=n).observation_space("player_1")["observation"].shape for n in (2, 8)}
    assert sizes == {(_layout_for_40_spaces(),)}
    five = ld.env(small, players=2).observation_space("player_1")["observation"].shape[0]
    # each space more: a position column in every seat row, an owner row with its variables, a request flag
    assert _layout_for_40_spaces() - five == 35 * (MAX_SEATS + MAX_SEATS + SPACE_VARS + 1)


def test_observation_shows_the_state_from_the_observer_seat(small):
    env = ld.env(small, players=3)
    env.reset(seed=4)
    game, enc = env.game, env.encoder
    game.pos[:] = [1, 2, 3]
    game.bal[game.nacc :] = [111, 222, 333]
    game.set_holder(game.prog.title_card[4], 2)  # seat 2 owns the fifth space
    game.pv[1][0] = 2  # seat 0's rival: seat 2
    game.pv[0][0] = 3  # seat 0's favourite: the fourth space
    game.sv[0][4] = 2  # two marks on the fifth space
    obs = enc.encode(game, 1, None)  # seen by seat 1: rows are seats 1, 2, 0
    w = enc.seat_width
    assert list(obs[0:3]) == [1, 1, 222] and obs[5 + 2] == 1
    assert list(obs[w : w + 3]) == [1, 1, 333] and obs[w + 5 + 3] == 1 and obs[w + 3] == 1
    assert list(obs[2 * w : 2 * w + 3]) == [1, 1, 111] and obs[2 * w + 5 + 1] == 1
    vars_at = 2 * w + 5 + enc.board
    assert obs[vars_at + 0] == 4  # favourite: space index 3, shown as 3 + 1
    assert obs[vars_at + 1] == 2  # rival: seat 2 is one seat after the observer, shown as 1 + 1
    assert not obs[3 * w : MAX_SEATS * w].any()  # no fourth seat
    space = enc.spaces_at + 4 * enc.space_width
    assert obs[space + 1] == 1 and obs[space + MAX_SEATS] == 2  # owner one seat after the observer; marks


def test_only_the_asked_agent_sees_the_request_and_a_mask(small):
    env = ld.env(small, players=3)
    env.reset(seed=1)
    agent = env.agent_selection
    at = env.encoder.request_at
    for other in env.agents:
        obs = env.observe(other)
        if other == agent:
            assert obs["observation"][at] == 1 and obs["action_mask"].any()
        else:
            assert obs["observation"][at] == 0 and not obs["action_mask"].any()


def test_too_many_variables_for_the_observation_is_a_clear_error(small):
    extra = "\n".join(f"var extra_{i} = 0" for i in range(GAME_VARS))
    rules = ld.load_text(SMALL.replace("var rounds_seen = 0", "var rounds_seen = 0\n" + extra), "rl-small.lg")
    with pytest.raises(
        LandlordError, match=f"declares {GAME_VARS + 1} game variables; the observation has room for {GAME_VARS}"
    ):
        ld.env(rules, players=2)


# ----------------------------------------------------------- exact replay, seeds
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 3), bots=st.sets(st.integers(0, 2), max_size=1))
def test_an_environment_game_replays_exactly_from_its_seed_and_decisions(small, seed, players, bots):
    """Same seed, same answers, same game: the env's game replays through the plain engine byte for byte."""
    bots = {s: "bot" for s in bots if s < players}
    env = ld.env(small, players=players, bots=bots)
    _random_game(env, seed)
    played = env.game
    replay = ld.Game(ld.compile_rules(small), SharedScript(played.decisions).seats(players), seed=env.game_seed)
    replay.play()
    assert replay.log_lines() == played.log_lines()
    assert not played.invariant_problems()


def test_reset_with_a_seed_repeats_the_game_and_without_one_goes_on_from_it():
    env = ld.env("landlords-game-1906", players=3)

    def trajectory(seed=None):
        env.reset(seed=seed)
        out = []
        for _ in range(40):
            obs, reward, terminated, truncated, _ = env.last()
            if terminated or truncated:
                break
            action = int(np.flatnonzero(obs["action_mask"])[-1])
            out.append((env.agent_selection, action, reward, obs["observation"].tobytes()))
            env.step(action)
        return out

    first, then = trajectory(5), trajectory()
    assert trajectory(5) == first and trajectory() == then
    assert first != then


def test_rewards_are_score_changes_summing_to_the_score_gained(small):
    env = ld.env(small, players=3)
    for seed in range(4):
        env.reset(seed=seed)
        start = env.game.scores()
        totals = {a: 0.0 for a in env.agents}
        final = {}  # each agent's score when its game ended: at the end, or when it left
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            totals[agent] += reward
            if terminated or truncated:
                final[agent] = env.game.scores()[env._seat[agent]]
            env.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
        assert totals == {f"player_{s + 1}": float(final[f"player_{s + 1}"] - start[s]) for s in range(3)}


def test_rank_rewards_come_at_the_end_only(small):
    """Each agent's one reward is its place when its game ends (at the end, or when it leaves early)."""
    env = ld.env(small, players=3, reward="rank")
    left_early = 0
    for seed in range(6):
        env.reset(seed=seed)
        rewards = {a: [] for a in env.agents}
        places = {}
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            rewards[agent].append(reward)
            if terminated or truncated:
                scores, seat = env.game.scores(), env._seat[agent]
                places[agent] = (sum(s < scores[seat] for s in scores) - sum(s > scores[seat] for s in scores)) / 2
                left_early += env.driver.request is not None
            env.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[-1]))
        for agent, got in rewards.items():
            assert got[-1] == places[agent] and not any(got[:-1])
    assert left_early


def test_a_player_who_leaves_is_terminated_before_the_game_ends(small):
    env = ld.env(small, players=3)
    for seed in range(20):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated and env.driver.request is not None:
                assert env._seat[agent] not in env.game.seats  # out, while the others play on
                env.step(None)
                assert agent not in env.agents
                return
            env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    pytest.fail("no player left the game early in 20 games")


def test_the_turn_limit_truncates_rather_than_terminates():
    env = ld.env("landlords-game-1906", players=2, turn_limit=5)
    env.reset(seed=0)
    for _ in env.agent_iter():
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert truncated and not terminated and info["end_reason"] == "turn limit (5)"
            env.step(None)
        else:
            env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.agents == []


def test_an_illegal_action_is_an_error_or_the_first_legal_one():
    env = ld.env("landlords-game-1906", players=2)
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(LandlordError, match=f"action {illegal} is not legal for player_"):
        env.step(illegal)
    with pytest.raises(LandlordError, match="must act"):
        env.step(None)
    lenient = ld.env("landlords-game-1906", players=2, illegal_action="first_legal")
    strict = ld.env("landlords-game-1906", players=2)
    lenient.reset(seed=0)
    strict.reset(seed=0)
    lenient.step(illegal)
    strict.step(int(np.flatnonzero(mask)[0]))
    assert lenient.game.log_lines() == strict.game.log_lines()


def test_bad_settings_are_clear_errors(small):
    with pytest.raises(LandlordError, match="unknown reward 'money'"):
        ld.env(small, players=2, reward="money")
    with pytest.raises(LandlordError, match="for 2 to 3 players, not 5"):
        ld.env(small, players=5)
    with pytest.raises(LandlordError, match="leave at least one seat to learn"):
        ld.env(small, players=2, bots={0: "bot", 1: "bot"})
    with pytest.raises(LandlordError, match="bid_levels must be at least 1"):
        ld.env(small, players=2, bid_levels=0)


def test_closing_mid_game_unwinds_it_and_a_new_reset_starts_afresh(small):
    env = ld.env(small, players=2)
    env.reset(seed=3)
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    driver = env.driver
    env.close()
    assert driver.request is None and driver._play.dead
    env.reset(seed=3)
    assert env.game.turn >= 1 and env.driver is not driver


def test_render_shows_each_seat(small):
    env = ld.env(small, players=2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert text.startswith("turn 1") and "Player 1: " in text and "cash 200" in text


# ------------------------------------------------------------ misuse (issue 35, item 12)
def _legal(env) -> int:
    return int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])


def test_stepping_without_a_running_game_is_a_reset_needed_error(small):
    env = ld.env(small, players=2)
    for call in (lambda: env.step(0), env.last, lambda: env.observe("player_1")):
        with pytest.raises(ResetNeeded, match=r"no game yet: call reset\(\) before step"):
            call()
    env.reset(seed=0)
    env.close()
    with pytest.raises(ResetNeeded, match=r"was closed: call reset\(\)"):
        env.step(0)
    env.reset(seed=0)
    env.step(_legal(env))  # a reset after close() plays again
    assert issubclass(ResetNeeded, LandlordError) and issubclass(ResetNeeded, gymnasium.error.ResetNeeded)


@pytest.mark.parametrize("action", [float("nan"), 1.5, "x", np.array([1, 2]), True, -1, 10**9, [0]])
def test_an_action_that_is_not_an_index_of_the_action_space_is_invalid(small, action):
    env = ld.env(small, players=2, illegal_action="first_legal")
    env.reset(seed=0)
    with pytest.raises(InvalidAction, match=r"a whole number from 0 to \d+ \(an index of the action_mask\)"):
        env.step(action)
    before = env.game.log_lines()
    env.step(np.array(_legal(env)))  # a 0-d integer array is a whole number; the refused step changed nothing
    assert env.game.log_lines() != before and issubclass(InvalidAction, gymnasium.error.InvalidAction)


def test_a_step_after_the_game_ended_says_to_reset(small):
    env = ld.env(small, players=2, turn_limit=3)
    env.reset(seed=0)
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            with pytest.raises(InvalidAction, match=f"the game of {agent} is over: step\\(None\\)"):
                env.step(0)
        env.step(None if terminated or truncated else _legal(env))
    with pytest.raises(ResetNeeded, match="every agent has left it: call reset"):
        env.step(None)
    gym = LandlordGymEnv(small, players=2, turn_limit=3)
    gym.reset(seed=0)
    while not any(gym.step(int(np.flatnonzero(gym.action_masks())[0]))[2:4]):
        pass
    with pytest.raises(ResetNeeded, match=r"the game is over \(terminated or truncated\): call reset"):
        gym.step(0)
    gym.close()
    with pytest.raises(ResetNeeded, match="was closed"):
        gym.step(0)


def test_a_step_from_another_thread_is_a_clear_error(small):
    env = ld.env(small, players=2)
    env.reset(seed=0)
    action = _legal(env)
    caught: list[BaseException] = []

    def step() -> None:
        try:
            env.step(action)
        except BaseException as err:
            caught.append(err)

    worker = threading.Thread(target=step)
    worker.start()
    worker.join()
    assert len(caught) == 1 and isinstance(caught[0], EnvironmentUsageError)
    assert "runs in the thread that called reset()" in str(caught[0])
    env.step(action)  # the game is intact in its own thread


# ------------------------------------------------------------ Gymnasium wrapper
@pytest.mark.parametrize("name", MAIN)
def test_the_single_seat_wrapper_passes_gymnasiums_checker(name):
    env = LandlordGymEnv(name, players=3, seat=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # only the advice that an env without a spec cannot test render modes
        check_env(env)


def test_the_single_seat_wrapper_plays_against_bots(small):
    env = LandlordGymEnv(small, players=3, seat=2, opponents="random")
    assert env.aec.possible_agents == ["player_3"]
    obs, _ = env.reset(seed=7)
    steps, total = 0, 0.0
    while True:
        mask = env.action_masks()
        assert mask.any() and np.array_equal(mask, obs["action_mask"].astype(bool))
        obs, reward, terminated, truncated, _ = env.step(int(np.flatnonzero(mask)[0]))
        total += reward
        steps += 1
        if terminated or truncated:
            break
    game = env.aec.game
    assert game.over and steps == sum(1 for e in game.log if e[0] in ("decide", "bid") and e[2] == 2)
    assert total == game.scores()[2] - 200


def test_the_example_runs():
    proc = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "rl_loop.py"), "--games", "1"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("game 0: ") and "gymnasium game 0: return " in proc.stdout


# ------------------------------------------------------------------- smoke run
GAMES = int(os.environ.get("LANDLORD_RL_GAMES", "2"))


@pytest.mark.slow
@pytest.mark.parametrize("name", EDITIONS if GAMES > 2 else MAIN)
def test_random_policy_smoke_run(name):
    """Random legal actions for every seat: every game ends, money is conserved, nothing illegal is asked for."""
    env = ld.env(name, players=4)
    start, steps, ends = time.perf_counter(), 0, {}
    for seed in range(GAMES):
        steps += _random_game(env, seed)
        game = env.game
        assert game.over and not game.invariant_problems()
        reason = game.end_reason.split(" (")[0]
        ends[reason] = ends.get(reason, 0) + 1
    seconds = time.perf_counter() - start
    print(
        f"\n{name}: {GAMES} games, {steps / GAMES:.0f} steps a game, {seconds / GAMES:.3f} s a game, "
        f"{steps / seconds:.0f} steps/s, ends {ends}"
    )


def test_a_question_to_a_player_who_has_left_is_a_clear_error():
    text = (
        'edition "rl-gone" { players 3 to 3 turn limit 20 }\n'
        'account bank "Bank" unlimited\nkind start "Start" { }\nboard {\n    space go "Go" : start\n}\n'
        "var gone: player = none\n"
        'rule ask "Ask" {\n    on turn {\n'
        '        choose "Wait?" {\n            option wait "Wait" { }\n            option go "Go" { }\n        }\n'
        "        if turn_number == 1 {\n            set gone = players[1]\n"
        "            eliminate players[1]\n        }\n"
        "        if turn_number == 4 and gone != none {\n"
        '            choose by gone "Still there?" {\n'
        '                option yes "Yes" { }\n                option no "No" { }\n            }\n'
        "        }\n    }\n}\n"
    )
    env = ld.env(ld.load_text(text, "rl-gone.lg"), players=3)
    env.reset(seed=0)
    with pytest.raises(
        LandlordError,
        match=r"the rules ask Player 2 a question after he has left the game "
        r"\(rule 'ask'\)",
    ):
        for _ in env.agent_iter():
            _, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else 0)
