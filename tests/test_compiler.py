"""The compiler's optimisations change speed, never games.

The compiler writes handlers into dispatchers, folds and inlines functions,
unrolls short aggregates and leaves out field checks it can prove needless.
`compile_ruleset(..., optimize=False)` is a plain translation; every shipped
edition and variant must play byte-identical games both ways. So must
randomly generated rules: int functions that call each other (folding,
inlining, aggregates over fixed lists, an option, game state), and
functions, statements and an offer over a board of lots, stations and
fieldless spaces (field reads guarded or not, groups, a player's titles,
ownership built-ins, variables, deeds given and returned), where a read that
fails must fail the same way and no checked program may fail with a Python
error. The field checks that remain must still catch what they are there for.
"""

from __future__ import annotations

import ast as pyast
import builtins
import os
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import landlord_dsl as ld
from landlord_dsl.agents import HeuristicAgent, RandomAgent
from landlord_dsl.checking.builtins import BUILTINS, with_reference_table
from landlord_dsl.compiling.compiler import compile_ruleset
from landlord_dsl.compiling.generated_names import Prefix, is_owner_getter
from landlord_dsl.core.resources import editions_dir
from landlord_dsl.studies.rule_coverage import coverage
from native_paths import skip_native_variant
from scenario_helpers import engine_function

FILES = sorted(editions_dir().rglob("*.lg"))


def _log(program: ld.Program, seed: int, random_agents: bool) -> list[str]:
    n = max(program.players[0], min(4, program.players[1]))
    agents = [RandomAgent(seed * 31 + i) if random_agents else HeuristicAgent() for i in range(n)]
    game = ld.new_game(program, seed=seed, agents=agents, turn_limit=400)
    try:
        game.play()
    except ld.RuleRuntimeError as err:  # the same failure, at the same moment, both ways
        return game.log_lines() + [err.render()]
    return game.log_lines()


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_optimised_and_plain_compilations_play_the_same_games(path: Path, native, request):
    """The optimised program, in pure Python and natively, plays the plain translation's games."""
    skip_native_variant(request, native, path.stem)
    rules = ld.load_edition(path)
    fast, plain = compile_ruleset(rules, native=native), compile_ruleset(rules, optimize=False)
    assert fast.python_source != plain.python_source
    assert "# rule " in fast.python_source  # the source kept for reading names the rules
    for seed, random_agents in [(0, False), (1, False), (2, True)]:
        assert _log(fast, seed, random_agents) == _log(plain, seed, random_agents), (path.stem, seed)


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    faster=st.booleans(),
    average=st.booleans(),
    chance=st.booleans(),
    single_tax=st.sampled_from(["never", "vote", "from_start", "at_turn", "when_concentrated"]),
)
def test_optimised_and_plain_agree_under_any_1906_options(seed, faster, average, chance, single_tax):
    rules = ld.load_edition("landlords-game-1906")
    options = {"faster_game": faster, "average_hands": average, "chance_deck": chance, "single_tax": single_tax}
    fast, plain = compile_ruleset(rules, options), compile_ruleset(rules, options, optimize=False)
    assert _log(fast, seed, seed % 2 == 1) == _log(plain, seed, seed % 2 == 1)


SMALL = """
edition "x" { players 2 to 2 }
account bank "Bank" unlimited
kind start "Start" { }
kind lot "Lot" titled { price: int color: group }
kind station "Station" titled { price: int }
group reds "Reds"
board {
    space go "Go" : start
    space red_lot "Red lot" : lot { price = 10, color = reds }
    space depot "Depot" : station { price = 20 }
}
"""


def _runtime_error(tmp_path: Path, rules_text: str, optimize: bool) -> str:
    path = tmp_path / "x.lg"
    path.write_text(SMALL + rules_text)
    program = compile_ruleset(ld.load_edition(path), optimize=optimize)
    game = ld.new_game(program, players=2, seed=0)
    for seat in range(2):
        game.set_holder(program.title_card[1 + seat], seat)
    with pytest.raises(ld.RuleRuntimeError) as info:
        game.play()
    return info.value.render()


@pytest.mark.parametrize("optimize", [True, False])
@pytest.mark.parametrize(
    "rules_text",
    [
        # `or` proves nothing about the right-hand side
        "function colourful(s: space) = s in lot or len(s.color) > 0\n"
        'rule r "r" { on turn { if colourful(depot) { end game } } }\n',
        # a player's titles may be stations, which have no colour
        'rule r "r" { on turn { offer "Pick" { option o "O" for s in player.titles when len(s.color) > 0 { } } } }\n',
        # `not (s in lot)` excludes lots, it does not include them
        'rule r "r" { on turn { for s in player.titles { if not (s in lot) and len(s.color) > 0 { end game } } } }\n',
    ],
)
def test_field_checks_the_compiler_keeps_still_fail_clearly(tmp_path, rules_text, optimize):
    text = _runtime_error(tmp_path, rules_text, optimize)
    assert "has no field 'color'" in text and "x.lg:" in text


@pytest.mark.parametrize("optimize", [True, False])
def test_a_folded_call_still_evaluates_an_argument_that_can_fail(tmp_path, optimize):
    """Regression (found by the generated-rules test): `fixed` is 1 whatever its arguments, and the
    optimised code skipped them, hiding the missing field the plain code reports."""
    text = _runtime_error(
        tmp_path,
        'function fixed(s: space, x: int) = 1\nrule r "r" { on turn { if fixed(go, go.price) > 0 { end game } } }\n',
        optimize,
    )
    assert "space 'go' has no field 'price'" in text and "x.lg:" in text


@pytest.mark.parametrize("optimize", [True, False])
@pytest.mark.parametrize("flag", ["true", "false"])
@pytest.mark.parametrize("condition", ["go.price > 0 and flag", "go.price > 0 or flag"])
def test_folding_and_or_keeps_a_left_operand_that_can_fail(tmp_path, optimize, flag, condition):
    """Regression (issue 28): a fixed right operand dropped the left one, so `go.price > 0 and false`
    played on silently and `go.price > 0 or true` held, where `... and true` failed: whether a missing
    field was reported depended on an option's value. Where Python would evaluate it, so must we."""
    text = _runtime_error(
        tmp_path, f'option flag "F" = {flag}\nrule r "r" {{ on turn {{ if {condition} {{ end game }} }} }}\n', optimize
    )
    assert "space 'go' has no field 'price'" in text and "x.lg:" in text


def test_field_reads_proved_safe_are_written_without_a_check(tmp_path):
    path = tmp_path / "x.lg"
    path.write_text(
        SMALL + "function reds_held(p: player) = count(s in p.titles: s in lot and s.color == reds)\n"
        "score reds_held(player)\n"
    )
    source = compile_ruleset(ld.load_edition(path)).python_source
    assert "_field(" not in source.split("def _score")[0].split("def _f_reds_held")[1]


OWNERSHIP = """
edition "owners" { players 2 to 3 turn limit 80 }
account bank "Bank" unlimited
kind start "Start" { }
kind lot "Lot" titled { price: int color: group }
kind station "Station" titled { price: int }
group solo "One lot"
group pair "Two lots"
group trio "Three lots"
board {
    space go "Go" : start
    space a "A" : lot { price = 10, color = solo } in solo
    space b "B" : lot { price = 10, color = pair } in pair
    space depot "Depot" : station { price = 10 }
    space c "C" : lot { price = 10, color = pair } in pair
    space d "D" : lot { price = 10, color = trio } in trio
    space e "E" : lot { price = 10, color = trio } in trio
    space f "F" : lot { price = 10, color = trio } in trio
}
rule cash "Cash" {
    on setup {
        for p in players {
            pay 200 from bank to p
        }
    }
}
rule moving "Move" {
    on turn {
        roll dice
        move forward dice.total
    }
}
rule buying "Buy, or pay by the group's owners" {
    on land lot {
        if here.owner == none {
            choose "Buy {here}?" {
                option buy "Buy" when player.cash >= here.price {
                    pay here.price from player to bank
                    give here.title to player
                }
                option refuse "No" { }
            }
        } else if here.owner != player and owns_all(here.owner, here.color) {
            pay count_owned(here.owner, here.color) + len(owners(here.color)) from player to here.owner
        }
    }
}
score 1000 * count_owned(player, solo) + 100 * count_owned(player, pair)
    + (if owns_all(player, trio) then 50 else 0) + len(owners(trio))
    + count(s in player.titles: s in lot and owns_all(player, s.color))
"""


