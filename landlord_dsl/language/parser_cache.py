"""Building the Lark parser, with a cache only its own user can write.

Checking the grammar (LALR tables, strict conflict analysis) takes about half
a second, so the built parser is kept between runs. Lark's own `cache=True`
keeps it as a pickle in the shared temp directory, where another local user
could plant a pickle (loading it runs their code) or a symlink (writing it
overwrites the link's target). This cache lives instead in a per-user folder
(`$XDG_CACHE_HOME/landlord-dsl`, else `~/.cache/landlord-dsl`) created with
mode 0700, and a file is loaded only when the folder and the file are owned by
the current user, are not symlinks, and no one else may write them. Anything
amiss means the parser is built afresh, never that a doubtful file is read.

The same folder, under the same checks, keeps the code compiled from the grammar's reductions
(treeless.py) and from the rules' generated Python (compiling/code_cache.py): `recalled`, `kept`
and `remembered` read and write it.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import stat
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import lark
from lark import Lark

_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
# O_NONBLOCK: a FIFO planted at the file's name must not block the open (a regular file reads as usual)
_FILE_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)


def cache_dir() -> Path:
    """Return the per-user folder the parser cache is kept in (it may not exist yet)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # unset, empty or relative: the XDG specification says to ignore it
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "landlord-dsl"


def is_private(st: os.stat_result, kind: int) -> bool:
    """Return True if `st` is of `kind`, owned by this user, and writable by no one else (on a system without
    owners by number, any owner)."""
    owner = os.getuid() if hasattr(os, "getuid") else st.st_uid
    return stat.S_IFMT(st.st_mode) == kind and st.st_uid == owner and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def open_private_dir(folder: Path) -> int | None:
    """Return a descriptor of the private cache folder (created 0700 if missing), or None if it is not private."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(folder, _DIR_FLAGS)
    except OSError:
        return None
    if not is_private(os.fstat(fd), stat.S_IFDIR):
        os.close(fd)
        return None
    return fd


def read_private(dir_fd: int, name: str) -> bytes | None:
    """Return the bytes of a private regular file in the folder, or None."""
    try:
        fd = os.open(name, _FILE_FLAGS, dir_fd=dir_fd)
    except OSError:
        return None
    if not is_private(os.fstat(fd), stat.S_IFREG):  # before reading: a directory or FIFO there is not the cache
        os.close(fd)
        return None
    with os.fdopen(fd, "rb") as f:
        return f.read()


def write_private(dir_fd: int, name: str, data: bytes) -> None:
    """Store `data` under `name` in the folder atomically (a private temporary file, then a rename)."""
    temp = f".{name}.{os.getpid()}.tmp"
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600, dir_fd=dir_fd)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(temp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except OSError:
        try:
            os.unlink(temp, dir_fd=dir_fd)
        except OSError:
            pass


def file_name(grammar: str, python: tuple[int, int] | None = None, **options: Any) -> str:
    """Return the name the cache keeps the parser of `grammar` built with `options` under, for this
    Python (or the `python` version given: (3, 13)) and the installed lark."""
    major, minor = python or sys.version_info[:2]
    key = hashlib.sha256(repr((grammar, sorted(options.items()), lark.__version__)).encode("utf-8")).hexdigest()
    return f"parser-{key[:32]}-py{major}{minor}.pickle"


def prepared(grammar: str, python: tuple[int, int] | None = None, **options: Any) -> tuple[str, bytes]:
    """Return the parser tables of `grammar` built with `options` ready to load: the cache file's name
    (`file_name`) and its bytes (`Lark.save`).

    Written into the cache folder of another installation of the same lark (a page's Pyodide, a fresh
    container), they spare it building the parser: `build` loads them like any cached parser."""
    buffer = io.BytesIO()
    Lark(grammar, **options).save(buffer)
    return file_name(grammar, python, **options), buffer.getvalue()


@contextlib.contextmanager
def private_folder() -> Iterator[int | None]:
    """Within the block, the private cache folder's descriptor (`open_private_dir`), closed after it; None
    where there is no private cache (this system cannot tell owners apart, or the folder is not private)."""
    if not hasattr(os, "getuid") or os.open not in os.supports_dir_fd:
        yield None  # no ownership to check on this system: no cache
        return
    dir_fd = open_private_dir(cache_dir())
    if dir_fd is None:
        yield None
        return
    try:
        yield dir_fd
    finally:
        os.close(dir_fd)


def build(grammar: str, **options: Any) -> Lark:
    """Return the Lark parser for `grammar`, loaded from the private cache when a good copy is there."""
    with private_folder() as dir_fd:
        if dir_fd is None:
            return Lark(grammar, **options)
        name = file_name(grammar, **options)
        data = read_private(dir_fd, name)
        if data is not None:
            try:
                return Lark.load(io.BytesIO(data))
            except Exception:  # a damaged cache file is rebuilt, whatever the damage
                pass
        parser = Lark(grammar, **options)
        buffer = io.BytesIO()
        parser.save(buffer)
        write_private(dir_fd, name, buffer.getvalue())
        return parser


def recalled(name: str) -> bytes | None:
    """Return the bytes the private cache keeps under `name`, or None where it keeps none or there is no
    private cache (this system cannot tell owners apart, or the folder is not private)."""
    with private_folder() as dir_fd:
        return None if dir_fd is None else read_private(dir_fd, name)


def kept(name: str, data: bytes, prune: tuple[tuple[str, ...], int] | None = None) -> None:
    """Store `data` under `name` in the private cache (`write_private`); nothing where there is none. With
    `prune`, (prefixes, most bytes): where the files whose names start with one of the prefixes then take
    more than that many bytes, the oldest of them are removed until they take three quarters of it."""
    with private_folder() as dir_fd:
        if dir_fd is None:
            return
        write_private(dir_fd, name, data)
        if prune is not None and os.scandir in os.supports_fd:
            prune_oldest(dir_fd, *prune)


def prune_oldest(dir_fd: int, prefixes: tuple[str, ...], most: int) -> None:
    """Remove the oldest regular files of the folder whose names start with one of `prefixes` while they take
    more than three quarters of `most` bytes, if they take more than `most`."""
    try:
        with os.scandir(dir_fd) as entries:
            files = [
                (st.st_mtime_ns, st.st_size, entry.name)
                for entry in entries
                if entry.name.startswith(prefixes) and stat.S_ISREG((st := entry.stat(follow_symlinks=False)).st_mode)
            ]
    except OSError:
        return
    total = sum(size for _, size, _ in files)
    if total <= most:
        return
    for _, size, name in sorted(files):
        try:
            os.unlink(name, dir_fd=dir_fd)
        except OSError:
            continue
        total -= size
        if total <= most * 3 // 4:
            return


def remembered(name: str, make: Callable[[], bytes]) -> bytes | None:
    """Return the bytes the private cache keeps under `name`, or else `make()`'s, stored there; None where
    there is no private cache (this system cannot tell owners apart, or the folder is not private)."""
    with private_folder() as dir_fd:
        if dir_fd is None:
            return None
        data = read_private(dir_fd, name)
        if data is None:
            data = make()
            write_private(dir_fd, name, data)
        return data
