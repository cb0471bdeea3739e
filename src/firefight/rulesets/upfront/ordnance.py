"""Page 2: Ordnance Attacks (mortars, light and medium weapons, an AFV's main gun, an ATR
against an AFV), with exact odds over the cards still unseen.

Richard Irving, Up Front flow charts v1.0 (2017), page 2, restored in docs/upfront.md
("Page 2"): the To Hit number at the current Relative Range (the firer's ``to_hit`` in
men.toml) and its modifiers; the To Hit RNC (malfunction: the ordnance weapon breaks; a
moving firer or target misses on an RNC of the miss colour; Black 0 is a hit; otherwise a
hit when the RN is within the To Hit number); boxed ordnance FS + RR, unboxed FS + the To Hit
RNC's RN; then page 3 on each man, or page 4 on the AFV (:mod:`.afv`).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import ClassVar, Literal

from pydantic import Field

from firefight.chance import Chance, exact
from firefight.chance.distribution import Distribution
from firefight.core.modifier import Modifier, ModifierKind
from firefight.errors import InputError, RuleError
from firefight.i18n import gettext as _
from firefight.rulesets.upfront.afv import (
    AFV_RESULTS,
    MEANINGS,
    READS,
    AfvReadings,
    AttackKind,
    Cards,
    Hit,
    afv_facts,
    afv_man,
    resolve_afv,
)
from firefight.rulesets.upfront.cards import Card
from firefight.rulesets.upfront.group import GroupProcedure, group_odds
from firefight.rulesets.upfront.men import Man
from firefight.rulesets.upfront.pool import pool_for
from firefight.rulesets.upfront.resolution import (
    MAN_RESULTS,
    RESULT_MEANINGS,
    Readings,
    Tally,
    man_result,
    reads_for,
    resolve_group,
    targets,
)

__all__ = [
    "ACQUIRED_TO_HIT",
    "BLACK_HIT_RN",
    "COMMANDER_KIA_TO_HIT",
    "FIRER_MOVING_TO_HIT",
    "MOVING_TARGET_TO_HIT",
    "ORDNANCE",
    "PROCEDURES",
    "SMOKE_TO_HIT",
    "TURRETLESS_IMMOBILE_TO_HIT",
    "WIRE_TO_HIT",
    "OrdnanceInput",
    "is_hit",
    "ordnance_fs",
    "to_hit_modifiers",
    "to_hit_number",
]

PAGE2 = "Up Front flow charts, page 2"

# The numbers page 2 prints.
COMMANDER_KIA_TO_HIT = -1
"""Page 2, AFV/IG To Hit Modifiers: "-1 per Comm. KIA each"."""
TURRETLESS_IMMOBILE_TO_HIT = -2
"""Page 2: "Turretless Assault Guns: -2 if Immobilized or Bogged"."""
MOVING_TARGET_TO_HIT = -1
"""Page 2: "-1 vs. moving target & RNC = Miss" (target moving or hull down)."""
FIRER_MOVING_TO_HIT = -1
"""Page 2: "Is Firer Moving? -1 To Hit & RNC = Miss"."""
SMOKE_TO_HIT = -1
"""Page 2: "Is Target/Firer in SMOKE? -1 To Hit ea."."""
WIRE_TO_HIT = -1
"""Page 2: "Is Firer in Wire? -1 To Hit ea."."""
ACQUIRED_TO_HIT = 1
"""Page 2: "Is Target Acquired? +1 To Hit"."""
BLACK_HIT_RN = 0
"""Page 2: "Black 0 Is a Hit"."""

BOXED_WEAPONS = ("gun", "atr")
"""Page 2: "AFV/IG/ATR Using Boxed Ord?": an AFV, an infantry gun or an ATR may fire boxed."""

Boxed = Literal["card", "boxed", "unboxed"]
HitOn = Literal["at_most", "below"]
MissColour = Literal["red", "black"]
HullDownToHit = Literal["as_moving", "none"]
MovingFire = Literal["turretless_cannot", "all_may"]
MovingTarget = Literal["all", "turretless"]
MalfunctionCheck = Literal["red_at_least", "any_at_least"]
Target = Literal["afv", "men"]

OUTCOMES = ("ordnance weapon broken", "miss", *AFV_RESULTS, *MAN_RESULTS)


class OrdnanceInput(AfvReadings, Readings):
    """An ordnance attack (page 2), then page 4 on the AFV (the AFV fields) or page 3 on each
    man of the target group (the fields of page 3's readings)."""

    readings: ClassVar[frozenset[str]] = frozenset({"malfunction_check", "malfunction"})
    """The fields that read the rules where they are silent (folded apart on the web)."""

    attack: Literal["ordnance"] = Field(
        "ordnance",
        description="An ordnance attack: page 3 makes no malfunction check on it.",
    )
    smoke: int = Field(
        0,
        ge=0,
        le=0,
        description=(
            "Page 3's smoke in the FFS: none, page 2's FFS against men adds no smoke (smoke "
            "modifies the To Hit number: smoke_cards)."
        ),
    )

    firer: str = Field(
        "ger-pz4",
        max_length=40,
        description="The firing ordnance: an id of the men file with to_hit numbers.",
    )
    rr: int = Field(3, ge=0, le=5, description="The current Relative Range (0 to 5).")
    target: Target = Field(
        "afv",
        description=(
            "afv (the AFV named by afv: page 4) or men (the group named by targets: page 3 "
            "on each man)."
        ),
    )
    boxed: Boxed = Field(
        "card",
        description=(
            "AFV/IG/ATR using boxed ordnance? card (the firer's afv.boxed flag; unboxed for "
            "a man), boxed (FS + RR) or unboxed (FS + the To Hit RNC's RN)."
        ),
    )
    firer_moving: bool = Field(
        False,
        description=(
            "The firer is moving: -1 to hit and an RNC of the miss colour misses; a "
            "turretless assault gun cannot fire while moving (page 2)."
        ),
    )
    firer_immobilized: bool = Field(
        False, description="The firing AFV is immobilized (turretless: -2 to hit)."
    )
    firer_bogged: bool = Field(False, description="The firing AFV is bogged (turretless: -2).")
    commander_kia: int = Field(
        0, ge=0, le=3, description="Commanders KIA on the firing AFV/IG (-1 to hit each)."
    )
    smoke_cards: int = Field(
        0, ge=0, le=4, description="SMOKE cards on the target and the firer (-1 to hit each)."
    )
    wire: int = Field(0, ge=0, le=3, description="WIRE cards on the firer (-1 to hit each).")
    acquired: bool = Field(False, description="The target is acquired (+1 to hit).")
    concealment: int = Field(
        0, ge=0, le=6, description="The value of a CONCEALMENT the defender plays (- # to hit)."
    )
    target_moving: bool = Field(
        False, description="The target is moving: -1 to hit and RNC = Miss (page 2)."
    )
    attacker_tem: int = Field(
        0,
        ge=-6,
        le=6,
        description=(
            "The firer's terrain modifier, added to the FS (page 2; not against an AFV's "
            "MORALE/CE values, nor against a hull-down AFV)."
        ),
    )
    defender_wire: int = Field(
        0,
        ge=-6,
        le=6,
        description="A WIRE card's modifier on the target men, added to the FS (page 2).",
    )
    hit_on: HitOn = Field(
        "at_most",
        description=(
            "'RNC = Hit?' (page 2): at_most (RN <= the modified To Hit number) or below (RN < it)."
        ),
    )
    miss_colour: MissColour = Field(
        "red",
        description=(
            "The colour of 'RNC = Miss' (page 2's note: the word RNC printed in the colour of "
            "the RNC; the transcription lost the colours): red or black."
        ),
    )
    hull_down_to_hit: HullDownToHit = Field(
        "as_moving",
        description=(
            "'Is Target Moving or Hull Down?' (page 2): as_moving (a hull-down AFV target "
            "also gives -1 and RNC = Miss) or none (only a moving target does)."
        ),
    )
    moving_target_to_hit: MovingTarget = Field(
        "all",
        description=(
            "Who gets '-1 vs. moving target & RNC = Miss' (page 2): all (the action of 'Is "
            "Target Moving or Hull Down?') or turretless (only turretless assault guns, the "
            "box it is printed next to)."
        ),
    )
    moving_fire: MovingFire = Field(
        "turretless_cannot",
        description=(
            "'Cannot fire while moving' (page 2, in the turretless assault guns' box): "
            "turretless_cannot (only they cannot) or all_may (every firer may fire moving)."
        ),
    )
    malfunction_check: MalfunctionCheck = Field(
        "red_at_least",
        description=(
            "'RNC = Malf?' on the To Hit RNC: red_at_least (a red RN at least the weapon's "
            "malfunction #, as page 3's reading) or any_at_least (any RN at least it)."
        ),
    )


def ordnance_firer(inp: OrdnanceInput) -> Man:
    """The firer: a man of the file with to_hit numbers; one-line errors listing them."""
    men = inp.men_data()
    able = [m.id for m in men.men if m.to_hit is not None]
    allowed = _("ordnance of {source} (with to_hit): {ids}").format(
        source=men.source, ids=", ".join(able) or _("none")
    )
    if inp.firer not in men.ids or men.man(inp.firer).to_hit is None:
        raise InputError("firer", allowed, inp.firer)
    return men.man(inp.firer)


def turretless(man: Man) -> bool:
    """A turretless assault gun: an AFV without a turret."""
    return man.afv is not None and not man.afv.turret


def boxed_fire(inp: OrdnanceInput, man: Man) -> bool:
    """Page 2: "AFV/IG/ATR Using Boxed Ord?"."""
    if inp.boxed == "card":
        return man.afv is not None and man.afv.boxed
    if inp.boxed == "boxed" and man.afv is None and man.weapon not in BOXED_WEAPONS:
        raise InputError(
            "boxed", _("card or unboxed for a {weapon} (page 2)").format(weapon=man.weapon), "boxed"
        )
    return inp.boxed == "boxed"


def target_moving_or_hull_down(inp: OrdnanceInput) -> bool:
    """Page 2: "Is Target Moving or Hull Down?" (hull down: reading ``hull_down_to_hit``;
    which firers: ``moving_target_to_hit``)."""
    if inp.moving_target_to_hit == "turretless" and not turretless(ordnance_firer(inp)):
        return False
    hull_down = inp.target == "afv" and inp.hull_down and inp.hull_down_to_hit == "as_moving"
    return inp.target_moving or hull_down


def to_hit_modifiers(inp: OrdnanceInput) -> list[Modifier]:
    """Every To Hit modifier of page 2 that applies, itemized."""
    man = ordnance_firer(inp)

    def item(label: str, value: int) -> Modifier:
        return Modifier(label, Fraction(value), ModifierKind.VALUE, PAGE2)

    found: list[Modifier] = []
    if inp.commander_kia:
        if man.afv is None and man.weapon != "gun":
            raise InputError(
                "commander_kia", "0 for a firer that is not an AFV/IG", inp.commander_kia
            )
        found.append(
            item(f"commander KIA x{inp.commander_kia}", COMMANDER_KIA_TO_HIT * inp.commander_kia)
        )
    if turretless(man) and (inp.firer_immobilized or inp.firer_bogged):
        found.append(
            item("turretless assault gun immobilized or bogged", TURRETLESS_IMMOBILE_TO_HIT)
        )
    if target_moving_or_hull_down(inp):
        found.append(item("moving or hull-down target", MOVING_TARGET_TO_HIT))
    if inp.firer_moving:
        found.append(item("firer moving", FIRER_MOVING_TO_HIT))
    if inp.smoke_cards:
        found.append(item(f"SMOKE x{inp.smoke_cards}", SMOKE_TO_HIT * inp.smoke_cards))
    if inp.wire:
        found.append(item(f"firer in WIRE x{inp.wire}", WIRE_TO_HIT * inp.wire))
    if inp.acquired:
        found.append(item("target acquired", ACQUIRED_TO_HIT))
    if inp.concealment:
        found.append(item(f"CONCEALMENT {inp.concealment}", -inp.concealment))
    return found


def to_hit_number(inp: OrdnanceInput) -> int:
    """Page 2: the To Hit # at the current RR, modified."""
    man = ordnance_firer(inp)
    assert man.to_hit is not None
    return man.to_hit[inp.rr] + sum(int(m.value) for m in to_hit_modifiers(inp))


def is_hit(card: Card, number: int, hit_on: HitOn) -> bool:
    """Page 2: Black 0 is a hit; otherwise the RN within the To Hit number."""
    if not card.rn.red and card.rn.value == BLACK_HIT_RN:
        return True
    return card.rn.value <= number if hit_on == "at_most" else card.rn.value < number


def malfunctioned(card: Card, man: Man, check: MalfunctionCheck) -> bool:
    """Page 2: "RNC = Malf?" on the To Hit RNC (reading ``malfunction_check``)."""
    if man.malfunction is None or (check == "red_at_least" and not card.rn.red):
        return False
    return card.rn.value >= man.malfunction


def ordnance_fs(inp: OrdnanceInput, man: Man, card: Card) -> int:
    """Page 2: boxed ordnance FS + RR, unboxed FS + the To Hit RNC (its RN)."""
    fs = man.firepower[inp.rr]
    return fs + inp.rr if boxed_fire(inp, man) else fs + card.rn.value


def final_fire_strength(inp: OrdnanceInput, man: Man, card: Card) -> tuple[int, str]:
    """Page 2: the FFS after a hit and where it goes: attacker TEM and defender wire against
    men; nothing against an AFV's MORALE/CE (unboxed); attacker TEM against its armour
    (boxed) unless it is hull down."""
    fs = ordnance_fs(inp, man, card)
    if inp.target == "men":
        return fs + inp.attacker_tem + inp.defender_wire, "men"
    if not boxed_fire(inp, man):
        return fs, "unboxed"
    return (fs if inp.hull_down else fs + inp.attacker_tem), "boxed"


def _check(inp: OrdnanceInput, man: Man) -> None:
    if inp.firer_moving and turretless(man) and inp.moving_fire == "turretless_cannot":
        raise RuleError(
            _("'firer_moving': a turretless assault gun cannot fire while moving (page 2)")
        )
    if inp.target == "afv":
        afv_man(inp.men_data(), "afv", inp.afv)
        if inp.defender_wire:
            raise InputError("defender_wire", "0 against an AFV (page 2)", inp.defender_wire)
    boxed_fire(inp, man)


def to_hit_result(inp: OrdnanceInput, man: Man, card: Card, chance: Chance | None) -> str:
    """Page 2, the To Hit RNC: "ordnance weapon broken", "miss" or "hit"."""

    def note(label: str, text: str) -> None:
        if chance is not None:
            chance.note(label, text)

    number = to_hit_number(inp)
    if malfunctioned(card, man, inp.malfunction_check):
        note("RNC = Malf", f"RN {card.rn}: break the ordnance weapon, END (page 2)")
        return "ordnance weapon broken"
    moving = inp.firer_moving or target_moving_or_hull_down(inp)
    if moving and card.rn.colour == inp.miss_colour:
        note("RNC = Miss", f"{inp.miss_colour} RNC with a moving firer or target (page 2)")
        return "miss"
    if not is_hit(card, number, inp.hit_on):
        note("miss", f"RN {card.rn.value} against To Hit # {number} (page 2)")
        return "miss"
    return "hit"


def after_to_hit(inp: OrdnanceInput, number: int) -> OrdnanceInput:
    """The input page 3 resolves the men from once the To Hit RNC ``number`` is drawn: the card
    is on the table (page 3's ``played``: out of its pool and of a mid-attack reshuffle), so an
    omniscient pile no longer holds it (the observer's pool never named it)."""
    if inp.pool != "omniscient":
        return inp
    return inp.model_copy(update={"pile": tuple(n for n in inp.pile if n != number)})


def _group_text(results: Sequence[str]) -> str:
    return results[0] if len(results) == 1 else Tally.of(results).text()


def _ordnance_rule(inp: OrdnanceInput, chance: Chance) -> str:
    man = ordnance_firer(inp)
    _check(inp, man)
    chance.note("To Hit #", f"{to_hit_number(inp)} at RR {inp.rr} (page 2)")
    men = targets(inp, inp.men_data()) if inp.target == "men" else ()
    pool = pool_for(inp, reads_for(inp) if men else READS)
    drawn = pool.draw(chance, pool.start, "To Hit RNC")
    if drawn is None:
        return "miss"
    card, state = drawn
    result = to_hit_result(inp, man, card, chance)
    if result != "hit":
        return result
    ffs, path = final_fire_strength(inp, man, card)
    chance.note("hit", f"FFS {ffs} ({'boxed' if boxed_fire(inp, man) else 'unboxed'}; page 2)")
    if men:
        after = after_to_hit(inp, card.number)
        return _group_text(resolve_group(after, chance, ffs, inp.rr, men, (), (card.number,)))
    attack: AttackKind = "boxed" if path == "boxed" else "unboxed"
    if path == "unboxed" and man.weapon == "mortar":
        attack = "mortar"
    target = afv_man(inp.men_data(), "afv", inp.afv)
    return resolve_afv(inp, Cards(pool, state, chance), Hit(target, ffs, attack, card))


def _ordnance_odds(inp: OrdnanceInput) -> Distribution[str]:
    """Exact odds: page 4 by prefix replay of the rule; against men, each class of To Hit
    RNC, then page 3's draws-as-state walk (:func:`.group.group_odds`) from the cards left."""
    man = ordnance_firer(inp)
    _check(inp, man)
    if inp.target == "afv":
        return exact(lambda chance: _ordnance_rule(inp, chance))
    men = targets(inp, inp.men_data())
    pool = pool_for(inp, reads_for(inp))
    start = pool.start
    if start.size == 0:  # the To Hit RNC comes from a reshuffle: replay the rule
        return exact(lambda chance: _ordnance_rule(inp, chance))
    total: dict[str, Fraction] = {}
    walks: dict[tuple[int, tuple[str, ...]], Distribution[str]] = {}
    for members in start.classes:
        if not members:
            continue
        card = pool.data.card(members[0])
        weight = Fraction(len(members), start.size)
        result = to_hit_result(inp, man, card, None)
        if result != "hit":
            total[result] = total.get(result, Fraction(0)) + weight
            continue
        ffs, _ = final_fire_strength(inp, man, card)
        # Two To Hit cards that every man would read alike at this FFS leave pools that
        # page 3's walk cannot tell apart (its coarse classes: no smoke, no malfunction
        # check on ordnance): one walk serves both.
        read_as = (ffs, tuple(man_result(t, ffs, inp.rr, card, inp) for t in men))
        odds = walks.get(read_as)
        if odds is None:
            walk = group_odds(after_to_hit(inp, card.number), ffs, inp.rr, men, (), (card.number,))
            odds = walks[read_as] = walk.outcomes(single=len(men) == 1)
        for outcome, p in odds.items():
            total[outcome] = total.get(outcome, Fraction(0)) + weight * p
    return Distribution(total)


def _ordnance_facts(inp: OrdnanceInput) -> Sequence[tuple[str, str]]:
    man = ordnance_firer(inp)
    assert man.to_hit is not None
    facts = [
        ("To Hit # at RR " + str(inp.rr), f"{man.to_hit[inp.rr]} -> {to_hit_number(inp)}"),
        ("fire card", "play any FIRE card (page 2)"),
        ("ordnance", "boxed: FS + RR" if boxed_fire(inp, man) else "unboxed: FS + To Hit RNC"),
        ("FS at RR " + str(inp.rr), str(man.firepower[inp.rr])),
    ]
    if inp.target == "afv":
        target = afv_man(inp.men_data(), "afv", inp.afv)
        attack: AttackKind = "boxed" if boxed_fire(inp, man) else "unboxed"
        if attack == "unboxed" and man.weapon == "mortar":
            attack = "mortar"
        facts.extend(afv_facts(inp, target, attack))
    else:
        men = targets(inp, inp.men_data())
        facts[:0] = [("deck", inp.deck_data().label), ("men", inp.men_data().label)]
        facts.append(("targets (page 3, in order)", ", ".join(t.man.id for t in men)))
        facts.append(("FFS after a hit", "+ attacker TEM + defender wire (page 2)"))
    return facts


def _ordnance_modifiers(inp: OrdnanceInput) -> Sequence[Modifier]:
    return to_hit_modifiers(inp)


ORDNANCE: GroupProcedure[OrdnanceInput] = GroupProcedure(
    name="ordnance",
    title="Ordnance Attacks: To Hit, then resolution on each man or on the AFV (pages 2-4)",
    input_model=OrdnanceInput,
    rule=_ordnance_rule,
    modifiers=_ordnance_modifiers,
    facts=_ordnance_facts,
    outcome_order=OUTCOMES,
    meanings={
        "ordnance weapon broken": "RNC = Malf: break the ordnance weapon, END (page 2)",
        "miss": "the To Hit RNC misses (page 2)",
        **MEANINGS,
        **RESULT_MEANINGS,
    },
    exact_odds=_ordnance_odds,
)

PROCEDURES = (ORDNANCE,)
