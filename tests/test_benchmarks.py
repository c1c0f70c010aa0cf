"""Smoke tests for benchmarks/: the hand-written baseline and the bench driver.

No timing is asserted: these only check that the benchmark runs, that the
baseline's games end and conserve money, and that the baseline still plays
the same games as the interpreter (otherwise the speed ratio compares
different work).
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import landlord_dsl as ld

BENCH_DIR = Path(__file__).resolve().parent.parent / "benchmarks"
if str(BENCH_DIR) not in sys.path:
    sys.path.insert(0, str(BENCH_DIR))  # the baselines import their shared bot as bench.py does


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"_bench_{name}", BENCH_DIR / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


baseline = _load("baseline_1906")
baseline_1933 = _load("baseline_1933")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_baseline_games_end_and_conserve_money(players):
    for seed in range(20):
        game = baseline.Game(players, seed)
        result = game.play()
        assert game.over
        assert 0 < result.turns <= baseline.TURN_LIMIT
        assert max(game.wages) >= baseline.WAGES_TO_END or result.turns == baseline.TURN_LIMIT
        assert game.conserved(), f"seed {seed}: money not conserved"
        assert len(result.scores) == players and result.winners


def test_baseline_is_deterministic():
    assert baseline.Game(4, 11).play() == baseline.Game(4, 11).play()


def test_baseline_plays_the_same_games_as_the_interpreter():
    program = ld.compile_rules(ld.load_edition("landlords-game-1906"))
    for seed in range(10):
        game = ld.new_game(program, players=4, seed=seed)
        expected = game.play()
        mine = baseline.Game(4, seed)
        got = mine.play()
        assert (got.turns, got.scores, got.winners) == (expected.turns, expected.scores, expected.winners), seed
        assert mine.pos == game.pos and mine.owner == game.owner, seed


@pytest.mark.parametrize("players", [2, 4, 8])
def test_baseline_1933_games_end_and_conserve_money(players):
    for seed in range(10):
        game = baseline_1933.Game(players, seed)
        result = game.play()
        assert game.over and 0 < result.turns <= baseline_1933.TURN_LIMIT
        assert len(game.seats) == 1 or result.turns == baseline_1933.TURN_LIMIT
        assert game.conserved(), f"seed {seed}: money not conserved"
        assert len(result.scores) == players and result.winners


@pytest.mark.parametrize("players", [2, 4, 6])
def test_baseline_1933_plays_the_same_games_as_the_interpreter(players):
    program = ld.compile_rules(ld.load_edition("monopoly-1933-atlantic-city"))
    for seed in range(8):
        game = ld.new_game(program, players=players, seed=seed)
        expected = game.play()
        mine = baseline_1933.Game(players, seed)
        got = mine.play()
        assert (got.turns, got.scores, got.winners) == (expected.turns, expected.scores, expected.winners), seed
        assert mine.pos == game.pos and mine.owner == game.owner and mine.seats == game.seats, seed
        # the baseline numbers the cards Chance first, then Community Chest, in file order
        ids = program.deck_cards["chance_cards"] + program.deck_cards["chest_cards"]
        assert game.decks["chance_cards"] == [ids[c] for c in mine.chance], seed
        assert game.decks["chest_cards"] == [ids[c] for c in mine.chest], seed


def test_bench_json_output():
    proc = subprocess.run(
        [sys.executable, str(BENCH_DIR / "bench.py"), "--games", "5", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    for key in (
        "edition",
        "games",
        "players",
        "load_seconds",
        "compile_seconds",
        "interpreter",
        "baseline",
        "ratio",
        "baseline_speedup",
        "identical_games",
    ):
        assert key in report, key
    assert report["edition"] == "landlords-game-1906" and report["games"] == 5 and report["players"] == 4
    for engine in ("interpreter", "baseline"):
        figures = report[engine]
        for key in (
            "seconds",
            "player_turns",
            "turns_per_second",
            "games_per_second",
            "mean_turns_per_game",
            "money_conserved",
        ):
            assert key in figures, (engine, key)
        assert figures["games"] == 5 and figures["money_conserved"] == 5
        assert figures["turns_per_second"] > 0
    assert report["interpreter"]["player_turns"] == report["baseline"]["player_turns"]
    assert report["identical_games"] == 5
    assert report["ratio"] > 0


def test_bench_runs_the_1933_baseline_and_none_for_a_variant():
    proc = subprocess.run(
        [
            sys.executable,
            str(BENCH_DIR / "bench.py"),
            "--edition",
            "monopoly-1933-atlantic-city",
            "--games",
            "3",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["baseline"]["money_conserved"] == 3 and report["identical_games"] == 3
    proc = subprocess.run(
        [sys.executable, str(BENCH_DIR / "bench.py"), "--edition", "monopoly-1933-paupers", "--games", "2"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "no hand-written baseline for monopoly-1933-paupers" in proc.stdout


def test_the_peer_comparison_says_it_skipped_when_no_peer_is_given(tmp_path):
    proc = subprocess.run(
        [sys.executable, str(BENCH_DIR / "bench_peer.py"), "--peer", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0 and proc.stdout.startswith("skipped: no peer simulator")


def test_the_instruction_count_says_it_skipped_without_valgrind(tmp_path):
    proc = subprocess.run(
        [sys.executable, str(BENCH_DIR / "bench_instructions.py"), "--games", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "PATH": str(tmp_path)},  # nothing on it: no valgrind
    )
    assert proc.returncode == 0 and proc.stdout.startswith("skipped: valgrind is not installed"), proc.stderr


def test_the_instruction_count_is_read_from_what_callgrind_prints():
    """(A run under valgrind takes a minute: `python benchmarks/bench_instructions.py` is not run here.)"""
    report = "==1== Events    : Ir\n==1== Collected : 20970599\n==1==\n==1== I   refs:      20,970,599\n"
    assert _load("bench_instructions").collected(report) == 20970599
    with pytest.raises(RuntimeError, match="no instruction count"):
        _load("bench_instructions").collected("valgrind: command not found")


def test_the_bytecode_count_is_the_same_in_every_run():
    """bench_opcodes.py counts what no load or memory layout moves: two runs (two processes, so two layouts)
    give the same count, and a game of 1904 executes some hundreds of thousands of bytecodes."""
    command = [sys.executable, str(BENCH_DIR / "bench_opcodes.py"), "--edition", "landlords-game-1904"]
    runs = [
        json.loads(
            subprocess.run(
                [*command, "--games", "2", "--json"], capture_output=True, text=True, timeout=300, check=True
            ).stdout
        )
        for _ in range(2)
    ]
    assert runs[0] == runs[1] and runs[0]["edition"] == "landlords-game-1904"
    assert 50_000 < runs[0]["opcodes_per_game"] < 5_000_000


def test_the_peer_comparisons_two_cores_count_what_one_core_plays():
    """bench_peer's `--jobs`: ours played in worker processes, counted as the same games on one core."""
    import bench_peer  # by its own name (on the path above): its workers' tasks are pickled by name

    cores = bench_peer.on_cores(("ours", "monopoly-1933-atlantic-city", 4), 6, 0, 2)
    _, counts = bench_peer.Ours("monopoly-1933-atlantic-city", 4).play(range(6))
    assert (cores["games"], cores["throws"], cores["player_turns"]) == (6, counts["throws"], counts["player_turns"])
    assert cores["throws_per_s"] > 0


