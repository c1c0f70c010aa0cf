"""Searching agents (agents/search.py), the stepped driver (agents/stepped.py), seat specs (agents/seats.py)
and tournaments (studies/tournament.py): tiny budgets, short games."""

from __future__ import annotations

import functools
import io
import json
import random
from fractions import Fraction

import pytest

import landlord_dsl as ld
import search_positions
from landlord_dsl.agents import HeuristicAgent, RandomAgent
from landlord_dsl.agents.search import (
    Action,
    CallableAgent,
    MCTSAgent,
    RolloutAgent,
    _listed,
    _Node,
    bot_answer,
    candidates,
    rollout_turns,
    values,
)
from landlord_dsl.agents.seats import SeatSpec, any_search, make_seat, parse_seat, parse_seats
from landlord_dsl.agents.stepped import play_stepped
from landlord_dsl.cli.main import main
from landlord_dsl.core.errors import UsageError
from landlord_dsl.program.requests import BidRequest, DecisionRequest
from landlord_dsl.studies.tournament import run_tournament, schedule
from search_positions import ED1906, ED1933, program


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out), out.getvalue()


def at_decision(name: str = ED1933, players: int = 3, seed: int = 2) -> ld.State:
    """Return search_positions.at_decision, a 3-player 1933 position unless told otherwise."""
    return search_positions.at_decision(name, players, seed)


# ----------------------------------------------------------------- the driver


@pytest.mark.parametrize("name", [ED1906, ED1933])
def test_stepped_bots_play_the_driven_game_of_the_seed(name):
    """1906 and 1933: a table of heuristic bots stepped by play_stepped, each seat answering through the
    State (a callable), logs the driven game of the same seed. Its wealth by round is read at each round's
    first request: after the setup exactly, later rounds as the round's first throw is asked for (which
    may follow a payment at the start of the turn), and at the end."""
    prog = program(name)
    stepped = play_stepped(prog, [bot_answer] * 3, seed=5, turn_limit=30)
    driven = ld.new_game(prog, players=3, seed=5, turn_limit=30)
    driven.track_wealth()
    driven.play()
    assert stepped.game.log_lines() == driven.log_lines()
    history = driven.wealth_history
    assert stepped.wealth_by_round[0] == history[0] and stepped.wealth_by_round[-1] == driven.scores()
    assert len(stepped.wealth_by_round) in (len(history), len(history) + 1)


def test_stepped_driver_tells_every_event_in_order():
    told: list[tuple] = []
    played = play_stepped(program(ED1906), [HeuristicAgent(), CallableAgent(bot_answer)], 1, 12, told.append)
    assert told == list(played.game.log)


def test_a_seat_that_cannot_play_is_refused():
    with pytest.raises(UsageError, match="cannot play a seat"):
        play_stepped(program(ED1906), [HeuristicAgent(), 42], seed=0)


def test_an_illegal_answer_from_a_callable_is_a_usage_error():
    with pytest.raises(UsageError, match="is not an option"):
        play_stepped(program(ED1906), [lambda state: 999, HeuristicAgent()], seed=0, turn_limit=10)


# ------------------------------------------------------------------ the agents


def test_candidates_put_the_bots_answer_first_and_cut_a_bid_down():
    state = at_decision()
    options = candidates(state)
    assert options[0] == bot_answer(state)
    assert sorted(options) == state.legal_actions()
    # a bid: pass, the minimum and the value hint, never every amount
    bid = BidRequest(0, "r", "X", None, 10, 500, 10, 60)
    fake = type("S", (), {"request": lambda self: bid, "game": None})()
    with pytest.MonkeyPatch.context() as m:
        m.setattr("landlord_dsl.agents.search.bot_answer", lambda s: 10)
        assert candidates(fake) == [10, None, 60]  # type: ignore[arg-type]


def test_values_are_shares_before_the_end_and_wins_at_the_end():
    state = at_decision()
    v = values(state)
    assert abs(sum(v) - 1) < 1e-9 and all(0 <= x <= 1 for x in v)
    over = play_stepped(program(ED1906), [bot_answer] * 2, seed=3)
    end = ld.new_state(program(ED1906), 2, seed=3)
    while not end.is_terminal():
        end.apply(bot_answer(end))
    assert end.scores() == over.game.scores()
    winners = over.game.result().winners
    assert values(end) == [1 / len(winners) if s in winners else 0.0 for s in range(2)]


