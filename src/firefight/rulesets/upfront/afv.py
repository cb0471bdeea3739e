"""Page 4: AFV Unboxed Resolution and AFV Boxed Resolution, with exact odds over the cards.

An attack that reaches an AFV is resolved on page 4 (Richard Irving, Up Front flow charts
v1.0, 2017; the seed's text for this page is garbled, docs/upfront.md "Page 4" restores it
box by box):

* **Unboxed** (a firepower attack, page 1; unboxed ordnance, page 2; artillery, page 5): a
  mortar whose To Hit RNC was black, or artillery, may make a CRITICAL HIT (this RNC Black 6:
  immobilized, stunned if hull down or immobilized; Black 5 against an open-topped AFV: AFV
  KIA); then FR > CE kills the commander (and the AFV buttons up), FR > MORALE buttons it up.
* **Boxed** (boxed ordnance, page 2): the ARMOR values, or the FLANK values when the AFV is
  bogged, immobilized, flanked or moving sideways; FR > k: AFV KIA; FR = s and i of the same
  value: a drawn RNC decides; FR = s: stunned (stunned again: KIA); FR = i: immobilized,
  stunned if hull down or immobilized.

FR is the Fire Result of a resolution card drawn for the AFV (the reading ``fr`` shared with
page 3: FFS + RN by default). Every judgement is a named reading with a default.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import Field

from firefight.chance import Chance, exact
from firefight.chance.distribution import Distribution
from firefight.core.modifier import Modifier
from firefight.errors import InputError
from firefight.rulesets.procedure import Procedure
from firefight.rulesets.upfront.afv_readings import (
    AFV_KIA_VP,
    AFV_RESULTS,
    CRITICAL_IMMOBILIZED_RN,
    CRITICAL_KIA_RN,
    MEANINGS,
    PAGE4,
    READS,
    STUNNED_PRINTED,
    AfvCondition,
    AfvReadings,
    AttackKind,
    Comparison,
    afv_man,
    defence_values,
)
from firefight.rulesets.upfront.cards import Card
from firefight.rulesets.upfront.men import Man
from firefight.rulesets.upfront.pool import CardInput, Pool, PoolState, pool_for
from firefight.translation import gettext as _

__all__ = [
    "AFV",
    "AFV_KIA_VP",
    "AFV_RESULTS",
    "CRITICAL_IMMOBILIZED_RN",
    "CRITICAL_KIA_RN",
    "MEANINGS",
    "PAGE4",
    "PROCEDURES",
    "READS",
    "STUNNED_PRINTED",
    "AfvCondition",
    "AfvInput",
    "AfvReadings",
    "AttackKind",
    "Cards",
    "Hit",
    "afv_facts",
    "afv_kia_vp",
    "afv_man",
    "critical_possible",
    "defence_values",
    "fire_result",
    "pool_without",
    "resolve_afv",
]
"""The names page 4's callers import from here (pages 1, 2 and 7), those of
:mod:`.afv_readings` included."""


def _beats(fr: int, value: int, comparison: Comparison) -> bool:
    return fr > value if comparison == "greater" else fr >= value


def _stun(effects: list[str], condition: AfvCondition, fr: int, inp: AfvReadings) -> None:
    """Page 4: "AFV Stunned. If Stunned > 6, KIA" (reading ``stunned``)."""
    if condition.stunned and (inp.stunned == "twice_kia" or fr > STUNNED_PRINTED):
        effects.append("AFV KIA (stunned twice)")
    else:
        effects.append("stunned")


def _immobilize(effects: list[str], condition: AfvCondition, fr: int, inp: AfvReadings) -> None:
    """Page 4: "AFV Immobilized, Stunned if Hull Down or Immobilized"."""
    if not condition.immobilized:
        effects.append("immobilized")
    if condition.hull_down or condition.immobilized:
        _stun(effects, condition, fr, inp)


def critical_possible(attack: AttackKind, to_hit: Card | None) -> bool:
    """Page 4: "Mortar Attack draws To Hit with Black RNC?" or "Artillery Attack?"."""
    if attack == "artillery":
        return True
    return attack == "mortar" and to_hit is not None and not to_hit.rn.red


@dataclass(frozen=True)
class Hit:
    """What reaches page 4: the AFV, the FFS, the kind of attack and its To Hit RNC (a
    mortar's or artillery's critical hit reads it)."""

    man: Man
    ffs: int
    attack: AttackKind
    to_hit: Card | None = None


@dataclass
class Cards:
    """The cards still to draw in this attack: the pool and its state, drawn in turn."""

    pool: Pool
    state: PoolState
    chance: Chance

    def next(self, label: str) -> Card | None:
        """The next card (None when the pile ran out and the attack ends)."""
        drawn = self.pool.draw(self.chance, self.state, label)
        if drawn is None:
            return None
        card, self.state = drawn
        return card


def fire_result(ffs: int, card: Card, inp: AfvReadings) -> int:
    """FR: FFS + the card's RN (``fr = ffs_plus_rn``) or the FFS alone."""
    return ffs + card.rn.value if inp.fr == "ffs_plus_rn" else ffs


