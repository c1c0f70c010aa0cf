"""`landlord-dsl optimise`: a seeded search over options and constants on common random numbers (issue 33 §3)."""

from __future__ import annotations

import io
import json
import sys

import pytest

pytest.importorskip("optuna")

from landlord_dsl.checking.loader import load
from landlord_dsl.cli.main import main
from landlord_dsl.core.errors import LandlordError, UsageError
from landlord_dsl.studies.optimise import (
    Question,
    optuna_module,
    parse_constraints,
    parse_objectives,
    parse_vary,
    run_study,
)

# A rule set whose score is best at dial = 74 (an option) and knob = 31 (a constant), whatever the dice:
# the planted optimum the search must find.
PLANTED = """\
edition "planted" {
    title "A planted optimum"
    players 2 to 4
    dice 2
    turn limit 4
    source "house-rule: a test of landlord-dsl optimise" original
}

option dial "A dial whose best setting is 74" = 10
const knob = 10

account bank "The bank" unlimited

kind start "Start" { }

board {
    space go "Go" : start
    space two "Two" : start
    space three "Three" : start
}

score 0 - (dial - 74) * (dial - 74) - (knob - 31) * (knob - 31)
"""


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


@pytest.fixture
def planted(tmp_path):
    path = tmp_path / "planted.lg"
    path.write_text(PLANTED)
    return path


def _question(rules, vary, objectives, constraints=(), games=2, study_seed=0, **kw) -> Question:
    return Question(
        rules,
        parse_vary(rules, vary),
        parse_objectives(objectives, 4),
        parse_constraints(constraints, 4),
        games,
        4,
        study_seed=study_seed,
        **kw,
    )


@pytest.mark.parametrize("study_seed", range(5))
def test_the_planted_optimum_is_found_within_one_step_in_60_trials(planted, study_seed):
    """The issue's test: for each of 5 optimiser seeds, 60 trials find dial 74 (steps of 2) and knob 31
    (steps of 2: 30 or 32 are within one step) within one step."""
    rules = load(planted)
    q = _question(rules, ["dial=0..200,2", "knob=0..60,2"], ["maximise mean_score"], study_seed=study_seed)
    data = run_study(q, 60, jobs=1)
    best = data["best"]["params"]
    assert abs(best["dial"] - 74) <= 2 and abs(best["knob"] - 31) <= 2, best
    assert data["trials"] == 60 and data["sampler"] == "TPE"


def test_the_same_study_is_the_same_for_any_jobs():
    """1906 with its wages (a constant) and the Single Tax's turn varied: the trials, their games and the best
    are the same played in one process or two."""
    argv = [
        "optimise",
        "landlords-game-1906",
        "--vary",
        "wages=50..200,50",
        "--vary",
        "single_tax_turn=20..100,40",
        "--option",
        "single_tax=at_turn",
        "--objective",
        "minimise gini_round_10",
        "--trials",
        "4",
        "--games",
        "6",
        "--format",
        "json",
    ]
    one = run(*argv, "--jobs", "1")
    two = run(*argv, "--jobs", "2")
    assert one == two and one[0] == 0
    data = json.loads(one[1])
    assert len(data["trials_played"]) == data["distinct"] and data["best"]["params"]["wages"] in (50, 100, 150, 200)


@pytest.mark.parametrize(
    ("objectives", "first", "total"),
    [
        (["--objective", "maximise mean_score"], 5, 12),  # TPE
        # NSGA-II, resumed within its first generation of 16 and run on into the next
        (["--objective", "maximise mean_score", "--objective", "minimise score_seat_1"], 8, 20),
    ],
)
def test_a_study_resumed_from_its_storage_is_the_study_run_at_once(planted, tmp_path, objectives, first, total):
    base = ["optimise", str(planted), "--vary", "dial=0..200,2", "--vary", "knob=0..60", *objectives]
    base += ["--games", "2", "--jobs", "1", "--format", "json"]
    db = tmp_path / "study.db"
    code, out = run(*base, "--trials", str(first), "--storage", str(db))
    assert code == 0 and json.loads(out)["trials"] == first
    code, resumed = run(*base, "--trials", str(total), "--storage", str(db))
    code_at_once, at_once = run(*base, "--trials", str(total))
    assert code == code_at_once == 0
    assert json.loads(resumed) == json.loads(at_once)
    # run again with as many trials: nothing is played, the same report
    assert run(*base, "--trials", str(total), "--storage", str(db)) == (0, resumed)


