"""What the population studies share (examples/single_tax_populations.py, examples/stats_populations.py):
who sits at a table of each population, and the chunked run of every population and column in worker
processes."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

from landlord_dsl.studies.parallel import chunks, in_processes

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
