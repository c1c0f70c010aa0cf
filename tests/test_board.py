"""`landlord-dsl board`: the board picture drawn from a rule file."""

from __future__ import annotations

import importlib.util
import io
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import landlord_dsl as ld
from landlord_dsl.cli.main import main
from landlord_dsl.presentation.board import board_svg

SVG = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parent.parent


def _spaces(svg: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [g for g in root.iter(f"{SVG}g") if g.get("id", "").startswith("space-")]


def _texts(element: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in element.iter(f"{SVG}text")]


def _rect(element: ET.Element) -> tuple[float, float, float, float]:
    r = element.find(f"{SVG}rect")
    return tuple(float(r.get(k)) for k in ("x", "y", "width", "height"))  # type: ignore[return-value]


@pytest.mark.parametrize("edition", ["landlords-game-1904", "landlords-game-1906", "monopoly-1933-atlantic-city"])
def test_every_space_is_drawn_once_in_order_with_its_label_and_prices(edition):
    rules = ld.load_edition(edition)
    program = ld.compile_rules(rules)
    spaces = _spaces(board_svg(rules))
    assert [g.get("id") for g in spaces] == [f"space-{i}" for i in range(len(program.space_names))]
    for i, g in enumerate(spaces):
        words = " ".join(_texts(g))
        assert all(word in words for word in program.space_labels[i].split()), (i, words)
        price = program.space_fields.get("price", [None] * len(spaces))[i]
        if price is not None:
            assert f"price {price}" in words
    # spaces do not overlap: the track is a ring of distinct rectangles
    rects = [_rect(g) for g in spaces]
    for a in range(len(rects)):
        for b in range(a + 1, len(rects)):
            ax, ay, aw, ah = rects[a]
            bx, by, bw, bh = rects[b]
            assert ax + aw <= bx + 1e-6 or bx + bw <= ax + 1e-6 or ay + ah <= by + 1e-6 or by + bh <= ay + 1e-6


def test_the_start_is_the_bottom_right_corner_and_play_runs_along_the_bottom_first():
    rules = ld.load_edition("monopoly-1933-atlantic-city")
    rects = [_rect(g) for g in _spaces(board_svg(rules))]
    x0, y0, _, _ = rects[0]
    assert x0 == max(r[0] for r in rects) and y0 == max(r[1] for r in rects)
    assert rects[1][0] < x0 and rects[1][1] == y0  # the next space is to its left


def test_spaces_of_one_colour_group_share_a_band_colour_and_different_groups_differ():
    rules = ld.load_edition("monopoly-1933-atlantic-city")
    spaces = _spaces(board_svg(rules))

    def band(i: int) -> str | None:
        rects = spaces[i].findall(f"{SVG}rect")
        return rects[1].get("fill") if len(rects) > 1 else None

    index = rules.model.space_index
    assert band(index["park_place"]) == band(index["boardwalk"]) is not None
    assert band(index["arctic_avenue"]) != band(index["boardwalk"])
    assert band(index["community_chest_1"]) is None  # a space in no set has no band


def test_text_from_the_rule_file_cannot_inject_markup(tmp_path):
    source = (
        'edition "inject" { title "A <script>alert(1)</script> & co" players 2 to 2 }\n'
        'kind plain "Plain & <b>bold</b>" { }\n'
        "board {\n"
        '    space a "Start \\u001b[31m <svg onload=x>" : plain\n'
        '    space b "B" : plain\n'
        "}\n"
        "rule r { on turn { end game } }\n"
    )
    rules = ld.load_text(source, "inject.lg")
    svg = board_svg(rules)
    root = ET.fromstring(svg)  # still well-formed XML
    assert not [el for el in root.iter() if el.tag in (f"{SVG}script", "script", f"{SVG}svg") and el is not root]
    assert "<script>" not in svg and "<b>" not in svg and "\x1b" not in svg
    assert "&lt;script&gt;" in svg


def test_the_cli_writes_the_picture_to_a_file_or_to_standard_output(tmp_path):
    target = tmp_path / "board.svg"
    out = io.StringIO()
    assert main(["board", "landlords-game-1906", "--svg", str(target)], out=out) == 0
    assert len(_spaces(target.read_text(encoding="utf-8"))) == 40
    out = io.StringIO()
    assert main(["board", "landlords-game-1904"], out=out) == 0
    assert out.getvalue().startswith("<svg")


def test_the_pictures_in_the_docs_are_those_the_editions_draw_today():
    spec = importlib.util.spec_from_file_location("draw_boards", ROOT / "examples" / "draw_boards.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    names = module.editions()
    assert names, "no editions found"
    for name in names:
        picture = ROOT / "docs" / "assets" / "boards" / f"{name}.svg"
        assert picture.is_file(), f"{picture} is missing: run python examples/draw_boards.py"
        assert picture.read_text(encoding="utf-8") == board_svg(ld.load_edition(name)), (
            f"{picture} is out of date: run python examples/draw_boards.py"
        )


@pytest.mark.slow
def test_the_family_tree_in_the_docs_is_that_of_the_shipped_files():
    spec = importlib.util.spec_from_file_location("draw_family", ROOT / "examples" / "draw_family.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    picture = ROOT / "docs" / "assets" / "family.svg"
    assert picture.read_text(encoding="utf-8") == module.svg(), (
        f"{picture} is out of date: run python examples/draw_family.py"
    )
    assert module.NARROW.read_text(encoding="utf-8") == module.svg(per_row=1), "run python examples/draw_family.py"
    # issue 36: titles were cut short ("…") and the picture was transparent, unreadable on the dark theme
    for text in (module.svg(), module.svg(per_row=1)):
        assert "…" not in text and '<rect width="' in text.split("</defs>")[0]
        assert min(float(s) for s in re.findall(r'font-size="([0-9.]+)"', text)) == module.SMALLEST_TEXT
    page = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    assert f'data-text-px="{module.SMALLEST_TEXT}"' in page.split("assets/family.svg", 2)[2].split("</figure>")[0]
    names = [name for name, _, variants in module.family() for name in [name] + [v[0] for v in variants]]
    assert sorted(names) == sorted(ld.shipped_editions())


@pytest.mark.parametrize("edition", ["landlords-game-1906", "landlords-game-1939"])
def test_a_label_that_names_a_colour_is_drawn_in_that_colour(edition):
    """The legend and the drawing agree (issue 27): 1939's "Railroad depot (red)" was drawn yellow and
    its "SO WHAT? circle (blue)" green. A kind (or set) whose label names a colour is filled (banded) in
    it, and its legend row shows the colour its spaces are drawn in."""
    from landlord_dsl.presentation.board import NAMED_COLOURS

    rules = ld.load_edition(edition)
    program = ld.compile_rules(rules)
    root = ET.fromstring(board_svg(rules))
    spaces = _spaces(board_svg(rules))
    legend = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "legend")
    rows = dict(zip(_texts(legend)[1:], (r.get("fill") for r in legend.iter(f"{SVG}rect"))))
    checked = 0
    for kind, decl in rules.model.kinds.items():
        colours = [name for name in NAMED_COLOURS if f"({name})" in (decl.label or "").lower()]
        if not colours or kind not in program.space_kinds:
            continue
        fill = NAMED_COLOURS[colours[0]][0]
        drawn = {spaces[i].find(f"{SVG}rect").get("fill") for i, k in enumerate(program.space_kinds) if k == kind}
        assert drawn == {fill}, (kind, decl.label, drawn)
        assert rows.get(decl.label) == fill, (decl.label, rows)
        checked += 1
    assert checked > 0


def test_a_set_whose_label_names_a_colour_is_banded_in_it():
    """1933's "Light blue: Park Place and Boardwalk" is banded light blue, its "Green: ..." green."""
    from landlord_dsl.presentation.board import NAMED_COLOURS

    rules = ld.load_edition("monopoly-1933-atlantic-city")
    spaces = _spaces(board_svg(rules))
    for group, colour in (("light_blue", "light blue"), ("green", "green")):
        members = rules.model.groups[group]
        assert {spaces[i].findall(f"{SVG}rect")[1].get("fill") for i in members} == {NAMED_COLOURS[colour][1]}


def test_the_pages_state_the_smallest_text_of_the_board_they_show():
    """Issue 36: every picture of the site states its smallest text (`data-text-px`) for the browser check."""
    pages = [ROOT / "docs" / "index.md", *sorted((ROOT / "docs" / "editions").glob("*.md"))]
    shown = 0
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for name, stated in re.findall(r'assets/boards/([\w-]+)\.svg\)\{[^}]*data-text-px="([0-9.]+)"', text):
            svg = (ROOT / "docs" / "assets" / "boards" / f"{name}.svg").read_text(encoding="utf-8")
            assert float(stated) == min(float(s) for s in re.findall(r'font-size="([0-9.]+)"', svg)), page.name
            shown += 1
    assert shown == 5