def test_ownership_built_ins_written_in_place_agree_with_the_calls(tmp_path):
    """Groups of one, two and three spaces, named or read from a field, written in place when optimised."""
    path = tmp_path / "owners.lg"
    path.write_text(OWNERSHIP)
    rules = ld.load_edition(path)
    fast, plain = compile_ruleset(rules), compile_ruleset(rules, optimize=False)
    # named groups and `s.color` of a player's lots are fixed; `here.color` may be a station's: a checked call
    # the counts of a group's owners the game keeps, read (from the game, or the local a function reads them into)
    in_place = re.compile(r"(?:g\.gcount(_at\[\d+\])?|_h_gcount(?:_at)?\d+)\[")
    read = "\n".join(line for line in fast.python_source.splitlines() if not re.match(r" +_h_\w+ = g\.", line))
    assert len(in_place.findall(read)) == 5 and "_b_owns_all(" in fast.python_source
    assert fast.counted_groups == ((1,), (2, 4), (5, 6, 7)) and fast.counted_fields == ((None, 0, 1, None, 1, 2, 2, 2),)
    assert not in_place.search(plain.python_source) and plain.counted_groups == ()
    for seed in range(30):
        assert _log(fast, seed, True) == _log(plain, seed, True), seed
        fast_scores, plain_scores = (
            ld.new_game(p, seed=seed, agents=[RandomAgent(seed), RandomAgent(seed + 1)]).play().scores
            for p in (fast, plain)
        )
        assert fast_scores == plain_scores, seed


FOLDING = """
edition "folding" { players 2 to 2 turn limit 1 }
account bank "Bank" unlimited
kind start "Start" { }
board {
    space go "Go" : start
}
function double(x: int) = x * 2
function unrolled() = sum(n in [1, 2, 3]: double(5))
function nested(a: int, b: int) = if a > 100 then 0 else b
function outer(k: int) = nested(k, 7)
score unrolled() + outer(1)
"""


def test_a_folded_or_inlined_function_sees_only_its_own_arguments(tmp_path):
    """Regression: while folding `double(5)` inside the unrolled `sum`, the compiler took the item
    `n` (the caller's local number 0) for `double`'s own parameter, and scored 12 instead of 30."""
    path = tmp_path / "folding.lg"
    path.write_text(FOLDING)
    rules = ld.load_edition(path)
    for optimize in (True, False):
        game = ld.new_game(compile_ruleset(rules, optimize=optimize), players=2, seed=0)
        assert game.play().scores == (37, 37), optimize


STOPPING = """
edition "stopping" { players 2 to 2 turn limit 30 }
account bank "Bank" unlimited
kind start "Start" { }
board {
    space go "Go" : start
    space a "A" : start
}
var again = true
var made = 0
player var throws = 0
rule throwing "Up to three throws while doubles come" {
    on turn {
        set again = true
        for i in [1, 2, 3] {
            if again and player in players {
                roll dice
                set again = dice.double
                set player.throws += 1
            }
        }
        for i in [1, 2, 3, 4] {
            if i <= 2 {
                set made += 1
            }
        }
        for i in [1, 2] {
            if made > 1000 {
                set made += 1
            } else {
                set made += 2
            }
        }
        move forward dice.total
    }
}
score player.throws * 1000 + made
"""


def test_a_loop_stops_where_its_lone_test_turns_false(tmp_path):
    """A loop whose body is one `if` without `else`, its test reading neither the loop's local nor the work budget,
    stops at the first item whose test is false (nothing has run since, so it is false for every later item); a
    test of the local, or an `if` with an `else`, goes through every item. The games are the plain translation's."""
    path = tmp_path / "stopping.lg"
    path.write_text(STOPPING)
    rules = ld.load_edition(path)
    fast, plain = compile_ruleset(rules), compile_ruleset(rules, optimize=False)
    stops = re.findall(r"\n( *)else:\n\1    break\n", fast.python_source)
    assert len(stops) == 1 and "break" not in plain.python_source
    for seed in range(20):
        assert _log(fast, seed, True) == _log(plain, seed, True), seed
        assert (
            ld.new_game(fast, players=2, seed=seed).play().scores
            == ld.new_game(plain, players=2, seed=seed).play().scores
        )
    # coverage counts the tests the later items would have made: three a turn
    times = {item.key: item.times for item in coverage(str(path), games=2, players=2).items}
    turns = times["rule throwing > on turn"]
    assert times["rule throwing > on turn > for i in [1, 2, 3] > if again and player in players"] == 3 * turns


# ------------------------------------------------------------------ generated programs


@st.composite
def _int_expr(draw, scope: list[str], calls: dict[str, int], fresh: list[int], depth: int) -> str:
    """A well-typed int expression over the names in `scope`, calling the functions in `calls`."""
    leaves = ["literal", "option", "cash"] + (["name", "name", "name"] if scope else [])
    compound = ["arith", "if", "minmax", "sum", "sum", "count"] + (["call", "call", "call"] if calls else [])
    kind = draw(st.sampled_from(leaves if depth == 0 or draw(st.integers(0, 3)) == 0 else compound))

    def sub(names=scope):
        return draw(_int_expr(names, calls, fresh, depth - 1))

    def loop_name() -> str:
        fresh.append(len(fresh))
        return f"n{len(fresh)}"

    def items() -> str:
        return ", ".join(str(i) for i in draw(st.lists(st.integers(0, 9), min_size=1, max_size=4)))

    if kind == "literal":
        return str(draw(st.integers(0, 9)))
    if kind == "name":
        return draw(st.sampled_from(scope))
    if kind == "option":
        return "k"
    if kind == "cash":
        return "player.cash"
    if kind == "arith":
        return f"({sub()} {draw(st.sampled_from('+-*'))} {sub()})"
    if kind == "minmax":
        return f"{draw(st.sampled_from(['min', 'max']))}({sub()}, {sub()})"
    if kind == "call":
        name = draw(st.sampled_from(sorted(calls)))
        return f"{name}({', '.join(sub() for _ in range(calls[name]))})"
    if kind == "if":
        test = draw(st.sampled_from(["compare", "all", "any"]))
        if test == "compare":
            condition = f"{sub()} > {sub()}"
        else:
            var = loop_name()
            condition = f"{test}({var} in [{items()}]: {sub(scope + [var])} > {sub(scope + [var])})"
        return f"(if {condition} then {sub()} else {sub()})"
    var = loop_name()
    if kind == "sum":
        return f"sum({var} in [{items()}]: {sub(scope + [var])})"
    return f"count({var} in [{items()}]: {sub(scope + [var])} > {sub(scope + [var])})"


@st.composite
def _generated_program(draw) -> str:
    fresh: list[int] = []
    one = draw(_int_expr(["x"], {}, fresh, 2))
    two = draw(_int_expr(["a", "b"], {"one": 1}, fresh, 2))
    # no parameters: its first loop name is its local number 0, as `one`'s x is
    alone = draw(_int_expr([], {"one": 1, "two": 2}, fresh, 3))
    top = draw(_int_expr(["p"], {"one": 1, "two": 2, "alone": 0}, fresh, 3))
    return f"""
edition "generated" {{ players 2 to 2 turn limit 4 }}
option k "K" = 3
account bank "Bank" unlimited
kind start "Start" {{ }}
board {{
    space go "Go" : start
}}
rule allowance "Allowance" {{
    on turn {{
        pay 7 from bank to player
    }}
}}
function one(x: int) = {one}
function two(a: int, b: int) = {two}
function alone() = {alone}
function top(p: int) = {top}
score top(turn_number) + two(player.cash, k) + alone()
"""


