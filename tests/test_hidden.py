"""Hidden information in the stepped game (engine/hidden.py): `State.observation(player)`, what a seat may
see, and `State.resample(player, rng)`, a clone with what it cannot see (the order of shuffled cards
nobody has seen, a seeded state's dice to come) drawn again."""

from __future__ import annotations

import collections
import functools
import pickle
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import landlord_dsl as ld
from landlord_dsl.agents import HeuristicAgent, RandomAgent
from landlord_dsl.engine.hidden import DeckView, Observation
from landlord_dsl.engine.state import CHANCE, REBASE_TURNS
from landlord_dsl.program.requests import (
    BidRequest,
    DecisionRequest,
    DiceRequest,
    DrawRequest,
    SeededChance,
    ShuffleRequest,
)

ED1933 = "monopoly-1933-atlantic-city"


@functools.cache
def program(name: str):
    return ld.compile_rules(ld.load_edition(name))


def step(state, agents, chance=None):
    """Answer `state`'s pending request: a seat's agent, or `chance` (a SeededChance) at a chance node."""
    request = state.request()
    if state.is_chance():
        state.apply_chance(chance.roll(request) if isinstance(request, DiceRequest) else chance.shuffle(request))
    elif isinstance(request, DecisionRequest):
        state.apply(agents[request.seat].choose(state.game, request))
    else:
        state.apply(agents[request.seat].bid(state.game, request))


def played(name, players, seed, requests, mode, turn_limit=None):
    """Return a state of `name` after `requests` requests answered by random agents, with the agents and
    the chance source: seeded inside the state (`mode` "inside"), or SeededChance(seed) outside it
    ("outside"), or shuffles presented as draws and every chance request sampled from Random(seed)
    ("draws"; the chance source is then None)."""
    inside, draws = mode == "inside", mode == "draws"
    state = ld.new_state(program(name), players, seed=seed if inside else None, turn_limit=turn_limit, draws=draws)
    agents = [RandomAgent(seed + seat) for seat in range(players)]
    chance = SeededChance(seed) if mode == "outside" else None
    rng = random.Random(seed)
    for _ in range(requests):
        if state.is_terminal():
            break
        if draws and state.is_chance():
            state.apply_chance(state.sample_chance(rng))
        else:
            step(state, agents, chance)
    return state, agents, chance, rng


def after_setup_shuffles(players=3, seed=1):
    """Return a 1933 state (no seed) at its first throw: every deck of `setting_up` shuffled by `seed`."""
    state = ld.new_state(program(ED1933), players=players)
    chance = SeededChance(seed)
    while not isinstance(state.request(), DiceRequest):
        state.apply_chance(chance.shuffle(state.request()))
    return state


# ----------------------------------------------------------------- observation
def test_after_the_setup_shuffles_no_card_of_the_decks_has_a_seen_place():
    # 1933 Atlantic City, rule setting_up (the card decks shuffled): every card of each shuffled deck is
    # hidden; the title deeds, never shuffled, lie in their declared order, seen by all
    state = after_setup_shuffles()
    seen = state.observation(0)
    assert isinstance(seen, Observation) and seen.to_act == CHANCE and seen.pending is None
    shuffled = {event[2] for event in state.log if event[0] == "shuffle"}
    assert "chance_cards" in shuffled and "title_cards" not in shuffled
    for name, cards in state.game.decks.items():
        view = seen.deck(name)
        hidden = name in shuffled
        assert view == DeckView(name, frozenset(cards if hidden else ()), () if hidden else tuple(cards))
        assert view.size == len(cards)
    assert seen.turn == 0 and seen.positions == tuple(state.game.pos) and seen.cash == (1500, 1500, 1500)


