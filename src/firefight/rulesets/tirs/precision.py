"""Test de précision (precision test) of "Les tirs" (seed 001), one pool of D10.

The firer rolls as many D10 as its rate of fire (cadence de tir, CdT) allows after the
"Modificateurs pour l'infanterie et armes de soutien": short range x2 and long range x1/2
(neither for mortars), firing while moving x1/2 (halves round down). Each die hits when its
result plus the die modifiers is at most the firer's experience on the "Test de précision (D10)"
chart (novice 4, trained 5, veteran 6). The pool is ONE event, counted in closed form.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from typing import ClassVar, Literal

from pydantic import Field

from firefight.chance import Chance, Dice, exact
from firefight.core.chart import Chart, load_chart
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier, ModifierKind
from firefight.errors import RuleError
from firefight.i18n import gettext as _
from firefight.rulesets.procedure import Procedure
from firefight.rulesets.tirs.paths import DATA

__all__ = [
    "EXPERIENCE_LABELS",
    "PRECISION",
    "PROCEDURES",
    "Experience",
    "FireSheet",
    "Range",
    "TirsPrecision",
    "Weapon",
    "dice_modifier",
    "fire_sheet",
    "hits_odds",
    "modifiers",
    "modifiers_chart",
    "number_of_dice",
    "precision",
    "precision_chart",
]

Experience = Literal["novice", "trained", "veteran"]
Range = Literal["short", "medium", "long"]
Weapon = Literal[
    "infantry", "light_support", "medium_support", "heavy_support", "flamethrower", "mortar"
]
FirerState = Literal["normal", "pinned", "demoralized"]

EXPERIENCE_LABELS: dict[str, str] = {
    "novice": "Novice",
    "trained": "Entraîné",
    "veteran": "Vétéran",
}
"""English input value -> the chart's French row label."""

PRECISION_RULE = "Les tirs: Test de précision (D10)"
MODIFIERS_RULE = "Les tirs: Modificateurs pour l'infanterie et armes de soutien"
MOVING_RULE = "Les tirs: Tir en mouvement"
OPPORTUNITY_RULE = "Les tirs: Tir d'opportunité contre une cible en mouvement"
GROUP_RULE = "Les tirs: Effets des tirs contre un groupe (cloué, démoralisé)"
D10_FACES = range(1, 11)


@cache
def precision_chart() -> Chart:
    """The "Test de précision (D10)" chart, loaded once from ``data/precision.toml``."""
    return load_chart(DATA / "precision.toml")


@cache
def modifiers_chart() -> Chart:
    """The modifiers chart, loaded once from ``data/modifiers.toml``."""
    return load_chart(DATA / "modifiers.toml")


def _cell(row: str, column: str) -> str:
    return modifiers_chart().cell_at(row, column).value


def _factor(row: str) -> Fraction:
    """A rate-of-fire modifier as printed (``x2``, ``/2``) as an exact factor."""
    printed = _cell(row, "Cadence de tir")
    if printed.startswith("x"):
        return Fraction(int(printed[1:]))
    return Fraction(1, int(printed[1:]))


def _die(row: str) -> int:
    return int(_cell(row, "Dé"))