@settings(max_examples=300 if os.environ.get("LANDLORD_HYPOTHESIS_PROFILE") == "thorough" else 40, deadline=None)
@given(text=_generated_program(), k=st.integers(-3, 5))
def test_generated_functions_score_the_same_optimised_and_plain(tmp_path_factory, text, k):
    """Folding, inlining and unrolling never change a value: random well-typed functions that call
    each other, with aggregates over fixed lists, an option and game state, scored both ways."""
    path = tmp_path_factory.mktemp("generated") / "generated.lg"
    path.write_text(text)
    rules = ld.load_edition(path)
    scores = [
        ld.new_game(compile_ruleset(rules, {"k": k}, optimize=optimize), players=2, seed=0).play().scores
        for optimize in (True, False)
    ]
    assert scores[0] == scores[1], text


BOARD_FOR_GENERATED = """
edition "typed" {{ players 2 to 2 turn limit 16 }}
option k "K" = 3
option flag "Flag" = {flag}
var held = {flag}
account bank "Bank" unlimited
kind start "Start" {{ }}
kind lot "Lot" titled {{ price: int color: group }}
kind station "Station" titled {{ price: int }}
kind park "Park" {{ }}
group reds "Reds"
group blues "Blues"
board {{
    space go "Go" : start
    space r1 "R1" : lot {{ price = 6, color = reds }} in reds
    space st1 "St1" : station {{ price = 8 }}
    space r2 "R2" : lot {{ price = 7, color = reds }} in reds
    space b1 "B1" : lot {{ price = 9, color = blues }} in blues
    space pk "Park" : park
    space b2 "B2" : lot {{ price = 9, color = blues }} in blues
    space b3 "B3" : lot {{ price = 11, color = blues }} in blues
    space st2 "St2" : station {{ price = 8 }}
}}
rule allowance "Allowance" {{
    on turn {{
        pay 4 from bank to player
    }}
}}
rule moving "Move" {{
    on turn {{
        roll dice
        move forward dice.total
    }}
}}
rule buying "Buy" {{
    on land lot {{
        if here.owner == none {{
            choose "Buy {{here}}?" {{
                option buy "Buy" when player.cash >= here.price {{
                    pay here.price from player to bank
                    give here.title to player
                }}
                option refuse "No" {{ }}
            }}
        }}
    }}
    on land station {{
        if here.owner == none and player.cash >= here.price {{
            pay here.price from player to bank
            give here.title to player
        }}
    }}
}}
player var points = 0
space var marks = 0
deck deeds "Deeds" returned of titles {{ }}
deck tricks "Tricks" returned {{
    card trick_one "Trick one" {{
{trick_one}
    }}
    card trick_two "Trick two" {{
{trick_two}
    }}
}}
rule short "Short of money" {{
    on shortfall {{
{shortfall}
    }}
}}
rule generated "Generated statements" {{
    on turn {{
{statements}
    }}
}}
rule offering "An offer over the player's titles" {{
    on turn {{
        offer "Pick one" {{
            option pick "Pick {{s}}" for s in player.titles when {when} cost {cost} value {value} {{
                pay 1 from player to bank
            }}
        }}
    }}
}}
function probe(s: space, x: int) = {probe}
function tally(s: space) = {tally}
function top() = {top}
score top() + tally(b2) + probe(st1, k) + player.cash + player.points
"""

_SPACE_CONSTANTS = ["go", "r1", "st1", "r2", "b1", "pk", "b2", "b3", "st2"]
_GROUP_CONSTANTS = ["reds", "blues", "lot", "station"]


@st.composite
def _typed_expr(
    draw, want: str, scope: dict[str, str], calls: dict[str, tuple[str, ...]], fresh: list[int], depth: int
) -> str:
    """A well-typed expression of type `want` (int, bool, space, group) over a board with lots, stations
    and fieldless spaces; field reads may be guarded (`s in lot and ...`) or not, and may fail."""

    def sub(kind: str, names: dict[str, str] = scope) -> str:
        return draw(_typed_expr(kind, names, calls, fresh, max(depth - 1, 0)))

    def loop(group_kind: str = "group") -> tuple[str, str, dict[str, str]]:
        fresh.append(len(fresh))
        var = f"t{len(fresh)}"
        collection = sub(group_kind) if group_kind == "group" else "player.titles"
        return var, collection, {**scope, var: "space"}

    named = [n for n, t in scope.items() if t == want]
    compound = depth > 0 and draw(st.integers(0, 2)) > 0
    if want == "space":
        return (
            draw(st.sampled_from(named + _SPACE_CONSTANTS))
            if named and draw(st.booleans())
            else draw(st.sampled_from(_SPACE_CONSTANTS))
        )
    if want == "group":
        if compound and draw(st.booleans()):
            return f"{sub('space')}.color"
        return draw(st.sampled_from(_GROUP_CONSTANTS))
    if want == "bool":
        kind = draw(
            st.sampled_from(
                ["compare", "in", "owner", "owns_all", "flag"]
                + (["and", "not", "all", "any", "guarded", "narrowing", "narrowing"] if compound else [])
            )
        )
        if kind == "compare":
            return f"{sub('int')} > {sub('int')}"
        if kind == "in":
            return f"{sub('space')} in {draw(st.sampled_from(_GROUP_CONSTANTS))}"
        if kind == "owner":  # (not with none: after `s.owner != none` the checker rejects `s.owner == none`)
            return f"{sub('space')}.owner {draw(st.sampled_from(['==', '!=']))} player"
        if kind == "owns_all":
            return f"owns_all(player, {sub('group')})"
        if kind == "flag":  # an option the compiler folds (a variable in the twin: see _HELD)
            return draw(st.sampled_from(["flag", "flag", "true", "false"]))
        if kind == "and":
            return f"({sub('bool')} {draw(st.sampled_from(['and', 'or']))} {sub('bool')})"
        if kind == "not":
            return f"not ({sub('bool')})"
        if kind == "guarded":
            s = sub("space")
            return f"({s} in lot and len({s}.color) > {draw(st.integers(1, 3))})"
        if kind == "narrowing":  # a membership test, then (perhaps) a read only lots can answer
            s = sub("space")
            joined = draw(st.sampled_from(["and", "or"]))
            then = f"len({s}.color) > {draw(st.integers(0, 2))}" if draw(st.booleans()) else sub("bool")
            return f"(({s} in {draw(st.sampled_from(_GROUP_CONSTANTS))} {joined} {sub('bool')}) and {then})"
        var, collection, inner = loop()
        return f"{kind}({var} in {collection}: {sub('bool', inner)})"
    # int
    leaves = ["literal", "option", "cash"] + (["name"] if named else [])
    kinds = (
        leaves
        if not compound
        else leaves
        + ["arith", "if", "price", "guarded_price", "count_owned", "owners", "sum", "count", "titles", "call", "colour"]
    )
    kind = draw(st.sampled_from(kinds))
    if kind == "literal":
        return str(draw(st.integers(0, 9)))
    if kind == "name":
        return draw(st.sampled_from(named))
    if kind == "option":
        return "k"
    if kind == "cash":
        return "player.cash"
    if kind == "arith":
        return f"({sub('int')} {draw(st.sampled_from('+-*'))} {sub('int')})"
    if kind == "if":
        return f"(if {sub('bool')} then {sub('int')} else {sub('int')})"
    if kind == "price":
        return f"{sub('space')}.price"  # fails on a space without a price: both ways alike
    if kind == "colour":
        return f"len({sub('space')}.color)"  # only lots have one
    if kind == "guarded_price":
        s = sub("space")
        return f"(if {s} in lot then {s}.price + len({s}.color) else 0)"
    if kind == "count_owned":
        return f"count_owned(player, {sub('group')})"
    if kind == "owners":
        return f"len(owners({sub('group')}))"
    if kind in ("sum", "count"):
        var, collection, inner = loop()
        body = sub("int", inner) if kind == "sum" else sub("bool", inner)
        return f"{kind}({var} in {collection}: {body})"
    if kind == "titles":
        var, collection, inner = loop("titles")
        return f"count({var} in {collection}: {var} in lot and {sub('bool', inner)})"
    name = draw(st.sampled_from(sorted(calls))) if calls else None
    if name is None:
        return "0"
    return f"{name}({', '.join(sub(t) for t in calls[name])})"


