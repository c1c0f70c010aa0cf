"""Scenario tests for The Landlord's Game as patented in 1904 (US 748,626): one or more per clause.

Rule text: magie-1904 (the patent has no numbered rules; clauses are cited by
their paragraph heading, e.g. "magie-1904, Rent"). Board positions, prices and rents:
magie-1904 (lot n at its position, price $10n, rent $n). Encodings under test:
editions/landlords-game-1904.lg and editions/variants/landlords-game-1904-without-lot-tickets.lg.

Each scenario sets the state by hand (cash, positions, titles, player variables), fixes the dice
with ScriptedChance and the answers with ScriptedAgent, plays one or more turns and checks exact
amounts, payees and positions. Tests marked xfail(strict=True) record a disagreement between the
encoding/engine and the patent; their reason names the clause and the fault. Where a test pins
down one of the encoding's own reconstructions (marked `reconstruction` in the .lg), its docstring
says so.
"""

from __future__ import annotations

import pytest

import landlord_dsl as ld
from scenario_helpers import (
    account,
    assert_script_used_up,
    cards_of,
    cash,
    decisions,
    deck,
    give,
    make_game,
    moves,
    offered,
    owner,
    payments,
    program,
    put,
    pvar,
    rolls,
    set_pvar,
    turn,
    unpaid,
    where,
)

EDITION = "landlords-game-1904"
VARIANT = "landlords-game-1904-without-lot-tickets"
LOTS = [f"lot_{n}" for n in range(1, 23)]
WAGES = (100, "wages_box", "p0", "mother_earth_wages")


def game(**kw):
    """A hand-set scenario game of the 1904 patent edition (setup skipped unless start=False)."""
    kw.setdefault("edition", EDITION)
    return make_game(**kw)


def variant(**kw):
    """A scenario game of the variant played without the lot tickets."""
    kw.setdefault("edition", VARIANT)
    return make_game(**kw)


def _dealt(g):
    """(card name, seat) of every lot ticket dealt at setup, in order."""
    names = g.prog.card_names
    return [(names[e[2]], e[4]) for e in g.log if e[0] == "card" and e[3] is None and e[4] is not None]


def _jailed(**kw):
    """Seat 0 in jail: on the coal square with in_jail set."""
    g = game(**kw)
    put(g, 0, "coal")
    set_pvar(g, "in_jail", 0, True)
    return g


# =====================================================================
# How the game is played - $500 each, 12 of the 22 lot tickets drawn
# =====================================================================


def test_1904_how_played_start_500_and_12_of_22_lot_tickets_drawn_in_turn():
    """1904, how the game is played: 'Each player is provided with five hundred dollars. The lot
    tickets, twenty-two (22) in number, are placed face downward upon the board, and each player
    draws one until twelve have been taken.' - four players draw three each, round the table;
    declining every ticket costs nothing ('If he does not purchase, he does not have to pay rent')
    and puts it back."""
    g = game(players=4, start=False, answers=[["decline"] * 3 for _ in range(4)])
    assert len(deck(g, "lot_ticket_box")) == 22
    g.setup()
    assert [cash(g, s) for s in range(4)] == [500] * 4
    assert payments(g) == [(500, "bank", f"p{s}", "lot_ticket_deal") for s in range(4)]
    assert any(e[0] == "shuffle" and e[2] == "lot_ticket_box" for e in g.log)
    dealt = _dealt(g)
    assert [seat for _, seat in dealt] == [0, 1, 2, 3] * 3
    assert [name for name, _ in dealt] == LOTS[:12]  # ScriptedChance keeps the declared order
    assert [sum(1 for d in decisions(g) if d[0] == s) for s in range(4)] == [3, 3, 3, 3]
    assert account(g, "treasury") == 0
    assert sorted(deck(g, "lot_ticket_box")) == sorted(LOTS)
    assert all(cards_of(g, s) == [] for s in range(4))
    assert [where(g, s) for s in range(4)] == ["mother_earth"] * 4
    assert_script_used_up(g)


def test_1904_how_played_drawn_lots_bought_price_to_public_treasury_rest_returned():
    """1904, how the game is played: each player 'may purchase the lot corresponding to his ticket',
    paying (1904, lot-spaces) 'into the Public treasury the price of it'; an unbought ticket is
    put 'back into the wages-box again'. Two players: seat 0 draws lots 1,3,..,11, seat 1 lots
    2,4,..,12; seat 0 buys lots 1 and 5, seat 1 lots 8 and 12."""
    g = game(
        players=2,
        start=False,
        answers=[
            ["buy", "decline", "buy", "decline", "decline", "decline"],
            ["decline", "decline", "decline", "buy", "decline", "buy"],
        ],
    )
    g.setup()
    assert [name for name, _ in _dealt(g)] == LOTS[:12]
    assert [p for p in payments(g) if p[2] == "treasury"] == [
        (10, "p0", "treasury", "lot_ticket_deal"),
        (50, "p0", "treasury", "lot_ticket_deal"),
        (80, "p1", "treasury", "lot_ticket_deal"),
        (120, "p1", "treasury", "lot_ticket_deal"),
    ]
    assert (cash(g, 0), cash(g, 1)) == (440, 300)
    assert account(g, "treasury") == 260
    assert cards_of(g, 0) == ["lot_1", "lot_5"] and cards_of(g, 1) == ["lot_8", "lot_12"]
    assert (owner(g, "lot_1"), owner(g, "lot_5"), owner(g, "lot_8"), owner(g, "lot_12")) == (0, 0, 1, 1)
    assert owner(g, "lot_3") is None and owner(g, "lot_2") is None
    assert sorted(deck(g, "lot_ticket_box")) == sorted(set(LOTS) - {"lot_1", "lot_5", "lot_8", "lot_12"})
    assert_script_used_up(g)


def test_1904_how_played_ticket_he_cannot_afford_is_not_offered_for_sale():
    """1904, how the game is played: he may purchase 'if he can afford to or so chooses'. Seat 0
    of four draws lots 22, 21 and 20 (shuffled to the top); he is offered them in board order, buys
    20 ($200) and 21 ($210), has $90 left and is not offered lot 22 ($220), which goes back into
    the box."""
    order = [21, 0, 1, 2, 20, 3, 4, 5, 19] + list(range(6, 19))
    g = game(players=4, start=False, shuffles=[order], answers=[["buy", "buy"]] + [["decline"] * 3 for _ in range(3)])
    g.setup()
    assert [name for name, seat in _dealt(g) if seat == 0] == ["lot_22", "lot_21", "lot_20"]
    assert offered(g, 0) == [["buy", "decline"], ["buy", "decline"]]
    assert [p for p in payments(g) if p[2] == "treasury"] == [
        (200, "p0", "treasury", "lot_ticket_deal"),
        (210, "p0", "treasury", "lot_ticket_deal"),
    ]
    assert cash(g, 0) == 90
    assert cards_of(g, 0) == ["lot_20", "lot_21"]
    assert owner(g, "lot_22") is None and "lot_22" in deck(g, "lot_ticket_box")
    assert account(g, "treasury") == 410
    assert_script_used_up(g)


# =====================================================================
# Lot-spaces - for sale at the higher figure, for rent at the lower
# =====================================================================

LOT_LANDINGS = [
    ("mother_earth", (1, 2), "lot_2", 20, 2),
    ("mother_earth", (2, 4), "lot_3", 30, 3),
    ("public_park", (1, 3), "lot_14", 140, 14),
    ("lot_21", (1, 1), "lot_22", 220, 22),
]


@pytest.mark.parametrize("start,throw,lot,price,rent", LOT_LANDINGS)
def test_1904_lot_spaces_bought_at_the_higher_figure_price_to_treasury(start, throw, lot, price, rent):
    """1904, lot-spaces: the lots 'are for sale at the highest figure marked upon them ... If a
    player chooses to buy a lot, he must pay into the "Public treasury" the price of it and place
    his deed upon it' (lot n costs $10n)."""
    g = game(cash=[300, 0], at=[start, "mother_earth"], throws=[throw], answers=[["buy"], []])
    turn(g, 0)
    assert where(g, 0) == lot
    assert offered(g, 0) == [["buy", "rent"]]
    assert payments(g) == [(price, "p0", "treasury", "lots")]
    assert owner(g, lot) == 0 and lot in cards_of(g, 0) and lot not in deck(g, "lot_ticket_box")
    assert cash(g, 0) == 300 - price
    assert_script_used_up(g)


