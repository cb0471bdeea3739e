"""The answers of a V&V stack's move under opportunity fire (V&V 13.8).

:func:`move_odds` -> :class:`MoveOdds` (each moving unit's distribution of end state and where
it stopped; per hex, the chance that the first pin or worse happens there; the plan of fire),
:func:`resolve_move` -> :class:`MoveResolution` (one seeded run or the player's dice, with the
whole trace: every firer, every modifier). :func:`model_odds` and :func:`model_run` answer for
any move process (:func:`~firefight.rulesets.vv.move_steps.move_process`, extra phases
included).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from firefight.chance.distribution import Distribution
from firefight.chance.process import ProcessResolution, Weights
from firefight.rulesets.vv.fire_policies import DEFAULT_THRESHOLD, fire_plan, fire_policy
from firefight.rulesets.vv.move_steps import MoveModel, Mover, MoveState, move_process
from firefight.rulesets.vv.movement import MovePlan
from firefight.rulesets.vv.opportunity import FortificationCover, Opportunity, opportunities

HIT = frozenset({"pinned", "reduced", "reduced_pinned", "immobilized", "eliminated"})
"""A unit "pinned or worse" (14.61: a reduction costs more CPs than a pin; an AFV stopped by AT
fire, 18.4, is immobilized)."""


def _fraction(p: Fraction) -> dict[str, object]:
    return {"probability": float(p), "fraction": str(p)}


@dataclass(frozen=True)
class MoveOdds:
    """The exact odds of a move (``exact`` is always true: no sampling here).

    ``units``: for each moving unit (by id), the distribution of ``(condition, hex)``: its
    condition at the end (unhurt, pinned, reduced, reduced_pinned, eliminated) and the hex
    where it stopped (or was eliminated). ``first_hit``: for each hex entered, the chance
    that the first pin or worse of any moving unit happens there; ``unit_first_hit`` the same
    per unit. ``attacks``: the attacks the policy makes; ``options``: every attack possible.
    """

    model: MoveModel
    policy: str
    units: Mapping[str, Distribution[tuple[str, str]]]
    first_hit: tuple[Fraction, ...]
    unit_first_hit: Mapping[str, tuple[Fraction, ...]]
    options: Mapping[str, list[Opportunity]]
    states: int

    def to_json(self) -> dict[str, object]:
        """The shape ``firefight move --json`` prints (docs/vv.md)."""
        plan = self.model.plan
        board = plan.scenario.board
        attacks_at: dict[int, list[str]] = {}
        for attack in self.model.attacks:
            attacks_at.setdefault(attack.index, []).append(attack.firer.id)
        return {
            "scenario": plan.scenario.name,
            "stack": board.label(plan.start),
            "units": [u.id for u in plan.stack],
            "path": [s.label for s in plan.steps],
            "assault": plan.assault,
            "policy": self.policy,
            "exact": True,
            "states": self.states,
            "fire_plan": [a.to_json() for a in self.model.attacks],
            "hexes": [
                {
                    "index": step.index,
                    "hex": step.label,
                    "terrain": step.terrain,
                    "fortification": step.fortification,
                    "mp_spent": dict(step.spent),
                    "attacks": attacks_at.get(step.index, []),
                    "may_fire": sorted(
                        firer
                        for firer, options in self.options.items()
                        if any(o.index == step.index for o in options)
                    ),
                    "first_hit": _fraction(self.first_hit[step.index - 1]),
                }
                for step in plan.steps
            ],
            "outcomes": {
                unit_id: [
                    {"state": condition, "hex": where, **_fraction(p)}
                    for (condition, where), p in odds.items()
                ]
                for unit_id, odds in self.units.items()
            },
            "unit_first_hit": {
                unit_id: [_fraction(p) for p in hits]
                for unit_id, hits in self.unit_first_hit.items()
            },
        }


def _where(plan: MovePlan, state: MoveState, mover: Mover) -> str:
    index = mover.stopped_at if mover.stopped_at >= 0 else state.at
    return plan.scenario.board.label(plan.hexes[index])


def build_move(
    plan: MovePlan,
    policy: str = "threshold",
    *,
    threshold: Fraction = DEFAULT_THRESHOLD,
    player: Mapping[str, str] | None = None,
    fortification_cover: FortificationCover = "path_end",
) -> tuple[MoveModel, dict[str, list[Opportunity]]]:
    """The move's process with the attacks the named policy chooses, and every option."""
    options = opportunities(plan, fortification_cover=fortification_cover)
    chosen = fire_plan(plan, fire_policy(policy, threshold=threshold, player=player), options)
    return move_process(plan, chosen), options


