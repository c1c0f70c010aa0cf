"""Choice types (`choice NAME { "a", "b" }`), citations after the closing brace, commas between kind fields.

The rules: a written text given where a choice's value is wanted must be one
of its values; choices compare only with themselves and written values; an
option may be typed by a choice. Every declaration takes its citation last;
the old places (before a rule's, deck's, card's or action's `{`) and kind
fields without commas are still read, with a located warning from `check`,
and `fmt` rewrites them.
"""

from __future__ import annotations

import re
from functools import cache

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import landlord_dsl as ld
from landlord_dsl.agents import RandomAgent
from landlord_dsl.checking.options import resolve_options
from landlord_dsl.core.errors import SaveError, UsageError
from landlord_dsl.core.resources import shipped_files
from landlord_dsl.core.types import choice_name

HEAD = """edition "x" { players 2 to 4 }
choice standing "What governs a turn" { "free", "jail", "leaving" }
account pot
kind start "Start" { }
board {
    space go "Go" : start
}
var turn_state: standing = "free"
"""


def problems(body: str) -> list[str]:
    return [d.message for d in ld.check(HEAD + body) if d.severity == "error"]


def test_a_written_value_of_the_choice_is_accepted_wherever_one_is_wanted():
    body = """
action release(to: standing) { set turn_state = to }
function jailed(s: standing) = s == "jail"
rule r {
    on turn {
        set turn_state = if turn_state == "jail" then "leaving" else "free"
        if turn_state in ["free", "leaving"] and not jailed("free") { do release("jail") }
    }
}
"""
    assert problems(body) == []


@pytest.mark.parametrize(
    "statement",
    [
        'set turn_state = "jial"',
        'if turn_state == "jial" { end turn }',
        'if "jial" != turn_state { end turn }',
        'set turn_state = if turn_state == "free" then "jail" else "jial"',
        'if turn_state in ["free", "jial"] { end turn }',
    ],
)
def test_a_written_text_outside_the_choice_is_a_check_error(statement: str):
    found = problems(f"rule r {{\n    on turn {{\n        {statement}\n    }}\n}}\n")
    assert found == ["\"jial\" is not one of the values of 'standing'"]


def test_a_choice_compares_neither_with_plain_text_nor_with_another_choice():
    body = """
choice weather { "dry", "wet" }
var sky: weather = "dry"
var label = "free"
rule r {
    on turn {
        if turn_state == label or turn_state == sky { end turn }
        set turn_state = label
    }
}
"""
    assert problems(body) == [
        "cannot compare a 'standing' value with text",
        "cannot compare a 'standing' value with a 'weather' value",
        "cannot set a variable holding a 'standing' value to text",
    ]


def test_an_unknown_type_and_a_value_listed_twice_are_errors():
    body = """
choice weather { "dry", "wet", "dry" }
player var mood: standng = "free"
"""
    assert problems(body) == ["choice 'weather' lists 'dry' twice", "unknown type 'standng'"]


def test_an_option_typed_by_a_choice_takes_only_its_values():
    rules = ld.load_text(HEAD + 'option start_as: standing "How everyone starts" = "free"\n')
    assert resolve_options(rules, {"start_as": "jail"})["start_as"] == "jail"
    with pytest.raises(UsageError, match="must be one of free, jail, leaving, not 'jial'"):
        resolve_options(rules, {"start_as": "jial"})
    assert problems('option start_as: standing = "jial"\n') == [
        "option 'start_as' defaults to 'jial', which is not one of its choices"
    ]


def test_an_option_listing_its_choices_is_checked_like_a_choice():
    body = """
option pace = "slow" choices "slow" | "fast"
rule r {
    on turn {
        if pace == "fats" { end turn }
    }
}
"""
    assert problems(body) == ["\"fats\" is not one of the values of 'pace'"]


def test_a_choice_value_is_its_text_at_run_time():
    rules = ld.load_text(
        HEAD
        + """
rule r {
    on turn {
        set turn_state = "leaving"
        end game
    }
}
"""
    )
    game = ld.new_game(ld.compile_rules(rules), players=2, seed=1)
    game.play()
    assert game.game_var("turn_state") == "leaving"


