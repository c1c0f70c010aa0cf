"""Side by side with a popular hand-coded Monopoly simulator, gamescomputersplay/monopoly, counted fairly.

The peer is not part of this repository and is never vendored: bring its source
into a scratch folder outside the repository and pass that folder:

    python benchmarks/bench_peer.py --peer /path/to/monopoly --games 200 --rounds 5

Three things make the comparison fair (issue 31):

- **Throws are counted alike.** A throw counts when it moves a token or tries
  to leave jail: ours are the throws of the rules that handle `on turn`
  (an edition's opening throws for the first player, and a utility's fresh
  throw for its rent, are reported apart as other throws); the peer's are
  the throw of each `make_a_move` (its utility throws apart).
- **The peer without its dead logging.** With its log switched off the peer
  still builds every log line's f-string. `peer_copies.py` writes a copy in
  which those statements run only when the log is on, proves the copy plays
  the same games (every throw and every move's outcome, on `--check-games`
  seeds), and the de-logged peer is the reference of the ratio. The peer as
  published is timed beside it.
- **Core against core.** On one core, all contestants play in this process,
  timed in CPU seconds, finely interleaved: each round plays the seeds in
  chunks of `--chunk` games, each contestant in turn, so a drift of the
  machine's speed slows them alike. `--jobs N` then plays ours and the
  de-logged peer each in N worker processes (wall time, best of `--rounds`).

Only the games are timed: throws and turns are counted outside the clock
(ours from each game's log, the peer's by playing the same seeds again,
untimed, with counters on; the hand-written simulator plays our games, so
its counts are ours). A first chunk of each is played untimed. For the 1933
edition with its default options the hand-written simulator of the same
rules (`baseline_1933.py`) is run in the same rounds. `--record FILE` adds
the run to a pyperf history (`history.py`; `benchmarks/history/peer.json`
is the project's). Without --peer, or with a folder that holds no peer, the
script says so and exits 0.
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
from peer_copies import load_peer, same_games  # noqa: E402


class Ours:
    """The interpreter playing an edition; throws and turns counted from each game's log, off the clock.

    A throw counts when a rule handling `on turn` made it (the throw that moves the token, or tries to
    leave jail); throws by other rules (the first player's, a utility's) are counted as other throws.
    """

    def __init__(self, edition: str, players: int, native: bool | str = False) -> None:
        rules = ld.load_edition(edition)
        self.program, self.players = ld.compile_rules(rules, native=native), players
        turn_rules = {rule.name for rule in rules.model.rules if any(h.event == "turn" for h in rule.handlers)}
        self.turn_throws = {i for i, name in enumerate(self.program.rule_names) if name in turn_rules}

    def play(self, seeds: range) -> tuple[float, dict[str, int]]:
        """Play the seeds' games; return (CPU seconds, counts of throws, other throws and player-turns)."""
        counts = {"throws": 0, "other_throws": 0, "player_turns": 0}
        seconds = 0.0
        clock = time.process_time
        for s in seeds:
            start = clock()
            game = ld.new_game(self.program, players=self.players, seed=s)
            game.play()
            seconds += clock() - start
            for event in game.log:
                if event[0] == "turn":
                    counts["player_turns"] += 1
                elif event[0] == "roll":
                    counts["throws" if event[4] in self.turn_throws else "other_throws"] += 1
        return seconds, counts


class HandWritten:
    """The hand-written 1933 simulator, timed as written. It plays the interpreter's games (bench.py checks
    that seed by seed), so its throws are counted from the interpreter's games of the same seeds, off the
    clock: its own dice cannot tell a turn's throw from a utility's."""

    def __init__(self, players: int, ours: Ours) -> None:
        self.players, self.ours = players, ours

    def play(self, seeds: range) -> tuple[float, dict[str, int]]:
        """Play the seeds' games; return (CPU seconds, counts of throws, other throws and player-turns)."""
        start = time.process_time()
        for s in seeds:
            baseline_1933.Game(self.players, s).play()
        seconds = time.process_time() - start
        return seconds, self.ours.play(seeds)[1]


class Peer:
    """One copy of the peer (as published, or de-logged), its log off: timed as written, counted by
    playing the same seeds again (the same seed plays the same game)."""

    def __init__(self, folder: Path, players: int, delogged: bool, scratch: Path) -> None:
        self.modules = load_peer(folder, players, delogged, scratch)

    def play(self, seeds: range) -> tuple[float, dict[str, int]]:
        """Play the seeds' games; return (CPU seconds, counts of throws, other throws and player-turns)."""
        game = self.modules.game
        start = time.process_time()
        for s in seeds:
            game((s, s))
        seconds = time.process_time() - start
        return seconds, self.modules.count(seeds)


