"""The native build (compiling/native.py, docs/engine.md "Native build"): the generated program compiled to a
C extension with Cython plays the pure-Python games, is cached per user and rebuilt when the rules
change, and falls back to pure Python, with one warning, where it cannot be built.

The golden games (test_golden_games.py) and the differential tests (test_compiler.py,
test_counted_groups.py) run on both paths through the `native` fixture (conftest.py); the tests
here that build skip where Cython or a C compiler is missing.
"""

from __future__ import annotations

import ast as pyast
import importlib.machinery
import os
import pickle
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

import landlord_dsl as ld
from landlord_dsl.agents import RandomAgent
from landlord_dsl.cli.main import main
from landlord_dsl.compiling import native as native_build
from landlord_dsl.compiling.compiler import compile_ruleset
from landlord_dsl.compiling.native import NativeBuildWarning, native_mode, native_unavailable, pyx_source
from landlord_dsl.compiling.pyast_pass import read_game_lists_once
from landlord_dsl.core.resources import editions_dir

FILES = sorted(editions_dir().rglob("*.lg"))

# a small edition (a build of it takes seconds): a hint that divides by zero once a player's cash is spent
HINT = (
    'edition "hint" { players 2 to 2 turn limit 40 }\n'
    'account bank "Bank" unlimited\n'
    'kind start "Start" { }\n'
    "board {\n"
    '    space go "Go" : start\n'
    '    space two "Two" : start\n'
    "}\n"
    'rule r "r" {\n'
    "    on turn {\n"
    '        offer "Pick" {\n'
    '            option o "O" value 10 / (player.cash - spent) {\n'
    "                pay 1 from player to bank\n"
    "            }\n"
    "        }\n"
    "    }\n"
    "}\n"
    "const spent = 0\n"
)

needs_a_build = pytest.mark.skipif(native_unavailable() is not None, reason=f"no native build: {native_unavailable()}")


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty per-user cache, this process's loaded and failed builds forgotten; return its native folder."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(native_build, "_LOADED", {})
    monkeypatch.setattr(native_build, "_FAILED", {})
    monkeypatch.setattr(native_build, "_WARNED", set())
    return tmp_path / "cache" / "landlord-dsl" / "native"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A cache the tests that only read a build share (one build of the hint rules for them all); return
    the folder of the rules."""
    folder = tmp_path_factory.mktemp("built")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(folder / "cache"))
        yield folder


def _hint_rules(tmp_path: Path, spent: int = 0) -> ld.RuleSet:
    path = tmp_path / "hint.lg"
    path.write_text(HINT.replace("spent = 0", f"spent = {spent}"))
    return ld.load_edition(path)


def _failure(program: ld.Program) -> str:
    class Asking(RandomAgent):  # reads the hints the rules give
        def choose(self, game, request):
            return max(range(len(request.legal)), key=lambda i: request.values[i])

    game = ld.new_game(program, players=2, seed=0, agents=[Asking(0), Asking(1)])
    with pytest.raises(ld.RuleRuntimeError) as info:
        game.play()
    return info.value.render()


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_the_cython_source_keeps_every_generated_line_where_it_was(path):
    """Every statement of every shipped file's program is on its own line in the Cython source but those
    of the first function, moved below the last line, so the line table locates errors in both."""
    program = compile_ruleset(ld.load_edition(path))
    tree = read_game_lists_once(program.python_source)
    source, origin, moved = pyx_source(tree, ["_k1", "_b_debt"])
    assert moved == 0
    lines = len(program.python_source.splitlines())
    pyx = pyast.parse(source)
    first = tree.body[0]
    assert isinstance(first, pyast.FunctionDef)
    kept = [n.lineno for n in pyast.walk(pyx) if isinstance(n, pyast.stmt) and n.lineno <= lines]
    own = {n.lineno for n in pyast.walk(tree) if isinstance(n, pyast.stmt) and n.lineno > first.end_lineno}
    assert own <= set(kept)
    assert all(origin.get(line, line) in (line, 0) for line in kept if line > first.end_lineno)
    assert {origin[line] for line in origin if line > lines and origin[line]} <= set(range(1, first.end_lineno + 1))


def test_the_native_setting_takes_true_require_false_or_the_environment(monkeypatch):
    assert native_mode(True) == "on" and native_mode("require") == "require" and native_mode(False) == "off"
    monkeypatch.delenv("LANDLORD_NATIVE", raising=False)
    assert native_mode(None) == "off"
    monkeypatch.setenv("LANDLORD_NATIVE", "1")
    assert native_mode(None) == "on"
    monkeypatch.setenv("LANDLORD_NATIVE", "maybe")
    with pytest.raises(ld.UsageError, match="LANDLORD_NATIVE environment variable is 'maybe'"):
        native_mode(None)


def test_without_cython_the_program_runs_in_pure_python_with_one_warning(tmp_path, cache, monkeypatch):
    def no_cython(name: str) -> str:
        raise native_build.importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(native_build.importlib.metadata, "version", no_cython)
    rules = _hint_rules(tmp_path)
    with pytest.warns(NativeBuildWarning, match=r"Cython is not installed") as caught:
        program = compile_ruleset(rules, native=True)
    assert len(caught) == 1 and "\n" not in str(caught[0].message)
    assert not program.native
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # warned once a process
        assert not compile_ruleset(rules, native=True).native
    with pytest.raises(ld.LandlordError, match="the native build was required but cannot be made: Cython"):
        compile_ruleset(rules, native="require")


@needs_a_build
def test_without_a_c_compiler_the_program_runs_in_pure_python(tmp_path, cache, monkeypatch):
    """A missing compiler (CC naming no program) fails the build: one warning, then pure Python, the same
    games; the compiler's output is kept in the cache folder."""
    monkeypatch.setenv("CC", str(tmp_path / "no-such-cc"))
    rules = _hint_rules(tmp_path, spent=-1)
    with pytest.warns(NativeBuildWarning, match=r"native build unavailable, playing in pure Python: .*no-such-cc"):
        program = compile_ruleset(rules, native=True)
    assert not program.native
    assert list(cache.glob("*.log")) and not list(cache.glob("*.so"))
    assert not [p for p in cache.iterdir() if p.is_dir()]  # the build's folder is gone
    plain = compile_ruleset(rules)
    first, second = ld.new_game(program, players=2, seed=3), ld.new_game(plain, players=2, seed=3)
    first.play(), second.play()
    assert first.log_lines() == second.log_lines()


