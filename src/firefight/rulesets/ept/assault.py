"""EPT assault: the ASSAUT chart of seed 000.

* ``assault_initiative``: the "Modifiers to the test of initiative (cumulative)". The test is
  not in the seed; the reading kept (a documented parameter) is an opposed roll: each side
  rolls the dice plus its own modifiers, the higher total has the initiative.
* ``assault``: "Roll with 2d6 less or equal to the figure indicated [but see 17.2]" on the
  result table by troop type (Step loss / Elim. / Veh. [Eliminated]), with the cumulative
  modifiers to the dice and those against a vehicle. The row is the assaulting unit's troop
  type. Rule 17.2 is not in the seed.

The modifiers' values are read from the charts in ``data/`` (cells exactly as printed).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar, Literal

from pydantic import AliasChoices, Field, model_validator

from firefight.chance import Chance
from firefight.chance.direct import by_total, by_totals
from firefight.chance.distribution import Distribution
from firefight.core.chart import Chart
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier
from firefight.i18n import ngettext
from firefight.rulesets.ept.command import (
    DICE,
    TROOP_TYPE_LABELS,
    DiceName,
    TroopType,
    chart,
    dice_modifier,
)
from firefight.rulesets.procedure import Procedure

ASSAULT = "assault"
INITIATIVE = "assault_initiative"
DICE_MODIFIERS = "assault_dice_modifiers"
VEHICLE_MODIFIERS = "assault_vehicle_modifiers"

STEP_LOSS = "Step loss"
ELIMINATION = "Elim."
VEHICLE = "Veh. [Eliminated]"


def assault_table() -> Chart:
    """The ASSAUT result table by troop type, loaded once from ``data/assault.toml``."""
    return chart(ASSAULT)


# --- the test of initiative -----------------------------------------------------------------

Side = Literal["attacker", "defender"]


class EptAssaultInitiative(RuleInput):
    """The test of initiative of an assault (ASSAUT: Modifiers to the test of initiative).

    Reading kept (the test is not in the seed): an opposed roll, each side's dice plus its own
    cumulative modifiers; the higher total has the initiative.
    """

    readings: ClassVar[frozenset[str]] = frozenset({"initiative_dice", "tie"})
    """The fields that read the rules where they are silent (folded apart on the web)."""

    first_phase: bool = Field(
        True, description="The assault's 1st phase: the attacker's +1 applies (1st phase only.)."
    )
    attacker_stopped: bool = Field(False, description="Attacking unit stopped: -1.")
    attacker_neutralized: bool = Field(False, description="Attacking unit neutralized: -2.")
    attacker_formation_hesitant: bool = Field(
        False, description="Attacking unit's formation hesitant: -1."
    )
    attacker_hidden: bool = Field(False, description="Attacking unit hidden: +2.")
    attacker_parachute: bool = Field(False, description="Attacking unit is a parachute unit: -2.")
    defender_stopped: bool = Field(False, description="Defending unit stopped: -1.")
    defender_neutralized: bool = Field(False, description="Defending unit neutralized: -2.")
    defender_formation_hesitant: bool = Field(
        False, description="Defending unit's formation hesitant: -1."
    )
    defender_hidden: bool = Field(False, description="Defending unit hidden: +2.")
    defender_parachute: bool = Field(False, description="Defending unit is a parachute unit: -2.")
    initiative_dice: DiceName = Field(
        "1d6",
        description=(
            "The dice each side rolls (the test is not on the chart sheet): 1d6 (the modifiers, -2 "
            "to +2, are on a one-die scale) or 2d6."
        ),
    )
    tie: Literal["tie", "attacker", "defender"] = Field(
        "tie",
        description=(
            "Equal totals (not on the chart sheet): tie = shown as its own outcome, for the "
            "players' "
            "rule; attacker or defender = that side has the initiative."
        ),
    )


_SIDE_LINES = (
    ("stopped", "Unit stopped"),
    ("neutralized", "Unit neutralized"),
    ("formation_hesitant", "Formation hesitant"),
    ("hidden", "Unit hidden"),
    ("parachute", "Parachute unit"),
)


def side_modifiers(inp: EptAssaultInitiative, side: Side) -> list[Modifier]:
    """The modifiers to one side's initiative roll, in the chart's order."""
    table = chart(INITIATIVE)
    found = []
    if side == "attacker" and inp.first_phase:
        found.append(dice_modifier(table, "Attacker", "Attacker, 1st phase (attacker's roll)"))
    for field, line in _SIDE_LINES:
        if getattr(inp, f"{side}_{field}"):
            found.append(dice_modifier(table, line, f"{line} ({side}'s roll)"))
    return found


def initiative_modifiers(inp: EptAssaultInitiative) -> list[Modifier]:
    """The attacker's modifiers, then the defender's."""
    return side_modifiers(inp, "attacker") + side_modifiers(inp, "defender")


@lru_cache(maxsize=4096)
def side_modifier(inp: EptAssaultInitiative, side: Side) -> int:
    """The sum of one side's modifiers (once per input: exact odds re-run the rule)."""
    return int(sum(m.value for m in side_modifiers(inp, side)))


