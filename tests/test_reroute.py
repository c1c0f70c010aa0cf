"""Payments by purpose and `reroute` (issue 27, item 2).

The editions say what a payment to the Banker is for (`pay ... as tax`); a
variant sends every payment made for a purpose to an account of its own
(`reroute tax, fine to jackpot`) instead of restating each rule and card
that makes one. The checker's messages for misuse are golden files
(tests/golden/errors/52-53, tests/golden/variants/06-09).
"""

from __future__ import annotations

import functools
from pathlib import Path

import hypothesis.strategies as st
import pytest
from hypothesis import given, settings

import landlord_dsl as ld
from landlord_dsl.agents import HeuristicAgent
from landlord_dsl.checking.loader import format_with_base
from landlord_dsl.language import ast
from landlord_dsl.language.parser import parse
from landlord_dsl.presentation.show import payments_by_purpose, show_text
from scenario_helpers import (
    TRADE_PROMPT_1933,
    assert_script_used_up,
    cash,
    make_game,
    payments,
    pvar,
    set_pvar,
    turn,
    where,
)

DATA = Path(__file__).parent / "data"
E1933 = "monopoly-1933-atlantic-city"
JACKPOT = "monopoly-1933-free-parking-jackpot"
# the jackpot as it was written before `reroute`: the decks and the jail rule copied with the payee changed
JACKPOT_LONG = DATA / "monopoly-1933-free-parking-jackpot-long.lg"

# A tax pool: the 1933 taxes (Income Tax, Luxury Tax, the tax cards) go to a pool; fines and fees do not.
TAX_POOL = """edition "monopoly-1933-tax-pool" {
    extends "monopoly-1933-atlantic-city"
    source "house-rule: a test" reconstruction
}

account pool "The tax pool" source "house-rule: a test" reconstruction

reroute tax to pool source "house-rule: a test" reconstruction
"""


def _pool_game(tmp_path: Path, **kw):
    path = tmp_path / "monopoly-1933-tax-pool.lg"
    path.write_text(TAX_POOL, encoding="utf-8")
    kw.setdefault("proxy_decks", False)
    kw.setdefault("passes", (TRADE_PROMPT_1933,))
    return make_game(edition=str(path), **kw)


# ------------------------------------------------------------------ the syntax


def test_purposes_and_reroutes_parse_and_format_canonically():
    text = (
        'edition "x" { extends "monopoly-1933-atlantic-city" }\n'
        'purpose   dues "Club dues" source "house-rule" reconstruction\n'
        "reroute tax,fine , dues to   bank\n"
        "rule r { on turn { pay 5 from player to bank   as dues\n for p in players { } } }\n"
    )
    formatted = format_with_base(text, "x.lg")
    assert 'purpose dues "Club dues" source "house-rule" reconstruction\n' in formatted
    assert "reroute tax, fine, dues to bank\n" in formatted
    assert "        pay 5 from player to bank as dues\n        for p in players { }\n" in formatted
    assert parse(formatted, "x.lg") == parse(text, "x.lg")
    assert format_with_base(formatted, "x.lg") == formatted
    (rule,) = [d for d in parse(text, "x.lg").declarations if isinstance(d, ast.RuleDecl)]
    pay, loop = rule.handlers[0].body  # `as NAME` ends the payment: a `for` after it is a statement of its own
    assert isinstance(pay, ast.Pay) and pay.purpose == "dues" and isinstance(loop, ast.For)


def test_a_long_payment_breaks_before_its_clauses():
    line = "pay bank_charge(player, 40 * houses_of(player) + 115 * hotels_of(player)) from player to bank as fee"
    text = f'edition "x" {{ }}\nrule r {{ on turn {{ {line} }} }}\n'
    assert "\n            from player to bank as fee\n" in format_with_base(text)


def test_shipped_1933_tags_every_charge_the_old_jackpot_sent_to_its_pot():
    """Every payment the long-form jackpot paid into the pot is one the edition makes for a purpose."""
    paid = payments_by_purpose(ld.load_edition(E1933).model)
    assert paid == {
        "tax": ["income_tax_rule", "luxury_tax_rule", "chance_poor_tax", "chance_school_tax"],
        "fine": ["jail_rule", "chance_parking_fine"],
        "fee": ["chance_general_repairs", "chance_street_repairs", "chest_doctor", "chest_hospital"],
    }
    long_form = JACKPOT_LONG.read_text(encoding="utf-8")
    assert long_form.count("to jackpot") == 11  # the 11 payments above (the jail rule makes two)


def test_show_and_diff_name_the_rerouted_purposes():
    shown = show_text(ld.load_edition(JACKPOT))
    assert "  fine: Fines: the Jail fine and the parking fine" in shown
    assert "-> rerouted to jackpot" in shown and "    paid in: jail_rule, chance_parking_fine\n" in shown
    changes = ld.diff(E1933, JACKPOT)
    rerouted = {c.name: c for c in changes if c.category == "reroute"}
    assert set(rerouted) == {"tax", "fine", "fee"}
    assert rerouted["fine"].new == "reroute fine to jackpot"
    assert rerouted["fine"].details[0] == ("paid in", None, "jail_rule, chance_parking_fine")


