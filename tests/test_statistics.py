"""Honest simulation statistics: the observer API, `simulate --stats`, `diff --outcomes`, the plots.

The numbers are checked against hand computation on WALK, a small rule file
whose games are fixed whatever the dice say, and on small hand-made samples
for the estimators.
"""

from __future__ import annotations

import io
import json
import math
import pickle
import random
import sys
from collections import Counter
from fractions import Fraction

import pytest

import landlord_dsl as ld
from landlord_dsl.cli.main import main
from landlord_dsl.core.errors import LandlordError
from landlord_dsl.engine import observe
from landlord_dsl.studies.outcomes import outcomes, render_outcomes
from landlord_dsl.studies.parallel import simulate_many
from landlord_dsl.studies.simulate import Summary, play_one
from landlord_dsl.studies.stats import Moments, Ratio, Stats, kaplan_meier, layout, render_stats, wilson

# Two seats, three spaces; every turn one throw and one step forward, whatever the dice.
# Seat 1 (index 0) holds Lot B's deed from the start. Turns: 1 seat0 Go->A, 2 seat1 Go->A,
# 3 seat0 A->B (his own), 4 seat1 A->B pays 5 rent to seat0, 5 seat0 B->Go, 6 seat1 B->Go;
# the turn limit (6) stops the game.
WALK = """
edition "walk" {
    players 2 to 2
    turn limit 6
    source "none: a test board"
}
account bank "Bank" unlimited
kind start "Start" { }
kind lot "Lot" titled { price: int }
player var steps = 0
space var visits = 0
board {
    space go "Go" : start
    space lot_a "Lot" : lot { price = 10 }
    space lot_b "Lot" : lot { price = 10 }
}
deck deeds "Title deeds" returned of titles { }
rule money "Money" {
    on setup {
        for p in players {
            pay 100 from bank to p
        }
        give lot_b.title to players[0]
    }
}
rule walking "Walk" {
    on turn {
        roll dice
        move forward 1
        set player.steps += 1
    }
}
rule renting "Rent" {
    on land lot {
        set here.visits += 1
        if here.owner != none and here.owner != player {
            pay 5 from player to here.owner
        }
    }
}
"""

# As WALK, but the first player leaves the game in turn 3 (and the game runs to its limit of 6).
LEAVING = WALK.replace(
    "set player.steps += 1",
    "set player.steps += 1\n        if turn_number == 3 {\n            eliminate player\n        }",
)


@pytest.fixture(scope="module")
def walk():
    rules = ld.load_text(WALK, "walk.lg")
    return rules, ld.compile_rules(rules)


def _run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


# ---------------------------------------------------------------- observer API


def test_player_and_space_variables_are_read_by_name(walk):
    _, program = walk
    game = ld.new_game(program, players=2, seed=0)
    game.play()
    assert [game.player_var(seat, "steps") for seat in (0, 1)] == [3, 3]
    assert [game.space_var(space, "visits") for space in ("go", "lot_a", "lot_b")] == [0, 2, 2]
    assert game.space_var(2, "visits") == 2
    with pytest.raises(LandlordError, match=r"no player variable 'in_jail' in these rules \(declared: steps\)"):
        game.player_var(0, "in_jail")
    with pytest.raises(LandlordError, match="no seat 2"):
        game.player_var(2, "steps")
    with pytest.raises(LandlordError, match="no space 'nowhere'"):
        game.space_var("nowhere", "visits")


def test_every_log_entry_of_a_1933_game_has_a_typed_event():
    program = ld.compile_rules(ld.load_edition("monopoly-1933-atlantic-city"))
    game = ld.new_game(program, players=4, seed=3)
    game.play()
    typed = list(observe.events(game))
    assert len(typed) == len(game.log)
    kinds = {type(e).__name__ for e in typed}
    assert {"TurnStarted", "Rolled", "Moved", "Paid", "CardMoved", "Decided", "GameEnded"} <= kinds
    pay = next(e for e in typed if isinstance(e, observe.Paid))
    assert pay.payer == "bank" and isinstance(pay.payee, int)  # the setup's money: an account to a seat
    assert all(isinstance(e.rule, (str, type(None))) for e in typed if hasattr(e, "rule"))


