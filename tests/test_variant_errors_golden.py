"""Golden tests for the diagnostics (errors and warnings) of mistakes only a variant can make.

Every `tests/golden/variants/NN-name.lg` is a small variant of a shipped
edition with one kind of mistake; its `NN-name.expected` holds what
`landlord-dsl check` prints for it (notes about the shipped edition name it
by its file name alone, wherever the package lives). Regenerate after a deliberate change to a message with

    LANDLORD_UPDATE_GOLDEN=1 python -m pytest tests/test_variant_errors_golden.py

and review the diff.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import landlord_dsl as ld
from golden_files import assert_matches_golden
from landlord_dsl.core.resources import editions_dir

GOLDEN_DIR = Path(__file__).parent / "golden" / "variants"
CASES = sorted(GOLDEN_DIR.glob("*.lg"))


def _render(path: Path) -> str:
    """Return what `landlord-dsl check` prints of the file: its errors, or the warnings of valid rules."""
    try:
        diagnostics = list(ld.load_text(path.read_text(encoding="utf-8"), path.name).warnings)
    except ld.LandlordError as err:
        diagnostics = list(err.diagnostics)
    return "\n\n".join(d.render() for d in diagnostics) + "\n"


def test_golden_directory_is_populated():
    assert len(CASES) >= 4
    orphans = sorted(p.name for p in GOLDEN_DIR.glob("*.expected") if not p.with_suffix(".lg").exists())
    assert not orphans, f"expected files without a .lg file: {orphans}"


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_golden(path: Path):
    actual = _render(path)
    assert "error:" in actual or "warning:" in actual, f"{path.name} is meant to hold a mistake"
    assert_matches_golden(actual, path.with_suffix(".expected"))


def test_removing_what_the_base_uses_is_reported_at_the_remove_line():
    """Issue 18, item 9: was "unknown name 'salary'" at a line of the installed edition."""
    path = GOLDEN_DIR / "01-remove-what-the-base-uses.lg"
    diagnostics = ld.check(path.read_text(encoding="utf-8"), path.name)
    errors = [d for d in diagnostics if d.severity == "error"]
    assert [(d.span.file, d.line_text) for d in errors] == [
        (path.name, "remove const salary"),
        (path.name, "remove action give_back"),
    ]
    assert not any(d.message.startswith("unknown") for d in diagnostics)
    notes = [d for d in diagnostics if d.severity == "note"]
    assert notes and all(Path(d.span.file).name == "monopoly-1933-atlantic-city.lg" for d in notes)
    assert "pay salary from bank to player" in notes[0].line_text


@pytest.mark.parametrize(
    ("name", "line", "places"),
    [("06-an-extension-point-of-another-type.lg", 8, 10), ("07-a-constant-of-another-type.lg", 7, 3)],
)
def test_what_a_variant_breaks_in_the_base_is_reported_at_the_variant(name: str, line: int, places: int):
    """Issue 27, item 1: was 10 (and 3) errors at lines of the shipped edition, none at the variant's line."""
    path = GOLDEN_DIR / name
    diagnostics = ld.check(path.read_text(encoding="utf-8"), path.name)
    errors = [d for d in diagnostics if d.severity == "error"]
    assert [(d.span.file, d.span.line) for d in errors] == [(name, line)]
    notes = [d for d in diagnostics if d.severity == "note"]
    assert len(notes) == places
    assert all(Path(d.span.file).parent == editions_dir() for d in notes)


def test_shipped_files_are_named_by_their_file_name():
    """Issue 27, item 1: a diagnostic named a shipped edition by its path in site-packages."""
    path = GOLDEN_DIR / "06-an-extension-point-of-another-type.lg"
    rendered = _render(path)
    assert re.search(r"\nmonopoly-1933-atlantic-city\.lg:\d+:13: note:", rendered)
    assert str(editions_dir()) not in rendered


