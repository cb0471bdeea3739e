"""V&V opportunity fire on a moving stack: who may fire where, and with what (V&V 13.8).

A stack moves hex by hex (:func:`~firefight.rulesets.vv.movement.plan_move`); at each hex it
enters, the enemy may fire on it (13.8). This module finds who may fire where and builds each
attack; :mod:`.fire_policies` decides who fires at which hex, :mod:`.move_steps` runs the move
as a state process on the chance engine and :mod:`.move_results` answers its exact odds or one
run.

Who may fire at a hex entered (:func:`opportunities`):

* every enemy **fire group** (14.2: the unpinned infantry of one hex without a Fire marker fire
  together at the same target, their APFP combined as 12.3 says for the support weapons they
  carry; 13.6: the best unfired leader's Leadership Modifier), and every enemy Gun, AFV or
  vehicle by itself (14.4; within its FFA unless turreted, 7.4; MG range 8, Gun unlimited);
* with range (13.3: the target hex counted) and LOS on the board (the V&V LOS policy): a hex
  whose LOS from the firer is blocked cannot be fired on, so entering a hex that takes the
  stack out of LOS gives no attack there (13.8);
* mortars never (12.61): a unit carrying one fires its own APFP only;
* an enemy sniper on the board (17.4): once a turn, at moving infantry within 6 hexes and LOS;
  17.5's attack (1d6 above the target's cover and hindrances), then the Sniper Elimination
  Check by the units targeted (17.6).

The attack (:func:`attack_at`): the AP attack of :mod:`~firefight.rulesets.vv.ap` with
``opportunity_fire`` and its modifiers read from the board by ``with_board`` (cover,
hindrances along the LOS and hexsides, -1 against no positive cover, -2 adjacent, 13.8;
Assault Movement +1, 6.4; a fortification's cover, by the ``fortification_cover`` reading;
+1 firing from barbed wire, 20.8), rolled by :func:`roll_cps`. A natural 2 makes every
infantry unit of the fire group check for valor (16.2), a natural 12 activates the moving
side's sniper (17.2): both are rolled or noted in the trace (neither changes the moving units).

The threat on one hex without a path: :func:`attacks_on` (every firer's attack on units of a
side entering a hex; :func:`firers`, :func:`attack_at` for one firer; :func:`cp_odds` and
:func:`sniper_odds` the exact CPs of an attack).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, lru_cache
from typing import Literal

from firefight.board.hexes import Hex
from firefight.board.los import line_of_sight
from firefight.chance import Chance, exact
from firefight.chance.distribution import Distribution
from firefight.rulesets.vv.ap import (
    BOARD_TERRAINS,
    TERRAIN_ROWS,
    VvApAttack,
    ap_combat_table,
    fortification_cover,
    modifier_rows,
    modifiers,
    row_label,
    terrain_cover,
    with_board,
)
from firefight.rulesets.vv.board import VV_LOS
from firefight.rulesets.vv.movement import MovePlan
from firefight.rulesets.vv.natural import attack_dice_roll
from firefight.rulesets.vv.scenario import (
    INFANTRY_TYPES,
    BoardScenario,
    ScenarioUnit,
    ffa_contains,
)
from firefight.rulesets.vv.support import (
    VvSniperAttack,
    sniper_attack,
)
from firefight.rulesets.vv.valor import triggers_valor, valor_check

SNIPER_RANGE = 6
"""17.4: a sniper fires on opportunity at a target within six hexes."""
FortificationCover = Literal["path_end", "always", "never"]
NoCoverReading = Literal["no_cover_or_hindrance", "no_positive_cover"]
"""``VvApAttack.opportunity_no_cover``: when opportunity fire's -1 applies (docs/vv.md)."""
FORTIFICATION_COVER_HELP = (
    "When a moving unit has a fortification's or entrenchment's cover: path_end = only in "
    "the last hex of its path, where it enters the position (20.3: a unit entering the hex "
    "either goes on or enters the position); always = in every such hex entered; never."
)


