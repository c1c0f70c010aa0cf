"""CLI stage: what the commands share: `--option` pairs, reading a rule file or standard input, the player count."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..core.errors import UsageError

if TYPE_CHECKING:
    from ..program.compiled import Program


def _parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise UsageError(f"--option wants NAME=VALUE, not {pair!r}")
        name, value = pair.split("=", 1)
        if name.strip() in options:
            raise UsageError(f"--option {name.strip()} is given twice")
        options[name.strip()] = value.strip()
    return options


def _read(target: str) -> tuple[str, str]:
    from ..language.sourcefile import read_source, read_stream

    if target == "-":
        return read_stream(sys.stdin, "<stdin>"), "<stdin>"
    return read_source(target), target


def default_players(program: Program) -> int:
    """Return four players, or the nearest number the edition allows."""
    low, high = program.players
    return min(max(4, low), high)


def at_least(low: int) -> Callable[[str], int]:
    """Return an argparse type: a whole number no smaller than `low`."""

    def number(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        return value

    return number
