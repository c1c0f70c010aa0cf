"""Drawing a rule file's board as an SVG picture, as the players see it.

The board is read from the compiled program alone: spaces in their order
round a square track (the start in the bottom right-hand corner, play running
clockwise from the players' side, as on the printed boards), each space filled
by its kind's colour, a band in the colour of the set it belongs to, its label
and its number-valued fields (a price, a rent). Colours are assigned from
fixed palettes in declaration order, so the same rule file always gives the
same picture. Every text is XML-escaped and control characters are dropped:
a rule file cannot put markup into the picture.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from html import escape
from typing import Any

from ..checking.loader import RuleSet
from ..checking.model import Model
from ..compiling.compiler import compile_ruleset
from ..program.compiled import Program
from ..studies.stats import set_of

# Pale fills, one per kind, and strong colours, one per set (Okabe-Ito and friends,
# chosen to stay distinguishable for colour-blind readers).
KIND_FILLS = (
    "#f4efe1",
    "#e3eef8",
    "#f8e6e0",
    "#e8f3e3",
    "#f2e6f3",
    "#fbf3d5",
    "#e2f1f0",
    "#ececec",
    "#f6e3ea",
    "#e9e6f7",
    "#eef5d9",
    "#f9ead9",
)
SET_COLOURS = (
    "#0072b2",
    "#e69f00",
    "#009e73",
    "#cc79a7",
    "#d55e00",
    "#56b4e9",
    "#8c564b",
    "#f0c800",
    "#7f3c8d",
    "#6b6b6b",
    "#a6cee3",
    "#e73f74",
    "#b2df8a",
    "#1f3a93",
)

# A kind or set whose label names one of these colours is drawn in it (a pale fill for a kind, the strong
# colour for a set's band), so that the legend's words and the picture agree; longer names are found first.
NAMED_COLOURS = {
    "light blue": ("#d7ecfa", "#56b4e9"),
    "dark blue": ("#dbe0f2", "#1f3a93"),
    "red": ("#f9dcdc", "#d62728"),
    "green": ("#e2f2dc", "#2ca02c"),
    "blue": ("#dde8f7", "#0072b2"),
    "yellow": ("#fbf3c8", "#f0c800"),
    "brown": ("#efe3da", "#8c564b"),
    "pink": ("#f9e1ec", "#e377c2"),
    "purple": ("#ebe0f2", "#7f3c8d"),
    "orange": ("#fbe8d2", "#e69f00"),
}


def _named_colour(label: str | None, strong: bool) -> str | None:
    """Return the colour a label names (the only colour word in it), pale or `strong`; None if it names none
    or more than one."""
    words = " ".join("".join(c if c.isalpha() else " " for c in (label or "").lower()).split())
    found: list[str] = []
    for name in NAMED_COLOURS:
        padded = f" {words} "
        if f" {name} " in padded and not any(f" {name} " in f" {other} " for other in found):
            found.append(name)
    return NAMED_COLOURS[found[0]][1 if strong else 0] if len(found) == 1 else None


def _palette(names: list[str], labels: dict[str, str | None], palette: tuple[str, ...], strong: bool) -> dict:
    """Return a colour for each name: the colour its label names, else the palette's next one not taken."""
    named = {n: _named_colour(labels.get(n), strong) for n in names}
    free = [c for c in palette if c not in named.values()]
    out, k = {}, 0
    for n in names:
        colour = named[n]
        if colour is None:
            colour = free[k % len(free)]
            k += 1
        out[n] = colour
    return out


CELL = 64  # the short side of a space
DEPTH = 96  # the long side of a space (and a corner's side)
BAND = 16  # the set colour band
FONT = "Helvetica, Arial, sans-serif"


def _plain(text: str) -> str:
    """Return text with control characters dropped, XML-escaped."""
    return escape("".join(ch for ch in text if ch.isprintable() or ch == " "))


