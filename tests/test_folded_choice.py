"""A HeuristicAgent's answers worked out inside the generated option loops (issue 17, throughput).

For a seat whose agent is exactly `HeuristicAgent`, the compiled `choose`/`offer`
does not build the list of legal entries nor call the agent: it tries the same
options in the same order and keeps the pick (codegen_stmt `_folded_choice`),
and the auction works out its bids in place. Every other agent, a subclass of
HeuristicAgent included, is still asked with the full menu. These tests check
that both ways give the same game, decision for decision, and that the record
replays.
"""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import landlord_dsl as ld
from landlord_dsl.agents import Agent, HeuristicAgent
from landlord_dsl.engine import Game
from landlord_dsl.replay import log_text, read_log, replay


class AskedHeuristic(HeuristicAgent):
    """The same policy, asked through `choose` and `bid` with the full request (a subclass is never folded)."""

    def __init__(self, reserve: int = 100) -> None:
        super().__init__(reserve)
        self.menus: list[tuple[str, ...]] = []

    def choose(self, game, request):
        self.menus.append(request.names)
        return super().choose(game, request)


class Watcher(Agent):
    """Notes the names of every menu it is shown; closes offers ("done"), takes the first option of a choice."""

    def __init__(self) -> None:
        self.menus: list[tuple[str, ...]] = []

    def choose(self, game, request):
        self.menus.append(request.names)
        return len(request.legal) - 1 if request.names[-1] == "done" else 0

    def bid(self, game, request):
        return None


@functools.cache
def program(name: str):
    return ld.compile_rules(ld.load_edition(name))


def play(name: str, agents: list, seed: int) -> Game:
    game = Game(program(name), agents, seed=seed)
    game.play()
    return game


EDITIONS = sorted(ld.shipped_editions())


@settings(max_examples=40)
@given(
    name=st.sampled_from(EDITIONS),
    seed=st.integers(0, 10_000),
    players=st.integers(2, 5),
    reserves=st.lists(st.sampled_from([0, 50, 100, 250, 1000]), min_size=5, max_size=5),
    folded=st.lists(st.booleans(), min_size=5, max_size=5),
)
def test_the_folded_answer_is_the_one_the_full_menu_gets(name, seed, players, reserves, folded):
    """Over any shipped file, seed, reserves and mix of folded and asked seats, the game is the same.

    So the fast path never takes a pick the full menu would not give: in
    particular an offer is closed ("done") exactly when the asked bot closes it.
    """
    low, high = program(name).players
    players = min(max(players, low), high)
    asked = play(name, [AskedHeuristic(reserves[i]) for i in range(players)], seed)
    mixed_agents = [HeuristicAgent(reserves[i]) if folded[i] else AskedHeuristic(reserves[i]) for i in range(players)]
    mixed = play(name, mixed_agents, seed)
    assert mixed.log == asked.log
    assert mixed.decisions == asked.decisions


def test_bot_seats_are_not_asked_and_other_agents_get_the_full_menu(monkeypatch):
    """In 1933 (rule 'improving', the once-a-turn build/mortgage offer) no folded seat's agent is called."""
    calls = []
    original = HeuristicAgent.pick

    def counting(limit, legal):
        calls.append(legal)
        return original(limit, legal)

    # Game.choose answers a HeuristicAgent through `pick`; the folded loops call nothing
    monkeypatch.setattr(HeuristicAgent, "pick", staticmethod(counting))
    watcher = Watcher()
    game = play("monopoly-1933-atlantic-city", [HeuristicAgent(), watcher, HeuristicAgent()], seed=7)
    folded_decisions = sum(1 for e in game.log if e[0] == "decide" and e[2] != 1)
    assert folded_decisions > 50 and calls == []
    # the asked seat saw whole menus, "done" last, on its own turns' offers
    offers = [names for names in watcher.menus if names and names[-1] == "done"]
    assert offers and all(len(names) >= 2 for names in offers)
    assert any("mortgage" in names for names in offers)


def test_a_choice_with_no_legal_option_is_the_same_error_folded_or_not():
    """A `choose` whose every option is ruled out is an error of the rules, for a folded seat too."""
    text = (
        'edition "x" { players 2 to 2 turn limit 3 }\n'
        'account bank "Bank" unlimited\n'
        'kind start "Start" { }\n'
        'board {\n    space go "Go" : start\n}\n'
        'rule r "R" {\n'
        "    on turn {\n"
        '        choose "Pick" {\n'
        '            option x "X" when player.cash > 5 { }\n'
        "        }\n"
        "    }\n"
        "}\n"
    )
    prog = ld.compile_rules(ld.load_text(text))
    for agents in ([HeuristicAgent(), HeuristicAgent()], [AskedHeuristic(), AskedHeuristic()]):
        with pytest.raises(ld.LandlordError, match="no option of 'Pick' is allowed here"):
            Game(prog, agents, seed=1).play()


def test_a_folded_game_replays_exactly():
    """The decisions recorded by folded seats are the indices a replay answers with (replay.py)."""
    name = "monopoly-1933-atlantic-city"
    game = play(name, [HeuristicAgent() for _ in range(4)], seed=11)
    log = read_log(log_text(game, name, 11), "game.jsonl")
    report = replay(log, ld.load_edition)
    assert not report.problems, report.problems
    assert report.decisions == len(game.decisions) > 100
