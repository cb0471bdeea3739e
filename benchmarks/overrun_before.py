"""The Up Front overrun walk as it was before issue 14 compiled it: the men walked over
pool states in Python, memoized (``functools.cache``), a TMM card drawn inside a man's step.
Kept only as the baseline that benchmarks/upfront.py measures in the same run; the package
does not import it. It reads the cards with the package's own page 7 steps (``_attack``,
``_reads``, ``adverse_effect``, ``tmm_result``), so the two walks give equal odds (the
benchmark checks it) and their times compare the walks alone.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from functools import cache

from firefight.chance.distribution import Distribution
from firefight.rulesets.upfront.cards import Card
from firefight.rulesets.upfront.classes import class_options
from firefight.rulesets.upfront.overrun import ENDING, _reads, outcome
from firefight.rulesets.upfront.overrun_attack import (
    OverrunAttack,
    UpFrontOverrun,
    adverse_effect,
    fights_back,
    overrun_attack,
    tmm_result,
)
from firefight.rulesets.upfront.pool import pool_for
from firefight.rulesets.upfront.printed import OVERRUN_HERO_FFS
from firefight.rulesets.upfront.resolution import MAN_RESULTS, malfunctions, man_result

_Key = tuple[tuple[int, ...], str]


def _add(table: dict[_Key, Fraction], key: _Key, weight: Fraction) -> None:
    table[key] = table.get(key, Fraction(0)) + weight


def _with(tally: tuple[int, ...], result: str, n: int = 1) -> tuple[int, ...]:
    index = MAN_RESULTS.index(result)
    return (*tally[:index], tally[index] + n, *tally[index + 1 :])


def overrun_odds_before(inp: UpFrontOverrun) -> Distribution[str]:
    """Exact odds of :func:`_overrun_rule` by walking the same steps over pool states,
    memoized so that equal states are evaluated once (draws as state, docs/chance.md).

    The first card (the FS) is drawn from the pool's classes; once the FFS is known, the
    cards left are merged into the coarser kinds that this FFS cannot tell apart (the same
    page 3 result for every man with and without smoke, the same adverse effects, TMM result,
    malfunction and BREEZE), and the men are walked over the counts of those kinds. Tested
    equal to prefix replay of the rule."""
    attack = overrun_attack(inp)
    if attack.bog and inp.bog_check == "bogged":
        return Distribution({"AFV bogged: attack ends": Fraction(1)})
    pool = pool_for(inp, _reads(inp, attack))
    fine = [
        pool.data.card((left or again)[0]) if (left or again) else None
        for left, again in zip(pool.start.classes, pool.refill.classes, strict=True)
    ]
    walks: dict[int, Callable[[tuple[int, ...]], dict[_Key, Fraction]]] = {}
    total: dict[_Key, Fraction] = {}
    first = class_options(fine, pool.start.counts(), pool.refill.counts(), inp.reshuffle)
    if first is None:
        unaffected = outcome(_with(_EMPTY, "no effect", len(attack.group)), "")
        return Distribution({unaffected: Fraction(1)})
    for card, chance, left in first:
        ffs = attack.ovr + card.rn.value + attack.modifier
        if ffs not in walks:
            walks[ffs] = _walk(inp, attack, ffs, fine, pool.refill.counts())
        for key, weight in walks[ffs](left).items():
            _add(total, key, chance * weight)
    odds: dict[str, Fraction] = {}
    for (tally, hit), weight in total.items():
        name = outcome(tally, hit)
        odds[name] = odds.get(name, Fraction(0)) + weight
    return Distribution(odds)


_EMPTY = (0,) * len(MAN_RESULTS)


def _walk(  # noqa: PLR0915 - the page's steps after the FS card
    inp: UpFrontOverrun,
    attack: OverrunAttack,
    ffs: int,
    fine: Sequence[Card | None],
    fine_refill: tuple[int, ...],
) -> Callable[[tuple[int, ...]], dict[_Key, Fraction]]:
    """The men's walk at one FFS: from the fine classes' counts left after the FS card to the
    distribution of (tally, what happened to the AFV)."""
    assert attack.afv.afv is not None
    open_topped = attack.afv.afv.open_topped
    group = attack.group

    def signature(card: Card) -> Hashable:
        per_man = []
        for target in group:
            heroic = target.man.id in attack.heroic
            man_ffs = ffs + (OVERRUN_HERO_FFS if heroic else 0)
            per_man.append(
                (
                    man_result(target, man_ffs, inp.rr, card, inp),
                    man_result(target, man_ffs - inp.smoke, inp.rr, card, inp),
                    adverse_effect(card, heroic, open_topped, inp) if attack.fight_back else "",
                )
            )
        return (
            bool(attack.malfunction_at)
            and malfunctions(card, attack.malfunction_at, inp.malfunction_check),
            card.breeze and bool(inp.smoke),
            card.rn.red and bool(attack.tmm),
            tmm_result(card, attack.column) if attack.tmm else "",
            tuple(per_man),
        )

    kinds: dict[Hashable, int] = {}
    of_class: list[int] = []
    cards: list[Card | None] = []
    for card in fine:
        if card is None:
            of_class.append(-1)
            continue
        key = signature(card)
        if key not in kinds:
            kinds[key] = len(kinds)
            cards.append(card)
        of_class.append(kinds[key])

    def coarse(counts: tuple[int, ...]) -> tuple[int, ...]:
        merged = [0] * len(kinds)
        for index, count in enumerate(counts):
            if count:
                merged[of_class[index]] += count
        return tuple(merged)

    refill = coarse(fine_refill)

    @cache
    def men(  # noqa: PLR0912 - one branch per box of the page
        counts: tuple[int, ...], position: int, smoke: int
    ) -> dict[_Key, Fraction]:
        rest = len(group) - position
        if rest == 0:
            return {(_EMPTY, ""): Fraction(1)}
        drawn = class_options(cards, counts, refill, inp.reshuffle)
        if drawn is None:
            return {(_with(_EMPTY, "no effect", rest), ""): Fraction(1)}
        table: dict[_Key, Fraction] = {}
        target = group[position]
        heroic = target.man.id in attack.heroic
        man_ffs = ffs - inp.smoke + smoke + (OVERRUN_HERO_FFS if heroic else 0)
        for card, chance, left in drawn:
            if (
                attack.malfunction_at
                and malfunctions(card, attack.malfunction_at, inp.malfunction_check)
                and inp.malfunction in ENDING
            ):
                _add(table, (_with(_EMPTY, "attack ended", rest), ""), chance)
                continue
            result = man_result(target, man_ffs, inp.rr, card, inp)
            done = _with(_with(_EMPTY, result), "no effect", rest - 1)
            after = 0 if card.breeze and smoke else smoke
            branches: list[tuple[Fraction, tuple[int, ...]]] = [(chance, left)]
            if fights_back(target, result, inp):
                hit = adverse_effect(card, heroic, open_topped, inp) if attack.fight_back else ""
                if hit:
                    _add(table, (done, hit), chance)
                    continue
                if target.man.id in attack.tmm and card.rn.red:
                    tmm_cards = class_options(cards, left, refill, inp.reshuffle)
                    if tmm_cards is None:
                        _add(table, (done, ""), chance)
                        continue
                    branches = []
                    for tmm_card, tmm_chance, tmm_left in tmm_cards:
                        hit = tmm_result(tmm_card, attack.column)
                        if hit:
                            _add(table, (done, hit), chance * tmm_chance)
                        else:
                            branches.append((chance * tmm_chance, tmm_left))
            for weight, state in branches:
                for (tally, hit), w in men(state, position + 1, after).items():
                    _add(table, (_with(tally, result), hit), weight * w)
        return table

    return lambda counts: men(coarse(counts), 0, inp.smoke)
