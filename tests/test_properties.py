"""Property tests over every edition and variant (found automatically).

Four levels: static consistency of each rule file; game invariants in a
stateful machine (random seeds, random legal decisions, save/restore at any
turn); mutated variants that must either fail cleanly or keep the
invariants; and metamorphic properties of the engine. Profiles: see
conftest.py (LANDLORD_HYPOTHESIS_PROFILE=thorough for long runs).
"""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path

import attrs
import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import landlord_dsl as ld
from landlord_dsl.agents import HeuristicAgent, RandomAgent
from landlord_dsl.core.resources import editions_dir
from landlord_dsl.engine.game import Game
from landlord_dsl.engine.saves import state_from_json, state_to_json
from landlord_dsl.language import ast
from landlord_dsl.language.formatter import format_module
from landlord_dsl.language.parser import parse
from sweep_params import variants_slow

THOROUGH = os.environ.get("LANDLORD_HYPOTHESIS_PROFILE") == "thorough"
FILES = sorted(editions_dir().rglob("*.lg"))
IDS = [p.stem for p in FILES]
BASES = [p for p in FILES if parse(p.read_text(), str(p)).header.extends is None]


@cache
def ruleset(path: Path) -> ld.RuleSet:
    return ld.load_edition(path)


@cache
def program(path: Path, options: tuple) -> ld.Program:
    return ld.compile_rules(ruleset(path), dict(options))


def option_strategy(path: Path):
    """Random values for every option of a rule set."""
    fields = {}
    for name, decl in ruleset(path).model.options.items():
        if isinstance(decl.default, bool):
            fields[name] = st.booleans()
        elif name in ruleset(path).model.choices or decl.choice is not None:
            fields[name] = st.sampled_from(ruleset(path).model.choices[decl.choice or name])
        elif isinstance(decl.default, int):
            fields[name] = st.integers(1, max(1, decl.default * 2))
        else:
            fields[name] = st.just(decl.default)
    return st.fixed_dictionaries(fields).map(lambda d: tuple(sorted(d.items())))


# ------------------------------------------------------------ 1. discovery


def test_every_shipped_file_is_discovered():
    """Every .lg under editions/ joins the suite without being registered anywhere."""
    assert FILES, "no editions found"
    assert {p.stem for p in FILES} == set(ld.shipped_editions())


# ----------------------------------------------------- 2. static consistency


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_rule_file_is_consistent(path: Path):
    """Checks, cites every declaration, and its board is reachable and well formed."""
    rs = ruleset(path)
    m = rs.model
    uncited = [f"rule {r.name}" for r in m.rules if r.provenance is None]
    uncited += [f"space {s.name}" for s in m.spaces if s.provenance is None]
    uncited += [f"const {c}" for c, d in m.consts.items() if d.provenance is None]
    uncited += [f"table {t}" for t, d in m.tables.items() if d.provenance is None]
    uncited += [f"option {o}" for o, d in m.options.items() if d.provenance is None]
    uncited += [f"account {a.name}" for a in m.accounts if a.provenance is None]
    uncited += [f"deck {d}" for d, decl in m.decks.items() if decl.provenance is None]
    assert not uncited, f"declarations without provenance: {uncited}"
    assert m.header.provenance is not None
    # every space can be reached from the start by forward throws of the dice
    size, dice = len(m.spaces), m.header.dice or 2
    reached, frontier = {0}, [0]
    while frontier:
        here = frontier.pop()
        for throw in range(dice, 6 * dice + 1):
            there = (here + throw) % size
            if there not in reached:
                reached.add(there)
                frontier.append(there)
    assert reached == set(range(size)), f"unreachable: {sorted(set(range(size)) - reached)}"
    # prices, rents and other numeric fields are never negative
    for s in m.spaces:
        for name, value in s.fields:
            if isinstance(value, ast.IntLit):
                assert value.value >= 0, f"{s.name}.{name} = {value.value}"
    # every rule does something or documents a rule with no effect (it has provenance either way)
    assert all(r.provenance.source for r in m.rules)
    # a group lists each member once, in board order, however membership was declared
    for name, members in m.groups.items():
        assert members == sorted(set(members)), f"group {name}: {members}"


BREAKAGES = [
    ("a payment to an undefined account", r"to treasury\b", "to treasurey", "unknown name 'treasurey'"),
    (
        "a card that moves to a missing space",
        r"move to mother_earth",
        "move to mother_earht",
        "unknown name 'mother_earht'",
    ),
    ("a rising table that falls", r"3: 20,", "3: 2,", "is `rising` but falls from 10 at 2 to 2 at 3"),
    ("a deck whose size is wrong", r"returned size 8", "returned size 9", "declares size 9 but has 8 cards"),
]