class TirsPrecision(RuleInput):
    """One direct fire's precision test (Test de précision; Modificateurs pour l'infanterie et
    armes de soutien; Tir en mouvement; Tir d'opportunité contre une cible en mouvement)."""

    readings: ClassVar[frozenset[str]] = frozenset({"moving_fire_rate"})
    """The fields that read the rules where they are silent (folded apart on the web)."""

    cdt: int = Field(
        ge=1,
        le=20,
        description="Cadence de tir (CdT): the firer's rate of fire, one D10 per point.",
    )
    experience: Experience = Field(
        description=(
            "The firer's experience, the most a die may show after modifiers to hit "
            "(Test de précision (D10)): novice = Novice 4, trained = Entraîné 5, "
            "veteran = Vétéran 6."
        ),
    )
    range: Range = Field(
        "medium",
        description=(
            "Range band (portée) of the base-to-base distance, from the weapon's data sheet: "
            "short = Portée courte, CdT x2; medium; long = Portée longue, CdT x1/2 rounded "
            "down (neither for mortars)."
        ),
    )
    weapon: Weapon = Field(
        "infantry",
        description=(
            "What fires: infantry (flat-trajectory small arms); light/medium/heavy_support "
            "(armes de soutien); flamethrower (lance-flammes); mortar (mortier, curved fire: "
            "no range modifier)."
        ),
    )
    firer_moving: bool = Field(
        False,
        description=(
            "Tireur en mouvement: CdT x1/2 rounded down; short range only; infantry only "
            "(Tir en mouvement), flamethrowers excepted; never for medium or heavy support."
        ),
    )
    firer_state: FirerState = Field(
        "normal",
        description=(
            "The firer's state: pinned (cloué) fires at +2 to the die and cannot move; "
            "demoralized (démoralisé) cannot fire."
        ),
    )
    target_moving: bool = Field(
        False,
        description=(
            "Cible en mouvement: -2 to each die. An opportunity fire at a target that moved "
            "at most half (opportunity_half_move) is a fire at a moving target: it applies "
            "there whatever this says."
        ),
    )
    protection: int = Field(
        0,
        ge=0,
        le=6,
        description=(
            "Cible protégée par le terrain: the terrain's protection, added to each die "
            "(values from your terrain data; the rules print none)."
        ),
    )
    target_camouflaged: bool = Field(
        False,
        description="Cible camouflée (shown by a camouflage marker, not identified): +3.",
    )
    leader_aptitude: int = Field(
        0,
        ge=0,
        le=5,
        description=(
            "Aptitude à commander of a leader in contact directing a support weapon's fire, "
            "applied to each die (see leader_aptitude_applies); 0 = no leader."
        ),
    )
    opportunity_half_move: bool = Field(
        False,
        description=(
            "Opportunity fire on a target that moved at most half its movement: the rate of "
            "fire falls to one D10 (Tir d'opportunité contre une cible en mouvement)."
        ),
    )
    element_share: Literal["whole", "half"] = Field(
        "whole",
        description=(
            "whole = the firer's whole CdT; half = one element of a two-element group in "
            "mixed states firing its own half of the group's CdT with its own state "
            "(mixed_group_fire=by_element of the Python engine): CdT x1/2, with the other "
            "factors, rounded down once."
        ),
    )
    moving_fire_rate: Literal["chart_order", "halved_only"] = Field(
        "chart_order",
        description=(
            "Reading of fire on the move at short range: chart_order = short x2 and moving "
            "x1/2 both apply (n = CdT); halved_only = the fire on the move is the half CdT "
            "alone (n = CdT/2 rounded down)."
        ),
    )
    light_support_moving: Literal["forbidden", "allowed"] = Field(
        "forbidden",
        description=(
            "Light support weapons firing on the move: forbidden = Tir en mouvement (only "
            "infantry; light, medium and heavy support cannot); allowed = the modifiers "
            "list (impossible only for medium and heavy)."
        ),
    )
    leader_aptitude_applies: Literal["subtract", "add"] = Field(
        "subtract",
        description=(
            "How a leader's aptitude is applied to the die (the rules say only 'appliquer'): "
            "subtract = it helps the fire (a die hits when low); add = as a malus."
        ),
    )


def number_of_dice(inp: TirsPrecision) -> int:
    """The number of D10: CdT times the rate-of-fire factors, rounded down once (so short x2
    then moving x1/2 gives back the CdT); an opportunity fire on a target that moved at most
    half its movement rolls at most one die. Raises RuleError where the rules forbid the fire."""
    check_fire(inp)
    factor = Fraction(1)
    for modifier in factor_modifiers(inp):
        factor *= modifier.value
    n = math.floor(inp.cdt * factor)
    if inp.opportunity_half_move:
        n = min(n, 1)
    if n < 1:
        msg = _(
            "rate of fire {cdt} x {factor} = {product} rounds down to 0 dice: this fire cannot "
            "be made (Modificateurs: arrondir à l'entier inférieur)"
        ).format(cdt=inp.cdt, factor=factor, product=inp.cdt * factor)
        raise RuleError(msg)
    return n


