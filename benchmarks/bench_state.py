"""Forking benchmark: what a copy of a game in play costs, against a turn of play and a save + restore.

    python benchmarks/bench_state.py                 # 1933 Atlantic City, 4 seats, table
    python benchmarks/bench_state.py --games 20 --json

In CPU time (`time.process_time`), over G seeded games of heuristic bots, each stopped at its middle turn:

* turn: one player's turn of driven play, the mean over whole games (`Game.play`, setup excluded);
* fork: `Game.fork()` of the game at its middle turn, the mean of R forks;
* save + restore: `Game.save()` then `Game.restore()` of that state into a fresh game of the same
  rules, the way a game was copied before `fork` (engine/saves.py), the mean of R.

The ratios come from this one run.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from time import process_time

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # benchmark the working tree next to this file, installed or not

import landlord_dsl as ld  # noqa: E402


def measure(edition: str, players: int, games: int, repeat: int) -> dict:
    """Return the mean CPU microseconds of a turn, a fork and a save + restore, and their ratios."""
    program = ld.compile_rules(ld.load_edition(edition))
    turn_time, turns = 0.0, 0
    fork_time = copy_time = 0.0
    for seed in range(games):
        whole = ld.new_game(program, players=players, seed=seed)
        whole.setup()
        start = process_time()
        whole.play()
        turn_time += process_time() - start
        turns += whole.turn
        game = ld.new_game(program, players=players, seed=seed)
        game.setup()
        while game.turn < whole.turn // 2:
            game.play_turn()
        start = process_time()
        for _ in range(repeat):
            game.fork()
        fork_time += process_time() - start
        fresh = [ld.new_game(program, players=players, seed=seed) for _ in range(repeat)]
        start = process_time()
        for other in fresh:
            other.restore(game.save())
        copy_time += process_time() - start
    turn = turn_time / turns * 1e6
    fork = fork_time / (games * repeat) * 1e6
    save_restore = copy_time / (games * repeat) * 1e6
    return {
        "edition": edition,
        "players": players,
        "games": games,
        "turn_us": round(turn, 2),
        "fork_us": round(fork, 2),
        "save_restore_us": round(save_restore, 2),
        "fork_per_turn": round(fork / turn, 3),
        "save_restore_per_fork": round(save_restore / fork, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--edition", default="monopoly-1933-atlantic-city")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=200, help="forks and save + restores timed per game")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = measure(args.edition, args.players, args.games, args.repeat)
    if args.json:
        print(json.dumps(figures, indent=1))
    else:
        print(f"{figures['edition']}, {figures['players']} seats, {figures['games']} games (CPU µs)")
        print(f"  turn            {figures['turn_us']:9.2f}")
        print(f"  fork            {figures['fork_us']:9.2f}   {figures['fork_per_turn']:.3f} turns")
        print(f"  save + restore  {figures['save_restore_us']:9.2f}   {figures['save_restore_per_fork']:.1f} forks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
