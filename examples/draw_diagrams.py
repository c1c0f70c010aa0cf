"""Draw the documentation's diagrams into docs/assets/diagrams/NAME.svg.

    python examples/draw_diagrams.py

Four pictures, drawn narrow and tall so that they read on a phone as on a
desktop: the pipeline from a .lg file to a game, how a turn runs, the
exchange of requests between the engine, the chance source and the agents,
and the package's stages as its folders (drawn from the layers contract in
pyproject.toml that `lint-imports` checks, and the files in each folder).
They are plain SVG (no script, no web font), so the site works offline.
tests/test_diagrams.py fails while a picture in docs/ is out of date.
"""

from __future__ import annotations

import html
import textwrap
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "assets" / "diagrams"
FONT = 13  # px: the smallest text of every diagram (the pages say so to the browser check)
WIDTH = 420
INK, MUTED, LINE = "#1f2933", "#52606d", "#7b8794"
FILLS = {"data": "#e3f0fb", "step": "#fdf1e3", "event": "#e6f4ea", "ask": "#f3e8fb", "end": "#eceff1"}


class Svg:
    """An SVG drawing built from boxes, arrows and text."""

    def __init__(self, title: str):
        self.title = title
        self.items: list[str] = []
        self.bottom = 0.0

    def text(
        self,
        x: float,
        y: float,
        words: str,
        size: int = FONT,
        anchor: str = "middle",
        colour: str = INK,
        weight: str = "normal",
        italic: bool = False,
    ) -> None:
        style = ' font-style="italic"' if italic else ""
        self.items.append(
            f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" fill="{colour}" '
            f'font-weight="{weight}"{style}>{html.escape(words)}</text>'
        )
        self.bottom = max(self.bottom, y + 6)

    def box(self, x: float, y: float, w: float, lines: list[str], fill: str, bold_first: bool = True) -> float:
        """Draw a rounded box with centred lines of text; return its bottom edge."""
        h = 12 + 18 * len(lines)
        self.items.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h}" rx="7" fill="{fill}" '
            f'stroke="{LINE}" stroke-width="1"/>'
        )
        for i, line in enumerate(lines):
            self.text(
                x + w / 2,
                y + 20 + 18 * i,
                line,
                weight="bold" if i == 0 and bold_first else "normal",
                colour=INK if i == 0 else MUTED,
            )
        self.bottom = max(self.bottom, y + h)
        return y + h

    def arrow(
        self,
        x1: float,
        y1: float,
        x2: float,
        y2: float,
        label: str = "",
        dashed: bool = False,
        label_side: str = "right",
    ) -> None:
        dash = ' stroke-dasharray="5 4"' if dashed else ""
        self.items.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{LINE}" '
            f'stroke-width="1.6" marker-end="url(#head)"{dash}/>'
        )
        if label:  # beside a vertical arrow
            dx = 8 if label_side == "right" else -8
            self.text(
                x1 + dx,
                (y1 + y2) / 2 + 4,
                label,
                anchor="start" if label_side == "right" else "end",
                colour=MUTED,
                italic=True,
            )

    def render(self) -> str:
        height = self.bottom + 12
        return (
            "\n".join(
                [
                    f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height:.0f}" '
                    f'viewBox="0 0 {WIDTH} {height:.0f}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" '
                    f'role="img" aria-label="{html.escape(self.title)}">',
                    f"<title>{html.escape(self.title)}</title>",
                    '<defs><marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
                    f'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{LINE}"/></marker></defs>',
                    f'<rect width="{WIDTH}" height="{height:.0f}" fill="#ffffff"/>',
                    *self.items,
                    "</svg>",
                ]
            )
            + "\n"
        )


