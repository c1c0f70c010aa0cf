"""Loading a rule set: read files, follow `extends`, merge variants, check.

A variant's declarations replace the base's declarations of the same kind and
name in place, new ones are appended, and `remove KIND NAME` deletes one.
Spaces merge by name inside the board. Diagnostics keep pointing at the file
each declaration came from, so an error in a variant names the variant's line.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import attrs

from ..core.collector import collector_paused
from ..core.errors import (
    Diagnostic,
    LandlordError,
    RuleCheckError,
    RuleSourceError,
    RuleSyntaxError,
    SourceText,
    UsageError,
    did_you_mean,
)
from ..core.installation import shown_name
from ..core.resources import editions_dir, resolve
from ..core.types import ANY, describe
from ..language import ast
from ..language.formatter import WIDTH, format_text
from ..language.limits import MAX_INPUT, too_deep
from ..language.parser import SyntaxErrors, old_syntax_warnings, parse, source_of
from ..language.sourcefile import read_source
from .checker import Checker, Model, check_declarations
from .extensions import restatement_warnings
from .narrowing import purposes_paid

_MAX_EXTENDS_DEPTH = 16


@attrs.frozen
class RuleSet:
    """A checked edition or variant, ready to compile; made by `load_edition` or `load_text`.

    Example:

        >>> rules = ld.load_edition("landlords-game-1906")
        >>> rules.name, rules.path.name
        ('landlords-game-1906', 'landlords-game-1906.lg')
    """

    name: str
    model: Model
    modules: tuple[ast.Module, ...]  # the base edition first, this file last
    path: Path | None
    rules_hash: str
    warnings: tuple[Diagnostic, ...] = ()  # what `check` points out without refusing the rules (extensions.py)
    unkeyed: tuple[Diagnostic, ...] = ()  # citations without a source key: warnings of `check --strict` only
    constants: tuple[tuple[str, Any], ...] = ()  # set from outside (constants.with_constants), by the last module
    # the Programs games of these rules play, by option values and native mode (compiling.compiler.program_for):
    # a RuleSet never changes, nor does a Program, so the games started from one RuleSet share them
    programs: dict[tuple, Any] = attrs.field(factory=dict, init=False, eq=False, repr=False)


# the declarations known by their kind ("option" for an OptionDecl, ...) and their name
_NAMED = (
    ast.OptionDecl,
    ast.AccountDecl,
    ast.ConstDecl,
    ast.TableDecl,
    ast.GroupDecl,
    ast.KindDecl,
    ast.DeckDecl,
    ast.FunctionDecl,
    ast.ActionDecl,
    ast.RuleDecl,
    ast.ChoiceDecl,
    ast.DiceDecl,
    ast.PurposeDecl,
)


def _decl_key(d: ast.Declaration) -> tuple[str, str] | None:
    if isinstance(d, _NAMED):
        return type(d).__name__.removesuffix("Decl").lower(), d.name
    if isinstance(d, ast.VarDecl):
        return f"{d.scope} var", d.name
    if isinstance(d, ast.ScoreDecl):
        return "score", ""
    if isinstance(d, ast.EndDecl) and d.name is not None:
        return "end", d.name
    if isinstance(d, ast.ReferenceDecl):
        return "reference", d.key
    return None


def merge(
    base: list[ast.Declaration], variant: ast.Module, sources: dict[str, SourceText]
) -> tuple[list[ast.Declaration], list[Diagnostic], list[Diagnostic]]:
    """Return the base declarations with the variant's applied on top, what could not be applied, and warnings."""
    out = list(base)
    problems: list[Diagnostic] = []
    warnings: list[Diagnostic] = []
    src = sources[variant.source_name]
    board_index = next((i for i, d in enumerate(out) if isinstance(d, ast.BoardDecl)), None)
    # the variant's own declarations by key, and its spaces by name: a second of one is an error, as in an
    # edition (applied on top, it would silently replace the first)
    own: dict[tuple[str, str], ast.Span] = {}
    for d in variant.declarations:
        named = [(("space", s.name), s) for s in d.spaces] if isinstance(d, ast.BoardDecl) else []
        key = _decl_key(d)  # (None for a board, a removal, a replaced handler)
        for k, node in named + ([(key, d)] if key is not None else []):
            if k in own:
                problems.append(_declared_twice(k, node.span, own[k], src))
            else:
                own[k] = node.span
    for d in variant.declarations:
        if isinstance(d, ast.BoardDecl):
            if board_index is None:
                out.append(d)
                board_index = len(out) - 1
                continue
            board = out[board_index]
            assert isinstance(board, ast.BoardDecl)
            spaces = list(board.spaces)
            for s in d.spaces:
                at = next((i for i, old in enumerate(spaces) if old.name == s.name), None)
                if at is None:
                    spaces.append(s)
                else:
                    spaces[at] = s
            out[board_index] = ast.BoardDecl(tuple(spaces), span=board.span)
        elif isinstance(d, ast.RemoveDecl):
            if d.what == "space" and board_index is not None:
                board = out[board_index]
                assert isinstance(board, ast.BoardDecl)
                spaces = [s for s in board.spaces if s.name != d.name]
                if len(spaces) == len(board.spaces):
                    problems.append(
                        src.diagnostic(
                            f"the base has no space '{d.name}' to remove",
                            d.span,
                            did_you_mean(d.name, [s.name for s in board.spaces]),
                        )
                    )
                for removed in (s for s in board.spaces if s.name == d.name):
                    _uncount_deed(out, removed)
                out[board_index] = ast.BoardDecl(tuple(spaces), span=board.span)
                continue
            if d.what == "card":
                found = False
                cards: list[str] = []
                for i, old in enumerate(out):
                    if not isinstance(old, ast.DeckDecl):
                        continue
                    cards.extend(c.name for c in old.cards)
                    gone = sum(c.copies for c in old.cards if c.name == d.name)
                    if gone:
                        # a deck's `size` counts the cards its own file lists: a removal takes its copies off
                        # the count, where an edit that loses a card in that file is still caught
                        size = old.size - gone if old.size is not None else None
                        out[i] = attrs.evolve(old, cards=tuple(c for c in old.cards if c.name != d.name), size=size)
                        found = True
                if not found:
                    problems.append(
                        src.diagnostic(
                            f"no deck of the base has a card '{d.name}'", d.span, did_you_mean(d.name, cards)
                        )
                    )
                continue
            at = next((i for i, old in enumerate(out) if _decl_key(old) == (d.what, d.name)), None)
            if at is None:
                names = [k[1] for k in map(_decl_key, out) if k and k[0] == d.what]
                problems.append(
                    src.diagnostic(
                        f"the base has no {d.what} '{d.name}' to remove", d.span, did_you_mean(d.name, names)
                    )
                )
            else:
                del out[at]
        elif isinstance(d, ast.ReplaceHandlerDecl):
            problems.extend(_replace_handler(out, d, src))
        else:
            key = _decl_key(d)
            at = next((i for i, old in enumerate(out) if key is not None and _decl_key(old) == key), None)
            if at is None:
                out.append(d)
            else:
                old = out[at]
                if isinstance(d, ast.DeckDecl) and isinstance(old, ast.DeckDecl):
                    d, untagged = with_base_tags(old, d)
                    warnings.extend(_untagged_warning(card, missing, src) for card, missing in untagged)
                if isinstance(d, _EXTENSIBLE) and isinstance(old, _EXTENSIBLE) and d.extension is None:
                    d = attrs.evolve(d, extension=old.extension)  # a replaced extension point stays one
                out[at] = d
    return out, problems, warnings


