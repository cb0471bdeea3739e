"""Fire lanes in a stack's move (V&V 13.9, 13.91, on the move process of :mod:`.movement`).

Built on :mod:`~firefight.rulesets.vv.move_steps`'s extension point: the move's attacks are
chosen by its fire policy as for any move; each infantry fire group that fires an MG on
opportunity lays one lane per MG it fires (:func:`laid_lanes`, the ``lanes`` policy), from its
hex to the hex fired at; lanes laid earlier in the Movement Phase (``standing``) stand from the
start. An ``on_entry`` phase (:func:`lane_phase`) attacks the moving units entering a hex with
Fire Lane markers laid before they entered it, on the 1-4 row with the crossfire modifier
(13.91), their CPs applied by the move's casualty policy (``apply_cps``).

The fire plan is fixed before the move, so which lanes stand at each hex is known in advance
(:func:`~firefight.rulesets.vv.lanes.markers_along`): a lane laid at the i-th hex entered is
there for every later hex. Its fire happens only if a unit it may hurt entered the i-th hex,
and only such a unit (not an AFV, 14.1) can be attacked by the lane later, having come
through that hex: the markers need no state of their own.

:func:`build_lane_move` builds the move (as ``build_move`` does, with its lanes); the move's
own ``model_odds`` and ``model_run`` answer for it, and :meth:`LaneMove.with_lanes` adds the
lanes to their JSON: ``"lanes"`` (each lane's ``mg``, ``from``, ``to``, ``hexes``,
``laid_at``: the index of the hex entered when it was laid, 0 for a standing lane) and, for
the odds, per hex ``"lane_markers"`` and ``"lane_attacks"`` (each lane attack the path may
meet: row, markers, crossfire modifier, the odds of its CPs); :meth:`LaneMove.with_run_attacks`
gives a run's ``"lane_attacks"`` (those it made, with their roll and result).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal

from firefight.board.hexes import Hex
from firefight.chance import Chance
from firefight.errors import InputError, one_of
from firefight.rulesets.vv.attack_memo import AttackMemo
from firefight.rulesets.vv.fire_policies import DEFAULT_THRESHOLD, fire_plan, fire_policy
from firefight.rulesets.vv.lane_attack import (
    FIRE_LANE_ATTACK,
    LANE_ROLL,
    crossfire_modifier,
    lane_attack,
    lane_attack_input,
    lane_result,
)
from firefight.rulesets.vv.lanes import (
    LANE_ROW,
    FireLane,
    LaidLane,
    LaneNaturals,
    LaneReadings,
    group_lanes,
    markers_along,
)
from firefight.rulesets.vv.lanes_standing import lane_fire
from firefight.rulesets.vv.move_results import MoveResolution
from firefight.rulesets.vv.move_shots import Aimed, ShotCache, ShotPhase, cps_on
from firefight.rulesets.vv.move_steps import (
    MoveModel,
    MoveState,
    Phase,
    apply_cps,
    move_process,
    targets_in_hex,
)
from firefight.rulesets.vv.movement import MovePlan
from firefight.rulesets.vv.opportunity import FortificationCover, Opportunity, opportunities

LanePolicy = Literal["always", "never"]
LANE_POLICIES: tuple[str, ...] = ("always", "never")
"""13.9 fire lanes are voluntary: ``always`` = every infantry fire group firing an MG on
opportunity lays its lanes (a lane only adds attacks for the defender); ``never``."""


def laid_lanes(
    plan: MovePlan,
    attacks: Sequence[Opportunity],
    policy: str = "always",
    readings: LaneReadings | None = None,
    memo: AttackMemo | None = None,
) -> tuple[LaidLane, ...]:
    """The lanes the attacks lay (13.9): under ``always`` each infantry fire group's MGs lay
    one each along the LOS to the hex fired at; none under ``never``. ``memo``: the lanes
    already laid on the plan's board (a group's lanes depend on its hex, its units, the hex
    fired at and the readings alone; :class:`~.attack_memo.AttackMemo`)."""
    if policy not in LANE_POLICIES:
        raise InputError("lanes", one_of(LANE_POLICIES), policy)
    if policy == "never":
        return ()
    board = plan.scenario.board
    known = None if memo is None else memo.of(plan.scenario).lanes
    reading = None if readings is None else tuple(sorted(readings.model_dump().items()))
    found: list[LaidLane] = []
    for attack in attacks:
        if attack.firer.kind != "infantry":
            continue
        firer = attack.firer
        key = (firer.hex, attack.hex, firer.units, reading)
        lanes: tuple[FireLane, ...] | None = None if known is None else known.get(key)
        if lanes is None:
            lanes = group_lanes(board, firer.hex, attack.hex, firer.units, readings)
            if known is not None:
                known[key] = lanes
        found.extend(LaidLane(lane, attack.index) for lane in lanes)
    return tuple(found)


def _lane_cps(count: int, readings: LaneReadings, chance: Chance) -> int:
    """The CPs of a lane attack with ``count`` markers (13.9, 13.91: the 1-4 row)."""
    cps = lane_attack(lane_attack_input(count, readings.naturals), chance)
    return 0 if cps == "-" else int(cps)


def lane_phase(
    plan: MovePlan,
    marks: Mapping[int, int],
    readings: LaneReadings,
    cache: ShotCache | None = None,
) -> ShotPhase:
    """13.9, 13.91: the moving infantry, Guns and unarmoured vehicles entering a hex with
    ``marks[at]`` Fire Lane markers are attacked at once on the 1-4 row, -1 per marker after
    the first; the CPs go to them by the move's casualty policy. Its exact kernel from the
    attack's odds per marker count and ``cache``'s hits (:mod:`.move_shots`; the move's cache,
    a new one by default)."""
    cache = cache or ShotCache(plan)

    def aim(state: MoveState) -> tuple[int, list[int]] | None:
        count = marks.get(state.at, 0)
        if state.halted or not count:
            return None
        targets = targets_in_hex(plan, state)
        return (count, targets) if targets else None

    def lanes(state: MoveState, chance: Chance) -> MoveState:
        aimed = aim(state)
        if aimed is None:
            return state
        count, targets = aimed
        names = "+".join(plan.stack[i].id for i in targets)
        label = plan.steps[state.at - 1].label
        crossfire = crossfire_modifier(count)
        chance.note(
            LANE_NOTE,
            f"{names} enter {label}: {count} Fire Lane marker(s), 1-4 row"
            + (f", crossfire {crossfire:+d} (13.91)" if crossfire else ""),
        )
        return apply_cps(plan, state, targets, _lane_cps(count, readings, chance), chance)

    def known(state: MoveState) -> Aimed | None:
        aimed = aim(state)
        if aimed is None:
            return None
        count, targets = aimed
        key = ("lane", count, readings.naturals)
        odds = cache.odds(key, lambda chance: _lane_cps(count, readings, chance))
        return cps_on(cache, state, targets, odds)

    return ShotPhase(lanes, known)


LANE_NOTE = "13.9 fire lane"
"""The trace label of a lane attack in a move (:func:`lane_phase`): who enters where."""


def _entering(note: str) -> list[str]:
    """The units a lane attack's note names (``A+B enter HEX: ...``, :func:`lane_phase`)."""
    return note.partition(" enter ")[0].split("+")


