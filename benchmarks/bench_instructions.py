"""Instructions the CPU executes per game, counted by valgrind: a cost figure that machine load cannot move.

Times on a shared machine drift by 10-20 % from one minute to the next; the
number of instructions a run executes does not (for the same code, inputs and
hash seed). This script runs the same seeded games twice under
`valgrind --tool=callgrind` (with PYTHONHASHSEED=0), once with N games and once
with none, and reports the difference divided by N: the instructions of one
game, loading and compiling excluded. Both runs first play one warm-up game,
so that the modules the first game imports (the agents, say) are not
counted as the cost of a game: 50 games of 1933 would otherwise carry about
1.8M instructions a game of one-off imports. After the warm-up game the
cyclic garbage collector is run once and switched off for the counted games
(on both sides with `--peer`): only a few of its passes fall inside 20 games,
and whether a full one does moved the 1933 figure by about 2M instructions a
game (13 %) from one version of the code to the next, whatever the code did.
Compare two versions of the code by running it in each (it measures the
working tree it belongs to).

    python benchmarks/bench_instructions.py --edition monopoly-1933-atlantic-city --games 50

With `--peer FOLDER` (gamescomputersplay/monopoly's source, see bench_peer.py)
it also counts the peer's instructions, as published and de-logged, and
reports each side per throw, throws counted alike (bench_peer.py says how):
the comparison machine load cannot distort.

    python benchmarks/bench_instructions.py --games 50 --peer /path/to/monopoly

Without valgrind on the PATH it says so and exits 0. Valgrind runs Python about
50 times slower: 50 games of the 1933 edition take about a minute.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_PLAY = """
import sys
sys.path.insert(0, {root!r})
import landlord_dsl as ld
program = ld.compile_rules(ld.load_edition({edition!r}), native={native!r})
ld.new_game(program, players={players}, seed=-1).play()  # warm: what the first game imports is not a game's cost
import gc
gc.collect()
gc.disable()  # (a full pass falling inside the counted games or not would move the count by 13 %)
for seed in range({games}):
    ld.new_game(program, players={players}, seed=seed).play()
"""

_PEER_PLAY = """
import sys
sys.path.insert(0, {bench!r})
from peer_copies import load_peer
from pathlib import Path
peer = load_peer(Path({folder!r}), {players}, {delogged}, Path({scratch!r}))
peer.game((-1, -1))  # warm, as ours
import gc
gc.collect()
gc.disable()  # (as ours)
for seed in range({games}):
    peer.game((seed, seed))
"""


def instructions(edition: str, games: int, players: int, native: bool | str = False) -> int:
    """Return the instructions valgrind counts for loading `edition` and playing `games` seeded games (the
    rules run natively with `native`: built before, off the count, as the cache holds it)."""
    return counted(_PLAY.format(root=str(ROOT), edition=edition, games=games, players=players, native=native))


def peer_instructions(folder: Path, games: int, players: int, delogged: bool, scratch: Path) -> int:
    """Return the instructions valgrind counts for loading the peer and playing `games` of its seeded games."""
    bench = str(ROOT / "benchmarks")
    return counted(
        _PEER_PLAY.format(
            bench=bench, folder=str(folder), players=players, delogged=delogged, scratch=str(scratch), games=games
        )
    )


def counted(script: str) -> int:
    """Return the instructions valgrind counts for running the Python `script`."""
    proc = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
        check=True,
    )
    return collected(proc.stderr)


def collected(report: str) -> int:
    """Return the instruction count in what callgrind prints when it ends ("Collected : N")."""
    found = re.search(r"Collected : (\d+)", report)
    if found is None:
        raise RuntimeError(f"valgrind printed no instruction count:\n{report[-2000:]}")
    return int(found[1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Count the instructions of one game under valgrind.")
    ap.add_argument("--edition", default="monopoly-1933-atlantic-city")
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--peer", type=Path, help="also count the peer in this folder, per throw (see bench_peer.py)")
    ap.add_argument(
        "--native", action="store_true", help="also count the native build's games (docs/engine.md; the native extra)"
    )
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("skipped: valgrind is not installed (apt-get install valgrind)")
        return 0
    loading = instructions(args.edition, 0, args.players)
    total = instructions(args.edition, args.games, args.players)
    per_game = (total - loading) // args.games
    result = {"edition": args.edition, "games": args.games, "players": args.players, "instructions_per_game": per_game}
    if args.native:
        sys.path.insert(0, str(ROOT))
        import landlord_dsl as ld

        ld.compile_rules(ld.load_edition(args.edition), native="require")  # built (or found) before counting
        loading = instructions(args.edition, 0, args.players, "require")
        native = (instructions(args.edition, args.games, args.players, "require") - loading) // args.games
        result |= {"native_instructions_per_game": native, "native_speedup": round(per_game / native, 3)}
    if args.peer is not None:
        result |= per_throw(args, per_game, result.get("native_instructions_per_game"))
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"{args.edition}: {per_game:,} instructions a game ({args.games} games, {args.players} players)")
    if args.native:
        native, speedup = result["native_instructions_per_game"], result["native_speedup"]
        print(f"  native: {native:,} instructions a game, {speedup}x fewer")
    if args.peer is not None:
        for name, figure in result["instructions_per_throw"].items():
            print(f"  {name}: {figure:,} instructions a throw")
        print(f"  the de-logged peer's instructions a throw over ours: {result['ratio']} (above 1, ours is faster)")
        if "native_ratio" in result:
            print(f"  the de-logged peer's instructions a throw over the native build's: {result['native_ratio']}")
    return 0


def per_throw(args: argparse.Namespace, per_game: int, native: int | None = None) -> dict:
    """Return ours (and with `native`, the native build's instructions a game, its) and the peer's (as
    published, and de-logged) instructions a throw, and the de-logged peer's over ours, throws counted
    alike (bench_peer.py); the throws are counted outside valgrind."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_peer import Ours
    from peer_copies import load_peer

    seeds = range(args.games)
    throws = Ours(args.edition, args.players).play(seeds)[1]["throws"]
    figures = {"interpreter": per_game * args.games // throws}
    if native is not None:
        figures["native"] = native * args.games // throws
    with tempfile.TemporaryDirectory() as scratch:
        for name, delogged in (("peer", False), ("peer de-logged", True)):
            throws = load_peer(args.peer, args.players, delogged, Path(scratch) / name).count(seeds)["throws"]
            games = peer_instructions(args.peer, args.games, args.players, delogged, Path(scratch) / name)
            empty = peer_instructions(args.peer, 0, args.players, delogged, Path(scratch) / name)
            figures[name] = (games - empty) // throws
    ratios = {"ratio": round(figures["peer de-logged"] / figures["interpreter"], 3)}
    if native is not None:
        ratios["native_ratio"] = round(figures["peer de-logged"] / figures["native"], 3)
    return {"instructions_per_throw": figures, **ratios}


if __name__ == "__main__":
    sys.exit(main())
