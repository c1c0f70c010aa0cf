"""`landlord-dsl diff A B --attribute` (issue 33 §2): the difference between two rule sets split into the Shapley
contribution of each declaration-level change, on common random numbers.

The fixture (tests/data/attribution/) is a ring where a seat's final cash is 1000 + salary x (wages paid per
pass) x passes - the levies it landed on: the higher salary and the higher Tax levy add up (their interaction
is zero in every game), the higher salary and the salary paid twice multiply (their interaction is positive)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import landlord_dsl as ld
from landlord_dsl.cli.main import main
from landlord_dsl.core.errors import LandlordError
from landlord_dsl.studies import attribution
from landlord_dsl.studies.attribution import attribute, build, changes, to_json, units
from landlord_dsl.studies.paired import play_cells
from landlord_dsl.studies.rulesource import rule_source

DATA = Path(__file__).parent / "data" / "attribution"
METRICS = ("score_seat_1", "score_seat_2", "win_seat_1")


@pytest.fixture(scope="module")
def pair():
    return ld.load(DATA / "base.lg"), ld.load(DATA / "changed.lg")


@pytest.fixture(scope="module")
def study(pair):
    return attribute(*pair, METRICS, 30, 2, jobs=1)


def test_the_changes_are_declarations_matched_by_kind_and_name(pair):
    assert [c.label for c in changes(*pair)] == ["const salary changed", "rule wages changed", "space tax changed"]


def test_contributions_add_up_to_the_total_difference_exactly_on_every_game(study):
    for m in study["metrics"]:
        for g, total in enumerate(m["total_per_game"]):
            assert sum(c["per_game"][g] for c in m["contributions"]) == total
    score = study["metrics"][0]
    assert score["total"].mean == pytest.approx(sum(c["effect"].mean for c in score["contributions"]))
    assert score["total"].excludes_zero


def test_a_pair_built_not_to_interact_has_an_interval_containing_zero_and_a_pair_built_to_interact_excludes_it(study):
    score = study["metrics"][0]
    by_pair = {tuple(u.label for u in p["units"]): p["effect"] for p in score["interactions"]}
    additive = by_pair[("const salary changed", "space tax changed")]
    assert additive.low <= 0 <= additive.high
    multiplied = by_pair[("const salary changed", "rule wages changed")]
    assert multiplied.low > 0  # (80 - 50) x (2 - 1) x passes: more than zero in every game that passes Start


def test_every_change_applied_plays_exactly_as_b(pair, study):
    """The variant built from A with every change is B in all but its text: the same values in every game."""
    a, b = pair
    everything = build(a, b, units(changes(a, b)), "everything")
    rows = play_cells([rule_source(everything), rule_source(b)], 30, 2, METRICS, jobs=1)
    assert rows[0] == rows[1]
    assert study["faithful"]
    assert study["metrics"][0]["b"].mean == pytest.approx(sum(r[0] for r in rows[1]) / 30)


def test_a_change_that_needs_a_name_another_adds_travels_with_it():
    """1906 -> the monopolist demonstration: the setup rule pays the new demonstration_cash and the wages rule
    asks the new is_landlord, so each is made together with what it needs."""
    a, b = ld.load_edition("landlords-game-1906"), ld.load_edition("landlords-game-1906-monopolist-demonstration")
    assert [u.label for u in units(changes(a, b))] == [
        "rule buying_titles changed + const demonstration_cash added",
        "rule wages_rule changed + function is_landlord added",
    ]


def test_a_subset_of_the_changes_that_does_not_check_is_reported_with_the_changes_and_the_problem(pair, tmp_path):
    """A levy kind given a new field (with its spaces) and a rule that reads it: the rule alone does not check."""
    a = pair[0]
    text = (DATA / "base.lg").read_text(encoding="utf-8")
    text = text.replace('kind levy "Levy" { amount: int }', 'kind levy "Levy" { amount: int, rebate: int }')
    text = text.replace("amount = 10 }", "amount = 10, rebate = 1 }").replace(
        "amount = 20 }", "amount = 20, rebate = 2 }"
    )
    text = text.replace("pay here.amount from player to bank", "pay here.amount - here.rebate from player to bank")
    b = ld.load_text(text.replace("attribution-base", "attribution-rebates"), str(tmp_path / "rebates.lg"))
    grouped = units(changes(a, b))
    assert [u.label for u in grouped] == [
        "kind levy changed + space tax changed + space duty changed",
        "rule levies changed",
    ]
    with pytest.raises(LandlordError) as err:
        build(a, b, [grouped[1]], "rule-alone")
    message = err.value.render()
    assert "with only these changes from attribution-rebates does not check: rule levies changed" in message
    assert "rebate" in message


def test_the_attribution_is_the_same_for_any_number_of_processes(pair):
    one = to_json(attribute(*pair, METRICS, 24, 2, jobs=1))
    two = to_json(attribute(*pair, METRICS, 24, 2, jobs=2))
    assert one == two


def test_beyond_the_exact_limit_sampled_orders_still_add_up_exactly(pair, monkeypatch):
    monkeypatch.setattr(attribution, "EXACT", 1)
    data = attribute(*pair, ("score_seat_1",), 10, 2, jobs=1, permutations=4)
    assert data["method"].startswith("Shapley values over 4 sampled orders")
    m = data["metrics"][0]
    for g, total in enumerate(m["total_per_game"]):
        assert sum(c["per_game"][g] for c in m["contributions"]) == total
    assert m["interactions"] == []


def test_diff_attribute_prints_json_and_exits_1_as_diff_does():
    out = io.StringIO()
    status = main(
        [
            "diff",
            str(DATA / "base.lg"),
            str(DATA / "changed.lg"),
            "--attribute",
            "--games",
            "10",
            "--jobs",
            "1",
            "--metric",
            "score_seat_1",
            "--format",
            "json",
        ],
        out,
    )
    assert status == 1
    data = json.loads(out.getvalue())
    assert [c["changes"] for c in data["changes"]] == [
        ["const salary changed"],
        ["rule wages changed"],
        ["space tax changed"],
    ]
    assert data["metrics"][0]["total"]["excludes_zero"]


def test_the_variants_of_the_1906_monopolist_demonstration_play_as_its_two_sides():
    """1906 -> its monopolist demonstration: with none of the changes the built variant plays every game as 1906,
    with all of them as the demonstration (changes that add and remove declarations)."""
    a, b = ld.load_edition("landlords-game-1906"), ld.load_edition("landlords-game-1906-monopolist-demonstration")
    data = attribute(a, b, ("turns", "win_seat_1"), 6, 4, jobs=1)
    assert data["faithful"] and data["variants_played"] == 4


def test_when_b_only_reorders_rules_on_one_event_the_attribution_says_its_variants_are_not_b(tmp_path):
    """Two rules on passing Start (wages, then a tax of half the cash) in the other order, and a higher salary:
    the order is no declaration's change, so the variant with every change is not B, and the report says so."""
    halving = """
rule halving "Passing Start costs half your cash" {
    on pass start {
        pay player.cash / 2 from player to bank
    }
}
"""
    base = (DATA / "base.lg").read_text(encoding="utf-8")
    wages = base[base.index('rule wages "') : base.index('rule levies "')]
    a = ld.load_text(base.replace(wages, wages + halving.lstrip()), str(tmp_path / "a.lg"))
    swapped = base.replace(wages, halving.lstrip() + "\n" + wages).replace("const salary = 50", "const salary = 80")
    b = ld.load_text(swapped.replace("attribution-base", "attribution-swapped"), str(tmp_path / "b.lg"))
    assert [u.label for u in units(changes(a, b))] == ["const salary changed"]
    data = attribute(a, b, ("score_seat_1",), 10, 2, jobs=1)
    assert not data["faithful"]
    assert "do not play every game as A and B do" in attribution.render_text(data)


