"""The library of variants: every file under editions/variants, its rule in action, and how variants combine.

A variant is a small .lg file that `extends` an edition and replaces, adds or
removes declarations by name (docs/language/declarations.md, "Variants"). This file
checks, for every variant found under editions/variants (nothing is
registered by hand):

* it loads, checks, is in canonical layout, cites every declaration, and
  plays a few seeded games that keep every invariant of the engine;
* it has a scenario test here, `test_variant_<name>_<what>`, that shows its
  rule in action with fixed dice (ScriptedChance) and answers (ScriptedAgent);
* `landlord-dsl diff EDITION VARIANT` exits 1 and lists exactly the
  declarations the variant changes.

Then: two compatible variants combine (`a+b`) with both effects visible, two
that change one declaration differently fail with an error naming both
files, and docs/writing-a-variant.md is run command by command.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shlex
from pathlib import Path

import attrs
import pytest

import landlord_dsl as ld
from golden_files import UPDATE
from landlord_dsl.agents import HeuristicAgent
from landlord_dsl.cli.main import main
from landlord_dsl.core.resources import editions_dir
from landlord_dsl.language import ast
from scenario_helpers import (
    TRADE_PROMPT_1933,
    assert_script_used_up,
    bids,
    cards_of,
    cash,
    decisions,
    give,
    houses,
    labels,
    make_game,
    moves,
    offered,
    owner,
    payments,
    put,
    pvar,
    rules,
    set_houses,
    set_pvar,
    set_svar,
    turn,
    unpaid,
    where,
)

ROOT = Path(__file__).resolve().parents[1]
VARIANTS_DIR = editions_dir() / "variants"
VARIANT_FILES = sorted(VARIANTS_DIR.rglob("*.lg"))
VARIANTS = [p.stem for p in VARIANT_FILES]

E1904 = "landlords-game-1904"
E1906 = "landlords-game-1906"
E1933 = "monopoly-1933-atlantic-city"

WITHOUT_LOT_TICKETS = "landlords-game-1904-without-lot-tickets"
AVERAGE_HANDS = "landlords-game-1906-average-hands"
DEMONSTRATION = "landlords-game-1906-monopolist-demonstration"
PROLONGED = "landlords-game-1906-prolonged-game"
JACKPOT = "monopoly-1933-free-parking-jackpot"
# the jackpot as it was written before `reroute`: its decks and jail rule copied with only the payee changed
JACKPOT_LONG = str(ROOT / "tests" / "data" / "monopoly-1933-free-parking-jackpot-long.lg")
DOUBLE_GO = "monopoly-1933-double-go-salary"
HOUSING_SHORTAGE = "monopoly-1933-housing-shortage"
JAIL_INSURANCE = "monopoly-1933-jail-insurance"
NO_AUCTIONS = "monopoly-1933-no-auctions"
NO_EVEN_BUILDING = "monopoly-1933-no-even-building"
PAUPERS = "monopoly-1933-paupers"
FREE_RIDES = "monopoly-1933-free-rides"
START_500 = "monopoly-1933-500-start"
SPEED_DIE = "monopoly-1933-speed-die"


def module_of(path: Path) -> ast.Module:
    return ld.parse(path.read_text(encoding="utf-8"), str(path))


def base_of(path: Path) -> str:
    """The edition a variant file extends."""
    extends = module_of(path).header.extends
    assert extends is not None, f"{path.name} does not extend an edition"
    return extends


def run(*argv: str) -> tuple[int, str, str]:
    """Run the landlord-dsl command line in this process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(list(argv), out=out)
    return code, out.getvalue(), err.getvalue()


def game_1906(edition: str, **kw):
    """A scenario game of a 1906 variant, the reconstructed Chance pack off unless asked for."""
    kw.setdefault("chance_deck", False)
    return make_game(edition=edition, **kw)


def game_1933(edition: str, **kw):
    """A scenario game of a 1933 variant, the stand-in card decks off unless asked for.

    The seats pass on the once-a-turn trading offer unless the script answers it.
    """
    kw.setdefault("proxy_decks", False)
    kw.setdefault("passes", (TRADE_PROMPT_1933,))
    return make_game(edition=edition, **kw)


def on_top(g, deck_name: str, card_name: str) -> None:
    """Put a card on top of its deck."""
    c = g.prog.card_names.index(card_name)
    g.decks[deck_name].remove(c)
    g.decks[deck_name].insert(0, c)


# =====================================================================
# Every variant file: loads, checks, cites, simulates
# =====================================================================


def test_the_library_has_the_twelve_variants():
    assert set(VARIANTS) >= {
        WITHOUT_LOT_TICKETS,
        AVERAGE_HANDS,
        DEMONSTRATION,
        PROLONGED,
        JACKPOT,
        DOUBLE_GO,
        HOUSING_SHORTAGE,
        JAIL_INSURANCE,
        NO_AUCTIONS,
        NO_EVEN_BUILDING,
        PAUPERS,
        START_500,
    }


@pytest.mark.parametrize("path", VARIANT_FILES, ids=VARIANTS)
def test_variant_file_loads_checks_and_is_named_after_its_edition(path: Path):
    text = path.read_text(encoding="utf-8")
    module = module_of(path)
    base = base_of(path)
    # named <edition>-<rule> after the edition it extends (its name up to the year: monopoly-1933-...),
    # and listed under that name
    assert module.header.name == path.stem
    edition = re.match(r".*?\d{4}", base)
    assert edition is not None and path.stem.startswith(edition.group() + "-")
    assert path.stem in ld.shipped_editions()
    # checks (through the API and the command line) and is in canonical layout
    assert ld.check(text, str(path)) == []
    code, out, err = run("check", str(path))
    assert code == 0 and out.endswith(": ok\n"), err
    assert ld.format_source(text, str(path)) == text
    rs = ld.load_edition(path.stem)
    assert rs.model.header.name == path.stem and rs.modules[0].header.extends is None


@pytest.mark.parametrize("path", VARIANT_FILES, ids=VARIANTS)
def test_variant_file_cites_every_declaration(path: Path):
    module = module_of(path)
    assert module.header.provenance is not None
    uncited = []
    for d in module.declarations:
        if isinstance(d, ast.RemoveDecl):
            continue
        if isinstance(d, ast.BoardDecl):
            uncited += [f"space {s.name}" for s in d.spaces if s.provenance is None]
            continue
        if getattr(d, "provenance", "none") is None:
            uncited.append(f"{type(d).__name__} {getattr(d, 'name', '')}")
    assert not uncited, f"declarations without provenance in {path.name}: {uncited}"


