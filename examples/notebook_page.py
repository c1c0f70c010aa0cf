"""Run examples/notebook.ipynb and write it, with what each cell shows, as docs/notebook.md.

Run from the repository root (needs the `dev` extra: nbclient and ipykernel):

    python examples/notebook_page.py

The page shows each code cell as a Python block and what the notebook shows
under it (the HTML of presentation/notebook.py). tests/test_notebook_example.py
runs the notebook the same way and fails while the page is out of date.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "examples" / "notebook.ipynb"
PAGE = ROOT / "docs" / "notebook.md"

HEAD = """# Working in a notebook

In Jupyter, `import landlord_dsl` makes the main objects show themselves: a
rule set its summary and board, a game its players, a simulation its table,
a diff its changes, an analysis its table and heat map. This page is the
repository's `examples/notebook.ipynb` run from start to end (by `python examples/notebook_page.py`; a test runs the
notebook and fails while this page is out of date). Open it with
`jupyter lab examples/notebook.ipynb` where landlord-dsl is installed.
"""


def run(path: Path = NOTEBOOK):
    """Return the notebook at `path` after running every cell in a fresh kernel, in the repository's root."""
    import nbclient
    import nbformat

    notebook = nbformat.read(path, as_version=4)
    nbclient.NotebookClient(
        notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": ROOT}}
    ).execute()
    return notebook


def page(notebook) -> str:
    """Return the page of a notebook that has run: its text, its code and, under each cell, its HTML output."""
    parts = [HEAD]
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            if not cell.source.startswith("# "):  # the notebook's title and opening say what HEAD says
                parts.append(cell.source)
        elif cell.cell_type == "code":
            parts.append(f"```python\n{cell.source}\n```")
            for output in cell.outputs:
                html = output.get("data", {}).get("text/html")
                if html:
                    parts.append(f'<div class="ll-notebook-output">\n{html.strip()}\n</div>')
    return "\n\n".join(parts) + "\n"


def main() -> int:
    PAGE.write_text(page(run()), encoding="utf-8")
    print(f"wrote {PAGE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