def initiative_facts(inp: EptAssaultInitiative) -> list[tuple[str, str]]:
    """Each side's total modifier."""
    return [
        ("attacker's modifier", f"{side_modifier(inp, 'attacker'):+}"),
        ("defender's modifier", f"{side_modifier(inp, 'defender'):+}"),
    ]


def initiative_holder(attacker: int, defender: int, tie: str) -> str:
    """Who has the initiative at the two sides' modified totals: the higher, equal ``tie``."""
    if attacker > defender:
        return "attacker"
    if defender > attacker:
        return "defender"
    return tie


def assault_initiative(inp: EptAssaultInitiative, chance: Chance) -> str:
    """Each side rolls and adds its modifiers; the higher total has the initiative."""
    dice = DICE[inp.initiative_dice]
    totals = {}
    for side in ("attacker", "defender"):
        roll = chance.roll(dice, f"{side}'s initiative roll ({inp.initiative_dice})")
        modifier = side_modifier(inp, side)
        totals[side] = (roll, modifier, roll + modifier)
    outcome = initiative_holder(totals["attacker"][2], totals["defender"][2], inp.tie)
    shown = ", ".join(f"{side} {r} {m:+} = {t}" for side, (r, m, t) in totals.items())
    chance.note("test of initiative", f"{shown}: {outcome}")
    return outcome


def initiative_odds(inp: EptAssaultInitiative) -> Distribution[str]:
    """The exact odds of :func:`assault_initiative` from its own step: the two sides'
    independent rolls, each pair of totals read by :func:`initiative_holder` once (the replay
    re-runs the rule under every roll)."""
    dice = DICE[inp.initiative_dice]
    attacker, defender = side_modifier(inp, "attacker"), side_modifier(inp, "defender")
    return by_totals(
        dice, dice, lambda a, d: initiative_holder(a + attacker, d + defender, inp.tie)
    )


INITIATIVE_PROCEDURE: Procedure[EptAssaultInitiative] = Procedure(
    name="assault_initiative",
    title="Assault: test of initiative (ASSAUT)",
    input_model=EptAssaultInitiative,
    rule=assault_initiative,
    modifiers=initiative_modifiers,
    outcome_order=("attacker", "tie", "defender"),
    facts=initiative_facts,
    meanings={
        "attacker": "the attacker has the initiative",
        "defender": "the defender has the initiative",
        "tie": "equal totals (the chart sheet gives no tie rule)",
    },
    exact_odds=initiative_odds,
)


# --- the assault roll -----------------------------------------------------------------------

Target = Literal["infantry", "vehicle"]
Level = Literal["same", "from_lower", "from_higher"]

_VEHICLE_ONLY = (
    "assaulting_armour",
    "panzerfaust",
    "german",
    "open_topped_or_non_armoured",
    "immobilized_or_shut_down",
)
_INFANTRY_ONLY = ("against_parachute_unit", "target_with_movement_marker")