def test_a_saved_game_whose_choice_variable_holds_another_text_is_refused():
    program = ld.compile_rules(ld.load_edition("monopoly-1933-atlantic-city"))
    game = ld.new_game(program, players=2, seed=3)
    game.play_turn()
    state = game.save()
    index = program.game_var_names.index("turn_state")
    bad = attrs.evolve(state, game_vars=[*state.game_vars[:index], "jial", *state.game_vars[index + 1 :]])
    fresh = ld.new_game(program, players=2, seed=3)
    with pytest.raises(SaveError, match=r"game_vars\[\d+\]: not a value of type choice\[standing\]"):
        fresh.restore(bad)


# A random program: a choice of values, and rules setting a variable of it to written texts in each way
# a text can be given (directly, through an `if`, as an action's argument); some texts may be outside it.
VALUES = ("north", "south", "east", "west")
TEXTS = st.sampled_from((*VALUES, "nort", "up", "sout"))


@settings(max_examples=40, deadline=None)
@given(texts=st.lists(TEXTS, min_size=3, max_size=3), seed=st.integers(0, 1000))
def test_every_value_a_choice_variable_takes_is_one_of_the_choice(texts: list[str], seed: int):
    a, b, c = texts
    source = f"""edition "x" {{ players 2 to 2 turn limit 30 }}
choice heading {{ {", ".join(f'"{v}"' for v in VALUES)} }}
kind start "Start" {{ }}
board {{
    space go "Go" : start
}}
var way: heading = "north"
action turn_to(h: heading) {{ set way = h }}
rule r {{
    on turn {{
        roll dice
        set way = if dice.total > 7 then "{a}" else "{b}"
        if dice.double {{ do turn_to("{c}") }}
    }}
}}
"""
    outside = sorted({t for t in texts if t not in VALUES})
    found = [d.message for d in ld.check(source)]
    if outside:
        assert found and all(m.endswith("is not one of the values of 'heading'") for m in found)
        assert {m.split('"')[1] for m in found} == set(outside)
        return
    assert found == []
    game = ld.new_game(ld.compile_rules(ld.load_text(source)), players=2, seed=seed)
    seen = set()
    game.play(on_turn=lambda g: seen.add(g.game_var("way")))
    assert seen <= set(VALUES)


@cache
def _program(name: str) -> ld.Program:
    return ld.compile_rules(ld.load_edition(name))


WITH_CHOICES = [name for name in sorted(shipped_files()) if any(map(choice_name, sum(_program(name).var_types, ())))]


def test_the_shipped_turn_states_are_choices():
    assert {"landlords-game-1904", "landlords-game-1906", "monopoly-1933-atlantic-city"} <= set(WITH_CHOICES)


@settings(max_examples=15, deadline=None)
@given(name=st.sampled_from(WITH_CHOICES), seed=st.integers(0, 10**6), players=st.integers(2, 4))
def test_in_shipped_games_every_choice_variable_holds_one_of_its_values(name: str, seed: int, players: int):
    program = _program(name)
    game_types, player_types, _ = program.var_types
    low, high = program.players
    game = ld.new_game(
        program,
        players=min(max(players, low), high),
        seed=seed,
        agents=[RandomAgent(seed + i) for i in range(min(max(players, low), high))],
    )

    def holds(g) -> None:
        for var, type_ in zip(program.game_var_names, game_types):
            if (choice := choice_name(type_)) is not None:
                assert g.game_var(var) in program.choices[choice], var
        for var, type_ in zip(program.player_var_names, player_types):
            if (choice := choice_name(type_)) is not None:
                assert all(g.player_var(s, var) in program.choices[choice] for s in range(g.n)), var

    game.play(on_turn=holds)


# ----------------------------------------------------------------- one place for a citation, commas in kinds

OLD = """edition "x" { players 2 to 4 }
account pot
kind lot titled { price: int rent: int }
board {
    space a "A" : lot { price = 10, rent = 1 }
}
deck cards "Cards" returned source "none: a test" {
    card one "One" source "none: a test" { pay 1 from player to pot }
}
action fine() source "none: a test" { pay 1 from player to pot }
rule r "R" source "none: a test" note "why" { on turn { do fine() } }
"""

