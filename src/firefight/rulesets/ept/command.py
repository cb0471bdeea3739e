"""EPT command: MODIFICATEURS D’ACTIVATION, ADJOINTS and the Tests of Rate of Fire (seed 000).

* ``activation``: the unit's morale (M) less the cumulative activation modifiers (with the
  chart's exception for "not in command/isolated"); 2d6 at most the modified morale activates
  (the test is not in the seed: a documented reading).
* ``adjunct``: one d6, shock -1, recruit +1, read on the ADJOINTS table: the bonus to the morale
  of the adjunct who replaces a destroyed PC.
* ``rate_of_fire``: the test a unit takes for each fire after its first in a turn; the die plus
  "unit stopped or hesitant: +1 (cumulative)" at most its rate of fire passes (the test is not
  in the seed: a documented reading).

The modifiers' values are read from the charts in ``data/`` (cells exactly as printed), so the
transcription tests check the numbers the rules use.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import cache, lru_cache
from pathlib import Path
from typing import ClassVar, Literal

from pydantic import Field

from firefight.chance import D6, TWO_D6, Chance, Dice
from firefight.chance.direct import by_total
from firefight.chance.distribution import Distribution
from firefight.core.chart import Chart, chart_file
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier, ModifierKind
from firefight.errors import ChartError
from firefight.rulesets.procedure import Procedure
from firefight.translation import gettext as _

DATA = Path(__file__).parent / "data"

_PRINTED_MODIFIER = re.compile(r"^(?:M\s*)?(?P<value>[+-]\d+)(?:\s|$)")

TroopType = Literal["shock", "veteran", "line", "recruit"]
TROOP_TYPE_LABELS: dict[str, str] = {
    "shock": "Shock",
    "veteran": "Veteran",
    "line": "Line",
    "recruit": "Recruit",
}
"""The troop types as the charts print them (ASSAUT, ADJOINTS)."""

DiceName = Literal["1d6", "2d6"]
DICE: dict[str, Dice] = {"1d6": D6, "2d6": TWO_D6}


@cache
def chart(chart_id: str) -> Chart:
    """A chart of this part of the sheet, loaded once from ``data/<chart_id>.toml``."""
    return chart_file(DATA / f"{chart_id}.toml")


def printed_modifier(table: Chart, row_label: str) -> int:
    """The signed number a modifier line prints after its colon: ``"M -1 [...]"`` -> -1,
    ``"+1 (1st phase only.)"`` -> 1."""
    cell = table.cell_at(row_label, table.columns.labels[0]).value
    match = _PRINTED_MODIFIER.match(cell)
    if match is None:
        msg = _("chart {id!r}: row {row_label!r} prints {cell!r}, not a signed modifier").format(
            id=table.id, row_label=row_label, cell=cell
        )
        raise ChartError(msg)
    return int(match["value"])


def dice_modifier(
    table: Chart, row_label: str, label: str | None = None, kind: ModifierKind = ModifierKind.DICE
) -> Modifier:
    """A chart line as an itemized modifier (to the dice unless ``kind`` says otherwise)."""
    value = printed_modifier(table, row_label)
    return Modifier(label or row_label, Fraction(value), kind, table.title)


# --- MODIFICATEURS D’ACTIVATION -------------------------------------------------------------

MORALE = ModifierKind.VALUE
"""Activation modifiers change the morale ("M -1"), the value the 2d6 must not exceed."""

ACTIVATION = "activation_modifiers"
PcStatus = Literal["normal", "stopped", "neutralized", "destroyed"]
_PC_STATUS_LINES = {
    "stopped": "PC stopped",
    "neutralized": "PC neutralized",
    "destroyed": "PC destroyed",
}
_NOT_IN_COMMAND = "Unit not in command/isolated"


class EptActivation(RuleInput):
    """An activation test (MODIFICATEURS D’ACTIVATION; the test itself is a documented reading)."""

    readings: ClassVar[frozenset[str]] = frozenset({"not_in_command_exception"})
    """The fields that read the rules where they are silent (folded apart on the web)."""

    morale: int = Field(
        ge=1,
        le=12,
        description=(
            "M: the unit's morale (Moral) from its counter, the target of the activation test "
            "before the MODIFICATEURS D’ACTIVATION."
        ),
    )
    is_pc: bool = Field(
        False,
        description=(
            "The unit tested is a PC (command post): 'Unit not in command/isolated' does not "
            "apply to it (6.3)."
        ),
    )
    pc_not_in_command: bool = Field(False, description="PC not in command: M -1.")
    formation_hesitant: bool = Field(False, description="Formation hesitant: M -1.")
    pc_status: PcStatus = Field(
        "normal",
        description=(
            "The formation's PC: stopped M -1, neutralized M -2, destroyed M -3. Read as one "
            "status (the worse marker replaces the lesser), not three lines to add."
        ),
    )
    unit_not_in_command: bool = Field(
        False, description="Unit not in command: M -1 (does not apply to PCs, 6.3)."
    )
    unit_isolated: bool = Field(
        False, description="Unit isolated: M -1 (does not apply to PCs, 6.3)."
    )
    stopped: bool = Field(False, description="If stopped (the unit tested): M -1.")
    hesitant: bool = Field(False, description="If hesitant (the unit tested): M -1.")
    not_in_command_exception: Literal["counts_once", "replaces_pc_modifiers"] = Field(
        "counts_once",
        description=(
            "Reading of 'These modifiers are cumulative (exception: not in command/isolated)': "
            "counts_once = not in command and isolated give M -1 once, not -2; "
            "replaces_pc_modifiers = a unit not in command/isolated takes M -1 instead of the "
            "PC lines (PC not in command, PC stopped / neutralized / destroyed)."
        ),
    )


def activation_modifiers(inp: EptActivation) -> list[Modifier]:
    """The modifiers to the morale, in the chart's order, with the exception applied."""
    table = chart(ACTIVATION)
    unit_out = inp.unit_not_in_command or inp.unit_isolated
    applies_to_unit = unit_out and not inp.is_pc
    pc_lines_replaced = applies_to_unit and inp.not_in_command_exception == "replaces_pc_modifiers"
    found: list[Modifier] = []
    if inp.pc_not_in_command and not pc_lines_replaced:
        found.append(dice_modifier(table, "PC not in command", kind=MORALE))
    if inp.formation_hesitant:
        found.append(dice_modifier(table, "Formation hesitant", kind=MORALE))
    if inp.pc_status != "normal" and not pc_lines_replaced:
        found.append(dice_modifier(table, _PC_STATUS_LINES[inp.pc_status], kind=MORALE))
    if unit_out:
        both = inp.unit_not_in_command and inp.unit_isolated
        which = (
            "not in command and isolated"
            if both
            else ("not in command" if inp.unit_not_in_command else "isolated")
        )
        if inp.is_pc:
            found.append(
                Modifier(
                    f"unit {which}: does not apply to PCs (6.3)",
                    Fraction(0),
                    MORALE,
                    table.title,
                )
            )
        else:
            notes = []
            if both:
                notes.append("counted once")
            if pc_lines_replaced and (inp.pc_not_in_command or inp.pc_status != "normal"):
                notes.append("replaces the PC lines")
            suffix = f" ({', '.join(notes)}: exception)" if notes else ""
            found.append(dice_modifier(table, _NOT_IN_COMMAND, f"unit {which}{suffix}", MORALE))
    if inp.stopped:
        found.append(dice_modifier(table, "If stopped", kind=MORALE))
    if inp.hesitant:
        found.append(dice_modifier(table, "If hesitant", kind=MORALE))
    return found


