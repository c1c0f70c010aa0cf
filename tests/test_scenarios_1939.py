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
    rolls,
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
PASSES = ("Move back to the Frontier instead of throwing?", "Offer a card to the other players?",
          "Put up a House ($200 each, rent $100 each)?")


def game(players: int = 3, answers=None, throws=(), cash=2500, at=None, start=True, shuffles=None,
         passes=(), **options):
    """A 1939 game; with start=True the setup is skipped and the Bank holds BANK."""
    g = make_game(players=players, answers=answers, throws=throws, cash=cash, at=at, start=start,
                  edition=EDITION, shuffles=shuffles, passes=PASSES + tuple(passes), **options)
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
    assert account(g, "bank") == 20000 and account(g, "government") == 0 and account(g, "lord_blueblood") == 0
    assert g.conserved() and not g.invariant_problems()


def test_1939_is_for_three_to_five_players():
    """magie-1939, title: a game for from three to five players."""
    assert ld.compile_rules(ld.load_edition(EDITION)).players == (3, 5)


# ------------------------------------------------ sections and wage checks
def test_1939_four_sections_are_the_four_sides():
    """magie-1939, Rules 1 and 5: four sections (A to D) of the board, each with its own wage check."""
    prog = ld.compile_rules(ld.load_edition(EDITION))
    groups = ld.load_edition(EDITION).model.groups
    for letter, first in zip("abcd", (1, 11, 21, 31)):
        assert sorted(groups[f"section_{letter}"]) == list(range(first, first + 9))
    assert [prog.space_names[i] for i in sorted(groups["corners"])] == ["go", "lickety_cut_rr", "gee_whiz_rr", "pdq_rr"]


@pytest.mark.parametrize("scale, lot, wage", [("flat", "easy_street", 300), ("graded", "easy_street", 750),
                                              ("graded", "poverty_place", 450), ("graded", "wayback", 300)])
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
    g = game(at=["go", "go", "go"], answers=[["stay", "stay"], [], []], so_what_placeholders=False,
             passes=["Speculate in Idle Land (buy at $200, or sell at the printed value)?"])
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
    g = game(at=["the_bowery", "go", "go"], throws=[(1, 1)],
             answers=[["build", "build", "build", "done"], [], []])
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
