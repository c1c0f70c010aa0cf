"""The counts of groups' owners that a game keeps (Program.counted_groups, Cards.count_groups; issue 31 §2).

Where the compiler can fix a group (a named group, or `s.color` where every
possible `s` has one), `count_owned`, `owns_all`, `len(owners(...))` and
`all(x in G: x.owner != none)` read counts the game keeps up to date as titles
change hands, instead of fetching the group's owners; and an option's loop over
a player's titles whose guard holds only where he owns the title's group whole
(`owns_all(player, s.color)` among its tests) goes through the titles of such
groups, which the game keeps too (Program.complete_fields, `gfull`), as are the
titles on which an offer's hint `if C then X else Y` holds where C reads only
those counts (Program.kept_tests, `gkept`; 1933's trading offer). These tests
compare what is kept with what is worked out afresh after every event, on every
shipped file and on generated rule files, through forks, saves and pickles, and
compare the games with those of the plain translation, which keeps nothing.
"""

from __future__ import annotations

import pickle
import re

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import landlord_dsl as ld
from landlord_dsl.agents import HeuristicAgent, RandomAgent
from landlord_dsl.compiling.compiler import compile_ruleset
from landlord_dsl.core.resources import editions_dir
from native_paths import skip_native_variant
from sweep_params import variants_slow

FILES = sorted(editions_dir().rglob("*.lg"))


def _seats(seed: int, players: int, mixed: bool) -> list:
    """Return random seats, or (`mixed`) random seats and heuristic bots in turn (whose choices the generated
    code works out in its own loops)."""
    return [HeuristicAgent() if mixed and i % 2 else RandomAgent(seed + i) for i in range(players)]


def _checked_game(
    program: ld.Program, seed: int, players: int = 4, random_seats: bool = False, mixed: bool = False
) -> tuple[ld.Game, list[str]]:
    """Return a game of `program` whose kept counts are compared with fresh ones at every event it logs, and
    the list of what was found wrong (empty while the counts are right)."""
    agents = _seats(seed, players, mixed) if random_seats else None
    game = ld.new_game(program, players=players, seed=seed, agents=agents)
    wrong: list[str] = []

    def check(event: tuple) -> None:
        if not wrong:
            wrong.extend(f"{event}: {problem}" for problem in game.counted_group_problems())

    game.listen(check)
    return game, wrong


@pytest.mark.parametrize("path", variants_slow(FILES, name=lambda p: p.stem), ids=[p.stem for p in FILES])
def test_every_shipped_file_keeps_its_groups_counted_after_every_event(path, native, request):
    """Every event of seeded games of every shipped file (bots and random seats), in pure Python and
    natively: the kept counts are the owners counted afresh."""
    skip_native_variant(request, native, path.stem)
    program = ld.compile_rules(ld.load_edition(path), native=native)
    for seed, random_seats in ((0, False), (1, True), (2, False)):
        game, wrong = _checked_game(program, seed, random_seats=random_seats)
        game.play()
        assert wrong == [], (path.stem, seed)
        assert game.counted_group_problems() == []


def test_the_1933_edition_counts_its_colour_groups_railroads_and_utilities():
    """monopoly-1933's land monopolies, building and trading hints read the colour groups' counts by space
    (`s.color`), its railroad and utility rents the counts of those two groups (so the tests above test
    something)."""
    program = ld.compile_rules(ld.load_edition("monopoly-1933-atlantic-city"))
    assert len(program.counted_groups) == 10 and len(program.counted_fields) == 1
    # (read from the game, or from the local a function reads the list into: pyast_pass.lists_read_once)
    assert re.search(r"(?:g\.gcount_at\[0\]|_h_gcount_at0)\[", program.python_source)
    assert re.search(r"(?:g\.gcount\[8\]|_h_gcount8)\[", program.python_source)
    game = ld.new_game(program, players=4, seed=3)
    game.play()
    for k, spaces in enumerate(program.counted_groups):
        owners = [game.owner[s] for s in spaces]
        assert game.gcount[k] == [owners.count(seat) for seat in range(4)] + [
            len(set(owners) - {None}),
            owners.count(None),
        ]


