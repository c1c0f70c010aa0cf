"""The nodes' and spans' quicker `__init__` (core/frozen.py) does what attrs' own did (issue 31, the parse)."""

from __future__ import annotations

import inspect

import attrs
import pytest

from landlord_dsl.core.frozen import ATTRS_INIT, quick_init, quick_maker
from landlord_dsl.core.span import Span
from landlord_dsl.language import ast

NODES = sorted(
    (c for c in vars(ast).values() if isinstance(c, type) and c.__module__ == ast.__name__ and attrs.has(c)),
    key=lambda c: c.__name__,
)


def test_every_node_and_the_span_have_it():
    assert set(NODES) | {Span} <= set(ATTRS_INIT)


@pytest.mark.parametrize("cls", [*NODES, Span], ids=lambda c: c.__name__)
def test_it_takes_the_same_arguments_and_sets_the_same_fields_as_attrs_init(cls):
    assert inspect.signature(cls.__init__) == inspect.signature(ATTRS_INIT[cls])
    fields = attrs.fields(cls)
    given = {f.name: object() for f in fields}
    required = {f.name: given[f.name] for f in fields if f.default is attrs.NOTHING}
    for arguments in (given, required):
        positional = [arguments[f.name] for f in fields if not f.kw_only and f.name in arguments]
        keyword = {f.name: arguments[f.name] for f in fields if f.kw_only and f.name in arguments}
        quick = cls(*positional, **keyword)
        by_attrs = object.__new__(cls)
        ATTRS_INIT[cls](by_attrs, *positional, **keyword)
        assert [getattr(quick, f.name) for f in fields] == [getattr(by_attrs, f.name) for f in fields]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        setattr(quick, fields[0].name, None)


def test_a_class_whose_init_does_more_keeps_attrs_init():
    @attrs.frozen
    class Checked:
        n: int = attrs.field(validator=attrs.validators.instance_of(int))

    @attrs.frozen
    class Made:
        items: list = attrs.field(factory=list)

    assert quick_init(Checked) is Checked and Checked not in ATTRS_INIT
    assert quick_init(Made) is Made and Made not in ATTRS_INIT
    with pytest.raises(TypeError):
        Checked("1")
    assert Made().items == [] and Made().items is not Made().items


def test_nodes_still_compare_hash_and_evolve_as_before():
    a = ast.Name("x", span=Span("f.lg", 1, 2, 1, 3))
    b = ast.Name("x")
    assert a == b and hash(a) == hash(b) and a.span != b.span
    assert attrs.evolve(a, name="y") == ast.Name("y") and attrs.evolve(a, name="y").span == a.span
    assert Span("f", 1, 2, 3, 4) == Span(file="f", line=1, column=2, end_line=3, end_column=4)


def test_the_span_maker_makes_what_the_class_makes():
    made = quick_maker(Span)("f.lg", 1, 2, 3, 4)
    assert type(made) is Span and attrs.astuple(made) == attrs.astuple(Span("f.lg", 1, 2, 3, 4))

    @attrs.frozen
    class Checked:
        n: int = attrs.field(validator=attrs.validators.instance_of(int))

    with pytest.raises(TypeError):
        quick_maker(Checked)