@dataclass(frozen=True)
class Firer:
    """A fire group (14.2: the infantry of one hex), a Gun, AFV or vehicle alone (14.4), or a
    sniper (17.4). ``id``: its units' ids joined by ``+`` (``sniper-SIDE`` for a sniper)."""

    id: str
    hex: Hex
    units: tuple[ScenarioUnit, ...]
    kind: Literal["infantry", "vehicle", "sniper"]

    def named_by(self, name: str) -> bool:
        """Whether the player's ``name`` means this firer: its id, one of its units' ids, or
        ``sniper`` for a sniper."""
        if name == self.id or any(u.id == name for u in self.units):
            return True
        return self.kind == "sniper" and name == "sniper"


@dataclass(frozen=True)
class Opportunity:
    """One attack a firer may make at the hex entered ``index`` (from 1): the AP attack (or
    the sniper's ``target_cover``), its expected CPs and whether the hex is adjacent."""

    firer: Firer
    index: int
    hex: Hex
    label: str
    attack: VvApAttack | None
    target_cover: int
    sniper_cover: int
    expected_cps: Fraction
    adjacent: bool
    firer_label: str

    @property
    def score(self) -> Fraction:
        """What a fire policy weighs (:class:`Shot`): the attack's expected CPs."""
        return self.expected_cps

    def to_json(self) -> dict[str, object]:
        """The firer, the hex, the APFP and the modifiers, and the expected CPs."""
        data: dict[str, object] = {
            "firer": self.firer.id,
            "firer_hex": self.firer_label,
            "hex": self.label,
            "index": self.index,
            "expected_cps": str(self.expected_cps),
            "adjacent": self.adjacent,
        }
        if self.attack is not None:
            data["apfp"] = self.attack.apfp
            data["row"] = row_label(self.attack)
            data["modifiers"] = modifier_rows(modifiers(self.attack))
        else:
            data["target_cover"] = self.target_cover
        return data


def _weapon_apfp(unit: ScenarioUnit, distance: int) -> int:
    """12.3: a unit's APFP at ``distance`` with the support weapon it carries (a squad adds a
    Light or Heavy weapon's APFP to its own, a half squad a Light one's; a half squad firing a
    Heavy weapon and a leader firing a Light one use the weapon's APFP only; out of the unit's
    range but within the weapon's, only the weapon's). Mortars never fire on opportunity
    (12.61): a unit carrying one fires its own APFP."""
    own = unit.current_apfp if unit.range is not None and distance <= unit.range else 0
    kind = "half_squad" if unit.type == "squad" and unit.reduced else unit.type
    for weapon in unit.support_weapons:
        if weapon.weapon_class == "X" or weapon.kind == "mortar" or distance > weapon.range:
            continue
        if kind == "squad" or (kind == "half_squad" and weapon.weapon_class == "L"):
            return own + weapon.apfp
        if kind in ("half_squad", "leader"):
            return weapon.apfp
    return own


def firers(
    scenario: BoardScenario, side: str, *, holding: frozenset[str] = frozenset()
) -> tuple[Firer, ...]:
    """The units of the other sides that may fire on opportunity at ``side``'s moving units
    this Movement Phase: unpinned, no Fire marker (13.8); infantry of a hex as one fire group
    (14.2), each Gun, AFV or vehicle alone (14.4); each sniper on the board without a Fire
    marker (17.4). ``holding``: ids of units that keep their one opportunity attack for AT
    fire at the stack's vehicles (:mod:`~firefight.rulesets.vv.at_move`, 13.8, 18.1)."""
    found: list[Firer] = []
    by_hex: dict[Hex, list[ScenarioUnit]] = {}
    for unit in scenario.enemies_of(side):
        if unit.pinned or unit.fired or unit.id in holding or unit.is_passenger:
            continue  # 14.3: a passenger's fire group with its transport is not modelled
        if unit.type in INFANTRY_TYPES:
            by_hex.setdefault(unit.hex, []).append(unit)
        elif unit.apfp:
            found.append(Firer(unit.id, unit.hex, (unit,), "vehicle"))
    groups = [
        Firer("+".join(u.id for u in us), h, tuple(us), "infantry") for h, us in by_hex.items()
    ]
    snipers = [
        Firer(f"sniper-{s.side}", s.hex, (), "sniper")
        for s in scenario.snipers
        if s.side != side and not s.fired
    ]
    return (*groups, *found, *snipers)


