"""Page 5: Artillery (RADIO) and Demolition Charge attacks, ending in page 3's resolution on
each man, with exact odds over the unseen cards.

Artillery: play a RADIO card for the nationality; To Hit = Black 0-6 (Black #-6 when the
defender plays a CONCEALMENT, # its value: reading ``concealment``); Strength = 8; draw the
To Hit RNC: a malfunction breaks the radio (no attack), a miss is no attack; a hit modifies
the strength by the defender's TEM (woods TEM = 0) and wire/movement for the final strength,
then page 3 on each man.

Demolition Charge: the man carrying the DC has infiltrated (page 8, taken as given); draw the
RNC for the first man: 6 is a malfunction (the DC is removed, no effect); otherwise FS = 5,
minus a CONCEALMENT, plus the defender's wire/movement, page 3 on the first man with that same
card, then on the remaining men and on the other attackers infiltrating the group; the DC is
removed. docs/upfront.md ("Page 5") lists every reading.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import ClassVar, Literal, TypeVar

from pydantic import Field

from firefight.chance import Chance
from firefight.chance.distribution import Distribution
from firefight.core.modifier import Modifier, ModifierKind
from firefight.errors import InputError
from firefight.rulesets.upfront.cards import Card
from firefight.rulesets.upfront.group import GroupOdds, GroupProcedure, group_odds
from firefight.rulesets.upfront.lists import ManIds, split
from firefight.rulesets.upfront.men import MenData
from firefight.rulesets.upfront.pool import Pool, men_by_id, pool_for
from firefight.rulesets.upfront.printed import (
    ARTILLERY_HIT_HIGH,
    ARTILLERY_HIT_LOW,
    ARTILLERY_STRENGTH,
    ARTILLERY_WOODS_TEM,
    DC_MALFUNCTION_RN,
    DC_STRENGTH,
)
from firefight.rulesets.upfront.resolution import (
    MAN_RESULTS,
    RESULT_MEANINGS,
    Readings,
    Tally,
    Target,
    data_facts,
    man_result,
    reads_for,
    resolve_group,
    tally_add,
    targets,
)
from firefight.translation import N_
from firefight.translation import gettext as _

__all__ = [
    "ARTILLERY",
    "DEMOLITION",
    "PROCEDURES",
    "UpFrontArtillery",
    "UpFrontDemolition",
    "artillery_strength",
    "demolition_strength",
    "to_hit",
]

I = TypeVar("I", bound=Readings)  # noqa: E741 - as in firefight.rulesets.procedure
PAGE5 = "Up Front flow charts, page 5"
RADIO_BREAKS = "radio breaks (no attack)"
MISS = "miss (no attack)"
DC_MALFUNCTION = "DC malfunctions (removed, no effect)"
ARTILLERY_OUTCOMES = (*MAN_RESULTS, MISS, RADIO_BREAKS)
DEMOLITION_OUTCOMES = (*MAN_RESULTS, DC_MALFUNCTION)
NO_MALFUNCTION = 7
"""A radio malfunction number above every RN (0-6): the radio never breaks."""

ConcealmentReading = Literal["to_hit", "strength"]
WoodsReading = Literal["zero", "printed"]
DcMalfunction = Literal["any_6", "red_6"]


class _PageFive(Readings):
    """What both attacks of page 5 share: the defender's wire/movement and the concealment."""

    rr: int = Field(0, ge=0, le=5, description="The Relative Range (berserk only at RR 5).")
    defender_wire_movement: int = Field(
        0,
        ge=-9,
        le=9,
        description="The defender's wire and movement modifiers, added to the strength (page 5).",
    )
    concealment: int = Field(
        0, ge=0, le=6, description="The value of a CONCEALMENT card the defender plays (0: none)."
    )


