"""V&V 15 Close Assaults: odds ratio, Kill Number, the assault roll and the casualties it costs.

15.9: pinned defenders are eliminated before the odds are worked out; a hex of pinned units
only is taken with no roll and no casualties. 15.6: the assaulters' APFP against the unpinned
defenders' APFP (valorous units doubling their inherent APFP, 16.3) gives an odds ratio, its
fraction rounded down, resolved between 1-4 and 4-1; the Close Assault Combat Table gives the
Kill Number. 15.7: 2d6 plus the assaulters' leader and grenades (15.3, 12.52), no cover, at most
the Kill Number less the defenders' leader and grenades eliminates the defenders. 15.8, 15.81:
the Casualty Points each side takes. 15.10: a defending AFV may be immobilized by a failed
assault.

Outcome keys name the result and the Casualty Points to allocate (the allocation itself is the
casualties procedure's work): ``defenders_eliminated;assaulters_cp=N`` or
``assault_failed;assaulters_cp=N;defenders_cp=M`` (with ``;afv_immobilized`` or
``;afv_not_immobilized`` before ``defenders_cp`` when an AFV defends, M then being the CPs left
for the other defending units).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from firefight.chance import D6, TWO_D6, Chance
from firefight.core.chart import Chart, load_chart
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier, ModifierKind
from firefight.i18n import gettext
from firefight.rulesets.procedure import Procedure

__all__ = [
    "CLOSE_ASSAULT",
    "PROCEDURES",
    "VvCloseAssault",
    "assault_modifiers",
    "close_assault",
    "close_assault_table",
    "kill_number",
    "odds_ratio",
]

_DATA = Path(__file__).parent / "data"
AFV_MAX_CP = 3
"""15.10: at most three Casualty Points go to a defending AFV; three immobilize it."""
ODDS = ("1-4", "1-3", "1-2", "1-1", "2-1", "3-1", "4-1")
"""The Close Assault Combat Table's columns, worst to best for the assaulter."""


@cache
def close_assault_table() -> Chart:
    """The Close Assault Combat Table, from ``data/close_assault.toml``."""
    return load_chart(_DATA / "close_assault.toml")


class VvCloseAssault(RuleInput):
    """One close assault by infantry from one hex into an adjacent hex (V&V 15)."""

    assault_apfp: int = Field(
        ge=1,
        le=200,
        description=(
            "Total APFP of the assaulting infantry units, with the L machine guns and satchel "
            "charges they use (V&V 15.2, 15.6, 12.53), before valor doubling."
        ),
    )
    assault_valorous_apfp: int = Field(
        0,
        ge=0,
        le=100,
        description=(
            "Inherent APFP of the valorous assaulting units, counted once more: valorous units "
            "double their inherent APFP in a close assault (V&V 16.3)."
        ),
    )
    assaulting_units: int = Field(
        1, ge=1, le=12, description="Assaulting units: each gives the defenders 1 CP on a failure."
    )
    defense_apfp: int = Field(
        0,
        ge=0,
        le=200,
        description=(
            "Total APFP of the unpinned defending units (V&V 15.6): AFVs and vehicles their "
            "MGs plus passengers (15.4), Guns and unarmed vehicles 2 each (15.5), with satchel "
            "charges (12.53); before valor doubling."
        ),
    )
    defense_valorous_apfp: int = Field(
        0,
        ge=0,
        le=100,
        description="Inherent APFP of the valorous defending units, counted once more (V&V 16.3).",
    )
    defending_units: int = Field(
        1,
        ge=0,
        le=12,
        description="Unpinned defending units: each costs the assaulters 1 CP (V&V 15.8).",
    )
    pinned_defenders: int = Field(
        0,
        ge=0,
        le=12,
        description=(
            "Pinned defending units: eliminated before the odds, no CPs to the assaulters; a hex "
            "of pinned units only is taken with no roll (V&V 15.9)."
        ),
    )
    cover: int = Field(
        0,
        ge=0,
        le=7,
        description=(
            "Cover modifier of the hex assaulted, hexside terrain crossed (wall, hedge) "
            "included: CPs to the assaulters, never a roll modifier (V&V 15.7, 15.8)."
        ),
    )
    uphill_levels: int = Field(
        0,
        ge=0,
        le=2,
        description="Hill levels climbed into the hex assaulted: +1 CP each (V&V 15.81).",
    )
    assault_leader_modifier: int = Field(
        0,
        ge=-3,
        le=0,
        description="The assaulters' Leadership Modifier, added to the assault roll (V&V 15.3).",
    )
    assault_grenades: int = Field(
        0,
        ge=0,
        le=12,
        description=(
            "Grenades counters used by the assaulters, one per unit at most: -1 each to the "
            "assault roll (V&V 12.52)."
        ),
    )
    defense_leader_modifier: int = Field(
        0,
        ge=-3,
        le=0,
        description="The defenders' Leadership Modifier, added to the Kill Number (V&V 15.3).",
    )
    defense_grenades: int = Field(
        0,
        ge=0,
        le=12,
        description=(
            "Grenades counters used by the defenders, one per unit at most: -1 each to the Kill "
            "Number (V&V 12.52)."
        ),
    )
    defending_afv: bool = Field(
        False,
        description=(
            "An AFV defends: on a failure up to 3 of the defenders' CPs go to it, immobilizing "
            "it on 1d6 <= those CPs (3: no roll); the rest stay for the other units (V&V 15.10)."
        ),
    )
    odds_rounding: Literal["ratio_rounded_down", "defender_favour"] = Field(
        "ratio_rounded_down",
        description=(
            "ratio_rounded_down = the larger APFP over the smaller, rounded down (V&V 15.6's "
            "examples: 14 v 6 is 2-1, 6 v 14 is 1-2); defender_favour = assaulter-short odds "
            "rounded up against the assaulter (6 v 14 is 1-3)."
        ),
    )

    @model_validator(mode="after")
    def _consistent(self) -> VvCloseAssault:
        if self.defending_units == 0 and self.pinned_defenders == 0:
            msg = gettext("the hex assaulted must hold a defending unit (V&V 15.1)")
            raise ValueError(msg)
        if self.assault_valorous_apfp > self.assault_apfp:
            msg = gettext("'assault_valorous_apfp' cannot exceed 'assault_apfp' (V&V 16.3)")
            raise ValueError(msg)
        if self.defense_valorous_apfp > self.defense_apfp:
            msg = gettext("'defense_valorous_apfp' cannot exceed 'defense_apfp' (V&V 16.3)")
            raise ValueError(msg)
        if self.assault_grenades > self.assaulting_units:
            msg = gettext("'assault_grenades' cannot exceed 'assaulting_units' (V&V 12.52)")
            raise ValueError(msg)
        if self.defense_grenades > self.defending_units:
            msg = gettext("'defense_grenades' cannot exceed 'defending_units' (V&V 12.52)")
            raise ValueError(msg)
        if self.defending_afv and self.defending_units == 0:
            msg = gettext("a defending AFV is an unpinned defending unit (V&V 15.10)")
            raise ValueError(msg)
        return self