@pytest.mark.parametrize("what,pattern,replacement,message", BREAKAGES, ids=[b[0] for b in BREAKAGES])
def test_deliberately_broken_edition_fails_clearly(what, pattern, replacement, message):
    path = editions_dir() / "landlords-game-1906.lg"
    text, count = re.subn(pattern, replacement, path.read_text(), count=1)
    assert count == 1, f"the pattern for {what} no longer matches the edition"
    diagnostics = ld.check(text, "broken.lg")
    rendered = "\n".join(d.render() for d in diagnostics)
    assert message in rendered and "broken.lg:" in rendered and "^" in rendered


def test_rent_table_with_a_hole_fails_at_run_time_with_its_location():
    """A table missing an entry the rules look up is reported where it is used, with the known keys."""
    path = editions_dir() / "landlords-game-1906.lg"
    text = path.read_text().replace("    3: 20,\n", "", 1)
    assert "3: 20" not in text.split("table railroad_fare")[1].split("}")[0]
    rules = ld.load_text(text, "holed.lg")
    with pytest.raises(ld.RuleRuntimeError) as info:
        for seed in range(200):
            ld.new_game(rules, players=4, seed=seed).play()
    rendered = info.value.render()
    assert "the table has no entry 3" in rendered and "holed.lg:" in rendered and "known keys: 1, 2, 4" in rendered


# -------------------------------------------------------- 3. game invariants


class GameMachine(RuleBasedStateMachine):
    """Random rule set, options, seed and legal decisions; invariants after every step."""

    @initialize(data=st.data())
    def start(self, data):
        self.path = data.draw(st.sampled_from(FILES), label="edition")
        lo, hi = ruleset(self.path).model.header.players or (2, 4)
        players = data.draw(st.integers(lo, min(hi, 5)), label="players")
        options = data.draw(option_strategy(self.path), label="options")
        seed = data.draw(st.integers(0, 2**16), label="seed")
        note(
            f"reproduce: ld.new_game(ld.compile_rules(ld.load_edition({self.path.stem!r}), {dict(options)!r}), "
            f"agents=[RandomAgent(seed * 31 + i) ...], seed={seed})"
        )
        self.program = program(self.path, options)
        self.game = Game(self.program, [RandomAgent(seed * 31 + i) for i in range(players)], seed=seed)
        self.game.setup()

    @rule()
    def play_a_turn(self):
        turn = self.game.turn
        self.game.play_turn()
        assert self.game.over or self.game.turn == turn + 1

    @rule(turns=st.integers(1, 4))
    @precondition(lambda self: not self.game.over)
    def save_restore_and_continue(self, turns):
        """Saving and loading at a turn boundary, then playing on, gives the same game."""
        game = self.game
        game.agents = [HeuristicAgent() for _ in game.agents]
        clone = Game(self.program, [HeuristicAgent() for _ in game.agents], seed=0, names=game.names)
        clone.restore(state_from_json(state_to_json(game.save())))
        mark = len(game.log)
        for _ in range(turns):
            game.play_turn()
            clone.play_turn()
        assert clone.log == game.log[mark:]
        assert clone.invariant_problems() == []

    @invariant()
    def invariants_hold(self):
        if hasattr(self, "game"):
            assert self.game.invariant_problems() == []
            assert 0 <= self.game.turn <= self.game.turn_limit


