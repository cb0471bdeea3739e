"""V&V 19 Armor Overruns (rulebook chapter 19).

19.1: only an AFV overruns (not an unarmoured vehicle, nor an AFV towing a Gun), during the
Movement Phase, against infantry, unarmoured vehicles and Guns (never an AFV); not through a
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
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from pydantic import Field, model_validator

from firefight.board.board import Board
from firefight.board.hexes import Hex
from firefight.chance import TWO_D6, Chance, Phases
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier, ModifierKind
from firefight.errors import RuleError
from firefight.i18n import gettext
from firefight.rulesets.procedure import Procedure
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
from firefight.rulesets.vv.at import OUTCOMES as AT_OUTCOMES
from firefight.rulesets.vv.at import (
    Rating,
    VvAtAttack,
    at_attack,
    at_facts,
    at_modifiers,
)
from firefight.rulesets.vv.casualties import (
    SurvivalReading,
    apply_allocation,
    default_allocation,
    slots,
)
from firefight.rulesets.vv.units import HexUnits
from firefight.rulesets.vv.valor import ValorUnit

OVERRUN_MP = 2
"""19.3: "The AFV must expend two Movement Points for the overrun attack"."""
OVERRUN_TARGETS: frozenset[str] = frozenset(
    {"squad", "half_squad", "leader", "gun", "unarmoured_vehicle"}
)
"""19.1: overruns are made "against infantry units, unarmored vehicles and Guns"."""
BUNKERS = frozenset({"concrete_bunker", "wood_earth_bunker"})
"""19.1: no overrun through a hex containing a Bunker (20.5)."""
HEX_HINDRANCES = frozenset({"orchard", "crops"})
"""Terrain whose +1 ("+1 Cum.") counts as the overrun hex's own terrain (reading, docs)."""

EntryCost = Callable[[Hex, Hex], int | None]
"""The Movement Points an AFV pays to move from one hex into the next (6.2, 6.5), ``None``
where it may not enter (the Terrain Effects Summary's "Proh.")."""


def exit_hex(entered_from: Hex, target: Hex) -> Hex:
    """19.3: the hex directly opposite the one the AFV entered the target hex from."""
    return Hex(2 * target.q - entered_from.q, 2 * target.r - entered_from.r)


@dataclass(frozen=True)
class FirePoint:
    """Where opportunity fire may meet the overrunning AFV (19.2): ``moment`` is ``enters``
    (a hex before the target) or ``exits`` (leaving the target hex, into the exit hex)."""

    hex: Hex
    moment: Literal["enters", "exits"]


@dataclass(frozen=True)
class OverrunPlan:
    """An overrun's route (19.3): ``path`` from the start hex to the target hex, then ``exit``;
    ``movement_points`` spent in all, the 2 of the overrun included."""

    path: tuple[Hex, ...]
    target: Hex
    exit: Hex
    movement_points: int

    @property
    def fire_points(self) -> tuple[FirePoint, ...]:
        """19.2: every hex entered but the target, then the exit from the target hex."""
        before = tuple(FirePoint(h, "enters") for h in self.path[1:-1])
        return (*before, FirePoint(self.exit, "exits"))

    def to_json(self, board: Board) -> dict[str, object]:
        """The route with board labels."""
        return {
            "path": [board.label(h) for h in self.path],
            "target": board.label(self.target),
            "exit": board.label(self.exit),
            "movement_points": self.movement_points,
            "opportunity_fire": [
                {"hex": board.label(p.hex), "moment": p.moment} for p in self.fire_points
            ],
            "final_opportunity_fire": board.label(self.target),
        }


@dataclass(frozen=True)
class OverrunTarget:
    """What 19.1 asks of the target hex: the enemy units' kinds and the hex's bunker."""

    kinds: tuple[str, ...]
    bunker: bool = False


