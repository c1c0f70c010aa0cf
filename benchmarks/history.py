"""The benchmarks' history: figures of past runs kept in pyperf's JSON format (`benchmarks/history/`).

Each benchmark of a history file is one contestant's CPU seconds per throw (or per game) on one edition;
each run holds the values of one measurement (one value per round) and says where it came from: the
commit, the date, the machine and the command. Figures from before the history existed were moved here from
benchmarks/README.md: their commit is the one that recorded them there, and their `note` says how they
were counted then. `python -m pyperf show FILE` and `python -m pyperf dump FILE`
read it; `python benchmarks/history.py FILE` prints every run's median as a rate, oldest first.

    python benchmarks/history.py benchmarks/history/peer.json
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

import pyperf

ROOT = Path(__file__).resolve().parent.parent


def commit() -> str:
    """Return the working tree's commit (short hash, '+' if it has changes), or 'unknown' outside git."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
        dirty = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True)
    except OSError:
        return "unknown"
    return head.stdout.strip() + ("+" if dirty.stdout.strip() else "") if head.returncode == 0 else "unknown"


def machine() -> str:
    """Return a short description of this machine: system, processor, cores and Python."""
    return f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def add(path: Path, name: str, values: list[float], metadata: dict[str, str], unit: str = "second") -> None:
    """Add one run of `values` (in `unit`: pyperf's "second" or "integer") to the benchmark `name` of the
    history file at `path`."""
    run = pyperf.Run(values, metadata={"name": name, "unit": unit, **metadata}, collect_metadata=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    pyperf.add_runs(str(path), pyperf.Benchmark([run]))


def record_rounds(path: Path, edition: str, rounds: list[dict[str, dict]], note: str) -> None:
    """Add a bench_peer run to the history: each contestant's CPU seconds per throw, one value a round."""
    metadata = {
        "commit": commit(),
        "date": datetime.date.today().isoformat(),
        "machine": machine(),
        "command": note,
        "load": "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg()),  # how busy the shared machine was
    }
    for name in rounds[0]:
        values = [r[name]["cpu_s"] / r[name]["throws"] for r in rounds]
        add(path, f"{edition}: {name}, CPU s per throw", values, metadata)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Print a benchmark history, oldest run first.")
    ap.add_argument("file", type=Path)
    args = ap.parse_args(argv)
    suite = pyperf.BenchmarkSuite.load(str(args.file))
    for bench in suite.get_benchmarks():
        print(bench.get_name())
        seconds = bench.get_unit() == "second"
        for run in sorted(bench.get_runs(), key=lambda run: run.get_metadata().get("date", "")):
            meta = run.get_metadata()
            middle = statistics.median(run.values)
            if not seconds:
                figure = f"{middle:>14,.0f}"
            elif "per load" in bench.get_name():  # (a duration worth reading as such)
                figure = f"{1000 * middle:>11,.1f} ms"
            else:
                figure = f"{1 / middle:>12,.0f}/s"
            print(f"  {meta.get('date', '?'):10} {meta.get('commit', '?'):9} {figure}  {meta.get('command', '')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
