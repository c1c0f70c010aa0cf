"""The exact analysis's own machinery: solving the chain, and the continuation keys the memo compares.

The figures these parts produce are checked end to end in test_analysis.py;
here each part is checked on cases built to break it.
"""

from __future__ import annotations

import textwrap

import pytest

np = pytest.importorskip("numpy")

from landlord_dsl.compiling.stepped_pass import stepped_tree  # noqa: E402
from landlord_dsl.program.compiled import OPAQUE, UNSET  # noqa: E402
from landlord_dsl.studies.analysis import chain, explore  # noqa: E402
from landlord_dsl.studies.analysis.chain import closed_classes, stationary  # noqa: E402

# ------------------------------------------------------------ solving the chain


def _birth_death(n: int, up: float) -> list[dict[int, float]]:
    rows = []
    for i in range(n):
        row: dict[int, float] = {}
        row[max(i - 1, 0)] = row.get(max(i - 1, 0), 0.0) + (1 - up)
        row[min(i + 1, n - 1)] = row.get(min(i + 1, n - 1), 0.0) + up
        rows.append(row)
    return rows


def test_tiny_long_run_probabilities_keep_their_relative_precision():
    # pi(k+1) / pi(k) = up / (1 - up) exactly; the last state's share is about 1e-87, far below what a
    # linear solve can tell from zero (it leaves rounding noise of about 1e-17 there)
    up = 0.001
    pi = stationary(_birth_death(30, up))
    ratios = pi[1:] / pi[:-1]
    assert np.allclose(ratios, up / (1 - up), rtol=1e-9, atol=0)
    assert abs(pi.sum() - 1) < 1e-12


def test_states_the_chain_leaves_for_good_get_nothing():
    # 0 -> 1 for good; 1 and 2 swap, 2 sometimes stays
    rows = [{1: 1.0}, {2: 1.0}, {1: 0.5, 2: 0.5}]
    assert sorted(map(sorted, closed_classes(rows))) == [[1, 2]]
    pi = stationary(rows)
    assert pi[0] == 0.0
    assert np.allclose(pi[1:], [1 / 3, 2 / 3], rtol=1e-14, atol=0)


def test_small_chains_are_solved_without_blas(monkeypatch):
    # a BLAS solve starts threads that cost more than the whole reduction on a chain of a few hundred states
    def refuse(*args, **kwargs):
        raise AssertionError("numpy.linalg was called")

    monkeypatch.setattr(np.linalg, "solve", refuse)
    monkeypatch.setattr(np.linalg, "lstsq", refuse)
    pi = stationary(_birth_death(200, 0.4))
    assert abs(pi.sum() - 1) < 1e-12


def test_a_chain_with_two_closed_classes_still_gets_a_distribution(monkeypatch):
    rows = [{1: 0.5, 2: 0.5}, {1: 1.0}, {2: 1.0}]
    assert len(closed_classes(rows)) == 2
    pi = stationary(rows)
    assert abs(pi.sum() - 1) < 1e-12 and pi[0] == 0.0


def test_reduction_and_linear_solve_agree_on_a_large_random_chain(monkeypatch):
    rng = np.random.default_rng(7)
    rows = []
    for _ in range(120):
        targets = rng.choice(120, size=6, replace=False)
        weights = rng.random(6)
        rows.append({int(t): float(w / weights.sum()) for t, w in zip(targets, weights)})
    reduced = stationary(rows)
    monkeypatch.setattr(chain, "GTH_LIMIT", 0)
    solved = stationary(rows)
    assert np.allclose(reduced, solved, rtol=1e-9, atol=1e-15)


# ------------------------------------------- the continuation keys of the keyed compilation


class _Game:
    """Stands in for the game of the keyed stepped code: a throw is a request, and `at` keeps the
    continuation stack as it stood at each request."""

    chance_inside = False
    turn = 0

    def __init__(self):
        self.kstack, self.at = [], []

    def _keyed(self, call, depth, entry):
        self.kstack[depth:] = (entry,)
        return call

    def roll_s(self):
        self.at.append(list(self.kstack))
        yield "throw"

    def transfer_s(self, *args):
        yield from self.roll_s()


