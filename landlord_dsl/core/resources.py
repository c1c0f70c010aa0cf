"""Locating the files that ship with landlord-dsl (the grammar and editions), with an error when one is missing.

installation.py knows the two layouts (an installed wheel, a source checkout).
"""

from __future__ import annotations

from pathlib import Path

from .errors import Diagnostic, LandlordError, RuleSourceError, UsageError, did_you_mean
from .installation import PACKAGE_DIR, SOURCE_ROOT, editions_root, first_existing


def grammar_path() -> Path:
    """Return the path of landlord.lark."""
    found = first_existing(
        PACKAGE_DIR / "grammar" / "landlord.lark",
        SOURCE_ROOT / "grammar" / "landlord.lark",
    )
    if found is None:
        raise LandlordError("the grammar file landlord.lark is missing from this installation")
    return found


def editions_dir() -> Path:
    """Return the directory holding the shipped editions and variants."""
    found = editions_root()
    if found is None:
        raise LandlordError("the editions directory is missing from this installation")
    return found


def shipped_files() -> dict[str, Path]:
    """Return every shipped .lg file by name (its file name without .lg)."""
    return {path.stem: path for path in sorted(editions_dir().rglob("*.lg"))}


def resolve(name_or_path: str) -> Path:
    """Return the .lg file a user means: a path ending in .lg, or a shipped name."""
    path = Path(name_or_path)
    if path.suffix == ".lg":
        try:
            if path.is_file():
                return path
            if path.is_dir():
                raise RuleSourceError(f"{name_or_path} is a directory, not a .lg file")
        except OSError:  # a name too long to be a path, say
            pass
        raise UsageError(f"no such file: {name_or_path}")
    shipped = shipped_files()
    if name_or_path in shipped:
        return shipped[name_or_path]
    raise UsageError([Diagnostic(f"unknown edition or variant '{name_or_path}'", hint=_closest_shipped(name_or_path))])


def _closest_shipped(name: str) -> str:
    """Return the hint for an unknown shipped name: the editions whose names it begins, else such variants, else
    the closest name.

    `monopoly-1933` begins the edition's name and each of its variants'; the
    edition is what is meant first.
    """
    shipped = shipped_files()
    editions = [n for n, path in shipped.items() if path.parent == editions_dir()]
    for among in (editions, list(shipped)):
        begun = [n for n in among if n.startswith(name)]
        if begun:
            shown = " or ".join(f"'{n}'" for n in begun[:3]) + (" ..." if len(begun) > 3 else "")
            return f"did you mean {shown}? (`landlord-dsl list` shows every edition and variant)"
    return (
        did_you_mean(name, editions)
        or did_you_mean(name, shipped)
        or "run `landlord-dsl list` to see the shipped editions"
    )
