"""Page 7's overrun before its cards: the input (:class:`UpFrontOverrun`), the requirements
(each a one-line refusal), the OVR (x1/2, x1/4), the modifiers and the group
(:func:`overrun_attack`), and what the defenders do to the AFV after each man: the adverse
effects read on his resolution card and the TMM attack's card (:func:`adverse_effect`,
:func:`tmm_result`). The procedure and its exact odds: :mod:`.overrun`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal

from pydantic import Field

from firefight.errors import InputError
from firefight.rulesets.upfront.cards import Card
from firefight.rulesets.upfront.lists import ManIds, shown, split
from firefight.rulesets.upfront.men import Man
from firefight.rulesets.upfront.pool import men_by_id
from firefight.rulesets.upfront.printed import (
    OVERRUN_RED_5_OT,
    OVERRUN_RED_5_OT_HEROIC,
    OVERRUN_RED_6,
    OVERRUN_RED_6_HEROIC,
    OVERRUN_RR,
    OVR_FT_FACTOR,
    OVR_MG_FACTOR,
    TMM_BAND_COLUMN,
    TMM_COLUMNS,
    TMM_IMMOBILIZED,
    TMM_KIA,
)
from firefight.rulesets.upfront.resolution import (
    AttackKind,
    Readings,
    Target,
    malfunction_numbers,
    targets,
)
from firefight.translation import N_
from firefight.translation import gettext as _

__all__ = [
    "ADVERSE_BOXES",
    "BOG_TERRAIN",
    "FIGHT_BACK_TERRAIN",
    "NO_OVERRUN",
    "OVERRUN_MEN_MAX",
    "STILL_UNPINNED",
    "OverrunAttack",
    "UpFrontOverrun",
    "adverse_effect",
    "ended_adverse",
    "fights_back",
    "overrun_attack",
    "overrun_ovr",
    "tmm_result",
]

OVERRUN_MEN_MAX = 10
"""The most defending men one overrun procedure takes: a full group (page 7), with or
without TMMs. Exact odds walk every draw as one compiled step (:mod:`.overrun_walk`) and pay
the web's work budget for the readings and the draws (:mod:`.overrun_budget`); measured
(docs/upfront.md, Figures, shared 2-core machine): 10 men of ten distinct profiles 10 ms
(the Python walk it replaced: 2.1 s), with smoke and defender TEM -4 0.7 s; with one man's TMM
18 ms (woods) to 0.24 s (woods, TEM -2); a walk past :data:`.overrun_walk.MAX_PAIRS` is
refused in one line."""
Terrain = Literal[
    "open", "brush", "buildings", "wall", "woods", "gully", "stream", "hill", "marsh",
    "minefield", "pillbox",
]  # fmt: skip
NO_OVERRUN = ("marsh", "minefield", "pillbox")
"""Page 7: the opposing group is not in marsh, minefield or pillbox."""
BOG_TERRAIN = ("gully", "woods", "stream")
"""Page 7: "If Defender in Gully, Woods, Stream or Wire: Check for Bog" (wire: a field)."""
FIGHT_BACK_TERRAIN = ("brush", "buildings", "wall", "woods")
"""Page 7: "Is AFV attacking UNPINNED Man in Brush, Buildings, Wall, Woods or Smoke?"."""
STILL_UNPINNED = ("no effect", "wounded", "berserk", "attack ended")
"""Page 3 results after which an unpinned man is still unpinned ("wounded: remains
pinned/unpinned"; berserk: enters CC; attack ended: a malfunction on his card left him
unaffected)."""


class UpFrontOverrun(Readings):
    """An AFV's overrun attack on an opposing infantry group (page 7)."""

    readings: ClassVar[frozenset[str]] = frozenset(
        {"malfunction", "ot_reading", "adverse_reading", "adverse_on_malfunction"}
    )
    """The fields that read the rules where they are silent (folded apart on the web)."""

    attack: AttackKind = Field(
        "overrun",
        description="The attack resolved: overrun (the malfunction check is made, page 3).",
    )
    targets: ManIds = Field(
        ("us-rifle",),
        description=(
            f"The opposing group's men (ids, 1 to {OVERRUN_MEN_MAX}, with or without TMMs)."
        ),
    )
    afv: str = Field("ger-pz4", max_length=40, description="The overrunning AFV (id).")
    rr: int = Field(5, ge=0, le=5, description="The Relative Range: must be 5 (page 7).")
    afv_state: Literal["ready", "pinned", "bogged", "immobilized", "stunned"] = Field(
        "ready",
        description="The AFV may not overrun when pinned, bogged, immobilized or stunned.",
    )
    defender_terrain: Terrain = Field(
        "open",
        description=(
            "The opposing group's terrain (marsh, minefield, pillbox: no overrun; gully, "
            "woods, stream: bog check; brush, buildings, wall, woods: adverse effects)."
        ),
    )
    defender_wire: bool = Field(False, description="The opposing group is in WIRE: bog check.")
    defender_tem: int = Field(
        0,
        ge=-9,
        le=9,
        description=(
            "The defender's TEM added to the FS (terrain, wire, movement; smoke is given as "
            "smoke). The attacker's TEM has no effect in an overrun."
        ),
    )
    concealment: int = Field(
        0, ge=0, le=9, description="The value of a CONCEALMENT card played: subtracted."
    )
    functioning: Literal["mg", "ft", "none"] = Field(
        "mg", description="The AFV's functioning MG or flamethrower (none: no overrun)."
    )
    malfunctioned: Literal["none", "mg", "gun", "ft"] = Field(
        "none",
        description="A malfunctioned weapon of the AFV: mg or gun OVR x1/2, ft OVR x1/4.",
    )
    bog_check: Literal["passed", "bogged"] = Field(
        "passed",
        description=(
            "The outcome of the bog check in gully, woods, stream or wire (page 7 does not "
            "say how it is made): bogged ends the attack."
        ),
    )
    heroic: ManIds = Field(
        (),
        description="Heroic defenders (ids; men of rank hero are heroic): FFS -1, Red 5-6 / 4.",
    )
    tmm: ManIds = Field((), description="Defenders carrying a TMM (ids): attack the AFV on red.")
    crew: Literal["buttoned_up", "crew_exposed"] = Field(
        "buttoned_up",
        description="The AFV's crew for the TMM's RPNC column: 2b buttoned up, 4c exposed "
        "(an open-topped AFV reads 5o).",
    )
    ot_reading: Literal["open_topped", "not_open_topped"] = Field(
        "open_topped",
        description=(
            "'Red 5 & OT AFV': open_topped (OT = open-topped, as page 8 spells it) or "
            "not_open_topped ('NOT' with its N lost, the issue's reading)."
        ),
    )
    adverse_reading: Literal["page4_parallel", "red6_kills"] = Field(
        "page4_parallel",
        description=(
            "What page 7's two adverse-effect boxes do: page4_parallel (Red 6 immobilizes the "
            "AFV and ends the attack, Red 5 on an OT AFV kills it, as page 4's Black 6 and "
            "Black 5 & OT boxes) or red6_kills (the reverse, the earlier reading)."
        ),
    )
    adverse_on_malfunction: Literal["read", "skipped"] = Field(
        "read",
        description=(
            "A man's card that malfunctions the AFV's weapon and ends the attack (page 3): "
            "read (page 7's adverse effects are still checked on that card, after the man) "
            "or skipped (END ATTACK before them)."
        ),
    )
    unpinned_when: Literal["after", "before"] = Field(
        "after",
        description=(
            "Which man is 'unpinned' for the adverse effects and the TMM: after (unpinned "
            "when attacked and still so after his own resolution: no effect, wounded, "
            "berserk) or before (unpinned when attacked, whatever his result)."
        ),
    )


