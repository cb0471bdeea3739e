"""Page 8: infiltration attempts, close combat against infantry and against an AFV, and
morale checks, with exact odds over the cards still unseen.

Every draw reads only a card's RN value ("RNC = Color of RNC N/A. Check only value", page 8)
or the colour of one RPN ("Infiltrate, if RPNC is Red"). The morale check and the infiltration
read their cards at the level of the decision (RN at most a morale, a red RPN), so that cards
the rule cannot tell apart are one class and the exact odds stay small (docs/upfront.md,
"Page 8").
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Literal

from pydantic import Field

from firefight.chance import Chance
from firefight.chance.distribution import Distribution
from firefight.core.modifier import Modifier, ModifierKind
from firefight.errors import InputError, RuleError
from firefight.i18n import gettext as _
from firefight.rulesets.procedure import Procedure
from firefight.rulesets.upfront.cards import Card
from firefight.rulesets.upfront.group import GroupProcedure
from firefight.rulesets.upfront.infiltration_walk import Infiltration, walk
from firefight.rulesets.upfront.lists import ManIds, shown, split
from firefight.rulesets.upfront.men import Man
from firefight.rulesets.upfront.pool import CardInput, Pool, PoolState, Reads, men_by_id, pool_for
from firefight.rulesets.upfront.printed import (
    CC_AFV_ADJACENT_UNPINNED_MORE_THAN,
    CC_AFV_ATTACKER_KIA_AT_MOST,
    CC_AFV_IMMOBILIZED,
    CC_AFV_KIA_AT_LEAST,
    CC_AFV_MODIFIERS,
    CC_WIN_MARGIN,
    CCV_EXTRA_ATTACKER,
    CCV_JAPANESE,
    CCV_PINNED,
    CCV_PRISONER,
    CCV_SECONDARY,
    CCV_UNATTACKED_CREWMAN,
    CCV_WEAPON,
    INFILTRATION_MAX,
    INFILTRATION_MIN,
    INFILTRATION_RPN,
    INFILTRATION_VS_AFV,
)
from firefight.rulesets.upfront.resolution import data_facts

__all__ = [
    "CLOSE_COMBAT",
    "CLOSE_COMBAT_AFV",
    "INFILTRATION",
    "MORALE_CHECK",
    "PROCEDURES",
    "cc_afv_band",
    "ccv",
    "infiltration_count",
    "passes_morale",
]

PAGE8 = "Up Front flow charts, page 8"
MoralePass = Literal["at_most", "below"]
MORALE_MEN_MAX = 10
"""The most men one morale check procedure takes (10 take 0.16 s here)."""
INFILTRATORS_MAX = 10
"""The most infiltrators one infiltration procedure takes: a full group. Exact odds by
:mod:`.infiltration_walk` (the morale checks and the RPNCs counted apart), measured here
(docs/upfront.md, Figures): 10 men of seven morale classes with a Hero over the 162-card pool
in 0.03 to 0.08 s, over any smaller pile (reshuffled) at most 0.12 s, where the walk card by
card took 2.4 s for 3 such men and past 60 s for 4; past 10, a one-line refusal. The walk pays
the web's work budget (:data:`.infiltration_walk.STEPS_PER_MOVE`)."""
RN_ONLY = Reads(rn=True)


@dataclass(frozen=True)
class _DecisionReads(Reads):
    """Reads a card at the level of the decisions a rule makes: whether its RN is at most each
    of ``thresholds``, and the colour of the RPNs in ``rpn_colour``. The trace still shows the
    card's RN and RPN colours as printed."""

    thresholds: tuple[int, ...] = ()

    def __call__(self, card: Card) -> Hashable:
        return (
            tuple(card.rn.value <= t for t in self.thresholds),
            tuple(card.rpn[c].colour for c in self.rpn_colour),
        )


def passes_morale(rn: int, morale: int, reading: MoralePass) -> bool:
    """Page 8, "RNC < Morale?" (the sign lost; restored as <=): the man passes on an RN at
    most his morale (``at_most``, default) or below it (``below``)."""
    return rn <= morale if reading == "at_most" else rn < morale


def _threshold(morale: int, reading: MoralePass) -> int:
    return morale if reading == "at_most" else morale - 1


class _MoraleReading(CardInput):
    morale_pass: MoralePass = Field(
        "at_most",
        description=(
            "Page 8 'RNC < Morale?' with its sign lost: at_most (passes on RN <= morale; the "
            "page's other '<' read as <=) or below (RN < morale)."
        ),
    )