def test_the_1933_building_offer_goes_through_the_titles_of_complete_colour_groups():
    """monopoly-1933's building option (`can_build(player, s)`, which asks `owns_all(p, s.color)`) loops over the
    titles of the colour groups the player owns whole, which the game keeps; a game that builds has them
    right (seed 3 builds houses)."""
    program = ld.compile_rules(ld.load_edition("monopoly-1933-atlantic-city"))
    assert program.complete_fields == (0,)
    assert re.search(r"for v0 in (?:g\.gfull\[0\]|_h_gfull0)\[_player", program.python_source)
    # and its guard does not ask again whether the player owns the title's colour group whole
    lines = program.python_source.splitlines()
    guards = [lines[i + 1] for i, line in enumerate(lines) if re.search(r"for v0 in (?:g\.gfull|_h_gfull)", line)]
    assert guards and not any("[v0][_player" in guard for guard in guards)
    game, wrong = _checked_game(program, 3)
    game.play()
    assert wrong == [] and any(game.sv[0])
    groups, column = program.counted_groups, program.counted_fields[0]
    for seat in range(4):
        grouped = [s for s in game.titles[seat] if column[s] is not None]
        assert game.gfull[0][seat] == [s for s in grouped if {game.owner[o] for o in groups[column[s]]} == {seat}]
    assert any(game.gfull[0])


def test_the_1933_trading_offer_goes_through_the_lots_a_rival_wants():
    """monopoly-1933's trading offer (`value if wanted_by_a_rival(player, s) then ... else -1`, the last option its
    folded bot tries) looks for a sale worth making among the titles the game keeps for that test alone, and its
    raising-cash offer's hint asks whether the title is one of them; after every
    event of seeded games they are the seat's lots of a colour group it owns one of and one other player the rest
    of, worked out from the owners."""
    program = ld.compile_rules(ld.load_edition("monopoly-1933-atlantic-city"))
    assert len(program.kept_tests) == 1 and program.kept_tests[0][0] == 0  # (by the colour groups' counts)
    assert re.search(r"for v0 in (?:g\.gkept\[0\]|_h_gkept0)\[_player", program.python_source)
    # and wherever the hint is worked out (its raising-cash offer), C is whether the title is kept
    assert re.search(
        r" \+ 200\) if \(v0 in (?:g\.gkept\[0\]|_h_gkept0)\[_player\d+\]\) else -1\)", program.python_source
    )
    groups, column = program.counted_groups, program.counted_fields[0]
    kept = []  # (events after which some seat keeps a lot: the test above tests something)
    for seed in range(3):
        game = ld.new_game(program, players=4, seed=seed)
        wrong: list[str] = []

        def check(event: tuple, game: ld.Game = game, wrong: list[str] = wrong) -> None:
            if any(game.gkept[0]):
                kept.append(event)
            for seat in range(4):
                fresh = []
                for s in game.titles[seat]:
                    owners = [game.owner[o] for o in groups[column[s]]] if column[s] is not None else []
                    if owners.count(seat) == 1 and None not in owners and len(set(owners)) == 2:
                        fresh.append(s)
                if game.gkept[0][seat] != fresh and not wrong:
                    wrong.append(f"{event}: seat {seat} keeps {game.gkept[0][seat]}, not {fresh}")

        game.listen(check)
        game.play()
        assert wrong == [], seed
    assert kept


def test_forks_saves_and_pickled_states_count_their_own_groups():
    """A fork counts its own owners (playing it leaves the original's counts alone); a restored save and an
    unpickled State count theirs afresh."""
    program = ld.compile_rules(ld.load_edition("monopoly-1933-atlantic-city"))
    game = ld.new_game(program, players=4, seed=5)
    for _ in range(60):
        game.play_turn()
    before = [counts[:] for counts in game.gcount]
    fork = game.fork()
    assert fork.gcount == before and all(a is not b for a, b in zip(fork.gcount, game.gcount))
    fork.play()
    assert game.gcount == before and fork.counted_group_problems() == []
    later = ld.new_game(program, players=4, seed=99)
    later.restore(game.save())
    assert later.gcount == before and later.counted_group_problems() == []
    later.play()
    assert later.counted_group_problems() == []

    state = ld.new_state(program, 4, seed=11)
    while not state.is_terminal() and len(state.game.log) < 3000:
        state.apply(state.legal_actions()[-1])
    copy = pickle.loads(pickle.dumps(state))
    assert copy.game.gcount == state.game.gcount and copy.game.counted_group_problems() == []


