"""Scenario tests for the 1939 Parker Brothers rules (magie-1939), one or more per clause.

Encoding under test: editions/landlords-game-1939.lg. Each test names the rule
it checks and paraphrases it. The board is the reconstructed 40-space track
(sections A to D are the sides; the Jail is off the track beside the SO WHAT
circle of Section B); amounts the rules do not give are the file's
reconstructed defaults (land rent 100/200/300/400 by section, wage checks $300,
railroad fare $100 and utility charge $50 per share).

make_game(start=True) skips the setup: seats get `cash`, stand where `at`
says, hold nothing, and the Bank is given BANK dollars by `game()` below.
"""

from __future__ import annotations

import pytest

import landlord_dsl as ld
from landlord_dsl.agents import HeuristicAgent
from landlord_dsl.presentation.narrate import narrate
from scenario_helpers import (
    account,
    assert_script_used_up,
    card,
    cards_of,
    cash,
    deck,
    houses,
    make_game,
    moves,
    offered,
    payments,
    pvar,
    set_houses,
    set_pvar,
    space,
    turn,
    unpaid,
    where,
)

EDITION = "landlords-game-1939"
BANK = 20000
# The offers most scenarios are not about: the seats say "done" to them.
PASSES = (
    "Move back to the Frontier instead of throwing?",
    "Offer a card to the other players?",
    "Put up a House ($200 each, rent $100 each)?",
)


def game(
    players: int = 3, answers=None, throws=(), cash=2500, at=None, start=True, shuffles=None, passes=(), **options
):
    """A 1939 game; with start=True the setup is skipped and the Bank holds BANK."""
    g = make_game(
        players=players,
        answers=answers,
        throws=throws,
        cash=cash,
        at=at,
        start=start,
        edition=EDITION,
        shuffles=shuffles,
        passes=PASSES + tuple(passes),
        **options,
    )
    if start:
        g.bal[g.prog.account_names.index("bank")] = BANK
    return g


def hold(g, seat: int, name: str, copy: int = 0) -> int:
    """Give `seat` a card by its .lg name (the `copy`-th of that name), wherever it is; return its index."""
    index = [i for i, n in enumerate(g.prog.card_names) if n == name][copy]
    g.set_holder(index, seat)
    return index


def deed(g, seat: int, lot: str) -> None:
    g.set_holder(g.prog.title_card[space(g, lot)], seat)


def bank(g) -> int:
    return account(g, "bank")


def gvar(g, name: str):
    return g.game_var(name)


# --------------------------------------------------------------- the setup
@pytest.mark.parametrize("players, idle, each", [(3, 6, 15), (4, 9, 12), (5, 6, 9)])
def test_1939_setup_deals_deeds_shares_and_idle_land_entirely(players, idle, each):
    """magie-1939, BANKER AND GOVERNMENT OFFICIAL: all 18 Share cards and 21 Deed cards are shuffled with 9
    Idle Land cards (six for three or five players) and the 48 (or 45) cards are dealt out entirely; the
    other Idle Land cards lie face down; each player gets $2,500 and one House; the SO WHAT pack is shuffled."""
    g = ld.new_game(ld.compile_rules(ld.load_edition(EDITION)), players=players, seed=3)
    g.setup()
    hands = [cards_of(g, s) for s in range(players)]
    assert [len(h) for h in hands] == [each] * players
    dealt = [n for h in hands for n in h]
    assert sum(n.startswith("idle_") for n in dealt) == idle
    assert sum(n.endswith("_share") for n in dealt) == 18
    assert sum(g.prog.card_space[card(g, n)] is not None for n in dealt) == 21
    assert len(deck(g, "idle_land")) == 16 - idle and deck(g, "deeds") == [] and deck(g, "shares") == []
    assert [cash(g, s) for s in range(players)] == [2500] * players
    placed = sum(houses(g, n) for n in g.prog.space_names) + sum(pvar(g, "spare_houses", s) for s in range(players))
    assert placed == players
    assert "so_what_cards" in [e[2] for e in g.log if e[0] == "shuffle"]
    assert account(g, "bank") == 30000 and account(g, "government") == 0 and account(g, "lord_blueblood") == 0
    assert g.conserved() and not g.invariant_problems()


def test_1939_is_for_three_to_five_players():
    """magie-1939, title: a game for from three to five players."""
    assert ld.compile_rules(ld.load_edition(EDITION)).players == (3, 5)


# ------------------------------------------------ sections and wage checks
def test_1939_four_sections_are_the_four_sides():
    """magie-1939, Rules 1 and 5: four sections (A to D) of the board, each with its own wage check; the two
    Frontier lots stand on the first side 'entirely apart from the rest of Section A' (Rule 4)."""
    prog = ld.compile_rules(ld.load_edition(EDITION))
    groups = ld.load_edition(EDITION).model.groups
    for letter, first in zip("abcd", (1, 11, 21, 31)):
        frontier = 2 if letter == "a" else 0
        assert sorted(groups[f"section_{letter}"]) == list(range(first + frontier, first + 9))
    assert sorted(groups["frontier"]) == [1, 2]
    assert [prog.space_names[i] for i in sorted(groups["corners"])] == ["go", "lickety_cut_rr", "gee_whiz_rr", "pdq_rr"]


@pytest.mark.parametrize(
    "scale, lot, wage",
    [
        ("flat", "easy_street", 300),
        ("graded", "easy_street", 750),
        ("graded", "poverty_place", 450),
        ("graded", "wayback", 300),
    ],
)
def test_1939_one_kind_of_wage_check_per_side(scale, lot, wage):
    """magie-1939, EQUIPMENT and Rule 1: four kinds of Wage Check, one per side; take the appropriate one."""
    g = game(at=[lot, "go", "go"], wage_scale=scale)
    g.actor = 0
    g.land()
    assert pvar(g, "checks", 0) == wage