def test_dice_are_expanded_by_their_exact_probabilities():
    state = ld.new_state(program(ED1906), 2)
    while not state.is_chance():
        state.apply(bot_answer(state))
    outcomes, weights = _listed(state)
    assert len(outcomes) == len(state.chance_outcomes()) and sum(Fraction(w).limit_denominator() for w in weights) == 1


@pytest.mark.parametrize("make", [lambda s: MCTSAgent(6, seed=s), lambda s: RolloutAgent(2, seed=s)])
def test_a_searcher_answers_legally_and_the_same_for_the_same_seed(make):
    state = at_decision()
    first = make(4).act(state.clone())
    assert first in state.legal_actions()
    assert make(4).act(state.clone()) == first
    assert not state.is_terminal() and state.request() is not None  # the state handed over is not changed


def test_mcts_spends_its_iterations_on_the_roots_answers():
    state = at_decision()
    agent = MCTSAgent(12, seed=1)
    agent.act(state)
    assert sum(agent.last_visits.values()) == 12
    assert set(agent.last_visits) == set(candidates(state))


def test_mcts_with_a_time_budget_stops():
    state = at_decision()
    assert MCTSAgent(seconds=0.05, seed=1).act(state) in state.legal_actions()


@pytest.mark.parametrize("bad", [lambda: MCTSAgent(0), lambda: MCTSAgent(seconds=0), lambda: RolloutAgent(0)])
def test_a_budget_below_one_is_refused(bad):
    with pytest.raises(UsageError):
        bad()


def test_random_rollouts_are_a_policy_too():
    state = at_decision()
    assert MCTSAgent(4, seed=2, policy="random").act(state) in state.legal_actions()
    with pytest.raises(UsageError, match="unknown rollout policy"):
        MCTSAgent(4, policy="greedy")


def test_a_searching_seat_plays_a_whole_short_game():
    """1906: an MCTS seat of a tiny budget plays a 16-turn game against a bot and a random player."""
    played = play_stepped(program(ED1906), [MCTSAgent(3, seed=0), HeuristicAgent(), RandomAgent(1)], 4, 16)
    assert played.game.over and played.game.turn == 16
    assert played.game.conserved()


# ----------------------------------------------------------------- seat specs


def test_seat_specs():
    assert parse_seats("mcts:400, bot,random,rollout:3,mcts:1.5s") == [
        SeatSpec("mcts", 400),
        SeatSpec("bot"),
        SeatSpec("random"),
        SeatSpec("rollout", 3),
        SeatSpec("mcts", seconds=1.5),
    ]
    assert [str(s) for s in parse_seats("mcts:400,mcts:2s,bot")] == ["mcts:400", "mcts:2s", "bot"]
    assert isinstance(make_seat("mcts:7", 0, 1), MCTSAgent) and make_seat("mcts:7", 0, 1).iterations == 7
    assert isinstance(make_seat("bot", 0, 0), HeuristicAgent)
    assert any_search(["bot", "mcts"]) and not any_search(["bot", "random"]) and any_search(["bot", bot_answer])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("mcst", "did you mean 'mcts'"),
        ("rolout:3", "did you mean 'rollout'"),
        ("bot:4", "takes no budget"),
        ("mcts:0", "positive number"),
        ("mcts:lots", "positive number"),
        ("rollout:2s", "positive number"),
    ],
)
def test_a_wrong_seat_spec_says_what_is_wrong(text, message):
    with pytest.raises(UsageError) as err:
        parse_seat(text)
    assert message in err.value.render()


def test_make_agent_refuses_a_searcher_for_driven_play():
    from landlord_dsl.agents import make_agent

    with pytest.raises(UsageError, match="play_stepped"):
        make_agent("mcts", 0, 0)
    with pytest.raises(UsageError, match="did you mean 'random'"):
        make_agent("randon", 0, 0)


# ------------------------------------------------------------ the commands


def test_play_with_a_searching_seat_narrates_and_logs_a_game_replay_accepts(tmp_path):
    log = tmp_path / "g.jsonl"
    code, out = run("play", ED1906, "--seats", "mcts:2,bot", "--turn-limit", "8", "--log", str(log), "--seed", "3")
    assert code == 0 and "Final scores:" in out and "Player 1" in out
    assert run("replay", str(log))[0] == 0


