"""Page 1: Firepower Attacks, then page 3 on each man of the target group.

The firing group's firepower (FP) at the current Relative Range is the sum of its men's, each
doubled, bracketed, halved or zeroed as page 1 lists; FIRE cards totalling at most the FP are
played and their total is the Base Fire Strength; the attacker's and defender's terrain
(wire, smoke, movement), the defender's concealment, nationality and AFV commander losses
make the Final Fire Strength (FFS); the attack may be called off; then each target man draws
a card (page 3, :mod:`.resolution`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import floor
from typing import ClassVar, Literal

from pydantic import Field

from firefight.chance import Chance
from firefight.chance.distribution import Distribution
from firefight.core.modifier import Modifier, ModifierKind
from firefight.errors import InputError, RuleError
from firefight.i18n import gettext
from firefight.rulesets.upfront import malfunction_walk as page6
from firefight.rulesets.upfront.cards import Card
from firefight.rulesets.upfront.group import GroupOdds, GroupProcedure
from firefight.rulesets.upfront.lists import CardNumbers, ManIds, shown, split
from firefight.rulesets.upfront.men import ORDNANCE, Man, MenData
from firefight.rulesets.upfront.pool import inventory_numbers, men_by_id, pool_for
from firefight.rulesets.upfront.printed import (
    BRITISH_LOWER_FP,
    BRITISH_LOWER_FP_MINIMUM,
    BRITISH_MODIFIER,
    COMMANDER_KIA_MODIFIER,
    ENCIRCLED_FACTOR,
    FLANKING_FACTOR,
    HALF,
    HERO_FACTOR,
    INFILTRATOR_FACTOR,
    ITALIAN_MODIFIER,
)
from firefight.rulesets.upfront.resolution import (
    MAN_RESULTS,
    RESULT_MEANINGS,
    ROUT_TAKEN_DESCRIPTION,
    Readings,
    RoutTaken,
    UpFrontResolution,
    data_facts,
    malfunction_numbers,
    reads_for,
    resolution_firers,
    rout_vp,
    targets,
)

__all__ = ["FIRE", "PROCEDURES", "RESOLUTION", "FireStrength", "UpFrontFire", "fire_strength"]

PAGE1 = "Up Front flow charts, page 1: Firepower Attacks"
MACHINE_GUNS = ("lmg", "mmg")
CREWMEN = ("crewman", "assistant")


class UpFrontFire(Readings):
    """A firepower attack (page 1) and its resolution on each target man (page 3)."""

    readings: ClassVar[frozenset[str]] = frozenset(
        {"malfunction", "hero_on_mg", "hero_uncrewable_lmg", "bolt_action", "rout_taken"}
    )
    """The fields that read the rules where they are silent (folded apart on the web)."""

    firers: ManIds = Field(
        ("ger-rifle-1", "ger-rifle-2", "ger-lmg", "ger-assistant"),
        description="The firing group's men, ids from the men file, comma-separated.",
    )
    rr: int = Field(3, ge=0, le=5, description="The current Relative Range (0 to 5).")
    fire_cards: CardNumbers = Field(
        (),
        description=(
            "The FIRE cards played, as inventory numbers; their total must be at most the "
            "group's FP (page 1). They leave your hand and the pool."
        ),
    )
    flanking: bool = Field(False, description="x2: flanking fire (page 1).")
    encircled: bool = Field(False, description="x2: the target group is encircled (page 1).")
    infiltrators: ManIds = Field((), description="Firing infiltrators (ids): x2 each (page 1).")
    hero: str = Field(
        "",
        max_length=40,
        description=(
            "The man with a Hero (id): x2, or bracketed on an LMG/MMG (page 1). On an "
            "uncrewable LMG the Hero needs an RNC (page 1), whose test is not printed: name "
            "him only when it allowed him."
        ),
    )
    hero_on_mg: Literal["bracketed", "doubled_bracketed"] = Field(
        "bracketed",
        description=(
            'A Hero on an LMG/MMG (page 1, "x2 Bracketed Hero on LMG/MMG"): bracketed (his '
            'bracketed FP; docs/sources.md: "a Hero doubles (MG: bracketed)") or doubled_bracketed '
            "(x2 on the bracketed FP; the second transcription's reading)."
        ),
    )
    hero_uncrewable_lmg: Literal["given", "no_bonus"] = Field(
        "given",
        description=(
            "A Hero on an uncrewable LMG (an LMG whose man has crew 'none' in the men file; "
            "page 1: 'Hero (on uncrewable LMG req's RNC)', no test printed): given (the "
            "player names him as hero only when his RNC allowed it; the Hero's FP applies) "
            "or no_bonus (the unprinted test counts as failed: his LMG fires without the "
            "Hero's bracketed/x2)."
        ),
    )
    bolt_action: Literal["as_printed", "half"] = Field(
        "as_printed",
        description=(
            "A bolt_rifle firer's FP: as_printed (his men.toml FP; page 1's x1/2 line names "
            "only a moving BAR and the wounded) or half (x1/2, rounded down; docs/sources.md: "
            "'bolt-action rifles halve FP')."
        ),
    )
    british_lower_fp: bool = Field(
        False,
        description=(
            "British only: lower each firing man's firepower factor by one, never below 1 "
            "(docs/sources.md: 'may lower firepower factors by one (minimum 1) to make an attack')."
        ),
    )
    moving: bool = Field(
        False,
        description=(
            "The firing group is moving: a fully crewed LMG fires bracketed, a BAR x1/2 "
            "(page 1), and the Base Fire Strength is halved (reading moving_fire)."
        ),
    )
    moving_fire: Literal["half", "tem_only"] = Field(
        "half",
        description=(
            "A moving group's fire: half (the Base Fire Strength x1/2, rounded down; "
            "docs/sources.md) or tem_only (movement counts only as the attacker's TEM, page 1)."
        ),
    )
    mg_fully_crewed: bool = Field(
        True,
        description="Each LMG/MMG has its assistant crewman (otherwise it fires bracketed).",
    )
    stream_or_marsh: bool = Field(
        False, description="The firing group is in a stream or marsh: a crewed LMG fires bracketed."
    )
    wounded_firers: ManIds = Field((), description="Wounded firers: x1/2 (ids).")
    transferring_firers: ManIds = Field((), description="Transferring firers: 0 FP (ids).")
    malfunctioned: ManIds = Field(
        (), description="Firers whose weapon is malfunctioned: 0 FP (ids)."
    )
    pinned_firers: ManIds = Field((), description="Pinned firers: 0 FP (only unpinned men fire).")
    not_firing: ManIds = Field(
        (),
        description=(
            "Men of the group who do not fire this attack (page 1's 0 FP 'Non-firing "
            "infiltrator/flamethrower', page 6's 'Non-firing FT/IF'): 0 FP, and their "
            "weapon is not checked for malfunction (ids; not also in infiltrators)."
        ),
    )
    attacker_tem: int = Field(
        0,
        ge=-9,
        le=9,
        description="The attacker's TEM (including wire and movement), added to the FS.",
    )
    defender_tem: int = Field(
        0,
        ge=-9,
        le=9,
        description=(
            "The defender's TEM (terrain cover, wire, movement; not smoke, given as smoke), "
            "added to the FS."
        ),
    )
    concealment: int = Field(
        0, ge=0, le=9, description="The value of a CONCEALMENT card played: subtracted."
    )
    commander_kia: int = Field(
        0, ge=0, le=3, description="AFV/IG firers: -1 per commander KIA (page 1)."
    )
    call_off: bool = Field(False, description="The attacker calls the attack off (page 1).")
    rout_taken: RoutTaken = Field("rout", description=ROUT_TAKEN_DESCRIPTION)


@dataclass(frozen=True)
class FireStrength:
    """Page 1 worked out: each firer's FP with its reasons, the fire cards, the FFS."""

    firers: tuple[tuple[str, int, str], ...]
    fp: int
    cards: tuple[int, ...]
    base: int
    modifiers: tuple[Modifier, ...]
    ffs: int
    nationality: str


