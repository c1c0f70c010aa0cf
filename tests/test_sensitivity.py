"""`landlord-dsl sensitivity` (issue 33 §1): each reading an edition reconstructs, played against its defaults on
the same seeds, ranked by the size of its effect, the same for any number of processes."""

from __future__ import annotations

import io
import json

import pytest

import landlord_dsl as ld
from landlord_dsl.cli.main import main
from landlord_dsl.core.errors import UsageError
from landlord_dsl.studies.paired import parse_metrics
from landlord_dsl.studies.sensitivity import readings, sensitivity, to_json

METRICS = ("turns", "gini_round_10", "win_seat_1")


def test_the_readings_of_1939_are_its_options_tagged_reconstruction_and_a_number_is_left_out_with_why():
    """1939: land_rents, wage_scale... are tagged `reconstruction`; boat_fare is a number (its other reading, $200,
    is in a note), so it is left out and the message says how to give its values."""
    rules = ld.load_edition("landlords-game-1939")
    found, skipped = readings(rules)
    names = [r.option for r in found]
    assert {"land_rents", "wage_scale", "fare_rule", "jail_count", "count_wage_checks"} <= set(names)
    assert all(r.reconstruction for r in found)
    assert dict(skipped)["boat_fare"].startswith("a number: give the readings to try with --values boat_fare=")
    found, skipped = readings(rules, "boat_fare", {"boat_fare": ["500", "200"]})
    assert [(r.option, r.default, r.alternatives) for r in found] == [("boat_fare", 500, (200,))]


def test_over_names_an_unknown_option_is_a_usage_error_with_a_suggestion():
    rules = ld.load_edition("landlords-game-1906")
    with pytest.raises(UsageError) as err:
        readings(rules, "chance_dek")
    assert "has no option 'chance_dek'" in err.value.render() and "chance_deck" in err.value.render()


def test_a_metric_that_does_not_exist_or_a_seat_beyond_the_players_is_refused():
    assert parse_metrics(None, 3) == ("turns", "gini_round_10", "prosperity", "win_seat_1", "win_seat_2", "win_seat_3")
    with pytest.raises(UsageError):
        parse_metrics(["win_seat_5"], 4)
    with pytest.raises(UsageError):
        parse_metrics(["final_gini"], 4)


def test_1906_sensitivity_ranks_the_chance_deck_first_and_a_single_tax_reading_plays_alike_without_the_single_tax():
    """1906: the reconstructed Chance pack changes the games; second_college only matters under the Single Tax
    (single_tax = never by default), so every game is the same and its effects are exactly zero."""
    rules = ld.load_edition("landlords-game-1906")
    data = sensitivity(rules, METRICS, 30, 4, "second_college,chance_deck", jobs=1)
    ranked = [e["reading"].option for e in data["readings"]]
    assert ranked == ["chance_deck", "second_college"]
    college = data["readings"][1]["values"][0]
    assert college["identical"] and all(e.mean == e.low == e.high == 0 for e in college["effects"].values())
    assert not data["readings"][1]["matters"]
    # under the Single Tax from the start the college comes into play
    under = sensitivity(rules, METRICS, 30, 4, "second_college", jobs=1, options={"single_tax": "from_start"})
    assert not under["readings"][0]["values"][0]["identical"]


def test_sensitivity_is_the_same_for_any_number_of_processes():
    rules = ld.load_edition("landlords-game-1906")
    one = to_json(sensitivity(rules, METRICS, 24, 4, "chance_deck,shelter_tax_on_jail_square", jobs=1))
    two = to_json(sensitivity(rules, METRICS, 24, 4, "chance_deck,shelter_tax_on_jail_square", jobs=2))
    assert one == two


def test_the_interaction_of_two_readings_is_zero_game_by_game_when_one_never_comes_into_play():
    """The interaction is both - first only - second only + neither, game by game, on the same seeds: 1906's
    second_college never comes into play without the Single Tax, so its interaction with the Chance pack is 0."""
    from landlord_dsl.checking.options import resolve_options
    from landlord_dsl.studies.paired import play_cells
    from landlord_dsl.studies.rulesource import rule_source
    from landlord_dsl.studies.sensitivity import _interactions

    rules = ld.load_edition("landlords-game-1906")
    found, _ = readings(rules, "chance_deck,second_college")
    base = resolve_options(rules, None)
    keys = [("chance_deck", False), ("second_college", True)]
    cells = [rule_source(rules, base)] + [rule_source(rules, {**base, k: v}) for k, v in keys]
    played = play_cells(cells, 20, 4, METRICS, jobs=1)
    entries = [{"reading": r, "matters": True} for r in found]
    pairs = _interactions(rules, entries, base, METRICS, 20, 4, 0, 1, played, keys, 4)
    assert [p["options"] for p in pairs] == [("chance_deck", "second_college")]
    assert all(e.mean == e.low == e.high == 0 for e in pairs[0]["effects"].values())
    assert any(e.mean != 0 for e in played_effects(played))


def played_effects(played):
    """Return the Chance pack's effect on each metric (to show the pair is not zero for want of any effect)."""
    from landlord_dsl.studies.paired import interval

    return [interval([y[m] - x[m] for x, y in zip(played[0], played[1])]) for m in range(len(METRICS))]


def test_the_command_prints_json_and_markdown():
    out = io.StringIO()
    status = main(
        [
            "sensitivity",
            "landlords-game-1906",
            "--over",
            "double_four",
            "--games",
            "10",
            "--jobs",
            "1",
            "--metric",
            "turns,win_seat_1",
            "--format",
            "json",
        ],
        out,
    )
    assert status == 0
    data = json.loads(out.getvalue())
    assert data["readings"][0]["option"] == "double_four"
    assert set(data["readings"][0]["values"][0]["effects"]) == {"turns", "win_seat_1"}
    out = io.StringIO()
    main(
        [
            "sensitivity",
            "landlords-game-1906",
            "--over",
            "double_four",
            "--games",
            "10",
            "--jobs",
            "1",
            "--format",
            "markdown",
        ],
        out,
    )
    assert "| 1 | `double_four` | `skin_game` |" in out.getvalue()


def test_plot_draws_one_panel_per_metric(tmp_path):
    pytest.importorskip("matplotlib")
    picture = tmp_path / "readings.png"
    status = main(
        [
            "sensitivity",
            "landlords-game-1906",
            "--over",
            "chance_deck",
            "--games",
            "6",
            "--jobs",
            "1",
            "--metric",
            "turns,win_seat_1",
            "--plot",
            str(picture),
        ],
        io.StringIO(),
    )
    assert status == 0 and picture.stat().st_size > 1000
