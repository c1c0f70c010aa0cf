"""CLI stage: the commands about rule files: list, check, fmt, show, sources, board, diff and analyze."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TextIO

from ..core.errors import Diagnostic, LandlordError, UsageError, visible
from .common import _parse_options, _read, load_rules


def cmd_list(args: argparse.Namespace, out: TextIO) -> int:
    from ..core.resources import shipped_files
    from ..language.parser import header_title
    from ..language.sourcefile import read_source

    files = shipped_files()
    width = max((len(name) for name in files), default=0) + 2
    for name, path in files.items():
        out.write(f"{name:{width}}{visible(header_title(read_source(path)) or '')}\n")
    return 0


def cmd_check(args: argparse.Namespace, out: TextIO) -> int:
    from ..checking.loader import load, load_text, warnings_of
    from ..compiling.compiler import checked

    failed = 0
    for target in args.files:
        try:
            if target == "-":
                text, name = _read(target)
                ruleset = checked(load_text(text, name))
            else:
                ruleset = checked(load(target))
            warnings = warnings_of(ruleset, args.strict)
            for warning in warnings:
                sys.stderr.write(warning.render() + "\n")
            if args.strict and warnings:  # --strict holds the rules to what the shipped files meet
                failed += 1
                sys.stderr.write(f"{target}: {len(warnings)} warning{'s' if len(warnings) != 1 else ''} (--strict)\n")
            elif not args.quiet:
                out.write(f"{target}: ok\n")
        except LandlordError as err:
            failed += 1
            sys.stderr.write(err.render() + "\n")
            count = sum(1 for d in err.diagnostics if d.severity == "error")
            sys.stderr.write(f"{target}: {count} problem{'s' if count != 1 else ''}\n")
    return 1 if failed else 0


def cmd_fmt(args: argparse.Namespace, out: TextIO) -> int:
    from ..checking.loader import format_with_base
    from ..language.sourcefile import write_atomically

    changed = 0
    for target in args.files:
        _refuse_shipped_name(target)
        text, name = _read(target)
        formatted = format_with_base(text, name) if args.width is None else format_with_base(text, name, args.width)
        changed += formatted != text
        if args.diff:  # rewrites nothing, as --check
            out.write(visible(_unified_diff(text, formatted, name), keep="\n\t"))
        elif target == "-":
            out.write(formatted)
        elif formatted != text:
            if args.check:
                out.write(f"would reformat {target}\n")
            else:
                write_atomically(target, formatted)
                out.write(f"reformatted {target}\n")
    if args.check:
        return 1 if changed else 0
    return 0


def _refuse_shipped_name(target: str) -> None:
    """Raise UsageError if `target` is a shipped edition's name and no file: `fmt` rewrites files (it said only
    'cannot read NAME: No such file or directory'); return nothing."""
    from ..core.resources import shipped_files

    path = shipped_files().get(target)
    if path is not None and not os.path.exists(target):
        raise UsageError(
            [
                Diagnostic(
                    f"fmt rewrites .lg files, and '{target}' is the name of a shipped edition, not a file",
                    hint=f"its file is {path}; `landlord-dsl fmt --check {path}` checks its layout",
                )
            ]
        )


def _unified_diff(text: str, formatted: str, name: str) -> str:
    """Return the unified diff from a file's text to its canonical layout ('' if they are equal), as a/NAME, b/NAME."""
    import difflib

    lines = difflib.unified_diff(
        text.splitlines(keepends=True),
        formatted.splitlines(keepends=True),
        f"a/{name.lstrip('/')}",
        f"b/{name.lstrip('/')}",
    )
    # a last line without its newline is marked as diff and patch mark it
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def cmd_diff(args: argparse.Namespace, out: TextIO) -> int:
    from ..agents.seats import parse_seats
    from ..core.terminal import colour_wanted, progress
    from ..presentation.compare import diff, render_markdown, render_text, to_json
    from ..studies.outcomes import outcomes, render_outcomes
    from .studies import cmd_attribute

    if args.attribute:
        return cmd_attribute(args, out)
    if args.plot:
        raise UsageError("--plot draws the contributions of --attribute: give --attribute too")
    seats = [str(spec) for spec in parse_seats(args.seats)] if args.seats else None
    if seats and not args.outcomes:
        raise UsageError("--seats names the players of --outcomes: give --outcomes N too")
    a, b = load_rules(args.a, args.set), load_rules(args.b, args.set)
    changes = diff(a, b, sources=args.sources)
    result = None
    if args.outcomes:
        with progress(sys.stderr, "paired games") as shown:
            result = outcomes(a, b, args.outcomes, args.players, args.seed, progress=shown, seats=seats)
    if args.format == "json":
        out.write(json.dumps(to_json(changes, a.name, b.name, result), indent=2) + "\n")
    elif args.format == "markdown":
        out.write(visible(render_markdown(changes, a.name, b.name), keep="\n"))
        if result is not None:
            out.write("\n```text" + visible(render_outcomes(result, args.all), keep="\n") + "```\n")
    else:
        out.write(render_text(changes, a.name, b.name, colour_wanted(out, args.color)))
        if result is not None:
            out.write(visible(render_outcomes(result, args.all), keep="\n"))
    return 1 if changes else 0


