"""V&V 14 Anti-Personnel combat: the AP attack roll on the AP Combat Table (14.5, seed 003).

The fire group's APFP (14.2: combined; 16.3: +1 per valorous firing unit) picks the row; the
attack dice roll (2d6) plus the target hex's cover (13.4), its fortification's (20), the
hindrances along the LOS (9.3, cumulative), the best leader's Leadership Modifier (13.6),
-1 per Grenades counter against an adjacent hex (12.52), +1 for a target using Assault
Movement (6.4) and, for opportunity fire, -1 against a target with no positive cover and -2
against an adjacent one (13.8), picks the column, clamped to 2 ... 12+. The cell is the
Casualty Points. Support missions read only the target hex's terrain (21.5), as do mortars
(12.63), whose CPs on infantry in woods or jungle are doubled (12.64).
A natural 2 makes every infantry unit of the fire group check for valor (16.2); a natural 12
activates the opposing sniper (17.2).

Parts, their public names re-exported here: the charts and cover
(:mod:`~firefight.rulesets.vv.ap_cover`) and the attack as stated, with its checks
(:mod:`~firefight.rulesets.vv.ap_input`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from firefight.board.board import Board
from firefight.board.hexes import Hex
from firefight.board.los import line_of_sight
from firefight.chance import Chance, exact
from firefight.chance.distribution import Distribution
from firefight.chance.phases import KnownPhase, Phases
from firefight.chance.process import Process
from firefight.core.modifier import Modifier, ModifierKind
from firefight.errors import RuleError
from firefight.i18n import gettext
from firefight.rulesets.procedure import Procedure
from firefight.rulesets.vv.ap_cover import (
    BOARD_TERRAINS,
    COLOUR_ROWS,
    DATA,
    ENTRENCHMENTS,
    FORTIFICATION_ROWS,
    FORTIFICATIONS_OPEN_ONLY,
    INFANTRY_ATTACKS,
    NO_ENTRENCHMENT_TERRAINS,
    OPEN_TERRAINS,
    SUPPORT_MISSIONS,
    TARGET_HEX_ONLY,
    TERRAIN_ROWS,
    AttackKind,
    FirerKind,
    Fortification,
    TargetTerrain,
    ap_combat_table,
    fortification_cover,
    fortifications,
    terrain_cover,
    terrain_effects,
)
from firefight.rulesets.vv.ap_input import VvApAttack, check_attack, check_position
from firefight.rulesets.vv.at import MORTAR_MINIMUM_RANGE
from firefight.rulesets.vv.board import VV_LOS
from firefight.rulesets.vv.natural import attack_dice_roll, natural_facts
from firefight.rulesets.vv.support import MORTAR, doubles_casualty_points
from firefight.rulesets.vv.valor import ValorUnit, triggers_valor, valor_check

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "AP_ATTACK",
    "BOARD_TERRAINS",
    "COLOUR_ROWS",
    "DATA",
    "ENTRENCHMENTS",
    "FORTIFICATIONS_OPEN_ONLY",
    "FORTIFICATION_ROWS",
    "INFANTRY_ATTACKS",
    "NO_ENTRENCHMENT_TERRAINS",
    "OPEN_TERRAINS",
    "OUTCOMES",
    "PROCEDURES",
    "SUPPORT_MISSIONS",
    "TARGET_HEX_ONLY",
    "TERRAIN_ROWS",
    "AttackKind",
    "FirerKind",
    "Fortification",
    "TargetTerrain",
    "VvApAttack",
    "ap_attack",
    "ap_combat_table",
    "attack_roll",
    "check_attack",
    "check_position",
    "facts",
    "fire_group_apfp",
    "firers",
    "fortification_cover",
    "fortifications",
    "modifier_rows",
    "modifiers",
    "row_label",
    "terrain_cover",
    "terrain_effects",
    "with_board",
]


def _own_hindrance(inp: VvApAttack) -> int:
    """21.5, 12.63: an orchard's or crops' +1 counts as the target hex's terrain for an attack
    that only the target hex modifies (support missions, mortars)."""
    if inp.attack in TARGET_HEX_ONLY and inp.target_terrain in ("orchard", "crops"):
        return 1
    return 0


def _cover_total(inp: VvApAttack) -> int:
    """The target's cover: terrain, fortification and Assault Movement (13.4, 20, 6.4)."""
    return (
        terrain_cover(inp.target_terrain)
        + fortification_cover(inp.fortification)
        + (1 if inp.target_assault_movement else 0)
    )


