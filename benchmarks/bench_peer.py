"""Side by side with a popular hand-coded Monopoly simulator, gamescomputersplay/monopoly.

The peer is not part of this repository and is never vendored: bring its source
into a scratch folder outside the repository and pass that folder:

    python benchmarks/bench_peer.py --peer /path/to/monopoly --games 200 --rounds 3

Both run in one process, on one core, timed in CPU seconds
(time.process_time), and finely interleaved: each round plays the seeds in
chunks of `--chunk` games, ours then the peer's (then the hand-written
simulator's) for every chunk, so a machine whose speed drifts (other jobs,
clock changes) slows them alike. Only the games are timed: throws and turns
are counted outside the clock (ours from each game's log, the peer's and the
hand-written simulator's by playing the same seeds again, untimed, with
counters on). Reported per dice throw, per player-turn and per game, for the
best round of each, with the throws/s ratio of every round and its median.

What a turn does differs: ours asks the rules' decisions of heuristic bots
(buy or auction, two build/mortgage menus and a trade offer every turn in
1933) and keeps the full event log; the peer's players follow fixed rules
(buy everything, build at once) with its game log switched off
(`KEEP_GAME_LOG = False`). Without --peer, or with a folder that holds no
peer, the script says so and exits 0.

For the 1933 edition the hand-written simulator of the same rules
(`baseline_1933.py`, the same games as the interpreter, menus and all) is run
in the same rounds too: how it compares with the peer shows how much of the
gap is the work the rules ask for each turn, and how much the interpreter.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import baseline_1933  # noqa: E402
import landlord_dsl as ld  # noqa: E402


class Ours:
    """The interpreter playing an edition; throws and turns counted from each game's log, off the clock."""

    def __init__(self, program, players: int) -> None:
        self.program, self.players = program, players

    def play(self, seeds: range) -> tuple[float, dict[str, int]]:
        """Play the seeds' games; return (CPU seconds, counts of player-turns and throws)."""
        turns = throws = 0
        seconds = 0.0
        clock = time.process_time
        for s in seeds:
            start = clock()
            game = ld.new_game(self.program, players=self.players, seed=s)
            game.play()
            seconds += clock() - start
            for event in game.log:
                if event[0] == "turn":
                    turns += 1
                elif event[0] == "roll":
                    throws += 1
        return seconds, {"player_turns": turns, "throws": throws}


class _CountedBaseline(baseline_1933.Game):
    """The hand-written 1933 simulator, counting its throws (used only to count, never timed)."""

    throws = 0

    def roll(self) -> None:
        self.throws += 1
        super().roll()


class HandWritten:
    """The hand-written 1933 simulator: timed as written, counted by playing the seeds again."""

    def __init__(self, players: int) -> None:
        self.players = players

    def play(self, seeds: range) -> tuple[float, dict[str, int]]:
        """Play the seeds' games; return (CPU seconds, counts of player-turns and throws)."""
        start = time.process_time()
        for s in seeds:
            baseline_1933.Game(self.players, s).play()
        seconds = time.process_time() - start
        turns = throws = 0
        for s in seeds:
            game = _CountedBaseline(self.players, s)
            turns += game.play().turns
            throws += game.throws
        return seconds, {"player_turns": turns, "throws": throws}


class Peer:
    """The peer simulator, imported from its folder, with its game log off.

    Its games are timed as its authors wrote them; the same seeds are then played again, untimed, with
    its dice and moves wrapped to count throws and player-turns (the same seed plays the same game).
    """

    def __init__(self, folder: Path, players: int) -> None:
        sys.path.insert(0, str(folder))
        from monopoly.core import game as peer_game  # type: ignore[import-not-found]
        from monopoly.core.dice import Dice  # type: ignore[import-not-found]
        from monopoly.core.player import Player  # type: ignore[import-not-found]
        from monopoly.log_settings import LogSettings  # type: ignore[import-not-found]
        from settings import GameSettings  # type: ignore[import-not-found]

        LogSettings.KEEP_GAME_LOG = False
        self.scratch = tempfile.TemporaryDirectory()
        LogSettings.BANKRUPTCIES_PATH = Path(self.scratch.name) / "bankruptcies.tsv"
        GameSettings.players_list = GameSettings.players_list[:players]
        self.dice, self.player = Dice, Player
        self.game = peer_game.monopoly_game

    def play(self, seeds: range) -> tuple[float, dict[str, int]]:
        """Play the seeds' games; return (CPU seconds, counts of player-turns and throws)."""
        start = time.process_time()
        for s in seeds:
            self.game((s, s))
        seconds = time.process_time() - start
        return seconds, self._count(seeds)

    def _count(self, seeds: range) -> dict[str, int]:
        counts = {"player_turns": 0, "throws": 0}
        roll, move = self.dice.roll, self.player.make_a_move

        def counted_roll(dice):
            counts["throws"] += 1
            return roll(dice)

        def counted_move(player, *args, **kwargs):
            counts["player_turns"] += 1
            return move(player, *args, **kwargs)

        self.dice.roll, self.player.make_a_move = counted_roll, counted_move
        try:
            for s in seeds:
                self.game((s, s))
        finally:
            self.dice.roll, self.player.make_a_move = roll, move
        return counts


_WORKER: dict = {}  # in a worker process of `on_cores`: its compiled program and seat count


def _start_worker(edition: str, players: int) -> None:
    _WORKER["ours"] = Ours(ld.compile_rules(ld.load_edition(edition)), players)


def _play_seeds(seeds: range) -> dict[str, int]:
    return _WORKER["ours"].play(seeds)[1]