# ----------------------------------------------------------------- Rule 1
def test_1939_rule1_rent_to_the_deed_holder_then_the_wage_check():
    """magie-1939, Rule 1: on a lot you do not own, pay the rent to the holder of the Title Deed, then take
    your Wage Check; the check is kept until the end of the round."""
    g = game(at=["the_bowery", "go", "go"], throws=[(1, 1)])
    deed(g, 1, "progress_park")
    turn(g, 0)
    assert where(g, 0) == "progress_park"
    assert payments(g) == [(300, "p0", "p1", "land_rent_rule")]
    assert pvar(g, "checks", 0) == 300 and cash(g, 0) == 2200


def test_1939_rule1_own_lot_no_rent_wage_check_only():
    """magie-1939, Rule 1: if you own the lot on which you stop, just take the Wage Check."""
    g = game(at=["the_bowery", "go", "go"], throws=[(1, 1)])
    deed(g, 0, "progress_park")
    turn(g, 0)
    assert payments(g) == [] and pvar(g, "checks", 0) == 300


def test_1939_rule1_no_wages_but_on_green_spaces():
    """magie-1939, Rule 1: no Wages are collected on any but green spaces."""
    g = game(
        at=["go", "go", "go"],
        answers=[["stay", "stay"], [], []],
        so_what_placeholders=False,
        passes=["Speculate in Idle Land (buy at $200, or sell at the printed value)?"],
    )
    g.actor = 0
    for name in ("so_what_a", "real_estate_a", "lickety_cut_rr", "slambang_trolley", "la_swelle_hotel"):
        g.pos[0] = space(g, name)
        g.land()
    assert pvar(g, "checks", 0) == 0
    g.pos[0] = space(g, "english_village")
    g.land()
    assert pvar(g, "checks", 0) == 300
    assert_script_used_up(g)


def test_1939_rule1_checks_are_cashed_at_the_end_of_the_round():
    """magie-1939, Rule 1 and END OF A ROUND: the Wage Checks are cashed by the Banker at the end of the round."""
    g = game(at=["easy_street", "go", "go"], throws=[(1, 1)])
    set_pvar(g, "checks", 0, 900)
    turn(g, 0)
    assert where(g, 0) == "go"
    assert payments(g) == [(900, "bank", "p0", "end_of_round"), (300, "p0", "government", "end_of_round")]
    assert pvar(g, "checks", 0) == 0 and pvar(g, "rounds_done", 0) == 1


def test_1939_rule1_houses_200_each_any_number_rent_100_each():
    """magie-1939, Rule 1: Houses are bought from the Banker at $200 each, as many as you wish on a lot you
    own, and each rents for $100."""
    g = game(at=["the_bowery", "go", "go"], throws=[(1, 1)], answers=[["build", "build", "build", "done"], [], []])
    deed(g, 0, "george_street")
    turn(g, 0)
    assert houses(g, "george_street") == 3 and cash(g, 0) == 2500 - 600  # Progress Park has no holder: no rent
    assert [p for p in payments(g) if p[3] == "building"] == [(200, "p0", "bank", "building")] * 3
    g2 = game(at=["johnson_road", "go", "go"])
    deed(g2, 1, "johnson_road")
    set_houses(g2, "johnson_road", 3)
    g2.actor = 0
    g2.land()
    assert payments(g2) == [(300 + 300, "p0", "p1", "land_rent_rule")]


def test_1939_rule1_four_houses_in_a_section_double_every_lot_whoever_owns_them():
    """magie-1939, Rule 1: with four or more Houses anywhere in a section, the rent of every lot in that
    whole section is doubled, regardless of who owns the lots."""
    g = game(at=["the_bowery", "go", "go"])
    deed(g, 1, "the_bowery")
    deed(g, 2, "goat_alley")
    set_houses(g, "goat_alley", 3)
    g.actor = 0
    g.land()
    assert payments(g) == [(200, "p0", "p1", "land_rent_rule")]
    set_houses(g, "goat_alley", 4)
    g.land()
    assert payments(g)[-1] == (400, "p0", "p1", "land_rent_rule")


# ----------------------------------------------------------------- Rule 2
def test_1939_rule2_english_village_rent_goes_to_lord_blueblood():
    """magie-1939, Rule 2: English Village has no Title Deed; its rent is paid to the Banker, who lays it
    aside for Lord Blueblood, the foreign landlord (an account of its own); the wage check is taken as usual."""
    g = game(at=["post_avenue", "go", "go"])
    g.actor = 0
    g.pos[0] = space(g, "english_village")
    g.land()
    assert payments(g) == [(300, "p0", "lord_blueblood", "land_rent_rule")]
    assert account(g, "lord_blueblood") == 300 and pvar(g, "checks", 0) == 300
    assert g.prog.title_card[space(g, "english_village")] is None


# ----------------------------------------------------------------- Rule 3
def test_1939_rule3_trespass_jail_bail_and_the_count_from_the_so_what_space():
    """magie-1939, Rule 3: stopping on Lord Blueblood's Estate is trespass: go to Jail (Section B); before
    moving out on the next turn pay $500 bail to the Banker, throw, and count from the SO WHAT space beside
    the Jail."""
    g = game(at=["broadway", "go", "go"])
    g.actor = 0
    g.pos[0] = space(g, "lord_bluebloods_estate")
    g.land()
    assert where(g, 0) == "so_what_b" and pvar(g, "in_jail", 0) is True
    g.chance.throws = [(2, 2)]
    turn(g, 0)
    assert payments(g) == [(500, "p0", "bank", "moving")]
    assert moves(g)[-1] == (0, "so_what_b", "the_bowery", "move") and pvar(g, "in_jail", 0) is False


# -------------------------------------------------------------- Rules 4-5
def test_1939_rule4_the_frontier_is_rent_free_with_wages_of_300():
    """magie-1939, Rule 4: Wayback and Backwoods are rent free and tax free and have no Deed cards."""
    g = game(at=["wayback", "go", "go"])
    g.actor = 0
    g.land()
    assert payments(g) == [] and pvar(g, "checks", 0) == 300
    assert g.prog.title_card[space(g, "wayback")] is None and g.prog.title_card[space(g, "backwoods")] is None


