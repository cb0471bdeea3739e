"""V&V 17.5-17.6 on a hex: a sniper's attack (17.5), its CPs applied by the casualty policy
(14.6), then the Sniper Elimination Check the targeted units make if one of them is left
unpinned (17.6). Its exact odds go over states: the CPs applied once per number of CPs the
sniper's die gives, the check once per state after them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from firefight.chance import Chance
from firefight.chance.distribution import Distribution
from firefight.chance.phases import Phases
from firefight.chance.process import Process
from firefight.rulesets.procedure import Procedure
from firefight.rulesets.vv.allocation import UnitState, base_options, slots
from firefight.rulesets.vv.casualties import (
    UNIT_STATES,
    VvSniperAttackHex,
    policy_casualties,
    target_hex,
)
from firefight.rulesets.vv.support import (
    VvSniperAttack,
    VvSniperElimination,
    sniper_attack,
    sniper_attack_modifiers,
    sniper_elimination,
)

__all__ = [
    "PROCEDURES",
    "SNIPER_ATTACK_HEX",
    "UNPINNED",
    "sniper_attack_hex",
    "sniper_attack_hex_odds",
    "sniper_hex_facts",
]


UNPINNED: tuple[UnitState, ...] = ("unhurt", "reduced")


def _sniper_phases(inp: VvSniperAttackHex) -> tuple[Callable[[Any, Chance], Any], ...]:
    """The sniper's die, its CPs applied, then the elimination check (or none)."""
    hex_units, _ = target_hex(inp)
    reachable = tuple(bool(base_options(slot)) for slot in slots(hex_units))

    def attack(_: None, chance: Chance) -> str:
        return sniper_attack(VvSniperAttack(target_cover=inp.target_cover), chance)

    def casualties(cps_text: str, chance: Chance) -> tuple[str, bool]:
        units, states = policy_casualties(inp, 0 if cps_text == "-" else int(cps_text), chance)
        left = [s for s, can in zip(states, reachable, strict=True) if can and s in UNPINNED]
        return units, bool(left)

    def check(state: tuple[str, bool], chance: Chance) -> str:
        units, left = state
        if not left:
            chance.note("17.6", "no unpinned unit is left in the target hex: no check")
            return f"{units}; no_check"
        check = VvSniperElimination(sniper_cover=inp.sniper_cover, unpinned_target=True)
        return f"{units}; {sniper_elimination(check, chance)}"

    return attack, casualties, check


def sniper_attack_hex(inp: VvSniperAttackHex, chance: Chance) -> str:
    """Every unit's state after the sniper's CPs, then ``sniper_eliminated``,
    ``sniper_survives`` or ``no_check`` (17.5, 14.6, 17.6).

    The check is made by a targeted unit left unpinned: one the sniper's AP attack could
    reach (14.1: not an AFV; 14.65: not an AFV's passenger)."""
    state: Any = None  # a mistake in the hex is named (by the phases) before any die is read
    for phase in _sniper_phases(inp):
        state = phase(state, chance)
    return str(state)


def sniper_attack_hex_odds(inp: VvSniperAttackHex) -> Distribution[str]:
    """The exact odds over the phases' states (equal states merged between them)."""
    return Process(Phases(_sniper_phases(inp)), name="sniper attack on a hex").after(None, 1)


def sniper_hex_facts(inp: VvSniperAttackHex) -> list[tuple[str, str]]:
    """What the dice must beat, and the casualty policy."""
    return [
        ("CPs", f"1d6 - {inp.target_cover}, when the die is above {inp.target_cover}"),
        ("sniper eliminated on 1d6 >", str(inp.sniper_cover)),
        ("casualty policy", inp.casualty_policy),
        ("survival roll (14.64)", inp.survival_reading),
    ]


SNIPER_ATTACK_HEX: Procedure[VvSniperAttackHex] = Procedure(
    name="sniper_attack_hex",
    title="Sniper attack on a hex, CPs applied, elimination check (17.5, 14.6, 17.6)",
    input_model=VvSniperAttackHex,
    rule=sniper_attack_hex,
    modifiers=lambda inp: sniper_attack_modifiers(VvSniperAttack(target_cover=inp.target_cover)),
    facts=sniper_hex_facts,
    meanings={
        **UNIT_STATES,
        "sniper_eliminated": "removed; it can no longer be activated (17.6)",
        "sniper_survives": "stays in its hex",
        "no_check": "no unpinned unit left in the target hex: no elimination check (17.6)",
    },
    exact_odds=sniper_attack_hex_odds,
)

PROCEDURES = (SNIPER_ATTACK_HEX,)
