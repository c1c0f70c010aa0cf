"""The rules' compiled code kept between runs, as Python keeps a module's bytecode in a .pyc.

Compiling the generated source (compiler.py), and parsing it, rewriting it into generators
(stepped_pass.py) and compiling that, take most of the time `compile_ruleset(..., keyed=True)` takes.
What they make depends only on the generated source, its file name, the pass's flags, the decks, the
code of the passes and the Python that compiles it, so it is kept in the private per-user cache folder
(language/parser_cache.py, the parser's, with its safety rules: docs/security.md) under a hash of all
of these, as `marshal` data:

* `driven-HASH-TAG.marshal`: the code of the generated module the games run;
* `stepped-HASH-TAG.marshal`: the stepped module's code, the names of its generator functions, the decks
  its rules read, and the keyed call sites that may have a resume entry;
* `resume-HASH-SITE-TAG.marshal`: the resume entry of one call site, written when a run first asks for
  it (an analysis asks for a few of them: 5 of 1933's 76).

TAG is `sys.implementation.cache_tag`. Each file also holds the whole hash, checked on reading: a
file that cannot be read, is damaged, or was made for something else is passed over, and the code
built again (and stored afresh). Past `MOST_BYTES`, the oldest of these files are removed.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import marshal
import sys
from collections.abc import Iterable
from pathlib import Path
from types import CodeType
from typing import Any, NamedTuple

from ..language import parser_cache

# the modules whose code decides what the stepped compilation makes of a source
_PASSES = ("stepped_pass.py", "pyast_pass.py", "generated_names.py")

# the names of the files of code kept, and the bytes they may take together: where they take more, the
# oldest files are removed (a file for each program and options compiled, and for each edit of the passes,
# would else pile up); a resume entry removed is made again when asked for
KINDS = ("stepped-", "resume-", "driven-")
MOST_BYTES = 64 << 20

# a resume entry: the name its code defines and the code, or None for a site without one
Entry = tuple[str, CodeType] | None


class Stepped(NamedTuple):
    """What the stepped compilation of a source is, without its syntax tree."""

    code: CodeType  # the module of the generator functions
    generators: frozenset[str]  # their names
    decks_read: frozenset[str]  # `stepped_pass.decks_read`
    sites: frozenset[int]  # of the keyed compilation: its call sites that may have a resume entry


@functools.cache
def _passes_hash() -> str | None:
    """Return the hash of the passes' source files, or None where they cannot be read (nothing is cached)."""
    digest = hashlib.sha256()
    for name in _PASSES:
        try:
            digest.update((Path(__file__).parent / name).read_bytes())
        except OSError:
            return None
    return digest.hexdigest()


def stepped_key(source: str, filename: str, read_once: bool, keyed: bool, decks: Iterable[str]) -> str | None:
    """Return the hash the stepped compilation of `source` (under `filename`; the functions kept rewritten by
    `read_game_lists_once` if `read_once`; keyed if `keyed`; the program's `decks`) is kept under, or None
    where it is not to be kept (no cache tag, or the passes' source cannot be read)."""
    passes = _passes_hash()
    if passes is None or sys.implementation.cache_tag is None:
        return None
    made_by = (passes, importlib.util.MAGIC_NUMBER, sys.flags.optimize, filename, read_once, keyed, tuple(decks))
    digest = hashlib.sha256(repr(made_by).encode("utf-8"))
    digest.update(source.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def compiled(source: str, filename: str) -> CodeType:
    """Return `compile(source, filename, "exec")`, taken from the cache when it keeps it, else compiled and
    stored there (`driven-HASH-TAG.marshal`)."""
    if sys.implementation.cache_tag is None:
        return compile(source, filename, "exec")
    digest = hashlib.sha256(repr((importlib.util.MAGIC_NUMBER, sys.flags.optimize, filename)).encode("utf-8"))
    digest.update(source.encode("utf-8", "surrogatepass"))
    key = digest.hexdigest()
    name = _name("driven", key)
    data = _loaded(name)
    if isinstance(data, tuple) and len(data) == 2 and data[0] == key and isinstance(data[1], CodeType):
        return data[1]
    code = compile(source, filename, "exec")
    _keep(name, (key, code))
    return code


def _name(kind: str, key: str, site: int | None = None) -> str:
    part = "" if site is None else f"-{site}"
    return f"{kind}-{key[:32]}{part}-{sys.implementation.cache_tag}.marshal"


def _loaded(name: str) -> Any:
    """Return the marshal data the cache keeps under `name`, or None (none, or not marshal data)."""
    data = parser_cache.recalled(name)
    if data is None:
        return None
    try:
        return marshal.loads(data)
    except Exception:  # a damaged file is built again, whatever the damage
        return None


def _keep(name: str, data: Any, prune: bool = True) -> None:
    """Store `data` as marshal data under `name` in the cache, which is then pruned if `prune`
    (`parser_cache.kept`)."""
    parser_cache.kept(name, marshal.dumps(data), prune=(KINDS, MOST_BYTES) if prune else None)


def recalled_stepped(key: str) -> Stepped | None:
    """Return the stepped compilation the cache keeps under `key`, or None (none, damaged, or another's)."""
    data = _loaded(_name("stepped", key))
    if not (isinstance(data, tuple) and len(data) == 5 and data[0] == key):
        return None
    _, code, generators, decks, sites = data
    if not (
        isinstance(code, CodeType)
        and isinstance(generators, tuple)
        and all(isinstance(name, str) for name in generators)
        and isinstance(decks, tuple)
        and all(isinstance(deck, str) for deck in decks)
        and isinstance(sites, tuple)
        and all(type(site) is int for site in sites)
    ):
        return None
    return Stepped(code, frozenset(generators), frozenset(decks), frozenset(sites))


def keep_stepped(key: str, stepped: Stepped) -> None:
    """Store `stepped` in the cache under `key`."""
    data = (
        key,
        stepped.code,
        tuple(sorted(stepped.generators)),
        tuple(sorted(stepped.decks_read)),
        tuple(sorted(stepped.sites)),
    )
    _keep(_name("stepped", key), data)


def recalled_entry(key: str, site: int) -> tuple[Entry] | None:
    """Return, in a 1-tuple, the resume entry of `site` the cache keeps under `key` (None inside for a site
    without one), or None where it keeps none (none, damaged, or another's)."""
    data = _loaded(_name("resume", key, site))
    if not (isinstance(data, tuple) and len(data) == 3 and data[0] == key and data[1] == site):
        return None
    entry = data[2]
    if entry is not None and not (
        isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[0], str) and isinstance(entry[1], CodeType)
    ):
        return None
    return (entry,)


def keep_entry(key: str, site: int, entry: Entry) -> None:
    """Store the resume entry of `site` in the cache under `key`."""
    # (the folder is pruned when a module is stored, not at each of a run's resume entries)
    _keep(_name("resume", key, site), (key, site, entry), prune=False)