# ------------------------------------------------------------------ scenarios


def test_1933_tax_pool_income_tax_goes_to_the_pool_the_parking_fine_to_the_banker(tmp_path: Path):
    """anspach-1933, Income Tax: rerouting `tax` moves the 10% to the pool; the Chance parking fine
    (parker-1935, Chance deck) is a `fine` and still goes to the Banker."""
    g = _pool_game(tmp_path, cash=[1000, 500], at=["go", "go"], throws=[(1, 3), (3, 4)], proxy_decks=True)
    deck = g.decks["chance_cards"]
    deck.insert(0, deck.pop(deck.index(g.prog.card_names.index("chance_parking_fine"))))
    turn(g, 0)  # GO + 4: Income Tax, 10% of $1,000
    turn(g, 1)  # GO + 7: Chance, a $15 parking fine
    assert payments(g) == [(100, "p0", "pool", "income_tax_rule"), (15, "p1", "bank", "chance_and_chest")]
    assert g.account_balance("pool") == 100 and cash(g, 1) == 485
    assert_script_used_up(g)


def test_1933_free_parking_jackpot_the_fine_forced_after_the_third_try_goes_into_the_pot():
    """anspach-1933, Doubles and Other Jail Rules: after a third throw without a double the prisoner pays
    the $50 fine and moves; under the Free Parking jackpot (house custom) the fine goes into the pot."""
    g = make_game(
        edition=JACKPOT,
        cash=100,
        at=["jail", "go"],
        throws=[(1, 2), (1, 2), (3, 4)],
        answers=[["try_doubles"] * 3, []],
        proxy_decks=False,
        passes=(TRADE_PROMPT_1933,),
    )
    set_pvar(g, "in_jail", 0, True)
    for _ in range(3):
        turn(g, 0)
    assert payments(g) == [(50, "p0", "jackpot", "jail_rule")]
    assert g.account_balance("jackpot") == 50 and cash(g, 0) == 50
    assert where(g, 0) == "community_chest_2" and pvar(g, "in_jail", 0) is False
    assert_script_used_up(g)


# ------------------------------------------------------------------ the short jackpot plays the long one's games


@pytest.mark.parametrize("proxy_decks", [True, False])
def test_the_short_jackpot_plays_the_same_games_as_the_long_form_it_replaces(proxy_decks: bool):
    """The golden games cover seeds 1-10; these are 40 more, with each deck set."""
    short = ld.compile_rules(ld.load_edition(JACKPOT), {"proxy_decks": proxy_decks})
    long = ld.compile_rules(ld.load_edition(str(JACKPOT_LONG)), {"proxy_decks": proxy_decks})
    for seed in range(11, 51):
        players = 2 + seed % 3
        a = ld.new_game(short, players=players, seed=seed)
        b = ld.new_game(long, players=players, seed=seed)
        a.play()
        b.play()
        assert a.log_lines() == b.log_lines(), f"seed {seed}, {players} players"


# ------------------------------------------------------------------ money is conserved whatever is rerouted


@functools.cache
def _rerouted(purposes: tuple[str, ...], unlimited: bool) -> ld.Program:
    text = (
        'edition "monopoly-1933-rerouted" { extends "monopoly-1933-atlantic-city" source "house-rule" }\n'
        f'account pot "A pot"{" unlimited" if unlimited else ""}\n'
        + (f"reroute {', '.join(purposes)} to pot\n" if purposes else "")
    )
    return ld.compile_rules(ld.load_text(text, "rerouted.lg"))


@settings(max_examples=12, deadline=None)
@given(
    purposes=st.sets(st.sampled_from(["tax", "fine", "fee"])),
    unlimited=st.booleans(),
    players=st.integers(2, 4),
    seed=st.integers(0, 10_000),
)
def test_rerouting_any_purposes_conserves_money(purposes: set[str], unlimited: bool, players: int, seed: int):
    prog = _rerouted(tuple(sorted(purposes)), unlimited)
    game = ld.Game(prog, [HeuristicAgent() for _ in range(players)], seed=seed, turn_limit=150)
    pot = prog.account_names.index("pot")
    game.setup()
    received = 0
    while not game.over and game.turn < game.turn_limit:
        before = len(game.log)
        game.play_turn()
        assert game.invariant_problems() == []
        into_pot = [e for e in game.log[before:] if e[0] == "pay" and e[4] == pot]
        assert all(e[3] != pot for e in game.log[before:] if e[0] == "pay")  # nothing pays out of the pot
        received += sum(e[2] for e in into_pot)
        if not unlimited:
            assert game.bal[pot] == received  # the pot holds exactly what was rerouted into it
    if not purposes:
        assert received == 0
