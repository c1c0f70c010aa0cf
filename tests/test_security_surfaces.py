"""Security and "nothing lost" on the newer surfaces (issue 35): replay pages, logs, output files, analyze, sweep files.

Each test names the issue item it guards; it failed on the code before that item's fix.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from landlord_dsl.cli import main

ROOT = Path(__file__).resolve().parents[1]
EDITION_1906 = ROOT / "editions" / "landlords-game-1906.lg"


def run(*argv: str) -> tuple[int, str]:
    """Run the CLI in this process; return (exit status, standard output)."""
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


# ------------------------------------------ item 15: old Mac line endings


@pytest.mark.parametrize("ending", ["\r", "\r\n"])
def test_a_rule_file_with_cr_or_crlf_line_endings_checks(tmp_path, capsys, ending):
    """Item 15: a file with CR-only line endings (old Mac OS) read as one line, ended by its first comment."""
    path = tmp_path / "old-mac.lg"
    path.write_bytes(EDITION_1906.read_bytes().replace(b"\n", ending.encode()))
    assert run("check", str(path)) == (0, f"{path}: ok\n")


def test_a_located_error_in_a_cr_only_file_names_its_own_line(tmp_path, capsys):
    path = tmp_path / "old-mac.lg"
    path.write_bytes(b'edition "x" { players 2 to 4 }\r# a comment\rkind plain { }\rboard { space a "A" : plane }\r')
    assert run("check", str(path))[0] == 1
    assert f"{path}:4:" in capsys.readouterr().err
