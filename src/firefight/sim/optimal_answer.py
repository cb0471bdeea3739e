"""The optimal policy's answer: its value, each heuristic's and what it loses, and the best
allocation of the first turn with the alternatives it beat (docs/advisor-engagements.md)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from firefight.sim.engagement_phases import TurnState
from firefight.sim.optimal import MIXED_NOTE, OPTIMAL, Solution, solve
from firefight.sim.scenario import POLICIES, SIDES, Scenario


@dataclass(frozen=True)
class Alternative:
    """One allocation open to a firer: its target (``None``: it does not fire) and the
    advised side's value if it fires there, play going on optimally."""

    target: str | None
    value: Fraction


@dataclass(frozen=True)
class Decision:
    """A fire of the advised side in the first turn: the firer, the state it fires in (the
    most likely one it meets under optimal play, with its probability), the best target and
    every alternative's value."""

    unit: str
    state: dict[str, list[str]]
    probability: Fraction
    best: str | None
    alternatives: tuple[Alternative, ...]


@dataclass(frozen=True)
class OptimalAnswer:
    """The optimal policy of one side, and the heuristics beside it."""

    solution: Solution
    optimal: Fraction
    heuristics: tuple[tuple[str, Fraction], ...]
    both_scenario_policy: Fraction | None
    """Both sides playing the scenario's policy (the engagement's own answer), against an
    optimal opponent only (otherwise it is the scenario policy's row)."""
    plan: tuple[Decision, ...]

    @property
    def opponent(self) -> str:
        """``optimal`` or the opponent's named policy."""
        return self.solution.pairings[0][1]

    def to_json(self) -> dict[str, Any]:
        """The shape in docs/advisor-engagements.md (exact fractions as ``"p/q"``)."""
        solution = self.solution
        scenario = solution.engagement.scenario
        side = solution.game.side
        simultaneous = scenario.order == "simultaneous"
        return {
            "scenario": scenario.source,
            "title": scenario.title,
            "ruleset": scenario.ruleset,
            "exact": True,
            "turns": scenario.turns,
            "order": scenario.order,
            "policy": scenario.policy,
            "side": SIDES[side],
            "side_name": scenario.sides[side].name,
            "objective": solution.objective,
            "opponent": self.opponent,
            "note": MIXED_NOTE if simultaneous else None,
            "optimal": str(self.optimal),
            "both_scenario_policy": _text(self.both_scenario_policy),
            "heuristics": [
                {"policy": p, "value": str(v), "loss": str(self.optimal - v)}
                for p, v in self.heuristics
            ],
            "plan": [
                {
                    "unit": d.unit,
                    "state": d.state,
                    "probability": str(d.probability),
                    "best": d.best,
                    "alternatives": [
                        {"target": a.target, "value": str(a.value), "loss": str(d_best - a.value)}
                        for a in d.alternatives
                    ],
                }
                for d in self.plan
                for d_best in (max(a.value for a in d.alternatives),)
            ],
            "nodes": solution.game.explored,
        }


def _text(value: Fraction | None) -> str | None:
    return None if value is None else str(value)


def advise(
    scenario: Scenario, side: str = "a", objective: str = "win", opponent: str | None = None
) -> OptimalAnswer:
    """:func:`~firefight.sim.optimal.solve`'s answer for ``side``: the optimal value, each
    heuristic's, and the first turn's best allocations."""
    solution = solve(scenario, side, objective, opponent)
    against = solution.pairings[0][1]
    both = solution.value((scenario.policy, scenario.policy)) if against == OPTIMAL else None
    return OptimalAnswer(
        solution=solution,
        optimal=solution.value((OPTIMAL, against)),
        heuristics=tuple((p, solution.value((p, against))) for p in POLICIES),
        both_scenario_policy=both,
        plan=first_turn(solution),
    )


def first_turn(solution: Solution) -> tuple[Decision, ...]:
    """The advised side's fires in the first turn under optimal play: each in the most
    likely state it meets (ties: the first met), with every allocation's value."""
    game = solution.game
    engagement = solution.engagement
    layers = game.layers[: len(game.phases)]
    if not layers:
        return ()
    current: dict[TurnState, Fraction] = {engagement.step.enter(engagement.start()): Fraction(1)}
    choose = solution.policy(0)
    decisions: list[Decision] = []
    for index, layer in enumerate(layers):
        node_phase = next(iter(layer.values())).phase
        if node_phase.kind == "fire" and node_phase.side == game.side:
            decision = _decision(solution, index, current)
            if decision is not None:
                decisions.append(decision)
        following: dict[TurnState, Fraction] = {}
        for turn_state, mass in current.items():
            d, items = layer[turn_state].kernels[
                layer[turn_state].choices.index(choose(index, turn_state))
            ]
            for after, w in items:
                following[after] = following.get(after, Fraction(0)) + mass * Fraction(w, d)
        current = following
    return tuple(decisions)


def _decision(
    solution: Solution, index: int, current: dict[TurnState, Fraction]
) -> Decision | None:
    game = solution.game
    turn_state = max(current, key=current.__getitem__)
    node = game.layers[index][turn_state]
    if node.choices == (None,):
        return None
    engagement = solution.engagement
    enemies = engagement.scenario.sides[1 - game.side].units
    units = engagement.scenario.sides[game.side].units
    values = solution.choice_values(index, turn_state)
    best = node.choices[solution.chosen(index, turn_state)]

    def name(choice: Any) -> str | None:  # noqa: ANN401 - a Choice
        return None if choice is None else str(enemies[choice[0]].name)

    return Decision(
        unit=str(units[node.phase.unit].name),  # type: ignore[attr-defined]
        state=engagement.describe(turn_state[1]),
        probability=current[turn_state],
        best=name(best),
        alternatives=tuple(
            Alternative(name(c), v) for c, v in zip(node.choices, values, strict=True)
        ),
    )
