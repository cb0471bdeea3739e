"""Page 1: Firepower Attacks, then page 3 on each man of the target group, or page 4 on an AFV.

Page 1 up to the Final Fire Strength is :mod:`.firepower`; the attack may be called off; then
"Target is AFV?": an AFV goes to AFV Unboxed Resolution (page 4, :mod:`.afv`), otherwise each
target man draws a card (page 3, :mod:`.resolution`).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache

from firefight.chance import Chance, exact
from firefight.chance.distribution import Distribution
from firefight.core.modifier import Modifier
from firefight.errors import InputError
from firefight.rulesets.upfront import afv as page4
from firefight.rulesets.upfront import malfunction_walk as page6
from firefight.rulesets.upfront.firepower import FireStrength, UpFrontFire, fire_strength
from firefight.rulesets.upfront.group import GroupOdds, GroupProcedure
from firefight.rulesets.upfront.lists import shown
from firefight.rulesets.upfront.men import Man, MenData
from firefight.rulesets.upfront.outcomes import outcome_names
from firefight.rulesets.upfront.pool import CardInput, men_by_id, pool_for
from firefight.rulesets.upfront.resolution import (
    MAN_RESULTS,
    RESULT_MEANINGS,
    Readings,
    UpFrontResolution,
    data_facts,
    malfunction_numbers,
    reads_for,
    resolution_firers,
    rout_vp,
    targets,
)
from firefight.translation import gettext

__all__ = [
    "FIRE",
    "PROCEDURES",
    "RESOLUTION",
    "FireStrength",
    "UpFrontFire",
    "afv_target",
    "fire_strength",
]

PAGE3_ONLY = tuple(
    sorted(
        (set(UpFrontFire.model_fields) & (set(Readings.model_fields) | {"rout_taken"}))
        - set(CardInput.model_fields)
        - {"fr", "smoke", "targets", "pinned_targets"}
    )
)
"""The fields of page 3 (and page 6, which page 3 calls) that page 4 does not read: with an
AFV target they must keep their defaults (page 4 prints no malfunction check, no KIA number,
no panic, wound or rout)."""


def _text(value: object) -> str:
    """A field's value as the player gives it (a list comma-separated, none when empty)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, tuple):
        return shown(value) or "none"
    return str(value)


def afv_target(inp: UpFrontFire) -> Man | None:
    """Page 1: "Target is AFV? -> AFV Unboxed Resolution (P4)": the AFV fired at, or None when
    the targets are men. An AFV is fired at alone, and page 3's fields keep their defaults
    (one-line errors)."""
    men = inp.men_data()
    ids = men_by_id(men, "targets", inp.targets)
    found = [men.man(i) for i in ids if men.man(i).afv is not None]
    if not found:
        return None
    if len(ids) != 1:
        raise InputError(
            "targets", "men, or one AFV alone (page 1: an AFV goes to page 4)", shown(inp.targets)
        )
    for name in PAGE3_ONLY:
        default = UpFrontFire.model_fields[name].default
        value = getattr(inp, name)
        if value != default:
            allowed = gettext("{text} when the target is an AFV (page 4 does not read it)").format(
                text=_text(default)
            )
            raise InputError(name, allowed, _text(value))
    return found[0]


def afv_readings(inp: UpFrontFire, man: Man) -> page4.AfvReadings:
    """Page 4's input for this fire: the same cards and pool, FR read as page 3's ``fr``,
    the AFV buttoned up when it is named pinned (page 4: "Buttoned Up/PINNED. Flip to back
    side"); page 4's other readings at their defaults (the ``afv`` procedure takes them)."""
    shared = {name: getattr(inp, name) for name in CardInput.model_fields}
    update = {"fr": inp.fr, "afv": man.id, "buttoned_up": man.id in inp.pinned_targets}
    return page4.AfvReadings.model_validate({**shared, **update})


