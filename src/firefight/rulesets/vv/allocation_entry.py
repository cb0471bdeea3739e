"""V&V 14.6 Combat Results as a player types them: an allocation
written as one entry per unit (``unit2 reduce``...), read into one
:class:`~firefight.rulesets.vv.allocation.Casualty` per slot (14.61, 14.64).
"""

from __future__ import annotations

import re

from firefight.errors import InputError, RuleError
from firefight.i18n import gettext
from firefight.rulesets.vv.allocation import (
    NONE,
    Action,
    Casualty,
    Slot,
    SurvivalReading,
    destroy_from,
    fit_destroy,
    slots,
)
from firefight.rulesets.vv.units import (
    HexUnits,
)

_ACTIONS: dict[str, Action] = {
    "pin": "pin",
    "reduce": "reduce",
    "reduce+pin": "reduce_pin",
    "eliminate": "eliminate",
    "survival": "survival",
    "destroy": "destroy",
}


_ALLOWED_ENTRY = (
    "entries 'unitN ACTION' separated by commas, ACTION one of ignore, "
    + ", ".join(_ACTIONS)
    + " (survival with its CPs: 'survival 3'), or ignore+ACTION"
)


_NUMBER = re.compile(r"[0-9]+")


_UNIT = re.compile(r"unit([0-9]+)")


def _casualty(
    slot: Slot, entry: str, cps: int, survival: SurvivalReading
) -> tuple[Casualty, int | None]:
    """One entry's action as a :class:`Casualty`, its CPs from the unit (14.61, 14.64), and
    the CPs the entry gave, if any."""
    words = entry.split()
    action_text, numbers = words[1], words[2:]
    ignored = action_text.startswith("ignore+")
    name = action_text.removeprefix("ignore+")
    if name == "ignore" and not ignored and not numbers:
        return Casualty("ignore", 0, ignored=True), None
    if name not in _ACTIONS or len(numbers) > 1 or not all(_NUMBER.fullmatch(n) for n in numbers):
        raise InputError("allocation", _ALLOWED_ENTRY, entry)
    action = _ACTIONS[name]
    given = int(numbers[0]) if numbers else None
    unit = slot.unit
    implied = {
        "pin": 1,
        "reduce": unit.reduction_cost if unit.kind == "squad" else None,
        "reduce_pin": unit.reduction_cost + 1 if unit.kind == "squad" else None,
        "eliminate": unit.casualty_rating,
        "survival": given,
        "destroy": destroy_from(unit, cps, survival),  # fitted to the CPs left by parse_allocation
    }[action]
    if action == "survival" and given is None:
        raise InputError("allocation", "'survival K', K the CPs: 2 to the unit's rating", entry)
    if implied is None:
        raise RuleError(
            gettext("{label} cannot take '{name}' (14.61-14.65)").format(
                label=unit.label, name=name
            )
        )
    if given is not None and action not in ("survival", "destroy") and given != implied:
        msg = gettext("{label}: '{name}' costs {implied} CPs (14.61), not {given}").format(
            label=unit.label, name=name, implied=implied, given=given
        )
        raise RuleError(msg)
    return Casualty(action, implied, ignored=ignored), given


def parse_allocation(
    text: str,
    hex_units: HexUnits,
    order: tuple[int, ...],
    cps: int,
    *,
    survival: SurvivalReading = "cps_applied",
) -> tuple[Casualty, ...]:
    """The player's allocation (``"unit1 reduce, unit2 pin"``) as one casualty per slot, in the
    order of :func:`slots`; ``order`` gives each slot's input unit number. Its legality is
    :func:`check_allocation`'s to judge."""
    units = slots(hex_units)
    by_number = dict(zip(order, range(len(order)), strict=True))
    present = ", ".join(f"unit{n}" for n in sorted(by_number))
    allocation = [NONE] * len(units)
    destroy_given: int | None = None
    named: set[int] = set()
    for raw in text.split(","):
        entry = " ".join(raw.split())
        if not entry:
            continue
        words = entry.split()
        unit_word = _UNIT.fullmatch(words[0])
        if len(words) < 2 or unit_word is None:
            raise InputError("allocation", _ALLOWED_ENTRY, entry)
        number = int(unit_word.group(1))
        if number not in by_number:
            raise InputError(
                "allocation",
                gettext("units of the hex: {present}").format(present=present),
                words[0],
            )
        if number in named:
            raise InputError("allocation", "each unit named once", words[0])
        named.add(number)
        index = by_number[number]
        allocation[index], given = _casualty(units[index], entry, cps, survival)
        if allocation[index].action == "destroy":
            destroy_given = given
    fitted = fit_destroy(tuple(allocation), cps)
    if fitted is None:
        if survival == "cps_applied":
            line = gettext(
                "illegal allocation of {cps} CPs: a vehicle or Gun eliminated outright takes "
                "more CPs than its rating, all those left (14.64)"
            )
        else:
            line = gettext(
                "illegal allocation of {cps} CPs: a vehicle or Gun eliminated outright takes "
                "all the CPs left: more than its rating, or 2 or more when the attack's "
                "CPs exceed it (14.64, reading attack_total)"
            )
        raise RuleError(line.format(cps=cps))
    taken = next((c.cps for c in fitted if c.action == "destroy"), None)
    if destroy_given is not None and destroy_given != taken:
        raise RuleError(
            gettext(
                "illegal allocation of {cps} CPs: the vehicle or Gun eliminated "
                "outright takes the {taken} CPs left (14.64), not {destroy_given}"
            ).format(cps=cps, taken=taken, destroy_given=destroy_given)
        )
    return fitted