@pytest.mark.parametrize("path", VARIANT_FILES, ids=VARIANTS)
def test_variant_file_simulates_keeping_every_invariant(path: Path):
    program = ld.compile_rules(ld.load_edition(path.stem))
    low, high = program.players
    for players, seed in [(min(max(4, low), high), 1), (max(2, low), 2), (min(max(3, low), high), 3)]:
        g = ld.new_game(program, agents=[HeuristicAgent() for _ in range(players)], seed=seed)
        result = g.play()
        assert g.conserved() and g.invariant_problems() == [], (seed, g.invariant_problems())
        assert result.turns <= g.turn_limit


@pytest.mark.parametrize("name", VARIANTS)
def test_every_variant_has_a_scenario_test(name: str):
    prefix = f"test_variant_{name.replace('-', '_')}_"
    found = [n for n in globals() if n.startswith(prefix) and callable(globals()[n])]
    assert found, f"write a scenario test named {prefix}<what> for editions/variants/{name}.lg"


# =====================================================================
# Scenarios: each variant's rule in action
# =====================================================================

# --------------------------------------------- landlords-game-1904-without-lot-tickets


def test_variant_landlords_game_1904_without_lot_tickets_no_tickets_and_100_dollars():
    """magie-1904, Playing without the lot tickets: no lots dealt at the start, $100 each."""
    g = make_game(3, edition=WITHOUT_LOT_TICKETS, start=False)
    g.setup()
    assert [cash(g, s) for s in range(3)] == [100, 100, 100]
    assert all(cards_of(g, s) == [] for s in range(3)) and decisions(g) == []
    # the patent's ordinary game deals the lot tickets and sells the lots drawn
    ordinary = ld.new_game(E1904, players=3, seed=1)
    ordinary.setup()
    assert any(ordinary.cards_of(s) for s in range(3))
    assert rules(WITHOUT_LOT_TICKETS).model.options["circuits_to_end"].default == 5


# --------------------------------------------------- landlords-game-1906-average-hands


def test_variant_landlords_game_1906_average_hands_each_player_takes_a_hand_and_75():
    """magie-1906, preface: each player takes one of the four average hands and $75, no cards are bought."""
    g = game_1906(AVERAGE_HANDS, players=4, start=False, first=0)
    g.setup()
    hands = {
        0: ["the_bowery", "beggarmans_court", "wall_street", "royal_rusher_rr", "gee_whiz_rr"],
        1: ["boomtown", "fairhope_avenue", "grand_boulevard", "shooting_star_rr", "slambang_trolley"],
        2: ["lonely_lane", "goat_alley", "easy_street", "george_street", "pdq_rr", "speculation"],
        3: ["the_pike", "market_place", "cottage_terrace", "broadway", "fifth_avenue"],
    }
    for seat, hand in hands.items():
        assert cash(g, seat) == 75
        assert sorted(cards_of(g, seat)) == sorted(hand)
    assert decisions(g) == [] and payments(g)[0] == (75, "miscellaneous", "p0", "buying_titles")
    # the edition's own default is still the ordinary deal
    assert rules(E1906).model.options["average_hands"].default is False


# ----------------------------------------- landlords-game-1906-monopolist-demonstration


def test_variant_landlords_game_1906_monopolist_demonstration_landlord_holds_the_land_and_draws_no_wages():
    """magie-1906, closing section: the landlord holds every lot, all start with $100, he draws no wages."""
    g = game_1906(DEMONSTRATION, players=2, start=False, first=0, throws=[(1, 2), (1, 2)])
    g.setup()
    lots = [s.name for s in rules(DEMONSTRATION).model.spaces if s.kind == "lot"]
    assert lots and all(owner(g, s) == 0 for s in lots)
    assert [cash(g, s) for s in range(2)] == [100, 100]
    # both pass Mother Earth from the Luxury space: only the tenant draws his wages
    put(g, 0, "luxury")
    put(g, 1, "luxury")
    turn(g, 0)
    turn(g, 1)
    assert [p for p in payments(g) if p[3] == "wages_rule"] == [(100, "miscellaneous", "p1", "wages_rule")]
    assert pvar(g, "wages_received", 0) == 0  # Rule 19: having received no wages, his circuit does not count
    assert_script_used_up(g)


# ---------------------------------------------------- landlords-game-1906-prolonged-game


def test_variant_landlords_game_1906_prolonged_game_fifth_wages_do_not_end_it():
    """magie-1906, Rule 19: the prolonged game does not stop when a player has received his wages five times."""
    for edition, ends in [(E1906, True), (PROLONGED, False)]:
        g = game_1906(edition, cash=200, at=["jail", "jail"], throws=[(4, 6)])
        set_pvar(g, "wages_received", 1, 5)
        turn(g, 0)
        assert g.over is ends, edition
    assert [e.name for e in rules(PROLONGED).model.ends] == []


def test_variant_landlords_game_1906_prolonged_game_stops_at_the_next_double_after_the_agreed_turn():
    """magie-1906, Rule 19: 'agree to stop, say, at the next double thrown by any of the players'."""
    g = game_1906(PROLONGED, cash=200, at=["jail", "jail"], throws=[(5, 5), (4, 6), (1, 1)], stop_after_turn=10)
    g.turn = 4
    turn(g, 0)  # a double before the agreed turn: play goes on
    assert where(g, 0) == "poor_house" and not g.over
    g.turn = 10
    turn(g, 1)  # turn 11, after the agreed turn, but no double
    assert not g.over
    turn(g, 0)  # turn 12: the next double; the thrower moves by it, then the game ends
    assert where(g, 0) == "chance_1"
    assert g.over and g.end_reason == "ended by rule 'prolonged_game'"
    assert_script_used_up(g)


def test_variant_landlords_game_1906_prolonged_game_the_speculation_throw_counts():
    """A double thrown while speculating ends the prolonged game too (and still wins its $100)."""
    g = game_1906(
        PROLONGED,
        cash=200,
        at=["royal_rusher_rr", "jail"],
        throws=[(1, 2), (3, 3)],
        answers=[["forward"], []],
        stop_after_turn=0,
    )
    give(g, "speculation", 1)
    turn(g, 0)
    assert where(g, 0) == "speculation"
    assert (100, "miscellaneous", "p0", "speculation_rule") in payments(g)
    assert g.over and g.end_reason == "ended by rule 'prolonged_game'"
    assert_script_used_up(g)


