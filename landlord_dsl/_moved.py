"""The module paths of release 0.1, before the package was laid out by stage, kept importable for one release.

`import landlord_dsl.loader` (say) still works: it gives a stand-in module
whose attributes are those of the module's new home,
`landlord_dsl.checking.loader`, each read warning once with a
DeprecationWarning that names the new path. The table below is the whole
list of moves (docs/changelog.md); it goes in the release after next.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import types
import warnings
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from importlib.abc import Loader
else:
    Loader = object  # (importlib.abc costs most of the package's import; a finder and loader need no base)

_PACKAGE = __name__.rpartition(".")[0]

# old path (under landlord_dsl) -> new path
MOVED: dict[str, str] = {
    **{name: f"core.{name}" for name in ("errors", "resources", "dispatch", "types", "terminal")},
    **{
        name: f"language.{name}"
        for name in (
            "ast",
            "limits",
            "grammar",
            "parser_cache",
            "parser",
            "builder",
            "treeless",
            "recovery",
            "syntax_errors",
            "formatter",
            "sourcefile",
        )
    },
    **{
        name: f"checking.{name}"
        for name in (
            "model",
            "check_base",
            "check_bodies",
            "check_decls",
            "check_exprs",
            "check_stmts",
            "checker",
            "builtins",
            "narrowing",
            "placement",
            "bibliography",
            "extensions",
            "loader",
            "options",
        )
    },
    **{name: f"program.{name}" for name in ("runtime", "control", "requests", "game_contract")},
    **{name: f"compiling.{name}" for name in ("codegen", "codegen_expr", "codegen_stmt", "compiler", "pyast_pass")},
    **{
        name: f"engine.{name}"
        for name in ("cards", "decisions", "dicesets", "movement", "events", "saves", "invariants", "observe")
    },
    **{
        name: f"studies.{name}"
        for name in ("simulate", "stats", "parallel", "sweep", "outcomes", "rule_coverage", "rulesource")
    },
    **{
        name: f"presentation.{name}"
        for name in ("narrate", "board", "plots", "replay", "show", "watch", "highlight", "compare")
    },
    "commands": "cli",
    **{f"commands.{name}": f"cli.{name}" for name in ("common", "games", "outputs", "rules")},
    "analysis": "studies.analysis",
    **{f"analysis.{name}": f"studies.analysis.{name}" for name in ("chain", "explore", "paths", "rents", "report")},
}

# modules whose old path is now a package of the new layout: the package gives the old module's names
FORWARDED: dict[str, str] = {"engine": "engine.game", "program": "program.compiled", "cli": "cli.main"}


def forwarded_attribute(package: str, name: str) -> Any:
    """Return attribute `name` of the module package `package` (e.g. "engine") stands for, with a warning.

    For a package's module-level `__getattr__`: `from landlord_dsl.engine import seat_names`, which
    0.1 allowed, finds the name in its new module.
    """
    new = f"{_PACKAGE}.{FORWARDED[package]}"
    value = getattr(importlib.import_module(new), name)  # AttributeError: no such name, as before
    _warn(f"{_PACKAGE}.{package}.{name}", f"{new}.{name}")
    return value


def _warn(old: str, new: str) -> None:
    warnings.warn(f"{old} has moved to {new}; the old path goes in a later release", DeprecationWarning, stacklevel=3)


class _StandIn(types.ModuleType):
    """A module at an old path: each attribute read comes from the module's new home, with a warning."""

    def __init__(self, old: str, new: str):
        super().__init__(old, f"moved to {new}")
        self.__dict__["_new"] = new

    def __getattr__(self, name: str) -> Any:
        new = self.__dict__["_new"]
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        value = getattr(importlib.import_module(new), name)
        _warn(f"{self.__name__}.{name}", f"{new}.{name}")
        return value

    def __dir__(self) -> list[str]:
        return dir(importlib.import_module(self.__dict__["_new"]))


class _OldPaths(Loader):
    """Finds the old module paths of MOVED and loads each as a _StandIn."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        prefix = _PACKAGE + "."
        if not fullname.startswith(prefix) or fullname[len(prefix) :] not in MOVED:
            return None
        old = fullname[len(prefix) :]
        is_package = any(other.startswith(old + ".") for other in MOVED)
        return importlib.machinery.ModuleSpec(fullname, self, is_package=is_package)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        return _StandIn(spec.name, f"{_PACKAGE}.{MOVED[spec.name[len(_PACKAGE) + 1 :]]}")

    def exec_module(self, module: types.ModuleType) -> None:
        return None


def install() -> None:
    """Let the old module paths be imported (once per interpreter)."""
    if not any(isinstance(finder, _OldPaths) for finder in sys.meta_path):
        sys.meta_path.append(_OldPaths())
