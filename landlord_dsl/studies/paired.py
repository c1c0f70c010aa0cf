"""Per-game outcomes of several rule sets on common random numbers: what `sensitivity` and `diff --attribute` play.

Every rule set (a "cell") plays games 0..G-1, game i from seed `seed + i`, so
two cells differ only by their rules and a difference can be taken game by
game. A game is reduced at once to the values of the chosen metrics; the
cells' games are cut into chunks played by `jobs` processes and put back in
game order, so the values, and every figure computed from them, are the same
for any number of processes.
"""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import attrs

from ..agents import default_reserve
from ..core.errors import RuleRuntimeError, UsageError
from .parallel import chunks, default_jobs, in_processes, program_of, replay_command
from .rulesource import RuleSource
from .simulate import GameRecord, in_game, play_one
from .stats import Z95, wilson

GINI_ROUND = 10  # the default round of `gini_round_R`
_METRIC = re.compile(r"(turns|rounds|prosperity|mean_score|gini_round_(\d+)|win_seat_(\d+)|score_seat_(\d+))")


def metric_meaning(name: str) -> str:
    """Return what a metric measures, in words (the legend of the reports)."""
    m = _METRIC.fullmatch(name)
    assert m is not None, name
    if m.group(2):
        return (
            f"Gini of the players' wealth after round {m.group(2)} (a game over sooner counts its last round's value)"
        )
    if m.group(3):
        return f"seat {m.group(3)}'s share of the wins (a tie shares the win)"
    if m.group(4):
        return f"seat {m.group(4)}'s final score"
    return {
        "turns": "turns per game",
        "rounds": "rounds per game",
        "prosperity": "share of games where the poorest player ended with twice the smallest start (Magie's test)",
        "mean_score": "the players' mean final score",
    }[name]


def parse_metrics(texts: Sequence[str] | None, players: int) -> tuple[str, ...]:
    """Return the metric names asked for (comma-separated texts), or the default set; an unknown one is a UsageError.

    The default is turns, gini_round_10, prosperity and every seat's win share;
    the Gini of final wealth is not offered: it is 0.75 with four players
    whenever one survivor is left, whatever the rules."""
    names = [n.strip() for text in texts or () for n in text.split(",") if n.strip()]
    if not names:
        return ("turns", f"gini_round_{GINI_ROUND}", "prosperity", *(f"win_seat_{s + 1}" for s in range(players)))
    for name in names:
        m = _METRIC.fullmatch(name)
        seat = m and (m.group(3) or m.group(4))
        if m is None or (seat and not 1 <= int(seat) <= players):
            raise UsageError(
                f"unknown metric '{name}': use turns, rounds, prosperity, mean_score, gini_round_R, "
                f"win_seat_K or score_seat_K (K from 1 to {players})"
            )
    return tuple(dict.fromkeys(names))


def metric_values(record: GameRecord, metrics: Sequence[str]) -> tuple[float, ...]:
    """Return the values of `metrics` for one game's record."""
    out: list[float] = []
    for name in metrics:
        m = _METRIC.fullmatch(name)
        assert m is not None
        if m.group(2):
            curve = record.gini_by_round or (0.0,)
            out.append(curve[min(int(m.group(2)), len(curve) - 1)])
        elif m.group(3):
            seat = int(m.group(3)) - 1
            out.append(1 / len(record.winners) if seat in record.winners else 0.0)
        elif m.group(4):
            out.append(record.scores[int(m.group(4)) - 1])
        elif name == "turns":
            out.append(record.turns)
        elif name == "rounds":
            out.append(record.rounds)
        elif name == "prosperity":
            out.append(1.0 if record.prosperity else 0.0)
        else:
            out.append(statistics.fmean(record.scores))
    return tuple(out)


def play_values(
    source: RuleSource, players: int, seed: int, start: int, stop: int, metrics: tuple[str, ...]
) -> list[tuple[float, ...]]:
    """Play games start..stop-1 of a cell (game i from seed `seed + i`, bots keeping their default reserve);
    return each game's metric values, in game order. A worker's whole job."""
    program = program_of(source)
    reserve = default_reserve(program, players)
    out = []
    for i in range(start, stop):
        try:
            out.append(metric_values(play_one(program, players, seed + i, reserve=reserve), metrics))
        except RuleRuntimeError as err:
            raise in_game(err, i + 1, seed + i, replay_command(source, players, seed + i, reserve)) from None
    return out


