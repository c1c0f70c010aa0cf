"""Option resolution, part of loading: the values a game's options take.

The defaults of a loaded rule set's options, overridden by the values a
user chose (as the command line gives them, text, or as Python values),
each validated against its declaration.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.errors import Diagnostic, UsageError, did_you_mean
from ..language.limits import MAX_INT, shown
from .loader import RuleSet


def quoted(value: Any) -> str:
    """Return a value as an error quotes it: at most 60 characters."""
    text = shown(value)
    return text if len(text) <= 60 else text[:57] + "..."


def whole_number(value: Any) -> int | None:
    """Return `value` (an int, or its digits as text) as an int within the rules' number range, else None."""
    if isinstance(value, str) and len(value.strip()) <= len(str(MAX_INT)) + 1:
        try:
            value = int(value)
        except ValueError:
            return None
    if isinstance(value, int) and not isinstance(value, bool) and -MAX_INT <= value <= MAX_INT:
        return value
    return None


def not_a_whole_number(value: Any) -> str:
    """Return what a value that `whole_number` refused should have been, quoting it: a whole number, and the range
    of the rules' numbers when it was one too large for them."""
    digits = isinstance(value, str) and value.strip().removeprefix("-").removeprefix("+").isdigit()
    if digits or (isinstance(value, int) and not isinstance(value, bool)):
        return f"a whole number from -{MAX_INT:,} to {MAX_INT:,}, not {quoted(value)}"
    return f"a whole number, not {quoted(value)}"


def truth(value: Any) -> bool | None:
    """Return `value` (a bool, or true/false, yes/no, 1/0 as text in any case) as a bool, else None."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false", "yes", "no", "1", "0"):
        return value.strip().lower() in ("true", "yes", "1")
    return None


def unknown_name(what: str, name: str, known: dict[str, Any], code: str) -> Diagnostic:
    """Return the diagnostic for a name that is not among `known`: `what` (the message), the nearest name as a
    hint, else every known name."""
    return Diagnostic(
        what,
        hint=did_you_mean(name, known) or f"{code.removeprefix('unknown-')}s: " + ", ".join(known),
        code=code,
        subject=name,
    )


def resolve_options(ruleset: RuleSet, chosen: Mapping[str, Any] | None) -> dict[str, Any]:
    """Return every option's value: the defaults overridden by `chosen` (validated).

    :raises UsageError: `chosen` is not a mapping, or names an unknown option or a value it cannot take.
    """
    if chosen is not None and not isinstance(chosen, Mapping):
        raise UsageError(f"options are a mapping of option names to values, not {quoted(chosen)}")
    decls = ruleset.model.options
    values = {name: d.default for name, d in decls.items()}
    problems = []
    for name, value in (chosen or {}).items():
        if name not in decls:
            problems.append(unknown_name(f"unknown option '{name}'", name, decls, "unknown-option"))
            continue
        d = decls[name]
        # the same checks for a command line's text, a log's or the API's values: nothing else gets through
        if isinstance(d.default, bool):
            flag = truth(value)
            if flag is None:
                problems.append(Diagnostic(f"option '{name}' is true or false, not {quoted(value)}"))
                continue
            value = flag
        elif isinstance(d.default, int):
            number = whole_number(value)
            if number is None:
                problems.append(Diagnostic(f"option '{name}' is {not_a_whole_number(value)}"))
                continue
            value = number
        elif not isinstance(value, str):
            problems.append(Diagnostic(f"option '{name}' is a text, not {quoted(value)}"))
            continue
        elif (allowed := ruleset.model.choices.get(d.choice or name)) is not None and value not in allowed:
            problems.append(
                Diagnostic(
                    f"option '{name}' must be one of {', '.join(allowed)}, not {quoted(value)}",
                    hint=did_you_mean(value, allowed),
                )
            )
            continue
        values[name] = value
    if problems:
        raise UsageError(problems)
    return values