def test_variant_landlords_game_1906_prolonged_game_a_moving_double_counts_before_speculating():
    """The double a player moves by ends the game even when a Speculation throw follows it."""
    g = game_1906(
        PROLONGED,
        cash=200,
        at=["hoggs_game_preserves", "jail"],
        throws=[(2, 2), (2, 3)],
        answers=[["forward"], []],
        stop_after_turn=0,
    )
    give(g, "speculation", 1)
    turn(g, 0)
    assert where(g, 0) == "speculation" and g.dice == (2, 3)
    assert g.over and g.end_reason == "ended by rule 'prolonged_game'"
    assert_script_used_up(g)


# --------------------------------------------------- monopoly-1933-free-parking-jackpot


def test_variant_monopoly_1933_free_parking_jackpot_taxes_go_to_the_pot_and_free_parking_takes_it():
    g = game_1933(JACKPOT, cash=[1000, 500], at=["go", "st_james_place"], throws=[(1, 3), (1, 2), (1, 3)])
    turn(g, 0)  # Income Tax: 10% of $1,000
    assert payments(g) == [(100, "p0", "jackpot", "income_tax_rule")]
    put(g, 0, "short_line")
    turn(g, 0)  # Luxury Tax: $75
    assert g.account_balance("jackpot") == 175
    turn(g, 1)  # St. James Place + 4: Free Parking takes the pot
    assert where(g, 1) == "free_parking" and cash(g, 1) == 675 and g.account_balance("jackpot") == 0
    assert payments(g)[-1] == (175, "jackpot", "p1", "free_parking_rule")
    assert_script_used_up(g)


def test_variant_monopoly_1933_free_parking_jackpot_card_charges_and_jail_fines_go_to_the_pot():
    g = game_1933(
        JACKPOT,
        cash=500,
        at=["income_tax", "jail"],
        throws=[(1, 2), (3, 4)],
        answers=[[], ["pay_fine"]],
        proxy_decks=True,
    )
    on_top(g, "chance_cards", "chance_school_tax")
    on_top(g, "chest_cards", "chest_services")
    set_pvar(g, "in_jail", 1, True)
    turn(g, 0)  # Chance: a $150 school tax
    turn(g, 1)  # pays the $50 fine to come out, then throws to Community Chest
    assert payments(g) == [
        (150, "p0", "jackpot", "chance_and_chest"),
        (50, "p1", "jackpot", "jail_rule"),
        (25, "bank", "p1", "chance_and_chest"),
    ]
    assert g.account_balance("jackpot") == 200
    # the edition pays the same charge to the Banker
    plain = game_1933(E1933, cash=500, at=["income_tax", "go"], throws=[(1, 2)], proxy_decks=True)
    on_top(plain, "chance_cards", "chance_school_tax")
    turn(plain, 0)
    assert payments(plain) == [(150, "p0", "bank", "chance_and_chest")]
    assert_script_used_up(g)


# ------------------------------------------------------- monopoly-1933-double-go-salary


def test_variant_monopoly_1933_double_go_salary_landing_on_go_pays_400_passing_200():
    g = game_1933(DOUBLE_GO, cash=0, at=["park_place", "boardwalk"], throws=[(1, 2), (1, 2)])
    turn(g, 0)  # Park Place + 3: exactly on GO
    assert where(g, 0) == "go" and cash(g, 0) == 400
    assert payments(g) == [(200, "bank", "p0", "salary_rule"), (200, "bank", "p0", "go_landing_salary")]
    turn(g, 1)  # Boardwalk + 3: past GO to Community Chest, the single salary
    assert where(g, 1) == "community_chest_1" and cash(g, 1) == 200
    # the edition pays $200 for landing on GO
    plain = game_1933(E1933, cash=0, at=["park_place", "go"], throws=[(1, 2)])
    turn(plain, 0)
    assert where(plain, 0) == "go" and cash(plain, 0) == 200


def test_variant_monopoly_1933_double_go_salary_advance_to_go_card_counts():
    g = game_1933(DOUBLE_GO, cash=0, at=["north_carolina_avenue", "go"], throws=[(1, 3)], proxy_decks=True)
    on_top(g, "chance_cards", "chance_advance_to_go")
    turn(g, 0)  # North Carolina Avenue + 4: Chance, "Advance to GO"
    assert where(g, 0) == "go" and cash(g, 0) == 400
    assert payments(g) == [(200, "bank", "p0", "salary_rule"), (200, "bank", "p0", "go_landing_salary")]


# ----------------------------------------------------------- monopoly-1933-no-auctions


def test_variant_monopoly_1933_no_auctions_a_declined_lot_is_not_auctioned():
    g = game_1933(
        NO_AUCTIONS, cash=500, at=["go", "go"], throws=[(2, 4), (2, 4)], answers=[["decline"], ["buy", "done"]]
    )
    turn(g, 0)
    assert where(g, 0) == "oriental_avenue" and owner(g, "oriental_avenue") is None
    assert bids(g) == [] and payments(g) == []  # no auction, and no rent to nobody
    turn(g, 1)  # the next lander may still buy it at its price
    assert owner(g, "oriental_avenue") == 1 and payments(g) == [(100, "p1", "bank", "buying")]
    assert_script_used_up(g)
    # the edition auctions what the lander declines: every player is asked to bid
    plain = game_1933(E1933, cash=500, at=["go", "go"], throws=[(2, 4)], answers=[["decline", None], [None]])
    turn(plain, 0)
    assert [seat for seat, _ in bids(plain)] == [0, 1]


# ------------------------------------------------------ monopoly-1933-no-even-building


def _green_owner(edition: str, answers: list):
    """Seat 1 owns Arctic and Baltic Avenues, one house on Baltic; he throws to Community Chest."""
    g = game_1933(edition, cash=1000, at=["jail", "go"], throws=[(3, 4)], answers=[answers, []])
    give(g, "arctic_avenue", 0)
    give(g, "baltic_avenue", 0)
    set_houses(g, "baltic_avenue", 1)
    return g


def test_variant_monopoly_1933_no_even_building_a_second_house_before_the_first_elsewhere():
    plain = _green_owner(E1933, ["done"])
    turn(plain, 0)
    assert offered(plain, 0)[0].count("build") == 1  # 1933, HOUSES: only Arctic Avenue, to even the group
    g = _green_owner(NO_EVEN_BUILDING, [1, "done"])  # the second build option: Baltic Avenue
    turn(g, 0)
    assert offered(g, 0)[0].count("build") == 2
    assert houses(g, "baltic_avenue") == 2 and houses(g, "arctic_avenue") == 0
    assert payments(g) == [(50, "p0", "bank", "improving")]
    assert_script_used_up(g)


