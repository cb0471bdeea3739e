"""A V&V moving stack's state and the CPs of a hit on it (V&V 13.8, 14.6, 14.61).

The state a move's process carries from hex to hex (:class:`MoveState`, each unit's
:class:`Mover`), the moving units an attack in the hex just entered may hurt
(:func:`targets_in_hex`) and the CPs of a hit applied to them as their owner allocates them
(:func:`apply_cps`). The process itself: :mod:`.move_steps`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from firefight.chance import Chance
from firefight.rulesets.vv.allocator import Hit, allocate
from firefight.rulesets.vv.casualties import NONE, apply_allocation
from firefight.rulesets.vv.movement import MovePlan
from firefight.rulesets.vv.scenario import ScenarioUnit
from firefight.rulesets.vv.units import HexUnits, Unit


class Mover(NamedTuple):
    """A moving unit's state: reduced, pinned, eliminated, the hex index where it stopped
    (-1: still moving), and immobilized (an AFV hit by AT fire, 18.4: it stops there)."""

    reduced: bool = False
    pinned: bool = False
    eliminated: bool = False
    stopped_at: int = -1
    immobilized: bool = False

    @property
    def moving(self) -> bool:
        """Still moving."""
        return self.stopped_at < 0 and not self.eliminated

    def condition(self, start: Mover) -> str:
        """``unhurt``, ``pinned``, ``reduced``, ``reduced_pinned``, ``immobilized`` (an AFV,
        18.4) or ``eliminated``, against how it started."""
        if self.eliminated:
            return "eliminated"
        if self.immobilized:
            return "immobilized"
        reduced = self.reduced and not start.reduced
        if reduced and self.pinned:
            return "reduced_pinned"
        if reduced:
            return "reduced"
        return "pinned" if self.pinned else "unhurt"


class MoveState(NamedTuple):
    """The move so far: the hex entered last (``at``, 0 = the start hex), each moving
    unit's state, whether the leader's bonus still holds (6.31), whether the move has halted
    (no unit may go on), and ``marks``: facts phases leave for later ones (``fired:FIRER`` for
    each firer that has fired on the stack; an extension's own, e.g. fire lanes laid)."""

    at: int
    movers: tuple[Mover, ...]
    bonus: bool = True
    halted: bool = False
    marks: frozenset[str] = frozenset()

    def __str__(self) -> str:
        return f"hex {self.at}: " + ", ".join(
            "eliminated"
            if m.eliminated
            else "immobilized"
            if m.immobilized
            else ("pinned" if m.pinned else "moving" if m.moving else "stopped")
            for m in self.movers
        )


def unit_for_casualties(unit: ScenarioUnit, mover: Mover | None = None) -> Unit:
    """A scenario unit as :mod:`~firefight.rulesets.vv.units` takes CPs (14.61): a squad
    with its half-squad rating, an MG team as a unit that cannot be reduced (pinned for 1 CP,
    eliminated at its rating). ``mover``: its state in a move (default: its state in the
    scenario, reduced and pinned as the file says). Used by the move's CPs (:func:`apply_cps`)
    and by an overrun's on the target hex (:mod:`.overrun_move`, 19.4)."""
    if mover is None:
        mover = Mover(reduced=unit.reduced, pinned=unit.pinned)
    if unit.type == "squad" and not mover.reduced:
        return Unit(
            "squad",
            unit.casualty_rating,
            name=unit.id,
            half_squad_rating=unit.half_squad_rating,
            pinned=mover.pinned,
        )
    rating = (
        unit.half_squad_rating
        if unit.type == "squad" and unit.half_squad_rating
        else unit.casualty_rating
    )
    kind = {"leader": "leader", "gun": "gun", "unarmoured_vehicle": "unarmoured_vehicle"}.get(
        unit.type, "half_squad"
    )
    return Unit(kind, max(rating, 1), name=unit.id, pinned=mover.pinned)  # type: ignore[arg-type]


def apply_cps(
    plan: MovePlan, state: MoveState, targets: list[int], cps: int, chance: Chance
) -> MoveState:
    """``cps`` applied to the moving units ``targets`` (indices into ``plan.stack``) as their
    owner allocates them (14.6, ``plan.allocator``; by default the ``least_rating_lost``
    policy): reduced, pinned (it stops here) or eliminated."""
    if not cps or not targets:
        return state
    units = HexUnits(tuple(unit_for_casualties(plan.stack[i], state.movers[i]) for i in targets))
    where = plan.scenario.board.label(plan.hexes[state.at])
    ids = tuple(plan.stack[i].id for i in targets)
    allocation = allocate(plan.allocator, Hit(where, plan.side, ids, units, cps), chance)
    chance.note(
        "14.61 allocation",
        ", ".join(
            f"{plan.stack[i].id} {c}" for i, c in zip(targets, allocation, strict=True) if c != NONE
        )
        or "none",
    )
    results = apply_allocation(units, cps, allocation, chance)
    movers = list(state.movers)
    for i, result in zip(targets, results, strict=True):
        mover = movers[i]
        if result == "eliminated":
            movers[i] = mover._replace(eliminated=True, stopped_at=state.at)
        else:
            reduced = mover.reduced or result in ("reduced", "reduced_pinned")
            pinned = mover.pinned or result in ("pinned", "reduced_pinned")
            movers[i] = mover._replace(
                reduced=reduced,
                pinned=pinned,
                stopped_at=state.at if pinned else mover.stopped_at,
            )
    return state._replace(movers=tuple(movers))


def targets_in_hex(plan: MovePlan, state: MoveState, *, infantry_only: bool = False) -> list[int]:
    """13.8: the moving units in the hex just entered (pinned there by an earlier attack
    included); AFVs take no AP fire (14.1)."""
    return [
        i
        for i, m in enumerate(state.movers)
        if not m.eliminated
        and (m.stopped_at < 0 or (m.stopped_at == state.at and m.pinned))
        and plan.stack[i].type != "afv"
        and (not infantry_only or plan.stack[i].is_infantry)
    ]


Phase = Callable[[MoveState, Chance], MoveState]
"""One phase of a hex entered: a procedure over ``Chance`` from state to state."""
