"""The lint and type gate and the slow marker (issue 14, items 1 and 7)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[1]


def _ci_commands() -> list[str]:
    """Return the commands .ci/run runs after its setup, one by one, as the README would chain them."""
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("python3 -m venv"))
    end = next(i for i, line in enumerate(lines) if line.startswith("# (the README's test command ends here"))
    # CI installs quietly; the command is the same
    return [
        part.replace("pip install -q ", "pip install ")
        for line in lines[start:end]
        if line.strip() and not line.startswith("#")
        for part in line.split(" && ")
    ]


def test_the_readme_gives_the_command_ci_runs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)\n```", readme, re.S)
    gate = next(b for b in blocks if "--run-slow" in b)
    assert gate.split(" && ") == _ci_commands()


def test_ci_fails_on_lint_format_and_type_findings_before_the_tests():
    commands = _ci_commands()
    assert "set -euo pipefail" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    gate = ["ruff check .", "ruff format --check .", "mypy", "lint-imports"]
    assert [c for c in commands if c in gate] == gate
    assert commands.index("lint-imports") < commands.index("python -m pytest --run-slow")


def test_no_module_is_excused_from_type_checking_wholesale():
    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert mypy["check_untyped_defs"] is True
    for override in mypy.get("overrides", []):
        # only a library without types, or stricter rules: type debt is excused line by line
        # (`# type: ignore[code]`, checked by warn_unused_ignores), never module by module (issue 28 §4)
        assert set(override) - {"module"} <= {"ignore_missing_imports", "disallow_untyped_defs"}, override
        assert override.get("disallow_untyped_defs", True) is True, override
    assert mypy["warn_unused_ignores"] is True


def test_the_lower_stages_annotate_every_function():
    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    strict = {m for o in mypy.get("overrides", []) if o.get("disallow_untyped_defs") for m in o["module"]}
    assert {f"landlord_dsl.{stage}.*" for stage in ("core", "language", "program", "checking", "engine")} <= strict
    upper = {f"landlord_dsl.{stage}.*" for stage in ("presentation", "cli", "editor")} | {"landlord_dsl.agents"}
    assert upper <= strict


def test_the_package_says_it_is_typed():
    assert (ROOT / "landlord_dsl" / "py.typed").is_file()


def test_slow_tests_run_only_when_asked(pytester: pytest.Pytester):
    pytester.makeconftest((ROOT / "tests" / "conftest.py").read_text(encoding="utf-8"))
    pytester.makeini("[pytest]\nmarkers =\n    slow: takes long\n")
    pytester.makepyfile(
        test_two="""
        import pytest

        def test_quick():
            pass

        @pytest.mark.slow
        def test_long():
            pass
    """
    )
    quick = pytester.runpytest("-p", "no:xdist", "-p", "no:cacheprovider")
    quick.assert_outcomes(passed=1, skipped=1)
    everything = pytester.runpytest("-p", "no:xdist", "-p", "no:cacheprovider", "--run-slow")
    everything.assert_outcomes(passed=2)