def _keys(source: str, name: str = "_f") -> list[list[tuple]]:
    """Return the continuation stack at each request of the keyed stepped compilation of `source`'s `name`
    (each of its throws answered)."""
    tree, _ = stepped_tree(textwrap.dedent(source), optimize=False, keyed=True)
    namespace = {"_KEY_UNSET": UNSET, "_KEY_OPAQUE": OPAQUE, "_SLOW": object()}
    exec(compile(tree, "<keyed>", "exec"), namespace)
    g = _Game()
    for _ in namespace[name](g):
        pass
    return g.at


def test_a_local_read_after_the_call_is_in_the_key_and_a_dead_one_is_not():
    (stack,) = _keys(
        """
        def _f(g):
            kept = 1
            dropped = 2
            g.roll()
            return kept + 1
        """
    )
    ((_site, *values),) = stack
    assert values == [1]  # kept, and not dropped


def test_a_local_assigned_before_it_is_read_again_is_not_in_the_key():
    first, second = _keys(
        """
        def _f(g):
            later = 1
            g.roll()
            later = 5
            g.roll()
            return later
        """
    )
    assert first[0][1:] == () and second[0][1:] == (5,)


def test_a_local_an_except_block_reads_stays_live_though_assigned_after_the_call():
    # an exception may come before the assignment: the handler then reads the value from before
    (stack,) = _keys(
        """
        def _f(g):
            seen = 1
            try:
                g.roll()
                seen = 2
            except ValueError:
                return seen
            return 0
        """
    )
    assert stack[0][1:] == (1,)


def test_a_local_read_after_a_loop_a_break_leaves_stays_live():
    # the break skips the assignment, so the value from before the call is read after the loop
    (stack,) = _keys(
        """
        def _f(g):
            x = 7
            for _ in (1,):
                g.roll()
                if g.turn == 0:
                    break
                x = 8
            return x
        """
    )
    assert 7 in stack[0][1:]


def test_a_local_unset_at_the_call_is_unset_in_the_key():
    (stack,) = _keys(
        """
        def _f(g):
            if g.turn:
                later = 1
            g.roll()
            return later
        """
    )
    assert stack[0][1:] == (UNSET,)


def test_in_a_loop_the_place_in_the_loop_is_in_the_key_even_over_equal_items():
    # the loop's iterator is out of sight: its sequence and a count stand for where it is
    first, second = _keys(
        """
        def _f(g):
            for unread in (7, 7):
                g.roll()
        """
    )
    assert first[0] != second[0]


def test_each_generated_frame_and_engine_call_has_its_entry_in_order():
    (stack,) = _keys(
        """
        def _inner(g, v0):
            g.roll()
            return v0

        def _f(g):
            x = 3
            y = _inner(g, 4)
            return x + y
        """
    )
    outer, inner = stack
    assert outer[1:] == (3, UNSET) and inner[1:] == (4,) and inner[0] != outer[0]  # (y is read after, unset)


def test_a_call_after_other_operands_are_worked_out_matches_no_other():
    # `g.turn` waits on the stack while the throw is asked: no local shows it
    (stack,) = _keys(
        """
        def _h(g):
            g.roll()
            return 1

        def _f(g):
            total = g.turn + _h(g)
            return total
        """
    )
    assert OPAQUE in stack[0]


def test_a_call_in_a_finally_or_except_block_matches_no_other():
    stacks = _keys(
        """
        def _f(g):
            try:
                g.roll()
            finally:
                g.roll()
        """
    )
    assert OPAQUE not in stacks[0][0] and OPAQUE in stacks[1][0]


def test_frozen_keys_show_game_objects_by_name_and_refuse_what_they_cannot_compare():
    own = {id(own_list := [1, 2]): ("pos", own_list)}
    assert explore._freeze(own_list, own) == "pos"
    assert explore._freeze([1, 2], own) == ("seq", 1, 2)
    assert explore._freeze(True, own) != explore._freeze(1, own)
    assert explore._freeze(UNSET, own) != explore._freeze(None, own)
    for unknown in (OPAQUE, object(), lambda: 0):
        with pytest.raises(explore._Unkeyable):
            explore._freeze(("seq", unknown), own)