def move_odds(
    plan: MovePlan,
    policy: str = "threshold",
    *,
    threshold: Fraction = DEFAULT_THRESHOLD,
    player: Mapping[str, str] | None = None,
    fortification_cover: FortificationCover = "path_end",
) -> MoveOdds:
    """The exact odds of the move under the policy (see :class:`MoveOdds`)."""
    model, options = build_move(
        plan, policy, threshold=threshold, player=player, fortification_cover=fortification_cover
    )
    return model_odds(model, policy, options)


def model_odds(model: MoveModel, policy: str, options: Mapping[str, list[Opportunity]]) -> MoveOdds:
    """The exact odds of a move's process, however it was built (a :func:`move_process` with
    extra phases included); ``policy`` and ``options`` are reported as given. The sums run on
    the process's integer masses (:meth:`~firefight.chance.process.Process.weights`), one
    ``Fraction`` per answer."""
    plan = model.plan
    steps = model.hexes
    by_step = model.process.weights(model.start, steps)
    start = model.start.movers
    ids = [u.id for u in plan.stack]
    everyone = len(ids)
    hurt: dict[MoveState, tuple[bool, ...]] = {}

    def hits(state: MoveState) -> tuple[bool, ...]:
        found = hurt.get(state)
        if found is None:
            found = tuple(state.movers[i].condition(start[i]) in HIT for i in range(everyone))
            hurt[state] = found
        return found

    def chances(weights: Weights[MoveState]) -> list[Fraction]:
        """The chance that anyone, then each unit, is pinned or worse."""
        masses = [0] * (everyone + 1)
        for state, mass in weights.masses.items():
            flags = hits(state)
            if any(flags):
                masses[0] += mass
            for i, flag in enumerate(flags, start=1):
                if flag:
                    masses[i] += mass
        return [Fraction(m, weights.denominator) for m in masses]

    cumulative = [chances(w) for w in by_step]
    first_hit = tuple(cumulative[t][0] - cumulative[t - 1][0] for t in range(1, steps + 1))
    unit_first = {
        unit_id: tuple(cumulative[t][i + 1] - cumulative[t - 1][i + 1] for t in range(1, steps + 1))
        for i, unit_id in enumerate(ids)
    }
    final = by_step[-1]
    units: dict[str, Distribution[tuple[str, str]]] = {}
    for i, unit_id in enumerate(ids):
        ends: dict[tuple[str, str], int] = {}
        for state, mass in final.masses.items():
            mover = state.movers[i]
            end = (mover.condition(start[i]), _where(plan, state, mover))
            ends[end] = ends.get(end, 0) + mass
        units[unit_id] = Distribution({e: Fraction(m, final.denominator) for e, m in ends.items()})
    states = len({s for w in by_step for s in w.masses})
    return MoveOdds(model, policy, units, first_hit, unit_first, options, states)


@dataclass(frozen=True)
class MoveResolution:
    """One move resolved with seeded dice or the player's: each unit's end and the trace."""

    model: MoveModel
    run: ProcessResolution[MoveState]

    def outcome(self) -> dict[str, tuple[str, str]]:
        """Each moving unit's condition and the hex where it stopped."""
        final = self.run.final
        plan = self.model.plan
        return {
            u.id: (m.condition(s), _where(plan, final, m))
            for u, m, s in zip(plan.stack, final.movers, self.model.start.movers, strict=True)
        }

    def to_json(self) -> dict[str, object]:
        """``{"seed", "outcome": {id: {"state", "hex"}}, "steps": [...], "replay": [...]}``."""
        data = self.run.to_json()
        board = self.model.plan.scenario.board
        for step, run_step in zip(data["steps"], self.run.steps, strict=True):  # type: ignore[call-overload]
            step["hex"] = board.label(self.model.plan.hexes[run_step.after.at])
        return {
            "seed": self.run.seed,
            "outcome": {k: {"state": c, "hex": h} for k, (c, h) in self.outcome().items()},
            "steps": data["steps"],
            "replay": self.run.replay_values(),
        }


def resolve_move(
    plan: MovePlan,
    policy: str = "threshold",
    *,
    seed: int | None = None,
    roll: Sequence[int | str] | None = None,
    threshold: Fraction = DEFAULT_THRESHOLD,
    player: Mapping[str, str] | None = None,
    fortification_cover: FortificationCover = "path_end",
) -> MoveResolution:
    """One move: seeded (``seed``) or with the dice rolled at the table (``roll``)."""
    model, _ = build_move(
        plan, policy, threshold=threshold, player=player, fortification_cover=fortification_cover
    )
    return model_run(model, seed=seed, roll=roll)


def model_run(
    model: MoveModel, *, seed: int | None = None, roll: Sequence[int | str] | None = None
) -> MoveResolution:
    """One run of a move's process: seeded, or with the dice rolled at the table."""
    if roll is not None:
        return MoveResolution(model, model.process.replay(model.start, roll))
    return MoveResolution(model, model.process.sample(model.start, seed or 0))