def test_a_drawn_card_returned_under_its_deck_is_seen_there_and_no_longer_hidden():
    # 1933 Atlantic City, a Chance or Community Chest card drawn (rules chance_square / community_chest)
    # goes back under its deck: the observation has it last among the deck's known cards, out of the hidden
    state = after_setup_shuffles(seed=2)
    agents, chance = [HeuristicAgent() for _ in range(3)], SeededChance(2)
    while not any(event[0] == "draw" for event in state.log):
        step(state, agents, chance)
    card = next(event[3] for event in state.log if event[0] == "draw")
    deck = program(ED1933).card_deck[card]
    view = state.observation(1).deck(deck)
    if state.game.holder[card] is None:  # (not a card the drawer keeps)
        assert view.known[-1] == card
    assert card not in view.hidden and len(view.hidden) == len(program(ED1933).deck_cards[deck]) - 1


def test_only_the_seat_asked_sees_its_request_and_a_wrong_seat_is_refused():
    # 1906, seeded: at a decision or bid, its seat's observation has it, the others' do not
    state = ld.new_state(program("landlords-game-1906"), players=3, seed=4)
    request = state.request()
    seat = request.seat
    mine = state.observation(seat)
    assert mine.to_act == seat and mine.pending is not None and mine.pending.request is request
    if isinstance(request, DecisionRequest):
        assert mine.pending.options == request.options and mine.pending.prompt == request.prompt
    else:
        assert isinstance(request, BidRequest) and mine.pending.bid == request
    other = state.observation((seat + 1) % 3)
    assert other.pending is None and other.to_act == seat
    for bad in (3, -1, "0"):
        with pytest.raises(ld.UsageError, match="is not a seat"):
            state.observation(bad)
        with pytest.raises(ld.UsageError, match="is not a seat"):
            state.resample(bad, random.Random(0))


# ------------------------------------------------------------------- resample
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    name=st.sampled_from(ld.shipped_editions()),
    seed=st.integers(0, 2**32 - 1),
    requests=st.integers(0, 120),
    mode=st.sampled_from(["inside", "outside", "draws"]),
    draw=st.integers(0, 2**32 - 1),
)
def test_a_resample_keeps_every_seats_observation_and_the_log(name, seed, requests, mode, draw):
    # every shipped edition and variant, seeded, unseeded, or with shuffles as draws, after any number of
    # requests: each seat's resample observes what the state observes, with the same log, and plays on
    low, high = program(name).players
    players = min(max(3, low), high)
    state, agents, chance, rng = played(name, players, seed, requests, mode, turn_limit=40)
    for seat in range(players):
        other = state.resample(seat, random.Random(draw + seat))
        assert other.observation(seat) == state.observation(seat)
        assert other.log_lines() == state.log_lines()
        twin = pickle.loads(pickle.dumps(other.clone()))
        assert twin.observation(seat) == state.observation(seat)
        forked = None if chance is None else chance.fork()
        for _ in range(5):
            if other.is_terminal():
                break
            if mode == "draws" and other.is_chance():
                other.apply_chance(other.sample_chance(rng))
            else:
                step(other, agents, forked)


def test_a_resample_draws_the_hidden_orders_uniformly_from_its_generator_only():
    # 1933 Atlantic City after rule setting_up's shuffles: the top Chance card of 3,200 resamples is each
    # of the 16 about equally often; the same generator state gives the same orders; shown cards keep theirs
    state = after_setup_shuffles()
    deck = "chance_cards"
    cards = state.game.decks[deck]
    rng = random.Random(5)
    tops = collections.Counter(state.resample(0, rng).game.decks[deck][0] for _ in range(3200))
    assert set(tops) == set(cards) and all(140 <= count <= 260 for count in tops.values())  # 200 expected
    first, again = state.resample(2, random.Random(9)), state.resample(2, random.Random(9))
    assert first.game.decks == again.game.decks
    assert first.game.decks[deck] != cards and sorted(first.game.decks[deck]) == sorted(cards)
    assert state.game.decks[deck] == cards  # the state resampled is unchanged