def test_variant_monopoly_1933_no_even_building_tearing_down_need_not_be_even():
    g = _green_owner(NO_EVEN_BUILDING, ["done"])
    set_houses(g, "arctic_avenue", 2)  # Baltic has one, Arctic two: Baltic's may come down first
    turn(g, 0)
    assert offered(g, 0)[0].count("tear_down") == 2
    plain = _green_owner(E1933, ["done"])
    set_houses(plain, "arctic_avenue", 2)
    turn(plain, 0)
    assert offered(plain, 0)[0].count("tear_down") == 1


# -------------------------------------------------------------- monopoly-1933-500-start


def test_variant_monopoly_1933_500_start_every_player_starts_with_500():
    for edition, start in [(START_500, 500), (E1933, 1500)]:
        g = game_1933(edition, players=3, start=False, first=0)
        g.setup()
        assert [cash(g, s) for s in range(3)] == [start] * 3
        assert payments(g) == [(start, "bank", f"p{s}", "setting_up") for s in range(3)]


# ---------------------------------------------------- the 1933 customs (older variants)


def test_variant_monopoly_1933_jail_insurance_the_corner_policy_keeps_him_out_of_jail():
    """anspach-1933, JAIL INSURANCE: $25 before throwing insures against the Go to Jail corner."""
    g = game_1933(
        JAIL_INSURANCE, cash=100, at=["b_and_o_railroad", "go"], throws=[(2, 3)], answers=[["corner", "done"], []]
    )
    turn(g, 0)
    assert payments(g) == [(25, "p0", "bank", "jail_insurance")]
    assert where(g, 0) == "go_to_jail" and pvar(g, "in_jail", 0) is False


def test_variant_monopoly_1933_paupers_a_pauper_pays_no_tax():
    """anspach-1933, PAUPERS: no property and less than $100: the Luxury Tax is cancelled."""
    g = game_1933(PAUPERS, cash=50, at=["short_line", "go"], throws=[(1, 2)])
    turn(g, 0)
    assert where(g, 0) == "luxury_tax" and payments(g) == [] and cash(g, 0) == 50 and 0 in g.seats
    plain = game_1933(E1933, cash=50, at=["short_line", "go"], throws=[(1, 2)])
    turn(plain, 0)
    assert unpaid(plain) == [(0, 25, "luxury_tax_rule")] and 0 not in plain.seats


def test_variant_monopoly_1933_free_rides_no_rent_for_the_seller_on_a_free_ride():
    """anspach-1933, FREE RIDES: the seller of a lot, paid in part with free rides, stops on it rent-free."""
    g = game_1933(FREE_RIDES, cash=500, at=["go", "go"], throws=[(1, 2)])
    give(g, "baltic_avenue", 1)
    set_svar(g, "free_rider", "baltic_avenue", 0)
    set_svar(g, "free_rides_left", "baltic_avenue", 1)
    turn(g, 0)
    assert where(g, 0) == "baltic_avenue" and payments(g) == []
    plain = game_1933(E1933, cash=500, at=["go", "go"], throws=[(1, 2)])
    give(plain, "baltic_avenue", 1)
    turn(plain, 0)
    assert payments(plain) == [(4, "p0", "p1", "land_rent")]


def test_variant_monopoly_1933_housing_shortage_no_house_when_the_banker_has_none():
    """anspach-1933, HOUSING SHORTAGE: with the 32 houses on the board, the owner of a monopoly must wait."""

    def build_offered(edition):
        g = game_1933(edition, cash=1000, at=["jail", "go"], throws=[(3, 4)], answers=[["done"], []])
        give(g, "arctic_avenue", 0)
        give(g, "baltic_avenue", 0)
        for lot in [
            "oriental_avenue",
            "vermont_avenue",
            "connecticut_avenue",
            "st_charles_place",
            "states_avenue",
            "virginia_avenue",
            "st_james_place",
            "tennessee_avenue",
        ]:
            set_houses(g, lot, 4)
        turn(g, 0)
        return "build" in offered(g, 0)[0]

    assert build_offered(E1933) and not build_offered(HOUSING_SHORTAGE)


# ------------------------------------------------------------ monopoly-1933-speed-die
# A modern house rule, not in the 1933 text: the variant file's header lists the readings checked here.


def test_variant_monopoly_1933_speed_die_variant_adds_a_die_and_changes_one_action_only():
    """Issue 18 item 3: the speed die is its declaration and the move of a throw; no turn rule is copied."""
    module = ld.load_edition(SPEED_DIE).modules[-1]
    assert [(type(d).__name__, d.name) for d in module.declarations] == [
        ("DiceDecl", "speed"),
        ("ActionDecl", "move_by_throw"),
    ]


def test_variant_monopoly_1933_speed_die_number_adds_to_the_pair():
    """Speed die reading 1: a number face adds to the pair: 4 + 5 + 1 from Jail (visiting) is Free Parking."""
    g = game_1933(SPEED_DIE, cash=500, at=["jail", "go"], throws=[(4, 5), (1,)])
    turn(g, 0)
    assert moves(g) == [(0, "jail", "free_parking", "move")]
    assert_script_used_up(g)


def test_variant_monopoly_1933_speed_die_mr_monopoly_goes_on_to_the_next_unowned_property():
    """Speed die reading 2: Mr. Monopoly: move by the pair, settle the landing, then go on to the next
    property nobody owns (Kentucky Avenue is owned, so Indiana Avenue), and buy it."""
    g = game_1933(SPEED_DIE, cash=500, at=["jail", "go"], throws=[(4, 6), (4,)], answers=[["buy", "done"], []])
    give(g, "kentucky_avenue", 1)
    turn(g, 0)
    assert moves(g) == [(0, "jail", "free_parking", "move"), (0, "free_parking", "indiana_avenue", "move")]
    assert owner(g, "indiana_avenue") == 0 and cash(g, 0) == 500 - 220
    assert_script_used_up(g)


def test_variant_monopoly_1933_speed_die_mr_monopoly_stays_when_every_property_is_owned():
    g = game_1933(SPEED_DIE, cash=500, at=["jail", "go"], throws=[(4, 6), (5,)])
    for index, price in enumerate(g.prog.space_fields["price"]):
        if price is not None:
            give(g, g.prog.space_names[index], 1)
    turn(g, 0)
    assert moves(g) == [(0, "jail", "free_parking", "move")]