def play_cells(
    cells: Sequence[RuleSource],
    games: int,
    players: int,
    metrics: tuple[str, ...],
    seed: int = 0,
    jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[list[tuple[float, ...]]]:
    """Play `games` games of every cell on the same seeds; return per cell the metric values of each game, in order.

    The result is the same for every `jobs` (default: every core)."""
    if games < 1:
        raise UsageError("a study needs at least one game")
    jobs = default_jobs() if jobs is None else jobs
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")
    for source in cells:
        low, high = program_of(source).players
        if not low <= players <= high:
            raise UsageError(f"{source.name} is for {low} to {high} players, not {players}")
    parts = [(c, a, b) for c in range(len(cells)) for a, b in chunks(games, jobs)]
    results: list[list[tuple[float, ...]]] = [[] for _ in cells]
    pieces: dict[tuple[int, int], list[tuple[float, ...]]] = {}
    done = 0
    if jobs == 1 or len(parts) == 1:
        for c, a, b in parts:
            pieces[(c, a)] = play_values(cells[c], players, seed, a, b, metrics)
            done += b - a
            if progress is not None:
                progress(done, games * len(cells))
    else:
        tasks = ((play_values, (cells[c], players, seed, a, b, metrics)) for c, a, b in parts)
        for i, values in in_processes(tasks, min(jobs, len(parts)), cells):
            c, a, _ = parts[i]
            pieces[(c, a)] = values
            done += len(values)
            if progress is not None:
                progress(done, games * len(cells))
    for (c, _), values in sorted(pieces.items()):
        results[c].extend(values)
    return results


@attrs.frozen
class Interval:
    """A mean over games with its 95 % interval (mean ± 1.96 standard errors across games, or a share's Wilson
    interval: level(), difference())."""

    mean: float
    low: float
    high: float

    @property
    def excludes_zero(self) -> bool:
        """Return True when the interval lies wholly on one side of zero."""
        return self.low > 0 or self.high < 0

    def to_json(self, digits: int = 4) -> dict[str, Any]:
        """Return the interval as {"mean", "ci95_low", "ci95_high"}, rounded to `digits` places."""
        return {
            "mean": round(self.mean, digits),
            "ci95_low": round(self.low, digits),
            "ci95_high": round(self.high, digits),
        }


def is_share(metric: str) -> bool:
    """Return True for a metric whose per-game value is a share of the game, from 0 to 1 (a seat's wins, a tie
    sharing them; prosperity, 0 or 1)."""
    m = _METRIC.fullmatch(metric)
    return m is not None and (m.group(3) is not None or metric == "prosperity")


def interval(values: Sequence[float | Fraction], bound: float | None = None) -> Interval:
    """Return the Interval of per-game values, mean ± 1.96 SE (a paired difference, when the values are
    differences), its ends clipped to [-bound, bound] when every value lies there."""
    n = len(values)
    mean = float(sum(Fraction(v) for v in values) / n) if n else 0.0
    sd = statistics.stdev([float(v) for v in values]) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n) if n > 1 else 0.0
    if bound is None:
        return Interval(mean, mean - half, mean + half)
    return Interval(mean, max(-bound, mean - half), min(bound, mean + half))


def level(metric: str, values: Sequence[float | Fraction]) -> Interval:
    """Return the Interval of a metric's mean over games: for a share of the games, its Wilson score interval
    (inside [0, 1] however few the games, as `simulate` gives win rates); for another metric, mean ± 1.96 SE."""
    if not is_share(metric):
        return interval(values)
    n = len(values)
    mean = float(sum(Fraction(v) for v in values) / n) if n else 0.0
    _, low, high = wilson(sum((Fraction(v) for v in values), Fraction(0)), n)
    return Interval(mean, min(low, mean), max(high, mean))


def difference(metric: str, values: Sequence[float | Fraction], terms: int = 1) -> Interval:
    """Return the Interval of a metric's per-game differences, mean ± 1.96 SE; for a share of the games, clipped
    to [-terms, terms]: the range of a difference of two shares (terms=1), or of the 2 x 2 interaction of four
    (terms=2: both - first only - second only + neither)."""
    return interval(values, terms if is_share(metric) else None)


def spread(values: Sequence[float]) -> float:
    """Return the standard deviation of a metric across games (0 for fewer than two)."""
    return statistics.stdev(values) if len(values) > 1 else 0.0
