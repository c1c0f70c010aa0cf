"""Forking benchmark: what a copy of a game in play costs, against a turn of play and a save + restore.

    python benchmarks/bench_state.py                 # 1933 Atlantic City, 4 seats, table
    python benchmarks/bench_state.py --games 20 --json

In CPU time (`time.process_time`), over G seeded games of heuristic bots, each stopped at its middle turn:

* turn: one player's turn of driven play, the mean over whole games (`Game.play`, setup excluded);
* fork: `Game.fork()` of the game at its middle turn, the mean of R forks;
* save + restore: `Game.save()` then `Game.restore()` of that state into a fresh game of the same
  rules, the way a game was copied before `fork` (engine/saves.py), the mean of R;
* stepped game: a whole game through `ld.new_state` (seeded, so chance is answered inside), every
  request answered by a HeuristicAgent's `choose`/`bid`, against the same game driven (`Game.play`,
  the bots folded into the rules): the ratio of the two CPU times;
* clone: `State.clone()` of the stepped game at its middle request, the mean of R.

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
from landlord_dsl.agents import HeuristicAgent  # noqa: E402
from landlord_dsl.program.requests import DecisionRequest  # noqa: E402


def play_stepped(state, bot: HeuristicAgent, requests: int | None) -> int:
    """Answer `state`'s requests with `bot` to the end (or `requests` of them); return how many it answered."""
    answered = 0
    while not state.is_terminal() and answered != requests:
        request = state.request()
        if isinstance(request, DecisionRequest):
            state.apply(bot.choose(state.game, request))
        else:
            state.apply(bot.bid(state.game, request))
        answered += 1
    return answered


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
    stepped_time = driven_time = clone_time = 0.0
    bot = HeuristicAgent()
    for seed in range(games):
        start = process_time()
        ld.new_game(program, players=players, seed=seed).play()
        driven_time += process_time() - start
        start = process_time()
        asked = play_stepped(ld.new_state(program, players=players, seed=seed), bot, None)
        stepped_time += process_time() - start
        middle = ld.new_state(program, players=players, seed=seed)
        play_stepped(middle, bot, asked // 2)
        start = process_time()
        for _ in range(repeat):
            middle.clone()
        clone_time += process_time() - start
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
        "clone_us": round(clone_time / (games * repeat) * 1e6, 2),
        "stepped_per_driven": round(stepped_time / driven_time, 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--edition", default="monopoly-1933-atlantic-city")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=200, help="forks, save + restores and clones timed per game")
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
        print(f"  State.clone     {figures['clone_us']:9.2f}")
        print(f"  stepped game    {figures['stepped_per_driven']:9.2f} x driven (whole games)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
