"""Exact analysis: the same tables as the frame-reading method gave, on every shipped edition and variant.

Issue 29: the analysis explores the game through the stepped interface and
tells continuations apart by the keys the keyed stepped compilation lays out
(compiling/stepped_pass.py), not by reading CPython's frames and bytecode.
The goldens in tests/golden/analysis are `analyze(...).to_json()` as the
frame-reading method printed them, before the change; every probability,
count and rent must agree to 1e-12 and everything else exactly. Rewrite them
(LANDLORD_UPDATE_GOLDEN=1) only for an intended change of the figures.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("numpy")

import landlord_dsl as ld
from golden_files import UPDATE
from landlord_dsl.studies.analysis import analyze
from sweep_params import EDITIONS

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "analysis"

# (golden name, rules, analyze's keyword arguments): the shipped editions and variants as the CLI runs them,
# the example rule files, and the options and policies docs/analysis.md and the tests use
CASES: list[tuple[str, str, dict]] = [(edition, edition, {}) for edition in ld.shipped_editions()] + [
    ("monopoly-standard-deck", "examples/monopoly-standard-deck.lg", {}),
    ("four-sided-ring", "examples/four-sided-ring.lg", {}),
    ("landlords-game-1906-auctioned-deal", "examples/landlords-game-1906-auctioned-deal.lg", {}),
    ("landlords-game-1906-single-tax", "examples/landlords-game-1906-single-tax.lg", {}),
    ("landlords-game-1939-citizens-dividend", "examples/landlords-game-1939-citizens-dividend.lg", {}),
    ("analysis-ring", "tests/data/analysis-ring.lg", {}),
    ("1933-houses5", "monopoly-1933-atlantic-city", {"buildings": ("houses", 5)}),
    ("1933-try_doubles", "monopoly-1933-atlantic-city", {"prefer": ["try_doubles"]}),
    (
        "standard-collins",
        "examples/monopoly-standard-deck.lg",
        {"options": {"jail_cards": "returned"}, "prefer": ["pay_fine"]},
    ),
    ("ring-nomemo", "tests/data/analysis-ring.lg", {"memo": False}),
    ("1906-nomemo", "landlords-game-1906", {"memo": False, "rents": False, "check_economy": False}),
]
FAST = set(EDITIONS) | {"analysis-ring", "four-sided-ring", "ring-nomemo", "1906-nomemo"}


def _differences(expected, actual, where: str) -> list[str]:
    """Return where `actual` differs from `expected`: numbers by more than 1e-12, anything else at all."""
    if isinstance(expected, float) or isinstance(actual, float):
        if expected is None or actual is None or abs(expected - actual) > 1e-12:
            return [f"{where}: {expected!r} != {actual!r}"]
        return []
    if isinstance(expected, dict) and isinstance(actual, dict):
        if expected.keys() != actual.keys():
            return [f"{where}: keys {sorted(expected)} != {sorted(actual)}"]
        return [d for key in expected for d in _differences(expected[key], actual[key], f"{where}.{key}")]
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return [f"{where}: {len(expected)} rows != {len(actual)}"]
        return [d for i, (e, a) in enumerate(zip(expected, actual)) for d in _differences(e, a, f"{where}[{i}]")]
    return [] if expected == actual else [f"{where}: {expected!r} != {actual!r}"]


def _paths_relative(data):
    """Return `data` with this checkout's path left out of rendered diagnostics (goldens are made anywhere)."""
    if isinstance(data, dict):
        return {k: _paths_relative(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_paths_relative(v) for v in data]
    if isinstance(data, str):
        return re.sub(re.escape(str(ROOT)) + r"/", "", data)
    return data


@pytest.mark.parametrize(
    "name, rules, options",
    [c if c[0] in FAST else pytest.param(*c, marks=pytest.mark.slow) for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_the_tables_are_the_recorded_ones(name, rules, options, monkeypatch):
    monkeypatch.chdir(ROOT)
    try:
        actual = analyze(rules, **options).to_json()
    except ld.LandlordError as err:  # the 1904 patent (unbounded) and the speed die (a die of its own)
        actual = {"error": err.render()}
    actual = _paths_relative(actual)
    path = GOLDEN / f"{name}.json"
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(actual, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    assert path.exists(), f"missing golden file {path.name}; run with LANDLORD_UPDATE_GOLDEN=1"
    expected = json.loads(path.read_text(encoding="utf-8"))
    differences = _differences(expected, actual, name)
    assert not differences, "\n".join(differences[:20])


def test_no_frame_or_bytecode_reading_in_the_package():
    """Issue 29: nothing in the package reads the interpreter's frames or bytecode (the analysis is exact on
    any Python): no sys._getframe, frame attributes or `dis`."""
    pattern = re.compile(r"_getframe|\b(f_lasti|f_locals|f_back|gi_frame)\b|^\s*(import dis|from dis )\b", re.M)
    found = [
        f"{path.relative_to(ROOT)}:{text[: m.start()].count(chr(10)) + 1}"
        for path in sorted((ROOT / "landlord_dsl").rglob("*.py"))
        for text in [path.read_text(encoding="utf-8")]
        for m in pattern.finditer(text)
    ]
    assert not found, found
