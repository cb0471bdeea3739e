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
from typing import Generic, TypeVar

import numpy as np

from firefight.chance.batch import Sampler, wilson
from firefight.chance.distribution import Distribution
from firefight.chance.evaluate import Sampled, exact, generator, sample, scripted
from firefight.chance.events import Deck
from firefight.chance.protocol import Chance, Resolution, TraceEvent
from firefight.errors import FirefightError

S = TypeVar("S", bound=Hashable)
R = TypeVar("R", bound=Hashable)

MAX_STATES = 20_000
"""Exact evaluation's limit on distinct states: the states alive at one step of a finite
horizon, or the non-terminal states reachable from the start of an absorbing chain. Each
state's kernel is one exact evaluation of the step, and a chain's states are all kept."""

MAX_CYCLE_STATES = 300
"""The largest set of states that reach one another (a strongly connected component) that
:meth:`Process.absorption` solves by exact Gaussian elimination: its cost grows up to the
cube of this size, with ``Fraction`` numerators growing too. Measured here: a 400-state
random walk (two neighbours each) takes 0.07 s, a 300-state cycle where every state steps to
11 others 11 s; the limit keeps the worst case under a minute."""

MAX_SAMPLED_STEPS = 10_000
"""A sampled run "until absorbed" stops with an error after this many steps (a process that
never ends must not hang)."""

DIRECT_RUNS = 32
"""Sampled odds run the step itself for fewer runs than this in a state whose kernel is not
known yet, and draw from the (then computed, cached) exact kernel for more."""

STEP_LABEL = "process step"
"""The label of the note that opens each step of a sampled or replayed process's trace."""


class StateLimitError(FirefightError):
    """Exact evaluation would need more states than its limit; sampling is offered instead."""

    def __init__(self, what: str, limit: int, name: str) -> None:
        self.limit = limit
        super().__init__(
            f"'{name}' has more than {limit:,} {what}, the limit for exact odds "
            f"(see firefight.chance.process); ask for sampled odds with a confidence "
            f"interval instead (Process.sampled)"
        )


class NeverAbsorbedError(FirefightError):
    """A reachable set of states that no terminal state can be reached from."""

    def __init__(self, name: str, state: object) -> None:
        super().__init__(
            f"'{name}' never ends from state {state!r}: no terminal state can be reached "
            f"from it; ask for a number of steps instead"
        )


def _never(_: object) -> bool:
    return False


Kernel = tuple[tuple[S, Fraction], ...]


@dataclass(frozen=True, eq=False)
class Step(Generic[S]):
    """One step of a sampled or replayed process: the state before, after, and its events."""

    number: int
    before: S
    after: S
    trace: tuple[TraceEvent, ...]


@dataclass(frozen=True, eq=False)
class ProcessResolution(Generic[S]):
    """A whole sampled (seeded) or replayed (player's dice) run, step by step."""

    start: S
    steps: tuple[Step[S], ...]
    seed: int | None = None

    @property
    def final(self) -> S:
        """The state the run ended in."""
        return self.steps[-1].after if self.steps else self.start

    @property
    def trace(self) -> tuple[TraceEvent, ...]:
        """Every event of every step, in order."""
        return tuple(event for step in self.steps for event in step.trace)

    def replay_values(self) -> list[str]:
        """The values that make :meth:`Process.replay` repeat this run."""
        return Resolution(self.final, self.trace).replay_values()

    def to_json(self) -> dict[str, object]:
        """``{"seed", "start", "final", "steps": [{"step", "before", "after", "trace"}]}``,
        each state as its ``str``."""
        return {
            "seed": self.seed,
            "start": str(self.start),
            "final": str(self.final),
            "steps": [
                {
                    "step": step.number,
                    "before": str(step.before),
                    "after": str(step.after),
                    "trace": [event.to_json() for event in step.trace],
                }
                for step in self.steps
            ],
        }


@dataclass(frozen=True)
class Absorption(Generic[S]):
    """An absorbing chain's exact answer: where it ends and after how many steps."""

    terminal: Distribution[S]
    """The probability of ending in each terminal state."""
    expected_steps: Fraction
    """The expected number of steps until a terminal state."""
    states: int
    """How many non-terminal states were reachable (and solved)."""

    def to_json(self) -> dict[str, object]:
        """``{"exact": true, "terminal": {STATE: "p/q"}, "expected_steps": "p/q", "states"}``."""
        return {
            "exact": True,
            "terminal": self.terminal.to_json(),
            "expected_steps": str(self.expected_steps),
            "states": self.states,
        }


