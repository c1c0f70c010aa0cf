"""Where this installation keeps the files that ship with it, and how those files are named to users.

An installed wheel carries the grammar and the editions inside the package
(`landlord_dsl/grammar`, `landlord_dsl/editions`); a source checkout keeps
them at the top level of the repository. Both layouts are looked up, the
installed one first. Nothing here raises: resources.py reports what is missing.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent.parent  # landlord_dsl/, this file being in landlord_dsl/core
SOURCE_ROOT = PACKAGE_DIR.parent


def first_existing(*candidates: Path) -> Path | None:
    """Return the first of the paths that exists, or None."""
    for candidate in candidates:
        if candidate.exists():
            return candidate
    return None


def editions_root() -> Path | None:
    """Return the directory holding the shipped editions and variants, or None if it is missing."""
    return first_existing(PACKAGE_DIR / "editions", SOURCE_ROOT / "editions")


def shown_name(file: str) -> str:
    """Return how a source file is named to users: a shipped file by its file name alone, any other as given.

    Where the package is installed (a site-packages path) is nothing the reader
    can use: `landlord-dsl show NAME` and the docs know the shipped files by name.
    """
    try:
        path = Path(file)
        root = editions_root()
        if root is not None and path.is_absolute() and path.is_relative_to(root):
            return path.name
    except (OSError, ValueError):
        pass
    return file