@pytest.mark.parametrize("start,throw,lot,price,rent", LOT_LANDINGS)
def test_1904_lot_spaces_rented_at_the_lower_figure_rent_to_treasury(start, throw, lot, price, rent):
    """1904, lot-spaces: '... or for rent at the lowest figure marked upon them ... If he chooses to
    rent it, he must pay the rent to the "Public treasury"' (lot n rents for $n); it stays unsold."""
    g = game(cash=[300, 0], at=[start, "mother_earth"], throws=[throw], answers=[["rent"], []])
    turn(g, 0)
    assert where(g, 0) == lot
    assert payments(g) == [(rent, "p0", "treasury", "lots")]
    assert owner(g, lot) is None and lot in deck(g, "lot_ticket_box")
    assert cash(g, 0) == 300 - rent


def test_1904_lot_spaces_the_question_names_the_lot():
    """magie-1904, lot-spaces: the player stopping on Lot 3 is asked whether to buy or rent Lot 3."""
    g = game(cash=[100, 0], throws=[(2, 4)], answers=[["rent"], []])
    turn(g, 0)
    assert g.agents[0].asked == [("Lot 3 is for sale at 30 or for rent at 3.", ["buy", "rent"])]


def test_1904_lot_spaces_player_who_cannot_pay_the_price_rents():
    """1904, lot-spaces: with $25 a player cannot buy Lot 3 ($30); he is not asked and rents it
    for $3."""
    g = game(cash=[25, 0], throws=[(2, 4)])
    turn(g, 0)
    assert offered(g, 0) == []
    assert payments(g) == [(3, "p0", "treasury", "lots")]
    assert cash(g, 0) == 22 and owner(g, "lot_3") is None


# =====================================================================
# Rent - to the owner; none on his own lot; two players on one lot
# =====================================================================


def test_1904_rent_paid_to_the_owner():
    """1904, Rent: 'When a player stops upon a lot owned by any of the players, he must pay the
    rent to the owner' (Lot 3: $3)."""
    g = game(cash=[50, 0], throws=[(2, 4)])
    give(g, "lot_3", 1)
    turn(g, 0)
    assert where(g, 0) == "lot_3"
    assert payments(g) == [(3, "p0", "p1", "lots")]
    assert (cash(g, 0), cash(g, 1)) == (47, 3)
    assert offered(g, 0) == []


def test_1904_rent_nothing_on_his_own_lot():
    """magie-1904, Rent: 'If he stops upon one of his own lots, of course he pays nothing.'"""
    g = game(cash=[50, 0], throws=[(2, 4)])
    give(g, "lot_3", 0)
    turn(g, 0)
    assert where(g, 0) == "lot_3"
    assert payments(g) == [] and offered(g, 0) == []


@pytest.mark.parametrize(
    "start,throw,lot,to_first,to_owner",
    [
        ("mother_earth", (2, 4), "lot_3", 2, 1),  # rent 3: the odd dollar to the first
        ("mother_earth", (3, 4), "lot_4", 2, 2),  # rent 4
        ("lot_19", (1, 2), "lot_21", 11, 10),  # rent 21
    ],
)
def test_1904_rent_second_player_pays_the_larger_half_to_the_first(start, throw, lot, to_first, to_owner):
    """1904, Rent: 'If two players stop upon the same lot, the second must pay to the first one-half
    of the rent, (in case of an odd number giving to the first the benefit of the fraction.)'
    Reconstruction (the .lg): the second pays the full rent, the larger half to the first occupant
    (seat 1) and the rest to the owner (seat 2)."""
    g = game(players=3, cash=[50, 0, 0], at=[start, lot, "mother_earth"], throws=[throw])
    give(g, lot, 2)
    turn(g, 0)
    assert where(g, 0) == where(g, 1) == lot
    assert payments(g) == [(to_first, "p0", "p1", "lots"), (to_owner, "p0", "p2", "lots")]
    assert cash(g, 0) == 50 - to_first - to_owner


def test_1904_rent_second_player_renting_an_unsold_lot_shares_with_the_treasury():
    """1904, Rent and lot-spaces: the second player on an unsold Lot 3 who rents it pays $2 to the
    first occupant and the other $1 to the Public treasury (reconstruction, as above)."""
    g = game(cash=[50, 0], at=["mother_earth", "lot_3"], throws=[(2, 4)], answers=[["rent"], []])
    turn(g, 0)
    assert payments(g) == [(2, "p0", "p1", "lots"), (1, "p0", "treasury", "lots")]


@pytest.mark.parametrize("lot_owner", [2, None])
def test_1904_rent_lot_1_the_first_occupant_gets_the_whole_rent(lot_owner):
    """1904, Rent: 'In case of lot 1 the player gets the whole rent' - the $1 rent cannot be halved:
    the first occupant (seat 1) takes it all, nothing to the owner or the treasury. The mover comes
    from Lot 22 round Mother Earth, so he draws his wages first."""
    answers = [["rent"], [], []] if lot_owner is None else [[], [], []]
    g = game(players=3, cash=[0, 0, 0], at=["lot_22", "lot_1", "mother_earth"], throws=[(1, 2)], answers=answers)
    if lot_owner is not None:
        give(g, "lot_1", lot_owner)
    turn(g, 0)
    assert where(g, 0) == "lot_1"
    assert payments(g) == [WAGES, (1, "p0", "p1", "lots")]
    assert_script_used_up(g)


def test_1904_rent_first_occupant_who_owns_the_lot_takes_the_whole_rent():
    """1904, Rent: when the player already on the lot is its owner, the second pays him the whole
    rent (to the owner and to the first at once)."""
    g = game(cash=[50, 0], at=["mother_earth", "lot_3"], throws=[(2, 4)])
    give(g, "lot_3", 1)
    turn(g, 0)
    assert payments(g) == [(3, "p0", "p1", "lots")]


def test_1904_rent_third_player_cannot_occupy_the_lot_and_counts_one_less():
    """1904, Rent: 'If a third player's throw brings him on the same lot, he cannot occupy it, but
    must remain upon the space next to it, counting his throw one less.' Seats 1 and 2 are on Lot 3;
    seat 0's 6 from Mother Earth stops on the R.R. (5) and pays its fare."""
    g = game(players=3, cash=[50, 0, 0], at=["mother_earth", "lot_3", "lot_3"], throws=[(2, 4)])
    give(g, "lot_3", 1)
    turn(g, 0)
    assert where(g, 0) == "rr_1"
    assert moves(g) == [(0, "mother_earth", "rr_1", "move")]
    assert payments(g) == [(5, "p0", "railroad_box", "railroads_rule")]


def test_1904_rent_third_player_moving_backward_stops_one_short_too():
    """1904, Rent and Five times around: a player moving backward whose count would bring him as third
    onto Lot 3 stops on the space next to it, one count short: Lot 4 (his own)."""
    g = game(
        players=3, cash=[50, 0, 0], at=["lot_5", "lot_3", "lot_3"], throws=[(1, 2)], answers=[["backward"], [], []]
    )
    set_pvar(g, "circuits", 0, 5)
    give(g, "lot_4", 0)
    turn(g, 0)
    assert moves(g) == [(0, "lot_5", "lot_4", "move")]
    assert payments(g) == []


# =====================================================================
# Absolute necessities
# =====================================================================


@pytest.mark.parametrize(
    "start,throw,dest",
    [
        ("mother_earth", (1, 1), "bread"),
        ("lot_4", (1, 2), "coal"),
        ("lot_8", (1, 2), "shelter"),
        ("lot_17", (1, 2), "clothing"),
    ],
)
def test_1904_necessities_5_dollars_to_the_public_treasury(start, throw, dest):
    """1904, Absolute necessities: 'bread, coal, shelter, and clothing -- ... when a player stops
    upon any of these he must pay five dollars into the "Public treasury."' A free player stopping
    on the coal square (jail corner) pays the tax and is not jailed."""
    g = game(cash=[50, 0], at=[start, "mother_earth"], throws=[throw])
    turn(g, 0)
    assert where(g, 0) == dest
    assert payments(g) == [(5, "p0", "treasury", "taxes")]
    assert account(g, "treasury") == 5 and cash(g, 0) == 45
    assert not pvar(g, "in_jail", 0)