def modifiers(inp: VvApAttack) -> list[Modifier]:
    """The modifiers to the attack dice roll, each with its section."""
    found: list[Modifier] = []

    def add(value: int, label: str, rule: str) -> None:
        if value:
            found.append(Modifier(label, Fraction(value), ModifierKind.DICE, rule))

    add(terrain_cover(inp.target_terrain), f"target in {inp.target_terrain}", "13.4")
    add(
        _own_hindrance(inp),
        f"target in {inp.target_terrain} (the target hex's terrain)",
        "12.63" if inp.attack == MORTAR else "21.5",
    )
    add(fortification_cover(inp.fortification), inp.fortification.replace("_", " "), "13.4, 20")
    add(1 if inp.target_assault_movement else 0, "target using Assault Movement", "6.4")
    add(inp.hindrance, f"hindrances ({inp.hindrance})", "9.3, 13.4")
    add(inp.leadership_modifier, "leadership modifier", "13.6, 14.2")
    add(-inp.grenades, f"grenades ({inp.grenades})", "12.52")
    add(1 if inp.firing_from_barbed_wire else 0, "firing from barbed wire", "20.8")
    if inp.opportunity_fire:
        positive = _cover_total(inp) > 0
        if inp.opportunity_no_cover == "no_cover_or_hindrance":
            positive = positive or inp.hindrance > 0
        add(0 if positive else -1, "opportunity fire, no cover", "13.8")
        add(-2 if inp.adjacent else 0, "opportunity fire, adjacent hex", "13.8")
    return found


def modifier_rows(found: Iterable[Modifier]) -> list[dict[str, object]]:
    """Modifiers as the board's answers show them: label, whole value and rule (V&V's dice
    modifiers are whole numbers, AP's and AT's alike)."""
    return [{"label": m.label, "value": int(m.value), "rule": m.rule} for m in found]


def fire_group_apfp(inp: VvApAttack) -> int:
    """14.2 and 16.3: the combined APFP, +1 per valorous firing unit."""
    return (inp.apfp or 0) + inp.valorous_firers


def row_label(inp: VvApAttack) -> str:
    """The AP Combat Table row: the APFP band, or the colour row of an air or artillery attack."""
    if inp.attack in SUPPORT_MISSIONS:
        return COLOUR_ROWS[inp.attack]
    table = ap_combat_table()
    return table.rows.labels[table.rows.index(fire_group_apfp(inp))]


def firers(inp: VvApAttack) -> list[tuple[str, FirerKind, int]]:
    """The firing infantry units that check for valor (16.2)."""
    found = [
        ("firer1", inp.firer1, inp.firer1_casualty_rating),
        ("firer2", inp.firer2, inp.firer2_casualty_rating),
        ("firer3", inp.firer3, inp.firer3_casualty_rating),
    ]
    return [f for f in found if f[1] != "none"]


@lru_cache(maxsize=1024)
def _prepared(inp: VvApAttack) -> tuple[str, int]:
    """The row and the sum of the dice modifiers, once per input (odds re-run the rule)."""
    check_attack(inp)
    return row_label(inp), int(sum(m.value for m in modifiers(inp)))


@dataclass(frozen=True, slots=True)
class Rolled:
    """An attack between its phases: the Casualty Points as printed, whether its valor checks
    are due (a natural 2 with the valor option on, 16.2) and the firers found valorous so far."""

    cps: str
    valor_due: bool = False
    valorous: tuple[str, ...] = ()

    @property
    def suffix(self) -> str:
        """The valor checks' result as the outcome prints it (``" valor:firer1+firer3"``)."""
        if not self.valor_due:
            return ""
        return " valor:" + ("+".join(self.valorous) if self.valorous else "none")