@dataclass(frozen=True)
class SampledOdds(Generic[S]):
    """End states of ``n`` seeded runs: frequencies with confidence intervals, never exact."""

    counts: dict[S, int]
    n: int
    seed: int
    steps: dict[int, int]
    """How many runs took each number of steps."""
    label: str = "sampled"

    def probability(self, state: S) -> float:
        """The observed frequency of ``state``."""
        return self.counts.get(state, 0) / self.n

    def interval(self, state: S, z: float = 1.96) -> tuple[float, float]:
        """The Wilson score interval of ``state``'s probability (95 % by default)."""
        return wilson(self.counts.get(state, 0), self.n, z)

    @property
    def mean_steps(self) -> float:
        """The mean number of steps over the runs."""
        return sum(k * c for k, c in self.steps.items()) / self.n

    def steps_interval(self, z: float = 1.96) -> tuple[float, float]:
        """The normal-approximation interval of the expected number of steps."""
        mean = self.mean_steps
        if self.n < 2:
            return mean, mean
        variance = sum(c * (k - mean) ** 2 for k, c in self.steps.items()) / (self.n - 1)
        half = z * (variance / self.n) ** 0.5
        return mean - half, mean + half

    def to_json(self) -> dict[str, object]:
        """``{"exact": false, "label": "sampled", "n", "seed", "end_states": {STATE:
        {"count", "frequency", "interval": [low, high]}}, "mean_steps", "steps_interval"}``
        (95 % intervals: Wilson for the frequencies, normal for the mean)."""
        return {
            "exact": False,
            "label": self.label,
            "n": self.n,
            "seed": self.seed,
            "end_states": {
                str(state): {
                    "count": count_,
                    "frequency": count_ / self.n,
                    "interval": list(self.interval(state)),
                }
                for state, count_ in self.counts.items()
            },
            "mean_steps": self.mean_steps,
            "steps_interval": list(self.steps_interval()),
        }


@dataclass(frozen=True)
class Phases(Generic[S]):
    """A step made of phases run one after the other (each unit's fire in a turn, then the
    rally phase): called, it runs them in order on one ``chance``, so a sampled or replayed
    step is the phases' events in order. Its exact kernel is built phase by phase, each
    phase's kernel cached per state and equal states merged between phases, instead of one
    prefix replay across every phase's events (whose cost multiplies phase by phase)."""

    phases: tuple[Callable[[S, Chance], S], ...]

    def __call__(self, state: S, chance: Chance) -> S:
        for phase in self.phases:
            state = phase(state, chance)
        return state


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
    _samplers: dict[tuple[int, S], Sampler[S]] = field(default_factory=dict, repr=False)
    _phase_kernels: dict[tuple[int, S], Kernel[S]] = field(default_factory=dict, repr=False)

    # --- the kernel --------------------------------------------------------------------------

    def kernel(self, state: S) -> Kernel[S]:
        """The step's exact distribution of next states from ``state`` (cached)."""
        found = self._kernels.get(state)
        if found is None:
            if isinstance(self.step, Phases):
                found = self._phased_kernel(self.step, state)
            else:
                found = _exact_kernel(self.step, state)
            self._kernels[state] = found
        return found

    def _phased_kernel(self, phases: Phases[S], state: S) -> Kernel[S]:
        current: dict[S, Fraction] = {state: Fraction(1)}
        for index, phase in enumerate(phases.phases):
            following: dict[S, Fraction] = {}
            for before, mass in current.items():
                for after, p in self._phase_kernel(index, phase, before):
                    following[after] = following.get(after, 0) + mass * p
            current = following
        return tuple(current.items())

    def _phase_kernel(self, index: int, phase: Callable[[S, Chance], S], state: S) -> Kernel[S]:
        key = (index, state)
        found = self._phase_kernels.get(key)
        if found is None:
            found = _exact_kernel(phase, state)
            self._phase_kernels[key] = found
        return found

    # --- exact: finite horizon ---------------------------------------------------------------

    def distributions(
        self, start: S, steps: int, *, max_states: int = MAX_STATES
    ) -> tuple[Distribution[S], ...]:
        """The exact distribution of the state after 0, 1, ..., ``steps`` steps (a terminal
        state stays as it is); equal states are merged after every step."""
        current: dict[S, Fraction] = {start: Fraction(1)}
        result = [Distribution(current)]
        for _ in range(steps):
            following: dict[S, Fraction] = {}
            for state, mass in current.items():
                if self.terminal(state):
                    following[state] = following.get(state, 0) + mass
                    continue
                for successor, p in self.kernel(state):
                    following[successor] = following.get(successor, 0) + mass * p
            if len(following) > max_states:
                raise StateLimitError("states at one step", max_states, self.name)
            current = following
            result.append(Distribution(current))
        return tuple(result)

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
        advance together, one vectorized draw per state and step, phase by phase for
        :class:`Phases`; a state few runs reach runs the step itself instead): the end states'
        counts and the number of steps each run took. ``steps=None`` runs until absorbed."""
        rng = generator(seed)
        chance = Sampled(rng)  # the same generator, for the steps run one by one
        alive: dict[S, int] = {start: n}
        ended: dict[S, int] = {}
        durations: dict[int, int] = {}
        for number in count(0):
            still: dict[S, int] = {}
            for state, runs in alive.items():
                if self.terminal(state) or (steps is not None and number == steps):
                    ended[state] = ended.get(state, 0) + runs
                    durations[number] = durations.get(number, 0) + runs
                else:
                    still[state] = runs
            if not still:
                break
            if steps is None and number >= MAX_SAMPLED_STEPS:
                raise StateLimitError("steps in one sampled run", MAX_SAMPLED_STEPS, self.name)
            alive = {}
            for state, runs in still.items():
                self._advance(state, runs, (rng, chance), alive)
        return SampledOdds(ended, n, seed, dict(sorted(durations.items())))

    def _advance(
        self, state: S, runs: int, draw: tuple[np.random.Generator, Sampled], into: dict[S, int]
    ) -> None:
        """Advance ``runs`` runs in ``state`` by one step (phase by phase for phases)."""
        if not isinstance(self.step, Phases):
            self._spread(-1, self.step, state, runs, draw, into)
            return
        current = {state: runs}
        for index, phase in enumerate(self.step.phases):
            following: dict[S, int] = {}
            for before, k in current.items():
                self._spread(index, phase, before, k, draw, following)
            current = following
        for after, k in current.items():
            into[after] = into.get(after, 0) + k

    def _spread(  # noqa: PLR0917 - private: the step, where it starts, and where it goes
        self,
        index: int,
        step: Callable[[S, Chance], S],
        state: S,
        runs: int,
        draw: tuple[np.random.Generator, Sampled],
        into: dict[S, int],
    ) -> None:
        """Draw the successors of ``runs`` runs in ``state``: from the step's cached kernel in
        one batch, or, for fewer than :data:`DIRECT_RUNS` runs in a state whose kernel is not
        known yet, by running the step itself once per run (an exact kernel costs about one
        run per branch: not worth it for a state seldom visited)."""
        rng, chance = draw
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
            kernel = self.kernel(state) if index < 0 else self._phase_kernel(index, step, state)
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


def _components(graph: dict[S, Kernel[S]], successors: Callable[[S], Iterator[S]]) -> list[list[S]]:
    """Tarjan's strongly connected components (iterative), sinks first."""
    index: dict[S, int] = {}
    low: dict[S, int] = {}
    on_stack: set[S] = set()
    stack: list[S] = []
    components: list[list[S]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work: list[tuple[S, Iterator[S]]] = [(root, successors(root))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, successors(child)))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[S] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(component)
    return components


