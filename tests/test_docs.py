"""The documentation site builds with `mkdocs build --strict`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_mkdocs_build_strict(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # the `lg` code blocks are highlighted by landlord-dsl's own Pygments lexer (its plugin entry point)
    page = (tmp_path / "site" / "language" / "index.html").read_text(encoding="utf-8")
    assert '<span class="kd">rule</span>' in page and '<span class="kp">secondary</span>' in page
