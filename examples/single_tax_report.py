"""Regenerate docs/single-tax-report.md: the monopolist rules against the Single Tax.

    python examples/single_tax_report.py            # 1,000 games per regime
    python examples/single_tax_report.py --games 200 --out /tmp/report.md

Every regime plays the same seeds (0 .. N-1) with four heuristic bots, so
the regimes differ only in their rules. Wealth is the 1906 score (cash, 100
per card and per house, less debts); inequality is the Gini coefficient of
the four players' wealth, recorded after setup and after every round.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

import landlord_dsl as ld
from landlord_dsl.simulate import gini, simulate, summarise

ROOT = Path(__file__).resolve().parents[1]

REGIMES = [
    ("Monopolist rules", "landlords-game-1906", {"single_tax": "never"}),
    ("Single Tax from the start", "landlords-game-1906", {"single_tax": "from_start"}),
    ("Single Tax adopted at turn 60", "landlords-game-1906", {"single_tax": "at_turn", "single_tax_turn": 60}),
    ("Single Tax by the players' vote", "landlords-game-1906", {"single_tax": "vote"}),
    ("Demonstration, monopolist rules", "landlords-game-1906-monopolist-demonstration", {"single_tax": "never"}),
    ("Demonstration, Single Tax", "landlords-game-1906-monopolist-demonstration", {"single_tax": "from_start"}),
]
COLOURS = ["#b2182b", "#2166ac", "#67a9cf", "#5aae61", "#ef8a62", "#053061"]


def interval(values: list[float]) -> str:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return f"{mean:.3f} ± {half:.3f}"


def svg_chart(curves: list[tuple[str, list[float]]], path: Path) -> None:
    """Write a line chart of Gini by round (one line per regime) as a standalone SVG file."""
    width, height, left, bottom, top, right = 720, 360, 56, 40, 16, 210
    rounds = max(len(c) for _, c in curves)
    peak = max(max(c) for _, c in curves if c)
    ceiling = max(0.1, math.ceil(peak * 10) / 10)
    x = lambda r: left + (width - left - right) * r / max(1, rounds - 1)  # noqa: E731
    y = lambda v: top + (height - top - bottom) * (1 - v / ceiling)  # noqa: E731
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="sans-serif" font-size="11">',
             f'<rect width="{width}" height="{height}" fill="white"/>']
    for i in range(6):
        v = ceiling * i / 5
        parts.append(f'<line x1="{left}" y1="{y(v):.1f}" x2="{width - right}" y2="{y(v):.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v:.2f}</text>')
    for r in range(0, rounds, max(1, rounds // 8)):
        parts.append(f'<text x="{x(r):.1f}" y="{height - bottom + 16}" text-anchor="middle">{r}</text>')
    parts.append(f'<text x="{(left + width - right) / 2:.0f}" y="{height - 6}" text-anchor="middle">'
                 'round</text>')
    parts.append(f'<text x="14" y="{top + (height - top - bottom) / 2:.0f}" text-anchor="middle" '
                 f'transform="rotate(-90 14 {top + (height - top - bottom) / 2:.0f})">Gini of wealth</text>')
    for (name, curve), colour in zip(curves, COLOURS):
        points = " ".join(f"{x(r):.1f},{y(v):.1f}" for r, v in enumerate(curve))
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{points}"/>')
    for i, ((name, _), colour) in enumerate(zip(curves, COLOURS)):
        ly = top + 14 + 18 * i
        parts.append(f'<line x1="{width - right + 12}" y1="{ly - 4}" x2="{width - right + 32}" y2="{ly - 4}" '
                     f'stroke="{colour}" stroke-width="2"/>')
        parts.append(f'<text x="{width - right + 38}" y="{ly}">{name}</text>')
    parts.append("</svg>")
    path.write_text("\n".join(parts) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per regime (default 1000)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "single-tax-report.md")
    args = parser.parse_args(argv)

    rows, curves = [], []
    started = time.perf_counter()
    for name, edition, options in REGIMES:
        program = ld.compile_rules(ld.load_edition(edition), options)
        records = simulate(program, args.games, 4, seed=0)
        summary = summarise(records, 4)
        finals = [gini(r.scores) for r in records]
        cash = [gini(r.cash) for r in records]
        landlord = sum(1 / len(r.winners) for r in records if 0 in r.winners)
        rows.append((name, edition, options, summary, finals, cash, landlord))
        curves.append((name, summary["gini_by_round"]))
        print(f"{name}: {args.games} games", file=sys.stderr)
    elapsed = time.perf_counter() - started

    chart = args.out.parent / "assets" / "single-tax-gini.svg"
    chart.parent.mkdir(parents=True, exist_ok=True)
    svg_chart(curves, chart)

    command = "python examples/single_tax_report.py" + (f" --games {args.games}" if args.games != 1000 else "")
    lines = [
        "# The Single Tax against the monopolist rules",
        "",
        "Magie's claim, in the closing section of the 1906 rules, is that under the ordinary",
        "rules the land monopolist comes to own everything, while under the Single Tax land",
        "rent goes to the public and prosperity spreads. This page measures both regimes with",
        "the library: the same seeds, the same heuristic bots, only the rules differ.",
        "",
        f"Regenerate it with `{command}` ({args.games} games per regime, seeds 0 to "
        f"{args.games - 1}, four players; it took {elapsed:.0f} s here).",
        "",
        "*Wealth* is the 1906 score: cash, 100 for every card and every house, less debts; under",
        "the Single Tax, lot title deeds count nothing (its opening paragraph) and Professors count 100.",
        "*Gini* is the inequality of the four players' wealth (0: equal; 0.75: one holds all).",
        "*Prosperity* is Magie's later test: the poorest player ends with at least twice the",
        "money a player was given at the start.",
        "",
        "## Outcomes",
        "",
        "| regime | turns per game | final Gini of wealth (95% CI) | final Gini of cash | prosperity | first seat wins |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, edition, options, summary, finals, cash, landlord in rows:
        turns = summary["turns_per_game"]["mean"]
        lines.append(f"| {name} | {turns:.1f} | {interval(finals)} | {interval(cash)} | "
                     f"{100 * summary['prosperity_rate']:.1f}% | {100 * landlord / args.games:.1f}% |")
    lines += [
        "",
        "In the demonstration the first seat is the landlord who holds all the land.",
        "",
        "## Inequality over time",
        "",
        "![Gini of wealth by round, one line per regime](assets/single-tax-gini.svg)",
        "",
        "Mean Gini after setup (round 0) and after every fourth round, while at least half the",
        "games are still running:",
        "",
    ]
    longest = max(len(c) for _, c in curves)
    picks = list(range(0, longest, 4))
    lines.append("| regime | " + " | ".join(f"r{r}" for r in picks) + " |")
    lines.append("|---|" + "---:|" * len(picks))
    for name, curve in curves:
        cells = [f"{curve[r]:.3f}" if r < len(curve) else "" for r in picks]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "## How the regimes are set up",
        "",
        "| regime | edition | options |",
        "|---|---|---|",
    ]
    for name, edition, options, *_ in rows:
        shown = ", ".join(f"`{k}={v}`" for k, v in options.items())
        lines.append(f"| {name} | `{edition}` | {shown} |")
    lines += [
        "",
        "## Reading the numbers",
        "",
        "* The demonstration shows Magie's point plainly: holding all the land, the landlord",
        "  wins every game under the ordinary rules; under the Single Tax he wins none, and",
        "  the final inequality of wealth falls. Its cash inequality rises instead: the",
        "  demonstration's condition that the landlord draws no wages still holds, and with his",
        "  rents now going to the treasury he becomes the poor player.",
        "* In the ordinary four-player game the Single Tax leaves the inequality of cash where",
        "  it was, and the picture of wealth depends on how it is counted. The",
        "  1906 score values every title deed at 100, and the Single Tax makes lot deeds worth",
        "  nothing: at adoption the landowners' wealth drops at once, so the Gini of wealth",
        "  jumps at that round (see the turn-60 line) and prosperity, measured against a score",
        "  that no longer counts land, is never reached. The Gini of cash, which no valuation",
        "  convention touches, is the cleaner measure of where the money went.",
        "* The games are short (they end at a player's fifth wages), so slow effects, such as",
        "  wages rising as the treasury buys the franchises, have little time to work.",
        "",
        "These are the outcomes of heuristic bots under rules that are",
        "partly reconstructed (see the 1906 edition page for every reading marked",
        "`reconstruction`), not a claim about how people played in 1906. The bots buy and",
        "build when they keep a reserve and vote for the Single Tax when they are poorer than",
        "the average player.",
        "",
    ]
    args.out.write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {args.out} and {chart}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
