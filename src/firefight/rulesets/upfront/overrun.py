"""Page 7: Overrun attacks by an AFV on an opposing infantry group at RR 5, with exact odds
over the cards still unseen.

The requirements are checked first (one-line refusals), then the bog check, then the Fire
Strength: OVR (x1/2 with a malfunctioned MG or gun, x1/4 with a flamethrower, rounded down)
plus the RN of one RNC (value only), plus the defender's TEM (wire, smoke, movement; the
attacker's TEM has no effect), minus concealment. Each man is then resolved by page 3's own
per-man rule (:func:`.resolution.man_result`; a heroic man at FFS -1) on his card, and after
each man the same card is read for the adverse effects on the AFV (Red 6 immobilizes, Red 5
on an open-topped AFV kills, as page 4's Black 6 / Black 5 boxes; the heroic variants) and a
TMM attack (a second card's RPN colour and column 0 band). A malfunction that ends the attack
(page 3's check, first on the man's card) still lets the adverse effects be read on that card
(``adverse_on_malfunction``): page 7 checks them after each man.

Exact odds walk the same draws over pool states, each draw one compiled step of the page 3
kernel (:mod:`.overrun_walk`): docs/upfront.md, "Page 7".
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import ClassVar, Literal

from pydantic import Field

from firefight.chance import Chance
from firefight.chance.distribution import Distribution
from firefight.core.modifier import Modifier
from firefight.errors import InputError
from firefight.rulesets.upfront.afv import afv_kia_vp
from firefight.rulesets.upfront.cards import RN_HIGHEST, Card
from firefight.rulesets.upfront.classes import class_cards
from firefight.rulesets.upfront.group import GroupProcedure
from firefight.rulesets.upfront.lists import ManIds, shown, split
from firefight.rulesets.upfront.malfunction import Firer, MalfunctionReadings, outcome_for
from firefight.rulesets.upfront.men import Man
from firefight.rulesets.upfront.overrun_walk import AFV_RESULTS, Reading, walk
from firefight.rulesets.upfront.overrun_walk import Attack as WalkAttack
from firefight.rulesets.upfront.pool import Pool, PoolState, Reads, men_by_id, pool_for
from firefight.rulesets.upfront.printed import (
    OVERRUN_HERO_FFS,
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
    MAN_RESULTS,
    AttackKind,
    Readings,
    Tally,
    Target,
    data_facts,
    fire_result,
    malfunction_numbers,
    malfunctions,
    man_result,
    targets,
)

__all__ = [
    "OVERRUN",
    "PROCEDURES",
    "UpFrontOverrun",
    "adverse_effect",
    "outcome",
    "overrun_odds",
    "overrun_ovr",
    "tmm_result",
]

PAGE7 = "Up Front flow charts, page 7: Overrun Attacks"
OVERRUN_MEN_MAX = 10
"""The most defending men one overrun procedure takes: a full group (page 7), with or
without TMMs. Exact odds walk every draw as one compiled step (:mod:`.overrun_walk`) and pay
the web's work budget (:data:`.overrun_walk.OVERRUN_DRAWS_PER_STEP`); measured (docs/upfront.md,
Figures, shared 2-core machine): 10 men of ten distinct profiles 10 ms (the Python walk it
replaced: 2.1 s), with smoke and defender TEM -4 0.7 s; with one man's TMM 18 ms (woods) to
0.24 s (woods, TEM -2); a walk past :data:`.overrun_walk.MAX_PAIRS` is refused in one line."""
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
class _Attack:
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
            raise InputError(name, "ids among the targets: " + ", ".join(among), man_id)
        found.add(man_id)
    return frozenset(found)


def _attack(inp: UpFrontOverrun) -> _Attack:
    men = inp.men_data()
    afv = men.man(men_by_id(men, "afv", split(inp.afv))[0])
    if afv.afv is None:
        raise InputError("afv", "the id of an AFV (a man with afv values)", afv.id)
    if inp.rr != OVERRUN_RR:
        raise InputError("rr", f"{OVERRUN_RR} (page 7: the AFV must be at RR 5)", inp.rr)
    if inp.afv_state != "ready":
        allowed = "ready (page 7: not pinned, bogged, immobilized or stunned)"
        raise InputError("afv_state", allowed, inp.afv_state)
    if inp.defender_terrain in NO_OVERRUN:
        allowed = "a terrain other than marsh, minefield or pillbox (page 7)"
        raise InputError("defender_terrain", allowed, inp.defender_terrain)
    if inp.functioning == "none":
        allowed = "mg or ft (page 7: must have a functioning MG or FT)"
        raise InputError("functioning", allowed, inp.functioning)
    if inp.functioning == inp.malfunctioned:
        raise InputError(
            "malfunctioned", "a weapon other than the functioning one", inp.malfunctioned
        )
    group = targets(inp, men)
    if len(group) > OVERRUN_MEN_MAX:
        raise InputError("targets", f"1 to {OVERRUN_MEN_MAX} ids", shown(inp.targets))
    ids = [t.man.id for t in group]
    tmm = _ids(inp, "tmm", ids)
    heroic = _ids(inp, "heroic", ids) | {t.man.id for t in group if t.man.rank == "hero"}
    ovr = overrun_ovr(afv.afv.ovr, inp.malfunctioned)
    items = [f"OVR {afv.afv.ovr}"]
    if ovr != afv.afv.ovr:
        factor = OVR_MG_FACTOR if inp.malfunctioned in ("mg", "gun") else OVR_FT_FACTOR
        items.append(f"malfunctioned {inp.malfunctioned}: x{factor} (round down) = {ovr}")
    column = TMM_COLUMNS["open_topped" if afv.afv.open_topped else inp.crew]
    return _Attack(
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


def ended_adverse(attack: _Attack, target: Target, card: Card, inp: UpFrontOverrun) -> str:
    """Page 7's adverse effects read on a man's card whose malfunction ended the attack (page
    3's check comes first on his card; page 7 checks the adverse effects after each man): ''
    under ``adverse_on_malfunction = skipped``, outside the terrain that allows them, or when
    the man is pinned. No TMM card is drawn: the attack has ended, and no card is drawn in it
    after END ATTACK."""
    assert attack.afv.afv is not None
    if inp.adverse_on_malfunction == "skipped" or not attack.fight_back:
        return ""
    if not _fights_back(target, "attack ended", inp):
        return ""
    heroic = target.man.id in attack.heroic
    return adverse_effect(card, heroic, attack.afv.afv.open_topped, inp)


def _fights_back(target: Target, result: str, inp: UpFrontOverrun) -> bool:
    if target.pinned:
        return False
    return inp.unpinned_when == "before" or result in STILL_UNPINNED


@dataclass(frozen=True)
class _OverrunReads(Reads):
    """The overrun's card classes for one input: ``key`` says what the rule reads of a card
    (its FS value, its page 3 result for every man at every FFS, its adverse effects, its
    TMM result, malfunction, BREEZE); the trace shows the card as printed."""

    key: Callable[[Card], Hashable] = field(default=lambda card: card.number, compare=False)
    name: str = ""

    def __call__(self, card: Card) -> Hashable:
        return self.key(card)


_READS: dict[str, _OverrunReads] = {}


def _reads(inp: UpFrontOverrun, attack: _Attack) -> _OverrunReads:
    name = inp.model_dump_json()
    found = _READS.get(name)
    if found is not None:
        return found
    assert attack.afv.afv is not None
    open_topped = attack.afv.afv.open_topped
    ffs_values = sorted(
        {
            attack.ovr + rn + attack.modifier - smoke + hero
            for rn in range(RN_HIGHEST + 1)
            for smoke in {0, inp.smoke}
            for hero in (0, OVERRUN_HERO_FFS)
        }
    )

    def key(card: Card) -> Hashable:
        results = tuple(
            man_result(t, f, inp.rr, card, inp) for t in attack.group for f in ffs_values
        )
        return (
            card.rn.value,
            adverse_effect(card, False, open_topped, inp),
            adverse_effect(card, True, open_topped, inp),
            card.rn.red and bool(attack.tmm),
            tmm_result(card, attack.column) if attack.tmm else "",
            bool(attack.malfunction_at)
            and malfunctions(card, attack.malfunction_at, inp.malfunction_check),
            card.breeze and bool(inp.smoke),
            results,
        )

    reads = _OverrunReads(
        rn=True,
        rn_colour=True,
        rpn=(TMM_BAND_COLUMN, 7),
        rpn_colour=(attack.column,),
        breeze=True,
        kia=inp.kia_on == "card",
        key=key,
        name=name,
    )
    if len(_READS) > 64:
        _READS.clear()
    _READS[name] = reads
    return reads


class _Ended(Exception):  # noqa: N818 - a control-flow signal
    """The pile ran out with reshuffle = end_attack."""


def _draw(pool: Pool, chance: Chance, state: PoolState, label: str) -> tuple[Card, PoolState]:
    drawn = pool.draw(chance, state, label)
    if drawn is None:
        raise _Ended
    return drawn


OVERRUN_AFV = ("AFV KIA", "AFV immobilized", "AFV bogged", "")


ENDING = ("end_attack", "page6")
"""The ``malfunction`` readings under which a malfunction ends an overrun: with ``page6`` the
AFV is the firing group's only armed man, so page 6 always reaches "Only one armed man? ->
Malfunction that weapon. END ATTACK" (:func:`page6_outcome`): the odds are end_attack's."""


def page6_outcome(attack: _Attack, card: Card, ffs: int, inp: UpFrontOverrun) -> str:
    """Page 6 on the overrunning AFV (page 3: "Malfunction only on Firepower or Overrun
    attack"): the AFV is the only armed man, so its functioning weapon malfunctions (or
    breaks on X6) and the attack ends; page 7's OVR x1/2 (MG) or x1/4 (FT) then applies to
    the next overrun (``malfunctioned``)."""
    firers = (Firer(attack.afv),)
    found = outcome_for(firers, 0, rn=card.rn.value, ffs=ffs, rr=inp.rr, inp=MalfunctionReadings())
    assert found.end_attack
    return f"{found.box}: the {inp.functioning} {found.weapon}; END ATTACK"


def _malfunction_ends(
    attack: _Attack, card: Card, ffs: int, inp: UpFrontOverrun, chance: Chance
) -> bool:
    """A malfunction card drawn: the trace (page 6's box under ``page6``) and whether the
    attack ends."""
    chance.note("malfunction", f"RN {card.rn}: a fire weapon malfunctions (page 6)")
    if inp.malfunction == "page6":
        chance.note("page 6", page6_outcome(attack, card, ffs, inp))
    return inp.malfunction in ENDING


def _overrun_rule(inp: UpFrontOverrun, chance: Chance) -> str:
    attack = _attack(inp)
    assert attack.afv.afv is not None
    if attack.bog:
        chance.note("bog check", f"defender in bog terrain: {inp.bog_check}")
        if inp.bog_check == "bogged":
            return "AFV bogged: attack ends"
    pool = pool_for(inp, _reads(inp, attack))
    results: list[str] = []
    afv_result = ""
    try:
        card, state = _draw(pool, chance, pool.start, "fire strength RNC")
        fs = attack.ovr + card.rn.value
        ffs = fs + attack.modifier
        chance.note("FFS", f"OVR {attack.ovr} + RN {card.rn.value} {attack.modifier:+d} = {ffs}")
        smoke = inp.smoke
        for position, target in enumerate(attack.group, 1):
            card, state = _draw(pool, chance, state, f"card for man {position} ({target.man.id})")
            if (
                attack.malfunction_at
                and malfunctions(card, attack.malfunction_at, inp.malfunction_check)
                and _malfunction_ends(attack, card, ffs, inp, chance)
            ):
                results.extend("attack ended" for _ in attack.group[position - 1 :])
                afv_result = ended_adverse(attack, target, card, inp)
                if afv_result:
                    chance.note("adverse effect", f"RN {card.rn}: {afv_result} (after man)")
                break
            heroic = target.man.id in attack.heroic
            man_ffs = ffs + (OVERRUN_HERO_FFS if heroic else 0)
            result = man_result(target, man_ffs, inp.rr, card, inp)
            fr = fire_result(man_ffs, card, inp.fr)
            chance.note(f"man {position} ({target.man.id})", f"FFS {man_ffs}, FR {fr}: {result}")
            results.append(result)
            if _fights_back(target, result, inp):
                if attack.fight_back:
                    afv_result = adverse_effect(card, heroic, attack.afv.afv.open_topped, inp)
                    if afv_result:
                        chance.note("adverse effect", f"RN {card.rn}: {afv_result}")
                        break
                if target.man.id in attack.tmm and card.rn.red:
                    chance.note("TMM", f"{target.man.id} attacks the AFV with his TMM")
                    tmm_card, state = _draw(pool, chance, state, f"TMM card ({target.man.id})")
                    afv_result = tmm_result(tmm_card, attack.column)
                    chance.note("TMM", afv_result or "black RPN: no effect")
                    if afv_result:
                        break
            if card.breeze and smoke:
                ffs -= smoke
                chance.note("BREEZE", f"smoke removed: FFS {ffs}")
                smoke = 0
    except _Ended:
        chance.note("draw pile", "ran out: the men not resolved are unaffected")
    results.extend("no effect" for _ in attack.group[len(results) :])
    return outcome(tuple(results.count(r) for r in MAN_RESULTS), afv_result)


def outcome(by_result: tuple[int, ...], afv_result: str) -> str:
    """The procedure's outcome: one man's page 3 result (or the group's tally), and what the
    defenders did to the AFV. ``by_result``: how many men had each result, indexed as
    MAN_RESULTS (a :class:`Tally` keeps losses only, so it cannot name one man's result)."""
    if sum(by_result) == 1:
        text = MAN_RESULTS[by_result.index(1)]
    else:
        text = Tally.of_counts(by_result).text()
    return _text(text, afv_result)


def _text(text: str, afv_result: str) -> str:
    if afv_result == "AFV KIA":
        return f"{text}; AFV KIA"
    if afv_result:
        return f"{text}; {afv_result}: attack ends"
    return text


def _reading(card: Card, ffs: int, attack: _Attack, inp: UpFrontOverrun) -> Reading:
    """What the overrun reads of ``card`` at ``ffs`` (:class:`.overrun_walk.Reading`): the
    same steps as :func:`_overrun_rule` after each man's card."""
    assert attack.afv.afv is not None
    open_topped = attack.afv.afv.open_topped
    men = []
    for target in attack.group:
        heroic = target.man.id in attack.heroic
        steps = []
        for smoke in (inp.smoke, 0):
            man_ffs = ffs - inp.smoke + smoke + (OVERRUN_HERO_FFS if heroic else 0)
            result = man_result(target, man_ffs, inp.rr, card, inp)
            hit, pending = "", False
            if _fights_back(target, result, inp):
                if attack.fight_back:
                    hit = adverse_effect(card, heroic, open_topped, inp)
                pending = not hit and target.man.id in attack.tmm and card.rn.red
            steps.append((MAN_RESULTS.index(result), AFV_RESULTS.index(hit), pending))
        men.append((steps[0], steps[1]))
    ends = (
        bool(attack.malfunction_at)
        and malfunctions(card, attack.malfunction_at, inp.malfunction_check)
        and inp.malfunction in ENDING
    )
    return Reading(
        ends=ends,
        breeze=card.breeze and bool(inp.smoke),
        tmm=AFV_RESULTS.index(tmm_result(card, attack.column)) if attack.tmm else 0,
        men=tuple(men),
        ended=tuple(
            AFV_RESULTS.index(ended_adverse(attack, t, card, inp)) if ends else 0
            for t in attack.group
        ),
    )


def overrun_odds(inp: UpFrontOverrun) -> Distribution[str]:
    """Exact odds of :func:`_overrun_rule`: the FS card's classes grouped by the FFS they give,
    then for each FFS the men's cards (and TMM cards) walked over pool states, each draw one
    compiled step (:mod:`.overrun_walk`). Tested equal to prefix replay of the rule."""
    attack = _attack(inp)
    if attack.bog and inp.bog_check == "bogged":
        return Distribution({"AFV bogged: attack ends": Fraction(1)})
    pool = pool_for(inp, _reads(inp, attack))
    fine = class_cards(pool)
    start, refill = pool.start.counts(), pool.refill.counts()
    first = start if sum(start) else refill
    ends_on_empty = inp.reshuffle == "end_attack" or sum(refill) == 0
    if not sum(start) and ends_on_empty:
        unaffected = _with(_EMPTY, "no effect", len(attack.group))
        return Distribution({outcome(unaffected, ""): Fraction(1)})
    by_ffs: dict[int, list[int]] = {}
    for index, card in enumerate(fine):
        if card is not None and first[index]:
            by_ffs.setdefault(attack.ovr + card.rn.value + attack.modifier, []).append(index)
    tmm = tuple(t.man.id in attack.tmm for t in attack.group)
    walks = []
    for ffs, classes in by_ffs.items():
        kinds: dict[Reading, int] = {}
        of_class = [
            -1 if card is None else kinds.setdefault(_reading(card, ffs, attack, inp), len(kinds))
            for card in fine
        ]
        walks.append(
            (
                WalkAttack(
                    tuple(kinds), tuple(of_class), refill, ends_on_empty, tmm, bool(inp.smoke)
                ),
                classes,
            )
        )
    found = walk(walks, start, shown(inp.targets))
    odds: dict[str, Fraction] = {}
    for (men, afv), weight in found.weights.items():
        if isinstance(men, int):
            name = outcome(_with(_EMPTY, MAN_RESULTS[men]), afv)
        else:
            name = _text(Tally(men).text(), afv)
        odds[name] = odds.get(name, Fraction(0)) + Fraction(weight, found.denominator)
    return Distribution(odds)


_EMPTY = (0,) * len(MAN_RESULTS)


def _with(tally: tuple[int, ...], result: str, n: int = 1) -> tuple[int, ...]:
    index = MAN_RESULTS.index(result)
    return (*tally[:index], tally[index] + n, *tally[index + 1 :])


def _facts(inp: UpFrontOverrun) -> Sequence[tuple[str, str]]:
    attack = _attack(inp)
    facts = data_facts(inp)
    facts.append(("OVR", ", ".join(attack.ovr_items)))
    facts.append(
        (
            "FS",
            f"OVR {attack.ovr} + RNC (value only); defender TEM {inp.defender_tem:+d}, smoke "
            f"{inp.smoke:+d}, concealment -{inp.concealment}; attacker TEM: no effect",
        )
    )
    if attack.heroic:
        facts.append(("heroic", ", ".join(sorted(attack.heroic)) + f": FFS {OVERRUN_HERO_FFS}"))
    facts.append(
        (
            "adverse effects",
            ("checked (brush, buildings, wall, woods or smoke)" if attack.fight_back else "none")
            + f"; AFV KIA is {afv_kia_vp(attack.afv)}",
        )
    )
    facts.append(("after", "the AFV may move through the opposing group (page 7)"))
    return facts


def _no_modifiers(_: UpFrontOverrun) -> Sequence[Modifier]:
    return ()


def _outcome_order() -> tuple[str, ...]:
    order: list[str] = []
    for afv in ("; AFV KIA", "; AFV immobilized: attack ends", ""):
        order.extend(r + afv for r in MAN_RESULTS)
    return ("AFV bogged: attack ends", *order)


OVERRUN: GroupProcedure[UpFrontOverrun] = GroupProcedure(
    name="overrun",
    title="Overrun attack: OVR + RNC, resolution on each man, adverse effects (page 7)",
    input_model=UpFrontOverrun,
    rule=_overrun_rule,
    modifiers=_no_modifiers,
    facts=_facts,
    outcome_order=_outcome_order(),
    meanings={"AFV bogged: attack ends": "the bog check failed: AFV bogged, END ATTACK"},
    exact_odds=overrun_odds,
)

PROCEDURES = (OVERRUN,)