def _frozen_by_definition(value, own):
    """`explore._freeze` as its docstring defines it, without its shortcuts (raises _Unkeyable as it does)."""
    if type(value) in (int, str) or value is None:
        return value
    if type(value) is bool:
        return ("bool", value)
    if value is UNSET:
        return ("unset",)
    if type(value) is list and id(value) in own:
        return own[id(value)][0]
    if type(value) in (tuple, list):
        return ("seq", *[_frozen_by_definition(v, own) for v in value])
    if id(value) in own:
        return own[id(value)][0]
    if type(value) is float:
        return ("float", value)
    if isinstance(value, (set, frozenset)):
        return ("set", frozenset(_frozen_by_definition(v, own) for v in value))
    if isinstance(value, dict):
        pairs = value.items()
        return ("map", frozenset((_frozen_by_definition(k, own), _frozen_by_definition(v, own)) for k, v in pairs))
    if type(value) is range:
        return ("range", value.start, value.stop, value.step)
    raise explore._Unkeyable()


def test_a_frozen_continuation_stack_is_what_the_definition_gives():
    # `_freeze` takes shortcuts for the commonest values (plain entries, a loop's sequence of plain values inside
    # an entry): on stacks of entries mixing every kind of value it may meet, it gives what the plain recursive
    # definition gives, and refuses what that refuses
    from hypothesis import given, settings
    from hypothesis import strategies as st

    own_list, own_dict = [1, 2], {"a": 1}
    own = {id(own_list): ("pos", own_list), id(own_dict): ("decks", own_dict)}
    leaf = st.one_of(
        st.integers(-3, 3),
        st.sampled_from(["roll", "pick", "a"]),
        st.none(),
        st.booleans(),
        st.just(UNSET),
        st.just(1.5),
        st.sampled_from([own_list, own_dict, range(3), frozenset({1, 2})]),
        st.just(OPAQUE),
    )
    value = st.recursive(
        leaf,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.lists(inner, max_size=4).map(tuple),
            st.dictionaries(st.integers(0, 3), inner, max_size=3),
        ),
        max_leaves=12,
    )

    @settings(max_examples=300, deadline=None)
    @given(st.lists(st.lists(value, max_size=6).map(tuple), max_size=5))
    def check(stack):
        try:
            expected = _frozen_by_definition(stack, own)
        except explore._Unkeyable:
            with pytest.raises(explore._Unkeyable):
                explore._freeze(stack, own)
            return
        assert explore._freeze(stack, own) == expected

    check()


def test_a_stack_kept_as_it_is_matches_another_only_where_the_frozen_stacks_match():
    # `_freeze_stack` keeps an entry of plain values, UNSET and tuples of those as it is, and freezes the others
    # (`_freeze`): over stacks drawn from a few values, so that many are equal, two stand-ins are equal only if
    # the frozen stacks are, exactly then where every entry is kept, and it refuses what `_freeze` refuses
    from hypothesis import given, settings
    from hypothesis import strategies as st

    own_list = [1, 2]
    own = {id(own_list): ("pos", own_list)}
    leaf = st.sampled_from([0, 1, True, "a", None, UNSET, 1.0, own_list, OPAQUE])
    value = st.one_of(leaf, st.lists(leaf, max_size=2).map(tuple), st.lists(leaf, max_size=2))
    stacks = st.lists(st.lists(value, max_size=3).map(tuple), max_size=3)

    def plain(v):
        return type(v) in (int, str, type(None)) or v is UNSET

    @settings(max_examples=400, deadline=None)
    @given(stacks, stacks)
    def check(a, b):
        try:
            frozen_a = explore._freeze(a, own)
        except explore._Unkeyable:
            with pytest.raises(explore._Unkeyable):
                explore._freeze_stack(a, own)
            return
        try:
            frozen_b = explore._freeze(b, own)
        except explore._Unkeyable:
            return
        kept_a, kept_b = explore._freeze_stack(a, own), explore._freeze_stack(b, own)
        hash(kept_a)
        if kept_a == kept_b:
            assert frozen_a == frozen_b
        every_entry_kept = all(plain(v) or (type(v) is tuple and all(map(plain, v))) for entry in a + b for v in entry)
        if every_entry_kept:
            assert (kept_a == kept_b) == (frozen_a == frozen_b)

    check()