def _afv_fire(inp: UpFrontFire, man: Man, strength: FireStrength, chance: Chance) -> str:
    """AFV Unboxed Resolution (page 4) at the fire's FFS, its card drawn from the pool the
    FIRE cards left: the ``afv`` procedure's rule itself."""
    readings = afv_readings(inp, man)
    pool = pool_for(readings, page4.READS, strength.cards)
    chance.note("target is AFV", "AFV Unboxed Resolution (page 4)")
    cards = page4.Cards(pool, pool.start, chance)
    return page4.resolve_afv(readings, cards, page4.Hit(man, strength.ffs, "firepower"))


def _firing_numbers(inp: UpFrontFire, men: MenData, firers: Sequence[Man]) -> tuple[int, ...]:
    """The malfunction numbers page 3 checks: the firers' weapons less the non-firing men's
    (page 6: a non-firing FT/IF is no effect)."""
    quiet = set(inp.not_firing)
    return malfunction_numbers(inp, men, [m for m in firers if m.id not in quiet])


def _fire_rule(inp: UpFrontFire, chance: Chance) -> str:
    strength = fire_strength(inp)
    for man_id, _, why in strength.firers:
        chance.note(f"FP {man_id}", why)
    chance.note("FP", str(strength.fp))
    chance.note("FIRE cards", f"{', '.join(map(str, strength.cards))}: base FS {strength.base}")
    chance.note("FFS", str(strength.ffs))
    if inp.call_off:
        return "called off"
    vehicle = afv_target(inp)
    if vehicle is not None:
        return _afv_fire(inp, vehicle, strength, chance)
    men = inp.men_data()
    group = targets(inp, men)
    firers = [men.man(i) for i in men_by_id(men, "firers", inp.firers)]
    numbers = _firing_numbers(inp, men, firers)
    results = page6.resolve(inp, chance, strength.ffs, group, firers, numbers, strength.cards)
    return results[0] if len(group) == 1 else _tally_text(results, rout_vp(inp.rr, inp.rout_taken))


def _tally_text(results: Sequence[str], routed_vp: int) -> str:
    from firefight.rulesets.upfront.resolution import Tally  # noqa: PLC0415

    return Tally.of(results).text(routed_vp)


ODDS_KEPT = 64
"""How many fire attacks' exact odds are kept (least recently used first out)."""


@lru_cache(maxsize=ODDS_KEPT)  # thread-safe and bounded: the web answers from several threads
def fire_odds(inp: UpFrontFire) -> GroupOdds:
    """Exact odds of the fire attack on every man and on the group (cached per input)."""
    strength = fire_strength(inp)
    men = inp.men_data()
    group = targets(inp, men)
    firers = [men.man(i) for i in men_by_id(men, "firers", inp.firers)]
    numbers = _firing_numbers(inp, men, firers)
    return page6.odds(inp, strength.ffs, group, firers, numbers, strength.cards)


def _fire_odds(inp: UpFrontFire) -> Distribution[str]:
    if inp.call_off:
        fire_strength(inp)
        return Distribution({"called off": Fraction(1)})
    if afv_target(inp) is not None:  # page 4: one card, by prefix replay of the rule
        return exact(lambda chance: _fire_rule(inp, chance))
    single = len(targets(inp, inp.men_data())) == 1
    return fire_odds(inp).outcomes(single, rout_vp(inp.rr, inp.rout_taken))


def _fire_modifiers(inp: UpFrontFire) -> Sequence[Modifier]:
    return fire_strength(inp).modifiers


def _odds_facts(odds: GroupOdds) -> list[tuple[str, str]]:
    facts = []
    for man_id, distribution in odds.men:
        text = ", ".join(f"{r} {p}" for r, p in distribution.items())
        facts.append((f"man {man_id}", text))
    return facts


