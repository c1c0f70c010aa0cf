"""Draw the board of every shipped edition into docs/assets/boards/NAME.svg.

Run from the repository root after changing an edition's board:

    python examples/draw_boards.py

tests/test_board.py fails while a picture in docs/ is out of date.
"""

from __future__ import annotations

from pathlib import Path

import landlord_dsl as ld
from landlord_dsl.core.resources import shipped_files
from landlord_dsl.presentation.board import board_svg

OUT = Path(__file__).resolve().parent.parent / "docs" / "assets" / "boards"


def editions() -> list[str]:
    """Return the names of the shipped editions that are not variants (those under editions/variants)."""
    return [name for name, path in shipped_files().items() if path.parent.name != "variants"]


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name in editions():
        (OUT / f"{name}.svg").write_text(board_svg(ld.load_edition(name)), encoding="utf-8")
        print(f"wrote {OUT / name}.svg")


if __name__ == "__main__":
    main()
