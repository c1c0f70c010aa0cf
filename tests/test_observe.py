"""The observer API: typed per-throw and per-turn events, and variables read by name."""

from __future__ import annotations

import pytest

import landlord_dsl as ld


class Recorder:
    def __init__(self):
        self.throws, self.turns = [], []

    def on_throw(self, event):
        self.throws.append(event)

    def on_turn(self, event):
        self.turns.append(event)


def _game(throws):
    game = ld.new_game("monopoly-1933-atlantic-city", players=2, chance=ld.ScriptedChance(throws))
    return game


def test_throws_and_turns_are_reported_with_positions():
    # opening throws (seat 1 high), then seat 1 throws a double (3+3) and a 4 (1+3):
    # 1933, Doubles and Other Jail Rules: a double throws again
    game = _game([(6, 5), (1, 2), (3, 3), (1, 3)])
    seen = Recorder()
    game.observe(seen)
    game.setup()
    game.play_turn()
    assert [(e.seat, e.dice, e.total, e.double) for e in seen.throws] == [
        (0, (6, 5), 11, False),
        (1, (1, 2), 3, False),
        (0, (3, 3), 6, True),
        (0, (1, 3), 4, False),
    ]
    assert [e.position for e in seen.throws[2:]] == [0, 6]  # where the thrower stood
    (turn,) = seen.turns
    assert (turn.turn, turn.seat, turn.start, turn.end, turn.throws, turn.still_playing) == (1, 0, 0, 10, 2, True)
    assert isinstance(turn, ld.TurnEvent) and isinstance(seen.throws[0], ld.ThrowEvent)


def test_observers_do_not_change_the_game():
    plain = ld.new_game("monopoly-1933-atlantic-city", players=3, seed=11)
    watched = ld.new_game("monopoly-1933-atlantic-city", players=3, seed=11)
    watched.observe(Recorder())
    for game in (plain, watched):
        game.setup()
        for _ in range(60):
            game.play_turn()
    assert plain.log_lines() == watched.log_lines()


def test_variables_are_read_by_name():
    # 1933, Doubles and Other Jail Rules: a third double goes to Jail
    game = _game([(6, 5), (1, 2), (1, 1), (2, 2), (3, 3)])
    game.setup()
    assert game.player_var(0, "in_jail") is False
    game.play_turn()
    assert game.player_var(0, "in_jail") is True and game.player_var(1, "in_jail") is False
    assert game.game_var("turn_state") == "free"
    assert game.space_var("boardwalk", "houses") == 0 and game.space_var(39, "mortgaged") is False


def test_unknown_names_are_clear_errors():
    game = _game([])
    with pytest.raises(ld.LandlordError, match=r"no player variable 'in_jial' \(did you mean 'in_jail'"):
        game.player_var(0, "in_jial")
    with pytest.raises(ld.LandlordError, match="no space 'bordwalk'"):
        game.space_var("bordwalk", "houses")
