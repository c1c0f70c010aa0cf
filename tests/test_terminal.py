"""Colour and progress through rich, plain text without it, and never an escape code under NO_COLOR or
off a terminal (issue 18, item 15)."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from landlord_dsl.core import terminal

needs_pty = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")


class _Terminal(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def _run_on_a_terminal(argv: list[str], **env: str) -> str:
    """Return what a landlord-dsl command writes to a pseudo-terminal (stdout and stderr both), as text."""
    exe = shutil.which("landlord-dsl")
    assert exe is not None, "the landlord-dsl console script is not installed"
    primary, secondary = os.openpty()
    environment = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    proc = subprocess.Popen(
        [exe, *argv],
        stdin=subprocess.DEVNULL,
        stdout=secondary,
        stderr=secondary,
        env={**environment, "TERM": "xterm", "COLUMNS": "100", **env},
    )
    os.close(secondary)
    seen = bytearray()
    try:
        while True:
            try:
                chunk = os.read(primary, 65536)
            except OSError:  # the command ended and closed the terminal
                break
            if not chunk:
                break
            seen.extend(chunk)
        assert proc.wait(timeout=120) in (0, 1), seen.decode()
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(primary)
    return seen.decode()


def test_colour_only_on_a_terminal_and_never_under_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert terminal.colour_wanted(_Terminal()) and not terminal.colour_wanted(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not terminal.colour_wanted(_Terminal())
    assert terminal.colour_wanted(io.StringIO(), "always") and not terminal.colour_wanted(_Terminal(), "never")


def test_paint_is_rich_styles_or_the_text_itself(monkeypatch):
    assert terminal.painter(False)("added", "green") == "added"
    assert terminal.painter(True)("added", "green") == "\x1b[32madded\x1b[0m"
    assert terminal.painter(True)("Lots", "bold") == "\x1b[1mLots\x1b[0m"
    monkeypatch.setattr(terminal, "rich_installed", lambda: False)  # rich missing: plain text, no error
    assert terminal.painter(True)("added", "green") == "added"


def test_progress_is_rich_plain_or_nothing(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    with terminal.progress(io.StringIO(), "games") as shown:
        assert shown is None  # not a terminal: nothing drawn
    with terminal.progress(_Terminal(), "games", enabled=False) as shown:
        assert shown is None
    screen = _Terminal()
    with terminal.progress(screen, "games") as shown:
        assert shown is not None
        shown(5, 10)
        shown(10, 10)
    assert "10/10" in screen.getvalue() and "games" in screen.getvalue()
    monkeypatch.setattr(terminal, "rich_installed", lambda: False)
    screen = _Terminal()
    with terminal.progress(screen, "games") as shown:
        assert shown is not None
        shown(10, 20)
        shown(20, 20)
    assert screen.getvalue() == (f"\r  [{'#' * 15}{'.' * 15}] 10/20 games\r  [{'#' * 30}] 20/20 games\n")


@needs_pty
def test_simulate_on_a_terminal_draws_a_rich_bar_and_a_plain_one_under_no_color():
    argv = ["simulate", "landlords-game-1904", "--games", "12", "--jobs", "1"]
    drawn = _run_on_a_terminal(argv)
    assert "12/12" in drawn and "games" in drawn and "\x1b[" in drawn and "\u2501" in drawn  # rich's bar
    plain = _run_on_a_terminal(argv, NO_COLOR="1")
    assert "\x1b" not in plain
    assert f"[{'#' * 30}] 12/12 games" in plain


def test_simulate_off_a_terminal_shows_no_progress_and_no_escape_codes():
    exe = shutil.which("landlord-dsl")
    assert exe is not None
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    proc = subprocess.run(
        [exe, "simulate", "landlords-game-1904", "--games", "5", "--jobs", "1"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    assert proc.stderr == "" and "\x1b" not in proc.stdout and "5 games" in proc.stdout


@needs_pty
def test_diff_colours_a_terminal_but_not_under_no_color():
    argv = ["diff", "landlords-game-1904", "landlords-game-1904-without-lot-tickets"]
    assert "\x1b[32m" in _run_on_a_terminal(argv) or "\x1b[33m" in _run_on_a_terminal(argv)
    assert "\x1b" not in _run_on_a_terminal(argv, NO_COLOR="1")


@needs_pty
def test_diff_outcomes_shows_its_progress_on_a_terminal():
    argv = ["diff", "landlords-game-1904", "landlords-game-1904-without-lot-tickets", "--outcomes", "3"]
    assert f"[{'#' * 30}] 6/6 paired games" in _run_on_a_terminal(argv, NO_COLOR="1")


def test_a_table_is_drawn_by_rich_with_colour_and_plain_without(monkeypatch):
    header, rows = ["option", "players"], [["a", "2"], ["a longer value", "4"]]
    plain = terminal.table_text(header, rows, colour=False)
    assert plain.splitlines() == [
        "option          players",
        "--------------  -------",
        "a               2",
        "a longer value  4",
    ]
    swapped = terminal.table_text(["players", "option"], [["2", "a"], ["4", "a longer value"]], colour=False)
    assert swapped.splitlines()[2] == "2        a"  # no spaces after the last column's value
    assert "\x1b" not in plain
    drawn = terminal.table_text(header, rows, colour=True)
    assert "\x1b[1m" in drawn and "\u2503" in drawn and "a longer value" in drawn  # bold header, rich's rules
    monkeypatch.setattr(terminal, "rich_installed", lambda: False)
    assert terminal.table_text(header, rows, colour=True) == plain


@needs_pty
def test_sweep_draws_its_table_with_rich_on_a_terminal_and_plain_under_no_color():
    argv = ["sweep", "landlords-game-1904", "--players", "2,3", "--games", "2", "--jobs", "1", "--no-progress"]
    drawn = _run_on_a_terminal(argv)
    assert "\u2503" in drawn and "\x1b[" in drawn and "seat 1 wins" in drawn
    plain = _run_on_a_terminal(argv, NO_COLOR="1")
    assert "\x1b" not in plain and "\u2503" not in plain and "players  turns" in plain


def test_analyze_shows_its_stages_on_a_terminal_and_nothing_elsewhere(monkeypatch):
    """`analyze` was silent for 9-15 s on a terminal (issue 27): it now says which stage runs, on one line
    cleared at the end, and writes nothing when standard error is not a terminal or with --no-progress."""
    pytest.importorskip("numpy")
    from landlord_dsl.cli.main import main

    ring = str(Path(__file__).resolve().parent / "data" / "analysis-ring.lg")
    for stream, argv, shown in (
        (_Terminal(), [], True),
        (_Terminal(), ["--no-progress"], False),
        (io.StringIO(), [], False),
    ):
        monkeypatch.setattr("sys.stderr", stream)
        assert main(["analyze", ring, "--no-rents", *argv], out=io.StringIO()) == 0
        written = stream.getvalue()
        if shown:
            assert "analyze: following every throw from every state..." in written
            assert "analyze: solving the chain of" in written and written.endswith("\r\x1b[K")
        else:
            assert written == ""
