"""`landlord-dsl diff`: semantic changes, formats, exit codes, outcomes."""

from __future__ import annotations

import io
import json

import pytest

import landlord_dsl as ld
from landlord_dsl.cli.main import main
from landlord_dsl.studies.outcomes import outcomes
from sweep_params import variants_slow


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


@pytest.mark.parametrize("name", variants_slow(ld.shipped_editions()))
def test_diff_of_a_file_with_itself_is_empty(name):
    assert ld.diff(name, name) == []
    code, out = run("diff", name, name)
    assert code == 0 and out == f"no differences between {name} and {name}\n"


def test_diff_1904_to_1906_lists_the_real_changes():
    changes = ld.diff("landlords-game-1904", "landlords-game-1906")
    by_key = {(c.category, c.name): c for c in changes}
    # start money: a fixed $500 became a table by player count
    assert by_key[("const", "start_cash")].change == "removed"
    assert by_key[("table", "start_cash")].new.startswith("table start_cash")
    # the necessity tax doubled, with both sides' sources
    tax = by_key[("const", "necessity_tax")]
    assert tax.old == "const necessity_tax = 5" and tax.new == "const necessity_tax = 10"
    assert tax.old_source == "magie-1904, Absolute necessities (primary)"
    assert tax.new_source == "magie-1906, Rule 4 (secondary)"
    # lot 1 of the patent is Wayback in 1906: matched by position, renamed, repriced
    wayback = by_key[("space", "lot_1")]
    assert wayback.change == "renamed" and wayback.new_name == "wayback"
    assert ("price", "10", "25") in wayback.details and ("rent", "1", "0") in wayback.details
    # the patent's first luxury became Speculation
    spec = by_key[("space", "luxury_1")]
    assert spec.new_name == "speculation" and ("kind", "luxury", "brokerage") in spec.details
    # new rules of 1906
    assert by_key[("rule", "speculation_rule")].change == "added"
    assert by_key[("rule", "trust")].change == "added"
    # wages are the same $100 in both: not a change
    assert ("const", "wages") not in by_key


def test_diff_sources_flag_reports_citation_only_changes():
    without = {(c.category, c.name) for c in ld.diff("landlords-game-1904", "landlords-game-1906")}
    from landlord_dsl.presentation.compare import diff

    changes = diff(ld.load_edition("landlords-game-1904"), ld.load_edition("landlords-game-1906"), sources=True)
    wages = [c for c in changes if (c.category, c.name) == ("const", "wages")]
    assert ("const", "wages") not in without
    assert wages
    assert wages[0].details == (("source", "magie-1904, Mother Earth (primary)", "magie-1906, Rule 3 (secondary)"),)


def test_diff_variant_against_its_edition():
    code, out = run("diff", "landlords-game-1904", "landlords-game-1904-without-lot-tickets", "--color", "never")
    assert code == 1
    assert "- const start_cash = 500" in out and "+ const start_cash = 100" in out
    assert "- removed circuits_to_end" in out and "+ added circuits_to_end" in out


def test_diff_json_schema():
    code, out = run("diff", "landlords-game-1904", "landlords-game-1904-without-lot-tickets", "--format", "json")
    data = json.loads(out)
    assert code == 1 and data["equal"] is False
    assert data["a"] == "landlords-game-1904"
    keys = {
        "category",
        "change",
        "name",
        "old",
        "new",
        "old_source",
        "new_source",
        "old_location",
        "new_location",
        "details",
        "new_name",
    }
    for change in data["changes"]:
        assert set(change) == keys


def test_diff_markdown():
    code, out = run("diff", "landlords-game-1904", "landlords-game-1904-without-lot-tickets", "--format", "markdown")
    assert code == 1 and out.startswith("# Differences") and "**changed** `start_cash`" in out


def test_diff_markdown_shows_a_changed_rule_as_a_diff_of_its_changed_lines():
    code, out = run("diff", "monopoly-1933-atlantic-city", "monopoly-1933-paupers", "--format", "markdown")
    assert code == 1 and "<br>" not in out
    block = out.split("**changed** `bankruptcy`", 1)[1].split("```diff\n", 1)[1].split("\n```", 1)[0]
    lines = block.splitlines()
    changed = [line for line in lines if line[:1] in "+-"]
    assert changed and all(line[:1] in "+- @" for line in lines)
    assert any(line.startswith("+") and "written off" in line for line in changed)
    assert len(changed) < len(lines)  # unchanged lines are context, not repeated as changes
    assert "**added** `pauper_cash`" in out and "`const pauper_cash = 100`" in out


def test_diff_of_identical_rule_sets_says_so():
    code, out = run("diff", "landlords-game-1904", "landlords-game-1904")
    assert code == 0 and out == "no differences between landlords-game-1904 and landlords-game-1904\n"
    code, out = run("diff", "landlords-game-1904", "landlords-game-1904", "--format", "markdown")
    assert code == 0 and out.startswith("No differences between")