GameMachine.TestCase.settings = settings(
    max_examples=60 if THOROUGH else 12,
    stateful_step_count=60 if THOROUGH else 25,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
TestGameInvariants = GameMachine.TestCase


@pytest.mark.parametrize("path", variants_slow(FILES, lambda p: p.stem), ids=IDS)
def test_whole_games_end_conserve_money_and_replay(path: Path):
    """Seeded games with random legal decisions end within the turn limit, keep the invariants, and
    the same seed and decisions give the same event log."""
    prog = program(path, ())
    for seed in range(6 if not THOROUGH else 60):
        players = prog.players[0] + seed % (prog.players[1] - prog.players[0] + 1)
        game = Game(prog, [RandomAgent(seed * 7 + i) for i in range(players)], seed=seed)
        result = game.play()
        assert game.invariant_problems() == []
        assert result.turns <= game.turn_limit
        replay = Game(prog, ld.agents.SharedScript(game.decisions).seats(players), seed=seed)
        replay.play()
        assert replay.log_lines() == game.log_lines()


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_bots_never_run_an_offer_out_of_rounds(path: Path):
    """With the heuristic bots, every `offer` ends by "done" or by running out of options.

    An offer closed by the engine after 256 answers means a rule's hints make
    the bots go round in circles (say, borrowing and repaying a note for ever).
    """
    prog = program(path, ())
    for seed in range(8 if not THOROUGH else 80):
        game = Game(prog, [HeuristicAgent() for _ in range(min(4, prog.players[1]))], seed=seed, turn_limit=600)
        game.play()
        closed = [e for e in game.log if e[0] == "offer_closed"]
        assert not closed, f"seed {seed}: {closed[:3]}"


# ------------------------------------------------------ 4. mutated variants


def _render(header: ast.Header, decls) -> str:
    return format_module(ast.Module(header, tuple(decls)))


@st.composite
def mutants(draw):
    path = draw(st.sampled_from(BASES))
    module = parse(path.read_text(), str(path))
    decls = list(module.declarations)
    kind = draw(st.sampled_from(["scale_const", "drop_rule", "duplicate_rule", "swap_spaces", "zero_field"]))
    if kind == "scale_const":
        consts = [i for i, d in enumerate(decls) if isinstance(d, ast.ConstDecl) and isinstance(d.value, ast.IntLit)]
        i = draw(st.sampled_from(consts))
        factor = draw(st.sampled_from([0, 2, 3, 10]))
        decls[i] = attrs.evolve(decls[i], value=ast.IntLit(decls[i].value.value * factor))
    elif kind in ("drop_rule", "duplicate_rule"):
        rules = [i for i, d in enumerate(decls) if isinstance(d, ast.RuleDecl)]
        i = draw(st.sampled_from(rules))
        if kind == "drop_rule":
            del decls[i]
        else:
            decls.insert(i, decls[i])
    elif kind == "swap_spaces":
        b = next(i for i, d in enumerate(decls) if isinstance(d, ast.BoardDecl))
        spaces = list(decls[b].spaces)
        i = draw(st.integers(1, len(spaces) - 1))
        j = draw(st.integers(1, len(spaces) - 1))
        spaces[i], spaces[j] = spaces[j], spaces[i]
        decls[b] = attrs.evolve(decls[b], spaces=tuple(spaces))
    else:
        b = next(i for i, d in enumerate(decls) if isinstance(d, ast.BoardDecl))
        spaces = list(decls[b].spaces)
        candidates = [k for k, s in enumerate(spaces) if s.fields]
        k = draw(st.sampled_from(candidates))
        fields = tuple((n, ast.IntLit(0) if isinstance(v, ast.IntLit) else v) for n, v in spaces[k].fields)
        spaces[k] = attrs.evolve(spaces[k], fields=fields)
        decls[b] = attrs.evolve(decls[b], spaces=tuple(spaces))
    return path.stem, kind, _render(module.header, decls)


@pytest.mark.slow
@settings(max_examples=200 if THOROUGH else 20, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutants(), st.integers(0, 1000))
def test_mutated_variants_check_or_fail_cleanly(mutant, seed):
    """A mutated edition either fails with a LandlordError or plays games that keep the invariants."""
    name, kind, text = mutant
    note(f"mutation {kind} of {name}:\n{text}")
    try:
        rules = ld.load_text(text, f"{name}-mutant.lg")
    except ld.LandlordError as err:
        assert err.diagnostics and all(d.span is None or d.span.line >= 1 for d in err.diagnostics)
        return
    prog = ld.compile_rules(rules)
    game = Game(prog, [RandomAgent(seed + i) for i in range(prog.players[0])], seed=seed, turn_limit=150)
    try:
        game.play()
    except ld.LandlordError:
        return  # a clean, located failure of rules that no longer make sense
    assert game.invariant_problems() == []


# ------------------------------------------------------------ 5. metamorphic


def _walk_only(path: Path) -> str:
    """The edition's board with one rule: throw and move forward. No redirecting space or card."""
    module = parse(path.read_text(), str(path))
    keep = [
        d
        for d in module.declarations
        if isinstance(d, (ast.KindDecl, ast.GroupDecl, ast.BoardDecl, ast.ConstDecl, ast.TableDecl))
    ]
    header = ast.Header("walk", players=(2, 4), dice=module.header.dice)
    walk = parse('edition "x" { }\nrule walk source "none: a test" { on turn { roll dice move forward dice.total } }\n')
    return _render(header, keep + list(walk.declarations))


@pytest.mark.parametrize("path", BASES, ids=[p.stem for p in BASES])
def test_without_redirections_landing_is_uniform(path: Path):
    """With no space or card that sends a piece elsewhere, long-run landing frequencies are uniform."""
    prog = ld.compile_rules(ld.load_text(_walk_only(path), "walk.lg"))
    game = Game(prog, [HeuristicAgent(), HeuristicAgent()], seed=3, turn_limit=20_000 if not THOROUGH else 200_000)
    game.play()
    counts = [0] * len(prog.space_names)
    for event in game.log:
        if event[0] == "move":
            counts[event[4]] += 1
    expected = sum(counts) / len(counts)
    assert max(abs(c - expected) / expected for c in counts) < 0.15


SCALED = """
edition "scaled" { players 2 to 3 source "none: a test" }
account bank unlimited source "none: a test"
account pot source "none: a test"
const wage = 7 source "none: a test"
const tax = 3 source "none: a test"
table bonus { 1: 2, 2: 5 } source "none: a test"
kind plain { }
kind lot titled { price: int rent: int }
player var laps = 0 source "none: a test"
board {
    space go "Go" : plain source "none: a test"
    space a "A" : lot { price = 6, rent = 2 } source "none: a test"
    space t "Tax" : plain source "none: a test"
    space b "B" : lot { price = 9, rent = 4 } source "none: a test"
    space c "C" : plain source "none: a test"
}
rule start source "none: a test" { on setup { for p in players { pay wage * 4 from bank to p } } }
rule walk source "none: a test" { on turn { roll dice move forward dice.total } }
rule wages source "none: a test" { on pass go { pay wage from bank to player set player.laps += 1 } }
rule taxes source "none: a test" { on land t { pay tax from player to pot } }
rule lots source "none: a test" {
    on land lot {
        if here.owner == none {
            choose "Buy?" {
                option buy when player.cash >= here.price {
                    pay here.price from player to bank give here.title to player
                }
                option pass { pay bonus[1] from player to pot }
            }
        } else if here.owner != player {
            pay here.rent from player to here.owner
        }
    }
}
end when any(p in players: p.laps >= 4) source "none: a test"
"""


def _scale(text: str, k: int) -> str:
    """Multiply every money literal of the SCALED fixture by k (all its numbers except the lap count)."""

    def times(match: re.Match) -> str:
        return str(int(match.group(0)) * k)

    body = re.sub(r"(?<=[=:*] )\d+|(?<=\{ \d: )\d+|(?<=, \d: )\d+", times, text)
    return (
        body.replace(f"laps >= {4 * k}", "laps >= 4")
        .replace(f"laps += {k}", "laps += 1")
        .replace(f"wage * {4 * k}", "wage * 4")
        .replace(f"players {2 * k} to {3 * k}", "players 2 to 3")
    )


@settings(max_examples=30 if THOROUGH else 8, deadline=None)
@given(st.integers(2, 9), st.integers(0, 10_000))
def test_scaling_every_amount_by_k_scales_every_payment_by_k(k, seed):
    base = ld.compile_rules(ld.load_text(SCALED, "scaled.lg"))
    scaled = ld.compile_rules(ld.load_text(_scale(SCALED, k), "scaled-k.lg"))
    games = []
    for prog in (base, scaled):
        game = Game(prog, [RandomAgent(seed), RandomAgent(seed + 1)], seed=seed, turn_limit=300)
        game.play()
        games.append([e[2] for e in game.log if e[0] == "pay"])
    assert games[0] and games[1] == [amount * k for amount in games[0]]


def _rename_spaces(text: str, names: list[str]) -> str:
    """Rename every space identifier outside strings and comments."""
    pattern = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|\b(' + "|".join(map(re.escape, names)) + r")\b")
    return pattern.sub(lambda m: f"renamed_{m.group(1)}" if m.group(1) else m.group(0), text)


@pytest.mark.parametrize("path", BASES, ids=[p.stem for p in BASES])
def test_renaming_spaces_changes_no_outcome(path: Path):
    rules = ruleset(path)
    renamed = ld.load_text(_rename_spaces(path.read_text(), [s.name for s in rules.model.spaces]), "renamed.lg")
    assert [s.name for s in renamed.model.spaces] == [f"renamed_{s.name}" for s in rules.model.spaces]
    a, b = ld.compile_rules(rules), ld.compile_rules(renamed)
    for seed in range(5):
        ga, gb = ld.new_game(a, players=4, seed=seed), ld.new_game(b, players=4, seed=seed)
        assert ga.play() == gb.play()
        assert ga.log_lines() == gb.log_lines()
