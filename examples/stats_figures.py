"""Draw the simulation statistics of every shipped edition into docs/assets/stats/NAME.png.

Run from the repository root (needs the `plot` extra):

    python examples/stats_figures.py                 # 1,000 games per edition, every core
    python examples/stats_figures.py --games 200 --jobs 2
    python examples/stats_figures.py landlords-game-1939    # one edition's figure only

Each figure is what `landlord-dsl simulate NAME --games N --plot FILE` draws:
the board shaded by the probability of ending a turn on each space and by the
rent received there, the Gini of wealth and of cash by round with 95 % bands,
the game-length survival curve (games stopped by the turn limit censored)
and the win rate by seat with 95 % intervals. Four heuristic bots, seeds 0 to N-1.
Beside each figure, NAME.json keeps the summary it is drawn from (see
examples/figure_data.py); tests/test_figures.py fails while a figure is out
of date.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import figure_data

import landlord_dsl as ld
from landlord_dsl.core.resources import shipped_files
from landlord_dsl.presentation.plots import simulation_figure
from landlord_dsl.studies.parallel import simulate_many

OUT = Path(__file__).resolve().parent.parent / "docs" / "assets" / "stats"


def editions() -> list[str]:
    """Return the names of the shipped editions that are not variants (those under editions/variants)."""
    return [name for name, path in shipped_files().items() if path.parent.name != "variants"]


def players_for(program) -> int:
    """Return the table size the figures use: four players, or the nearest the edition allows."""
    return min(max(4, program.players[0]), program.players[1])


def check(rules, players: int) -> str:
    """Return the digest of the summary of the first figure_data.CHECK_GAMES games the figure is drawn from."""
    return figure_data.digest(
        simulate_many(rules, figure_data.CHECK_GAMES, players, seed=0, jobs=1, stats=True).result()
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="the editions to draw (default: every one)")
    parser.add_argument("--games", type=int, default=1000, help="games per edition (default 1000)")
    parser.add_argument("--jobs", type=int, default=None, help="processes (default: every core)")
    parser.add_argument("--out", type=Path, default=OUT, help="directory of the figures")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.names or editions():
        rules = ld.load_edition(name)
        program = ld.compile_rules(rules)
        players = players_for(program)
        summary = simulate_many(rules, args.games, players, seed=0, jobs=args.jobs, stats=True).result()
        summary["seed"] = 0
        path = args.out / f"{name}.png"
        simulation_figure(summary, program, path)
        figure_data.write(path, check(rules, players), summary=summary)
        print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