def test_follow_plays_the_same_game_and_reports_every_turn_and_throw_as_it_ends():
    program = ld.compile_rules(ld.load_edition("monopoly-1933-atlantic-city"))
    plain = ld.new_game(program, players=3, seed=8)
    plain.play()
    followed = ld.new_game(program, players=3, seed=8)
    seen_turns: list[observe.Turn] = []
    seen_throws: list[observe.Throw] = []
    log_length_at_report: list[int] = []

    def on_turn(turn: observe.Turn) -> None:
        seen_turns.append(turn)
        log_length_at_report.append(len(followed.log))

    followed_result = observe.follow(followed, on_turn=on_turn, on_throw=seen_throws.append)
    assert followed.log_lines() == plain.log_lines()  # byte-identical: observing changes nothing
    assert followed_result == plain.result()
    assert [t.turn for t in seen_turns] == list(range(1, plain.turn + 1))
    assert len(seen_throws) == sum(1 for e in plain.log if e[0] == "roll" and e[1] > 0)
    # reported when the turn is over, not when the next one starts
    starts = [i for i, e in enumerate(plain.log) if e[0] == "turn"]
    assert log_length_at_report[:-1] == starts[1:]
    # after the fact, turns() cuts the log the same way
    assert list(observe.turns(plain)) == seen_turns
    for turn in seen_turns:  # positions agree with the moves
        moves = [e for e in turn.events if isinstance(e, (observe.Moved, observe.Sent)) and e.seat == turn.seat]
        assert turn.end == (moves[-1].dest if moves else turn.start)


def test_throws_and_turns_end_where_the_walk_says(walk):
    _, program = walk
    game = ld.new_game(program, players=2, seed=4)
    game.play()
    turns = list(observe.turns(game))
    assert [(t.seat, t.start, t.end) for t in turns] == [
        (0, 0, 1),
        (1, 0, 1),
        (0, 1, 2),
        (1, 1, 2),
        (0, 2, 0),
        (1, 2, 0),
    ]
    assert all(len(t.throws) == 1 and t.throws[0].end == t.end for t in turns)
    rent = [e for e in turns[3].events if isinstance(e, observe.Paid)]
    assert rent == [observe.Paid(4, 5, 1, 0, "renting")]


def test_an_observer_error_is_not_reported_as_a_failure_of_the_rules(walk):
    _, program = walk

    def broken(turn: observe.Turn) -> None:
        raise KeyError("the observer's own bug")

    with pytest.raises(KeyError, match="the observer's own bug"):
        observe.follow(ld.new_game(program, players=2, seed=0), on_turn=broken)


def test_a_roll_that_moves_nothing_after_the_first_is_no_movement_throw():
    """A rule that throws the dice for a rent after the move (as 1933's utilities do) makes a second
    throw in the turn; it is marked as no movement throw and landings per throw leave it out."""
    rules = ld.load_text(WALK.replace("set here.visits += 1", "set here.visits += 1\n        roll dice"), "rent.lg")
    program = ld.compile_rules(rules)
    record = play_one(program, 2, 0, layout=layout(program, rules))
    game = ld.new_game(program, players=2, seed=0)
    game.play()
    turns = list(observe.turns(game))
    assert [[t.movement for t in turn.throws] for turn in turns] == [[True, False]] * 4 + [[True]] * 2
    assert [t.throws[1].end for t in turns[:4]] == [1, 1, 2, 2]  # the rent roll ends where the token stood
    assert record.stats.throws == 6 and record.stats.throw_landings == (2, 2, 2)


# ---------------------------------------------------------------- estimators by hand


