"""Page 1: Firepower Attacks, up to the Final Fire Strength.

The firing group's firepower (FP) at the current Relative Range is the sum of its men's, each
doubled, bracketed, halved or zeroed as page 1 lists (a Hero never lowers a man's FP: page 1
lists him among the x2 and prints no line that lowers it); FIRE cards totalling at most the FP
are played and their total is the Base Fire Strength; the attacker's and defender's terrain
(wire, smoke, movement), the defender's concealment, nationality and AFV commander losses
make the Final Fire Strength (FFS). :mod:`.fire` resolves it on the target (page 3 on each
man, page 4 on an AFV).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import floor
from typing import ClassVar, Literal

from pydantic import Field

from firefight.core.modifier import Modifier, ModifierKind
from firefight.errors import InputError, RuleError
from firefight.i18n import gettext
from firefight.rulesets.upfront.cards import Card
from firefight.rulesets.upfront.lists import CardNumbers, ManIds, shown, split
from firefight.rulesets.upfront.men import ORDNANCE, Man, MenData
from firefight.rulesets.upfront.pool import inventory_numbers, men_by_id
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
from firefight.rulesets.upfront.resolution import ROUT_TAKEN_DESCRIPTION, Readings, RoutTaken

__all__ = ["PAGE1", "FireStrength", "UpFrontFire", "fire_strength", "is_fire_card"]

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
            "The man with a Hero (id): x2, or x2 bracketed on an LMG/MMG (reading hero_on_mg), "
            "never below his FP without the Hero (page 1). On an "
            "uncrewable LMG the Hero needs an RNC (page 1), whose test is not printed: name "
            "him only when it allowed him."
        ),
    )
    hero_on_mg: Literal["doubled_bracketed", "bracketed"] = Field(
        "doubled_bracketed",
        description=(
            'A Hero on an LMG/MMG (page 1, "x2 Bracketed Hero on LMG/MMG", a heading of its '
            "own): doubled_bracketed (x2 on his bracketed FP; the second transcription's and "
            "docs/sources.md's reading) or bracketed (his bracketed FP alone). Either way a "
            "Hero never lowers a man's FP below his FP without the Hero."
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
            raise InputError(
                field_name,
                gettext("ids among the firers: {ids}").format(ids=", ".join(among)),
                man_id,
            )
    return ids


def _zero_fp(man: Man, flags: dict[str, set[str]]) -> str:
    """Page 1's 0 FP line: why this man fires 0 ("" when he fires)."""
    for name, why in (
        ("transferring", "transferring"),
        ("malfunctioned", "malfunctioned weapon"),
        ("pinned", "pinned"),
        ("not_firing", "non-firing infiltrator/flamethrower"),
    ):
        if man.id in flags[name]:
            return f"0: {why}"
    if man.crew in CREWMEN:
        return f"0: {man.crew}"
    if man.weapon == "unarmed":
        return "0: unarmed"
    if man.weapon in ORDNANCE:
        return "0: ordnance"
    return ""


def _bracketed_for(man: Man, inp: UpFrontFire, hero: bool) -> str:
    """Page 1's Bracketed list (and "x2 Bracketed Hero on LMG/MMG"): why this man fires his
    bracketed FP ("" when he does not)."""
    machine_gun = man.weapon in MACHINE_GUNS
    if machine_gun and hero:
        return "Hero on an MG"
    if machine_gun and not inp.mg_fully_crewed:
        return "MG not fully crewed"
    if man.weapon == "lmg" and inp.moving:
        return "moving LMG"
    if man.weapon == "lmg" and inp.stream_or_marsh:
        return "LMG in stream or marsh"
    return ""


def _built_fp(
    man: Man, inp: UpFrontFire, flags: dict[str, set[str]], hero: bool
) -> tuple[int, list[str]]:
    """One firing man's FP at the current RR, with or without the Hero (page 1): bracketed
    or not, then the doublings, then the halvings, rounded down once."""
    mid = man.id
    machine_gun = man.weapon in MACHINE_GUNS
    bracketed_for = _bracketed_for(man, inp, hero)
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
    return floor(value), reasons


def _man_fp(man: Man, inp: UpFrontFire, flags: dict[str, set[str]]) -> tuple[int, str]:
    """One firer's FP at the current RR with the reasons (page 1). A Hero never lowers it:
    page 1 lists the Hero among the x2 and no line of the chart lowers a man's FP for one,
    so where his bracketed (or x2 bracketed) FP is below the man's own, the man's own is
    fired."""
    zero = _zero_fp(man, flags)
    if zero:
        return 0, zero
    hero = man.id in flags["hero"]
    refused = ""
    if hero and man.weapon == "lmg" and man.crew == "none" and inp.hero_uncrewable_lmg != "given":
        hero = False
        refused = "Hero on an uncrewable LMG: no bonus (RNC test not printed)"
    fp, reasons = _built_fp(man, inp, flags, hero)
    if hero:
        alone, alone_reasons = _built_fp(man, inp, flags, False)
        if alone > fp:
            with_hero = " ".join(reasons)
            reasons = [
                *alone_reasons,
                f"(Hero: {with_hero} = {fp} is lower; a Hero never lowers FP)",
            ]
            fp = alone
    if refused:
        reasons.insert(1, refused)
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
                gettext(
                    "inventory numbers of FIRE cards (or split-action cards FIRE for {nationality})"
                ).format(nationality=nationality),
                number,
            )
    total = sum(deck.card(n).value or 0 for n in cards)
    if not inp.call_off and not cards:
        raise InputError("fire_cards", "one or more FIRE cards (inventory numbers)", "")
    if total > fp:
        raise InputError(
            "fire_cards",
            gettext("FIRE cards totalling at most the group's FP ({fp})").format(fp=fp),
            total,
        )
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
