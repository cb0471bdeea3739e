"""V&V 19 Armor Overruns (rulebook chapter 19).

19.1: only an AFV overruns (not an unarmoured vehicle, nor an AFV towing a Gun), during the
Movement _Phase, against infantry, unarmoured vehicles and Guns (never an AFV); not through a
building hex, a hex with a bunker, a hex with an enemy AFV, or through or into a hex it may not
enter. 19.3: it moves through the target hex into the hex directly opposite the one it entered
from, paying every hex's entry cost, the exit hex's included, plus 2 Movement Points.
19.4: the attack is on the AP Combat Table at double the AFV's full, combined APFP, plus the
APFP (not doubled) of infantry it carries; cover modifiers apply. The AFV then stops in the
exit hex, marked Moved, facing unchanged.
19.2: opportunity fire may meet the AFV in every hex it enters but the target hex, units in the
target hex included, and again as it exits the target hex; then a surviving unit of the target
hex able to make an AT attack may make a Final Opportunity Fire attack at its rear armour, even
if marked with a Fire marker, and a leader may modify it even so.

Readings where the rules are silent are documented in docs/vv.md ("Overruns: readings").

Parts, their public names re-exported here: the plan (19.1, 19.3,
:mod:`~firefight.rulesets.vv.overrun_plan`) and the Final Opportunity Fire (19.2,
:mod:`~firefight.rulesets.vv.overrun_final`). This module keeps the attack (19.4) and the phases.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from pydantic import Field, model_validator

from firefight.chance import TWO_D6, Chance, Phases
from firefight.chance.direct import by_total
from firefight.chance.distribution import Distribution
from firefight.core.chart import Cell
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier, ModifierKind
from firefight.i18n import gettext
from firefight.rulesets.procedure import Procedure
from firefight.rulesets.vv.allocator import DEFAULT_ALLOCATOR, Allocator, HitHex, allocate
from firefight.rulesets.vv.ap import (
    OUTCOMES as AP_OUTCOMES,
)
from firefight.rulesets.vv.ap import (
    Fortification,
    TargetTerrain,
    ap_combat_table,
    check_position,
    fortification_cover,
    terrain_cover,
)
from firefight.rulesets.vv.at import (
    VvAtAttack,
    at_attack,
)
from firefight.rulesets.vv.casualties import (
    Slot,
    SurvivalReading,
    apply_allocation,
    slots,
)
from firefight.rulesets.vv.overrun_final import (
    FINAL_OPPORTUNITY_FIRE,
    FinalWeapon,
    VvFinalOpportunityFire,
    final_fire_attack,
    final_opportunity_fire,
    may_fire_final,
)
from firefight.rulesets.vv.overrun_plan import (
    BUNKERS,
    HEX_HINDRANCES,
    OVERRUN_MP,
    OVERRUN_TARGETS,
    EntryCost,
    FirePoint,
    OverrunPlan,
    OverrunTarget,
    check_overrun_target,
    exit_hex,
    plan_overrun,
)
from firefight.rulesets.vv.units import HexUnits

__all__ = [
    "BUNKERS",
    "ENDS_THE_AFV",
    "FINAL_OPPORTUNITY_FIRE",
    "HEX_HINDRANCES",
    "OVERRUN_ATTACK",
    "OVERRUN_MP",
    "OVERRUN_TARGETS",
    "PROCEDURES",
    "START",
    "STOPS_THE_AFV",
    "AfvFate",
    "EntryCost",
    "FinalWeapon",
    "FirePoint",
    "OverrunOutcome",
    "OverrunPlan",
    "OverrunTarget",
    "VvFinalOpportunityFire",
    "VvOverrunAttack",
    "check_overrun_target",
    "exit_hex",
    "final_fire_attack",
    "final_opportunity_fire",
    "may_fire_final",
    "overrun_apfp",
    "overrun_attack",
    "overrun_facts",
    "overrun_modifiers",
    "overrun_phases",
    "overrun_row",
    "plan_overrun",
    "resolve_overrun",
]


class VvOverrunAttack(RuleInput):
    """The overrun attack on the target hex (V&V 19.4)."""

    afv_apfp: int = Field(
        ge=1,
        le=49,
        description=(
            "The AFV's full, combined APFP ratings as printed: doubled for the overrun (19.4)."
        ),
    )
    passenger_apfp: int = Field(
        0,
        ge=0,
        le=40,
        description=(
            "APFP of the infantry the AFV carries, with the Light MGs, grenades and satchel "
            "charges its player uses: added, not doubled (19.4)."
        ),
    )
    target_terrain: TargetTerrain = Field(
        "open",
        description=(
            "Terrain of the target hex: its cover modifier applies (19.4, 13.4); an orchard's or "
            "crops' +1 counts as the hex's own terrain (reading, docs). Not a building (19.1)."
        ),
    )
    fortification: Fortification = Field(
        "none",
        description=(
            "The target's fortification or entrenchment: its cover modifier applies (19.4, 20); "
            "not a bunker (19.1)."
        ),
    )

    @model_validator(mode="after")
    def _consistent(self) -> VvOverrunAttack:
        if self.target_terrain == "building":
            raise ValueError(gettext("'target_terrain': no overrun into a building hex (19.1)"))
        if self.fortification in BUNKERS:
            msg = gettext(
                "'fortification': no overrun into a hex containing a bunker (19.1) (got"
                " {fortification})"
            ).format(fortification=self.fortification)
            raise ValueError(msg)
        return self


def overrun_apfp(inp: VvOverrunAttack) -> int:
    """19.4: double the AFV's full combined APFP, plus its passengers' (not doubled)."""
    return 2 * inp.afv_apfp + inp.passenger_apfp


def overrun_row(inp: VvOverrunAttack) -> str:
    """The AP Combat Table row of the overrun's APFP."""
    table = ap_combat_table()
    return table.rows.labels[table.rows.index(overrun_apfp(inp))]