@lru_cache(maxsize=4096)
def modified_morale(inp: EptActivation) -> int:
    """M plus every activation modifier (once per input: exact odds re-run the rule)."""
    return inp.morale + int(sum(m.value for m in activation_modifiers(inp)))


def activation_facts(inp: EptActivation) -> list[tuple[str, str]]:
    """The modified morale the activation roll is read against."""
    change = modified_morale(inp) - inp.morale
    return [("modified morale", f"{inp.morale} {change:+} = {modified_morale(inp)}")]


def activation_result(roll: int, target: int) -> str:
    """The activation test's result: a roll at most the modified morale activates the unit."""
    return "activated" if roll <= target else "failed"


def activation_odds(inp: EptActivation) -> Distribution[str]:
    """The exact odds of :func:`activation`: its one roll, each total read once."""
    target = modified_morale(inp)
    return by_total(TWO_D6, lambda roll: activation_result(roll, target))


def activation(inp: EptActivation, chance: Chance) -> str:
    """The activation test: 2d6 at most the modified morale activates the unit."""
    target = modified_morale(inp)
    roll = chance.roll(TWO_D6, "activation roll (2d6)")
    outcome = activation_result(roll, target)
    chance.note(
        "activation test",
        f"{roll} {'<=' if outcome == 'activated' else '>'} modified morale {target}: {outcome}",
    )
    return outcome


ACTIVATION_PROCEDURE: Procedure[EptActivation] = Procedure(
    name="activation",
    title="Activation test (MODIFICATEURS D’ACTIVATION)",
    input_model=EptActivation,
    rule=activation,
    modifiers=activation_modifiers,
    outcome_order=("activated", "failed"),
    facts=activation_facts,
    meanings={
        "activated": "the unit is activated",
        "failed": "not activated (play passes to the other side)",
    },
    exact_odds=activation_odds,
)


# --- ADJOINTS -------------------------------------------------------------------------------

ADJUNCTS = "adjuncts"
ADJUNCTS_MODIFIERS = "adjuncts_modifiers"