def test_1939_rule4_move_back_to_the_frontier_in_your_turn():
    """magie-1939, Rule 4: a player may move back to one of the Frontier lots whenever he chooses in his
    turn, unless the Frontier is closed; he stops there like any green lot."""
    g = game(at=["the_loop", "go", "go"], answers=[["frontier_move"], [], []])
    turn(g, 0)
    assert where(g, 0) == "wayback" and pvar(g, "checks", 0) == 300
    assert not [e for e in g.log if e[0] == "roll"]
    assert moves(g) == [(0, "the_loop", "wayback", "move")]


def test_1939_rule4_a_player_who_cannot_pay_retreats_to_the_frontier_for_300():
    """magie-1939, Rule 4: a player without the cash for a payment, who makes no deal, may move to a Frontier
    lot and receive $300 from the Banker; on his next turn he moves on as usual. (Reading: the payment he
    could not make is excused.)"""
    g = game(cash=[100, 2500, 2500], at=["the_bowery", "go", "go"], throws=[(1, 1)], answers=[["retreat"], [], []])
    deed(g, 1, "progress_park")
    turn(g, 0)
    assert where(g, 0) == "wayback"
    assert payments(g) == [(300, "bank", "p0", "frontier_retreat")]
    assert cash(g, 0) == 400 and cash(g, 1) == 2500 and unpaid(g) == []
    g.chance.throws = [(1, 1)]
    turn(g, 0)
    assert moves(g)[-1] == (0, "wayback", "lonely_lane", "move")


def test_1939_rule4_the_short_player_first_tries_a_deal():
    """magie-1939, Rule 4: only if he cannot make a satisfactory deal does the short player retreat: he may
    offer Idle Land to the others first; a sale that raises the money lets him pay. The sale is a trade
    between players (THE OBJECT: buy, sell, trade), logged under rule trading."""
    g = game(
        cash=[100, 2500, 2500], at=["the_bowery", "go", "go"], throws=[(1, 1)], answers=[["sell", "done"], ["buy"], []]
    )
    deed(g, 1, "progress_park")
    hold(g, 0, "idle_400")
    turn(g, 0)
    assert payments(g)[:2] == [(400, "p1", "p0", "trading"), (300, "p0", "p1", "land_rent_rule")]
    assert "idle_400" in cards_of(g, 1) and where(g, 0) == "progress_park"


def test_1939_rule5_the_fourth_house_in_section_a_closes_the_frontier():
    """magie-1939, Rule 5: when four or more Houses stand in Section A, the Frontier is no longer free land:
    each Frontier lot rents $100, wages stay $300, and the player who put up the fourth House owns both."""
    g = game(at=["go", "go", "go"], throws=[(1, 1)], answers=[[], ["build", "done"], []])
    deed(g, 1, "jaytown")
    deed(g, 2, "lonely_lane")
    set_houses(g, "lonely_lane", 3)
    g.pos[1] = space(g, "easy_street")
    turn(g, 1)  # Easy Street + 2 stops on GO; then he builds the fourth House of Section A on Jaytown
    assert gvar(g, "frontier_closed") is True and gvar(g, "frontier_owner") == 1
    g.pos[0] = space(g, "backwoods")
    g.actor = 0
    since = len(g.log)
    g.land()
    assert payments(g, since) == [(100, "p0", "p1", "land_rent_rule")] and pvar(g, "checks", 0) == 300


def test_1939_rule5_no_retreat_once_the_frontier_is_closed():
    """magie-1939, Rule 4: the Frontier may be used 'unless or until the Frontier is closed'."""
    g = game(cash=[100, 2500, 2500], at=["the_bowery", "go", "go"], throws=[(1, 1)])
    g.gv[list(ld.load_edition(EDITION).model.game_vars).index("frontier_closed")] = True
    deed(g, 1, "progress_park")
    turn(g, 0)
    assert where(g, 0) == "progress_park"
    assert payments(g) == [(100, "p0", "p1", "land_rent_rule")] and unpaid(g) == [(0, 200, "land_rent_rule")]
    assert all("Frontier" not in prompt for prompt, _ in g.agents[0].asked)


# ----------------------------------------------------------------- Rule 6
SPECULATE = "Speculate in Idle Land (buy at $200, or sell at the printed value)?"


def test_1939_rule6_buy_idle_land_at_200_up_to_five():
    """magie-1939, Rule 6: in a Real Estate Office buy Idle Land cards from the Banker at $200 each, as many
    as you choose up to five."""
    g = game(at=["real_estate_a", "go", "go"], answers=[["buy"] * 5, [], []])
    g.actor = 0
    g.land()
    assert len([n for n in cards_of(g, 0) if n.startswith("idle_")]) == 5
    assert payments(g) == [(200, "p0", "bank", "speculation")] * 5
    assert len(offered(g, 0)) == 5  # after the fifth card the office has nothing more to offer
    assert len(deck(g, "idle_land")) == 11


def test_1939_rule6_sell_at_the_printed_value_not_both_in_one_turn():
    """magie-1939, Rule 6: sell Idle Land back to the board at the value printed on the card, but do not both
    buy and sell in the same turn; a card bought is sold only at a later visit."""
    g = game(at=["real_estate_b", "go", "go"], answers=[["sell"], [], []])
    hold(g, 0, "idle_3000")
    g.actor = 0
    g.land()
    assert payments(g) == [(3000, "bank", "p0", "speculation")] and "idle_3000" in deck(g, "idle_land")
    assert offered(g, 0) == [["buy", "sell", "done"]]  # after the sale nothing is left to offer: no buying
    assert_script_used_up(g)
    g2 = game(at=["real_estate_b", "go", "go"], answers=[["buy", "done"], [], []])
    g2.decks["idle_land"].insert(0, g2.decks["idle_land"].pop(g2.decks["idle_land"].index(card(g2, "idle_1500"))))
    g2.actor = 0
    g2.land()
    assert cards_of(g2, 0) == ["idle_1500"] and "sell" not in offered(g2, 0)[-1]


