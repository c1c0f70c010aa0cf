"""A share of the games (a seat's wins, prosperity) has an interval inside what a share can be.

Every study once gave a share's mean ± 1.96 SE, so ten games that seat 1
won nine times printed "90.0 [70.4, 109.6] %". The level of a share is now
its Wilson interval, inside [0, 1], as `simulate` gives win rates; a paired
difference of shares stays mean ± 1.96 SE, clipped to [-1, 1] (a 2 x 2
interaction of shares to [-2, 2]). The studies' games are planted here (nine
wins in ten), so each interval is known exactly.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

import landlord_dsl as ld
from landlord_dsl.studies import attribution, paired, sensitivity
from landlord_dsl.studies.paired import difference, interval, level
from landlord_dsl.studies.stats import wilson

NINE_IN_TEN = [(1.0,)] * 9 + [(0.0,)]
NONE_IN_TEN = [(0.0,)] * 10
DATA = Path(__file__).parent / "data" / "attribution"


def _wilson(wins: int, games: int) -> tuple[float, float]:
    _, low, high = wilson(wins, games)
    return low, high


def test_a_shares_level_is_its_wilson_interval_and_anothers_is_mean_plus_minus_two_se():
    assert paired.is_share("win_seat_3") and paired.is_share("prosperity") and not paired.is_share("score_seat_1")
    values = [v for (v,) in NINE_IN_TEN]
    share = level("win_seat_1", values)
    assert (share.mean, share.low, share.high) == (0.9, *_wilson(9, 10))
    assert level("prosperity", values).high < 1
    assert level("turns", values) == interval(values) and interval(values).high > 1  # not a share: as before
    tied = [Fraction(1, 3)] * 3 + [Fraction(1)] * 2  # wins shared by ties count a share
    assert level("win_seat_2", tied).low == _wilson(Fraction(3), 5)[0]


def test_a_difference_of_shares_is_clipped_to_what_a_difference_of_shares_can_be():
    values = [v for (v,) in NINE_IN_TEN]
    assert difference("win_seat_1", values).high == 1.0
    assert difference("turns", values).high > 1.0
    assert difference("prosperity", [-v for v in values]).low == -1.0
    both = [2.0] * 9 + [0.0]  # an interaction: both - first only - second only + neither
    assert difference("win_seat_1", both, terms=2).high == 2.0
    assert difference("win_seat_1", both, terms=2).low == interval(both).low


def test_sensitivity_gives_the_defaults_share_of_wins_inside_0_and_1(monkeypatch):
    # sensitivity of the 1906 edition to its chance deck, seat 1 planted to win 9 games in 10 with the defaults
    # and none with the other deck
    monkeypatch.setattr(
        sensitivity, "play_cells", lambda cells, *a, **k: [NINE_IN_TEN] + [NONE_IN_TEN] * (len(cells) - 1)
    )
    data = sensitivity.sensitivity(ld.load_edition("landlords-game-1906"), ("win_seat_1",), 10, 4, "chance_deck")
    baseline = data["metrics"][0]["baseline"]
    assert (baseline.mean, baseline.low, baseline.high) == (0.9, *_wilson(9, 10))
    effect = data["readings"][0]["values"][0]["effects"]["win_seat_1"]
    assert effect.mean == -0.9 and effect.low == -1.0


def test_attribution_gives_each_sides_share_of_wins_inside_0_and_1(monkeypatch):
    # the tests' base.lg and changed.lg, seat 1 planted to win none of 10 games in A (and in the variant with no
    # change) and 9 in every other variant
    def planted(cells, *a, **k):
        return [NONE_IN_TEN if c in (0, len(cells) - 2) else NINE_IN_TEN for c in range(len(cells))]

    monkeypatch.setattr(attribution, "play_cells", planted)
    data = attribution.attribute(ld.load(DATA / "base.lg"), ld.load(DATA / "changed.lg"), ("win_seat_1",), 10, 2)
    (m,) = data["metrics"]
    assert (m["a"].low, m["a"].high) == _wilson(0, 10) and m["a"].low == 0.0
    assert (m["b"].mean, m["b"].low, m["b"].high) == (0.9, *_wilson(9, 10))
    assert m["total"].mean == 0.9 and m["total"].high == 1.0


def test_optimise_prints_a_trials_share_of_wins_inside_0_and_100_percent(monkeypatch):
    pytest.importorskip("optuna")
    from landlord_dsl.studies import optimise

    monkeypatch.setattr(optimise, "play_cells", lambda cells, *a, **k: [NINE_IN_TEN for _ in cells])
    rules = ld.load_edition("monopoly-1933-atlantic-city")
    q = optimise.Question(
        rules,
        optimise.parse_vary(rules, ["salary=100..200,100"]),
        optimise.parse_objectives(["maximise win_seat_1"], 4),
        (),
        10,
        4,
    )
    data = optimise.run_study(q, 2, jobs=1)
    optimise.confirm(q, data, 10, jobs=1)
    low, high = _wilson(9, 10)
    for shown in (data["baseline"]["win_seat_1"], data["best"]["metrics"]["win_seat_1"]["value"]):
        assert (shown.low, shown.high) == (low, high)
    assert (data["confirmation"]["metrics"]["win_seat_1"]["chosen"].high) == high
    text = optimise.render_text(data)
    assert f"90.0 [{100 * low:.1f}, {100 * high:.1f}] %" in text and "109.6" not in text