@dataclass(frozen=True)
class OverrunAttack:
    """Everything fixed before the first card: the AFV, the group, the modifiers."""

    afv: Man
    group: tuple[Target, ...]
    ovr: int
    ovr_items: tuple[str, ...]
    modifier: int
    heroic: frozenset[str]
    tmm: frozenset[str]
    malfunction_at: tuple[int, ...]
    column: int
    fight_back: bool
    bog: bool


def overrun_ovr(ovr: int, malfunctioned: str) -> int:
    """Page 7: OVR x1/2 with a malfunctioned MG or gun, x1/4 with a flamethrower, rounded
    down."""
    if malfunctioned in ("mg", "gun"):
        return int(ovr * OVR_MG_FACTOR)
    if malfunctioned == "ft":
        return int(ovr * OVR_FT_FACTOR)
    return ovr


def _ids(inp: UpFrontOverrun, name: str, among: Sequence[str]) -> frozenset[str]:
    found = set()
    for man_id in getattr(inp, name):
        if man_id not in among:
            raise InputError(
                name, _("ids among the targets: {ids}").format(ids=", ".join(among)), man_id
            )
        found.add(man_id)
    return frozenset(found)


def overrun_attack(inp: UpFrontOverrun) -> OverrunAttack:
    men = inp.men_data()
    afv = men.man(men_by_id(men, "afv", split(inp.afv))[0])
    if afv.afv is None:
        raise InputError("afv", "the id of an AFV (a man with afv values)", afv.id)
    if inp.rr != OVERRUN_RR:
        raise InputError(
            "rr",
            _("{overrun_rr} (page 7: the AFV must be at RR 5)").format(overrun_rr=OVERRUN_RR),
            inp.rr,
        )
    if inp.afv_state != "ready":
        allowed = N_("ready (page 7: not pinned, bogged, immobilized or stunned)")
        raise InputError("afv_state", allowed, inp.afv_state)
    if inp.defender_terrain in NO_OVERRUN:
        allowed = N_("a terrain other than marsh, minefield or pillbox (page 7)")
        raise InputError("defender_terrain", allowed, inp.defender_terrain)
    if inp.functioning == "none":
        allowed = N_("mg or ft (page 7: must have a functioning MG or FT)")
        raise InputError("functioning", allowed, inp.functioning)
    if inp.functioning == inp.malfunctioned:
        raise InputError(
            "malfunctioned", "a weapon other than the functioning one", inp.malfunctioned
        )
    group = targets(inp, men)
    if len(group) > OVERRUN_MEN_MAX:
        raise InputError(
            "targets",
            _("1 to {overrun_men_max} ids").format(overrun_men_max=OVERRUN_MEN_MAX),
            shown(inp.targets),
        )
    ids = [t.man.id for t in group]
    tmm = _ids(inp, "tmm", ids)
    heroic = _ids(inp, "heroic", ids) | {t.man.id for t in group if t.man.rank == "hero"}
    ovr = overrun_ovr(afv.afv.ovr, inp.malfunctioned)
    items = [f"OVR {afv.afv.ovr}"]
    if ovr != afv.afv.ovr:
        factor = OVR_MG_FACTOR if inp.malfunctioned in ("mg", "gun") else OVR_FT_FACTOR
        items.append(f"malfunctioned {inp.malfunctioned}: x{factor} (round down) = {ovr}")
    column = TMM_COLUMNS["open_topped" if afv.afv.open_topped else inp.crew]
    return OverrunAttack(
        afv,
        group,
        ovr,
        tuple(items),
        inp.defender_tem + inp.smoke - inp.concealment,
        frozenset(heroic),
        tmm,
        malfunction_numbers(inp, men, [afv]),
        column,
        inp.defender_terrain in FIGHT_BACK_TERRAIN or inp.smoke != 0,
        inp.defender_terrain in BOG_TERRAIN or inp.defender_wire,
    )


