"""Page 6: Firepower Weapon Malfunction, and its exact odds over the unseen cards.

Page 3 sends an attack here when a resolution card's RN malfunctions a fire weapon
("RNC = Malf for any Fire Weapon", firepower and overrun attacks only). The chart, restored
(docs/upfront.md, "Page 6", lists every box and the reading chosen for it):

* Only one weapon affected per RNC. If the RN reaches only one weapon's malfunction number,
  that weapon is affected (the chart's example: Japanese/Italian LMG, R, R, R and an RNC 5:
  only the LMG). Otherwise the man is selected by a Random Position Number (``select``).
* Only one armed man in the group (R / LMG with no crewman / MP / R and an unarmed man /
  MP and an unarmed man): malfunction that weapon, END ATTACK.
* Firing flamethrower: malfunction that weapon; the attack continues with reduced FS and no
  defensive TEM.
* Captured weapon: removed (all captured weapons break on X5-6).
* Pinned man or man with a malfunctioned weapon: malfunction or remove the weapon, no effect
  on the FFS.
* Unarmed man, ordnance / crew, or a non-firing FT / infiltrator: no effect.
* Assistant crewman of an LMG/MMG: no malfunction, -1 to the FFS.
* Otherwise: malfunction the weapon, -1/2 of its FP from the FFS (round up).
* All malfunctioned weapons break on X6 (ordnance and FT included).

:func:`weapon_malfunction` is what page 3 (and page 7) call with the group, the malfunction
card and the pool state; :data:`MALFUNCTION` is the procedure on its own.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from pydantic import Field

from firefight.chance import Chance
from firefight.core.modifier import Modifier
from firefight.errors import InputError
from firefight.rulesets.procedure import Procedure
from firefight.rulesets.upfront import printed
from firefight.rulesets.upfront.lists import ManIds
from firefight.rulesets.upfront.men import ORDNANCE, Man, MenData
from firefight.rulesets.upfront.pool import CardInput, Pool, PoolState, Reads, men_by_id, pool_for
from firefight.translation import N_
from firefight.translation import gettext as _

__all__ = [
    "ASSISTANT_FFS",
    "BREAK_RN",
    "CAPTURED_BREAK_RN",
    "HALF_FP",
    "MALFUNCTION",
    "PROCEDURES",
    "Firer",
    "MalfunctionReadings",
    "Outcome",
    "UpFrontMalfunction",
    "affected_by_rn",
    "outcome_for",
    "selection_column",
    "selection_reads",
    "weapon_malfunction",
]

PAGE6 = "Up Front flow charts, page 6: Firepower Weapon Malfunction"

BREAK_RN = printed.BREAK_RN
"""Page 6: "All Malfunctioned Weapons break on X6. Including Ordnance, FT, etc." (X: either
colour)."""
CAPTURED_BREAK_RN = printed.CAPTURED_BREAK_LOW
"""Page 6: "All Captured Weapons break on X5-6" (the low end of the range; 6 is BREAK_RN)."""
ASSISTANT_FFS = printed.MALFUNCTION_FFS
"""Page 6: assistant crewman of an LMG/MMG: "No Malf. -1 to FFS"."""
HALF_FP = Fraction(1, 2)
"""Page 6: "Malf Weapon, -1/2 FP to FFS (Round up)"."""
CREWED_WEAPONS = ("lmg", "mmg")
"""Page 6: "Assistant Crewman of LMG/MMG?"."""

Select = Literal["rpn", "lowest_malf"]
FtReduction = Literal["half", "full"]
BreaksOn = Literal["malfunction_card", "repair"]


class MalfunctionReadings(CardInput):
    """Page 6's readings where the chart is silent or garbled (docs/upfront.md, "Page 6")."""

    select: Select = Field(
        "rpn",
        description=(
            "Which man's weapon when the RN reaches more than one weapon (page 6: only one "
            "weapon affected per RNC): rpn (the next card's Random Position Number in column "
            "N-1 for a group of N men, position = RPN mod N, counted from 0 in the group's "
            "order) or lowest_malf (the weapon with the lowest malfunction number, first in "
            "the group's order on ties; no card drawn)."
        ),
    )
    ft_reduction: FtReduction = Field(
        "half",
        description=(
            "A firing flamethrower that malfunctions reduces the FFS by: half (its FP halved, "
            "round up, as page 6's general box) or full (its whole FP)."
        ),
    )
    breaks_on: BreaksOn = Field(
        "malfunction_card",
        description=(
            "'Break on X6' (X5-6 for captured weapons) reads: malfunction_card (the "
            "malfunction card's RN, either colour: the weapon is broken and removed) or "
            "repair (a later repair draw, not on this chart: the weapon only malfunctions)."
        ),
    )