def test_variant_monopoly_1933_speed_die_bus_moves_by_one_die_or_both():
    """Speed die reading 3: the bus: the player picks one die of the pair or both."""
    g = game_1933(SPEED_DIE, cash=500, at=["jail", "go"], throws=[(2, 5), (6,)], answers=[["other", "buy", "done"], []])
    turn(g, 0)
    assert offered(g, 0)[0] == ["one", "other", "both"]
    assert labels(g, 0)[0] == ["Move 2", "Move 5", "Move 7"]
    assert moves(g) == [(0, "jail", "pennsylvania_railroad", "move")] and owner(g, "pennsylvania_railroad") == 0
    assert_script_used_up(g)


def test_variant_monopoly_1933_speed_die_triples_go_anywhere_and_throw_again_as_a_double():
    """Speed die reading 4: triples (2, 2 and a 2) go to any space; as a double they throw again."""
    free_parking = 20
    g = game_1933(
        SPEED_DIE, cash=500, at=["go", "go"], throws=[(2, 2), (2,), (4, 5), (1,)], answers=[[free_parking], []]
    )
    turn(g, 0)
    assert moves(g)[:2] == [(0, "go", "free_parking", "move"), (0, "free_parking", "go_to_jail", "move")]
    assert where(g, 0) == "jail" and pvar(g, "in_jail", 0) is True
    assert_script_used_up(g)


def test_variant_monopoly_1933_speed_die_is_not_thrown_in_jail():
    """Speed die reading 5: a double out of Jail moves by the pair alone; no speed die is asked for."""
    g = game_1933(SPEED_DIE, cash=100, at=["jail", "go"], throws=[(5, 5)], answers=[["try_doubles"], []])
    set_pvar(g, "in_jail", 0, True)
    turn(g, 0)
    assert where(g, 0) == "free_parking"
    assert_script_used_up(g)


def test_variant_monopoly_1933_speed_die_combines_with_another_variant_without_conflict():
    """`monopoly-1933-speed-die+monopoly-1933-free-rides`: both change different places of the edition."""
    combined = ld.load_edition(f"{SPEED_DIE}+{FREE_RIDES}")
    assert "speed" in combined.model.dice_sets and "free_rides" in [r.name for r in combined.model.rules]
    program = ld.compile_rules(combined)
    game = ld.new_game(program, players=3, seed=5)
    game.play()
    assert any(e[0] == "throw" for e in game.log) and game.conserved()


def test_variant_monopoly_1933_speed_die_game_is_thrown_pair_first_and_narrated():
    program = ld.compile_rules(ld.load_edition(SPEED_DIE))
    game = ld.new_game(program, players=2, seed=11)
    game.play()
    kinds = [e[0] for e in game.log if e[0] in ("roll", "throw")]
    assert "throw" in kinds and all(kinds[i - 1] == "roll" for i, k in enumerate(kinds) if k == "throw")
    from landlord_dsl.presentation.narrate import describe_event

    throw = next(e for e in game.log if e[0] == "throw")
    assert describe_event(game, throw).startswith(f"{game.names[throw[2]]} throws the speed die: ")


# =====================================================================
# Combining variants: a+b
# =====================================================================


def test_combining_free_parking_jackpot_and_no_auctions_shows_both_effects():
    combined = f"{JACKPOT}+{NO_AUCTIONS}"
    g = game_1933(
        combined,
        cash=[1000, 500],
        at=["go", "st_james_place"],
        throws=[(1, 3), (2, 4), (1, 3)],
        answers=[["decline"], []],
    )
    assert g.prog.name == combined
    turn(g, 0)  # Income Tax into the pot
    put(g, 0, "go")
    turn(g, 0)  # Oriental Avenue declined: no auction
    assert where(g, 0) == "oriental_avenue" and owner(g, "oriental_avenue") is None and bids(g) == []
    turn(g, 1)  # Free Parking takes the pot
    assert payments(g) == [(100, "p0", "jackpot", "income_tax_rule"), (100, "jackpot", "p1", "free_parking_rule")]
    assert_script_used_up(g)


def test_combining_variants_on_the_command_line():
    code, out, err = run("simulate", f"{E1933}+{JACKPOT}+{NO_AUCTIONS}", "--games", "3", "--json")
    assert code == 0, err
    summary = json.loads(out)
    assert summary["edition"] == f"{E1933}+{JACKPOT}+{NO_AUCTIONS}"
    assert summary["money_conserved_in_all_games"] is True


def test_a_combination_is_titled_by_its_edition_and_every_variant_by_name(tmp_path: Path):
    """The title names the edition and each variant by its file's stem, as the language reference says
    (the walkthrough used to say the last variant's title, and the title kept a file's `.lg`)."""
    mine = tmp_path / "monopoly-1933-1000-start.lg"
    mine.write_text(
        'edition "monopoly-1933-1000-start" {\n'
        '    title "Monopoly with $1000"\n'
        '    extends "monopoly-1933-atlantic-city"\n'
        '    source "none: a test" reconstruction\n'
        "}\n\n"
        'const start_cash = 1000 source "none: a test" reconstruction\n'
    )
    base_title = ld.load_edition(E1933).model.header.title
    combined = ld.load_edition(f"{E1933}+{mine}+{NO_AUCTIONS}")
    assert combined.name == f"{E1933}+{mine}+{NO_AUCTIONS}"
    assert combined.model.header.title == f"{base_title}, with monopoly-1933-1000-start, {NO_AUCTIONS}"
    reference = (ROOT / "docs" / "language" / "declarations.md").read_text()
    assert "titled by the edition's title followed\nby `, with ` and each variant's name" in reference


@pytest.mark.parametrize("edition", [E1906, E1933])
def test_all_the_variants_of_an_edition_combine_and_play(edition: str):
    """No two shipped variants of one edition conflict: all of them load together and play."""
    names = [p.stem for p in VARIANT_FILES if base_of(p) == edition]
    assert len(names) >= 3
    combined = ld.load_edition("+".join(names))
    assert combined.name == "+".join(names)
    program = ld.compile_rules(combined)
    for seed in range(2):
        g = ld.new_game(program, agents=[HeuristicAgent() for _ in range(4)], seed=seed)
        g.play()
        assert g.invariant_problems() == []


def test_a_combination_whose_name_is_too_long_for_a_file_is_still_read_as_names():
    """Ten 1933 variants joined by '+' make a name longer than a file name may be: it is not taken for a path."""
    name = "+".join([NO_AUCTIONS] * 14)
    assert len(name) > 255
    assert ld.load_edition(name).name == name