@st.composite
def _statements(
    draw,
    scope: dict[str, str],
    calls: dict[str, tuple[str, ...]],
    fresh: list[int],
    depth: int,
    indent: int = 2,
    tested: frozenset[str] = frozenset(),
    choices: bool = False,
    draws: bool = False,
) -> list[str]:
    """A block of well-typed statements: locals, `set`, `if`, `for`, payments, variables, deeds given
    and returned, and payments by an owner tested not to be none (with statements in between).

    `tested`: spaces whose owner an enclosing block tested against none (the checker rejects a
    second test while it still knows the answer); `choices`, `draws`: whether `choose` and
    `draw tricks` may appear."""
    pad = "    " * indent
    scope = dict(scope)  # a block's `let`s are its own
    lines: list[str] = []

    def expr(kind: str) -> str:
        return draw(_typed_expr(kind, scope, calls, fresh, 2))

    def small(kind_expr: str) -> str:  # a payment between 0 and 9
        return f"min(max({kind_expr}, 0), 9)"

    def block(names: dict[str, str], tested_inside: frozenset[str] = tested) -> list[str]:
        return (
            draw(_statements(names, calls, fresh, depth - 1, indent + 1, tested_inside, choices, draws))
            if depth > 0
            else []
        )

    for _ in range(draw(st.integers(1, 4))):
        ints = [n for n, t in scope.items() if t == "int"]
        kind = draw(
            st.sampled_from(
                ["let", "pay", "paid", "points", "marks", "deed"]
                + (["set"] if ints else [])
                + (["if", "for", "owner_pays"] if depth > 0 else [])
                + (["choose"] if choices and depth > 0 else [])
                + (["draw"] if draws else [])
            )
        )
        if kind == "let":
            fresh.append(len(fresh))
            name = f"a{len(fresh)}"
            lines.append(f"{pad}let {name} = {expr('int')}")
            scope[name] = "int"
        elif kind == "set":
            lines.append(
                f"{pad}set {draw(st.sampled_from(ints))} {draw(st.sampled_from(['=', '+=', '-=']))} {expr('int')}"
            )
        elif kind == "pay":
            lines.append(f"{pad}pay {small(expr('int'))} from player to bank")
        elif kind == "paid":
            lines.append(f"{pad}pay {small(expr('int'))} from bank to player")
        elif kind == "points":
            lines.append(f"{pad}set player.points += {small(expr('int'))}")
        elif kind == "marks":
            lines.append(f"{pad}set {expr('space')}.marks += 1")
        elif kind == "deed":
            space = expr("space")
            if draw(st.booleans()):  # (not `owner == none`: inside `if s.owner != none` it is always false)
                lines.append(f"{pad}if {space} in lot {{")
                lines.append(f"{pad}    give {space}.title to player")
            else:
                lines.append(f"{pad}if {space} in station {{")
                lines.append(f"{pad}    return {space}.title to deeds")
            lines.append(f"{pad}}}")
        elif kind == "if":
            lines.append(f"{pad}if {expr('bool')} {{")
            lines += block(scope)
            lines.append(f"{pad}}} else {{")
            lines += block(scope)
            lines.append(f"{pad}}}")
        elif kind == "draw":  # a card whose generated effect runs here
            lines.append(f"{pad}draw tricks")
        elif kind == "choose":
            fresh.append(len(fresh))
            var = f"t{len(fresh)}"
            lines.append(f'{pad}choose "Which?" {{')
            lines.append(f'{pad}    option each "Take {{{var}}}" for {var} in player.titles when {expr("bool")} {{')
            lines += [f"    {line}" for line in block({**scope, var: "space"})]
            lines.append(f"{pad}    }}")
            lines.append(f'{pad}    option other "Something else" {{')
            lines += [f"    {line}" for line in block(scope)]
            lines.append(f"{pad}    }}")
            lines.append(f"{pad}}}")
        elif kind == "for":
            fresh.append(len(fresh))
            var = f"t{len(fresh)}"
            collection = draw(st.sampled_from(["player.titles", expr("group")]))
            lines.append(f"{pad}for {var} in {collection} {{")
            lines += block({**scope, var: "space"})
            lines.append(f"{pad}}}")
        else:  # owner_pays: narrowed by the test, perhaps no longer after the statements between
            untested = [c for c in _SPACE_CONSTANTS if c not in tested]
            if not untested:
                continue
            space = draw(st.sampled_from(untested))
            lines.append(f"{pad}if {space}.owner != none {{")
            lines += block(scope, tested | {space})
            if space not in ("go", "pk") and draw(st.booleans()):  # the owner is none again
                lines.append(f"{pad}    return {space}.title to deeds")
            lines.append(f"{pad}    pay 1 from {space}.owner to bank")
            lines.append(f"{pad}}}")
    return lines


@st.composite
def _typed_program(draw, extras: bool = False) -> str:
    """A generated program on BOARD_FOR_GENERATED; with `extras`, its statements also choose and
    draw cards whose effects are generated, and its shortfall handler is generated."""
    fresh: list[int] = []
    probe = draw(_typed_expr("int", {"s": "space", "x": "int"}, {}, fresh, 3))
    tally = draw(_typed_expr("int", {"s": "space"}, {"probe": ("space", "int")}, fresh, 3))
    top = draw(_typed_expr("int", {}, {"probe": ("space", "int"), "tally": ("space",)}, fresh, 3))
    option = {
        part: draw(_typed_expr(kind, {"s": "space"}, {"probe": ("space", "int")}, fresh, 2))
        for part, kind in (("when", "bool"), ("cost", "int"), ("value", "int"))
    }
    calls = {"probe": ("space", "int"), "tally": ("space",)}
    statements = "\n".join(draw(_statements({}, calls, fresh, 2, choices=extras, draws=extras)))
    tricks = {"trick_one": "", "trick_two": ""}
    shortfall = ""
    if extras:  # card effects draw no further cards; the shortfall handler may put the short player out
        tricks = {name: "\n".join(draw(_statements({}, calls, fresh, 1, choices=True))) for name in tricks}
        shortfall = draw(
            st.sampled_from(
                [
                    "        if player.cash < due {\n            eliminate player\n        }",
                    "        set player.points -= 1",
                    "\n".join(draw(_statements({}, calls, fresh, 1, choices=True))),
                ]
            )
        )
    return BOARD_FOR_GENERATED.format(
        probe=probe,
        tally=tally,
        top=top,
        statements=statements,
        shortfall=shortfall,
        flag=draw(st.sampled_from(["true", "false"])),
        **tricks,
        **option,
    )


def _plays_the_same_and_fails_only_clearly(tmp_path_factory, text: str, seed: int) -> None:
    path = tmp_path_factory.mktemp("typed") / "typed.lg"
    path.write_text(text)
    rules = ld.load_edition(path)
    fast, plain = compile_ruleset(rules), compile_ruleset(rules, optimize=False)
    assert all(len(p.line_table) == len(p.python_source.splitlines()) for p in (fast, plain))
    log = _log(fast, seed, True)
    assert log == _log(plain, seed, True), text
    # a checked program stops, if at all, with a rule error that points at it, never a Python one
    assert "failed at run time" not in log[-1], text