def check_fire(inp: TirsPrecision) -> None:
    """Fires the rules forbid: a demoralized firer; fire on the move by a pinned element, a
    support weapon, or beyond short range (Tir en mouvement; effets: cloué, démoralisé)."""
    if inp.firer_state == "demoralized":
        msg = _("a demoralized element cannot move or fire (Les tirs: Démoralisé)")
        raise RuleError(msg)
    if inp.leader_aptitude and inp.weapon == "infantry":
        msg = _(
            "'leader_aptitude' applies only to a support weapon's fire directed by a leader "
            "in contact (got {aptitude} with weapon infantry)"
        ).format(aptitude=inp.leader_aptitude)
        raise RuleError(msg)
    if not inp.firer_moving:
        return
    if inp.firer_state == "pinned":
        msg = _("a pinned element cannot move, so it cannot fire on the move (Les tirs: Cloué)")
        raise RuleError(msg)
    forbidden = {"medium_support", "heavy_support", "mortar"}
    if inp.light_support_moving == "forbidden":
        forbidden.add("light_support")
    if inp.weapon in forbidden:
        msg = _(
            "weapon {weapon} cannot fire on the move: only infantry may, flamethrowers "
            "excepted (light_support_moving={light_support_moving}; {moving_rule})"
        ).format(
            weapon=inp.weapon,
            light_support_moving=inp.light_support_moving,
            moving_rule=MOVING_RULE,
        )
        raise RuleError(msg)
    if inp.range != "short":
        msg = _(
            "fire on the move is made at short range only (got range {range}; {moving_rule})"
        ).format(range=inp.range, moving_rule=MOVING_RULE)
        raise RuleError(msg)


def factor_modifiers(inp: TirsPrecision) -> list[Modifier]:
    """The rate-of-fire (CdT) factors, in the chart's order."""
    mortar = inp.weapon == "mortar"
    cases = [
        (
            inp.range == "short"
            and not mortar
            and not (inp.firer_moving and inp.moving_fire_rate == "halved_only"),
            "Portée courte",
            "short range",
        ),
        (inp.range == "long" and not mortar, "Portée longue", "long range"),
        (inp.firer_moving, "Tireur en mouvement", "firer moving"),
    ]
    found = [
        Modifier(f"{label} ({row})", _factor(row), ModifierKind.FACTOR, f"{MODIFIERS_RULE}: {row}")
        for applies, row, label in cases
        if applies
    ]
    if inp.element_share == "half":
        found.append(
            Modifier(
                "one element's half of its group's CdT",
                Fraction(1, 2),
                ModifierKind.FACTOR,
                f"{GROUP_RULE} (a group in mixed states fires element by element)",
            )
        )
    return found


def dice_modifiers(inp: TirsPrecision) -> list[Modifier]:
    """The modifiers to each D10, in the chart's order."""
    aptitude = (
        -inp.leader_aptitude if inp.leader_aptitude_applies == "subtract" else inp.leader_aptitude
    )
    cases = [
        (
            inp.target_moving or inp.opportunity_half_move,
            "Cible en mouvement",
            "target moving" if inp.target_moving else "target moving, fired on as it moves",
            _die("Cible en mouvement"),
        ),
        (inp.protection > 0, "Cible protégé par le terrain", "terrain protection", inp.protection),
        (inp.target_camouflaged, "Cible camouflé", "target camouflaged", _die("Cible camouflé")),
        (
            inp.leader_aptitude > 0,
            "Tir d'une arme de soutien dirigé par un chef",
            "leader directing the support weapon",
            aptitude,
        ),
        (
            inp.firer_state == "pinned",
            "Le tireur est cloué",
            "firer pinned",
            _die("Le tireur est cloué"),
        ),
    ]
    return [
        Modifier(f"{label} ({row})", Fraction(value), ModifierKind.DICE, f"{MODIFIERS_RULE}: {row}")
        for applies, row, label, value in cases
        if applies
    ]