def test_a_restore_that_is_refused_leaves_the_counts_as_they_were():
    """Restoring a save that breaks an invariant leaves the game as it was, its counts with it."""
    program = ld.compile_rules(ld.load_edition("monopoly-1933-atlantic-city"))
    game = ld.new_game(program, players=4, seed=5)
    for _ in range(40):
        game.play_turn()
    saved = game.save()
    for _ in range(40):
        game.play_turn()
    counts = game.gcount
    bad = attrs.evolve(saved, balances=[b + 1 for b in saved.balances])  # money from nowhere: refused
    with pytest.raises(ld.LandlordError):
        game.restore(bad)
    assert game.gcount is counts and game.counted_group_problems() == []


# ------------------------------------------------------------------ generated rule files


@st.composite
def ownership_files(draw) -> str:
    """Return the text of a small rule file: lots in colour groups (one to four lots each) and named groups
    that overlap them, whose rules buy, take over and give back titles and pay by every counted built-in."""
    lots = draw(st.integers(2, 8))
    colors = draw(st.lists(st.integers(0, 3), min_size=lots, max_size=lots))
    extra = draw(st.lists(st.booleans(), min_size=lots, max_size=lots))
    if not any(extra):
        extra[0] = True
    used = sorted(set(colors))
    groups = [f'group c{c} "Colour {c}"' for c in used] + ['group extra "Some lots of every colour"']
    board = ['    space go "Go" : start']
    for i, (c, more) in enumerate(zip(colors, extra)):
        member = f"c{c}, extra" if more else f"c{c}"
        board.append(f'    space l{i} "Lot {i}" : lot {{ price = {10 + i}, color = c{c} }} in {member}')
    board.append('    space depot "Depot" : station { price = 5 }')
    pays = draw(
        st.lists(
            st.sampled_from(
                [
                    "count_owned(here.owner, here.color)",
                    "(if owns_all(here.owner, here.color) then 3 else 1)",
                    "len(owners(here.color))",
                    "(if all(x in here.color: x.owner != none) then 2 else 1)",
                    "count_owned(here.owner, extra)",
                    "(if owns_all(here.owner, extra) then 4 else 0)",
                    "len(owners(extra))",
                    "(if any(x in extra: x.owner == none) then 1 else 0)",
                    "count(s in player.titles: s in lot and owns_all(player, s.color))",
                    "count(s in player.titles: s in lot and len(owners(s.color)) == 2)",
                ]
            ),
            min_size=1,
            max_size=4,
        )
    )
    improve = draw(st.sampled_from(sorted(IMPROVE_GUARDS)))
    want = draw(st.sampled_from(sorted(DROP_WANTS)))
    drop_when = draw(st.sampled_from(["when s.price > 14 ", ""]))
    return f"""edition "counted" {{ players 2 to 4 turn limit 60 }}
account bank "Bank" unlimited
kind start "Start" {{ }}
kind lot "Lot" titled {{ price: int color: group }}
kind station "Station" titled {{ price: int }}
{chr(10).join(groups)}
board {{
{chr(10).join(board)}
}}
deck deeds "Deeds" returned of titles {{ }}
rule cash "Cash" {{
    on setup {{
        for p in players {{
            pay 500 from bank to p
        }}
    }}
}}
rule moving "Move" {{
    on turn {{
        roll dice
        move forward dice.total
    }}
}}
rule buying "Buy, or pay by the group's owners" {{
    on land lot {{
        if here.owner == none {{
            choose "Buy {{here}}?" {{
                option buy "Buy" when player.cash >= here.price {{
                    pay here.price from player to bank
                    give here.title to player
                }}
                option refuse "No" {{ }}
            }}
        }} else if here.owner != player {{
            pay min(player.cash, {" + ".join(pays)}) from player to here.owner
        }}
    }}
}}
rule dealing "Take over or give back a title" {{
    on turn {{
        choose "Deal?" {{
            option take "Take over {{s}}" for s in lot when s.owner != none and s.owner != player {{
                give s.title to player
            }}
            option drop "Give back {{s}}" for s in player.titles {{
                return s.title to deeds
            }}
            option pass "No" {{ }}
        }}
    }}
}}
rule improving "Improve lots of a whole colour, or give one back" {{
    on turn {{
        offer "Improve?" {{
            option improve "Improve {{s}}" for s in player.titles when {improve} cost 1 value 3 {{
                pay 1 from player to bank
            }}
            option drop "Give back {{s}}" for s in player.titles {drop_when}value if {want} then 2 else -1 {{
                return s.title to deeds
            }}
        }}
    }}
}}
function can_improve(p: player, s: space) = s in lot and s.price >= 11 and owns_all(p, s.color)
score player.cash + 100 * count(s in player.titles: s in lot and owns_all(player, s.color))
"""