_EXTENSIBLE = (ast.FunctionDecl, ast.ActionDecl, ast.RuleDecl)


def _declared_twice(key: tuple[str, str], span: ast.Span, first: ast.Span, src: SourceText) -> Diagnostic:
    """Return the error for a variant's second declaration (at `span`) of what it declared at `first`."""
    what = {"score": "the score", "end": f"the end condition '{key[1]}'"}.get(key[0], f"{key[0]} '{key[1]}'")
    return src.diagnostic(
        f"{what} is declared twice in this variant",
        span,
        f"the first is at line {first.line}; keep one of the two (the second would silently replace the first)",
    )


def _uncount_deed(decls: list[ast.Declaration], space: ast.SpaceDecl) -> None:
    """Take a removed space's title deed off the declared `size` of each title deck that counted it.

    A title deck's size counts the deeds its own file's board gives it (the checker's _check_title_decks:
    the titled spaces of its `in` group or kind, or of the whole board), so that an edit losing a space is
    caught; a variant's `remove space` is no such loss.
    """
    titled = any(isinstance(k, ast.KindDecl) and k.name == space.kind and k.titled for k in decls)
    if not titled:
        return
    member_of = {space.kind, *space.groups} | {v.name for _, v in space.fields if isinstance(v, ast.Name)}
    for i, deck in enumerate(decls):
        if not isinstance(deck, ast.DeckDecl) or not deck.of_titles or deck.size is None:
            continue
        if deck.titles_in is None or deck.titles_in in member_of:
            decls[i] = attrs.evolve(deck, size=deck.size - 1)


def _replace_handler(out: list[ast.Declaration], d: ast.ReplaceHandlerDecl, src: SourceText) -> list[Diagnostic]:
    """Put the handler of a `replace handler` into its rule in `out`; return what is wrong with it."""
    rules = [(i, r) for i, r in enumerate(out) if isinstance(r, ast.RuleDecl)]
    at = next((i for i, r in rules if r.name == d.rule), None)
    if at is None:
        return [
            src.diagnostic(
                f"the base has no rule '{d.rule}' to replace a handler of",
                d.rule_span,
                did_you_mean(d.rule, [r.name for _, r in rules]),
            )
        ]
    rule = out[at]
    assert isinstance(rule, ast.RuleDecl)
    new = d.handler
    same = [i for i, h in enumerate(rule.handlers) if (h.event, h.selector) == (new.event, new.selector)]
    if len(same) != 1:
        has = ", ".join(f"`{h.heading}`" for h in rule.handlers) or "none, only `when` triggers"
        message = (
            f"rule '{d.rule}' has no handler `{new.heading}`"
            if not same
            else f"rule '{d.rule}' has {len(same)} handlers `{new.heading}`: which one is meant is unclear"
        )
        hint = f"its handlers: {has}" if not same else "restate the whole rule instead"
        return [src.diagnostic(message, d.span, hint)]
    handlers = list(rule.handlers)
    handlers[same[0]] = new
    out[at] = attrs.evolve(rule, handlers=tuple(handlers))
    return []


def with_base_tags(old: ast.DeckDecl, new: ast.DeckDecl) -> tuple[ast.DeckDecl, list[tuple[ast.CardDecl, list[str]]]]:
    """Return a restated deck whose cards keep every tag the base's card of the same name has, and the cards
    that were restated without some (with the tags they lacked).

    Rules find cards by their tags (`c has jail_free`): a card restated by name
    without its tag, as variants written before tags were, would otherwise
    silently stop doing what the rules expect of it.
    """
    tags = {c.name: c.tags for c in old.cards}
    untagged = []
    cards = []
    for card in new.cards:
        missing = [t for t in tags.get(card.name, ()) if t not in card.tags]
        if missing:
            untagged.append((card, missing))
            card = attrs.evolve(card, tags=card.tags + tuple(missing))
        cards.append(card)
    return (attrs.evolve(new, cards=tuple(cards)) if untagged else new), untagged