def _men(inp: CardInput, field_name: str, given: Sequence[str], most: int) -> tuple[Man, ...]:
    data = inp.men_data()
    ids = men_by_id(data, field_name, given)
    if len(ids) > most:
        raise InputError(field_name, f"1 to {most} ids", shown(given))
    men = tuple(data.man(i) for i in ids)
    for man in men:
        if man.afv is not None:
            raise InputError(field_name, "infantry men (not an AFV)", man.id)
    return men


def _draw(pool: Pool, chance: Chance, state: PoolState, label: str) -> tuple[Card, PoolState]:
    drawn = pool.draw(chance, state, label)
    if drawn is None:
        raise _OutOfCards
    return drawn


class _OutOfCards(Exception):  # noqa: N818 - a control-flow signal, not an error
    """The pool ran out with reshuffle = end_attack."""


def class_options(
    cards: Sequence[Card | None],
    counts: tuple[int, ...],
    refill: tuple[int, ...],
    reshuffle: str,
) -> list[tuple[Card, Fraction, tuple[int, ...]]] | None:
    """For an exact walk over pool states: each class that may be drawn next (a card of it,
    its chance, the counts left), the reshuffle applied as :meth:`.pool.Pool.draw` applies
    it; None when the attack ends (the pile ran out with reshuffle = end_attack)."""
    size = sum(counts)
    if size == 0:
        if reshuffle == "end_attack" or sum(refill) == 0:
            return None
        counts, size = refill, sum(refill)
    found = []
    for index, count in enumerate(counts):
        card = cards[index]
        if count and card is not None:
            left = (*counts[:index], count - 1, *counts[index + 1 :])
            found.append((card, Fraction(count, size), left))
    return found


def class_cards(pool: Pool) -> list[Card | None]:
    """A card of each class of ``pool`` (in the pool's class order; None for an empty class)."""
    return [
        pool.data.card((left or again)[0]) if (left or again) else None
        for left, again in zip(pool.start.classes, pool.refill.classes, strict=True)
    ]


_Counts = tuple[int, ...]


def _plus(tally: _Counts, index: int, n: int = 1) -> _Counts:
    return (*tally[:index], tally[index] + n, *tally[index + 1 :])


def _merge(table: dict[_Counts, Fraction], tally: _Counts, weight: Fraction) -> None:
    table[tally] = table.get(tally, Fraction(0)) + weight


def _named(tally: _Counts, names: Sequence[str], shown: Sequence[str]) -> str:
    """The outcome text of a tally of results: one man's result, or the group's counts."""
    if sum(tally) == 1:
        return names[tally.index(1)]
    by = dict(zip(names, tally, strict=True))
    return ", ".join(f"{name} {by[name]}" for name in shown)


def _tally(results: Sequence[str], order: Sequence[str]) -> str:
    return ", ".join(f"{name} {sum(1 for r in results if r == name)}" for name in order)


# ---------------------------------------------------------------------------------------
# Morale check


class UpFrontMoraleCheck(_MoraleReading):
    """Page 8, Morale Check: each man draws an RNC; RNC <= morale passes, otherwise the man
    is pinned ("MAN PINNED. Flip to pinned side")."""

    men_checked: ManIds = Field(
        ("ger-rifle-1",),
        description=f"The men who check, ids from the men file (1 to {MORALE_MEN_MAX}).",
    )


def _morale_reads(inp: _MoraleReading, men: Sequence[Man], rpn: tuple[int, ...] = ()) -> Reads:
    thresholds = tuple(sorted({_threshold(m.morale, inp.morale_pass) for m in men}))
    return _DecisionReads(rn=True, rpn_colour=rpn, thresholds=thresholds)


def _morale_rule(inp: UpFrontMoraleCheck, chance: Chance) -> str:
    men = _men(inp, "men_checked", inp.men_checked, MORALE_MEN_MAX)
    pool = pool_for(inp, _morale_reads(inp, men))
    state = pool.start
    results = []
    try:
        for position, man in enumerate(men, 1):
            card, state = _draw(pool, chance, state, f"morale check, man {position} ({man.id})")
            passed = passes_morale(card.rn.value, man.morale, inp.morale_pass)
            sign = "<=" if inp.morale_pass == "at_most" else "<"
            verdict = "passed" if passed else "pinned"
            chance.note(man.id, f"RN {card.rn.value} {sign} morale {man.morale}? {verdict}")
            results.append(verdict)
    except _OutOfCards:
        results.extend("not checked" for _ in men[len(results) :])
    if len(men) == 1:
        return results[0]
    return _tally(results, ("passed", "pinned"))


