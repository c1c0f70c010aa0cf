"""What an editor asks of a `.lg` file, answered from its text: problems, outline, definitions, hover, layout,
completions, references and renames.

Every answer is in the project's own terms (Diagnostic, Span, Symbol); the
server turns them into the protocol's. Lines and columns are 1-based here,
as in diagnostics.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import attrs
from lark.exceptions import UnexpectedInput
from lark.lexer import Token

from ..checking.bibliography import Source, shipped_sources
from ..checking.builtins import BUILTINS
from ..checking.loader import format_with_base, load_text, modules_with_bases
from ..checking.model import param_type
from ..checking.options import resolve_options
from ..compiling.compiler import Compiler, checked
from ..compiling.compiler import diagnose as problems  # what `check` reports, as the editor shows it
from ..core.errors import Diagnostic, LandlordError
from ..core.resources import editions_dir, shipped_files
from ..core.span import Span
from ..core.types import (
    ACCOUNT,
    BUILTIN_FIELDS,
    CARD,
    CONTEXT_NAMES,
    DECK,
    DICE,
    PLAYER,
    SHORTFALL_NAMES,
    SPACE,
    choice_name,
    choice_of,
    describe,
    dice_set_name,
    element_of,
    strip_optional,
)
from ..language import ast
from ..language.builder import unquote
from ..language.formatter import expr, quote
from ..language.grammar import event_names, grammar_words, keyword_terminals, lark_parser
from ..language.parser import parse

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DID_YOU_MEAN = re.compile(r"did you mean '([A-Za-z_][A-Za-z0-9_-]*)'\?")
_AFTER_ON = re.compile(r"\bon\s+[A-Za-z_]*$")
_IN_SOURCE = re.compile(r'\bsource\s+"([^"]*)$')
_REWRITES = re.compile(r"^`landlord-dsl fmt .*` rewrites it$")
_REWRITE = "Rewrite the file in the current forms (as landlord-dsl fmt does)"
_TYPED = re.compile(r"[A-Za-z0-9_]*$")
_FIRST_WORD = re.compile(r"^([a-z_]+)\b")
_PATH = r"[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*"
_COMPARED = re.compile(rf"(?<![\w.])({_PATH})\s*(?:==|!=|=)\s*$")
_DECLARED_AS = re.compile(r"\b(?:var|option)\s+[a-z_][a-z0-9_]*\s*:\s*([a-z_][a-z0-9_]*)\b[^=]*=\s*$")
_FIELD_AFTER = re.compile(rf"(?<![\w.])({_PATH})\.[a-z0-9_]*$")
# where a name gets its value inside a body: a loop, a `let`, a parameter
_BINDINGS = (
    (re.compile(rf"\bfor\s+([a-z_][a-z0-9_]*)\s+in\s+({_PATH})\b"), "element"),
    (re.compile(rf"\blet\s+([a-z_][a-z0-9_]*)\s*=\s*({_PATH})\s*$"), "value"),
    (re.compile(r"[(,]\s*([a-z_][a-z0-9_]*)\s*:\s*([a-z_][a-z0-9_]*)"), "type"),
)


@attrs.frozen
class Symbol:
    """A declaration in a file's outline: its name, its kind (`rule`, `space`, ...), where it is, and what it holds."""

    name: str
    kind: str
    span: Span
    children: tuple[Symbol, ...] = ()


@attrs.frozen
class Completion:
    """A word an editor may offer at a place: the word, what it is (`keyword`, `event`, `built-in`, `source`, or a
    declaration's kind) and a detail to show next to it (a built-in's signature, a source's identity)."""

    label: str
    kind: str
    detail: str | None = None


@attrs.frozen
class Fix:
    """A quick fix from a checker's hint: its title, the place to replace and the text to put there."""

    title: str
    span: Span
    new_text: str


