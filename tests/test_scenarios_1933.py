"""Scenario tests for Monopoly as taught in Atlantic City in 1933: one or more per rule clause.

Rule text: anspach-1933 (cited by its paragraph headings).
Board, prices, rents and the stand-in card decks: parker-1935 and anspach-1933.
Encoding under test: editions/monopoly-1933-atlantic-city.lg and the three
custom variants in editions/variants/monopoly-1933-*.lg.

Each scenario sets the state by hand (cash, positions, titles, houses), fixes
the dice with ScriptedChance and the answers with ScriptedAgent, plays one or
more turns and checks exact amounts, payees and positions.
"""

from __future__ import annotations

import pytest

import landlord_dsl as ld
from landlord_dsl.agents import HeuristicAgent
from scenario_helpers import (
    TRADE_PROMPT_1933,
    assert_script_used_up,
    cards_of,
    cash,
    decisions,
    deck,
    give,
    houses,
    labels,
    make_game,
    moves,
    offered,
    owner,
    payments,
    program,
    put,
    pvar,
    rolls,
    rules,
    set_houses,
    set_pvar,
    set_svar,
    svar,
    turn,
    unpaid,
    where,
)

EDITION = "monopoly-1933-atlantic-city"
JAIL_INSURANCE = "monopoly-1933-jail-insurance"
PAUPERS = "monopoly-1933-paupers"
HOUSING_SHORTAGE = "monopoly-1933-housing-shortage"
FREE_RIDES = "monopoly-1933-free-rides"
VARIANTS = [JAIL_INSURANCE, PAUPERS, HOUSING_SHORTAGE, FREE_RIDES]


def game(edition: str = EDITION, **kw):
    """A scenario game of the 1933 edition (or a variant), the stand-in card decks off unless asked for.

    The seats pass on the once-a-turn trading offer unless the script answers it.
    """
    kw.setdefault("proxy_decks", False)
    kw.setdefault("passes", (TRADE_PROMPT_1933,))
    return make_game(edition=edition, **kw)


def mortgage(g, space_name: str) -> None:
    set_svar(g, "mortgaged", space_name, True)


def on_top(g, deck_name: str, card_name: str) -> None:
    """Put a card on top of its deck."""
    c = g.prog.card_names.index(card_name)
    g.decks[deck_name].remove(c)
    g.decks[deck_name].insert(0, c)


LIGHT_BLUE = ["park_place", "boardwalk"]
GREEN = ["arctic_avenue", "baltic_avenue"]


# =====================================================================
# Set-up, salary, moving
# =====================================================================


def test_1933_setup_1500_each_and_both_decks_shuffled():
    """anspach-1933, set-up: the Banker issues each player $1,500; Chance and Community Chest are shuffled."""
    g = game(players=4, start=False, proxy_decks=True, first=0)
    g.setup()
    assert [cash(g, s) for s in range(4)] == [1500] * 4
    assert g.minted == 6000
    shuffled = [e[2] for e in g.log if e[0] == "shuffle"]
    assert shuffled == ["chance_cards", "chest_cards"]
    assert all(where(g, s) == "go" for s in range(4))


def test_1933_setup_the_high_scorer_of_a_throw_moves_first():
    """anspach-1933, set-up: 'Roll the dice and high scorer moves first'; ties throw again (reconstruction)."""
    g = game(players=3, start=False, throws=[(2, 3), (6, 4), (5, 5), (1, 2), (3, 3)])
    g.setup()
    assert [(seat, sum(dice)) for seat, dice in rolls(g)] == [(0, 5), (1, 10), (2, 10), (1, 3), (2, 6)]
    assert g.next_seat == 2 and ("next", 0, 2, g.prog.rule_names.index("first_player")) in g.log


def test_1933_salary_200_on_passing_go():
    """1933: $200 from the Bank every time the piece travels completely around the board."""
    g = game(cash=100, at=["luxury_tax", "go"], throws=[(1, 3)])
    turn(g, 0)
    assert where(g, 0) == "community_chest_1"
    assert cash(g, 0) == 300
    assert payments(g) == [(200, "bank", "p0", "salary_rule")]


def test_1933_salary_200_on_landing_on_go():
    g = game(cash=100, at=["community_chest_3", "go"], throws=[(3, 4)])
    turn(g, 0)
    assert where(g, 0) == "go" and cash(g, 0) == 300


def test_1933_doubles_give_another_throw():
    """1933, Doubles and Other Jail Rules names only three doubles in a row (to Jail); that a double
    throws again is read from it (a reconstruction, see the next test)."""
    g = game(cash=500, at=["go", "go"], throws=[(1, 1), (2, 3)])
    turn(g, 0)
    assert [m[1:] for m in moves(g)] == [("go", "community_chest_1", "move"), ("community_chest_1", "chance_1", "move")]
    assert_script_used_up(g)


def test_1933_provenance_claims_no_more_than_the_text():
    """The 1933 text does not say that a double throws again, and places neither tax square (only
    Luxury Tax "farther around the board"): those readings are tagged reconstruction, not secondary."""
    model = rules(EDITION).model
    moving = next(r for r in model.rules if r.name == "moving")
    assert moving.provenance.confidence == "reconstruction"
    for name in ("income_tax", "luxury_tax"):
        square = model.spaces[model.space_index[name]]
        assert square.provenance.confidence == "reconstruction" and "1935" in square.provenance.note


def test_1933_three_doubles_in_a_row_go_to_jail_without_moving():
    g = game(cash=500, at=["go", "go"], throws=[(1, 1), (1, 1), (2, 2)])
    turn(g, 0)
    assert moves(g)[-1] == (0, "income_tax", "jail", "send")
    assert where(g, 0) == "jail" and pvar(g, "in_jail", 0) is True
    assert_script_used_up(g)


# =====================================================================
# Chance and Community Chest (pre-1936 stand-in decks)
# =====================================================================


def test_1933_chance_card_is_followed_and_returned_to_the_bottom():
    """anspach-1933, set-up: take the top Chance card and follow it; a returned card goes to the bottom."""
    g = game(cash=100, at=["go", "go"], throws=[(3, 4)], proxy_decks=True)
    on_top(g, "chance_cards", "chance_advance_to_go")
    turn(g, 0)
    assert where(g, 0) == "go" and cash(g, 0) == 300
    assert deck(g, "chance_cards")[-1] == "chance_advance_to_go"
    assert len(deck(g, "chance_cards")) == 16


def test_1933_a_card_that_bankrupts_its_drawer_still_goes_back_to_the_bottom():
    """1933, set-up (draw, follow, return) with BANKRUPTCY RULES: the card sends the player to a
    hotel he cannot pay for; he goes out and his turn ends, but the card is returned all the same."""
    g = game(players=3, cash=[100, 0, 0], at=["go", "go", "go"], throws=[(3, 4)], proxy_decks=True)
    for s in LIGHT_BLUE:
        give(g, s, 1)
        set_houses(g, s, 5)
    on_top(g, "chance_cards", "chance_boardwalk")
    turn(g, 0)
    assert where(g, 0) == "boardwalk" and g.seats == [1, 2]
    assert deck(g, "chance_cards")[-1] == "chance_boardwalk"
    assert len(deck(g, "chance_cards")) == 16
    assert [p for p in g.invariant_problems() if "not conserved" not in p] == []  # cash was set by hand