@dataclass(frozen=True, eq=False)
class LaneMove:
    """A move's process with its fire lanes: the model, every option, the lanes, the markers
    met at each hex index and the ``naturals`` reading of their attacks."""

    model: MoveModel
    options: dict[str, list[Opportunity]]
    lanes: tuple[LaidLane, ...]
    markers: Mapping[int, int]
    naturals: LaneNaturals = "none"

    def _attack_row(self, index: int) -> dict[str, object]:
        """The lane attack at the ``index``-th hex entered: the hex, the MGs whose lanes stand
        there, the markers, the row and the crossfire modifier (13.9, 13.91)."""
        step = self.model.plan.steps[index - 1]
        count = self.markers[index]
        inp = lane_attack_input(count, self.naturals)
        return {
            "index": index,
            "hex": step.label,
            "mgs": [
                laid.lane.mg
                for laid in self.lanes
                if laid.index < index and step.hex in laid.lane.hexes
            ],
            "markers": count,
            "row": LANE_ROW,
            "dice_modifier": crossfire_modifier(inp.markers),
        }

    def lane_attacks_json(self) -> list[dict[str, object]]:
        """Each lane attack the path may meet, by hex (13.9: made if a unit it may hurt enters
        the hex): :meth:`_attack_row` and ``"cps"``, the exact odds of its Casualty Points
        (``{"-": "7/12", "1": "5/36", ...}``, the rule a roll resolves)."""
        return [
            {
                **self._attack_row(index),
                "cps": FIRE_LANE_ATTACK.odds(
                    lane_attack_input(self.markers[index], self.naturals)
                ).to_json(),
            }
            for index in sorted(self.markers)
        ]

    def run_lane_attacks_json(self, run: MoveResolution) -> list[dict[str, object]]:
        """Each lane attack a run made, read from its trace: :meth:`_attack_row`, the
        ``units`` attacked, the ``roll`` (and its ``dice``), the ``modified_roll`` and the
        ``result`` on the 1-4 row (the CPs, ``"-"`` none)."""
        found: list[dict[str, object]] = []
        for step in run.run.steps:
            trace = step.trace
            for k, event in enumerate(trace):
                if event.label != LANE_NOTE or event.kind != "note":
                    continue
                roll = next(e for e in trace[k + 1 :] if e.label == LANE_ROLL)
                row = self._attack_row(step.after.at)
                modified, cell = lane_result(int(roll.value), self.markers[step.after.at])
                found.append(
                    {
                        **row,
                        "units": _entering(str(event.value)),
                        "roll": int(roll.value),
                        "dice": list(roll.dice),
                        "modified_roll": modified,
                        "result": cell.value,
                    }
                )
        return found

    def lanes_json(self) -> list[dict[str, object]]:
        """Each lane as ``{"mg", "from", "to", "hexes", "laid_at"}``."""
        board = self.model.plan.scenario.board
        return [lane.to_json(board) for lane in self.lanes]

    def lane_paths(self) -> list[tuple[Hex, ...]]:
        """Each lane as hexes to draw, its MG's hex first."""
        return [(laid.lane.firer, *laid.lane.hexes) for laid in self.lanes]

    def with_lanes(self, data: dict[str, object]) -> dict[str, object]:
        """A move's JSON (odds or run) with ``"lanes"``; the odds' also with, per hex,
        ``"lane_markers"`` and ``"lane_attacks"`` (:meth:`lane_attacks_json`)."""
        data["lanes"] = self.lanes_json()
        hexes = data.get("hexes")
        if isinstance(hexes, list):
            for entry in hexes:
                entry["lane_markers"] = self.markers.get(int(entry["index"]), 0)
            data["lane_attacks"] = self.lane_attacks_json()
        return data

    def with_run_attacks(self, data: dict[str, object], run: MoveResolution) -> dict[str, object]:
        """A run's JSON (its ``"lanes"`` given by :meth:`with_lanes`) with ``"lane_attacks"``:
        those the run made (:meth:`run_lane_attacks_json`)."""
        data["lane_attacks"] = self.run_lane_attacks_json(run)
        return data


