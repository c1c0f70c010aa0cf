"""Locating the files that ship with landlord-dsl (the grammar and editions), with an error when one is missing.

installation.py knows the two layouts (an installed wheel, a source checkout).
"""

from __future__ import annotations

import os
from pathlib import Path

from .errors import Diagnostic, LandlordError, RuleSourceError, UsageError, did_you_mean, unreadable
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


def resolve(name_or_path: str, file_hints: bool = True) -> Path:
    """Return the .lg file a user means: a path ending in .lg, or a shipped name. `file_hints`: an unknown name's
    hint may say what file it almost names (False for a name from a rule file, which may not learn of files)."""
    path = Path(name_or_path)
    if path.suffix == ".lg":
        try:
            if path.is_file():
                return path
            if path.is_dir():
                raise RuleSourceError(f"{name_or_path} is a directory, not a .lg file")
        except OSError:  # a name too long to be a path, say
            pass
        raise unreadable(name_or_path)
    shipped = shipped_files()
    if name_or_path in shipped:
        return shipped[name_or_path]
    hint = _file_meant(name_or_path) if file_hints else _closest_shipped(name_or_path)
    raise UsageError([Diagnostic(f"unknown edition or variant '{name_or_path}'", hint=hint)])


def _file_meant(name: str) -> str:
    """Return the hint for a name that is neither a .lg path nor a shipped name: the file it names or almost
    names (a folder, a rule file without its .lg, or the same name with .lg), else the closest shipped name."""
    try:
        if os.path.isdir(name):
            return f"{name} is a folder; give a .lg file in it, or a shipped name (`landlord-dsl list`)"
        if os.path.isfile(name):
            return f"{name} is a file, but a rule file's name ends in .lg: rename it to {Path(name).with_suffix('.lg')}"
        if os.path.isfile(name + ".lg"):
            return f"did you mean the file '{name}.lg'?"
    except (OSError, ValueError):  # a name too long to be a path, or holding a NUL
        pass
    return _closest_shipped(name)


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