class RenameRefused(ValueError):
    """Why a name cannot be renamed (declared only in a base file, a keyword, a built-in, or not a name)."""


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
        first = _line_of(span, text, file, f"{kind} {name}" if getattr(decl, "extension", None) else None)
        if first:
            parts.append(f"```lg\n{first}\n```")
        if isinstance(decl, ast.ConstDecl):
            value = _constant(text, file, name)
            if value is not None and value != expr(decl.value):  # (a literal is its own value)
                parts.append(f"value under the default options: `{value}`")
        extension = getattr(decl, "extension", None)
        if extension:
            parts.append(f"extension point: replace it in a variant. {extension}")
        provenance = getattr(decl, "provenance", None)
        if provenance is not None:
            cited = f"source: {provenance.source}" + (f" ({provenance.confidence})" if provenance.confidence else "")
            parts.append(cited + (f"; {provenance.note}" if provenance.note else ""))
            entry = _sources().get(re.split(r"[,:]", provenance.source, maxsplit=1)[0].strip())
            if entry is not None:
                parts.append(f"> {entry.identity}")
        if span.file != file:
            parts.append(f"declared in {Path(span.file).name}, line {span.line}")
        return "\n\n".join(parts)
    builtin = BUILTINS.get(name)
    if builtin is not None:
        return f"**built-in** `{name}({', '.join(builtin.params)}) -> {builtin.result}`\n\n{builtin.doc}"
    return None


def _constant(text: str, file: str, name: str) -> str | None:
    """Return the value of the constant `name` under the default options, as .lg writes it; None when the text
    does not check or the value cannot be worked out."""
    try:
        rules = checked(load_text(text, file))
        const = rules.model.consts.get(name)
        if const is None:
            return None
        value = Compiler(rules, resolve_options(rules, None)).constant(const.value)
    except (LandlordError, RecursionError):
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | str):
        return quote(value) if isinstance(value, str) else str(value)
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
    for m in reversed(_with_bases(module, file)):
        for found, decl, span in _named(m.declarations):
            if found == name:
                return decl, span
    return None


def bases(text: str, file: str) -> list[Path]:
    """Return the files a text extends, directly or through another base, the nearest first (resolved paths);
    [] if it extends none, does not parse, or its bases cannot be read."""
    module = _parsed(text, file)
    if module is None:
        return []
    return [Path(m.source_name).resolve() for m in reversed(_with_bases(module, file)[:-1])]


def _with_bases(module: ast.Module, file: str) -> list[ast.Module]:
    """Return the module after the bases it extends, the furthest first (only the module if they cannot be read)."""
    path = Path(file) if file.endswith(".lg") and Path(file).parent.is_dir() else None
    try:
        return modules_with_bases(module, path)
    except (LandlordError, OSError, RecursionError):
        return [module]


def _line_of(span: Span, text: str, file: str, opening: str | None = None) -> str | None:
    """Return the source line a span starts on, from the text being edited or from the base file it is in; with
    `opening`, the first line from there that holds it (an extension point's declaration after its doc line)."""
    if span.file == file:
        lines = text.splitlines()
    else:
        try:
            lines = Path(span.file).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            return None
    if not 1 <= span.line <= len(lines):
        return None
    if opening is not None:
        return next((line.strip() for line in lines[span.line - 1 : span.line + 2] if opening in line), None)
    return lines[span.line - 1].strip()


def grammar_keywords() -> tuple[frozenset[str], tuple[str, ...]]:
    """Return (every keyword of the grammar, the event names a handler's `on` takes), read from the grammar."""
    return grammar_words()[0], event_names()


def completions(text: str, file: str, line: int, column: int) -> list[Completion]:
    """Return the words that may be typed at a place, by what comes before it on its line.

    Inside `source "…"` (before the locator's `,` or `:`): the bibliography's keys and the file's own
    `reference`s. In any other string or in a comment: nothing. After `on `: the event names. Elsewhere: the
    keywords the grammar allows there and, where it allows a name, the names declared in the file and the bases
    it extends and the built-in functions; where the text before the place does not parse, every keyword and
    name.
    """
    lines = text.splitlines()
    before = lines[line - 1][: column - 1] if 1 <= line <= len(lines) else ""
    quoted = _quotes_open(before)
    if quoted is None:
        return []
    hole = _open_hole(before) if quoted else None
    fields = _field_completions(text, file, line, before if hole is None else hole) if not quoted or hole else None
    if fields is not None:
        return fields
    if quoted:
        cited = _IN_SOURCE.search(before)
        if cited is None:
            return _choice_completions(text, file, line, before[: before.rfind('"')])
        if re.search(r"[,:][^;]*$", cited.group(1)):
            return []
        found = [Completion(key, "source", s.identity) for key, s in _sources().items()]
        return found + [Completion(key, "source", identity) for key, identity in _references(text)]
    keywords, events = grammar_keywords()
    if _AFTER_ON.search(before):
        return [Completion(event, "event") for event in events]
    allowed = _allowed_terminals(lines[: line - 1], before)
    if allowed is not None:
        terminals = keyword_terminals()
        keywords = frozenset(word for word in keywords if terminals.get(word) in allowed)
    found = [Completion(word, "keyword") for word in sorted(keywords)]
    if allowed is not None and "NAME" not in allowed:
        return found
    seen: set[str] = set()
    for name, decl, _ in _declared(text, file, line):
        if name not in seen:
            seen.add(name)
            found.append(Completion(name, _kind(decl)))
    for name, builtin in sorted(BUILTINS.items()):
        found.append(Completion(name, "built-in", f"{name}({', '.join(builtin.params)}) -> {builtin.result}"))
    return found


