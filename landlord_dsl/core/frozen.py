"""A quicker `__init__` for frozen, slotted attrs classes that the parser makes by the thousand.

attrs' `__init__` of a frozen class sets each field through
`object.__setattr__` (the class's own `__setattr__` refuses), which looks the
name up in the class each time. The `__init__` made here sets each field
through its slot's descriptor, found once: the same signature, defaults and
fields set, in about two thirds of the time (a load of 1933 makes about 2,200
spans and as many nodes). A class that needs more of attrs' `__init__`
(validators, converters, factories, aliases, hooks, a cached hash) keeps it.
"""

from __future__ import annotations

from typing import Any, TypeVar

import attrs

C = TypeVar("C", bound=type)

# each class given a quicker __init__, with the one attrs made for it (the tests compare the two)
ATTRS_INIT: dict[type, Any] = {}


def _plain(cls: type) -> bool:
    """Return whether attrs' `__init__` of `cls` does nothing but set each field to its argument or default."""
    if not attrs.has(cls) or "__slots__" not in cls.__dict__:
        return False
    if any(hasattr(cls, hook) for hook in ("__attrs_pre_init__", "__attrs_post_init__")):
        return False
    if "_attrs_cached_hash" in cls.__dict__["__slots__"]:
        return False
    for f in attrs.fields(cls):
        if not f.init or f.validator is not None or f.converter is not None or f.alias != f.name:
            return False
        if isinstance(f.default, attrs.Factory):  # type: ignore[arg-type]
            return False
    return True


def _setting_fields(cls: type, names: dict[str, Any]) -> list[str]:
    """Return the lines of a made function that set each field of `cls` from the local of its name, through
    its slot's member descriptor, which is put into `names` (as `_set0`, `_set1`, ...)."""
    lines = []
    for i, f in enumerate(attrs.fields(cls)):
        names[f"_set{i}"] = getattr(cls, f.name).__set__
        lines.append(f"    _set{i}(self, {f.name})")
    return lines


def quick_init(cls: C) -> C:
    """Give the frozen, slotted attrs class `cls` an `__init__` that sets its fields through their slots'
    descriptors; return the class (unchanged if attrs' `__init__` does more than set the fields)."""
    if not _plain(cls):
        return cls
    fields = attrs.fields(cls)
    names: dict[str, Any] = {}
    positional: list[str] = []
    keyword: list[str] = []
    body = _setting_fields(cls, names)
    for i, f in enumerate(fields):
        if f.default is attrs.NOTHING:
            parameter = f.name
        else:
            names[f"_default{i}"] = f.default
            parameter = f"{f.name}=_default{i}"
        (keyword if f.kw_only else positional).append(parameter)
    parameters = ["self", *positional, *(["*", *keyword] if keyword else [])]
    source = f"def __init__({', '.join(parameters)}):\n" + ("\n".join(body) or "    pass") + "\n"
    exec(compile(source, f"<quick_init {cls.__module__}.{cls.__qualname__}>", "exec"), names)
    made = names["__init__"]
    original = cls.__init__  # type: ignore[misc]
    made.__qualname__ = f"{cls.__qualname__}.__init__"
    made.__module__ = cls.__module__
    made.__annotations__ = dict(getattr(original, "__annotations__", {}))
    made.__doc__ = original.__doc__
    ATTRS_INIT[cls] = original
    cls.__init__ = made  # type: ignore[misc]
    return cls


def quick_maker(cls: type) -> Any:
    """Return a function that makes an instance of the plain, frozen, slotted attrs class `cls` from all its
    fields, positionally in their order, without calling the class (no `__init__` call): the same instance
    `cls(*fields)` makes. Raises TypeError for a class whose `__init__` does more than set its fields."""
    if not _plain(cls):
        raise TypeError(f"{cls.__qualname__}: its __init__ does more than set its fields")
    fields = attrs.fields(cls)
    names: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    body = ["    self = _new(_cls)", *_setting_fields(cls, names)]
    source = f"def make({', '.join(f.name for f in fields)}):\n" + "\n".join(body) + "\n    return self\n"
    exec(compile(source, f"<quick_maker {cls.__module__}.{cls.__qualname__}>", "exec"), names)
    return names["make"]