def board_cells(n: int) -> list[tuple[float, float, float, float, str]]:
    """Return (x, y, width, height, side) of each space, in board order.

    Space 0 is the bottom right-hand corner; the track runs along the bottom to the
    left, up the left side, along the top and down the right side. With n spaces
    not divisible by four the bottom and top sides take the extra spaces.
    """
    between = max(n - 4, 0)
    v = between // 4
    bottom = (between - 2 * v + 1) // 2
    top = between - 2 * v - bottom
    width = 2 * DEPTH + max(bottom, top) * CELL
    height = 2 * DEPTH + v * CELL
    cells: list[tuple[float, float, float, float, str]] = []
    cells.append((width - DEPTH, height - DEPTH, DEPTH, DEPTH, "corner"))
    step = (width - 2 * DEPTH) / max(bottom, 1)
    for i in range(bottom):
        cells.append((width - DEPTH - (i + 1) * step, height - DEPTH, step, DEPTH, "bottom"))
    cells.append((0, height - DEPTH, DEPTH, DEPTH, "corner"))
    for i in range(v):
        cells.append((0, height - DEPTH - (i + 1) * CELL, DEPTH, CELL, "left"))
    cells.append((0, 0, DEPTH, DEPTH, "corner"))
    step = (width - 2 * DEPTH) / max(top, 1)
    for i in range(top):
        cells.append((DEPTH + i * step, 0, step, DEPTH, "top"))
    cells.append((width - DEPTH, 0, DEPTH, DEPTH, "corner"))
    for i in range(v):
        cells.append((width - DEPTH, DEPTH + i * CELL, DEPTH, CELL, "right"))
    return cells[:n]


def _band(x: float, y: float, w: float, h: float, side: str) -> tuple[float, float, float, float]:
    """Return the rectangle of a space's set band: on the edge that faces the middle."""
    if side == "bottom":
        return x, y, w, BAND
    if side == "top":
        return x, y + h - BAND, w, BAND
    if side == "left":
        return x + w - BAND, y, BAND, h
    return x, y, BAND, h


def _field_lines(program: Program, space: int) -> list[str]:
    """Return 'name value' for each number-valued field of a space (booleans left out)."""
    lines = []
    for name, column in program.space_fields.items():
        value = column[space]
        if isinstance(value, int) and not isinstance(value, bool):
            lines.append(f"{name.replace('_', ' ')} {value}")
    return lines


def _fit(label: str, width: float, height: float, field_lines: int, size: float) -> tuple[float, list[str]]:
    """Return the font size and the lines of a label wrapped to fit the box, the whole label always shown.

    The size falls from `size` until the wrapped label and the field lines below it fit.
    """
    while True:
        lines = textwrap.wrap(label, max(int((width - 4) / (size * 0.66)), 4)) or [""]
        if (len(lines) + field_lines) * size * 1.2 <= height or size <= 4:
            return size, lines
        size -= 0.5


