"""The cyclic garbage collector paused over an exact solve (:func:`no_collection`).

An exact solve over a move's or an engagement's states makes millions of small tuples, ints
and Fractions and few cycles; the collector's passes over them, each walking every object
the young generations hold, cost much of the time and free nothing.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def no_collection() -> Iterator[None]:
    """The cyclic garbage collector paused for the block. After it, the objects made
    meanwhile go straight to the oldest generation (frozen, then thawed: still collected when
    they are garbage), not through the young generations' passes, each over all of them; not
    where other objects are frozen (the server's, kept out of the passes). What the block
    keeps must be bounded by its own limits (a solve's budget of states), since its cycles
    wait for the collector's next pass."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if not gc.get_freeze_count():
            gc.freeze()
            gc.unfreeze()
        if enabled:
            gc.enable()
