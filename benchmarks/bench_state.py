"""Forking and stepping benchmark: what a copy of a game in play costs, and a stepped game against a driven one.

    python benchmarks/bench_state.py                 # 1933 Atlantic City, 4 seats, table
    python benchmarks/bench_state.py --games 20 --json

In CPU time (`time.process_time`), over G seeded games of heuristic bots:

* turn: one player's turn of driven play, the mean over whole games (`Game.play`, setup excluded);
* fork: `Game.fork()` of the game at its middle turn, the mean of R forks;
* save + restore: `Game.save()` then `Game.restore()` of that state into a fresh game of the same
  rules, the way a game was copied before `fork` (engine/saves.py), the mean of R;
* clone: `State.clone()` of a stepped game at its middle request, the mean of R, seeded (the
  generator's state is in the shared turn-boundary base) and with chance from outside;
* clone's first use: a clone and its first read (`is_terminal()`), which forks the base and replays
  the answers since the turn's start, the mean of R;
* resample: `State.resample(0, rng)` of the game with chance from outside at its middle request (a
  clone and every deck's unseen cards drawn again), alone and with its first read, and
  `State.observation(0)` there, the means of R;
* stepped game: a whole game through `ld.new_state` (seeded, so chance is answered inside), every
  request answered by a HeuristicAgent's `choose`/`bid`, against the same game driven (`Game.play`)
  with the bots folded into the rules, and against it driven with the same policy asked (`AskedBot`,
  a HeuristicAgent subclass, which the rules do not fold): the ratios of the CPU times, the three
  played in turn game by game, each the least of `--best` runs.

The ratios come from this one run.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import sys
from pathlib import Path
from time import process_time

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # benchmark the working tree next to this file, installed or not

import landlord_dsl as ld  # noqa: E402
from landlord_dsl.agents import HeuristicAgent  # noqa: E402
from landlord_dsl.program.requests import DecisionRequest, DiceRequest, SeededChance  # noqa: E402


class AskedBot(HeuristicAgent):
    """The heuristic bot's policy, asked through its requests like any agent (the rules fold only the
    HeuristicAgent class itself)."""


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


def play_driven(program, players: int, seed: int, agents: list | None) -> None:
    """Play a whole seeded game driven (`Game.play`), by heuristic bots unless `agents` are given."""
    ld.new_game(program, players=players, seed=seed, agents=agents).play()


def play_whole_stepped(program, players: int, seed: int, bot: HeuristicAgent, counted: list[int]) -> None:
    """Play a whole seeded game stepped, `bot` answering every request; add to `counted` how many it answered."""
    counted.append(play_stepped(ld.new_state(program, players=players, seed=seed), bot, None))


def least_time(run, best: int) -> float:
    """Return the least CPU time of `best` calls of `run()`."""
    times = []
    for _ in range(best):
        start = process_time()
        run()
        times.append(process_time() - start)
    return min(times)


def measure(edition: str, players: int, games: int, repeat: int, best: int = 3) -> dict:
    """Return the mean CPU microseconds of a turn, a fork, a save + restore, a clone and a clone's first
    use, a resample (alone and with its first use) and an observation, and the stepped game's ratios to
    driven play."""
    program = ld.compile_rules(ld.load_edition(edition))
    program.stepped()  # (built once, when the first state is made: not a game's cost)
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
    stepped_time = driven_time = asked_time = 0.0
    clone_time = outside_clone_time = first_use_time = 0.0
    resample_time = resample_use_time = observation_time = 0.0
    bot = HeuristicAgent()
    for seed in range(games):
        driven_time += least_time(functools.partial(play_driven, program, players, seed, None), best)
        asked = [AskedBot() for _ in range(players)]
        asked_time += least_time(functools.partial(play_driven, program, players, seed, asked), best)
        counted: list[int] = []
        stepped_time += least_time(functools.partial(play_whole_stepped, program, players, seed, bot, counted), best)
        middle = ld.new_state(program, players=players, seed=seed)
        play_stepped(middle, bot, counted[0] // 2)
        middle.clone()  # (the first clone of a turn moves the shared base to the turn's start)
        start = process_time()
        for _ in range(repeat):
            middle.clone()
        clone_time += process_time() - start
        start = process_time()
        for _ in range(repeat):
            middle.clone().is_terminal()
        first_use_time += process_time() - start
        outside = ld.new_state(program, players=players)
        dice = SeededChance(seed)
        for _ in range(counted[0]):
            if outside.is_chance():
                request = outside.request()
                outside.apply_chance(dice.roll(request) if isinstance(request, DiceRequest) else dice.shuffle(request))
            elif play_stepped(outside, bot, 1) == 0:
                break
        outside.clone()
        start = process_time()
        for _ in range(repeat):
            outside.clone()
        outside_clone_time += process_time() - start
        rng = random.Random(seed)
        start = process_time()
        for _ in range(repeat):
            outside.resample(0, rng)
        resample_time += process_time() - start
        start = process_time()
        for _ in range(repeat):
            outside.resample(0, rng).is_terminal()
        resample_use_time += process_time() - start
        start = process_time()
        for _ in range(repeat):
            outside.observation(0)
        observation_time += process_time() - start
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
        "clone_outside_us": round(outside_clone_time / (games * repeat) * 1e6, 2),
        "clone_first_use_us": round(first_use_time / (games * repeat) * 1e6, 2),
        "resample_us": round(resample_time / (games * repeat) * 1e6, 2),
        "resample_first_use_us": round(resample_use_time / (games * repeat) * 1e6, 2),
        "observation_us": round(observation_time / (games * repeat) * 1e6, 2),
        "asked_per_driven": round(asked_time / driven_time, 2),
        "stepped_per_driven": round(stepped_time / driven_time, 2),
        "stepped_per_asked": round(stepped_time / asked_time, 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--edition", default="monopoly-1933-atlantic-city")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=200, help="forks, save + restores and clones timed per game")
    parser.add_argument("--best", type=int, default=3, help="runs of each whole game, the least kept")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = measure(args.edition, args.players, args.games, args.repeat, args.best)
    if args.json:
        print(json.dumps(figures, indent=1))
    else:
        print(f"{figures['edition']}, {figures['players']} seats, {figures['games']} games (CPU µs)")
        print(f"  turn               {figures['turn_us']:9.2f}")
        print(f"  fork               {figures['fork_us']:9.2f}   {figures['fork_per_turn']:.3f} turns")
        print(f"  save + restore     {figures['save_restore_us']:9.2f}   {figures['save_restore_per_fork']:.1f} forks")
        print(f"  State.clone        {figures['clone_us']:9.2f}   seeded")
        print(f"  State.clone        {figures['clone_outside_us']:9.2f}   chance from outside")
        print(f"  clone + first use  {figures['clone_first_use_us']:9.2f}")
        print(f"  State.resample     {figures['resample_us']:9.2f}   chance from outside")
        print(f"  resample + use     {figures['resample_first_use_us']:9.2f}")
        print(f"  State.observation  {figures['observation_us']:9.2f}")
        print(f"  driven, bot asked  {figures['asked_per_driven']:9.2f} x driven (bots folded)")
        print(
            f"  stepped game       {figures['stepped_per_driven']:9.2f} x driven (bots folded), "
            f"{figures['stepped_per_asked']:.2f} x driven with the bot asked"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