def _choice_completions(text: str, file: str, line: int, before: str) -> list[Completion]:
    """Return the values a text may take where a string opens at the end of `before`: those of the choice (or of
    the option listing its values) of what it is compared with or given to (`x == "`, `set x = "`,
    `var x: CHOICE = "`, `option x: CHOICE ... = "`); [] for any other string."""
    declared = list(_declared(text, file, line))
    as_declared = _DECLARED_AS.search(before)
    compared = _COMPARED.search(before)
    if as_declared is not None:
        type_ = param_type(as_declared.group(1))
    elif compared is not None:
        above = [*text.splitlines()[: line - 1], before[: compared.start()]]
        type_ = _path_type(compared.group(1), declared, _fields_by_type(declared), above)
    else:
        return []
    name = choice_name(type_)
    for found, decl, _ in reversed(declared):
        if found == name and isinstance(decl, ast.ChoiceDecl | ast.OptionDecl):
            values = decl.values if isinstance(decl, ast.ChoiceDecl) else decl.choices or ()
            label = f"a value of {'choice' if isinstance(decl, ast.ChoiceDecl) else 'option'} '{name}'"
            return [Completion(value, "value", label) for value in values]
    return []


def _open_hole(before: str) -> str | None:
    """Return the text typed so far in a string's `{...}` hole open at the end of `before`, or None."""
    opened = before.rfind('"')
    hole = before.rfind("{", opened)
    return before[hole + 1 :] if hole > before.rfind("}", opened) else None


def _field_completions(text: str, file: str, line: int, before: str) -> list[Completion] | None:
    """Return the fields of the value before a `.` being completed at the end of `before` (a name or a path of
    fields: `player.space.`), with their types; every field of every type when what the value is cannot be told
    from the names declared, the context names and the loops, `let`s and parameters above; None if no field is
    being completed."""
    typed = _FIELD_AFTER.search(before)
    if typed is None:
        return None
    declared = list(_declared(text, file, line))
    fields = _fields_by_type(declared)
    above = [*text.splitlines()[: line - 1], before[: typed.start()]]
    type_ = _path_type(typed.group(1), declared, fields, above)
    if type_ in fields:
        return [Completion(name, "field", describe(t)) for name, t in sorted(fields[type_].items())]
    every: dict[str, str] = {}
    for of, named in fields.items():
        for name in named:
            every.setdefault(name, f"a field of {describe(of)}")
    return [Completion(name, "field", detail) for name, detail in sorted(every.items())]


def _fields_by_type(declared: list[tuple[str, object, Span]]) -> dict[str, dict[str, str]]:
    """Return the fields of each type that has some: the built-in ones, a player's and a space's variables and
    the fields of the kinds of space."""
    fields = {type_: dict(named) for type_, named in BUILTIN_FIELDS.items()}
    for _, decl, _ in declared:
        if isinstance(decl, ast.VarDecl) and decl.scope in ("player", "space"):
            of = PLAYER if decl.scope == "player" else SPACE
            fields[of][decl.name] = param_type(decl.type) if decl.type else _literal_type(decl.initial)
        elif isinstance(decl, ast.KindDecl):
            for field in decl.fields:
                fields[SPACE].setdefault(field.name, param_type(field.type))
    return fields


def _literal_type(value: object) -> str:
    """Return the type of a variable's starting value when it is a literal number, truth value or text, else
    "anything" (the checker works the rest out; completion does not)."""
    literal = {ast.IntLit: "int", ast.BoolLit: "bool", ast.TextLit: "text"}.get(type(value))
    return param_type(literal) if literal else "anything"