@dataclass(frozen=True)
class Firer:
    """A man of the firing group and his state (page 6's decision boxes)."""

    man: Man
    pinned: bool = False
    malfed: bool = False
    captured: bool = False
    firing: bool = True
    """False: a man in the group who does not take part in this attack (a non-firing FT or
    infiltrator, page 6)."""

    @property
    def armed(self) -> bool:
        """Carries a weapon."""
        return self.man.weapon != "unarmed"


@dataclass(frozen=True)
class Outcome:
    """What page 6 does to the attack: the affected man, the box reached, the FFS after and
    whether the attack ends."""

    position: int
    box: str
    weapon: str
    """What happens to the weapon: malfunctions, broken (removed), removed, unaffected."""
    ffs: int
    end_attack: bool

    def text(self, firers: Sequence[Firer]) -> str:
        """``ger-lmg: malfunction that weapon, -1/2 FP (2): FFS 6``."""
        who = firers[self.position].man.id
        if self.end_attack:
            return f"END ATTACK ({who}: weapon {self.weapon})"
        return f"{who}: {self.box}; weapon {self.weapon}; FFS {self.ffs}"


def affected_by_rn(firers: Sequence[Firer], rn: int) -> tuple[int, ...]:
    """Positions of the weapons the RN reaches (malfunction number at most the RN; a captured
    weapon at most CAPTURED_BREAK_RN)."""
    found = []
    for position, firer in enumerate(firers):
        number = firer.man.malfunction
        if firer.captured:
            number = CAPTURED_BREAK_RN if number is None else min(number, CAPTURED_BREAK_RN)
        if firer.armed and number is not None and rn >= number:
            found.append(position)
    return tuple(found)


def selection_column(group_size: int) -> int:
    """The RPN column read to select a man in a group of ``group_size`` (select = rpn)."""
    return min(max(group_size, 1), 10) - 1


def selection_reads(group_size: int) -> Reads:
    """What the selection card is read for: one RPN column, value only."""
    return Reads(rn=False, rpn=(selection_column(group_size),))


def _weapon_fate(firer: Firer, rn: int, inp: MalfunctionReadings) -> str:
    if firer.captured:
        if inp.breaks_on == "malfunction_card" and rn >= CAPTURED_BREAK_RN:
            return "removed (captured, X5-6)"
        return "removed (captured)" if inp.breaks_on == "malfunction_card" else "malfunctions"
    if inp.breaks_on == "malfunction_card" and rn >= BREAK_RN:
        return "broken (X6), removed"
    return "malfunctions"


def _half_fp(fp: int) -> int:
    return math.ceil(fp * HALF_FP)


def outcome_for(
    firers: Sequence[Firer],
    position: int,
    *,
    rn: int,
    ffs: int,
    rr: int,
    inp: MalfunctionReadings,
) -> Outcome:
    """Page 6's boxes for the man at ``position`` once he is chosen (deterministic)."""
    firer = firers[position]
    man = firer.man
    fp = man.firepower[rr]
    fate = _weapon_fate(firer, rn, inp)
    if sum(1 for f in firers if f.armed) == 1 and firer.armed:
        return Outcome(position, "only one armed man: malfunction that weapon", fate, ffs, True)
    firing = firer.firing and not firer.pinned and not firer.malfed
    if man.weapon == "flamethrower" and firing:
        cut = fp if inp.ft_reduction == "full" else _half_fp(fp)
        box = f"firing flamethrower: malfunction that weapon, -{cut}, no defensive TEM"
        return Outcome(position, box, fate, ffs - cut, False)
    if firer.pinned or firer.malfed:
        weapon = "removed" if firer.malfed else fate
        box = "pinned man or malfed weapon: malf or remove weapon, N/E on FFS"
        return Outcome(position, box, weapon, ffs, False)
    if not firer.armed or man.weapon in ORDNANCE or man.crew == "crewman" or not firer.firing:
        box = "unarmed man, ordnance/crew or non-firing FT/IF: no effect"
        return Outcome(position, box, "unaffected", ffs, False)
    if man.crew == "assistant" and any(f.man.weapon in CREWED_WEAPONS for f in firers):
        box = f"assistant crewman of LMG/MMG: no malf, {ASSISTANT_FFS} to FFS"
        return Outcome(position, box, "unaffected", ffs + ASSISTANT_FFS, False)
    cut = _half_fp(fp)
    if firer.captured:
        box = f"captured weapon: remove it, -1/2 FP ({cut}) to FFS"
    else:
        box = f"malf weapon, -1/2 FP ({cut}) to FFS"
    return Outcome(position, box, fate, ffs - cut, False)


