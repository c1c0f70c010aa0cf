"""Extension points: the functions, actions and rules an edition offers its variants to replace.

An edition marks one with `extension "what replacing it does"` before its
declaration. `extension_points` lists them (for `show` and the edition
pages), and `restatement_warnings` warns of a variant that restates a whole
declaration only to change what an extension point computes:

A variant's function, action or rule that replaces a base declaration of
the same kind and name (not itself an extension point) is warned of when
its body is the base's body except at places where the base calls an
extension point (`f(...)` of an extension function, `do a(...)` of an
extension action) and the variant has something else there (not a call of
the same extension point, whose arguments would be compared as any other
part), and it differs at one such place at least. A rule's body is its
handlers and triggers (and `off`, `replaces`); its label, citation and
placement are not compared.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import attrs

from ..core.errors import Diagnostic, SourceText
from ..language import ast

if TYPE_CHECKING:
    from .model import Model

Extensible = ast.FunctionDecl | ast.ActionDecl | ast.RuleDecl


@attrs.frozen
class ExtensionPoint:
    """One extension point of a checked rule set."""

    kind: str  # function | action | rule
    name: str
    signature: str  # e.g. "rent_waived(p: player, s: space)", or the rule's name
    doc: str  # what replacing it does
    span: ast.Span  # where the declaration in force is


def extension_points(model: Model) -> list[ExtensionPoint]:
    """Return the extension points of a checked Model, functions first, then actions, then rules, by name."""
    decls: list[Extensible] = [*model.functions.values(), *model.actions.values(), *model.rules]
    points = []
    for d in decls:
        if d.extension is None:
            continue
        kind = type(d).__name__.removesuffix("Decl").lower()
        params = getattr(d, "params", None)
        signature = d.name if params is None else f"{d.name}({', '.join(f'{p.name}: {p.type}' for p in params)})"
        points.append(ExtensionPoint(kind, d.name, signature, d.extension, d.span))
    order = {"function": 0, "action": 1, "rule": 2}
    return sorted(points, key=lambda p: (order[p.kind], p.name))


def extension_point_lines(model: Model) -> list[str]:
    """Return `show`'s rows of extension points, one a point: its kind, signature and what replacing it does."""
    return [f"  {p.kind} {p.signature}: {p.doc}" for p in extension_points(model)]


def restatement_warnings(
    base: list[ast.Declaration], variant: ast.Module, sources: dict[str, SourceText]
) -> list[Diagnostic]:
    """Return a warning for each declaration of `variant` that restates a base one only around extension points."""
    by_key = {(type(d), d.name): d for d in base if isinstance(d, Extensible)}
    points = {d.name: d for d in by_key.values() if d.extension is not None and not isinstance(d, ast.RuleDecl)}
    warnings = []
    for new in variant.declarations:
        if not isinstance(new, Extensible):
            continue
        old = by_key.get((type(new), new.name))
        if old is None or old.extension is not None:
            continue
        sites: list[str] = []
        if not _same_but_at(_body(old), _body(new), points, sites) or not sites:
            continue
        kind = type(new).__name__.removesuffix("Decl").lower()
        point = points[sites[0]]
        point_kind = "function" if isinstance(point, ast.FunctionDecl) else "action"
        names = ", ".join(f"'{s}'" for s in dict.fromkeys(sites))
        warning = sources[variant.source_name].diagnostic(
            f"{kind} '{new.name}' restates the base's {kind} only to change what the extension "
            f"point{'s' if len(set(sites)) > 1 else ''} {names} "
            f"{'compute' if len(set(sites)) > 1 else 'computes'}",
            new.span,
            f'replace `{point_kind} {point.name}` instead; the edition says of it: "{point.extension}" '
            f"(a restated {kind} conflicts with every other variant that changes it)",
        )
        warnings.append(attrs.evolve(warning, severity="warning"))
    return warnings


def _body(d: Extensible) -> tuple:
    if isinstance(d, ast.RuleDecl):
        return (d.handlers, d.triggers, d.off, d.replaces)
    return (d.params, d.body)


def _same_but_at(a: object, b: object, points: Mapping[str, Extensible], sites: list[str]) -> bool:
    """Return whether `a` and `b` are equal apart from the calls of extension points in `a` (listed in `sites`)."""
    if a == b:
        return True
    called = _point_called(a, points)
    if called is not None and _point_called(b, points) != called:  # not the same call with other arguments
        sites.append(called)
        return True
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_same_but_at(x, y, points, sites) for x, y in zip(a, b))
    kind = type(a)
    if type(b) is not kind or not attrs.has(kind):
        return False
    return all(
        _same_but_at(getattr(a, f.name), getattr(b, f.name), points, sites)
        for f in attrs.fields(kind)
        if f.eq and f.name != "provenance"
    )


def _point_called(node: object, points: Mapping[str, Extensible]) -> str | None:
    """Return the extension point `node` calls (a function call or a `do`), or None if it calls none."""
    if isinstance(node, ast.Call) and isinstance(points.get(node.function), ast.FunctionDecl):
        return node.function
    if isinstance(node, ast.Do) and isinstance(points.get(node.action), ast.ActionDecl):
        return node.action
    return None