def test_the_peer_comparison_counts_a_turns_throws_apart_from_the_others():
    """Issue 31 §1: a throw counts when a rule handling `on turn` makes it (moving, or trying to leave jail);
    1933's opening throws for the first player and a utility's fresh throw are counted apart."""
    import bench_peer

    ours = bench_peer.Ours("monopoly-1933-atlantic-city", 4)
    _, counts = ours.play(range(3))
    games = [ld.new_game(ours.program, players=4, seed=s) for s in range(3)]
    for game in games:
        game.play()
    rules = [ours.program.rule_names[e[4]] for g in games for e in g.log if e[0] == "roll"]
    assert counts["throws"] == sum(rule in ("moving", "jail_rule") for rule in rules)
    assert counts["other_throws"] == sum(rule in ("first_player", "utility_rates") for rule in rules)
    assert counts["throws"] + counts["other_throws"] == len(rules) and counts["other_throws"] >= 3 * 4


def test_the_delogged_peer_copy_runs_log_statements_only_when_the_log_is_on():
    peer_copies = _load("peer_copies")
    source = (
        "from monopoly.core.dice import Dice\n"
        "import monopoly.log\n"
        "from settings import GameSettings\n"
        "def move(self, board, log):\n"
        "    log.add(f'{self.name} moves')\n"
        "    self.log.add('x')\n"
        "    board.log_board_state(events_log)\n"
        "    self.cash.add(5)\n"
        "    return board\n"
    )
    import ast

    guard = peer_copies._GuardLogging("monopoly_delogged", "settings_monopoly_delogged")
    out = ast.unparse(ast.fix_missing_locations(guard.visit(ast.parse(source))))
    assert "from monopoly_delogged.core.dice import Dice" in out
    assert "import monopoly_delogged.log as monopoly" in out
    assert "from settings_monopoly_delogged import GameSettings" in out
    assert "if not log.disabled:\n        log.add(f'{self.name} moves')" in out
    assert "if not self.log.disabled:\n        self.log.add('x')" in out
    assert "if not events_log.disabled:\n        board.log_board_state(events_log)" in out
    assert "    self.cash.add(5)\n    return board" in out  # not a log: unguarded