def test_a_signatures_decks_are_their_cards_that_are_not_titles_whatever_order_they_come_back_in():
    # `signature` keeps each decks' sets by the decks' order (`Explorer._deck_sets`): a deck changed in place, in
    # any order, gets the sets worked out afresh, never those of another order
    import random

    from landlord_dsl.checking.loader import load
    from landlord_dsl.compiling.compiler import compile_ruleset

    rules = load("monopoly-1933-atlantic-city")
    program = compile_ruleset(rules, keyed=True)
    ex = explore.Explorer(rules, program, program.players[0], (), 0)
    decks = ex.game.decks  # (changed in place below, as the engine changes them)
    every = [c for cards in decks.values() for c in cards]
    # (the deck of title deeds, which no rule puts another card into, is left out)
    assert ex.card_decks == tuple(name for name in decks if name != "title_cards")
    at_start, counted = ex._deck_sets()
    # (a card given back may be any card, a title deed too, to the compiler: the decks drawn from are counted)
    assert all(at_start) and ex.counted_decks == ex.card_decks
    assert counted == tuple(len(decks[name]) for name in ex.counted_decks)
    pick = random.Random(7)
    for _ in range(200):
        name = pick.choice(sorted(decks))
        cards = decks[name]
        if cards and pick.random() < 0.5:
            cards.append(cards.pop(0))  # (a draw: the card goes under its deck)
        elif cards and pick.random() < 0.5:
            cards.remove(pick.choice(cards))  # (a card kept)
        else:
            cards.insert(pick.randrange(len(cards) + 1), pick.choice(every))  # (a card put back anywhere)
        # (1933's blank cards are interchangeable: each deck is the sorted classes of its cards, cards.py)
        classes = ex.card_classes
        assert classes is not None
        expected = tuple(
            tuple(sorted(classes[c] for c in decks[name] if c in ex._deck_card_set)) for name in ex.card_decks
        )
        assert ex._deck_sets() == (expected, tuple(len(decks[name]) for name in ex.counted_decks))


@pytest.mark.parametrize("title_deck_read", [False, True])
def test_a_signature_reads_the_decks_that_may_hold_cards_other_than_title_deeds(title_deck_read, tmp_path):
    # `Program.decks_returned_to`: the compiler notes each deck a `return` may put a card other than a space's
    # title deed into; the analysis leaves out of its signatures the decks that hold no such card at the start
    # and that no rule puts one into. 1933 puts only title deeds under its deck of title deeds (`return s.title
    # to title_cards`, a bankrupt's); the variant also gives a kept card back there, which may be any card
    from pathlib import Path

    from landlord_dsl.checking.loader import load
    from landlord_dsl.compiling.compiler import compile_ruleset

    edition = Path(__file__).resolve().parent.parent / "editions" / "monopoly-1933-atlantic-city.lg"
    text = edition.read_text(encoding="utf-8")
    assert "return s.title to title_cards" in text
    source = text.replace("return c to chest_attested", "return c to title_cards", 1) if title_deck_read else text
    path = tmp_path / "returned.lg"
    path.write_text(source, encoding="utf-8")
    rules = load(str(path))
    program = compile_ruleset(rules, keyed=True)
    assert program.decks_returned_to is not None
    assert program.decks_returned_to["title_cards"] is title_deck_read
    ex = explore.Explorer(rules, program, program.players[0], (), 0)
    assert ("title_cards" in ex.card_decks) is title_deck_read
    assert {"chance_cards", "chest_cards"} <= set(ex.card_decks)


def test_the_summaries_number_each_end_once_and_give_it_back_by_its_key():
    # the summaries hold end states and throws' ends by number (paths._Paths.number): equal keys share one
    # number, distinct ones never do, and the whole turn's summary is given back by the keys, in its order
    from landlord_dsl.studies.analysis.paths import _Paths

    paths = _Paths(lambda count: [])
    keys = [(3, (False, 0), ()), (5, (True, 1), (7,)), (3, (False, 0), ()), ((3, (False, 0)), 1)]
    numbers = [paths.number(k) for k in keys]
    assert numbers[0] == numbers[2] and len({numbers[0], numbers[1], numbers[3]}) == 3
    assert paths.number(tuple(keys[1])) == numbers[1]  # (an equal key, not the same object)
    paths.root.ends = {numbers[1]: 0.25, numbers[0]: 0.75}
    assert list(paths.root_ends().items()) == [(keys[1], 0.25), (keys[0], 0.75)]
    paths.root.throws, paths.root.visits = {numbers[3]: 2.0}, {4: 1.0}
    paths.closed = [paths.root]
    assert paths.tally([paths.root], [0.5]) == ({keys[3]: 1.0}, {4: 0.5})


