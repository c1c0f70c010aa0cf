"""Golden game logs: every shipped edition and variant plays byte-identical games.

Refactorings of the parser, checker, compiler and engine must not change a
single game. For each shipped rule file this plays a fixed set of seeded
games with the heuristic bots (2, 3 and 4 players) and compares the SHA-256
of each full event log (`Game.log_lines()`) with tests/golden/games/NAME.json.

A change that is *meant* to change games (a rule fix, a new edition)
regenerates the files with

    LANDLORD_UPDATE_GOLDEN=1 python -m pytest tests/test_golden_games.py

and the diff of the JSON shows exactly which games changed.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

import landlord_dsl as ld
from golden_files import UPDATE
from native_paths import skip_native_variant

GOLDEN_DIR = Path(__file__).parent / "golden" / "games"
SEEDS = range(1, 11)
PLAYER_COUNTS = (2, 3, 4)


def game_hashes(name: str, native: bool | str = False) -> dict[str, str]:
    """Return {"<players>p-seed<seed>": sha256 of the game's log} for every golden game of `name` (played
    natively if `native`: the same games)."""
    rules = ld.load_edition(name)
    program = ld.compile_rules(rules, native=native)
    assert program.native == bool(native)
    hashes = {}
    low, high = program.players
    for players in PLAYER_COUNTS:
        if not low <= players <= high:
            continue
        for seed in SEEDS:
            game = ld.new_game(program, players=players, seed=seed)
            game.play()
            text = "\n".join(game.log_lines()).encode()
            hashes[f"{players}p-seed{seed}"] = hashlib.sha256(text).hexdigest()
    return hashes


@pytest.mark.parametrize("name", ld.shipped_editions())
def test_games_are_byte_identical_to_golden(name, native, request):
    skip_native_variant(request, native, name)
    path = GOLDEN_DIR / f"{name}.json"
    actual = game_hashes(name, native)
    if UPDATE and not native:
        path.write_text(json.dumps(actual, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    assert path.exists(), f"no golden file for {name}: run with LANDLORD_UPDATE_GOLDEN=1"
    expected = json.loads(path.read_text(encoding="utf-8"))
    changed = sorted(k for k in expected.keys() | actual.keys() if expected.get(k) != actual.get(k))
    assert not changed, f"{name}: games changed: {changed}"