def test_a_storage_refuses_another_question(planted, tmp_path, capsys):
    db = tmp_path / "study.db"
    base = ["optimise", str(planted), "--objective", "maximise mean_score", "--games", "2", "--jobs", "1"]
    assert run(*base, "--vary", "dial=0..10", "--trials", "2", "--storage", str(db))[0] == 0
    code, _ = run(*base, "--vary", "dial=0..20", "--trials", "2", "--storage", str(db))
    err = capsys.readouterr().err
    assert code == 2 and "holds a study of another question" in err and "option dial=0..10" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--vary", "dail=0..10"], "has no option or constant 'dail'"),
        (["--vary", "dial=10..0"], "a range is LO..HI with LO below HI"),
        (["--vary", "dial=0..10,3"], "STEP (at least 1) dividing HI - LO"),
        (["--vary", "dial=0..ten"], "option 'dial' is a whole number"),
        (["--vary", "dial"], "give its range"),
        (["--vary", "dial=0..10", "--vary", "dial=0..4"], "it is given twice"),
        (["--vary", "knob=0..10", "--set", "knob=3"], "also fixed by --option or --set"),
        (["--vary", "dial=0..10", "--objective", "minimise ginny"], "unknown metric 'ginny'"),
        (["--vary", "dial=0..10", "--objective", "shrink turns"], "--objective wants 'minimise METRIC'"),
        (["--vary", "dial=0..10", "--constraint", "turns < 5"], "--constraint wants 'METRIC <= BOUND'"),
        (["--vary", "dial=0..10", "--write", "out.txt"], "its name must end in .lg"),
    ],
)
def test_bad_input_is_a_usage_error_that_says_what_is_wrong(planted, capsys, argv, message):
    base = ["optimise", str(planted), "--trials", "2", "--games", "2", "--jobs", "1"]
    if "--objective" not in argv:
        argv = [*argv, "--objective", "maximise mean_score"]
    code, _ = run(*base, *argv)
    assert code == 2
    assert message in capsys.readouterr().err


def test_without_optuna_the_command_says_how_to_install_it(planted, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "optuna", None)
    with pytest.raises(LandlordError, match=r"pip install 'landlord-dsl\[optimise\]'"):
        optuna_module()
    code, _ = run("optimise", str(planted), "--vary", "dial=0..10", "--objective", "maximise mean_score")
    err = capsys.readouterr().err
    assert code == 1 and "needs optuna" in err and "Traceback" not in err


def test_the_written_variant_extends_the_rules_sets_the_best_and_checks(planted, tmp_path):
    target = tmp_path / "tuned.lg"
    code, out = run(
        "optimise",
        str(planted),
        "--vary",
        "dial=60..80,2",
        "--vary",
        "knob=28..34",
        "--objective",
        "maximise mean_score",
        "--trials",
        "40",
        "--games",
        "2",
        "--jobs",
        "1",
        "--write",
        str(target),
    )
    assert code == 0 and f"wrote {target}" in out
    text = target.read_text()
    assert 'extends "planted.lg"' in text and 'reference "optimise-study"' in text
    assert "--trials 40 --games 2 --seed 0 --study-seed 0" in text and "mean_score" in text
    assert run("check", "--strict", str(target))[0] == 0
    tuned = load(target)
    best = {"dial": tuned.model.options["dial"].default, "knob": tuned.model.consts["knob"].value.value}
    assert f"best: dial={best['dial']}, knob={best['knob']}" in out
    assert abs(best["dial"] - 74) <= 2 and abs(best["knob"] - 31) <= 1


def test_a_shipped_edition_is_extended_by_name_with_the_constants_set(tmp_path):
    target = tmp_path / "tuned-1906.lg"
    code, out = run(
        "optimise",
        "landlords-game-1906",
        "--vary",
        "jail_fine=25..75,25",
        "--set",
        "wages=150",
        "--objective",
        "minimise turns",
        "--trials",
        "3",
        "--games",
        "3",
        "--jobs",
        "1",
        "--confirm",
        "4",
        "--write",
        str(target),
    )
    assert code == 0
    assert "confirmed on 4 fresh games (seeds 3..6, not searched on)" in out
    text = target.read_text()
    assert 'extends "landlords-game-1906"' in text and "confirmed on 4 fresh games (seeds 3..6)" in text
    tuned = load(target)
    assert tuned.model.consts["wages"].value.value == 150
    assert tuned.model.consts["jail_fine"].value.value in (25, 50, 75)