_WORKER: dict = {}  # in a worker process of `on_cores`: the contestant it plays


def _start_worker(make: tuple) -> None:
    kind, *args = make
    _WORKER["contestant"] = Ours(*args) if kind == "ours" else Peer(*args)


def _play_seeds(seeds: range) -> dict[str, int]:
    return _WORKER["contestant"].play(seeds)[1]


def on_cores(make: tuple, games: int, seed: int, jobs: int) -> dict[str, float]:
    """Play `games` games of one contestant (`make`: ("ours", edition, players) or ("peer", folder, players,
    delogged, scratch)) in `jobs` worker processes, each ready before the clock starts; return the throws,
    player-turns and games per second of wall time, their counts, and the wall seconds."""
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    with context.Pool(jobs, _start_worker, (make,)) as pool:
        pool.map(_play_seeds, [range(seed, seed + 1)] * jobs, chunksize=1)  # every worker started and warm
        chunks = [range(first, min(first + 10, seed + games)) for first in range(seed, seed + games, 10)]
        start = time.perf_counter()
        counted = pool.map(_play_seeds, chunks, chunksize=1)
        wall = time.perf_counter() - start
    counts = {"games": games} | {k: sum(c[k] for c in counted) for k in ("player_turns", "throws")}
    rates = {f"{k}_per_s": round(v / wall, 1) for k, v in counts.items()}
    return rates | counts | {"wall_s": round(wall, 3), "jobs": jobs}


def _rates(counts: dict[str, int], seconds: float) -> dict[str, float]:
    rated = ("games", "player_turns", "throws")
    return {f"{k}_per_s": round(counts[k] / seconds, 1) for k in rated} | {"cpu_s": round(seconds, 3), **counts}


def play_round(contestants: dict, games: int, seed: int, chunk: int) -> dict[str, dict]:
    """Play every contestant's games of one round, chunk by chunk in turn; return each one's rates."""
    seconds = dict.fromkeys(contestants, 0.0)
    counts: dict[str, dict[str, int]] = {name: {"games": 0} for name in contestants}
    for first in range(seed, seed + games, chunk):
        seeds = range(first, min(first + chunk, seed + games))
        for name, contestant in contestants.items():
            spent, counted = contestant.play(seeds)
            seconds[name] += spent
            counts[name]["games"] += len(seeds)
            for key, value in counted.items():
                counts[name][key] = counts[name].get(key, 0) + value
    return {name: _rates(counts[name], seconds[name]) for name in contestants}


