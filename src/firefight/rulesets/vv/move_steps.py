"""A V&V stack's move under opportunity fire as a state process (V&V 13.8, 6.31, 6.9, 20.7).

The move runs on the chance engine (:class:`~firefight.chance.process.Process`, one step per
hex entered, built of :class:`~firefight.chance.process.Phases`), so the exact odds along the
path cost (distinct states x hexes), never a re-run per prefix of events.

On the way (:func:`move_process`): a pinned unit stops where it is (13.8, 14.7); a unit pinned
in a friendly hex that the units staying there would take over the stacking limit is
eliminated (13.8, 6.9); the others go on; when the leader is pinned or eliminated, the units
moving with him lose 6.31's bonus and stop once past their normal allowance; a minefield
attacks every unit entering its hex (20.7). Only the moving units are affected (13.8): the CPs
go to them by the casualty policy of 14.6 (``least_rating_lost``, :func:`apply_cps`); AFVs
take no AP fire (14.1).

Extending the move (fire lanes, overruns): :func:`move_process` takes ``on_entry`` and
``after_fire`` phases; :mod:`.move_results` answers for any such model.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from firefight.chance import Chance
from firefight.chance.process import Phases, Process, integer_kernel
from firefight.rulesets.vv.ap import modifiers
from firefight.rulesets.vv.move_shots import (
    Aimed,
    ShotCache,
    ShotPhase,
    SteadyPhase,
    by_hex,
    cps_on,
)
from firefight.rulesets.vv.move_state import (
    Mover,
    MoveState,
    Phase,
    apply_cps,
    targets_in_hex,
    unit_for_casualties,
)
from firefight.rulesets.vv.movement import MovePlan
from firefight.rulesets.vv.opportunity import (
    Opportunity,
    cp_odds,
    roll_cps,
    sniper_cps,
    sniper_odds,
)
from firefight.rulesets.vv.scenario import stacking_problem
from firefight.rulesets.vv.support import (
    VvMinefield,
    VvSniperElimination,
    minefield,
    sniper_elimination,
)

__all__ = [
    "MoveModel",
    "MoveState",
    "Mover",
    "Phase",
    "apply_cps",
    "move_process",
    "targets_in_hex",
    "unit_for_casualties",
]


@dataclass(frozen=True, eq=False)
class MoveModel:
    """The move and its fire: the plan, the attacks chosen, and the process."""

    plan: MovePlan
    attacks: tuple[Opportunity, ...]
    process: Process[MoveState]
    start: MoveState

    @property
    def hexes(self) -> int:
        """Hexes on the path."""
        return len(self.plan.steps)


def _enter(plan: MovePlan) -> Callable[[MoveState, Chance], MoveState]:
    def enter(state: MoveState, chance: Chance) -> MoveState:
        del chance
        following = state.at + 1
        movers = []
        for i, mover in enumerate(state.movers):
            if mover.moving and not plan.may_enter(plan.stack[i].id, following, bonus=state.bonus):
                movers.append(mover._replace(stopped_at=state.at))  # 6.31: out of MPs
            else:
                movers.append(mover)
        if not any(m.moving for m in movers):
            return state._replace(movers=tuple(movers), halted=True)
        return state._replace(at=following, movers=tuple(movers))

    return enter


def _mines(plan: MovePlan) -> Callable[[MoveState, Chance], MoveState]:
    def mines(state: MoveState, chance: Chance) -> MoveState:
        if state.halted or not plan.steps[state.at - 1].minefield:
            return state
        movers = list(state.movers)
        for i, mover in enumerate(movers):
            if mover.moving:
                chance.note(
                    "20.7 minefield",
                    f"{plan.stack[i].id} enters {plan.steps[state.at - 1].label}",
                )
                if minefield(VvMinefield(units=1), chance) == "1":
                    movers[i] = mover._replace(eliminated=True, stopped_at=state.at)
        return state._replace(movers=tuple(movers))

    return mines


def _fire(plan: MovePlan, attack: Opportunity, cache: ShotCache) -> ShotPhase:
    """13.8, 17.4: the firer's attack on the moving units in its hex, if any are still there;
    its exact kernel from the attack's cached odds (:mod:`.move_shots`): the AP attack's CPs
    are :func:`~.opportunity.cp_odds` (a natural 2's valor checks change no CP), a sniper's
    :func:`~.opportunity.sniper_odds` (its Elimination Check changes no moving unit)."""
    sniper = attack.firer.kind == "sniper"

    def aim(state: MoveState) -> tuple[MoveState, list[int]] | None:
        if state.halted or state.at != attack.index:
            return None
        targets = targets_in_hex(plan, state, infantry_only=sniper)
        if not targets:
            return None
        return state._replace(marks=state.marks | {f"fired:{attack.firer.id}"}), targets

    def fire(state: MoveState, chance: Chance) -> MoveState:
        aimed = aim(state)
        if aimed is None:
            return state
        state, targets = aimed
        names = "+".join(plan.stack[i].id for i in targets)
        if sniper:
            chance.note(
                "17.4 sniper opportunity fire",
                f"{attack.firer.id} at {names} in {attack.label}: "
                f"target cover {attack.target_cover} (17.5)",
            )
            cps = sniper_cps(attack.target_cover, chance)
            state = apply_cps(plan, state, targets, cps, chance)
            if any(not state.movers[i].pinned and not state.movers[i].eliminated for i in targets):
                sniper_elimination(VvSniperElimination(sniper_cover=attack.sniper_cover), chance)
            return state
        assert attack.attack is not None
        mods = (
            "; ".join(f"{m.label} {int(m.value):+d} ({m.rule})" for m in modifiers(attack.attack))
            or "none"
        )
        chance.note(
            "13.8 opportunity fire",
            f"{attack.firer.id} ({attack.firer_label}) at {names} in {attack.label}: "
            f"APFP {attack.attack.apfp}, modifiers: {mods}",
        )
        cps = roll_cps(attack.attack, chance, attack.firer.units)
        return apply_cps(plan, state, targets, cps, chance)

    if sniper:
        odds = integer_kernel(sniper_odds(attack.target_cover).items())
    else:
        assert attack.attack is not None
        odds = integer_kernel(cp_odds(attack.attack).items())

    def known(state: MoveState) -> Aimed | None:
        aimed = aim(state)
        return None if aimed is None else cps_on(cache, *aimed, odds)

    return ShotPhase(fire, known, cache.kernels(("fire", attack)))


def _settle(plan: MovePlan) -> Callable[[MoveState, Chance], MoveState]:
    def settle(state: MoveState, chance: Chance) -> MoveState:
        if state.halted:
            return state
        step = plan.steps[state.at - 1]
        staying = [u.type for u in step.friendly]
        movers = list(state.movers)
        for i, mover in enumerate(movers):
            stopped = mover.pinned or mover.immobilized
            if stopped and mover.stopped_at == state.at and not mover.eliminated:
                if stacking_problem([*staying, plan.stack[i].type]):
                    chance.note(
                        "13.8 stacking",
                        f"{plan.stack[i].id} {'immobilized' if mover.immobilized else 'pinned'}"
                        f" in {step.label}, a friendly hex already stacked to its limit: "
                        "eliminated",
                    )
                    movers[i] = mover._replace(eliminated=True)
                else:
                    staying.append(plan.stack[i].type)
        bonus = state.bonus and not any(
            (m.pinned or m.eliminated)
            for i, m in enumerate(movers)
            if plan.stack[i].type == "leader"
        )
        if state.at == len(plan.steps):
            movers = [m._replace(stopped_at=state.at) if m.moving else m for m in movers]
        return state._replace(movers=tuple(movers), bonus=bonus)

    return settle


def move_process(
    plan: MovePlan,
    attacks: Sequence[Opportunity],
    *,
    on_entry: Sequence[Phase] = (),
    after_fire: Sequence[Phase] = (),
    cache: ShotCache | None = None,
) -> MoveModel:
    """The move as a process: one step per hex entered, as phases (enter, minefield,
    ``on_entry``, each attack chosen at that hex, ``after_fire``, then pins, stacking and the
    leader's bonus settled).

    ``on_entry`` and ``after_fire`` are the extension point for what else happens in a hex
    entered (fire lanes, 13.9, attack units entering a lane hex; a firer lays its lane after
    it fires, ``fired:FIRER`` in ``MoveState.marks``; overruns, 19): each phase does nothing
    unless ``state.at`` is its hex and, to hurt the moving units, takes
    :func:`targets_in_hex` and :func:`apply_cps`. A unit it pins stops (``stopped_at``) and
    the settle phase applies 13.8's stacking rule and 6.31's bonus to it as to any other.
    ``cache``: the attacks' odds and hits of this move, shared with the phases given (a
    :class:`~.move_shots.ShotCache` of the plan; a new one by default).
    """
    cache = cache or ShotCache(plan)
    phases: tuple[Phase, ...] = (
        SteadyPhase(_enter(plan)),
        SteadyPhase(_mines(plan)),
        *on_entry,
        by_hex((a.index, _fire(plan, a, cache)) for a in attacks),
        *after_fire,
        SteadyPhase(_settle(plan)),
    )

    def terminal(state: MoveState) -> bool:
        return state.halted or not any(m.moving for m in state.movers)

    start = MoveState(
        0, tuple(Mover(reduced=u.reduced) for u in plan.stack), bonus=bool(plan.leader_ids)
    )
    process: Process[MoveState] = Process(Phases(phases), terminal=terminal, name="move")
    return MoveModel(plan, tuple(attacks), process, start)


enter_step = _enter
"""The phase entering the next hex (6.31: a unit out of MPs stops), for a process of one's
own over the move's states (the optimal defender's, :mod:`.defender`)."""
mines_step = _mines
"""The phase of a minefield's attack on the units entering its hex (20.7)."""
fire_step = _fire
"""The phase of one attack chosen (13.8, 17.4), its exact kernel from the cache's odds."""
settle_step = _settle
"""The phase settling the hex: pins, 13.8's stacking, 6.31's bonus."""