def overrun_modifiers(inp: VvOverrunAttack) -> list[Modifier]:
    """19.4: "Cover modifiers apply": the hex's terrain, its fortification (13.4, 20)."""
    found: list[Modifier] = []
    cases = [
        (terrain_cover(inp.target_terrain), f"target in {inp.target_terrain}", "19.4, 13.4"),
        (
            1 if inp.target_terrain in HEX_HINDRANCES else 0,
            f"target in {inp.target_terrain} (the hex's own terrain)",
            "19.4, 10.8",
        ),
        (fortification_cover(inp.fortification), inp.fortification.replace("_", " "), "19.4, 20"),
    ]
    for value, label, rule in cases:
        if value:
            found.append(Modifier(label, Fraction(value), ModifierKind.DICE, rule))
    return found


def _overrun_sheet(inp: VvOverrunAttack) -> tuple[str, int]:
    """What the overrun brings before the dice (19.4, 19.1): its row and the cover modifier."""
    check_position(inp.fortification, inp.target_terrain)
    return overrun_row(inp), sum(int(m.value) for m in overrun_modifiers(inp))


def overrun_odds(inp: VvOverrunAttack) -> Distribution[str]:
    """The exact odds of :func:`overrun_attack`: its one roll, each total read once."""
    row, total = _overrun_sheet(inp)
    return by_total(TWO_D6, lambda roll: _overrun_cell(row, roll + total).value)


def _overrun_cell(row: str, modified: int) -> Cell:
    """The AP Combat Table's cell in the overrun's row at the modified roll (19.4)."""
    return ap_combat_table().lookup_label(row, modified)


def overrun_attack(inp: VvOverrunAttack, chance: Chance) -> str:
    """Roll the overrun attack (19.4): the Casualty Points ("-" none). An AFV's roll calls for
    no valor check or sniper (16.1, 17.2: infantry attackers)."""
    row, total = _overrun_sheet(inp)
    roll = chance.roll(TWO_D6, "overrun attack dice roll (2d6)")
    cell = _overrun_cell(row, roll + total)
    chance.note(
        "19.4 overrun",
        f"APFP {overrun_apfp(inp)} ({row}), modified roll {roll + total}: {cell}",
    )
    return cell.value


