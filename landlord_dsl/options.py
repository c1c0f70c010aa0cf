"""Option resolution, part of loading: the values a game's options take.

The defaults of a loaded rule set's options, overridden by the values a
user chose (as the command line gives them, text, or as Python values),
each validated against its declaration.
"""

from __future__ import annotations

from typing import Any

from .errors import Diagnostic, UsageError, did_you_mean
from .loader import RuleSet


def resolve_options(ruleset: RuleSet, chosen: dict[str, Any] | None) -> dict[str, Any]:
    """Return every option's value: the defaults overridden by `chosen` (validated)."""
    decls = ruleset.model.options
    values = {name: d.default for name, d in decls.items()}
    problems = []
    for name, value in (chosen or {}).items():
        if name not in decls:
            problems.append(
                Diagnostic(f"unknown option '{name}'", hint=did_you_mean(name, decls) or "options: " + ", ".join(decls))
            )
            continue
        d = decls[name]
        if isinstance(d.default, bool):
            if isinstance(value, str):
                if value.lower() not in ("true", "false", "yes", "no", "1", "0"):
                    problems.append(Diagnostic(f"option '{name}' is true or false, not {value!r}"))
                    continue
                value = value.lower() in ("true", "yes", "1")
        elif isinstance(d.default, int):
            try:
                value = int(value)
            except (TypeError, ValueError):
                problems.append(Diagnostic(f"option '{name}' is a number, not {value!r}"))
                continue
        elif (allowed := ruleset.model.choices.get(d.choice or name)) is not None and value not in allowed:
            problems.append(Diagnostic(f"option '{name}' must be one of {', '.join(allowed)}, not {value!r}"))
            continue
        values[name] = value
    if problems:
        raise UsageError(problems)
    return values
