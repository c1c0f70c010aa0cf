"""Build the Play page (docs/play-in-browser.md) into a folder: a static site that plays the rules in a browser.

    bash .ci/pyodide                           # once: npm's pyodide and the dependency wheels
    python examples/build_play_page.py OUT     # e.g. site/play after `mkdocs build`

It builds the project's wheel from this working tree and writes it, the dependency wheels, the files of
npm's pyodide package, the prepared parser tables and, when an interpreter of Pyodide's Python version is at
hand (pyenv's or on PATH: python3.13), the modules' bytecode into OUT with the page
(landlord_dsl.presentation.playpage). Serve OUT with any static server
(`python -m http.server -d OUT -b 127.0.0.1`): the page asks no other host for anything.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))  # where .ci/pyodide put Pyodide and the wheels, and the wheel build

import pyodide_support  # noqa: E402
from landlord_dsl.presentation.playpage import build_play_page  # noqa: E402


def build(out: Path) -> list[Path]:
    """Build the project's wheel and the page into `out`; return the files written.

    :raises RuntimeError: Pyodide or the dependency wheels are missing (run .ci/pyodide), or the wheel
        did not build.
    """
    reason = pyodide_support.missing()
    if reason is not None:
        raise RuntimeError(f"{reason}: run bash .ci/pyodide first")
    with tempfile.TemporaryDirectory() as scratch:
        wheel = pyodide_support.build_wheel(Path(scratch))
        pyodide = pyodide_support.cache() / "node_modules" / "pyodide"
        return build_play_page(out, pyodide, [wheel, *pyodide_support.dependency_wheels()], python_for(pyodide))


def python_for(pyodide: Path) -> str | None:
    """Return an interpreter of the Python version of Pyodide (pyenv's, else one on PATH), or None."""
    import json
    import shutil
    import subprocess

    lock = json.loads((pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))
    version = ".".join(lock["info"]["python"].split(".")[:2])
    root = (
        subprocess.run(["pyenv", "root"], capture_output=True, text=True, check=False).stdout.strip()
        if shutil.which("pyenv")
        else ""
    )
    found = sorted(Path(root).glob(f"versions/{version}.*/bin/python3")) if root else []
    if found:
        return str(found[-1])
    return shutil.which(f"python{version}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the folder to write the page into")
    args = parser.parse_args()
    written = build(args.out)
    size = sum(p.stat().st_size for p in written)
    print(f"wrote the Play page into {args.out}: {len(written)} files, {size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
