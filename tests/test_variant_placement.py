"""Rule placement (`rule x before y`, `rule x after y`) and `replace handler` (issue 18, item 5).

The handlers of one event run in the order of the rules; a placed rule is
moved next to the rule it names. A variant replaces one handler of a base
rule with `replace handler on EVENT [SELECTOR] in rule NAME { ... }`.
"""

from __future__ import annotations

from pathlib import Path

import hypothesis.strategies as st
import pytest
from hypothesis import given, settings

import landlord_dsl as ld
from landlord_dsl import ScriptedAgent, ScriptedChance
from landlord_dsl.checking.loader import format_with_base
from landlord_dsl.checking.placement import order_rules
from landlord_dsl.engine.events import decode
from landlord_dsl.language import ast
from landlord_dsl.language.parser import parse
from scenario_helpers import TRADE_PROMPT_1933, make_game, payments, turn, where

DATA = Path(__file__).parent / "data"

MINI = """edition "mini" { players 2 to 2 }
account treasury "Treasury" unlimited
kind start "Start" { }
board {
    space go "Go" : start
    space b "B" : start
}
rule one { on turn { pay 1 from treasury to player } }
rule two { on turn { pay 2 from treasury to player } }
end when turn_number > 3
"""


def _paid_in_order(rules: ld.RuleSet) -> list[int]:
    """Return the amounts paid in the first turn of a game of `rules`, in the order they were paid."""
    game = ld.new_game(
        ld.compile_rules(rules), agents=[ScriptedAgent([]), ScriptedAgent([])], chance=ScriptedChance([])
    )
    game.started = True
    turn(game, 0)
    return [amount for amount, *_ in payments(game)]


def test_placed_rules_run_next_to_the_rule_they_name():
    text = MINI + (
        "rule three before one { on turn { pay 3 from treasury to player } }\n"
        "rule four after one { on turn { pay 4 from treasury to player } }\n"
        "rule five after four { on turn { pay 5 from treasury to player } }\n"
        "rule six after one { on turn { pay 6 from treasury to player } }\n"
    )
    rules = ld.load_text(text, "mini.lg")
    # four and six follow one in declaration order; five follows four, and travels with it
    assert [r.name for r in rules.model.rules] == ["three", "one", "four", "five", "six", "two"]
    assert _paid_in_order(rules) == [3, 1, 4, 5, 6, 2]


def test_a_variant_places_a_new_rule_between_base_rules(tmp_path: Path):
    (tmp_path / "mini.lg").write_text(MINI, encoding="utf-8")
    variant = tmp_path / "mini-early.lg"
    variant.write_text(
        'edition "mini-early" { extends "mini.lg" }\n'
        "rule early before two { on turn { pay 7 from treasury to player } }\n",
        encoding="utf-8",
    )
    assert _paid_in_order(ld.load_edition(str(variant))) == [1, 7, 2]
    # without the placement it would run after every base rule
    variant.write_text(variant.read_text().replace(" before two", ""), encoding="utf-8")
    assert _paid_in_order(ld.load_edition(str(variant))) == [1, 2, 7]


def test_jail_insurance_placed_after_turn_start_plays_as_the_restated_rule_did():
    """anspach-1933, JAIL INSURANCE: the shipped variant now places its own rule `after turn_start`.

    It used to restate the edition's whole turn_start rule with the insurance
    added. Both forms must play the same games: the same events in the same
    order, each made by the same rule, where the new rule jail_insurance
    stands for the part of turn_start it was cut from.
    """
    placed = ld.compile_rules(ld.load_edition("monopoly-1933-jail-insurance"))
    restated = ld.compile_rules(ld.load_edition(str(DATA / "monopoly-1933-jail-insurance-restated.lg")))
    assert placed.rule_names[2:4] == ["turn_start", "jail_insurance"]

    def events(program, players: int, seed: int) -> list[tuple]:
        game = ld.new_game(program, players=players, seed=seed)
        game.play()
        named = []
        for entry in game.log:
            event = decode(entry)
            fields = event._asdict()
            for key in ("rule", "switched"):
                if key in fields:
                    name = program.rule_names[fields[key]]
                    fields[key] = "turn_start" if name == "jail_insurance" else name
            named.append(tuple(fields.values()))
        return named

    for players, seed in [(2, 1), (3, 2), (4, 3)]:
        assert events(placed, players, seed) == events(restated, players, seed)


