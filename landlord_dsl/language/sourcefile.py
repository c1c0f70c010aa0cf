"""Reading .lg source from files and streams, and writing files so that nothing is lost.

A rule file is UTF-8 text of at most MAX_SOURCE_BYTES. Anything else (a file
too large, or an endless one like /dev/zero; a byte-order mark; UTF-16; binary
data; bytes that are not UTF-8) is refused with a LandlordError that says which
of these it is, before any of it is parsed. Files are rewritten by writing a
temporary file beside them and renaming it over the original, so a failed
write leaves the original as it was.
"""

from __future__ import annotations

import codecs
import os
import tempfile
from pathlib import Path
from typing import BinaryIO, TextIO

from ..core.errors import Diagnostic, LandlordError, OutputError, RuleSourceError, unreadable
from .ast import Span
from .limits import MAX_INPUT

MAX_SOURCE_BYTES = MAX_INPUT  # 1 MiB: twenty times the largest shipped edition (limits.py)
_UTF8_HINT = "landlord-dsl reads .lg files as UTF-8; save the file as UTF-8"


def _refuse(
    name: str, message: str, hint: str, line: int = 1, column: int = 1, line_text: str | None = None
) -> LandlordError:
    return RuleSourceError([Diagnostic(message, Span(name, line, column, line, column + 1), line_text, hint)])


def _too_large(name: str) -> LandlordError:
    return RuleSourceError(
        [
            Diagnostic(
                f"{name} is larger than {MAX_SOURCE_BYTES // (1 << 20)} MiB, "
                "the most landlord-dsl reads as a rule file",
                hint="a rule file is text of at most a few thousand lines; is this the right file?",
            )
        ]
    )


def _utf16_without_bom(data: bytes) -> bool:
    """Return True if the NUL bytes sit at every other position, as in ASCII text stored as UTF-16."""
    head = data[:256]
    evens, odds = head[0::2], head[1::2]
    return len(head) >= 4 and (odds.count(0) == len(odds) or evens.count(0) == len(evens))


def decode(data: bytes, name: str) -> str:
    """Return `data` decoded as the UTF-8 text of a rule file, or raise a LandlordError naming what it is instead."""
    if data.startswith(codecs.BOM_UTF8):
        raise _refuse(
            name,
            "the file starts with a UTF-8 byte-order mark (BOM)",
            "save it as UTF-8 without a BOM (most editors call it 'UTF-8', not 'UTF-8 with BOM')",
            line_text=_where(data[len(codecs.BOM_UTF8) :], 0)[2],  # (the mark is invisible: the caret is before line 1)
        )
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        raise _refuse(name, "the file is UTF-32 text", _UTF8_HINT)
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or (b"\0" in data and _utf16_without_bom(data)):
        raise _refuse(name, "the file is UTF-16 text", _UTF8_HINT + " (e.g. iconv -f UTF-16 -t UTF-8)")
    if b"\0" in data:
        line, column, _ = _where(data, data.index(b"\0"))
        raise _refuse(
            name, "the file is binary data, not a text file (it holds a NUL byte)", "give a .lg rule file", line, column
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line, column, line_text = _where(data, err.start)
        raise _refuse(
            name,
            f"the file is not UTF-8 text: byte 0x{data[err.start]:02x} cannot start or continue a character",
            _UTF8_HINT,
            line,
            column,
            line_text,
        ) from None
    # Universal newlines, as Python's text mode reads them: CRLF (Windows) and a lone CR (old Mac OS) end a line.
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _where(data: bytes, at: int) -> tuple[int, int, str]:
    """Return the line, the column (in characters) and the text of the line holding byte offset `at`."""
    start = data.rfind(b"\n", 0, at) + 1
    end = data.find(b"\n", at)
    line_bytes = data[start : end if end >= 0 else len(data)]
    column = len(data[start:at].decode("utf-8", "replace")) + 1
    return data.count(b"\n", 0, at) + 1, column, line_bytes.decode("utf-8", "replace")


def read_source(path: str | Path) -> str:
    """Return the text of the rule file at `path`; raise LandlordError if it cannot be read or is not one."""
    name = str(path)
    if os.path.isdir(path):
        raise RuleSourceError(f"{name} is a directory, not a .lg file")
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_SOURCE_BYTES + 1)
    except OSError as err:
        raise unreadable(name, err) from None
    if len(data) > MAX_SOURCE_BYTES:
        raise _too_large(name)
    return decode(data, name)


def read_stream(stream: TextIO | BinaryIO, name: str) -> str:
    """Return the rule text on a stream (its bytes when it has them); raise LandlordError as read_source does."""
    raw = getattr(stream, "buffer", None)
    try:
        data = (raw or stream).read(MAX_SOURCE_BYTES + 1)
    except UnicodeDecodeError:
        raise RuleSourceError(f"{name} is not UTF-8 text") from None
    except OSError as err:
        raise unreadable(name, err) from None
    if isinstance(data, str):  # a stream without bytes underneath (a StringIO): the same checks on its text
        data = data.encode("utf-8", "surrogatepass")
    if len(data) > MAX_SOURCE_BYTES:
        raise _too_large(name)
    return decode(data, name)


def write_atomically(path: str | Path, text: str, what: str = "") -> None:
    """Replace the file at `path` with `text` (UTF-8) all at once; return nothing.

    On failure the file is left as it was and LandlordError is raised, saying "cannot write {what}{path}"."""
    path = Path(path)
    target = path.resolve()  # a symlinked file keeps its link: the file it points at is replaced
    try:
        try:
            mode = target.stat().st_mode & 0o7777
        except FileNotFoundError:  # a new file gets the permissions a plain open() would give it
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as err:
        raise OutputError(f"cannot write {what}{path}: {err.strerror or err}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(temp, mode)
        os.replace(temp, target)
    except OSError as err:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise OutputError(f"cannot write {what}{path}: {err.strerror or err}; the file was left as it was") from None