def test_a_break_that_names_no_change_is_reported_at_the_variants_header(tmp_path: Path):
    """An error of the base at a line that names nothing the variant changes is still the variant's: at its header.

    The board line `space elm ... : lot { price = 60 }` names the restated kind; `pay here.price` names nothing
    of the variant (which also adds a constant, so the kind is not the only suspect).
    """
    base = (
        'edition "base" {\n    players 2 to 2\n    source "house-rule" original\n}\n'
        'account bank "The bank" unlimited\nkind start "Start" { }\nkind lot "Lot" titled { price: int }\n'
        'board {\n    space go "Go" : start\n    space elm "Elm" : lot { price = 60 }\n}\n'
        'deck deeds "Deeds" returned of titles { }\n'
        'rule moving "Move" {\n    on turn {\n        roll dice\n        move forward dice.total\n    }\n}\n'
        'rule fee "Fee" {\n    on land lot {\n        pay here.price from player to bank\n    }\n}\n'
    )
    (tmp_path / "base.lg").write_text(base, encoding="utf-8")
    variant = tmp_path / "variant.lg"
    variant.write_text(
        'edition "variant" {\n    extends "base.lg"\n    source "house-rule" original\n}\n'
        'kind lot "Lot" titled { }\nconst bonus = 5\n',
        encoding="utf-8",
    )
    assert ld.check(base, str(tmp_path / "base.lg")) == []
    diagnostics = ld.check(variant.read_text(encoding="utf-8"), str(variant))
    assert [(d.severity, Path(d.span.file).name, d.span.line, d.message) for d in diagnostics] == [
        (
            "error",
            "variant.lg",
            5,
            "kind 'lot' as this variant declares it breaks the base: "
            "kind 'lot' has no field 'price' (1 line of the base)",
        ),
        ("note", "base.lg", 10, "the base fails here: kind 'lot' has no field 'price'"),
        (
            "error",
            "variant.lg",
            1,
            "the base no longer checks with this variant: a space has no field 'price' (1 line of the base)",
        ),
        ("note", "base.lg", 21, "the base fails here: a space has no field 'price'"),
    ]
    # with the kind the only change, the line that names nothing of the variant is the kind's doing too
    variant.write_text(variant.read_text(encoding="utf-8").replace("const bonus = 5\n", ""), encoding="utf-8")
    diagnostics = ld.check(variant.read_text(encoding="utf-8"), str(variant))
    assert [(d.severity, Path(d.span.file).name, d.span.line) for d in diagnostics] == [
        ("error", "variant.lg", 5),
        ("note", "base.lg", 10),
        ("note", "base.lg", 21),
    ]
    assert diagnostics[0].message == "kind 'lot' as this variant declares it breaks the base (2 lines of the base)"


def test_a_field_the_landing_spaces_lack_is_an_error_only_while_here_is_known(tmp_path: Path):
    """1906, kind park (Poor House and Central Park) has no `rent`: `here.rent` is an error right on landing
    there (golden 15), but not once the player may have moved on, nor where some landing space has the field."""
    head = (
        'edition "landlords-game-1906-park" {\n    extends "landlords-game-1906"\n'
        '    source "house-rule" reconstruction\n}\n\n'
    )

    def errors(body: str, selector: str = "park") -> list[str]:
        text = head + f'rule park_fee "x" {{\n    on land {selector} {{\n{body}\n    }}\n}}\n'
        return [d.message for d in ld.check(text, "park.lg") if d.severity == "error"]

    assert errors("        if here.rent > 0 { pay 1 from player to treasury }") == [
        "the spaces `on land park` runs on have no field 'rent'"
    ]
    assert errors("        move forward 1\n        pay here.rent from player to treasury") == []
    assert errors("        pay 1 from player to treasury\n        pay here.rent from player to treasury") == []
    assert errors("        pay here.rent from player to treasury", "corners") == [  # no corner is a lot either
        "the spaces `on land corners` runs on have no field 'rent'"
    ]
    assert errors("        pay here.rent from player to treasury", "section_2") == []  # lots
    assert errors("        pay here.rent from player to treasury", "lot") == []


def test_extends_a_name_whose_file_is_next_to_the_variant_hints_at_the_file(tmp_path: Path):
    """A name without .lg means a shipped edition only; the hint names the .lg file beside the variant."""
    (tmp_path / "monopoly-1933-our-table.lg").write_text(
        'edition "monopoly-1933-our-table" {\n    extends "monopoly-1933-atlantic-city"\n}\n', encoding="utf-8"
    )
    variant = tmp_path / "v.lg"
    variant.write_text('edition "v" {\n    extends "monopoly-1933-our-table"\n}\n', encoding="utf-8")
    with pytest.raises(ld.LandlordError) as caught:
        ld.load_edition(variant)
    (error,) = caught.value.diagnostics
    assert error.message == "cannot find the edition 'monopoly-1933-our-table' this file extends"
    assert error.hint is not None
    assert error.hint.startswith('did you mean "monopoly-1933-our-table.lg" (the file next to this one)?')


def test_extends_a_name_hints_at_no_file_outside_the_variants_folder(tmp_path: Path):
    """A symlink beside the variant that leads out of its folder is not offered as the file meant."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "elsewhere.lg").write_text('edition "elsewhere" {\n    extends "landlords-game-1906"\n}\n')
    folder = tmp_path / "variant"
    folder.mkdir()
    (folder / "elsewhere.lg").symlink_to(outside / "elsewhere.lg")
    variant = folder / "v.lg"
    variant.write_text('edition "v" {\n    extends "elsewhere"\n}\n', encoding="utf-8")
    with pytest.raises(ld.LandlordError) as caught:
        ld.load_edition(variant)
    (error,) = caught.value.diagnostics
    assert "next to this one" not in (error.hint or "")
