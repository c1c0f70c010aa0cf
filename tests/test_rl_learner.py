"""The numpy learner and its training script (landlord_dsl/rl/learner.py, examples/train_learner.py): issue 30 §5.

These tests check that the script trains, saves, loads and evaluates, that a run repeats bit for bit, and
that the learner's update moves the policy the right way. How strong the learner gets is a benchmark
(benchmarks/bench_learner.py, figures in benchmarks/README.md), not a test.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from landlord_dsl.core.errors import LandlordError, UsageError
from landlord_dsl.rl.learner import (
    Adam,
    LinearPolicy,
    Seats,
    Settings,
    _update,
    check_fits,
    evaluate,
    hint_slots,
    random_choice,
    scripted_choice,
    train,
)

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "examples" / "train_learner.py"
EDITION = "landlords-game-1904"


def run_script(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=600, cwd=ROOT)


def test_the_script_trains_saves_loads_and_evaluates_on_1904(tmp_path):
    out = tmp_path / "policy.npz"
    proc = run_script(EDITION, "--cpu-budget", "2", "--games-per-update", "4", "--out", str(out), "--games", "4")
    assert proc.returncode == 0, proc.stderr
    assert out.is_file()
    assert "trained " in proc.stdout and "replay exactly with --seed 0 --updates " in proc.stdout
    for name in ("learner", "random", "scripted"):
        assert f"\n{name} " in proc.stdout
    assert "learner - scripted: wins " in proc.stdout
    policy, meta = LinearPolicy.load(out)
    assert meta["rules"] == EDITION and meta["updates"] >= 1 and meta["cpu_seconds"] >= 2
    assert meta["games"] == 4 * meta["updates"]
    seats = Seats(EDITION, 4, "bot", None)
    check_fits(policy, seats.encoder, seats.actions, EDITION)
    assert np.any(policy.W != 0), "training changed nothing"

    proc = run_script("--evaluate", str(out), "--games", "4", "--json")
    assert proc.returncode == 0, proc.stderr
    figures = json.loads(proc.stdout)
    assert figures["rules"] == EDITION and figures["games"] == 4
    assert figures["seeds"] == [1_000_000_000, 1_000_000_003]
    assert set(figures["policies"]) == {"learner", "random", "scripted"}
    assert set(figures["learner_minus"]) == {"random", "scripted"}
    for f in figures["policies"].values():
        assert 0 <= f["wins"]["ci95_low"] <= f["wins"]["mean"] <= f["wins"]["ci95_high"] <= 1
    assert figures["training"]["updates"] == meta["updates"]


def test_a_run_repeats_bit_for_bit_and_its_evaluation_too():
    settings = Settings(games_per_update=2)
    first, log = train(EDITION, seed=5, updates=2, settings=settings)
    second, _ = train(EDITION, seed=5, updates=2, settings=settings)
    other, _ = train(EDITION, seed=6, updates=2, settings=settings)
    assert log.updates == 2 and log.games == 4
    for a, b in zip(first.parameters(), second.parameters(), strict=True):
        assert np.array_equal(a, b)
    assert not np.array_equal(first.W, other.W)
    seats = Seats(EDITION, 4, "bot", None)
    cost_at, value_at = hint_slots(seats.encoder)
    policies = {"random": random_choice, "scripted": scripted_choice(cost_at, value_at)}
    one = evaluate(EDITION, policies, games=3)
    two = evaluate(EDITION, policies, games=3)
    assert one == two
    # common random numbers: both policies play game i from the same dice seed, the same seat
    assert one.first_seed == 1_000_000_000 and all(len(v) == 3 for v in one.outcomes.values())


def test_an_update_makes_an_action_with_a_positive_advantage_likelier():
    policy = LinearPolicy(observation_size=10, actions=4, cost_at=2, value_at=6)  # hints: numbers 2-9
    x = np.array([[1.0, -0.5, 0.1, 0.0, 0.0, 0.3, 0.2, 0.0, 0.0, 0.4]] * 2)
    masks = np.array([[True, True, False, True]] * 2)
    before = policy.probabilities(x[:1], masks[:1])[0]
    assert before[2] == 0 and before[0] == pytest.approx(1 / 3)
    actions = np.array([0, 3])
    old = np.log(before[actions])
    _update(
        policy,
        Adam(policy.parameters(), 0.05),
        x,
        masks,
        actions,
        old,
        np.array([1.0, -1.0]),
        np.array([1.0, -1.0]),
        Settings(epochs=3, minibatches=1, entropy=0.0),
        np.random.default_rng(0),
    )
    after = policy.probabilities(x[:1], masks[:1])[0]
    assert after[0] > before[0] and after[3] < before[3] and after[2] == 0


def test_the_scripted_baseline_takes_the_largest_value_less_cost():
    choose = scripted_choice(cost_at=0, value_at=4)
    obs = np.array([0.0, 0.2, 0.1, 0.0, 0.0, 0.5, 0.9, 0.0])  # costs 0, .2, .1, 0; values 0, .5, .9, 0
    rng = np.random.default_rng(0)
    assert choose(obs, np.array([1, 1, 1, 1]), rng) == 2  # .9 - .1
    assert choose(obs, np.array([1, 1, 0, 1]), rng) == 1  # .5 - .2
    assert choose(obs, np.array([1, 0, 0, 1]), rng) == 0  # a tie: the lowest slot


def test_a_file_that_is_not_a_policy_is_refused_with_its_name(tmp_path):
    bad = tmp_path / "not-a-policy.npz"
    np.savez(bad, W=np.zeros((2, 2)))
    with pytest.raises(UsageError, match=r"not-a-policy\.npz: cannot read a policy"):
        LinearPolicy.load(bad)
    proc = run_script("--evaluate", str(bad))
    assert proc.returncode == 2 and "not-a-policy.npz" in proc.stderr


def test_a_policy_of_other_rules_does_not_fit():
    seats = Seats(EDITION, 4, "bot", None)
    cost_at, value_at = hint_slots(seats.encoder)
    policy = LinearPolicy(seats.encoder.size + 1, seats.actions, cost_at, value_at)
    with pytest.raises(LandlordError, match="the policy sees 450 numbers and answers with 6 slots; these rules"):
        check_fits(policy, seats.encoder, seats.actions, EDITION)


def test_training_needs_a_budget_or_a_number_of_updates():
    with pytest.raises(UsageError, match="CPU budget or a number of updates"):
        train(EDITION)


def test_the_benchmark_runs_at_a_tiny_budget():
    """benchmarks/bench_learner.py with a second of training and two games a policy: its figures, not its verdict."""
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_learner.py"), "--cpu-budget", "1", "--games", "2", "--json"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode in (0, 1), proc.stderr
    figures = json.loads(proc.stdout)
    assert figures["met"] == (proc.returncode == 0)
    assert figures["training"]["updates"] >= 1 and figures["training"]["cpu_seconds"] >= 1
    assert len(figures["load_average"]["before"]) == 3 and figures["games"] == 2