def test_the_tally_gives_each_summary_what_its_expansion_gives():
    # `_Paths.tally` sums the throws' ends and landings of summaries linked by edges (a request's summary to
    # those of the requests after it, and to the known future where a run was cut), each event kept once where
    # it happened: over random graphs closed in order, its sums are those of expanding every edge recursively
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from landlord_dsl.studies.analysis.paths import _Paths, _Summary

    events = st.dictionaries(st.integers(0, 5), st.floats(0.0, 3.0), max_size=3)

    @st.composite
    def graphs(draw):
        count = draw(st.integers(1, 12))
        summaries = []
        for i in range(count):
            summary = _Summary()
            summary.throws, summary.visits = draw(events), draw(events)
            if i:  # (edges only to summaries closed before this one, as `_close` and `credit` make them)
                targets = draw(st.lists(st.integers(0, i - 1), max_size=3))
                summary.edges = [(summaries[t], draw(st.floats(0.0, 1.0))) for t in targets]
            summaries.append(summary)
        roots = draw(st.lists(st.integers(0, count - 1), min_size=1, max_size=4))
        weights = draw(st.lists(st.floats(0.0, 1.0), min_size=len(roots), max_size=len(roots)))
        return summaries, [summaries[r] for r in roots], weights

    def expanded(summary, part):
        total = dict(getattr(summary, part))
        for after, p in summary.edges:
            for k, v in expanded(after, part).items():
                total[k] = total.get(k, 0.0) + p * v
        return total

    @settings(max_examples=150, deadline=None)
    @given(graphs())
    def check(graph):
        summaries, roots, weights = graph
        paths = _Paths(lambda count: [])
        for k in range(6):
            paths.number((k, ()))
        paths.closed = summaries
        throws, visits = paths.tally(roots, weights)
        for part, got in (("throws", throws), ("visits", visits)):
            want: dict = {}
            for root, w in zip(roots, weights):
                for k, v in expanded(root, part).items():
                    want[k] = want.get(k, 0.0) + w * v
            got = {k[0]: v for k, v in got.items()} if part == "throws" else got
            assert set(k for k, v in got.items() if v) <= set(want)
            for k, v in want.items():
                assert got.get(k, 0.0) == pytest.approx(v, rel=1e-9, abs=1e-12)

    check()


# ------------------------------------------------------------ the token's policy and the economy put back

_OPTIONS = ("buy", "pass", "build", "done")


@pytest.mark.parametrize("prefer", [(), ("pass",), ("done", "build")])
def test_the_policy_kept_picks_are_the_picks_it_makes_afresh(prefer):
    # PolicyAgent keeps its pick by offer (the option names, the legal entries): over a run of random offers,
    # some repeated, some with a value that cannot be hashed, it answers as a new agent answers each one
    from hypothesis import given, settings
    from hypothesis import strategies as st

    entry = st.tuples(
        st.integers(0, 3),
        st.one_of(st.none(), st.integers(0, 39), st.lists(st.integers(0, 3), max_size=2)),
        st.integers(-50, 400),
        st.integers(-50, 400),
    )

    @settings(max_examples=60, deadline=None)
    @given(st.lists(st.lists(entry, min_size=1, max_size=6), min_size=1, max_size=12), st.integers(0, 3))
    def check(offers, repeat):
        agent = explore.PolicyAgent(prefer, cash=300)
        for legal in offers + offers[:repeat]:
            assert agent.pick(legal, _OPTIONS) == explore.PolicyAgent(prefer, cash=300).pick(legal, _OPTIONS)

    check()