def modifiers(inp: TirsPrecision) -> list[Modifier]:
    """Every modifier: rate-of-fire factors first, then die modifiers."""
    return factor_modifiers(inp) + dice_modifiers(inp)


def dice_modifier(inp: TirsPrecision) -> int:
    """The sum of the die modifiers."""
    return int(sum(m.value for m in dice_modifiers(inp)))


def experience_value(experience: str) -> int:
    """The most a die may show to hit, read from the Test de précision (D10) chart."""
    return int(precision_chart().cell_at(EXPERIENCE_LABELS[experience], "D10").value)


@dataclass(frozen=True, slots=True)
class FireSheet:
    """What a fire brings to the table before the dice are rolled."""

    dice: int
    modifier: int
    experience: int
    test: Callable[[int], bool]

    @property
    def pool(self) -> Dice:
        """The pool of D10, one per point of rate of fire after modifiers."""
        return Dice.d(10, self.dice)

    @property
    def hit_chance(self) -> Fraction:
        """The chance that one D10 hits."""
        return Fraction(sum(1 for face in D10_FACES if self.test(face)), 10)

    @property
    def label(self) -> str:
        """The trace label of the pool event."""
        return (
            f"precision test ({self.dice} D10, hit on die {self.modifier:+} <= {self.experience})"
        )


@lru_cache(maxsize=4096)
def fire_sheet(inp: TirsPrecision) -> FireSheet:
    """Check the fire is allowed, then work out the pool and the hit test (once per input:
    exact odds re-run the rule for every branch)."""
    n = number_of_dice(inp)
    modifier = dice_modifier(inp)
    target = experience_value(inp.experience)

    def test(face: int) -> bool:
        return face + modifier <= target

    return FireSheet(n, modifier, target, test)


def hits_odds(inp: TirsPrecision) -> dict[int, Fraction]:
    """The exact distribution of the number of hits: the precision test's own pool event,
    evaluated exactly (binomial, closed form)."""
    sheet = fire_sheet(inp)
    return dict(exact(lambda chance: chance.count(sheet.pool, sheet.test, sheet.label)))


def hits_label(hits: int) -> str:
    """``"0 hits"``, ``"1 hit"``, ``"2 hits"``: the outcome codes of ``precision``."""
    return f"{hits} hit{'' if hits == 1 else 's'}"


def precision(inp: TirsPrecision, chance: Chance) -> str:
    """Roll the precision test: one pool of D10, counted as ONE event."""
    sheet = fire_sheet(inp)
    hits = chance.count(sheet.pool, sheet.test, sheet.label)
    return hits_label(hits)


def facts(inp: TirsPrecision) -> list[tuple[str, str]]:
    """The derived values a player checks: dice, the hit number and one die's chance."""
    sheet = fire_sheet(inp)
    dice = str(sheet.dice)
    if inp.opportunity_half_move:
        dice += " (opportunity fire on a target that moved at most half: one D10)"
    highest = sheet.experience - sheet.modifier
    return [
        ("D10 rolled", dice),
        (
            "a die hits on",
            f"{highest} or less ({EXPERIENCE_LABELS[inp.experience]} {sheet.experience}, "
            f"modifier {sheet.modifier:+})",
        ),
        ("chance per die", str(sheet.hit_chance)),
    ]


PRECISION: Procedure[TirsPrecision] = Procedure(
    name="precision",
    title="Test de précision (precision test): hits from a pool of D10",
    input_model=TirsPrecision,
    rule=precision,
    modifiers=modifiers,
    chart="precision",
    outcome_order=tuple(hits_label(k) for k in range(41)),
    facts=facts,
)

PROCEDURES = (PRECISION,)