def with_tags_of_base(module: ast.Module, where: Path | None) -> ast.Module:
    """Return the module with each card it restates given the tags the base's card has (what `fmt` writes).

    The module itself is returned when it extends nothing or its base cannot
    be read (`fmt` lays out a file whatever its base). `where` is the file's
    path, for a base in its folder.
    """
    if module.header.extends is None:
        return module
    try:
        bases = _with_bases(module, where)[:-1]
        _, decls, _, _ = _merged(bases)
    except (LandlordError, OSError, RecursionError):
        return module
    decks = {d.name: d for d in decls if isinstance(d, ast.DeckDecl)}
    out = [
        with_base_tags(decks[d.name], d)[0] if isinstance(d, ast.DeckDecl) and d.name in decks else d
        for d in module.declarations
    ]
    return attrs.evolve(module, declarations=tuple(out))


def format_with_base(text: str, file: str = "<string>", width: int = WIDTH) -> str:
    """Return `text` in canonical layout (`formatter.format_text`), lines fitted to `width`, what `fmt` writes.

    A variant's card restated without a tag its base's card has gets the tag
    written (a migration); the base is looked for beside `file`.
    """
    where = Path(file) if file.endswith(".lg") and Path(file).parent.is_dir() else None
    return format_text(text, file, migrate=lambda module: with_tags_of_base(module, where), width=width)


def _untagged_warning(card: ast.CardDecl, missing: list[str], src: SourceText) -> Diagnostic:
    tags = ", ".join(missing)
    return attrs.evolve(
        src.diagnostic(
            f"card '{card.name}' is restated without the tag{'s' if len(missing) > 1 else ''} {tags} "
            f"the base gives it: it keeps {'them' if len(missing) > 1 else 'it'}",
            card.span,
            f"`landlord-dsl fmt {src.name}` writes `tagged {tags}`; give the card another name if it is another card",
        ),
        severity="warning",
    )


def _dropped_purposes(base: list[ast.Declaration], variant: ast.Module, src: SourceText) -> list[Diagnostic]:
    """Return a warning for each rule, handler, action or card a variant restates without a purpose
    (`pay ... as NAME`) its base version pays for.

    A `reroute` moves only the payments that say their purpose: a restated
    payment without it would silently stay with its written payee.
    """
    rules = {d.name: d for d in base if isinstance(d, ast.RuleDecl)}
    actions = {d.name: d for d in base if isinstance(d, ast.ActionDecl)}
    cards = {c.name: c for d in base if isinstance(d, ast.DeckDecl) for c in d.cards}
    pairs: list[tuple[str, ast.Span, list[tuple], list[tuple]]] = []  # (what, where, base bodies, new bodies)
    for d in variant.declarations:
        if isinstance(d, ast.RuleDecl) and d.name in rules:
            old = rules[d.name]
            pairs.append((f"rule '{d.name}'", d.span, _rule_bodies(old), _rule_bodies(d)))
        elif isinstance(d, ast.ActionDecl) and d.name in actions:
            pairs.append((f"action '{d.name}'", d.span, [actions[d.name].body], [d.body]))
        elif isinstance(d, ast.DeckDecl):
            pairs += [(f"card '{c.name}'", c.span, [cards[c.name].body], [c.body]) for c in d.cards if c.name in cards]
        elif isinstance(d, ast.ReplaceHandlerDecl) and d.rule in rules:
            old_bodies = [h.body for h in rules[d.rule].handlers if h.heading == d.handler.heading]
            pairs.append((f"the handler {d.handler.heading} of rule '{d.rule}'", d.span, old_bodies, [d.handler.body]))
    warnings = []
    for what, span, old_bodies, new_bodies in pairs:
        for purpose in sorted(purposes_paid(old_bodies) - purposes_paid(new_bodies)):
            warning = src.diagnostic(
                f"{what} is restated without `as {purpose}`, which the base pays in it",
                span,
                f"a `reroute {purpose}` moves only payments that say it: add `as {purpose}` after the payee",
            )
            warnings.append(attrs.evolve(warning, severity="warning"))
    return warnings


def _rule_bodies(rule: ast.RuleDecl) -> list[tuple]:
    return [h.body for h in rule.handlers] + [t.body for t in rule.triggers]