def roll_attack(inp: VvApAttack, chance: Chance) -> Rolled:
    """Roll the attack (14.5): the Casualty Points as printed, and whether valor checks follow."""
    row, total = _prepared(inp)
    valor_rolled = inp.valor == "with_attacker_valor" and inp.attack in INFANTRY_ATTACKS
    roll = attack_dice_roll(
        chance,
        "attack dice roll (2d6)",
        infantry=inp.attack in INFANTRY_ATTACKS,
        valor_rolled=valor_rolled,
    )
    modified = roll + total
    cell = ap_combat_table().lookup_label(row, modified)
    chance.note("14.5 AP Combat Table", f"modified roll {modified}: {cell}")
    cps = cell.value
    if cps != "-" and doubles_casualty_points(
        inp.attack,
        inp.target_terrain,
        infantry=inp.target_infantry,
        fighter_bombers=inp.fighter_bombers,
    ):
        cps = str(2 * int(cps))
        chance.note(
            "12.64 air burst" if inp.attack == MORTAR else "21.6 air burst",
            f"{cell.value} CPs doubled on infantry in {inp.target_terrain}: {cps}",
        )
    return Rolled(cps, valor_rolled and triggers_valor(roll))


@dataclass(frozen=True, eq=False)
class ValorCheck(KnownPhase[Rolled]):
    """One firing unit's valor check (16.2) as a phase: where the attack's checks are due it
    rolls them, else it leaves the attack as it is, and its exact kernel says so without an
    evaluation of the phase (most of an attack's states call for no check)."""

    name: str
    kind: FirerKind
    rating: int | None

    def __call__(self, state: Rolled, chance: Chance) -> Rolled:
        if self.kind == "none" or not state.valor_due:
            return state
        if not valor_check(self.kind, self.rating, chance, label=self.name):
            return state
        return Rolled(state.cps, True, (*state.valorous, self.name))

    def kernel(self, state: Rolled) -> tuple[tuple[Rolled, Fraction], ...]:
        if self.kind == "none" or not state.valor_due:
            return ((state, Fraction(1)),)
        found = Rolled(state.cps, True, (*state.valorous, self.name))
        return tuple(
            (found if valorous else state, p) for valorous, p in self._check_odds().items()
        )

    def _check_odds(self) -> Distribution[bool]:
        """The check's own odds (the same whatever the attack's state), evaluated once."""
        return _valor_odds(self.kind, self.rating, self.name)

    def draw(self, state: Rolled, runs: int, rng: np.random.Generator) -> list[tuple[Rolled, int]]:
        if self.kind == "none" or not state.valor_due:
            return [(state, runs)]
        found = self.kernel(state)
        counts = rng.multinomial(runs, [float(p) for _, p in found])
        return [(s, int(n)) for (s, _), n in zip(found, counts, strict=True) if n]


@lru_cache(maxsize=64)
def _valor_odds(kind: ValorUnit, rating: int | None, name: str) -> Distribution[bool]:
    """Whether a unit's valor check (16.2) makes it valorous, exactly."""
    return exact(lambda chance: valor_check(kind, rating, chance, label=name))


def valor_phases(inp: VvApAttack) -> tuple[Callable[[Rolled, Chance], Rolled], ...]:
    """One phase a firing unit: its valor check (16.2) where the attack's are due."""
    return tuple(ValorCheck(name, kind, rating) for name, kind, rating in firers(inp))


def attack_phases(inp: VvApAttack) -> tuple[Callable[[Any, Chance], Rolled], ...]:
    """The attack as phases over :class:`Rolled`: the attack roll, then each firer's valor
    check (the state engine merges equal states between them)."""

    def first(_: Rolled | None, chance: Chance) -> Rolled:
        return roll_attack(inp, chance)

    return (first, *valor_phases(inp))


def attack_roll(inp: VvApAttack, chance: Chance) -> tuple[str, str]:
    """Roll the attack (14.5): the Casualty Points as printed, and the valor suffix if asked."""
    state: Rolled | None = None
    for phase in attack_phases(inp):
        state = phase(state, chance)
    assert state is not None
    return state.cps, state.suffix


def attack_states(inp: VvApAttack) -> Distribution[Rolled]:
    """The exact distribution of the attack's :class:`Rolled` after its phases: each phase's
    exact odds from each distinct state, equal states merged (the firers' valor checks are
    not replayed once per branch of the attack roll and of every check before)."""
    phases: Phases[Any] = Phases(attack_phases(inp))
    return Process(phases, name="AP attack").after(None, 1)


def ap_attack(inp: VvApAttack, chance: Chance) -> str:
    """The Casualty Points ("-" none), with the valor checks' result if asked (16.2)."""
    cps, suffix = attack_roll(inp, chance)
    return cps + suffix


