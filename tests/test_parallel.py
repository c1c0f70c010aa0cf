"""Many games on several processes or a Dask cluster give exactly what one process gives."""

from __future__ import annotations

import io
import json
import pickle
import random
import signal
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import landlord_dsl as ld
from landlord_dsl.cli.main import main
from landlord_dsl.core.errors import LandlordError, RuleRuntimeError
from landlord_dsl.studies import sweep as sweep_module
from landlord_dsl.studies.parallel import chunks, in_processes, simulate_many
from landlord_dsl.studies.rulesource import RuleSource, rebuild, rule_source
from landlord_dsl.studies.simulate import GameRecord, Summary, simulate, summarise

ROOT = Path(__file__).resolve().parent.parent


def _records(n: int, players: int, rng: random.Random) -> list[GameRecord]:
    out = []
    for i in range(n):
        scores = tuple(rng.randrange(-50, 3000) for _ in range(players))
        best = max(scores)
        out.append(
            GameRecord(
                seed=i,
                turns=rng.randrange(1, 400),
                rounds=1,
                end_reason=rng.choice(["a (x)", "b", "a (y)"]),
                scores=scores,
                winners=tuple(s for s, v in enumerate(scores) if v == best),
                conserved=rng.random() > 0.01,
                gini_by_round=tuple(round(rng.random(), 4) for _ in range(rng.randrange(0, 30))),
                prosperity=rng.random() < 0.3,
            )
        )
    return out


@settings(max_examples=60)
@given(seed=st.integers(0, 10**6), n=st.integers(1, 60), players=st.integers(1, 6), parts=st.integers(1, 8))
def test_summaries_merged_in_any_split_and_order_equal_the_summary_of_all_games(seed, n, players, parts):
    rng = random.Random(seed)
    records = _records(n, players, rng)
    whole = summarise(records, players)
    cuts = sorted(rng.sample(range(1, n), min(parts - 1, n - 1))) if n > 1 else []
    pieces = [records[a:b] for a, b in zip([0] + cuts, cuts + [n])]
    rng.shuffle(pieces)
    total = Summary(players)
    for piece in pieces:
        partial = Summary(players)
        for r in piece:
            partial.add(r)
        total.merge(pickle.loads(pickle.dumps(partial)))  # as it comes back from a worker
    assert total.result() == whole


def test_a_summary_does_not_grow_with_the_number_of_games():
    rng = random.Random(1)
    summary = Summary(4)
    for r in _records(200, 4, rng):
        summary.add(r)
    before = len(pickle.dumps(summary))
    for r in _records(5000, 4, rng):
        summary.add(r)
    assert len(pickle.dumps(summary)) < before + 4000  # a few more game lengths and larger numbers, no records


def test_summarise_matches_the_summary_of_played_games():
    program = ld.compile_rules(ld.load_edition("landlords-game-1904"))
    records = simulate(program, 30, 3, seed=2)
    summary = summarise(records, 3)
    assert summary["games"] == 30 and summary["turns_per_game"]["mean"] == round(sum(r.turns for r in records) / 30, 2)
    assert sum(summary["wins_by_seat"]) == pytest.approx(30, abs=0.05)


def test_chunks_cover_every_game_once():
    for games in (1, 7, 100, 4001):
        for jobs in (1, 2, 8):
            parts = chunks(games, jobs)
            assert [g for a, b in parts for g in range(a, b)] == list(range(games))


@pytest.mark.parametrize("name", ["landlords-game-1906", "monopoly-1933-atlantic-city+monopoly-1933-paupers"])
def test_two_processes_play_exactly_what_one_plays(name):
    rules = ld.load_edition(name)
    one = simulate_many(rules, 24, 3, seed=9, jobs=1).result()
    two = simulate_many(rules, 24, 3, seed=9, jobs=2).result()
    assert one == two
    program = ld.compile_rules(rules)
    assert one == summarise(simulate(program, 24, 3, seed=9), 3)


def test_the_cli_gives_byte_identical_json_for_any_number_of_jobs():
    outputs = []
    for jobs in ("1", "2"):
        out = io.StringIO()
        assert (
            main(["simulate", "landlords-game-1904", "--games", "20", "--seed", "4", "--json", "--jobs", jobs], out=out)
            == 0
        )
        outputs.append(out.getvalue())
    assert outputs[0] == outputs[1] and json.loads(outputs[0])["games"] == 20