@needs_a_build
def test_a_native_program_is_built_once_and_rebuilt_when_its_rules_change(tmp_path, cache, monkeypatch):
    rules = _hint_rules(tmp_path, spent=-1)
    program = compile_ruleset(rules, native="require")
    assert program.native
    assert len(list(cache.glob("*.so"))) == 1

    built = []
    monkeypatch.setattr(native_build, "_LOADED", {})  # a new process: only the cache folder is left
    monkeypatch.setattr(native_build, "_build", lambda *args: built.append(args))
    again = compile_ruleset(rules, native="require")
    assert again.native and built == []
    game_a, game_b = ld.new_game(program, players=2, seed=5), ld.new_game(again, players=2, seed=5)
    game_a.play(), game_b.play()
    assert game_a.log_lines() == game_b.log_lines()

    with pytest.raises(ld.LandlordError, match="the native build was required"):
        compile_ruleset(_hint_rules(tmp_path, spent=-2), native="require")  # changed rules: a build
    assert len(built) == 1


def test_a_build_with_other_compiler_settings_is_another_build(monkeypatch):
    """The cache names a build by what it depends on besides its source, the C compiler's settings from
    the environment included (CC, CFLAGS, ...): a build made with -O0 is never loaded for the default one."""
    pytest.importorskip("Cython")
    for key in native_build.COMPILER_SETTINGS:
        monkeypatch.delenv(key, raising=False)
    default = native_build.module_name("x = 1\n", "a.pyx")
    monkeypatch.setenv("CFLAGS", "-O0")
    unoptimised = native_build.module_name("x = 1\n", "a.pyx")
    monkeypatch.setenv("CC", "clang")
    assert len({default, unoptimised, native_build.module_name("x = 1\n", "a.pyx")}) == 3


@needs_a_build
def test_processes_building_the_same_program_at_once_build_it_once(tmp_path, cache):
    """Three processes compile the same rules natively at once: each runs it natively, and the cache holds
    one extension and no half-built folder."""
    _hint_rules(tmp_path, spent=-3)
    script = (
        "import sys, landlord_dsl as ld; from landlord_dsl.compiling.compiler import compile_ruleset; "
        "print(compile_ruleset(ld.load_edition(sys.argv[1]), native='require').native)"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(ld.__file__).parent.parent)}
    runs = [
        subprocess.Popen([sys.executable, "-c", script, str(tmp_path / "hint.lg")], env=env, stdout=subprocess.PIPE)
        for _ in range(3)
    ]
    assert [run.communicate(timeout=900)[0].decode().strip() for run in runs] == ["True"] * 3
    assert len(list(cache.glob("*.so"))) == 1
    assert not [p for p in cache.iterdir() if p.is_dir()]


@needs_a_build
def test_a_run_time_error_in_native_code_is_located_as_in_pure_python(built):
    """The native frames are the rules' (their file name) and their lines are the generated source's: the
    error of a hint is reported at the same .lg line, and an agent's own error stays the agent's."""
    rules = _hint_rules(built)
    program = compile_ruleset(rules, native="require")
    assert program.native and "hint.lg:11:" in _failure(program)
    assert _failure(program) == _failure(compile_ruleset(rules))

    class Broken(RandomAgent):
        def choose(self, game, request):
            raise KeyError("an agent's own bug")

    game = ld.new_game(compile_ruleset(_hint_rules(built, spent=-1), native="require"), players=2, seed=0)
    game.agents[0] = Broken(0)
    with pytest.raises(KeyError):
        game.play()


@needs_a_build
def test_a_pickled_native_program_is_remade_natively(built):
    program = compile_ruleset(_hint_rules(built, spent=-1), native="require")
    again = pickle.loads(pickle.dumps(program))
    assert again.native and again.rules_hash == program.rules_hash


