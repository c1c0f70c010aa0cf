"""Benchmark: the exact movement analysis (`landlord-dsl analyze`) of shipped editions.

Times `analyze` (exploring the chain by running the compiled turns, solving
it, and by default the rent table and the economy check) and prints wall and
CPU seconds per edition, the number of movement states and of turns run.

    python benchmarks/analysis_bench.py                       # 1933, all parts
    python benchmarks/analysis_bench.py --parts chain         # the landing tables only
    python benchmarks/analysis_bench.py --edition examples/monopoly-standard-deck.lg --repeat 3
    python benchmarks/analysis_bench.py --json
    python benchmarks/analysis_bench.py --stages               # and the CPU seconds of each stage
    python benchmarks/analysis_bench.py --monte-carlo 1000000   # and agreement with a large sample
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from landlord_dsl.checking.loader import load
from landlord_dsl.studies import analysis
from landlord_dsl.studies.analysis.explore import Explorer


def measure(edition: str, parts: str, repeat: int) -> dict:
    """Return the best wall and CPU seconds of `repeat` analyses of `edition`, with its size and the best CPU
    seconds of each stage (named as analyze announces them; the first is compiling, before any)."""
    rules = load(edition)
    turns = [0, 0]  # (the runs of a turn, and those of them resumed at a request instead of replayed)
    run_turn = Explorer.run_turn

    def counting(self, key, paused=None):
        turns[0] += 1
        turns[1] += paused is not None
        return run_turn(self, key, paused)

    Explorer.run_turn = counting
    stages: dict[str, float] = {}  # the best CPU seconds of each stage, by the name analyze gives it
    try:
        best_wall = best_cpu = float("inf")
        marks: list[tuple[str, float]] = []

        def progress(stage: str) -> None:
            marks.append((stage.split(" of ")[0], time.process_time()))

        for _ in range(repeat):
            turns[:] = [0, 0]
            marks[:] = [("compiling the rules", time.process_time())]
            wall, cpu = time.perf_counter(), time.process_time()
            result = analysis.analyze(
                rules, check_economy=parts == "all", rents=parts == "all", buildings=None, progress=progress
            )
            best_wall = min(best_wall, time.perf_counter() - wall)
            best_cpu = min(best_cpu, time.process_time() - cpu)
            marks.append(("", time.process_time()))
            for (stage, began), (_, ended) in itertools.pairwise(marks):
                stages[stage] = min(stages.get(stage, float("inf")), ended - began)
    finally:
        Explorer.run_turn = run_turn
    return {
        "stages_cpu_seconds": {stage: round(seconds, 3) for stage, seconds in stages.items()},
        "edition": rules.name,
        "parts": parts,
        "states": result.states,
        "turns_run": turns[0],
        "turns_resumed": turns[1],
        "spaces": len(result.rows),
        "wall_seconds": round(best_wall, 3),
        "cpu_seconds": round(best_cpu, 3),
    }


def agreement(edition: str, turns: int) -> dict:
    """Return the largest gap between exact and sampled turn-end shares, in standard errors, over the spaces."""
    exact = analysis.analyze(edition, check_economy=False, rents=False)
    wall = time.perf_counter()
    mean, se = analysis.sample_turn_ends(edition, turns, seed=1, batches=100)
    gaps = [abs(r.turn - mean[r.index]) / se[r.index] for r in exact.rows if not r.status and se[r.index] > 0]
    return {
        "edition": exact.edition,
        "turns": turns,
        "max_gap_in_standard_errors": round(max(gaps), 2),
        "sampling_seconds": round(time.perf_counter() - wall, 1),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edition", action="append", help="edition name or .lg file (repeatable; default 1933)")
    parser.add_argument(
        "--parts",
        choices=("chain", "all"),
        default="all",
        help="chain: landing tables only; all: with the rent table and the economy check",
    )
    parser.add_argument("--repeat", type=int, default=1, help="runs per edition; the best is kept")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--stages", action="store_true", help="also print the best CPU seconds of each stage")
    parser.add_argument(
        "--monte-carlo",
        type=int,
        default=0,
        metavar="TURNS",
        help="also sample TURNS turns and report the largest gap to the exact figures",
    )
    args = parser.parse_args(argv)
    editions = args.edition or ["monopoly-1933-atlantic-city"]
    rows = [measure(e, args.parts, args.repeat) for e in editions]
    if args.monte_carlo:
        for row, edition in zip(rows, editions):
            row.update(agreement(edition, args.monte_carlo))
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        for r in rows:
            print(
                f"{r['edition']:36} {r['parts']:5} {r['states']:5} states {r['turns_run']:7} turns run "
                f"({r['turns_resumed']} resumed) "
                f"{r['wall_seconds']:7.3f} s wall {r['cpu_seconds']:7.3f} s CPU"
                + (
                    f"; {r['turns']} sampled turns: largest gap {r['max_gap_in_standard_errors']} SE"
                    if "turns" in r
                    else ""
                )
            )
            if args.stages:
                for stage, seconds in r["stages_cpu_seconds"].items():
                    print(f"    {seconds:7.3f} s CPU  {stage}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
