"""CLI stage: what the commands share: `--option` pairs, reading a rule file or standard input, the player count."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..checking.loader import RuleSet
    from ..program.compiled import Program


def _parse_options(pairs: Sequence[str], flag: str = "--option") -> dict[str, Any]:
    from ..core.errors import UsageError  # (here: `landlord-dsl --help` imports this module, not the errors)

    options: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise UsageError(f"{flag} wants NAME=VALUE, not {pair!r}")
        name, value = pair.split("=", 1)
        if name.strip() in options:
            raise UsageError(f"{flag} {name.strip()} is given twice")
        options[name.strip()] = value.strip()
    return options


def set_argument(p: argparse.ArgumentParser) -> None:
    """Add `--set CONST=VALUE` (repeatable): a constant of the rules set for this run."""
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="CONST=VALUE",
        help="set a constant of the rules (repeatable), as a variant restating it would",
    )


def native_argument(p: argparse.ArgumentParser) -> None:
    """Add `--native`: run the rules as a C extension (compiling/native.py) in this command's games."""
    p.add_argument(
        "--native",
        action="store_true",
        help="run the rules natively, as a C extension built once with Cython and cached (the native extra); "
        "the same games; pure Python, with a warning, where it cannot be built",
    )


@contextlib.contextmanager
def native_default(args: argparse.Namespace) -> Iterator[None]:
    """Within the block, with `--native`, compile rules natively where the caller does not say (the
    LANDLORD_NATIVE environment variable, which the command's worker processes inherit too), and show a
    native build's warning as one line on stderr."""
    if not getattr(args, "native", False):
        yield
        return
    from ..compiling.native import NATIVE_ENV, NativeBuildWarning

    saved = os.environ.get(NATIVE_ENV)
    if saved != "require":
        os.environ[NATIVE_ENV] = "1"
    shown = warnings.showwarning

    def show(message: Any, category: type[Warning], *rest: Any, **named: Any) -> None:
        if issubclass(category, NativeBuildWarning):
            sys.stderr.write(f"landlord-dsl: warning: {message}\n")
        else:
            shown(message, category, *rest, **named)

    try:
        with warnings.catch_warnings():
            warnings.showwarning = show
            yield
    finally:
        if saved is None:
            os.environ.pop(NATIVE_ENV, None)
        else:
            os.environ[NATIVE_ENV] = saved


def load_rules(target: str, sets: Sequence[str] = ()) -> RuleSet:
    """Return the checked rules a command names, with the constants `--set` gives (checking.constants); raise the
    error of a constant that cannot be set, or of a value the rules cannot take, saying it came from `--set`."""
    import attrs

    from ..checking.constants import with_constants
    from ..checking.loader import load
    from ..core.errors import LandlordError

    rules, chosen = load(target), _parse_options(sets, "--set")
    try:
        return with_constants(rules, chosen)
    except LandlordError as err:  # the rules checked without them: the library's words name no flag, but here
        said = [attrs.evolve(d, message=f"--set: {d.message}") if d.severity == "error" else d for d in err.diagnostics]
        raise type(err)(said) from None


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