class EptAssault(RuleInput):
    """One assault roll (ASSAUT): 2d6 plus the cumulative modifiers, at most the figure of the
    assaulting unit's troop type."""

    troop_type: TroopType = Field(
        description=(
            "Troop type of the assaulting unit (its row of the ASSAUT table): shock, veteran, "
            "line, recruit."
        )
    )
    target: Target = Field(
        "infantry",
        description=(
            "infantry: Elim. then Step loss are read; vehicle: Veh. [Eliminated] is read and "
            "the 'Against vehicle' modifiers may apply."
        ),
    )
    subordinates_without_pc: bool = Field(
        False, description="Assaulting subordinates without their PC: +2."
    )
    stopped: bool = Field(False, description="The assaulting unit is stopped: +1.")
    hesitant: bool = Field(False, description="The assaulting unit is hesitant: +1.")
    neutralized: bool = Field(False, description="The assaulting unit is neutralized: +3.")
    step_loss: bool = Field(False, description="The assaulting unit has lost a step: +1.")
    level: Level = Field(
        "same",
        description="Coming from a lower level: +1; coming from a higher level: -1.",
    )
    defender_in_important_protection: bool = Field(
        False, description="Defender in important protection: +1."
    )
    against_parachute_unit: bool = Field(
        False, description="Against a parachute unit: -1 (infantry target)."
    )
    target_with_movement_marker: bool = Field(
        False, description="Target infantry with movement marker: -1 (infantry target)."
    )
    assaulting_armour: bool = Field(
        False,
        validation_alias=AliasChoices("assaulting_armour", "assaulting_armor"),
        description=(
            "Against vehicle: assaulting armor +2, read as 'the vehicle assaulted is armored' "
            "(not 'the assaulting unit is armor')."
        ),
    )
    panzerfaust: bool = Field(
        False, description="Against vehicle: the assaulting unit uses a Panzerfaust: -2."
    )
    german: bool = Field(False, description="Against vehicle: the assaulting unit is German: -1.")
    open_topped_or_non_armoured: bool = Field(
        False,
        validation_alias=AliasChoices("open_topped_or_non_armoured", "open_topped_or_non_armored"),
        description="Against an open-topped or non-armored vehicle: -2.",
    )
    immobilized_or_shut_down: bool = Field(
        False, description="Against a vehicle immobilized or shut down: -2."
    )

    @model_validator(mode="after")
    def _modifiers_fit_the_target(self) -> EptAssault:
        given = _VEHICLE_ONLY if self.target == "infantry" else _INFANTRY_ONLY
        wrong = [name for name in given if getattr(self, name)]
        if wrong:
            names = ", ".join(repr(name) for name in wrong)
            if self.target == "infantry":
                text = ngettext(
                    "{names} applies only against a vehicle (target is {target})",
                    "{names} apply only against a vehicle (target is {target})",
                    len(wrong),
                )
            else:
                text = ngettext(
                    "{names} applies only against infantry (target is {target})",
                    "{names} apply only against infantry (target is {target})",
                    len(wrong),
                )
            msg = text.format(names=names, target=self.target)
            raise ValueError(msg)
        return self


_GENERAL_LINES = (
    ("subordinates_without_pc", "subordinates without PC"),
    ("stopped", "stopped"),
    ("hesitant", "hesitant"),
    ("neutralized", "neutralized"),
    ("step_loss", "step loss"),
)
_TARGET_LINES = (
    ("defender_in_important_protection", "Defender in important protection"),
    ("against_parachute_unit", "against parachute unit"),
    ("target_with_movement_marker", "target infantry with movement marker"),
)
_VEHICLE_LINES = (
    ("assaulting_armour", "Assaulting armor"),
    ("panzerfaust", "Panzerfaust"),
    ("german", "German"),
    ("open_topped_or_non_armoured", "against an open-topped or non-armored vehicle"),
    ("immobilized_or_shut_down", "against a vehicle immobilized or shut down"),
)
_LEVEL_LINES = {
    "from_lower": "coming from a lower level",
    "from_higher": "coming from a higher level",
}


