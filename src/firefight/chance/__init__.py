"""The chance engine: every random event of a rule goes through a :class:`Chance`.

``exact`` enumerates every branch with exact probabilities, ``sample`` draws from a seeded
generator and records a trace, ``scripted`` uses dice the player rolled at the table, given
up front or asked for one at a time (``asked``, ``asking``: :mod:`.asked`; a rule's question
with choices, ``choose``).
``Process`` repeats a step over states (exact odds over state, merged after every step);
``Sampler`` draws many outcomes of an exact distribution at once. Both are imported from their
modules (:mod:`.process`, :mod:`.batch`, numpy's) the first time one of their names is asked
for, so that a procedure's exact odds import neither.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from firefight.chance.asked import Ask, Wanted, asked, asking, choose
from firefight.chance.evaluate import (
    WorkBudgetError,
    exact,
    generator,
    sample,
    sample_many,
    scripted,
    spend,
    work_budget,
    work_left,
)
from firefight.chance.events import Deck, Dice, binomial
from firefight.chance.interval import wilson
from firefight.chance.protocol import Chance, Resolution, TraceEvent

if TYPE_CHECKING:
    from firefight.chance.batch import Batch, Sampler, draw_batch
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

D6 = Dice.d(6)
"""One six-sided die."""
TWO_D6 = Dice.d(6, 2)
"""Two six-sided dice, summed."""
D10 = Dice.d(10)
"""One ten-sided die (1 to 10)."""

__all__ = [
    "D6",
    "D10",
    "TWO_D6",
    "Absorption",
    "Ask",
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
    "Wanted",
    "WorkBudgetError",
    "asked",
    "asking",
    "binomial",
    "choose",
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
    "work_left",
]

_LAZY = {
    **dict.fromkeys(("Batch", "Sampler", "draw_batch"), "batch"),
    **dict.fromkeys(
        (
            "Absorption",
            "NeverAbsorbedError",
            "Phases",
            "Process",
            "ProcessResolution",
            "SampledOdds",
            "StateLimitError",
            "hands",
        ),
        "process",
    ),
}


def __getattr__(name: str) -> object:
    """The batch sampler's and the state engine's names (PEP 562), imported from their
    modules when first asked for."""
    if name not in _LAZY:
        msg = f"module {__name__!r} has no attribute {name!r}"
        raise AttributeError(msg)
    return getattr(import_module(f"{__name__}.{_LAZY[name]}"), name)