MORALE_RESULTS = ("passed", "pinned", "not checked")


def _morale_odds(inp: UpFrontMoraleCheck) -> Distribution[str]:
    """Exact odds of :func:`_morale_rule`: the same steps walked over pool states, equal
    states evaluated once (tested equal to prefix replay of the rule)."""
    men = _men(inp, "men_checked", inp.men_checked, MORALE_MEN_MAX)
    pool = pool_for(inp, _morale_reads(inp, men))
    cards, refill = class_cards(pool), pool.refill.counts()
    empty = (0,) * len(MORALE_RESULTS)

    @cache
    def walk(counts: _Counts, position: int) -> dict[_Counts, Fraction]:
        rest = len(men) - position
        if rest == 0:
            return {empty: Fraction(1)}
        drawn = class_options(cards, counts, refill, inp.reshuffle)
        if drawn is None:
            return {_plus(empty, 2, rest): Fraction(1)}
        table: dict[_Counts, Fraction] = {}
        for card, chance, left in drawn:
            passed = passes_morale(card.rn.value, men[position].morale, inp.morale_pass)
            for tally, weight in walk(left, position + 1).items():
                _merge(table, _plus(tally, 0 if passed else 1), chance * weight)
        return table

    odds: dict[str, Fraction] = {}
    for tally, weight in walk(pool.start.counts(), 0).items():
        name = _named(tally, MORALE_RESULTS, MORALE_RESULTS[:2])
        odds[name] = odds.get(name, Fraction(0)) + weight
    return Distribution(odds)


def _morale_facts(inp: UpFrontMoraleCheck) -> Sequence[tuple[str, str]]:
    facts = data_facts(inp)
    sign = "<=" if inp.morale_pass == "at_most" else "<"
    facts.append(("passes", f"RN {sign} morale (page 8; colour not read)"))
    return facts


# ---------------------------------------------------------------------------------------
# Infiltration

Terrain = Literal["none", "brush", "open", "woods", "hill"]
AfvStatus = Literal["buttoned_up", "crew_exposed", "open_topped"]


class UpFrontInfiltration(_MoraleReading):
    """Page 8, Infiltration Attempt: each infiltrator passes a morale check, then draws an
    RPNC; he infiltrates if the RPN under the column of the count is red; otherwise he is
    pinned and loses infiltration (a Hero card lets one man retry)."""

    infiltrators: ManIds = Field(
        ("ger-rifle-1",),
        description=f"The men attempting infiltration (ids, 1 to {INFILTRATORS_MAX}).",
    )
    target: Literal["infantry", "afv"] = Field(
        "infantry", description="The opposing group: infantry or an AFV (page 8 footnote)."
    )
    unpinned_defenders: int = Field(
        1,
        ge=0,
        le=10,
        description="Infantry target: the number of unpinned men in the opposing group.",
    )
    afv_status: AfvStatus = Field(
        "buttoned_up",
        description=(
            "AFV target: start with 2 (buttoned_up), 4 (crew_exposed) or 5 (open_topped "
            "with infantry)."
        ),
    )
    night: bool = Field(False, description="Night: +3.")
    smoke: int = Field(0, ge=0, le=2, description="SMOKE cards on either group (A/D): +2 each.")
    from_terrain: Terrain = Field(
        "none",
        description="The terrain infiltrated from: brush +2, open (ground) +2, woods +1, hill +1.",
    )
    pillbox: bool = Field(False, description="Vs. pillbox: +1.")
    jungle: bool = Field(False, description="Jungle scenario: +1.")
    commander_kia: int = Field(0, ge=0, le=3, description="Vs. AFV: +1 per commander KIA.")
    morale_check: Literal["each", "none"] = Field(
        "each",
        description=(
            "each (every infiltrator first passes a morale check, failing: pinned; the chart's "
            "MORALE CHECK box) or none (the RPNC alone decides)."
        ),
    )
    hero: bool = Field(
        False,
        description="A Hero is played: the first man whose RPNC is black draws it again.",
    )