def test_1933_community_chest_card_pays_the_bank():
    g = game(cash=100, at=["jail", "go"], throws=[(3, 4)], proxy_decks=True)
    on_top(g, "chest_cards", "chest_doctor")
    turn(g, 0)
    assert where(g, 0) == "community_chest_2"
    assert payments(g) == [(50, "p0", "bank", "chance_and_chest")]
    assert deck(g, "chest_cards")[-1] == "chest_doctor"


def test_1933_grand_opera_collects_50_from_every_player():
    g = game(players=3, cash=100, at=["jail", "go", "go"], throws=[(3, 4)], proxy_decks=True)
    on_top(g, "chest_cards", "chest_opera")
    turn(g, 0)
    assert [cash(g, s) for s in range(3)] == [200, 50, 50]


@pytest.mark.parametrize(
    "card_name, per_house, per_hotel", [("chance_general_repairs", 25, 100), ("chance_street_repairs", 40, 115)]
)
def test_1933_repairs_card_charges_per_house_and_hotel(card_name, per_house, per_hotel):
    g = game(cash=1000, at=["go", "go"], throws=[(3, 4)], proxy_decks=True, answers=[["done"], []])
    for s in GREEN + LIGHT_BLUE:
        give(g, s, 0)
    set_houses(g, "arctic_avenue", 2)
    set_houses(g, "baltic_avenue", 3)
    set_houses(g, "park_place", 5)
    on_top(g, "chance_cards", card_name)
    turn(g, 0)
    assert payments(g) == [(5 * per_house + per_hotel, "p0", "bank", "chance_and_chest")]


def test_1933_chance_go_to_jail_card_no_salary():
    g = game(cash=100, at=["go", "go"], throws=[(3, 4)], proxy_decks=True)
    on_top(g, "chance_cards", "chance_go_to_jail")
    turn(g, 0)
    assert where(g, 0) == "jail" and pvar(g, "in_jail", 0) is True
    assert cash(g, 0) == 100


def test_1933_get_out_of_jail_card_is_kept_then_given_back_to_the_bottom():
    """1933, Landing on Jail: the card is kept; giving it to the Banker gets the player out, and it goes
    back to the bottom of its deck."""
    g = game(cash=100, at=["go", "go"], throws=[(3, 4), (6, 4)], proxy_decks=True, answers=[["chance_card"], []])
    on_top(g, "chance_cards", "chance_jail_free")
    turn(g, 0)
    assert cards_of(g, 0) == ["chance_jail_free"]
    assert "chance_jail_free" not in deck(g, "chance_cards")
    # later in Jail (sent there, as by the corner)
    g.pos[0] = g.prog.space_names.index("jail")
    set_pvar(g, "in_jail", 0, True)
    turn(g, 0)  # gives the card back, then throws 6+4 from Jail
    assert pvar(g, "in_jail", 0) is False
    assert cards_of(g, 0) == []
    assert deck(g, "chance_cards")[-1] == "chance_jail_free"
    assert where(g, 0) == "free_parking" and cash(g, 0) == 100
    assert_script_used_up(g)


def test_1933_without_the_stand_in_decks_the_lost_cards_are_blank():
    g = game(cash=100, at=["go", "go"], throws=[(3, 4)])
    turn(g, 0)
    drawn = [g.prog.card_names[e[3]] for e in g.log if e[0] == "draw"]
    assert where(g, 0) == "chance_1" and drawn == ["chance_lost"]
    assert cash(g, 0) == 100


@pytest.mark.parametrize("deck_name, prefix", [("chance_attested", "chance"), ("chest_attested", "chest")])
def test_1933_without_the_stand_in_decks_the_go_to_jail_card_the_text_names_remains(deck_name, prefix):
    """anspach-1933, Doubles and Other Jail Rules: a player who "draws a card which reads Go to Jail" goes
    to Jail; the card is attested by the 1933 text itself, so it stays when the Parker decks are off."""
    start, throw = ("go", (3, 4)) if prefix == "chance" else ("go", (1, 1))
    g = game(cash=100, at=[start, "go"], throws=[throw])
    on_top(g, deck_name, f"{prefix}_named_go_to_jail")
    turn(g, 0)
    assert where(g, 0) == "jail" and pvar(g, "in_jail", 0) is True


def test_1933_without_the_stand_in_decks_the_jail_free_card_is_kept_used_and_returned():
    """anspach-1933, Landing on Jail: the "YOU MAY COME OUT OF JAIL FREE NEXT TIME" card is kept, and given
    to the Banker it frees the player and goes back to the bottom of its deck, stand-in decks or not."""
    g = game(cash=100, at=["go", "go"], throws=[(3, 4), (6, 4)], answers=[["chance_card"], []])
    on_top(g, "chance_attested", "chance_named_jail_free")
    turn(g, 0)
    assert cards_of(g, 0) == ["chance_named_jail_free"]
    assert g.prog.card_texts[g.prog.card_names.index("chance_named_jail_free")].startswith(
        "You may come out of Jail free next time"
    )
    g.pos[0] = g.prog.space_names.index("jail")
    set_pvar(g, "in_jail", 0, True)
    turn(g, 0)
    assert pvar(g, "in_jail", 0) is False and cards_of(g, 0) == []
    assert deck(g, "chance_attested")[-1] == "chance_named_jail_free"
    assert_script_used_up(g)


_RENAMED_CHANCE = """
edition "renamed-jail-card" {
    extends "monopoly-1933-atlantic-city"
}
deck chance_cards "Chance" returned when proxy_decks {
    card chance_keep_out "Keep this card: it gets you out of Jail" tagged jail_free {
        give card to player
    }
    card chance_dividend "The bank pays you a dividend of $50" {
        pay 50 from bank to player
    }
}
"""


def test_1933_a_variant_that_renames_the_jail_card_keeps_using_it():
    """1933, Landing on Jail, in a variant that restates the Chance deck with the jail-free card
    under another name: the rules find it by its tag, so it is still kept and still frees."""
    renamed = ld.load_text(_RENAMED_CHANCE)
    prog = ld.compile_rules(renamed, {"proxy_decks": True})
    g = ld.new_game(
        prog, agents=[ld.ScriptedAgent(["chance_card"]), ld.ScriptedAgent([])], chance=ld.ScriptedChance([(6, 4)])
    )
    g.started = True
    card = prog.card_names.index("chance_keep_out")
    g.set_holder(card, 0)
    g.pos[0] = prog.space_names.index("jail")
    in_jail = list(renamed.model.player_vars).index("in_jail")
    g.pv[in_jail][0] = True
    g.next_seat = 0
    g.play_turn()
    assert g.pv[in_jail][0] is False and g.holder[card] is None
    assert g.decks["chance_cards"][-1] == card


@pytest.mark.parametrize("edition", [EDITION, "monopoly-1933-free-parking-jackpot"])
def test_1933_jail_free_cards_are_found_by_their_tag(edition):
    """The jail and bankruptcy rules find the jail-free cards by the checked tag `jail_free`, not by
    their names: every card tagged so, and only those, can be given back to leave Jail."""
    prog = program(edition, proxy_decks=True)
    tagged = sorted(n for i, n in enumerate(prog.card_names) if "jail_free" in n)
    assert tagged == ["chance_jail_free", "chance_named_jail_free", "chest_jail_free", "chest_named_jail_free"]
    decks = {d.name: d for d in rules(edition).model.decks.values()}
    carriers = sorted(c.name for d in decks.values() for c in d.cards if "jail_free" in c.tags)
    assert carriers == tagged


