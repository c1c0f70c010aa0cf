"""The coverage gate (issue 26): in 100 bot games of every shipped edition and variant at its defaults, every
rule, handler, branch arm, choice option, card, end condition and statement fires, unless
tests/data/coverage-allow.toml says why not; and every entry there still allows something (none is stale).

A variant is checked on its own file (its base edition's items are checked with the base). The games are
`landlord-dsl coverage NAME`'s (seeds 0-99, four players), so its `--format toml` prints the entries a
failure asks for. The editions run in the quick suite; the variants are slow tests.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

import landlord_dsl as ld
from landlord_dsl.studies.rule_coverage import render_toml, toml_string, unlisted

ROOT = Path(__file__).resolve().parents[1]
ALLOW_FILE = ROOT / "tests" / "data" / "coverage-allow.toml"
ALLOW = tomllib.loads(ALLOW_FILE.read_text(encoding="utf-8"))
GAMES = 100  # the command's default: its report is the one the gate reads
EDITIONS = [path.stem for path in sorted((ROOT / "editions").glob("*.lg"))]
VARIANTS = [path.stem for path in sorted((ROOT / "editions" / "variants").glob("*.lg"))]


@pytest.mark.parametrize("name", EDITIONS + [pytest.param(v, marks=pytest.mark.slow) for v in VARIANTS])
def test_everything_fires_or_the_allow_list_says_why(name):
    report = ld.coverage(name, games=GAMES)
    missing, stale = unlisted(report, ALLOW.get(name, {}))
    problems = []
    if missing:
        problems.append(
            f"never fired in {GAMES} games of {name}, and not on the allow-list {ALLOW_FILE.name}; make it fire "
            f"or add (with a reason):\n"
            + "\n".join(f'{toml_string(item.key)} = "..."  # {item.file}:{item.line}' for item in missing)
        )
    if stale:
        problems.append(f"allow-list entries of {name} that allow nothing now (delete them):\n" + "\n".join(stale))
    assert not problems, "\n\n".join(problems) + f"\n\nthe candidates: landlord-dsl coverage {name} --format toml"


def test_every_allow_list_entry_names_a_shipped_rule_set_and_gives_a_reason():
    assert set(ALLOW) <= set(EDITIONS + VARIANTS)
    for name, entries in ALLOW.items():
        for key, reason in entries.items():
            assert isinstance(reason, str) and reason.strip(), (name, key)
            assert "\n" not in reason and "TODO" not in reason, (name, key)


def test_the_toml_format_gives_entries_the_gate_reads():
    """What `coverage --format toml` prints, with the reasons written in, is an allow-list the gate accepts."""
    report = ld.coverage("landlords-game-1939", games=5)
    entries = tomllib.loads(render_toml(report))["landlords-game-1939"]
    assert entries and unlisted(report, entries) == ([], [])
