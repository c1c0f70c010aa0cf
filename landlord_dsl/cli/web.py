"""What the Play page's Web Worker calls (docs/play-in-browser.md): one entry, `call`, JSON in and JSON out.

The page runs the package under Pyodide in a worker and hands each request over as an operation name and
a JSON text; `call` answers with a JSON text, `{"ok": true, "result": ...}` or `{"ok": false, "error":
TEXT}` (a LandlordError rendered as the CLI renders it). The operations:

* `editions`: every shipped edition and variant, with its title; `options`: the options one declares;
* `start`: a new game (`PlaySession`) of a shipped name or of a pasted file, seats human or bot, seed and
  `--option` values; returns the board and what the game shows up to the first human request;
* `answer`: answers the pending human request; `log`: the game's log file, which `landlord-dsl replay`
  verifies;
* `check`, `simulate`: the CLI's own `check FILE` and `simulate ... --json`, run in the page, their exit
  status and output exactly as a terminal shows them.

A pasted file is written into the worker's own folder (`FILES`) under the name the page gives it, so that
its diagnostics name it as `landlord-dsl check NAME` does.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..checking.loader import RuleSet, load
from ..core.errors import LandlordError, UsageError, visible
from ..core.resources import shipped_files
from ..language.parser import header_title
from ..language.sourcefile import read_source
from ..presentation.play_session import PlaySession, option_fields
from .common import _parse_options

FILES = Path("/tmp/landlord-play")  # the worker's folder for pasted files (Pyodide's memory file system)
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,80}\.lg$")

_session: PlaySession | None = None
_loaded: dict[str, RuleSet] = {}  # shipped editions loaded so far, by name: choosing one then starting it loads it once


def call(op: str, args: str) -> str:
    """Run one operation of the page with its JSON arguments; return the JSON answer (never raises for a
    LandlordError: its rendering is the answer's `error`)."""
    try:
        result = _OPERATIONS[op](**json.loads(args))
    except LandlordError as err:
        return json.dumps({"ok": False, "error": err.render()})
    return json.dumps({"ok": True, "result": result})


def editions() -> list[dict[str, str]]:
    """Return every shipped edition and variant: its name and title."""
    return [
        {"name": name, "title": visible(header_title(read_source(path)) or "")}
        for name, path in shipped_files().items()
    ]


def _rules(edition: str) -> RuleSet:
    """Return the checked rules of a shipped edition (kept), or of a file (read afresh)."""
    if edition.endswith(".lg"):
        return load(edition)
    if edition not in _loaded:
        _loaded[edition] = load(edition)
    return _loaded[edition]


def options(edition: str) -> list[dict[str, Any]]:
    """Return the options an edition declares, for the page's form: each one's name, label, default and,
    for a choice, its values (None for a number or a flag, told apart by the default's type)."""
    return option_fields(_rules(edition))


def _pasted(filename: str, text: str) -> str:
    """Write a pasted file into FILES under `filename`; return the relative name the CLI is given
    (the worker's current folder is FILES)."""
    if not _NAME.match(filename):
        raise UsageError(f"a file name is letters, digits, '.', '_' or '-', ending in .lg, not {filename!r}")
    FILES.mkdir(parents=True, exist_ok=True)
    os.chdir(FILES)
    (FILES / filename).write_text(text, encoding="utf-8")
    return filename


def start(
    edition: str,
    kinds: list[str],
    seed: int,
    options: list[str] | None = None,
    text: str | None = None,
    filename: str | None = None,
) -> dict[str, Any]:
    """Start a game; return its `board` (PlaySession.board) and what it shows first (`shown`,
    PlaySession.advance). With `text`, the game is of that file, written as `filename`."""
    global _session
    if text is not None:
        edition = _pasted(filename or "variant.lg", text)
    session = PlaySession(_rules(edition), edition, kinds, seed, _parse_options(options or []))
    _session = session
    return {"board": session.board(), "shown": session.advance()}


def _current() -> PlaySession:
    if _session is None:
        raise UsageError("no game has started")
    return _session


def answer(action: int | None) -> dict[str, Any]:
    """Answer the pending human request; return what the game shows next (PlaySession.answer)."""
    return _current().answer(action)


def log() -> str:
    """Return the game's log file (text)."""
    return _current().log()


def _cli(*argv: str) -> dict[str, Any]:
    """Run the CLI; return its exit status and what it wrote on stdout and stderr."""
    from .main import main  # (the whole command line: only when asked for, not while the page loads)

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        status = main(list(argv), out)
    return {"status": status, "stdout": out.getvalue(), "stderr": err.getvalue()}


def check(filename: str, text: str) -> dict[str, Any]:
    """Return what `landlord-dsl check FILENAME` prints for the pasted `text` (status, stdout, stderr)."""
    return _cli("check", _pasted(filename, text))


def simulate(
    edition: str,
    games: int,
    seed: int,
    players: int | None = None,
    options: list[str] | None = None,
    text: str | None = None,
    filename: str | None = None,
) -> dict[str, Any]:
    """Return what `landlord-dsl simulate EDITION --games N --seed S --json` prints (one process)."""
    if text is not None:
        edition = _pasted(filename or "variant.lg", text)
    argv = ["simulate", edition, "--games", str(games), "--seed", str(seed), "--json", "--jobs", "1", "--no-progress"]
    if players is not None:
        argv += ["--players", str(players)]
    for option in options or []:
        argv += ["--option", option]
    return _cli(*argv)


_OPERATIONS: dict[str, Callable[..., Any]] = {
    "editions": editions,
    "options": options,
    "start": start,
    "answer": answer,
    "log": log,
    "check": check,
    "simulate": simulate,
}
