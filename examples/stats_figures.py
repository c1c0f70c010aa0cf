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

docs/statistics.md shows the panels apart, each at a size whose text can be
read in the page's column (NAME-landing.png, NAME-rent.png, NAME-outcomes.png,
each with a -narrow variant for phones), and links the whole figure; the
script writes those pictures and the page's section of figures from the
same summary (`--redraw` draws every figure again from the kept summaries,
without playing).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import figure_data

import landlord_dsl as ld
from landlord_dsl.core.resources import shipped_files
from landlord_dsl.presentation.plots import heatmap_figure, outcome_figure, simulation_figure
from landlord_dsl.studies.parallel import simulate_many

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "assets" / "stats"
PAGE = ROOT / "docs" / "statistics.md"
SCRIPT = "examples/stats_figures.py"


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


def panels(name: str, summary: dict, out: Path = OUT) -> list[tuple[str, str, float]]:
    """Draw the page's pictures of one edition's figure from its summary: the two heat maps and the outcomes,
    each wide and narrow, into `out`; return (picture name, what it shows, smallest text in pixels) of each."""
    stats = summary["stats"]
    labels = [row["space"] for row in stats["landing_per_turn"]]
    rent = [0.0] * len(labels)
    for row in stats["rent"]["by_space"]:
        rent[row["index"]] = row["mean_per_game"]
    landing = [row["probability"] for row in stats["landing_per_turn"]]
    drawn = []
    for part, what, values, fmt in (
        ("landing", "probability of ending a turn there", landing, "{:.1%}"),
        ("rent", "rent received there per game", rent, "{:.0f}"),
    ):
        px = min(
            heatmap_figure(labels, values, what, fmt, out / f"{name}-{part}{k}.png", k == "-narrow")
            for k in ("", "-narrow")
        )
        drawn.append((part, f"The board shaded by the {what}", px))
    px = min(outcome_figure(stats, out / f"{name}-outcomes{k}.png", k == "-narrow") for k in ("", "-narrow"))
    drawn.append(
        ("outcomes", "The Gini of wealth and of cash by round, the game-length curve and the win rate by seat", px)
    )
    return drawn


def section(name: str, title: str, drawn: list[tuple[str, str, float]]) -> str:
    """Return the page's section of one edition: its heading, its pictures and the link to the whole figure."""
    lines = [f"### {title}", ""]
    for part, alt, px in drawn:
        lines.append(
            figure_data.picture(
                f"../assets/stats/{name}-{part}.png",
                f"../assets/stats/{name}-{part}-narrow.png",
                px,
                f"{alt}, {title}",
                f"../assets/stats/{name}-{part}.png",
            )
        )
        lines.append("")
    lines.append(f"[All five panels in one figure, as `simulate --plot` draws them](assets/stats/{name}.png)")
    return "\n".join(lines) + "\n"


def page_region(out: Path = OUT) -> str:
    """Return the page's region of figures, drawing every edition's pictures from its kept summary."""
    parts = []
    for name in editions():
        summary = figure_data.read(out / f"{name}.png")["summary"]
        parts.append(section(name, ld.compile_rules(ld.load_edition(name)).title, panels(name, summary, out)))
    return "\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="the editions to draw (default: every one)")
    parser.add_argument("--games", type=int, default=1000, help="games per edition (default 1000)")
    parser.add_argument("--jobs", type=int, default=None, help="processes (default: every core)")
    parser.add_argument("--out", type=Path, default=OUT, help="directory of the figures")
    parser.add_argument("--redraw", action="store_true", help="draw the figures again from the kept summaries")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.names or editions():
        if args.redraw:
            path = args.out / f"{name}.png"
            simulation_figure(figure_data.read(path)["summary"], ld.compile_rules(ld.load_edition(name)), path)
            continue
        rules = ld.load_edition(name)
        program = ld.compile_rules(rules)
        players = players_for(program)
        summary = simulate_many(rules, args.games, players, seed=0, jobs=args.jobs, stats=True).result()
        summary["seed"] = 0
        path = args.out / f"{name}.png"
        simulation_figure(summary, program, path)
        figure_data.write(path, check(rules, players), summary=summary)
        print(f"wrote {path}", file=sys.stderr)
    if args.out == OUT:
        PAGE.write_text(
            figure_data.replace_region(PAGE.read_text(encoding="utf-8"), "figures", SCRIPT, page_region()),
            encoding="utf-8",
        )
        print(f"wrote {PAGE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