def test_ratio_standard_error_by_hand():
    """Games (landings, throws) = (1, 2) and (3, 4): p = 4/6; residuals -1/3 and 1/3;
    SE = sqrt((2/9) / (2 * 1)) / 3 = 1/9."""
    ratio = Ratio()
    ratio.add(2, [1])
    ratio.add(4, [3])
    ((p, se),) = ratio.estimates(2)
    assert p == pytest.approx(2 / 3) and se == pytest.approx(1 / 9)


def test_mean_standard_error_by_hand():
    moments = Moments()
    moments.add([1, 10])
    moments.add([3])
    (mean, se, n), (mean2, se2, n2) = moments.estimates()
    assert (mean, n) == (2, 2) and se == pytest.approx(1.0)  # sd sqrt(2), over sqrt(2)
    assert (mean2, se2, n2) == (10, 0.0, 1)


def test_wilson_interval_by_hand():
    rate, low, high = wilson(10, 10)
    assert rate == 1 and low == pytest.approx(10 / (10 + 1.96**2), abs=1e-4) and high == 1
    rate, low, high = wilson(Fraction(5), 10)  # p = 1/2: symmetric round 0.5
    assert rate == 0.5 and low == pytest.approx(1 - high, abs=1e-4) and 0.23 < low < 0.24


def test_kaplan_meier_treats_censored_games_as_at_risk_until_they_stop():
    """Lengths 2 and 4 finished, 3 censored: S(2) = 2/3 (3 at risk), the censored game leaves at 3,
    S(4) = 0 (1 at risk). A naive reading that the censored game finished at 3 would give S(3) = 1/3."""
    curve = kaplan_meier(Counter({2: 1, 4: 1}), Counter({3: 1}))
    assert [(t, round(s, 6)) for t, s, _, _ in curve] == [(2, round(2 / 3, 6)), (4, 0.0)]
    half = 1.96 * (2 / 3) * math.sqrt(1 / 6)  # Greenwood: d / (n (n - d)) = 1 / 6
    assert curve[0][2] == pytest.approx(2 / 3 - half) and curve[0][3] == 1.0


# ---------------------------------------------------------------- simulate --stats


def test_walk_statistics_match_the_hand_count(walk):
    rules, program = walk
    summary = Summary(2, stats=Stats(layout(program, rules)))
    for seed in range(10):
        summary.add(play_one(program, 2, seed, layout=summary.stats.layout))
    stats = summary.result()["stats"]
    assert (stats["throws"], stats["turns"]) == (60, 60)
    for key in ("landing_per_throw", "landing_per_turn"):
        assert [(r["space"], r["probability"], r["se"]) for r in stats[key]] == [
            ("Go", round(1 / 3, 6), 0.0),
            ("Lot", round(1 / 3, 6), 0.0),
            ("Lot", round(1 / 3, 6), 0.0),
        ]
    assert [r["index"] for r in stats["landing_per_throw"]] == [0, 1, 2]  # two "Lot"s, never merged
    rent = stats["rent"]
    assert (rent["per_game"], rent["se"]) == (5, 0)
    assert [(r["index"], r["mean_per_game"]) for r in rent["by_space"]] == [(1, 0), (2, 5)]
    assert rent["by_set"] == [{"set": "lot", "label": "Lot", "mean_per_game": 5, "se": 0}]  # no set: grouped by kind
    assert stats["wins_by_seat"][0] == {
        "seat": 1,
        "rate": 1.0,
        "ci95_low": round(10 / (10 + 1.96**2), 4),
        "ci95_high": 1.0,
    }
    length = stats["game_length"]
    assert (length["finished"], length["censored"], length["censored_at"], length["median"]) == (0, 10, [6], None)
    assert length["survival"] == [] and stats["eliminations"] == []
    # cash after setup 100/100, after round 1 (turns 1-2) still equal, after round 2 105/95 -> Gini 0.025
    assert [row[0] for row in stats["gini_by_round"]["cash"]] == [0.0, 0.0, 0.025, 0.025]