def test_a_seeded_state_resampled_throws_other_dice_and_observes_the_same():
    # 1906, seeded (chance inside the state, so its generator holds the dice to come): a resample draws
    # the generator again; the resampled game and the original agree up to now and part at a later throw
    state = ld.new_state(program("landlords-game-1906"), players=2, seed=8, turn_limit=30)
    bots = [HeuristicAgent(), HeuristicAgent()]
    for _ in range(6):
        step(state, bots)
    other = state.resample(0, random.Random(1))
    assert other.observation(0) == state.observation(0) and other.log_lines() == state.log_lines()
    for game_state in (state, other):
        while not game_state.is_terminal():
            step(game_state, bots)
    assert other.log_lines() != state.log_lines()


def test_a_resampled_state_carries_its_draw_through_clones_rebasing_and_pickling():
    # 1933 Atlantic City, no seed, heuristic bots: a resample taken mid-game, then cloned, cloned again
    # past REBASE_TURNS turns and pickled, plays on as the resample itself does
    state = after_setup_shuffles(players=3, seed=3)
    bots, chance = [HeuristicAgent() for _ in range(3)], SeededChance(3)
    for _ in range(40):
        step(state, bots, chance)
    other = state.resample(1, random.Random(4))
    hidden = other.game.decks
    copies = [other.clone(), pickle.loads(pickle.dumps(other))]
    assert all(c.game.decks == hidden for c in copies)
    other_chance = chance.fork()
    copy_chances = [chance.fork(), chance.fork()]
    until = other.game.turn + REBASE_TURNS + 2
    while not other.is_terminal() and other.game.turn < until:
        step(other, bots, other_chance)
    late = other.clone()
    for c, c_chance in zip(copies, copy_chances, strict=True):
        while not c.is_terminal() and c.game.turn < until:
            step(c, bots, c_chance)
        assert c.log_lines() == other.log_lines()
    assert late.log_lines() == other.log_lines() and pickle.loads(pickle.dumps(late)).log_lines() == late.log_lines()


# ---------------------------------------------------------- shuffles as draws
def recorded_driven_game(prog, players, seed, agents, turn_limit):
    """Play `prog` driven from `seed`; return the game and each deck's shuffles' orders, in turn."""
    orders = collections.defaultdict(list)

    class Recording(SeededChance):
        def shuffle(self, request):
            order = super().shuffle(request)
            orders[request.deck].append(order)
            return order

    driven = ld.new_game(prog, players=players, chance=Recording(seed), agents=agents, turn_limit=turn_limit)
    driven.play()
    return driven, orders


def answer_as_driven(state, driven, orders):
    """Answer `state`'s chance request (shuffles as draws) as the driven game did: the card it drew or
    dealt, the throw it threw (the events it logged next), or a whole shuffle's recorded order."""
    request = state.request()
    if isinstance(request, DrawRequest):
        event = driven.log[len(state.log)]
        # ("draw", turn, seat, card, rule), or a deal's ("card", turn, card, None, seat, rule)
        card = event[3] if event[0] == "draw" else event[2]
        listed = dict(state.chance_outcomes())
        names = driven.prog.card_names
        assert sum(listed.values()) == 1 and any(names[c] == names[card] for c in listed)
        state.apply_chance(card)
    elif isinstance(request, DiceRequest):
        event = driven.log[len(state.log)]
        state.apply_chance(event[3] if event[0] == "roll" else event[4])
    else:
        state.apply_chance(orders[request.deck].pop(0))


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    name=st.sampled_from(ld.shipped_editions()),
    seed=st.integers(0, 2**32 - 1),
    kind=st.sampled_from(["heuristic", "random"]),
)
def test_shuffles_as_draws_answered_as_the_driven_game_drew_log_the_driven_game(name, seed, kind):
    # every shipped edition and variant: a state with draws=True, each card drawn or dealt from shuffled
    # cards answered with the card the driven game of the seed drew (one of the draw's listed outcomes),
    # logs the driven game byte for byte; a deck whose order the rules read (1939's idle_land and shares,
    # rule dealing) is shuffled whole, as the driven game shuffled it
    prog = program(name)
    low, high = prog.players
    players = min(max(3, low), high)

    def agents():
        if kind == "random":
            return [RandomAgent(seed * 7 + seat) for seat in range(players)]
        return [HeuristicAgent() for _ in range(players)]

    driven, orders = recorded_driven_game(prog, players, seed, agents(), 40)
    state = ld.new_state(prog, players=players, draws=True, turn_limit=40)
    bots = agents()
    while not state.is_terminal():
        if state.is_chance():
            answer_as_driven(state, driven, orders)
        else:
            step(state, bots)
    assert state.log_lines() == driven.log_lines()