def _fire_facts(inp: UpFrontFire) -> Sequence[tuple[str, str]]:
    strength = fire_strength(inp)
    facts = data_facts(inp)
    facts.extend((f"FP {man_id}", why) for man_id, _, why in strength.firers)
    facts.append(("group FP", str(strength.fp)))
    facts.append(("base fire strength", f"FIRE cards {strength.cards}: {strength.base}"))
    facts.append(("FFS", str(strength.ffs)))
    vehicle = None if inp.call_off else afv_target(inp)
    if vehicle is not None:
        readings = afv_readings(inp, vehicle)
        facts.append(("target is AFV", "AFV Unboxed Resolution (page 4)"))
        facts.extend(page4.afv_facts(readings, vehicle, "firepower")[2:])
        pool = pool_for(readings, page4.READS, strength.cards)
        facts.append(("pool", f"{inp.pool}: {pool.start.size} cards"))
        return facts
    pool = pool_for(inp, reads_for(inp), strength.cards)
    facts.append(("pool", f"{inp.pool}: {pool.start.size} cards"))
    if not inp.call_off:
        facts.extend(_odds_facts(fire_odds(inp)))
    return facts


FIRE: GroupProcedure[UpFrontFire] = GroupProcedure(
    name="fire",
    title="Firepower attack (page 1) and resolution on each man (page 3) or on an AFV (page 4)",
    input_model=UpFrontFire,
    rule=_fire_rule,
    modifiers=_fire_modifiers,
    facts=_fire_facts,
    outcome_order=(*page4.AFV_RESULTS[:-1], *MAN_RESULTS, "called off"),
    meanings={
        **RESULT_MEANINGS,
        **page4.MEANINGS,
        "no effect": "no effect on the target",  # a man or an AFV
        "called off": "the attacker called the attack off (page 1)",
    },
    names=outcome_names,
    exact_odds=_fire_odds,
)


def _resolution_rule(inp: UpFrontResolution, chance: Chance) -> str:
    men = inp.men_data()
    group = targets(inp, men)
    firers, firing = resolution_firers(inp, men)
    numbers = malfunction_numbers(inp, men, firing)
    results = page6.resolve(inp, chance, inp.ffs, group, firers, numbers)
    return results[0] if len(group) == 1 else _tally_text(results, rout_vp(inp.rr, inp.rout_taken))


def resolution_odds(inp: UpFrontResolution) -> GroupOdds:
    """Exact odds of page 3 on each man and on the group, at the given FFS."""
    men = inp.men_data()
    group = targets(inp, men)
    firers, firing = resolution_firers(inp, men)
    numbers = malfunction_numbers(inp, men, firing)
    return page6.odds(inp, inp.ffs, group, firers, numbers)


def _resolution_odds(inp: UpFrontResolution) -> Distribution[str]:
    single = len(targets(inp, inp.men_data())) == 1
    return resolution_odds(inp).outcomes(single, rout_vp(inp.rr, inp.rout_taken))


def _resolution_facts(inp: UpFrontResolution) -> Sequence[tuple[str, str]]:
    facts = data_facts(inp)
    pool = pool_for(inp, reads_for(inp))
    facts.append(("pool", f"{inp.pool}: {pool.start.size} cards"))
    facts.append(("FFS", str(inp.ffs)))
    if len(targets(inp, inp.men_data())) > 1:
        facts.extend(_odds_facts(resolution_odds(inp)))
    return facts


def _no_modifiers(_: UpFrontResolution) -> Sequence[Modifier]:
    return ()


RESOLUTION: GroupProcedure[UpFrontResolution] = GroupProcedure(
    name="resolution",
    title="Fire/Ordnance Resolution on each man, at a given FFS (page 3)",
    input_model=UpFrontResolution,
    rule=_resolution_rule,
    modifiers=_no_modifiers,
    facts=_resolution_facts,
    outcome_order=MAN_RESULTS,
    meanings=RESULT_MEANINGS,
    names=outcome_names,
    exact_odds=_resolution_odds,
)

PROCEDURES = (FIRE, RESOLUTION)