# =====================================================================
# No trespassing - jail until a double or the $50 fine
# =====================================================================


@pytest.mark.parametrize(
    "start,throw,trespass",
    [
        ("mother_earth", (1, 3), "no_trespassing"),
        ("rr_3", (2, 3), "lord_blueblood"),
    ],
)
def test_1904_no_trespassing_stop_sends_him_to_jail_behind_the_coal_square(start, throw, trespass):
    """1904, No trespassing: 'when a player stops on one of these spaces he must go to jail' - his
    checker goes to the coal square (the jail is drawn behind it); no coal tax, no wages."""
    g = game(cash=[50, 0], at=[start, "mother_earth"], throws=[throw])
    turn(g, 0)
    assert where(g, 0) == "coal" and pvar(g, "in_jail", 0) is True
    assert moves(g) == [(0, start, trespass, "move"), (0, trespass, "coal", "send")]
    assert payments(g) == []


def test_1904_no_trespassing_prisoner_is_offered_the_fine_on_his_next_turn():
    """1904, No trespassing: jailed during his move, he first chooses between the fine and a throw
    for a double at his next turn."""
    g = game(cash=[100, 0], throws=[(1, 3), (1, 2)], answers=[["wait"], []])
    turn(g, 0)
    assert offered(g, 0) == [] and len(rolls(g)) == 1
    turn(g, 0)
    assert offered(g, 0) == [["pay_fine", "wait"]]
    assert where(g, 0) == "coal" and pvar(g, "in_jail", 0)


