"""The chance engine: every random event of a rule goes through a :class:`Chance`.

``exact`` enumerates every branch with exact probabilities, ``sample`` draws from a seeded
generator and records a trace, ``scripted`` uses dice the player rolled at the table.
``Process`` repeats a step over states (exact odds over state, merged after every step);
``Sampler`` draws many outcomes of an exact distribution at once: it is numpy's, and its
module (:mod:`.batch`) is imported the first time ``Batch``, ``Sampler`` or ``draw_batch`` is
asked for, so that exact odds never import numpy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from firefight.chance.evaluate import (
    WorkBudgetError,
    exact,
    generator,
    sample,
    sample_many,
    scripted,
    spend,
    work_budget,
)
from firefight.chance.events import Deck, Dice, binomial
from firefight.chance.interval import wilson
from firefight.chance.process import (
    Absorption,
    NeverAbsorbedError,
    Phases,
    Process,
    ProcessResolution,
    SampledOdds,
    StateLimitError,
    hands,
)
from firefight.chance.protocol import Chance, Resolution, TraceEvent

if TYPE_CHECKING:
    from firefight.chance.batch import Batch, Sampler, draw_batch

D6 = Dice.d(6)
TWO_D6 = Dice.d(6, 2)
D10 = Dice.d(10)

__all__ = [
    "D6",
    "D10",
    "TWO_D6",
    "Absorption",
    "Batch",
    "Chance",
    "Deck",
    "Dice",
    "NeverAbsorbedError",
    "Phases",
    "Process",
    "ProcessResolution",
    "Resolution",
    "SampledOdds",
    "Sampler",
    "StateLimitError",
    "TraceEvent",
    "WorkBudgetError",
    "binomial",
    "draw_batch",
    "exact",
    "generator",
    "hands",
    "sample",
    "sample_many",
    "scripted",
    "spend",
    "wilson",
    "work_budget",
]

_BATCH = frozenset({"Batch", "Sampler", "draw_batch"})


def __getattr__(name: str) -> object:
    """The batch sampler's names (PEP 562), imported from :mod:`.batch` when first asked for."""
    if name not in _BATCH:
        msg = f"module {__name__!r} has no attribute {name!r}"
        raise AttributeError(msg)
    from firefight.chance import batch  # noqa: PLC0415 - numpy only where batches are drawn

    return getattr(batch, name)
