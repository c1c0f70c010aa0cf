"""Draw the exact landing tables of every shipped edition that can be analysed into docs/assets/analysis/NAME.png.

Run from the repository root (needs the `analysis` and `plot` extras):

    python examples/analysis_figures.py

Each figure is what `landlord-dsl analyze NAME --no-rents --plot FILE` draws:
the board shaded by the exact long-run share of throws and of turns ending on
each space. Editions whose movement cannot be analysed exactly (the 1904
patent's state grows without end) are left out, with the reason printed.
Beside each figure, NAME.json keeps the per-space figures it is drawn from;
tests/test_figures.py analyses the edition again and redraws the figure, and
fails while a figure is out of date.

docs/analysis.md shows the two boards apart, each at a size whose text can be
read in the page's column (NAME-throws.png, NAME-turns.png, each with a
-narrow variant for phones), and links the whole figure; the script draws
them from NAME.json and writes the page's section of figures.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import figure_data

import landlord_dsl as ld
from landlord_dsl.core.errors import LandlordError
from landlord_dsl.core.resources import shipped_files
from landlord_dsl.presentation.plots import analysis_figure, heatmap_figure
from landlord_dsl.studies.analysis import Analysis, analyze

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "assets" / "analysis"
PAGE = ROOT / "docs" / "analysis.md"
SCRIPT = "examples/analysis_figures.py"


def editions() -> list[str]:
    """Return the names of the shipped editions that are not variants (those under editions/variants)."""
    return [name for name, path in shipped_files().items() if path.parent.name != "variants"]


def analysis_of(name: str) -> Analysis:
    """Return the analysis a figure shows: the landing tables, with the economy check (its warnings are kept)."""
    return analyze(ld.load_edition(name), rents=False)


def panels(name: str, out: Path = OUT) -> list[tuple[str, str, float]]:
    """Draw the page's pictures of one edition from its kept NAME.json: where throws and where turns end, each
    wide and narrow, into `out`; return (picture name, what it shows, smallest text in pixels) of each."""
    rows = sorted(
        (r for r in json.loads((out / f"{name}.json").read_text(encoding="utf-8")) if not r["status"]),
        key=lambda r: r["index"],
    )
    labels = [r["label"] for r in rows]
    drawn = []
    for part, what in (
        ("throws", "share of throws ending here (exact)"),
        ("turns", "share of turns ending here (exact)"),
    ):
        values = [r[part[:-1]] for r in rows]
        px = min(
            heatmap_figure(labels, values, what, "{:.2%}", out / f"{name}-{part}{k}.png", k == "-narrow")
            for k in ("", "-narrow")
        )
        drawn.append((part, f"The board shaded by the exact {what.removesuffix(' (exact)')}", px))
    return drawn


def page_region(out: Path = OUT) -> str:
    """Return the page's region of figures: a section per edition that has a kept analysis, its pictures drawn."""
    parts = []
    for name in editions():
        if not (out / f"{name}.json").is_file():
            continue
        title = ld.compile_rules(ld.load_edition(name)).title
        lines = [f"### {title}", ""]
        for part, alt, px in panels(name, out):
            wide, narrow = f"../assets/analysis/{name}-{part}.png", f"../assets/analysis/{name}-{part}-narrow.png"
            lines += [figure_data.picture(wide, narrow, px, f"{alt}, {title}", wide), ""]
        lines.append(f"[Both boards in one figure, as `analyze --plot` draws them](assets/analysis/{name}.png)")
        parts.append("\n".join(lines) + "\n")
    return "\n".join(parts)


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for name in editions():
        try:
            result = analysis_of(name)
        except LandlordError as err:
            print(f"{name}: not analysed: {str(err).splitlines()[0]}", file=sys.stderr)
            continue
        path = OUT / f"{name}.png"
        analysis_figure(result, path)
        path.with_suffix(".json").write_text(json.dumps(result.to_json()["spaces"], indent=1) + "\n", encoding="utf-8")
        print(f"wrote {path}", file=sys.stderr)
    PAGE.write_text(
        figure_data.replace_region(PAGE.read_text(encoding="utf-8"), "figures", SCRIPT, page_region()),
        encoding="utf-8",
    )
    print(f"wrote {PAGE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
