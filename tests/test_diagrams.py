"""The diagrams of the documentation are what examples/draw_diagrams.py draws today, and say what they show."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("draw_diagrams", ROOT / "examples" / "draw_diagrams.py")
draw_diagrams = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(draw_diagrams)


@pytest.mark.parametrize("name", sorted(draw_diagrams.DIAGRAMS))
def test_the_diagram_in_docs_is_up_to_date(name):
    shipped = (ROOT / "docs" / "assets" / "diagrams" / f"{name}.svg").read_text(encoding="utf-8")
    assert shipped == draw_diagrams.DIAGRAMS[name](), "run python examples/draw_diagrams.py"


@pytest.mark.parametrize("name", sorted(draw_diagrams.DIAGRAMS))
def test_a_diagram_is_self_contained_and_its_text_is_as_large_as_the_pages_say(name):
    svg = draw_diagrams.DIAGRAMS[name]()
    assert not re.search(r"(href|src)=|<script|@import|url\((?!#)", svg)  # works offline, nothing fetched
    sizes = {int(s) for s in re.findall(r'font-size="(\d+)"', svg)}
    assert min(sizes) == draw_diagrams.FONT
    pages = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "docs").rglob("*.md"))
    uses = re.findall(rf'assets/diagrams/{name}\.svg\)\{{ \.diagram data-text-px="(\d+)" \}}', pages)
    assert uses and set(uses) == {str(draw_diagrams.FONT)}