def cmd_analyze(args: argparse.Namespace, out: TextIO) -> int:
    from ..core.terminal import stages
    from ..studies.analysis import analyze

    if args.plot:  # before the analysis runs, not after
        from ..presentation.plots import check_path, pyplot

        check_path(Path(args.plot))
        pyplot()
    buildings = None
    if args.buildings:
        name, _, top = args.buildings.partition(":")
        if not top.isdigit() or int(top) < 1:
            raise UsageError(f"--buildings wants VAR:TOP (e.g. houses:5), not {args.buildings!r}")
        buildings = (name, int(top))
    rules = load_rules(args.edition, args.set)
    with stages(sys.stderr, "analyze", not args.no_progress) as shown:
        result = analyze(
            rules,
            players=args.players,
            prefer=args.prefer,
            options=_parse_options(args.option),
            seed=args.seed,
            buildings=buildings,
            check_economy=not args.no_economy_check,
            rents=not args.no_rents,
            progress=shown,
        )
    if args.format == "json":
        out.write(json.dumps(result.to_json(), indent=2) + "\n")
    elif args.format == "markdown":
        out.write(result.render_markdown())
    else:
        out.write(result.render_text())
    if args.plot:
        from ..presentation.plots import analysis_figure

        analysis_figure(result, Path(args.plot))
    return 0


def cmd_show(args: argparse.Namespace, out: TextIO) -> int:
    from ..checking.loader import load
    from ..presentation.show import python_listing, show_text

    rules = load(args.edition)
    options = _parse_options(args.option)
    out.write(python_listing(rules, options) if args.python else show_text(rules, options))
    return 0


def cmd_sources(args: argparse.Namespace, out: TextIO) -> int:
    from ..checking.bibliography import render_markdown

    out.write(render_markdown())
    return 0


def cmd_board(args: argparse.Namespace, out: TextIO) -> int:
    from ..checking.loader import load
    from ..presentation.board import board_svg
    from .outputs import OutputFile

    target = None
    if args.svg not in (None, "-"):
        if Path(args.svg).suffix.lower() != ".svg":
            raise UsageError(
                f"cannot write the board to {args.svg}: it is an SVG picture, so the file name must end in .svg"
            )
        # as --log and --html: a missing folder or an unwritable file is a usage error before the rules load
        target = OutputFile(args.svg, "board picture")
    rules = load(args.edition)
    svg = board_svg(rules, _parse_options(args.option))
    if target is None:
        out.write(svg)
        return 0
    target.write(svg)
    out.write(f"wrote {visible(args.svg)}\n")
    return 0


def cmd_lsp(args: argparse.Namespace, out: TextIO) -> int:
    try:
        from ..editor.server import build_server
    except ImportError as err:
        if (err.name or "").split(".")[0] not in ("pygls", "lsprotocol"):
            raise
        raise UsageError(
            f"landlord-dsl lsp needs the optional 'lsp' extra ({err.name} is missing): pip install 'landlord-dsl[lsp]'"
        ) from None
    # the server closes the streams it is given when the editor says `exit`: give it copies of stdin and stdout
    with os.fdopen(os.dup(sys.stdin.fileno()), "rb") as stdin, os.fdopen(os.dup(sys.stdout.fileno()), "wb") as stdout:
        build_server().start_io(stdin, stdout)
    return 0
