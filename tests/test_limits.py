"""Checked files that used to crash, hang or silently change the game (issue 13, items 7-12).

Each test fails on the library before these fixes: the file passed `check`
and then crashed with an internal error, ran without end, or played a game
other than the one written.
"""

from __future__ import annotations

import time

import pytest

import landlord_dsl as ld
from landlord_dsl.language.limits import MAX_INPUT, MAX_INT, MAX_TEXT, MAX_WORK

HEAD = (
    'edition "x" { players 2 to 4 turn limit 3 }\n'
    'account bank "Bank" unlimited\n'
    'kind start "Start" { }\n'
    'kind lot "Lot" titled { price: int }\n'
    "board {\n"
    '    space go "Go" : start\n'
    '    space elm "Elm" : lot { price = 60 }\n'
    "}\n"
)
PAY_A = 'rule r "R" { on turn { pay a from bank to player } }\n'
PAY_ELM = 'rule r "R" { on turn { pay elm.price from bank to player } }\n'


def _errors(text: str) -> list[str]:
    """Return the check errors of an edition as `line:column: message` strings."""
    return [f"{d.span.line}:{d.span.column}: {d.message}" for d in ld.check(text, "t.lg") if d.span is not None]


# -------------------------------------------------------------- item 7
@pytest.mark.parametrize(
    "decls, line, message",
    [
        ("const a = 1 / 0\n", 9, "division by zero"),
        ("const a = [1, 2][5]\n", 9, "index 5 is outside the list"),
        ("table t { 1: 5 }\nconst a = t[2]\n", 10, "the table has no entry 2"),
        ("const a = go.price\n", 9, "space 'go' has no field 'price'"),
        ("const z = 0\ntable t { 1: 5 / z }\nconst a = t[1]\n", 10, "division by zero"),
        ("var v = 7 % 0\nconst a = 1\n", 9, "division by zero"),
        ("player var v = [3][1]\nconst a = 1\n", 9, "index 1 is outside the list"),
    ],
)
def test_a_fixed_value_that_cannot_be_worked_out_is_a_located_check_error(decls, line, message):
    """Constants, table values, board fields and starting values are worked out when the file is
    checked; before, they passed `check` and `play` died with an AttributeError."""
    errors = _errors(HEAD + decls + PAY_A)
    assert any(e.startswith(f"{line}:") and message in e for e in errors), errors


def test_a_board_field_that_cannot_be_worked_out_is_a_located_check_error():
    text = HEAD.replace("price = 60", "price = 60 / (3 - 3)") + PAY_ELM
    assert _errors(text) == [f"7:43: {FIXED_ZERO}"]


def test_every_failing_fixed_value_is_reported_at_once():
    errors = _errors(HEAD + "const a = 1 / 0\nconst b = [1][3]\nvar v = 2 % 0\n" + PAY_A)
    assert [e.split(":")[0] for e in errors] == ["9", "10", "11"]


def test_a_fixed_value_failing_only_under_a_chosen_option_fails_at_compile_time_located():
    rules = ld.load_text(HEAD + 'option d "Divisor" = 2\nconst a = 10 / d\n' + PAY_A, "t.lg")
    with pytest.raises(ld.LandlordError) as info:
        ld.compile_rules(rules, {"d": 0})
    assert "t.lg:10:16: error: division by zero: this divisor is 0" in info.value.render()


FIXED_ZERO = "division by zero: this divisor is 0 before the game starts (with these option values)"


def _dividing(statement: str) -> str:
    """Return a file whose option `d` is 0 by default and whose one rule runs `statement` each turn (line 12)."""
    return HEAD + 'option d "Divisor" = 0\nrule r "R" {\n    on turn {\n        ' + statement + "\n    }\n}\n"


@pytest.mark.parametrize(
    ("body", "column"),
    [
        ("pay player.cash / d from bank to player", 27),
        ("pay player.cash % (d - d) from bank to player", 28),
        ("if player.cash / d > 1 { pay 1 from bank to player }", 26),
    ],
)
def test_a_rule_dividing_by_a_fixed_zero_is_a_located_check_error(body, column):
    """A divisor worked out to 0 before the game, in a rule, is reported where it is written (it passed
    `check` and failed only when a game reached it)."""
    assert _errors(_dividing(body)) == [f"12:{column}: {FIXED_ZERO}"]