# Guards of the generated files' improving option, with whether its loop may go through the titles of the
# groups the player owns whole (what the tests before `owns_all` need of a space cannot fail; it is not
# negated or one side of an `or`; it is asked of the player whose titles are looped over)
IMPROVE_GUARDS = {
    "player.cash >= 1 and s in lot and owns_all(player, s.color)": True,
    "s in lot and s.price > 10 and owns_all(player, s.color) and player.cash >= s.price": True,
    "player.cash >= 5 and can_improve(player, s)": True,
    "s in lot and owns_all(player, s.color) and (owns_all(player, s.color) or s.price > 10) and player.cash >= 1": True,
    "s in lot and (owns_all(player, s.color) or s.price > 10) and player.cash >= 1": False,
    "s in lot and not owns_all(player, s.color) and player.cash >= 1": False,
    "s in lot and 100 / (player.cash + 1) < 200 and owns_all(player, s.color) and player.cash >= 1": False,
    "s in lot and s.owner != none and owns_all(s.owner, s.color) and player.cash >= 1": False,
    "player.cash >= 1 and s in lot and count_owned(player, s.color) == len(s.color)": False,
}


# Conditions of the generated files' dropping hint (`value if C then 2 else -1`, the last option an offer tries),
# with whether the game keeps, for each seat, its titles on which C holds (C reads nothing of the game but the
# counts of the title's group under one field): then the hint tests whether the title is kept, and, where the
# option has no guard, the folded bot's search for a gain goes through those titles alone
DROP_WANTS = {
    "s in lot and count_owned(player, s.color) == 1 and len(owners(s.color)) == 2": True,
    "s in lot and count_owned(player, s.color) == 1 and len(owners(s.color)) == 2"
    " and all(x in s.color: x.owner != none)": True,
    "s in lot and owns_all(player, s.color)": True,
    "s in lot and not owns_all(player, s.color) and any(x in s.color: x.owner == none)": True,
    "s in lot and count_owned(player, s.color) + s.price > 13": True,
    "s in lot and s.price > 10 and len(owners(s.color)) >= 2": True,
    "s in lot and (s.price > 10 or count_owned(player, s.color) >= 2)": True,
    "s in lot and can_improve(player, s)": True,
    "s in lot and count_owned(player, extra) == 1": False,
    "s in lot and player.cash > 200 and owns_all(player, s.color)": False,
    "s in lot and count_owned(player, s.color) == len(owners(extra))": False,
}


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(ownership_files(), st.integers(0, 1000), st.integers(2, 4))
def test_generated_rule_files_keep_their_groups_counted(tmp_path_factory, text, seed, players):
    """Random boards of colour groups and overlapping named groups, titles bought, taken over and given back by
    random seats: after every event the kept counts are the owners counted afresh, and the game is the one the
    plain translation (which counts nothing) plays."""
    path = tmp_path_factory.mktemp("counted") / "counted.lg"
    path.write_text(text)
    rules = ld.load_edition(path)
    fast, plain = compile_ruleset(rules), compile_ruleset(rules, optimize=False)
    assert fast.counted_groups and plain.counted_groups == () and plain.complete_fields == ()
    guard = next(guard for guard in IMPROVE_GUARDS if f"when {guard} cost" in text)
    assert (
        bool(fast.complete_fields)
        == IMPROVE_GUARDS[guard]
        == bool(re.search(r"in (?:g\.gfull\[|_h_gfull\d)", fast.python_source))
    )
    want = next(want for want in DROP_WANTS if f"value if {want} then 2" in text)
    kept = bool(re.search(r"in (?:g\.gkept\[|_h_gkept\d)", fast.python_source))
    assert bool(fast.kept_tests) == kept == DROP_WANTS[want] and plain.kept_tests == ()
    for mixed in (False, True):
        game, wrong = _checked_game(fast, seed, players, random_seats=True, mixed=mixed)
        game.play()
        assert wrong == []
        other = ld.new_game(plain, players=players, seed=seed, agents=_seats(seed, players, mixed))
        other.play()
        assert game.log == other.log and game.decisions == other.decisions