def overrun_facts(inp: VvOverrunAttack) -> list[tuple[str, str]]:
    """The overrun APFP (doubled AFV, passengers added) and the row."""
    return [
        (
            "overrun APFP (19.4)",
            f"2 x {inp.afv_apfp} + {inp.passenger_apfp} = {overrun_apfp(inp)}",
        ),
        ("AP Combat Table row", overrun_row(inp)),
    ]


OVERRUN_ATTACK: Procedure[VvOverrunAttack] = Procedure(
    name="overrun_attack",
    title="Armor overrun attack (19.4)",
    input_model=VvOverrunAttack,
    rule=overrun_attack,
    modifiers=overrun_modifiers,
    chart="ap_combat",
    outcome_order=AP_OUTCOMES,
    facts=overrun_facts,
    meanings={"-": "no effect"},
    exact_odds=overrun_odds,
)


PROCEDURES = (OVERRUN_ATTACK, FINAL_OPPORTUNITY_FIRE)


AfvFate = Literal["unhurt", "immobilized", "immobilized_abandoned", "abandoned", "eliminated"]
STOPS_THE_AFV = frozenset({"immobilized", "immobilized_abandoned", "abandoned", "eliminated"})
"""An AT result that ends the overrun: the AFV no longer moves (18.4, 18.6)."""


def _afv_after(fate: AfvFate, result: str) -> AfvFate:
    """The AFV's state after one AT attack's result (its ``;valorous`` suffix dropped)."""
    base = result.split(";", 1)[0]
    if base in ("miss", "no_effect"):
        return fate
    if base == "immobilized" and fate == "immobilized":
        return fate
    return base  # type: ignore[return-value]  # an AT outcome that is an AfvFate


@dataclass(frozen=True)
class OverrunOutcome:
    """What an overrun leaves: where the AFV stopped (``approach`` index of the fire point, or
    ``exit``), its fate, and the state of every target-hex slot (14.6's order)."""

    afv: AfvFate
    stopped: str
    defenders: tuple[str, ...]

    def __str__(self) -> str:
        units = ", ".join(self.defenders) if self.defenders else "no attack"
        return f"afv {self.afv} at {self.stopped}; {units}"


ENDS_THE_AFV = frozenset({"eliminated", "abandoned", "immobilized_abandoned"})
"""An AT result that removes the AFV: no further fire at it (18.4, 18.6)."""
START = OverrunOutcome("unhurt", "", ())
"""An overrun before its first hex: the AFV unhurt, moving, no attack yet."""


def overrun_phases(  # noqa: PLR0917 - the overrun's parts, each from its section
    attack: VvOverrunAttack,
    defenders: HexUnits,
    approach_fire: Sequence[Sequence[VvAtAttack]],
    exit_fire: Sequence[VvAtAttack],
    final_fire: Mapping[int, VvFinalOpportunityFire],
    survival: SurvivalReading = "cps_applied",
    *,
    allocator: Allocator = DEFAULT_ALLOCATOR,
    where: HitHex | None = None,
) -> Phases[OverrunOutcome]:
    """One overrun as phases over :class:`OverrunOutcome` (from :data:`START`), so that exact
    odds merge equal states between attacks (:class:`~firefight.chance.process.Phases`).

    ``approach_fire[i]``: the opportunity fire AT attacks made as the AFV enters the i-th hex
    before the target (19.2); an immobilized, abandoned or eliminated AFV stops there and makes
    no attack. The overrun attack's CPs go to ``defenders`` as their owner allocates them
    (14.6: ``allocator`` asked with the hit in ``where``, the target hex; by default the
    ``least_rating_lost`` policy). ``exit_fire``: opportunity fire as it exits the target hex; then
    ``final_fire[slot]`` for each target-hex unit (by slot) that survives unpinned (14.7), in
    slot order, while the AFV is not eliminated or abandoned (19.2).
    """
    units = slots(defenders)
    if where is None:
        where = HitHex("target", "", tuple(s.unit.label for s in units))
    phases = [
        *(_approach(i, shot) for i, shots in enumerate(approach_fire) for shot in shots),
        _overrun(attack, defenders, survival, allocator, where),
        *(_leaving(shot) for shot in exit_fire),
        *(_final(i, final_fire[i], units) for i in sorted(final_fire)),
    ]
    return Phases(tuple(phases))