def _hash(modules: list[ast.Module]) -> str:
    digest = hashlib.sha256()
    for module in modules:
        digest.update(module.source_text.encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()[:16]


def _parse_bounded(text: str, file: str) -> ast.Module:
    """Return the Module of .lg text, refusing (before any work) a text longer than limits.MAX_INPUT."""
    if len(text) > MAX_INPUT:
        raise RuleSourceError(
            [
                Diagnostic(
                    f"{file}: {len(text):,} characters is more than the {MAX_INPUT:,} a .lg file may have",
                    hint="split the rules, or check that this is the file you meant",
                )
            ]
        )
    return parse(text, file)


def _load_modules(path: Path, chain: tuple[Path, ...] = ()) -> list[ast.Module]:
    return _with_bases(_parse_bounded(read_source(path), str(path)), path, chain)


def _with_bases(module: ast.Module, path: Path | None, chain: tuple[Path, ...] = ()) -> list[ast.Module]:
    """Return the modules a module builds on by `extends`, base first, then the module (read from `path`)."""
    if module.header.extends is None:
        return [module]
    folder = path.parent if path is not None else None
    base = _base_of(module, folder)
    seen = chain + ((path.resolve(),) if path is not None else ())
    if base.resolve() in seen:
        cycle = [p.name for p in seen[seen.index(base.resolve()) :]] + [base.name]
        raise RuleCheckError(
            [
                source_of(module).diagnostic(
                    "circular `extends`: " + " extends ".join(cycle),
                    module.header.item_span("extends"),
                    "a variant extends an edition; an edition extends nothing",
                )
            ]
        )
    if len(seen) >= _MAX_EXTENDS_DEPTH:
        raise RuleCheckError(
            [source_of(module).diagnostic("`extends` goes too deep", module.header.item_span("extends"))]
        )
    return _load_modules(base, seen) + [module]


def modules_with_bases(module: ast.Module, path: Path | None) -> list[ast.Module]:
    """Return the modules a parsed module builds on by `extends`, its farthest base first, then the module itself
    (`path`: where the module was read from, for a base beside it); raise LandlordError if a base cannot be read."""
    return _with_bases(module, path)


# Declarations a syntax error may be in while the rest of the file is still checked: nothing else
# refers to them by much more than their name (a broken board or kind would make every space an error).
_CHECKABLE_AROUND = {
    "rule",
    "end",
    "score",
    "const",
    "function",
    "action",
    "option",
    "account",
    "group",
    "table",
    "var",
    "player",
    "space",
    "game",
    "remove",
    "replace",
    "extension",
}
_DECLARED = re.compile(
    r"\b(?:rule|const|table|group|kind|function|action|deck|account|option|var|space|card)\s+"
    r"([a-z_][a-z0-9_]*)"
)


def _load_around(read: Callable[[], list[ast.Module]], syntax: SyntaxErrors | None, path: Path | None) -> RuleSet:
    """Return the checked RuleSet of the modules `read` gives, or raise every problem found.

    With syntax errors, the rest of the file (without the declarations they
    are in) is checked too when that is sensible, and what the checker finds
    outside those declarations is reported with them, in file order.
    """
    if syntax is None:
        return load_modules(read(), path)
    if syntax.partial is None or any(kind not in _CHECKABLE_AROUND for _, _, kind in syntax.damaged):
        raise syntax
    name = syntax.partial.source_name
    lines = syntax.partial.source_text.split("\n")
    damaged = [(first, last) for first, last, _ in syntax.damaged]
    names = {
        match.group(1)
        for first, last in damaged
        for line in lines[first - 1 : last]
        for match in _DECLARED.finditer(line)
    }
    try:
        load_modules(read(), path)
    except LandlordError as err:
        found = [
            d
            for d in err.diagnostics
            if d.span is not None
            and not (d.span.file == name and any(first <= d.span.line <= last for first, last in damaged))
            and not any(f"'{n}'" in d.message for n in names)
        ]
    else:
        found = []
    groups: list[list[Diagnostic]] = []  # each problem with the notes after it, which stay after it
    for d in list(syntax.diagnostics) + found:
        if d.severity == "note" and groups:
            groups[-1].append(d)
        else:
            groups.append([d])
    groups.sort(
        key=lambda g: (
            g[0].span is None or g[0].span.file != name,
            (g[0].span.line, g[0].span.column) if g[0].span else (0, 0),
        )
    )
    in_order = [d for group in groups for d in group]
    raise (RuleSourceError if found else RuleSyntaxError)(in_order)


def _base_of(module: ast.Module, folder: Path | None) -> Path:
    """Return the file a module `extends`: a shipped edition, or a .lg file in the variant's own folder.

    Nothing else is followed, so checking untrusted text can never read
    (and quote) an arbitrary file: the path is resolved through every
    symlink, and the real file must still lie inside the variant's folder or
    the shipped editions.
    """
    target = module.header.extends or ""
    hint = None
    if target.endswith(".lg"):
        relative = Path(target)
        inside = folder is not None and not relative.is_absolute() and ".." not in relative.parts
        if inside and folder is not None:
            try:
                real = (folder / relative).resolve(strict=True)
                if not any(real.is_relative_to(root.resolve()) for root in (folder, editions_dir())):
                    raise RuleCheckError(
                        [
                            source_of(module).diagnostic(
                                f"'{target}' leads outside the variant's folder (through a symlink)",
                                module.header.item_span("extends"),
                                "an extended file must really be in the variant's own folder or be a shipped edition",
                            )
                        ]
                    )
                if real.is_file():
                    return real
            except (OSError, RuntimeError):  # missing, unreadable, or a symlink loop
                pass
        hint = (
            "a .lg file is looked for only in the variant's own folder"
            if not inside
            else f"no file {target} in {folder}"
        )
    else:
        try:
            return resolve(target, file_hints=False)
        except LandlordError as err:
            hint = _file_beside(target, folder) or err.diagnostics[0].hint
    raise RuleCheckError(
        [
            source_of(module).diagnostic(
                f"cannot find the edition '{target}' this file extends", module.header.item_span("extends"), hint
            )
        ]
    )


def _file_beside(name: str, folder: Path | None) -> str | None:
    """Return a hint naming `name`.lg when that file lies in the variant's folder, else None.

    A name without .lg only ever means a shipped edition (docs/security.md),
    so the file is only pointed at, never read; the same path rules apply as
    to `extends "x.lg"`, so the hint never reveals a file outside the folder.
    """
    relative = Path(f"{name}.lg")
    if folder is None or not name or relative.is_absolute() or ".." in relative.parts:
        return None
    try:
        real = (folder / relative).resolve(strict=True)
        if real.is_file() and real.is_relative_to(folder.resolve()):
            beside = relative.as_posix()
            return f'did you mean "{beside}" (the file next to this one)? a name without .lg is a shipped edition'
    except (OSError, RuntimeError, ValueError):
        pass
    return None


def _merged(modules: list[ast.Module]) -> tuple[ast.Header, list[ast.Declaration], list[Diagnostic], list[Diagnostic]]:
    """Return the header and declarations of modules (base first) merged, what could not be merged, and warnings."""
    sources = {m.source_name: source_of(m) for m in modules}
    decls = list(modules[0].declarations)
    problems: list[Diagnostic] = []
    warnings: list[Diagnostic] = []
    for variant in modules[1:]:
        warnings.extend(restatement_warnings(decls, variant, sources))
        warnings.extend(_dropped_purposes(decls, variant, sources[variant.source_name]))
        decls, cannot, warned = merge(decls, variant, sources)
        problems.extend(cannot)  # reported together with whatever the checker finds
        warnings.extend(warned)
    header = modules[0].header
    for variant in modules[1:]:
        h = variant.header
        # an item the variant writes replaces the base's, `dice 0` and `turn limit 0` too (the checker refuses
        # them, at the variant's line, rather than the base's value going on unsaid)
        header = attrs.evolve(
            header,
            name=h.name,
            title=h.title if h.title is not None else header.title,
            players=h.players if h.players is not None else header.players,
            dice=h.dice if h.dice is not None else header.dice,
            turn_limit=h.turn_limit if h.turn_limit is not None else header.turn_limit,
            provenance=h.provenance or header.provenance,
            item_spans=tuple({**dict(header.item_spans), **dict(h.item_spans)}.items()),
        )
    return header, decls, problems, warnings


def load_modules(modules: list[ast.Module], path: Path | None = None) -> RuleSet:
    """Merge and check already-parsed modules (base first); return the RuleSet."""
    sources = {m.source_name: source_of(m) for m in modules}
    header, decls, problems, warnings = _merged(modules)
    checker = Checker(sources)
    try:
        model = check_declarations(header, decls, sources, checker)
    except LandlordError as err:
        partial = getattr(checker, "m", None)  # what the checker got to: the types the variant gave
        found = _blame_changes(_blame_removals(list(err.diagnostics), modules), modules, decls, partial)
        raise RuleCheckError(problems + found + warnings + checker.warnings) from None
    except RecursionError:
        raise too_deep(source_of(modules[-1])) from None
    if problems:
        raise RuleCheckError(problems + warnings)
    warnings.extend(checker.warnings)
    ruleset = RuleSet(header.name, model, tuple(modules), path, _hash(modules), tuple(warnings), tuple(checker.unkeyed))
    return ruleset


def warnings_of(ruleset: RuleSet, strict: bool = False) -> list[Diagnostic]:
    """Return what `check` warns of in rules that check, in file order.

    That is the ruleset's warnings, the old syntax of the named file (not
    its base's, which `fmt` of that file cannot rewrite) and, when `strict`,
    every citation without a source key and a named file whose header cites
    no source (the shipped files have neither).
    """
    found = [*ruleset.warnings, *old_syntax_warnings(ruleset.modules[-1])]
    if strict:
        found.extend(ruleset.unkeyed)
        found.extend(_uncited_header(ruleset.modules[-1]))
    return sorted(found, key=lambda d: (d.span.file, d.span.line, d.span.column) if d.span else ("", 0, 0))


def _uncited_header(module: ast.Module) -> list[Diagnostic]:
    """Return the `check --strict` warning for a file whose own header has no `source` (none if it has one).

    The header's citation is the one that covers the whole file (docs/provenance.md): without it a file may
    cite nothing at all, which checking the form of the citations it has does not catch. A variant's own
    header is asked for, not its base's: the file named is the one held to what the shipped files meet."""
    header = module.header
    if header.provenance is not None:
        return []
    named = len(f'edition "{header.name}"')  # the header's first line, as fmt writes it
    at = attrs.evolve(header.span, end_line=header.span.line, end_column=header.span.column + named)
    hint = (
        'say where the rules come from in the header: `source "KEY, LOCATOR"` (`landlord-dsl sources` lists the '
        'keys; "house-rule: ..." for a custom of your own, and `reference` adds a source of yours)'
    )
    message = f"the header of '{header.name}' has no `source`, the citation that covers the whole file"
    return [attrs.evolve(source_of(module).diagnostic(message, at, hint), severity="warning")]


def _blame_removals(diagnostics: list[Diagnostic], modules: list[ast.Module]) -> list[Diagnostic]:
    """Return the diagnostics with every use of a name a variant removed blamed on the `remove` line.

    A base that still uses what a variant removes would otherwise be reported
    as an unknown name inside the base (often a shipped file the author never
    wrote). The error is put at the `remove`, with a note at each use, and
    replaces the unknown-name errors it explains.
    """
    removals: dict[str, tuple[ast.RemoveDecl, ast.Module]] = {}
    for module in modules[1:]:
        for d in module.declarations:
            if isinstance(d, ast.RemoveDecl) and d.what not in ("card", "end"):
                removals[d.name] = (d, module)
    uses: dict[str, list[Diagnostic]] = {}
    kept = []
    for diag in diagnostics:
        # every unknown-... code is a name nothing declares, and names it
        name = diag.subject if diag.code is not None and diag.code.startswith("unknown-") else None
        if name in removals and diag.span is not None and diag.span.file != removals[name][1].source_name:
            uses.setdefault(name, []).append(diag)
        else:
            kept.append(diag)
    for name in sorted(uses, key=lambda n: removals[n][0].span.line):
        found = uses[name]
        removal, module = removals[name]
        places = sorted(
            {(Path(d.span.file).name, d.span.line) for d in found if d.span is not None}, key=lambda p: p[1]
        )
        listed = ", ".join(f"{file}:{line}" for file, line in places[:5]) + (" ..." if len(places) > 5 else "")
        kept.append(
            source_of(module).diagnostic(
                f"cannot remove {removal.what} '{name}': the base still uses it "
                f"({len(places)} place{'s' if len(places) != 1 else ''})",
                removal.span,
                f"to change it, restate `{removal.what} {name}` instead; "
                f"to drop it, also replace what uses it: {listed}",
            )
        )
        kept.extend(
            attrs.evolve(
                d,
                message=f"the base uses {removal.what} '{name}' here",
                hint=None,
                severity="note",
                code=None,
                subject=None,
            )
            for d in found
        )
    return kept


_Change = ast.Declaration | ast.SpaceDecl | ast.CardDecl

# declarations whose type passes on to what is made from them: a base's `var wages_now = wages`
# changes with a variant's `const wages`
_VALUED = (ast.ConstDecl, ast.VarDecl, ast.FunctionDecl, ast.TableDecl)
_IDENTIFIER = re.compile(r"[a-z_][a-z0-9_]*")


def _place(d: Diagnostic) -> tuple:
    return (d.span.file, d.span.line, d.span.column, d.message) if d.span is not None else ("", 0, 0, d.message)


def _text_at(source: SourceText, span: ast.Span) -> str:
    """Return the text of the source that `span` covers."""
    lines = [source.line(n) or "" for n in range(span.line, span.end_line + 1)]
    lines[-1] = lines[-1][: span.end_column - 1]
    lines[0] = lines[0][span.column - 1 :]
    return "\n".join(lines)


def _checked_alone(modules: list[ast.Module]) -> tuple[set[tuple], Model | None]:
    """Return the errors (as places and messages) that modules (base first) have by themselves, and their Model."""
    sources = {m.source_name: source_of(m) for m in modules}
    header, decls, _, _ = _merged(modules)
    try:
        return set(), check_declarations(header, decls, sources)
    except LandlordError as err:
        return {_place(d) for d in err.diagnostics}, None
    except RecursionError:
        return set(), None


def _declared_type(model: Model | None, what: str, name: str) -> str | None:
    """Return the type a model gave a constant, variable or function (None if unknown)."""
    if model is None:
        return None
    found: str | None = None
    if what == "const" and name in model.consts:
        found = model.annotations.type_of(model.consts[name])
    elif what == "function":
        found = model.function_types.get(name)
    elif what.endswith(" var"):
        table = {"game var": model.game_vars, "player var": model.player_vars, "space var": model.space_vars}
        var = table.get(what, {}).get(name)
        found = model.annotations.type_of(var) if var is not None else None
    return None if found in (None, ANY) else found


def _blame_changes(
    diagnostics: list[Diagnostic], modules: list[ast.Module], decls: list[ast.Declaration], model: Model | None
) -> list[Diagnostic]:
    """Return the diagnostics with each error a variant causes in a file it builds on put at the variant's line.

    A base that checks on its own can stop checking when a variant changes
    what it uses (a function restated to give true/false where the base pays
    what it gives): the error would be reported at lines of the base, often a
    shipped file the author never wrote. Each such error is put at the
    variant's declaration the failing base line uses (directly or through a
    base declaration made from it), with a note at every line of the base it
    breaks; an error the base has on its own stays where it is. `model` is the
    failed check's partial Model, for the types the variant gave.
    """
    files = [m.source_name for m in modules]
    sources = {m.source_name: source_of(m) for m in modules}
    in_bases: dict[int, list[Diagnostic]] = {}
    for d in diagnostics:
        if d.severity == "error" and d.span is not None and d.span.file in files[:-1]:
            in_bases.setdefault(files.index(d.span.file), []).append(d)
    caused: list[tuple[Diagnostic, int]] = []
    base_models: dict[int, Model | None] = {}
    for index, found in sorted(in_bases.items()):
        own, base_models[index] = _checked_alone(modules[: index + 1])
        caused.extend((d, index) for d in found if _place(d) not in own)
    if not caused:
        return diagnostics
    groups: dict[tuple[str | None, int], list[tuple[Diagnostic, str | None]]] = {}
    changes_after: dict[int, tuple[dict[str, tuple[ast.Declaration, ast.Module]], dict[str, str]]] = {}
    for d, index in caused:
        if index not in changes_after:
            changes_after[index] = _changes_after(modules, index, decls, sources)
        changed, made_from = changes_after[index]
        assert d.span is not None
        source = sources[d.span.file]
        words = _IDENTIFIER.findall(_text_at(source, d.span)) + _IDENTIFIER.findall(d.line_text or "")
        word = next((w for w in words if w in changed or w in made_from), None)
        root = made_from.get(word, word) if word is not None else None
        if root is None and len(changed) == 1:  # what else could it be
            root = next(iter(changed))
        groups.setdefault((root, index), []).append((d, word if word != root else None))
    caused_ids = {id(d) for d, _ in caused}
    kept = [d for d in diagnostics if id(d) not in caused_ids]
    for (root, index), blamed in groups.items():
        places = sorted({(Path(d.span.file).name, d.span.line) for d, _ in blamed if d.span is not None})
        listed = ", ".join(f"{file}:{line}" for file, line in places[:5]) + (" ..." if len(places) > 5 else "")
        messages = {d.message for d, _ in blamed}
        what_fails = f": {messages.pop()}" if len(messages) == 1 else ""
        count = f" ({len(places)} line{'s' if len(places) != 1 else ''} of the base)"
        if root is None:
            kept.append(
                source_of(modules[-1]).diagnostic(
                    f"the base no longer checks with this variant{what_fails}{count}",
                    modules[-1].header.span,
                    f"the variant changes something these lines of the base use: {listed}",
                )
            )
        else:
            decl, module = changes_after[index][0][root]
            key = _decl_key(decl)
            what = key[0] if key is not None else "declaration"
            hints = []
            old, new = _declared_type(base_models[index], what, root), _declared_type(model, what, root)
            if old is not None and new is not None and old != new:
                verb = "gives" if what == "function" else "is"
                hints.append(f"the base's {what} '{root}' {verb} {describe(old)}, this one {describe(new)}")
            via = sorted({w for _, w in blamed if w is not None})
            if via:
                hints.append(f"the base makes {', '.join(repr(w) for w in via)} from it")
            hints.append(f"keep what the base expects of it, or also replace what uses it: {listed}")
            kept.append(
                source_of(module).diagnostic(
                    f"{what} '{root}' as this variant declares it breaks the base{what_fails}{count}",
                    decl.span,
                    "; ".join(hints),
                )
            )
        kept.extend(
            attrs.evolve(d, message=f"the base fails here: {d.message}", hint=None, severity="note") for d, _ in blamed
        )
    return kept


def _changes_after(
    modules: list[ast.Module], index: int, decls: list[ast.Declaration], sources: dict[str, SourceText]
) -> tuple[dict[str, tuple[ast.Declaration, ast.Module]], dict[str, str]]:
    """Return what the modules after `index` declare (name -> declaration and module), and what the earlier
    modules make from it (name of a base constant, variable, table or function -> the changed name it uses)."""
    changed: dict[str, tuple[ast.Declaration, ast.Module]] = {}
    for module in modules[index + 1 :]:
        for d in module.declarations:
            key = _decl_key(d)
            if key is not None and key[1] and not isinstance(d, ast.ReferenceDecl):
                changed[key[1]] = (d, module)
    earlier = {m.source_name for m in modules[: index + 1]}
    made_from: dict[str, str] = {}
    grew = True
    while grew:  # a base declaration made from one made from a changed one, and so on
        grew = False
        for d in decls:
            if not isinstance(d, _VALUED) or d.span.file not in earlier or d.name in changed or d.name in made_from:
                continue
            words = _IDENTIFIER.findall(_text_at(sources[d.span.file], d.span))
            used = next((w for w in words if w != d.name and (w in changed or w in made_from)), None)
            if used is not None:
                made_from[d.name] = made_from.get(used, used)
                grew = True
    return changed, made_from


def _touched(module: ast.Module) -> dict[tuple[str, str], _Change]:
    """Return what a variant file changes: (kind, name) -> its declaration (a RemoveDecl for removals)."""
    touched: dict[tuple[str, str], _Change] = {}
    for d in module.declarations:
        if isinstance(d, ast.BoardDecl):
            for space in d.spaces:
                touched[("space", space.name)] = space
        elif isinstance(d, ast.DeckDecl):
            touched[("deck", d.name)] = d
            for card in d.cards:  # restating a deck restates each of its cards
                touched[("card", card.name)] = card
        elif isinstance(d, ast.RemoveDecl):
            touched[(d.what, d.name)] = d
        elif isinstance(d, ast.ReplaceHandlerDecl):
            touched[("handler", f"{d.handler.heading} in rule {d.rule}")] = d
        else:
            key = _decl_key(d)
            if key is not None:
                touched[key] = d
    return touched


def load_combined(names: list[str]) -> RuleSet:
    """Load several variants of one edition applied together, in order.

    Two variants that change the same declaration differently conflict: the
    error names both places.
    """
    return combine_chains(names, [_load_modules(resolve(name)) for name in names])


def combine_chains(names: list[str], chains: list[list[ast.Module]]) -> RuleSet:
    """Return the RuleSet of several variants applied together, each given as its parsed chain (base first)."""
    base = chains[0][0].source_name
    for name, chain in zip(names, chains):
        if chain[0].source_name != base:
            raise RuleCheckError(
                [
                    Diagnostic(
                        f"'{name}' is not a variant of the same edition as '{names[0]}'",
                        hint=f"it builds on {Path(chain[0].source_name).stem}, the first on {Path(base).stem}",
                    )
                ]
            )
    modules: list[ast.Module] = []
    owner: dict[str, str] = {}
    for name, chain in zip(names, chains):
        for module in chain:
            if module.source_name not in owner:
                owner[module.source_name] = name
                modules.append(module)
    shared = {m.source_name for m in chains[0] if all(m.source_name in {c.source_name for c in ch} for ch in chains)}
    problems: list[Diagnostic] = []
    seen: dict[tuple[str, str], tuple[ast.Module, _Change]] = {}
    for module in modules:
        if module.source_name in shared:
            continue
        for key, decl in _touched(module).items():
            if key in seen and seen[key][1] != decl:
                first_module, first = seen[key]
                where = f"{shown_name(first.span.file)}:{first.span.line}"
                problems.append(
                    source_of(module).diagnostic(
                        f"conflict: {key[0]} '{key[1]}' is changed differently by two variants",
                        decl.span,
                        f"{Path(first_module.source_name).stem} changes it at {where}",
                    )
                )
                problems.append(
                    attrs.evolve(
                        source_of(first_module).diagnostic(f"the other change of {key[0]} '{key[1]}'", first.span),
                        severity="note",
                    )
                )
            else:
                seen.setdefault(key, (module, decl))
    for module, decl in seen.values():
        # one variant's new handler would be lost in (or laid into) another's restated rule
        if isinstance(decl, ast.ReplaceHandlerDecl) and ("rule", decl.rule) in seen:
            other_module, other = seen[("rule", decl.rule)]
            if other_module is not module:
                problems.append(
                    source_of(module).diagnostic(
                        f"conflict: rule '{decl.rule}' is restated by one variant "
                        "and has a handler replaced by another",
                        decl.span,
                        f"{Path(other_module.source_name).stem} restates it at "
                        f"{shown_name(other.span.file)}:{other.span.line}",
                    )
                )
    if problems:
        raise RuleCheckError(problems)
    # the same removal made by two variants is made once
    removed: set[tuple[str, str]] = set()
    applied = []
    for module in modules:
        keep = []
        for d in module.declarations:
            if isinstance(d, ast.RemoveDecl) and module.source_name not in shared:
                if (d.what, d.name) in removed:
                    continue
                removed.add((d.what, d.name))
            keep.append(d)
        applied.append(
            attrs.evolve(module, declarations=tuple(keep)) if len(keep) != len(module.declarations) else module
        )
    ruleset = load_modules(applied)
    combined = "+".join(names)
    # the edition's title and every variant by its file's stem: the title of one variant would hide the others
    base_title = chains[0][0].header.title or Path(base).stem
    variants = [Path(n).stem for n in names if Path(n).stem != Path(base).stem]
    header = attrs.evolve(ruleset.model.header, name=combined, title=f"{base_title}, with " + ", ".join(variants))
    return attrs.evolve(ruleset, name=combined, model=attrs.evolve(ruleset.model, header=header))


def _exists(text: str) -> bool:
    """Return True if a file or folder of that name exists (a name too long to be one is none)."""
    try:
        return Path(text).exists()
    except OSError:
        return False


def load(name_or_path: str | Path) -> RuleSet:
    """Load and check a shipped edition by name, or a .lg file by path; `a+b` applies variants together."""
    text = str(name_or_path)
    if "+" in text and not _exists(text):
        parts = [part.strip() for part in text.split("+")]
        if not all(parts):
            raise UsageError(
                [
                    Diagnostic(
                        f"'{text}' has an empty name beside a '+'",
                        hint="combine variants as NAME+NAME, each a shipped name or a .lg file",
                    )
                ]
            )
        return load_combined(parts)
    path = resolve(text)
    return _load_text(read_source(path), str(path), path, path)


def load_text(text: str, file: str = "<string>") -> RuleSet:
    """Return the checked RuleSet of .lg source given as text (it may extend a shipped edition).

    Example:

        >>> rules = ld.load_text('''edition "house" {
        ...     title "House rules"
        ...     extends "landlords-game-1906"
        ...     source "house-rule: ours" original
        ... }
        ... const wages = 150 source "house-rule" original
        ... ''')
        >>> rules.name, rules.model.consts["wages"].value.value
        ('house', 150)

    :param text: the .lg source.
    :param file: the name used in error locations; a path ending in .lg whose folder exists
        is also where `extends` looks first.
    :returns: the parsed, merged and checked rule set.
    :raises RuleSyntaxError: the text does not parse (a path passed instead of the text is hinted so).
    :raises RuleCheckError: it parses but breaks a rule of the language.
    :raises RuleSourceError: the edition it extends cannot be found.
    """
    where = Path(file) if file.endswith(".lg") and Path(file).parent.is_dir() else None
    with raised_with_path_hint(text, "load_text"):
        return _load_text(text, file, where, None)


def hinted_if_path(diagnostics: Sequence[Diagnostic], text: str, function: str) -> list[Diagnostic]:
    """Return `diagnostics`, those of line 1 with a hint when `text` looks like a file's path passed to the
    façade's `function` where the file's text belongs (`_path_not_text`)."""
    hint = _path_not_text(text, function)
    if hint is None:
        return list(diagnostics)
    return [attrs.evolve(d, hint=hint) if d.span is not None and d.span.line == 1 else d for d in diagnostics]


@contextmanager
def raised_with_path_hint(text: str, function: str) -> Iterator[None]:
    """Let a RuleSourceError raised inside through, with `hinted_if_path`'s hint when `text` looks like a path."""
    try:
        yield
    except RuleSourceError as error:
        # the same error, its subclass's fields (a parse's partial module) kept, with the hint added
        error.diagnostics = tuple(hinted_if_path(error.diagnostics, text, function))
        error.args = (error.render(),)
        raise


def _path_not_text(text: str, function: str) -> str | None:
    """Return a hint for a file's path passed where its .lg text belongs, or None if `text` does not look like one.

    It looks like one when it is a single line that ends in .lg or names an existing file.
    """
    name = text.strip()
    if not name or "\n" in name or name.startswith("edition"):
        return None
    try:
        is_path = name.endswith(".lg") or Path(name).is_file()
    except (OSError, ValueError):  # too long, or a NUL, to be a path
        is_path = False
    if not is_path:
        return None
    return (
        f"{name!r} looks like a file's path, not its text: pass the file's text, "
        f"ld.{function}(Path({name!r}).read_text(), {name!r}), or load it with ld.load_edition({name!r})"
    )


def _load_text(text: str, file: str, where: Path | None, path: Path | None) -> RuleSet:
    """Return the checked RuleSet of a file's text (`where` it is, for its `extends`; `path` for the RuleSet)."""
    with collector_paused():
        try:
            module, syntax = _parse_bounded(text, file), None
        except SyntaxErrors as err:
            if err.partial is None:  # nothing could be read around the errors
                raise
            module, syntax = err.partial, err
        return _load_around(lambda: _with_bases(module, where), syntax, path)