def test_two_variants_that_change_one_declaration_differently_conflict(tmp_path: Path):
    mine = tmp_path / "monopoly-1933-1000-start.lg"
    mine.write_text(
        'edition "monopoly-1933-1000-start" {\n'
        '    extends "monopoly-1933-atlantic-city"\n'
        '    source "none: a test" reconstruction\n'
        "}\n\n"
        'const start_cash = 1000 source "none: a test" reconstruction\n'
    )
    with pytest.raises(ld.LandlordError) as info:
        ld.load_edition(f"{START_500}+{mine}")
    rendered = info.value.render()
    assert "conflict: const 'start_cash' is changed differently by two variants" in rendered
    assert f"{START_500}.lg:" in rendered and f"{mine}:6:1" in rendered
    assert "the other change of const 'start_cash'" in rendered
    # the command line reports it the same way
    code, _out, err = run("check", f"{START_500}+{mine}")
    assert code == 1 and f"{START_500}.lg:" in err and f"{mine}:6:1" in err
    # the same change, word for word (citation included), made by two variants is not a conflict
    same = tmp_path / "monopoly-1933-500-start-again.lg"
    const = (VARIANTS_DIR / f"{START_500}.lg").read_text().split("\nconst ", 1)[1]
    same.write_text(
        mine.read_text().split("\nconst ", 1)[0].replace("1000-start", "500-start-again") + "\nconst " + const
    )
    combined = ld.compile_rules(ld.load_edition(f"{START_500}+{same}"))
    g = ld.new_game(combined, players=2, seed=1)
    g.setup()
    assert [g.cash(s) for s in range(2)] == [500, 500]


def test_variants_of_different_editions_do_not_combine():
    with pytest.raises(ld.LandlordError, match="is not a variant of the same edition"):
        ld.load_edition(f"{START_500}+{AVERAGE_HANDS}")


def test_removing_a_card_conflicts_with_a_variant_that_restates_its_deck(tmp_path: Path):
    mine = tmp_path / "monopoly-1933-no-refund.lg"
    mine.write_text(
        'edition "monopoly-1933-no-refund" {\n    extends "monopoly-1933-atlantic-city"\n'
        '    source "none: a test" reconstruction\n}\n\nremove card chest_tax_refund\n'
    )
    with pytest.raises(ld.LandlordError):
        ld.load_edition(f"{mine}+{JACKPOT_LONG}")


def test_1906_rule_11_a_variant_removing_a_chance_card_plays_a_pack_of_seven(tmp_path: Path):
    """The 1906 Chance pack declares `size 8`, a count of its own list: a variant's `remove card` takes the card
    out of the count too (it was refused, blamed on the variant's header, as if the base had lost a card)."""
    mine = tmp_path / "landlords-game-1906-no-fines.lg"
    mine.write_text(
        'edition "landlords-game-1906-no-fines" {\n    extends "landlords-game-1906"\n'
        '    source "none: a test" reconstruction\n}\n\nremove card fine\n'
    )
    assert ld.check(mine.read_text(), str(mine)) == []
    rules = ld.load_edition(str(mine))
    deck = next(d for d in rules.model.decks.values() if d.name == "chance_cards")
    assert deck.size == 7 and "fine" not in [c.name for c in deck.cards]
    game = ld.new_game(rules, players=2, seed=1)
    game.setup()
    assert len(game.decks["chance_cards"]) == 7


def test_1906_rule_1_a_variant_removing_a_lot_deals_a_green_pack_of_28(tmp_path: Path):
    """1906's green pack (Rule 1) declares `size 29`, the deeds its own board gives it: removing Wayback, a lot
    nothing else names, takes its deed off the count (it was refused, blamed on the variant's header)."""
    mine = tmp_path / "landlords-game-1906-no-wayback.lg"
    mine.write_text(
        'edition "landlords-game-1906-no-wayback" {\n    extends "landlords-game-1906"\n'
        '    source "none: a test" reconstruction\n}\n\nremove space wayback\n'
    )
    assert ld.check(mine.read_text(), str(mine)) == []
    rules = ld.load_edition(str(mine))
    assert rules.model.decks["green_cards"].size == 28
    game = ld.new_game(rules, players=2, seed=1)
    game.play()
    assert game.invariant_problems() == []


def test_two_variants_that_remove_the_same_rule_combine(tmp_path: Path):
    names = []
    for n in ("a", "b"):
        path = tmp_path / f"landlords-game-1906-no-trust-{n}.lg"
        path.write_text(
            f'edition "landlords-game-1906-no-trust-{n}" {{\n    extends "landlords-game-1906"\n'
            '    source "none: a test" reconstruction\n}\n\nremove rule trust\n'
        )
        names.append(str(path))
    rs = ld.load_edition("+".join(names))
    assert "trust" not in [r.name for r in rs.model.rules]


# =====================================================================
# diff: each variant against its edition lists exactly what it changes
# =====================================================================

EXPECTED_CHANGES: dict[str, set[tuple[str, str, str]]] = {
    WITHOUT_LOT_TICKETS: {
        ("const", "changed", "start_cash"),
        ("const", "removed", "circuits_to_end"),
        ("option", "added", "circuits_to_end"),
        ("rule", "changed", "lot_ticket_deal"),
    },
    AVERAGE_HANDS: {("option", "changed", "average_hands")},
    DEMONSTRATION: {
        ("const", "added", "demonstration_cash"),
        ("function", "added", "is_landlord"),
        ("rule", "changed", "buying_titles"),
        ("rule", "changed", "wages_rule"),
    },
    PROLONGED: {
        ("const", "removed", "wages_to_end"),
        ("end", "removed", "fifth_wages"),
        ("function", "added", "agreed_stop_reached"),
        ("option", "added", "stop_after_turn"),
        ("rule", "added", "prolonged_game"),
        ("variable", "added", "game stopping_double"),
        ("action", "changed", "move_by_throw"),
    },
    START_500: {("const", "changed", "start_cash")},
    DOUBLE_GO: {("rule", "added", "go_landing_salary")},
    JACKPOT: {
        ("account", "added", "jackpot"),
        ("rule", "changed", "free_parking_rule"),
        ("reroute", "added", "tax"),
        ("reroute", "added", "fine"),
        ("reroute", "added", "fee"),
    },
    HOUSING_SHORTAGE: {
        ("const", "added", "hotel_supply"),
        ("const", "added", "house_supply"),
        ("function", "added", "hotels_in_use"),
        ("function", "added", "hotels_left"),
        ("function", "added", "houses_in_use"),
        ("function", "added", "houses_left"),
        ("function", "added", "lots_at_hotel_level"),
        ("function", "changed", "can_add_building"),
        ("function", "changed", "can_remove_building"),
    },
    JAIL_INSURANCE: {
        ("const", "added", "chance_premium"),
        ("const", "added", "corner_premium"),
        ("const", "added", "reach_max"),
        ("const", "added", "reach_min"),
        ("function", "added", "approaching"),
        ("function", "added", "has_land_monopoly"),
        ("function", "added", "throw_chance"),
        ("function", "changed", "insured_against"),
        ("rule", "added", "jail_insurance"),
        ("variable", "added", "player insured_chance"),
        ("variable", "added", "player insured_corner"),
    },
    NO_AUCTIONS: {("rule", "changed", "buying")},
    NO_EVEN_BUILDING: {("function", "changed", "even_to_build"), ("function", "changed", "even_to_tear_down")},
    PAUPERS: {
        ("const", "added", "pauper_cash"),
        ("function", "added", "pauper"),
        ("function", "changed", "bank_charge"),
        ("rule", "changed", "bankruptcy"),
    },
    SPEED_DIE: {
        ("dice set", "added", "speed"),
        ("action", "changed", "move_by_throw"),
    },
    FREE_RIDES: {
        ("const", "added", "free_ride_discount_pct"),
        ("const", "added", "free_rides_granted"),
        ("function", "added", "price_with_rides"),
        ("function", "added", "ride_worth"),
        ("function", "changed", "rent_waived"),
        ("action", "changed", "offer_for_sale"),
        ("rule", "added", "free_rides"),
        ("variable", "added", "space free_rider"),
        ("variable", "added", "space free_rides_left"),
    },
}


