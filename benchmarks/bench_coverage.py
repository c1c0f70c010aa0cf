"""Coverage benchmark: what `landlord-dsl coverage` costs against `simulate` for the same games.

    python benchmarks/bench_coverage.py                    # the four editions, 200 games each, table
    python benchmarks/bench_coverage.py --edition landlords-game-1939 --games 500 --repeat 3 --json

For each edition, from the same loaded rules, the best of R runs (wall time,
`time.perf_counter`, the runs of the two alternating) of:

* simulate: `parallel.simulate_many(rules, N, players, seed, jobs=1)`, what
  `landlord-dsl simulate --jobs 1` does: compile the rules, play N games of
  heuristic bots (seeds seed..seed+N-1), add up their summary;
* coverage: `ld.coverage(rules, N, players, seed=seed)`, what `landlord-dsl
  coverage` does: list the rules' items, compile them with counters, play the
  same N games, add up the counts after each.

ratio = coverage / simulate (issue 26 asks for at most 3). Nothing is cached
between runs but the parsed grammar.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from time import perf_counter

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # benchmark the working tree next to this file, installed or not

import landlord_dsl as ld  # noqa: E402
from landlord_dsl.studies.parallel import simulate_many  # noqa: E402

EDITIONS = ["landlords-game-1904", "landlords-game-1906", "monopoly-1933-atlantic-city", "landlords-game-1939"]


def best_wall(runs: dict[str, Callable[[], object]], repeat: int) -> dict[str, float]:
    """Return, for each named run (a callable), its least wall time in seconds over `repeat` rounds,
    the runs taking turns in each round."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(repeat):
        for name, run in runs.items():
            t0 = perf_counter()
            run()
            best[name] = min(best[name], perf_counter() - t0)
    return best


def measure(edition: str, games: int, players: int, seed: int, repeat: int) -> dict[str, float | int | str]:
    """Return the timings of simulate and coverage for one edition, and their ratio."""
    rules = ld.load_edition(edition)
    times = best_wall(
        {
            "simulate": lambda: simulate_many(rules, games, players, seed, jobs=1),
            "coverage": lambda: ld.coverage(rules, games, players, seed=seed),
        },
        repeat,
    )
    return {
        "edition": edition,
        "games": games,
        "simulate_s": round(times["simulate"], 3),
        "coverage_s": round(times["coverage"], 3),
        "ratio": round(times["coverage"] / times["simulate"], 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--edition", action="append", help="an edition or variant (repeatable; default: the four)")
    parser.add_argument("--games", type=int, default=200, help="games per run (default 200)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1, help="first seed (default 1, as the commands')")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each, keeping the fastest (default 1)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    args = parser.parse_args(argv)
    rows = [measure(e, args.games, args.players, args.seed, args.repeat) for e in args.edition or EDITIONS]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'edition':30} {'games':>6} {'simulate s':>11} {'coverage s':>11} {'ratio':>6}")
    for row in rows:
        print(
            f"{row['edition']:30} {row['games']:>6} {row['simulate_s']:>11.3f} {row['coverage_s']:>11.3f}"
            f" {row['ratio']:>6.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
