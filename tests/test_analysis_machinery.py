"""The exact analysis's own machinery: solving the chain, and reading a frame's bytecode for the memo.

The figures these parts produce are checked end to end in test_analysis.py;
here each part is checked on cases built to break it.
"""

from __future__ import annotations

import dis
import sys

import pytest

np = pytest.importorskip("numpy")

from landlord_dsl.studies.analysis import chain, explore  # noqa: E402
from landlord_dsl.studies.analysis.chain import closed_classes, stationary  # noqa: E402

live_locals = explore.live_locals.__wrapped__  # uncached, so that monkeypatched dis is read


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


# ------------------------------------------------- reading a frame for the memo


class _Caller:
    """Stands in for the game: its roll() notes where the calling frame stands."""

    def roll(self):
        frame = sys._getframe(1)
        self.at = (frame.f_code, frame.f_lasti)


def _straight(g):
    kept = 1
    dropped = 2  # noqa: F841 - dead after the call: the memo must not tell runs apart by it
    g.roll()
    return kept


def _looping(g):
    dropped = [1]  # noqa: F841
    for _unread in range(3):
        g.roll()


def _where(function):
    g = _Caller()
    function(g)
    return g.at


def test_a_local_read_after_the_call_is_live_and_a_dead_one_is_not():
    live = live_locals(*_where(_straight))
    assert "kept" in live and "dropped" not in live


def test_in_a_loop_its_variable_stays_even_unread_and_dead_locals_go():
    # the loop's iterator is on the stack, out of sight: its variable stands for where the loop is
    live = live_locals(*_where(_looping))
    assert live is not None
    assert "_unread" in live and "g" in live and "dropped" not in live


def test_an_instruction_the_reading_does_not_know_counts_as_a_read(monkeypatch):
    code, lasti = _where(_straight)
    real = dis.get_instructions

    def renamed(c):
        # a future interpreter's new way of loading 'dropped' after the call
        out = list(real(c))
        at = next(i for i, ins in enumerate(out) if ins.opname.startswith("RETURN"))
        load = next(ins for ins in out if ins.opname.startswith("STORE_FAST") and ins.argval == "dropped")
        out.insert(at, load._replace(opname="LOAD_FAST_SOMEHOW", offset=out[at].offset - 1))
        return out

    monkeypatch.setattr(explore.dis, "get_instructions", renamed)
    assert "dropped" in live_locals(code, lasti)


def test_a_jump_the_reading_cannot_follow_keeps_every_local(monkeypatch):
    code, lasti = _where(_straight)
    real = dis.get_instructions

    def with_jump(c):
        out = list(real(c))
        at = next(i for i, ins in enumerate(out) if ins.opname.startswith("RETURN"))
        out.insert(at, out[at]._replace(opname="JUMP_SOMEWHERE_NEW", argval=10**6, offset=out[at].offset - 1))
        return out

    monkeypatch.setattr(explore.dis, "get_instructions", with_jump)
    assert live_locals(code, lasti) is None


def test_a_loop_whose_variable_is_not_a_plain_store_keeps_every_local(monkeypatch):
    code, lasti = _where(_looping)
    real = dis.get_instructions

    def odd_loop(c):
        out = list(real(c))
        i = next(i for i, ins in enumerate(out) if ins.opname == "FOR_ITER")
        out[i + 1] = out[i + 1]._replace(opname="STORE_SOMEWHERE_NEW")
        return out

    monkeypatch.setattr(explore.dis, "get_instructions", odd_loop)
    assert live_locals(code, lasti) is None