def _critical(inp: AfvReadings, cards: Cards, hit: Hit, effects: list[str]) -> Card | None:
    """Page 4: CRITICAL HIT POSSIBLE: "This RNC Black 6?" and "This RNC Black 5 & OT AFV?".
    Returns the resolution card if it had to be drawn to read the critical hit."""
    assert hit.man.afv is not None
    chance = cards.chance
    chance.note("critical hit possible", f"{hit.attack} (page 4)")
    resolution = None
    this = hit.to_hit
    if inp.critical_card == "resolution" or this is None:
        resolution = this = cards.next(f"resolution card ({hit.man.id})")
    if this is None or this.rn.red:
        return resolution
    kills = (inp.ot == "open_topped") == hit.man.afv.open_topped
    if this.rn.value == CRITICAL_KIA_RN and kills:
        chance.note("critical hit", f"Black {CRITICAL_KIA_RN}: AFV KIA (page 4)")
        effects.append("AFV KIA (critical hit)")
    elif this.rn.value == CRITICAL_IMMOBILIZED_RN:
        chance.note("critical hit", f"Black {CRITICAL_IMMOBILIZED_RN} (page 4)")
        _immobilize(effects, AfvCondition.of(inp), 0, inp)
    return resolution


def _unboxed(inp: AfvReadings, cards: Cards, hit: Hit) -> str:
    """Page 4, AFV Unboxed Resolution."""
    assert hit.man.afv is not None
    condition = AfvCondition.of(inp)
    effects: list[str] = []
    resolution = None
    if critical_possible(hit.attack, hit.to_hit):
        resolution = _critical(inp, cards, hit, effects)
        killed = any(e.startswith("AFV KIA") for e in effects)
        if killed or (effects and inp.after_critical == "stop"):
            return ", ".join(effects)
    if resolution is None:
        resolution = cards.next(f"resolution card ({hit.man.id})")
    if resolution is None:
        return ", ".join(effects) or "no effect"
    fr = fire_result(hit.ffs, resolution, inp)
    ce, morale = hit.man.afv.ce, hit.man.morale
    if not condition.buttoned_up and _beats(fr, ce, inp.comparison):
        cards.chance.note("unboxed", f"FR {fr} > CE {ce}: commander KIA, buttoned up (page 4)")
        effects.extend(("commander KIA", "buttoned up"))
    elif not condition.buttoned_up and _beats(fr, morale, inp.comparison):
        cards.chance.note("unboxed", f"FR {fr} > MORALE {morale}: buttoned up (page 4)")
        effects.append("buttoned up")
    else:
        cards.chance.note("unboxed", f"FR {fr} against CE {ce} / MORALE {morale}: no effect")
    return ", ".join(effects) or "no effect"


def _boxed(inp: AfvReadings, cards: Cards, hit: Hit) -> str:
    """Page 4, AFV Boxed Resolution."""
    condition = AfvCondition.of(inp)
    side, values = defence_values(hit.man, condition)
    resolution = cards.next(f"resolution card ({hit.man.id})")
    if resolution is None:
        return "no effect"
    fr = fire_result(hit.ffs, resolution, inp)
    shown = f"FR {fr} against {side} k {values.k} s {values.s} i {values.i}"
    effects: list[str] = []
    if _beats(fr, values.k, inp.comparison):
        cards.chance.note("boxed", f"{shown}: FR > k, AFV KIA (page 4)")
        return "AFV KIA"
    if fr == values.s == values.i:
        cards.chance.note("boxed", f"{shown}: FR = s = i, draw an RNC (page 4)")
        card = cards.next(f"s/i card ({hit.man.id})")
        if card is None:
            return "no effect"
        if card.rn.red == (inp.tie == "red_stuns"):
            _stun(effects, condition, fr, inp)
        else:
            _immobilize(effects, condition, fr, inp)
    elif fr == values.s:
        cards.chance.note("boxed", f"{shown}: FR = s (page 4)")
        _stun(effects, condition, fr, inp)
    elif fr == values.i:
        cards.chance.note("boxed", f"{shown}: FR = i (page 4)")
        _immobilize(effects, condition, fr, inp)
    else:
        cards.chance.note("boxed", f"{shown}: no effect")
    return ", ".join(effects) or "no effect"


def resolve_afv(inp: AfvReadings, cards: Cards, hit: Hit) -> str:
    """Page 4 on one AFV: the rule itself (exact, sampled and replayed alike). The resolution
    card (and the s/i card) come from ``cards``."""
    if hit.attack == "boxed":
        return _boxed(inp, cards, hit)
    return _unboxed(inp, cards, hit)


class AfvInput(AfvReadings):
    """Page 4 on one AFV at a Final Fire Strength already worked out (page 1, 2 or 5)."""

    ffs: int = Field(ge=-20, le=60, description="The Final Fire Strength (FFS).")
    attack: AttackKind = Field(
        "boxed",
        description=(
            "The attack: firepower (page 1) or unboxed ordnance (page 2): unboxed resolution; "
            "mortar (unboxed; critical hit possible if its To Hit RNC was black) or artillery "
            "(page 5; critical hit possible); boxed ordnance: boxed resolution."
        ),
    )
    to_hit_card: int = Field(
        0,
        ge=0,
        le=100000,
        description=(
            "The To Hit RNC already drawn (inventory number; 0: none): a mortar's or "
            "artillery's critical hit reads it (critical_card = to_hit). It is out of the pool."
        ),
    )


