"""Loading and compiling pause Python's cyclic garbage collector, and leave it as they found it."""

from __future__ import annotations

import gc

import pytest

import landlord_dsl as ld
from landlord_dsl.checking.loader import load_text
from landlord_dsl.core.collector import collector_paused
from landlord_dsl.core.errors import LandlordError


def test_paused_within_and_on_again_after() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_on_again_after_an_error() -> None:
    with pytest.raises(ValueError), collector_paused():
        raise ValueError
    assert gc.isenabled()


def test_left_off_if_it_was_off() -> None:
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_loading_and_compiling_leave_it_on() -> None:
    ld.new_game(ld.load_edition("landlords-game-1904"), players=2)
    assert gc.isenabled()
    with pytest.raises(LandlordError):
        load_text("game {", "broken.lg")
    assert gc.isenabled()