def infiltration_count(inp: UpFrontInfiltration, japanese: bool) -> tuple[int, list[str]]:
    """Page 8's RPNC column: the start (unpinned defenders, or 2/4/5 against an AFV) plus every
    printed addition, clamped to 1..10; with the items, for the trace."""
    if inp.target == "afv":
        count = INFILTRATION_VS_AFV[inp.afv_status]
        items = [f"start {count} (AFV {inp.afv_status.replace('_', ' ')})"]
    else:
        count = inp.unpinned_defenders
        items = [f"start {count} (unpinned defenders)"]
    adds: list[tuple[str, int]] = []
    if inp.night:
        adds.append(("night", INFILTRATION_RPN["night"]))
    if inp.smoke:
        adds.append((f"smoke x{inp.smoke}", INFILTRATION_RPN["smoke"] * inp.smoke))
    if inp.from_terrain != "none":
        adds.append((f"from {inp.from_terrain}", INFILTRATION_RPN[inp.from_terrain]))
    if inp.pillbox:
        adds.append(("vs pillbox", INFILTRATION_RPN["pillbox"]))
    if japanese:
        adds.append(("Japanese", INFILTRATION_RPN["japanese"]))
    if inp.jungle:
        adds.append(("jungle", INFILTRATION_RPN["jungle"]))
    if inp.commander_kia:
        if inp.target != "afv":
            raise InputError("commander_kia", "0 unless target = afv", inp.commander_kia)
        adds.append(
            (
                f"commander KIA x{inp.commander_kia}",
                INFILTRATION_RPN["commander_kia"] * inp.commander_kia,
            )
        )
    for name, value in adds:
        count += value
        items.append(f"{name} +{value}")
    clamped = min(INFILTRATION_MAX, max(INFILTRATION_MIN, count))
    if clamped != count:
        items.append(f"{count} -> {clamped} (min 1, max 10)")
    return clamped, items


def _column(count: int) -> int:
    """The RPN column read for a count: 1-9 as is, 10 in column 0 (the tenth, "0r")."""
    return count % 10


def _infiltration_setup(inp: UpFrontInfiltration) -> tuple[tuple[Man, ...], int, list[str]]:
    men = _men(inp, "infiltrators", inp.infiltrators, INFILTRATORS_MAX)
    if len({m.nationality for m in men}) > 1:
        raise InputError("infiltrators", "men of one nationality", shown(inp.infiltrators))
    count, items = infiltration_count(inp, men[0].nationality == "japanese")
    return men, count, items


INFILTRATION_RESULTS = ("infiltrated", "pinned (morale check)", "pinned", "not attempted")


def _infiltration_rule(inp: UpFrontInfiltration, chance: Chance) -> str:
    men, count, _ = _infiltration_setup(inp)
    column = _column(count)
    checked = men if inp.morale_check == "each" else ()
    pool = pool_for(inp, _morale_reads(inp, checked, (column,)))
    label = pool.data.columns[column]
    state = pool.start
    hero = inp.hero
    results: list[str] = []
    try:
        for position, man in enumerate(men, 1):
            if inp.morale_check == "each":
                card, state = _draw(pool, chance, state, f"morale check, man {position}")
                if not passes_morale(card.rn.value, man.morale, inp.morale_pass):
                    chance.note(man.id, f"RN {card.rn.value} fails morale {man.morale}: pinned")
                    results.append("pinned (morale check)")
                    continue
            card, state = _draw(pool, chance, state, f"infiltration RPNC, man {position}")
            red = card.rpn[column].red
            if not red and hero:
                hero = False
                chance.note(man.id, f"RPN({label}) black: the Hero retries")
                card, state = _draw(pool, chance, state, f"Hero retry, man {position}")
                red = card.rpn[column].red
            verdict = "infiltrated" if red else "pinned"
            chance.note(man.id, f"RPN({label}) {'red' if red else 'black'}: {verdict}")
            results.append(verdict)
    except _OutOfCards:
        results.extend("not attempted" for _ in men[len(results) :])
    if len(men) == 1:
        return results[0]
    return _tally(results, INFILTRATION_RESULTS[:3])


