"""Side by side with a popular hand-coded Monopoly simulator, gamescomputersplay/monopoly.

The peer is not part of this repository and is never vendored: bring its source
into a scratch folder outside the repository and pass that folder:

    python benchmarks/bench_peer.py --peer /path/to/monopoly --games 200 --rounds 3

The two are run interleaved (ours, the peer's, ours, ...), one process, one
core, and timed in CPU seconds (time.process_time), so a machine busy with
other work slows both alike. Reported per dice throw, per player-turn and per
game, with the best round of each. What a turn does differs: ours asks the
rules' decisions of heuristic bots (buy or auction, two build/mortgage menus
and a trade offer every turn in 1933) and keeps the full event log; the
peer's players follow fixed rules (buy everything, build at once) with its
game log switched off (`KEEP_GAME_LOG = False`). Without --peer, or with a
folder that holds no peer, the script says so and exits 0.

For the 1933 edition the hand-written simulator of the same rules
(`baseline_1933.py`, the same games as the interpreter, menus and all) is run
in the same rounds too: how it compares with the peer shows how much of the
gap is the work the rules ask for each turn, and how much the interpreter.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import baseline_1933  # noqa: E402
import landlord_dsl as ld  # noqa: E402


def ours(program, games: int, players: int, seed: int) -> dict[str, int]:
    """Play games through the interpreter; return counts of games, player-turns and throws."""
    turns = throws = 0
    for s in range(seed, seed + games):
        game = ld.new_game(program, players=players, seed=s)
        game.play()
        for event in game.log:
            if event[0] == "turn":
                turns += 1
            elif event[0] == "roll":
                throws += 1
    return {"games": games, "player_turns": turns, "throws": throws}


class _CountedBaseline(baseline_1933.Game):
    """The hand-written 1933 simulator, counting its throws."""

    throws = 0

    def roll(self) -> None:
        self.throws += 1
        super().roll()


def handwritten(games: int, players: int, seed: int) -> dict[str, int]:
    """Play games with the hand-written 1933 simulator; return counts of games, player-turns and throws."""
    turns = throws = 0
    for s in range(seed, seed + games):
        game = _CountedBaseline(players, s)
        turns += game.play().turns
        throws += game.throws
    return {"games": games, "player_turns": turns, "throws": throws}


class Peer:
    """The peer simulator, imported from its folder, with its game log off and its moves counted."""

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
        self.counts = {"player_turns": 0, "throws": 0}
        roll, move = Dice.roll, Player.make_a_move
        counts = self.counts

        def counted_roll(dice):
            counts["throws"] += 1
            return roll(dice)

        def counted_move(player, *args, **kwargs):
            counts["player_turns"] += 1
            return move(player, *args, **kwargs)

        Dice.roll, Player.make_a_move = counted_roll, counted_move
        self.play = peer_game.monopoly_game

    def run(self, games: int, seed: int) -> dict[str, int]:
        """Play games with the peer; return counts of games, player-turns and throws."""
        self.counts.update(player_turns=0, throws=0)
        for s in range(seed, seed + games):
            self.play((s, s))
        return {"games": games, **self.counts}


def _rates(counts: dict[str, int], seconds: float) -> dict[str, float]:
    return {f"{k}_per_s": round(v / seconds, 1) for k, v in counts.items()} | {"cpu_s": round(seconds, 3), **counts}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Time the interpreter against gamescomputersplay/monopoly.")
    ap.add_argument("--peer", type=Path, help="folder of the peer's source (holding monopoly/ and settings.py)")
    ap.add_argument("--edition", default="monopoly-1933-atlantic-city")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.peer is None or not (args.peer / "monopoly" / "core" / "game.py").is_file():
        print("skipped: no peer simulator given (--peer FOLDER with gamescomputersplay/monopoly's source)")
        return 0
    program = ld.compile_rules(ld.load_edition(args.edition))
    peer = Peer(args.peer, args.players)
    contestants = [
        ("interpreter", lambda: ours(program, args.games, args.players, args.seed)),
        ("peer", lambda: peer.run(args.games, args.seed)),
    ]
    if program.name == "monopoly-1933-atlantic-city":  # its default options (a variant has a name of its own)
        contestants.append(("hand-written", lambda: handwritten(args.games, args.players, args.seed)))
    best: dict[str, dict] = {}
    for _ in range(args.rounds):
        for name, run in contestants:
            start = time.process_time()
            counts = run()
            rates = _rates(counts, time.process_time() - start)
            if name not in best or rates["cpu_s"] < best[name]["cpu_s"]:
                best[name] = rates
    names = [name for name, _ in contestants]
    ratios = {
        name: {
            k: round(best[name][f"{k}_per_s"] / best["peer"][f"{k}_per_s"], 3)
            for k in ("throws", "player_turns", "games")
        }
        for name in names
        if name != "peer"
    }
    ratio = ratios["interpreter"]
    result = {
        "edition": args.edition,
        "games": args.games,
        "players": args.players,
        "rounds": args.rounds,
        **best,
        "ratio_interpreter_to_peer": ratio,
    }
    if "hand-written" in ratios:
        result["ratio_hand_written_to_peer"] = ratios["hand-written"]
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"{args.games} games x {args.rounds} rounds, {args.players} players, best round of each (CPU time)")
        print(f"{'':17} {'throws/s':>10} {'turns/s':>10} {'games/s':>9} {'throws/game':>12} {'turns/game':>11}")
        for name in names:
            r = best[name]
            print(
                f"{name:17} {r['throws_per_s']:>10} {r['player_turns_per_s']:>10} {r['games_per_s']:>9} "
                f"{r['throws'] / r['games']:>12.1f} {r['player_turns'] / r['games']:>11.1f}"
            )
        for name, r in ratios.items():
            label = "ratio" if name == "interpreter" else f"{name}/peer"
            print(f"{label:17} {r['throws']:>10} {r['player_turns']:>10} {r['games']:>9}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