def check_overrun_target(board: Board, goal: Hex, target: OverrunTarget) -> None:
    """19.1: no overrun into a building hex, a hex with a bunker or with an enemy AFV; the hex
    must hold infantry, an unarmoured vehicle or a Gun."""
    if board.terrain_of(goal) == "building":
        raise RuleError(
            gettext("no overrun into a building hex (19.1): {hex}").format(hex=board.label(goal))
        )
    if target.bunker:
        raise RuleError(
            gettext("no overrun into a hex containing a bunker (19.1): {hex}").format(
                hex=board.label(goal)
            )
        )
    if "armoured_vehicle" in target.kinds:
        raise RuleError(
            gettext("no overrun into a hex containing an enemy AFV (19.1): {hex}").format(
                hex=board.label(goal)
            )
        )
    if not any(kind in OVERRUN_TARGETS for kind in target.kinds):
        msg = gettext(
            "an overrun attacks infantry, unarmoured vehicles and Guns (19.1): {hex} holds none"
        ).format(hex=board.label(goal))
        raise RuleError(msg)


def plan_overrun(
    board: Board,
    path: Sequence[Hex],
    target: OverrunTarget,
    *,
    entry_cost: EntryCost,
    movement_points: int,
    afv_kind: str = "armoured_vehicle",
    towing_gun: bool = False,
) -> OverrunPlan:
    """Check an overrun along ``path`` (start hex first, target hex last) and plan it (19.1,
    19.3); a one-line :class:`RuleError` names what the rules forbid."""
    if afv_kind != "armoured_vehicle":
        what = afv_kind.replace("_", " ")
        raise RuleError(
            gettext("only AFVs may make overrun attacks (19.1), not a {what}").format(what=what)
        )
    if towing_gun:
        raise RuleError(
            gettext("an AFV transporting (towing) a Gun may not make an overrun attack (19.1)")
        )
    if len(path) < 2:
        raise RuleError(
            gettext("an overrun path needs the start hex and at least the target hex (19.3)")
        )
    for a, b in itertools.pairwise(path):
        if a.distance(b) != 1:
            msg = gettext("the overrun path must go hex by hex: {hex} to {hex2}").format(
                hex=board.label(a), hex2=board.label(b)
            )
            raise RuleError(msg)
    goal = path[-1]
    check_overrun_target(board, goal, target)
    out = exit_hex(path[-2], goal)
    if out not in board:
        msg = gettext("the exit hex opposite the entry lies off the board (19.3): {hex}").format(
            hex=board.label(goal)
        )
        raise RuleError(msg)
    spent = 0
    for a, b in zip((*path, out)[:-1], (*path, out)[1:], strict=True):
        cost = entry_cost(a, b)
        if cost is None or board.terrain_of(b) == "building":
            msg = gettext(
                "no overrun through or into a hex the AFV may not enter (19.1): {hex}"
            ).format(hex=board.label(b))
            raise RuleError(msg)
        spent += cost
    spent += OVERRUN_MP
    if spent > movement_points:
        msg = gettext(
            "the overrun costs {spent} Movement Points (every hex entered, the exit"
            " hex's included, +2, 19.3); the AFV has {movement_points}"
        ).format(spent=spent, movement_points=movement_points)
        raise RuleError(msg)
    return OverrunPlan(tuple(path), goal, out, spent)


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


def overrun_attack(inp: VvOverrunAttack, chance: Chance) -> str:
    """Roll the overrun attack (19.4): the Casualty Points ("-" none). An AFV's roll calls for
    no valor check or sniper (16.1, 17.2: infantry attackers)."""
    check_position(inp.fortification, inp.target_terrain)
    row = overrun_row(inp)
    total = sum(int(m.value) for m in overrun_modifiers(inp))
    roll = chance.roll(TWO_D6, "overrun attack dice roll (2d6)")
    cell = ap_combat_table().lookup_label(row, roll + total)
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
)


FinalWeapon = Literal["at_weapon", "gun"]


