"""A grid of simulations over option values and player counts (`landlord-dsl sweep`).

Every cell of the grid plays the same seeds (game i from seed `seed + i`), so
two cells differ only by their rules: common random numbers, the paired
design `diff --outcomes` uses. Each finished cell is appended to the output
file as one JSON line at once; a sweep run again with the same output file
skips the cells it finds there, so an interrupted sweep resumes where it
stopped.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..checking.loader import RuleSet
from ..checking.options import resolve_options
from ..core.errors import UsageError
from ..core.terminal import table_text
from . import results_file
from .parallel import simulate_many


def parse_grid(pairs: Sequence[str]) -> dict[str, list[str]]:
    """Return {option: [values]} from `NAME=V1,V2,...` arguments; a name given twice is an error."""
    grid: dict[str, list[str]] = {}
    for pair in pairs:
        name, sep, values = pair.partition("=")
        name = name.strip()
        if not sep or not name or not values.strip():
            raise UsageError(f"--option wants NAME=VALUE[,VALUE...], not {pair!r}")
        if name in grid:
            raise UsageError(f"--option {name} is given twice: list its values once, separated by commas")
        grid[name] = [v.strip() for v in values.split(",") if v.strip()]
    return grid


def cells(rules: RuleSet, grid: dict[str, list[str]], players: Sequence[int]) -> list[dict[str, Any]]:
    """Return every cell of the grid as {"options": {...}, "players": n}, options checked and typed."""
    out = []
    names = list(grid)
    for values in itertools.product(*(grid[n] for n in names)):
        options = resolve_options(rules, dict(zip(names, values)))
        chosen = {n: options[n] for n in names}
        for n in players:
            out.append({"options": chosen, "players": n})
    return out


def _key(cell: dict[str, Any], games: int, seed: int) -> str:
    return json.dumps([sorted(cell["options"].items()), cell["players"], games, seed])


# What a record must hold to be read back: the fields the sweep, its table and its plot use, with their types.
_NUMBER = (int, float)
_RECORD_FIELDS: dict[str, type] = {
    "rules_hash": str,
    "options": dict,
    "players": int,
    "games": int,
    "seed": int,
    "summary": dict,
}
_KIND_NAMES = {str: "a text", int: "a whole number", dict: "an object"}
_SUMMARY_FIELDS: dict[tuple[str, ...], type | tuple[type, ...]] = {
    ("games",): int,
    ("turns_per_game", "mean"): _NUMBER,
    ("wins_by_seat",): list,
    ("final_wealth", "mean_gini"): _NUMBER,
    ("prosperity_rate",): _NUMBER,
    ("end_reasons",): dict,
    ("money_conserved_in_all_games",): bool,
    ("warnings",): list,
}


def _record_problem(record: Any) -> str | None:
    """Return what makes a decoded line not a sweep record (a field missing or of the wrong type), or None."""
    if not isinstance(record, dict):
        return "it is not a JSON object"
    for field, kind in _RECORD_FIELDS.items():
        if not isinstance(record.get(field), kind) or isinstance(record.get(field), bool) is not (kind is bool):
            return f"its '{field}' is missing or not {_KIND_NAMES[kind]}"
    if not all(isinstance(v, (bool, int, str)) for v in record["options"].values()):
        return "its 'options' are not all true/false, whole numbers or texts"
    for path, wanted in _SUMMARY_FIELDS.items():
        value: Any = record["summary"]
        for step in path:
            value = value.get(step) if isinstance(value, dict) else None
        if not isinstance(value, wanted) or (isinstance(value, bool) and wanted is not bool):
            return f"its summary's '{'.'.join(path)}' is missing or of the wrong type"
    if not all(isinstance(v, _NUMBER) for v in record["summary"]["wins_by_seat"]):
        return "its summary's 'wins_by_seat' are not all numbers"
    return None


def read_records(output: Path) -> list[dict[str, Any]]:
    """Return the records in a sweep's --out file (none if it does not exist yet); a damaged one raises UsageError.

    A last line cut short is cut off the file, so the sweep appends after the
    last whole record and plays that cell again (results_file.read_records)."""
    return results_file.read_records(output, "sweep", _record_problem)


def run_sweep(
    rules: RuleSet,
    grid: dict[str, list[str]],
    players: Sequence[int],
    games: int,
    seed: int = 0,
    jobs: int | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    output: Path | None = None,
    progress: Callable[[int, int, dict[str, Any], bool], None] | None = None,
    bot_reserve: int | None = None,
    seats: Sequence[str] | None = None,
) -> list[dict[str, Any]]:
    """Simulate every cell of the grid; return one record per cell: options, players, games, seed, summary.

    With `output`, cells already recorded there (same rules, options, players,
    games and seed) are read back instead of played, and each newly played cell
    is appended as it finishes. `progress(i, n, cell, reused)` is called per cell.
    The bots keep back `bot_reserve` (None: each cell's agents.default_reserve). `seats` names the
    players, one spec a seat (agents.seats: `mcts:50,bot,bot,bot`), for every cell; its number of seats
    is then every cell's number of players.
    """
    table = list(seats) if seats else None
    done: dict[str, dict[str, Any]] = {}
    for record in read_records(output) if output is not None else []:
        if (
            record["rules_hash"] == rules.rules_hash
            and record.get("bot_reserve") == bot_reserve
            and record.get("seats") == table
        ):
            done[_key(record, record["games"], record["seed"])] = record
    grid_cells = cells(rules, grid, players)
    records = []
    for i, cell in enumerate(grid_cells):
        key = _key(cell, games, seed)
        if key in done:
            records.append(done[key])
            if progress is not None:
                progress(i + 1, len(grid_cells), cell, True)
            continue
        summary = simulate_many(
            rules,
            games,
            cell["players"],
            seed,
            cell["options"],
            jobs,
            backend,
            scheduler,
            bot_reserve=bot_reserve,
            seats=tuple(table) if table else None,
        )
        record = {
            "edition": rules.name,
            "rules_hash": rules.rules_hash,
            "options": cell["options"],
            "players": cell["players"],
            "games": games,
            "seed": seed,
            **({"bot_reserve": bot_reserve} if bot_reserve is not None else {}),
            **({"seats": table} if table else {}),
            "summary": summary.result(),
        }
        if output is not None:
            results_file.append_record(output, record)
        records.append(record)
        if progress is not None:
            progress(i + 1, len(grid_cells), cell, False)
    return records


def option_text(value: Any) -> str:
    """Return an option's value as the .lg text writes it (`true`/`false`, as everywhere else), not Python's."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


COLUMNS = (
    ("turns", lambda s: f"{s['turns_per_game']['mean']:.1f}"),
    ("seat 1 wins", lambda s: f"{100 * s['wins_by_seat'][0] / s['games']:.1f}%"),
    ("mean Gini", lambda s: f"{s['final_wealth']['mean_gini']:.3f}"),
    ("prosperity", lambda s: f"{100 * s['prosperity_rate']:.1f}%"),
    ("ended by", lambda s: ", ".join(f"{k}: {v}" for k, v in sorted(s["end_reasons"].items()))),
)


def render_table(records: Sequence[dict[str, Any]], colour: bool = False) -> str:
    """Return the sweep as a table for the terminal, one row per cell (drawn by rich when `colour`)."""
    option_names = list(records[0]["options"]) if records else []
    header = option_names + ["players"] + [name for name, _ in COLUMNS]
    rows = [
        [option_text(r["options"][n]) for n in option_names]
        + [str(r["players"])]
        + [cell(r["summary"]) for _, cell in COLUMNS]
        for r in records
    ]
    return table_text(header, rows, colour)