def test_elimination_timing():
    rules = ld.load_text(LEAVING, "leaving.lg")
    program = ld.compile_rules(rules)
    summary = Summary(2, stats=Stats(layout(program, rules)))
    for seed in range(3):
        summary.add(play_one(program, 2, seed, layout=summary.stats.layout))
    assert summary.result()["stats"]["eliminations"] == [
        {"order": 1, "games": 3, "share_of_games": 1.0, "mean_turn": 3, "se": 0, "mean_round": 2}
    ]


def test_stats_leave_the_games_unchanged():
    """Asking for statistics changes no game: the records agree with those of a plain run."""
    rules = ld.load_edition("landlords-game-1906")
    program = ld.compile_rules(rules)
    board = layout(program, rules)
    for seed in range(3):
        with_stats = play_one(program, 4, seed, layout=board)
        plain = play_one(program, 4, seed)
        assert with_stats.stats is not None and plain.stats is None
        assert (with_stats.scores, with_stats.turns, with_stats.gini_by_round) == (
            plain.scores,
            plain.turns,
            plain.gini_by_round,
        )


def test_stats_merge_exactly_in_any_split_and_order():
    rules = ld.load_edition("landlords-game-1904")
    program = ld.compile_rules(rules)
    board = layout(program, rules)
    records = [play_one(program, 3, seed, layout=board) for seed in range(12)]
    whole = Summary(3, stats=Stats(board))
    for r in records:
        whole.add(r)
    rng = random.Random(5)
    for _ in range(4):
        cuts = sorted(rng.sample(range(1, 12), 3))
        pieces = [records[a:b] for a, b in zip([0] + cuts, cuts + [12])]
        rng.shuffle(pieces)
        total = Summary(3, stats=Stats(board))
        for piece in pieces:
            part = Summary(3, stats=Stats(board))
            for r in piece:
                part.add(r)
            total.merge(pickle.loads(pickle.dumps(part)))
        assert json.dumps(total.result(), sort_keys=True) == json.dumps(whole.result(), sort_keys=True)


def test_stats_memory_does_not_grow_with_games(walk):
    rules, program = walk
    stats = Stats(layout(program, rules))
    summary = Summary(2, stats=stats)
    for seed in range(20):
        summary.add(play_one(program, 2, seed, layout=stats.layout))
    before = len(pickle.dumps(summary))
    for seed in range(20, 200):
        summary.add(play_one(program, 2, seed, layout=stats.layout))
    assert len(pickle.dumps(summary)) <= before + 64  # only the integers grow a digit or two


def test_simulate_stats_is_identical_on_one_and_two_processes():
    argv = ["simulate", "landlords-game-1904", "--games", "6", "--players", "3", "--stats", "--json", "--no-progress"]
    code1, one = _run(*argv, "--jobs", "1")
    code2, two = _run(*argv, "--jobs", "2")
    assert code1 == code2 == 0 and one == two
    stats = json.loads(one)["stats"]
    assert sum(r["probability"] for r in stats["landing_per_turn"]) == pytest.approx(1, abs=1e-5)
    assert stats["game_length"]["finished"] + stats["game_length"]["censored"] == 6
    # the plain summary is unchanged by --stats
    plain = json.loads(_run(*argv[:-3], "--json", "--no-progress", "--jobs", "1")[1])
    assert {k: v for k, v in json.loads(one).items() if k != "stats"} == plain


def test_simulate_stats_text():
    code, out = _run("simulate", "landlords-game-1904", "--games", "3", "--stats", "--jobs", "1", "--no-progress")
    assert code == 0
    for phrase in (
        "landing probability",
        "per movement throw",
        "movement throws,",
        "rent per game",
        "95 % Wilson interval",
        "stopped by the turn limit (censored)",
        "Kaplan-Meier",
        "Gini of wealth",
        "eliminations",
    ):
        assert phrase in out
    assert render_stats(
        simulate_many(ld.load_edition("landlords-game-1904"), 2, 2, jobs=1, stats=True).result()["stats"]
    ).startswith("\nstatistics")