def test_the_folded_policy_spends_within_the_policys_limit_whatever_its_cash():
    # the option loops work out the pick of a FOLDED_CHOOSERS agent with the limit cash - reserve: for the
    # policy without preferred options, that is the policy's own limit (its cash in the reference economy
    # less its reserve), not one that follows the token's cash now
    from landlord_dsl.program.requests import FOLDED_AGENTS, FOLDED_CHOOSERS

    bal = [0, 1500, 1500]
    agent = explore._FoldedPolicy(1500, bal, 1, reserve=200)
    assert agent.__class__ in FOLDED_CHOOSERS and agent.__class__ not in FOLDED_AGENTS  # (it never bids)
    for cash in (1500, 1250, 120, -40):
        bal[1] = cash
        assert cash - agent.reserve == agent.limit == 1300


@pytest.mark.parametrize("edition", ["monopoly-1933-atlantic-city", "landlords-game-1939"])
def test_the_folded_policy_gives_the_tables_the_asked_policy_gives(edition, monkeypatch):
    # a preferred option no choice offers leaves the policy the bot's pick, asked at every decision (the
    # legal entries gathered, PolicyAgent): the same tables as the policy the option loops work out (a name
    # no decision offers is refused as a user's typo: let it through here, for the machinery it drives)
    import landlord_dsl.studies.analysis as analysis
    from landlord_dsl.studies.analysis import analyze

    monkeypatch.setattr(analysis, "_refuse_unknown_preferences", lambda rules, prefer: None)
    folded = analyze(edition, check_economy=False, rents=False).to_json()
    asked = analyze(edition, prefer=["no-such-option"], check_economy=False, rents=False).to_json()
    assert folded.pop("policy") == [] and asked.pop("policy") == ["no-such-option"]
    assert folded == asked


def test_the_economy_put_back_restores_every_list_it_holds():
    # Economy.put compares the game's lists with the saved ones and copies back those that differ: after
    # changes to lists of every kind (and to the loans and seats), the game holds the saved values again
    import landlord_dsl as ld
    from landlord_dsl.engine.game import Game
    from landlord_dsl.program.requests import SeededChance

    program = ld.compile_rules(ld.load_edition("monopoly-1933-atlantic-city"))
    game = Game(program, [None, None], chance=SeededChance(3))
    game.setup()
    saved = explore.Economy(game)
    before = {
        name: repr(getattr(game, name))
        for name in (
            "bal",
            "pos",
            "gv",
            "pv",
            "sv",
            "holder",
            "owner",
            "hands",
            "titles",
            "gcount",
            "decks",
            "loans",
            "seats",
        )
    }
    for _ in range(2):
        game.bal[game.nacc] -= 7
        game.pos[1] = 5
        game.pv[0][0] = not game.pv[0][0]
        game.sv[0][1] += 1
        game.set_holder(program.title_card[1], 0)
        game.decks[next(iter(game.decks))].reverse()
        game.loans.append([0, 1, 10, 1])
        game.seats.remove(1)
        saved.put(game)
        assert {name: repr(getattr(game, name)) for name in before} == before


# ------------------------------------------------ a landing as a memo point


@pytest.mark.parametrize("read_after", [False, True], ids=["dice-read-before", "dice-read-after-landing"])
def test_a_run_landing_where_an_earlier_run_landed_is_cut_there(read_after, tmp_path, monkeypatch):
    # a landing is a request with one outcome (explore._Landed), asked before the space's rules run (once the
    # turns go through many items: `explore.LANDING_WORK`): a run that lands with a continuation an earlier run
    # explored (the same space, state and paused calls) is cut there and the known future used. Where the rest
    # of the turn reads the throw before the landing (a double read after the move), the landings are told
    # apart by the dice too. Either way the tables are those of the full enumeration.
    from pathlib import Path

    from landlord_dsl.studies.analysis import analyze, paths

    ring = (Path(__file__).resolve().parent / "data" / "analysis-ring.lg").read_text(encoding="utf-8")
    old = """                set again = dice.double
                move forward dice.total"""
    assert old in ring
    if read_after:
        ring = ring.replace(
            old,
            """                move forward dice.total
                set again = dice.double""",
        )
    path = tmp_path / "ring.lg"
    path.write_text(ring, encoding="utf-8")
    landings = {"asked": 0, "cut": 0}
    landed = paths._Paths.landed

    def counting(self):
        landings["asked"] += 1
        try:
            landed(self)
        except paths._Cut:
            landings["cut"] += 1
            raise

    monkeypatch.setattr(paths._Paths, "landed", counting)
    # (landings are asked once the turns go through many items on average: here from the second state on)
    monkeypatch.setattr(explore, "LANDING_WORK", 0)
    shared = analyze(str(path), check_economy=False, rents=False)
    assert 0 < landings["cut"] < landings["asked"]
    asked = landings["asked"]
    full = analyze(str(path), check_economy=False, rents=False, memo=False)
    assert landings["asked"] == asked  # (without a memo a landing asks nothing)
    assert len(shared.rows) == len(full.rows)
    for a, b in zip(shared.rows, full.rows, strict=True):
        assert (a.index, a.status) == (b.index, b.status)
        assert abs(a.turn - b.turn) < 1e-12 and abs(a.throw - b.throw) < 1e-12 and abs(a.visits - b.visits) < 1e-12