def assault_modifiers(inp: EptAssault) -> list[Modifier]:
    """The modifiers to the dice, in the chart's order (those against a vehicle last)."""
    general = chart(DICE_MODIFIERS)
    found = [dice_modifier(general, line) for field, line in _GENERAL_LINES if getattr(inp, field)]
    if inp.level != "same":
        found.append(dice_modifier(general, _LEVEL_LINES[inp.level]))
    found += [dice_modifier(general, line) for field, line in _TARGET_LINES if getattr(inp, field)]
    vehicle = chart(VEHICLE_MODIFIERS)
    found += [dice_modifier(vehicle, line) for field, line in _VEHICLE_LINES if getattr(inp, field)]
    return found


@dataclass(frozen=True, slots=True)
class AssaultSheet:
    """What an assault brings to the table before the dice: the figures and the modifier."""

    figures: tuple[tuple[str, int], ...]
    """(column, figure) from the worst result to the least: Elim. then Step loss, or Veh."""
    dice_modifier: int


@lru_cache(maxsize=4096)
def assault_sheet(inp: EptAssault) -> AssaultSheet:
    """The figures of the troop type's row and the dice modifier (once per input)."""
    table = assault_table()
    row = TROOP_TYPE_LABELS[inp.troop_type]
    columns = (ELIMINATION, STEP_LOSS) if inp.target == "infantry" else (VEHICLE,)
    figures = tuple((column, int(table.cell_at(row, column).value)) for column in columns)
    return AssaultSheet(figures, int(sum(m.value for m in assault_modifiers(inp))))


_RESULTS = {ELIMINATION: "eliminated", STEP_LOSS: "step_loss", VEHICLE: "eliminated"}


def assault_facts(inp: EptAssault) -> list[tuple[str, str]]:
    """The figures read for the troop type and the dice modifier."""
    sheet = assault_sheet(inp)
    return [
        (
            f"{TROOP_TYPE_LABELS[inp.troop_type]} figures",
            ", ".join(f"{c} {f}" for c, f in sheet.figures),
        ),
        ("dice modifier", f"{sheet.dice_modifier:+}"),
    ]


def assault_result(sheet: AssaultSheet, total: int) -> tuple[str, str]:
    """The result of a modified roll of ``total``: that of the first figure (the worst
    result first) it is at most, else no effect; and the figure read, as the trace shows it."""
    for column, figure in sheet.figures:
        if total <= figure:
            return _RESULTS[column], f"<= {column} {figure}"
    return "no_effect", f"above {sheet.figures[-1][0]} {sheet.figures[-1][1]}"


def assault_odds(inp: EptAssault) -> Distribution[str]:
    """The exact odds of :func:`assault`: its one roll, each total read once."""
    sheet = assault_sheet(inp)
    return by_total(DICE["2d6"], lambda roll: assault_result(sheet, roll + sheet.dice_modifier)[0])


def assault(inp: EptAssault, chance: Chance) -> str:
    """2d6 plus the modifiers at most a figure gives its result, the worst result first."""
    sheet = assault_sheet(inp)
    roll = chance.roll(DICE["2d6"], "assault roll (2d6)")
    total = roll + sheet.dice_modifier
    outcome, read = assault_result(sheet, total)
    chance.note(
        assault_table().title,
        f"{roll} {sheet.dice_modifier:+} = {total} {read} "
        f"({TROOP_TYPE_LABELS[inp.troop_type]}): {outcome}",
    )
    return outcome


ASSAULT_PROCEDURE: Procedure[EptAssault] = Procedure(
    name="assault",
    title="Assault (ASSAUT)",
    input_model=EptAssault,
    rule=assault,
    modifiers=assault_modifiers,
    outcome_order=("no_effect", "step_loss", "eliminated"),
    facts=assault_facts,
    meanings={
        "no_effect": "no effect",
        "step_loss": "the target loses a step",
        "eliminated": "the target (infantry or vehicle) is eliminated",
    },
    exact_odds=assault_odds,
)

PROCEDURES = (INITIATIVE_PROCEDURE, ASSAULT_PROCEDURE)