class UpFrontArtillery(_PageFive):
    """An artillery attack called by RADIO (page 5), then page 3 on each man."""

    readings: ClassVar[frozenset[str]] = frozenset({"malfunction", "concealment_reading"})
    """The fields that read the rules where they are silent (folded apart on the web)."""

    attack: Literal["artillery"] = Field(
        "artillery", description="An artillery attack: no weapon malfunction check (page 3)."
    )

    defender_tem: int = Field(
        0,
        ge=-9,
        le=9,
        description="The defender's terrain TEM, added to the strength (woods: see woods).",
    )
    woods: bool = Field(False, description="The defender is in woods: its TEM counts 0 (page 5).")
    woods_tem: WoodsReading = Field(
        "zero",
        description=(
            "Page 5's '*Woods TEM = 0': zero (the footnote is artillery's, on its Defender "
            "TEM box) or printed (the woods card's TEM counts as given in defender_tem)."
        ),
    )
    concealment_reading: ConcealmentReading = Field(
        "to_hit",
        description=(
            "A CONCEALMENT against artillery: to_hit (To Hit = Black #-6, # its value, as "
            "page 5 prints beside it and page 2 subtracts # from the To Hit) or strength "
            "(the strength minus its value, as page 5's DC column)."
        ),
    )
    radio_malfunction: int = Field(
        6,
        ge=0,
        le=NO_MALFUNCTION,
        description=(
            "The radio's malfunction number (printed on the RADIO card, not public): a To Hit "
            "RNC at least it (red only under malfunction_check = red_at_least) breaks the "
            "radio; 7: never."
        ),
    )


def to_hit(inp: UpFrontArtillery) -> tuple[int, int]:
    """The black RNs that hit: 0-6, or #-6 with a CONCEALMENT read against the To Hit."""
    low = ARTILLERY_HIT_LOW
    if inp.concealment_reading == "to_hit":
        low = max(low, inp.concealment)
    return low, ARTILLERY_HIT_HIGH


def artillery_strength(inp: UpFrontArtillery) -> tuple[int, tuple[Modifier, ...]]:
    """The final strength: 8, the defender's TEM (woods 0), wire/movement, a CONCEALMENT
    subtracted under concealment_reading = strength."""
    modifiers = [
        Modifier("artillery strength", Fraction(ARTILLERY_STRENGTH), ModifierKind.VALUE, PAGE5)
    ]
    tem = inp.defender_tem
    if inp.woods and inp.woods_tem == "zero":
        tem = ARTILLERY_WOODS_TEM
        modifiers.append(Modifier("woods TEM = 0", Fraction(0), ModifierKind.VALUE, PAGE5))
    if tem:
        modifiers.append(Modifier("defender TEM", Fraction(tem), ModifierKind.VALUE, PAGE5))
    if inp.defender_wire_movement:
        modifiers.append(
            Modifier(
                "defender wire/movement",
                Fraction(inp.defender_wire_movement),
                ModifierKind.VALUE,
                PAGE5,
            )
        )
    if inp.concealment and inp.concealment_reading == "strength":
        modifiers.append(
            Modifier("CONCEALMENT", Fraction(-inp.concealment), ModifierKind.VALUE, PAGE5)
        )
    return int(sum(m.value for m in modifiers)), tuple(modifiers)


def _no_smoke(inp: Readings) -> None:
    if inp.smoke:
        raise InputError("smoke", "0 (page 5's strengths count no smoke)", inp.smoke)


def _radio_breaks(card: Card, inp: UpFrontArtillery) -> bool:
    if inp.malfunction_check == "red_at_least" and not card.rn.red:
        return False
    return card.rn.value >= inp.radio_malfunction


def _hits(card: Card, inp: UpFrontArtillery) -> bool:
    low, high = to_hit(inp)
    return not card.rn.red and low <= card.rn.value <= high


def _after(inp: I, number: int) -> I:
    """The same input once the card ``number`` has been drawn from the pool: seen by the
    observer, gone from the omniscient pile; a discard either way (back in a reshuffle)."""
    if inp.pool == "omniscient":
        pile = tuple(n for n in inp.pile if n != number)
        return inp.model_copy(update={"pile": pile})
    return inp.model_copy(update={"seen": (*inp.seen, number)})


def _outcome(results: Sequence[str], single: bool) -> str:
    return results[0] if single else Tally.of(results).text()