@st.composite
def _placed_rules(draw) -> list[ast.RuleDecl]:
    """Rules r0..rN, some placed before or after an earlier-declared or later-declared rule, never in a circle."""
    count = draw(st.integers(1, 8))
    rank = draw(st.permutations(range(count)))  # a placement only names a rule of lower rank: no circles
    rules = []
    for i in range(count):
        lower = [j for j in range(count) if rank[j] < rank[i]]
        placement = anchor = None
        if lower and draw(st.booleans()):
            placement = draw(st.sampled_from(["before", "after"]))
            anchor = f"r{draw(st.sampled_from(lower))}"
        rules.append(ast.RuleDecl(f"r{i}", None, False, (), None, (), placement=placement, anchor=anchor))
    return rules


@settings(max_examples=200, deadline=None)
@given(_placed_rules())
def test_the_order_of_placed_rules_keeps_every_placement(rules: list[ast.RuleDecl]):
    ordered, problems = order_rules(rules)
    assert problems == []
    assert sorted(r.name for r in ordered) == sorted(r.name for r in rules)
    at = {r.name: i for i, r in enumerate(ordered)}
    for r in rules:
        if r.placement == "before":
            assert at[r.name] < at[r.anchor]
        elif r.placement == "after":
            assert at[r.name] > at[r.anchor]
    unplaced = [r.name for r in rules if r.placement is None]
    assert sorted(unplaced, key=at.__getitem__) == unplaced  # the rules not placed keep their order
    assert order_rules(rules) == (ordered, problems)  # and the order is the same every time


@pytest.mark.parametrize(
    "rules, message",
    [
        ("rule three before nine { on turn { } }", "rule 'three' is placed before an unknown rule 'nine'"),
        ("rule three after three { on turn { } }", "rule 'three' cannot be placed after itself"),
        (
            "rule three after four { on turn { } }\nrule four before three { on turn { } }",
            "the placements of rules go round in a circle: 'three' after 'four', 'four' before 'three'",
        ),
    ],
)
def test_wrong_placements_are_errors_at_the_named_rule(rules: str, message: str):
    diagnostics = ld.check(MINI + rules + "\n", "mini.lg")
    assert [d.message for d in diagnostics] == [message]
    d = diagnostics[0]
    assert d.line_text is not None and d.span is not None
    assert d.line_text[d.span.column - 1 : d.span.end_column - 1] in ("nine", "three", "four")


# ------------------------------------------------------------------ replace handler

FLAT_TAX = """edition "monopoly-1933-flat-tax" {
    extends "monopoly-1933-atlantic-city"
    source "house-rule: not in the 1933 rules" reconstruction
}

replace handler on land income_tax_square in rule income_tax_rule {
    pay bank_charge(player, 200) from player to bank as tax
} source "house-rule: not in the 1933 rules" reconstruction
"""


def test_replace_handler_changes_one_handler_of_a_base_rule(tmp_path: Path):
    """anspach-1933, Income Tax: 10% of wealth; the variant's new handler charges a flat $200 instead."""
    path = tmp_path / "monopoly-1933-flat-tax.lg"
    path.write_text(FLAT_TAX, encoding="utf-8")
    g = make_game(edition=str(path), cash=1000, at=["go", "go"], throws=[(1, 3)], passes=(TRADE_PROMPT_1933,))
    turn(g, 0)
    assert where(g, 0) == "income_tax"
    assert payments(g) == [(200, "p0", "bank", "income_tax_rule")]
    rules = ld.load_edition(str(path))
    base = ld.load_edition("monopoly-1933-atlantic-city")
    (rule,) = [r for r in rules.model.rules if r.name == "income_tax_rule"]
    (old,) = [r for r in base.model.rules if r.name == "income_tax_rule"]
    assert (rule.label, rule.provenance) == (old.label, old.provenance)  # the rule is the base's
    assert rule.handlers[0].provenance is not None and rule.handlers[0].span.file == str(path)
    assert [r.name for r in rules.model.rules] == [r.name for r in base.model.rules]


def test_replace_handler_outside_a_variant_is_an_error():
    text = MINI + "replace handler on turn in rule one { pay 9 from treasury to player }\n"
    (d,) = ld.check(text, "mini.lg")
    assert d.message == "`replace handler` only makes sense in a variant"


