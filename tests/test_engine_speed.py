"""The engine's faster ways of doing the same thing (issue 17, throughput) give the same results.

Each shortcut is checked against the plain way it replaces: dice thrown from
random bits against `random.Random.randint(1, 6)`, the seat order of an auction
by rotation against a sort, and a game played through `play()` (all turns under
one failure guard) against one played turn by turn.
"""

from __future__ import annotations

import functools
import random

from hypothesis import given
from hypothesis import strategies as st

import landlord_dsl as ld
from landlord_dsl.program.requests import DiceRequest, SeededChance


@functools.cache
def _program_1906() -> ld.Program:
    """Return the 1906 edition compiled once for the module (each example makes a game of it)."""
    return ld.compile_rules(ld.load_edition("landlords-game-1906"))


@given(seed=st.integers(0, 2**64), counts=st.lists(st.integers(1, 5), min_size=1, max_size=40))
def test_seeded_dice_are_the_numbers_randint_gives(seed, counts):
    chance, reference = SeededChance(seed), random.Random(seed)
    for count in counts:
        assert chance.roll(DiceRequest(count)) == tuple(reference.randint(1, 6) for _ in range(count))
    # and the generator is left where randint leaves it (a shuffle after the throws is the same)
    assert chance.rng.getstate() == reference.getstate()


@given(
    n=st.integers(2, 8),
    data=st.data(),
)
def test_the_seat_order_from_a_player_is_the_sorted_order(n, data):
    game = ld.new_game(_program_1906(), players=min(n, 4), seed=0)
    n = game.n
    game.seats = sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=1)))
    first = data.draw(st.integers(0, n - 1))
    assert game._in_seat_order(first) == sorted(game.seats, key=lambda s: (s - first) % n)


def test_play_gives_the_game_played_turn_by_turn():
    program = ld.compile_rules(ld.load_edition("monopoly-1933-atlantic-city"))
    whole = ld.new_game(program, players=4, seed=5)
    whole.play()
    stepped = ld.new_game(program, players=4, seed=5)
    turns = []
    stepped.play(on_turn=lambda g: turns.append(g.turn))  # an on_turn callback plays one turn at a time
    assert stepped.log == whole.log and turns == list(range(1, whole.turn + 1))


def test_a_game_throws_the_usual_pair_itself_only_for_the_seeded_generator_as_it_is():
    """Game.roll throws two six-sided dice from the generator's bits as SeededChance.two_dice does, not through a
    request, only where the chance source is exactly a SeededChance: a subclass's own `roll` answers every throw."""

    class Loaded(SeededChance):
        def roll(self, request: DiceRequest) -> tuple[int, ...]:
            return (6,) * request.count

    program = ld.compile_rules(ld.load_edition("monopoly-1933-atlantic-city"))
    loaded = ld.Game(program, [ld.HeuristicAgent() for _ in range(2)], chance=Loaded(0))
    loaded.roll()
    assert loaded.dice == (6, 6) and loaded.dice_double
    plain = ld.Game(program, [ld.HeuristicAgent() for _ in range(2)], seed=5)
    reference = random.Random(5)
    for _ in range(20):
        plain.roll()
        assert plain.dice == (reference.randint(1, 6), reference.randint(1, 6))
        assert plain.dice_total == sum(plain.dice) and plain.dice_double == (plain.dice[0] == plain.dice[1])
    # a fork throws from its own copy of the generator, and a new chance source is the one thrown from
    fork = plain.fork()
    assert [(plain.roll(), plain.dice)[1] for _ in range(10)] == [(fork.roll(), fork.dice)[1] for _ in range(10)]
    plain.chance = SeededChance(9)
    reference = random.Random(9)
    plain.roll()
    assert plain.dice == (reference.randint(1, 6), reference.randint(1, 6))


@given(n=st.integers(2, 8), data=st.data())
def test_the_seat_after_a_player_is_the_next_one_round_the_table(n, data):
    """Game._seat_after (a bisection in the seats still playing) against counting round the table."""
    game = ld.new_game(_program_1906(), players=min(n, 4), seed=0)
    n = game.n
    game.seats = sorted(data.draw(st.sets(st.integers(0, n - 1))))
    seat = data.draw(st.integers(0, n - 1))
    following = [(seat + step) % n for step in range(1, n + 1) if (seat + step) % n in game.seats]
    assert game._seat_after(seat) == (following[0] if following else seat)