def test_diff_attribute_plot_draws_one_panel_per_metric_with_every_change(tmp_path, capsys):
    plt = pytest.importorskip("matplotlib.pyplot")
    from landlord_dsl.presentation import plots

    drawn = []
    real = plots.attribution_figure

    def spy(data, path, narrow=False):
        drawn.append(data)
        return real(data, path, narrow)

    picture = tmp_path / "contributions.png"
    argv = ["diff", str(DATA / "base.lg"), str(DATA / "changed.lg"), "--attribute", "--games", "6", "--jobs", "1"]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(plots, "attribution_figure", spy)
        status = main([*argv, "--metric", "score_seat_1,win_seat_1", "--plot", str(picture)], io.StringIO())
    assert status == 1 and picture.stat().st_size > 1000
    (data,) = drawn
    assert [m["metric"] for m in data["metrics"]] == ["score_seat_1", "win_seat_1"]
    assert all(len(m["contributions"]) == 3 for m in data["metrics"])
    assert plt.get_fignums() == []  # the figure is closed once written
    assert main(["diff", str(DATA / "base.lg"), str(DATA / "changed.lg"), "--plot", str(picture)]) == 2
    assert "--plot draws the contributions of --attribute: give --attribute too" in capsys.readouterr().err
    assert main([*argv, "--plot", str(tmp_path / "contributions.txt")]) == 2
    assert "the file name must end in .png, .svg, .pdf" in capsys.readouterr().err


def test_a_bound_that_rounds_to_zero_keeps_the_side_it_lies_on():
    """1906 against its monopolist demonstration, 10 games: the wages change moved prosperity by -15 points with
    the interval [-29.97, -0.03], shown as "[-30.0, +0.0] pts *", a mark the bounds seemed to deny."""
    from landlord_dsl.studies.attribution import _fmt
    from landlord_dsl.studies.paired import Interval
    from landlord_dsl.studies.sensitivity import _shown

    effect = Interval(-0.15, -0.2997, -0.0003)
    assert _fmt("prosperity", effect) == "-15.0 [-30.0, -0.03] pts *"
    assert _shown("prosperity", effect) == "-15.0 [-30.0, -0.03] pts *"
    assert _fmt("turns", Interval(0.3, 0.0004, 0.6)) == "+0.3 [+0.0004, +0.6] *"
    assert _fmt("turns", Interval(0.3, -0.0004, 0.6)) == "+0.3 [+0.0, +0.6]"  # holds zero: nothing to keep
