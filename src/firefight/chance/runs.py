"""What a process's runs and answers are: a run step by step, an absorbing chain's exact
answer, sampled end states with their intervals (:mod:`firefight.chance.process`)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Generic, TypeVar

from firefight.chance.distribution import Distribution
from firefight.chance.interval import wilson
from firefight.chance.protocol import Resolution, TraceEvent

S = TypeVar("S", bound=Hashable)


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
    by_steps: dict[int, dict[S, int]] = field(default_factory=dict)
    """The end states of the runs that took each number of steps (a run ends in a terminal
    state, or at the last step of a finite horizon)."""

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