def pipeline() -> str:
    """Return the pipeline: .lg text, parse, load, check, compile, and a Game driven by requests."""
    d = Svg("From a .lg file to a game: parse, load, check, compile, run")
    x, w, mid = 70, 280, WIDTH / 2
    steps = [
        (["edition.lg", "the rules as text"], "data", "parse (ld.parse)"),
        (["typed AST", "frozen attrs nodes with positions"], "data", "load: variants merged"),
        (["merged declarations", "a variant joined to its base"], "data", "check (ld.check)"),
        (["RuleSet", "names resolved, types inferred"], "data", "compile (ld.compile_rules)"),
        (["Program", "Python functions, options folded"], "data", "run (ld.new_game, play)"),
        (["Game (the engine)", "seats, ledger, decks, event log"], "step", ""),
    ]
    y = 12.0
    for lines, fill, label in steps:
        bottom = d.box(x, y, w, lines, FILLS[fill])
        if label:
            d.arrow(mid, bottom, mid, bottom + 38, label=label)
            y = bottom + 40
        else:
            y = bottom
    y += 34
    d.arrow(mid - 60, y - 34, mid - 60, y, label="requests", label_side="left")
    d.arrow(mid + 60, y, mid + 60, y - 34, label="answers")
    d.box(x, y, w, ["Agents and a chance source", "choices and dice from outside"], FILLS["ask"])
    return d.render()


def turn() -> str:
    """Return how a turn runs: on turn handlers (throw, move, pass, land), triggers, end conditions."""
    d = Svg("How a turn runs: on turn, roll, move, on pass, on land, triggers, end")
    x, w, mid = 40, 340, WIDTH / 2
    y = d.box(x, 12, w, ["Next player still in the game", "turns go round the table"], FILLS["end"])
    d.arrow(mid, y, mid, y + 28)
    top = y + 28
    y = d.box(x, top, w, ["on turn", "every rule in force, in declaration order"], FILLS["event"])
    inner_x, inner_w = x + 24, w - 48
    d.arrow(mid, y, mid, y + 24)
    y = d.box(inner_x, y + 24, inner_w, ["roll dice", "a DiceRequest to the chance source"], FILLS["ask"])
    d.arrow(mid, y, mid, y + 24)
    y = d.box(inner_x, y + 24, inner_w, ["move forward N", "counted along the track"], FILLS["step"])
    d.arrow(mid, y, mid, y + 24)
    y = d.box(inner_x, y + 24, inner_w, ["on pass X", "for each space reached or passed"], FILLS["event"])
    d.arrow(mid, y, mid, y + 24)
    y = d.box(inner_x, y + 24, inner_w, ["on land X", "the space the move ends on"], FILLS["event"])
    d.text(mid, y + 22, "choose, offer, auction: DecisionRequest, BidRequest", colour=MUTED, italic=True)
    frame_bottom = y + 34
    d.items.insert(
        0,
        f'<rect x="{x - 8}" y="{top - 8}" width="{w + 16}" height="{frame_bottom - top + 16}" rx="10" '
        f'fill="none" stroke="{LINE}" stroke-dasharray="4 4"/>',
    )
    d.arrow(mid, frame_bottom + 8, mid, frame_bottom + 36)
    y = d.box(x, frame_bottom + 36, w, ["when triggers", "a rule's condition has come true"], FILLS["event"])
    d.arrow(mid, y, mid, y + 28)
    y = d.box(x, y + 28, w, ["end when, then the turn limit", "checked in order after every turn"], FILLS["step"])
    d.arrow(mid - 70, y, mid - 70, y + 36, label="one holds", label_side="left")
    d.arrow(mid + 70, y, mid + 70, y + 36, label="none holds")
    y = y + 36
    d.box(x, y, 150, ["game over", "scores, winners"], FILLS["end"])
    d.box(x + w - 150, y, 150, ["next turn", "back to the top"], FILLS["end"])
    return d.render()