# ---------------------------------------------------------------- diff --outcomes


def test_outcomes_label_intervals_default_players_and_keep_same_labelled_spaces_apart(walk):
    rules, _ = walk
    data = outcomes(ld.load_edition("landlords-game-1904"), ld.load_edition("landlords-game-1904"), games=2)
    assert data["players"] == 4  # as simulate: four, or the nearest allowed
    walked = outcomes(rules, rules, games=3)
    assert walked["players"] == 2
    assert [(r["label"], r["index_a"]) for r in walked["landing_per_throw"]] == [("Go", 0), ("Lot", 1), ("Lot", 2)]
    text = render_outcomes(walked)
    assert "95 % CI, paired on common random numbers" in text
    assert "(none)" in text and "3 others hidden" in text  # identical rules: no change excludes zero
    shown = render_outcomes(walked, show_all=True)
    assert "Lot #1/1" in shown and "Lot #2/2" in shown


def test_outcomes_json_has_a_paired_interval_for_every_space():
    """1904 against its variant without lot tickets: one row per space with both board indices, each
    difference inside its own interval, and `excludes_zero` saying whether the text shows it by default."""
    a = ld.load_edition("landlords-game-1904")
    b = ld.load_edition("landlords-game-1904-without-lot-tickets")
    code, out = _run(
        "diff",
        "landlords-game-1904",
        "landlords-game-1904-without-lot-tickets",
        "--outcomes",
        "4",
        "--all",
        "--format",
        "json",
    )
    assert code == 1  # the files differ
    data = json.loads(out)["outcomes"]
    assert data["interval"].startswith("95 % CI, paired on common random numbers")
    assert len(data["landing_per_throw"]) == len(ld.compile_rules(a).space_names)
    for row in data["landing_per_throw"]:
        d = row["difference"]
        assert d["ci95_low"] <= d["mean"] <= d["ci95_high"]
        assert row["excludes_zero"] == (d["ci95_low"] > 0 or d["ci95_high"] < 0)
    assert outcomes(a, b, games=2)["players"] == 4


# ---------------------------------------------------------------- plots


@pytest.mark.slow
def test_simulate_plot_writes_png_and_svg(tmp_path):
    for name, magic in (("stats.png", b"\x89PNG"), ("stats.svg", b"<?xml")):
        code, _ = _run(
            "simulate",
            "landlords-game-1904",
            "--games",
            "2",
            "--jobs",
            "1",
            "--no-progress",
            "--plot",
            str(tmp_path / name),
        )
        assert code == 0 and (tmp_path / name).read_bytes().startswith(magic)


def test_plot_to_an_unknown_format_is_a_clear_error(tmp_path, capsys):
    # refused before the games are played: 100,000 games would take minutes
    code, _ = _run(
        "simulate",
        "landlords-game-1904",
        "--games",
        "100000",
        "--jobs",
        "1",
        "--no-progress",
        "--plot",
        str(tmp_path / "stats.txt"),
    )
    assert code == 2 and "must end in .png, .svg, .pdf" in capsys.readouterr().err


def test_plots_without_matplotlib_name_the_extra(monkeypatch):
    from landlord_dsl.presentation import plots

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(LandlordError, match=r"pip install 'landlord-dsl\[plot\]'"):
        plots.pyplot()


@pytest.mark.slow
def test_dask_gives_the_same_statistics_as_one_process():
    pytest.importorskip("distributed")
    rules = ld.load_edition("landlords-game-1904")
    local = simulate_many(rules, 8, 3, seed=5, jobs=1, stats=True)
    dask = simulate_many(rules, 8, 3, seed=5, jobs=2, backend="dask", stats=True)
    assert json.dumps(dask.result(), sort_keys=True) == json.dumps(local.result(), sort_keys=True)