def _diff_params():
    for path in VARIANT_FILES:
        yield pytest.param(path, id=path.stem)


def _listed(out: str) -> set[tuple[str, str, str]]:
    """(category, change, name) of every change in `diff --color never` text output."""
    listed, category = set(), None
    for line in out.splitlines():
        heading = re.match(r"^([a-z ]+)s \(\d+\)$", line)
        if heading:
            category = heading.group(1)
            continue
        item = re.match(r"^  [+~-] (added|changed|removed|renamed|moved) (.+?)(?:  \[.*)?$", line.rstrip())
        if item and category != "header":
            listed.add((category, item.group(1), item.group(2)))
    return listed


@pytest.mark.slow
@pytest.mark.parametrize("path", list(_diff_params()))
def test_variant_diff_against_its_edition_lists_exactly_its_changes(path: Path):
    assert path.stem in EXPECTED_CHANGES, f"add what {path.name} changes to EXPECTED_CHANGES"
    expected = EXPECTED_CHANGES[path.stem]
    base = base_of(path)
    changes = ld.diff(base, path.stem)
    assert {(c.category, c.change, c.name) for c in changes if c.category != "header"} == expected
    assert [c.name for c in changes if c.category == "header"] == ["title"]
    code, out, _err = run("diff", base, path.stem, "--color", "never")
    assert code == 1 and out.startswith(f"--- {base}\n+++ {path.stem}\n")
    assert _listed(out) == expected


# =====================================================================
# docs/writing-a-variant.md: the walk-through is run command by command
# =====================================================================

PAGE = ROOT / "docs" / "writing-a-variant.md"
_FENCE = re.compile(r"^```(\w*)(?: title=\"[^\"]*\")?\n(.*?)^```[ \t]*$", re.M | re.S)
_MARKER = re.compile(r"<!-- walkthrough: (\w+)(.*?) -->\s*$", re.S)
SHORT_EDITIONS = ".../editions"  # how the page shows the directory of the shipped editions


def walkthrough_steps(text: str) -> list[dict]:
    """The page's fenced blocks in order, each with the walk-through marker just before it (if any)."""
    steps, end = [], 0
    for block in _FENCE.finditer(text):
        marker = _MARKER.search(text[end : block.start()])
        line = text.count("\n", 0, block.start()) + 1
        steps.append(
            {
                "what": marker.group(1) if marker else None,
                "args": marker.group(2).strip() if marker else "",
                "lang": block.group(1),
                "body": block.group(2),
                "line": line,
                "start": block.start(2),
                "end": block.end(2),
            }
        )
        end = block.end()
    return steps


def output_matches(actual: str, expected: str) -> bool:
    """Whether a command's output is the page's: line by line, a line `...` standing for any lines."""
    got = [line.rstrip() for line in actual.rstrip("\n").splitlines()]
    want = [line.rstrip() for line in expected.rstrip("\n").splitlines()]
    if "..." not in want:
        return got == want
    pieces, current = [], []
    for line in want:
        if line == "...":
            pieces.append(current)
            current = []
        else:
            current.append(line)
    pieces.append(current)
    first, *middle, last = pieces
    if got[: len(first)] != first or (last and got[len(got) - len(last) :] != last):
        return False
    at, stop = len(first), len(got) - len(last)
    for piece in middle:
        while at + len(piece) <= stop and got[at : at + len(piece)] != piece:
            at += 1
        if at + len(piece) > stop:
            return False
        at += len(piece)
    return at <= stop


def run_walkthrough(text: str, workdir: Path) -> list[tuple[dict, str]]:
    """Run every step of the page in `workdir`; return (output step, actual output) for every command."""
    steps = walkthrough_steps(text)
    outputs, pending = [], None
    for step in steps:
        what, where = step["what"], f"{PAGE.name}:{step['line']}"
        body = step["body"]
        if step["lang"] == "sh":
            assert what == "run", f"{where}: a ```sh block must be a `run` step of the walk-through"
        if what is None:
            continue
        assert pending is None or what == "output", f"{where}: the output of the command before is missing"
        args = shlex.split(step["args"])
        if what == "write":
            (workdir / args[0]).write_text(body, encoding="utf-8")
        elif what == "append":
            path = workdir / args[0]
            path.write_text(path.read_text(encoding="utf-8") + "\n" + body, encoding="utf-8")
        elif what == "replace":
            path = workdir / args[0]
            old = path.read_text(encoding="utf-8")
            assert old.count(args[1]) == 1, f"{where}: {args[1]!r} is not in the file once"
            path.write_text(old.replace(args[1], args[2]), encoding="utf-8")
            assert body.rstrip("\n") in path.read_text(encoding="utf-8"), f"{where}: the page shows another line"
        elif what == "quote":
            assert body in ld.load_edition(args[0]).path.read_text(encoding="utf-8"), (
                f"{where}: the quoted text is not in {args[0]}"
            )
        elif what == "expect":
            assert (workdir / args[0]).read_text(encoding="utf-8") == body, f"{where}: the file differs"
        elif what == "run":
            commands = [line for line in body.replace("\\\n", " ").splitlines() if line.strip()]
            assert len(commands) == 1, f"{where}: one command per block"
            argv = shlex.split(commands[0])
            assert argv[0] == "landlord-dsl", f"{where}: not a landlord-dsl command"
            code, out, err = run(*argv[1:])
            expected_code = int(dict(a.split("=") for a in args).get("exit", 0))
            assert code == expected_code, f"{where}: exit status {code}, the page says {expected_code}\n{out}{err}"
            pending = (out + err).replace(str(editions_dir()), SHORT_EDITIONS)
        elif what == "output":
            assert pending is not None, f"{where}: an output without a command"
            outputs.append((step, pending))
            pending = None
        else:
            raise AssertionError(f"{where}: unknown walk-through step {what!r}")
    assert pending is None, "the last command's output is missing"
    return outputs


