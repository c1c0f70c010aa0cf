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
from typing import TYPE_CHECKING, Any, cast

from ..core.errors import LandlordError, OutputError, UsageError
from ..studies.sweep import option_text
from .board import board_cells

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Colormap, Normalize
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter

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
    """Raise UsageError unless the file name says a format a figure can be written in, in a folder that exists
    (checked before the games or the analysis a figure draws, not after); return nothing."""
    if path.suffix.lower() not in FORMATS:
        raise UsageError(f"cannot draw to {path}: the file name must end in {', '.join(FORMATS)}")
    if path.is_dir():
        raise UsageError(f"cannot draw to {path}: it is a folder")
    if not path.parent.is_dir():
        raise UsageError(f"cannot draw to {path}: there is no folder {path.parent}")


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


def wrap_words(text: str, width: int) -> list[str]:
    """Return `text` in lines of at most `width` characters, broken only between words (a longer word keeps a
    line of its own) and never cut short."""
    return textwrap.wrap(text, max(width, 1), break_long_words=False, break_on_hyphens=False) or [""]


def smallest_text_px(fig: Figure) -> float:
    """Return the height, in pixels of the PNG `save` writes, of the smallest visible text of a figure (the
    pages state it in `data-text-px`, and the browser check scales it to the width the picture is shown at)."""
    from matplotlib.text import Text

    sizes = [float(t.get_fontsize()) for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
    return min(sizes) * DPI / 72


def board_heatmap(
    ax: Axes, labels: Sequence[str], values: Sequence[float], what: str, fmt: str = "{:.1%}", fontsize: float = 5.5
) -> None:
    """Draw the board as it is printed (board.py's geometry), each space shaded by its value and labelled with
    its whole name, broken between words only; the colour scale and its legend lie in the board's empty
    middle."""
    from matplotlib import colormaps
    from matplotlib.colors import Normalize
    from matplotlib.patches import Rectangle

    cells = board_cells(len(labels))
    width = max(x + w for x, _, w, _, _ in cells)
    height = max(y + h for _, y, _, h, _ in cells)
    top = colour_top(values)
    norm = Normalize(vmin=0, vmax=top or 1)
    cmap = colormaps["viridis"]
    axes_width, axes_height = _axes_points(ax)
    scale = min(axes_width / width, axes_height / height)  # points per board unit, the aspect kept
    for (x, y, w, h, _), label, value in zip(cells, labels, values):
        colour = cmap(norm(value))
        ax.add_patch(Rectangle((x, height - y - h), w, h, facecolor=colour, edgecolor="white", linewidth=1))
        dark = sum(colour[:3]) / 3 < 0.5
        # a character of the font is about 0.6 of its size wide
        chars = int(w * scale / (0.6 * fontsize))
        text = "\n".join(wrap_words(label, chars)) + "\n" + fmt.format(value)
        ax.text(
            x + w / 2,
            height - y - h / 2,
            text,
            ha="center",
            va="center",
            fontsize=fontsize,
            linespacing=1.05,
            color="white" if dark else "black",
        )
    ax.set_xlim(0, width)
    ax.set_ylim(0, height)
    ax.set_aspect("equal")
    ax.axis("off")
    clipped = top < max(values, default=0)
    inside = ax.inset_axes((0.22, 0.5, 0.56, 0.035))
    bar = ax.figure.colorbar(
        cmap_mappable(cmap, norm), cax=inside, orientation="horizontal", extend="max" if clipped else "neither"
    )
    bar.ax.tick_params(labelsize=7)
    bar.ax.xaxis.set_major_formatter(_tick_format(fmt))
    legend = what + (f" (the scale ends at {fmt.format(top)}; above it: the arrow's colour)" if clipped else "")
    ax.text(0.5, 0.56, "\n".join(wrap_words(legend, 48)), transform=ax.transAxes, ha="center", va="bottom", fontsize=8)


def _axes_points(ax: Axes) -> tuple[float, float]:
    """Return the width and height an Axes will have, in points, judged from its figure before the layout is
    done."""
    box, figure = ax.get_position(), cast("Figure", ax.figure)  # (the heat maps draw on a whole figure)
    return figure.get_figwidth() * 72 * box.width, figure.get_figheight() * 72 * box.height


def _tick_format(fmt: str) -> FuncFormatter:
    """Return a matplotlib tick formatter that writes values as `fmt` does."""
    from matplotlib.ticker import FuncFormatter

    return FuncFormatter(lambda value, _: fmt.format(value))


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


def heatmap_figure(
    labels: Sequence[str], values: Sequence[float], what: str, fmt: str, path: Path, narrow: bool = False
) -> float:
    """Write one board heat map as a picture of its own, for a page; return its smallest text in pixels.

    The board is a square 6.4 inches wide (the width of a page's text column
    at 110 pixels an inch); `narrow` (the picture phones get) draws the same
    values as bars, one row a space in board order, coloured as on the board.
    """
    plt = pyplot()
    check_path(path)
    if not narrow:
        fig, ax = plt.subplots(figsize=(6.4, 6.4), layout="constrained")
        board_heatmap(ax, labels, values, what, fmt, fontsize=5.5)
    else:
        from matplotlib import colormaps
        from matplotlib.colors import Normalize

        top = colour_top(values)
        norm = Normalize(vmin=0, vmax=top or 1)
        cmap = colormaps["viridis"]
        fig, ax = plt.subplots(figsize=(3.6, 0.9 + 0.17 * len(labels)), layout="constrained")
        rows = range(len(labels))
        ax.barh(rows, values, color=[cmap(norm(v)) for v in values], height=0.8)
        ax.set_yticks(list(rows), list(labels), fontsize=7)
        ax.invert_yaxis()
        ax.set_ylim(len(labels) - 0.5, -0.5)
        ax.tick_params(axis="x", labelsize=7)
        ax.xaxis.set_major_formatter(_tick_format(fmt))
        ax.margins(x=0.18)
        for y, value in zip(rows, values):
            ax.annotate(
                fmt.format(value), (value, y), xytext=(2, 0), textcoords="offset points", va="center", fontsize=7
            )
        ax.spines[["top", "right"]].set_visible(False)
        ax.set_title("\n".join(wrap_words(what + ", spaces in board order from the start", 34)), fontsize=8)
    smallest = smallest_text_px(fig)
    save(fig, path)
    return smallest


def outcome_figure(stats: dict[str, Any], path: Path, narrow: bool = False) -> float:
    """Write the inequality by round, the game-length curve and the win rate by seat of a simulation's
    statistics side by side (one above the other when `narrow`, the picture phones get), for a page; return
    its smallest text in pixels."""
    plt = pyplot()
    check_path(path)
    rows, cols, size = (3, 1, (3.8, 9.6)) if narrow else (1, 3, (9.0, 3.4))
    fig, axes = plt.subplots(rows, cols, figsize=size, layout="constrained")
    gini_curves(
        axes[0],
        [("wealth", stats["gini_by_round"]["wealth"]), ("cash", stats["gini_by_round"]["cash"])],
        "Gini (mean, 95 % band)",
    )
    axes[0].set_title("inequality by round,\nwhile half the games run", fontsize=9)
    survival_curve(axes[1], stats["game_length"])
    length = stats["game_length"]
    axes[1].set_title(
        f"game length: {length['finished']} finished,\n{length['censored']} censored (turn limit)", fontsize=9
    )
    win_rates(axes[2], stats["wins_by_seat"])
    axes[2].set_title("win rate by seat (ties shared)", fontsize=9)
    for ax in axes:
        ax.tick_params(labelsize=8)
        ax.xaxis.label.set_size(8)
        ax.yaxis.label.set_size(8)
    smallest = smallest_text_px(fig)
    save(fig, path)
    return smallest


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


def _is_share(metric: str) -> bool:
    """Return True for a metric that is a share of the games (drawn in percent, its changes in points)."""
    return metric.startswith("win_seat_") or metric == "prosperity"


def _effect_panels(
    panels: Sequence[tuple[str, Sequence[tuple[str, dict[str, Any]]]]], title: str, path: Path, narrow: bool
) -> float:
    """Draw, per metric, one row per labelled effect: its mean and 95 % interval (red when the interval excludes
    zero, grey when not) about a line at zero; the panels side by side, or one above the other when `narrow`
    (the picture phones get). A share's effects are in percentage points. Return the smallest text in pixels."""
    from matplotlib.ticker import MaxNLocator

    plt = pyplot()
    check_path(path)
    rows = max((len(effects) for _, effects in panels), default=1)
    n = max(len(panels), 1)
    if narrow:
        shape, size = (n, 1), (3.8, 0.9 + n * (0.75 + 0.3 * rows))
    else:
        shape, size = (1, n), (max(6.4, 2.9 * n), 1.4 + 0.3 * rows)
    fig, axes = plt.subplots(*shape, figsize=size, layout="constrained", squeeze=False)
    flat = list(axes[:, 0] if narrow else axes[0])
    for i, (ax, (metric, effects)) in enumerate(zip(flat, panels)):
        k = 100 if _is_share(metric) else 1
        for y, (_, e) in enumerate(effects):
            colour = OKABE_ITO[5] if e["excludes_zero"] else "#888888"
            ax.errorbar(
                k * e["mean"],
                y,
                xerr=[[k * (e["mean"] - e["ci95_low"])], [k * (e["ci95_high"] - e["mean"])]],
                fmt="o",
                color=colour,
                markersize=4,
                capsize=3,
                linewidth=1.2,
            )
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_yticks(range(len(effects)), [label for label, _ in effects], fontsize=8)
        if not narrow and i > 0:
            ax.tick_params(axis="y", labelleft=False)
        ax.set_ylim(len(effects) - 0.5, -0.5)
        ax.tick_params(axis="x", labelsize=8)
        ax.xaxis.set_major_locator(MaxNLocator(nbins=4))
        ax.set_title(metric + (" (points)" if k == 100 else ""), fontsize=9)
        ax.spines[["top", "right"]].set_visible(False)
        ax.margins(x=0.15)
    fig.suptitle("\n".join(wrap_words(title, 48 if narrow else 150)), fontsize=9)
    smallest = smallest_text_px(fig)
    save(fig, path)
    return smallest


def sensitivity_figure(data: dict[str, Any], path: Path, narrow: bool = False) -> float:
    """Draw a sensitivity study (sensitivity.to_json): each reading's effect on each metric, value minus default
    with its paired 95 % interval, one panel per metric (one above the other when `narrow`); return the smallest
    text in pixels."""
    rows = [(f"{r['option']}={option_text(v['value'])}", v["effects"]) for r in data["readings"] for v in r["values"]]
    panels = [(m["metric"], [(label, effects[m["metric"]]) for label, effects in rows]) for m in data["metrics"]]
    title = (
        f"{data['edition']}: effect of each reading, value minus default "
        f"(95 % paired CI, {data['games']} games; red: excludes zero)"
    )
    return _effect_panels(panels, title, path, narrow)


def attribution_figure(data: dict[str, Any], path: Path, narrow: bool = False) -> float:
    """Draw an attribution (attribution.to_json): per metric the total difference B - A and each change's Shapley
    contribution with its 95 % interval across games, one panel per metric (one above the other when `narrow`);
    return the smallest text in pixels."""
    panels = [
        (
            m["metric"],
            [("total (b - a)", m["total"])] + [(f"[{c['unit']}]", c["effect"]) for c in m["contributions"]],
        )
        for m in data["metrics"]
    ]
    title = (
        f"{data['b']} - {data['a']}: the contribution of each change "
        f"(Shapley value, 95 % CI, {data['games']} games per variant; red: excludes zero)"
    )
    return _effect_panels(panels, title, path, narrow)


def study_figure(data: dict[str, Any], path: Path, narrow: bool = False) -> float:
    """Draw an optimise study (optimise.to_json): with one objective, its mean with its interval against each
    varied value, one panel per dimension (one above the other when `narrow`; the best in red, the rules as
    given as a dashed line, a trial that breaks a constraint hollow and grey); with several, the first two
    objectives' means, the Pareto front in red. Return the smallest text in pixels."""
    plt = pyplot()
    check_path(path)
    objectives = [o.split()[1] for o in data["objectives"]]
    trials = data["trials_played"]
    best = data["best"]["trial"] if data["best"] else None
    front = {e["trial"] for e in data["front"]}

    def bars(ax: Axes, x: Any, y: dict[str, Any], colour: str, hollow: bool, horizontal: bool = False) -> None:
        err = [[y["mean"] - y["ci95_low"]], [y["ci95_high"] - y["mean"]]]
        ax.errorbar(
            x if not horizontal else y["mean"],
            y["mean"] if not horizontal else x,
            yerr=err if not horizontal else None,
            xerr=err if horizontal else None,
            fmt="o",
            color=colour,
            markerfacecolor="none" if hollow else colour,
            markersize=4,
            linewidth=0.8,
        )

    if len(objectives) == 1:
        (metric,) = objectives
        dims = [v.split("=")[0] for v in data["vary"]]
        shape, size = ((len(dims), 1), (3.8, 3.2 * len(dims))) if narrow else ((1, len(dims)), (6.4 * len(dims), 3.6))
        fig, axes = plt.subplots(*shape, figsize=size, sharey=True, squeeze=False, layout="constrained")
        for ax, dim in zip(axes.flat, dims):
            values = sorted({t["params"][dim] for t in trials}, key=lambda v: (isinstance(v, str), v))
            numeric = all(isinstance(v, int) and not isinstance(v, bool) for v in values)
            for t in trials:
                x = t["params"][dim] if numeric else values.index(t["params"][dim])
                colour = OKABE_ITO[5] if t["trial"] == best else ("#888888" if not t["feasible"] else OKABE_ITO[0])
                bars(ax, x, t["metrics"][metric]["value"], colour, not t["feasible"])
            if not numeric:
                ax.set_xticks(range(len(values)), [str(v) for v in values])
            ax.axhline(data["baseline"][metric]["mean"], color="black", linestyle="--", linewidth=0.8)
            ax.annotate(
                "the rules as given",
                (1, data["baseline"][metric]["mean"]),
                xycoords=("axes fraction", "data"),
                xytext=(-2, 3),
                textcoords="offset points",
                ha="right",
                fontsize=7,
            )
            ax.set_xlabel(dim, fontsize=8)
            ax.set_ylabel(f"{metric} (mean, 95 % CI)", fontsize=8)
            ax.tick_params(labelsize=8)
            ax.spines[["top", "right"]].set_visible(False)
    else:
        fig, ax = plt.subplots(figsize=(3.8, 3.8) if narrow else (6.4, 4.5), layout="constrained")
        first, second = objectives[:2]
        for t in trials:
            colour = OKABE_ITO[5] if t["trial"] in front else ("#888888" if not t["feasible"] else OKABE_ITO[0])
            x, y = t["metrics"][first]["value"], t["metrics"][second]["value"]
            bars(ax, x["mean"], y, colour, not t["feasible"])
            bars(ax, y["mean"], x, colour, not t["feasible"], horizontal=True)
        ax.plot(data["baseline"][first]["mean"], data["baseline"][second]["mean"], "kx", markersize=8)
        ax.set_xlabel(first, fontsize=8)
        ax.set_ylabel(second, fontsize=8)
        ax.tick_params(labelsize=8)
        ax.spines[["top", "right"]].set_visible(False)
    constraints = "; ".join(data.get("constraints", []))
    title = (
        f"{data['edition']}: {'; '.join(data['objectives'])}"
        + (f" subject to {constraints}" if constraints else "")
        + f" ({data['trials']} trials, {data['games']} games each)"
    )
    fig.suptitle("\n".join(wrap_words(title, 48 if narrow else 80)), fontsize=9)
    smallest = smallest_text_px(fig)
    save(fig, path)
    return smallest