def _solve(rows: dict[R, dict[S, Fraction]], rhs: dict[R, Fraction]) -> dict[S, Fraction]:
    """Solve the sparse linear system ``sum_c rows[r][c] x_c = rhs[r]`` exactly (Gaussian
    elimination with ``Fraction``). Each pivot is taken from the shortest remaining row, on
    its unknown held by the fewest rows (Markowitz's rule), to keep the fill-in small."""
    pending = {r: dict(row) for r, row in rows.items()}
    values = dict(rhs)
    holders: dict[S, set[R]] = {}
    for r, row in pending.items():
        for c in row:
            holders.setdefault(c, set()).add(r)
    solved: dict[S, tuple[dict[S, Fraction], Fraction]] = {}
    while pending:
        pivot_row = min(pending, key=lambda r: len(pending[r]))
        row = pending.pop(pivot_row)
        unknown = min(row, key=lambda c: len(holders[c]))
        for c in row:
            holders[c].discard(pivot_row)
        scale = row[unknown]
        row = {c: v / scale for c, v in row.items()}
        value = values.pop(pivot_row) / scale
        for other in list(holders.pop(unknown)):
            other_row = pending[other]
            factor = other_row[unknown]
            for c, v in row.items():
                updated = other_row.get(c, 0) - factor * v
                if updated:
                    if c not in other_row and c != unknown:
                        holders[c].add(other)
                    other_row[c] = updated
                else:
                    other_row.pop(c, None)
                    if c != unknown:
                        holders[c].discard(other)
            values[other] -= factor * value
        solved[unknown] = (row, value)
    # Back-substitution, last pivot first: a pivot's row holds only unknowns pivoted later.
    result: dict[S, Fraction] = {}
    for unknown in reversed(list(solved)):
        row, value = solved[unknown]
        result[unknown] = value - sum(
            (v * result[c] for c, v in row.items() if c != unknown), Fraction(0)
        )
    return result


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
