"""A process's runs sampled in batches (:meth:`firefight.chance.process.Process.sampled`).

The runs in each state advance together, one vectorized draw per state and step from the
step's cached exact kernel (for :class:`~firefight.chance.phases.Phases`, phase by phase, the
runs of every state through one phase before the next, equal states merged between); a state
few runs reach runs the step itself instead.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from itertools import count
from typing import TYPE_CHECKING, Any, TypeVar

from firefight.chance.distribution import Distribution
from firefight.chance.evaluate import Sampled, generator
from firefight.chance.limits import DIRECT_RUNS, MAX_SAMPLED_STEPS, StateLimitError
from firefight.chance.phases import KnownPhase, Phases, Staged
from firefight.chance.protocol import Chance
from firefight.chance.runs import SampledOdds

if TYPE_CHECKING:
    import numpy as np

    from firefight.chance.stepped import Kernel
    from firefight.chance.stepped import Stepped as Process

S = TypeVar("S", bound=Hashable)


def sampled(
    process: Process[S], start: S, n: int, seed: int, steps: int | None = None
) -> SampledOdds[S]:
    """``n`` seeded runs drawn from the cached kernels in batches (the runs in each state
    advance together, one vectorized draw per state and step; for :class:`Phases`, phase
    by phase, the runs of every state through one phase before the next, equal states
    merged between; a state few runs reach runs the step itself instead): the end states'
    counts and the number of steps each run took. ``steps=None`` runs until absorbed."""
    rng = generator(seed)
    chance = Sampled(rng)  # the same generator, for the steps run one by one
    alive: dict[S, int] = {start: n}
    ended: dict[int, dict[S, int]] = {}
    for number in count(0):
        still: dict[S, int] = {}
        for state, runs in alive.items():
            if process.terminal(state) or (steps is not None and number == steps):
                at = ended.setdefault(number, {})
                at[state] = at.get(state, 0) + runs
            else:
                still[state] = runs
        if not still:
            break
        if steps is None and number >= MAX_SAMPLED_STEPS:
            raise StateLimitError("steps in one sampled run", MAX_SAMPLED_STEPS, process.name)
        alive = _advance(process, still, (rng, chance))
    counts: dict[S, int] = {}
    for at in ended.values():
        for state, runs in at.items():
            counts[state] = counts.get(state, 0) + runs
    durations = {number: sum(at.values()) for number, at in sorted(ended.items())}
    return SampledOdds(counts, n, seed, durations, by_steps=ended)


def _advance(
    process: Process[S], still: dict[S, int], draw: tuple[np.random.Generator, Sampled]
) -> dict[S, int]:
    """Advance the runs in each state by one step (phase by phase for phases)."""
    into: dict[S, int] = {}
    if not isinstance(process.step, Phases | Staged):
        for state, runs in still.items():
            _spread(process, -1, process.step, state, runs, draw, into)
        return into
    phases = process.step
    current: dict[Any, int] = {}
    for state, runs in still.items():
        inner = phases.enter(state)
        current[inner] = current.get(inner, 0) + runs
    for index, phase in enumerate(phases.phases):
        following: dict[Any, int] = {}
        for before, k in current.items():
            _spread(process, index, phase, before, k, draw, following)
        current = following
    for inner, k in current.items():
        left = phases.leave(inner)
        into[left] = into.get(left, 0) + k
    return into


def _spread(  # noqa: PLR0917 - private: the process, its step, where it starts, where it goes
    process: Process[Any],
    index: int,
    step: Callable[[Any, Chance], Any],
    state: Any,  # noqa: ANN401 - the process's state, or a phase's own
    runs: int,
    draw: tuple[np.random.Generator, Sampled],
    into: dict[Any, int],
) -> None:
    """Draw the successors of ``runs`` runs in ``state``: by a :class:`KnownPhase`'s own
    draw, from the step's cached kernel in one batch, or, for fewer than
    :data:`DIRECT_RUNS` runs in a state whose kernel is not known yet, by running the
    step itself once per run (an exact kernel costs about one run per branch: not worth
    it for a state seldom visited)."""
    rng, chance = draw
    if isinstance(step, KnownPhase):
        for after, k in step.draw(state, runs, rng):
            into[after] = into.get(after, 0) + k
        return
    key = (index, state)
    sampler = process._samplers.get(key)
    if sampler is None:
        known = state in process._kernels if index < 0 else key in process._phase_kernels
        if not known and runs < DIRECT_RUNS:
            for _ in range(runs):
                after = step(state, chance)
                into[after] = into.get(after, 0) + 1
            chance.trace.clear()
            return
        if index < 0:
            kernel: Kernel[Any] = process.kernel(state)
        else:
            denominator, items = process._phase_kernel(index, step, state)
            kernel = tuple((s, Fraction(w, denominator)) for s, w in items)
        from firefight.chance.batch import Sampler  # noqa: PLC0415 - numpy when sampled

        sampler = Sampler.of(Distribution(iter(kernel)))
        process._samplers[key] = sampler
    for successor, k in zip(sampler.outcomes, sampler.counts(runs, rng), strict=True):
        if k:
            into[successor] = into.get(successor, 0) + int(k)
