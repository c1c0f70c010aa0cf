"""What the population studies share (examples/single_tax_populations.py, examples/stats_populations.py):
who sits at a table of each population, the chunked run of every population and column in worker
processes, and how the populations' effects on one conclusion are read together."""

from __future__ import annotations

import itertools
import math
import sys
from collections.abc import Callable, Sequence
from typing import NamedTuple

from landlord_dsl.studies.paired import Interval
from landlord_dsl.studies.parallel import chunks, in_processes
from landlord_dsl.studies.stats import Z95

HEURISTIC, MIXED, ALL_MCTS = "heuristic", "mixed", "all-MCTS"


def seats(population: str, seed: int, players: int, mcts: str, mixed: Sequence[str]) -> list[str]:
    """Return the seat specs of game `seed` under `population` at a table of `players`: all bots, all `mcts`
    searchers, or the `mixed` kinds with the seating turned a place each game."""
    if population == HEURISTIC:
        return ["bot"] * players
    if population == ALL_MCTS:
        return [mcts] * players
    return [mixed[(seed + i) % len(mixed)] for i in range(players)]


def play_every_cell(
    play: Callable[[str, str, int, int], list[dict[str, float]]],
    populations: Sequence[str],
    columns: Sequence[str],
    games: int,
    jobs: int,
) -> dict[str, dict[str, list[dict[str, float]]]]:
    """Return `play(population, column, start, stop)`'s values of seeds 0..games-1 for every population and
    column, by population and column in seed order, played in chunks on `jobs` processes."""
    tasks, cells = [], []
    for population in populations:
        for column in columns:
            for a, b in chunks(games, jobs * 2):
                tasks.append((play, (population, column, a, b)))
                cells.append((population, column, a))
    pieces: dict[tuple[str, str, int], list[dict[str, float]]] = {}
    for i, found in in_processes(iter(tasks), jobs):
        pieces[cells[i]] = found
        print(f"{cells[i]} done", file=sys.stderr, flush=True)
    values: dict[str, dict[str, list[dict[str, float]]]] = {p: {c: [] for c in columns} for p in populations}
    for (population, column, _), chunk in sorted(pieces.items()):
        values[population][column].extend(chunk)
    return values


class Verdicts(NamedTuple):
    """The words of a study's verdicts on an effect: above zero, below it, and neither detected at 95 %."""

    up: str
    down: str
    none: str


def difference(a: Interval, b: Interval) -> Interval:
    """Return b's mean less a's, with its 95 % interval (independent games: the standard errors add; each
    interval's standard error is its half-width over Z95, so an asymmetric Wilson interval counts its mean
    half-width)."""
    se = math.hypot((a.high - a.low) / (2 * Z95), (b.high - b.low) / (2 * Z95))
    d = b.mean - a.mean
    return Interval(d, d - Z95 * se, d + Z95 * se)


def differ(a: Interval, b: Interval) -> bool:
    """Return True when two populations' effects differ at 95 %."""
    return difference(a, b).excludes_zero


def verdict(found: Interval, words: Verdicts) -> str:
    """Return the verdict on an effect in `words`: up or down when its interval leaves out zero, else none."""
    if not found.excludes_zero:
        return words.none
    return words.up if found.mean > 0 else words.down


def reading(effects: dict[str, Interval], words: Verdicts) -> str:
    """Return what the populations' effects on one conclusion say together, in a few words: the same verdict
    under every population (and whether its size differs), a reversal, or a verdict under some populations
    only, which depends on the players when their effects differ detectably."""
    verdicts = {p: verdict(found, words) for p, found in effects.items()}
    detected = {v for v in verdicts.values() if v != words.none}
    unequal = [f"{p} and {q}" for p, q in itertools.combinations(effects, 2) if differ(effects[p], effects[q])]
    if len(detected) > 1:
        return "**reverses with the players**"
    if not detected:
        return f"{words.none} under any population"
    (found,) = detected
    if len(set(verdicts.values())) == 1:
        return f"{found} under every population" + (", by different amounts" if unequal else "")
    where = ", ".join(p for p, v in verdicts.items() if v != words.none)
    if unequal:
        return f"{found} under {where} only: **depends on the players** (the effects differ: {'; '.join(unequal)})"
    return f"{found} under {where} only; the populations' effects do not differ detectably"