def is_fire_card(card: Card, nationality: str) -> bool:
    """A FIRE card, or a split-action card whose half for this nationality is FIRE and that
    carries its fire strength (``value``) in the deck file (page 1; FACTS.md, card anatomy:
    split-action cards divide two actions by nationality)."""
    if card.kind == "fire":
        return True
    return (
        card.kind == "split"
        and dict(card.split).get(nationality) == "fire"
        and (card.value is not None)
    )


def _ids(men: MenData, field_name: str, given: Sequence[str], among: Sequence[str]) -> set[str]:
    ids = set(given)
    for man_id in sorted(ids):
        if man_id not in among:
            raise InputError(field_name, "ids among the firers: " + ", ".join(among), man_id)
    return ids


def _man_fp(  # noqa: PLR0912 - one branch per line of page 1
    man: Man, inp: UpFrontFire, flags: dict[str, set[str]]
) -> tuple[int, str]:
    """One firer's FP at the current RR with the reasons (page 1)."""
    mid = man.id
    for name, why in (
        ("transferring", "transferring"),
        ("malfunctioned", "malfunctioned weapon"),
        ("pinned", "pinned"),
        ("not_firing", "non-firing infiltrator/flamethrower"),
    ):
        if mid in flags[name]:
            return 0, f"0: {why}"
    if man.crew in CREWMEN:
        return 0, f"0: {man.crew}"
    if man.weapon == "unarmed":
        return 0, "0: unarmed"
    if man.weapon in ORDNANCE:
        return 0, "0: ordnance"
    machine_gun = man.weapon in MACHINE_GUNS
    hero = mid in flags["hero"]
    refused = ""
    if hero and man.weapon == "lmg" and man.crew == "none" and inp.hero_uncrewable_lmg != "given":
        hero = False
        refused = "Hero on an uncrewable LMG: no bonus (RNC test not printed)"
    bracketed_for = ""
    if machine_gun and hero:
        bracketed_for = "Hero on an MG"
    elif machine_gun and not inp.mg_fully_crewed:
        bracketed_for = "MG not fully crewed"
    elif man.weapon == "lmg" and inp.moving:
        bracketed_for = "moving LMG"
    elif man.weapon == "lmg" and inp.stream_or_marsh:
        bracketed_for = "LMG in stream or marsh"
    if bracketed_for:
        if man.bracketed is None:
            msg = gettext(
                "'firers': {man} has no bracketed firepower in the men file ({bracketed_for})"
            ).format(man=mid, bracketed_for=bracketed_for)
            raise RuleError(msg)
        value = Fraction(man.bracketed[inp.rr])
        reasons = [f"[{man.bracketed[inp.rr]}] {bracketed_for}"]
    else:
        value = Fraction(man.firepower[inp.rr])
        reasons = [str(man.firepower[inp.rr])]
    if refused:
        reasons.append(refused)
    for applies, factor, why in (
        (inp.flanking, FLANKING_FACTOR, "flanking"),
        (inp.encircled, ENCIRCLED_FACTOR, "encircled"),
        (mid in flags["infiltrators"], INFILTRATOR_FACTOR, "infiltrator"),
        (
            hero and (not machine_gun or inp.hero_on_mg == "doubled_bracketed"),
            HERO_FACTOR,
            "Hero",
        ),
    ):
        if applies:
            value *= factor
            reasons.append(f"x{factor} {why}")
    for applies, why in (
        (man.weapon == "bar" and inp.moving, "moving BAR"),
        (mid in flags["wounded"], "wounded"),
        (man.weapon == "bolt_rifle" and inp.bolt_action == "half", "bolt-action rifle"),
    ):
        if applies:
            value *= HALF
            reasons.append(f"x1/2 {why}")
    fp = floor(value)
    if inp.british_lower_fp and fp > BRITISH_LOWER_FP_MINIMUM:
        fp = max(BRITISH_LOWER_FP_MINIMUM, fp - BRITISH_LOWER_FP)
        reasons.append(f"-{BRITISH_LOWER_FP} British (minimum {BRITISH_LOWER_FP_MINIMUM})")
    return fp, " ".join(reasons) + (f" = {fp}" if len(reasons) > 1 else "")


