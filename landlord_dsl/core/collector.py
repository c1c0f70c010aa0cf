"""Python's cyclic garbage collector paused while a rule file is read and compiled."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Within the block, Python's cyclic garbage collector does not run (if it was on, it is switched on again
    after the block, however the block ends).

    Reading and compiling a rule file makes tens of thousands of objects
    that live on (the syntax tree, the model, the generated code) or that
    reference counting frees, and almost no cycles: the collections that so
    many allocations set off find next to nothing, and took 1.5 to 3 ms of
    a 30 to 60 ms load, more when one was a full collection. Whatever
    cycles a load leaves are collected once the collector runs again. It
    is one switch for the whole process: a thread that reads rules pauses
    it for the others too, which only puts their collections off.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