def _infiltration_odds(inp: UpFrontInfiltration) -> Distribution[str]:
    """Exact odds of :func:`_infiltration_rule` by :func:`.infiltration_walk.walk`: the
    morale checks and the RPNCs counted apart where the pile cannot run out, the rule's own
    steps over pool states where it can (tested equal to prefix replay of the rule)."""
    men, count, _ = _infiltration_setup(inp)
    column = _column(count)
    checked = men if inp.morale_check == "each" else ()
    pool = pool_for(inp, _morale_reads(inp, checked, (column,)))
    atoms, start, refill = [], [], []
    for card, left, again in zip(
        class_cards(pool), pool.start.counts(), pool.refill.counts(), strict=True
    ):
        if card is not None:
            atoms.append((card.rn.value, card.rpn[column].red))
            start.append(left)
            refill.append(again)
    attempt = Infiltration(
        thresholds=tuple(
            _threshold(m.morale, inp.morale_pass) if inp.morale_check == "each" else None
            for m in men
        ),
        hero=inp.hero,
        atoms=tuple(atoms),
        start=tuple(start),
        refill=tuple(refill),
        end_attack=inp.reshuffle == "end_attack" or sum(refill) == 0,
    )
    odds: dict[str, Fraction] = {}
    for tally, weight in walk(attempt).items():
        name = _named(tally, INFILTRATION_RESULTS, INFILTRATION_RESULTS[:3])
        odds[name] = odds.get(name, Fraction(0)) + weight
    return Distribution(odds)


def _infiltration_facts(inp: UpFrontInfiltration) -> Sequence[tuple[str, str]]:
    _, count, items = _infiltration_setup(inp)
    facts = data_facts(inp)
    columns = inp.deck_data().columns
    facts.append(("RPNC count", f"{count}: " + ", ".join(items)))
    facts.append(("column read", f"{columns[_column(count)]} (infiltrate on a red RPN)"))
    return facts


# ---------------------------------------------------------------------------------------
# Close combat against infantry


class UpFrontCloseCombat(CardInput):
    """Page 8, CC vs. Infantry: one matchup, an attacker (and any additional attackers) on one
    defending man; each side draws an RNC and adds it to its CCV; the low total is KIA, ties
    both KIA."""

    attacker: str = Field("ger-rifle-1", max_length=40, description="The attacking man (id).")
    defender: str = Field("us-rifle", max_length=40, description="The defending man (id).")
    attacker_ccv: int | None = Field(
        None,
        ge=-10,
        le=20,
        description=(
            "The attacker's printed CCV (armed with his original weapon); none: calculated "
            "as morale + weapon value (page 8)."
        ),
    )
    defender_ccv: int | None = Field(
        None, ge=-10, le=20, description="The defender's printed CCV; none: calculated."
    )
    attacker_pinned: bool = Field(False, description="The attacker is pinned: -4.")
    defender_pinned: bool = Field(False, description="The defender is pinned: -4.")
    attacker_secondary: bool = Field(
        False, description="The attacker fights with a secondary weapon (not his only): -1."
    )
    defender_secondary: bool = Field(
        False, description="The defender fights with a secondary weapon (not his only): -1."
    )
    additional_attackers: int = Field(
        0, ge=0, le=9, description="Additional attackers on this defending man: +3 each."
    )
    unattacked_crewman: bool = Field(
        False,
        description="The defender has an unpinned, unattacked crewman in this attack: +3.",
    )
    defender_concealment: int = Field(
        0, ge=0, le=9, description="CONCEALMENT played by the defender: lowers the attacker's CCV."
    )
    attacker_concealment: int = Field(
        0, ge=0, le=9, description="CONCEALMENT played by the attacker: lowers the defender's CCV."
    )
    prisoner: bool = Field(
        False, description="The attacker lowers his CCV by 2 to take the defender prisoner."
    )


def ccv(man: Man, pinned: bool, secondary: bool) -> tuple[int, list[str]]:
    """Page 8: CCV = morale + weapon value (Japanese MP 4, LMG 2), -1 secondary weapon, -4
    pinned; with the items."""
    table = dict(CCV_WEAPON)
    if man.nationality == "japanese":
        table.update(CCV_JAPANESE)
    if man.weapon not in table:
        msg = _(
            "{man}: page 8 prints no close combat value for a {weapon}; give the "
            "man's printed CCV (attacker_ccv / defender_ccv)"
        ).format(man=man.id, weapon=man.weapon)
        raise RuleError(msg)
    value = man.morale + table[man.weapon]
    items = [f"morale {man.morale}", f"{man.weapon} +{table[man.weapon]}"]
    if secondary:
        value += CCV_SECONDARY
        items.append(f"secondary weapon {CCV_SECONDARY}")
    if pinned:
        value += CCV_PINNED
        items.append(f"pinned {CCV_PINNED}")
    return value, items