def _path_type(path: str, declared: list, fields: dict[str, dict[str, str]], above: list[str], depth: int = 0) -> str:
    """Return the type of a name followed by fields (`p.space.owner`), or "" if it cannot be told."""
    first, *rest = path.split(".")
    type_ = _name_type(first, declared, fields, above, depth)
    for name in rest:
        of = DICE if dice_set_name(type_) is not None else type_
        type_ = strip_optional(fields.get(of, {}).get(name, ""))
    return DICE if dice_set_name(type_) is not None else type_


def _name_type(name: str, declared: list, fields: dict[str, dict[str, str]], above: list[str], depth: int) -> str:
    """Return the type of a name where it is used: bound by a loop, `let` or parameter in the declaration above
    (the nearest first), a context name, or a declared space, account, card, deck, dice or game variable."""
    if depth > 8:
        return ""
    for number in range(len(above) - 1, -1, -1):
        for pattern, how in _BINDINGS:
            for bound in reversed(list(pattern.finditer(above[number]))):
                if bound.group(1) != name:
                    continue
                if how == "type":
                    return param_type(bound.group(2))
                value = _path_type(bound.group(2), declared, fields, above[:number], depth + 1)
                return (element_of(value) or "") if how == "element" else value
        if above[number][:1].isalpha():
            break  # the declaration's first line: no binding above it reaches here
    context = CONTEXT_NAMES.get(name) or SHORTFALL_NAMES.get(name)
    if context is not None:
        return strip_optional(context)
    for found, decl, _ in reversed(declared):
        if found == name:
            kinds = {ast.SpaceDecl: SPACE, ast.AccountDecl: ACCOUNT, ast.CardDecl: CARD, ast.DeckDecl: DECK}
            if isinstance(decl, ast.DiceDecl):
                return DICE
            if isinstance(decl, ast.OptionDecl):
                if decl.choices:
                    return choice_of(decl.name)
                if decl.choice:
                    return choice_of(decl.choice)
                return param_type({bool: "bool", int: "int", str: "text"}[type(decl.default)])
            if isinstance(decl, ast.VarDecl) and decl.scope not in ("player", "space") and decl.type:
                return param_type(decl.type)
            return kinds.get(type(decl), "")
    return ""


def _allowed_terminals(lines: list[str], before: str) -> frozenset[str] | None:
    """Return the terminals (`RULE`, `NAME`, ...) the grammar allows where the word being typed at the end of
    `before` starts, after the `lines` above it; None if the text before that place does not parse.

    Only the declaration the place is in is parsed, after a stand-in header: the last line above that starts a
    declaration at its first column (a formatted file's declarations do), or the whole text if none does.
    """
    typed = _TYPED.sub("", before, count=1)
    declaring = grammar_words()[1] - {"edition"}
    start = next(
        (i for i in range(len(lines) - 1, -1, -1) if (m := _FIRST_WORD.match(lines[i])) and m.group(1) in declaring),
        None,
    )
    prefix = "\n".join([*lines, typed]) if start is None else 'edition "_" { }\n' + "\n".join([*lines[start:], typed])
    try:
        interactive = lark_parser().parse_interactive(prefix, start="start")
        interactive.exhaust_lexer()
        return frozenset(interactive.accepts())
    except (UnexpectedInput, RecursionError):
        return None


def references(text: str, file: str, line: int, column: int, include_declaration: bool = True) -> list[Span]:
    """Return where the declared name at a place occurs as a name (never in a string or a comment): in the file;
    when a base it extends declares the name too, in the bases (their own files, furthest first); when the file
    declares it, in the files that extend the file (those of its folder and, for a shipped edition, the shipped
    variants); its declaration included or not; [] if the name is declared nowhere. The file's places come first.

    Occurrences are found by the language's lexer, word for word: a field or parameter spelt like the
    declaration counts as one of its occurrences, and so does a keyword (a kind named `start`).
    """
    name = word_at(text, line, column)
    found = _declaration(text, file, line, column)
    module = _parsed(text, file)
    if name is None or found is None or module is None:
        return []
    _, declared = found
    places = [_span_of(t, file) for t in _tokens(text) if t.value == name]
    for base in _with_bases(module, file)[:-1]:
        if base.source_text and any(n == name for n, _, _ in _named(base.declarations)):
            places += [_span_of(t, base.source_name) for t in _tokens(base.source_text) if t.value == name]
    if declared.file == file:
        for dependent, dependent_text in _dependents(file, name):
            places += [_span_of(t, str(dependent)) for t in _tokens(dependent_text) if t.value == name]
    if include_declaration:
        return places
    at = (declared.file, declared.line, declared.column)
    named = next((p for p in places if p.file == declared.file and (p.file, p.line, p.column) >= at), None)
    return [p for p in places if p != named]