_TYPED_EXAMPLES = 600 if os.environ.get("LANDLORD_HYPOTHESIS_PROFILE") == "thorough" else 100
_HELD = re.compile(r"(?<![\w.])flag\b(?! \"Flag\")")  # a use of the option `flag`, not its declaration


@pytest.mark.slow
@settings(max_examples=_TYPED_EXAMPLES, deadline=None)
@given(text=_typed_program(), seed=st.integers(0, 50))
def test_folding_an_option_plays_as_reading_a_variable_of_the_same_value(tmp_path_factory, text, seed):
    """The options fix `flag`, so the compiler folds it (and whatever it decides); `held`, a variable
    with the same value, cannot be folded. Folding may change speed, never a game or an error: a
    dropped operand that can fail (`go.price > 0 and false`) was missed by the optimised-vs-plain
    tests, because both compilations fold."""
    folded, read = (_played(tmp_path_factory, t, seed) for t in (text, _HELD.sub("held", text)))
    assert folded == read, text


def _played(tmp_path_factory, text: str, seed: int) -> list[str]:
    """Return the log of a game of `text` (written to a new folder, whose name is left out)."""
    path = tmp_path_factory.mktemp("typed") / "typed.lg"
    path.write_text(text)
    log = _log(compile_ruleset(ld.load_edition(path)), seed, True)
    return [line.replace(str(path.parent), "") for line in log]


@pytest.mark.slow
@settings(max_examples=_TYPED_EXAMPLES, deadline=None)
@given(text=_typed_program(), seed=st.integers(0, 50))
def test_generated_rules_over_spaces_play_the_same_optimised_and_plain(tmp_path_factory, text, seed):
    """Field checks left out, ownership written in place, folding and inlining never change a game:
    random functions, statements and an offer's options over lots, stations and fieldless spaces
    (guarded or not), groups, titles, ownership, variables and deeds, played both ways; a field
    read that fails must fail the same way. And a checked program never fails with a Python error:
    a stale `!= none` narrowing (a deed returned in between) was caught this way."""
    _plays_the_same_and_fails_only_clearly(tmp_path_factory, text, seed)


@pytest.mark.slow
@settings(max_examples=_TYPED_EXAMPLES, deadline=None)
@given(text=_typed_program(extras=True), seed=st.integers(0, 50))
def test_generated_cards_choices_and_shortfalls_play_the_same_optimised_and_plain(tmp_path_factory, text, seed):
    """The same with generated card effects (drawn by the generated statements), `choose` with an
    option per title, and a generated `on shortfall` handler that may put the player out."""
    _plays_the_same_and_fails_only_clearly(tmp_path_factory, text, seed)


LOCATED = """edition "located" { players 2 to 2 turn limit 5 }
account bank "Bank" unlimited
kind start "Start" { }
board {
    space go "Go" : start
}
action bonus(amount: int) {
    let doubled = amount * 2
    pay doubled from bank to player
}
rule first "First" {
    on turn {
        let x = 1
    }
}
rule second "Second" {
    on turn {
        let y = 2
        pay y from bank to player
    }
}
rule third "Third" {
    on turn {
        do bonus(3)
    }
}
"""


class _PatchableGame(ld.Game):
    """A Game whose methods a test replaces on the instance (Game declares its fields; a subclass without
    `__slots__` keeps a `__dict__` too)."""


@pytest.mark.parametrize("optimize", [True, False])
@pytest.mark.parametrize("amount, rule, line", [(2, "second", 19), (6, "third", 9)])
def test_a_python_error_in_the_compiled_rules_names_the_rule_and_the_statement(tmp_path, optimize, amount, rule, line):
    """A Python error inside the compiled rules (an engine bug, say) is reported at the `.lg` statement
    that was running, in the rule whose handler ran it: the `pay` of rule second, or the action's
    `pay` that rule third called (the rule comes from the handler, the place from the innermost line)."""
    path = tmp_path / "located.lg"
    path.write_text(LOCATED)
    program = compile_ruleset(ld.load_edition(path), optimize=optimize)
    game = _PatchableGame(program, [RandomAgent(0), RandomAgent(1)], seed=0)

    # (optimised code pays by the methods for the kinds of its two sides: Game.pay_in)
    for name in ("transfer", "pay_in", "pay_out", "pay_within"):
        setattr(game, name, _an_engine_bug(game, name, amount))
    with pytest.raises(ld.RuleRuntimeError) as info:
        game.play()
    (diagnostic,) = info.value.diagnostics
    assert diagnostic.message.startswith(
        f"the rules failed at run time: ValueError: an engine bug paying {amount} (rule '{rule}', turn 1)"
    )
    assert (diagnostic.span.file, diagnostic.span.line) == (str(path), line)
    assert diagnostic.line_text.strip() == LOCATED.splitlines()[line - 1].strip()


_ENGINE_BUG = """
def failing(game, name, amount):
    method = getattr(type(game), name)

    def fail_paying(amount_paid, *rest):
        if amount_paid == amount:
            raise ValueError(f"an engine bug paying {amount_paid}")
        return method(game, amount_paid, *rest)

    return fail_paying
"""


def _an_engine_bug(game: ld.Game, name: str, amount: int):
    """Return the game's payment method `name`, failing with a ValueError when it pays `amount`, as a bug
    in the engine would (scenario_helpers.engine_function)."""
    return engine_function(_ENGINE_BUG, "failing")(game, name, amount)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_name_the_generated_code_reads_is_defined(path: Path):
    """Each name a generated function reads is its own (assigned in it, or a parameter), in the program's
    namespace, or a built-in: the generator writes no read of a name nothing defines, even on a line that
    cannot run (a C build of the code refuses those)."""
    program = compile_ruleset(ld.load_edition(path))
    namespace = program.on_turn.__globals__
    undefined = []
    for function in pyast.parse(program.python_source).body:
        own = {a.arg for a in pyast.walk(function) if isinstance(a, pyast.arg)}
        own |= {d.name for d in pyast.walk(function) if isinstance(d, pyast.FunctionDef)}
        own |= {n.id for n in pyast.walk(function) if isinstance(n, pyast.Name) and not isinstance(n.ctx, pyast.Load)}
        read = {n.id for n in pyast.walk(function) if isinstance(n, pyast.Name) and isinstance(n.ctx, pyast.Load)}
        undefined += [
            f"{getattr(function, 'name', '?')}: {name}"
            for name in sorted(read - own)
            if name not in namespace and not hasattr(builtins, name)
        ]
    assert undefined == []


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_the_line_table_maps_every_generated_line_to_its_rule_and_place(path: Path):
    """Program.line_table has one entry per line of the generated source: a handler's lines belong to
    its rule and lie within it in the rule file, or within a short action the compiler wrote in place of
    its call (as an error in a called action is reported: the caller's rule, the action's line); lines
    outside handlers belong to no rule."""
    rules = ld.load_edition(path)
    program = compile_ruleset(rules)
    actions = [a.span for a in rules.model.actions.values()]

    def within(span, whole) -> bool:
        return span.file == whole.file and whole.line <= span.line <= span.end_line <= whole.end_line

    lines = program.python_source.splitlines()
    assert len(program.line_table) == len(lines)
    located = 0
    for text, (rule, span) in zip(lines, program.line_table):
        if text.startswith("def ") or not text:
            assert (rule, span) == (None, None), text
        if text.lstrip().startswith("# rule "):
            assert text.lstrip().startswith(f"# rule {program.rule_names[rule]}: ")
        if re.fullmatch(r" *g\.rule = \d+", text):
            assert text.strip() == f"g.rule = {rule}"
        if rule is not None:
            assert within(span, program.rule_spans[rule]) or any(within(span, a) for a in actions), text
        located += span is not None
    assert located > len(lines) // 2


# ------------------------------------------------------------- built-ins (issue 14, item 4)
_INLINE_ARGS = {
    "int": st.integers(-(10**6), 10**6),
    "space": st.integers(0, 39),
    "list[any]": st.lists(st.integers(0, 39), max_size=5).map(tuple),
}