def _ccvs(inp: UpFrontCloseCombat) -> tuple[int, int, list[str], list[str]]:
    data = inp.men_data()
    ids = men_by_id(data, "attacker", split(inp.attacker)) + men_by_id(
        data, "defender", split(inp.defender)
    )
    attacker, defender = data.man(ids[0]), data.man(ids[1])
    for name, man in (("attacker", attacker), ("defender", defender)):
        if man.afv is not None:
            raise InputError(name, "an infantry man (close_combat_afv for an AFV)", man.id)
    sides = []
    for man, given, pinned, secondary in (
        (attacker, inp.attacker_ccv, inp.attacker_pinned, inp.attacker_secondary),
        (defender, inp.defender_ccv, inp.defender_pinned, inp.defender_secondary),
    ):
        if given is None:
            listed = (*CCV_WEAPON, *(CCV_JAPANESE if man.nationality == "japanese" else ()))
            if man.weapon not in listed:
                side = "attacker" if man is attacker else "defender"
                allowed = f"the printed CCV of {man.id} (page 8 lists none for a {man.weapon})"
                raise InputError(f"{side}_ccv", allowed, None)
            sides.append(ccv(man, pinned, secondary))
        else:
            value, items = given, [f"printed CCV {given}"]
            if pinned:
                value += CCV_PINNED
                items.append(f"pinned {CCV_PINNED}")
            sides.append((value, items))
    (a, a_items), (d, d_items) = sides
    if inp.additional_attackers:
        a += CCV_EXTRA_ATTACKER * inp.additional_attackers
        a_items.append(f"{inp.additional_attackers} additional attacker(s) +3 each")
    if inp.unattacked_crewman:
        d += CCV_UNATTACKED_CREWMAN
        d_items.append(f"unattacked crewman +{CCV_UNATTACKED_CREWMAN}")
    if inp.prisoner:
        a += CCV_PRISONER
        a_items.append(f"prisoner {CCV_PRISONER}")
    if inp.defender_concealment:
        a -= inp.defender_concealment
        a_items.append(f"defender's concealment -{inp.defender_concealment}")
    if inp.attacker_concealment:
        d -= inp.attacker_concealment
        d_items.append(f"attacker's concealment -{inp.attacker_concealment}")
    return a, d, a_items, d_items


CC_RESULTS = (
    "defender KIA, weapon captured",
    "defender KIA",
    "defender prisoner, weapon captured",
    "defender prisoner",
    "both KIA",
    "attacker KIA",
    "no combat",
)


def _cc_rule(inp: UpFrontCloseCombat, chance: Chance) -> str:
    a, d, _, _ = _ccvs(inp)
    pool = pool_for(inp, RN_ONLY)
    try:
        card, state = _draw(pool, chance, pool.start, "attacker's RNC")
        attack = a + card.rn.value
        card, state = _draw(pool, chance, state, "defender's RNC")
        defence = d + card.rn.value
    except _OutOfCards:
        return "no combat"
    chance.note("totals", f"attacker {attack}, defender {defence}")
    if attack == defence:
        return "both KIA"
    if attack < defence:
        return "attacker KIA"
    loser = "defender prisoner" if inp.prisoner else "defender KIA"
    if attack - defence >= CC_WIN_MARGIN:
        return loser + ", weapon captured"
    return loser


def _cc_facts(inp: UpFrontCloseCombat) -> Sequence[tuple[str, str]]:
    a, d, a_items, d_items = _ccvs(inp)
    facts = data_facts(inp)
    facts.append(("attacker CCV", f"{a}: " + ", ".join(a_items)))
    facts.append(("defender CCV", f"{d}: " + ", ".join(d_items)))
    return facts


# ---------------------------------------------------------------------------------------
# Close combat against an AFV

AfvTerrain = Literal["open", "buildings", "woods", "wall", "gully", "brush"]