def on_cores(edition: str, players: int, games: int, seed: int, jobs: int) -> dict[str, float]:
    """Play `games` games of ours in `jobs` worker processes (each edition compiled once, before the clock
    starts); return the throws, player-turns and games per second of wall time, their counts, and the
    wall seconds."""
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    with context.Pool(jobs, _start_worker, (edition, players)) as pool:
        pool.map(_play_seeds, [range(seed, seed + 1)] * jobs, chunksize=1)  # every worker started and warm
        chunks = [range(first, min(first + 10, seed + games)) for first in range(seed, seed + games, 10)]
        start = time.perf_counter()
        counted = pool.map(_play_seeds, chunks, chunksize=1)
        wall = time.perf_counter() - start
    counts = {"games": games} | {k: sum(c[k] for c in counted) for k in ("player_turns", "throws")}
    rates = {f"{k}_per_s": round(v / wall, 1) for k, v in counts.items()}
    return rates | counts | {"wall_s": round(wall, 3), "jobs": jobs}


def _rates(counts: dict[str, int], seconds: float) -> dict[str, float]:
    return {f"{k}_per_s": round(v / seconds, 1) for k, v in counts.items()} | {"cpu_s": round(seconds, 3), **counts}


def play_round(contestants: dict, games: int, seed: int, chunk: int) -> dict[str, dict]:
    """Play every contestant's games of one round, chunk by chunk in turn; return each one's rates."""
    seconds = dict.fromkeys(contestants, 0.0)
    counts = {name: {"games": 0, "player_turns": 0, "throws": 0} for name in contestants}
    for first in range(seed, seed + games, chunk):
        seeds = range(first, min(first + chunk, seed + games))
        for name, contestant in contestants.items():
            spent, counted = contestant.play(seeds)
            seconds[name] += spent
            counts[name]["games"] += len(seeds)
            for key, value in counted.items():
                counts[name][key] += value
    return {name: _rates(counts[name], seconds[name]) for name in contestants}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Time the interpreter against gamescomputersplay/monopoly.")
    ap.add_argument("--peer", type=Path, help="folder of the peer's source (holding monopoly/ and settings.py)")
    ap.add_argument("--edition", default="monopoly-1933-atlantic-city")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--chunk", type=int, default=10, help="games each plays in turn within a round")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--jobs",
        type=int,
        default=0,
        help="also play ours on this many cores (wall time, best of --rounds runs), against the peer on one",
    )
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.peer is None or not (args.peer / "monopoly" / "core" / "game.py").is_file():
        print("skipped: no peer simulator given (--peer FOLDER with gamescomputersplay/monopoly's source)")
        return 0
    program = ld.compile_rules(ld.load_edition(args.edition))
    contestants = {"interpreter": Ours(program, args.players), "peer": Peer(args.peer, args.players)}
    if program.name == "monopoly-1933-atlantic-city":  # its default options (a variant has a name of its own)
        contestants["hand-written"] = HandWritten(args.players)
    best: dict[str, dict] = {}
    paired: list[float] = []  # each round's throws/s of ours over the peer's
    for _ in range(args.rounds):
        rates = play_round(contestants, args.games, args.seed, args.chunk)
        for name, rate in rates.items():
            if name not in best or rate["cpu_s"] < best[name]["cpu_s"]:
                best[name] = rate
        paired.append(rates["interpreter"]["throws_per_s"] / rates["peer"]["throws_per_s"])
    ratios = {
        name: {
            k: round(best[name][f"{k}_per_s"] / best["peer"][f"{k}_per_s"], 3)
            for k in ("throws", "player_turns", "games")
        }
        for name in contestants
        if name != "peer"
    }
    result = {
        "edition": args.edition,
        "games": args.games,
        "players": args.players,
        "rounds": args.rounds,
        "chunk": args.chunk,
        **best,
        "ratio_interpreter_to_peer": ratios["interpreter"],
        "throws_ratio_by_round": [round(r, 3) for r in paired],
        "throws_ratio_median": round(statistics.median(paired), 3),
    }
    if "hand-written" in ratios:
        result["ratio_hand_written_to_peer"] = ratios["hand-written"]
    if args.jobs:  # the best of `rounds` runs of the same games, as for one core
        runs = [on_cores(args.edition, args.players, args.games, args.seed, args.jobs) for _ in range(args.rounds)]
        cores = max(runs, key=lambda run: run["throws_per_s"])
        result["interpreter_on_cores"] = cores
        result["throws_ratio_on_cores"] = round(cores["throws_per_s"] / best["peer"]["throws_per_s"], 3)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(
        f"{args.games} games x {args.rounds} rounds in chunks of {args.chunk}, {args.players} players, "
        "best round of each (CPU time)"
    )
    print(f"{'':17} {'throws/s':>10} {'turns/s':>10} {'games/s':>9} {'throws/game':>12} {'turns/game':>11}")
    for name in contestants:
        r = best[name]
        print(
            f"{name:17} {r['throws_per_s']:>10} {r['player_turns_per_s']:>10} {r['games_per_s']:>9} "
            f"{r['throws'] / r['games']:>12.1f} {r['player_turns'] / r['games']:>11.1f}"
        )
    for name, r in ratios.items():
        label = "ratio" if name == "interpreter" else f"{name}/peer"
        print(f"{label:17} {r['throws']:>10} {r['player_turns']:>10} {r['games']:>9}")
    by_round = ", ".join(f"{r:.3f}" for r in paired)
    print(f"throws/s ratio, round by round: {by_round}; median {statistics.median(paired):.3f}")
    if args.jobs:
        cores = result["interpreter_on_cores"]
        print(
            f"interpreter on {args.jobs} cores, best of {args.rounds} runs: {cores['throws_per_s']} throws/s "
            f"({cores['games_per_s']} games/s, {args.games} games in {cores['wall_s']} s wall), "
            f"{result['throws_ratio_on_cores']} x the peer's best round on one core"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