def test_a_rule_source_is_text_and_rebuilds_the_same_rules():
    rules = ld.load_edition("monopoly-1933-atlantic-city+monopoly-1933-paupers+monopoly-1933-no-auctions")
    source = rule_source(rules, {"proxy_decks": False})
    assert all(isinstance(text, str) for chain in source.chains for _, text in chain)
    assert rebuild(source).rules_hash == rules.rules_hash
    (first_file, first_text), *rest = source.chains[0]
    changed = ((first_file, first_text + "\n# one comment more\n"), *rest)
    tampered = attrs.evolve(source, chains=(changed, *source.chains[1:]))
    with pytest.raises(LandlordError, match="hash"):
        rebuild(tampered)


def test_bad_arguments_are_usage_errors(capsys):
    with pytest.raises(SystemExit) as stopped:  # argparse's own check of the range
        main(["simulate", "landlords-game-1904", "--jobs", "0"], out=io.StringIO())
    assert stopped.value.code == 2
    assert main(["sweep", "landlords-game-1904", "--option", "x=1", "--option", "x=2"], out=io.StringIO()) == 2
    assert main(["sweep", "landlords-game-1904", "--players", "two"], out=io.StringIO()) == 2
    with pytest.raises(SystemExit) as stopped:  # argparse's own check of the choices
        main(["simulate", "landlords-game-1904", "--backend", "ray"], out=io.StringIO())
    assert stopped.value.code == 2


@pytest.mark.slow
def test_dask_on_a_local_cluster_gives_the_same_summary_as_local_processes():
    pytest.importorskip("distributed")
    rules = ld.load_edition("landlords-game-1904")
    local = simulate_many(rules, 16, 3, seed=5, jobs=1)
    dask = simulate_many(rules, 16, 3, seed=5, jobs=2, backend="dask")
    assert dask.result() == local.result()


@pytest.mark.slow
def test_an_unreachable_scheduler_is_a_clear_error():
    dask = pytest.importorskip("dask")
    pytest.importorskip("distributed")
    rules = ld.load_edition("landlords-game-1904")
    # (Dask tries to connect for 30 s by default; the error is the same after 1 s)
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}), pytest.raises(LandlordError, match="scheduler"):
        simulate_many(rules, 2, 2, jobs=1, backend="dask", scheduler="tcp://127.0.0.1:9")


# ------------------------------------------------------------------- sweep


def test_a_sweep_plays_every_cell_on_the_same_seeds_and_resumes_from_its_file(tmp_path, monkeypatch):
    rules = ld.load_edition("landlords-game-1906")
    out_file = tmp_path / "sweep.jsonl"
    grid = sweep_module.parse_grid(["faster_game=false,true"])
    records = sweep_module.run_sweep(rules, grid, [2, 3], games=6, seed=1, jobs=1, output=out_file)
    assert [(r["options"]["faster_game"], r["players"]) for r in records] == [
        (False, 2),
        (False, 3),
        (True, 2),
        (True, 3),
    ]
    for r in records:
        expected = simulate_many(rules, 6, r["players"], 1, r["options"], jobs=1).result()
        assert r["summary"] == expected
    assert len(out_file.read_text().splitlines()) == 4

    def must_not_play(*args, **kwargs):
        raise AssertionError("a recorded cell was played again")

    monkeypatch.setattr(sweep_module, "simulate_many", must_not_play)
    seen = []
    again = sweep_module.run_sweep(
        rules, grid, [2, 3], games=6, seed=1, output=out_file, progress=lambda i, n, cell, reused: seen.append(reused)
    )
    assert again == records and seen == [True] * 4


def test_the_sweep_command_prints_a_table_and_draws_a_chart(tmp_path):
    pytest.importorskip("matplotlib")
    chart = tmp_path / "sweep.png"
    out = io.StringIO()
    assert (
        main(
            [
                "sweep",
                "landlords-game-1906",
                "--option",
                "faster_game=false,true",
                "--games",
                "4",
                "--jobs",
                "1",
                "--plot",
                str(chart),
            ],
            out=out,
        )
        == 0
    )
    text = out.getvalue()
    assert "faster_game" in text and "mean Gini" in text and len(text.splitlines()) == 6
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_player_count_the_rules_do_not_allow_is_one_clear_error_before_any_game():
    rules = ld.load_edition("landlords-game-1906")
    with pytest.raises(LandlordError) as caught:
        simulate_many(rules, 10, 5, jobs=2)
    assert caught.value.render() == "error: landlords-game-1906 is for 2 to 4 players, not 5"