def test_the_benchmark_history_keeps_each_run_with_its_origin(tmp_path):
    history = _load("history")
    path = tmp_path / "peer.json"
    rounds = [{"interpreter": {"cpu_s": 2.0, "throws": 100_000}}, {"interpreter": {"cpu_s": 1.0, "throws": 100_000}}]
    history.record_rounds(path, "monopoly-1933-atlantic-city", rounds, note="bench_peer.py --games 2")
    history.record_rounds(path, "monopoly-1933-atlantic-city", rounds[1:], note="again")
    import pyperf

    (bench,) = pyperf.BenchmarkSuite.load(str(path)).get_benchmarks()
    assert bench.get_name() == "monopoly-1933-atlantic-city: interpreter, CPU s per throw"
    first, second = bench.get_runs()
    assert first.values == (2e-05, 1e-05) and second.values == (1e-05,)
    assert first.get_metadata()["command"] == "bench_peer.py --games 2" and "commit" in second.get_metadata()


def test_the_projects_benchmark_history_reads_and_names_its_sources():
    import pyperf

    for path in (BENCH_DIR / "history").glob("*.json"):
        for bench in pyperf.BenchmarkSuite.load(str(path)).get_benchmarks():
            for run in bench.get_runs():
                meta = run.get_metadata()
                assert {"date", "commit", "command"} <= meta.keys(), (path.name, bench.get_name(), meta)


def test_the_scale_benchmark_runs_and_finds_the_same_summary_on_two_cores():
    proc = subprocess.run(
        [
            sys.executable,
            str(BENCH_DIR / "bench_scale.py"),
            "speedup",
            "--games",
            "8",
            "--edition",
            "landlords-game-1904",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    runs = json.loads(proc.stdout)["runs"]
    assert [r["jobs"] for r in runs] == [1, 2] and all(r["same_summary_as_jobs_1"] for r in runs)


def test_the_coverage_benchmark_runs_and_reports_a_ratio():
    proc = subprocess.run(
        [sys.executable, str(BENCH_DIR / "bench_coverage.py"), "--edition", "landlords-game-1904", "--games", "2"]
        + ["--json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    [row] = json.loads(proc.stdout)
    assert row["edition"] == "landlords-game-1904" and row["games"] == 2 and row["ratio"] > 0


def test_bench_editor_runs():
    run = subprocess.run(
        [sys.executable, str(BENCH_DIR / "bench_editor.py"), "--repeat", "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "landlords-game-1906" in run.stdout and "CPU ms" in run.stdout


def test_the_strength_benchmark_reports_a_win_rate_with_its_interval_per_budget():
    """bench_search.py at a tiny size: one deal of 1906 a budget, the searcher in each of two seats."""
    proc = subprocess.run(
        [
            sys.executable,
            str(BENCH_DIR / "bench_search.py"),
            "--edition",
            "landlords-game-1906",
            "--players",
            "2",
            "--deals",
            "1",
            "--budgets",
            "1,2",
            "--turn-limit",
            "10",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert [run["agent"] for run in report["runs"]] == ["mcts:1", "mcts:2"]
    for run in report["runs"]:
        assert run["games"] == 2 and 0 <= run["ci95"][0] <= run["win_rate"] <= run["ci95"][1] <= 1


def test_the_strength_benchmark_takes_a_game_count_and_the_searchs_options():
    """bench_search.py --games 3 on two seats is two deals (four games) a budget, the MCTS seat paired (no
    standard error asked), with bot opponents and rollouts to the end (of a 10-turn game); the options are
    in the report, and an option the agent does not have is refused."""
    bench = _load("bench_search")
    args = ["--edition", "landlords-game-1906", "--players", "2", "--games", "3", "--budgets", "1,2"]
    args += ["--turn-limit", "10", "--horizon", "0", "--paired", "--confidence", "0", "--bot-opponents", "--json"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert bench.main(args) == 0
    report = json.loads(out.getvalue())
    options = {"horizon": 0, "paired": True, "confidence": 0.0, "opponents": "bot"}
    assert report["deals"] == 2 and report["options"] == options
    assert [run["games"] for run in report["runs"]] == [4, 4]
    for refused in (
        ["--agent", "rollout", "--paired"],
        ["--confidence", "1"],
        ["--agent", "rollout", "--value", "learned"],
        ["--agent", "challenger", "--paired"],
    ):
        with pytest.raises(SystemExit):
            bench.main(refused)
