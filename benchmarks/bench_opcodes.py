"""Python bytecodes executed per game: a cost figure that neither machine load nor memory layout can move.

`bench_instructions.py` counts the CPU's instructions under valgrind, which
load cannot move, but its figure for the same code still drifts by 1-2 %
from run to run (what the interpreter's allocator and imports do differs with
the process's memory layout), as much as a small optimisation changes. This
script counts, with `sys.settrace` and `f_trace_opcodes` (`sys.monitoring`'s
instruction events from Python 3.12 on), the bytecodes the
Python interpreter executes while seeded games are played (after one warm-up
game, loading excluded): the same code and seeds always give the same count.
It weighs every bytecode alike and counts nothing of what C code does inside
one (a list sorted, a string formatted), so it complements the instruction
count rather than replacing it. Compare two versions of the code by running it
in each (it measures the working tree it belongs to).

    python benchmarks/bench_opcodes.py --edition monopoly-1933-atlantic-city --games 20

Tracing makes Python about 30 times slower: 20 games of the 1933 edition take
about 5 seconds of CPU.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import landlord_dsl as ld  # noqa: E402


def opcodes_a_game(edition: str, games: int, players: int) -> int:
    """Return the bytecodes Python executes playing the `games` seeded games of `edition` (seeds 0, 1, ...),
    divided by `games` (rounded down), after one warm-up game; loading and compiling are not counted."""
    program = ld.compile_rules(ld.load_edition(edition))
    ld.new_game(program, players=players, seed=-1).play()  # what the first game imports is not a game's cost
    executed = 0

    def play() -> None:
        for seed in range(games):
            ld.new_game(program, players=players, seed=seed).play()

    if sys.version_info >= (3, 12):
        # (3.12's sys.settrace reports no opcode events in code that ran before it was set, as the warm-up game's
        # did; its sys.monitoring counts each bytecode executed, as settrace does on 3.11)
        monitoring = sys.monitoring  # type: ignore[attr-defined,unused-ignore]
        tool = monitoring.PROFILER_ID

        def count(code: Any, offset: int) -> None:
            nonlocal executed
            executed += 1

        monitoring.use_tool_id(tool, "bench_opcodes")
        monitoring.register_callback(tool, monitoring.events.INSTRUCTION, count)
        monitoring.set_events(tool, monitoring.events.INSTRUCTION)
        try:
            play()
        finally:
            monitoring.set_events(tool, 0)
            monitoring.free_tool_id(tool)
        return executed // games

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal executed
        if event == "opcode":
            executed += 1
        elif event == "call":
            frame.f_trace_opcodes = True
            frame.f_trace_lines = False
        return trace

    sys.settrace(trace)
    try:
        play()
    finally:
        sys.settrace(None)
    return executed // games


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Count the Python bytecodes of one game.")
    ap.add_argument("--edition", default="monopoly-1933-atlantic-city")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    per_game = opcodes_a_game(args.edition, args.games, args.players)
    if args.json:
        result = {"edition": args.edition, "games": args.games, "players": args.players, "opcodes_per_game": per_game}
        print(json.dumps(result, indent=2))
    else:
        print(f"{args.edition}: {per_game:,} bytecodes a game ({args.games} games, {args.players} players)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