@pytest.mark.parametrize(
    "amount",
    [
        "(if d > 0 then player.cash / d else 0)",
        "(if d == 0 then 0 else player.cash % d)",
        "count(s in [1]: d > 0 and s / d > 0)",
    ],
)
def test_a_division_in_an_arm_the_fixed_values_rule_out_is_no_error(amount):
    text = _dividing(f"pay {amount} from bank to player")
    assert _errors(text) == []
    rules = ld.load_text(text, "t.lg")
    game = ld.new_game(rules, players=2, seed=1, options={"d": 3})
    game.play()


# -------------------------------------------------------------- item 8
def test_a_constant_folded_past_the_integer_range_is_a_check_error():
    assert _errors(HEAD + "const a = 1000000000000000 * 1000000000000000\n" + PAY_A)[0].startswith(
        "9:11: this value is outside the numbers landlord-dsl keeps"
    )


def test_a_constant_of_thousands_of_digits_is_a_check_error_not_a_crash():
    """Python refuses to print integers of over 4,300 digits; folding used to crash on them."""
    product = " * ".join(["1000000000000000"] * 290)
    assert "outside the numbers" in _errors(HEAD + f"const a = {product}\n" + PAY_A)[0]


def _play(text: str, players: int = 2) -> ld.Game:
    game = ld.new_game(ld.load_text(text, "t.lg"), players=players, seed=0)
    game.play()
    return game


@pytest.mark.parametrize(
    "rest, where",
    [
        # squared every turn: gigabytes after a few dozen turns
        ('var v = 2\nrule r "R" { on turn { set v = v * v } }\n', "v * v"),
        # doubled by adding to itself, through +=
        ('var v = 1\nrule r "R" { on turn { for s in spaces { set v += v } } }\n', "set v += v"),
        # a chain of functions each squaring the last: 2 ** (2 ** 7) from a short file
        (
            "function f1(n: int) = n * n\nfunction f2(n: int) = f1(f1(n))\nfunction f3(n: int) = f2(f2(n))\n"
            'function f4(n: int) = f3(f3(n))\nvar v = 0\nrule r "R" { on turn { set v = f4(2) } }\n',
            "n * n",
        ),
        # through the items of a list a loop goes through
        ('var v = 3\nrule r "R" { on turn { for x in [2, v * v] { set v = x } } }\n', "v * v"),
        # a local squared in a loop
        ('rule r "R" { on turn { let x = 3\n for i in [1, 2, 3, 4, 5, 6, 7, 8] { set x = x * x } } }\n', "x * x"),
        # money from an unlimited account growing past the range
        (
            'const big = 2000000000 * 2000000000\nrule r "R" { on turn { pay big from bank to players[0] } }\n',
            "pay big from bank to players[0]",
        ),
    ],
)
def test_a_number_leaving_the_integer_range_is_a_located_run_time_error(rest, where):
    text = HEAD.replace("turn limit 3", "turn limit 200") + rest
    with pytest.raises(ld.RuleRuntimeError) as info:
        _play(text)
    rendered = info.value.render()
    assert "outside the numbers landlord-dsl keeps" in rendered and where in rendered


def test_a_text_growing_past_its_limit_is_a_located_run_time_error():
    text = HEAD.replace("turn limit 3", "turn limit 200") + (
        'var t: text = "ab"\nrule r "R" { on turn { set t = t + t } }\n'
    )
    with pytest.raises(ld.RuleRuntimeError) as info:
        _play(text)
    assert f"more than the {MAX_TEXT:,} a rule may build" in info.value.render()


def test_numbers_at_the_edge_of_the_range_are_kept():
    """The range is inclusive: the largest number may be kept and paid."""
    half = MAX_INT // 2
    text = HEAD + (
        f'var v = 0\nrule r "R" {{ on setup {{ set v = {half // 10**6} * 1000000 + {half % 10**6}'
        f" + {half // 10**6} * 1000000 + {half % 10**6} + 1\n pay v from bank to players[0] }} }}\n"
    )
    game = _play(text)
    assert game.gv[0] == MAX_INT and game.cash(0) == MAX_INT