class VvFinalOpportunityFire(RuleInput):
    """A surviving unit of the overrun hex fires at the AFV's rear armour as it exits (19.2)."""

    weapon: FinalWeapon = Field(
        "at_weapon",
        description=(
            "at_weapon = an infantry unit's AT support weapon (to-hit 8); gun = a Gun in the "
            "hex (range 1: to-hit 10) (18.3)."
        ),
    )
    atfp: Rating = Field(description="The weapon's AT FP Rating A-F (18.4).")
    rear_armor: Rating = Field(
        description=(
            "The AFV's rear Armor Rating (its only one if it prints one): Final Opportunity "
            "Fire hits the rear armour (19.2, 18.5)."
        )
    )
    cover: int = Field(
        0,
        ge=0,
        le=7,
        description=(
            "Cover of the hex the AFV exits into, added to the to-hit roll (13.4: 'Cover "
            "modifiers apply to ALL to-hit rolls'; reading, docs: the AFV is in the exit hex "
            "when fired on, as opportunity fire follows entering a hex, 13.8)."
        ),
    )
    leader_modifier: int = Field(
        0,
        ge=-3,
        le=0,
        description=(
            "Leadership Modifier of an unpinned leader in the hex, even one marked with a Fire "
            "marker (19.2, 13.6); infantry weapons only."
        ),
    )
    firer_valorous: bool = Field(
        False, description="The firing infantry unit is valorous: -1 to the to-hit roll (16.3)."
    )
    check_valor: bool = Field(
        False, description="Follow a natural two with the firer's valor check (16.2)."
    )
    firer_unit: ValorUnit = Field("squad", description="The firing unit, for its valor check.")
    firer_casualty_rating: int | None = Field(
        None, ge=1, le=12, description="Its Casualty Rating (16.2)."
    )
    target_immobilized: bool = Field(
        False, description="The AFV is already immobilized (18.6: abandonment check)."
    )

    @model_validator(mode="after")
    def _consistent(self) -> VvFinalOpportunityFire:
        if self.weapon == "gun" and (self.leader_modifier or self.firer_valorous):
            raise ValueError(
                gettext(
                    "leaders and valor modify infantry attacks only (13.6, 16.3): weapon at_weapon"
                )
            )
        if self.check_valor and self.firer_unit != "leader" and self.firer_casualty_rating is None:
            raise ValueError(gettext("'firer_casualty_rating' must be given to check valor (16.2)"))
        return self


def final_fire_attack(inp: VvFinalOpportunityFire) -> VvAtAttack:
    """The AT attack it is: range 1, the rear armour (19.2, 18.3-18.6)."""
    return VvAtAttack(
        weapon=inp.weapon,
        range_hexes=1,
        atfp=inp.atfp,
        target="afv",
        front_armor=inp.rear_armor,
        rear_armor=inp.rear_armor,
        facing="rear",
        cover=inp.cover,
        leader_modifier=inp.leader_modifier,
        firer_valorous=inp.firer_valorous,
        check_valor=inp.check_valor,
        firer_unit=inp.firer_unit,
        firer_casualty_rating=inp.firer_casualty_rating,
        target_immobilized=inp.target_immobilized,
    )


def final_opportunity_fire(inp: VvFinalOpportunityFire, chance: Chance) -> str:
    """Resolve the Final Opportunity Fire attack: the AT attack at the rear armour (19.2)."""
    chance.note("19.2 Final Opportunity Fire", f"rear armor {inp.rear_armor}, range 1")
    return at_attack(final_fire_attack(inp), chance)


FINAL_OPPORTUNITY_FIRE: Procedure[VvFinalOpportunityFire] = Procedure(
    name="final_opportunity_fire",
    title="Final Opportunity Fire at an overrunning AFV's rear armour (19.2)",
    input_model=VvFinalOpportunityFire,
    rule=final_opportunity_fire,
    modifiers=lambda inp: at_modifiers(final_fire_attack(inp)),
    chart="armor_elimination",
    outcome_order=AT_OUTCOMES,
    facts=lambda inp: at_facts(final_fire_attack(inp)),
    meanings={
        "miss": "the to-hit roll failed (18.3)",
        "no_effect": "hit, elimination roll above the Elimination Number or '-' (18.4)",
        "abandoned": "already immobilized, survived, and the crew abandons it (18.6)",
        "immobilized": "elimination roll equal to the Elimination Number (18.4)",
        "immobilized_abandoned": "immobilized, then abandoned on 1d6 <= 2: removed (18.6)",
        "eliminated": "removed (18.4)",
    },
)