def test_1904_no_trespassing_remains_in_jail_any_number_of_turns():
    """1904, No trespassing: he must 'remain there until he throws a double or until he pays' - no
    limit on the turns (unlike the 1906 rules): six failed throws, still in jail, nothing paid."""
    g = _jailed(cash=[100, 0], throws=[(1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (1, 6)], answers=[["wait"] * 6, []])
    for _ in range(6):
        turn(g, 0)
        assert where(g, 0) == "coal" and pvar(g, "in_jail", 0) is True
    assert offered(g, 0) == [["pay_fine", "wait"]] * 6
    assert payments(g) == [] and moves(g) == []
    assert cash(g, 0) == 100
    assert_script_used_up(g)


def test_1904_no_trespassing_double_frees_him_counting_from_the_coal_square():
    """1904, No trespassing: '... until he throws a double ... When he comes out, he must count from
    the space immediately in front of the jail' - the coal square (10): a double 4 reaches Lot 8
    (14), whose rent he pays; no fine."""
    g = _jailed(cash=[100, 0], throws=[(2, 2)], answers=[["wait"], []])
    give(g, "lot_8", 1)
    turn(g, 0)
    assert moves(g) == [(0, "coal", "lot_8", "move")]
    assert payments(g) == [(8, "p0", "p1", "lots")]
    assert not pvar(g, "in_jail", 0)


def test_1904_no_trespassing_a_double_that_frees_him_gives_the_railroad_pass():
    """magie-1904, Railroad: 'If a player throws a double, he "Gets a pass"' - a double thrown to leave jail
    is such a throw: from the coal square a double 6 counts 5 to the second R.R., jumps to the third
    and stops there (the jump counts one), paying its $5 fare."""
    g = _jailed(cash=[100, 0], throws=[(3, 3)], answers=[["wait", "pass"], []])
    turn(g, 0)
    assert offered(g, 0) == [["pay_fine", "wait"], ["forward", "pass"]]
    assert moves(g) == [(0, "coal", "rr_3", "move")]
    assert payments(g) == [(5, "p0", "railroad_box", "railroads_rule")]
    assert_script_used_up(g)


def test_1904_no_trespassing_fine_of_50_to_the_public_treasury():
    """magie-1904, No trespassing: '... or until he pays into the "Public treasury" a fine of fifty
    dollars' - then he throws and counts 7 from the coal square: Shelter ($5 tax)."""
    g = _jailed(cash=[100, 0], throws=[(3, 4)], answers=[["pay_fine"], []])
    turn(g, 0)
    assert payments(g) == [(50, "p0", "treasury", "jail_rule"), (5, "p0", "treasury", "taxes")]
    assert moves(g) == [(0, "coal", "shelter", "move")]
    assert not pvar(g, "in_jail", 0) and cash(g, 0) == 45


def test_1904_no_trespassing_prisoner_without_50_dollars_must_throw():
    """magie-1904, No trespassing: with $40 the fine is not offered; a failed throw keeps him in jail."""
    g = _jailed(cash=[40, 0], throws=[(1, 2)])
    turn(g, 0)
    assert offered(g, 0) == []
    assert where(g, 0) == "coal" and pvar(g, "in_jail", 0)
    assert payments(g) == []


# =====================================================================
# Railroad - $5 fare; a double gives a pass from one R.R. to the next
# =====================================================================


@pytest.mark.parametrize(
    "start,throw,rr",
    [
        ("mother_earth", (2, 3), "rr_1"),
        ("lot_7", (1, 2), "rr_2"),
        ("lot_13", (1, 1), "rr_3"),
        ("lot_19", (1, 1), "rr_4"),
    ],
)
def test_1904_railroad_fare_5_to_the_railroad_box(start, throw, rr):
    """1904, Railroad: 'when a player stops upon one of these spaces he must pay five dollars to the
    "R.R."' (the Railroad box, not the treasury)."""
    g = game(cash=[50, 0], at=[start, "mother_earth"], throws=[throw])
    turn(g, 0)
    assert where(g, 0) == rr
    assert payments(g) == [(5, "p0", "railroad_box", "railroads_rule")]
    assert account(g, "railroad_box") == 5 and account(g, "treasury") == 0
    assert offered(g, 0) == []


def test_1904_railroad_double_gives_a_pass_to_jump_to_the_next_railroad():
    """magie-1904, Railroad: 'If a player throws a double, he "Gets a pass" and has the privilege of
    jumping once from one railroad to another, provided he would in his ordinary moving pass a
    "R. R."' - from Lot 1 a double 6 counts 4 to the first R.R., jumps to the second (the .lg counts
    the jump as one step of the throw) and counts 1 more: Lot 9, rent $9. Nothing is paid on the
    railroads passed."""
    g = game(cash=[50, 0], at=["lot_1", "mother_earth"], throws=[(3, 3)], answers=[["pass"], []])
    give(g, "lot_9", 1)
    turn(g, 0)
    assert offered(g, 0) == [["forward", "pass"]]
    assert moves(g) == [(0, "lot_1", "lot_9", "move")]
    assert payments(g) == [(9, "p0", "p1", "lots")]


def test_1904_railroad_the_pass_need_not_be_used():
    """1904, Railroad: the pass is a 'privilege' - declining it, the double 6 from Lot 1 moves on to
    Lot 4 (rent $4)."""
    g = game(cash=[50, 0], at=["lot_1", "mother_earth"], throws=[(3, 3)], answers=[["forward"], []])
    give(g, "lot_4", 1)
    turn(g, 0)
    assert where(g, 0) == "lot_4"
    assert payments(g) == [(4, "p0", "p1", "lots")]


def test_1904_railroad_pass_ending_on_a_railroad_pays_its_fare():
    """1904, Railroad: 'If he stops upon it, however, he must pay five dollars' - from Bread a double
    4 counts 3 to the first R.R. and jumps to the second, where the count ends: $5."""
    g = game(cash=[50, 0], at=["bread", "mother_earth"], throws=[(2, 2)], answers=[["pass"], []])
    turn(g, 0)
    assert moves(g) == [(0, "bread", "rr_2", "move")]
    assert payments(g) == [(5, "p0", "railroad_box", "railroads_rule")]


@pytest.mark.parametrize(
    "start,throw,dest,paid",
    [
        ("lot_1", (2, 2), "rr_1", [(5, "p0", "railroad_box", "railroads_rule")]),  # count ends on the R.R.
        ("rr_1", (1, 1), "lot_4", []),  # ends before the next R.R.
        ("lot_13", (1, 1), "rr_3", [(5, "p0", "railroad_box", "railroads_rule")]),
    ],
)
def test_1904_railroad_no_pass_when_the_double_would_not_pass_a_railroad(start, throw, dest, paid):
    """1904, Railroad: the pass applies only 'provided he would in his ordinary moving pass a
    "R. R."'; a double whose count ends on or before a railroad moves straight on, unasked."""
    g = game(cash=[50, 0], at=[start, "mother_earth"], throws=[throw])
    give(g, "lot_4", 0)
    turn(g, 0)
    assert offered(g, 0) == []
    assert where(g, 0) == dest
    assert payments(g) == paid


def test_1904_railroad_no_pass_without_a_double():
    """1904, Railroad: only a double gives the pass; a 6 (2+4) from Lot 1 passes the R.R. (no fare)
    and stops on Lot 4."""
    g = game(cash=[50, 0], at=["lot_1", "mother_earth"], throws=[(2, 4)])
    give(g, "lot_4", 0)
    turn(g, 0)
    assert offered(g, 0) == []
    assert where(g, 0) == "lot_4" and payments(g) == []


def test_1904_railroad_pass_round_mother_earth_collects_wages():
    """1904, Railroad and Mother Earth: from Lot 21 a double 10 counts 9 round Mother Earth (wages)
    to the first R.R., jumps to the second and stops there: wages, then the $5 fare."""
    g = game(cash=[0, 0], at=["lot_21", "mother_earth"], throws=[(5, 5)], answers=[["pass"], []])
    turn(g, 0)
    assert moves(g) == [(0, "lot_21", "rr_2", "move")]
    assert payments(g) == [WAGES, (5, "p0", "railroad_box", "railroads_rule")]
    assert pvar(g, "circuits", 0) == 1


def test_1904_railroad_pass_jumping_over_mother_earth_collects_wages():
    """1904, Railroad and Mother Earth: from Lot 20 a double 4 counts 1 to the fourth R.R., jumps to
    the first - going round past Mother Earth - and counts 2 more to his own Lot 4: he has been
    round the board, so he draws his $100 wages and is tallied once."""
    g = game(cash=[0, 0], at=["lot_20", "mother_earth"], throws=[(2, 2)], answers=[["pass"], []])
    give(g, "lot_4", 0)
    turn(g, 0)
    assert offered(g, 0) == [["forward", "pass"]]
    assert moves(g) == [(0, "lot_20", "lot_4", "move")]
    assert payments(g) == [WAGES]
    assert pvar(g, "circuits", 0) == 1


# =====================================================================
# Luxuries - $50 for a ticket worth $60, or lose the move
# =====================================================================


def test_1904_luxuries_ticket_bought_for_50_to_the_treasury():
    """magie-1904, Luxuries: 'if a player stops on a "Luxury" he pays fifty dollars to the "Public
    treasury," receiving in return a luxury ticket'."""
    g = game(cash=[100, 0], at=["lot_2", "mother_earth"], throws=[(2, 3)], answers=[["buy"], []])
    turn(g, 0)
    assert offered(g, 0) == [["buy", "lose_move"]]
    assert where(g, 0) == "luxury_1"
    assert payments(g) == [(50, "p0", "treasury", "luxuries")]
    assert pvar(g, "luxury_tickets", 0) == 1 and cash(g, 0) == 50


def test_1904_luxuries_refusing_loses_the_move():
    """1904, Luxuries: 'The player may purchase the luxury or not ... but if he does not purchase it
    he loses his move' - he goes back to Lot 2, where he started, and pays nothing there again."""
    g = game(cash=[100, 0], at=["lot_2", "mother_earth"], throws=[(2, 3)], answers=[["lose_move"], []])
    give(g, "lot_2", 1)
    turn(g, 0)
    assert where(g, 0) == "lot_2"
    assert moves(g) == [(0, "lot_2", "luxury_1", "move"), (0, "luxury_1", "lot_2", "send")]
    assert payments(g) == [] and pvar(g, "luxury_tickets", 0) == 0


def test_1904_luxuries_player_who_cannot_afford_it_loses_the_move():
    """magie-1904, Luxuries: '... as he chooses or can afford' - with $40 he is not asked and goes back."""
    g = game(cash=[40, 0], at=["lot_2", "mother_earth"], throws=[(2, 3)])
    turn(g, 0)
    assert offered(g, 0) == []
    assert where(g, 0) == "lot_2" and payments(g) == []


def test_1904_luxuries_lost_move_past_mother_earth_earns_no_wages():
    """1904, Luxuries and Mother Earth: from Lot 22 a 10 (4+6) passes Mother Earth to the first
    Luxury; he refuses, so he loses the move and is back on Lot 22, not having been round. His next
    move (5, to his own Lot 2) takes him round once: one wage of $100, one circuit. (The wages
    paid on the lost move are given back when it is undone.)"""
    g = game(cash=[60, 0], at=["lot_22", "mother_earth"], throws=[(4, 6), (2, 3)], answers=[["lose_move"], []])
    give(g, "lot_2", 0)
    turn(g, 0)
    assert where(g, 0) == "lot_22"
    turn(g, 0)
    assert where(g, 0) == "lot_2"
    assert [p for p in payments(g) if "wages_box" in (p[1], p[2])] == [
        WAGES,
        (100, "p0", "wages_box", "luxuries"),
        WAGES,
    ]
    assert pvar(g, "circuits", 0) == 1
    assert cash(g, 0) == 160


def test_1904_luxuries_refusing_after_the_wages_repaid_a_loan_is_no_worse_than_the_move():
    """1904, Luxuries: refusing the luxury 'loses his move'. Seat 0, penniless and owing seat 1 $22,
    passes Mother Earth (wages $100, the loan repaid) to the first Luxury and refuses it: the move is
    undone and the wages go back as far as he still holds them ($78); the loan stays repaid. He is
    back on Lot 22, not in the poorhouse."""
    g = game(cash=[0, 0], at=["lot_22", "mother_earth"], throws=[(4, 6)], answers=[["lose_move"], []])
    g.loans.append([1, 0, 20, 2])
    turn(g, 0)
    assert where(g, 0) == "lot_22" and not pvar(g, "in_poorhouse", 0)
    assert pvar(g, "circuits", 0) == 0 and g.loans == [] and unpaid(g) == []
    assert payments(g) == [WAGES, (22, "p0", "p1", "mother_earth_wages"), (78, "p0", "wages_box", "luxuries")]
    assert cash(g, 0) == 0
    assert_script_used_up(g)


# =====================================================================
# Franchises - the charter free to the first, $5 from the others
# =====================================================================


@pytest.mark.parametrize(
    "start,throw,franchise",
    [
        ("coal", (1, 2), "light_franchise"),
        ("rr_3", (1, 1), "water_franchise"),
    ],
)
def test_1904_franchises_first_player_to_stop_gets_the_charter_free(start, throw, franchise):
    """1904, Franchises: 'The first player who stops upon one of these franchises puts his charter
    upon it ... It cost him nothing'."""
    g = game(cash=[50, 0], at=[start, "mother_earth"], throws=[throw])
    turn(g, 0)
    assert where(g, 0) == franchise
    assert owner(g, franchise) == 0 and cards_of(g, 0) == [franchise]
    assert payments(g) == [] and offered(g, 0) == []


@pytest.mark.parametrize(
    "start,throw,franchise",
    [
        ("coal", (1, 2), "light_franchise"),
        ("rr_3", (1, 1), "water_franchise"),
    ],
)
def test_1904_franchises_others_pay_the_holder_5(start, throw, franchise):
    """1904, Franchises: 'all though the game he has the privilege of taxing all the other players
    five dollars whenever they chance to stop upon it'; the charter stays his."""
    g = game(cash=[50, 0], at=[start, "mother_earth"], throws=[throw])
    give(g, franchise, 1)
    turn(g, 0)
    assert payments(g) == [(5, "p0", "p1", "franchises")]
    assert owner(g, franchise) == 1


def test_1904_franchises_holder_pays_nothing_on_his_own_charter():
    """magie-1904, Franchises: only 'the other players' are taxed."""
    g = game(cash=[50, 0], at=["coal", "mother_earth"], throws=[(1, 2)])
    give(g, "light_franchise", 0)
    turn(g, 0)
    assert payments(g) == []


# =====================================================================
# Public park, Legacy
# =====================================================================


def test_1904_public_park_stopping_there_costs_nothing():
    """magie-1904, Public park: 'A player may stop is the "Public park" without paying anything' - and
    stopping there does not put him in the poorhouse drawn on the same corner: next turn he moves
    on freely."""
    # (owning Lot 13, he could take a bank note at the start of each turn: he declines)
    g = game(cash=[50, 0], at=["lot_10", "mother_earth"], throws=[(1, 1), (1, 2)], answers=[["done", "done"], []])
    give(g, "lot_13", 0)
    turn(g, 0)
    assert where(g, 0) == "public_park"
    assert payments(g) == [] and not pvar(g, "in_poorhouse", 0)
    turn(g, 0)
    assert where(g, 0) == "lot_13"
    assert moves(g) == [(0, "lot_10", "public_park", "move"), (0, "public_park", "lot_13", "move")]
    assert cash(g, 0) == 50


def test_1904_legacy_100_dollars_and_a_legacy_ticket():
    """1904, Legacy: 'if a player stops on the Legacy, he gets one hundred dollars cash and a
    legacy-ticket' (the .lg takes the $100 from the Bank: reconstruction)."""
    g = game(cash=[10, 0], at=["rr_4", "mother_earth"], throws=[(1, 1)])
    turn(g, 0)
    assert where(g, 0) == "legacy"
    assert payments(g) == [(100, "bank", "p0", "legacy_rule")]
    assert cash(g, 0) == 110 and pvar(g, "legacy_tickets", 0) == 1


# =====================================================================
# Mother Earth - $100 wages and the tally of circuits
# =====================================================================


def test_1904_mother_earth_wages_100_after_passing_and_circuit_tallied():
    """1904, Mother Earth: 'after passing the beginning-point he receives his wages, one hundred
    dollars, and is checked upon the tally-sheet as having been around once' - from the Wages box."""
    g = game(cash=[0, 0], at=["lot_22", "mother_earth"], throws=[(1, 2)])
    give(g, "lot_1", 0)
    turn(g, 0)
    assert where(g, 0) == "lot_1"
    assert payments(g) == [WAGES]
    assert pvar(g, "circuits", 0) == 1 and cash(g, 0) == 100


def test_1904_mother_earth_stopping_on_the_beginning_point_completes_the_circuit():
    """1904, Mother Earth: a move ending on Mother Earth has gone round the board: wages and tally
    (the .lg's `on pass` includes the space a move ends on)."""
    g = game(cash=[0, 0], at=["lot_22", "mother_earth"], throws=[(1, 1)])
    turn(g, 0)
    assert where(g, 0) == "mother_earth"
    assert payments(g) == [WAGES]
    assert pvar(g, "circuits", 0) == 1


def test_1904_mother_earth_no_wages_without_going_round():
    """magie-1904, Mother Earth: wages only for going round the board."""
    g = game(cash=[0, 0], at=["lot_19", "mother_earth"], throws=[(1, 2)], answers=[["done"], []])
    give(g, "lot_21", 0)
    turn(g, 0)
    assert where(g, 0) == "lot_21"
    assert payments(g) == [] and pvar(g, "circuits", 0) == 0


@pytest.mark.parametrize("before,paid", [(0, True), (4, True), (5, False), (7, False)])
def test_1904_mother_earth_no_more_wages_after_the_fifth_circuit(before, paid):
    """1904, Five times around: 'having passed the beginning-point the required number of times he
    receives no more wages' - the 1st..5th circuits pay $100, the 6th and later nothing; the tally
    goes on."""
    g = game(
        cash=[0, 0], at=["lot_22", "mother_earth"], throws=[(1, 2)], answers=[["forward"] if before >= 5 else [], []]
    )
    give(g, "lot_1", 0)
    set_pvar(g, "circuits", 0, before)
    turn(g, 0)
    assert payments(g) == ([WAGES] if paid else [])
    assert pvar(g, "circuits", 0) == before + 1


# =====================================================================
# Five times around - either direction, end of the game
# =====================================================================


def test_1904_five_times_around_may_move_in_either_direction():
    """1904, Five times around: 'When a player has been around the board five times he may move in
    either direction, provided he is clear of debt' - backward 3 from Lot 3 to Lot 2."""
    g = game(cash=[50, 0], at=["lot_3", "mother_earth"], throws=[(1, 2)], answers=[["backward"], []])
    set_pvar(g, "circuits", 0, 5)
    give(g, "lot_2", 0)
    turn(g, 0)
    assert offered(g, 0) == [["forward", "backward"]]
    assert moves(g) == [(0, "lot_3", "lot_2", "move")]
    assert payments(g) == []


def test_1904_five_times_around_backward_past_mother_earth_tallies_nothing():
    """1904, Five times around: backward from Lot 1 over Mother Earth to Lot 22: no wages, no
    circuit."""
    g = game(cash=[50, 0], at=["lot_1", "mother_earth"], throws=[(1, 2)], answers=[["done", "backward"], []])
    set_pvar(g, "circuits", 0, 5)
    give(g, "lot_22", 0)
    turn(g, 0)
    assert where(g, 0) == "lot_22"
    assert payments(g) == [] and pvar(g, "circuits", 0) == 5


def test_1904_five_times_around_forward_only_before_five_circuits():
    """magie-1904, Five times around: with four circuits he is not asked, and moves forward."""
    g = game(cash=[50, 0], at=["lot_3", "mother_earth"], throws=[(1, 2)])
    set_pvar(g, "circuits", 0, 4)
    give(g, "lot_5", 0)
    turn(g, 0)
    assert offered(g, 0) == [] and where(g, 0) == "lot_5"


@pytest.mark.parametrize("debt", ["bank_note", "player_loan"])
def test_1904_five_times_around_forward_only_while_in_debt(debt):
    """1904, Five times around: '... provided he is clear of debt' - a bank note or a loan from
    another player keeps him moving forward only."""
    # with $50 he can repay the $22 player loan at the start of his turn (he declines), not a $100 note
    g = game(
        cash=[50, 50],
        at=["lot_3", "mother_earth"],
        throws=[(1, 2)],
        answers=[["done"] if debt == "player_loan" else [], []],
    )
    set_pvar(g, "circuits", 0, 5)
    give(g, "lot_5", 0)
    if debt == "bank_note":
        set_pvar(g, "bank_notes", 0, 1)
    else:
        g.loans.append([1, 0, 20, 2])
    turn(g, 0)
    assert offered(g, 0) == ([["repay_loans", "done"]] if debt == "player_loan" else [])
    assert where(g, 0) == "lot_5"


def test_1904_five_times_around_loan_can_be_cleared_after_the_fifth_circuit():
    """1904, Five times around and Borrowing: seat 0 has been round five times and owes seat 1 $22
    (a $20 loan at 10%); with $200 he repays it at the start of his turn (the $20 only: repaid before
    passing the beginning-point, it saves the interest), is clear of debt, and may move in either
    direction at once and on his next turn."""
    g = game(
        cash=[200, 0],
        at=["lot_22", "mother_earth"],
        throws=[(1, 2), (2, 4)],
        answers=[["repay_loans", "forward", "forward"], []],
    )
    set_pvar(g, "circuits", 0, 5)
    g.loans.append([1, 0, 20, 2])
    give(g, "lot_1", 0)
    give(g, "lot_4", 0)
    turn(g, 0)
    assert g.loans == [] and cash(g, 0) == 180
    assert offered(g, 0) == [["repay_loans", "done"], ["forward", "backward"]]
    turn(g, 0)
    assert offered(g, 0)[-1] == ["forward", "backward"]
    assert_script_used_up(g)


def test_1904_five_times_around_game_ends_when_the_last_player_passes_the_fifth_time():
    """1904, Five times around: 'The game is finished when the last player has passed the
    beginning-point the fifth time' - seat 0 has been round five times and plays on; the game ends
    when seat 1 completes his fifth circuit."""
    g = game(cash=[50, 0], at=["lot_3", "lot_22"], throws=[(1, 2), (1, 2)], answers=[["forward"], []])
    set_pvar(g, "circuits", 0, 5)
    set_pvar(g, "circuits", 1, 4)
    give(g, "lot_5", 0)
    give(g, "lot_1", 1)
    turn(g, 0)
    assert not g.over
    turn(g, 1)
    assert pvar(g, "circuits", 1) == 5
    assert g.over and g.end_reason == "end condition (magie-1904, Five times around)"
    assert payments(g) == [(100, "wages_box", "p1", "mother_earth_wages")]


# =====================================================================
# Borrowing - bank notes of $100 on lots, loans between players
# =====================================================================


def test_1904_borrowing_bank_note_of_100_on_lots_worth_110():
    """magie-1904, Borrowing: 'A player may borrow from the "Bank" in amounts of one hundred dollars ...
    the total value of which must be at least ten dollars more than is borrowed' - with no cash and
    Lot 11 ($110), he takes a note to pay Lot 3's rent."""
    g = game(cash=[0, 0], throws=[(2, 4)], answers=[["done"], []])
    give(g, "lot_11", 0)
    give(g, "lot_3", 1)
    turn(g, 0)
    assert offered(g, 0) == [["take_note", "done"]]  # the note he must take is not a question
    assert payments(g) == [(100, "bank", "p0", "borrowing"), (3, "p0", "p1", "lots")]
    assert pvar(g, "bank_notes", 0) == 1 and cash(g, 0) == 97
    assert where(g, 0) == "lot_3" and not pvar(g, "in_poorhouse", 0)
    assert_script_used_up(g)


@pytest.mark.parametrize(
    "lots,notes,allowed",
    [
        (["lot_10"], 0, False),  # $100 < $110
        (["lot_11"], 0, True),  # $110
        (["lot_4", "lot_7"], 0, True),  # $40 + $70 = $110 in two lots
        (["lot_20"], 1, False),  # second note: $200 < $210
        (["lot_21"], 1, True),  # $210
    ],
)
def test_1904_borrowing_bank_note_only_on_sufficient_security(lots, notes, allowed):
    """1904, Borrowing: the lots mortgaged 'must be at least ten dollars more than is borrowed'
    (reconstruction: the total value of his lots against all his notes). Without security he is
    not offered a note; with no lender he goes to the poorhouse."""
    g = game(cash=[0, 0], throws=[(2, 4)], answers=[["done"] if allowed else [], []])
    for lot in lots:
        give(g, lot, 0)
    give(g, "lot_3", 1)
    set_pvar(g, "bank_notes", 0, notes)
    turn(g, 0)
    assert offered(g, 0) == ([["take_note", "done"]] if allowed else [])
    assert pvar(g, "bank_notes", 0) == notes + (1 if allowed else 0)
    assert where(g, 0) == ("lot_3" if allowed else "public_park")
    assert_script_used_up(g)


@pytest.mark.parametrize("notes", [1, 3])
def test_1904_borrowing_5_dollars_interest_per_note_at_each_wages(notes):
    """1904, Borrowing: '... paying upon each note five dollars (interest) every time he receives
    his wages' - to the Bank, right after the wages."""
    g = game(cash=[0, 0], at=["lot_22", "mother_earth"], throws=[(1, 2)])
    give(g, "lot_1", 0)
    set_pvar(g, "bank_notes", 0, notes)
    turn(g, 0)
    assert payments(g) == [WAGES, (5 * notes, "p0", "bank", "mother_earth_wages")]
    assert cash(g, 0) == 100 - 5 * notes
    assert pvar(g, "bank_notes", 0) == notes


@pytest.mark.parametrize("repay", [True, False])
def test_1904_borrowing_note_repaid_before_wages_saves_the_interest(repay):
    """1904, Borrowing: 'Should a loan be repaid before passing the beginning-point, the borrower
    saves the interest.' At the start of his turn he is offered to repay his note (or take another:
    Lot 21 secures two); repaid, his next wages carry no interest; kept, they carry $5."""
    answers = ["repay", "done", "done"] if repay else ["done", "done"]
    g = game(cash=[150, 0], at=["lot_19", "mother_earth"], throws=[(1, 2), (2, 2)], answers=[answers, []])
    give(g, "lot_21", 0)
    set_pvar(g, "bank_notes", 0, 1)
    turn(g, 0)
    assert offered(g, 0)[0] == ["take_note", "repay", "done"]
    turn(g, 0)
    assert where(g, 0) == "mother_earth"
    if repay:
        assert payments(g) == [(100, "p0", "bank", "borrowing"), WAGES]
        assert pvar(g, "bank_notes", 0) == 0 and cash(g, 0) == 150
    else:
        assert payments(g) == [WAGES, (5, "p0", "bank", "mother_earth_wages")]
        assert pvar(g, "bank_notes", 0) == 1 and cash(g, 0) == 245
    assert_script_used_up(g)


def test_1904_borrowing_note_may_be_repaid_before_the_move_that_passes_mother_earth():
    """1904, Borrowing: seat 0 stands on Lot 22 with $150 and one note; he repays it at once, then
    his 3 takes him past Mother Earth to his own Lot 1: wages and no interest."""
    g = game(cash=[150, 0], at=["lot_22", "mother_earth"], throws=[(1, 2)], answers=[["repay"], []])
    give(g, "lot_1", 0)
    set_pvar(g, "bank_notes", 0, 1)
    turn(g, 0)
    assert payments(g) == [(100, "p0", "bank", "borrowing"), WAGES]
    assert cash(g, 0) == 150 and pvar(g, "bank_notes", 0) == 0


def test_1904_borrowing_from_another_player_repaid_with_interest_at_wages():
    """1904, Borrowing: 'One player may borrow from another ... making the best bargain he can as to
    interest, terms of payments' (the .lg fixes 10%, repaid at the borrower's next wages:
    reconstruction). Seat 0, penniless, owning only Lot 5 ($50: too little for a bank note), owes
    Lot 20's $20 rent to seat 2; seat 1 lends $20; at his next wages he repays $22."""
    g = game(
        players=3,
        cash=[0, 100, 0],
        at=["lot_18", "mother_earth", "mother_earth"],
        throws=[(1, 2), (1, 2)],
        answers=[[], ["lend"], []],
    )
    give(g, "lot_5", 0)
    give(g, "lot_20", 2)
    give(g, "lot_1", 2)
    turn(g, 0)
    assert where(g, 0) == "lot_20" and not pvar(g, "in_poorhouse", 0)
    assert payments(g) == [(20, "p1", "p0", "borrowing"), (20, "p0", "p2", "lots")]
    assert g.loans == [[1, 0, 20, 2]]
    put(g, 0, "lot_22")
    since = len(g.log)
    turn(g, 0)
    assert payments(g, since) == [WAGES, (22, "p0", "p1", "mother_earth_wages"), (1, "p0", "p2", "lots")]
    assert g.loans == []
    assert (cash(g, 0), cash(g, 1), cash(g, 2)) == (77, 102, 21)
    assert_script_used_up(g)


def test_1904_borrowing_bank_note_may_be_taken_to_buy_a_lot():
    """1904, Borrowing and lot-spaces: with $60 in cash and Lot 11 as security, a player stopping on
    the unsold Lot 10 may borrow $100 from the Bank and buy it."""
    g = game(cash=[60, 0], at=["lot_8", "mother_earth"], throws=[(1, 3)], answers=[["done", "buy_on_note"], []])
    give(g, "lot_11", 0)
    turn(g, 0)
    assert where(g, 0) == "lot_10"
    assert owner(g, "lot_10") == 0
    assert pvar(g, "bank_notes", 0) == 1


def test_1904_borrowing_no_loan_between_players_without_property_to_mortgage():
    """1904, Borrowing and Poorhouse: with no cash and no property at all, seat 0 owes Lot 3's $3 rent;
    seat 1 could lend, but there is nothing to mortgage: he goes to the poorhouse, and seat 1 is not
    asked."""
    g = game(cash=[0, 100], throws=[(2, 4)], answers=[[], ["lend"]])
    give(g, "lot_3", 1)
    turn(g, 0)
    assert offered(g, 1) == []
    assert g.loans == []
    assert where(g, 0) == "public_park" and pvar(g, "in_poorhouse", 0)


def test_1904_poorhouse_not_while_his_lots_secure_a_bank_note():
    """1904, Poorhouse: only a player who 'has no property upon which he can borrow' goes to the
    poorhouse. With $0 and Lot 11 ($110, security for a note) he owes Lot 3's $3: he is not asked
    whether to do without the note (that would write the debt off in the poorhouse); he takes it."""
    g = game(cash=[0, 0], throws=[(2, 4)], answers=[["done"], []])
    give(g, "lot_11", 0)
    give(g, "lot_3", 1)
    turn(g, 0)
    assert not any("Borrow $100" in prompt for prompt, _ in g.agents[0].asked)
    assert payments(g) == [(100, "bank", "p0", "borrowing"), (3, "p0", "p1", "lots")]
    assert unpaid(g) == [] and not pvar(g, "in_poorhouse", 0)
    assert_script_used_up(g)


@pytest.mark.parametrize("saves, repaid", [(True, 20), (False, 22)])
def test_1904_borrowing_early_repayment_of_a_player_loan_saves_the_interest(saves, repaid):
    """1904, Borrowing: 'Should a loan be repaid before passing the beginning-point, the borrower
    saves the interest' - read (option early_repayment_saves_interest, on by default) as covering a
    loan from another player too: $20 lent at 10% is settled for $20 before his wages; off, $22."""
    g = game(
        cash=[100, 0],
        at=["lot_5", "mother_earth"],
        throws=[(1, 2)],
        answers=[["repay_loans"], []],
        early_repayment_saves_interest=saves,
    )
    g.loans.append([1, 0, 20, 2])
    give(g, "lot_7", 0)
    turn(g, 0)
    assert payments(g)[0] == (repaid, "p0", "p1", "borrowing")
    assert g.loans == [] and cash(g, 1) == repaid
    assert_script_used_up(g)


def test_1904_borrowing_from_another_player_to_buy_a_lot():
    """1904, Borrowing: 'One player may borrow from another, giving a mortgage on any property he may
    own' - not only to pay a debt: with $30 and Lot 5 (too little for a bank note) he borrows $70 from
    seat 1 and buys the unsold Lot 10."""
    g = game(cash=[30, 200], at=["lot_8", "mother_earth"], throws=[(1, 3)], answers=[["buy_on_loan"], ["lend"]])
    give(g, "lot_5", 0)
    turn(g, 0)
    assert offered(g, 0) == [["buy_on_loan", "rent"]]
    assert owner(g, "lot_10") == 0 and g.loans == [[1, 0, 70, 7]]
    assert payments(g) == [(70, "p1", "p0", "lots"), (100, "p0", "treasury", "lots")]
    assert_script_used_up(g)


def test_1904_borrowing_from_another_player_to_pay_the_jail_fine():
    """1904, Borrowing and No trespassing: with $10 and Lot 5 a prisoner borrows the other $40 of the
    fine from seat 1, pays it and counts 3 from the coal square to the Light Franchise."""
    g = _jailed(cash=[10, 100], throws=[(1, 2)], answers=[["pay_fine_on_loan"], ["lend"]])
    give(g, "lot_5", 0)
    turn(g, 0)
    assert offered(g, 0) == [["pay_fine_on_loan", "wait"]]
    assert payments(g)[:2] == [(40, "p1", "p0", "jail_rule"), (50, "p0", "treasury", "jail_rule")]
    assert where(g, 0) == "light_franchise" and not pvar(g, "in_jail", 0)
    assert_script_used_up(g)


def test_1904_borrowing_from_another_player_to_buy_a_luxury():
    """1904, Borrowing and Luxuries: 'as he chooses or can afford' - with $20 and Lot 5 he may borrow
    $30 from seat 1 and buy the luxury instead of losing his move; nobody lending, he loses it."""
    g = game(cash=[20, 100], at=["lot_2", "mother_earth"], throws=[(2, 3)], answers=[["buy_on_loan"], ["lend"]])
    give(g, "lot_5", 0)
    turn(g, 0)
    assert offered(g, 0) == [["buy_on_loan", "lose_move"]]
    assert where(g, 0) == "luxury_1" and pvar(g, "luxury_tickets", 0) == 1
    assert payments(g) == [(30, "p1", "p0", "luxuries"), (50, "p0", "treasury", "luxuries")]
    assert_script_used_up(g)


# =====================================================================
# Poorhouse
# =====================================================================


def test_1904_poorhouse_player_who_cannot_pay_and_cannot_borrow_goes_there():
    """1904, Poorhouse: 'If at any time a player has no money with which to meet expenses and has no
    property upon which he can borrow, he must go to the poorhouse' - with $2, no lots and nobody
    able to lend, he pays the $2 he has towards Lot 3's $3 rent and goes to the Public Park /
    Poorhouse corner."""
    g = game(cash=[2, 0], throws=[(2, 4)])
    give(g, "lot_3", 1)
    turn(g, 0)
    assert payments(g) == [(2, "p0", "p1", "lots")]
    assert unpaid(g) == [(0, 1, "lots")]
    assert moves(g) == [(0, "mother_earth", "lot_3", "move"), (0, "lot_3", "public_park", "send")]
    assert pvar(g, "in_poorhouse", 0) is True
    assert decisions(g) == []


def test_1904_poorhouse_second_player_who_cannot_pay_the_shared_rent():
    """1904, Poorhouse and Rent: the second player on Lot 3 owes $2 to the first occupant and $1 to
    the owner but has only $1: it goes to the first, he goes to the poorhouse (once), and the owner's
    $1 stays unpaid (with no property to mortgage, nobody is asked to lend)."""
    g = game(
        players=3, cash=[1, 0, 0], at=["mother_earth", "lot_3", "mother_earth"], throws=[(2, 4)], answers=[[], [], []]
    )
    give(g, "lot_3", 2)
    turn(g, 0)
    assert payments(g) == [(1, "p0", "p1", "lots")]
    assert unpaid(g) == [(0, 1, "lots"), (0, 1, "lots")]
    assert where(g, 0) == "public_park" and pvar(g, "in_poorhouse", 0)
    assert (cash(g, 0), cash(g, 1), cash(g, 2)) == (0, 1, 0)
    assert_script_used_up(g)


def test_1904_poorhouse_when_no_player_will_lend():
    """1904, Poorhouse and Borrowing: a player whose only lot (Lot 5, $50) is too little security for
    a bank note, and whom the other player refuses to lend to, goes to the poorhouse."""
    g = game(cash=[0, 100], throws=[(2, 4)], answers=[[], ["refuse"]])
    give(g, "lot_5", 0)
    give(g, "lot_3", 1)
    turn(g, 0)
    assert offered(g, 1) == [["lend", "refuse"]]
    assert payments(g) == [] and unpaid(g) == [(0, 3, "lots")]
    assert where(g, 0) == "public_park" and pvar(g, "in_poorhouse", 0)


def test_1904_poorhouse_leaves_when_his_throws_would_finish_the_round():
    """1904, Poorhouse: he must 'remain there until he makes such throws as will enable him to
    finish the round'. Reconstruction (the .lg): his throws are added up until they reach the 20
    spaces from the poorhouse to Mother Earth; then he goes to Mother Earth and draws his wages.
    11 and 7 (18) keep him there; 3 more (21) take him round."""
    g = game(cash=[0, 0], at=["public_park", "mother_earth"], throws=[(5, 6), (3, 4), (1, 2)])
    set_pvar(g, "in_poorhouse", 0, True)
    set_pvar(g, "circuits", 0, 2)
    for total in (11, 18):
        turn(g, 0)
        assert where(g, 0) == "public_park" and pvar(g, "in_poorhouse", 0)
        assert pvar(g, "poorhouse_count", 0) == total
    assert payments(g) == []
    turn(g, 0)
    assert moves(g) == [(0, "public_park", "mother_earth", "move")]
    assert payments(g) == [WAGES]
    assert not pvar(g, "in_poorhouse", 0) and pvar(g, "circuits", 0) == 3


def test_1904_poorhouse_a_double_does_not_free_him():
    """magie-1904, Poorhouse (reconstruction as above): a double 12 is just 12 towards the 20 spaces."""
    g = game(cash=[0, 0], at=["public_park", "mother_earth"], throws=[(6, 6)])
    set_pvar(g, "in_poorhouse", 0, True)
    turn(g, 0)
    assert where(g, 0) == "public_park" and pvar(g, "in_poorhouse", 0)
    assert offered(g, 0) == [] and payments(g) == []


# =====================================================================
# Counting up
# =====================================================================


def test_1904_counting_up_lots_at_value_cash_and_luxuries_at_60():
    """1904, Counting up: 'each player is credited with the value of the lots owned by him. His cash
    on hand is counted ... Then the luxuries are counted, (remember that each one counts sixty) ...
    Add together these three amounts'. Seat 0: lots 3 and 22 ($250) + $120 + 2 luxuries ($120)."""
    g = game(cash=[120, 450])
    give(g, "lot_3", 0)
    give(g, "lot_22", 0)
    set_pvar(g, "luxury_tickets", 0, 2)
    result = g.result()
    assert result.scores == (250 + 120 + 120, 450)
    assert result.winners == (0,)


def test_1904_counting_up_charters_and_legacy_tickets_count_nothing():
    """1904, Franchises ('counts him nothing at the end of the game') and Counting up (only lots,
    cash and luxuries): two charters and three legacy tickets add nothing."""
    g = game(cash=[100, 100])
    give(g, "light_franchise", 0)
    give(g, "water_franchise", 0)
    set_pvar(g, "legacy_tickets", 0, 3)
    assert g.result().scores == (100, 100)


def test_1904_counting_up_outstanding_notes_and_loans_are_settled():
    """1904, Counting up (reconstruction in the .lg: debts are settled when counting up): a bank note
    counts -$100; a $20 loan at 10% counts -$22 to the borrower and +$22 to the lender."""
    g = game(cash=[200, 50])
    give(g, "lot_5", 0)
    set_pvar(g, "bank_notes", 0, 1)
    g.loans.append([1, 0, 20, 2])
    assert g.result().scores == (200 + 50 - 100 - 22, 50 + 22)


# =====================================================================
# Emergencies
# =====================================================================


def test_1904_emergencies_refusing_player_is_jailed_as_in_no_trespassing():
    """1904, Emergencies: a player who 'absolutely refuses to obey the rules ... must go to jail and
    remain there until he throws a double or pays his fine, as explained in paragraph "No
    trespassing."' (the players put him there: no rule of the .lg does). Jailed by hand, he fails a
    throw, then pays the $50 fine and counts 3 from the coal square to the Light Franchise."""
    g = _jailed(cash=[100, 0], throws=[(1, 2), (1, 2)], answers=[["wait", "pay_fine"], []])
    give(g, "light_franchise", 1)
    turn(g, 0)
    assert where(g, 0) == "coal" and pvar(g, "in_jail", 0)
    turn(g, 0)
    assert payments(g) == [(50, "p0", "treasury", "jail_rule"), (5, "p0", "p1", "franchises")]
    assert where(g, 0) == "light_franchise" and not pvar(g, "in_jail", 0)


# =====================================================================
# Playing without the lot tickets (variant)
# =====================================================================


@pytest.mark.parametrize("players", [2, 4])
def test_1904_without_lot_tickets_100_dollars_and_no_tickets_drawn(players):
    """1904, Playing without the lot tickets: '... without using the lot tickets at all ... In this
    case the player is provided with one hundred dollars to begin with.'"""
    g = variant(players=players, start=False)
    g.setup()
    assert [cash(g, s) for s in range(players)] == [100] * players
    assert account(g, "treasury") == 0
    assert decisions(g) == [] and _dealt(g) == []
    assert all(cards_of(g, s) == [] for s in range(players))
    assert sorted(deck(g, "lot_ticket_box")) == sorted(LOTS)


def test_1904_without_lot_tickets_lots_bought_as_players_come_to_them():
    """1904, Playing without the lot tickets: 'players simply purchasing lots as they come to them in
    the ordinary moving' - Lot 2 for $20 to the treasury."""
    g = variant(start=False, throws=[(1, 2)], answers=[["buy"], []])
    g.setup()
    g.play_turn()
    assert where(g, 0) == "lot_2" and owner(g, "lot_2") == 0
    assert payments(g)[2:] == [(20, "p0", "treasury", "lots")]
    assert cash(g, 0) == 80


def test_1904_without_lot_tickets_circuits_default_to_five():
    """1904, Playing without the lot tickets: the option circuits_to_end defaults to the patent's
    five circuits."""
    assert program(VARIANT).options["circuits_to_end"] == 5
    g = variant(cash=[0, 0], at=["lot_22", "lot_22"], throws=[(1, 2)])
    give(g, "lot_1", 0)
    set_pvar(g, "circuits", 0, 4)
    set_pvar(g, "circuits", 1, 5)
    turn(g, 0)
    assert payments(g) == [WAGES] and g.over


def test_1904_without_lot_tickets_number_of_circuits_chosen_by_the_players():
    """1904, Playing without the lot tickets: 'The number of times around the board may also be
    regulated by the will of the players' (option circuits_to_end=3): wages for the 3rd circuit,
    none for the 4th; either direction after 3; the game ends when every player has been round
    three times."""
    g = variant(
        cash=[0, 0], at=["lot_22", "lot_3"], throws=[(1, 2), (1, 2)], answers=[[], ["backward"]], circuits_to_end=3
    )
    give(g, "lot_1", 0)
    give(g, "lot_2", 1)
    set_pvar(g, "circuits", 0, 2)
    set_pvar(g, "circuits", 1, 3)
    turn(g, 1)
    assert offered(g, 1) == [["forward", "backward"]] and where(g, 1) == "lot_2"
    assert not g.over
    turn(g, 0)
    assert payments(g) == [WAGES] and pvar(g, "circuits", 0) == 3
    assert g.over and g.end_reason == "end condition (magie-1904, Five times around)"
    g2 = variant(
        cash=[0, 0], at=["lot_22", "mother_earth"], throws=[(1, 2)], answers=[["forward"], []], circuits_to_end=3
    )
    give(g2, "lot_1", 0)
    set_pvar(g2, "circuits", 0, 3)
    turn(g2, 0)
    assert payments(g2) == [] and pvar(g2, "circuits", 0) == 4


# =====================================================================
# Simulated games
# =====================================================================

SEEDS = range(50)


@pytest.mark.parametrize("edition", [EDITION, VARIANT])
def test_1904_simulated_games_end_after_five_circuits_and_conserve_money(edition):
    """1904, Five times around: 50 four-player games between heuristic bots each end by the end
    condition (every player round five times), never by the turn limit; money changes hands only
    through the unlimited Bank and Wages boxes (game.conserved())."""
    prog = program(edition)
    for seed in SEEDS:
        g = ld.new_game(prog, players=4, seed=seed)
        result = g.play()
        assert result.end_reason == "end condition (magie-1904, Five times around)", seed
        assert all(pvar(g, "circuits", s) >= 5 for s in range(4)), seed
        assert g.conserved(), seed


@pytest.mark.parametrize("edition", [EDITION, VARIANT])
def test_1904_simulated_games_replay_identically(edition):
    """Same seed, same game: identical event logs (game.log_lines()) for 50 seeds."""
    prog = program(edition)
    for seed in SEEDS:
        a = ld.new_game(prog, players=4, seed=seed)
        b = ld.new_game(prog, players=4, seed=seed)
        ra, rb = a.play(), b.play()
        assert a.log_lines() == b.log_lines(), seed
        assert ra == rb
    assert ld.new_game(prog, players=4, seed=1).play() != ld.new_game(prog, players=4, seed=2).play()