def odds_ratio(assault: int, defense: int, rounding: str = "ratio_rounded_down") -> tuple[str, str]:
    """The odds as computed and as resolved on the chart, e.g. ``("5-1", "4-1")`` (15.6)."""
    if defense == 0 or assault >= defense:
        high = math.inf if defense == 0 else Fraction(assault, defense)
        computed = "no defending APFP" if high == math.inf else f"{math.floor(high)}-1"
        resolved = min(4, math.floor(high) if high != math.inf else 4)
        return computed, f"{resolved}-1"
    ratio = Fraction(defense, assault)
    low = math.floor(ratio) if rounding == "ratio_rounded_down" else math.ceil(ratio)
    return f"1-{low}", f"1-{min(4, low)}"


def kill_number(odds: str) -> int:
    """The Kill Number for resolved odds (Close Assault Combat Table, 15.6)."""
    return int(close_assault_table().cell_at("Kill #", odds).value)


def assault_modifiers(inp: VvCloseAssault) -> list[Modifier]:
    """Valor doubling (APFP), the roll's and the Kill Number's modifiers, with their rules."""
    cases = [
        (inp.assault_valorous_apfp, "valorous assaulters' inherent APFP doubled", "V&V 16.3"),
        (inp.defense_valorous_apfp, "valorous defenders' inherent APFP doubled", "V&V 16.3"),
    ]
    found = [
        Modifier(label, Fraction(value), ModifierKind.VALUE, rule)
        for value, label, rule in cases
        if value
    ]
    dice = [
        (inp.assault_leader_modifier, "assaulters' leadership modifier (roll)", "V&V 15.3"),
        (-inp.assault_grenades, "assaulters' grenades (roll)", "V&V 12.52"),
        (inp.defense_leader_modifier, "defenders' leadership modifier (Kill Number)", "V&V 15.3"),
        (-inp.defense_grenades, "defenders' grenades (Kill Number)", "V&V 12.52"),
    ]
    kinds = [ModifierKind.DICE, ModifierKind.DICE, ModifierKind.VALUE, ModifierKind.VALUE]
    found += [
        Modifier(label, Fraction(value), kind, rule)
        for (value, label, rule), kind in zip(dice, kinds, strict=True)
        if value
    ]
    return found


@dataclass(frozen=True, slots=True)
class AssaultSheet:
    """The readings before the dice: odds, Kill Number, roll modifier and fixed CPs."""

    assault_apfp: int
    defense_apfp: int
    computed_odds: str
    odds: str
    kill_number: int
    roll_modifier: int
    assaulters_base_cp: int


