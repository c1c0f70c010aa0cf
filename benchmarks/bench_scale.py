"""Scale figures: the speed-up of --jobs, sweep throughput, and peak memory by number of games.

Run from the repository root (the working tree is put on sys.path):

    python benchmarks/bench_scale.py speedup --games 2000            # jobs 1 against jobs 2 (and more)
    python benchmarks/bench_scale.py sweep --games 200               # a 2 x 3 grid of 1906 options and players
    python benchmarks/bench_scale.py memory --games 10000 --jobs 1   # peak RSS of one run, in its own process
    python benchmarks/bench_scale.py tasks --edition monopoly-1933-atlantic-city --games 400 --jobs 2
                                                                     # what each task sends a worker

Each figure is one run. `speedup` reports wall time and the CPU time of the
process and its workers, so a loaded machine shows up as CPU time that does
not shrink; `memory` runs the simulation in a fresh child process and reports
its peak resident set size (and that of its worker processes); `tasks` reports
the pickled size of each task sent to a worker process by a simulation and by
a tournament (bots against random players, two seats, a deal a task), with the
CPU time of the main process and of its workers.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import resource
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import landlord_dsl as ld  # noqa: E402
from landlord_dsl.studies.parallel import simulate_many  # noqa: E402
from landlord_dsl.studies.sweep import parse_grid, run_sweep  # noqa: E402
from landlord_dsl.studies.tournament import run_tournament  # noqa: E402


def _cpu() -> float:
    """Return the CPU seconds used by this process and its finished children."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def speedup(edition: str, games: int, players: int, jobs_list: list[int]) -> dict:
    rules = ld.load_edition(edition)
    rows, reference = [], None
    for jobs in jobs_list:
        wall, cpu = time.perf_counter(), _cpu()
        result = simulate_many(rules, games, players, seed=0, jobs=jobs).result()
        wall, cpu = time.perf_counter() - wall, _cpu() - cpu
        reference = reference or result
        rows.append(
            {
                "jobs": jobs,
                "wall_s": round(wall, 2),
                "cpu_s": round(cpu, 2),
                "games_per_s": round(games / wall, 1),
                "same_summary_as_jobs_1": result == reference,
            }
        )
    for row in rows:
        row["speedup"] = round(rows[0]["wall_s"] / row["wall_s"], 2)
    return {"edition": edition, "games": games, "players": players, "cores": os.cpu_count(), "runs": rows}


def sweep(games: int) -> dict:
    rules = ld.load_edition("landlords-game-1906")
    grid = parse_grid(["single_tax=never,from_start"])
    start = time.perf_counter()
    records = run_sweep(rules, grid, [2, 3, 4], games)
    wall = time.perf_counter() - start
    cells = len(records)
    return {
        "cells": cells,
        "games_per_cell": games,
        "wall_s": round(wall, 2),
        "games_per_s": round(cells * games / wall, 1),
    }


def memory(edition: str, games: int, players: int, jobs: int) -> dict:
    code = (
        "import sys, resource, time\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "import landlord_dsl as ld\n"
        "from landlord_dsl.studies.parallel import simulate_many\n"
        "start = time.perf_counter()\n"
        f"s = simulate_many(ld.load_edition({edition!r}), {games}, {players}, jobs={jobs}).result()\n"
        "wall = time.perf_counter() - start\n"
        "me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
        "print(me, kids, round(wall, 1), s['games'])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    me_kib, kids_kib, wall, played = int(out[0]), int(out[1]), float(out[2]), int(out[3])
    return {
        "edition": edition,
        "games": played,
        "jobs": jobs,
        "wall_s": wall,
        "peak_rss_mib": round(me_kib / 1024, 1),
        "largest_worker_peak_rss_mib": round(kids_kib / 1024, 1),
    }


def tasks(edition: str, games: int, players: int, jobs: int) -> dict:
    """Return, for `games` simulated games and a tournament of `games` deals, the tasks sent to the `jobs` worker
    processes (their number and pickled sizes), the wall time and the CPU time of this process and its workers."""
    rules = ld.load_edition(edition)
    sizes: list[int] = []
    submit = ProcessPoolExecutor.submit

    def measured(pool: ProcessPoolExecutor, function: Any, /, *args: Any, **kwargs: Any) -> Any:
        sizes.append(len(pickle.dumps((function, args, kwargs))))
        return submit(pool, function, *args, **kwargs)

    runs = {
        "simulate": lambda: simulate_many(rules, games, players, seed=1, jobs=jobs),
        "tournament": lambda: run_tournament(rules, ["bot", "random"], games, players=2, seed=1, jobs=jobs),
    }
    out: dict[str, Any] = {"edition": edition, "games": games, "jobs": jobs}
    ProcessPoolExecutor.submit = measured  # type: ignore[method-assign]
    try:
        for name, run in runs.items():
            sizes.clear()
            me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
            wall = time.perf_counter()
            run()
            wall = time.perf_counter() - wall
            me2, kids2 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
            out[name] = {
                "tasks": len(sizes),
                "smallest_task_bytes": min(sizes),
                "largest_task_bytes": max(sizes),
                "bytes": sum(sizes),
                "wall_s": round(wall, 2),
                "main_cpu_s": round(me2.ru_utime + me2.ru_stime - me.ru_utime - me.ru_stime, 3),
                "workers_cpu_s": round(kids2.ru_utime + kids2.ru_stime - kids.ru_utime - kids.ru_stime, 3),
            }
    finally:
        ProcessPoolExecutor.submit = submit  # type: ignore[method-assign]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("speedup", "sweep", "memory", "tasks"))
    ap.add_argument("--edition", default="landlords-game-1906")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--jobs", default="1,2", help="for speedup: a list; for memory and tasks: one number")
    args = ap.parse_args()
    if args.what == "speedup":
        data = speedup(args.edition, args.games, args.players, [int(j) for j in args.jobs.split(",")])
    elif args.what == "sweep":
        data = sweep(args.games)
    elif args.what == "tasks":
        data = tasks(args.edition, args.games, args.players, int(args.jobs.split(",")[-1]))
    else:
        data = memory(args.edition, args.games, args.players, int(args.jobs.split(",")[-1]))
    print(json.dumps(data, indent=2))


if __name__ == "__main__":
    main()
