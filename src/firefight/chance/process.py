"""Exact odds over state: a process is a step ``step(state, chance) -> state`` repeated.

The step is an ordinary rule procedure over :class:`~firefight.chance.protocol.Chance`, so the
same step is sampled with a trace, replayed with the player's dice and evaluated exactly by
:func:`~firefight.chance.evaluate.exact` (the step's *transition kernel*, cached per state:
no rule is written twice). States are hashable and immutable.

Exact evaluation propagates a distribution over states and merges equal states after every
step, so its cost is (distinct states x steps), never (events ^ steps) as re-running a whole
sequence once per prefix of events would be:

* :meth:`Process.distributions` / :meth:`Process.after`: a finite horizon of N steps (a
  terminal state, if the process has any, stops there);
* :meth:`Process.absorption`: "until absorbed", for processes that may cycle (a unit rallies
  and is pinned again), solved exactly as an absorbing Markov chain with ``Fraction``: the
  probability of each terminal state and the expected number of steps. The reachable states
  are explored, split into strongly connected components and solved component by component
  in topological order: an acyclic stretch costs one multiplication per transition and only
  a cycle needs an (exact, sparse) linear solve (:mod:`firefight.chance.absorbing`).

Above :data:`MAX_STATES` distinct states (or a cycle of more than :data:`MAX_CYCLE_STATES`)
exact evaluation stops with one line saying so and offering :meth:`Process.sampled`: the same
kernels, sampled in batches (:mod:`firefight.chance.sampling`), each end state with its Wilson
confidence interval, labelled "sampled".
"""

from __future__ import annotations

import gc
from collections import deque
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import count
from math import lcm
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from firefight.chance.absorbing import absorption as _absorption
from firefight.chance.distribution import Distribution
from firefight.chance.evaluate import exact, sample, scripted
from firefight.chance.events import Deck
from firefight.chance.horizon import merged_phase, phase_kernels, phased_weights, reduced
from firefight.chance.limits import (
    DIRECT_RUNS,
    MAX_CYCLE_STATES,
    MAX_EXPANSIONS,
    MAX_SAMPLED_STEPS,
    MAX_STATES,
    PROBE_KERNELS,
    Budget,
    NeverAbsorbedError,
    Probe,
    StateLimitError,
)
from firefight.chance.phases import IntKernel, KnownPhase, Phases, Staged, Weights, integer_kernel
from firefight.chance.protocol import Chance, TraceEvent
from firefight.chance.runs import Absorption, ProcessResolution, SampledOdds, Step
from firefight.chance.sampling import sampled as _sampled
from firefight.chance.stepped import Kernel

if TYPE_CHECKING:
    from firefight.chance.batch import Sampler

__all__ = [
    "DIRECT_RUNS",
    "MAX_CYCLE_STATES",
    "MAX_EXPANSIONS",
    "MAX_SAMPLED_STEPS",
    "MAX_STATES",
    "STEP_LABEL",
    "Absorption",
    "IntKernel",
    "Kernel",
    "KnownPhase",
    "NeverAbsorbedError",
    "Phases",
    "Process",
    "ProcessResolution",
    "SampledOdds",
    "Staged",
    "StateLimitError",
    "Step",
    "Weights",
    "draw_step",
    "hands",
    "integer_kernel",
]

S = TypeVar("S", bound=Hashable)

STEP_LABEL = "process step"
"""The label of the note that opens each step of a sampled or replayed process's trace."""


def _never(_: object) -> bool:
    return False


