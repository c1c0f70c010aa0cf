"""The data behind the documentation's figures, kept next to each figure so that tests/test_figures.py can
tell a stale one.

A figure script writes FIGURE.json beside FIGURE.png: the numbers the figure
is drawn from, and `check`, a digest of the summary of the first few of the
same seeded games. The test plays those few games again and redraws the
figure from the numbers: if the games or the drawing no longer come out the
same, the figure is out of date and the test names the script to run.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

CHECK_GAMES = 5  # games replayed by the test


def digest(summary: dict[str, Any]) -> str:
    """Return the SHA-256 of a simulation summary written as canonical JSON."""
    return hashlib.sha256(json.dumps(summary, sort_keys=True).encode()).hexdigest()


def data_path(figure: Path) -> Path:
    """Return where the data of `figure` is kept."""
    return figure.with_suffix(".json")


def write(figure: Path, check: str, **data: Any) -> None:
    """Write the data of `figure`: `check` (a digest of its first games) and the numbers it is drawn from."""
    data_path(figure).write_text(
        json.dumps({"check": check, **data}, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )


def read(figure: Path) -> dict[str, Any]:
    """Return the data kept for `figure`."""
    return json.loads(data_path(figure).read_text(encoding="utf-8"))


def picture(wide: str, narrow: str, text_px: float, alt: str, full: str) -> str:
    """Return the HTML of a figure for a page: `wide` on a desktop, `narrow` on a phone (both addresses from
    the page's folder), its smallest text in pixels for the browser check, and a link to `full`, the picture
    at full size."""
    return (
        f'<figure class="chart"><a href="{full}" title="Open the figure at full size">'
        f'<picture><source media="(max-width: 760px)" srcset="{narrow}">'
        f'<img src="{wide}" data-text-px="{text_px:.1f}" alt="{alt}"></picture></a></figure>'
    )


BEGIN = "<!-- BEGIN GENERATED {} ({}) -->\n"
END = "<!-- END GENERATED {} -->\n"


def replace_region(text: str, region: str, script: str, body: str) -> str:
    """Return a page's text with its generated region `region` (written by `script`) holding `body`; raise
    ValueError if the page has no such region."""
    begin, end = BEGIN.format(region, script), END.format(region)
    if begin not in text:
        raise ValueError(f"the page has no region {begin.strip()}")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    return head + begin + "\n" + body + "\n" + end + tail