def _fortification(plan: MovePlan, index: int, reading: FortificationCover) -> str:
    kind = plan.steps[index - 1].fortification
    if kind is None or kind in ("minefield", "barbed_wire"):
        return "none"
    if reading == "never" or (reading == "path_end" and index != len(plan.steps)):
        return "none"
    return kind


@lru_cache(maxsize=4096)
def cp_odds(attack: VvApAttack) -> Distribution[int]:
    """The exact distribution of the attack's CPs (the roll of :func:`roll_cps`)."""
    return exact(lambda chance: roll_cps(attack, chance, ()))


def expected(odds: Distribution[int]) -> Fraction:
    """The expected CPs of a distribution of CPs."""
    return sum((p * v for v, p in odds.items()), Fraction(0))


@cache
def sniper_odds(cover: int) -> Distribution[int]:
    """17.5: the exact distribution of a sniper's CPs against ``cover`` (the same rule)."""
    return exact(lambda chance: sniper_cps(cover, chance))


def sniper_cps(cover: int, chance: Chance) -> int:
    text = sniper_attack(VvSniperAttack(target_cover=cover), chance)
    return 0 if text == "-" else int(text)


def _terrain_row(terrain: str) -> str:
    return terrain if terrain in TERRAIN_ROWS else BOARD_TERRAINS.get(terrain, "open")


def _sniper_shot(
    scenario: BoardScenario,
    firer: Firer,
    target: Hex,
    *,
    index: int,
    hindrance: int,
    cover_bonus: int,
    infantry_target: bool,
) -> Opportunity | None:
    """17.4, 17.5: a sniper's shot at infantry entering ``target`` within six hexes: the target
    cover (its hex's terrain, ``cover_bonus`` for a fortification and Assault Movement, the
    line's hindrances, at most 8) and the sniper's own cover for the Elimination Check (17.6:
    its hex's terrain and the hindrances of the line read back)."""
    board = scenario.board
    distance = firer.hex.distance(target)
    if distance > SNIPER_RANGE or not infantry_target:
        return None
    own = terrain_cover(_terrain_row(board.terrain_of(target))) + cover_bonus
    cover = min(8, own + hindrance)
    back = line_of_sight(board, target, firer.hex, VV_LOS)
    sniper_cover = terrain_cover(_terrain_row(board.terrain_of(firer.hex))) + back.modifier
    return Opportunity(
        firer,
        index,
        target,
        board.label(target),
        None,
        cover,
        max(1, min(8, sniper_cover)),
        expected(sniper_odds(cover)),
        distance == 1,
        board.label(firer.hex),
    )


def _group_apfp(firer: Firer, target: Hex) -> tuple[int, int] | None:
    """A firer's APFP at ``target`` and its leader's modifier: a vehicle's own (within its
    range and FFA, 14.4, 7.4), a fire group's combined with its support weapons (12.3, 14.2)
    and its best leader's (13.6); none out of reach."""
    distance = firer.hex.distance(target)
    if firer.kind == "vehicle":
        unit = firer.units[0]
        reach = unit.fire_range
        if (reach is not None and distance > reach) or not ffa_contains(unit, target):
            return None
        return unit.apfp, 0
    apfp = sum(_weapon_apfp(u, distance) for u in firer.units)
    leadership = min((u.leadership_modifier for u in firer.units if u.type == "leader"), default=0)
    return apfp, leadership


