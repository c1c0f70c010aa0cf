"""Locating the files that ship with landlord-dsl: the grammar and editions.

An installed wheel carries them inside the package (`landlord_dsl/grammar`,
`landlord_dsl/editions`); a source checkout keeps them at the top level of the
repository. Both layouts are looked up, the installed one first.
"""

from __future__ import annotations

from pathlib import Path

from .errors import Diagnostic, LandlordError, did_you_mean

_PACKAGE_DIR = Path(__file__).resolve().parent
_SOURCE_ROOT = _PACKAGE_DIR.parent


def _first_existing(*candidates: Path) -> Path | None:
    for candidate in candidates:
        if candidate.exists():
            return candidate
    return None


def grammar_path() -> Path:
    """Return the path of landlord.lark."""
    found = _first_existing(
        _PACKAGE_DIR / "grammar" / "landlord.lark",
        _SOURCE_ROOT / "grammar" / "landlord.lark",
    )
    if found is None:
        raise LandlordError("the grammar file landlord.lark is missing from this installation")
    return found


def editions_dir() -> Path:
    """Return the directory holding the shipped editions and variants."""
    found = _first_existing(_PACKAGE_DIR / "editions", _SOURCE_ROOT / "editions")
    if found is None:
        raise LandlordError("the editions directory is missing from this installation")
    return found


def shipped_files() -> dict[str, Path]:
    """Return every shipped .lg file by name (its file name without .lg)."""
    return {path.stem: path for path in sorted(editions_dir().rglob("*.lg"))}


def decode_source(data: bytes, name: str) -> str:
    """Return the text of a .lg file's bytes; UTF-16, binary data or other non-UTF-8 bytes raise LandlordError.

    A UTF-8 byte-order mark is dropped: some editors write one.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or (len(data) >= 2 and b"\x00" in data[:2] and data[:2] != b"\x00\x00"):
        raise LandlordError([Diagnostic(f"{name} is UTF-16 text; landlord-dsl reads UTF-8",
                                        hint="save it as UTF-8")])
    if b"\x00" in data:
        raise LandlordError([Diagnostic(f"{name} is not a text file (it holds binary data)",
                                        hint="a rule file is UTF-8 text")])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[:err.start].count(b"\n") + 1
        raise LandlordError([Diagnostic(f"{name} is not UTF-8 text: byte 0x{data[err.start]:02x} on line {line}",
                                        hint="save it as UTF-8")]) from None
    return text.removeprefix("\ufeff")


def read_source(path: Path) -> str:
    """Return the text of a .lg file; a directory, an unreadable file or one that is not UTF-8 text raise LandlordError."""
    if path.is_dir():
        raise LandlordError(f"{path} is a directory, not a .lg file")
    try:
        data = path.read_bytes()
    except OSError as err:
        raise LandlordError(f"cannot read {path}: {err.strerror or err}") from None
    return decode_source(data, str(path))


def resolve(name_or_path: str) -> Path:
    """Return the .lg file a user means: a path ending in .lg, or a shipped name."""
    path = Path(name_or_path)
    if path.suffix == ".lg":
        try:
            if path.is_file():
                return path
            if path.is_dir():
                raise LandlordError(f"{name_or_path} is a directory, not a .lg file")
        except OSError:  # a name too long to be a path, say
            pass
        raise LandlordError(f"no such file: {name_or_path}")
    shipped = shipped_files()
    if name_or_path in shipped:
        return shipped[name_or_path]
    hint = did_you_mean(name_or_path, shipped) or "run `landlord-dsl list` to see the shipped editions"
    raise LandlordError([Diagnostic(f"unknown edition or variant '{name_or_path}'", hint=hint)])