# ----------------------------------------------------------------- Rule 7
def test_1939_rule7_fare_to_every_shareholder_but_yourself():
    """magie-1939, Rule 7: a rider pays the Railroad Fare to each Shareholder of that railroad; owning shares
    yourself you pay nothing on them."""
    g = game(at=["new_lot_a", "go", "go"], throws=[(1, 2)], answers=[["stay"], [], []])
    hold(g, 1, "lickety_cut_share", 0)
    hold(g, 1, "lickety_cut_share", 1)
    hold(g, 0, "lickety_cut_share", 2)
    turn(g, 0)
    assert where(g, 0) == "lickety_cut_rr"
    assert payments(g) == [(200, "p0", "p1", "railroads")]


def test_1939_rule7_ride_either_way_between_the_terminals():
    """magie-1939, Rule 7: after paying the fare, move in either direction within the railroad's two
    terminals (reconstruction: the Gee Whiz runs from Poverty Place to Public Highway)."""
    g = game(at=["gee_whiz_rr", "go", "go"], answers=[["stay"], [], []])
    g.actor = 0
    g.land()
    rides = g.agents[0].labels[0]
    assert rides[0] == "Ride to Poverty Place" and rides[-2] == "Ride to Public Highway"
    assert rides[-1] == "Stay at the depot" and len(rides) == 19  # 18 spaces besides the depot, or stay
    g2 = game(at=["gee_whiz_rr", "go", "go"], answers=[["stay"], [], []], railroad_lines="so_what_to_so_what")
    g2.actor = 0
    g2.land()
    assert g2.agents[0].labels[0][0] == "Ride to SO WHAT? (beside the Jail)" and len(g2.agents[0].labels[0]) == 11


RIDES_FROM_GEE_WHIZ = [s for s in range(11, 30) if s != 20]


@pytest.mark.parametrize("target, rent", [("goat_alley", 200), ("johnson_road", 300)])
def test_1939_rule7_a_ride_either_way_lands_and_is_obeyed(target, rent):
    """magie-1939, Rule 7: the ride moves backward or forward and the rule of the space reached applies."""
    g = game(at=["gee_whiz_rr", "go", "go"])
    deed(g, 1, target)
    g.actor = 0
    g.agents[0].answers = [RIDES_FROM_GEE_WHIZ.index(space(g, target))]
    g.land()
    assert where(g, 0) == target
    assert payments(g) == [(rent, "p0", "p1", "land_rent_rule")] and pvar(g, "checks", 0) == 300


# ----------------------------------------------------------------- Rule 8
def test_1939_rule8_utility_pays_every_shareholder_per_share():
    """magie-1939, Rule 8: three Share cards for each Local Public Utility; every share held entitles its holder
    to payment for the use of the utility by any other player."""
    g = game(at=["soakum_lighting", "go", "go"])
    hold(g, 1, "soakum_share", 0)
    hold(g, 1, "soakum_share", 1)
    hold(g, 2, "soakum_share", 2)
    g.actor = 0
    g.land()
    assert payments(g) == [(100, "p0", "p1", "utilities"), (50, "p0", "p2", "utilities")]


def test_1939_rule8_slambang_trolley_second_move_within_section_b_not_the_corners():
    """magie-1939, Rule 8: after paying the Slambang Trolley's fare, a second move to any other space of
    Section B, not counting the corner railroads."""
    g = game(at=["slambang_trolley", "go", "go"], answers=[[4], [], []])  # the fifth option: Hell's Half Acre
    deed(g, 1, "hells_half_acre")
    g.actor = 0
    g.land()
    labels = g.agents[0].labels[0]
    assert labels[0] == "Ride to Poverty Place" and labels[-2] == "Ride to The Bowery" and len(labels) == 9
    assert not any("R.R." in label for label in labels)
    assert where(g, 0) == "hells_half_acre" and payments(g) == [(200, "p0", "p1", "land_rent_rule")]


# ------------------------------------------------------ Rules 9, 9-a, Note X
def on_top(g, name: str) -> None:
    pack = g.decks["so_what_cards"]
    pack.insert(0, pack.pop(pack.index(card(g, name))))


@pytest.mark.parametrize("placeholders, paid", [(True, [(240, "p0", "bank", "so_what_rule")]), (False, [])])
def test_1939_rule9_draw_obey_within_the_section_return_the_card(placeholders, paid):
    """magie-1939, Rule 9: on a SO WHAT circle draw a card, follow it as far as possible within your section
    and return it to the pack. Cards 1-16 are lost: the placeholder purchase-and-tax cards pay one sum to the
    Banker (option so_what_placeholders; off, they do nothing)."""
    g = game(at=["so_what_d", "go", "go"], so_what_placeholders=placeholders)
    g.actor = 0
    g.land()
    assert payments(g) == paid
    assert deck(g, "so_what_cards")[-1] == "placeholder_small"  # back at the bottom of the pack
    assert g.prog.card_reconstructed[card(g, "placeholder_small")]
    assert g.prog.card_texts[card(g, "placeholder_small")].startswith("[Placeholder, not period text]")


def test_1939_rule9a_island_is_free():
    """magie-1939, Rule 9-a: 'Island is Free': throw again; the throw times $100 is the wage on the Island if
    you choose to go, after paying the boat fare to the Banker; Note X: next turn count from the SO WHAT space
    you left."""
    g = game(at=["so_what_c", "go", "go"], throws=[(4, 5)], answers=[["sail"], [], []])
    on_top(g, "island_is_free")
    g.actor = 0
    g.land()
    assert payments(g) == [(500, "p0", "bank", "so_what_rule"), (900, "bank", "p0", "so_what_rule")]
    assert "island_is_free" in cards_of(g, 0)  # face up, in force
    g.chance.throws = [(1, 1)]
    turn(g, 0)
    assert moves(g)[-1] == (0, "so_what_c", "english_village", "move")