def _ratio(ours: dict, theirs: dict) -> dict[str, float]:
    return {k: round(ours[f"{k}_per_s"] / theirs[f"{k}_per_s"], 3) for k in ("throws", "player_turns", "games")}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Time the interpreter against gamescomputersplay/monopoly, fairly.")
    ap.add_argument("--peer", type=Path, help="folder of the peer's source (holding monopoly/ and settings.py)")
    ap.add_argument("--edition", default="monopoly-1933-atlantic-city")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--chunk", type=int, default=10, help="games each plays in turn within a round")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--check-games", type=int, default=100, help="seeds on which the de-logged peer is proved equal")
    ap.add_argument("--jobs", type=int, default=0, help="also play ours and the de-logged peer on this many cores each")
    ap.add_argument(
        "--record", type=Path, help="add this run to a pyperf history file (e.g. benchmarks/history/peer.json)"
    )
    ap.add_argument(
        "--native", action="store_true", help="also time the native build (docs/engine.md; needs the native extra)"
    )
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.peer is None or not (args.peer / "monopoly" / "core" / "game.py").is_file():
        print("skipped: no peer simulator given (--peer FOLDER with gamescomputersplay/monopoly's source)")
        return 0
    scratch = Path(tempfile.mkdtemp(prefix="peer-delogged-"))
    ours = Ours(args.edition, args.players)
    contestants = {
        "interpreter": ours,
        "peer": Peer(args.peer, args.players, False, scratch),
        "peer de-logged": Peer(args.peer, args.players, True, scratch),
    }
    same = same_games(contestants["peer"].modules, contestants["peer de-logged"].modules, range(args.check_games))
    if same != args.check_games:
        print(f"the de-logged peer played {args.check_games - same} of {args.check_games} games differently")
        return 1
    if args.native:  # the same games, the rules run as a C extension (built first, off the clock)
        contestants["native"] = Ours(args.edition, args.players, native="require")
    if ours.program.name == "monopoly-1933-atlantic-city":  # its default options (a variant has a name of its own)
        contestants["hand-written"] = HandWritten(args.players, ours)
    for contestant in contestants.values():  # a first chunk untimed: caches filled, code warm
        contestant.play(range(args.seed, args.seed + args.chunk))
    best: dict[str, dict] = {}
    rounds: list[dict[str, dict]] = []
    for _ in range(args.rounds):
        rates = play_round(contestants, args.games, args.seed, args.chunk)
        rounds.append(rates)
        for name, rate in rates.items():
            if name not in best or rate["cpu_s"] < best[name]["cpu_s"]:
                best[name] = rate
    reference = best["peer de-logged"]
    paired = [r["interpreter"]["throws_per_s"] / r["peer de-logged"]["throws_per_s"] for r in rounds]
    native = [r["native"]["throws_per_s"] / r["peer de-logged"]["throws_per_s"] for r in rounds if "native" in r]
    result: dict = {
        "edition": args.edition,
        "games": args.games,
        "players": args.players,
        "rounds": args.rounds,
        "chunk": args.chunk,
        "same_games_delogged": f"{same}/{args.check_games}",
        **best,
        "ratio_to_peer_delogged": {name: _ratio(best[name], reference) for name in best if name != "peer de-logged"},
        "throws_ratio_by_round": [round(r, 3) for r in paired],
        "throws_ratio_median": round(statistics.median(paired), 3),
    }
    if native:
        result["native_throws_ratio_by_round"] = [round(r, 3) for r in native]
        result["native_throws_ratio_median"] = round(statistics.median(native), 3)
    if args.jobs:  # the best of `rounds` runs of the same games for each, wall time
        makes = {
            "interpreter": ("ours", args.edition, args.players),
            **({"native": ("ours", args.edition, args.players, "require")} if args.native else {}),
            "peer de-logged": ("peer", args.peer, args.players, True, scratch),
        }
        cores = {
            name: max(
                (on_cores(make, args.games, args.seed, args.jobs) for _ in range(args.rounds)),
                key=lambda run: run["throws_per_s"],
            )
            for name, make in makes.items()
        }
        result["on_cores"] = cores
        result["throws_ratio_on_cores"] = round(
            cores["interpreter"]["throws_per_s"] / cores["peer de-logged"]["throws_per_s"], 3
        )
    if args.record:
        import history  # (pyperf: the `bench` extra)

        history.record_rounds(args.record, args.edition, rounds, note=f"bench_peer.py --games {args.games}")
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(
        f"{args.games} games x {args.rounds} rounds in chunks of {args.chunk}, {args.players} players, best round "
        f"of each (CPU time, one core); the de-logged peer played {same}/{args.check_games} games as published"
    )
    print(f"{'':15} {'throws/s':>9} {'turns/s':>9} {'games/s':>8} {'throws/game':>12} {'other/game':>11}")
    for name, r in best.items():
        other = r.get("other_throws", 0) / r["games"]
        print(
            f"{name:15} {r['throws_per_s']:>9} {r['player_turns_per_s']:>9} {r['games_per_s']:>8} "
            f"{r['throws'] / r['games']:>12.1f} {other:>11.1f}"
        )
    for name, r in result["ratio_to_peer_delogged"].items():
        print(f"{name + ' / de-logged':30} throws {r['throws']}, turns {r['player_turns']}, games {r['games']}")
    by_round = ", ".join(f"{r:.3f}" for r in paired)
    print(f"interpreter / de-logged peer, throws/s round by round: {by_round}; median {statistics.median(paired):.3f}")
    if native:
        by_round = ", ".join(f"{r:.3f}" for r in native)
        print(f"native / de-logged peer, throws/s round by round: {by_round}; median {statistics.median(native):.3f}")
    if args.jobs:
        for name, c in result["on_cores"].items():
            print(f"{name} on {args.jobs} cores: {c['throws_per_s']} throws/s ({c['wall_s']} s wall)")
        print(f"ratio on {args.jobs} cores each: {result['throws_ratio_on_cores']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
