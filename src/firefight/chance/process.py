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
  a cycle needs an (exact, sparse) linear solve.

Above :data:`MAX_STATES` distinct states (or a cycle of more than :data:`MAX_CYCLE_STATES`)
exact evaluation stops with one line saying so and offering :meth:`Process.sampled`: the same
kernels, sampled in batches, each end state with its Wilson confidence interval, labelled
"sampled".
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import count
from math import gcd, lcm
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from firefight.chance.distribution import Distribution
from firefight.chance.evaluate import Sampled, exact, generator, sample, scripted
from firefight.chance.events import Deck
from firefight.chance.limits import (
    DIRECT_RUNS,
    MAX_CYCLE_STATES,
    MAX_SAMPLED_STEPS,
    MAX_STATES,
    NeverAbsorbedError,
    StateLimitError,
)
from firefight.chance.linear import components as _components
from firefight.chance.linear import solve as _solve
from firefight.chance.phases import IntKernel, KnownPhase, Phases, Staged, Weights, integer_kernel
from firefight.chance.protocol import Chance, TraceEvent

if TYPE_CHECKING:
    import numpy as np

    from firefight.chance.batch import Sampler
from firefight.chance.runs import Absorption, ProcessResolution, SampledOdds, Step

__all__ = [
    "DIRECT_RUNS",
    "MAX_CYCLE_STATES",
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


Kernel = tuple[tuple[S, Fraction], ...]


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

    def integer_kernel(self, state: S, max_states: int = MAX_STATES) -> IntKernel[S]:
        """:meth:`kernel` as integer weights over one denominator (cached); a phased step
        whose phases name their ``within`` stops past ``max_states`` states within it."""
        found = self._int_kernels.get(state)
        if found is None:
            if isinstance(self.step, Phases | Staged):
                found = self._phased_kernel(self.step, state, max_states)
            else:
                found = integer_kernel(self.kernel(state))
            self._int_kernels[state] = found
        return found

    def _phased_kernel(
        self, phases: Phases[S] | Staged[S, Any], state: S, max_states: int
    ) -> IntKernel[S]:
        current: dict[Any, int] = {phases.enter(state): 1}
        denominator = 1
        for index, phase in enumerate(phases.phases):
            kernels = [(mass, self._phase_kernel(index, phase, s)) for s, mass in current.items()]
            common = lcm(*(k[0] for _, k in kernels))
            following: dict[Any, int] = {}
            get = following.get
            for mass, (kernel_denominator, items) in kernels:
                scaled = mass * (common // kernel_denominator)
                for after, weight in items:
                    following[after] = get(after, 0) + scaled * weight
            if phases.within is not None and len(following) > max_states:
                raise StateLimitError(f"states within one {phases.within}", max_states, self.name)
            current = following
            denominator *= common
        merged: dict[S, int] = {}
        for inner, mass in current.items():
            left = phases.leave(inner)
            merged[left] = merged.get(left, 0) + mass
        divisor = gcd(denominator, *merged.values())
        return denominator // divisor, tuple((s, m // divisor) for s, m in merged.items())

    def _phase_kernel(
        self, index: int, phase: Callable[[Any, Chance], Any], state: Hashable
    ) -> IntKernel[Any]:
        key = (index, state)
        found = self._phase_kernels.get(key)
        if found is None:
            if isinstance(phase, KnownPhase):
                found = phase.integer_kernel(state)
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
        current: dict[S, int] = {start: 1}
        denominator = 1
        result = [Weights(current, denominator)]
        for _ in range(steps):
            kernels = {
                s: (1, ((s, 1),)) if self.terminal(s) else self.integer_kernel(s, max_states)
                for s in current
            }
            common = lcm(*(k[0] for k in kernels.values()))
            following: dict[S, int] = {}
            for state, mass in current.items():
                kernel_denominator, items = kernels[state]
                scaled = mass * (common // kernel_denominator)
                for successor, weight in items:
                    following[successor] = following.get(successor, 0) + scaled * weight
            if len(following) > max_states:
                raise StateLimitError("states at one step", max_states, self.name)
            current = following
            denominator *= common
            result.append(Weights(current, denominator))
        return tuple(result)

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
        expected number of steps, the process solved as an absorbing Markov chain."""
        if self.terminal(start):
            return Absorption(Distribution({start: Fraction(1)}), Fraction(0), 0)
        transient = self._explore(start, max_states)
        components = _components(transient, self._transient_successors)
        visits: dict[S, Fraction] = {}
        inflow: dict[S, Fraction] = {start: Fraction(1)}
        absorbed: dict[S, Fraction] = {}
        for component in reversed(components):  # Tarjan gives sinks first
            members = set(component)
            leaves = any(
                successor not in members for state in component for successor, _ in transient[state]
            )
            if not leaves:
                raise NeverAbsorbedError(self.name, component[0])
            if len(component) > max_cycle_states:
                raise StateLimitError("states that reach one another", max_cycle_states, self.name)
            solved = self._solve_component(component, members, transient, inflow)
            for state, expected in solved.items():
                visits[state] = expected
                for successor, p in transient[state]:
                    if successor in members:
                        continue
                    target = absorbed if self.terminal(successor) else inflow
                    target[successor] = target.get(successor, 0) + expected * p
        return Absorption(Distribution(absorbed), sum(visits.values(), Fraction(0)), len(visits))

    def _transient_successors(self, state: S) -> Iterator[S]:
        return (s for s, _ in self.kernel(state) if not self.terminal(s))

    def _explore(self, start: S, max_states: int) -> dict[S, Kernel[S]]:
        """Every non-terminal state reachable from ``start``, with its kernel."""
        found: dict[S, Kernel[S]] = {}
        frontier = [start]
        while frontier:
            state = frontier.pop()
            if state in found:
                continue
            if len(found) >= max_states:
                raise StateLimitError("reachable states", max_states, self.name)
            kernel = self.kernel(state)
            found[state] = kernel
            frontier.extend(s for s, _ in kernel if s not in found and not self.terminal(s))
        return found

    @staticmethod
    def _solve_component(
        component: Sequence[S],
        members: set[S],
        transient: dict[S, Kernel[S]],
        inflow: dict[S, Fraction],
    ) -> dict[S, Fraction]:
        """Expected visits v to each state of one component: v_s = inflow_s + sum_r v_r Q(r,s)."""
        if len(component) == 1:
            (state,) = component
            stay = sum((p for s, p in transient[state] if s == state), Fraction(0))
            return {state: inflow.get(state, Fraction(0)) / (1 - stay)}
        rows: dict[S, dict[S, Fraction]] = {s: {s: Fraction(1)} for s in component}
        for source in component:
            for successor, p in transient[source]:
                if successor in members:
                    row = rows[successor]
                    row[source] = row.get(source, 0) - p
        rhs = {s: inflow.get(s, Fraction(0)) for s in component}
        return _solve(rows, rhs)

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
                if self.terminal(state) or (steps is not None and number == steps):
                    at = ended.setdefault(number, {})
                    at[state] = at.get(state, 0) + runs
                else:
                    still[state] = runs
            if not still:
                break
            if steps is None and number >= MAX_SAMPLED_STEPS:
                raise StateLimitError("steps in one sampled run", MAX_SAMPLED_STEPS, self.name)
            alive = self._advance(still, (rng, chance))
        counts: dict[S, int] = {}
        for at in ended.values():
            for state, runs in at.items():
                counts[state] = counts.get(state, 0) + runs
        durations = {number: sum(at.values()) for number, at in sorted(ended.items())}
        return SampledOdds(counts, n, seed, durations, by_steps=ended)

    def _advance(
        self, still: dict[S, int], draw: tuple[np.random.Generator, Sampled]
    ) -> dict[S, int]:
        """Advance the runs in each state by one step (phase by phase for phases)."""
        into: dict[S, int] = {}
        if not isinstance(self.step, Phases | Staged):
            for state, runs in still.items():
                self._spread(-1, self.step, state, runs, draw, into)
            return into
        phases = self.step
        current: dict[Any, int] = {}
        for state, runs in still.items():
            inner = phases.enter(state)
            current[inner] = current.get(inner, 0) + runs
        for index, phase in enumerate(phases.phases):
            following: dict[Any, int] = {}
            for before, k in current.items():
                self._spread(index, phase, before, k, draw, following)
            current = following
        for inner, k in current.items():
            left = phases.leave(inner)
            into[left] = into.get(left, 0) + k
        return into

    def _spread(  # noqa: PLR0917 - private: the step, where it starts, and where it goes
        self,
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
        sampler = self._samplers.get(key)
        if sampler is None:
            known = state in self._kernels if index < 0 else key in self._phase_kernels
            if not known and runs < DIRECT_RUNS:
                for _ in range(runs):
                    after = step(state, chance)
                    into[after] = into.get(after, 0) + 1
                chance.trace.clear()
                return
            if index < 0:
                kernel: Kernel[Any] = self.kernel(state)
            else:
                denominator, items = self._phase_kernel(index, step, state)
                kernel = tuple((s, Fraction(w, denominator)) for s, w in items)
            from firefight.chance.batch import Sampler  # noqa: PLC0415 - numpy when sampled

            sampler = Sampler.of(Distribution(iter(kernel)))
            self._samplers[key] = sampler
        for successor, k in zip(sampler.outcomes, sampler.counts(runs, rng), strict=True):
            if k:
                into[successor] = into.get(successor, 0) + int(k)


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
