"""Instructions the CPU executes per game, counted by valgrind: a cost figure that machine load cannot move.

Times on a shared machine drift by 10-20 % from one minute to the next; the
number of instructions a run executes does not (for the same code, inputs and
hash seed). This script runs the same seeded games twice under
`valgrind --tool=callgrind` (with PYTHONHASHSEED=0), once with N games and once
with none, and reports the difference divided by N: the instructions of one
game, loading and compiling excluded. Compare two versions of the code by
running it in each (it measures the working tree it belongs to).

    python benchmarks/bench_instructions.py --edition monopoly-1933-atlantic-city --games 50

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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_PLAY = """
import sys
sys.path.insert(0, {root!r})
import landlord_dsl as ld
program = ld.compile_rules(ld.load_edition({edition!r}))
for seed in range({games}):
    ld.new_game(program, players={players}, seed=seed).play()
"""


def instructions(edition: str, games: int, players: int) -> int:
    """Return the instructions valgrind counts for loading `edition` and playing `games` seeded games."""
    script = _PLAY.format(root=str(ROOT), edition=edition, games=games, players=players)
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
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("skipped: valgrind is not installed (apt-get install valgrind)")
        return 0
    loading = instructions(args.edition, 0, args.players)
    total = instructions(args.edition, args.games, args.players)
    per_game = (total - loading) // args.games
    result = {"edition": args.edition, "games": args.games, "players": args.players, "instructions_per_game": per_game}
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"{args.edition}: {per_game:,} instructions a game ({args.games} games, {args.players} players)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