def test_1939_rule9a_island_is_a_choice():
    g = game(at=["so_what_c", "go", "go"], throws=[(1, 2)], answers=[["stay"], [], []])
    on_top(g, "island_is_free")
    g.actor = 0
    g.land()
    assert payments(g) == []


def test_1939_note_x_face_up_until_another_player_lands_on_so_what_then_reshuffled():
    """magie-1939, Note X: the card stays face up, in force, until some other player lands on a SO WHAT
    space; then it goes back to the pack, which is reshuffled before that player draws."""
    g = game(
        at=["so_what_a", "so_what_b", "go"], throws=[(1, 2)], answers=[["stay"], [], []], so_what_placeholders=False
    )
    on_top(g, "island_is_free")
    g.actor = 0
    g.land()
    g.land()  # the drawer himself on a SO WHAT circle: the card stays with him
    assert "island_is_free" in cards_of(g, 0)
    shuffles = len([e for e in g.log if e[0] == "shuffle"])
    g.actor = 1
    g.land()
    assert "island_is_free" not in cards_of(g, 0) and "island_is_free" in deck(g, "so_what_cards")
    assert len([e for e in g.log if e[0] == "shuffle"]) == shuffles + 1


def test_1939_rule9a_site_value_tax_law_all_land_rent_to_the_government():
    """magie-1939, Rule 9-a and END OF A ROUND: under the 100 % Site Value Tax Law every player pays the rent
    due to the Government; no tax on Houses (reading: house rent still goes to the owner)."""
    g = game(at=["so_what_b", "go", "go"])
    on_top(g, "site_value_tax_law")
    deed(g, 1, "the_bowery")
    set_houses(g, "the_bowery", 2)
    g.actor = 0
    g.land()
    assert "site_value_tax_law" in cards_of(g, 0)
    g.pos[0] = space(g, "the_bowery")
    g.land()
    assert payments(g) == [(200, "p0", "government", "site_value_rent"), (200, "p0", "p1", "site_value_rent")]
    g.pos[0] = space(g, "english_village")
    g.land()
    assert payments(g)[-1] == (300, "p0", "government", "site_value_rent")


@pytest.mark.parametrize("railroads_too, tax", [(False, 120), (True, 180)])
def test_1939_rule9a_site_value_tax_law_60_per_utility_share_at_the_end_of_a_round(railroads_too, tax):
    """magie-1939, Rule 9-a: while the law is in force no taxes are collected at the end of a round except
    $60 on each utility card held (option: railroad shares too)."""
    g = game(at=["so_what_b", "go", "go"], throws=[(6, 6)], site_tax_on_railroad_shares=railroads_too)
    on_top(g, "site_value_tax_law")
    g.actor = 0
    g.land()
    hold(g, 1, "soakum_share", 0)
    hold(g, 1, "ting_a_ling_share", 0)
    hold(g, 1, "pdq_share", 0)
    g.pos[1] = space(g, "easy_street")
    turn(g, 1)
    assert where(g, 1) == "go" and payments(g)[-1] == (tax, "p1", "government", "site_value_taxes")


def test_1939_note_x_the_law_ends_when_its_card_goes_back():
    g = game(at=["so_what_b", "so_what_c", "go"], so_what_placeholders=False)
    on_top(g, "site_value_tax_law")
    deed(g, 2, "the_bowery")
    g.actor = 0
    g.land()
    g.actor = 1
    g.land()  # another player on a SO WHAT space: the law card goes back to the pack
    g.actor = 0
    g.pos[0] = space(g, "the_bowery")
    since = len(g.log)
    g.land()
    assert payments(g, since) == [(200, "p0", "p2", "land_rent_rule")]


# ---------------------------------------------------------- La Swelle Hotel
def test_1939_la_swelle_pays_the_bill_if_2000_remains():
    """magie-1939, LA SWELLE HOTEL: pay the $200 bill to the Banker if at least $2,000 is left afterwards."""
    g = game(cash=2200, at=["la_swelle_hotel", "go", "go"])
    g.actor = 0
    g.land()
    assert payments(g) == [(200, "p0", "bank", "la_swelle")]


def test_1939_la_swelle_otherwise_throw_again_move_backward_and_obey():
    """magie-1939, LA SWELLE HOTEL: with less than $2,200 pay nothing, throw again, move backward for that
    turn and follow the rule of the space landed on."""
    g = game(cash=2199, at=["la_swelle_hotel", "go", "go"], throws=[(2, 3)])
    g.actor = 0
    g.land()
    assert moves(g)[0] == (0, "la_swelle_hotel", "lord_bluebloods_estate", "move")
    assert where(g, 0) == "so_what_b" and pvar(g, "in_jail", 0) is True and payments(g) == []


# ------------------------------------------------------------ End of a round
@pytest.mark.parametrize("start, throw", [("easy_street", (6, 6)), ("the_loop", (3, 4)), ("lake_shore_drive", (1, 1))])
def test_1939_end_of_round_stop_at_go_whatever_the_dice(start, throw):
    """magie-1939, END OF A ROUND: at the end of each round STOP, regardless of what the dice show beyond the
    corner."""
    g = game(at=[start, "go", "go"], throws=[throw])
    turn(g, 0)
    assert where(g, 0) == "go" and pvar(g, "rounds_done", 0) == 1