@needs_a_build
def test_a_stepped_state_of_a_native_program_plays_as_one_of_the_pure_program(built):
    """A State (docs/state.md) runs the stepped twin, pure Python generators over the native program's
    namespace: the same requests and the same game as the pure program's."""
    rules = _hint_rules(built, spent=-1)
    logs = []
    for native in ("require", False):
        state = ld.new_state(compile_ruleset(rules, native=native), players=2, seed=4)
        while not state.is_terminal():
            state.apply(state.legal_actions()[-1])
        logs.append(state.game.log_lines())
    assert logs[0] == logs[1] and len(logs[0]) > 10


@needs_a_build
def test_the_native_flag_plays_the_same_simulation(built, capsys):
    path = built / "hint.lg"
    path.write_text(HINT.replace("spent = 0", "spent = -1"))
    assert main(["simulate", str(path), "--games", "3", "--players", "2", "--jobs", "1", "--no-progress"]) == 0
    plain = capsys.readouterr().out
    assert main(["simulate", str(path), "--games", "3", "--players", "2", "--jobs", "1", "--native"]) == 0
    out, err = capsys.readouterr()
    assert out == plain and err == ""


def test_the_native_flag_warns_in_one_line_where_it_cannot_build(tmp_path, cache, monkeypatch, capsys):
    monkeypatch.setattr(native_build, "_versions", lambda: (_ for _ in ()).throw(native_build.NativeUnavailable("x")))
    path = tmp_path / "hint.lg"
    path.write_text(HINT.replace("spent = 0", "spent = -1"))
    assert main(["play", str(path), "--seed", "1", "--native"]) == 0
    err = capsys.readouterr().err
    assert err == "landlord-dsl: warning: native build unavailable, playing in pure Python: x\n"


def test_a_listing_to_read_is_not_built_natively_unless_asked_by_name(tmp_path, cache, monkeypatch):
    """`show --python` compiles a readable program: LANDLORD_NATIVE does not make it build one."""
    monkeypatch.setenv("LANDLORD_NATIVE", "require")
    monkeypatch.setattr(native_build, "_versions", lambda: (_ for _ in ()).throw(native_build.NativeUnavailable("x")))
    rules = _hint_rules(tmp_path, spent=-1)
    assert not compile_ruleset(rules, readable=True).native
    with pytest.raises(ld.LandlordError, match="required but cannot be made: x"):
        compile_ruleset(rules)


def _fake_builds(folder: Path, ages: list[float], now: float) -> list[str]:
    """Put builds (with lock and log files) used `ages` seconds before `now` into the folder; return their names."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    folder.mkdir(parents=True, exist_ok=True)
    names = []
    for i, age in enumerate(ages):
        name = f"_landlord_native_{i:032x}"
        for made in (f"{name}{suffix}", f"{name}.lock", f"{name}.log"):
            (folder / made).write_bytes(b"x")
            os.utime(folder / made, (now - age, now - age))
        names.append(name)
    return names


def test_the_cache_keeps_the_builds_used_last_and_any_used_within_the_hour(tmp_path):
    now = 1_000_000.0
    hours = [5 * 3600, 1800, 9 * 3600, 3 * 3600, 2 * 3600]  # build 1 was used half an hour ago
    names = _fake_builds(tmp_path, hours, now)
    removed = native_build.prune(tmp_path, keep=2, now=now)
    # kept: the two used last (1 and 4), and none other used within the hour; removed: the rest, oldest last
    assert removed == [names[3], names[0], names[2]]
    left = sorted(p.name for p in tmp_path.iterdir())
    assert all(n not in "".join(left) for n in removed)
    assert len(left) == 6 and {names[1], names[4]} == {p.split(".")[0] for p in left}
    assert native_build.prune(tmp_path, keep=0, now=now) == [names[4]]  # the one used half an hour ago stays


def test_a_new_build_prunes_the_cache_and_a_build_found_counts_as_used(cache, monkeypatch):
    now = time.time()
    old = _fake_builds(cache, [86400 + i for i in range(native_build.KEPT_BUILDS + 3)], now)
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    monkeypatch.setattr(native_build, "_build", lambda source, pyx, name, folder, path: path.write_bytes(b"?"))
    new = "_landlord_native_" + "f" * 32
    with pytest.raises(native_build.NativeUnavailable, match="cannot load"):  # (not a library: built all the same)
        native_build._found_or_built("", "x.pyx", new)
    builds = {p.name.removesuffix(suffix) for p in cache.glob(f"*{suffix}")}
    assert builds == {new, *old[: native_build.KEPT_BUILDS - 1]}  # the oldest four gone, the new one kept
    assert not (cache / f"{old[-1]}.lock").exists()

    with pytest.raises(native_build.NativeUnavailable, match="cannot load"):
        native_build._found_or_built("", "x.pyx", old[5])  # found: not built again, and used now
    assert (cache / f"{old[5]}{suffix}").stat().st_mtime > now - 60
