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
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import landlord_dsl as ld
from landlord_dsl.agents import Agent, HeuristicAgent
from landlord_dsl.engine.game import Game
from landlord_dsl.presentation.replay import log_text, read_log, replay
from landlord_dsl.program.requests import DONE


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


NEVER_TAKEN = """
edition "x" {{ players 2 to 2 turn limit 4 }}
account bank "Bank" unlimited
kind start "Start" {{ }}
kind lot "Lot" titled {{ price: int }}
board {{
    space go "Go" : start
    space cheap "Cheap lot" : lot {{ price = 10 }}
    space dear "Dear lot" : lot {{ price = 20 }}
}}
rule r "R" {{
    on setup {{
        for p in players {{
            pay 100 from bank to p
        }}
    }}
    on turn {{
        offer "Pick" {{
{options}
        }}
    }}
}}
"""
KEEP = 'option keep "Keep {{s}}" for s in player.titles when {when} value s.price - 15 {{ }}'
SELL = 'option sell "Sell {s}" for s in player.titles value 0 - s.price { pay s.price from bank to player }'
SHOUT = 'option shout "Shout" value -1 { }'


def _offer_program(*options: str):
    return ld.compile_rules(ld.load_text(NEVER_TAKEN.format(options="\n".join(options))))


def judged(program) -> set[int]:
    """Return the numbers of the options whose entries the folded loops of a program compare with the best so far.

    (Read from the generated source: the line that makes an entry the best, `_gain.., _at.., _option.., _value.. =
    _g.., AT, K, VALUE`; done's own, with the fixed gain 0, does not match.)
    """
    best = re.compile(r"_gain(\d+), _at\1, _option\1, _value\1 = _g\1, \S+, (\d+), ")
    return {int(k) for _, k in best.findall(program.python_source)}


def play_both(program, seed: int, titles: dict[int, int]) -> tuple[Game, Game]:
    """Play a game with folded bots and one with asked bots, seat s holding title `titles[s]`; return both."""
    games = []
    for agents in ([HeuristicAgent(), HeuristicAgent()], [AskedHeuristic(), AskedHeuristic()]):
        game = Game(program, agents, seed=seed)
        for seat, space in titles.items():
            game.set_holder(program.title_card[space], seat)
        game.play()
        games.append(game)
    return games[0], games[1]


@pytest.mark.parametrize("when", ["s.price > 0", "s.price > 15"])
def test_options_an_offer_ends_with_that_the_bot_can_never_take_are_not_tried(when):
    """`sell` loses money on every lot and `shout` is a fixed loss: with done always there, the bot never takes them.

    They are not compared, only looked for when nothing before them is legal: the offer is still made (and
    closed) exactly as the full menu makes it, and its done is recorded as DONE. `keep` gains on the dear lot,
    so it is compared.
    """
    program = _offer_program(KEEP.format(when=when), SELL, SHOUT)
    assert judged(program) == {0}
    for seed in range(3):
        folded, asked = play_both(program, seed, {0: 1, 1: 2})
        assert folded.log == asked.log and folded.decisions == asked.decisions
        picks = {(e[2], e[4]) for e in folded.log if e[0] == "decide"}
        assert picks == {(0, "done"), (1, "keep")}  # keep loses 5 on the cheap lot, gains 5 on the dear one
        assert DONE in folded.decisions
    folded, asked = play_both(program, 0, {})  # no titles: shout is still there, so the offer is made
    assert folded.decisions == asked.decisions == [DONE] * 4


def test_an_option_the_bot_can_never_take_is_only_counted_before_one_it_can():
    """`sell` before `keep`: its entries still count for keep's index, but are never compared."""
    program = _offer_program(SELL, KEEP.format(when="true"))
    assert judged(program) == {1}
    for seed in range(3):
        folded, asked = play_both(program, seed, {0: 1, 1: 2})
        assert folded.log == asked.log and folded.decisions == asked.decisions
        assert 1 in folded.decisions  # seat 1's keep, after its one sell entry


def test_an_option_that_can_gain_on_some_space_is_compared():
    """A hint that reads the game, or gains on one space of its domain, cannot be ruled out before the game."""
    reads = 'option wait "Wait on {s}" for s in player.titles value player.cash - 1000 { }'
    program = _offer_program(KEEP.format(when="true"), reads)
    assert judged(program) == {0, 1}


SPARSE = """
edition "x" {{ players 2 to 2 turn limit 8 }}
account bank "Bank" unlimited
kind start "Start" {{ }}
kind lot "Lot" titled {{ price: int }}
space var marked = 0
board {{
    space go "Go" : start
    space a "A" : lot {{ price = 10 }}
    space b "B" : lot {{ price = 20 }}
    space c "C" : lot {{ price = 30 }}
    space d "D" : lot {{ price = 40 }}
    space e "E" : lot {{ price = 50 }}
}}
rule r "R" {{
    on setup {{
        for p in players {{
            pay 100 from bank to p
        }}
    }}
    on turn {{
        offer "Pick" {{
            option shout "Shout" when turn_number < 4 value 0 - 5 {{ }}
            option mark "Mark {{s}}" for s in player.titles when {guard}
                value if s.price >= 20 and turn_number > 2 then s.price - 15 else -1 {{
                set s.marked = turn_number
            }}
        }}
    }}
}}
"""


@pytest.mark.parametrize("guard", ["s.marked == 0 and s.price != 30", "s.marked == 0", "true"])
def test_an_option_that_gains_only_where_its_hints_condition_holds_is_counted_only_for_its_pick(guard):
    """`mark` (the last option of an offer whose done is always there) gains only where its hint's `if` holds:
    its entries are gone through for those first, and counted (for the pick's index, after `shout`'s entry)
    only when one of them is the pick, or to know whether the offer is made. The folded bots' games are the asked
    bots' games, decision for decision (with no guard, the bots mark the same lot again in every round)."""
    program = ld.compile_rules(ld.load_text(SPARSE.format(guard=guard)))
    assert "_entries" in program.python_source
    title = program.title_card
    for seed in range(3):
        games = []
        for agents in ([HeuristicAgent(), HeuristicAgent()], [AskedHeuristic(), AskedHeuristic()]):
            game = Game(program, agents, seed=seed)
            for seat, spaces in ((0, (1, 2, 3, 5)), (1, (4,))):
                for space in spaces:
                    game.set_holder(title[space], seat)
            game.play()
            games.append(game)
        folded, asked = games
        assert folded.log == asked.log and folded.decisions == asked.decisions
        picks = [(e[1], e[2], e[4]) for e in folded.log if e[0] == "decide"]
        assert (1, 0, "done") in picks and (3, 0, "mark") in picks and (4, 1, "mark") in picks
        assert max(folded.decisions) >= 3  # after shout's entry and two of the titles
        if guard != "true":  # seat 1's one title marked, nothing is legal: the offer is not made
            assert (6, 1, "done") not in picks and (7, 0, "done") in picks
