"""Draw the family tree of the shipped editions and their variants: docs/assets/family.svg.

Run from the repository root after adding or renaming an edition or a variant:

    python examples/draw_family.py

Each edition is a column, in the order of the year in its name; under it are
the variants that extend it, marked as the edition's own options and customs
or as modern house rules (a variant citing `house-rule`): two editions to a
row in family.svg, one in family-narrow.svg (for phones), every title whole,
on a light card that reads on the dark theme too. tests/test_board.py fails
while the pictures are out of date.
"""

from __future__ import annotations

import re
import textwrap
from html import escape
from pathlib import Path

import landlord_dsl as ld
from landlord_dsl.core.resources import shipped_files

OUT = Path(__file__).resolve().parent.parent / "docs" / "assets" / "family.svg"
NARROW = OUT.with_name("family-narrow.svg")  # what a phone shows
COLUMN, BOX_H, GAP, TOP = 300, 58, 12, 70
EDITION, CUSTOM, HOUSE = "#20303f", "#e3eef8", "#fbf3d5"


def family() -> list[tuple[str, str, list[tuple[str, str, bool]]]]:
    """Return (edition name, title, [(variant name, title, is a modern house rule)]) in year order."""
    editions: dict[str, tuple[str, list]] = {}
    for name, path in shipped_files().items():
        rules = ld.load_edition(name)
        if path.parent.name != "variants":
            editions.setdefault(name, (rules.model.header.title or name, []))
    for name, path in shipped_files().items():
        if path.parent.name == "variants":
            rules = ld.load_edition(name)
            base = Path(rules.modules[0].source_name).stem
            header = rules.modules[-1].header
            house = header.provenance is not None and header.provenance.source.startswith("house-rule")
            editions[base][1].append((name, header.title or name, house))
    year = lambda n: (re.search(r"\d{4}", n).group(0) if re.search(r"\d{4}", n) else "9999", n)  # noqa: E731
    return [(n, editions[n][0], sorted(editions[n][1], key=lambda v: (v[2], v[0]))) for n in sorted(editions, key=year)]


def _short(variant: str, edition: str) -> str:
    """Return a variant's name without the words it shares with its edition's name ("paupers")."""
    a, b = variant.split("-"), edition.split("-")
    shared = 0
    while shared < min(len(a) - 1, len(b)) and a[shared] == b[shared]:
        shared += 1
    return "-".join(a[shared:])


def _text(x: float, y: float, text: str, size: float, colour: str, weight: str = "normal") -> str:
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" fill="{colour}" font-weight="{weight}" '
        f'text-anchor="middle">{escape(text)}</text>'
    )


def _box_lines(title: str) -> list[str]:
    """Return a variant's title in lines that fit its box, whole (never cut short)."""
    return textwrap.wrap(title, 50, break_long_words=False, break_on_hyphens=False)


def svg(per_row: int = 2) -> str:
    """Return the family tree as an SVG document: the editions `per_row` to a row (2 for a page's column, 1
    for a phone), each over its variants, on a light card (readable on the dark theme too)."""
    tree = family()
    rows = [tree[k : k + per_row] for k in range(0, len(tree), per_row)]
    width = COLUMN * per_row + 20
    out: list[str] = []
    y0 = 10
    for row in rows:
        bottom = y0
        for i, (name, title, variants) in enumerate(row):
            cx = 10 + i * COLUMN + COLUMN / 2
            x = cx - (COLUMN - 30) / 2
            heading = textwrap.wrap(title, 46, break_long_words=False, break_on_hyphens=False)
            head_h = 34 + 13 * len(heading)
            if i:
                out.append(
                    f'<line x1="{x - 26:g}" y1="{y0 + 24:g}" x2="{x - 4:g}" y2="{y0 + 24:g}" '
                    f'stroke="#888" stroke-width="2" marker-end="url(#arrow)"/>'
                )
            out.append(f'<rect x="{x:g}" y="{y0:g}" width="{COLUMN - 30}" height="{head_h}" rx="6" fill="{EDITION}"/>')
            out.append(_text(cx, y0 + 22, name, 13, "#fff", "bold"))
            for k, line in enumerate(heading):
                out.append(_text(cx, y0 + 40 + 13 * k, line, 10, "#dfe6ee"))
            y = y0 + head_h + GAP
            for vname, vtitle, house in variants:
                lines = _box_lines(vtitle)
                box_h = 28 + 12 * len(lines)
                out.append(f'<line x1="{cx:g}" y1="{y - GAP:g}" x2="{cx:g}" y2="{y:g}" stroke="#999"/>')
                out.append(
                    f'<rect x="{x + 10:g}" y="{y:g}" width="{COLUMN - 50}" height="{box_h}" rx="5" '
                    f'fill="{HOUSE if house else CUSTOM}" stroke="#667"/>'
                )
                out.append(_text(cx, y + 18, _short(vname, name), 12, "#222", "bold"))
                for k, line in enumerate(lines):
                    out.append(_text(cx, y + 33 + 12 * k, line, 9, "#333"))
                y += box_h + GAP
            bottom = max(bottom, y)
        y0 = bottom + 14
    legend_y = y0 + 8
    height = legend_y + (40 if per_row == 1 else 18)
    second = (20, legend_y + 22) if per_row == 1 else (300, legend_y)
    out.append(f'<rect x="20" y="{legend_y - 11}" width="14" height="14" fill="{CUSTOM}" stroke="#667"/>')
    out.append(f'<text x="40" y="{legend_y}" font-size="11" fill="#222">the edition\'s own options and customs</text>')
    out.append(f'<rect x="{second[0]}" y="{second[1] - 11}" width="14" height="14" fill="{HOUSE}" stroke="#667"/>')
    out.append(f'<text x="{second[0] + 20}" y="{second[1]}" font-size="11" fill="#222">modern house rules</text>')
    head = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" font-family="Helvetica, Arial, sans-serif" role="img" '
        f'aria-label="The shipped editions and their variants">',
        "<title>The shipped editions and their variants</title>",
        f'<rect width="{width}" height="{height}" rx="8" fill="#ffffff"/>',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#888"/></marker></defs>',
    ]
    return "\n".join(head + out + ["</svg>"]) + "\n"


SMALLEST_TEXT = 9  # the variants' titles, in the picture's pixels (the page states it for the browser check)


def main() -> None:
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(svg(), encoding="utf-8")
    NARROW.write_text(svg(per_row=1), encoding="utf-8")
    print(f"wrote {OUT} and {NARROW}")


if __name__ == "__main__":
    main()