def attack_at(
    scenario: BoardScenario,
    firer: Firer,
    target: Hex,
    *,
    index: int = 0,
    assault: bool = False,
    fortification: str = "none",
    infantry_target: bool = True,
    ap_target: bool = True,
    opportunity_no_cover: NoCoverReading = "no_cover_or_hindrance",
    hindrance: int | None = None,
) -> Opportunity | None:
    """The opportunity attack ``firer`` may make on units entering ``target`` (none without
    range, LOS, FFA or APFP): for a sniper, 17.5's target cover (:func:`_sniper_shot`); else
    the AP attack with its modifiers read from the board. ``fortification``: the cover the
    movers have there (see ``fortification_cover``); ``infantry_target``: infantry among them
    (17.4: snipers fire at infantry only); ``ap_target``: any unit that AP fire affects (14.1:
    not AFVs). ``hindrance``: the line's modifier when the caller knows the hex is seen, from
    a visible set under the same V&V LOS policy (the threat map reads every line at once); the
    line is then not traced again (a sniper's still is: 17.5 reads the line both ways)."""
    board = scenario.board
    distance = firer.hex.distance(target)
    if distance == 0:
        return None
    if hindrance is None or firer.kind == "sniper":
        verdict = line_of_sight(board, firer.hex, target, VV_LOS)
        if not verdict.visible:
            return None  # 13.8: entering a hex out of LOS gives no attack
        hindrance = verdict.modifier
    if firer.kind == "sniper":
        bonus = fortification_cover(fortification) + (1 if assault else 0)
        return _sniper_shot(
            scenario,
            firer,
            target,
            index=index,
            hindrance=hindrance,
            cover_bonus=bonus,
            infantry_target=infantry_target,
        )
    power = _group_apfp(firer, target) if ap_target else None
    if power is None or power[0] <= 0:
        return None
    fort = scenario.fortification_at(firer.hex)
    attack = with_board(
        VvApAttack(
            apfp=power[0],
            opportunity_fire=True,
            leadership_modifier=power[1],
            firing_from_barbed_wire=firer.kind == "infantry"
            and fort is not None
            and fort.kind == "barbed_wire",
            target_assault_movement=assault,
            fortification=fortification,  # type: ignore[arg-type]
            opportunity_no_cover=opportunity_no_cover,
        ),
        board,
        firer.hex,
        target,
        hindrance=hindrance,
    )
    where, label = board.label(target), board.label(firer.hex)
    return Opportunity(
        firer, index, target, where, attack, 0, 0, expected(cp_odds(attack)), distance == 1, label
    )


def attacks_on(
    scenario: BoardScenario,
    side: str,
    target: Hex,
    *,
    assault: bool = False,
    fortification: str = "none",
    infantry_target: bool = True,
    ap_target: bool = True,
) -> list[Opportunity]:
    """Every opportunity attack the other sides may make on ``side``'s units entering
    ``target`` (the threat on one hex: who may fire, with what, expecting how many CPs)."""
    found = (
        attack_at(
            scenario,
            firer,
            target,
            assault=assault,
            fortification=fortification,
            infantry_target=infantry_target,
            ap_target=ap_target,
        )
        for firer in firers(scenario, side)
    )
    return [o for o in found if o is not None]


Sights = dict[tuple[Hex, Hex], tuple[bool, int]]
"""Lines of sight by (origin, hex): whether the origin sees the hex, and the hindrance."""


def sights_along(plan: MovePlan, origins: Iterable[Hex], known: Sights | None = None) -> Sights:
    """Whether each of ``origins`` sees each hex of the path, and the line's hindrance
    modifier, by (origin, hex): every line in one march under the V&V LOS policy (the verdict
    :func:`~firefight.board.los.line_of_sight` gives line by line). ``known``: the lines of
    the same board judged before (a line is a function of its two hexes and the board), read
    from it and the new ones added to it."""
    from firefight.board.visibility import sight_of_lines  # noqa: PLC0415 - numpy's engine

    known = {} if known is None else known
    wanted = {(o, step.hex) for o in origins for step in plan.steps if o != step.hex}
    pairs = sorted(wanted - known.keys())
    if pairs:
        known.update(zip(pairs, sight_of_lines(plan.scenario.board, pairs, VV_LOS), strict=True))
    return {pair: known[pair] for pair in wanted}


