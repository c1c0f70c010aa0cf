"""Constants set from outside the rule file (`--set NAME=VALUE`), part of loading.

A constant is changed the way the language changes one: by a variant that
restates it. `with_constants` writes that variant (one `const NAME = VALUE`
line per constant, in a file named `SET_FILE`) on top of the rule set's own
files and checks the whole again, so a constant set from the command line
is checked, compiled, hashed and shipped to worker processes like any other
declaration. The rule set keeps its name; its `constants` say what was set.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs

from ..core.errors import Diagnostic, UsageError
from ..language.parser import parse
from .loader import RuleSet, load_modules
from .model import SET_FILE
from .options import not_a_whole_number, quoted, truth, unknown_name, whole_number

_SETTABLE = ("int", "bool", "text")


def _literal(name: str, kind: str, value: Any) -> tuple[str, Any] | Diagnostic:
    """Return a value for a constant of type `kind` as .lg source and as a Python value, or what is wrong with it
    (the same values an option of that type takes)."""
    if kind == "int":
        number = whole_number(value.strip() if isinstance(value, str) else value)
        if number is None:
            return Diagnostic(f"constant '{name}' is {not_a_whole_number(value)}")
        return str(number), number
    if kind == "bool":
        flag = truth(value)
        if flag is None:
            return Diagnostic(f"constant '{name}' is true or false, not {quoted(value)}")
        return ("true" if flag else "false"), flag
    if not isinstance(value, str):
        return Diagnostic(f"constant '{name}' is a text, not {quoted(value)}")
    text = value.strip()
    if text.startswith('"') and text.endswith('"') and len(text) > 1:
        text = json.loads(text)
    return json.dumps(text), text


def with_constants(rules: RuleSet, chosen: dict[str, Any] | None) -> RuleSet:
    """Return `rules` with the constants `chosen` names set to its values (text as a command line gives it, or
    Python values), checked; `rules` itself when nothing is chosen.

    An unknown name, a constant whose type cannot be written as one value
    (only whole numbers, true/false and texts can), or a value of the wrong
    type raises a UsageError naming every one. Setting constants again sets
    them on the rule set they were first set on.

    Example:

        >>> rules = ld.with_constants(ld.load_edition("landlords-game-1906"), {"wages": 150})
        >>> rules.name, rules.constants, rules.model.consts["wages"].value.value
        ('landlords-game-1906', (('wages', 150),), 150)

    :param rules: a checked rule set (`load_edition`, `load_text`).
    :param chosen: constant names and their values, as text (`"150"`) or Python values.
    :returns: the rule set with those constants restated; `--set NAME=VALUE` on the command line.
    :raises UsageError: an unknown constant, or a value of the wrong type."""
    if not chosen:
        return rules
    if rules.constants:  # set on the rules without the earlier --set file, the earlier values kept unless overridden
        base = attrs.evolve(rules, modules=rules.modules[:-1])
        merged = {**dict(rules.constants), **chosen}
        return with_constants(_unset(base), merged)
    decls = rules.model.consts
    problems: list[Diagnostic] = []
    lines: list[str] = []
    values: list[tuple[str, Any]] = []
    for name, value in chosen.items():
        if name not in decls:
            problems.append(unknown_name(f"{rules.name} has no constant '{name}'", name, decls, "unknown-constant"))
            continue
        kind = rules.model.annotations.type_of(decls[name])
        if kind not in _SETTABLE:
            problems.append(Diagnostic(f"constant '{name}' is of type {kind}, which cannot be set from outside"))
            continue
        found = _literal(name, kind, value)
        if isinstance(found, Diagnostic):
            problems.append(found)
            continue
        source, typed = found
        lines.append(f"const {name} = {source}")
        values.append((name, typed))
    if problems:
        raise UsageError(problems)
    top = rules.modules[-1]
    header = f'edition "{rules.model.header.name}" {{\n    extends "{Path(top.source_name).stem}"\n}}\n'
    module = parse(header + "\n".join(lines) + "\n", SET_FILE)
    changed = load_modules([*rules.modules, module], rules.path)
    model = attrs.evolve(changed.model, header=rules.model.header)
    return attrs.evolve(changed, name=rules.name, model=model, constants=tuple(values))


def _unset(rules: RuleSet) -> RuleSet:
    """Return a rule set whose last --set file was taken off (its modules already without it), checked again."""
    again = load_modules(list(rules.modules), rules.path)
    return attrs.evolve(again, name=rules.name, model=attrs.evolve(again.model, header=rules.model.header))


def set_text(constants: tuple[tuple[str, Any], ...]) -> list[str]:
    """Return the `--set NAME=VALUE` arguments that set `constants` again."""
    out = []
    for name, value in constants:
        shown = ("true" if value else "false") if isinstance(value, bool) else str(value)
        out += ["--set", f"{name}={shown}"]
    return out
