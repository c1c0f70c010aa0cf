"""Issue 31: `landlord-dsl --help` starts in about the time Python does, because it imports neither the
parser of .lg files, the checker, the compiler nor the engine (nor attrs, which their records are made
with); each command loads what it needs when it runs, and its arguments are the same either way."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from landlord_dsl.cli.main import _COMMANDS, build_parser

ROOT = Path(__file__).resolve().parents[1]

# what the parser, checker, compiler and engine are made of; none is needed to print the help
HEAVY = ("lark", "attr", "attrs", "cattrs", "landlord_dsl.language", "landlord_dsl.checking", "landlord_dsl.engine")


def _modules_after(argv: list[str]) -> tuple[int, list[str], str]:
    """Return the exit status, the modules loaded and the output of `landlord-dsl ARGV` in a fresh Python."""
    code = (
        "import io, json, sys\n"
        "from landlord_dsl.cli.main import main\n"
        "out = io.StringIO()\n"
        "try:\n"
        f"    status = main({argv!r}, out)\n"
        "except SystemExit as stop:\n"
        "    status = stop.code\n"
        "sys.__stdout__.write('\\n' + json.dumps([status, sorted(sys.modules)]) + '\\n')\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    text, last = done.stdout.rstrip("\n").rsplit("\n", 1)  # (argparse prints the help itself, first)
    status, modules = json.loads(last)
    return status, modules, text


def test_help_imports_no_parser_checker_compiler_engine_or_attrs():
    status, modules, text = _modules_after(["--help"])
    assert status == 0 and "COMMAND" in text
    assert [m for m in modules if m.split(".")[0] in HEAVY or m.startswith(HEAVY)] == []


def test_a_commands_help_adds_only_its_own_arguments_and_still_lists_them():
    """`play --help` lists play's arguments, added once play is chosen, without loading the engine."""
    status, modules, text = _modules_after(["play", "--help"])
    assert status == 0 and "--seats" in text and "--turn-limit" in text
    assert "landlord_dsl.engine" not in modules and "lark" not in modules


def test_the_lazy_parser_reads_every_command_line_as_the_full_one():
    """Each command's sub-parser, its arguments added when chosen, has the same options and defaults as
    the parser built whole."""
    whole = next(a for a in build_parser()._actions if a.dest == "command").choices
    for command in _COMMANDS:
        full = whole[command.name]
        argv = [command.name]
        for action in full._actions:  # the least the command takes: its positionals, its required options
            if not action.option_strings and action.nargs != "?":
                argv.append("x")
            elif action.required:
                argv += [action.option_strings[0], "x"]
        lazy = build_parser(lazy=True)
        args = lazy.parse_args(argv)
        assert args == full.parse_args(argv[1:], argparse.Namespace(command=command.name)), command.name
        got = next(a for a in lazy._actions if a.dest == "command").choices[command.name]
        assert [(a.option_strings, a.dest, a.default) for a in got._actions] == [
            (a.option_strings, a.dest, a.default) for a in full._actions
        ], command.name