def may_fire_final(kind: str, *, pinned: bool, eliminated: bool, has_at_weapon: bool) -> bool:
    """19.2: a *surviving* unit of the target hex *capable of making an AT attack* (an infantry
    unit with an AT weapon, or a Gun), Fire marker or not; a pinned unit performs no action
    (14.7)."""
    if eliminated or pinned:
        return False
    return kind == "gun" or (kind in ("squad", "half_squad", "leader") and has_at_weapon)


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
) -> Phases[OverrunOutcome]:
    """One overrun as phases over :class:`OverrunOutcome` (from :data:`START`), so that exact
    odds merge equal states between attacks (:class:`~firefight.chance.process.Phases`).

    ``approach_fire[i]``: the opportunity fire AT attacks made as the AFV enters the i-th hex
    before the target (19.2); an immobilized, abandoned or eliminated AFV stops there and makes
    no attack. The overrun attack's CPs go to ``defenders`` by the casualty policy (14.6,
    ``least_rating_lost``). ``exit_fire``: opportunity fire as it exits the target hex; then
    ``final_fire[slot]`` for each target-hex unit (by slot) that survives unpinned (14.7), in
    slot order, while the AFV is not eliminated or abandoned (19.2).
    """

    def approach(
        index: int, shot: VvAtAttack
    ) -> Callable[[OverrunOutcome, Chance], OverrunOutcome]:
        def fire(state: OverrunOutcome, chance: Chance) -> OverrunOutcome:
            if state.stopped:
                return state
            chance.note("19.2 opportunity fire", f"as the AFV enters approach hex {index + 1}")
            fate = _afv_after(state.afv, at_attack(shot, chance))
            stopped = f"approach {index + 1}" if fate in STOPS_THE_AFV else ""
            return OverrunOutcome(fate, stopped, ())

        return fire

    def overrun(state: OverrunOutcome, chance: Chance) -> OverrunOutcome:
        if state.stopped:
            return state
        cps_text = overrun_attack(attack, chance)
        cps = 0 if cps_text == "-" else int(cps_text)
        allocation = default_allocation(defenders, cps, survival=survival)
        if cps:
            chance.note("14.61 allocation", ", ".join(str(c) for c in allocation))
        states = apply_allocation(defenders, cps, allocation, chance, survival=survival)
        return OverrunOutcome(state.afv, "exit", states)

    def leaving(shot: VvAtAttack) -> Callable[[OverrunOutcome, Chance], OverrunOutcome]:
        def fire(state: OverrunOutcome, chance: Chance) -> OverrunOutcome:
            if state.stopped != "exit" or state.afv in ENDS_THE_AFV:
                return state
            chance.note("19.2 opportunity fire", "as the AFV exits the target hex")
            return OverrunOutcome(
                _afv_after(state.afv, at_attack(shot, chance)), "exit", state.defenders
            )

        return fire

    units = slots(defenders)

    def final(
        index: int, fof: VvFinalOpportunityFire
    ) -> Callable[[OverrunOutcome, Chance], OverrunOutcome]:
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

    phases = [
        *(approach(i, shot) for i, shots in enumerate(approach_fire) for shot in shots),
        overrun,
        *(leaving(shot) for shot in exit_fire),
        *(final(i, final_fire[i]) for i in sorted(final_fire)),
    ]
    return Phases(tuple(phases))


def resolve_overrun(  # noqa: PLR0917 - the overrun's parts, each from its section
    attack: VvOverrunAttack,
    defenders: HexUnits,
    approach_fire: Sequence[Sequence[VvAtAttack]],
    exit_fire: Sequence[VvAtAttack],
    final_fire: Mapping[int, VvFinalOpportunityFire],
    chance: Chance,
    *,
    survival: SurvivalReading = "cps_applied",
) -> OverrunOutcome:
    """One overrun from its first hex to the exit hex (19.2-19.4), every die through ``chance``
    (:func:`overrun_phases` run in order)."""
    phases = overrun_phases(attack, defenders, approach_fire, exit_fire, final_fire, survival)
    return phases(START, chance)
