"""`landlord-dsl skill` (issue 30 §3, docs/skill.md): the measure on games whose answer is known, its
statistics on constructed win shares, the same report for any --jobs, and clear errors."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

import landlord_dsl as ld
from landlord_dsl.cli.main import main
from landlord_dsl.core.errors import UsageError
from landlord_dsl.studies.skill import deal_sums, estimate, measures, play_skill, skill_report

ROOT = Path(__file__).resolve().parents[1]
DICE = str(ROOT / "examples" / "dice-decide.lg")  # paid the throw: the dice alone decide
CHOICES = str(ROOT / "examples" / "choices-decide.lg")  # take ten or nothing: the choices alone decide


def _run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(list(argv), out=out)
    return status, out.getvalue()


def _report(path: str, deals: int = 12, ladder: tuple[str, ...] = ("bot",)) -> dict:
    return skill_report(play_skill(ld.load_edition(path), list(ladder), "random", deals, jobs=1))


def test_dice_decide_alone_the_seed_explains_everything_and_the_bot_has_no_edge():
    (bot,) = _report(DICE)["rungs"]
    assert bot["seed_share"]["mean"] == pytest.approx(1.0)
    assert bot["skill_share"]["ci95_low"] <= 0 <= bot["skill_share"]["ci95_high"]
    assert bot["edge"]["ci95_low"] <= 0 <= bot["edge"]["ci95_high"]


def test_choices_decide_alone_the_bot_always_wins_and_the_seed_explains_nothing():
    (bot,) = _report(CHOICES)["rungs"]
    assert bot["win_rate"]["mean"] == 1.0 and bot["edge"]["ci95_low"] == 1.0
    assert bot["skill_share"]["ci95_low"] > 0.9
    assert bot["seed_share"]["mean"] == pytest.approx(0.0, abs=1e-9)


def test_a_searching_rung_is_measured_like_any_other():
    report = _report(CHOICES, deals=2, ladder=("bot", "rollout:1"))
    assert [r["agent"] for r in report["rungs"]] == ["bot", "rollout:1"]
    assert report["rungs"][1]["edge"]["mean"] == 1.0


def test_winners_drawn_at_random_give_shares_near_zero_not_a_share_of_the_table():
    """The correction for noise: with nothing but chance deciding each game, a plain ratio of the seats'
    mean squares would give the seed about 1/4 of the variance; the corrected share is about 0."""
    rng = random.Random(7)
    deals = []
    for _ in range(400):
        rows = []
        for _ in range(4):
            row = [0.0] * 4
            row[rng.randrange(4)] = 1.0
            rows.append(row)
        deals.append(deal_sums(rows))
    found = estimate(deals, 4, resamples=200)
    for key in ("seed_share", "skill_share", "edge"):
        assert found[key]["ci95_low"] <= 0 <= found[key]["ci95_high"], key
    assert found["rest_share"]["mean"] > 0.9


def test_the_shares_split_the_variance_exactly():
    rng = random.Random(3)
    deals = [deal_sums([[rng.choice((0.0, 1.0, 0.5)) for _ in range(3)] for _ in range(3)]) for _ in range(50)]
    m = measures(deals, 3)
    assert m["seed_share"] + m["skill_share"] + m["rest_share"] == pytest.approx(1.0)


def test_the_same_report_for_any_number_of_processes():
    argv = ["skill", "landlords-game-1906", "--games", "3", "--turn-limit", "40", "--format", "json"]
    one, two = _run(*argv, "--jobs", "1"), _run(*argv, "--jobs", "2")
    assert one[0] == two[0] == 0
    assert one[1] == two[1]
    assert json.loads(one[1])["games"] == 12


def test_versus_compares_two_rule_files_on_the_same_deals():
    status, text = _run("skill", DICE, "--versus", CHOICES, "--games", "4", "--jobs", "1", "--format", "json")
    assert status == 0
    (rung,) = json.loads(text)["rungs"]
    assert rung["difference"]["seed_share"]["mean"] == pytest.approx(1.0)
    assert rung["difference"]["edge"]["mean"] == pytest.approx(-1.0)


def test_versus_option_plays_the_same_rules_with_another_option():
    status, text = _run(
        "skill",
        "landlords-game-1906",
        "--versus",
        "landlords-game-1906",
        "--versus-option",
        "single_tax=from_start",
        "--games",
        "2",
        "--turn-limit",
        "30",
        "--jobs",
        "1",
    )
    assert status == 0
    assert "versus landlords-game-1906 (single_tax=from_start)" in text
    assert "difference, this minus versus, the same deals" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--ladder", "random"], "the rung 'random' is the field itself"),
        (["--ladder", "bot,bot"], "--ladder names an agent twice"),
        (["--ladder", "human"], "cannot be human"),
        (["--field", "human"], "cannot be human"),
        (["--ladder", "mcst:4"], "did you mean 'mcts'?"),
        (["--players", "9"], "is for 2 to 4 players, not 9"),
        (["--versus-option", "single_tax=never"], "--versus-option needs --versus"),
    ],
)
def test_bad_input_is_refused_with_a_clear_error(argv, message, capsys):
    status, _ = _run("skill", DICE, "--games", "2", *argv)
    assert status == 2
    assert message in capsys.readouterr().err


def test_a_study_of_one_deal_is_refused():
    with pytest.raises(UsageError, match="at least two deals"):
        play_skill(ld.load_edition(DICE), ["bot"], "random", 1)
