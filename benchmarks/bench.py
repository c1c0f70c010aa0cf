"""Performance benchmark: the rule interpreter against a hand-written simulator.

    python benchmarks/bench.py                  # 300 games of 1906, 4 heuristic bots
    python benchmarks/bench.py --games 1000 --json

In one process it plays N seeded games (seeds first_seed .. first_seed+N-1)
through landlord_dsl (load + compile once, then new_game + play per game) and,
for an edition with a hand-written baseline (1906: baseline_1906.py, 1933:
baseline_1933.py), the same N seeds through the baseline.
It reports player-turns per second, games per second and mean turns per game
for each, and the interpreter/baseline speed ratio. Loading (parse + check)
and compiling the rules are timed separately and kept out of the per-game
figures. Both programs draw their dice from random.Random(seed) in the same
order, so the benchmark also counts the games in which they agree exactly
(same number of turns, same scores): the comparison is like for like.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import sys
from pathlib import Path
from time import perf_counter, process_time

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# Benchmark the working tree next to this file, installed or not.
for path in (str(ROOT), str(HERE)):
    if path not in sys.path:
        sys.path.insert(0, path)

import baseline_1906  # noqa: E402
import baseline_1933  # noqa: E402
import landlord_dsl as ld  # noqa: E402

DEFAULT_EDITION = "landlords-game-1906"
# The hand-written simulators, by the edition whose rules (default options) they play.
BASELINES = {
    "landlords-game-1906": baseline_1906,
    "monopoly-1933-atlantic-city": baseline_1933,
}


def timed_games(new_game, games: int, first_seed: int) -> dict:
    """Play `games` games made by `new_game(seed)`, timing only the play; return the figures."""
    results, turns, conserved = [], 0, 0
    gc.collect()
    c0, t0 = process_time(), perf_counter()
    for seed in range(first_seed, first_seed + games):
        game = new_game(seed)
        result = game.play()
        turns += result.turns
        conserved += game.conserved()
        results.append((result.turns, result.scores))
    seconds, cpu = perf_counter() - t0, process_time() - c0
    return _figures(seconds, cpu, games, turns, conserved, results)


def run_interpreter(program, games: int, players: int, first_seed: int) -> dict:
    return timed_games(lambda seed: ld.new_game(program, players=players, seed=seed), games, first_seed)


def run_baseline(baseline, games: int, players: int, first_seed: int) -> dict:
    return timed_games(lambda seed: baseline.Game(players, seed), games, first_seed)


def _figures(seconds: float, cpu: float, games: int, turns: int, conserved: int, results: list) -> dict:
    return {
        "seconds": seconds,
        "cpu_seconds": cpu,
        "games": games,
        "player_turns": turns,
        "turns_per_second": turns / seconds if seconds else 0.0,
        "games_per_second": games / seconds if seconds else 0.0,
        "mean_turns_per_game": turns / games if games else 0.0,
        "money_conserved": conserved,
        "_results": results,
    }


def best_of(runs: list[dict]) -> dict:
    """Keep the fastest of repeated runs (the least disturbed by the machine)."""
    return min(runs, key=lambda r: r["seconds"])


def benchmark(edition: str, games: int, players: int, first_seed: int, repeat: int) -> dict:
    t0 = perf_counter()
    rules = ld.load_edition(edition)
    t1 = perf_counter()
    program = ld.compile_rules(rules)
    t2 = perf_counter()
    lo, hi = program.players
    if not lo <= players <= hi:
        raise SystemExit(f"{program.title} is for {lo} to {hi} players, not {players}")

    # With --repeat the engines take turns, so both see the same machine load.
    baseline = BASELINES.get(program.name)  # a variant has its own name, so no baseline
    interp_runs, base_runs = [], []
    for _ in range(repeat):
        interp_runs.append(run_interpreter(program, games, players, first_seed))
        if baseline is not None:
            base_runs.append(run_baseline(baseline, games, players, first_seed))
    interp = best_of(interp_runs)
    base = best_of(base_runs) if baseline is not None else None

    report = {
        "edition": program.name,
        "title": program.title,
        "games": games,
        "players": players,
        "first_seed": first_seed,
        "repeat": repeat,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": f"{platform.system()} {platform.machine()}",
        "cpus": os.cpu_count(),
        "load_seconds": t1 - t0,
        "compile_seconds": t2 - t1,
        "interpreter": interp,
        "baseline": base,
        "ratio": None,
        "baseline_speedup": None,
        "identical_games": None,
    }
    if base is not None:
        report["ratio"] = interp["turns_per_second"] / base["turns_per_second"]
        report["baseline_speedup"] = base["turns_per_second"] / interp["turns_per_second"]
        report["identical_games"] = sum(a == b for a, b in zip(interp["_results"], base["_results"]))
    for part in (interp, base):
        if part is not None:
            del part["_results"]
    return report


def render(r: dict) -> str:
    last = r["first_seed"] + r["games"] - 1
    lines = [
        f"{r['title']}: {r['games']} games, {r['players']} heuristic bots, seeds {r['first_seed']}..{last}"
        + (f", best of {r['repeat']} runs" if r["repeat"] > 1 else ""),
        f"{r['implementation']} {r['python']}, {r['machine']}, {r['cpus']} CPUs",
        "",
        f"rules: load (parse + check) {r['load_seconds'] * 1000:.1f} ms, compile {r['compile_seconds'] * 1000:.1f} ms"
        "  (once, not in the per-game figures)",
        "",
        f"{'engine':<12} {'time (s)':>9} {'player-turns/s':>15} {'games/s':>9} {'turns/game':>11} "
        f"{'money conserved':>16}",
    ]
    for name in ("interpreter", "baseline"):
        e = r[name]
        if e is None:
            continue
        lines.append(
            f"{name:<12} {e['seconds']:>9.3f} {e['turns_per_second']:>15,.0f} {e['games_per_second']:>9,.1f}"
            f" {e['mean_turns_per_game']:>11.1f} {str(e['money_conserved']) + '/' + str(e['games']):>16}"
        )
    busy = [n for n in ("interpreter", "baseline") if r[n] and r[n]["seconds"] > 1.1 * r[n]["cpu_seconds"]]
    if busy:
        lines.append(
            f"note: wall time exceeded CPU time by over 10% ({', '.join(busy)}): the machine was busy, "
            "absolute figures are low (the ratio suffers less); see --repeat"
        )
    lines.append("")
    if r["baseline"] is None:
        lines.append(f"(no hand-written baseline for {r['edition']}: there is one for {', '.join(BASELINES)})")
    else:
        lines.append(
            f"interpreter/baseline speed: {r['ratio']:.3f}  (the baseline is {r['baseline_speedup']:.2f}x faster)"
        )
        lines.append(f"same game (turns and scores) from both in {r['identical_games']}/{r['games']} seeds")
        if r["identical_games"] != r["games"]:
            lines.append(
                "WARNING: the baseline and the interpreter disagree: the baseline no longer plays the "
                "same rules as the edition, so the ratio compares different work"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Time the landlord-dsl interpreter against a hand-written simulator.")
    ap.add_argument("--games", type=int, default=300, help="games per engine (default 300)")
    ap.add_argument(
        "--edition",
        default=DEFAULT_EDITION,
        help=f"edition name or .lg path (default {DEFAULT_EDITION}; baselines exist for {', '.join(BASELINES)})",
    )
    ap.add_argument("--players", type=int, default=4, help="heuristic bots per game (default 4)")
    ap.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    ap.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="run each engine R times, alternately, and keep each one's fastest run (default 1)",
    )
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    if args.games < 1 or args.repeat < 1:
        ap.error("--games and --repeat must be at least 1")
    try:
        report = benchmark(args.edition, args.games, args.players, args.seed, args.repeat)
    except ld.LandlordError as err:
        print(err, file=sys.stderr)
        return 2
    print(json.dumps(report, indent=2) if args.json else render(report))
    ok = all(e is None or e["money_conserved"] == e["games"] for e in (report["interpreter"], report["baseline"]))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