def _artillery_rule(inp: UpFrontArtillery, chance: Chance) -> str:
    _no_smoke(inp)
    group = targets(inp, inp.men_data())
    pool = pool_for(inp, reads_for(inp))
    drawn = pool.draw(chance, pool.start, "To Hit RNC")
    if drawn is None:
        return MISS
    card, _ = drawn
    if _radio_breaks(card, inp):
        chance.note("RNC = Malf", f"RN {card.rn}: break radio, no attack")
        return RADIO_BREAKS
    if not _hits(card, inp):
        low, high = to_hit(inp)
        chance.note("RNC = Hit?", f"RN {card.rn}: not Black {low}-{high}, no attack")
        return MISS
    ffs, _ = artillery_strength(inp)
    chance.note("hit", f"RN {card.rn}: final strength {ffs}")
    results = resolve_group(_after(inp, card.number), chance, ffs, inp.rr, group, ())
    return _outcome(results, len(group) == 1)


def _signature(card: Card, group: Sequence[Target], ffs: int, inp: _PageFive) -> tuple[str, ...]:
    """What page 3 reads of a card, for this group: cards alike here leave equal odds."""
    return tuple(man_result(t, ffs, inp.rr, card, inp) for t in group)


def _first_classes(pool: Pool) -> list[tuple[Card, int]]:
    """The classes the attack's first card is drawn from, with their counts: the pool, or
    the reshuffled discards when the pool is empty (``reshuffle = discards``, as
    :meth:`Pool.draw`); empty when the attack cannot draw."""
    state = pool.start
    if state.size == 0 and pool.reshuffle == "discards":
        state = pool.refill
    return [(pool.data.card(m[0]), len(m)) for m in state.classes if m]


def _mix(
    into: dict[str, Fraction],
    walk: GroupOdds,
    weight: Fraction,
    single: bool,
    first: str | None,
) -> None:
    """Add a group walk's outcomes at ``weight``: one man's result when the group is one man
    (a :class:`Tally` keeps losses only, so the man's own odds name it), else the tally's
    text, with ``first`` (the first man's result, read from the DC's first card) added."""
    if single and first is None:
        for result, p in walk.men[0][1].items():
            into[result] = into.get(result, Fraction(0)) + weight * p
        return
    for tally, p in walk.tally.items():
        found = tally if first is None else Tally(tally_add(tally.counts, MAN_RESULTS.index(first)))
        key = found.text()
        into[key] = into.get(key, Fraction(0)) + weight * p


def artillery_odds(inp: UpFrontArtillery) -> Distribution[str]:
    """Exact odds of :func:`_artillery_rule`: the To Hit card, then page 3 on the group over
    the pool without it (cards page 3 reads alike for this group give equal odds, so one
    group walk per kind of hit card)."""
    _no_smoke(inp)
    group = targets(inp, inp.men_data())
    pool = pool_for(inp, reads_for(inp))
    classes = _first_classes(pool)
    if not classes:
        return Distribution({MISS: Fraction(1)})
    ffs, _ = artillery_strength(inp)
    size = sum(count for _, count in classes)
    odds: dict[str, Fraction] = {}
    hits: dict[tuple[str, ...], tuple[int, int]] = {}
    for card, count in classes:
        weight = Fraction(count, size)
        if _radio_breaks(card, inp):
            odds[RADIO_BREAKS] = odds.get(RADIO_BREAKS, Fraction(0)) + weight
        elif not _hits(card, inp):
            odds[MISS] = odds.get(MISS, Fraction(0)) + weight
        else:
            key = _signature(card, group, ffs, inp)
            number, before = hits.get(key, (card.number, 0))
            hits[key] = (number, before + count)
    for number, count in hits.values():
        walk = group_odds(_after(inp, number), ffs, inp.rr, group, ())
        _mix(odds, walk, Fraction(count, size), len(group) == 1, None)
    return Distribution(odds)


def _artillery_modifiers(inp: UpFrontArtillery) -> Sequence[Modifier]:
    return artillery_strength(inp)[1]


