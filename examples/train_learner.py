"""Train a learner for one seat against heuristic bots, save it, and measure it against a random policy and a
scripted rule on held-out games.

    pip install 'landlord-dsl[rl]'                  # numpy is the learner's only need beyond the environment
    python examples/train_learner.py --cpu-budget 300 --out policy-1904.npz --games 1000
    python examples/train_learner.py --evaluate policy-1904.npz --games 1000
    python examples/train_learner.py landlords-game-1904 --updates 20 --seed 3 --out p.npz   # exactly 20 updates

The learner (landlord_dsl/rl/learner.py) is a masked linear actor-critic trained by PPO in numpy: a weight
per action slot and observation number, two weights shared by every slot for its cost and value hints, a
linear value estimate as the baseline, the rank reward (1 for a lone winner, -1 for a lone last) at the end
of each game. The learning seat takes seat i mod 4 in game i; the other seats are the engine's heuristic bots.

Training stops at the first update past `--cpu-budget` CPU seconds (time.process_time) or after `--updates`
updates. The same seed and the same number of updates give the same policy bit for bit; the number a
budget allowed is printed and saved with the policy, so `--updates` replays a budgeted run exactly.

`--games N` (after training, or with `--evaluate FILE`) plays N games for each of three policies on the same
dice seeds (1,000,000,000 + i for game i, seeds training never draws): the learner (its likeliest legal
action), a random policy (a legal action uniformly at random) and the scripted baseline (the legal action
whose value hint less its cost hint is largest, the rule file's `cost`/`value` of each option). It prints
each one's share of the wins with its Wilson 95 % interval and mean rank reward, and the learner's paired
differences from the other two with their 95 % intervals; "beats" means the interval lies above zero.
docs/rl.md ("Training a learner") explains it all; benchmarks/README.md has the figures.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import attrs

import landlord_dsl as ld
from landlord_dsl.rl.learner import (
    EVALUATION_SEED,
    Evaluation,
    LinearPolicy,
    Seats,
    Settings,
    TrainingLog,
    check_fits,
    evaluate,
    greedy,
    hint_slots,
    random_choice,
    scripted_choice,
    train,
)


def report(evaluation: Evaluation, rules: str, players: int) -> dict[str, Any]:
    """Return the evaluation's figures: each policy's win share and rank reward, the learner's differences."""
    out: dict[str, Any] = {
        "rules": rules,
        "players": players,
        "games": evaluation.games,
        "seeds": [evaluation.first_seed, evaluation.first_seed + evaluation.games - 1],
        "policies": {},
        "learner_minus": {},
    }
    for name in evaluation.outcomes:
        out["policies"][name] = {
            "wins": evaluation.win_rate(name).to_json(),
            "rank_reward": evaluation.rank(name).to_json(),
            "decisions_a_game": round(sum(o.steps for o in evaluation.outcomes[name]) / evaluation.games, 1),
        }
    for other in evaluation.outcomes:
        if other != "learner":
            wins = evaluation.win_difference("learner", other)
            out["learner_minus"][other] = {
                "wins": wins.to_json(),
                "rank_reward": evaluation.rank_difference("learner", other).to_json(),
                "beats": wins.low > 0,
            }
    return out


def show(figures: dict[str, Any]) -> str:
    """Return the figures as a table of text."""
    lo, hi = figures["seeds"]
    lines = [
        f"{figures['rules']}, {figures['players']} players: the policy in seat i mod {figures['players']} of game i, "
        f"heuristic bots in the others; {figures['games']} games, dice seeds {lo}..{hi} for every policy",
        "",
        f"{'policy':<10}{'wins [95 % Wilson]':<26}{'rank reward [95 %]':<28}decisions a game",
    ]
    for name, f in figures["policies"].items():
        w, r = f["wins"], f["rank_reward"]
        lines.append(
            f"{name:<10}{_pct(w):<26}{r['mean']:+.3f} [{r['ci95_low']:+.3f}, {r['ci95_high']:+.3f}]"
            f"{'':<4}{f['decisions_a_game']}"
        )
    lines.append("")
    for other, d in figures["learner_minus"].items():
        w, r = d["wins"], d["rank_reward"]
        lines.append(
            f"learner - {other}: wins {100 * w['mean']:+.1f} points [{100 * w['ci95_low']:+.1f}, "
            f"{100 * w['ci95_high']:+.1f}], rank reward {r['mean']:+.3f} [{r['ci95_low']:+.3f}, "
            f"{r['ci95_high']:+.3f}]: {'beats it' if d['beats'] else 'does not beat it significantly'}"
        )
    return "\n".join(lines)


