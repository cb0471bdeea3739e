"""How far the state engine (:mod:`firefight.chance.process`) goes exactly, and the errors
past it: the limits on distinct states and on a cycle solved exactly, on a sampled run's
steps, the runs below which sampling runs the step itself, and the errors that offer sampled
odds instead. :mod:`firefight.chance.process` imports every name, and reads them from there.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from firefight.errors import FirefightError
from firefight.translation import gettext as _
from firefight.translation import phrase, thousands

__all__ = [
    "DIRECT_RUNS",
    "ESTIMATE_SLACK",
    "KERNEL_COST",
    "MAX_CYCLE_STATES",
    "MAX_EXPANSIONS",
    "MAX_SAMPLED_STEPS",
    "MAX_STATES",
    "PROBE_FROM",
    "PROBE_KERNELS",
    "Budget",
    "NeverAbsorbedError",
    "Probe",
    "StateLimitError",
]

MAX_STATES = 20_000
"""Exact evaluation's limit on distinct states: the states alive at one step of a finite
horizon, or the non-terminal states reachable from the start of an absorbing chain. Each
state's kernel is one exact evaluation of the step, and a chain's states are all kept."""

MAX_EXPANSIONS = 8_000_000
"""Exact evaluation's limit on work, in successors merged (each entry of a kernel added into
the next states) plus :data:`KERNEL_COST` per phase kernel computed, so that one evaluation's
work is bounded by a count, the same on every machine. The work is
counted as it is done, and each step of a horizon estimates its own from its latest
kernels (:class:`Probe`): a step that would pass the limit far stops before it is done,
within about a second of asking."""

KERNEL_COST = 20
"""The work of computing one phase kernel, in successors merged (a fire policy's choice and
an attack's effects)."""

PROBE_KERNELS = 24
"""The latest kernels whose mean work estimates the work of the new kernels left in a step
(or in a phase within it): the latest, since the later kernels reuse the earlier ones'."""

PROBE_FROM = 2
"""The kernels a step computes before it first estimates (and then after each one)."""

ESTIMATE_SLACK = 12
"""A step is refused when its estimated work is more than this many times the limit: the
estimate reads the kernels' mean cost now, and later kernels cost less (they reuse the
earlier ones' work: EPT 6 against 6 of one-step units is estimated at up to 56 million and
does 6 million); an engagement far past the limit is estimated far past it (EPT 12 against
12: 2.5 billion; 6 against 6 of two-step units, over 20,000 states at one step: 97 million
and more), and one just past it is stopped when its work passes the limit."""

MAX_CYCLE_STATES = 300
"""The largest set of states that reach one another (a strongly connected component) that
:meth:`.process.Process.absorption` solves by exact Gaussian elimination: its cost grows up
to the cube of this size, with ``Fraction`` numerators growing too, and a sparse component (a
random walk, two neighbours each) costs far less than a dense one (every state stepping to
many others): the limit bounds the dense case."""

MAX_SAMPLED_STEPS = 10_000
"""A sampled run "until absorbed" stops with an error after this many steps (a process that
never ends must not hang)."""

DIRECT_RUNS = 32
"""Sampled odds run the step itself for fewer runs than this in a state whose kernel is not
known yet, and draw from the (then computed, cached) exact kernel for more."""


class StateLimitError(FirefightError):
    """Exact evaluation would need more states than its limit; sampling is offered instead.

    ``what`` the limit counts is a message of the catalogue (the extraction takes the first
    argument of ``StateLimitError(...)``), or one already worded with its numbers; the error
    keeps its fields, so that a refusal built on it (the engagement optimum's) words its own."""

    def __init__(self, what: str, limit: int, name: str) -> None:
        self.what = what
        self.limit = limit
        self.name = name
        super().__init__(
            _(
                "'{name}' has more than {limit} {what}, the limit for exact odds (see "
                "firefight.chance.process); ask for sampled odds with a confidence interval "
                "instead (Process.sampled)"
            ).format(name=name, limit=thousands(limit), what=phrase(what))
        )


class NeverAbsorbedError(FirefightError):
    """A reachable set of states that no terminal state can be reached from."""

    def __init__(self, name: str, state: object) -> None:
        super().__init__(
            f"'{name}' never ends from state {state!r}: no terminal state can be reached "
            f"from it; ask for a number of steps instead"
        )


@dataclass
class Budget:
    """What one exact evaluation may still do, checked while it is done (never after): the
    states within one step (``max_states``) and the successors it may still merge."""

    name: str
    max_states: int = MAX_STATES
    work: int = MAX_EXPANSIONS

    def spend(self, merged: int) -> None:
        """``merged`` successors were merged; stop past :data:`MAX_EXPANSIONS`."""
        self.work -= merged
        if self.work < 0:
            raise StateLimitError("successors to merge", MAX_EXPANSIONS, self.name)

    def estimate(self, each: float, count: int, slack: float = 0) -> None:
        """Stop now if ``count`` more kernels of ``each`` work would pass the work left (or,
        with ``slack``, that many times the whole limit)."""
        if each * count > (slack * MAX_EXPANSIONS if slack else self.work):
            estimated = int(each * count) + MAX_EXPANSIONS - self.work
            raise StateLimitError(
                _("successors to merge (about {estimated} estimated)").format(
                    estimated=thousands(estimated)
                ),
                MAX_EXPANSIONS,
                self.name,
            )

    def states(self, count: int, within: str) -> None:
        """``count`` states within one ``within``; stop past ``max_states``."""
        if count > self.max_states:
            raise StateLimitError(
                _("states within one {within}").format(within=_(within)), self.max_states, self.name
            )


@dataclass
class Probe:
    """The work of one step's (or phase's) ``new`` kernels, estimated as they are computed
    (:meth:`computed` after each): the latest :data:`PROBE_KERNELS` kernels' mean work times
    the kernels left. A probe that goes on from the step before (``recent``: its probe's)
    estimates at once, from that step's latest kernels: a step of thousands of new states
    after one costly kernel is refused before it computes any."""

    budget: Budget
    new: int
    recent: deque[int] = field(default_factory=lambda: deque(maxlen=PROBE_KERNELS))
    done: int = 0
    last: int = field(init=False)

    def __post_init__(self) -> None:
        self.last = self.budget.work
        if self.recent and self.new:
            mean = sum(self.recent) / len(self.recent)
            self.budget.estimate(mean, self.new, ESTIMATE_SLACK)

    def computed(self) -> None:
        """One more new kernel was computed: stop if the rest would pass the limit."""
        work = self.budget.work
        self.recent.append(self.last - work)
        self.last, self.done = work, self.done + 1
        if len(self.recent) >= PROBE_FROM:
            mean = sum(self.recent) / len(self.recent)
            self.budget.estimate(mean, self.new - self.done, ESTIMATE_SLACK)