def test_diff_colour_only_when_asked():
    _, plain = run("diff", "landlords-game-1904", "landlords-game-1904-without-lot-tickets")
    _, coloured = run("diff", "landlords-game-1904", "landlords-game-1904-without-lot-tickets", "--color", "always")
    assert "\033[" not in plain and "\033[" in coloured


def test_diff_unknown_edition_exits_2(capsys):
    assert run("diff", "landlords-game-1904", "nope")[0] == 2


def test_outcomes_use_common_random_numbers():
    """Identical rules under the same seeds give identical outcomes: every paired difference is exactly 0."""
    rules = ld.load_edition("landlords-game-1904")
    data = outcomes(rules, rules, games=8, players=3, seed=11)
    assert data["game_length"]["difference"] == {"mean": 0, "ci95_low": 0, "ci95_high": 0}
    assert data["final_wealth_gini"]["difference"]["mean"] == 0
    assert all(w["a"] == w["b"] and w["difference"]["mean"] == 0 for w in data["wins_by_seat"])
    assert all(r["difference"]["mean"] == 0 and not r["excludes_zero"] for r in data["landing_per_throw"])


def test_outcomes_show_what_a_rule_change_does():
    """Starting with $100 instead of $500 makes final wealth less equal (1904, without lot tickets)."""
    a = ld.load_edition("landlords-game-1904")
    b = ld.load_edition("landlords-game-1904-without-lot-tickets")
    data = outcomes(a, b, games=40, players=4, seed=0)
    assert data["final_wealth_gini"]["difference"]["ci95_low"] > 0
    code, out = run("diff", "landlords-game-1904", "landlords-game-1904-without-lot-tickets", "--outcomes", "5")
    assert code == 1 and "paired games" in out  # 1: the files differ and "landing frequency" in out


FLAT_TAX = """edition "flat-tax" {
    title "Flat tax"
    extends "monopoly-1933-atlantic-city"
}

replace handler on land income_tax_square in rule income_tax_rule {
    pay bank_charge(player, 200) from player to bank
} source "house-rule: a flat Income Tax of 200" reconstruction
"""


def test_a_replaced_handler_is_shown_with_its_own_citation_and_place(tmp_path):
    """A rule changed by `replace handler` keeps the base's citation; diff adds the handler's, and points at it."""
    path = tmp_path / "flat-tax.lg"
    path.write_text(FLAT_TAX)
    changes = ld.diff("monopoly-1933-atlantic-city", str(path))
    (rule,) = [c for c in changes if c.category == "rule"]
    assert (rule.name, rule.change) == ("income_tax_rule", "changed")
    assert rule.old_source == "anspach-1933, Income Tax (secondary)"
    assert rule.new_source == (
        "anspach-1933, Income Tax (secondary); "
        "on land income_tax_square: house-rule: a flat Income Tax of 200 (reconstruction)"
    )
    assert rule.new_location == f"{path}:6"
    code, out = run("diff", "monopoly-1933-atlantic-city", str(path), "--color", "never")
    assert code == 1 and "on land income_tax_square: house-rule: a flat Income Tax of 200 (reconstruction)]" in out


def test_diff_of_a_file_that_does_not_check_exits_1_with_its_errors_and_no_output(tmp_path, capsys):
    """As for every command (docs/cli.md, Exit status), a rule file that does not check ends with 1, the
    status of a difference; what tells the two apart is the empty standard output and the located error."""
    bad = tmp_path / "bad.lg"
    bad.write_text('edition "b" {\n    extends "landlords-game-1906"\n}\nconst wages = nope\n', encoding="utf-8")
    code, out = run("diff", "landlords-game-1906", str(bad))
    assert code == 1 and out == ""
    assert f"{bad}:4:15: error: unknown name 'nope'" in capsys.readouterr().err


WAIVED = """edition "waived" {
    extends "monopoly-1933-atlantic-city"
    source "house-rule: ours" original
}

account pool "Pool"

function rent_waived(p: player, s: space) = s.owner != none and s.owner.in_jail
    source "house-rule: ours" original
"""


def test_a_replaced_function_shows_its_kept_line_as_kept_and_no_empty_citation(tmp_path):
    """Found trying the product: a replaced extension point's unchanged `extension` line was shown removed and
    added again, and an uncited account was followed by an empty citation."""
    path = tmp_path / "waived.lg"
    path.write_text(WAIVED)
    code, out = run("diff", "monopoly-1933-atlantic-city", str(path), "--color", "never")
    assert code == 1
    shown = out.splitlines()
    assert "  + added pool" in shown
    extension = next(line for line in shown if "extension" in line)
    assert extension.startswith("        extension ") and not extension.lstrip().startswith(("-", "+"))
    assert any(line.startswith("      - function rent_waived") for line in shown)
    assert any(line.startswith("      + function rent_waived") for line in shown)