# ------------------------------------------------ resuming a turn at a request (issue 31)


@pytest.mark.parametrize("edition", ["landlords-game-1906", "monopoly-1933-atlantic-city", "landlords-game-1939"])
@pytest.mark.parametrize("refused", [False, True], ids=["resumed", "some-refused"])
def test_the_turns_resumed_at_each_request_give_the_tables_the_replayed_turns_give(edition, refused, monkeypatch):
    # each outcome of a request is run by resuming the turn where the run that met it paused, not by
    # replaying it from its start: the same runs, in the same order, so the very same sums; where a
    # continuation cannot be resumed (here those whose stack holds a number of entries divisible by three,
    # refused), its outcomes are replayed instead
    from landlord_dsl.checking.loader import load
    from landlord_dsl.compiling.compiler import compile_ruleset
    from landlord_dsl.engine.stepping import SteppedGame

    if refused:
        planned_by_engine = SteppedGame.resume_plan

        def sometimes(self, request):
            return None if len(self.kstack) % 3 == 0 else planned_by_engine(self, request)

        monkeypatch.setattr(SteppedGame, "resume_plan", sometimes)
    runs = [0]
    run_turn = explore.Explorer.run_turn

    def counting(self, key, paused=None):
        runs[0] += paused is not None
        return run_turn(self, key, paused)

    monkeypatch.setattr(explore.Explorer, "run_turn", counting)
    rules = load(edition)
    tables = {}
    resumed = {}
    for resume in (False, True):
        program = compile_ruleset(rules, keyed=True)
        ex = explore.Explorer(rules, program, program.players[0], (), 0, resume=resume)
        runs[0] = 0
        order, rows, summaries, end_rows = chain.explore_chain(ex)
        # (the throws' ends and landings as `analyze` sums them, every state weighted alike)
        tables[resume] = (order, rows, end_rows, ex.paths.tally(summaries, [1.0] * len(order)))
        resumed[resume] = runs[0]
    assert tables[True] == tables[False]
    assert resumed[False] == 0 and resumed[True] > 0


