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

from firefight.chance import Chance
from firefight.chance.distribution import Distribution
from firefight.core.modifier import Modifier
from firefight.rulesets.upfront.afv import afv_kia_vp
from firefight.rulesets.upfront.cards import RN_HIGHEST, Card
from firefight.rulesets.upfront.classes import class_cards
from firefight.rulesets.upfront.group import GroupProcedure
from firefight.rulesets.upfront.lists import shown
from firefight.rulesets.upfront.malfunction import Firer, MalfunctionReadings, outcome_for
from firefight.rulesets.upfront.overrun_attack import (
    OverrunAttack,
    UpFrontOverrun,
    adverse_effect,
    ended_adverse,
    fights_back,
    overrun_attack,
    tmm_result,
)
from firefight.rulesets.upfront.overrun_budget import charge_readings
from firefight.rulesets.upfront.overrun_draws import AFV_RESULTS, Reading
from firefight.rulesets.upfront.overrun_draws import Attack as WalkAttack
from firefight.rulesets.upfront.overrun_walk import walk
from firefight.rulesets.upfront.pool import Pool, PoolState, Reads, pool_for
from firefight.rulesets.upfront.printed import OVERRUN_HERO_FFS, TMM_BAND_COLUMN
from firefight.rulesets.upfront.resolution import (
    MAN_RESULTS,
    Tally,
    data_facts,
    fire_result,
    malfunctions,
    man_result,
)

__all__ = [
    "ENDING",
    "OVERRUN",
    "PROCEDURES",
    "outcome",
    "overrun_odds",
    "page6_outcome",
]

PAGE7 = "Up Front flow charts, page 7: Overrun Attacks"


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


def _reads(inp: UpFrontOverrun, attack: OverrunAttack) -> _OverrunReads:
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


def page6_outcome(attack: OverrunAttack, card: Card, ffs: int, inp: UpFrontOverrun) -> str:
    """Page 6 on the overrunning AFV (page 3: "Malfunction only on Firepower or Overrun
    attack"): the AFV is the only armed man, so its functioning weapon malfunctions (or
    breaks on X6) and the attack ends; page 7's OVR x1/2 (MG) or x1/4 (FT) then applies to
    the next overrun (``malfunctioned``)."""
    firers = (Firer(attack.afv),)
    found = outcome_for(firers, 0, rn=card.rn.value, ffs=ffs, rr=inp.rr, inp=MalfunctionReadings())
    assert found.end_attack
    return f"{found.box}: the {inp.functioning} {found.weapon}; END ATTACK"


def _malfunction_ends(
    attack: OverrunAttack, card: Card, ffs: int, inp: UpFrontOverrun, chance: Chance
) -> bool:
    """A malfunction card drawn: the trace (page 6's box under ``page6``) and whether the
    attack ends."""
    chance.note("malfunction", f"RN {card.rn}: a fire weapon malfunctions (page 6)")
    if inp.malfunction == "page6":
        chance.note("page 6", page6_outcome(attack, card, ffs, inp))
    return inp.malfunction in ENDING


def _overrun_rule(inp: UpFrontOverrun, chance: Chance) -> str:
    attack = overrun_attack(inp)
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
            if fights_back(target, result, inp):
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


def _reading(card: Card, ffs: int, attack: OverrunAttack, inp: UpFrontOverrun) -> Reading:
    """What the overrun reads of ``card`` at ``ffs`` (:class:`.overrun_draws.Reading`): the
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
            if fights_back(target, result, inp):
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
    compiled step (:mod:`.overrun_walk`). Tested equal to prefix replay of the rule. The web's
    work budget is paid for the readings before they are read (:mod:`.overrun_budget`)."""
    attack = overrun_attack(inp)
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
    kinds_read = len(by_ffs) * sum(card is not None for card in fine)
    charge_readings(kinds_read, len(attack.group))  # the web's budget, before any is read
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
    attack = overrun_attack(inp)
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