def requests() -> str:
    """Return the engine-agent exchange as a sequence diagram with three lifelines."""
    d = Svg("The engine asks; the chance source and the agents answer")
    cols = {"chance": 66, "game": 210, "agent": 354}
    heads = {"chance": ["Chance", "source"], "game": ["Game", "(engine)"], "agent": ["Agent", "of the seat"]}
    for key, cx in cols.items():
        d.box(cx - 58, 12, 116, heads[key], FILLS["ask" if key != "game" else "step"])
    top, steps = (
        70,
        [
            ("game", "chance", "DiceRequest(2)"),
            ("chance", "game", "(3, 4)"),
            ("game", "agent", "DecisionRequest"),
            ("agent", "game", "option index 1"),
            ("game", "agent", "BidRequest"),
            ("agent", "game", "a bid, or None"),
            ("game", "chance", "ShuffleRequest"),
            ("chance", "game", "a permutation"),
        ],
    )
    y = top + 30
    for src, dst, label in steps:
        x1, x2 = cols[src], cols[dst]
        shift = 4 if x2 > x1 else -4
        d.arrow(x1 + shift, y, x2 - shift, y, dashed=src != "game")
        d.text((x1 + x2) / 2, y - 7, label, colour=INK)
        y += 42
    bottom = y - 10
    for cx in cols.values():
        d.items.insert(
            0, f'<line x1="{cx}" y1="{top - 12}" x2="{cx}" y2="{bottom}" stroke="{LINE}" stroke-dasharray="3 4"/>'
        )
    d.text(WIDTH / 2, bottom + 22, "every answer goes into the event log,", colour=MUTED, italic=True)
    d.text(WIDTH / 2, bottom + 40, "so seed and answers replay the game exactly", colour=MUTED, italic=True)
    return d.render()


def stage_layers() -> list[list[str]]:
    """Return the package's layers, the top one first, each a list of the stages (folders or modules) it holds,
    as the layers contract in pyproject.toml gives them."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (contract,) = [c for c in config["tool"]["importlinter"]["contracts"] if c["id"] == "stages"]
    return [[name.strip() for name in layer.split("|")] for layer in contract["layers"]]


def stage_files(stage: str) -> list[str]:
    """Return what a stage holds: its modules (and sub-packages, with a slash), or the module it is."""
    folder = ROOT / "landlord_dsl" / stage
    if not folder.is_dir():
        return [f"{stage}.py"]
    modules = sorted(p.stem for p in folder.glob("*.py") if p.stem != "__init__")
    packages = sorted(p.name + "/" for p in folder.iterdir() if (p / "__init__.py").exists())
    return modules + packages


def stages() -> str:
    """Return the package's stages as folders, each layer importing only the layers under it."""
    d = Svg("The package's stages: each folder imports only the folders drawn under it")
    x, w, gap = 16, WIDTH - 32, 12
    y = 12.0
    layers = stage_layers()
    for n, layer in enumerate(layers):
        width = (w - gap * (len(layer) - 1)) / len(layer)
        bottoms = []
        for i, stage in enumerate(layer):
            name = stage + ("/" if (ROOT / "landlord_dsl" / stage).is_dir() else "")
            lines = [name, *textwrap.wrap(", ".join(stage_files(stage)), int(width / 7.6))]
            fill = FILLS["step"] if stage in ("engine", "program") else FILLS["data"]
            bottoms.append(d.box(x + i * (width + gap), y, width, lines, fill))
        bottom = max(bottoms)
        if n + 1 < len(layers):
            d.arrow(WIDTH / 2, bottom, WIDTH / 2, bottom + 26, label="imports" if n == 0 else "")
            y = bottom + 28
    d.text(WIDTH / 2, d.bottom + 22, "side by side: neither imports the other", colour=MUTED, italic=True)
    return d.render()


DIAGRAMS = {"pipeline": pipeline, "turn": turn, "requests": requests, "stages": stages}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, draw in DIAGRAMS.items():
        (OUT / f"{name}.svg").write_text(draw(), encoding="utf-8")
        print(f"wrote {OUT / name}.svg")


if __name__ == "__main__":
    main()
