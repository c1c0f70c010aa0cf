"""Draw the simulation statistics of every shipped edition into docs/assets/stats/NAME.png.

Run from the repository root (needs the `plot` extra):

    python examples/stats_figures.py                 # 1,000 games per edition, every core
    python examples/stats_figures.py --games 200 --jobs 2

Each figure is what `landlord-dsl simulate NAME --games N --plot FILE` draws:
the board shaded by the probability of ending a turn on each space and by the
rent received there, the Gini of wealth and of cash by round with 95 % bands,
the game-length survival curve (games stopped by the turn limit censored)
and the win rate by seat with 95 % intervals. Four heuristic bots, seeds 0 to N-1.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import landlord_dsl as ld
from landlord_dsl.parallel import simulate_many
from landlord_dsl.plots import simulation_figure
from landlord_dsl.resources import shipped_files

OUT = Path(__file__).resolve().parent.parent / "docs" / "assets" / "stats"


def editions() -> list[str]:
    """Return the names of the shipped editions that are not variants (those under editions/variants)."""
    return [name for name, path in shipped_files().items() if path.parent.name != "variants"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per edition (default 1000)")
    parser.add_argument("--jobs", type=int, default=None, help="processes (default: every core)")
    parser.add_argument("--out", type=Path, default=OUT, help="directory of the figures")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for name in editions():
        rules = ld.load_edition(name)
        program = ld.compile_rules(rules)
        players = min(max(4, program.players[0]), program.players[1])
        summary = simulate_many(rules, args.games, players, seed=0, jobs=args.jobs, stats=True).result()
        summary["seed"] = 0
        path = args.out / f"{name}.png"
        simulation_figure(summary, program, path)
        print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