def _dependents(file: str, name: str) -> list[tuple[Path, str]]:
    """Return the files (and their texts) that extend `file`, directly or through another base, and have the
    word `name`: among the .lg files of its folder and, when it is a shipped edition, the shipped variants."""
    path = Path(file)
    if not file.endswith(".lg") or not path.is_file():
        return []
    me = path.resolve()
    candidates = set(path.parent.glob("*.lg"))
    if me.is_relative_to(editions_dir().resolve()):
        candidates |= set(shipped_files().values())
    found = []
    for other in sorted(candidates):
        try:
            other_text = other.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if not ("extends" in other_text and re.search(rf"\b{re.escape(name)}\b", other_text)):
            continue  # (reading its bases, the slow part, only for a file that may use the name)
        if other.resolve() != me and me in bases(other_text, str(other)):
            found.append((other, other_text))
    return found


def rename_target(text: str, file: str, line: int, column: int) -> Span:
    """Return where the name at a place is in the line, if it may be renamed: declared in this file, or in a
    base file it extends that is not a shipped edition.

    Raise RenameRefused for a name declared in a shipped edition the file extends (shipped editions are not
    renamed), a keyword, a built-in, or a place that is no declared name.
    """
    return _renamed(text, file, line, column)[0]


def _shipped(file: str) -> bool:
    """Return True for a file of the package's own editions and variants."""
    return Path(file).resolve().is_relative_to(editions_dir().resolve())


def _renamed(text: str, file: str, line: int, column: int) -> tuple[Span, list[Span]]:
    """Return the place of the name at a place and every place of it in the file, the base that declares it and
    the files that extend the declaring file, if it may be renamed; raise RenameRefused as rename_target says.
    The file's places are read from `text` (which may not be saved), every other file's from disk."""
    name = word_at(text, line, column)
    if name is None:
        raise RenameRefused("there is no name here")
    if name in grammar_keywords()[0]:
        raise RenameRefused(f"'{name}' is a keyword of the language")
    found = _declaration(text, file, line, column)
    if found is None:
        if name in BUILTINS:
            raise RenameRefused(f"'{name}' is a built-in function")
        raise RenameRefused(f"'{name}' is not declared in this file")
    declared = found[1]
    here = [p for p in references(text, file, line, column) if p.file == file]
    if declared.file == file:
        places = references(text, file, line, column)
    elif _shipped(declared.file):
        raise RenameRefused(
            f"'{name}' is declared in {Path(declared.file).name}, a shipped edition this file extends (not renamed)"
        )
    else:
        base_text = Path(declared.file).read_text(encoding="utf-8")
        at = (declared.line, declared.column)  # the declaration's start; its name is the first such word after
        named = next(
            (t for t in _tokens(base_text) if t.value == name and ((t.line or 1), (t.column or 1)) >= at), None
        )
        if named is None:
            raise RenameRefused(f"'{name}' cannot be found in {Path(declared.file).name}")
        elsewhere = references(base_text, declared.file, named.line or 1, named.column or 1)
        places = here + [p for p in elsewhere if Path(p.file).resolve() != Path(file).resolve()]
    place = next((p for p in here if p.line == line and p.column <= column <= p.end_column), None)
    if place is None:
        raise RenameRefused(f"'{name}' here cannot be read as a name (the lexer stops before it)")
    return place, places


