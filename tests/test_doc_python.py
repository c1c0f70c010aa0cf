"""Every Python example of the README and the documentation runs as shown (issue 36, "examples run as shown").

The ```python blocks of a page run in order in one namespace, as a reader pastes them into one session, in a
fresh folder (an example that writes a file writes it there). A block the reader is not meant to run as it
stands is marked `<!-- not run: why -->` just before it, as the command blocks are (tests/test_doc_commands.py).
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
_FENCE = re.compile(r"^```python[^\n]*\n(.*?)^```[ \t]*$", re.M | re.S)
_NOT_RUN = re.compile(r"<!-- not run: ?(.*?) -->\s*$", re.S)


def _examples(page: Path) -> list[tuple[int, str]]:
    """Return the (line, code) of each Python block of `page` meant to run, in page order."""
    text = page.read_text(encoding="utf-8")
    found, end = [], 0
    for fence in _FENCE.finditer(text):
        before, end = text[end : fence.start()], fence.end()
        if not _NOT_RUN.search(before):
            found.append((text.count("\n", 0, fence.start()) + 1, fence.group(1)))
    return found


PAGES_WITH_EXAMPLES = [page for page in PAGES if _examples(page)]
# pages whose examples play thousands of games or solve the exact analysis: with --run-slow (as CI runs)
_SLOW = {"docs/scale.md", "docs/analysis.md"}


@pytest.mark.parametrize(
    "page",
    [
        pytest.param(page, marks=[pytest.mark.slow] if str(page.relative_to(ROOT)) in _SLOW else [])
        for page in PAGES_WITH_EXAMPLES
    ],
    ids=[str(p.relative_to(ROOT)) for p in PAGES_WITH_EXAMPLES],
)
def test_the_python_examples_of_a_page_run(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "__doc_example__"}
    for line, code in _examples(page):
        with contextlib.redirect_stdout(io.StringIO()):
            try:
                exec(compile(code, f"{page.name}:{line}", "exec"), namespace)
            except Exception as err:  # the page and line of the block that failed, with the error
                pytest.fail(f"{page.relative_to(ROOT)}:{line}: {type(err).__name__}: {err}")


def test_the_pages_have_python_examples_that_run():
    assert len(PAGES_WITH_EXAMPLES) >= 4 and {str(p.relative_to(ROOT)) for p in PAGES_WITH_EXAMPLES} >= _SLOW
