"""`landlord-dsl fmt`: golden layouts, idempotence, and meaning preserved."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import landlord_dsl as ld
from landlord_dsl.resources import shipped_files

GOLDEN = Path(__file__).parent / "golden" / "format"
CASES = sorted(GOLDEN.glob("*.lg"))


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_format_golden(case: Path):
    expected_path = case.with_suffix(".expected")
    out = ld.format_source(case.read_text(), case.name)
    if os.environ.get("LANDLORD_UPDATE_GOLDEN"):
        expected_path.write_text(out)
    assert out == expected_path.read_text()


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_format_golden_is_idempotent_and_keeps_meaning(case: Path):
    text = case.read_text()
    once = ld.format_source(text)
    assert ld.format_source(once) == once
    assert ld.parse(once) == ld.parse(text)


@pytest.mark.parametrize("name", sorted(shipped_files()))
def test_shipped_files_are_formatted(name: str):
    """Every shipped edition and variant is in canonical layout (run `landlord-dsl fmt` to fix)."""
    path = shipped_files()[name]
    text = path.read_text()
    assert ld.format_source(text, str(path)) == text


def test_comments_survive_formatting():
    text = (GOLDEN / "messy.lg").read_text()
    comments = [line.split("#", 1)[1].strip() for line in text.splitlines() if "#" in line]
    out = ld.format_source(text)
    for comment in comments:
        assert comment in out


def test_format_of_invalid_text_is_a_landlord_error():
    with pytest.raises(ld.LandlordError):
        ld.format_source('edition "x" { ')