def test_1933_stand_in_cards_are_marked_reconstruction():
    decks = {d.name: d for d in rules(EDITION).model.decks.values()}
    for name in ("chance_cards", "chest_cards"):
        assert decks[name].provenance.confidence == "reconstruction"
    assert len(decks["chance_cards"].cards) == 16 and len(decks["chest_cards"].cards) == 13


# =====================================================================
# Taxes
# =====================================================================


def test_1933_income_tax_is_ten_percent_of_wealth():
    """1933, Income Tax: 10% of cash + mortgage value of all properties (mortgaged or not) + the price
    paid for houses."""
    g = game(cash=1000, at=["go", "go"], throws=[(1, 3)], answers=[["done"], []])
    for s in ["baltic_avenue", "arctic_avenue", "boardwalk", "reading_railroad"]:
        give(g, s, 0)
    mortgage(g, "boardwalk")
    set_houses(g, "baltic_avenue", 2)
    turn(g, 0)
    wealth = 1000 + 30 + 30 + 200 + 100 + 2 * 50
    assert payments(g)[0] == (wealth // 10, "p0", "bank", "income_tax_rule")


def test_1933_luxury_tax_75():
    g = game(cash=100, at=["short_line", "go"], throws=[(1, 2)])
    turn(g, 0)
    assert where(g, 0) == "luxury_tax"
    assert payments(g) == [(75, "p0", "bank", "luxury_tax_rule")]


# =====================================================================
# Jail
# =====================================================================


def test_1933_landing_on_jail_by_a_throw_is_only_visiting():
    g = game(cash=100, at=["go", "go"], throws=[(4, 6), (3, 4)])
    turn(g, 0)
    assert where(g, 0) == "jail" and pvar(g, "in_jail", 0) is False
    turn(g, 0)
    assert where(g, 0) == "community_chest_2" and cash(g, 0) == 100


def test_1933_go_to_jail_corner_sends_to_jail_and_ends_the_throws():
    g = game(cash=100, at=["atlantic_avenue", "go"], throws=[(2, 2)])
    turn(g, 0)
    assert moves(g) == [(0, "atlantic_avenue", "go_to_jail", "move"), (0, "go_to_jail", "jail", "send")]
    assert pvar(g, "in_jail", 0) is True and cash(g, 0) == 100
    assert_script_used_up(g)  # no throw for the double


def test_1933_jail_pay_50_then_a_normal_turn():
    g = game(cash=100, at=["jail", "go"], throws=[(6, 4)], answers=[["pay_fine"], []])
    set_pvar(g, "in_jail", 0, True)
    turn(g, 0)
    assert payments(g) == [(50, "p0", "bank", "jail_rule")]
    assert where(g, 0) == "free_parking" and pvar(g, "in_jail", 0) is False


def test_1933_jail_double_comes_out_free_and_moves_by_it():
    g = game(cash=100, at=["jail", "go"], throws=[(5, 5)], answers=[["try_doubles"], []])
    set_pvar(g, "in_jail", 0, True)
    turn(g, 0)
    assert where(g, 0) == "free_parking" and cash(g, 0) == 100
    assert pvar(g, "in_jail", 0) is False
    assert_script_used_up(g)  # no second throw after the double that freed him


def test_1933_jail_no_double_stays_in():
    g = game(cash=100, at=["jail", "go"], throws=[(3, 4)], answers=[["try_doubles"], []])
    set_pvar(g, "in_jail", 0, True)
    turn(g, 0)
    assert where(g, 0) == "jail" and pvar(g, "in_jail", 0) is True and pvar(g, "jail_tries", 0) == 1


def test_1933_jail_third_failed_try_pays_50_and_moves():
    g = game(cash=100, at=["jail", "go"], throws=[(1, 2), (1, 2), (3, 4)], answers=[["try_doubles"] * 3, []])
    set_pvar(g, "in_jail", 0, True)
    for _ in range(3):
        turn(g, 0)
    assert payments(g) == [(50, "p0", "bank", "jail_rule")]
    assert where(g, 0) == "community_chest_2" and pvar(g, "in_jail", 0) is False


def test_1933_prisoner_without_50_is_not_offered_the_fine():
    g = game(cash=40, at=["jail", "go"], throws=[(1, 2)])
    set_pvar(g, "in_jail", 0, True)
    turn(g, 0)  # only "try_doubles" is legal: taken without asking
    assert decisions(g) == [] and where(g, 0) == "jail"


# =====================================================================
# Buying and the Banker's auction
# =====================================================================


def test_1933_buying_at_the_listed_price():
    g = game(cash=500, at=["go", "go"], throws=[(2, 4)], answers=[["buy", "done"], []])
    turn(g, 0)
    assert owner(g, "oriental_avenue") == 0
    assert payments(g) == [(100, "p0", "bank", "buying")]


def test_1933_declined_property_auctioned_to_highest_bidder_raises_of_5():
    """1933: declined at its price, the Banker auctions the property to the highest bidder; custom:
    raises of at least $5. The lander owes no rent for the landing at which it was sold."""
    g = game(players=3, cash=500, at=["go", "go", "go"], throws=[(2, 4)], answers=[["decline", 5, None], [12], [None]])
    turn(g, 0)
    assert owner(g, "oriental_avenue") == 1
    assert payments(g) == [(12, "p1", "bank", "buying")]
    assert [r.minimum for r in g.agents[0].bid_requests] == [5, 17]
    assert [r.minimum for r in g.agents[1].bid_requests] == [10]
    assert cash(g, 0) == 500


def test_1933_player_who_cannot_afford_the_price_goes_to_auction():
    g = game(cash=[50, 500], at=["go", "go"], throws=[(2, 4)], answers=[[None], [5]])
    turn(g, 0)
    assert owner(g, "oriental_avenue") == 1 and cash(g, 1) == 495


# =====================================================================
# Rents, land monopoly
# =====================================================================


def test_1933_rent_from_the_title_card():
    g = game(cash=100, at=["go", "go"], throws=[(5, 6)])
    give(g, "st_charles_place", 1)
    turn(g, 0)
    assert payments(g) == [(10, "p0", "p1", "land_rent")]


def test_1933_no_rent_on_own_property():
    g = game(cash=100, at=["go", "go"], throws=[(5, 6)], answers=[["done"], []])
    give(g, "st_charles_place", 0)
    turn(g, 0)
    assert payments(g) == []


def test_1933_land_monopoly_doubles_land_rent():
    """anspach-1933, MONOPOLY LAND RENT: the owner of every parcel of a colour group doubles the land rent."""
    g = game(cash=100, at=["go", "go"], throws=[(1, 2)])
    for s in GREEN:
        give(g, s, 1)
    turn(g, 0)
    assert payments(g) == [(2 * 4, "p0", "p1", "land_rent")]


def test_1933_mortgaged_parcel_keeps_the_monopoly_but_pays_no_rent():
    """anspach-1933, MORTGAGED PARCELS IN A LAND MONOPOLY and MORTGAGES."""
    g = game(cash=100, at=["go", "go"], throws=[(1, 2), (1, 2)])
    for s in GREEN:
        give(g, s, 1)
    mortgage(g, "arctic_avenue")
    turn(g, 0)
    assert payments(g) == [(8, "p0", "p1", "land_rent")]
    put(g, 0, "luxury_tax")
    turn(g, 0)  # onto the mortgaged Arctic Avenue: salary, no rent
    assert where(g, 0) == "arctic_avenue"
    assert payments(g) == [(8, "p0", "p1", "land_rent"), (200, "bank", "p0", "salary_rule")]


def test_1933_no_monopoly_no_doubling():
    g = game(cash=100, at=["go", "go"], throws=[(1, 2)])
    give(g, "baltic_avenue", 1)
    turn(g, 0)
    assert payments(g) == [(4, "p0", "p1", "land_rent")]


@pytest.mark.parametrize("built, rent", [(1, 10), (2, 30), (3, 90), (4, 160), (5, 250)])
def test_1933_house_rents_from_the_title_card(built, rent):
    """anspach-1933, RENTS FROM HOUSES ON LAND MONOPOLIES: Arctic Avenue 1 -> 3 houses: $10, $30, $90."""
    g = game(cash=1000, at=["luxury_tax", "go"], throws=[(1, 2)])
    for s in GREEN:
        give(g, s, 1)
        set_houses(g, s, built)
    turn(g, 0)
    assert payments(g) == [(200, "bank", "p0", "salary_rule"), (rent, "p0", "p1", "land_rent")]


def test_1933_boardwalk_hotel_rent_2000():
    g = game(cash=3000, at=["chance_3", "go"], throws=[(1, 2)])
    for s in LIGHT_BLUE:
        give(g, s, 1)
        set_houses(g, s, 5)
    turn(g, 0)
    assert payments(g) == [(2000, "p0", "p1", "land_rent")]


# =====================================================================
# Railroads and utilities
# =====================================================================

RAILROADS = ["reading_railroad", "pennsylvania_railroad", "b_and_o_railroad", "short_line"]


@pytest.mark.parametrize("held, fare", [(1, 25), (2, 50), (3, 100), (4, 200)])
def test_1933_railroad_fares_double_with_each_line(held, fare):
    """anspach-1933, RAILROADS AND RAILROAD MONOPOLIES: $25, $50, $100, $200."""
    g = game(cash=500, at=["go", "go"], throws=[(1, 4)])
    for r in RAILROADS[:held]:
        give(g, r, 1)
    turn(g, 0)
    assert payments(g) == [(fare, "p0", "p1", "railroad_fares")]


def test_1933_mortgaged_railroad_pays_no_fare_but_counts_for_the_others():
    g = game(cash=500, at=["go", "go"], throws=[(1, 4)])
    for r in RAILROADS:
        give(g, r, 1)
    mortgage(g, "reading_railroad")
    turn(g, 0)
    assert payments(g) == []
    put(g, 0, "jail")
    g.chance.throws = [(2, 3)]
    turn(g, 0)
    assert payments(g) == [(200, "p0", "p1", "railroad_fares")]


@pytest.mark.parametrize("both, multiplier", [(False, 4), (True, 10)])
def test_1933_utilities_four_or_ten_times_a_fresh_throw(both, multiplier):
    """anspach-1933, UTILITY MONOPOLIES: throw again; x4, or x10 when the owner has both utilities."""
    g = game(cash=500, at=["chance_1", "go"], throws=[(3, 2), (4, 5)])
    give(g, "electric_company", 1)
    if both:
        give(g, "water_works", 1)
    turn(g, 0)
    assert payments(g) == [(multiplier * 9, "p0", "p1", "utility_rates")]
    assert_script_used_up(g)


# =====================================================================
# Houses and hotels
# =====================================================================


def test_1933_houses_only_on_a_land_monopoly():
    """anspach-1933, HOUSES ARE BUILT ONLY ON A LAND MONOPOLY: Boardwalk alone cannot be built on."""
    g = game(cash=1000, at=["go", "go"], throws=[(1, 1), (2, 3)], answers=[["done"], []])
    give(g, "boardwalk", 0)
    turn(g, 0)
    assert offered(g, 0) == [["mortgage", "done"]]
    g2 = game(cash=1000, at=["go", "go"], throws=[(1, 1), (2, 3)], answers=[["build", "build", "done"], []])
    for s in LIGHT_BLUE:
        give(g2, s, 0)
    turn(g2, 0)
    assert houses(g2, "park_place") == 1 and houses(g2, "boardwalk") == 1
    assert [p for p in payments(g2)] == [(200, "p0", "bank", "improving")] * 2


@pytest.mark.parametrize(
    "group, price",
    [
        (["arctic_avenue", "baltic_avenue"], 50),
        (["st_charles_place", "states_avenue", "virginia_avenue"], 100),
        (["kentucky_avenue", "indiana_avenue", "illinois_avenue"], 150),
        (["park_place", "boardwalk"], 200),
    ],
)
def test_1933_house_prices_by_side_of_the_board(group, price):
    """anspach-1933, HOUSES: $50, $100, $150, $200 on the four sides."""
    g = game(cash=1000, at=["go", "go"], throws=[(1, 1), (2, 3)], answers=[["build", "done"], []])
    for s in group:
        give(g, s, 0)
    turn(g, 0)
    assert houses(g, group[0]) == 1
    assert payments(g)[-1] == (price, "p0", "bank", "improving")


def test_1933_even_building_at_most_one_house_more():
    """anspach-1933, HOUSES: no more than one house more on one space than on any other of the monopoly."""
    g = game(cash=1000, at=["go", "go"], throws=[(1, 1), (2, 3)], answers=[["build", "done"], []])
    for s in LIGHT_BLUE:
        give(g, s, 0)
    set_houses(g, "park_place", 1)
    turn(g, 0)
    # only Boardwalk may take the next house
    assert houses(g, "park_place") == 1 and houses(g, "boardwalk") == 1
    assert offered(g, 0)[0].count("build") == 1


def test_1933_hotel_after_four_houses_and_only_one_per_lot():
    """anspach-1933, HOUSES: with four houses, the fifth building is a hotel at a house's price; one hotel a lot."""
    g = game(cash=1000, at=["go", "go"], throws=[(1, 1), (2, 3)], answers=[["build", "done"], []])
    for s in LIGHT_BLUE:
        give(g, s, 0)
        set_houses(g, s, 4)
    set_houses(g, "boardwalk", 5)
    turn(g, 0)
    assert houses(g, "park_place") == 5
    assert payments(g)[-1] == (200, "p0", "bank", "improving")
    assert offered(g, 0)[0].count("build") == 1  # Boardwalk already has its hotel
    assert "build" not in offered(g, 0)[1]


def test_1933_tear_down_sells_back_at_half_price_evenly():
    """anspach-1933, HOUSES: houses torn down are sold back to the Bank at half price."""
    g = game(cash=100, at=["go", "go"], throws=[(1, 1), (2, 3)], answers=[["tear_down", "done"], []])
    for s in LIGHT_BLUE:
        give(g, s, 0)
    set_houses(g, "park_place", 1)
    set_houses(g, "boardwalk", 2)
    turn(g, 0)
    assert houses(g, "boardwalk") == 1 and houses(g, "park_place") == 1
    assert payments(g) == [(100, "bank", "p0", "improving")]


def test_1933_improving_labels_show_prices_computed_by_the_rules():
    """1933, HOUSES and MORTGAGES: the labels people read give the house price, the half price
    a building sells back for, and what redeeming costs (the mortgage plus 10%)."""
    g = game(cash=1000, at=["go", "go"], throws=[(1, 1), (2, 3)], answers=[["done"], []])
    for s in LIGHT_BLUE:
        give(g, s, 0)
    set_houses(g, "boardwalk", 1)
    mortgage(g, "park_place")
    turn(g, 0)
    shown = labels(g, 0)[0]
    assert "Redeem Park Place for 192" in shown
    assert "Tear down a building on Boardwalk for 100" in shown
    assert shown[-1] == "Done"
    g2 = game(cash=1000, at=["go", "go"], throws=[(1, 1), (2, 3)], answers=[["done"], []])
    for s in LIGHT_BLUE:
        give(g2, s, 0)
    turn(g2, 0)
    assert "Build on Park Place for 200" in labels(g2, 0)[0]


def test_1933_no_building_on_a_mortgaged_lot():
    g = game(cash=1000, at=["go", "go"], throws=[(1, 1), (2, 3)], answers=[["build", "done"], []])
    for s in LIGHT_BLUE:
        give(g, s, 0)
    mortgage(g, "park_place")
    turn(g, 0)
    assert houses(g, "park_place") == 0 and houses(g, "boardwalk") == 1
    assert offered(g, 0)[1].count("build") == 0  # Boardwalk now one ahead of the mortgaged lot


# =====================================================================
# Trading between players
# =====================================================================


def test_1933_trading_the_first_player_who_accepts_buys_the_property():
    """1933, trading: a player may sell property to another player; offered at twice its price,
    the other players are asked in seat order and the first who accepts pays and takes the title."""
    g = game(
        players=3,
        cash=500,
        at=["go", "go", "go"],
        throws=[(1, 1), (2, 3)],
        answers=[["done", "sell"], ["refuse"], ["buy"]],
    )
    give(g, "baltic_avenue", 0)
    turn(g, 0)
    assert owner(g, "baltic_avenue") == 2
    assert payments(g) == [(120, "p2", "p0", "trading")]
    assert offered(g, 1) == [["buy", "refuse"]] and offered(g, 2) == [["buy", "refuse"]]
    assert labels(g, 2) == [["Buy Baltic Avenue for 120", "Let it go"]]
    assert_script_used_up(g)


def test_1933_trading_mortgaged_property_is_sold_mortgaged_for_less():
    """anspach-1933, trading: property may be sold "whether mortgaged or not"; the mortgage goes with it
    and the price is less what redeeming it will cost the buyer."""
    g = game(players=2, cash=500, at=["go", "go"], throws=[(1, 1), (2, 3)], answers=[["done", "sell"], ["buy"]])
    give(g, "baltic_avenue", 0)
    mortgage(g, "baltic_avenue")
    turn(g, 0)
    assert owner(g, "baltic_avenue") == 1 and svar(g, "mortgaged", "baltic_avenue") is True
    assert payments(g) == [(120 - (30 + 3), "p1", "p0", "trading")]


def test_1933_trading_no_sale_of_land_with_houses_and_one_offer_a_turn():
    """1933, trading: houses must be torn down before the land is sold; and a property nobody
    took is not offered again in the same turn."""
    g = game(players=2, cash=2000, at=["go", "go"], throws=[(1, 1), (2, 3)], answers=[["done", "sell"], ["refuse"]])
    for s in GREEN:
        give(g, s, 0)
        set_houses(g, s, 1)
    give(g, "reading_railroad", 0)
    turn(g, 0)
    trade_offers = [names for prompt, names in g.agents[0].asked if prompt == TRADE_PROMPT_1933]
    assert trade_offers == [["sell", "done"]]  # the railroad only, and only once
    assert labels(g, 0)[-1] == ["Offer Reading Railroad for 400", "Done"]
    assert owner(g, "reading_railroad") == 0 and payments(g) == []
    assert_script_used_up(g)


def test_1933_short_of_cash_a_player_may_sell_property_to_another():
    """anspach-1933, BANKRUPTCY RULES: to raise cash a player may sell property to other players."""
    g = game(players=2, cash=[10, 1000], at=["chance_3", "go"], throws=[(1, 2)], answers=[["sell", "done"], ["buy"]])
    give(g, "park_place", 0)
    give(g, "boardwalk", 1)
    turn(g, 0)  # Boardwalk's $50 rent fell due before Park Place changed hands: no monopoly yet
    assert owner(g, "park_place") == 1
    assert payments(g) == [(700, "p1", "p0", "raising_cash"), (50, "p0", "p1", "land_rent")]
    assert g.seats == [0, 1]


def test_1933_trading_bots_sell_the_lot_a_rival_needs_and_the_rival_buys():
    """1933, trading with the heuristic bots: the value hints make an owner of one lot of a group
    offer it to the player who holds the rest, and that player buy it to complete the monopoly."""
    g = game(players=2, cash=500, at=["go", "go"], throws=[(1, 1), (2, 3)])
    g.agents[:] = [HeuristicAgent(), HeuristicAgent()]
    give(g, "baltic_avenue", 0)
    give(g, "arctic_avenue", 1)
    give(g, "reading_railroad", 0)
    turn(g, 0)
    assert owner(g, "baltic_avenue") == 1 and owner(g, "reading_railroad") == 0
    assert payments(g) == [(120, "p1", "p0", "trading")]


def test_1933_trading_a_get_out_of_jail_card_is_sold_at_the_fine():
    """anspach-1933, Landing on Jail: the Get out of Jail cards "can be traded between players at any
    price they can agree on"; here offered at the $50 fine it saves."""
    g = game(
        players=2, cash=500, at=["jail", "go"], throws=[(4, 6)], proxy_decks=True, answers=[["sell_card"], ["buy"]]
    )
    jail_card = g.prog.card_names.index("chance_jail_free")
    g.set_holder(jail_card, 0)
    turn(g, 0)  # just visiting, then ten to Free Parking
    assert g.holder[jail_card] == 1
    assert payments(g) == [(50, "p1", "p0", "trading")]
    assert labels(g, 0) == [["Offer You may come out of Jail free next time: keep this card for 50", "Done"]]
    assert_script_used_up(g)


def test_1933_short_of_cash_a_player_may_sell_his_get_out_of_jail_card():
    """anspach-1933, Landing on Jail and BANKRUPTCY RULES: a player short of cash may sell his card."""
    g = game(
        players=2,
        cash=[30, 500],
        at=["short_line", "go"],
        throws=[(1, 2)],
        proxy_decks=True,
        answers=[["sell_card"], ["buy"]],
    )
    jail_card = g.prog.card_names.index("chest_jail_free")
    g.set_holder(jail_card, 0)
    turn(g, 0)  # Luxury Tax, $75, with $30 in hand
    assert g.holder[jail_card] == 1
    assert payments(g) == [(50, "p1", "p0", "raising_cash"), (75, "p0", "bank", "luxury_tax_rule")]
    assert g.seats == [0, 1]


# =====================================================================
# Mortgages
# =====================================================================


def test_1933_mortgage_at_the_card_value_only_without_houses():
    """anspach-1933, MORTGAGES: borrow the mortgage value from the Bank, only after selling the houses."""
    g = game(cash=0, at=["go", "go"], throws=[(1, 1), (2, 3)], answers=[["mortgage", "done"], []])
    for s in LIGHT_BLUE:
        give(g, s, 0)
    set_houses(g, "park_place", 1)
    turn(g, 0)
    assert svar(g, "mortgaged", "boardwalk") is True and svar(g, "mortgaged", "park_place") is False
    assert payments(g) == [(200, "bank", "p0", "improving")]


def test_1933_mortgage_redeemed_at_value_plus_ten_percent():
    g = game(cash=500, at=["go", "go"], throws=[(1, 1), (2, 3)], answers=[["redeem", "done"], []])
    give(g, "boardwalk", 0)
    mortgage(g, "boardwalk")
    turn(g, 0)
    assert svar(g, "mortgaged", "boardwalk") is False
    assert payments(g) == [(220, "p0", "bank", "improving")]


# =====================================================================
# Bankruptcy and the end of the game
# =====================================================================


def test_1933_short_player_raises_cash_by_mortgaging_and_pays():
    """anspach-1933, BANKRUPTCY RULES: to raise cash a player mortgages his land after selling houses."""
    g = game(cash=[5, 0], at=["go", "go"], throws=[(1, 2)], answers=[["mortgage"], []])
    for s in GREEN:
        give(g, s, 1)
    give(g, "boardwalk", 0)
    turn(g, 0)
    assert payments(g) == [(200, "bank", "p0", "raising_cash"), (8, "p0", "p1", "land_rent")]
    assert 0 in g.seats and unpaid(g) == []


def test_1933_bankrupt_to_a_player_hands_over_cash_and_property_with_mortgages():
    """1933, BANKRUPTCY RULES: cash and remaining property (mortgages still in effect) go to the
    creditor player; the bankrupt leaves the game."""
    g = game(
        players=3,
        cash=[10, 0, 0],
        at=["chance_3", "go", "go"],
        throws=[(1, 2)],
        answers=[["tear_down", "mortgage", "sell", "sell", "sell_card"], [], []],
    )
    for s in LIGHT_BLUE:
        give(g, s, 1)
        set_houses(g, s, 5)
    for s in GREEN:
        give(g, s, 0)
    set_houses(g, "arctic_avenue", 1)
    mortgage(g, "baltic_avenue")
    g.set_holder(g.prog.card_names.index("chance_jail_free"), 0)
    turn(g, 0)
    # raised: a house torn down ($25), Arctic mortgaged ($30); both lots and the card offered,
    # nobody can pay for them; then bankrupt
    assert g.seats == [1, 2]
    assert owner(g, "arctic_avenue") == 1 and owner(g, "baltic_avenue") == 1
    assert svar(g, "mortgaged", "baltic_avenue") is True and svar(g, "mortgaged", "arctic_avenue") is True
    assert cards_of(g, 1)[-1] == "chance_jail_free"
    assert cash(g, 0) == 0 and cash(g, 1) == 65
    assert unpaid(g) == [(0, 2000 - 65, "land_rent")]
    assert not g.over


RAISE_PROMPT = "You owe"


def raise_offers(g, seat: int) -> list[list[str]]:
    """The option names of every raise-cash round `seat` was asked."""
    return [names for prompt, names in g.agents[seat].asked if prompt.startswith(RAISE_PROMPT)]


def test_1933_no_bankruptcy_while_cash_can_still_be_raised():
    """1933, BANKRUPTCY RULES: a player is bankrupt only when he cannot raise the cash. With $0
    and an unmortgaged Boardwalk, owing $4 rent, he is not offered 'done': he must raise it."""
    g = game(cash=[0, 0], at=["go", "go"], throws=[(1, 2)], answers=[["done"], []])
    give(g, "baltic_avenue", 1)
    give(g, "boardwalk", 0)
    with pytest.raises(ld.LandlordError, match="'done' is not an option"):
        turn(g, 0)
    assert raise_offers(g, 0) == [["sell", "mortgage"]]


def test_1933_a_scripted_player_must_raise_and_then_pays():
    g = game(cash=[0, 0], at=["go", "go"], throws=[(1, 2)], answers=[["mortgage"], []])
    give(g, "baltic_avenue", 1)
    give(g, "boardwalk", 0)
    turn(g, 0)
    assert payments(g) == [(200, "bank", "p0", "raising_cash"), (4, "p0", "p1", "land_rent")]
    assert g.seats == [0, 1] and unpaid(g) == []


def test_1933_houses_go_back_to_the_bank_before_the_land_passes_to_the_creditor():
    """1933, BANKRUPTCY RULES: land passes to another player only after its houses are sold back
    to the Bank; a bankrupt's lots reach the creditor without houses, their half price raised."""
    g = game(
        players=2,
        cash=[10, 0],
        at=["chance_3", "go"],
        throws=[(1, 2)],
        answers=[["tear_down", "tear_down", "mortgage", "mortgage", "sell"], []],
    )
    for s in LIGHT_BLUE:
        give(g, s, 1)
        set_houses(g, s, 5)
    for s in GREEN:
        give(g, s, 0)
        set_houses(g, s, 1)
    set_houses(g, "baltic_avenue", 2)
    turn(g, 0)
    assert g.seats == [1]
    assert owner(g, "arctic_avenue") == 1 and owner(g, "baltic_avenue") == 1
    assert houses(g, "arctic_avenue") == 0 and houses(g, "baltic_avenue") == 0
    assert [p for p in payments(g) if p[3] == "raising_cash"] == [(25, "bank", "p0", "raising_cash")] * 3 + [
        (30, "bank", "p0", "raising_cash")
    ] * 2
    # rounds with one option left are not asked: tear down Baltic first, sell the last lot last
    offers = raise_offers(g, 0)
    assert offers[0] == ["tear_down", "tear_down"] and offers[-1] == ["sell", "sell"]
    assert all("done" not in names for names in offers) and len(offers) == 5
    assert_script_used_up(g)


def test_1933_heuristic_bots_raise_everything_before_going_bankrupt():
    """anspach-1933, BANKRUPTCY RULES with the bots: a lot nobody needs is offered too before bankruptcy."""
    g = game(players=2, cash=[10, 0], at=["chance_3", "go"], throws=[(1, 2)])
    g.agents[:] = [HeuristicAgent(), HeuristicAgent()]
    for s in LIGHT_BLUE:
        give(g, s, 1)
        set_houses(g, s, 5)
    give(g, "reading_railroad", 0)
    mortgage(g, "reading_railroad")
    turn(g, 0)
    assert svar(g, "offered_on", "reading_railroad") == g.turn  # offered (nobody could buy) before going out
    assert g.seats == [1]


def test_1933_bankrupt_to_the_bank_titles_unmortgaged_and_auctioned():
    """1933, BANKRUPTCY RULES: owed to the Banker, all property goes to him; it becomes unmortgaged
    property which he auctions."""
    g = game(
        players=3,
        cash=[10, 500, 500],
        at=["short_line", "go", "go"],
        throws=[(1, 2)],
        answers=[["mortgage", "sell"], ["refuse", "refuse", 5, None], ["refuse", "refuse", None, 5]],
    )
    for s in GREEN:
        give(g, s, 0)
    mortgage(g, "baltic_avenue")
    turn(g, 0)
    assert g.seats == [1, 2]
    assert owner(g, "arctic_avenue") == 1 and owner(g, "baltic_avenue") == 2
    assert svar(g, "mortgaged", "arctic_avenue") is False and svar(g, "mortgaged", "baltic_avenue") is False
    pays = payments(g)
    assert pays[0] == (30, "bank", "p0", "raising_cash")
    assert (5, "p1", "bank", "bankruptcy") in pays and (5, "p2", "bank", "bankruptcy") in pays
    assert pays[-1] == (40, "p0", "bank", "luxury_tax_rule")
    assert unpaid(g) == [(0, 35, "luxury_tax_rule")]
    assert g.next_seat == 1 and not g.over  # the bankrupt takes no more turns


def test_1933_last_player_standing_wins():
    g = game(cash=[0, 100], at=["short_line", "go"], throws=[(1, 2)])
    turn(g, 0)
    assert g.over and g.end_reason.startswith("end condition")
    assert g.result().winners == (1,)


def test_1933_score_is_net_worth():
    g = game(cash=[100, 50], at=["go", "go"])
    for s in LIGHT_BLUE:
        give(g, s, 0)
    set_houses(g, "boardwalk", 2)
    mortgage(g, "park_place")
    assert g.scores() == (100 + 400 + 2 * 200 + 350 - (175 + 17), 50)


def test_1933_turn_limit_ends_the_game_and_ranks_by_net_worth():
    """Reconstruction: a safety bound of 1000 turns; the highest net worth wins there."""
    assert rules(EDITION).model.header.turn_limit == 1000
    g = ld.new_game(rules(EDITION), players=2, seed=1, turn_limit=6)
    result = g.play()
    assert result.end_reason == "turn limit (6)" and result.turns == 6
    best = max(result.scores)
    assert result.scores == g.scores() and result.winners == tuple(i for i, v in enumerate(result.scores) if v == best)


# =====================================================================
# Whole games
# =====================================================================


def _play(edition, seed, players=4):
    g = ld.new_game(program(edition), agents=[HeuristicAgent() for _ in range(players)], seed=seed)
    return g, g.play()


@pytest.mark.slow
def test_1933_a_thousand_bot_games_finish_conserve_money_and_replay():
    """1933: 1,000 four-player games of heuristic bots end (by bankruptcy or the cap), conserve
    money and every card, and (every tenth, checked) replay to the same event log from their seed
    and decisions."""
    reasons = {}
    for seed in range(1000):
        g, result = _play(EDITION, seed)
        assert g.invariant_problems() == [], seed  # money conserved, no card lost, holdings consistent
        key = result.end_reason.split(" (")[0]
        reasons[key] = reasons.get(key, 0) + 1
        if key == "end condition":
            assert len(g.seats) == 1
        else:
            assert key == "turn limit" and result.turns == 1000
        if seed % 10 == 0:
            replay = ld.new_game(program(EDITION), agents=ld.agents.SharedScript(g.decisions).seats(4), seed=seed)
            replay.play()
            assert replay.log_lines() == g.log_lines(), seed
    # with property changing hands, land monopolies form and bankruptcies end the games
    assert set(reasons) <= {"end condition", "turn limit"} and reasons["end condition"] >= 950, reasons


@pytest.mark.parametrize("edition", VARIANTS)
def test_1933_variants_load_and_simulate(edition):
    assert rules(edition).model.header.name == edition
    for seed in range(10):
        g, result = _play(edition, seed)
        assert g.conserved() and result.turns <= 1000


# =====================================================================
# Variant: JAIL INSURANCE
# =====================================================================


def test_1933_jail_insurance_25_before_throwing_saves_from_the_corner():
    g = game(JAIL_INSURANCE, cash=100, at=["b_and_o_railroad", "go"], throws=[(2, 3)], answers=[["corner", "done"], []])
    turn(g, 0)
    assert payments(g) == [(25, "p0", "bank", "jail_insurance")]
    assert where(g, 0) == "go_to_jail" and pvar(g, "in_jail", 0) is False


def test_1933_jail_insurance_covers_one_turn_only():
    """anspach-1933, JAIL INSURANCE: a piece that falls short of the corner must be insured again."""
    g = game(
        JAIL_INSURANCE,
        cash=100,
        at=["atlantic_avenue", "go"],
        throws=[(1, 2), (1, 2)],
        answers=[["corner", "done", "done"], []],
    )
    give(g, "marvin_gardens", 1)
    turn(g, 0)  # insured, but falls short on Marvin Gardens
    assert where(g, 0) == "marvin_gardens" and pvar(g, "insured_corner", 0) is True
    put(g, 0, "ventnor_avenue")
    turn(g, 0)  # declines to insure again: the corner sends him to Jail
    assert pvar(g, "insured_corner", 0) is False and pvar(g, "in_jail", 0) is True
    assert [p for p in payments(g) if p[3] == "jail_insurance"] == [(25, "p0", "bank", "jail_insurance")]


def test_1933_jail_insurance_chance_policy_does_not_cover_the_corner():
    g = game(
        JAIL_INSURANCE, cash=100, at=["free_parking", "go"], throws=[(4, 6)], answers=[["chance_policy", "done"], []]
    )
    turn(g, 0)
    assert payments(g) == [(5, "p0", "bank", "jail_insurance")]
    assert where(g, 0) == "jail" and pvar(g, "in_jail", 0) is True


def test_1933_jail_insurance_not_for_monopoly_owners():
    g = game(JAIL_INSURANCE, cash=100, at=["b_and_o_railroad", "go"], throws=[(2, 3)], answers=[["done"], []])
    for s in GREEN:
        give(g, s, 0)
    turn(g, 0)
    assert all("corner" not in names for names in offered(g, 0))
    assert pvar(g, "in_jail", 0) is True


def test_1933_jail_insurance_only_when_approaching_the_corner():
    """Reconstruction: 'approaching' = the corner (or a Chance space) is 2 to 12 spaces ahead."""
    g = game(JAIL_INSURANCE, cash=100, at=["vermont_avenue", "go"], throws=[(1, 2)])
    give(g, "st_charles_place", 1)
    turn(g, 0)  # Go to Jail 22 spaces ahead, the next Chance 14: nothing offered
    assert offered(g, 0) == []
    g2 = game(JAIL_INSURANCE, cash=100, at=["free_parking", "go"], throws=[(1, 2)], answers=[["done"], []])
    give(g2, "indiana_avenue", 1)
    turn(g2, 0)
    assert offered(g2, 0) == [["corner", "chance_policy", "done"]]


def test_1933_jail_insurance_5_against_a_chance_go_to_jail_card():
    g = game(
        JAIL_INSURANCE,
        cash=100,
        at=["community_chest_3", "go"],
        throws=[(1, 2)],
        proxy_decks=True,
        answers=[["chance_policy"], []],
    )
    on_top(g, "chance_cards", "chance_go_to_jail")
    turn(g, 0)
    assert payments(g) == [(5, "p0", "bank", "jail_insurance")]
    assert where(g, 0) == "chance_3" and pvar(g, "in_jail", 0) is False


# =====================================================================
# Variant: PAUPERS
# =====================================================================


def test_1933_paupers_card_and_tax_payments_cancelled():
    g = game(PAUPERS, cash=50, at=["short_line", "go"], throws=[(1, 2)])
    give(g, "boardwalk", 0)
    mortgage(g, "boardwalk")
    turn(g, 0)
    assert where(g, 0) == "luxury_tax" and payments(g) == [] and cash(g, 0) == 50


def test_1933_paupers_not_a_pauper_with_an_unmortgaged_lot():
    g = game(PAUPERS, cash=80, at=["short_line", "go"], throws=[(1, 2)], answers=[["done"], []])
    give(g, "baltic_avenue", 0)
    turn(g, 0)
    assert payments(g) == [(75, "p0", "bank", "luxury_tax_rule")]


def test_1933_paupers_a_player_without_property_and_under_100_pays_no_card_charge():
    g = game(PAUPERS, cash=[99, 0], at=["jail", "go"], throws=[(3, 4)], proxy_decks=True)
    on_top(g, "chest_cards", "chest_hospital")
    turn(g, 0)
    assert payments(g) == [] and cash(g, 0) == 99
    # in the standard game the same draw bankrupts him
    g2 = game(cash=[99, 0], at=["jail", "go"], throws=[(3, 4)], proxy_decks=True)
    on_top(g2, "chest_cards", "chest_hospital")
    turn(g2, 0)
    assert g2.seats == [1]


def test_1933_paupers_a_debt_to_the_bank_never_puts_a_player_out():
    g = game(PAUPERS, cash=[120, 0], at=["go", "go"], throws=[(3, 4)], proxy_decks=True)
    on_top(g, "chance_cards", "chance_school_tax")
    turn(g, 0)
    assert 0 in g.seats and not g.over
    assert payments(g) == [(120, "p0", "bank", "chance_and_chest")]
    assert unpaid(g) == [(0, 30, "chance_and_chest")]


def test_1933_paupers_a_debt_to_a_player_still_bankrupts():
    g = game(PAUPERS, cash=[10, 0], at=["chance_3", "go"], throws=[(1, 2)])
    give(g, "boardwalk", 1)
    turn(g, 0)
    assert g.seats == [1] and g.over


# =====================================================================
# Variant: HOUSING SHORTAGE
# =====================================================================


def _fill(g, lots_and_levels, seat=1):
    for name, level in lots_and_levels:
        give(g, name, seat)
        set_houses(g, name, level)


OTHER_LOTS = [
    "oriental_avenue",
    "vermont_avenue",
    "connecticut_avenue",
    "st_charles_place",
    "states_avenue",
    "virginia_avenue",
    "st_james_place",
    "tennessee_avenue",
    "new_york_avenue",
    "kentucky_avenue",
    "indiana_avenue",
    "illinois_avenue",
    "atlantic_avenue",
    "ventnor_avenue",
    "marvin_gardens",
    "pacific_avenue",
    "north_carolina_avenue",
    "pennsylvania_avenue",
    "arctic_avenue",
    "baltic_avenue",
]


def test_1933_housing_shortage_no_house_when_the_bank_has_none():
    g = game(HOUSING_SHORTAGE, cash=1000, at=["go", "go"], throws=[(1, 1), (2, 3)], answers=[["done"], []])
    _fill(g, [(s, 4) for s in OTHER_LOTS[:8]])  # 32 houses in use
    for s in LIGHT_BLUE:
        give(g, s, 0)
    turn(g, 0)
    assert all("build" not in names for names in offered(g, 0))
    # the standard game is not short of houses
    g2 = game(cash=1000, at=["go", "go"], throws=[(1, 1), (2, 3)], answers=[["build", "done"], []])
    _fill(g2, [(s, 4) for s in OTHER_LOTS[:8]])
    for s in LIGHT_BLUE:
        give(g2, s, 0)
    turn(g2, 0)
    assert houses(g2, "park_place") == 1


def test_1933_housing_shortage_hotel_returns_four_houses():
    g = game(
        HOUSING_SHORTAGE, cash=1000, at=["go", "go"], throws=[(1, 1), (2, 3)], answers=[["build", "build", "done"], []]
    )
    _fill(g, [(s, 4) for s in OTHER_LOTS[:6]])  # 24 + 8 = 32 houses in use, hotels left
    for s in LIGHT_BLUE:
        give(g, s, 0)
        set_houses(g, s, 4)
    for s in GREEN:
        give(g, s, 0)
    turn(g, 0)
    # no house for Arctic Avenue at first; Park Place takes a hotel and its four houses go back,
    # so the next house goes to Arctic Avenue
    assert houses(g, "park_place") == 5 and houses(g, "arctic_avenue") == 1


def test_1933_housing_shortage_five_houses_stand_in_for_a_hotel():
    g = game(HOUSING_SHORTAGE, cash=1000, at=["go", "go"], throws=[(1, 1), (2, 3)], answers=[["build", "done"], []])
    _fill(g, [(s, 5) for s in OTHER_LOTS[:12]])  # every hotel in use
    _fill(g, [(s, 4) for s in OTHER_LOTS[12:17]] + [(OTHER_LOTS[17], 3)])  # 23 houses
    for s in LIGHT_BLUE:
        give(g, s, 0)
        set_houses(g, s, 4)  # 31 houses in use, one left
    turn(g, 0)
    assert houses(g, "park_place") == 5  # five houses, rented as a hotel
    assert offered(g, 0)[-1].count("build") == 0  # no house left for Boardwalk
    g.chance.throws = [(1, 3)]
    g.agents[1].answers = ["done"]
    g.bal[g.nacc + 1] = 2000
    put(g, 1, "community_chest_3")  # seat 1 lands on Park Place: hotel rent
    turn(g, 1)
    assert payments(g)[-1] == (1500, "p1", "p0", "land_rent")


def test_1933_housing_shortage_hotel_torn_down_only_with_four_houses_in_the_bank():
    g = game(HOUSING_SHORTAGE, cash=0, at=["go", "go"], throws=[(1, 1), (2, 3)])
    _fill(g, [(s, 4) for s in OTHER_LOTS[:7]])  # 28 + 4 = 32 houses in use
    for s in LIGHT_BLUE:
        give(g, s, 0)
    set_houses(g, "park_place", 4)
    set_houses(g, "boardwalk", 5)
    turn(g, 0)
    assert offered(g, 0) == []  # the hotel cannot come down to four houses: the Bank has none
    g2 = game(
        HOUSING_SHORTAGE, cash=1000, at=["go", "go"], throws=[(1, 1), (2, 3)], answers=[["tear_down", "done"], []]
    )
    _fill(g2, [(s, 4) for s in OTHER_LOTS[:7]])
    for s in LIGHT_BLUE:
        give(g2, s, 0)
        set_houses(g2, s, 5)  # hotels; the Bank holds 4 houses
    turn(g2, 0)
    assert houses(g2, "park_place") == 4
    assert payments(g2) == [(100, "bank", "p0", "improving")]


# =====================================================================
# Variant: FREE RIDES
# =====================================================================


def test_1933_free_rides_the_seller_takes_less_cash_and_stops_free_three_times():
    """anspach-1933, FREE RIDES: a seller may take free rides (stops without rent) for less cash."""
    g = game(
        FREE_RIDES,
        players=2,
        cash=500,
        at=["go", "go"],
        throws=[(1, 1), (2, 3)],
        answers=[["done", "sell", "with_rides"], ["buy"]],
    )
    give(g, "baltic_avenue", 0)
    turn(g, 0)
    assert owner(g, "baltic_avenue") == 1
    assert payments(g) == [(120 - 24, "p1", "p0", "trading")]
    assert svar(g, "free_rides_left", "baltic_avenue") == 3
    for ride in range(3):
        put(g, 0, "go")
        g.chance.throws = [(1, 2)]
        mark = len(g.log)
        turn(g, 0)  # onto Baltic Avenue, free
        assert payments(g, mark) == []
        assert svar(g, "free_rides_left", "baltic_avenue") == 2 - ride
    put(g, 0, "go")
    g.chance.throws = [(1, 2)]
    mark = len(g.log)
    turn(g, 0)
    assert payments(g, mark) == [(4, "p0", "p1", "land_rent")]  # the rides are used up
    assert_script_used_up(g)


def test_1933_free_rides_lapse_when_the_property_is_sold_again():
    """anspach-1933, FREE RIDES (reconstruction): rides belong to the sale they were part of."""
    g = game(
        FREE_RIDES,
        players=3,
        cash=500,
        at=["go", "go", "go"],
        throws=[(1, 1), (2, 3)],
        answers=[["done", "sell", "cash"], ["buy"], []],
    )
    give(g, "baltic_avenue", 0)
    set_svar(g, "free_rider", "baltic_avenue", 2)
    set_svar(g, "free_rides_left", "baltic_avenue", 2)
    turn(g, 0)
    assert owner(g, "baltic_avenue") == 1 and payments(g) == [(120, "p1", "p0", "trading")]
    assert svar(g, "free_rider", "baltic_avenue") is None and svar(g, "free_rides_left", "baltic_avenue") == 0