@pytest.mark.parametrize(
    "replace, message, hint",
    [
        (
            "replace handler on land go in rule income_tax_rule { }",
            "rule 'income_tax_rule' has no handler `on land go`",
            "its handlers: `on land income_tax_square`",
        ),
        (
            "replace handler on land income_tax_square in rule income_tax { }",
            "the base has no rule 'income_tax' to replace a handler of",
            "did you mean 'income_tax_rule'?",
        ),
    ],
)
def test_replace_handler_must_name_a_handler_the_base_rule_has(replace: str, message: str, hint: str):
    text = 'edition "v" { extends "monopoly-1933-atlantic-city" }\n' + replace + "\n"
    (d,) = ld.check(text, "v.lg")
    assert (d.message, d.hint, d.span.file, d.span.line) == (message, hint, "v.lg", 2)


def test_a_restated_rule_and_a_replaced_handler_of_it_conflict(tmp_path: Path):
    (tmp_path / "flat.lg").write_text(FLAT_TAX, encoding="utf-8")
    with pytest.raises(ld.LandlordError) as info:
        ld.load_edition(f"{tmp_path / 'flat.lg'}+{DATA / 'monopoly-1933-free-parking-jackpot-long.lg'}")
    messages = [d.message for d in info.value.diagnostics]
    assert (
        "conflict: rule 'income_tax_rule' is restated by one variant and has a handler replaced by another" in messages
    )


def test_new_constructs_format_canonically_and_keep_their_meaning():
    text = (
        'edition "v" { extends "monopoly-1933-atlantic-city" }\n\n'
        'extension "Replace to change the fee." function fee(p: player) = 5\n\n'
        'rule late "Late" after salary_rule source "house-rule" reconstruction { on turn { } }\n\n'
        'replace handler on land income_tax_square in rule income_tax_rule { } source "house-rule"\n'
    )
    formatted = format_with_base(text, "v.lg")
    assert formatted == (
        'edition "v" {\n    extends "monopoly-1933-atlantic-city"\n}\n\n'
        'extension "Replace to change the fee."\n'
        "function fee(p: player) = 5\n\n"
        'rule late "Late" after salary_rule {\n    on turn { }\n} source "house-rule" reconstruction\n\n'
        'replace handler on land income_tax_square in rule income_tax_rule { } source "house-rule"\n'
    )
    assert parse(formatted, "v.lg") == parse(text, "v.lg")
    assert format_with_base(formatted, "v.lg") == formatted


def test_two_variants_replacing_one_handler_differently_conflict(tmp_path: Path):
    (tmp_path / "flat.lg").write_text(FLAT_TAX, encoding="utf-8")
    (tmp_path / "flatter.lg").write_text(FLAT_TAX.replace("200", "100"), encoding="utf-8")
    with pytest.raises(ld.LandlordError) as info:
        ld.load_edition(f"{tmp_path / 'flat.lg'}+{tmp_path / 'flatter.lg'}")
    assert [d.message for d in info.value.diagnostics if d.severity == "error"] == [
        "conflict: handler 'on land income_tax_square in rule income_tax_rule' is changed differently by two variants"
    ]
    # the same replacement twice is no conflict
    (tmp_path / "same.lg").write_text(FLAT_TAX, encoding="utf-8")
    ld.load_edition(f"{tmp_path / 'flat.lg'}+{tmp_path / 'same.lg'}")


def test_the_citation_of_a_replaced_handler_is_checked():
    text = FLAT_TAX.replace('} source "house-rule: not in the 1933 rules" reconstruction', '} source "hous-rule"')
    (d,) = ld.check(text, "v.lg")
    assert (d.message, d.span.file) == ("unknown source key 'hous-rule'", "v.lg")


def test_removing_the_rule_another_is_placed_next_to_is_reported_at_the_remove():
    text = 'edition "v" { extends "monopoly-1933-jail-insurance" }\nremove rule turn_start\n'
    error, note = ld.check(text, "v.lg")
    assert (error.message, error.span.file, error.span.line) == (
        "cannot remove rule 'turn_start': the base still uses it (1 place)",
        "v.lg",
        2,
    )
    assert note.severity == "note" and "after turn_start" in note.line_text
