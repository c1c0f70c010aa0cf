"""The rule sets a new user wrote from the docs (issue 27), kept in examples/ and held to what they say.

- `monopoly-1933-free-parking-jackpot+monopoly-1933-double-go-salary`: a jackpot with double salary (both
  shipped; the jackpot is a `reroute`, tests/test_reroute.py);
- `examples/landlords-game-1906-auctioned-deal.lg`: lots declined at the deal are auctioned;
- `examples/landlords-game-1939-citizens-dividend.lg`: a progressive tax paid out as a citizen's dividend;
- `examples/four-sided-ring.lg`: a 24-space game with its own dice (tests/test_statistics.py).

Each checks strictly, simulates with money conserved, and diffs against its base; the two house rules
written here also have a scenario each, which fails without the rule.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import landlord_dsl as ld
from landlord_dsl.agents import HeuristicAgent
from scenario_helpers import make_game, payments, turn
from test_scenarios_1939 import BANK, PASSES

ROOT = Path(__file__).resolve().parents[1]
AUCTIONED_DEAL = ROOT / "examples" / "landlords-game-1906-auctioned-deal.lg"
DIVIDEND = ROOT / "examples" / "landlords-game-1939-citizens-dividend.lg"
RULE_SETS = [
    "monopoly-1933-free-parking-jackpot+monopoly-1933-double-go-salary",
    str(AUCTIONED_DEAL),
    str(DIVIDEND),
    str(ROOT / "examples" / "four-sided-ring.lg"),
]


@pytest.mark.parametrize("name", RULE_SETS, ids=lambda n: Path(n).stem)
def test_each_rule_set_checks_strictly_simulates_and_diffs(name):
    if "+" not in name:  # (a combination of shipped files: they are checked strictly with the others)
        assert ld.check(Path(name).read_text(encoding="utf-8"), name, strict=True) == []
    rules = ld.load_edition(name)
    for seed in range(5):
        game = ld.new_game(rules, players=4, seed=seed)
        game.play()
        assert game.conserved(), seed
    base = name.split("+")[0] if "+" in name else rules.model.header.extends
    if base:
        assert ld.diff(base, name), name


class _Decliner(HeuristicAgent):
    """Declines every card dealt to it, and never bids."""

    def choose(self, game, request):
        if request.prompt.startswith("Buy ") and "decline" in request.names:
            return request.names.index("decline")
        return super().choose(game, request)

    def bid(self, game, request):
        return None


class _Bidder(HeuristicAgent):
    """Bids the least it may for everything auctioned."""

    def bid(self, game, request):
        return request.minimum


@pytest.mark.parametrize("edition", ["landlords-game-1906", str(AUCTIONED_DEAL)])
def test_lots_declined_at_the_deal_are_auctioned_at_their_printed_price(edition):
    """magie-1906, Rule 1 returns a declined lot to the pack; the house rule auctions it to the others first,
    bidding opening at its printed price, the money to the Public Treasury."""
    game = ld.new_game(ld.load_edition(edition), players=3, seed=3, agents=[_Decliner(), _Bidder(), _Decliner()])
    game.setup()
    bids = [event for event in game.log if event[0] == "bid" and event[4] is not None]
    if edition == "landlords-game-1906":
        assert bids == [] and game.titles[1] != []  # (seat 1 bought its own cards)
        return
    assert bids and all(event[2] == 1 for event in bids)
    labels = game.prog.space_labels
    for _, _, _, label, price, _ in bids:
        space = labels.index(label)
        assert game.owner[space] == 1  # the bidder holds the title
        assert price == game.prog.space_fields["price"][space]  # the opening bid, the printed price, took it
    # every title seat 1 holds, dealt or won, was paid for at its printed price, to the Public Treasury
    paid = sum(amount for amount, payer, payee, _ in payments(game) if (payer, payee) == ("p1", "treasury"))
    assert paid == sum(game.prog.space_fields["price"][space] for space in game.titles[1])


def test_the_progressive_tax_is_paid_out_as_a_citizens_dividend():
    """The 1939 end-of-round tax (magie-1939, END OF A ROUND), made 20 % of the cash above $1,000 and
    rerouted (`reroute tax`) to a fund the players share at once; the remainder stays in the fund."""
    g = make_game(
        players=3, throws=[(1, 1)], cash=3000, at=["easy_street", "go", "go"], edition=str(DIVIDEND), passes=PASSES
    )
    g.bal[g.prog.account_names.index("bank")] = BANK
    g.pv[list(ld.load_edition(DIVIDEND).model.player_vars).index("rounds_done")][0] = 1
    turn(g, 0)
    taxes = [p for p in payments(g) if p[3] == "end_of_round"]
    dividends = [p for p in payments(g) if p[3] == "citizens_dividend"]
    assert taxes == [(400, "p0", "dividend_fund", "end_of_round")]  # (3000 - 1000) * 20 %
    assert dividends == [(133, "dividend_fund", f"p{seat}", "citizens_dividend") for seat in range(3)]
    assert g.account_balance("dividend_fund") == 1