def test_play_refuses_html_with_a_searcher(tmp_path):
    code, _ = run("play", ED1906, "--seats", "mcts:2,bot", "--html", str(tmp_path / "x.html"))
    assert code == 2


def test_simulate_with_seats_is_the_same_for_any_jobs():
    base = ["simulate", ED1906, "--games", "2", "--seats", "rollout:1,bot", "--json", "--no-progress"]
    one = json.loads(run(*base, "--jobs", "1")[1])
    two = json.loads(run(*base, "--jobs", "2")[1])
    assert one == two and one["seats"] == ["rollout:1", "bot"] and one["players"] == 2


def test_simulate_refuses_seats_that_do_not_fit():
    assert run("simulate", ED1906, "--seats", "bot,bot", "--players", "3", "--games", "1")[0] == 2
    assert run("simulate", ED1906, "--seats", "human,bot", "--games", "1", "--no-progress")[0] == 2


def test_sweep_and_diff_outcomes_take_seats(tmp_path):
    out = tmp_path / "s.jsonl"
    seats = ["--seats", "random,bot"]
    code, text = run("sweep", ED1906, "--games", "1", *seats, "--out", str(out), "--json", "--jobs", "1")
    assert code == 0 and json.loads(text)[0]["seats"] == ["random", "bot"]
    assert json.loads(out.read_text().splitlines()[0])["seats"] == ["random", "bot"]
    code, text = run(
        "diff", ED1906, "landlords-game-1906-prolonged-game", "--outcomes", "1", *seats, "--format", "json"
    )
    assert json.loads(text)["outcomes"]["seats"] == ["random", "bot"]
    assert run("diff", ED1906, ED1906, "--seats", "bot,bot")[0] == 2  # --seats without --outcomes


# ---------------------------------------------------------------- tournaments


def test_schedule_rotates_every_lineup_round_the_table():
    games = schedule(["a", "b", "c"], 3, 2)
    assert [g[2] for g in games[:3]] == [["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"]]
    assert {g[0] for g in games} == {0, 1} and len(games) == 6
    # fewer agents than seats: they repeat; more: every combination in turn
    assert schedule(["a", "b"], 4, 1)[0][2] == ["a", "b", "a", "b"]
    assert [g[2] for g in schedule(["a", "b", "c"], 2, 3) if g[1] == 0] == [["a", "b"], ["a", "c"], ["b", "c"]]


def tiny(jobs=1, **more):
    """Return the report of a tournament of 6 short games of 1906 (rollout:1, bot, random)."""
    return run_tournament(ld.load_edition(ED1906), ["rollout:1", "bot", "random"], 2, jobs=jobs, turn_limit=20, **more)


@functools.cache
def tiny_report():
    return tiny()


def test_a_tournament_is_the_same_for_any_jobs_and_after_a_resume(tmp_path):
    one = tiny_report()
    assert one["games"] == 6 and sum(r["games"] for r in one["results"]) == 18
    assert tiny(jobs=2) == one
    out = tmp_path / "t.jsonl"
    tiny(output=out)
    lines = out.read_text().splitlines()
    out.write_text("\n".join(lines[:2]) + "\n" + lines[2][:10])  # two games kept, a third cut short
    assert tiny(output=out) == one
    assert len(out.read_text().splitlines()) == 6


def test_a_results_file_of_another_tournament_is_refused(tmp_path):
    out = tmp_path / "t.jsonl"
    tiny(output=out)
    with pytest.raises(UsageError, match="another tournament"):
        run_tournament(ld.load_edition(ED1906), ["bot", "random"], 2, jobs=1, turn_limit=20, output=out)


def test_tournament_matchups_count_every_pair_at_a_table():
    data = tiny_report()
    cells = {(m["row"], m["column"]): m["ahead"] for m in data["matchups"]}
    for (a, b), cell in cells.items():
        assert cell["n"] == 6
        assert abs(cell["rate"] + cells[(b, a)]["rate"] - 1) < 1e-3


def test_tournament_ratings_by_openskill():
    pytest.importorskip("openskill")
    data = tiny()
    assert data["ratings"] == "openskill Plackett-Luce"
    assert all({"mu", "sigma", "ordinal"} <= set(r["rating"]) for r in data["results"])


