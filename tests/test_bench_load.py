"""Smoke test for benchmarks/bench_load.py: it runs and reports every stage (no timing is asserted)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_load.py"


def test_bench_load_reports_each_stage_warm_and_the_commands_cold(capsys):
    spec = importlib.util.spec_from_file_location("_bench_load", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--repeat", "1", "--cold", "1", "--edition", "landlords-game-1904", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert set(figures["warm"]["landlords-game-1904"]) == {
        "parse",
        "check",
        "fixed values",
        "load",
        "compile",
        "end to end",
    }
    assert set(figures["cold"]) == {
        "python -c pass",
        "load landlords-game-1904",
        "landlord-dsl --help",
        "landlord-dsl list",
    }
    assert all(row["cpu"] > 0 and row["wall"] > 0 for row in figures["cold"].values())


def test_bench_load_records_its_end_to_end_figures_in_a_history_file(tmp_path, capsys):
    import pyperf

    spec = importlib.util.spec_from_file_location("_bench_load", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    history = tmp_path / "load.json"
    argv = ["--repeat", "1", "--cold", "1", "--edition", "landlords-game-1904", "--json", "--record", str(history)]
    assert module.main(argv) == 0
    figures = json.loads(capsys.readouterr().out)
    (bench,) = pyperf.BenchmarkSuite.load(str(history)).get_benchmarks()
    assert bench.get_name() == "landlords-game-1904: a rule file to a first game, CPU s per load"
    assert bench.get_values() == (figures["warm"]["landlords-game-1904"]["end to end"] / 1000,)
    assert "--record" in bench.get_runs()[0].get_metadata()["command"]
