"""How an engagement ends, exactly or sampled: the answer's figures and their JSON
(docs/engagements.md), computed from the state engine's weights or sampled runs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any, Protocol

from firefight.chance.batch import wilson
from firefight.chance.process import ProcessResolution, SampledOdds, Weights
from firefight.rulesets.engagement import EngagementRules
from firefight.sim.scenario import SIDES, Scenario

State = tuple[tuple[Any, ...], tuple[Any, ...]]
"""Both sides' unit states, side a first."""


class Fought(Protocol):
    """What an answer reads of its engagement (:class:`firefight.sim.engagement.Engagement`):
    the scenario, its rules, and what a state means."""

    scenario: Scenario
    rules: EngagementRules[Any, Any]

    def side_out(self, state: State, side: int) -> bool:
        """The side is eliminated or broken."""
        ...

    def ended(self, state: State) -> bool:
        """A side is eliminated or broken."""
        ...

    def ends_in(self, state: State, result: str) -> bool:
        """The state's result is ``result``."""
        ...

    def survives(self, state: State, side: int, index: int) -> bool:
        """The unit is not eliminated."""
        ...

    def result(self, state: State) -> str:
        """``a_wins``, ``b_wins``, ``draw`` or ``undecided``."""
        ...

    def describe(self, state: State) -> dict[str, list[str]]:
        """Each side's units in the rule set's words."""
        ...


RESULTS = ("a_wins", "b_wins", "draw", "undecided")
"""How an engagement ends: one side eliminated or broken, both at once, or neither by the
last turn."""


@dataclass(frozen=True)
class Estimate:
    """An exact probability (a ``Fraction``) or a sampled one with its 95 % interval."""

    value: Fraction | float
    interval: tuple[float, float] | None = None

    def __float__(self) -> float:
        return float(self.value)

    def to_json(self) -> object:
        """Exact: ``"p/q"``; sampled: ``{"estimate", "interval": [low, high]}``."""
        if self.interval is None:
            return str(self.value)
        return {"estimate": float(self.value), "interval": list(self.interval)}


def _frequency(k: int, n: int) -> Estimate:
    return Estimate(k / n, wilson(k, n))


def exact_odds(engagement: Fought, steps: Sequence[Weights[State]]) -> EngagementOdds:
    """The exact answer from the state after each turn (the state engine's weights)."""
    last = len(steps) - 1
    by_turn: list[tuple[int, int, int, int]] = []  # decided, a fighting, b fighting, denom
    for weights in steps:
        decided_mass = a_mass = b_mass = 0
        for state, mass in weights.masses.items():
            a_out, b_out = engagement.side_out(state, 0), engagement.side_out(state, 1)
            if a_out or b_out:
                decided_mass += mass
            if not a_out:
                a_mass += mass
            if not b_out:
                b_mass += mass
        by_turn.append((decided_mass, a_mass, b_mass, weights.denominator))
    decided = tuple(Estimate(Fraction(d, q)) for d, _, _, q in by_turn)
    fighting = {
        "a": tuple(Estimate(Fraction(a, q)) for _, a, _, q in by_turn),
        "b": tuple(Estimate(Fraction(b, q)) for _, _, b, q in by_turn),
    }

    def probability(predicate: Callable[[State], bool]) -> Estimate:
        return Estimate(steps[last].probability(predicate))

    outcome = {r: probability(partial(engagement.ends_in, result=r)) for r in RESULTS}
    expected = sum((1 - Fraction(e.value) for e in decided[:-1]), Fraction(0))
    survivors = {
        SIDES[s]: tuple(
            probability(partial(engagement.survives, side=s, index=i))
            for i in range(len(engagement.scenario.sides[s].units))
        )
        for s in (0, 1)
    }
    final = steps[last]
    ends = tuple(
        (st, Estimate(Fraction(m, final.denominator)))
        for st, m in sorted(final.masses.items(), key=lambda item: -item[1])
    )
    return EngagementOdds(
        engagement, True, outcome, decided, fighting, Estimate(expected), survivors, ends
    )