def _pct(interval: dict[str, float]) -> str:
    return f"{100 * interval['mean']:.1f} % [{100 * interval['ci95_low']:.1f}, {100 * interval['ci95_high']:.1f}]"


def measure(policy: LinearPolicy, rules: str, players: int, games: int, seed: int) -> dict[str, Any]:
    """Play the learner, the random policy and the scripted baseline on the same held-out games; return the
    figures (report)."""
    seats = Seats(rules, players, "bot", None)
    check_fits(policy, seats.encoder, seats.actions, rules)
    cost_at, value_at = hint_slots(seats.encoder)
    policies = {"learner": greedy(policy), "random": random_choice, "scripted": scripted_choice(cost_at, value_at)}
    return report(evaluate(rules, policies, games, players, EVALUATION_SEED, seed=seed), rules, players)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rules", nargs="?", default=None, help="edition name or .lg path (default 1904)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0, help="the training run's seed (and the random policy's)")
    parser.add_argument("--cpu-budget", type=float, default=None, help="CPU seconds to train (default 300)")
    parser.add_argument("--updates", type=int, default=None, help="train exactly this many updates")
    parser.add_argument("--games-per-update", type=int, default=Settings().games_per_update)
    parser.add_argument("--out", default=None, help="where to save the policy (default policy-RULES.npz)")
    parser.add_argument("--evaluate", metavar="FILE", default=None, help="evaluate a saved policy, no training")
    parser.add_argument("--games", type=int, default=0, help="evaluation games per policy (0: none)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    say = (lambda *a: print(*a, file=sys.stderr)) if args.json else print
    if args.evaluate is not None:
        try:
            policy, meta = LinearPolicy.load(args.evaluate)
        except ld.LandlordError as err:
            print(f"error: {err}", file=sys.stderr)
            return 2
        rules = args.rules or meta["rules"]
        games = args.games or 1000
        started = time.process_time()
        figures = measure(policy, rules, meta.get("players", args.players), games, args.seed)
        figures["training"] = meta
        figures["evaluation_cpu_seconds"] = round(time.process_time() - started, 1)
        print(json.dumps(figures, indent=2) if args.json else show(figures))
        return 0
    rules = args.rules or "landlords-game-1904"
    budget = args.cpu_budget if args.cpu_budget is not None or args.updates is not None else 300.0
    settings = Settings(games_per_update=args.games_per_update)

    def progress(update: int, log: TrainingLog) -> None:
        if update % 10 == 0:
            recent = log.win_by_update[-10:]
            say(
                f"update {update}: {log.games} games, {log.cpu_seconds:.0f} CPU s, "
                f"wins while exploring (last 10 updates) {100 * sum(recent) / len(recent):.1f} %"
            )

    policy, log = train(rules, args.players, args.seed, budget, args.updates, settings, progress=progress)
    out = Path(args.out or f"policy-{Path(rules).stem}.npz")
    meta = {
        "rules": rules,
        "players": args.players,
        "seed": args.seed,
        "updates": log.updates,
        "games": log.games,
        "decisions": log.decisions,
        "cpu_seconds": round(log.cpu_seconds, 1),
        "settings": attrs.asdict(settings),
    }
    policy.save(out, meta)
    say(
        f"trained {log.updates} updates ({log.games} games, {log.decisions} decisions) in "
        f"{log.cpu_seconds:.1f} CPU s; saved {out}; replay exactly with --seed {args.seed} --updates {log.updates}"
    )
    if args.games:
        started = time.process_time()
        figures = measure(policy, rules, args.players, args.games, args.seed)
        figures["training"] = meta
        figures["evaluation_cpu_seconds"] = round(time.process_time() - started, 1)
        print(json.dumps(figures, indent=2) if args.json else show(figures))
    elif args.json:
        print(json.dumps({"training": meta}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
