"""The Monte Carlo baselines of ``run.py`` (the same EPT fire procedure sampled, and 2d6 drawn
with numpy read through the chart as an array), their error against the exact odds, and the
peak of memory traced while an action runs. Imported from beside ``run.py``.
"""

from __future__ import annotations

import importlib
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable

import numpy as np

from firefight.chance import sample_many

# ``firefight.rulesets.ept`` re-exports the rule function ``fire``, which shadows the submodule
# of the same name as an attribute; import the module itself.
ept_fire = importlib.import_module("firefight.rulesets.ept.fire")


def clear_cache(clear: Callable[[], None] | None) -> None:
    if clear is not None:
        clear()


# --- Monte Carlo baselines ------------------------------------------------------------------


def max_error(counts: Counter | dict, n: int, exact: dict) -> float:
    """The largest |sampled frequency - exact probability| over every outcome."""
    outcomes = set(counts) | set(exact)
    return max(abs(counts.get(o, 0) / n - float(exact.get(o, 0))) for o in outcomes)


def sampled_monte_carlo(fire, attack, n: int, seed: int, clear) -> tuple[float, Counter]:
    """The naive baseline: ``n`` resolutions of the same sampled procedure, then frequencies."""
    clear_cache(clear)
    start = time.perf_counter()
    outcomes = sample_many(lambda chance: fire.rule(attack, chance), seed, n)
    counts = Counter(outcomes)
    return time.perf_counter() - start, counts


def chart_lookup_array() -> tuple[np.ndarray, int, tuple[str, ...]]:
    """The TABLE DE COMBAT as an integer array [row value - offset, column index].

    Built once through ``Chart.lookup`` (so the chart's own clamping applies) over every row
    value a 2d6 roll plus any dice modifier can reach.
    """
    table = ept_fire.combat_table()
    codes = tuple(code for code, _ in table.legend) or ept_fire.CHART_CODES
    index = {code: i for i, code in enumerate(codes)}
    low, high = 2 - 10, 12 + 20  # generous: dice modifiers are -3..+8
    column_values = [int(lo) for lo, _ in table.columns.bands]
    lut = np.array(
        [
            [index[table.lookup(row, column).value] for column in column_values]
            for row in range(low, high + 1)
        ],
        dtype=np.int8,
    )
    return lut, low, codes


def numpy_monte_carlo(attack, n: int, seed: int, clear, lut_info) -> tuple[float, dict]:
    """The strongest naive baseline: ``n`` 2d6 drawn at once, read through a lookup array."""
    lut, offset, codes = lut_info
    table = ept_fire.combat_table()
    clear_cache(clear)
    start = time.perf_counter()
    sheet = ept_fire.fire_sheet(attack)
    column = table.columns.index(sheet.factor)
    rng = np.random.default_rng(seed)
    rolls = rng.integers(1, 7, size=n, dtype=np.int16) + rng.integers(1, 7, size=n, dtype=np.int16)
    results = lut[rolls + (sheet.dice_modifier - offset), column]
    counts = np.bincount(results, minlength=len(codes))
    elapsed = time.perf_counter() - start
    return elapsed, {code: int(c) for code, c in zip(codes, counts, strict=True) if c}


# --- memory ---------------------------------------------------------------------------------


def peak_memory(action: Callable[[], object]) -> int:
    """Peak bytes allocated (tracemalloc) while ``action`` runs."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