def test_an_error_keeps_its_diagnostics_when_it_crosses_a_process_boundary():
    err = LandlordError("something went wrong")
    again = pickle.loads(pickle.dumps(err))
    assert type(again) is LandlordError and again.render() == err.render() == "error: something went wrong"


def test_in_processes_yields_every_task_once_with_its_index():
    tasks = [(pow, (i, 2)) for i in range(30)]
    got = dict(in_processes(iter(tasks), 2))
    assert got == {i: i * i for i in range(30)}


def _received(source: RuleSource, i: int) -> tuple[RuleSource, int]:
    return source, i


def _fails_after(i: int, seconds: float) -> int:
    time.sleep(seconds)
    if i >= 1:
        raise LandlordError(f"task {i} failed")
    return i


def test_in_processes_raises_the_lowest_numbered_failure_whichever_finishes_first():
    """A run of which several tasks fail reported the failure a worker finished first: task 2 here, which fails at
    once while task 1 is still sleeping. It reports task 1's, as one process would, and the tasks before it
    still come back (the tasks after it are not waited for)."""
    tasks = [(_fails_after, (0, 0.0)), (_fails_after, (1, 0.5)), (_fails_after, (2, 0.0)), (_fails_after, (3, 0.0))]
    got = []
    with pytest.raises(LandlordError, match="task 1 failed"):
        for i, result in in_processes(iter(tasks), 2):
            got.append((i, result))
    assert got == [(0, 0)]


def test_a_run_with_failing_games_names_the_first_game_whatever_the_jobs():
    rules = ld.with_constants(ld.load_edition("landlords-game-1906"), {"wages": -50})  # every game fails
    said = set()
    for jobs in (1, 2):
        with pytest.raises(RuleRuntimeError) as err:
            simulate_many(rules, 8, 2, seed=3, jobs=jobs)
        said.add(err.value.diagnostics[-1].message)
    assert len(said) == 1 and "in game 1 of the run, played from seed 3" in said.pop()


def test_a_tournament_game_that_fails_names_its_deal_and_how_to_play_it_again(capsys):
    """A rule failing at run time in a tournament said where in the rules, not which deal and seats: the note
    now names them, with a `play` command that plays that game again and fails the same way."""
    import shlex

    from landlord_dsl.studies.tournament import run_tournament

    rules = ld.with_constants(ld.load_edition("landlords-game-1906"), {"wages": -50})  # every game fails
    for jobs in (1, 2):
        with pytest.raises(RuleRuntimeError) as err:
            run_tournament(rules, ["bot", "random"], deals=4, players=2, seed=5, jobs=jobs)
        *problem, note = err.value.diagnostics
        assert note.severity == "note"
        assert note.message.startswith("in deal 1 of the tournament (rotation 1, seats bot,random), played from seed 5")
    command = shlex.split(note.message.split("to play it again: ")[1])
    assert command[:2] == ["landlord-dsl", "play"] and command[-2:] == ["--seats", "bot,random"]
    capsys.readouterr()
    assert main(command[1:], out=io.StringIO()) == 1  # the same failure, from the command line
    assert problem[0].message in capsys.readouterr().err


@pytest.mark.slow
def test_a_dask_run_with_failing_games_names_the_first_game():
    pytest.importorskip("distributed")
    rules = ld.with_constants(ld.load_edition("landlords-game-1906"), {"wages": -50})
    with pytest.raises(RuleRuntimeError) as err:
        simulate_many(rules, 8, 2, seed=3, jobs=2, backend="dask")
    assert "in game 1 of the run, played from seed 3" in err.value.diagnostics[-1].message


def test_each_task_gets_the_rule_source_it_names_among_several():
    plain = rule_source(ld.load_edition("landlords-game-1906"))
    faster = rule_source(ld.load_edition("landlords-game-1906"), {"faster_game": True})  # the same rules hash
    other = rule_source(ld.load_edition("monopoly-1933-atlantic-city"))
    unsent = rule_source(ld.load_edition("landlords-game-1904"))  # not among the pool's sources: sent whole
    given = [plain, faster, other, unsent] * 3
    got = dict(in_processes(((_received, (s, i)) for i, s in enumerate(given)), 2, [plain, faster, other]))
    assert got == {i: (s, i) for i, s in enumerate(given)}


