"""Pass 1: .lg text to a typed AST.

`parse` reads a file with the grammar (grammar.py); the AstBuilder
(builder.py) makes the frozen attrs nodes as the parser reduces each rule
(treeless.py, no parse tree is made), and every syntax error
becomes a Diagnostic with the line, a caret and a hint (syntax_errors.py).
After an error, reading goes on at the next declaration (recovery.py), so
one file reports all its syntax errors.
"""

from __future__ import annotations

import attrs
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..core.errors import Diagnostic, SourceText
from . import ast
from .builder import AstBuilder, unquote
from .grammar import lark_parser
from .limits import TOO_DEEP, too_deep  # noqa: F401 - TOO_DEEP: compiler.py imports it from here until it uses limits
from .recovery import Recovery, SyntaxErrors
from .treeless import build


def header_title(text: str) -> str | None:
    """Return the title a file's header gives, or None, reading only the header's tokens (nothing is checked).

    `landlord-dsl list` names many files this way without parsing and checking each.
    """
    previous = None
    try:
        for token in lark_parser().lex(text):
            if token.value == "}":
                return None
            if previous == "title" and token.type == "STRING":
                return unquote(token.value)
            previous = token.value
    except UnexpectedInput:
        return None
    return None


def parse(text: str, file: str = "<string>") -> ast.Module:
    """Parse .lg source text; return its Module, or raise LandlordError (SyntaxErrors for every syntax error)."""
    source = SourceText(file, text)
    recovery = Recovery(source)
    partial = None
    try:
        builder = AstBuilder(file)
        header, decls = build(builder, text, "start", recovery)
        partial = ast.Module(header, decls, source_name=file, source_text=text, old_syntax=tuple(builder.old_syntax))
    except UnexpectedInput as err:
        recovery.record(err)
    except RecursionError:
        raise too_deep(source) from None
    if recovery.diagnostics:
        raise SyntaxErrors(recovery.diagnostics, partial, recovery.damaged)
    assert partial is not None
    return partial


def parse_hole(text: str, at: ast.Span) -> ast.Expr | str:
    """Parse the expression of a `{...}` hole in a prompt or label.

    Returns the expression, every node of it located at `at` (the text it
    sits in), or, if the hole is not an expression, what is wrong with it.
    """
    try:
        return build(AstBuilder(at.file, at), text, "hole")
    except UnexpectedInput as err:
        if isinstance(err, UnexpectedCharacters):
            return f"the character {text[err.pos_in_stream]!r} has no meaning there"  # type: ignore[index]
        if isinstance(err, UnexpectedEOF) or (isinstance(err, UnexpectedToken) and err.token.type == "$END"):
            return "it ends too soon" if text.strip() else "it is empty"
        return f"{str(err.token)!r} cannot follow {text[: err.token.start_pos].strip()!r}"  # type: ignore[attr-defined]
    except RecursionError:
        return "it nests too deeply"


def old_syntax_warnings(module: ast.Module) -> list[Diagnostic]:
    """Return a warning for each construct the module writes in a form the language will drop."""
    source = source_of(module)
    return [
        attrs.evolve(source.diagnostic(old.message, old.span, old.hint), severity="warning")
        for old in module.old_syntax
    ]


def source_of(module: ast.Module) -> SourceText:
    """Return the SourceText a module was parsed from."""
    return SourceText(module.source_name, module.source_text)