def board_svg(rules: RuleSet, options: dict[str, Any] | None = None, program: Program | None = None) -> str:
    """Return an SVG document (text) drawing the board of a rule set for the given option values."""
    program = program or compile_ruleset(rules, options)
    model = rules.model
    n = len(program.space_names)
    cells = board_cells(n)
    width = max(x + w for x, _, w, _, _ in cells) if cells else 2 * DEPTH
    height = max(y + h for _, y, _, h, _ in cells) if cells else 2 * DEPTH
    kinds = list(dict.fromkeys(program.space_kinds))
    kind_fill = _palette(kinds, {k: d.label for k, d in model.kinds.items()}, KIND_FILLS, strong=False)
    sets = [set_of(program, rules, i) for i in range(n)]
    set_names = list(dict.fromkeys(s for s in sets if s))
    set_colour = _palette(set_names, dict(model.group_labels), SET_COLOURS, strong=True)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" '
        f'width="{width:g}" height="{height:g}" font-family="{FONT}" role="img" '
        f'aria-label="{_plain(program.title)}: the board">',
        f"<title>{_plain(program.title)}: the board</title>",
        f'<rect x="0" y="0" width="{width:g}" height="{height:g}" fill="#fbfaf5" stroke="#333"/>',
    ]
    for i, (x, y, w, h, side) in enumerate(cells):
        kind = program.space_kinds[i]
        label = program.space_labels[i]
        group = sets[i]
        out.append(f'<g id="space-{i}" class="space kind-{_plain(kind)}">')
        kind_label = _plain(model.kinds[kind].label or kind) if kind in model.kinds else _plain(kind)
        out.append(
            f"<title>{i}: {_plain(label)} ({kind_label})"
            f"{'; ' + _plain(model.group_labels.get(group, group)) if group else ''}</title>"
        )
        out.append(
            f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" fill="{kind_fill[kind]}" '
            f'stroke="#333" stroke-width="1"/>'
        )
        top = y + 4
        if group and side != "corner":
            bx, by, bw, bh = _band(x, y, w, h, side)
            out.append(
                f'<rect x="{bx:g}" y="{by:g}" width="{bw:g}" height="{bh:g}" fill="{set_colour[group]}" '
                f'stroke="#333" stroke-width="0.5"/>'
            )
            if side == "bottom":
                top = y + BAND + 4
        inner = w - (BAND if side in ("left", "right") and group else 0)
        left = x + (BAND if side == "right" and group else 0)
        fields = _field_lines(program, i)[:3]
        size, lines = _fit(label, inner, h - (BAND if group else 0) - 8, len(fields), 9 if side == "corner" else 7.5)
        cx = left + inner / 2
        out.append(
            f'<text x="{cx:g}" y="{top + size:g}" font-size="{size:g}" text-anchor="middle" '
            f'font-weight="bold" fill="#222">'
        )
        for k, line in enumerate(lines):
            out.append(f'<tspan x="{cx:g}" dy="{0 if k == 0 else size * 1.15:g}">{_plain(line)}</tspan>')
        out.append("</text>")
        for k, line in enumerate(reversed(fields)):
            fy = y + h - 5 - k * (size * 1.2) - (BAND if side == "top" and group else 0)
            out.append(
                f'<text x="{cx:g}" y="{fy:g}" font-size="{size - 0.5:g}" text-anchor="middle" '
                f'fill="#444">{_plain(line)}</text>'
            )
        # the space number, as small as the other texts may be (7: readable where the board is shown whole)
        out.append(f'<text x="{x + 3:g}" y="{y + h - 3:g}" font-size="7" fill="#777">{i}</text>')
        out.append("</g>")
    out.extend(_legend(program, model, kinds, kind_fill, set_names, set_colour, width, height))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _legend(
    program: Program,
    model: Model,
    kinds: Sequence[str],
    kind_fill: dict[str, str],
    set_names: Sequence[str],
    set_colour: dict[str, str],
    width: float,
    height: float,
) -> list[str]:
    """Return the SVG lines of the middle of the board: the title and a key of kinds and sets."""
    x0, y0 = DEPTH + 16, DEPTH + 24
    inner_w = width - 2 * DEPTH - 32
    out = [
        '<g id="legend">',
        f'<text x="{width / 2:g}" y="{y0:g}" font-size="15" font-weight="bold" text-anchor="middle" '
        f'fill="#222">{_plain(program.title)}</text>',
    ]
    rows = [(kind_fill[k], (model.kinds[k].label if k in model.kinds else None) or k) for k in kinds]
    rows += [(set_colour[s], model.group_labels.get(s) or s) for s in set_names]
    column_width = inner_w / 2
    per_column = (len(rows) + 1) // 2
    for j, (colour, text) in enumerate(rows):
        cx = x0 + (j // per_column) * column_width
        cy = y0 + 24 + (j % per_column) * 14
        if cy > height - DEPTH - 8:
            break
        out.append(
            f'<rect x="{cx:g}" y="{cy - 9:g}" width="11" height="11" fill="{colour}" stroke="#333" stroke-width="0.5"/>'
        )
        short = textwrap.shorten(text, int(column_width / 5.2), placeholder="…")
        out.append(f'<text x="{cx + 16:g}" y="{cy:g}" font-size="9" fill="#222">{_plain(short)}</text>')
    out.append("</g>")
    return out