NEW = """edition "x" { players 2 to 4 }
account pot
kind lot titled { price: int, rent: int, }
board {
    space a "A" : lot { price = 10, rent = 1 }
}
deck cards "Cards" returned {
    card one "One" { pay 1 from player to pot } source "none: a test"
} source "none: a test"
action fine() { pay 1 from player to pot } source "none: a test"
rule r "R" { on turn { do fine() } } source "none: a test" note "why"
"""


def test_the_old_places_read_as_the_new_ones():
    assert ld.parse(OLD) == ld.parse(NEW)


def test_check_warns_of_each_old_form_where_it_is_written():
    warnings = ld.check(OLD, "old.lg")
    assert {d.severity for d in warnings} == {"warning"}
    assert [(d.span.line, d.span.column) for d in warnings] == [(3, 30), (7, 29), (8, 20), (10, 15), (11, 12)]
    assert warnings[0].message == "kind fields are separated by commas, like a space's field values"
    assert all(d.hint == "`landlord-dsl fmt old.lg` rewrites it" for d in warnings)
    assert ld.check(NEW) == []
    assert ld.check(ld.format_source(OLD)) == []


def test_check_command_prints_the_warnings_and_still_passes(tmp_path, capsys):
    from landlord_dsl.cli.main import main

    path = tmp_path / "old.lg"
    path.write_text(OLD)
    assert main(["check", str(path)]) == 0
    captured = capsys.readouterr()
    assert f"{path}: ok" in captured.out
    assert captured.err.count("warning:") == 5
    assert f"hint: `landlord-dsl fmt {path}` rewrites it" in captured.err


def test_a_citation_in_both_places_is_a_syntax_error():
    with pytest.raises(ld.LandlordError):
        ld.parse(NEW.replace('rule r "R" {', 'rule r "R" source "none: twice" {'))


CITED_THEN_BRACE = re.compile(r'\b(source|note) "(?:[^"\\]|\\.)*"( [a-z]+)? *\{$')


@pytest.mark.parametrize("name", sorted(shipped_files()))
def test_no_shipped_line_ends_in_a_brace_after_a_citation(name: str):
    text = shipped_files()[name].read_text()
    assert not [line for line in text.splitlines() if CITED_THEN_BRACE.search(line)]
    assert ld.parse(text).old_syntax == ()


def test_a_choice_value_stands_where_a_text_is_wanted_but_not_the_other_way():
    body = """
option pace = "slow" choices "slow" | "fast"
table speed { "slow": 1, "fast": 2 }
var shown = "none"
function length(t: text) = 1
rule r {
    on turn {
        set shown = turn_state
        set taxes = speed[pace] + length(turn_state)
        set turn_state = if pace == "slow" then turn_state else shown
    }
}
var taxes = 0
"""
    assert problems(body) == ["cannot set a variable holding a 'standing' value to text"]


def test_a_variant_may_restate_a_choice_and_remove_one_nothing_uses(tmp_path):
    base = tmp_path / "base.lg"
    base.write_text(
        'edition "base" { players 2 to 2 }\naccount bank "Bank" unlimited\n'
        'choice mood { "calm", "cross" }\nchoice spare { "a", "b" }\n'
        'var feeling: mood = "calm"\nkind corner { }\nboard { space go "Go": corner }\n',
        encoding="utf-8",
    )
    header, variant = 'edition "v" { extends "base.lg" }\n', str(tmp_path / "v.lg")
    restated = ld.load_text(header + 'choice mood { "calm", "cross", "glad" }\n', variant)
    assert restated.model.choices["mood"] == ("calm", "cross", "glad")
    removed = ld.load_text(header + "remove choice spare\n", variant)
    assert "spare" not in removed.model.choices
    (error, *notes) = ld.check(header + "remove choice mood\n", variant)
    assert error.message.startswith("cannot remove choice 'mood': the base still uses it")
    assert error.span is not None and error.span.file == variant and error.span.line == 2
    assert notes and all(n.severity == "note" for n in notes)


def test_diff_reports_a_changed_choice():
    base = ld.load_edition("monopoly-1933-atlantic-city")
    text = 'edition "v" { extends "monopoly-1933-atlantic-city" }\nchoice standing { "free", "jail", "away" }\n'
    changes = [c for c in ld.diff(base, ld.load_text(text, "v.lg")) if c.category == "choice"]
    assert [(c.change, c.name) for c in changes] == [("changed", "standing")]