@pytest.mark.parametrize(
    "rounds, doubled, reading, tax",
    [
        (0, True, "300", 300),
        (1, True, "300", 500),
        (1, False, "300", 300),
        (1, False, "none", 0),
        (2, True, "none", 500),
    ],
)
def test_1939_end_of_round_taxes(rounds, doubled, reading, tax):
    """magie-1939, END OF A ROUND: a lump sum of $300 after the first round, $500 after the second or later
    rounds IF the land rent on every side has been doubled (option later_round_tax: otherwise $300 again, or
    nothing)."""
    g = game(at=["easy_street", "go", "go"], throws=[(1, 1)], later_round_tax=reading)
    set_pvar(g, "rounds_done", 0, rounds)
    for lot in ("jaytown", "goat_alley", "george_street", "broadway"):
        set_houses(g, lot, 4 if doubled else 3)
    turn(g, 0)
    taxes = [p for p in payments(g) if p[2] == "government"]
    assert taxes == ([(tax, "p0", "government", "end_of_round")] if tax else [])


# ----------------------------------------------------------------- Winner
def test_1939_the_game_ends_when_the_last_starter_completes_his_second_round():
    """magie-1939, THE WINNER OF THE GAME IS: the player with the most money when the last player to begin has
    completed his second round and paid his taxes; players who finished earlier keep playing until then."""
    g = game(cash=[3000, 2500, 1000], at=["go", "go", "easy_street"], throws=[(1, 1), (1, 1), (1, 1)])
    set_pvar(g, "rounds_done", 0, 2)
    set_pvar(g, "rounds_done", 2, 1)
    result = g.play()
    assert result.turns == 3 and where(g, 2) == "go" and pvar(g, "rounds_done", 2) == 2
    assert "THE WINNER OF THE GAME IS" in result.end_reason and result.winners == (0,)


def test_1939_breaking_the_bank_ends_the_game():
    """magie-1939, THE WINNER OF THE GAME IS: the game also ends when some player breaks the Bank (whose
    capital is the reconstructed option bank_capital)."""
    g = game(at=["easy_street", "go", "go"], throws=[(1, 1)])
    g.bal[g.prog.account_names.index("bank")] = 500
    set_pvar(g, "checks", 0, 900)
    turn(g, 0)
    assert payments(g)[0] == (500, "bank", "p0", "end_of_round") and bank(g) == 0
    assert g.over and gvar(g, "bank_broken") is True


# ----------------------------------------------------------------- Trading
def test_1939_trading_a_card_to_the_first_player_who_accepts():
    """magie-1939, THE OBJECT: buy, sell, build, trade: once a turn a player may offer a deed, share or Idle
    Land card to the others at trade_price (reconstruction); the first in seat order who accepts buys it."""
    g = game(at=["go", "go", "go"], throws=[(1, 1)], answers=[["sell"], ["refuse"], ["buy"]])
    deed(g, 0, "jaytown")
    turn(g, 0)
    assert "jaytown" in cards_of(g, 2) and payments(g)[-1] == (500, "p2", "p0", "trading")
    assert_script_used_up(g)


def test_1939_end_of_round_a_player_who_cannot_pay_his_taxes_has_still_completed_the_round():
    """magie-1939, END OF A ROUND and Rule 4: a player short of his taxes may retreat to the Frontier; the
    round he finished still counts (reconstruction)."""
    g = game(cash=[100, 2500, 2500], at=["easy_street", "go", "go"], throws=[(1, 1)], answers=[["retreat"], [], []])
    turn(g, 0)
    assert pvar(g, "rounds_done", 0) == 1 and where(g, 0) == "wayback"
    assert payments(g) == [(300, "bank", "p0", "frontier_retreat")]


# ------------------------------------------------- the reconstructed options
def test_1939_option_land_rents_1932_keeps_the_1932_rents():
    """adgame-1932 rents (25, 50, 75, 100 by side) instead of four times them (reconstruction)."""
    g = game(at=["the_bowery", "go", "go"], land_rents="1932")
    deed(g, 1, "the_bowery")
    g.actor = 0
    g.land()
    assert payments(g) == [(50, "p0", "p1", "land_rent_rule")]


def test_1939_option_fare_per_ride_splits_100_by_thirds():
    """magie-1939, Rule 7 with fare_rule=per_ride: a $100 fare divided among the three shares (reconstruction),
    each third rounded down as the file's note on fare_to states: two shares take $66, one $33."""
    g = game(at=["pdq_rr", "go", "go"], answers=[["stay"], [], []], fare_rule="per_ride")
    hold(g, 1, "pdq_share", 0)
    hold(g, 1, "pdq_share", 1)
    hold(g, 2, "pdq_share", 2)
    g.actor = 0
    g.land()
    assert payments(g) == [(66, "p0", "p1", "railroads"), (33, "p0", "p2", "railroads")]


def test_1939_option_idle_values_1932_fifteen_alike_and_one_jackpot():
    """magie-1939, Rule 6 with idle_values=1932: fifteen cards sell for $400 and one for $3,000 (reconstruction)."""
    g = game(at=["real_estate_c", "go", "go"], answers=[["sell", "sell"], [], []], idle_values="1932")
    hold(g, 0, "idle_1500")
    hold(g, 0, "idle_3000")
    g.actor = 0
    g.land()
    assert sorted(p[0] for p in payments(g)) == [400, 3000]


# ------------------------------------------- issue 26: play against the rules
def test_1939_rule4_a_prisoner_who_retreats_instead_of_paying_bail_is_out_of_jail():
    """magie-1939, Rules 3 and 4: a prisoner short of his $500 bail who retreats to the Frontier receives $300,
    and 'on your next turn move forward ... as usual': he pays no bail then and throws from the Frontier."""
    g = game(cash=[100, 2500, 2500], at=["so_what_b", "go", "go"], answers=[["retreat"], [], []])
    set_pvar(g, "in_jail", 0, True)
    turn(g, 0)
    assert where(g, 0) == "wayback" and pvar(g, "in_jail", 0) is False
    g.chance.throws = [(1, 2)]
    since = len(g.log)
    turn(g, 0)
    assert all(p[2] != "bank" for p in payments(g, since)), payments(g, since)
    assert moves(g)[-1] == (0, "wayback", "crossroads", "move")


