"""Many games on every core, or on a Dask cluster, with the same result as on one.

Game i of a run is always played from seed `seed + i`, whichever process plays
it and whenever; the games are cut into chunks, each chunk adds its games up
into a `Summary`, and the summaries merge exactly (simulate.Summary keeps
integers and fractions). So `jobs=1`, `jobs=8` and a cluster give the same
summary to the last digit, and memory stays flat however many games are played.

A worker receives each `RuleSource` of its pool (the rule text and option
values, see rulesource.py) once, when it starts; a task names its rules by a
small key and carries a range of game numbers. The worker rebuilds and
compiles each rule set once per process and sends back a Summary.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import selectors
import shlex
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from itertools import islice
from typing import Any, NamedTuple

from ..agents import default_reserve
from ..agents.seats import parse_seats
from ..checking.constants import set_text
from ..checking.loader import RuleSet
from ..compiling.compiler import compile_ruleset
from ..core.errors import Diagnostic, LandlordError, RuleRuntimeError, UsageError
from ..core.resources import shipped_files
from ..program.compiled import Program
from .rulesource import RuleSource, rebuild, rule_source
from .simulate import Summary, in_game, play_one
from .stats import Layout, Stats, layout

BACKENDS = ("local", "dask")
IN_FLIGHT = 4  # chunks sent ahead per worker

_PROGRAMS: dict[tuple[str, tuple], Program] = {}  # per worker process: compiled once per rule source


def program_of(source: RuleSource) -> Program:
    """Return the compiled program of `source`, compiled once per process."""
    key = (source.rules_hash, source.options)
    if key not in _PROGRAMS:
        _PROGRAMS[key] = compile_ruleset(rebuild(source), source.option_values)
    return _PROGRAMS[key]


_LAYOUTS: dict[tuple[str, tuple], Layout] = {}


def _layout_of(source: RuleSource) -> Layout:
    key = (source.rules_hash, source.options)
    if key not in _LAYOUTS:
        _LAYOUTS[key] = layout(program_of(source), rebuild(source))
    return _LAYOUTS[key]


def run_games(
    source: RuleSource,
    players: int,
    seed: int,
    start: int,
    stop: int,
    stats: bool = False,
    reserve: int | None = None,
    seats: tuple[str, ...] | None = None,
) -> Summary:
    """Play games start..stop-1 of a run (game i from seed `seed + i`) with bots keeping back `reserve`
    (None: the rules' default), or the players `seats` names (specs, agents.seats); return their Summary
    (with its stats.Stats when `stats` is true).

    This is the worker's whole job; it needs only landlord-dsl installed.
    """
    program = program_of(source)
    board = _layout_of(source) if stats else None
    summary = Summary(players, stats=Stats(board) if board is not None else None)
    for i in range(start, stop):
        try:
            summary.add(play_one(program, players, seed + i, seats, layout=board, reserve=reserve))
        except RuleRuntimeError as err:
            raise in_game(err, i + 1, seed + i, replay_command(source, players, seed + i, reserve, seats)) from None
    return summary


def replay_command(
    source: RuleSource, players: int, seed: int, reserve: int | None, seats: tuple[str, ...] | None = None
) -> str:
    """Return the `landlord-dsl play` command that plays the game from `seed` of a run again."""
    shipped = {str(path): name for name, path in shipped_files().items()}
    # each combined file by its shipped name, or by the path it was loaded from (the edition's name need not be)
    edition = "+".join(shipped.get(chain[-1][0], chain[-1][0]) for chain in source.chains)
    words = ["landlord-dsl", "play", edition, "--seed", str(seed), "--players", str(players)]
    words += set_text(source.constants)
    for name, value in source.options:
        words += ["--option", f"{name}={str(value).lower() if isinstance(value, bool) else value}"]
    if reserve is not None and reserve != default_reserve(program_of(source), players):
        words += ["--bot-reserve", str(reserve)]
    if seats:
        words += ["--seats", ",".join(seats)]
    return shlex.join(words)


def default_jobs() -> int:
    """Return the number of cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def chunks(games: int, jobs: int) -> list[tuple[int, int]]:
    """Return (start, stop) ranges covering games 0..games-1: small enough to balance the cores."""
    size = max(1, min(500, games // (jobs * 8) or 1))
    return [(start, min(start + size, games)) for start in range(0, games, size)]


def simulate_many(
    rules: RuleSet | RuleSource,
    games: int,
    players: int,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    jobs: int | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    stats: bool = False,
    bot_reserve: int | None = None,
    seats: tuple[str, ...] | None = None,
) -> Summary:
    """Play `games` seeded games of heuristic bots (or of the players `seats` names, one spec a seat:
    agents.seats) and return their Summary.

    `jobs` processes (default: every core) play chunks of games; `backend="dask"`
    sends the chunks to a Dask cluster instead (`scheduler` is its address; a
    local cluster of `jobs` workers is started when it is None). `progress`
    is called with (games done, games) as chunks finish. The result is the same
    for every `jobs`, backend and order of completion. With `stats` the
    Summary also holds the statistics of `simulate --stats` (stats.Stats).
    The bots keep back `bot_reserve` (None: agents.default_reserve); the Summary says how much.
    """
    if games < 1 or players < 1:
        raise UsageError("a simulation needs at least one game and one player")
    if backend not in BACKENDS:
        raise LandlordError(f"unknown backend '{backend}': use one of {', '.join(BACKENDS)}")
    source = rules if isinstance(rules, RuleSource) else rule_source(rules, options)
    if isinstance(rules, RuleSet):  # this process has the checked rules already: no need to parse their text again
        _PROGRAMS.setdefault((source.rules_hash, source.options), compile_ruleset(rules, options))
    low, high = program_of(source).players  # checked here, before any worker starts
    if not low <= players <= high:
        raise UsageError(f"{source.name} is for {low} to {high} players, not {players}")
    jobs = default_jobs() if jobs is None else jobs
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if bot_reserve is not None and bot_reserve < 0:
        raise UsageError(f"a bot reserve cannot be negative ({bot_reserve})")
    if seats is not None:
        seats = tuple(str(spec) for spec in parse_seats(",".join(seats)))  # checked here, before any worker starts
        if len(seats) != players:
            raise UsageError(f"{len(seats)} seats are named for {players} players: name one a seat")
        if "human" in seats:
            raise UsageError("a simulation has no one to ask: a seat cannot be human")
    parts = chunks(games, jobs)
    reserve = default_reserve(program_of(source), players) if bot_reserve is None else bot_reserve
    total = Summary(players, stats=Stats(_layout_of(source)) if stats else None, bot_reserve=reserve)
    done = 0
    if backend == "local" and jobs == 1:
        finished: Iterator[Summary] = (run_games(source, players, seed, a, b, stats, reserve, seats) for a, b in parts)
    elif backend == "local":
        tasks = ((run_games, (source, players, seed, a, b, stats, reserve, seats)) for a, b in parts)
        finished = (summary for _, summary in in_processes(tasks, min(jobs, len(parts)), [source]))
    else:
        finished = _dask(source, players, seed, parts, jobs, scheduler, stats, reserve, seats)
    for summary in finished:
        total.merge(summary)
        done += summary.games
        if progress is not None:
            progress(done, games)
    return total


WATCH_INTERVAL = 0.2  # seconds between a worker's looks at its parent


def _watch_parent(stop: Any) -> None:
    """Set up a worker process: leave Ctrl-C to the parent, and exit at once when the parent dies or sets
    `stop` (a shared byte) to 1.

    A worker is not told when its parent is killed (SIGKILL, or SIGTERM, which
    runs no clean-up), so a thread of its own looks every WATCH_INTERVAL: a
    new parent process means the old one is gone. This works wherever
    processes have parents (no prctl, whose parent-death signal follows the
    thread that started the worker, not the process). `stop` is a lock-free
    byte, not a multiprocessing.Event: a worker the executor terminates while
    its watcher holds an Event's lock would leave the parent's next set()
    waiting for ever."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # forked with Ctrl-C held back (in_processes): a pending one is now dropped
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    parent = os.getppid()

    def watch() -> None:
        while not stop.value and os.getppid() == parent:
            time.sleep(WATCH_INTERVAL)
        os._exit(1)

    threading.Thread(target=watch, name="landlord-dsl-parent-watch", daemon=True).start()


@contextlib.contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Hold back SIGINT in this thread while the body runs (where the platform can); one that came meanwhile
    is delivered after. A worker forked meanwhile starts with it held back until _watch_parent ignores it,
    so Ctrl-C cannot kill a worker before it is set up."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


@contextlib.contextmanager
def _ctrl_c_stops(stop: Any) -> Iterator[threading.Event]:
    """While the body runs, make a first Ctrl-C set `stop` to 1 (the workers exit) and the returned event instead
    of raising KeyboardInterrupt wherever the main thread happens to be (inside the executor's own locks
    it could leave the pool unable to shut down); a second Ctrl-C raises as usual. Only in the main
    thread, and only over Python's default handler: a handler the program installed is left alone."""
    interrupted = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield interrupted
        return
    previous = signal.getsignal(signal.SIGINT)
    if previous is not signal.default_int_handler:
        yield interrupted
        return

    def on_ctrl_c(signum: int, frame: Any) -> None:
        if interrupted.is_set():
            raise KeyboardInterrupt
        interrupted.set()
        stop.value = 1

    signal.signal(signal.SIGINT, on_ctrl_c)
    try:
        yield interrupted
    finally:
        signal.signal(signal.SIGINT, previous)


class _Sent(NamedTuple):
    """What a task carries instead of a RuleSource every worker of its pool received at its start: the source's
    place among the pool's sources (its rules hash to read it by)."""

    number: int
    rules_hash: str


# Per worker process (empty in the main process): the rule sources of the worker's pool, put here by
# _start_worker, an executor's initializer, which can leave nothing for later tasks but in module state. A
# worker serves one pool (one in_processes call), so keys never clash and nothing needs removing.
_SENT: dict[_Sent, RuleSource] = {}


def _start_worker(stop: Any, sources: tuple[RuleSource, ...]) -> None:
    """Set up a worker process: _watch_parent(stop), and keep `sources` for the tasks that name them (_Sent)."""
    _watch_parent(stop)
    _SENT.update((_Sent(i, source.rules_hash), source) for i, source in enumerate(sources))


def _run_task(function: Callable[..., Any], args: tuple) -> Any:
    """Return what function(*args) returns, each _Sent argument replaced by the RuleSource it names (in a worker)."""
    return function(*(_SENT[arg] if isinstance(arg, _Sent) else arg for arg in args))


def in_processes(
    tasks: Iterable[tuple[Callable[..., Any], tuple]], jobs: int, sources: Iterable[RuleSource] = ()
) -> Iterator[tuple[int, Any]]:
    """Run each task (a function and its arguments) in one of `jobs` worker processes; yield (the task's
    index, its result) as tasks finish, in the order they finish; raise the error of the lowest-numbered task
    that fails (whichever worker finishes first), once the tasks before it are done.

    Each worker receives `sources` once, when it starts; an argument of a task
    equal to one of them is sent as a small key and the worker's copy passed
    in its place, so a task does not carry the rule text (about 50 KB).
    IN_FLIGHT tasks a worker are sent ahead and the next one as one comes back, so
    `tasks` may be a long lazy iterable. On Ctrl-C, an error, or the caller's
    stopping early, the workers stop at once (not after their tasks) and the
    pool is shut down before the exception (KeyboardInterrupt for Ctrl-C)
    goes on. A worker dies with this process however it ends (_watch_parent)."""
    todo = enumerate(tasks)
    shared = tuple(dict.fromkeys(sources))
    keys = {source: _Sent(i, source.rules_hash) for i, source in enumerate(shared)}
    stop = multiprocessing.get_context().RawValue("b", 0)
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_start_worker, initargs=(stop, shared))
    spare = _spare_reader(pool) if FEEDER_CAN_HANG else None
    pending: dict[Future[Any], int] = {}
    failed: tuple[int, BaseException] | None = None  # the lowest-numbered task failed so far, and its error

    def send(count: int) -> None:
        for i, (function, args) in islice(todo, count):
            if keys:
                sent = tuple(keys.get(arg, arg) if isinstance(arg, RuleSource) else arg for arg in args)
                function, args = _run_task, (function, sent)
            with _ctrl_c_held():  # submitting may fork a worker
                pending[pool.submit(function, *args)] = i

    with _ctrl_c_stops(stop) as interrupted:
        try:
            send(IN_FLIGHT * jobs)
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                if interrupted.is_set():
                    raise KeyboardInterrupt
                for future in sorted(done, key=pending.__getitem__):
                    i = pending.pop(future, None)
                    if i is None:  # a later task, dropped when an earlier one failed in this same wait
                        continue
                    error = future.exception()
                    if error is None:
                        yield i, future.result()
                        if failed is None:
                            send(1)
                        continue
                    # a task before this one may fail too, and its failure is the one to report (the same
                    # whatever order the workers finish in): wait for those only. The later ones are dropped, not
                    # cancelled here (see _abandon): the pool's shutdown cancels them and ends their workers
                    failed = (i, error)
                    for later in [f for f, j in pending.items() if j > i]:
                        del pending[later]
            if failed is not None:
                raise failed[1]
        except BaseException as err:
            stop.value = 1
            _abandon(pool, spare)
            if interrupted.is_set() and isinstance(err, Exception):  # a worker stopped by Ctrl-C: say Ctrl-C
                raise KeyboardInterrupt from None
            raise
    pool.shutdown(wait=True)
    if spare is not None:
        os.close(spare)


# CPython before 3.11.5 (Debian 12 has 3.11.2) can wait for ever shutting down a process pool whose workers
# are gone: the feeder thread of its call queue stays blocked writing tasks into a pipe that no one reads any
# more, and the shutdown waits for that thread (CPython gh-94777; 3.11.5 and later close the pipe instead).
# There in_processes keeps a read end of its own to empty (_spare_reader); not on later versions, where that
# read end would keep the pipe open and the feeder blocked while the executor waits for it holding the lock
# that submit() needs (3.12 and later), before in_processes could empty anything.
FEEDER_CAN_HANG = sys.version_info < (3, 11, 5)
WORKER_GRACE = 1.0  # seconds a worker has to end once terminated, and again once killed


def _spare_reader(pool: ProcessPoolExecutor) -> int | None:
    """Return a descriptor of this process's own on the read end of the pipe carrying `pool`'s tasks to its
    workers, for _abandon to empty (None where there is none: not on POSIX, or an executor built otherwise).

    The pipe is private (_call_queue._reader, the same in every CPython that needs this: FEEDER_CAN_HANG),
    and the copy is taken now, while no thread can be closing the original."""
    reader = getattr(getattr(pool, "_call_queue", None), "_reader", None)
    if os.name != "posix" or reader is None:
        return None
    return os.dup(reader.fileno())


def _abandon(pool: ProcessPoolExecutor, spare: int | None) -> None:
    """Shut `pool` down, its workers told to stop already, without waiting on a worker that will not answer:
    end its workers (SIGTERM, then SIGKILL after WORKER_GRACE), cancel the tasks not started and wait for
    the pool's threads, reading away what its feeder still writes through `spare` (_spare_reader) if any.

    The workers are the executor's private _processes (the same in CPython 3.11 to 3.13; without it the
    stop flag still ends them). The futures are left to the shutdown to cancel: a future cancelled here
    could be one the executor is failing at the same moment, which 3.11 answers with an error that stops
    its own thread."""
    workers = list((getattr(pool, "_processes", None) or {}).values())
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.join(WORKER_GRACE)
        if worker.is_alive():
            worker.kill()
            worker.join(WORKER_GRACE)
    if spare is None:
        pool.shutdown(wait=True, cancel_futures=True)
        return
    manager = getattr(pool, "_executor_manager_thread", None)  # the thread that waits for the feeder
    pool.shutdown(wait=False, cancel_futures=True)
    try:  # no worker is left to read the tasks, and no new thread can start here at exit: read them in this one
        _read_away(spare, manager)
    finally:
        os.close(spare)


def _read_away(fd: int, thread: threading.Thread | None) -> None:
    """Read and drop all that comes through the pipe `fd` while `thread` runs, then wait for it to end."""
    if thread is None:
        return
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        while thread.is_alive():
            if selector.select(timeout=0.05) and not os.read(fd, 1 << 16):
                break  # no writer left
    thread.join()


def local_cluster(jobs: int) -> Any:
    """Return a started Dask LocalCluster of `jobs` single-threaded worker processes that only this process can use.

    The scheduler and workers listen on the loopback interface only and speak
    TLS with a key made afresh for this cluster and kept in memory
    (Security.temporary), so another local user who finds the port cannot run
    code on the workers; there is no dashboard."""
    from distributed import LocalCluster

    try:
        from distributed.security import Security

        security = Security.temporary()
    except ImportError:
        raise LandlordError(
            "the Dask backend's local cluster needs the cryptography package (for its TLS key): "
            "pip install 'landlord-dsl[distributed]'"
        ) from None
    return LocalCluster(
        n_workers=jobs,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        protocol="tls://",
        security=security,
        dashboard_address=None,
        silence_logs=40,
    )


def _dask(
    source: RuleSource,
    players: int,
    seed: int,
    parts: list[tuple[int, int]],
    jobs: int,
    scheduler: str | None,
    stats: bool,
    reserve: int,
    seats: tuple[str, ...] | None = None,
) -> Iterator[Summary]:
    try:
        from distributed import Client
        from distributed import as_completed as dask_completed
    except ImportError:
        raise LandlordError(
            "the Dask backend needs the distributed extra: pip install 'landlord-dsl[distributed]'"
        ) from None
    cluster = local_cluster(jobs) if scheduler is None else None
    try:
        try:
            client = Client(cluster if cluster is not None else scheduler)  # a cluster's client shares its key
        except ValueError as err:  # distributed's word for an address it cannot read
            raise UsageError(
                [Diagnostic(f"--scheduler {scheduler!r} is not a Dask address: {err}", hint="e.g. tcp://HOST:8786")]
            ) from None
        with client:
            shipped = client.scatter(source, broadcast=True)  # the rule text once per worker
            todo = iter(enumerate(parts))
            number: dict[Any, int] = {}  # each future's part, by its key

            def submit(i: int, part: tuple[int, int]) -> Any:
                future = client.submit(run_games, shipped, players, seed, *part, stats, reserve, seats, pure=False)
                number[future.key] = i
                return future

            running = dask_completed([submit(i, part) for i, part in islice(todo, IN_FLIGHT * jobs)])
            failed: tuple[int, BaseException] | None = None  # as in_processes: the lowest-numbered part that failed
            for future in running:
                i = number.pop(future.key, None)
                if i is None:  # a later part, dropped when an earlier one failed
                    future.release()
                elif future.status == "error":
                    failed = (i, future.exception())
                    for later in [key for key, j in number.items() if j > i]:
                        del number[later]  # not waited for; the client's close cancels them
                else:
                    yield future.result()
                    following = next(todo, None) if failed is None else None
                    if following is not None:
                        running.add(submit(*following))
                    future.release()
                if failed is not None and not any(j < failed[0] for j in number.values()):
                    raise failed[1]
    except OSError as err:
        raise LandlordError(f"cannot reach the Dask scheduler {scheduler}: {err}") from None
    finally:
        if cluster is not None:
            cluster.close()
