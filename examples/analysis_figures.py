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
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import landlord_dsl as ld
from landlord_dsl.core.errors import LandlordError
from landlord_dsl.core.resources import shipped_files
from landlord_dsl.presentation.plots import analysis_figure
from landlord_dsl.studies.analysis import Analysis, analyze

OUT = Path(__file__).resolve().parent.parent / "docs" / "assets" / "analysis"


def editions() -> list[str]:
    """Return the names of the shipped editions that are not variants (those under editions/variants)."""
    return [name for name, path in shipped_files().items() if path.parent.name != "variants"]


def analysis_of(name: str) -> Analysis:
    """Return the analysis a figure shows: the landing tables, with the economy check (its warnings are kept)."""
    return analyze(ld.load_edition(name), rents=False)


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
    return 0


if __name__ == "__main__":
    sys.exit(main())