@pytest.mark.parametrize("at, frontier", [("wayback", []), ("backwoods", ["frontier_move"]), ("go", [])])
def test_1939_rule4_the_voluntary_move_goes_back_onto_a_frontier_lot_behind_the_player(at, frontier):
    """magie-1939, Rule 4: 'you may move back to one of these Frontier lots': only to a Frontier lot behind
    the player (from Backwoods to Wayback), never a move of no steps nor a wrap round the board."""
    g = game(at=[at, "go", "go"], throws=[(1, 2)], answers=[frontier, [], []])
    targets = []
    g.agents[0].passes = ()
    turn(g, 0)
    for prompt, names in g.agents[0].asked:
        if prompt.startswith("Move back to the Frontier"):
            targets = [n for n in names if n != "done"]
    assert targets == frontier
    if frontier:
        assert moves(g) == [(0, "backwoods", "wayback", "move")] and pvar(g, "checks", 0) == 300


@pytest.mark.parametrize("reading, paid, left", [("excused", [], 400), ("pay_what_he_can", [(100, "p0", "p1")], 300)])
def test_1939_rule4_option_retreat_payment(reading, paid, left):
    """magie-1939, Rule 4: a player who cannot meet a payment may move to the Frontier and receive $300.
    retreat_payment=excused (the reading): he pays nothing of it; pay_what_he_can: he hands over his cash
    first and the rest is excused (reconstruction)."""
    g = game(
        cash=[100, 2500, 2500],
        at=["the_bowery", "go", "go"],
        throws=[(1, 1)],
        answers=[["retreat"], [], []],
        retreat_payment=reading,
    )
    deed(g, 1, "progress_park")
    turn(g, 0)
    assert where(g, 0) == "wayback" and cash(g, 0) == left
    assert [p[:3] for p in payments(g) if p[1] == "p0"] == paid


@pytest.mark.parametrize("counted, winner", [(False, (0,)), (True, (1,))])
def test_1939_the_winner_and_the_uncashed_wage_checks(counted, winner):
    """magie-1939, THE OBJECT and Rule 1: the winner has the most money; a wage check is kept 'until the end
    of the round' and cashed there. The reading: checks not yet cashed are not money (count_wage_checks=false);
    the option counts them."""
    g = game(cash=[2000, 1900, 1000], count_wage_checks=counted)
    set_pvar(g, "checks", 1, 300)
    assert g.result().winners == winner


def test_1939_rule4_the_frontier_is_apart_from_section_a():
    """magie-1939, Rule 4: the Frontier lots are 'entirely apart from the rest of Section A': Houses on them do
    not count toward the four that double the rent of Section A (Rule 1), as their own rent is not doubled."""
    g = game(at=["jaytown", "go", "go"])
    deed(g, 1, "jaytown")
    set_houses(g, "lonely_lane", 3)
    set_houses(g, "wayback", 1)
    g.actor = 0
    g.land()
    assert payments(g) == [(100, "p0", "p1", "land_rent_rule")]


@pytest.mark.parametrize("reading, lands", [("so_what_is_zero", "the_bowery"), ("so_what_is_one", "real_estate_b")])
def test_1939_rule3_option_jail_count(reading, lands):
    """magie-1939, Rule 3: a released prisoner throws 'starting your count on the SO WHAT space to the left of
    the Jail'. so_what_is_zero (the reading): the SO WHAT space is where he stands; so_what_is_one: it is the
    first space counted."""
    g = game(at=["so_what_b", "go", "go"], throws=[(2, 2)], jail_count=reading, passes=[SPECULATE])
    set_pvar(g, "in_jail", 0, True)
    turn(g, 0)
    assert moves(g)[-1] == (0, "so_what_b", lands, "move")


def test_1939_confidence_of_the_reconstructed_board_and_cards():
    """magie-1939 gives no board and no card list: a lot or office placed from the 1932 board, and the printed
    values of the Idle Land cards, are reconstructions; the texts of SO WHAT cards 17 and 18 (Rule 9-a) are
    paraphrases and say so."""
    rs = ld.load_edition(EDITION)
    m = rs.model
    for s in m.spaces:
        cited = s.provenance.source if s.provenance else ""
        if "1932 board" in cited and s.kind in ("lot", "real_estate_office", "frontier"):
            assert s.provenance.confidence == "reconstruction", s.name
    assert m.decks["idle_land"].provenance.confidence == "reconstruction"
    texts = {c.name: c.text for c in m.decks["so_what_cards"].cards}
    assert texts["island_is_free"].startswith("[Paraphrase") and texts["site_value_tax_law"].startswith("[Paraphrase")


def test_1939_the_game_ends_the_moment_the_last_starter_has_paid_his_taxes():
    """magie-1939, THE WINNER OF THE GAME IS: the winner has the most money 'when the last player to begin has
    completed his second round and paid his Taxes': the game ends then, and he builds nothing more that turn."""
    g = game(cash=[2500, 2500, 2500], at=["go", "go", "easy_street"], throws=[(1, 1)], answers=[[], [], ["build"]])
    deed(g, 2, "jaytown")
    set_pvar(g, "rounds_done", 2, 1)
    turn(g, 2)
    assert g.over and "THE WINNER OF THE GAME IS" in g.end_reason
    assert houses(g, "jaytown") == 0 and cash(g, 2) == 2500 - 300
    assert all(not prompt.startswith("Put up a House") for prompt, _ in g.agents[2].asked)


def test_1939_narration_tells_the_house_its_lot_the_frontier_closing_and_the_wage_check():
    """magie-1939, Rules 1 and 5: a House goes up on a lot of the builder's; the fourth House of Section A
    closes the Frontier and makes its builder the owner of both Frontier lots; a Wage Check is taken on every
    green space and cashed only at the end of the round: the narration says which lot, that the Frontier
    closed, and each check taken, since no payment shows them."""
    g = game(at=["go", "go", "go"], throws=[(1, 1)], answers=[[], ["build", "done"], []])
    deed(g, 1, "jaytown")
    deed(g, 2, "lonely_lane")
    set_houses(g, "lonely_lane", 3)
    g.pos[1] = space(g, "crossroads")
    since = len(g.log)
    turn(g, 1)  # Crossroads + 2 stops on Jaytown (his own); then he builds the fourth House of Section A there
    told = list(narrate(g, since))
    assert "Player 2 takes a wage check for 300 [land_rent_rule]." in told
    assert "Player 2 puts up a House on Jaytown (1 there now) [building]." in told
    assert "The Frontier is closed: Player 2 owns both Frontier lots, which now rent for 100 [building]." in told


