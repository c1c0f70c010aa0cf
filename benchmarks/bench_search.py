"""Strength benchmark (issue 30): one searching seat against heuristic bots, its win rate at two budgets.

    python benchmarks/bench_search.py                              # 1933, 4 seats, mcts at 8 and 32
    python benchmarks/bench_search.py --deals 10 --budgets 16,64 --jobs 2 --json
    python benchmarks/bench_search.py --edition landlords-game-1906 --agent rollout --budgets 2,8
    python benchmarks/bench_search.py --agent challenger --games 160 --budgets 8,16   # the search set to beat bots
    python benchmarks/bench_search.py --games 40 --horizon 0 --paired --bot-opponents   # 1933, MCTS options

Deal i throws from seed `seed + i` and is played once per seat: the searcher (`mcts:B`, or `rollout:B`)
in that seat, heuristic bots in the others, on the same dice (common random numbers, the design of
`landlord-dsl tournament`). Over D deals and P seats that is D x P games per budget. Reported per budget:
the searcher's wins (a tie shares the win), its win rate with the 95 % Wilson interval, against its
share 1/P, and whether the interval lies above the share (`significant`); the CPU seconds it took.
`--games N` plays ceil(N / P) deals instead of `--deals`. `--horizon T` sets the rollouts' length in
turns (0: to the end of the game), and `--paired` (with `--confidence Z`), `--bot-opponents` and
`--value learned` switch on the MCTS options of those names (MCTSAgent: `paired=True`, `confidence=Z`,
`opponents="bot"`, `value="learned"`: the model trained before the games, outside their CPU time, and
cached; docs/search.md), the searcher otherwise seeded and seated as `--seats` makes it (agents.seats.make_seat).
The searcher answers from the stepped State with no seed (agents.stepped.play_stepped), so it draws
its own dice in its look-ahead; docs/search.md says what it can see.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction
from pathlib import Path
from time import process_time

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # benchmark the working tree next to this file, installed or not

import landlord_dsl as ld  # noqa: E402
from landlord_dsl.agents.search import MCTSAgent, RolloutAgent  # noqa: E402
from landlord_dsl.agents.seats import make_seats  # noqa: E402
from landlord_dsl.agents.stepped import play_stepped  # noqa: E402
from landlord_dsl.studies.parallel import program_of  # noqa: E402
from landlord_dsl.studies.rulesource import rule_source  # noqa: E402
from landlord_dsl.studies.stats import wilson  # noqa: E402
from landlord_dsl.studies.tournament import play_games  # noqa: E402


def deal_games(spec: str, players: int, deal: int) -> list[tuple[int, int, list[str]]]:
    """Return the games of one deal: the searcher `spec` in each seat in turn, bots in the others."""
    return [(deal, seat, [spec if s == seat else "bot" for s in range(players)]) for seat in range(players)]


def play_with_options(source, players: int, seed: int, games, turn_limit, options: dict) -> list[dict]:
    """Play `games` as tournament.play_games does, the searcher made with `options` (MCTSAgent's or
    RolloutAgent's keyword arguments); return a record of each (its rotation, the searcher's seat;
    winners; turns)."""
    program = program_of(source)
    out = []
    for deal, seat, specs in games:
        kind, budget = specs[seat].split(":")
        seats = make_seats(specs, seed + deal)
        own_seed = (seed + deal) * 1009 + seat  # as make_seat seeds a searcher
        if kind == "mcts":
            seats[seat] = MCTSAgent(int(budget), seed=own_seed, **options)
        else:
            seats[seat] = RolloutAgent(int(budget), seed=own_seed, **options)
        game = play_stepped(program, seats, seed + deal, turn_limit).game
        out.append({"rotation": seat, "winners": list(game.result().winners), "turns": game.turn})
    return out


def timed(source, players: int, seed: int, games, turn_limit, options: dict) -> tuple[list[dict], float]:
    """Play `games` (tournament.play_games, or play_with_options when the searcher has options); return
    their records and the CPU seconds they took."""
    start = process_time()
    if not options:
        records = play_games(source, players, seed, games, turn_limit)
    else:
        records = play_with_options(source, players, seed, games, turn_limit, options)
    return records, process_time() - start


def measure(
    edition: str,
    agent: str,
    budgets: list[int],
    deals: int,
    players: int,
    seed: int,
    jobs: int,
    turn_limit: int | None,
    options: dict | None = None,
) -> dict:
    """Return the benchmark's figures: for each budget, the searcher's win rate over deals x seats games."""
    source = rule_source(ld.load_edition(edition))
    if agent == "challenger" or (options or {}).get("value") == "learned":
        # learned (or read from the cache) once, not in a game's time
        from landlord_dsl.agents.learned import value_model

        value_model(program_of(source), players)
    out = {
        "edition": edition,
        "players": players,
        "deals": deals,
        "seed": seed,
        "options": options or {},
        "share": 1 / players,
        "runs": [],
    }
    for budget in budgets:
        spec = f"{agent}:{budget}"
        batches = [deal_games(spec, players, d) for d in range(deals)]
        if jobs > 1:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                work = [(source, players, seed, b, turn_limit, options or {}) for b in batches]
                done = list(pool.map(timed, *zip(*work)))
        else:
            done = [timed(source, players, seed, b, turn_limit, options or {}) for b in batches]
        wins, games, cpu, turns = Fraction(0), 0, 0.0, 0
        for records, seconds in done:
            cpu += seconds
            for r in records:
                games += 1
                turns += r["turns"]
                seat = r["rotation"]  # the searcher's seat
                if seat in r["winners"]:
                    wins += Fraction(1, len(r["winners"]))
        rate, low, high = wilson(wins, games)
        out["runs"].append(
            {
                "agent": spec,
                "games": games,
                "wins": float(wins),
                "win_rate": rate,
                "ci95": [low, high],
                "significant": low > 1 / players,
                "cpu_seconds": round(cpu, 1),
                "cpu_seconds_per_game": round(cpu / games, 2),
                "mean_turns": round(turns / games, 1),
            }
        )
        print(f"  {spec}: {float(wins):g}/{games} wins [{low}, {high}]", file=sys.stderr, flush=True)  # as it goes
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--edition", default="monopoly-1933-atlantic-city")
    p.add_argument("--agent", choices=("mcts", "rollout", "challenger"), default="mcts")
    p.add_argument("--budgets", default="8,32", help="two or more budgets, comma-separated (default 8,32)")
    p.add_argument("--deals", type=int, default=5, help="deals (seeds); each is played once per seat (default 5)")
    p.add_argument("--games", type=int, help="games a budget, instead of --deals: ceil(N / players) deals")
    p.add_argument("--horizon", type=int, help="turns a rollout plays (0: to the end; default: the agent's)")
    p.add_argument("--paired", action="store_true", help="MCTS: compare the root's answers on the same draws")
    p.add_argument("--bot-opponents", action="store_true", help="MCTS: the other seats answer as the bot in the tree")
    p.add_argument("--confidence", type=float, help="MCTS with --paired: standard errors of gain over the bot's answer")
    p.add_argument(
        "--value", choices=("score", "learned"), help="MCTS: how a truncated rollout is valued (default: score)"
    )
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--turn-limit", type=int, help="stop each game after this many turns (default: the rules')")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    budgets = [int(b) for b in args.budgets.split(",")]
    if args.horizon is not None and args.horizon < 0:
        p.error(f"--horizon is a number of turns, 0 or more, not {args.horizon}")
    if (args.paired or args.bot_opponents or args.value) and args.agent != "mcts":
        p.error("--paired, --bot-opponents and --value are options of the mcts agent (challenger has them set)")
    if args.confidence is not None and not (args.paired and args.confidence >= 0):
        p.error("--confidence (0 or more) goes with --paired")
    deals = args.deals if args.games is None else -(-args.games // args.players)
    options: dict = {}
    if args.horizon is not None:
        options["horizon"] = args.horizon if args.horizon or args.agent == "mcts" else 10**9
    if args.paired:
        options["paired"] = True
    if args.confidence is not None:
        options["confidence"] = args.confidence
    if args.bot_opponents:
        options["opponents"] = "bot"
    if args.value is not None:
        options["value"] = args.value
    data = measure(
        args.edition, args.agent, budgets, deals, args.players, args.seed, args.jobs, args.turn_limit, options
    )
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    print(
        f"{data['edition']}: one searcher against {args.players - 1} heuristic bots, {deals} deals x "
        f"{args.players} seats (share {100 / args.players:.0f} %)" + (f", options {options}" if options else "")
    )
    for run in data["runs"]:
        low, high = run["ci95"]
        print(
            f"  {run['agent']:12} {run['wins']:g}/{run['games']} wins = {100 * run['win_rate']:.1f} % "
            f"[{100 * low:.1f}, {100 * high:.1f}]{'  above its share' if run['significant'] else ''}   "
            f"{run['cpu_seconds_per_game']} CPU s a game, {run['mean_turns']} turns"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