def fire_strength(inp: UpFrontFire) -> FireStrength:
    """Page 1: the group's FP, the FIRE cards played and the Final Fire Strength."""
    men = inp.men_data()
    deck = inp.deck_data()
    ids = men_by_id(men, "firers", inp.firers)
    if len(set(ids)) != len(ids):
        raise InputError("firers", "each man once", shown(inp.firers))
    firers = [men.man(i) for i in ids]
    nations = {m.nationality for m in firers}
    if len(nations) != 1:
        raise InputError("firers", "men of one nationality", ", ".join(sorted(nations)))
    nationality = nations.pop()
    if inp.british_lower_fp and nationality != "british":
        raise InputError("british_lower_fp", "true only for British firers", nationality)
    flags = {
        "infiltrators": _ids(men, "infiltrators", inp.infiltrators, ids),
        "hero": _ids(men, "hero", split(inp.hero), ids),
        "wounded": _ids(men, "wounded_firers", inp.wounded_firers, ids),
        "transferring": _ids(men, "transferring_firers", inp.transferring_firers, ids),
        "malfunctioned": _ids(men, "malfunctioned", inp.malfunctioned, ids),
        "pinned": _ids(men, "pinned_firers", inp.pinned_firers, ids),
        "not_firing": _ids(men, "not_firing", inp.not_firing, ids),
    }
    both = sorted(flags["not_firing"] & flags["infiltrators"])
    if both:
        raise InputError("not_firing", "men not also named firing infiltrators", both[0])
    rows = []
    for man in firers:
        fp, why = _man_fp(man, inp, flags)
        rows.append((man.id, fp, why))
    fp = sum(r[1] for r in rows)
    cards = inventory_numbers("fire_cards", inp.fire_cards, deck)
    for number in cards:
        if not is_fire_card(deck.card(number), nationality):
            raise InputError(
                "fire_cards",
                f"inventory numbers of FIRE cards (or split-action cards FIRE for {nationality})",
                number,
            )
    total = sum(deck.card(n).value or 0 for n in cards)
    if not inp.call_off and not cards:
        raise InputError("fire_cards", "one or more FIRE cards (inventory numbers)", "")
    if total > fp:
        raise InputError("fire_cards", f"FIRE cards totalling at most the group's FP ({fp})", total)
    base = total
    modifiers: list[Modifier] = []
    if inp.moving and inp.moving_fire == "half":
        base = floor(Fraction(total) * HALF)
        modifiers.append(
            Modifier("moving group x1/2 (round down)", HALF, ModifierKind.FACTOR, PAGE1)
        )
    for value, label in (
        (inp.attacker_tem, "attacker TEM (wire, movement)"),
        (inp.defender_tem, "defender TEM (wire, movement)"),
        (inp.smoke, "smoke"),
        (-inp.concealment, "CONCEALMENT"),
        (BRITISH_MODIFIER if nationality == "british" else 0, "British"),
        (ITALIAN_MODIFIER if nationality == "italian" else 0, "Italian"),
        (COMMANDER_KIA_MODIFIER * inp.commander_kia, "commander KIA"),
    ):
        if value:
            modifiers.append(Modifier(label, Fraction(value), ModifierKind.VALUE, PAGE1))
    ffs = base + sum(int(m.value) for m in modifiers if m.kind is ModifierKind.VALUE)
    return FireStrength(tuple(rows), fp, cards, base, tuple(modifiers), ffs, nationality)


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
    pool = pool_for(inp, reads_for(inp), strength.cards)
    facts.append(("pool", f"{inp.pool}: {pool.start.size} cards"))
    if not inp.call_off:
        facts.extend(_odds_facts(fire_odds(inp)))
    return facts


FIRE: GroupProcedure[UpFrontFire] = GroupProcedure(
    name="fire",
    title="Firepower attack (page 1) and resolution on each man (page 3)",
    input_model=UpFrontFire,
    rule=_fire_rule,
    modifiers=_fire_modifiers,
    facts=_fire_facts,
    outcome_order=(*MAN_RESULTS, "called off"),
    meanings={**RESULT_MEANINGS, "called off": "the attacker called the attack off (page 1)"},
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
    exact_odds=_resolution_odds,
)

PROCEDURES = (FIRE, RESOLUTION)