class EptAdjunct(RuleInput):
    """The replacement of a destroyed PC by its adjunct (ADJOINTS [PC Replacement])."""

    troop_type: TroopType = Field(
        "line",
        description=(
            "Troop type of the formation whose PC is replaced: shock -1 to the die, recruit "
            "+1; veteran and line 0 (ADJOINTS, Modifiers (die))."
        ),
    )


def adjunct_modifiers(inp: EptAdjunct) -> list[Modifier]:
    """Shock -1 or recruit +1 to the die."""
    label = TROOP_TYPE_LABELS[inp.troop_type]
    table = chart(ADJUNCTS_MODIFIERS)
    if label not in table.rows.labels:
        return []
    return [dice_modifier(table, label, label.lower())]


def adjunct_die_modifier(inp: EptAdjunct) -> int:
    """The sum of the die modifiers."""
    return int(sum(m.value for m in adjunct_modifiers(inp)))


def adjunct(inp: EptAdjunct, chance: Chance) -> str:
    """One d6 plus its modifier, read on the ADJOINTS table: the adjunct's morale bonus."""
    modifier = adjunct_die_modifier(inp)
    die = chance.roll(D6, "Adjuncts die (1d6)")
    table = chart(ADJUNCTS)
    cell = table.cell(table.rows.index(die + modifier), 0)
    chance.note(
        table.title, f"{die} {modifier:+} = {die + modifier}: Die {cell.row} -> {cell.value}"
    )
    return cell.value


ADJUNCT_PROCEDURE: Procedure[EptAdjunct] = Procedure(
    name="adjunct",
    title="PC replacement (ADJOINTS)",
    input_model=EptAdjunct,
    rule=adjunct,
    modifiers=adjunct_modifiers,
    chart=ADJUNCTS,
    outcome_order=("+1", "0", "-1", "-2"),
    facts=lambda inp: [("die modifier", f"{adjunct_die_modifier(inp):+}")],
)


# --- Tests of Rate of Fire ------------------------------------------------------------------

RATE_OF_FIRE = "rate_of_fire"
_STOPPED_OR_HESITANT = "Unit stopped or hesitant"


class EptRateOfFire(RuleInput):
    """A test of rate of fire: needed for each fire after a unit's first in the turn."""

    readings: ClassVar[frozenset[str]] = frozenset({"dice"})
    """The fields that read the rules where they are silent (folded apart on the web)."""

    rate_of_fire: int = Field(
        ge=0,
        le=12,
        description="The unit's rate of fire (Cadence de tir) from its counter: the target.",
    )
    stopped: bool = Field(False, description="Unit stopped: +1 to the die (cumulative).")
    hesitant: bool = Field(False, description="Unit hesitant: +1 to the die (cumulative).")
    dice: DiceName = Field(
        "1d6",
        description=(
            "The dice of the test (not on the chart sheet): 1d6 (a counter's rate of fire is a "
            "small "
            "number, like the chart sheet's other one-die tests) or 2d6. The die plus the "
            "modifiers "
            "at most the rate of fire passes."
        ),
    )


def rate_of_fire_modifiers(inp: EptRateOfFire) -> list[Modifier]:
    """Unit stopped +1, unit hesitant +1; both +2 (cumulative)."""
    table = chart(RATE_OF_FIRE)
    cases = (
        (inp.stopped, "unit stopped"),
        (inp.hesitant, "unit hesitant"),
    )
    return [
        dice_modifier(table, _STOPPED_OR_HESITANT, label) for applies, label in cases if applies
    ]


def rate_of_fire_modifier(inp: EptRateOfFire) -> int:
    """The sum of the modifiers to the die."""
    return int(sum(m.value for m in rate_of_fire_modifiers(inp)))


def rate_of_fire(inp: EptRateOfFire, chance: Chance) -> str:
    """The test: the die plus its modifiers at most the rate of fire lets the unit fire again."""
    modifier = rate_of_fire_modifier(inp)
    roll = chance.roll(DICE[inp.dice], f"rate of fire roll ({inp.dice})")
    total = roll + modifier
    passed = total <= inp.rate_of_fire
    chance.note(
        "test of rate of fire",
        f"{roll} {modifier:+} = {total} {'<=' if passed else '>'} rate of fire "
        f"{inp.rate_of_fire}: {'passed' if passed else 'failed'}",
    )
    return "passed" if passed else "failed"


RATE_OF_FIRE_PROCEDURE: Procedure[EptRateOfFire] = Procedure(
    name="rate_of_fire",
    title="Test of rate of fire (Tests of Rate of Fire)",
    input_model=EptRateOfFire,
    rule=rate_of_fire,
    modifiers=rate_of_fire_modifiers,
    outcome_order=("passed", "failed"),
    facts=lambda inp: [("die modifier", f"{rate_of_fire_modifier(inp):+}")],
    meanings={
        "passed": "the unit may fire again this turn",
        "failed": "the unit may not fire again",
    },
)

PROCEDURES = (ACTIVATION_PROCEDURE, ADJUNCT_PROCEDURE, RATE_OF_FIRE_PROCEDURE)