def test_a_task_does_not_carry_the_rule_text(monkeypatch):
    sizes = []
    submit = ProcessPoolExecutor.submit

    def measured(pool, function, /, *args, **kwargs):
        sizes.append(len(pickle.dumps((function, args, kwargs))))
        return submit(pool, function, *args, **kwargs)

    monkeypatch.setattr(ProcessPoolExecutor, "submit", measured)
    rules = ld.load_edition("monopoly-1933-atlantic-city")
    assert len(pickle.dumps(rule_source(rules))) > 40_000
    simulate_many(rules, 16, 4, seed=1, jobs=2)
    assert len(sizes) == 16 and max(sizes) < 1_000


_CTRL_C_SCRIPT = """
import os, signal, sys, time
from landlord_dsl.studies.parallel import in_processes
# as from a terminal: a shell's background job (a CI runner's, say) starts Python with Ctrl-C ignored
signal.signal(signal.SIGINT, signal.default_int_handler)
where = sys.argv[1]
results = in_processes(((time.sleep, (0.3,)) for _ in range(200)), 2)
pids = None
try:
    for i, _ in results:
        pids = open(f"/proc/{os.getpid()}/task/{os.getpid()}/children").read().split()
        if where == "consumer":  # Ctrl-C while the caller holds a result, not inside the pool's wait
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.5)
        else:  # Ctrl-C while the pool waits for results
            signal.setitimer(signal.ITIMER_REAL, 0.1)
            signal.signal(signal.SIGALRM, lambda *a: os.kill(os.getpid(), signal.SIGINT))
except KeyboardInterrupt:
    alive = [p for p in pids if os.path.exists(f"/proc/{p}/stat")]
    print("interrupted", len(pids), alive, file=sys.stderr)
    sys.exit(130)
sys.exit(0)
"""


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signals")
@pytest.mark.parametrize("where", ["consumer", "waiting"])
def test_ctrl_c_stops_the_workers_before_the_interrupt_reaches_the_caller(where):
    """A Ctrl-C anywhere (in the pool's wait or in the caller's hands) becomes one KeyboardInterrupt after the
    workers are gone: the 200 sleeping tasks are not waited for."""
    run = subprocess.run(
        [sys.executable, "-c", _CTRL_C_SCRIPT, where], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    assert run.returncode == 130, run.stderr
    assert "interrupted 2 []" in run.stderr


_FULL_PIPE_SCRIPT = """
import os, signal, sys, time
from landlord_dsl.studies import parallel
# as from a terminal: a shell's background job (a CI runner's, say) starts Python with Ctrl-C ignored
signal.signal(signal.SIGINT, signal.default_int_handler)
how, drain = sys.argv[1:]
parallel.FEEDER_CAN_HANG = parallel.FEEDER_CAN_HANG or drain == "drained"

def work(text):
    time.sleep(0.3)
    return len(text)

text = "x" * 100_000  # more than a pipe holds: the tasks left when the workers stop fill the pool's pipe
results = parallel.in_processes(((work, (text,)) for _ in range(200)), 2)
pids = None
try:
    for i, _ in results:
        pids = open(f"/proc/{os.getpid()}/task/{os.getpid()}/children").read().split()
        if how == "Ctrl-C":
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.5)
        else:
            results.close()
            break
except KeyboardInterrupt:
    sys.exit(f"interrupted {len(pids)} {[p for p in pids if os.path.exists(f'/proc/{p}/stat')]}")
print("stopped", len(pids), [p for p in pids if os.path.exists(f"/proc/{p}/stat")])
"""


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads the process tree from Linux's /proc")
@pytest.mark.parametrize("how", ["Ctrl-C", "close"])
@pytest.mark.parametrize(
    "drain",
    [
        "as is",
        pytest.param(
            "drained",
            marks=pytest.mark.skipif(
                sys.version_info >= (3, 12), reason="parallel._abandon reads the pipe on 3.11's executor only"
            ),
        ),
    ],
)
def test_stopping_the_workers_with_their_pipe_full_does_not_hang(how, drain):
    """Stopped workers leave tasks that fill the pipe to them; CPython 3.11.2's ProcessPoolExecutor then waited
    for ever to shut down (gh-94777, fixed in 3.11.5). "drained" reads the pipe as in_processes does on 3.11.2,
    here even where CPython would not hang (3.11.5 and later), so that CI tries it."""
    run = subprocess.run(
        [sys.executable, "-c", _FULL_PIPE_SCRIPT, how, drain], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    if how == "Ctrl-C":
        assert (run.returncode, run.stderr.strip()) == (1, "interrupted 2 []")
    else:
        assert (run.returncode, run.stdout.strip(), run.stderr) == (0, "stopped 2 []", "")
