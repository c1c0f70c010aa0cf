"""The module paths of release 0.1 keep working for one more release (issue 28 §1), and the layout is what
the layers contract says.

Each old path gives the names of the module's new home with a DeprecationWarning that names the new path;
the objects are the new module's own, so code that mixes old and new paths sees one class, not two.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import tomllib
import warnings
from pathlib import Path

import pytest

from landlord_dsl import _moved

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "landlord_dsl"


@pytest.mark.parametrize("old", sorted(_moved.MOVED))
def test_every_old_path_imports_and_names_its_new_home(old):
    new = importlib.import_module(f"landlord_dsl.{_moved.MOVED[old]}")
    stand_in = importlib.import_module(f"landlord_dsl.{old}")
    public = [name for name in vars(new) if not name.startswith("_") and not isinstance(getattr(new, name), type(sys))]
    assert public, old
    name = public[0]
    with pytest.warns(DeprecationWarning, match=rf"landlord_dsl\.{old}\.{name} has moved to landlord_dsl\."):
        value = getattr(stand_in, name)
    assert value is getattr(new, name)


def test_the_old_import_forms_give_the_same_objects():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from landlord_dsl.analysis.chain import stationary
        from landlord_dsl.loader import load_text  # 0.1's path
        from landlord_dsl.requests import DecisionRequest

    from landlord_dsl.checking.loader import load_text as new_load_text
    from landlord_dsl.program.requests import DecisionRequest as NewDecisionRequest
    from landlord_dsl.studies.analysis.chain import stationary as new_stationary

    assert (load_text, DecisionRequest, stationary) == (new_load_text, NewDecisionRequest, new_stationary)


@pytest.mark.parametrize(
    ("package", "name"), [("engine", "seat_names"), ("program", "is_reconstruction"), ("cli", "main")]
)
def test_a_module_that_became_a_folder_still_gives_its_names(package, name):
    module = importlib.import_module(f"landlord_dsl.{package}")
    new = importlib.import_module(f"landlord_dsl.{_moved.FORWARDED[package]}")
    if name in vars(module):  # re-exported on purpose (ld.cli.main): no warning
        assert getattr(module, name) is getattr(new, name)
        return
    with pytest.warns(DeprecationWarning, match=f"landlord_dsl.{package}.{name} has moved"):
        value = getattr(module, name)
    assert value is getattr(new, name)


def test_an_unknown_name_at_an_old_path_is_an_attribute_error():
    stand_in = importlib.import_module("landlord_dsl.loader")
    with pytest.raises(AttributeError):
        stand_in.no_such_name  # noqa: B018
    with pytest.raises(ImportError):
        importlib.import_module("landlord_dsl.no_such_module")


def test_the_new_code_uses_no_old_path():
    """Nothing in the project imports an old path (each would warn): the stand-ins are for users' code."""
    code = (
        "import warnings, subprocess; warnings.simplefilter('error', DeprecationWarning)\n"
        "import landlord_dsl as ld\n"
        "rules = ld.load_edition('landlords-game-1906')\n"
        "ld.new_game(rules, players=2, seed=0).play()\n"
        "from landlord_dsl.cli.main import main; main(['check', 'landlords-game-1906', '--quiet'])\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr


def test_every_folder_of_the_package_is_a_layer_of_the_contract():
    """The layers contract (pyproject.toml) names every stage; import-linter checks it is exhaustive, this
    checks the contract and the folders agree from the other side (a stage named but missing)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (contract,) = [c for c in config["tool"]["importlinter"]["contracts"] if c["id"] == "stages"]
    named = {stage.strip() for layer in contract["layers"] for stage in layer.split("|")}
    present = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    present |= {p.stem for p in PACKAGE.glob("*.py") if not p.stem.startswith("_")}
    assert present == named
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    for stage in named:
        assert f"`{stage}/`" in page or f"`{stage}.py`" in page, stage