class UpFrontCloseCombatAfv(CardInput):
    """Page 8, CC vs. AFV: the attacker draws an RNC and adds every modifier; total <= 0
    attacker KIA, 1-5 no effect, 6 immobilized, >= 7 AFV KIA."""

    attacker: str = Field("ger-rifle-1", max_length=40, description="The attacking man (id).")
    afv: str = Field("", max_length=40, description="The AFV attacked (id; its open_topped flag).")
    previous_attacks: int = Field(
        0, ge=0, le=9, description="Each previous CC attack on it this turn: +1."
    )
    berserk_or_banzai: bool = Field(False, description="Attacker berserk or banzaiing: -3.")
    wounded: bool = Field(False, description="Attacker wounded: -2.")
    heroic: bool = Field(
        False, description="Attacker heroic: +1 (one +1 for heroic or Japanese, not both)."
    )
    tmm_or_dc: bool = Field(False, description="Attacker has a TMM or DC: +4 (then removed).")
    afv_terrain: AfvTerrain = Field(
        "open", description="The AFV's terrain: buildings +3, woods/wall/gully +2, brush -1."
    )
    afv_smoke: bool = Field(False, description="The AFV is in smoke: -1.")
    adjacent_groups: int = Field(
        0,
        ge=0,
        le=2,
        description=(
            "Friendly groups adjacent at the same range with more than "
            f"{CC_AFV_ADJACENT_UNPINNED_MORE_THAN} unpinned man: -2 each."
        ),
    )
    crew: Literal["crew_exposed", "buttoned_up"] = Field(
        "buttoned_up", description="The AFV's crew: crew_exposed (CE) -1, buttoned_up +1."
    )
    commander_kia: int = Field(0, ge=0, le=3, description="Commander KIA: +2 each.")
    immobilized_or_bogged: bool = Field(False, description="The AFV is immobilized or bogged: +2.")


def _afv_modifiers(inp: UpFrontCloseCombatAfv) -> list[Modifier]:  # noqa: PLR0912 - one per line
    data = inp.men_data()
    attacker = data.man(men_by_id(data, "attacker", split(inp.attacker))[0])
    if attacker.afv is not None:
        raise InputError("attacker", "an infantry man", attacker.id)
    afv = data.man(men_by_id(data, "afv", split(inp.afv))[0]) if inp.afv else None
    if afv is not None and afv.afv is None:
        raise InputError("afv", "the id of an AFV (a man with afv values)", afv.id)
    m = CC_AFV_MODIFIERS
    items: list[tuple[str, int]] = []
    if inp.previous_attacks:
        items.append(
            (
                f"{inp.previous_attacks} previous CC attack(s)",
                m["previous_attack"] * inp.previous_attacks,
            )
        )
    if inp.berserk_or_banzai:
        items.append(("attacker berserk or banzaiing", m["berserk_or_banzai"]))
    if inp.wounded:
        items.append(("attacker wounded", m["wounded"]))
    if inp.heroic or attacker.nationality == "japanese" or attacker.rank == "hero":
        items.append(("attacker heroic / Japanese", m["heroic_or_japanese"]))
    if inp.tmm_or_dc:
        items.append(("attacker has TMM / DC (removed)", m["tmm_or_dc"]))
    if inp.afv_terrain == "buildings":
        items.append(("AFV in buildings", m["buildings"]))
    elif inp.afv_terrain in ("woods", "wall", "gully"):
        items.append((f"AFV in {inp.afv_terrain}", m["woods_wall_gully"]))
    elif inp.afv_terrain == "brush":
        items.append(("AFV in brush", m["brush_or_smoke"]))
    if inp.afv_smoke:
        items.append(("AFV in smoke", m["brush_or_smoke"]))
    if inp.adjacent_groups:
        items.append(
            (
                f"{inp.adjacent_groups} adjacent group(s) at the same range",
                m["adjacent_same_range"] * inp.adjacent_groups,
            )
        )
    if inp.crew == "crew_exposed":
        items.append(("AFV CE", m["ce"]))
    else:
        items.append(("AFV buttoned up", m["buttoned_up"]))
    if inp.commander_kia:
        items.append(
            (f"commander KIA x{inp.commander_kia}", m["commander_kia"] * inp.commander_kia)
        )
    if inp.immobilized_or_bogged:
        items.append(("AFV immobilized or bogged", m["immobilized_or_bogged"]))
    if afv is not None and afv.afv is not None and afv.afv.open_topped:
        items.append(("AFV open topped", m["open_topped"]))
    return [
        Modifier(name, Fraction(value), ModifierKind.DICE, PAGE8 + ", CC vs. AFV")
        for name, value in items
    ]


def cc_afv_band(total: int) -> str:
    """Page 8's bands: <= 0 attacker KIA; 1-5 no effect; 6 immobilized; >= 7 AFV KIA."""
    if total <= CC_AFV_ATTACKER_KIA_AT_MOST:
        return "attacker KIA"
    if total >= CC_AFV_KIA_AT_LEAST:
        return "AFV KIA"
    if total == CC_AFV_IMMOBILIZED:
        return "AFV immobilized"
    return "no effect"


