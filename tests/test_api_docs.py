"""The generated API reference (docs/api.md) covers the public API, and every name it shows is documented.

docs/api.md is a list of mkdocstrings directives (`::: landlord_dsl.NAME`);
the site renders each from its docstring and annotations. These tests keep
it whole: every name the package exports has a directive, and every
function, method and property shown has a docstring and a return
annotation, so the page never shows an undocumented or untyped name.
"""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import pytest

import landlord_dsl as ld

ROOT = Path(__file__).resolve().parents[1]
PAGE = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
_DIRECTIVE = re.compile(r"^::: ([\w.]+)\n((?:    .*\n)*)", re.M)


def directives() -> list[tuple[str, str]]:
    """Return (dotted path, options block) of every mkdocstrings directive on the page."""
    return _DIRECTIVE.findall(PAGE)


def resolve(path: str) -> object:
    """Return the object a dotted path names (a package attribute, or an attribute of a module)."""
    module, _, name = path.rpartition(".")
    return getattr(importlib.import_module(module), name)


def shown_members(cls: type, options: str) -> list[tuple[str, object]]:
    """Return (name, callable or property) of the members the directive shows for a class."""
    if "members: false" in options:
        return []
    listed = re.findall(r"^\s+- (\w+)$", options, re.M)
    names = listed or [
        n
        for n, v in vars(cls).items()
        if not n.startswith("_") and (inspect.isfunction(v) or isinstance(v, (property, classmethod, staticmethod)))
    ]
    return [(n, inspect.getattr_static(cls, n)) for n in names]


def undocumented(path: str, obj: object) -> list[str]:
    """Return what is missing on one function, method or property: its docstring, its return annotation."""
    if isinstance(obj, (classmethod, staticmethod)):
        obj = obj.__func__
    if isinstance(obj, property):
        obj = obj.fget
    problems = []
    if not (inspect.getdoc(obj) or "").strip():
        problems.append(f"{path}: no docstring")
    if inspect.isfunction(obj) and inspect.signature(obj).return_annotation is inspect.Signature.empty:
        problems.append(f"{path}: no return annotation")
    return problems


def test_every_exported_name_has_a_directive():
    shown = {path.rsplit(".", 1)[1] for path, _ in directives()}
    exported = set(ld.__all__)
    assert exported - shown == set(), "exported by landlord_dsl but missing from docs/api.md"


@pytest.mark.parametrize("path,options", directives(), ids=[p for p, _ in directives()])
def test_every_name_shown_has_a_docstring_and_a_return_type(path, options):
    obj = resolve(path)
    problems = []
    if inspect.isclass(obj):
        if not (obj.__doc__ or "").strip():
            problems.append(f"{path}: no docstring")
        for name, member in shown_members(obj, options):
            problems += undocumented(f"{path}.{name}", member)
    else:
        problems += undocumented(path, obj)
    assert problems == []


def test_every_class_a_shown_function_returns_has_a_directive():
    """A type in a signature on the page (analyze's Analysis, diff's Change, ...) is documented there too."""
    shown = {path.rsplit(".", 1)[1] for path, _ in directives()}
    returned = set()
    for name in ld.__all__:
        obj = getattr(ld, name)
        if inspect.isfunction(obj):
            annotation = str(inspect.signature(obj).return_annotation)
            returned |= set(re.findall(r"\b([A-Z]\w+)\b", annotation))
    assert returned - shown == set(), "returned by a function on docs/api.md but not documented there"


def test_game_hides_the_engine_mixins_it_is_built_from():
    options = dict(directives())["landlord_dsl.Game"]
    assert "show_bases: false" in options and "inherited_members: false" in options
