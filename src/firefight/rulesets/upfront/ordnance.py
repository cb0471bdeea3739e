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

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from firefight.chance import Chance, exact
from firefight.chance.distribution import Distribution
from firefight.core.modifier import Modifier, ModifierKind
from firefight.errors import InputError, RuleError
from firefight.i18n import gettext as _
from firefight.rulesets.upfront.afv import (
    AFV_RESULTS,
    MEANINGS,
    READS,
    AttackKind,
    Cards,
    Hit,
    afv_facts,
    afv_man,
    resolve_afv,
)
from firefight.rulesets.upfront.cards import Card, Number
from firefight.rulesets.upfront.group import GroupProcedure, group_odds
from firefight.rulesets.upfront.men import Man
from firefight.rulesets.upfront.ordnance_input import HitOn, MalfunctionCheck, OrdnanceInput
from firefight.rulesets.upfront.pool import Pool, PoolState, pool_for
from firefight.rulesets.upfront.resolution import (
    MAN_RESULTS,
    RESULT_MEANINGS,
    Tally,
    Target,
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

OUTCOMES = ("ordnance weapon broken", "miss", *AFV_RESULTS, *MAN_RESULTS)


def ordnance_firer(inp: OrdnanceInput) -> Man:
    """The firer: a man of the file with to_hit numbers; one-line errors listing them."""
    men = inp.men_data()
    man = next((m for m in men.men if m.id == inp.firer), None)
    if man is not None and man.to_hit is not None:
        return man
    able = [m.id for m in men.men if m.to_hit is not None]
    allowed = _("ordnance of {source} (with to_hit): {ids}").format(
        source=men.source, ids=", ".join(able) or _("none")
    )
    raise InputError("firer", allowed, inp.firer)


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


def target_moving_or_hull_down(inp: OrdnanceInput, man: Man) -> bool:
    """Page 2: "Is Target Moving or Hull Down?" (hull down: reading ``hull_down_to_hit``;
    which firers: ``moving_target_to_hit``)."""
    if inp.moving_target_to_hit == "turretless" and not turretless(man):
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
    if target_moving_or_hull_down(inp, man):
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


def _check(inp: OrdnanceInput, man: Man) -> Man | None:
    """Page 2's refusals; the AFV target (page 4), if it is one."""
    if inp.firer_moving and turretless(man) and inp.moving_fire == "turretless_cannot":
        raise RuleError(
            _("'firer_moving': a turretless assault gun cannot fire while moving (page 2)")
        )
    target = None
    if inp.target == "afv":
        target = afv_man(inp.men_data(), "afv", inp.afv)
        if inp.defender_wire:
            raise InputError("defender_wire", "0 against an AFV (page 2)", inp.defender_wire)
    boxed_fire(inp, man)
    return target


@dataclass(frozen=True)
class Attack:
    """What page 2 reads of an attack before its To Hit RNC, worked out once per input: the
    firer, the modified To Hit #, whether a moving firer or target makes RNC = Miss, the
    target (the men of page 3, in order, or the AFV of page 4) and the pool of the To Hit
    RNC. The rule, the replay and the exact odds all take their steps from here."""

    inp: OrdnanceInput
    man: Man
    number: int
    moving: bool
    men: tuple[Target, ...]
    afv: Man | None
    pool: Pool

    @classmethod
    def of(cls, inp: OrdnanceInput) -> Attack:
        """The attack, with page 2's one-line errors in the rule's order."""
        man = ordnance_firer(inp)
        afv = _check(inp, man)
        number = to_hit_number(inp)
        moving = inp.firer_moving or target_moving_or_hull_down(inp, man)
        men = targets(inp, inp.men_data()) if inp.target == "men" else ()
        pool = pool_for(inp, reads_for(inp) if men else READS)
        return cls(inp, man, number, moving, men, afv, pool)

    def to_hit(self, card: Card, chance: Chance | None) -> str:
        """Page 2, the To Hit RNC: "ordnance weapon broken", "miss" or "hit"."""
        inp = self.inp
        if malfunctioned(card, self.man, inp.malfunction_check):
            if chance is not None:
                chance.note("RNC = Malf", f"RN {card.rn}: break the ordnance weapon, END (page 2)")
            return "ordnance weapon broken"
        if self.moving and card.rn.colour == inp.miss_colour:
            if chance is not None:
                chance.note(
                    "RNC = Miss", f"{inp.miss_colour} RNC with a moving firer or target (page 2)"
                )
            return "miss"
        if not is_hit(card, self.number, inp.hit_on):
            if chance is not None:
                chance.note("miss", f"RN {card.rn.value} against To Hit # {self.number} (page 2)")
            return "miss"
        return "hit"

    def hit(self, card: Card) -> Hit:
        """Page 2 after a hit on the AFV: page 4's FFS and kind of resolution."""
        assert self.afv is not None
        ffs, path = final_fire_strength(self.inp, self.man, card)
        attack: AttackKind = "boxed" if path == "boxed" else "unboxed"
        if path == "unboxed" and self.man.weapon == "mortar":
            attack = "mortar"
        return Hit(self.afv, ffs, attack, card)


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
    """Page 2's rule: what it reads before the To Hit RNC, then the attack itself."""
    return _fire(Attack.of(inp), chance)


def _fire(attack: Attack, chance: Chance) -> str:
    """Page 2's To Hit RNC, then page 3 on each man or page 4 on the AFV: the rule."""
    inp = attack.inp
    chance.note("To Hit #", f"{attack.number} at RR {inp.rr} (page 2)")
    pool = attack.pool
    drawn = pool.draw(chance, pool.start, "To Hit RNC")
    if drawn is None:
        return "miss"
    card, state = drawn
    result = attack.to_hit(card, chance)
    if result != "hit":
        return result
    ffs, _ = final_fire_strength(inp, attack.man, card)
    shown = "boxed" if boxed_fire(inp, attack.man) else "unboxed"
    chance.note("hit", f"FFS {ffs} ({shown}; page 2)")
    if attack.men:
        after = after_to_hit(inp, card.number)
        return _group_text(
            resolve_group(after, chance, ffs, inp.rr, attack.men, (), (card.number,))
        )
    return resolve_afv(inp, Cards(pool, state, chance), attack.hit(card))


def _ordnance_odds(inp: OrdnanceInput) -> Distribution[str]:
    """Exact odds: page 2's fixed parts once (:meth:`Attack.of`), then page 4 by prefix replay
    of the rest of the rule (:func:`_fire`); against men, each class of To Hit RNC, then page
    3's draws-as-state walk (:func:`.group.group_odds`) from the cards left."""
    attack = Attack.of(inp)
    start = attack.pool.start
    if not attack.men or start.size == 0:  # page 4, or a To Hit RNC from a reshuffle
        return exact(lambda chance: _fire(attack, chance))
    return _men_odds(attack, start)


def _men_odds(attack: Attack, start: PoolState) -> Distribution[str]:
    """Against men: each class of To Hit RNC weighed by its count over the pool's size (the
    To Hit result and FFS read once per RN, all page 2 reads: :data:`.afv.READS`), then page
    3's walk from the cards left, once per reading of the men."""
    inp, men = attack.inp, attack.men
    card_of = attack.pool.data.card
    by_rn: dict[Number, tuple[str, int]] = {}
    # Each part of the odds (a To Hit result, or one walk of page 3) and how many To Hit
    # cards reach it, in the order the classes first reach them (the outcomes' order).
    counts: dict[Hashable, int] = {}
    walks: dict[Hashable, Distribution[str]] = {}
    for members in start.classes:
        if not members:
            continue
        card = card_of(members[0])
        read = by_rn.get(card.rn)
        if read is None:
            result = attack.to_hit(card, None)
            ffs = final_fire_strength(inp, attack.man, card)[0] if result == "hit" else 0
            read = by_rn[card.rn] = (result, ffs)
        result, ffs = read
        part: Hashable = result
        if result == "hit":
            # Two To Hit cards that every man would read alike at this FFS leave pools that
            # page 3's walk cannot tell apart (its coarse classes: no smoke, no malfunction
            # check on ordnance): one walk serves both.
            part = (ffs, tuple(man_result(t, ffs, inp.rr, card, inp) for t in men))
            if part not in walks:
                after = after_to_hit(inp, card.number)
                walk = group_odds(after, ffs, inp.rr, men, (), (card.number,))
                walks[part] = walk.outcomes(single=len(men) == 1)
        counts[part] = counts.get(part, 0) + len(members)
    size = start.size
    total: dict[str, Fraction] = {}
    for part, count in counts.items():
        weight = Fraction(count, size)
        odds = walks.get(part)
        if odds is None:
            assert isinstance(part, str)
            total[part] = total.get(part, Fraction(0)) + weight
            continue
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