def ap_attack_odds(inp: VvApAttack) -> Distribution[str]:
    """The exact odds of :func:`ap_attack`, over :func:`attack_states`."""
    return attack_states(inp).map(lambda rolled: rolled.cps + rolled.suffix)


def facts(inp: VvApAttack) -> list[tuple[str, str]]:
    """The row read and the combined APFP; for an infantry attack, the chance of a natural 2
    (valor checks, 16.2) and of a natural 12 (a sniper activated, 17.2)."""
    found = [("AP Combat Table row", row_label(inp))]
    if inp.attack in INFANTRY_ATTACKS:
        label = "mortar APFP" if inp.attack == MORTAR else "fire group APFP"
        found.insert(0, (label, str(fire_group_apfp(inp))))
        found.extend(natural_facts())
    else:
        found.append(("row read from", "the chart's colours"))
    return found


def with_board(
    inp: VvApAttack,
    board: Board,
    firer: Hex,
    target: Hex,
    *,
    spotter: Hex | None = None,
    hindrance: int | None = None,
) -> VvApAttack:
    """The attack with its hindrances, target terrain and adjacency read from a board.

    The hindrance count is the V&V line of sight's modifier (``line_of_sight(...).modifier``);
    a blocked line is a :class:`RuleError`. A support mission or a mortar reads only the
    target hex's terrain (21.5, 12.63): no hindrance; the line checked is the spotter's when
    one is given (12.62, 21.3), none for a fighter-bomber (21.3). A fortification the target
    hex's terrain does not allow is refused (20.2), as is a mortar inside its minimum range
    (12.65) or in a building hex (12.61). The target hex's terrain always replaces
    ``target_terrain``: a hay stack or palm grove hex reads as an orchard, a bridge as a road,
    beach, canal, pond, marsh, ocean and river as open ground (their Terrain Effects rows).
    ``hindrance``: the line's modifier when the caller has it already from a visible set under
    the same V&V LOS policy (a threat map reads thousands of lines at once); the line is then
    not traced again.
    """
    terrain = board.terrain_of(target)
    check_position(inp.fortification, terrain)
    if inp.attack == MORTAR:
        if firer.distance(target) < MORTAR_MINIMUM_RANGE:
            msg = gettext(
                "mortars may not fire at {hex} from {hex2}: their minimum range is 2 hexes (12.65)"
            ).format(hex=board.label(target), hex2=board.label(firer))
            raise RuleError(msg)
        if board.terrain_of(firer) == "building":
            msg = gettext("mortars may not fire from building hexes (12.61): {hex}").format(
                hex=board.label(firer)
            )
            raise RuleError(msg)
    seer = spotter if spotter is not None else firer
    if inp.attack == "fighter_bomber":
        hindrance = 0
    elif hindrance is None or spotter is not None:
        verdict = line_of_sight(board, seer, target, VV_LOS)
        if not verdict.visible:
            msg = gettext("no line of sight from {hex} to {hex2}: {verdict}").format(
                hex=board.label(seer), hex2=board.label(target), verdict=verdict
            )
            raise RuleError(msg)
        hindrance = verdict.modifier
    update: dict[str, object] = {"hindrance": 0 if inp.attack in TARGET_HEX_ONLY else hindrance}
    row = terrain if terrain in TERRAIN_ROWS else BOARD_TERRAINS.get(terrain)
    if row is None:
        msg = gettext("{hex}: terrain {terrain} is not a V&V terrain").format(
            hex=board.label(target), terrain=repr(terrain)
        )
        raise RuleError(msg)
    update["target_terrain"] = row
    if inp.attack in INFANTRY_ATTACKS:
        update["adjacent"] = firer.distance(target) == 1
    return inp.model_validate({**inp.model_dump(), **update})


OUTCOMES = ("20", "18", "16", "14", "12", "10", "9", "8", "7", "6", "5", "4", "3", "2", "1", "-")
"""CPs from most to none; above 10 only when 21.6 doubles a barrage's result."""

AP_ATTACK: Procedure[VvApAttack] = Procedure(
    name="ap_attack",
    title="AP attack (14.5)",
    input_model=VvApAttack,
    rule=ap_attack,
    modifiers=modifiers,
    chart="ap_combat",
    outcome_order=OUTCOMES,
    facts=facts,
    meanings={"-": "no effect"},
    exact_odds=ap_attack_odds,
)

PROCEDURES = (AP_ATTACK,)