def weapon_malfunction(
    chance: Chance,
    pool: Pool,
    state: PoolState,
    firers: Sequence[Firer],
    *,
    rn: int,
    ffs: int,
    rr: int,
    inp: MalfunctionReadings,
) -> tuple[Outcome, PoolState] | None:
    """Page 6 from the malfunction card's RN: the man affected (a selection card drawn from
    ``pool`` when the RN reaches several weapons and ``select = rpn``: ``pool`` must read
    :func:`selection_column`), the box reached, the FFS after. ``None``: the pile ran out
    with ``reshuffle = end_attack``."""
    reached = affected_by_rn(firers, rn)
    if not reached:
        allowed = N_("an RN at least a weapon's malfunction number in the group (page 3)")
        raise InputError("rn", allowed, rn)
    if len(reached) == 1:
        position = reached[0]
        chance.note("only one weapon affected", f"RN {rn}: {firers[position].man.id}")
    elif inp.select == "lowest_malf":
        position = min(reached, key=lambda p: (firers[p].man.malfunction or 0, p))
        chance.note("lowest malfunction number", firers[position].man.id)
    else:
        drawn = pool.draw(chance, state, "malfunction: whose weapon (RPNC)")
        if drawn is None:
            return None
        card, state = drawn
        column = selection_column(len(firers))
        position = card.rpn_at(column).value % len(firers)
        chance.note("whose weapon", f"position {position}: {firers[position].man.id}")
    return outcome_for(firers, position, rn=rn, ffs=ffs, rr=rr, inp=inp), state


class UpFrontMalfunction(MalfunctionReadings):
    """Page 6 on its own: the firing group, the malfunction card's RN, the FFS."""

    firers: ManIds = Field(
        ("ger-lmg", "ger-assistant", "ger-rifle-1", "ger-rifle-2"),
        description="The firing group (ids from the men file, comma-separated, in order).",
    )
    pinned_firers: ManIds = Field((), description="Pinned men of the group (ids).")
    malfed_firers: ManIds = Field(
        (), description="Men whose weapon is already malfunctioned (ids)."
    )
    captured: ManIds = Field((), description="Men firing a captured weapon (ids): break on X5-6.")
    not_firing: ManIds = Field(
        (),
        description="Men of the group not firing this attack (a non-firing FT or infiltrator).",
    )
    rn: int = Field(
        6, ge=0, le=6, description="The RN of the resolution card that malfunctioned (page 3)."
    )
    ffs: int = Field(ge=-20, le=60, description="The Final Fire Strength before page 6.")
    rr: int = Field(0, ge=0, le=5, description="The Relative Range (the FP halved is read at it).")


def firers_of(inp: UpFrontMalfunction, men: MenData) -> tuple[Firer, ...]:
    """The firing group with each man's state; one-line errors."""
    ids = men_by_id(men, "firers", inp.firers)
    named: dict[str, set[str]] = {}
    for name in ("pinned_firers", "malfed_firers", "captured", "not_firing"):
        named[name] = set(getattr(inp, name))
        for man_id in named[name]:
            if man_id not in ids:
                raise InputError(
                    name, _("ids among the firers: {ids}").format(ids=", ".join(ids)), man_id
                )
    return tuple(
        Firer(
            men.man(i),
            pinned=i in named["pinned_firers"],
            malfed=i in named["malfed_firers"],
            captured=i in named["captured"],
            firing=i not in named["not_firing"],
        )
        for i in ids
    )


def _rule(inp: UpFrontMalfunction, chance: Chance) -> str:
    men = inp.men_data()
    firers = firers_of(inp, men)
    pool = pool_for(inp, selection_reads(len(firers)))
    result = weapon_malfunction(
        chance, pool, pool.start, firers, rn=inp.rn, ffs=inp.ffs, rr=inp.rr, inp=inp
    )
    if result is None:
        return "attack ended (pile ran out)"
    return result[0].text(firers)


def _facts(inp: UpFrontMalfunction) -> Sequence[tuple[str, str]]:
    men = inp.men_data()
    firers = firers_of(inp, men)
    reached = affected_by_rn(firers, inp.rn)
    facts = [("deck", inp.deck_data().label), ("men", men.label), ("source", PAGE6)]
    facts.append(("weapons the RN reaches", ", ".join(firers[p].man.id for p in reached) or "none"))
    if len(reached) > 1 and inp.select == "rpn":
        facts.append(("whose weapon", f"RPN column {selection_column(len(firers))} mod N"))
    return facts


def _no_modifiers(_: UpFrontMalfunction) -> Sequence[Modifier]:
    return ()


MALFUNCTION: Procedure[UpFrontMalfunction] = Procedure(
    name="malfunction",
    title="Firepower weapon malfunction (page 6)",
    input_model=UpFrontMalfunction,
    rule=_rule,
    modifiers=_no_modifiers,
    facts=_facts,
)

PROCEDURES = (MALFUNCTION,)