# -------------------------------------------------------------- item 9
def _big_board(spaces: int, rest: str) -> str:
    return (
        'edition "x" { players 2 to 4 turn limit 3 }\naccount bank "Bank" unlimited\n'
        'kind start "Start" { }\ngroup all_of_it\nboard {\n'
        + "".join(f'    space s{i} "S" : start in all_of_it\n' for i in range(spaces))
        + "}\n"
        + rest
    )


def test_nested_loops_over_a_large_board_stop_at_the_work_budget():
    """Three nested `for` over 3,000 spaces: 27 billion steps, which used to run for days."""
    text = _big_board(
        3000,
        'var n = 0\nrule r "R" { on turn {\n'
        " for a in spaces { for b in spaces { for c in spaces { set n += 1 } } } } }\n",
    )
    started = time.perf_counter()
    with pytest.raises(ld.RuleRuntimeError) as info:
        _play(text)
    assert time.perf_counter() - started < 60
    rendered = info.value.render()
    assert f"more than {MAX_WORK:,} items" in rendered and "for c in spaces" in rendered


def test_aggregates_count_against_the_work_budget_when_constants_are_folded():
    text = _big_board(2000, "const n = sum(a in all_of_it: count(b in all_of_it: b == a))\n")
    errors = _errors(text)
    assert len(errors) == 1 and f"more than {MAX_WORK:,} items" in errors[0]


def test_a_file_beyond_the_input_limit_is_refused_before_any_work():
    text = HEAD + "# " + "x" * MAX_INPUT + "\n"
    started = time.perf_counter()
    with pytest.raises(ld.LandlordError) as info:
        ld.load_text(text, "huge.lg")
    assert time.perf_counter() - started < 5
    assert f"more than the {MAX_INPUT:,} a .lg file may have" in info.value.render()


# ------------------------------------------------------------- item 10
def test_a_space_var_named_like_a_kind_field_is_rejected():
    """It used to hide the field on every space (`space var price = 0` made every 1933 lot free)."""
    assert _errors(HEAD + "space var price = 0\n") == [
        "9:1: space variable 'price' has the name of a field of kind 'lot'"
    ]


def test_a_1933_variant_hiding_the_price_field_is_rejected_in_the_variant(tmp_path):
    variant = tmp_path / "free-lots.lg"
    variant.write_text('edition "free-lots" {\n    extends "monopoly-1933-atlantic-city"\n}\nspace var price = 0\n')
    with pytest.raises(ld.LandlordError) as info:
        ld.load_edition(variant)
    assert info.value.render().startswith(f"{variant}:4:1: error: space variable 'price'")


@pytest.mark.parametrize(
    "decl, message",
    [
        ("space var owner = 0\n", "'owner' is a built-in field of every space"),
        ("player var cash = 0\n", "'cash' is a built-in field of every player"),
    ],
)
def test_a_variable_named_like_a_built_in_field_is_rejected(decl, message):
    assert _errors(HEAD + decl) == [f"9:1: {message}"]


# ------------------------------------------------------------- item 11
def test_eliminating_during_the_setup_ends_no_turn_and_every_setup_handler_runs():
    """Before, eliminating the first player ended the whole setup: later handlers were skipped."""
    game = _play(
        HEAD + 'var marks = 0\nrule a "A" { on setup { eliminate players[0]\n set marks += 1 } }\n'
        'rule b "B" { on setup { set marks += 10 } }\n',
        players=3,
    )
    assert game.gv == [11] and game.seats == [1, 2]
    assert [e[2] for e in game.log if e[0] == "turn"] == [1, 2, 1]  # the first turn goes to the next player


def test_eliminating_every_player_during_the_setup_ends_the_game_before_the_first_turn():
    """Before, `for p in players { eliminate p }` in the setup removed only the first player."""
    game = _play(HEAD + 'rule a "A" { on setup { for p in players { eliminate p } } }\n', players=3)
    assert game.seats == [] and game.turn == 0 and game.end_reason == "every player has left the game"