@pytest.mark.parametrize("name", [n for n, b in BUILTINS.items() if b.inline is not None])
@settings(max_examples=50, deadline=None)
@given(data=st.data(), actor_space=st.integers(0, 39))
def test_a_built_in_written_in_place_gives_what_its_implementation_gives(name, data, actor_space):
    """The compiler writes `inline` in place of a call: each argument once, the same value as the call."""
    builtin = BUILTINS[name]
    args = [data.draw(_INLINE_ARGS[t]) for t in builtin.params]
    assert [builtin.inline.count(f"{{{i}}}") for i in range(len(args))] == [1] * len(args)
    game = SimpleNamespace(pos=[actor_space, 0], actor=0, board_size=40)
    written = builtin.inline.format(*map(repr, args))
    assert eval(written, {"g": game}) == builtin.implementation(game, *args)


@pytest.mark.parametrize("name", [n for n, b in BUILTINS.items() if b.fixed])
def test_a_fixed_built_in_reads_nothing_of_the_game(name):
    """`fixed` lets a built-in into constants, worked out before any game: it must not need one."""
    builtin = BUILTINS[name]
    sample = {"int": 7, "list[any]": (1, 2, 3), "list[int]": (10, 10, 40)}
    builtin.implementation(None, *[sample[t] for t in builtin.params])


def test_gini_pct_may_be_used_in_a_constant_and_is_folded(tmp_path):
    """gini_pct depends only on its argument; the checker refused it in constants while the compiler's
    list of fixed built-ins had it (the registry now says it once)."""
    path = tmp_path / "x.lg"
    path.write_text(SMALL + "const skew = gini_pct([10, 10, 40])\nscore player.cash + skew\n")
    program = compile_ruleset(ld.load_edition(path))
    assert "+ 33" in program.python_source.split("def _score")[1]


def test_the_reference_table_of_built_ins_is_the_registrys():
    """The language reference's built-ins table is generated from BUILTINS (`python -m landlord_dsl.checking.builtins
    PAGE`): a built-in added, changed or removed without regenerating it fails here."""
    docs = Path(__file__).parent.parent / "docs"
    pages = [p for p in docs.rglob("*.md") if "<!-- BEGIN BUILTINS" in p.read_text(encoding="utf-8")]
    assert len(pages) == 1, pages
    page = pages[0].read_text(encoding="utf-8")
    assert with_reference_table(page) == page, f"run: python -m landlord_dsl.checking.builtins {pages[0]}"
    assert all(f"| `{name}` |" in page for name in BUILTINS)
    cheat_sheet = (docs / "language" / "cheat-sheet.md").read_text(encoding="utf-8")
    assert all(f"`{name}`" in cheat_sheet for name in BUILTINS)


def test_a_function_with_an_aggregate_is_written_in_place_only_when_it_needs_no_loop(tmp_path):
    """`s in lot and all(l in s.color: l.owner != none)` is one test of the owners: the function is written in place.
    `count(t in p.titles: t == s)` stays a loop, whose name could hide the caller's argument: it stays a call,
    and counts right when the caller's name for `s` is the one the loop would take (`v2` here)."""
    text = SMALL + (
        "function whole(s: space) = s in lot and all(l in s.color: l.owner != none)\n"
        "function held(p: player, s: space) = count(t in p.titles: t == s)\n"
        'rule r "r" {\n'
        "    on turn {\n"
        "        let a = 1\n"
        "        let b = 2\n"
        "        for x in player.titles {\n"
        "            if whole(x) and held(player, x) == 1 and a + b == 3 { end game }\n"
        "        }\n"
        "    }\n"
        "}\n"
    )
    path = tmp_path / "inline.lg"
    path.write_text(text)
    rules = ld.load_edition(path)
    source = compile_ruleset(rules).python_source
    handler = source[source.index("def _dispatch") :]
    assert "_f_whole(" not in handler and "_f_held(" in handler
    for optimize in (True, False):
        game = ld.new_game(compile_ruleset(rules, optimize=optimize), players=2, seed=0)
        game.set_holder(game.prog.title_card[1], 0)
        game.set_holder(game.prog.title_card[2], 0)  # two titles: `held` written as a loop in place would count 2
        game.play()
        assert game.turn == 1, optimize  # seat 0 holds the whole (one-lot) red group: the game ends at once


# ---------------------------------------------- a choice's round (issue 17, the peer's throws)
_ROUNDS = (
    SMALL
    + """
var rounds_left = 3
space var level = 0
function price_of(s: space) = if s in reds then s.price * 2 else s.price + 1
function even(s: space) = all(l in s.color: s.level <= l.level)
action nudge() {
    set rounds_left -= 1
}
rule offers "Offers" {
    on turn {
        offer "Raise a level, or sell?" {
            option raise "Raise {s}"
                for s in player.titles
                when player.cash >= price_of(s) and s in reds and even(s)
                cost price_of(s)
                value 3 * price_of(s) {
                pay price_of(s) from player to bank
                set s.level += 1
            }
            option sell "Sell {s}"
                for s in player.titles
                when rounds_left > 0 and s.level == 0
                value if s in reds then price_of(s) else -1 {
                do nudge()
            }
        }
    }
}
"""
)


def test_a_choices_hints_of_one_space_are_tables_and_its_round_reads_the_moment_once(tmp_path):
    """A hint that depends on the space an option binds and on nothing else is looked up in a table made
    before the game; the acting player and his cash are read once a round; the leading test of a guard
    that reads only those (`rounds_left` is a variable, so it stays in the loop) is made before the loop,
    and a loop without a test of the cash against a table is written for a round where it always holds;
    all/any over a space's own group is written out; the same games either way."""
    path = tmp_path / "rounds.lg"
    path.write_text(_ROUNDS)
    rules = ld.load_edition(path)
    fast, plain = compile_ruleset(rules), compile_ruleset(rules, optimize=False)
    handler = fast.python_source[fast.python_source.index("def _dispatch") :]
    assert "_tab" in handler and "price_of" not in handler  # price_of(s): a table by space
    assert re.search(r"_cash\d+ = (?:g\.|_h_)bal\[g\.nacc \+ _player\d+\]", handler)
    assert "g.bal[g.nacc + g.actor] >=" not in handler and "_h_bal[g.nacc + _h_actor] >=" not in handler
    # cash >= price_of(s) holds for every title once the cash reaches the greatest price: a loop without it
    assert re.search(r"if _cash\d+ >= 21:\n +for ", handler)
    assert "_f_even" not in handler and "all(" not in handler  # the group written out, member by member
    assert "_a_nudge(" not in handler  # a short action without parameters, in place
    for seed in range(6):
        assert _log(fast, seed, False) == _log(plain, seed, False)
        assert _log(fast, seed, True) == _log(plain, seed, True)


def test_a_test_of_an_options_space_true_of_every_space_it_can_hold_is_no_test(tmp_path):
    """A test that depends on nothing but the space an option binds, and gives one value for every space that
    can be (`s.price >= 10` and `s.price > 5` of the titles of a board whose titles cost 10 and 20; `s in lot`
    of the titles of the groups the player owns whole, which only lots have), is that value: no table, no test;
    the same games either way."""
    path = tmp_path / "folds.lg"
    path.write_text(
        SMALL
        + """
rule buying "Buying" {
    on land lot {
        if here.owner == none and player.cash >= here.price {
            pay here.price from player to bank
            give here.title to player
        }
    }
    on land station {
        if here.owner == none and player.cash >= here.price {
            pay here.price from player to bank
            give here.title to player
        }
    }
}
rule offers "Offers" {
    on turn {
        roll dice
        move forward dice.total
        offer "Build or sell?" {
            option build "Build on {s}"
                for s in player.titles
                when s in lot and owns_all(player, s.color) and player.cash > 3
                cost 1
                value 3 {
                pay 1 from player to bank
            }
            option sell "Sell {s}"
                for s in player.titles
                when s.price >= 10 and player.cash < 30
                value if s.price > 5 then 2 else 1 {
                pay 1 from bank to player
            }
        }
    }
}
"""
    )
    rules = ld.load_edition(path)
    fast, plain = compile_ruleset(rules), compile_ruleset(rules, optimize=False)
    offers = fast.python_source[fast.python_source.index("rule offers") :]
    offers = offers[: offers.find("\ndef ")]  # (its handler alone)
    assert re.search(r"for v0 in (?:g\.gfull\[0\]|_h_gfull0)\[_player\d+\]:\n +if _first", offers)
    assert re.search(r"for v1 in (?:g\.titles|_h_titles)\[_player\d+\]:\n +if _first", offers)
    assert "_tab" not in offers and "_set" not in offers and "price" not in offers
    for seed in range(6):
        assert _log(fast, seed, False) == _log(plain, seed, False)
        assert _log(fast, seed, True) == _log(plain, seed, True)