# ---------------------------------------------------------------- own dice (issue 27, section 4)


def _own_dice_rules():
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "examples" / "four-sided-ring.lg"
    return ld.load_edition(path)


def test_a_game_with_only_its_own_dice_counts_its_throws():
    """examples/four-sided-ring.lg throws only a declared set (`roll tetra`): every movement throw
    counts, so the landing shares per throw add up to one, and the output says what was thrown."""
    rules = _own_dice_rules()
    program = ld.compile_rules(rules)
    summary = Summary(2, stats=Stats(layout(program, rules)))
    for seed in range(5):
        summary.add(play_one(program, 2, seed, layout=summary.stats.layout))
    stats = summary.result()["stats"]
    assert stats["throws"] > stats["turns"] / 2
    assert sum(r["probability"] for r in stats["landing_per_throw"]) == pytest.approx(1.0, abs=1e-4)
    assert stats["throws_by_dice"] == [{"dice": "tetra", "label": "Two four-sided dice", "throws": stats["throws"]}]
    text = render_stats(stats)
    assert "thrown: Two four-sided dice" in text and "a throw of any dice" in text
    most = [line.split("#")[1].split()[0] for line in text.splitlines() if line.startswith("    ") and "% ±" in line]
    assert most != sorted(most, key=int)  # most landed first, not the board's order


def test_a_declared_set_thrown_with_the_dice_is_one_throw():
    """The speed-die house rule throws the pair and the speed die before moving: one throw of both,
    so the throws counted are those of the edition's dice alone, as before the sets counted."""
    program = ld.compile_rules(ld.load_edition("monopoly-1933-speed-die"))
    game = ld.Game(program, [ld.HeuristicAgent() for _ in range(3)], seed=4)
    game.play()
    throws = [t for turn in observe.turns(game) for t in turn.throws]
    assert any("speed" in t.sets for t in throws)
    assert all(t.sets[0] == "dice" for t in throws)  # the speed die never starts a throw of its own
    rolls = sum(1 for entry in game.log if entry[0] == "roll")
    assert len(throws) == rolls - sum(1 for entry in game.log if entry[0] == "roll" and entry[1] == 0)


def test_diff_outcomes_compares_landings_of_own_dice():
    """`diff --outcomes` counts the declared set's throws too: its landing shares are not all zero."""
    rules = _own_dice_rules()
    data = outcomes(rules, rules, 3, players=2)
    assert sum(r["a"] for r in data["landing_per_throw"]) == pytest.approx(1.0, abs=1e-3)
    assert "a throw of any dice" in render_outcomes(data)


def test_statistics_show_a_title_sets_label():
    """A title set is shown by its label (the kind `plot` is "Plot"; 1939's `section_c` is "Section C")."""
    rules = ld.load_edition("landlords-game-1939")
    program = ld.compile_rules(rules)
    summary = Summary(4, stats=Stats(layout(program, rules)))
    summary.add(play_one(program, 4, 0, layout=summary.stats.layout))
    stats = summary.result()["stats"]
    text = render_stats(stats, top=40)
    assert "set Section C" in text and "set section_c" not in text
    assert {"set": "section_c", "label": "Section C"}.items() <= next(
        r for r in stats["rent"]["by_set"] if r["set"] == "section_c"
    ).items()


