"""The per-node dispatch of the checker and the formatter (issue 14, item 6).

Every pass that walks the AST keys its methods by node class; a node class
without a handler is refused when the module is imported, not met at run time.
"""

from typing import Union, get_args

import pytest

from landlord_dsl.core.dispatch import covers, dispatch_table, handles, named_dispatch_table
from landlord_dsl.language import ast


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


def test_a_named_table_maps_each_node_class_to_the_method_of_its_name_and_refuses_gaps():
    """The compiler names its methods `_e_` / `_s_` + the node class (issue 28 §3: its dispatch was an
    unchecked `getattr`); the table is checked as `dispatch_table` is, when the module is imported."""

    class Pass:
        def _n__A(self, node):
            return "a"

        def _n__B(self, node):
            return "b"

    class Whole(Pass):
        def _n__C(self, node):
            return "c"

    table = named_dispatch_table(Whole, _Node, "_n_")
    assert {klass: table[klass](Whole(), klass()) for klass in (_A, _B, _C)} == {_A: "a", _B: "b", _C: "c"}
    with pytest.raises(TypeError, match=r"Pass handles the nodes wrongly: missing \['_C'\], extra none"):
        named_dispatch_table(Pass, _Node, "_n_")

    class Extra(Whole):
        def _n_D(self, node):
            return "d"

    with pytest.raises(TypeError, match=r"missing none, extra \['D'\]"):
        named_dispatch_table(Extra, _Node, "_n_")


def test_the_compiler_has_a_method_for_every_expression_and_statement():
    from landlord_dsl.compiling import codegen_expr, codegen_stmt

    assert set(codegen_expr._EXPRESSIONS) == set(get_args(ast.Expr))
    assert set(codegen_stmt._STATEMENTS) == set(get_args(ast.Stmt))