def lane_fired_plan(plan: MovePlan, standing: Sequence[FireLane]) -> MovePlan:
    """The plan on its scenario with the MGs that laid the ``standing`` lanes marked with a
    Fire marker (13.8; :func:`~firefight.rulesets.vv.lanes_standing.lane_fire`): in the same
    Movement Phase they may not fire on opportunity again, AP or AT, nor lay a second lane
    (13.9)."""
    scenario = lane_fire(plan.scenario, standing)
    return plan if scenario is plan.scenario else replace(plan, scenario=scenario)


def build_lane_move(
    plan: MovePlan,
    policy: str = "threshold",
    *,
    threshold: Fraction = DEFAULT_THRESHOLD,
    player: Mapping[str, str] | None = None,
    fortification_cover: FortificationCover = "path_end",
    lanes: str = "always",
    lane_readings: LaneReadings | None = None,
    standing: Sequence[FireLane] = (),
    holding: frozenset[str] = frozenset(),
    after_fire: Sequence[Phase] = (),
    cache: ShotCache | None = None,
) -> LaneMove:
    """The move's process with the attacks the named policy chooses and the fire lanes;
    ``holding`` and ``after_fire``: the units keeping their fire for AT fire and its phases
    (:mod:`~firefight.rulesets.vv.at_move`). The MGs that laid the ``standing`` lanes have
    fired (:func:`lane_fired_plan`): they neither fire on the stack nor lay another lane.
    ``cache``: the move's attack odds and hits, shared with ``after_fire`` (a new one by
    default; :mod:`.move_shots`)."""
    readings = lane_readings or LaneReadings()
    plan = lane_fired_plan(plan, standing)
    memo = None if cache is None else cache.memo
    options = opportunities(
        plan, fortification_cover=fortification_cover, holding=holding, memo=memo
    )
    chosen = fire_plan(plan, fire_policy(policy, threshold=threshold, player=player), options)
    laid = (
        *(LaidLane(lane, 0) for lane in standing),
        *laid_lanes(plan, chosen, lanes, readings, memo),
    )
    marks = markers_along(plan.hexes, laid)
    cache = cache or ShotCache(plan)
    model = move_process(
        plan,
        chosen,
        on_entry=(lane_phase(plan, marks, readings, cache),),
        after_fire=after_fire,
        cache=cache,
    )
    return LaneMove(model, options, laid, marks, readings.naturals)
