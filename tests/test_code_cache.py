"""The stepped compilation's code kept in the private cache (compiling/code_cache.py) is the code built.

`build_stepped` takes the stepped module and the resume entries from the cache when it holds them,
without parsing or rewriting anything: the programs must be the same code, line tables and file name
included (so tracebacks still point at the generated source). A damaged file, or one made for another
source, is passed over and the code built again. Each test has a cache folder of its own (`tmp_path`),
so none depends on what the user's cache holds.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import CodeType
from typing import Any

import pytest

import landlord_dsl as ld
from landlord_dsl.compiling import code_cache, stepped_pass

NAME = "monopoly-1933-atlantic-city"


def _program(name: str = NAME) -> Any:
    return ld.compile_rules(ld.load_edition(name))


def _entry_points(stepped: Any) -> list[Any]:
    return [
        stepped.on_setup,
        stepped.on_turn,
        stepped.on_shortfall,
        *stepped.on_land,
        *stepped.on_pass,
        *stepped.card_effects,
        *stepped.trigger_bodies,
    ]


def _driven_codes(program: Any) -> list[CodeType | None]:
    functions = [
        program.on_setup,
        program.on_turn,
        program.on_shortfall,
        *program.on_land,
        *program.on_pass,
        *program.card_effects,
        *(body for _, _, body, _ in program.triggers),
    ]
    return [getattr(f, "__code__", None) for f in functions]


def _codes(program: Any, keyed: bool) -> tuple[list[CodeType | None], dict[int, CodeType | None], frozenset[str]]:
    """Return the code of a fresh stepped compilation's entry points, of every resume entry by site, and the
    decks it reads."""
    stepped = program.stepper(program, keyed=keyed)
    points = [None if f is None else f.__code__ for f in _entry_points(stepped)]
    resumes: dict[int, CodeType | None] = {}
    if keyed:
        for site in range(200):  # (more than 1933's call sites)
            function = stepped.resume(site)
            resumes[site] = None if function is None else function.__code__
    return points, resumes, stepped.decks_read


def _kept(folder: Path, kind: str) -> list[Path]:
    return sorted((folder / "landlord-dsl").glob(f"{kind}-*.marshal"))


def _refusing_to_build(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the stepped compilation was built, not taken from the cache")

    monkeypatch.setattr(stepped_pass, "_stepped_tree", refuse)
    monkeypatch.setattr(stepped_pass, "resume_entries", refuse)


@pytest.mark.parametrize("keyed", [True, False])
def test_the_cached_stepped_compilation_is_the_one_built(monkeypatch, tmp_path, keyed):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    program = _program()
    built = _codes(program, keyed)
    [module] = _kept(tmp_path, "stepped")
    assert (module.stat().st_mode & 0o777) == 0o600
    assert len(_kept(tmp_path, "resume")) == (len(built[1]) - list(built[1].values()).count(None) if keyed else 0)
    with monkeypatch.context() as patch:
        _refusing_to_build(patch)
        cached = _codes(program, keyed)
    assert cached == built  # (code objects compare their bytecode, constants, names and line tables)
    filename = program.on_turn.__code__.co_filename
    assert {code.co_filename for code in [*cached[0], *cached[1].values()] if code is not None} == {filename}


def test_a_resume_entry_the_cache_lacks_is_made_again_from_the_source(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    program = _program()
    built = _codes(program, True)
    for path in _kept(tmp_path, "resume")[::2]:
        path.unlink()
    assert _codes(program, True) == built
    assert len(_kept(tmp_path, "resume")) == len(built[1]) - list(built[1].values()).count(None)


@pytest.mark.parametrize("damage", ["garbage", "truncated", "another_programs", "another_site", "a_directory"])
def test_a_damaged_or_foreign_cache_file_is_passed_over(monkeypatch, tmp_path, damage):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    program = _program()
    built = _codes(program, True)
    [module] = _kept(tmp_path, "stepped")
    entries = _kept(tmp_path, "resume")
    if damage == "garbage":
        for path in [module, *entries]:
            path.write_bytes(b"not marshal data")
    elif damage == "truncated":
        for path in [module, *entries]:
            path.write_bytes(path.read_bytes()[:-100])
    elif damage == "another_programs":
        _codes(_program("landlords-game-1906"), True)
        other = next(p for p in _kept(tmp_path, "stepped") if p != module)
        module.write_bytes(other.read_bytes())
    elif damage == "another_site":
        entries[0].write_bytes(entries[1].read_bytes())
    else:
        module.unlink()
        module.mkdir(mode=0o700)
    assert _codes(program, True) == built
    if damage != "a_directory":
        with monkeypatch.context() as patch:  # rewritten good
            _refusing_to_build(patch)
            assert _codes(program, True) == built


def test_no_private_cache_builds_every_time(monkeypatch, tmp_path):
    folder = tmp_path / "landlord-dsl"
    folder.mkdir(mode=0o700)
    os.chmod(folder, 0o770)  # (another user of the group could plant code: nothing is read or written)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    program = _program()
    built = _codes(program, True)
    assert list(folder.iterdir()) == []
    assert _codes(program, True) == built


def test_a_game_plays_the_same_on_the_cached_compilation(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))

    def played() -> list[str]:
        state = ld.new_state(_program(), players=3, turn_limit=30, seed=4)
        while not state.is_terminal():
            state.apply(state.legal_actions()[0])
        return state.log_lines()

    first = played()
    assert _kept(tmp_path, "stepped")
    assert played() == first


def test_the_driven_code_is_taken_from_the_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    built = _program()
    [kept] = _kept(tmp_path, "driven")
    assert (kept.stat().st_mode & 0o777) == 0o600

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the driven source was compiled, not taken from the cache")

    with monkeypatch.context() as patch:
        patch.setattr(code_cache, "compile", refuse, raising=False)
        cached = _program()
    assert _driven_codes(cached) == _driven_codes(built)
    kept.write_bytes(b"not marshal data")
    assert _driven_codes(_program()) == _driven_codes(built)


def test_the_code_kept_is_pruned_oldest_first(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    _codes(_program(), True)
    folder = tmp_path / "landlord-dsl"
    made = {p.name: p.stat().st_size for kind in code_cache.KINDS for p in folder.glob(f"{kind}*")}
    [oldest] = _kept(tmp_path, "driven")
    other = folder / "parser-kept.pickle"  # (not code: never pruned)
    other.write_bytes(b"x" * 1000)
    os.utime(other, ns=(0, 0))
    monkeypatch.setattr(code_cache, "MOST_BYTES", sum(made.values()))
    _codes(_program("landlords-game-1906"), False)
    left = {p.name: p.stat().st_size for kind in code_cache.KINDS for p in folder.glob(f"{kind}*")}
    assert sum(left.values()) <= sum(made.values())
    assert not oldest.exists() and not set(left) <= set(made) and other.exists()