def sampled_odds(engagement: Fought, runs: SampledOdds[State]) -> EngagementOdds:
    """The sampled answer from ``runs`` (the state engine's sampled engagements, each end
    state by the turn it was reached): frequencies with Wilson intervals."""
    n, turns = runs.n, engagement.scenario.turns
    decided_counts: list[int] = []
    out_counts: dict[int, list[int]] = {0: [], 1: []}
    decided_total = 0
    out = {0: 0, 1: 0}
    for turn in range(turns + 1):
        for state, k in runs.by_steps.get(turn, {}).items():
            decided_total += k if engagement.ended(state) else 0
            for s in (0, 1):
                out[s] += k if engagement.side_out(state, s) else 0
        decided_counts.append(decided_total)
        for s in (0, 1):
            out_counts[s].append(out[s])
    alive = runs.counts
    decided_by = tuple(_frequency(k, n) for k in decided_counts)
    fighting = {SIDES[s]: tuple(_frequency(n - k, n) for k in out_counts[s]) for s in (0, 1)}
    counts = {r: sum(k for st, k in alive.items() if engagement.result(st) == r) for r in RESULTS}
    outcome = {r: _frequency(counts[r], n) for r in RESULTS}
    # The number of turns a run lasts is 1 + (turns it was still undecided after 1..N-1):
    # its mean is the sum of the undecided fractions, its variance from the same counts.
    mean = sum(turn * k for turn, k in runs.steps.items()) / n
    undecided = [n - k for k in decided_counts[:-1]]
    second = sum((2 * t + 1) * u for t, u in enumerate(undecided)) / n
    variance = max(second - mean * mean, 0.0) * n / max(n - 1, 1)
    half = 1.96 * (variance / n) ** 0.5
    expected = Estimate(mean, (mean - half, mean + half))
    rules = engagement.rules
    survivors = {
        SIDES[s]: tuple(
            _frequency(sum(k for st, k in alive.items() if not rules.out(u, st[s][i])), n)
            for i, u in enumerate(engagement.scenario.sides[s].units)
        )
        for s in (0, 1)
    }
    ends = tuple(
        (st, _frequency(k, n)) for st, k in sorted(alive.items(), key=lambda item: -item[1])
    )
    return EngagementOdds(
        engagement,
        False,
        outcome,
        decided_by,
        fighting,
        expected,
        survivors,
        ends,
        n=n,
        seed=runs.seed,
        result_counts=counts,
    )


@dataclass
class EngagementOdds:
    """How an engagement ends: exact (``Fraction``) or sampled (with 95 % intervals)."""

    engagement: Fought
    exact: bool
    outcome: dict[str, Estimate]
    """P(a_wins), P(b_wins), P(draw), P(undecided after the last turn)."""
    decided_by: tuple[Estimate, ...]
    """P(decided by turn t), t = 0..turns."""
    fighting: dict[str, tuple[Estimate, ...]]
    """P(side still fighting at turn t): not eliminated or broken."""
    expected_turns: Estimate
    """The expected number of turns fought (at most the scenario's turns)."""
    survivors: dict[str, tuple[Estimate, ...]]
    """P(each unit not eliminated at the end)."""
    end_states: tuple[tuple[State, Estimate], ...]
    """Every end state, most likely first."""
    n: int | None = None
    seed: int | None = None
    reason: str | None = None
    """Why the answer is sampled (the state engine's limit), when it falls back."""
    result_counts: dict[str, int] | None = None
    """Sampled: how many engagements ended in each result."""

    @property
    def label(self) -> str:
        """``exact`` or ``sampled``."""
        return "exact" if self.exact else "sampled"

    def to_json(self, limit: int = 20) -> dict[str, object]:
        """The shape in docs/engagements.md; the ``limit`` most likely end states."""
        engagement = self.engagement
        scenario = engagement.scenario
        return {
            "scenario": scenario.source,
            "title": scenario.title,
            "ruleset": scenario.ruleset,
            "exact": self.exact,
            "label": self.label,
            "n": self.n,
            "seed": self.seed,
            "reason": self.reason,
            "turns": scenario.turns,
            "policy": scenario.policy,
            "order": scenario.order,
            "sides": {
                SIDES[s]: {
                    "name": side.name,
                    "units": [u.name for u in side.units],  # type: ignore[attr-defined]
                }
                for s, side in enumerate(scenario.sides)
            },
            "outcome": {r: e.to_json() for r, e in self.outcome.items()},
            "decided_by": [e.to_json() for e in self.decided_by],
            "fighting": {s: [e.to_json() for e in v] for s, v in self.fighting.items()},
            "expected_turns": self.expected_turns.to_json(),
            "survivors": {
                SIDES[s]: {
                    u.name: e.to_json()  # type: ignore[attr-defined]
                    for u, e in zip(scenario.sides[s].units, self.survivors[SIDES[s]], strict=True)
                }
                for s in (0, 1)
            },
            "end_states": [
                {
                    "result": engagement.result(st),
                    **engagement.describe(st),
                    "probability": e.to_json(),
                }
                for st, e in self.end_states[:limit]
            ],
            "end_states_total": len(self.end_states),
        }


def resolution_json(engagement: Fought, run: ProcessResolution[State]) -> dict[str, object]:
    """A seeded or replayed engagement: ``{"scenario", "seed", "result", "start", "final",
    "turns": [{"turn", "after", "trace"}], "replay"}``."""
    return {
        "scenario": engagement.scenario.source,
        "seed": run.seed,
        "result": engagement.result(run.final),
        "start": engagement.describe(run.start),
        "final": engagement.describe(run.final),
        "turns": [
            {
                "turn": step.number,
                "after": engagement.describe(step.after),
                "trace": [event.to_json() for event in step.trace],
            }
            for step in run.steps
        ],
        "replay": ",".join(run.replay_values()),
    }