def test_tournament_command_refuses_an_agent_twice_and_an_unknown_one():
    assert run("tournament", ED1906, "--agents", "bot,bot", "--games", "1")[0] == 2
    assert run("tournament", ED1906, "--agents", "bot,mtcs", "--games", "1")[0] == 2


def test_a_tournament_of_one_agent_is_refused(capsys):
    """`--agents bot` played the bot against itself and reported 4 games of 2 played, 50 % won."""
    assert run("tournament", ED1906, "--agents", "bot", "--games", "1", "--jobs", "1")[0] == 2
    assert "a tournament needs two agents or more, not only 'bot'" in capsys.readouterr().err


def test_a_simulated_game_takes_players_themselves_and_keeps_the_dice():
    """1906: play_one with a function of the State and an Agent for seats plays, stepped, the bots' game of
    the seed (common random numbers), with the same record but for the wealth read between rounds."""
    from landlord_dsl.studies.simulate import play_one

    stepped = play_one(program(ED1906), 2, 3, [bot_answer, HeuristicAgent()])
    driven = play_one(program(ED1906), 2, 3)
    assert (stepped.turns, stepped.scores, stepped.winners, stepped.titles, stepped.choices) == (
        driven.turns,
        driven.scores,
        driven.winners,
        driven.titles,
        driven.choices,
    )


def test_a_searcher_says_its_spec():
    assert MCTSAgent(12).describe() == "mcts:12" and MCTSAgent(seconds=1.5).describe() == "mcts:1.5s"
    assert RolloutAgent(3).describe() == "rollout:3" and CallableAgent(bot_answer).describe() == "bot_answer"


# ------------------------------------------------------------ hidden deck order
RIGGED = "tests/data/rigged-gamble.lg"


def rigged_gamble() -> ld.State:
    """Return a state of tests/data/rigged-gamble.lg (no seed) at the first player's gamble, the Fortune deck
    shuffled (rule setting_up) with the Jackpot on top."""
    prog = ld.compile_rules(ld.load_edition(RIGGED))
    state = ld.new_state(prog, players=2)
    request = state.request()
    deck = state.game.decks["fortune"]
    state.apply_chance(sorted(range(request.size), key=lambda i: prog.card_names[deck[i]] != "jackpot"))
    assert isinstance(state.request(), DecisionRequest) and state.request().names == ("draw", "safe")
    return state


@pytest.mark.parametrize("make", [lambda: MCTSAgent(64, seed=1), lambda: RolloutAgent(16, seed=1)])
def test_a_searcher_does_not_play_on_the_true_order_of_a_shuffled_deck(make, monkeypatch):
    # rigged-gamble (test file), rule gamble: drawing is worth less than the sure 50 unless one knows the
    # Jackpot (1 card in 10) is on top, as it is here. A searcher that sees what its seat sees takes the
    # 50; one that reads the true order (resample not drawing again: the old searchers) draws
    state = rigged_gamble()
    assert make().act(state.clone()) == 1
    monkeypatch.setattr(ld.State, "resample", lambda self, player, rng: self.clone())
    assert make().act(state.clone()) == 0


def test_a_searcher_on_shuffles_as_draws_weighs_the_draw_by_its_probabilities():
    # rigged-gamble (test file), rule gamble, the state made with draws=True: no order of the deck exists
    # to read, the draw is a chance node (Jackpot 1/10, Bust 9/10), and the search takes the sure 50
    prog = ld.compile_rules(ld.load_edition(RIGGED))
    state = ld.new_state(prog, players=2, draws=True)
    assert MCTSAgent(64, seed=1).act(state.clone()) == 1
    assert RolloutAgent(16, seed=1).act(state.clone()) == 1


# ------------------------------------------------------------ the search's options (paired, opponents, horizon)
def test_the_default_search_is_unpaired_searches_every_seat_and_rolls_out_one_round():
    agent = MCTSAgent(8)
    assert (agent.paired, agent.opponents, agent.horizon) == (False, "search", None)
    assert rollout_turns(None, 4) == 4 and rollout_turns(12, 4) == 12 and rollout_turns(0, 4) >= 10**6


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (lambda: MCTSAgent(4, horizon=-1), "horizon"),
        (lambda: MCTSAgent(4, opponents="people"), "unknown opponent model 'people'"),
        (lambda: MCTSAgent(4, paired=True, confidence=-1), "confidence"),
    ],
)
def test_bad_search_options_are_refused(bad, message):
    with pytest.raises(UsageError, match=message):
        bad()