ADVERSE_BOXES = {
    "page4_parallel": ("AFV immobilized", "AFV KIA"),
    "red6_kills": ("AFV KIA", "AFV immobilized"),
}
"""What page 7's two adverse-effect boxes do, "Res. RNC Red 6*?" first, then "Res. RNC Red 5*
& OT AFV?", by the reading ``adverse_reading``. The text prints "AFV Immobilized, End Attack"
then "AFV KIA 10 + # VP" after the two boxes, in their order; page 4's parallel boxes ("This
RNC Black 6? -> AFV Immobilized", "This RNC Black 5 & OT AFV? -> AFV KIA") and the second
transcription read it so (``page4_parallel``, the default); ``red6_kills`` keeps the earlier
reading (Red 6 kills, Red 5 on an OT AFV immobilizes)."""


def adverse_effect(card: Card, heroic: bool, open_topped: bool, inp: UpFrontOverrun) -> str:
    """Page 7, after a man in brush, buildings, wall, woods or smoke who is unpinned: the
    resolution card's "Red 6*" box (heroic: Red 5 or 6) is checked first, then "Red 5* & OT
    AFV" (heroic: Red 4); what each does is :data:`ADVERSE_BOXES` (by default Red 6
    immobilizes, Red 5 on an OT AFV kills). '' when neither."""
    if not card.rn.red:
        return ""
    first, second = ADVERSE_BOXES[inp.adverse_reading]
    if card.rn.value in (OVERRUN_RED_6_HEROIC if heroic else OVERRUN_RED_6):
        return first
    ot = open_topped if inp.ot_reading == "open_topped" else not open_topped
    if card.rn.value in (OVERRUN_RED_5_OT_HEROIC if heroic else OVERRUN_RED_5_OT) and ot:
        return second
    return ""


def tmm_result(card: Card, column: int) -> str:
    """Page 7's TMM attack on its own card: a black RPN under 2b/4c/5o has no effect; a red
    one reads the same card's column 0r: 1-5 immobilized, 6-0 (0 the top) AFV KIA."""
    if not card.rpn[column].red:
        return ""
    band = card.rpn[TMM_BAND_COLUMN].value
    low, high = TMM_IMMOBILIZED
    if low <= band <= high:
        return "AFV immobilized"
    assert band >= TMM_KIA[0] or band == TMM_KIA[1]
    return "AFV KIA"


def ended_adverse(attack: OverrunAttack, target: Target, card: Card, inp: UpFrontOverrun) -> str:
    """Page 7's adverse effects read on a man's card whose malfunction ended the attack (page
    3's check comes first on his card; page 7 checks the adverse effects after each man): ''
    under ``adverse_on_malfunction = skipped``, outside the terrain that allows them, or when
    the man is pinned. No TMM card is drawn: the attack has ended, and no card is drawn in it
    after END ATTACK."""
    assert attack.afv.afv is not None
    if inp.adverse_on_malfunction == "skipped" or not attack.fight_back:
        return ""
    if not fights_back(target, "attack ended", inp):
        return ""
    heroic = target.man.id in attack.heroic
    return adverse_effect(card, heroic, attack.afv.afv.open_topped, inp)


def fights_back(target: Target, result: str, inp: UpFrontOverrun) -> bool:
    if target.pinned:
        return False
    return inp.unpinned_when == "before" or result in STILL_UNPINNED
