"""Extension points (issue 18, item 4): `extension "doc"` on a function, action or rule.

An edition marks the declarations its variants are meant to replace; `show`
and the edition pages list them, and `check` warns of a variant that
restates a whole declaration only around a call of one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import landlord_dsl as ld
from landlord_dsl.checking.extensions import extension_point_lines, extension_points
from landlord_dsl.presentation.show import show_text

VARIANTS = sorted((Path(__file__).resolve().parents[1] / "editions" / "variants").glob("*.lg"))

HEADER = 'edition "v" {\n    extends "monopoly-1933-atlantic-city"\n    source "house-rule" reconstruction\n}\n\n'
LAND_RENT = """rule land_rent "Land rent" source "house-rule" reconstruction {
    on land lot {
        let owner = here.owner
        if not was_for_sale and owner != none and owner != player and not here.mortgaged
            and not CONDITION {
            pay lot_rent(here) from player to PAYEE
        }
    }
}
"""


def _warnings(text: str) -> list[str]:
    return [d.message for d in ld.load_text(text, "v.lg").warnings]


def test_the_1933_edition_lists_the_extension_points_its_customs_replace():
    points = {(p.kind, p.name) for p in extension_points(ld.load_edition("monopoly-1933-atlantic-city").model)}
    assert {("function", "rent_waived"), ("function", "bank_charge"), ("action", "offer_for_sale")} <= points
    # each of them is replaced by a shipped variant
    replaced = set()
    for path in VARIANTS:
        module = ld.load_edition(path.stem).modules[-1]
        replaced |= {getattr(d, "name", None) for d in module.declarations}
    assert {name for _, name in points} <= replaced


def test_show_lists_the_extension_points_with_what_replacing_them_does():
    lines = extension_point_lines(ld.load_edition("monopoly-1933-atlantic-city").model)
    assert any(line.startswith("  function rent_waived(p: player, s: space): Replace to waive rent") for line in lines)
    assert extension_point_lines(ld.load_edition("landlords-game-1904").model) == []
    shown = show_text(ld.load_edition("monopoly-1933-atlantic-city"))
    assert "\nExtension points (a variant replaces these by declaring the same name):\n" + "\n".join(lines) in shown
    assert "Extension points" not in show_text(ld.load_edition("landlords-game-1904"))


def test_a_variant_that_replaces_an_extension_point_keeps_it_one():
    model = ld.load_edition("monopoly-1933-free-rides").model
    (point,) = [p for p in extension_points(model) if p.name == "rent_waived"]
    assert point.span.file.endswith("monopoly-1933-free-rides.lg")  # the variant's declaration is in force
    assert point.doc.startswith("Replace to waive rent")


def test_restating_a_rule_only_around_an_extension_point_is_warned_of():
    """The issue's example: no rent while the owner is in Jail, by restating land_rent."""
    text = HEADER + LAND_RENT.replace("CONDITION", "(rent_waived(player, here) or owner.in_jail)").replace(
        "PAYEE", "owner"
    )
    assert _warnings(text) == [
        "rule 'land_rent' restates the base's rule only to change what the extension point 'rent_waived' computes"
    ]
    # the one-line way says the same without a warning
    one_line = HEADER + "function rent_waived(p: player, s: space) = s.owner != none and s.owner.in_jail\n"
    assert _warnings(one_line) == []


@pytest.mark.parametrize(
    "condition, payee",
    [
        ("rent_waived(player, here)", "bank"),  # another change elsewhere: not only around the extension point
        ("(rent_waived(player, here) or owner.in_jail)", "bank"),
        ("rent_waived(player, here)", "owner"),  # no change at all
    ],
)
def test_no_warning_when_the_restated_rule_changes_more_or_nothing(condition: str, payee: str):
    text = HEADER + LAND_RENT.replace("CONDITION", condition).replace("PAYEE", payee)
    assert _warnings(text) == []


def test_passing_other_arguments_to_an_extension_point_is_not_warned_of():
    """The flat Income Tax of docs/writing-a-variant.md keeps calling bank_charge, with another amount."""
    text = HEADER + (
        'rule income_tax_rule "Income Tax: a flat $200" source "house-rule" reconstruction {\n'
        "    on land income_tax_square {\n"
        "        pay bank_charge(player, 200) from player to bank as tax\n"
        "    }\n"
        "}\n"
    )
    assert _warnings(text) == []
    wrapped = text.replace(
        "bank_charge(player, 200)", "max(bank_charge(player, percent(wealth(player), income_tax_pct)), 1)"
    )
    assert _warnings(wrapped) == [
        "rule 'income_tax_rule' restates the base's rule only to change what the extension point 'bank_charge' computes"
    ]


def test_restating_an_extension_point_itself_is_not_warned_of():
    text = HEADER + 'function bank_charge(p: player, amount: int) = amount + 1 source "house-rule" reconstruction\n'
    assert _warnings(text) == []


@pytest.mark.parametrize("path", VARIANTS, ids=[p.stem for p in VARIANTS])
def test_shipped_variants_check_without_warnings(path: Path):
    assert ld.load_edition(path.stem).warnings == ()


def test_check_prints_the_warning_and_still_passes(tmp_path: Path, capsys):
    from landlord_dsl.cli.main import main

    path = tmp_path / "v.lg"
    path.write_text(
        HEADER
        + LAND_RENT.replace("CONDITION", "(rent_waived(player, here) or owner.in_jail)").replace("PAYEE", "owner"),
        encoding="utf-8",
    )
    assert main(["check", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out == f"{path}: ok\n"
    assert f"{path}:6:1: warning: rule 'land_rent' restates" in err
    assert "replace `function rent_waived` instead" in err
