"""A game's fields, read and set all at once: forks, saves restored, pickled stepped games and the analysis.

A game declares its fields (`__slots__`, engine/game.py), so it has no `__dict__` to copy: these
functions find the fields every class of a game declares.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from typing import Any


def fields_of(game: Any) -> dict[str, Any]:
    """Return every field of `game` by name: those its classes declare (`__slots__`) that are set, and the
    attributes of a subclass that keeps a `__dict__`."""
    cls: type = type(game)
    names, get = _getter(cls)
    try:
        fields = dict(zip(names, get(game)))
    except AttributeError:  # (a field not set yet: a game being made)
        fields = {name: getattr(game, name) for name in names if hasattr(game, name)}
    fields.update(getattr(game, "__dict__", ()))
    return fields


def copy_fields(source: Any, target: Any) -> None:
    """Give `target`, a game of the same class as `source`, every field of `source` (the same objects: what
    holds values that change is copied by the caller, as `Game.fork` does)."""
    cls: type = type(source)
    _copier(cls)(source, target)
    if hasattr(source, "__dict__"):
        target.__dict__.update(source.__dict__)


def put_fields(game: Any, fields: dict[str, Any]) -> None:
    """Set the fields of `game` to `fields` (as `fields_of` returns them)."""
    for name, value in fields.items():
        setattr(game, name, value)


@functools.cache  # (made for each class of game when first met, as are the two below)
def _copier(cls: type) -> Callable[[object, object], None]:
    """Return a function setting each field `cls` declares on its second argument to the first's: written
    out, a line a field, so that each read and write is a slot's (a loop of getattr and setattr costs
    several times more, and a fork copies every field)."""
    lines = [f"    target.{name} = source.{name}" for name in _declared(cls)] or ["    pass"]
    namespace: dict[str, Any] = {}
    exec("def copy(source, target):\n" + "\n".join(lines), namespace)  # (names from __slots__: identifiers)
    return namespace["copy"]


@functools.cache
def _getter(cls: type) -> tuple[tuple[str, ...], Callable[[object], tuple]]:
    """Return the names of the fields `cls` declares, and a function returning their values in that order."""
    names = _declared(cls)
    return names, operator.attrgetter(*names) if len(names) > 1 else lambda game: tuple(getattr(game, n) for n in names)


@functools.cache
def _declared(cls: type) -> tuple[str, ...]:
    """Return the names of the fields the classes of `cls` declare, each once (not `__dict__`, `__weakref__`,
    nor a field a subclass reads and writes otherwise, by a property of the same name)."""
    names: dict[str, None] = {}
    for klass in reversed(cls.__mro__):
        slots = klass.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name not in ("__dict__", "__weakref__") and _found(cls, name) is klass.__dict__[name]:
                names[name] = None
    return tuple(names)


def _found(cls: type, name: str) -> object:
    """Return what an instance of `cls` finds as `name` in its classes (the first in their order that has it)."""
    return next(klass.__dict__[name] for klass in cls.__mro__ if name in klass.__dict__)