@dataclass
class Known:
    """What :func:`opportunities` judged on other paths of one move's search (the same stack
    on the same board): the lines of sight (:data:`Sights`) and each attack by what it reads
    (the firer, the hex, its index, Assault Movement, the cover there, the line's hindrance,
    the targets' kinds, the reading of no cover); an attack is a function of these alone."""

    sights: Sights = field(default_factory=dict)
    attacks: dict[tuple[object, ...], Opportunity | None] = field(default_factory=dict)


def opportunities(
    plan: MovePlan,
    *,
    fortification_cover: FortificationCover = "path_end",
    opportunity_no_cover: NoCoverReading = "no_cover_or_hindrance",
    holding: frozenset[str] = frozenset(),
    known: Known | None = None,
) -> dict[str, list[Opportunity]]:
    """Every attack each firer may make along the path, hex by hex, by firer id (``holding``:
    units left out, see :func:`firers`). The lines from the firers to the path are judged
    together (:func:`sights_along`); a sniper's are traced by its shot (17.5 reads them both
    ways). ``known``: the lines and attacks of other paths of the same stack on the same
    board (:class:`Known`), read from it and the new ones added."""
    known = known or Known()
    infantry_moving = any(u.is_infantry for u in plan.stack)
    ap_targets = any(u.type != "afv" for u in plan.stack)
    shooters = firers(plan.scenario, plan.side, holding=holding)
    sights = sights_along(plan, (f.hex for f in shooters if f.kind != "sniper"), known.sights)
    found: dict[str, list[Opportunity]] = {}
    for firer in shooters:
        options = []
        for step in plan.steps:
            seen = sights.get((firer.hex, step.hex))
            if seen is not None and not seen[0]:
                continue  # 13.8: entering a hex out of LOS gives no attack
            fortification = _fortification(plan, step.index, fortification_cover)
            hindrance = None if seen is None else seen[1]
            key = (
                *(firer, step.hex, step.index, plan.assault, fortification, hindrance),
                *(infantry_moving, ap_targets, opportunity_no_cover),
            )
            if key in known.attacks:
                option = known.attacks[key]
            else:
                option = attack_at(
                    plan.scenario,
                    firer,
                    step.hex,
                    index=step.index,
                    assault=plan.assault,
                    fortification=fortification,
                    infantry_target=infantry_moving,
                    ap_target=ap_targets,
                    opportunity_no_cover=opportunity_no_cover,
                    hindrance=hindrance,
                )
                known.attacks[key] = option
            if option is not None:
                options.append(option)
        if options:
            found[firer.id] = options
    return found


def roll_cps(attack: VvApAttack, chance: Chance, firing: Sequence[ScenarioUnit]) -> int:
    """The AP attack's roll on the AP Combat Table (14.5), and, after a natural 2, the valor
    check of every infantry unit that fired (16.2); a natural 12 is noted (17.2)."""
    row = row_label(attack)
    total = int(sum(m.value for m in modifiers(attack)))
    infantry = [u for u in firing if u.is_infantry]
    roll = attack_dice_roll(
        chance, "opportunity fire (2d6)", infantry=bool(infantry) or not firing, valor_rolled=True
    )
    cell = ap_combat_table().lookup_label(row, roll + total)
    chance.note("14.5 AP Combat Table", f"row {row}, modified roll {roll + total}: {cell.value}")
    if triggers_valor(roll):
        for unit in infantry:
            kind = (
                "leader"
                if unit.type == "leader"
                else "squad"
                if unit.type == "squad" and not unit.reduced
                else "half_squad"
            )
            rating = (
                unit.half_squad_rating
                if unit.reduced and unit.half_squad_rating
                else unit.casualty_rating
            )
            valor_check(kind, rating, chance, label=unit.id)  # type: ignore[arg-type]
    return 0 if cell.value == "-" else int(cell.value)