def _artillery_facts(inp: UpFrontArtillery) -> Sequence[tuple[str, str]]:
    facts = data_facts(inp)
    low, high = to_hit(inp)
    facts.append(("RADIO card", "played for the nationality (page 5)"))
    facts.append(("To Hit", f"Black {low}-{high}"))
    if inp.radio_malfunction < NO_MALFUNCTION:
        colour = "red " if inp.malfunction_check == "red_at_least" else ""
        low = inp.radio_malfunction
        shown = f"{colour}RN {low}" + (
            "" if low == ARTILLERY_HIT_HIGH else f"-{ARTILLERY_HIT_HIGH}"
        )
        facts.append(("radio breaks", shown))
    facts.append(("final strength", str(artillery_strength(inp)[0])))
    pool = pool_for(inp, reads_for(inp))
    facts.append(("pool", f"{inp.pool}: {pool.start.size} cards"))
    return facts


ARTILLERY: GroupProcedure[UpFrontArtillery] = GroupProcedure(
    name="artillery",
    title="Artillery (RADIO) attack (page 5) and resolution on each man (page 3)",
    input_model=UpFrontArtillery,
    rule=_artillery_rule,
    modifiers=_artillery_modifiers,
    facts=_artillery_facts,
    outcome_order=ARTILLERY_OUTCOMES,
    meanings={
        **RESULT_MEANINGS,
        MISS: "the To Hit RNC is not a hit: no attack (page 5)",
        RADIO_BREAKS: "the To Hit RNC is a malfunction: the radio breaks, no attack (page 5)",
    },
    exact_odds=artillery_odds,
)


class UpFrontDemolition(_PageFive):
    """A Demolition Charge attack by an infiltrated man (page 5), then page 3 on each man."""

    readings: ClassVar[frozenset[str]] = frozenset({"malfunction"})
    """The fields that read the rules where they are silent (folded apart on the web)."""

    attack: Literal["dc"] = Field(
        "dc", description="A DC attack: no weapon malfunction check (page 3)."
    )

    carrier: str = Field(
        "ger-rifle-2",
        max_length=40,
        description=(
            "The infiltrated man carrying the DC (id; his infiltration, page 8, is taken as "
            "successful): not resolved on."
        ),
    )
    other_infiltrators: ManIds = Field(
        (),
        description=(
            "Other attackers infiltrating the target group (ids): resolved on after the "
            "defenders (page 5)."
        ),
    )
    dc_malfunction: DcMalfunction = Field(
        "any_6",
        description=(
            "'First RNC = 6? Malf': any_6 (an RN 6 of either colour, as printed) or red_6 "
            "(red 6 only, as page 3's malfunction check reads colour)."
        ),
    )


def demolition_strength(inp: UpFrontDemolition) -> tuple[int, tuple[Modifier, ...]]:
    """FS = 5, minus a CONCEALMENT, plus the defender's wire/movement (page 5)."""
    modifiers = [Modifier("DC strength", Fraction(DC_STRENGTH), ModifierKind.VALUE, PAGE5)]
    if inp.concealment:
        modifiers.append(
            Modifier("CONCEALMENT", Fraction(-inp.concealment), ModifierKind.VALUE, PAGE5)
        )
    if inp.defender_wire_movement:
        modifiers.append(
            Modifier(
                "defender wire/movement",
                Fraction(inp.defender_wire_movement),
                ModifierKind.VALUE,
                PAGE5,
            )
        )
    return int(sum(m.value for m in modifiers)), tuple(modifiers)


def _dc_group(inp: UpFrontDemolition, men: MenData) -> tuple[Target, ...]:
    """The defenders (page 3's order), then the other infiltrating attackers."""
    group = targets(inp, men)
    carrier = men_by_id(men, "carrier", split(inp.carrier))
    if len(carrier) != 1:
        raise InputError("carrier", _("one id of {source}").format(source=men.source), inp.carrier)
    ids = {t.man.id for t in group}
    if carrier[0] in ids:
        raise InputError("carrier", "an attacker, not one of the targets", inp.carrier)
    others: list[Target] = []
    if inp.other_infiltrators:
        for man_id in men_by_id(men, "other_infiltrators", inp.other_infiltrators):
            if man_id in ids or man_id == carrier[0] or man_id in {t.man.id for t in others}:
                allowed = N_("attackers other than the carrier and the targets, each once")
                raise InputError("other_infiltrators", allowed, man_id)
            man = men.man(man_id)
            if inp.kia_on == "man" and man.kia is None:
                raise InputError("other_infiltrators", "men with a kia (kia_on = man)", man_id)
            others.append(Target(man, False, False, False))
    return (*group, *others)