@dataclass(frozen=True, eq=False)
class Process(Generic[S]):
    """A step repeated over hashable, immutable states.

    ``step(state, chance)`` is an ordinary rule procedure; ``terminal(state)`` says where the
    process stops (by default nowhere: only a finite horizon then ends it). ``name`` names it
    in errors. The step's exact distribution from each state (its kernel) is computed once,
    by :func:`~firefight.chance.evaluate.exact`, and cached on the process: the cache lives
    as long as the process object (build one per situation; keep it to reuse its kernels).
    """

    step: Callable[[S, Chance], S]
    terminal: Callable[[S], bool] = _never
    name: str = "process"
    _kernels: dict[S, Kernel[S]] = field(default_factory=dict, repr=False)
    _int_kernels: dict[S, IntKernel[S]] = field(default_factory=dict, repr=False)
    _samplers: dict[tuple[int, Hashable], Sampler[Any]] = field(default_factory=dict, repr=False)
    _phase_kernels: dict[tuple[int, Hashable], IntKernel[Any]] = field(
        default_factory=dict, repr=False
    )

    # --- the kernel --------------------------------------------------------------------------

    def kernel(self, state: S) -> Kernel[S]:
        """The step's exact distribution of next states from ``state`` (cached)."""
        found = self._kernels.get(state)
        if found is None:
            if isinstance(self.step, Phases | Staged):
                denominator, items = self.integer_kernel(state)
                found = tuple((s, Fraction(w, denominator)) for s, w in items)
            else:
                found = _exact_kernel(self.step, state)
            self._kernels[state] = found
        return found

    def integer_kernel(
        self, state: S, max_states: int = MAX_STATES, budget: Budget | None = None
    ) -> IntKernel[S]:
        """:meth:`kernel` as integer weights over one denominator (cached); a phased step
        whose phases name their ``within`` stops past ``max_states`` states within it, and
        past the ``budget`` of successors merged (:class:`~firefight.chance.limits.Budget`)."""
        found = self._int_kernels.get(state)
        if found is None:
            if isinstance(self.step, Phases | Staged):
                found = self._phased_kernel(
                    self.step, state, budget or Budget(self.name, max_states)
                )
            else:
                found = integer_kernel(self.kernel(state))
            self._int_kernels[state] = found
        return found

    def _phased_kernel(
        self, phases: Phases[S] | Staged[S, Any], state: S, budget: Budget
    ) -> IntKernel[S]:
        current: dict[Any, int] = {phases.enter(state): 1}
        denominator = 1
        for index, phase in enumerate(phases.phases):
            kernels = phase_kernels(self, index, phase, current, budget)
            current, common = merged_phase(kernels, budget, phases.within)
            denominator *= common
        merged: dict[S, int] = {}
        for inner, mass in current.items():
            left = phases.leave(inner)
            merged[left] = merged.get(left, 0) + mass
        found = reduced(merged, denominator)
        return found.denominator, tuple(found.masses.items())

    def _phase_kernel(
        self,
        index: int,
        phase: Callable[[Any, Chance], Any],
        state: Hashable,
        budget: Budget | None = None,
    ) -> IntKernel[Any]:
        key = (index, state)
        found = self._phase_kernels.get(key)
        if found is None:
            if isinstance(phase, KnownPhase):
                found = phase.integer_kernel(state, budget)
            else:
                found = integer_kernel(_exact_kernel(phase, state))
            self._phase_kernels[key] = found
        return found

    # --- exact: finite horizon ---------------------------------------------------------------

    def weights(
        self, start: S, steps: int, *, max_states: int = MAX_STATES
    ) -> tuple[Weights[S], ...]:
        """The state after 0, 1, ..., ``steps`` steps as integer masses over a common
        denominator (a terminal state stays as it is); equal states merged after every step."""
        with _no_collection():
            if isinstance(self.step, Phases | Staged):  # the whole distribution phase by phase
                return phased_weights(self, self.step, start, steps, max_states)
            return self._weights(start, steps, max_states)

    def _weights(self, start: S, steps: int, max_states: int) -> tuple[Weights[S], ...]:
        current: dict[S, int] = {start: 1}
        denominator = 1
        result = [Weights(current, denominator)]
        budget = Budget(self.name, max_states)
        recent: deque[int] = deque(maxlen=PROBE_KERNELS)
        for _ in range(steps):
            kernels = self._step_kernels(current, budget, recent)
            common = lcm(*(k[0] for k in kernels.values()))
            following: dict[S, int] = {}
            for state, mass in current.items():
                kernel_denominator, items = kernels[state]
                scaled = mass * (common // kernel_denominator)
                for successor, weight in items:
                    following[successor] = following.get(successor, 0) + scaled * weight
                if len(following) > max_states:
                    raise StateLimitError("states at one step", max_states, self.name)
            budget.spend(len(following))
            result.append(reduced(following, denominator * common))
            current, denominator = result[-1].masses, result[-1].denominator
        return tuple(result)

    def _step_kernels(
        self, current: dict[S, int], budget: Budget, recent: deque[int]
    ) -> dict[S, IntKernel[S]]:
        """Every state's kernel for one step, the work counted as it is done and estimated
        before the first new kernel (from ``recent``, the latest kernels of the steps before,
        which it updates) and after each (:class:`~firefight.chance.limits.Probe`): the step
        stops at once if it would pass the limit."""
        kernels: dict[S, IntKernel[S]] = {}
        new = sum(1 for s in current if s not in self._int_kernels)
        probe = Probe(budget, new, recent)
        for s in current:
            if self.terminal(s):
                kernels[s] = (1, ((s, 1),))
                continue
            fresh = s not in self._int_kernels
            kernels[s] = self.integer_kernel(s, budget=budget)
            if fresh:
                probe.computed()
        return kernels

    def distributions(
        self, start: S, steps: int, *, max_states: int = MAX_STATES
    ) -> tuple[Distribution[S], ...]:
        """The exact distribution of the state after 0, 1, ..., ``steps`` steps (a terminal
        state stays as it is); equal states are merged after every step."""
        return tuple(w.distribution() for w in self.weights(start, steps, max_states=max_states))

    def after(self, start: S, steps: int, *, max_states: int = MAX_STATES) -> Distribution[S]:
        """The exact distribution of the state after ``steps`` steps."""
        return self.distributions(start, steps, max_states=max_states)[-1]

    def ended_by(
        self, start: S, steps: int, *, max_states: int = MAX_STATES
    ) -> tuple[Fraction, ...]:
        """The exact probability that a terminal state is reached by step 0, 1, ..., ``steps``
        ("decided by turn t")."""
        return tuple(
            d.probability(self.terminal)
            for d in self.distributions(start, steps, max_states=max_states)
        )

    # --- exact: until absorbed ---------------------------------------------------------------

    def absorption(
        self,
        start: S,
        *,
        max_states: int = MAX_STATES,
        max_cycle_states: int = MAX_CYCLE_STATES,
    ) -> Absorption[S]:
        """Run until a terminal state, exactly: each terminal state's probability and the
        expected number of steps, the process solved as an absorbing Markov chain
        (:func:`firefight.chance.absorbing.absorption`)."""
        return _absorption(self, start, max_states, max_cycle_states)

    # --- sampled -----------------------------------------------------------------------------

    def run(self, start: S, chance: Chance, steps: int | None = None) -> tuple[S, ...]:
        """One run as a procedure over ``chance``: the states from ``start`` on, each step
        opened in the trace by a note labelled :data:`STEP_LABEL`. ``steps=None`` runs until
        a terminal state (at most :data:`MAX_SAMPLED_STEPS`)."""
        path = [start]
        state = start
        for number in count(1):
            if self.terminal(state) or (steps is not None and number > steps):
                break
            if steps is None and number > MAX_SAMPLED_STEPS:
                raise StateLimitError("steps in one sampled run", MAX_SAMPLED_STEPS, self.name)
            chance.note(STEP_LABEL, str(number))
            state = self.step(state, chance)
            path.append(state)
        return tuple(path)

    def sample(self, start: S, seed: int, steps: int | None = None) -> ProcessResolution[S]:
        """One seeded run with the whole trace, step by step."""
        resolution = sample(lambda chance: self.run(start, chance, steps), seed)
        return _by_step(resolution.outcome, resolution.trace, seed)

    def replay(
        self, start: S, values: Sequence[int | str], steps: int | None = None
    ) -> ProcessResolution[S]:
        """One run with the dice (or cards) the player rolled, read as
        :func:`~firefight.chance.evaluate.scripted` reads them."""
        resolution = scripted(lambda chance: self.run(start, chance, steps), values)
        return _by_step(resolution.outcome, resolution.trace, None)

    def sampled(self, start: S, n: int, seed: int, steps: int | None = None) -> SampledOdds[S]:
        """``n`` seeded runs drawn from the cached kernels in batches (the runs in each state
        advance together, one vectorized draw per state and step; for :class:`Phases`, phase
        by phase; :func:`firefight.chance.sampling.sampled`): the end states' counts and the
        number of steps each run took. ``steps=None`` runs until absorbed."""
        return _sampled(self, start, n, seed, steps)


@contextmanager
def _no_collection() -> Iterator[None]:
    """The cyclic garbage collector paused: an exact evaluation makes millions of small
    tuples and no cycles, and the collector's passes over them cost a third of its time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _exact_kernel(step: Callable[[S, Chance], S], state: S) -> Kernel[S]:
    """One step from ``state``, evaluated exactly by the engine's own prefix replay."""
    return tuple(exact(lambda chance: step(state, chance)).items())


def _by_step(
    path: tuple[S, ...], trace: tuple[TraceEvent, ...], seed: int | None
) -> ProcessResolution[S]:
    chunks: list[list[TraceEvent]] = []
    for event in trace:
        if event.kind == "note" and event.label == STEP_LABEL:
            chunks.append([])
        elif chunks:
            chunks[-1].append(event)
    steps = tuple(
        Step(number, path[number - 1], path[number], tuple(events))
        for number, events in enumerate(chunks, start=1)
    )
    return ProcessResolution(path[0], steps, seed)


# --- draws without replacement as state -------------------------------------------------------


def draw_step(deck: Deck, chance: Chance) -> Deck:
    """Draw one card without replacement: the state is the deck left (its count per card
    signature), so equal hands drawn in different orders merge."""
    return deck.without(chance.draw(deck, "draw"))


def hands(deck: Deck, k: int) -> Distribution[tuple[tuple[str, int], ...]]:
    """The exact distribution of the hand ``k`` cards drawn from ``deck`` make, as
    ``((signature, how many), ...)``: k steps of :func:`draw_step`, equal decks merged after
    each draw, so the cost is polynomial in k (a prefix replay's is exponential). Each call
    has its own drawing process, so no kernel outlives it."""
    if not 0 <= k <= deck.size:
        msg = f"cannot draw {k} cards from a deck of {deck.size}"
        raise ValueError(msg)
    drawing = Process(draw_step, name="drawing")
    return drawing.after(deck, k).map(deck.drawn)