def _resumed_runs(source: str, answers: list[int]) -> tuple[list, list[list]]:
    """Run `_f` of the keyed stepped compilation of `source`, each throw answered from `answers`; return what
    it logged, and for each of its throws what it logs when resumed there from the key laid out at the throw
    (its resume entry: `_Resumes`), the log up to the throw put back."""
    import ast
    import itertools

    from landlord_dsl.compiling.stepped_pass import resume_entries, stepped_module

    holders: dict = {}
    tree, _ = stepped_module(ast.parse(textwrap.dedent(source)), False, True, resumes=holders)
    resumes = {site: made for f in set(holders.values()) for site, made in resume_entries(f).items()}
    namespace = {"_KEY_UNSET": UNSET, "_KEY_OPAQUE": OPAQUE, "_SLOW": object(), "_key_ONCE": (None,)}
    namespace["_key_rest"] = lambda items, at: itertools.islice(items, at + 1, None)
    exec(compile(ast.fix_missing_locations(tree), "<keyed>", "exec"), namespace)
    for made in resumes.values():
        exec(compile(ast.fix_missing_locations(ast.Module([made], [])), "<keyed>", "exec"), namespace)

    class Game(_Game):
        def __init__(self, log: list):
            super().__init__()
            self.log, self.logged = log, []

        def roll_s(self):
            self.at.append(list(self.kstack))
            self.logged.append(len(self.log))
            yield "throw"
            answer = answers[len(self.logged) - 1]
            self.log.append(("throw", answer))
            return answer

    whole = Game([])
    for _ in namespace["_f"](whole):
        pass
    resumed = []
    for at, (stack, logged) in enumerate(zip(whole.at, whole.logged)):
        ((site, *values),) = stack  # (the function's entry: the throw puts none here)
        part = Game(whole.log[:logged])
        part.logged = [0] * at
        rest = part.roll_s()
        next(rest)  # (the throw asked: the resumed function's `yield from` takes it on from there)
        for _ in namespace[f"_key_resume{site}"](part, rest, 0, *values):
            pass
        resumed.append(part.log)
    return whole.log, resumed


@pytest.mark.parametrize(
    "body",
    [
        # the rest of a loop's pass, its other passes (a `continue`, a `break`), and what follows the loop
        """
        total = 0
        for x in [1, 2, 3, 4, 5]:
            if x == 2:
                continue
            g.roll()
            g.log.append(("x", x, total))
            if x == 4:
                break
            total += x
        else:
            g.log.append("never")
        g.log.append(("after", total))
        """,
        # nested loops, a `while` whose pass is cut short, a `try` whose `finally` runs after the rest
        """
        n = 0
        try:
            for a in range(3):
                for b in (1, 2):
                    g.roll()
                    g.log.append((a, b))
                    if b == 1 and a == 1:
                        break
                while n < 4:
                    n += 1
                    if n == 2:
                        continue
                    g.roll()
                    g.log.append(("n", n))
                else:
                    g.log.append("ended")
        finally:
            g.log.append("finally")
        g.log.append(("done", n))
        """,
        # a call in an `if` test, and in a branch of a conditional expression
        """
        if g.roll():
            kept = 1 if not g.log else g.roll()
            g.log.append(("kept", kept))
        """,
    ],
)
def test_a_function_resumed_at_each_of_its_requests_logs_what_it_logs_when_run_whole(body):
    source = "def _f(g):\n" + textwrap.indent(textwrap.dedent(body), "    ")
    whole, resumed = _resumed_runs(source, list(range(10, 40)))
    assert whole and resumed
    for log in resumed:
        assert log == whole


def test_an_exploration_and_the_economy_check_leave_nothing_for_the_cyclic_collector():
    # `analyze` runs both with the cyclic collector off (core.collector.collector_paused): that is sound only while
    # they make no reference cycles, which would then stay in memory until the collector runs again
    import gc

    from landlord_dsl.checking.loader import load
    from landlord_dsl.compiling.compiler import compile_ruleset
    from landlord_dsl.core.collector import collector_paused

    rules = load("monopoly-1933-atlantic-city")
    program = compile_ruleset(rules, keyed=True)
    ex = explore.Explorer(rules, program, program.players[0], (), 0)
    gc.collect()
    with collector_paused():
        assert not gc.isenabled()
        order, _, _, end_rows = chain.explore_chain(ex)
        assert gc.collect() == 0
        chain.economy_warnings(ex, order, end_rows, turns=10 * program.players[0], seed=0)
        assert gc.collect() == 0
    assert gc.isenabled()


def test_a_call_whose_key_is_opaque_has_no_resume_entry():
    # inside an expression after another operand (its value held by the frame alone), or in a `with` block:
    # such a request is replayed, never resumed
    import ast

    from landlord_dsl.compiling.stepped_pass import resume_entries, stepped_module

    source = textwrap.dedent(
        """
        def _f(g):
            held = 1 + g.roll()
            with g.lock:
                g.roll()
            g.roll()
            return held
        """
    )
    holders: dict = {}
    stepped_module(ast.parse(source), False, True, resumes=holders)
    (function,) = set(holders.values())
    assert sorted(holders) == [1, 2, 3]
    assert sorted(resume_entries(function)) == [3]
