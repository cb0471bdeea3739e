"""How far the state engine (:mod:`firefight.chance.process`) goes exactly, and the errors
past it: the limits on distinct states and on a cycle solved exactly, on a sampled run's
steps, the runs below which sampling runs the step itself, and the errors that offer sampled
odds instead. :mod:`firefight.chance.process` imports every name, and reads them from there.
"""

from __future__ import annotations

from dataclasses import dataclass

from firefight.errors import FirefightError

__all__ = [
    "DIRECT_RUNS",
    "KERNEL_COST",
    "MAX_CYCLE_STATES",
    "MAX_EXPANSIONS",
    "MAX_SAMPLED_STEPS",
    "MAX_STATES",
    "PROBE_KERNELS",
    "PROBE_WORK",
    "Budget",
    "NeverAbsorbedError",
    "StateLimitError",
]

MAX_STATES = 20_000
"""Exact evaluation's limit on distinct states: the states alive at one step of a finite
horizon, or the non-terminal states reachable from the start of an absorbing chain. Each
state's kernel is one exact evaluation of the step, and a chain's states are all kept."""

MAX_EXPANSIONS = 6_000_000
"""Exact evaluation's limit on work, in successors merged (each entry of a kernel added into
the next states) plus :data:`KERNEL_COST` per phase kernel computed: about 1 us each here
(2026), so about 6 s of work at most. The work is counted as it is done, and each step of a
horizon first estimates its own from its first kernels (:data:`PROBE_KERNELS`): a step that
would pass the limit stops before it is done, within about a second of asking."""

KERNEL_COST = 20
"""The work of computing one phase kernel, in successors merged (a fire policy's choice and
an attack's effects, about 20 us here)."""

PROBE_KERNELS = 24
"""The kernels a horizon's step (or a phase within it) computes before it estimates the
work of all of its new states' kernels (their mean work times their number), and again
after each one after them."""

PROBE_WORK = MAX_EXPANSIONS // 20
"""Or the work done in the step before that estimate, if the first kernels cost that much."""

MAX_CYCLE_STATES = 300
"""The largest set of states that reach one another (a strongly connected component) that
:meth:`.process.Process.absorption` solves by exact Gaussian elimination: its cost grows up
to the cube of this size, with ``Fraction`` numerators growing too. Measured here: a 400-state
random walk (two neighbours each) takes 0.07 s, a 300-state cycle where every state steps to
11 others 11 s; the limit keeps the worst case under a minute."""

MAX_SAMPLED_STEPS = 10_000
"""A sampled run "until absorbed" stops with an error after this many steps (a process that
never ends must not hang)."""

DIRECT_RUNS = 32
"""Sampled odds run the step itself for fewer runs than this in a state whose kernel is not
known yet, and draw from the (then computed, cached) exact kernel for more."""


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

    def estimate(self, each: float, count: int) -> None:
        """Stop now if ``count`` more kernels of ``each`` work would pass the limit."""
        if each * count > self.work:
            raise StateLimitError(
                f"successors to merge (about {int(each * count) + MAX_EXPANSIONS - self.work:,}"
                " estimated)",
                MAX_EXPANSIONS,
                self.name,
            )

    def states(self, count: int, within: str) -> None:
        """``count`` states within one ``within``; stop past ``max_states``."""
        if count > self.max_states:
            raise StateLimitError(f"states within one {within}", self.max_states, self.name)