def _to_hit_card(inp: AfvInput) -> Card | None:
    if inp.to_hit_card == 0:
        if inp.attack in ("mortar", "artillery") and inp.critical_card == "to_hit":
            raise InputError(
                "to_hit_card",
                "the To Hit RNC's inventory number with attack = mortar or artillery "
                "(critical_card = to_hit)",
                0,
            )
        return None
    deck = inp.deck_data()
    if not deck.has(inp.to_hit_card):
        raise InputError(
            "to_hit_card",
            _("an inventory number of {source}").format(source=deck.source),
            inp.to_hit_card,
        )
    return deck.card(inp.to_hit_card)


def pool_without(inp: CardInput, played: Sequence[int]) -> CardInput:
    """The input with the cards already drawn in this attack out of the observer's pool
    (seen); the omniscient pile must not hold them (they were drawn from it)."""
    if not played:
        return inp
    if inp.pool == "omniscient":
        for number in played:
            if number in inp.pile:
                raise InputError("to_hit_card", "a card no longer in the pile", number)
        return inp
    seen = (*inp.seen, *(n for n in played if n not in inp.seen))
    return inp.model_copy(update={"seen": seen})


def _afv_setup(inp: AfvInput) -> tuple[Hit, Pool]:
    """What page 4 reads before its first draw: the AFV, the To Hit RNC given (out of the
    pool) and the pool the resolution cards come from."""
    men = inp.men_data()
    man = afv_man(men, "afv", inp.afv)
    to_hit = _to_hit_card(inp)
    played = (to_hit.number,) if to_hit is not None else ()
    if to_hit is not None and to_hit.number in inp.hand:
        raise InputError("to_hit_card", "a card not in your hand", to_hit.number)
    return Hit(man, inp.ffs, inp.attack, to_hit), pool_for(pool_without(inp, played), READS)


def _afv_rule(inp: AfvInput, chance: Chance) -> str:
    hit, pool = _afv_setup(inp)
    return resolve_afv(inp, Cards(pool, pool.start, chance), hit)


def _afv_odds(inp: AfvInput) -> Distribution[str]:
    """Exact odds of :func:`_afv_rule`: its draws replayed (:func:`~firefight.chance.exact`)
    with what it reads before them worked out once, not once per branch."""
    hit, pool = _afv_setup(inp)
    return exact(lambda chance: resolve_afv(inp, Cards(pool, pool.start, chance), hit))


def afv_kia_vp(man: Man) -> str:
    """Page 4 and 7's "AFV KIA 10 + # VP": the sum when the men file gives the AFV card's #
    (``afv.vp``), the printed formula otherwise."""
    assert man.afv is not None
    if man.afv.vp is None:
        return f"{AFV_KIA_VP} + # VP (# printed on the AFV card; afv.vp not in the men file)"
    return f"{AFV_KIA_VP} + {man.afv.vp} = {AFV_KIA_VP + man.afv.vp} VP"


def afv_facts(inp: AfvReadings, man: Man, attack: AttackKind) -> list[tuple[str, str]]:
    """What page 4 reads of the AFV and its state."""
    assert man.afv is not None
    facts = [("deck", inp.deck_data().label), ("men", inp.men_data().label)]
    condition = AfvCondition.of(inp)
    if attack == "boxed":
        side, values = defence_values(man, condition)
        why = "bogged, immobilized, flanked or moving sideways" if side == "FLANK" else "front"
        facts.append((f"{side} values ({why})", f"k {values.k}, s {values.s}, i {values.i}"))
    else:
        facts.append(("unboxed: CE / MORALE", f"{man.afv.ce} / {man.morale}"))
        if attack in ("mortar", "artillery"):
            facts.append(("critical hit", "possible (mortar: if its To Hit RNC is black)"))
    facts.append(("open-topped", "yes" if man.afv.open_topped else "no"))
    facts.append(("AFV KIA", afv_kia_vp(man)))
    return facts


def _afv_facts(inp: AfvInput) -> Sequence[tuple[str, str]]:
    man = afv_man(inp.men_data(), "afv", inp.afv)
    facts = afv_facts(inp, man, inp.attack)
    facts.insert(2, ("FFS", str(inp.ffs)))
    return facts


def _no_modifiers(_: AfvInput) -> Sequence[Modifier]:
    return ()


AFV: Procedure[AfvInput] = Procedure(
    name="afv",
    title="AFV Unboxed / Boxed Resolution (page 4)",
    input_model=AfvInput,
    rule=_afv_rule,
    modifiers=_no_modifiers,
    facts=_afv_facts,
    outcome_order=AFV_RESULTS,
    meanings=MEANINGS,
    exact_odds=_afv_odds,
)

PROCEDURES = (AFV,)
