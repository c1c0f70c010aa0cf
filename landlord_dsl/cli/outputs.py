"""CLI stage: the files a command writes when it is done (`play --log`, `--html`, `replay --html`, `--plot`, `--out`).

Nothing a user gave is lost through them (docs/security.md, "Nothing lost"):
an output may not be one of the command's inputs or another of its outputs
(`play mine.lg --log mine.lg` would replace the rule file with the log), its
name must have a suffix that fits what is written into it, and a file is
replaced all at once (written beside it, then renamed), so a failed write or
two commands writing the same log never leave half a file.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterable
from typing import TextIO

from ..core.errors import OutputError, UsageError

# What each kind of output may be called; a log may be called anything but a rule file or a page.
HTML_SUFFIXES = (".html", ".htm")
NOT_A_LOG = (".lg", *HTML_SUFFIXES)


def _special(path: str) -> bool:
    """Return True if `path` exists and is not a regular file or a folder: a device or a pipe, say /dev/stdout."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def _same_file(a: str, b: str) -> bool:
    """Return True if the paths `a` and `b` name one file (through links, or as one path if neither exists)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def input_files(*names: str | None) -> list[str]:
    """Return the files among command-line inputs: each part of `a.lg+b.lg`, skipping `-` and shipped edition names."""
    found: list[str] = []
    for name in names:
        if not name or name == "-":
            continue
        found.extend(part for part in [name, *name.split("+")] if part and os.path.isfile(part))
    return found


def refuse_clashes(inputs: Iterable[str], outputs: Iterable[tuple[str, str | None]]) -> None:
    """Raise UsageError if an output (flag, path) is one of the input files or the same file as an earlier output."""
    inputs = list(inputs)
    seen: list[tuple[str, str]] = []
    for flag, path in outputs:
        if not path:
            continue
        for name in inputs:
            if _same_file(path, name):
                which = "an input of this command" if path == name else f"the input {name}"
                raise UsageError(
                    f"{flag} {path} is {which}: writing it would replace that file; give another file name"
                )
        for other_flag, other in seen:
            if _same_file(path, other) and not _special(path):
                raise UsageError(f"{flag} and {other_flag} both name {path}: give each its own file")
        seen.append((flag, path))


def check_suffix(flag: str, path: str, wanted: tuple[str, ...] = (), refused: tuple[str, ...] = ()) -> None:
    """Raise UsageError if the file `path` given for `flag` lacks a `wanted` suffix or has a `refused` one.

    A device or pipe (`/dev/stdout`) is written as it is, whatever it is called."""
    if _special(path):
        return
    suffix = os.path.splitext(path)[1].lower()
    if wanted and suffix not in wanted:
        raise UsageError(f"{flag} {path} has the wrong suffix: the file it writes should end in {' or '.join(wanted)}")
    if suffix in refused:
        raise UsageError(f"{flag} {path} has the wrong suffix: {flag} does not write a {suffix} file")


class OutputFile:
    """A file a command writes when it is done, checked before the command starts so that a bad path costs no game.

    A regular file (or a new one) is replaced all at once when it is written;
    a device or pipe is opened now and written as it is.
    """

    def __init__(self, path: str, what: str):
        self.path, self.what = path, what
        self.stream: TextIO | None = None
        try:
            if _special(path):
                self.stream = open(path, "a", encoding="utf-8")  # noqa: SIM115 - kept open for the game
            elif os.path.isdir(path):
                raise IsADirectoryError(21, "Is a directory")
            else:  # a file that can be made in its folder can be renamed over the path later
                fd, probe = tempfile.mkstemp(prefix=".landlord-dsl-", dir=os.path.dirname(path) or ".")
                os.close(fd)
                os.unlink(probe)
        except OSError as err:
            raise UsageError(f"cannot write the {what} {path}: {err.strerror or err}") from None

    def write(self, text: str | None) -> None:
        """Replace the file's content with `text`; with None (no game began) leave it as it was; return nothing."""
        from ..language.sourcefile import write_atomically

        if self.stream is None:
            if text is not None:
                write_atomically(self.path, text, what=f"the {self.what} ")
            return
        try:
            if text is not None:
                self.stream.write(text)
            self.stream.close()
        except OSError as err:
            raise OutputError(f"cannot write the {self.what} {self.path}: {err.strerror or err}") from None