def test_a_guards_leading_test_of_the_moment_alone_is_made_once_before_the_loop(tmp_path):
    """`when player.cash < due and ...` in a shortfall's offer: tested once a round, before the titles."""
    path = tmp_path / "short.lg"
    path.write_text(
        SMALL
        + """
rule raising "Raising" {
    on shortfall {
        offer "Raise cash?" done when player.cash >= due {
            option mortgage "Mortgage {s}"
                for s in player.titles
                when player.cash < due and s in reds
                value s.price {
                pay s.price from bank to player
            }
        }
    }
}
rule costly "Costly" {
    on turn {
        pay 30 from player to bank
    }
}
"""
    )
    rules = ld.load_edition(path)
    fast, plain = compile_ruleset(rules), compile_ruleset(rules, optimize=False)
    lines = fast.python_source.splitlines()
    hoisted = next(i for i, line in enumerate(lines) if re.fullmatch(r" *if \(_cash\d+ < _due\d+\):", line))
    assert lines[hoisted + 1].strip().startswith("for ")
    for seed in range(4):
        assert _log(fast, seed, False) == _log(plain, seed, False)


def test_an_action_written_in_place_fails_at_its_own_line_in_the_callers_rule(tmp_path):
    """A short action without parameters is written into the handler that calls it; a Python error there
    (an engine bug, say) is reported as one in the called action would be: the caller's rule, the action's
    statement (as Program.line_table says)."""
    path = tmp_path / "inline.lg"
    path.write_text(
        LOCATED
        + "action boom() {\n    pay 7 from bank to player\n}\n"
        + 'rule fourth "Fourth" {\n    on turn {\n        do boom()\n    }\n}\n'
    )
    program = compile_ruleset(ld.load_edition(path))
    assert "_a_boom(" not in program.python_source[program.python_source.index("def _dispatch") :]
    game = _PatchableGame(program, [RandomAgent(0), RandomAgent(1)], seed=0)

    game.pay_in = _an_engine_bug(game, "pay_in", 7)  # type: ignore[method-assign]
    with pytest.raises(ld.RuleRuntimeError) as info:
        game.play()
    (diagnostic,) = info.value.diagnostics
    assert "(rule 'fourth', turn 1)" in diagnostic.message
    assert diagnostic.line_text.strip() == "pay 7 from bank to player"


def test_all_over_a_spaces_group_keeps_the_groups_order_where_a_test_can_fail(tmp_path):
    """`all(l in s.color: ...)` is written out member by member; the space itself is tested first only where
    no test can fail. Here the first member's test settles it before the space's own would divide by zero:
    no error, optimised or plain (and the test of a house level, which cannot fail, starts with the space)."""
    path = tmp_path / "order.lg"
    path.write_text(
        """edition "order" { players 2 to 2 turn limit 2 }
account bank "Bank" unlimited
kind start "Start" { }
kind lot "Lot" titled { price: int, color: group }
group blues "Blues"
space var level = 0
board {
    space go "Go" : start
    space first "First" : lot { price = 10, color = blues } in blues
    space second "Second" : lot { price = 10, color = blues } in blues
}
var seen = 0
rule probe "Probe" {
    on turn {
        set first.level = 20
        for s in player.titles {
            if s in blues and all(l in s.color: 10 / l.level > 1) {
                set seen = 1
            }
            if s in blues and all(l in s.color: s.level <= l.level) {
                set seen = 2
            }
        }
    }
}
"""
    )
    rules = ld.load_edition(path)
    for optimize in (True, False):
        game = ld.new_game(compile_ruleset(rules, optimize=optimize), players=2, seed=0)
        game.set_holder(game.prog.title_card[2], 0)  # seat 0 holds `second`, whose level is 0
        game.play()
        # the first test stops at first (10 / 20 is 0): second's 10 / 0 is never made; the second test holds
        assert game.gv[0] == 2, optimize


# What reading generated expression code back says of it: the facts Compiled carries must agree with it
_LOOPS = (pyast.GeneratorExp, pyast.ListComp, pyast.SetComp, pyast.DictComp, pyast.Lambda)
_CANNOT_FAIL: tuple[type[pyast.AST], ...] = (pyast.Expression, pyast.BoolOp, pyast.UnaryOp, pyast.Compare)
_CANNOT_FAIL += (pyast.Constant, pyast.Name, pyast.Subscript, pyast.Attribute, pyast.Load, pyast.Store)
_CANNOT_FAIL += (pyast.boolop, pyast.unaryop, pyast.cmpop, pyast.BinOp, pyast.Add, pyast.Sub, pyast.Mult)
_CANNOT_FAIL += (pyast.IfExp, pyast.Set, pyast.Tuple, pyast.Starred, pyast.NamedExpr, pyast.Call)


def _can_fail_read_back(nodes: list[pyast.AST]) -> bool:
    """Return True unless the code divides nothing and calls only `len`, an owner getter or a `count`."""
    for node in nodes:
        if not isinstance(node, _CANNOT_FAIL):
            return True
        if isinstance(node, pyast.Call):
            func = node.func.value if isinstance(node.func, pyast.Subscript) else node.func
            if isinstance(func, pyast.Attribute):
                if func.attr != "count":
                    return True
            elif not (isinstance(func, pyast.Name) and (func.id == "len" or is_owner_getter(func.id))):
                return True
    return False


def _facts_read_back(compiler, code: str, names: frozenset[str]) -> dict[str, object]:
    """Return the facts of Compiled (`names`: the names it says it reads) as the code, parsed, shows them."""
    nodes = list(pyast.walk(pyast.parse(code, mode="eval")))
    ids = {node.id for node in nodes if isinstance(node, pyast.Name)}
    binds: set[str] = set()
    for node in nodes:
        if isinstance(node, pyast.comprehension):
            binds.update(n.id for n in pyast.walk(node.target) if isinstance(n, pyast.Name))
        elif isinstance(node, pyast.Lambda):
            binds.update(a.arg for a in node.args.args)
    round_names = set(compiler.round_names.values()) if compiler.round_reads is not None else set()
    named = {n for n in ids if compiler.is_local(n) or n in compiler.domains or n in round_names}
    return {
        "can_fail": _can_fail_read_back(nodes),
        "game": any(
            isinstance(node, pyast.Attribute) and isinstance(node.value, pyast.Name) and node.value.id == "g"
            for node in nodes
        ),
        "names": named <= names <= ids,
        "loops": any(
            isinstance(node, _LOOPS)
            or (isinstance(node, pyast.Name) and node.id == "_work")
            or (
                isinstance(node, pyast.Name)
                and node.id.startswith(Prefix.FUNCTION)
                and not compiler.light(compiler.m.functions[node.id[len(Prefix.FUNCTION) :]].body)
            )
            for node in nodes
        ),
        "binds": frozenset(binds),
        "plain": not any(isinstance(node, (pyast.Subscript, pyast.Attribute, pyast.Call)) for node in nodes)
        and ids <= names,
    }


