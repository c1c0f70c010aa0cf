"""Pictures of simulation statistics, drawn with matplotlib (the optional `plot` extra).

Every function takes the plain data of `simulate --stats` (stats.Stats.result)
and draws on a matplotlib Axes, so the CLI, the example scripts and the docs
use the same drawings. Colours are the Okabe-Ito palette (distinguishable
by colour-blind readers) and a perceptually uniform map for the heat maps.
"""

from __future__ import annotations

import statistics
import textwrap
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..core.errors import LandlordError, OutputError, UsageError
from ..studies.sweep import option_text
from .board import board_cells

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Colormap, Normalize
    from matplotlib.figure import Figure

    from ..program.compiled import Program

OKABE_ITO = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#000000", "#d55e00", "#56b4e9", "#f0e442")
FORMATS = (".png", ".svg", ".pdf")
DPI = 110  # pixels per inch of a saved PNG


def pyplot() -> ModuleType:
    """Return matplotlib.pyplot on a file-only backend, or raise LandlordError naming the extra to install."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise LandlordError("plots need matplotlib: pip install 'landlord-dsl[plot]'") from None
    return plt


def check_path(path: Path) -> None:
    """Raise UsageError unless the file name says a format a figure can be written in."""
    if path.suffix.lower() not in FORMATS:
        raise UsageError(f"cannot draw to {path}: the file name must end in {', '.join(FORMATS)}")


def save(fig: Figure, path: Path) -> None:
    """Write a figure to `path` (its suffix picks PNG, SVG or PDF) and close it."""
    plt = pyplot()
    try:
        check_path(path)
        fig.savefig(path, dpi=DPI, metadata={"Software": None} if path.suffix.lower() == ".png" else None)
    except OSError as err:
        raise OutputError(f"cannot write {path}: {err.strerror}") from None
    finally:
        plt.close(fig)


def board_heatmap(ax: Axes, labels: Sequence[str], values: Sequence[float], what: str, fmt: str = "{:.1%}") -> None:
    """Draw the board as it is printed (board.py's geometry), each space shaded by its value."""
    from matplotlib import colormaps
    from matplotlib.colors import Normalize
    from matplotlib.patches import Rectangle

    cells = board_cells(len(labels))
    width = max(x + w for x, _, w, _, _ in cells)
    height = max(y + h for _, y, _, h, _ in cells)
    top = colour_top(values)
    norm = Normalize(vmin=0, vmax=top or 1)
    cmap = colormaps["viridis"]
    for (x, y, w, h, _), label, value in zip(cells, labels, values):
        colour = cmap(norm(value))
        ax.add_patch(Rectangle((x, height - y - h), w, h, facecolor=colour, edgecolor="white", linewidth=1))
        dark = sum(colour[:3]) / 3 < 0.5
        text = "\n".join(textwrap.wrap(label, 10, break_long_words=False)[:3]) + "\n" + fmt.format(value)
        ax.text(
            x + w / 2,
            height - y - h / 2,
            text,
            ha="center",
            va="center",
            fontsize=5.5,
            color="white" if dark else "black",
        )
    ax.set_xlim(0, width)
    ax.set_ylim(0, height)
    ax.set_aspect("equal")
    ax.axis("off")
    clipped = top < max(values, default=0)
    bar = ax.figure.colorbar(
        cmap_mappable(cmap, norm), ax=ax, fraction=0.04, pad=0.01, extend="max" if clipped else "neither"
    )
    bar.set_label(
        what + (f" (scale ends at {fmt.format(top)}; above it: the arrow's colour)" if clipped else ""), fontsize=8
    )
    ax.set_title(what, fontsize=9)


def colour_top(values: Sequence[float]) -> float:
    """Return the value a heat map's colour scale ends at: the largest value, or, when one to three spaces
    hold more than three times the median (Jail, say), the largest of the others, so that the other spaces
    are not all one colour (the colour bar then shows an arrow for the values above)."""
    if not values:
        return 0.0
    median = statistics.median(values)
    rest = [v for v in values if v <= 3 * median]
    if median > 0 and len(values) - len(rest) <= 3:
        return max(rest)
    return max(values)


def cmap_mappable(cmap: Colormap, norm: Normalize) -> ScalarMappable:
    """Return a ScalarMappable for a colour bar."""
    from matplotlib.cm import ScalarMappable

    return ScalarMappable(norm=norm, cmap=cmap)


def gini_curves(
    ax: Axes,
    curves: Sequence[tuple[str, Sequence[Sequence[float]]]],
    ylabel: str,
    mark: tuple[float, str] | None = None,
) -> None:
    """Draw Gini curves by round, each with its 95 % band and its name at its right end.

    `curves` holds (name, [[mean, low, high] per round]); `mark` is an optional
    (round, text) drawn as a dashed vertical line (a rule adopted then, say).
    """
    ends: list[list[Any]] = []  # [y, x, name, colour] of each line's end
    for (name, rows), colour in zip(curves, OKABE_ITO):
        if not rows:
            continue
        rounds = range(len(rows))
        ax.fill_between(rounds, [r[1] for r in rows], [r[2] for r in rows], color=colour, alpha=0.2, linewidth=0)
        ax.plot(rounds, [r[0] for r in rows], color=colour, linewidth=1.6)
        ends.append([rows[-1][0], len(rows) - 1, name, colour])
    top = max((max(r[2] for r in rows) for _, rows in curves if rows), default=1.0)
    gap = 0.045 * top  # labels at the lines' ends are spread apart so that none covers another
    ends.sort()
    for below, above in pairwise(ends):
        above[0] = max(above[0], below[0] + gap)
    for y, x, name, colour in ends:
        ax.annotate(
            name,
            (x, y),
            xytext=(4, 0),
            textcoords="offset points",
            va="center",
            fontsize=7,
            color=colour,
            annotation_clip=False,
        )
    if mark is not None:
        ax.axvline(mark[0], color="#555555", linestyle="--", linewidth=1)
        ax.annotate(
            mark[1],
            (mark[0], ax.get_ylim()[1]),
            xytext=(3, -10),
            textcoords="offset points",
            fontsize=7,
            color="#555555",
        )
    ax.set_xlabel("round (0 = after setup)")
    ax.set_ylabel(ylabel)
    ax.set_ylim(bottom=0)
    ax.spines[["top", "right"]].set_visible(False)
    ax.margins(x=0.02)


def survival_curve(ax: Axes, length: dict[str, Any]) -> None:
    """Draw the Kaplan-Meier curve of game length with its 95 % band; say how many games were censored."""
    points = length["survival"]
    turns = [0] + [p[0] for p in points]
    ax.step(turns, [1.0] + [p[1] for p in points], where="post", color=OKABE_ITO[0], linewidth=1.6)
    ax.fill_between(
        turns,
        [1.0] + [p[2] for p in points],
        [1.0] + [p[3] for p in points],
        step="post",
        color=OKABE_ITO[0],
        alpha=0.2,
        linewidth=0,
    )
    if length["censored"]:
        for t in length["censored_at"]:
            ax.axvline(t, color=OKABE_ITO[4], linestyle=":", linewidth=1)
    ax.set_xlabel("turns")
    ax.set_ylabel("share of games still running")
    ax.set_ylim(0, 1.02)
    ax.set_title(f"game length: {length['finished']} finished, {length['censored']} censored (turn limit)", fontsize=9)
    ax.spines[["top", "right"]].set_visible(False)


def win_rates(ax: Axes, wins: Sequence[dict[str, Any]]) -> None:
    """Draw each seat's win rate with its 95 % Wilson interval, and the even share as a line."""
    seats = [w["seat"] for w in wins]
    rates = [w["rate"] for w in wins]
    low = [w["rate"] - w["ci95_low"] for w in wins]
    high = [w["ci95_high"] - w["rate"] for w in wins]
    ax.errorbar(seats, rates, yerr=[low, high], fmt="o", color=OKABE_ITO[2], capsize=4)
    ax.axhline(1 / len(wins), color="#777777", linestyle="--", linewidth=1)
    ax.set_xticks(seats, [f"seat {s}" for s in seats])
    ax.set_ylabel("win rate (95 % Wilson interval)")
    ax.set_ylim(0, min(1, max(w["ci95_high"] for w in wins) * 1.15 + 0.02))
    ax.spines[["top", "right"]].set_visible(False)


def simulation_figure(summary: dict[str, Any], program: Program, path: Path, title: str | None = None) -> None:
    """Write the statistics of a simulation (`summary` with its "stats") as one figure of five panels."""
    plt = pyplot()
    stats = summary["stats"]
    labels = [row["space"] for row in stats["landing_per_turn"]]
    rent = [0.0] * len(labels)
    for row in stats["rent"]["by_space"]:
        rent[row["index"]] = row["mean_per_game"]
    fig = plt.figure(figsize=(14, 10), constrained_layout=True)
    grid = fig.add_gridspec(2, 6, height_ratios=[1.4, 1])
    board_heatmap(
        fig.add_subplot(grid[0, 0:3]),
        labels,
        [row["probability"] for row in stats["landing_per_turn"]],
        "probability of ending a turn there",
    )
    board_heatmap(fig.add_subplot(grid[0, 3:6]), labels, rent, "rent received there per game", "{:.0f}")
    gini_ax = fig.add_subplot(grid[1, 0:2])
    gini_curves(
        gini_ax,
        [("wealth", stats["gini_by_round"]["wealth"]), ("cash", stats["gini_by_round"]["cash"])],
        "Gini (mean, 95 % band)",
    )
    gini_ax.set_title("inequality by round, while half the games run", fontsize=9)
    survival_curve(fig.add_subplot(grid[1, 2:4]), stats["game_length"])
    wins_ax = fig.add_subplot(grid[1, 4:6])
    win_rates(wins_ax, stats["wins_by_seat"])
    wins_ax.set_title("win rate by seat (ties shared)", fontsize=9)
    fig.suptitle(
        f"{title or program.title}: {summary['games']} games, {summary['players']} players, "
        f"seeds from {summary.get('seed', 0)}",
        fontsize=11,
    )
    save(fig, path)


def analysis_figure(result: Any, path: Path) -> None:
    """Draw an exact analysis (analysis.Analysis) as two board heat maps: where throws and where turns end."""
    plt = pyplot()
    check_path(path)
    rows = sorted((r for r in result.rows if not r.status), key=lambda r: r.index)
    labels = [r.label for r in rows]
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 6.4), constrained_layout=True)
    board_heatmap(left, labels, [r.throw for r in rows], "share of throws ending here (exact)", "{:.2%}")
    board_heatmap(right, labels, [r.turn for r in rows], "share of turns ending here (exact)", "{:.2%}")
    fig.suptitle(f"{result.title}: exact long-run movement of one token, derived from the rules", fontsize=10)
    save(fig, path)