# ------------------------------------------------------------- item 12
@pytest.mark.parametrize(
    "rest, expected",
    [
        ('rule r "R" { on turn { pay -100 from bank to player } }\n', "9:28: an amount paid cannot be negative (-100)"),
        ('rule r "R" { on turn { move forward -2 } }\n', "9:37: the number of steps cannot be negative (-2)"),
        (
            'rule r "R" { on turn { auction elm start -5 to bank } }\n',
            "9:42: the opening price cannot be negative (-5)",
        ),
        ('deck d "D" returned { card c "C" x 0 { } }\n', "9:23: card 'c' must have 1 to 1000 copies"),
        ('option o "O" = 99999999999999999\n', "9:16: this number is too large"),
        ("const true = 5\n", "9:1: 'true' is a built-in name and cannot be declared"),
        ("group none\n", "9:1: 'none' is a built-in name and cannot be declared"),
        ("function sum(a: int) = a\n", "9:1: 'sum' is a built-in function"),
        (
            'rule r "R" { on setup { let false = 1 } }\n',
            "9:25: the local name 'false' would hide a built-in name of the same name",
        ),
    ],
)
def test_values_that_make_no_sense_are_located_check_errors(rest, expected):
    assert expected in _errors(HEAD + rest)


def test_a_space_named_none_is_rejected():
    text = HEAD.replace('    space elm "Elm" : lot { price = 60 }\n', '    space none "Nowhere" : start\n')
    assert _errors(text) == ["7:5: 'none' is a built-in name and cannot be declared"]


def test_a_board_field_paid_as_it_stands_cannot_be_negative():
    text = HEAD.replace("price = 60", "price = -60") + (
        'rule r "R" { on land lot { pay here.price from player to bank } }\n'
    )
    assert _errors(text)[0] == "7:37: field 'price' of 'elm' is negative (-60), but it is paid as an amount"


@pytest.mark.parametrize(
    "decls, expected",
    [
        ("const a = b + 1\nconst b = a\n", "constant 'b' is worked out from itself"),
        ("table t { 1: t[1] }\nconst a = t[1]\n", "table 't' is worked out from itself"),
    ],
)
def test_a_fixed_value_worked_out_from_itself_is_a_located_check_error(decls, expected):
    """Used to recurse until Python gave up (reported as a file nested too deeply) once compiled."""
    assert expected in _errors(HEAD + decls + PAY_A)[0]


def test_a_board_field_worked_out_from_itself_is_a_located_check_error():
    text = HEAD.replace("price = 60", "price = elm.price + 1") + PAY_ELM
    assert _errors(text) == ["7:37: field 'price' is worked out from itself"]


def test_a_variant_making_a_paid_constant_negative_is_warned_of_at_its_line(tmp_path):
    """1906, Rule 6 (the fine to leave jail) with a variant making it negative: the fine is paid as it stands
    (`pay jail_fine ...`), so `check` warns at the variant's line, not only the first fine's failure. A warning,
    not an error: a file that checked still checks (a game fails only if it reaches the payment)."""
    variant = tmp_path / "negative-fine.lg"
    variant.write_text('edition "negative-fine" {\n    extends "landlords-game-1906"\n}\nconst jail_fine = -50\n')
    first = next(w for w in ld.load_edition(variant).warnings if "negative" in w.message)
    assert first.message == "constant 'jail_fine' is negative (-50), but it is used as an amount paid"
    assert first.severity == "warning"
    assert (first.span.file, first.span.line, first.line_text) == (str(variant), 4, "const jail_fine = -50")