def rename(text: str, file: str, line: int, column: int, new_name: str) -> list[Span]:
    """Return the places to replace by `new_name` to rename the declared name at a place: in the file, in the base
    that declares it (when that is not a shipped edition) and in the files that extend the declaring file (those
    of its folder, and the shipped variants of a shipped edition), the file's places first.

    Raise RenameRefused when the name may not be renamed (see rename_target) or `new_name` is no name, is a
    keyword or a built-in, or is declared already in one of those files or their bases.
    """
    _, places = _renamed(text, file, line, column)
    if not _WORD.fullmatch(new_name) or new_name in grammar_keywords()[0] or new_name in BUILTINS:
        raise RenameRefused(f"'{new_name}' cannot be a name: it is not a word, or is a keyword or a built-in")
    for touched in dict.fromkeys(p.file for p in places):
        touched_text = text if touched == file else Path(touched).read_text(encoding="utf-8")
        if any(name == new_name for name, _, _ in _declared(touched_text, touched, line if touched == file else 1)):
            where = "" if touched == file else f" in {Path(touched).name}"
            raise RenameRefused(f"'{new_name}' is declared already{where}")
    return places


def quick_fixes(
    text: str, file: str, first_line: int, last_line: int, found: list[Diagnostic] | None = None
) -> list[Fix]:
    """Return a fix for each problem on the lines `first_line` to `last_line` whose hint is "did you mean 'x'?":
    the misspelt name (the problem's subject, or the name it starts at) replaced by the name suggested; and, for
    a warning of a form the language will drop (a citation before a `{`, kind fields without commas: the hint
    says `landlord-dsl fmt` rewrites it), one fix rewriting the whole text as `fmt` does.
    `found` are the text's problems when already known (`problems(text, file)`, worked out otherwise)."""
    lines = text.splitlines()
    fixes: list[Fix] = []
    for problem in problems(text, file) if found is None else found:
        span, hinted = problem.span, _DID_YOU_MEAN.search(problem.hint or "")
        if span is None or span.file != file or not first_line <= span.line <= last_line:
            continue
        if hinted is None:
            if _REWRITES.search(problem.hint or "") and not any(f.title == _REWRITE for f in fixes):
                rewritten = formatted(text, file)
                if rewritten is not None and rewritten != text:
                    fixes.append(Fix(_REWRITE, Span(file, 1, 1, len(lines) + 1, 1), rewritten))
            continue
        if span.line > len(lines):
            continue
        line = lines[span.line - 1]
        name = problem.subject or word_at(text, span.line, span.column)
        start = line.find(name, span.column - 1) if name else -1
        if name is None or start < 0:
            continue
        place = Span(file, span.line, start + 1, span.line, start + 1 + len(name))
        suggested = hinted.group(1)
        fixes.append(Fix(f"Replace '{name}' with '{suggested}'", place, suggested))
    return fixes


def _quotes_open(before: str) -> bool | None:
    """Return whether a string is open at the end of a line's beginning; None if a comment is."""
    inside = False
    escaped = False
    for char in before:
        if inside:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                inside = False
        elif char == '"':
            inside = True
        elif char == "#":
            return None
    return inside


def _lexed(text: str) -> list[Token]:
    """Return the text's tokens (comments skipped), up to the first place the lexer cannot read."""
    tokens: list[Token] = []
    try:
        for token in lark_parser().lex(text):
            tokens.append(token)
    except UnexpectedInput:
        pass
    return tokens


def _tokens(text: str) -> list[Token]:
    """Return the text's words (names and keywords) the lexer reads; never a string's or a comment's."""
    return [token for token in _lexed(text) if _WORD.fullmatch(token.value)]


def _span_of(token: Token, file: str) -> Span:
    return Span(file, token.line or 1, token.column or 1, token.end_line or 1, token.end_column or 1)


def _references(text: str) -> list[tuple[str, str]]:
    """Return the (key, identity) of the file's own `reference` declarations, read from its tokens."""
    tokens = _lexed(text)
    return [
        (unquote(tokens[i + 1].value), unquote(tokens[i + 2].value))
        for i, t in enumerate(tokens[:-2])
        if t.type == "REFERENCE" and tokens[i + 1].type == "STRING" and tokens[i + 2].type == "STRING"
    ]


def _sources() -> dict[str, Source]:
    try:
        return dict(shipped_sources())
    except LandlordError:
        return {}


def _declared(text: str, file: str, line: int) -> Iterator[tuple[str, object, Span]]:
    """Yield the named declarations of the file and its bases; a file that does not parse is read without the
    line being typed."""
    module = _parsed(text, file)
    if module is None:
        lines = text.splitlines()
        module = _parsed("\n".join(lines[: line - 1] + [""] + lines[line:]), file)
    if module is None:
        return
    for m in reversed(_with_bases(module, file)):
        yield from _named(m.declarations)