def sweep_figure(records: Sequence[dict[str, Any]], path: Path, title: str) -> None:
    """Draw the mean final Gini and the mean game length of every cell side by side (needs matplotlib)."""
    plt = pyplot()
    labels = [
        ", ".join(f"{k}={option_text(v)}" for k, v in r["options"].items()) + f" · {r['players']} players"
        for r in records
    ]
    ginis = [r["summary"]["final_wealth"]["mean_gini"] for r in records]
    turns = [r["summary"]["turns_per_game"]["mean"] for r in records]
    rows = range(len(records))
    fig, (left, right) = plt.subplots(
        1, 2, sharey=True, figsize=(10, 1.2 + 0.45 * len(records)), constrained_layout=True
    )
    left.barh(rows, ginis, color="#0072b2")
    left.set_xlabel("mean Gini of final wealth (0 = equal)")
    right.barh(rows, turns, color="#e69f00")
    right.set_xlabel("mean turns per game")
    left.set_yticks(list(rows), labels)
    left.invert_yaxis()
    for axis, values, fmt in ((left, ginis, "{:.3f}"), (right, turns, "{:.1f}")):
        axis.spines[["top", "right"]].set_visible(False)
        for y, value in zip(rows, values):
            axis.annotate(
                fmt.format(value), (value, y), xytext=(3, 0), textcoords="offset points", va="center", fontsize=8
            )
    fig.suptitle(
        f"{title}: {records[0]['games'] if records else 0} games per cell, the same seeds in every cell", fontsize=10
    )
    fig.savefig(path)
    plt.close(fig)