def test_statistics_show_whole_names_with_the_rents_in_one_column():
    """1933 (Monopoly, Atlantic City): a colour group's label ("Light blue: Park Place and Boardwalk") and a
    space's name are shown whole (they were cut at 28 or 32 characters), and the rent figures of the
    sets' rows and the spaces' rows stand in one column."""
    rules = ld.load_edition("monopoly-1933-atlantic-city")
    program = ld.compile_rules(rules)
    summary = Summary(4, stats=Stats(layout(program, rules)))
    for seed in range(3):
        summary.add(play_one(program, 4, seed, layout=summary.stats.layout))
    stats = summary.result()["stats"]
    text = render_stats(stats, top=40)
    rows = [line for line in text.splitlines() if line.endswith(tuple("0123456789")) and " ± " in line]
    labels = [r["label"] for r in stats["rent"]["by_set"]]
    assert max(map(len, labels)) > 32 and all(f"set {label} " in text for label in labels)
    rent_rows = [line for line in rows if line.startswith("    set ") or (" #" in line and "% ±" not in line)]
    assert len(rent_rows) == len(labels) + len(stats["rent"]["by_space"])
    assert len({line.index(" ± ") for line in rent_rows}) == 1


def test_outcomes_give_shares_as_simulate_does():
    """`diff --outcomes` and `simulate --stats` share one convention (issue 27): a seat's win rate is a
    percentage with its Wilson interval, which never leaves [0, 100] (a normal interval gave
    `0.150 [-0.011, 0.311]`), landing shares are percentages, and no number prints as -0."""
    rules = ld.load_edition("landlords-game-1904")
    data = outcomes(rules, rules, games=6, players=4, seed=0)
    for w in data["wins_by_seat"]:
        _, low, high = wilson(w["a"]["mean"] * 6, 6)
        assert (w["a"]["ci95_low"], w["a"]["ci95_high"]) == (low, high)
    text = render_outcomes(data, show_all=True)
    assert "-0.0" not in text  # identical rules: every paired difference is exactly zero, printed +0.0
    seat = next(line for line in text.splitlines() if "wins, seat 1" in line)
    share = data["wins_by_seat"][0]["a"]
    assert f"a {100 * share['mean']:.1f}% [{100 * share['ci95_low']:.1f}, {100 * share['ci95_high']:.1f}]" in seat
    first = data["landing_per_throw"][0]
    row = next(line for line in text.splitlines() if f"#{first['index_a']}/{first['index_b']} " in line)
    assert f"a {100 * first['a']:.3f}%   b {100 * first['b']:.3f}%" in row


def test_no_number_prints_as_minus_zero():
    from landlord_dsl.studies.stats import fixed, percent

    assert fixed(-0.00001, 4) == "0.0000" and fixed(-0.00001, 4, sign=True) == "+0.0000"
    assert fixed(-0.5, 1) == "-0.5" and percent(-0.000001, 3, sign=True) == "+0.000"


def test_heat_maps_keep_words_whole_and_show_the_spaces_beside_jail():
    """Issue 27: "Speculatio n" broke mid-word, and 1906's Jail (17.6 %) painted the other 38 squares one
    colour. Names wrap between words, and the colour scale ends at the largest of the others, the colour
    bar saying so (an arrow for the values above)."""
    pytest.importorskip("matplotlib")
    from landlord_dsl.presentation.plots import board_heatmap, colour_top, pyplot

    assert colour_top([0.176, 0.03, 0.028, 0.01]) == 0.03
    assert colour_top([0.04, 0.03, 0.028, 0.01]) == 0.04  # nothing dwarfs the rest: the whole range
    plt = pyplot()
    fig, ax = plt.subplots()
    labels = ["Speculation", "Jail", *[f"Lot {i}" for i in range(10)]]
    board_heatmap(ax, labels, [0.02, 0.176, *[0.02 + i / 1000 for i in range(10)]], "share")
    texts = [t.get_text() for t in ax.texts]
    assert texts[0].startswith("Speculation\n")
    colours = {tuple(p.get_facecolor()) for p in ax.patches[2:]}
    assert len(colours) == 10  # the lots beside Jail are told apart
    legend = " ".join(t.get_text() for t in ax.texts[len(labels) :]).replace("\n", " ")
    assert "the scale ends at" in legend and "arrow" in legend  # the legend, in the board's middle
    plt.close(fig)
