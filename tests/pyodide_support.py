"""Running the package under Pyodide in Node (issue 29): where .ci/pyodide put Pyodide, and a run.

`.ci/pyodide` installs npm's pyodide package (at the version it pins) and pure-Python wheels of the
package's dependencies into a per-user cache; `build_wheel` builds the project's own wheel from the
working tree; `run` unpacks them all into a fresh Pyodide in Node (tests/pyodide_run.mjs), with no
network, and runs a Python program there. Used by tests/test_pyodide.py and benchmarks/bench_pyodide.py.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DRIVER = Path(__file__).resolve().parent / "pyodide_run.mjs"
INSTALLER = ROOT / ".ci" / "pyodide"


def pinned_version() -> str:
    """Return the Pyodide version .ci/pyodide installs (its `PYODIDE=` line)."""
    found = re.search(r"^PYODIDE=(\S+)$", INSTALLER.read_text(encoding="utf-8"), re.MULTILINE)
    if found is None:
        raise RuntimeError(f"{INSTALLER}: no PYODIDE=<version> line")
    return found[1]


def cache() -> Path:
    """Return the folder .ci/pyodide installs into (it may not exist)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "landlord-dsl" / "pyodide" / pinned_version()


def missing() -> str | None:
    """Return why Pyodide cannot run here (no Node, no Pyodide, no wheels), or None if it can."""
    if shutil.which("node") is None:
        return "no Node.js (node) on PATH"
    if not (cache() / "node_modules" / "pyodide" / "pyodide.mjs").is_file():
        return f"no Pyodide {pinned_version()} in {cache()}"
    if not (cache() / "wheels" / ".requirements").is_file():
        return f"no dependency wheels in {cache() / 'wheels'}"
    return None


def build_wheel(into: Path) -> Path:
    """Build the project's wheel from the working tree into `into`; return its path.

    :raises RuntimeError: the build failed (its output is in the message).
    """
    try:
        import build  # noqa: F401  (the dev extra's: faster than pip's build)

        command = [sys.executable, "-m", "build", "--wheel", "--outdir", str(into), str(ROOT)]
    except ImportError:
        command = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(into), str(ROOT)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wheels = sorted(into.glob("landlord_dsl-*.whl"))
    if done.returncode != 0 or len(wheels) != 1:
        raise RuntimeError(f"building the wheel failed ({' '.join(command)}):\n{done.stdout}{done.stderr}")
    return wheels[0]


def compiled_files(wheel: Path) -> list[str]:
    """Return the wheel's files that are not pure Python (extension modules)."""
    with zipfile.ZipFile(wheel) as archive:
        return [n for n in archive.namelist() if n.endswith((".so", ".pyd", ".dylib", ".dll"))]


def dependency_wheels() -> list[Path]:
    """Return the dependency wheels .ci/pyodide downloaded."""
    return sorted((cache() / "wheels").glob("*.whl"))


def run(program: str, wheel: Path, scratch: Path, timeout: float = 600) -> tuple[str, dict[str, dict[str, float]]]:
    """Run `program` in a fresh Pyodide with the project's `wheel` and the dependency wheels installed.

    The program's last expression must be a str. Returns it and the milliseconds Node took to load
    Pyodide (`load`), unpack the wheels (`unpack`) and run the program (`run`), each as
    `{"wall": ..., "cpu": ...}` (the CPU time of the Node process, its helper threads included).

    :raises RuntimeError: Node exited with an error (the Python traceback is in the message).
    """
    script = scratch / "program.py"
    script.write_text(program, encoding="utf-8")
    pyodide = cache() / "node_modules" / "pyodide"
    command = ["node", str(DRIVER), str(pyodide), str(script), str(wheel), *map(str, dependency_wheels())]
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"Pyodide run failed (exit {done.returncode}):\n{done.stderr[-6000:]}")
    output = json.loads(done.stdout)
    return output["result"], output["ms"]
