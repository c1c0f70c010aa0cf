"""The per-node dispatch of the checker and the formatter (issue 14, item 6).

Every pass that walks the AST keys its methods by node class; a node class
without a handler is refused when the module is imported, not met at run time.
"""

from typing import Union

import pytest

from landlord_dsl import ast
from landlord_dsl.dispatch import covers, dispatch_table, handles


class _A:
    pass


class _B:
    pass


class _C:
    pass


_Node = Union[_A, _B, _C]


def test_a_table_maps_each_node_class_to_its_method_and_inherits_the_bases_handlers():
    class Base:
        @handles(_A)
        def a(self, node):
            return "base a"

    class Pass(Base):
        @handles(_B, _C)
        def b_or_c(self, node):
            return "b or c"

    table = dispatch_table(Pass, _Node)
    assert set(table) == {_A, _B, _C}
    assert table[_A](Pass(), _A()) == "base a" and table[_C](Pass(), _C()) == "b or c"


def test_a_node_class_without_a_handler_is_refused_by_name():
    class Pass:
        @handles(_A, _B)
        def ab(self, node):
            return None

    with pytest.raises(TypeError, match=r"Pass handles the nodes wrongly: missing \['_C'\]"):
        dispatch_table(Pass, _Node)


def test_covers_names_a_class_handled_that_is_not_in_the_union():
    with pytest.raises(TypeError, match=r"extra \['Span'\]"):
        covers(_Node, [_A, _B, _C, ast.Span], "printer")
