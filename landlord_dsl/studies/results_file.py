"""A study's results file: one JSON record a line, appended as results come in, read back to resume.

`sweep --out` and `tournament --out` keep their results this way, so an
interrupted run resumes where it stopped. What both need of the file is
here: it must be a regular file of bounded size, a last line cut short (what
a full disk or a killed run leaves) is cut off so the run appends after the
last whole record, and every other line must be one of the study's records.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..core.errors import UsageError
from ..language.limits import MAX_LOG_INPUT


def read_records(path: Path, study: str, problem: Callable[[Any], str | None]) -> list[dict[str, Any]]:
    """Return the records of the results file `path` in order (none if it does not exist yet).

    `study` names the study in messages ("sweep", "tournament");
    `problem(record)` says why a decoded line is not one of its records
    ("its 'x' is missing"), or returns None. A damaged file, one that is not a regular file, or one
    larger than MAX_LOG_INPUT is a UsageError naming the file (and the line).
    """
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return []
    except OSError as err:
        raise UsageError(f"cannot read --out {path}: {err.strerror or err}") from None
    if not stat.S_ISREG(mode):
        what = "a directory" if stat.S_ISDIR(mode) else "not a regular file"
        raise UsageError(f"--out {path} is {what}: give the {study}'s own .jsonl file")
    try:
        with path.open("rb") as f:
            data = f.read(MAX_LOG_INPUT + 1)
    except OSError as err:
        raise UsageError(f"cannot read --out {path}: {err.strerror or err}") from None
    if len(data) > MAX_LOG_INPUT:
        raise UsageError(f"--out {path} is larger than {MAX_LOG_INPUT >> 20} MiB: not a {study}'s file")
    lines = data.split(b"\n")
    torn = lines.pop()  # after the last line end: empty in a whole file
    if torn:
        try:
            os.truncate(path, len(data) - len(torn))
        except OSError as err:
            raise UsageError(f"--out {path} ends in a line cut short that cannot be removed: {err.strerror}") from None
    records = []
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            record = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError:
            why: str | None = "it is not UTF-8 text"
        except (ValueError, RecursionError):
            why = "it is not JSON (or nested too deeply)"
        else:
            why = problem(record)
        if why is not None:
            raise UsageError(f"{path}:{number}: not a {study} record: {why}; use another --out file")
        records.append(record)
    return records


def append_record(path: Path, record: dict[str, Any]) -> None:
    """Append `record` to the results file `path` as one JSON line (keys sorted); return nothing."""
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(record, sort_keys=True) + "\n")
