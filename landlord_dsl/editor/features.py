"""What an editor asks of a `.lg` file, answered from its text: problems, outline, definitions, hover, layout.

Every answer is in the project's own terms (Diagnostic, Span, Symbol); the
server turns them into the protocol's. Lines and columns are 1-based here,
as in diagnostics.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import attrs

from ..checking.builtins import BUILTINS
from ..checking.loader import format_with_base, load_text, modules_with_bases, warnings_of
from ..compiling.compiler import checked
from ..core.errors import Diagnostic, LandlordError
from ..core.span import Span
from ..language import ast
from ..language.parser import parse

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@attrs.frozen
class Symbol:
    """A declaration in a file's outline: its name, its kind (`rule`, `space`, ...), where it is, and what it holds."""

    name: str
    kind: str
    span: Span
    children: tuple[Symbol, ...] = ()


def problems(text: str, file: str) -> list[Diagnostic]:
    """Return what `landlord-dsl check` reports for the text of `file`: its errors, or when it has none its warnings."""
    try:
        return warnings_of(checked(load_text(text, file)))
    except LandlordError as err:
        return list(err.diagnostics)


def outline(text: str, file: str) -> list[Symbol]:
    """Return the file's declarations in order (a board with its spaces, a deck with its cards); [] if it does not
    parse."""
    module = _parsed(text, file)
    if module is None:
        return []
    return [symbol for d in module.declarations for symbol in _symbols(d)]


def word_at(text: str, line: int, column: int) -> str | None:
    """Return the name at a place of the text (the name the cursor is in or just after), or None."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return None
    for match in _WORD.finditer(lines[line - 1]):
        if match.start() < column <= match.end() + 1:
            return match.group()
    return None


def definition(text: str, file: str, line: int, column: int) -> Span | None:
    """Return where the name at a place is declared, in the file or in a base it extends, or None."""
    found = _declaration(text, file, line, column)
    return found[1] if found else None


def hover(text: str, file: str, line: int, column: int) -> str | None:
    """Return Markdown describing the name at a place: its declaration's kind, title, first line and citation,
    or a built-in function's signature and meaning; None for anything else."""
    name = word_at(text, line, column)
    if name is None:
        return None
    found = _declaration(text, file, line, column)
    if found is not None:
        decl, span = found
        kind = _kind(decl)
        title = getattr(decl, "label", None) or getattr(decl, "title", None)
        parts = [f"**{kind}** `{name}`" + (f" — {title}" if title else "")]
        first = _line_of(span, text, file)
        if first:
            parts.append(f"```lg\n{first}\n```")
        provenance = getattr(decl, "provenance", None)
        if provenance is not None:
            cited = f"source: {provenance.source}" + (f" ({provenance.confidence})" if provenance.confidence else "")
            parts.append(cited + (f"; {provenance.note}" if provenance.note else ""))
        if span.file != file:
            parts.append(f"declared in {Path(span.file).name}, line {span.line}")
        return "\n\n".join(parts)
    builtin = BUILTINS.get(name)
    if builtin is not None:
        return f"**built-in** `{name}({', '.join(builtin.params)}) -> {builtin.result}`\n\n{builtin.doc}"
    return None


def formatted(text: str, file: str) -> str | None:
    """Return the text in canonical layout (what `landlord-dsl fmt` writes), or None if it does not parse."""
    try:
        return format_with_base(text, file)
    except LandlordError:
        return None


def _parsed(text: str, file: str) -> ast.Module | None:
    try:
        return parse(text, file)
    except (LandlordError, RecursionError):
        return None


def _kind(decl: object) -> str:
    return type(decl).__name__.removesuffix("Decl").lower()


def _symbols(decl: object) -> Iterator[Symbol]:
    if isinstance(decl, ast.BoardDecl):
        yield Symbol("board", "board", decl.span, tuple(s for space in decl.spaces for s in _symbols(space)))
    elif isinstance(decl, ast.DeckDecl):
        yield Symbol(decl.name, "deck", decl.span, tuple(s for card in decl.cards for s in _symbols(card)))
    elif isinstance(getattr(decl, "name", None), str):
        yield Symbol(decl.name, _kind(decl), decl.span)  # type: ignore[attr-defined]


def _named(decls: tuple[object, ...]) -> Iterator[tuple[str, object, Span]]:
    """Yield (name, declaration, span) of every named declaration, spaces and cards included."""
    for d in decls:
        if isinstance(d, ast.BoardDecl):
            yield from _named(d.spaces)
        elif isinstance(d, ast.DeckDecl):
            yield d.name, d, d.span
            yield from _named(d.cards)
        elif isinstance(getattr(d, "name", None), str):
            yield d.name, d, d.span  # type: ignore[attr-defined]


def _declaration(text: str, file: str, line: int, column: int) -> tuple[object, Span] | None:
    """Return the declaration of the name at a place and where it is, looking in the file, then in its bases
    from the nearest; None if the name is declared nowhere (or the file does not parse)."""
    name = word_at(text, line, column)
    module = _parsed(text, file)
    if name is None or module is None:
        return None
    path = Path(file) if file.endswith(".lg") and Path(file).parent.is_dir() else None
    try:
        modules = modules_with_bases(module, path)
    except (LandlordError, OSError, RecursionError):
        modules = [module]
    for m in reversed(modules):
        for found, decl, span in _named(m.declarations):
            if found == name:
                return decl, span
    return None


def _line_of(span: Span, text: str, file: str) -> str | None:
    """Return the source line a span starts on, from the text being edited or from the base file it is in."""
    if span.file == file:
        lines = text.splitlines()
    else:
        try:
            lines = Path(span.file).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            return None
    return lines[span.line - 1].strip() if 1 <= span.line <= len(lines) else None