def _root_with_samples(samples: dict[Action, list[float]]) -> _Node:
    root = _Node(2)
    for action, values_ in samples.items():
        child = root.children[action] = _Node(2)
        child.samples = list(values_)
        child.visits = len(values_)
    return root


def test_a_paired_search_keeps_the_bots_answer_unless_another_beats_it_on_the_same_luck():
    agent = MCTSAgent(8, paired=True, confidence=1.0)
    # answer 0 is the bot's: answer 1 gains 0.1 on every one of the same four draws, answer 2 more on
    # average (0.15) but unevenly (a gain of 0.6 once, a loss three times): 1 is taken
    root = _root_with_samples({0: [0.5, 0.4, 0.6, 0.5], 1: [0.6, 0.5, 0.7, 0.6], 2: [1.1, 0.3, 0.5, 0.4]})
    assert agent._paired_choice(root, [0, 1, 2]) == 1
    # no answer better than the bot's on the same draws: the bot's
    root = _root_with_samples({0: [0.5, 0.4], 1: [0.5, 0.3], 2: [0.4, 0.4]})
    assert agent._paired_choice(root, [0, 1, 2]) == 0
    # one paired draw is evidence only when no standard error is asked for
    root = _root_with_samples({0: [0.5], 1: [0.9]})
    assert agent._paired_choice(root, [0, 1]) == 0
    assert MCTSAgent(8, paired=True, confidence=0.0)._paired_choice(root, [0, 1]) == 1


def test_a_paired_search_plays_the_kth_visit_of_every_root_answer_from_the_same_draw(monkeypatch):
    # 1933 (three players), the first decision: the k-th visit of every root answer starts from the same
    # generator (the same resample, dice and rollout), and different visits from different ones
    state = at_decision()
    agent = MCTSAgent(12, seed=3, paired=True)
    iterate = agent._iterate
    starts: dict[int, set] = {}

    def recording(path, world, seat, horizon, rng):
        starts.setdefault(len(path[-1].samples), set()).add(rng.getstate())
        return iterate(path, world, seat, horizon, rng)

    monkeypatch.setattr(agent, "_iterate", recording)
    agent.act(state.clone())
    assert sum(agent.last_visits.values()) == 12 and len(agent.last_visits) > 1
    assert all(len(generators) == 1 for generators in starts.values())
    assert len(starts) > 1 and len(set().union(*starts.values())) == len(starts)


def at_bid(seed: int = 2) -> ld.State:
    """Return a 1933 state of three players (no seed) at the first bid of an auction."""
    state = ld.new_state(program(ED1933), 3)
    rng = random.Random(seed)
    while not isinstance(state.request(), BidRequest):
        if state.is_chance():
            state.apply_chance(state.sample_chance(rng))
        else:
            state.apply(bot_answer(state))
    return state


@pytest.mark.parametrize(("opponents", "others"), [("bot", False), ("search", True)])
def test_an_mcts_with_bot_opponents_branches_only_on_its_own_answers(monkeypatch, opponents, others):
    # 1933 (three players), an auction (rule buying: a declined property is auctioned, the seats bidding
    # in turn): with opponents="bot" the
    # search never weighs another seat's answers; with "search" it does
    from landlord_dsl.agents import search

    state = at_bid()
    seat = state.current_player()
    asked: list[int] = []
    weigh = search.candidates

    def recording(s):
        asked.append(s.current_player())
        return weigh(s)

    monkeypatch.setattr(search, "candidates", recording)
    MCTSAgent(24, seed=1, opponents=opponents).act(state.clone())
    assert any(p != seat for p in asked) is others


def test_a_paired_search_answers_legally_and_the_same_for_the_same_seed_to_the_end_of_the_game():
    state = at_decision(ED1906, players=2, seed=1)
    make = functools.partial(MCTSAgent, 4, seed=5, paired=True, opponents="bot", horizon=0)
    first = make().act(state.clone())
    assert first in state.legal_actions() and make().act(state.clone()) == first