@pytest.mark.parametrize("edition", ["landlords-game-1906", "monopoly-1933-atlantic-city", "landlords-game-1939"])
def test_what_an_expression_compiles_to_knows_what_its_code_does(edition: str, monkeypatch: pytest.MonkeyPatch):
    # every fact Compiled carries (whether it can fail, reads the game, which locals it names, starts a loop,
    # binds names in loops, is operators alone) is worked out where its node is compiled; it must be what
    # reading the generated code back shows, or a fold would drop a part that can fail, a lookup by space be
    # made of code that reads the game, a test move out of its loop, or a loop go uncounted
    from landlord_dsl.compiling.codegen_expr import ExpressionCompiler

    expr = ExpressionCompiler.expr
    wrong: list[tuple[str, str]] = []
    seen: dict[str, set[object]] = {}

    def recorded(self, e):
        compiled = expr(self, e)
        game, names = compiled.reads
        carried = {
            "can_fail": compiled.can_fail,
            "game": game,
            "names": True,
            "loops": compiled.loops,
            "binds": compiled.binds,
            "plain": compiled.plain,
        }
        shown = _facts_read_back(self, compiled.code, names)
        wrong.extend((compiled.code, fact) for fact, value in carried.items() if shown[fact] != value)
        for fact, value in carried.items():
            seen.setdefault(fact, set()).add(value if fact != "binds" else bool(value))
        return compiled

    monkeypatch.setattr(ExpressionCompiler, "expr", recorded)
    rules = ld.load_edition(edition)
    for optimize in (True, False):
        for readable in (True, False):
            compile_ruleset(rules, optimize=optimize, readable=readable)
    assert wrong == []
    assert all(values == {True, False} for fact, values in seen.items() if fact != "names")  # both kinds seen


def test_built_ins_written_in_place_declare_what_their_code_does():
    """`inline_never_fails`, `inline_reads_game` and `inline_plain` say what a built-in's code written in place
    does beyond its arguments (the compiler carries them, never reads the code): they must be what it shows."""
    nothing_named = SimpleNamespace(is_local=lambda name: False, domains={}, round_reads=None)
    for name, builtin in BUILTINS.items():
        args = [f"a{i}" for i in range(len(builtin.params))]
        if builtin.inline is not None:
            facts = _facts_read_back(nothing_named, builtin.inline.format(*args), frozenset(args))
            assert (facts["can_fail"], facts["game"], facts["plain"]) == (
                not builtin.inline_never_fails,
                builtin.inline_reads_game,
                builtin.inline_plain,
            ), name
        for over_group in (builtin.inline_over_group, builtin.len_over_group):
            if over_group is not None:  # the owners of a group's spaces: `_og1(g.owner)`
                code = over_group.format(*args[:-1], owners="_og1(g.owner)", n="3")
                facts = _facts_read_back(nothing_named, code, frozenset(args))
                never_fails = builtin.inline_never_fails or over_group is builtin.len_over_group
                assert (facts["can_fail"], facts["game"]) == (not never_fails, True), name
        for over_counts in (builtin.inline_over_counts, builtin.len_over_counts):
            if over_counts is not None:  # the counts the game keeps of a group's owners: never fails, reads no owner
                code = over_counts.format(*args[:-1], counts="g.gcount[0]", n="3")
                facts = _facts_read_back(nothing_named, code, frozenset(args))
                assert (facts["can_fail"], facts["game"]) == (False, True), name
                assert "owner" not in code, name


def test_text_that_looks_like_code_reading_the_game_does_not_stop_a_lookup_by_space(tmp_path):
    """A hint that depends on the space an option binds alone is a table made before the game, even where it
    holds a text with `g.` in it: what it reads is carried from its parts, not read from the generated code
    (where `\\bg\\.` matched inside the literal 'g.x' and took it for a read of the game)."""
    path = tmp_path / "literal.lg"
    path.write_text(
        SMALL.replace("price: int color: group", "price: int color: group tag: text").replace(
            "price = 10, color = reds", 'price = 10, color = reds, tag = "g.red"'
        )
        + 'rule r "r" {\n'
        "    on turn {\n"
        '        offer "Pick" {\n'
        '            option o "O" for s in player.titles when s in lot value len([s.tag, "g.x"]) - 1 { }\n'
        "        }\n"
        "    }\n"
        "}\n"
    )
    rules = ld.load_edition(path)
    fast, plain = compile_ruleset(rules), compile_ruleset(rules, optimize=False)
    handler = fast.python_source[fast.python_source.index("def _dispatch") :]
    assert "_tab" in handler and "'g.x'" not in handler, handler
    for seed in range(4):
        assert _log(fast, seed, False) == _log(plain, seed, False)


def _with_rule(body: str) -> ld.Program:
    text = 'edition "probe" {\n    extends "landlords-game-1906"\n}\n\nrule probe "Probe" {\n    on turn {\n'
    return ld.compile_rules(ld.load_text(text + f"        {body}\n    }}\n}}\n", "probe.lg"))


def test_whether_the_rules_read_single_dice_is_carried_not_read_from_the_generated_text():
    """Issue 28 §3: the exact analysis merges throws by total and double when the rules never read the dice
    one by one; that fact is the compiler's, not a regex over the generated source (which took `g.dice` in
    a text for a read)."""
    assert not ld.compile_rules(ld.load_edition("monopoly-1933-atlantic-city")).reads_dice_faces
    assert not _with_rule('say "g.dice and g.dice[0]"').reads_dice_faces
    assert not _with_rule('if dice.total > 7 and dice.double { say "high" }').reads_dice_faces
    assert _with_rule('if dice.first == 1 { say "one" }').reads_dice_faces


@pytest.mark.parametrize("edition", ["landlords-game-1939", "monopoly-1933-atlantic-city"])
def test_a_functions_value_without_arguments_is_worked_out_once_and_the_code_is_the_same(edition, monkeypatch):
    """Issue 31: compiling 1939 worked out the body of its price functions again at every call (their
    arguments are calls too), 1,400 times, about 40 % of its compile time. A body's value is now kept where
    working it out made nothing; the code is the same as when it is worked out every time, and each group's
    set of spaces is bound once (a fresh set at each `s in group` made a name each time, so nothing was kept)."""
    from landlord_dsl.checking.options import resolve_options
    from landlord_dsl.compiling.codegen_expr import ExpressionCompiler
    from landlord_dsl.compiling.compiler import Compiler

    rules = ld.load_edition(edition)
    compiler = Compiler(rules, resolve_options(rules, None))
    kept = compiler.compile()
    assert kept is not None and compiler.values_without_arguments
    made = iter(range(10**9))
    monkeypatch.setattr(ExpressionCompiler, "_made_so_far", lambda self: next(made))  # never the same: none kept
    assert compile_ruleset(rules).python_source == kept.python_source
    sets = [value for name, value in compiler.ns.items() if name.startswith(Prefix.SPACE_SET)]
    assert sets and len(set(sets)) == len(sets)


def test_made_gives_each_fact_to_its_own_field():
    """`made` writes the Compiled's tuple directly, in the fields' order: each keyword lands in its field."""
    from landlord_dsl.compiling.codegen import Compiled, made

    part = Compiled("p", can_fail=False, reads=(False, frozenset({"q"})), loops=False, plain=True)
    given = made(
        "x",
        part,
        fails=True,
        game=True,
        names=frozenset({"n"}),
        loops=True,
        binds=frozenset({"b"}),
        plain=False,
        value=1,
        cheap=True,
        local=True,
        bounded=True,
        space_read="s",
        by_space=("t", "s"),
    )
    assert given == Compiled(
        "x",
        value=1,
        cheap=True,
        local=True,
        bounded=True,
        space_read="s",
        by_space=("t", "s"),
        can_fail=True,
        reads=(True, frozenset({"n", "q"})),
        loops=True,
        binds=frozenset({"b"}),
        plain=False,
    )
    assert made("y", part) == Compiled("y", can_fail=False, reads=(False, frozenset({"q"})), loops=False, plain=True)
