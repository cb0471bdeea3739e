"""The chance engine: every random event of a rule goes through a :class:`Chance`.

``exact`` enumerates every branch with exact probabilities, ``sample`` draws from a seeded
generator and records a trace, ``scripted`` uses dice the player rolled at the table.
``Process`` repeats a step over states (exact odds over state, merged after every step);
``Sampler`` draws many outcomes of an exact distribution at once.
"""

from firefight.chance.batch import Batch, Sampler, draw_batch, wilson
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