def test_several_objectives_give_a_pareto_front_of_settings_none_beats(planted):
    """Maximising the mean score and minimising seat 1's score (the same number in the planted game, where every
    seat scores alike) conflict at every setting: NSGA-II's front holds every distinct setting, none beaten."""
    rules = load(planted)
    q = _question(rules, ["dial=60..80,4"], ["maximise mean_score", "minimise score_seat_1"])
    data = run_study(q, 12, jobs=1)
    assert data["sampler"] == "NSGA-II" and len(data["front"]) == data["distinct"] > 1
    means = [
        (e["metrics"]["mean_score"]["value"].mean, e["metrics"]["score_seat_1"]["value"].mean) for e in data["front"]
    ]
    for a, b in means:
        assert not any(x >= a and y <= b and (x, y) != (a, b) for x, y in means)


def test_a_constraint_no_trial_meets_is_said(planted):
    rules = load(planted)
    q = _question(rules, ["dial=0..10"], ["maximise mean_score"], ["turns >= 100"])
    data = run_study(q, 3, jobs=1)
    assert data["best"] is None and data["feasible"] == 0
    with pytest.raises(UsageError, match="no trial met the constraints"):
        from landlord_dsl.studies.optimise import chosen

        chosen(data)


def test_a_storage_that_is_not_a_database_is_a_usage_error(planted, tmp_path, capsys):
    db = tmp_path / "notes.db"
    db.write_text("not a database")
    argv = ["optimise", str(planted), "--vary", "dial=0..10", "--objective", "maximise mean_score"]
    code, _ = run(*argv, "--trials", "2", "--games", "2", "--jobs", "1", "--storage", str(db))
    err = capsys.readouterr().err
    assert code == 2 and "cannot use it as optuna's SQLite storage: file is not a database" in err


@pytest.mark.parametrize("objectives", [["maximise mean_score"], ["maximise mean_score", "minimise score_seat_1"]])
def test_plot_draws_the_trials(planted, tmp_path, objectives):
    pytest.importorskip("matplotlib")
    picture = tmp_path / "study.png"
    argv = ["optimise", str(planted), "--vary", "dial=60..80,4", "--vary", "knob=28..34"]
    for objective in objectives:
        argv += ["--objective", objective]
    code, _ = run(*argv, "--trials", "6", "--games", "2", "--jobs", "1", "--plot", str(picture))
    assert code == 0 and picture.stat().st_size > 1000


def test_a_study_stopped_in_a_trial_resumes_as_if_never_stopped(planted, tmp_path, monkeypatch):
    """Ctrl-C in the middle of trial 4: the storage keeps trials 0-3 (and the stopped one, failed, which is not
    counted); run again, the study ends as one run of as many trials would, trial numbers and all."""
    from landlord_dsl.studies import optimise
    from landlord_dsl.studies.optimise import to_json

    rules = load(planted)
    q = _question(rules, ["dial=0..200,2", "knob=0..60"], ["maximise mean_score"])
    db = str(tmp_path / "study.db")
    real, calls = optimise.play_cells, []

    def stopped(*args, **kwargs):
        calls.append(1)
        if len(calls) == 6:  # the baseline, then trials 0-3, then the fifth play: trial 4
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(optimise, "play_cells", stopped)
    with pytest.raises(KeyboardInterrupt):
        run_study(q, 12, storage=db, jobs=1)
    optuna = optuna_module()
    states = [t.state.name for t in optuna.load_study(study_name=optimise.STUDY_NAME, storage=f"sqlite:///{db}").trials]
    assert states[-1] == "FAIL" and states.count("COMPLETE") >= 4
    monkeypatch.setattr(optimise, "play_cells", real)
    resumed = to_json(run_study(q, 12, storage=db, jobs=1))
    assert resumed == to_json(run_study(q, 12, jobs=1))
    assert [t["trial"] for t in resumed["trials_played"]][:3] == [0, 1, 2]


def test_write_refuses_a_variant_that_could_not_extend_its_edition(planted, tmp_path, capsys):
    """A variant extends a .lg file only in its own folder (or below): written elsewhere it could not load; a
    combination of variants (`a+b`) is not one edition to extend."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    base = ["--objective", "maximise mean_score", "--trials", "2", "--games", "2", "--jobs", "1"]
    code, _ = run("optimise", str(planted), "--vary", "dial=0..10", *base, "--write", str(elsewhere / "x.lg"))
    assert code == 2 and "can extend only a .lg file in its own folder" in capsys.readouterr().err
    assert not (elsewhere / "x.lg").exists()
    combined = "monopoly-1933-atlantic-city+monopoly-1933-no-auctions"
    base[1] = "minimise turns"
    code, _ = run("optimise", combined, "--vary", "salary=100..200,100", *base, "--write", str(tmp_path / "y.lg"))
    assert code == 2 and "not several combined with '+'" in capsys.readouterr().err