@lru_cache(maxsize=4096)
def assault_sheet(inp: VvCloseAssault) -> AssaultSheet:
    """Odds, Kill Number and the assaulters' fixed CPs (once per input)."""
    attack = inp.assault_apfp + inp.assault_valorous_apfp
    defense = inp.defense_apfp + inp.defense_valorous_apfp
    computed, odds = odds_ratio(attack, defense, inp.odds_rounding)
    number = kill_number(odds) + inp.defense_leader_modifier - inp.defense_grenades
    modifier = inp.assault_leader_modifier - inp.assault_grenades
    base = inp.cover + inp.defending_units + inp.uphill_levels
    return AssaultSheet(attack, defense, computed, odds, number, modifier, base)


def close_assault(inp: VvCloseAssault, chance: Chance) -> str:
    """Resolve one close assault (15.6-15.10)."""
    if inp.pinned_defenders:
        chance.note("15.9", f"{inp.pinned_defenders} pinned defender(s) eliminated")
    if inp.defending_units == 0:
        chance.note("15.9", "only pinned units: the hex is taken with no roll and no CPs")
        return "defenders_eliminated;assaulters_cp=0"
    sheet = assault_sheet(inp)
    roll = chance.roll(TWO_D6, "assault dice roll (2d6)")
    total = roll + sheet.roll_modifier
    success = total <= sheet.kill_number
    chance.note(
        close_assault_table().title,
        f"{sheet.assault_apfp} v {sheet.defense_apfp} = {sheet.odds}: {roll} "
        f"{sheet.roll_modifier:+} = {total} {'<=' if success else '>'} Kill Number "
        f"{sheet.kill_number}",
    )
    if success:
        return f"defenders_eliminated;assaulters_cp={sheet.assaulters_base_cp}"
    assaulters = total - sheet.kill_number + sheet.assaulters_base_cp
    defenders = inp.assaulting_units
    afv = ""
    if inp.defending_afv:
        on_afv = min(defenders, AFV_MAX_CP)
        defenders -= on_afv
        if on_afv >= AFV_MAX_CP:
            immobilized = True
            chance.note("15.10", "3 CPs: the AFV is immobilized with no roll")
        else:
            label = "immobilization die roll (1d6)"
            immobilized = chance.check(D6, lambda die: die <= on_afv, label)
            chance.note("15.10", f"1d6 {'<=' if immobilized else '>'} {on_afv} CP")
        afv = ";afv_immobilized" if immobilized else ";afv_not_immobilized"
    return f"assault_failed;assaulters_cp={assaulters}{afv};defenders_cp={defenders}"


def _outcome_key(outcome: str) -> tuple[int, int, str]:
    parts = dict(p.split("=") for p in outcome.split(";") if "=" in p)
    return (
        0 if outcome.startswith("defenders_eliminated") else 1,
        int(parts.get("assaulters_cp", 0)),
        outcome,
    )


def _outcome_order() -> tuple[str, ...]:
    outcomes = {f"defenders_eliminated;assaulters_cp={n}" for n in range(40)}
    for n in range(60):
        for m in range(13):
            outcomes.add(f"assault_failed;assaulters_cp={n};defenders_cp={m}")
            for afv in ("afv_immobilized", "afv_not_immobilized"):
                outcomes.add(f"assault_failed;assaulters_cp={n};{afv};defenders_cp={m}")
    return tuple(sorted(outcomes, key=_outcome_key))


def assault_facts(inp: VvCloseAssault) -> list[tuple[str, str]]:
    """Odds, Kill Number, roll modifier and the assaulters' fixed CPs."""
    if inp.defending_units == 0:
        return [("15.9", "only pinned defenders: no roll")]
    sheet = assault_sheet(inp)
    odds = sheet.odds
    if sheet.computed_odds != odds:
        odds = f"{sheet.computed_odds}, resolved at {odds}"
    return [
        ("APFP", f"{sheet.assault_apfp} v {sheet.defense_apfp}"),
        ("odds", odds),
        ("Kill Number", str(sheet.kill_number)),
        ("roll modifier", f"{sheet.roll_modifier:+}"),
        ("assaulters' CPs in any case", str(sheet.assaulters_base_cp)),
    ]


CLOSE_ASSAULT: Procedure[VvCloseAssault] = Procedure(
    name="close_assault",
    title="Close assault (V&V 15)",
    input_model=VvCloseAssault,
    rule=close_assault,
    modifiers=assault_modifiers,
    chart="close_assault",
    outcome_order=_outcome_order(),
    facts=assault_facts,
    meanings={
        "defenders_eliminated": "the defenders are eliminated; assaulters_cp CPs to the "
        "assaulters (15.8)",
        "assault_failed": "assaulters_cp CPs to the assaulters, defenders_cp to the defenders "
        "(15.8, 15.10)",
    },
)

PROCEDURES = (CLOSE_ASSAULT,)
