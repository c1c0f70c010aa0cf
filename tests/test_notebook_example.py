"""examples/notebook.ipynb runs from start to end in a fresh kernel, each cell shows its object as HTML, and
docs/notebook.md is that run (issue 36 §3). Needs nbclient and ipykernel (the `test` extra): skipped
without them, except under CI=true, where their absence fails."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("notebook_page", ROOT / "examples" / "notebook_page.py")
notebook_page = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(notebook_page)

pytestmark = pytest.mark.slow  # starts a kernel and plays, simulates and analyses: half a minute


@pytest.fixture(scope="module")
def ran():
    for module in ("nbclient", "nbformat", "ipykernel"):
        if importlib.util.find_spec(module) is None:
            if os.environ.get("CI"):
                pytest.fail(f"{module} is missing in CI: it comes with the test extra")
            pytest.skip(f"{module} is not installed (the test extra has it)")
    return notebook_page.run()


def test_every_cell_runs_and_shows_its_object_as_html(ran):
    code = [cell for cell in ran.cells if cell.cell_type == "code"]
    assert len(code) == 5
    shown = []
    for cell in code:
        assert not [o for o in cell.outputs if o.output_type == "error"], cell.source
        html = [o["data"]["text/html"] for o in cell.outputs if "text/html" in o.get("data", {})]
        assert len(html) == 1, cell.source
        shown.append(html[0])
    rules, game, summary, changes, analysis = shown
    assert "<svg" in rules and "players" in rules
    assert "turn " in game and "cash" in game
    assert ">games</td>" in summary and ">20</td>" in summary
    assert "changes</div>" in changes and "paupers" in changes.lower()
    assert "long-run movement" in analysis


def test_the_docs_page_is_the_notebook_run(ran):
    shipped = notebook_page.PAGE.read_text(encoding="utf-8")
    assert notebook_page.page(ran) == shipped, "run python examples/notebook_page.py"