def test_a_run_time_error_names_the_variant_whose_declaration_gave_the_value(tmp_path):
    """1906, Rule 3 (wages) with a variant making them negative: they start a variable the rules change
    (`wages_now`), which the checker cannot follow, so the game fails; the error is at the edition's `pay`,
    and a note points at the variant's line that caused it."""
    variant = tmp_path / "negative-wages.lg"
    variant.write_text('edition "negative-wages" {\n    extends "landlords-game-1906"\n}\nconst wages = -50\n')
    rules = ld.load_edition(variant)
    with pytest.raises(ld.RuleRuntimeError) as info:
        for seed in range(50):
            ld.new_game(rules, players=4, seed=seed).play()
    first, *notes = info.value.diagnostics
    assert "negative amount" in first.message and first.span.file.endswith("landlords-game-1906.lg")
    assert [(n.severity, n.span.file, n.span.line, n.line_text) for n in notes] == [
        ("note", str(variant), 4, "const wages = -50")
    ]


def test_an_expression_nested_past_pythons_own_limit_is_a_check_error():
    """250 additions in a row: the generated code nests 250 parentheses, past Python's limit; `check`
    passed and `play` died with an internal SyntaxError."""
    total = " + ".join(["turn_number"] * 250)
    errors = ld.check(HEAD + f'var v = 0\nrule r "R" {{ on turn {{ set v = {total} }} }}\n', "t.lg")
    assert [d.message for d in errors] == [
        "x: the file nests too deeply for landlord-dsl (an expression or block hundreds of levels deep)"
    ]


def test_every_stage_reports_nesting_too_deep_for_python_with_the_one_located_error(monkeypatch):
    """Parsing, checking and formatting a file nested past Python's recursion give the same error, at the
    file's longest line with the hint (the formatter said only "FILE: ..." without either)."""
    from landlord_dsl.checking import loader
    from landlord_dsl.language import formatter

    text = HEAD + "const deep = " + " + ".join(["1"] * 80) + "\n"  # the longest line, the last
    longest = len(text.split("\n")) - 1

    def overflow(*args, **kwargs):
        raise RecursionError

    def raised(run) -> tuple:
        with pytest.raises(ld.LandlordError) as info:
            run()
        (d,) = info.value.diagnostics
        return d.message, d.hint, d.span.file, d.span.line

    monkeypatch.setattr(formatter._Printer, "module", overflow)
    from_formatter = raised(lambda: ld.format_source(text, "deep.lg"))
    monkeypatch.setattr(loader, "check_declarations", overflow)
    from_checker = raised(lambda: ld.load_text(text, "deep.lg"))
    assert (
        from_formatter
        == from_checker
        == (
            "the file nests too deeply for landlord-dsl (an expression or block hundreds of levels deep)",
            "split long expressions with `let` or functions",
            "deep.lg",
            longest,
        )
    )


def _nested_ifs(depth: int) -> str:
    opening = "".join("    " * (level + 2) + "if true {\n" for level in range(depth))
    closing = "".join("    " * (level + 2) + "}\n" for level in reversed(range(depth)))
    innermost = "    " * (depth + 2) + 'say "x"\n'
    return HEAD + 'rule r "R" {\n    on turn {\n' + opening + innermost + closing + "    }\n}\n"


NESTINGS = {
    "blocks": _nested_ifs,
    "lists": lambda depth: HEAD + f"const deep = {'[' * depth}1{']' * depth}\n",
    "sums": lambda depth: HEAD + "const deep = " + " + ".join(["1"] * depth) + "\n",
    "negations": lambda depth: HEAD + "const deep = " + "- " * depth + "1\n",
}


@pytest.mark.parametrize("nesting", list(NESTINGS))
def test_fmt_formats_every_nesting_depth_check_accepts(nesting):
    """Issue 35, item 14: `fmt` refused some depths `check` accepts (blocks nested 247 to 327 deep, sums
    of 332 to 493 terms): the formatter recursed more per level than the parser and checker."""
    make = NESTINGS[nesting]

    def checks(depth: int) -> bool:
        return not [d for d in ld.check(make(depth), "deep.lg") if d.severity == "error"]

    low, high = 1, 1500  # the deepest depth check accepts, by bisection (it accepts 1 and refuses 1500)
    assert checks(low) and not checks(high)
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if checks(middle) else (low, middle)
    text = make(low)
    assert ld.check(ld.format_source(text, "deep.lg"), "deep.lg") == ld.check(text, "deep.lg")
