"""Learning benchmark (issue 30 §5): does the numpy learner, trained within a CPU budget, beat a random policy
and the scripted baseline against heuristic bots?

    python benchmarks/bench_learner.py                                  # 1904, 300 CPU s, 1000 games a policy
    python benchmarks/bench_learner.py --cpu-budget 900 --games 1000 --json
    python benchmarks/bench_learner.py --edition monopoly-1933-atlantic-city --cpu-budget 900

It trains with examples/train_learner.py's learner (seed `--seed`), then plays the learner, the random policy
and the scripted baseline on the same held-out games (dice seeds 1,000,000,000 + i) and reports each one's win
share with its Wilson 95 % interval, the learner's paired differences, and `met`: the learner's difference
from both lies wholly above zero. Also the training's and the evaluation's CPU seconds (time.process_time),
their wall seconds and the machine's load average (os.getloadavg) before and after.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # benchmark the working tree next to this file, installed or not

from landlord_dsl.rl.learner import train  # noqa: E402

spec = importlib.util.spec_from_file_location("train_learner", ROOT / "examples" / "train_learner.py")
assert spec is not None and spec.loader is not None
example = importlib.util.module_from_spec(spec)
spec.loader.exec_module(example)


def measure(edition: str, players: int, seed: int, cpu_budget: float, games: int) -> dict:
    """Return the benchmark's figures: the training run, the three policies' evaluation and whether it is met."""
    load_before = os.getloadavg()
    wall, cpu = time.perf_counter(), time.process_time()
    policy, log = train(edition, players, seed, cpu_budget)
    trained_wall = time.perf_counter() - wall
    wall, cpu = time.perf_counter(), time.process_time()
    figures = example.measure(policy, edition, players, games, seed)
    figures["evaluation_cpu_seconds"] = round(time.process_time() - cpu, 1)
    figures["evaluation_wall_seconds"] = round(time.perf_counter() - wall, 1)
    figures["training"] = {
        "seed": seed,
        "cpu_budget": cpu_budget,
        "updates": log.updates,
        "games": log.games,
        "decisions": log.decisions,
        "cpu_seconds": round(log.cpu_seconds, 1),
        "wall_seconds": round(trained_wall, 1),
    }
    figures["load_average"] = {"before": [round(x, 1) for x in load_before], "after": list(os.getloadavg())}
    figures["met"] = all(d["beats"] for d in figures["learner_minus"].values())
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edition", default="landlords-game-1904")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cpu-budget", type=float, default=300.0)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = measure(args.edition, args.players, args.seed, args.cpu_budget, args.games)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        t = figures["training"]
        print(example.show(figures))
        print(
            f"\ntraining: {t['updates']} updates, {t['games']} games, {t['cpu_seconds']} CPU s "
            f"({t['wall_seconds']} s wall); evaluation {figures['evaluation_cpu_seconds']} CPU s; "
            f"load average {figures['load_average']['before'][0]} -> {figures['load_average']['after'][0]:.1f}"
        )
        print("target met" if figures["met"] else "target NOT met")
    return 0 if figures["met"] else 1


if __name__ == "__main__":
    sys.exit(main())
