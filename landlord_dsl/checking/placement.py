"""Pass 2 (checking): the order of the rules, with `before NAME` and `after NAME` placements applied.

The handlers of one event run in the order of the rules (and, within a rule,
in the order written), so this order is part of a game's meaning. The rules
keep their declaration order (a variant's restated rule in the base's place,
its new rules at the end), except that a rule declared `before X` (`after X`)
is moved to just before (after) rule X. Several rules placed on the same side
of X keep their declaration order; a rule placed next to X takes the rules
placed next to it along, so `a after x` and `b after a` give x, a, b.
"""

from __future__ import annotations

from collections import defaultdict

from ..core.errors import did_you_mean
from ..language import ast


def order_rules(
    rules: list[ast.RuleDecl],
) -> tuple[list[ast.RuleDecl], list[tuple[ast.RuleDecl, str, str | None, str | None]]]:
    """Return the rules in the order their handlers run, and the problems of their placements.

    A problem is (the rule, the message, a hint, its code: "unknown-rule"
    when the anchor is no rule, else None). A rule whose placement is
    wrong (an unknown or its own anchor, or a circle of placements) stays
    where it was declared, so that the rest can still be checked.
    """
    names = [r.name for r in rules]
    before: dict[str, list[ast.RuleDecl]] = defaultdict(list)
    after: dict[str, list[ast.RuleDecl]] = defaultdict(list)
    roots: list[ast.RuleDecl] = []
    problems: list[tuple[ast.RuleDecl, str, str | None, str | None]] = []
    for r in rules:
        if r.placement is None or r.anchor is None:
            roots.append(r)
        elif r.anchor == r.name:
            problems.append((r, f"rule '{r.name}' cannot be placed {r.placement} itself", "name another rule", None))
            roots.append(r)
        elif r.anchor not in names:
            hint = did_you_mean(r.anchor, names) or "the rules are listed by `landlord-dsl show`"
            problems.append(
                (r, f"rule '{r.name}' is placed {r.placement} an unknown rule '{r.anchor}'", hint, "unknown-rule")
            )
            roots.append(r)
        else:
            (before if r.placement == "before" else after)[r.anchor].append(r)
    out: list[ast.RuleDecl] = []
    stack: list[tuple[ast.RuleDecl, bool]] = [(r, False) for r in reversed(roots)]
    while stack:  # depth-first: the rules placed before a rule, the rule, the rules placed after it
        rule, expanded = stack.pop()
        if expanded:
            out.append(rule)
            continue
        stack.extend((r, False) for r in reversed(after[rule.name]))
        stack.append((rule, True))
        stack.extend((r, False) for r in reversed(before[rule.name]))
    placed = {id(r) for r in out}
    circle = [r for r in rules if id(r) not in placed]  # each is placed, through others, next to itself
    if circle:
        chain = ", ".join(f"'{r.name}' {r.placement} '{r.anchor}'" for r in circle)
        problems.append(
            (circle[0], f"the placements of rules go round in a circle: {chain}", "drop one of these placements", None)
        )
        out.extend(circle)
    return out, problems