@pytest.mark.parametrize(
    "options, name, text",
    [
        ({}, "idle_1500", "Idle Land: sells for $1500"),
        ({"idle_values": "1932"}, "idle_1500", "Idle Land: sells for $400"),
        ({"idle_values": "1932"}, "idle_3000", "Idle Land: sells for $3000"),
        ({}, "site_value_tax_law", "$60 on each utility share)"),
        ({"site_tax_on_railroad_shares": True}, "site_value_tax_law", "$60 on each railroad or utility share)"),
        ({"boat_fare": 200}, "island_is_free", "after the boat fare of $200)"),
    ],
)
def test_1939_card_texts_follow_the_options(options, name, text):
    """magie-1939, Rule 6 (selling prices from $400 to $3,000, as indicated on the card) and Rule 9-a (card 17's
    boat fare, card 18's tax on each Utility card): a card's text says what the card does under the options
    chosen, so the narration never contradicts the effect."""
    g = game(**options)
    assert g.prog.card_texts[card(g, name)].endswith(text)


# ------------------------------------------- the rules the bots play (issue 26)
# The .lg file's value hints (functions build_hint, frontier_move_hint, sell_hint) make the heuristic bots
# take these actions when they pay, and only then.


def bots(g):
    """Seat heuristic bots in `g` (the scripted seats' answers are not used) and return it."""
    g.agents[:] = [HeuristicAgent() for _ in g.agents]
    return g


@pytest.mark.parametrize("built, moves_back", [(2, True), (0, False)])
def test_1939_rule4_bots_move_back_to_the_frontier_when_the_throw_ahead_is_dear(built, moves_back):
    """magie-1939, Rule 4: a player may move back to a Frontier lot in his turn. A bot on Crossroads with
    Houses on the others' lots ahead takes the Frontier's $300 wage check rather than throw into their
    rents; with no Houses there, the throw is worth more than the Frontier two steps back, and he throws."""
    g = bots(game(at=["crossroads", "go", "go"], throws=[(3, 3)]))
    for lot in ("jaytown", "new_lot_a", "boomtown", "poverty_place", "goat_alley", "rickety_row"):
        deed(g, 1, lot)
        set_houses(g, lot, built)
    turn(g, 0)
    if moves_back:
        assert moves(g) == [(0, "crossroads", "backwoods", "move")] and pvar(g, "checks", 0) == 300
    else:
        assert where(g, 0) != "backwoods" and [e for e in g.log if e[0] == "roll"]


@pytest.mark.parametrize("cash, sells", [(800, True), (2500, False)])
def test_1939_the_object_bots_sell_idle_land_to_each_other_when_short_of_building_money(cash, sells):
    """magie-1939, THE OBJECT (buy, sell, build, trade): a bot with too little money to build offers an Idle
    Land card to the others at its printed value, and a rich bot buys it; a bot with money to spare keeps
    it."""
    g = bots(game(cash=[cash, 2500, 2500], at=["go", "go", "go"], throws=[(3, 3)]))
    hold(g, 0, "idle_700")
    turn(g, 0)
    sold = [p for p in payments(g) if p[3] == "trading"]
    if sells:
        assert sold == [(700, "p1", "p0", "trading")] and "idle_700" in cards_of(g, 1)
    else:
        assert sold == [] and "idle_700" in cards_of(g, 0)


def test_1939_rule5_a_bot_puts_up_the_fourth_house_of_section_a_and_closes_the_frontier():
    """magie-1939, Rule 5: whoever puts up the fourth House of Section A owns both Frontier lots. A bot that
    owns a lot there and one in Section D builds the fourth House in Section A rather than on his richer
    lot, and the Frontier closes."""
    g = bots(game(at=["go", "go", "go"], throws=[(3, 3)]))
    deed(g, 0, "jaytown")
    deed(g, 0, "easy_street")
    deed(g, 1, "lonely_lane")
    set_houses(g, "lonely_lane", 3)
    turn(g, 0)
    assert houses(g, "jaytown") >= 1
    assert gvar(g, "frontier_closed") is True and gvar(g, "frontier_owner") == 0


def test_1939_rule1_a_bot_builds_where_four_houses_double_most_of_its_own_lots():
    """magie-1939, Rule 1: four Houses in a section double the rent of every lot in it. A bot that owns three
    of Section C's five lots builds there until the section is doubled, then prefers his Section D lot."""
    g = bots(game(cash=[2200, 2500, 2500], at=["go", "go", "go"], throws=[(3, 3)]))
    for lot in ("progress_park", "george_street", "johnson_road", "easy_street"):
        deed(g, 0, lot)
    turn(g, 0)  # a bot builds while $1,200 remains: six Houses, leaving $1,000
    in_c = sum(houses(g, lot) for lot in ("progress_park", "george_street", "johnson_road"))
    assert in_c == 4 and houses(g, "easy_street") == 2 and cash(g, 0) == 1000


def test_1939_end_of_round_the_500_tax_is_paid_in_a_bot_game():
    """magie-1939, END OF A ROUND: $500 after the second and later rounds if the land rent on every side has
    been doubled. The bots double all four sections, and in the four-player game of seed 1 a player who
    completes a later round pays the $500."""
    g = ld.new_game(ld.compile_rules(ld.load_edition(EDITION)), players=4, seed=1)
    g.play()
    assert (500, "p0", "government", "end_of_round") in payments(g)