@pytest.mark.slow
def test_writing_a_variant_walkthrough(tmp_path: Path, monkeypatch):
    """Every command of docs/writing-a-variant.md runs, in order, and prints what the page shows."""
    monkeypatch.chdir(tmp_path)
    text = PAGE.read_text(encoding="utf-8")
    outputs = run_walkthrough(text, tmp_path)
    assert len(outputs) >= 10
    if UPDATE:
        # rewrite the outputs that are shown whole (an output with `...` lines is kept by hand)
        for step, actual in sorted(outputs, key=lambda o: -o[0]["start"]):
            if "..." not in step["body"].splitlines():
                shown = "\n".join(line.rstrip() for line in actual.rstrip("\n").splitlines())
                text = text[: step["start"]] + shown + "\n" + text[step["end"] :]
        PAGE.write_text(text, encoding="utf-8")
    for step, actual in outputs:
        assert output_matches(actual, step["body"]), (
            f"{PAGE.name}:{step['line']}: the page shows\n{step['body']}\nbut the command printed\n{actual}"
        )
    # the walk-through's variant ends up checked and in canonical layout
    final = (tmp_path / "monopoly-1933-flat-income-tax.lg").read_text(encoding="utf-8")
    assert ld.check(final) == [] and ld.format_source(final) == final


def test_writing_a_variant_page_covers_every_step_and_lists_every_variant():
    text = PAGE.read_text(encoding="utf-8")
    steps = walkthrough_steps(text)
    commands = [s["body"].split()[1] for s in steps if s["what"] == "run"]
    for command in ["check", "fmt", "diff", "simulate"]:
        assert command in commands
    assert any("--outcomes" in s["body"] for s in steps if s["what"] == "run")
    assert any("+monopoly-1933-" in s["body"] for s in steps if s["what"] == "run")
    assert {s["what"] for s in steps} >= {"write", "append", "replace", "run", "output", "expect"}
    for name in VARIANTS:
        assert f"`{name}`" in text, f"{PAGE.name} does not list the variant {name}"
    assert "writing-a-variant.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def test_walkthrough_output_matching():
    assert output_matches("a\nb\nc\n", "a\nb\nc")
    assert output_matches("a\nb\nc\nd\n", "a\n...\nd")
    assert output_matches("a\nb\nc\nd\n", "...\nc\nd")
    assert output_matches("a\nb\nc\nd\n", "a\n...\nc\n...")
    assert not output_matches("a\nb\nc\n", "a\nc")
    assert not output_matches("a\nb\n", "a\n...\nc")
    assert not output_matches("a\nb\nc\n", "a\n...\nc\n...\nb")


# =====================================================================
# Declarations a variant restates must follow the edition
# =====================================================================


def _text(decl) -> str:
    """A declaration's canonical text without its citation and label."""
    from landlord_dsl.language.formatter import format_declaration

    fields = attrs.fields_dict(type(decl))
    return format_declaration(attrs.evolve(decl, **{k: None for k in ("provenance", "label") if k in fields}))


def test_restated_declarations_differ_from_the_edition_only_where_the_house_rule_does():
    """A variant that must restate a whole declaration to change one line (the language cannot change
    less) keeps the rest of it as the edition has it, so a later fix of the edition is not lost silently."""
    base, jackpot = rules(E1933).model, rules(JACKPOT_LONG).model
    # the long form has no purposes: it names the jackpot where the edition pays the Banker `as tax` (...)
    to_pot = lambda text: re.sub(r"from player to bank as \w+", "from player to jackpot", text)  # noqa: E731
    jail = lambda m: next(r for r in m.rules if r.name == "jail_rule")  # noqa: E731
    assert _text(jail(jackpot)) == to_pot(_text(jail(base)))
    for deck in ("chance_cards", "chest_cards"):

        def cards(m, change=lambda text: text, deck=deck):
            return {
                c.name: change(_text(attrs.evolve(m.decks[deck], cards=(attrs.evolve(c, provenance=None),))))
                for c in m.decks[deck].cards
            }

        assert cards(jackpot) == cards(base, to_pot), deck
    buying = lambda m: next(r for r in m.rules if r.name == "buying")  # noqa: E731
    auction = (
        'option decline "Decline: the Banker auctions it" {\n'
        "                    auction here start opening_bid step min_raise value here.price to bank\n"
        "                }"
    )
    assert _text(buying(rules(NO_AUCTIONS).model)) == _text(buying(base)).replace(
        auction, 'option decline "Decline: it stays with the Banker" { }'
    )
    noted = "    if agreed_stop_reached() {\n        set stopping_double = true\n    }\n"
    ours = _text(rules(PROLONGED).model.actions["move_by_throw"])
    theirs = _text(rules(E1906).model.actions["move_by_throw"])
    assert ours == theirs.replace("{\n", "{\n" + noted, 1)


def test_a_variant_that_restates_a_card_without_its_tag_keeps_the_tag():
    """A restated deck keeps its cards' tags (1933: the jail rules find the jail-free cards by tag), with a warning."""
    rules = ld.load_edition("monopoly-1933-atlantic-city")
    deck = next(d for d in rules.model.decks.values() if any(c.name == "chance_jail_free" for c in d.cards))
    text = (
        'edition "untagged" { title "T" extends "monopoly-1933-atlantic-city" source "house-rule" reconstruction }\n'
        f'deck {deck.name} "Chance" returned {{\n'
        '    card chance_jail_free "Get out of Jail free" { }\n'
        "}\n"
    )
    problems = ld.check(text, "untagged.lg")
    assert [(d.severity, d.message, d.span.line) for d in problems] == [
        (
            "warning",
            "card 'chance_jail_free' is restated without the tag jail_free the base gives it: it keeps it",
            3,
        )
    ]
    kept = ld.load_text(text, "untagged.lg").model.decks[deck.name]
    assert kept.cards[0].tags == ("jail_free",)
    assert ld.check(text.replace('free" {', 'free" tagged jail_free {'), "tagged.lg") == []
