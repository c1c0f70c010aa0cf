"""Golden files: the text a test's output must equal, rewritten on request.

With LANDLORD_UPDATE_GOLDEN set (to anything but empty or 0), every golden
file a test compares with is rewritten from the output instead; read the diff
before committing it.
"""

from __future__ import annotations

import os
from pathlib import Path

UPDATE = os.environ.get("LANDLORD_UPDATE_GOLDEN", "") not in ("", "0")


def assert_matches_golden(actual: str, path: Path) -> None:
    """Assert that `actual` is the text of the golden file at `path` (written there first when UPDATE)."""
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
    assert path.exists(), f"missing golden file {path.name}; run with LANDLORD_UPDATE_GOLDEN=1"
    assert actual == path.read_text(encoding="utf-8")