CC_AFV_RESULTS = ("AFV KIA", "AFV immobilized", "no effect", "attacker KIA", "no combat")


def _cc_afv_rule(inp: UpFrontCloseCombatAfv, chance: Chance) -> str:
    modifier = int(sum(m.value for m in _afv_modifiers(inp)))
    pool = pool_for(inp, RN_ONLY)
    try:
        card, _ = _draw(pool, chance, pool.start, "CC vs. AFV RNC")
    except _OutOfCards:
        return "no combat"
    total = card.rn.value + modifier
    chance.note("total", f"RN {card.rn.value} {modifier:+d} = {total}")
    return cc_afv_band(total)


def _cc_afv_facts(inp: UpFrontCloseCombatAfv) -> Sequence[tuple[str, str]]:
    facts = data_facts(inp)
    total = int(sum(m.value for m in _afv_modifiers(inp)))
    facts.append(("modifiers", f"{total:+d} (added to the RNC's RN)"))
    return facts


def _no_modifiers(_: CardInput) -> Sequence[Modifier]:
    return ()


MORALE_CHECK: GroupProcedure[UpFrontMoraleCheck] = GroupProcedure(
    name="morale_check",
    title="Morale check: each man draws an RNC, RN <= morale passes (page 8)",
    input_model=UpFrontMoraleCheck,
    rule=_morale_rule,
    modifiers=_no_modifiers,
    facts=_morale_facts,
    outcome_order=MORALE_RESULTS,
    exact_odds=_morale_odds,
    meanings={
        "passed": "RN <= morale: the man passes",
        "pinned": "RN > morale: MAN PINNED, flip to the pinned side",
        "not checked": "the pile ran out (reshuffle = end_attack)",
    },
)
INFILTRATION: GroupProcedure[UpFrontInfiltration] = GroupProcedure(
    name="infiltration",
    title="Infiltration attempt: infiltrate on a red RPN under the count's column (page 8)",
    input_model=UpFrontInfiltration,
    rule=_infiltration_rule,
    modifiers=_no_modifiers,
    facts=_infiltration_facts,
    outcome_order=INFILTRATION_RESULTS,
    exact_odds=_infiltration_odds,
    meanings={
        "infiltrated": "a red RPN under the count's column: the man infiltrates",
        "pinned (morale check)": "the morale check failed: MAN PINNED, lose INF",
        "pinned": "a black RPN: MAN PINNED, flip to the pinned side, lose INF",
        "not attempted": "the pile ran out (reshuffle = end_attack)",
    },
)
CLOSE_COMBAT: Procedure[UpFrontCloseCombat] = Procedure(
    name="close_combat",
    title="Close combat vs. infantry: CCV + RNC each, low total KIA, ties both KIA (page 8)",
    input_model=UpFrontCloseCombat,
    rule=_cc_rule,
    modifiers=_no_modifiers,
    facts=_cc_facts,
    outcome_order=CC_RESULTS,
    meanings={
        "defender KIA, weapon captured": "attacker's total higher by 3+: the winner may "
        "capture the weapon",
        "defender KIA": "attacker's total higher",
        "defender prisoner, weapon captured": "prisoner taken (CCV -2), by 3+",
        "defender prisoner": "prisoner taken (CCV -2) instead of KIA",
        "both KIA": "equal totals",
        "attacker KIA": "defender's total higher",
        "no combat": "the pile ran out (reshuffle = end_attack)",
    },
)
CLOSE_COMBAT_AFV: Procedure[UpFrontCloseCombatAfv] = Procedure(
    name="close_combat_afv",
    title="Close combat vs. AFV: RNC + modifiers, <=0 / 1-5 / 6 / >=7 (page 8)",
    input_model=UpFrontCloseCombatAfv,
    rule=_cc_afv_rule,
    modifiers=_afv_modifiers,
    facts=_cc_afv_facts,
    outcome_order=CC_AFV_RESULTS,
    meanings={
        "AFV KIA": "total >= 7",
        "AFV immobilized": "total 6",
        "no effect": "total 1 to 5",
        "attacker KIA": "total <= 0",
        "no combat": "the pile ran out (reshuffle = end_attack)",
    },
)

PROCEDURES = (INFILTRATION, CLOSE_COMBAT, CLOSE_COMBAT_AFV, MORALE_CHECK)
