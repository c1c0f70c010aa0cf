"""Security and "nothing lost" (issue 13): hostile caches, paths, terminal text, output that fails.

Each test names the issue item it pins; each failed on the code before its fix.
"""

from __future__ import annotations

import io
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from landlord_dsl import parser_cache

ROOT = Path(__file__).resolve().parents[1]
TINY_GRAMMAR = 'start: "a"+\n'


def cli(*argv: str, env: dict | None = None, **kwargs) -> subprocess.CompletedProcess:
    """Run `python -m landlord_dsl ARGV` in a fresh process; return the finished process."""
    return subprocess.run([sys.executable, "-m", "landlord_dsl", *argv], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, **(env or {})}, **kwargs)


class _Planted:
    """A pickle that, when loaded, leaves a marker file: proof that a planted cache was executed."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


# ------------------------------------------------- item 1: the parser cache
def test_no_parser_cache_in_the_shared_temp_directory(tmp_path):
    """Item 1: nothing is read from or written to $TMPDIR, so a pickle planted there never runs."""
    shared, marker = tmp_path / "tmp", tmp_path / "ran"
    shared.mkdir()
    env = {"TMPDIR": str(shared), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    assert cli("check", "landlords-game-1906", env=env).returncode == 0
    # plant a pickle wherever a cache turned up in the shared folder, keeping Lark's header line
    for f in shared.iterdir():
        header = f.read_bytes().split(b"\n", 1)[0]
        f.write_bytes(header + b"\n" + pickle.dumps(_Planted(marker)))
    assert cli("check", "landlords-game-1906", env=env).returncode == 0
    assert not marker.exists()
    assert list(shared.iterdir()) == []


def _cached(monkeypatch, tmp_path) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    parser_cache.build(TINY_GRAMMAR, parser="lalr")
    files = list((tmp_path / "landlord-dsl").iterdir())
    assert len(files) == 1
    return files[0]


def _loaded_from_cache(parser) -> bool:
    return not hasattr(parser, "grammar")  # Lark.load does not keep the grammar object


def test_private_cache_is_created_0700_and_reused(monkeypatch, tmp_path):
    path = _cached(monkeypatch, tmp_path)
    assert (path.parent.stat().st_mode & 0o777) == 0o700 and (path.stat().st_mode & 0o777) == 0o600
    again = parser_cache.build(TINY_GRAMMAR, parser="lalr")
    assert _loaded_from_cache(again) and again.parse("aa")


@pytest.mark.parametrize("tamper", ["group_writable_dir", "world_writable_file", "symlinked_file",
                                    "foreign_owner", "symlinked_dir"])
def test_doubtful_cache_file_is_never_loaded(monkeypatch, tmp_path, tamper):
    """Item 1: a cache another user could have written is ignored and the parser built afresh."""
    path = _cached(monkeypatch, tmp_path)
    marker = tmp_path / "ran"
    planted = pickle.dumps(_Planted(marker))
    if tamper == "group_writable_dir":
        path.write_bytes(planted)
        path.parent.chmod(0o770)
    elif tamper == "world_writable_file":
        path.write_bytes(planted)
        path.chmod(0o602)
    elif tamper == "symlinked_file":
        elsewhere = tmp_path / "elsewhere"
        elsewhere.write_bytes(planted)
        path.unlink()
        path.symlink_to(elsewhere)
    elif tamper == "foreign_owner":
        path.write_bytes(planted)
        monkeypatch.setattr(os, "getuid", lambda: os.stat(path).st_uid + 1)
    elif tamper == "symlinked_dir":
        other = tmp_path / "other"
        other.mkdir(mode=0o700)
        (other / path.name).write_bytes(planted)
        path.unlink()
        path.parent.rmdir()
        path.parent.symlink_to(other)
    parser = parser_cache.build(TINY_GRAMMAR, parser="lalr")
    assert not marker.exists()
    assert not _loaded_from_cache(parser) and parser.parse("a")


def test_damaged_cache_is_rebuilt(monkeypatch, tmp_path):
    path = _cached(monkeypatch, tmp_path)
    path.write_bytes(b"not a pickle")
    assert parser_cache.build(TINY_GRAMMAR, parser="lalr").parse("a")
    assert _loaded_from_cache(parser_cache.build(TINY_GRAMMAR, parser="lalr"))  # rewritten good