def test_a_draw_lists_each_card_left_with_its_exact_probability_and_copies_together():
    # rigged-gamble (test file), rules setting_up and gamble: with draws=True the shuffle asks nothing;
    # drawing is a DrawRequest whose outcomes are the Jackpot, 1/10, and the Bust (9 copies), 9/10
    prog = ld.compile_rules(ld.load_edition("tests/data/rigged-gamble.lg"))
    state = ld.new_state(prog, players=2, draws=True)
    assert isinstance(state.request(), DecisionRequest)  # (no chance request before it)
    assert state.observation(0).deck("fortune").hidden == frozenset(prog.deck_cards["fortune"])
    state.apply(state.request().names.index("draw"))
    request = state.request()
    assert isinstance(request, DrawRequest) and state.is_chance() and state.current_player() == CHANCE
    outcomes = {prog.card_names[card]: p for card, p in state.chance_outcomes()}
    assert outcomes == {"jackpot": Fraction(1, 10), "bust": Fraction(9, 10)}
    assert state.sample_chance(random.Random(0)) in request.cards
    for bad in (99, [request.cards[0]], None):
        with pytest.raises(ld.UsageError, match="is not one of the cards fortune may draw"):
            state.apply_chance(bad)
    bust = next(card for card in request.cards if prog.card_names[card] == "bust")
    state.apply_chance(bust)
    view = state.observation(1).deck("fortune")
    assert view.known == (bust,) and len(view.hidden) == 9 and state.game.cash(0) == 400


def test_the_decks_whose_order_the_rules_read_are_found_and_shuffled_whole():
    # 1939, rule dealing: `for c in cards_in(idle_land)` and `cards_in(shares)` read those decks' order, so
    # with draws=True their shuffles are still one ShuffleRequest; 1933 reads no deck's order
    assert program("landlords-game-1939").stepped().decks_read == {"idle_land", "shares"}
    assert program(ED1933).stepped().decks_read == frozenset()
    state = ld.new_state(program("landlords-game-1939"), players=3, draws=True)
    shuffles = []
    while not isinstance(state.request(), (DecisionRequest, BidRequest, DiceRequest)):
        request = state.request()
        if isinstance(request, ShuffleRequest):
            shuffles.append(request.deck)
        state.apply_chance(state.sample_chance(random.Random(len(shuffles))))
    assert shuffles == ["idle_land"]  # (deeds and so_what_cards are shuffled too: as draws)
    logged = [event[2] for event in state.log if event[0] == "shuffle"]
    assert logged[0] == "idle_land" and {"deeds", "so_what_cards"} <= set(logged)


def test_draws_with_a_seed_are_refused():
    with pytest.raises(ld.UsageError, match="draws=True needs seed=None"):
        ld.new_state(program(ED1933), players=2, seed=1, draws=True)


def test_a_1933_game_with_shuffles_as_draws_asks_no_shuffle():
    # 1933 Atlantic City, rule setting_up: the four card decks shuffled ask nothing; the game's chance
    # requests are throws and draws, every one of them listed (at most 16 outcomes)
    state = ld.new_state(program(ED1933), players=3, draws=True, turn_limit=30)
    bots, rng, draws = [HeuristicAgent() for _ in range(3)], random.Random(3), 0
    while not state.is_terminal():
        if state.is_chance():
            assert isinstance(state.request(), (DiceRequest, DrawRequest))
            outcomes = state.chance_outcomes()
            assert len(outcomes) <= 36 and sum(p for _, p in outcomes) == 1
            draws += isinstance(state.request(), DrawRequest)
            state.apply_chance(state.sample_chance(rng))
        else:
            step(state, bots)
    assert draws > 0