_Phase = Callable[[OverrunOutcome, Chance], OverrunOutcome]
"""One phase of :func:`overrun_phases`: the outcome so far and the chance to the next."""


def _approach(index: int, shot: VvAtAttack) -> _Phase:
    """19.2: an opportunity fire AT attack as the AFV enters the ``index``-th approach hex."""

    def fire(state: OverrunOutcome, chance: Chance) -> OverrunOutcome:
        if state.stopped:
            return state
        chance.note("19.2 opportunity fire", f"as the AFV enters approach hex {index + 1}")
        fate = _afv_after(state.afv, at_attack(shot, chance))
        stopped = f"approach {index + 1}" if fate in STOPS_THE_AFV else ""
        return OverrunOutcome(fate, stopped, ())

    return fire


def _overrun(
    attack: VvOverrunAttack,
    defenders: HexUnits,
    survival: SurvivalReading,
    allocator: Allocator,
    where: HitHex,
) -> _Phase:
    """19.4: the overrun attack, its CPs allocated to ``defenders`` by their owner (14.6,
    ``allocator`` asked with the hit in ``where``)."""

    def overrun(state: OverrunOutcome, chance: Chance) -> OverrunOutcome:
        if state.stopped:
            return state
        cps_text = overrun_attack(attack, chance)
        cps = 0 if cps_text == "-" else int(cps_text)
        allocation = allocate(allocator, where.hit(defenders, cps, survival), chance)
        if cps:
            chance.note("14.61 allocation", ", ".join(str(c) for c in allocation))
        states = apply_allocation(defenders, cps, allocation, chance, survival=survival)
        return OverrunOutcome(state.afv, "exit", states)

    return overrun


def _leaving(shot: VvAtAttack) -> _Phase:
    """19.2: an opportunity fire AT attack as the AFV exits the target hex."""

    def fire(state: OverrunOutcome, chance: Chance) -> OverrunOutcome:
        if state.stopped != "exit" or state.afv in ENDS_THE_AFV:
            return state
        chance.note("19.2 opportunity fire", "as the AFV exits the target hex")
        return OverrunOutcome(
            _afv_after(state.afv, at_attack(shot, chance)), "exit", state.defenders
        )

    return fire


def _final(index: int, fof: VvFinalOpportunityFire, units: tuple[Slot, ...]) -> _Phase:
    """19.2: the Final Opportunity Fire of the target hex's unit in slot ``index``, if it
    survives unpinned (14.7) while the AFV is not eliminated or abandoned."""

    def fire(state: OverrunOutcome, chance: Chance) -> OverrunOutcome:
        if (
            state.stopped != "exit"
            or state.afv in ENDS_THE_AFV
            or state.defenders[index] in ("eliminated", "pinned", "reduced_pinned")
            or units[index].unit.pinned
        ):
            return state
        shot = fof.model_copy(update={"target_immobilized": state.afv == "immobilized"})
        fate = _afv_after(state.afv, final_opportunity_fire(shot, chance))
        return OverrunOutcome(fate, "exit", state.defenders)

    return fire


def resolve_overrun(  # noqa: PLR0917 - the overrun's parts, each from its section
    attack: VvOverrunAttack,
    defenders: HexUnits,
    approach_fire: Sequence[Sequence[VvAtAttack]],
    exit_fire: Sequence[VvAtAttack],
    final_fire: Mapping[int, VvFinalOpportunityFire],
    chance: Chance,
    *,
    survival: SurvivalReading = "cps_applied",
    allocator: Allocator = DEFAULT_ALLOCATOR,
) -> OverrunOutcome:
    """One overrun from its first hex to the exit hex (19.2-19.4), every die through ``chance``
    (:func:`overrun_phases` run in order; ``allocator``: how the defender applies the CPs)."""
    phases = overrun_phases(
        attack, defenders, approach_fire, exit_fire, final_fire, survival, allocator=allocator
    )
    return phases(START, chance)
