"""A rule set as plain text another process can rebuild: what parallel runs ship.

Worker processes, local or on a Dask cluster, never receive pickled games,
programs or syntax trees. They receive a `RuleSource`: the name of the rule
set, the text of every `.lg` file it was built from (with the file names the
diagnostics use), how those files combine (one chain of `extends`, or several
variants applied with `+`), and the option values. The worker parses and
checks the text again, compiles it, and verifies that the rebuilt rule set
has the same rules hash before playing a single game, so a worker with a
different landlord-dsl cannot silently play other rules.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from ..checking.constants import with_constants
from ..checking.loader import RuleSet, combine_chains, load_modules
from ..core.errors import LandlordError
from ..language import ast
from ..language.parser import parse


@attrs.frozen
class RuleSource:
    """The text of a rule set and its option values.

    `chains` holds, for each variant combined with `+` (or for the one file
    loaded), its chain of files from the base edition to itself, each as
    (file name, text).
    """

    name: str
    chains: tuple[tuple[tuple[str, str], ...], ...]
    rules_hash: str
    options: tuple[tuple[str, Any], ...] = ()
    constants: tuple[tuple[str, Any], ...] = ()  # set on top of the files (checking.constants)

    @property
    def option_values(self) -> dict[str, Any]:
        """Return the options as a dict."""
        return dict(self.options)


def _chain(modules: dict[str, ast.Module], start: ast.Module) -> list[ast.Module]:
    """Return the chain of modules from the base edition to `start`, following `extends` among `modules`."""
    chain = [start]
    while chain[0].header.extends is not None:
        target = Path(chain[0].header.extends).stem
        base = next((m for m in modules.values() if Path(m.source_name).stem == target), None)
        if base is None or base in chain:
            raise LandlordError(f"cannot ship {start.source_name}: its base '{target}' is not among its files")
        chain.insert(0, base)
    return chain


def rule_source(rules: RuleSet, options: dict[str, Any] | None = None) -> RuleSource:
    """Return the RuleSource of a loaded rule set, for the given option values."""
    if rules.constants:  # shipped as the files and the values: the worker writes the --set file again
        bare = rule_source(attrs.evolve(rules, modules=rules.modules[:-1], constants=()), options)
        return attrs.evolve(bare, rules_hash=rules.rules_hash, constants=rules.constants)
    by_name = {m.source_name: m for m in rules.modules}
    names = rules.name.split("+") if "+" in rules.name else [rules.name]
    if len(names) == 1:
        chains = [list(rules.modules)]
    else:
        chains = []
        for name in names:
            start = next((m for m in rules.modules if Path(m.source_name).stem == Path(name).stem), None)
            if start is None:
                raise LandlordError(f"cannot ship {rules.name}: no file of it is named {name}")
            chains.append(_chain(by_name, start))
    return RuleSource(
        name=rules.name,
        chains=tuple(tuple((m.source_name, m.source_text) for m in chain) for chain in chains),
        rules_hash=rules.rules_hash,
        options=tuple(sorted((options or {}).items())),
    )


def rebuild(source: RuleSource) -> RuleSet:
    """Return the checked RuleSet a RuleSource describes; raise LandlordError if its rules hash differs."""
    chains = [[parse(text, file) for file, text in chain] for chain in source.chains]
    if len(chains) == 1:
        rules = load_modules(chains[0])
    else:
        rules = combine_chains([source.name.split("+")[i] for i in range(len(chains))], chains)
    rules = with_constants(rules, dict(source.constants))
    if rules.rules_hash != source.rules_hash:
        raise LandlordError(
            f"the rebuilt rules of {source.name} have hash {rules.rules_hash}, "
            f"not {source.rules_hash}: is the worker's landlord-dsl another version?"
        )
    return rules