def _dc_malfunctions(card: Card, inp: UpFrontDemolition) -> bool:
    if inp.dc_malfunction == "red_6" and not card.rn.red:
        return False
    return card.rn.value == DC_MALFUNCTION_RN


def _demolition_rule(inp: UpFrontDemolition, chance: Chance) -> str:
    _no_smoke(inp)
    group = _dc_group(inp, inp.men_data())
    pool = pool_for(inp, reads_for(inp))
    first = group[0]
    drawn = pool.draw(chance, pool.start, f"RNC for first man ({first.man.id})")
    if drawn is None:
        return DC_MALFUNCTION
    card, _ = drawn
    if _dc_malfunctions(card, inp):
        chance.note("first RNC = 6", "Malf: remove DC, no effect")
        return DC_MALFUNCTION
    ffs, _ = demolition_strength(inp)
    result = man_result(first, ffs, inp.rr, card, inp)
    chance.note(f"man 1 ({first.man.id})", f"FFS {ffs}, same card: {result}")
    rest = resolve_group(_after(inp, card.number), chance, ffs, inp.rr, group[1:], ())
    chance.note("DC", "removed")
    return _outcome([result, *rest], len(group) == 1)


def demolition_odds(inp: UpFrontDemolition) -> Distribution[str]:
    """Exact odds of :func:`_demolition_rule`: the first card (malfunction, or the first
    man's result), then page 3 on the others over the pool without it."""
    _no_smoke(inp)
    group = _dc_group(inp, inp.men_data())
    pool = pool_for(inp, reads_for(inp))
    classes = _first_classes(pool)
    if not classes:
        return Distribution({DC_MALFUNCTION: Fraction(1)})
    ffs, _ = demolition_strength(inp)
    size = sum(count for _, count in classes)
    odds: dict[str, Fraction] = {}
    kinds: dict[tuple[str, ...], tuple[int, int]] = {}
    for card, count in classes:
        if _dc_malfunctions(card, inp):
            odds[DC_MALFUNCTION] = odds.get(DC_MALFUNCTION, Fraction(0)) + Fraction(count, size)
            continue
        key = _signature(card, group, ffs, inp)
        number, before = kinds.get(key, (card.number, 0))
        kinds[key] = (number, before + count)
    single = len(group) == 1
    for key, (number, count) in kinds.items():
        weight = Fraction(count, size)
        if single:
            odds[key[0]] = odds.get(key[0], Fraction(0)) + weight
            continue
        walk = group_odds(_after(inp, number), ffs, inp.rr, group[1:], ())
        _mix(odds, walk, weight, single, key[0])
    return Distribution(odds)


def _demolition_modifiers(inp: UpFrontDemolition) -> Sequence[Modifier]:
    return demolition_strength(inp)[1]


def _demolition_facts(inp: UpFrontDemolition) -> Sequence[tuple[str, str]]:
    facts = data_facts(inp)
    facts.append(("DC carrier", f"{inp.carrier} (infiltrated: page 8, taken as given)"))
    facts.append(
        ("DC malfunction", "first RNC 6" + (" red" if inp.dc_malfunction == "red_6" else ""))
    )
    facts.append(("final strength", str(demolition_strength(inp)[0])))
    order = ", ".join(t.man.id for t in _dc_group(inp, inp.men_data()))
    facts.append(("resolved on", order))
    return facts


DEMOLITION: GroupProcedure[UpFrontDemolition] = GroupProcedure(
    name="demolition",
    title="Demolition Charge attack (page 5) and resolution on each man (page 3)",
    input_model=UpFrontDemolition,
    rule=_demolition_rule,
    modifiers=_demolition_modifiers,
    facts=_demolition_facts,
    outcome_order=DEMOLITION_OUTCOMES,
    meanings={
        **RESULT_MEANINGS,
        DC_MALFUNCTION: "the first RNC is 6: the DC malfunctions, is removed, no effect (page 5)",
    },
    exact_odds=demolition_odds,
)

PROCEDURES = (ARTILLERY, DEMOLITION)
