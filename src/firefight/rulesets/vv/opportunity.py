"""V&V opportunity fire on a moving stack, exactly, along its whole path (V&V 13.8, issue 15).

A stack moves hex by hex (:func:`~firefight.rulesets.vv.movement.plan_move`); at each hex it
enters, the enemy may fire on it (13.8). This module finds who may fire where, lets a named
**fire policy** decide who fires at which hex, and runs the move as a state process on the
chance engine (:class:`~firefight.chance.process.Process`, one step per hex entered, built of
:class:`~firefight.chance.process.Phases`), so the exact odds along the path cost (distinct
states x hexes), never a re-run per prefix of events.

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

The attack (:func:`opportunity_attack`): the AP attack of :mod:`~firefight.rulesets.vv.ap`
with ``opportunity_fire`` and its modifiers read from the board by ``with_board`` (cover,
hindrances along the LOS and hexsides, -1 against no positive cover, -2 adjacent, 13.8;
Assault Movement +1, 6.4; a fortification's cover, by the ``fortification_cover`` reading;
+1 firing from barbed wire, 20.8). Only the moving units are affected (13.8): the CPs go to
them by the casualty policy of 14.6 (``least_rating_lost``); AFVs take no AP fire (14.1).
A natural 2 makes every infantry unit of the fire group check for valor (16.2), a natural 12
activates the moving side's sniper (17.2): both are rolled or noted in the trace (neither
changes the moving units).

On the way (:func:`move_process`): a pinned unit stops where it is (13.8, 14.7); a unit pinned
in a friendly hex that the units staying there would take over the stacking limit is
eliminated (13.8, 6.9); the others go on; when the leader is pinned or eliminated, the units
moving with him lose 6.31's bonus and stop once past their normal allowance; a minefield
attacks every unit entering its hex (20.7).

Fire policies (:data:`POLICIES`, the interface :class:`FirePolicy`): for each firer, given its
opportunities along the path in order (each with the attack's expected CPs), the hex where it
fires, or none. ``threshold`` (default): the first hex where the expected CPs reach
``threshold`` (1 by default), and always the first adjacent hex; ``first_sight``: the first
hex it may fire at; ``best_shot``: the hex of the most expected CPs (the first of equals);
``player``: the defender chooses, a mapping firer -> hex (a firer named by any of its units'
ids, ``sniper`` for the sniper). A firer whose chosen hex no moving unit reaches keeps its fire.

The threat on one hex without a path: :func:`attacks_on` (every firer's attack on units of a
side entering a hex; :func:`firers`, :func:`attack_at` for one firer; :func:`cp_odds` and
:func:`sniper_odds` the exact CPs of an attack).

Extending the move (fire lanes, overruns): :func:`move_process` takes ``on_entry`` and
``after_fire`` phases; :func:`model_odds` and :func:`model_run` answer for any such model.

Answers: :func:`move_odds` -> :class:`MoveOdds` (each moving unit's distribution of end state
and where it stopped; per hex, the chance that the first pin or worse happens there; the
plan of fire), :func:`resolve_move` -> :class:`MoveResolution` (one seeded run or the
player's dice, with the whole trace: every firer, every modifier).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from typing import Literal, NamedTuple, Protocol, TypeVar

from firefight.board.hexes import Hex
from firefight.board.los import line_of_sight
from firefight.chance import Chance, exact
from firefight.chance.distribution import Distribution
from firefight.chance.process import Phases, Process, ProcessResolution
from firefight.errors import InputError, one_of
from firefight.rulesets.vv.allocator import Hit
from firefight.rulesets.vv.ap import (
    BOARD_TERRAINS,
    TERRAIN_ROWS,
    VvApAttack,
    ap_combat_table,
    fortification_cover,
    modifiers,
    row_label,
    terrain_cover,
    with_board,
)
from firefight.rulesets.vv.board import VV_LOS
from firefight.rulesets.vv.casualties import NONE, apply_allocation
from firefight.rulesets.vv.movement import MovePlan
from firefight.rulesets.vv.natural import attack_dice_roll
from firefight.rulesets.vv.scenario import (
    INFANTRY_TYPES,
    BoardScenario,
    ScenarioUnit,
    ffa_contains,
    stacking_problem,
)
from firefight.rulesets.vv.support import (
    VvMinefield,
    VvSniperAttack,
    VvSniperElimination,
    minefield,
    sniper_attack,
    sniper_elimination,
)
from firefight.rulesets.vv.units import HexUnits, Unit
from firefight.rulesets.vv.valor import triggers_valor, valor_check

SNIPER_RANGE = 6
"""17.4: a sniper fires on opportunity at a target within six hexes."""
DEFAULT_THRESHOLD = Fraction(1)
"""The ``threshold`` policy's default: fire once the attack's expected CPs reach 1 (one CP
pins a unit, 14.61)."""
PolicyName = Literal["threshold", "first_sight", "best_shot", "player"]
POLICIES: tuple[str, ...] = ("threshold", "first_sight", "best_shot", "player")
FortificationCover = Literal["path_end", "always", "never"]
NoCoverReading = Literal["no_cover_or_hindrance", "no_positive_cover"]
"""``VvApAttack.opportunity_no_cover``: when opportunity fire's -1 applies (docs/vv.md)."""
FORTIFICATION_COVER_HELP = (
    "When a moving unit has a fortification's or entrenchment's cover: path_end = only in "
    "the last hex of its path, where it enters the position (20.3: a unit entering the hex "
    "either goes on or enters the position); always = in every such hex entered; never."
)
HIT = frozenset({"pinned", "reduced", "reduced_pinned", "immobilized", "eliminated"})
"""A unit "pinned or worse" (14.61: a reduction costs more CPs than a pin; an AFV stopped by AT
fire, 18.4, is immobilized)."""


# --- who may fire where --------------------------------------------------------------------------


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
            data["modifiers"] = [
                {"label": m.label, "value": int(m.value), "rule": m.rule}
                for m in modifiers(self.attack)
            ]
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
    return exact(lambda chance: _sniper_cps(cover, chance))


def _sniper_cps(cover: int, chance: Chance) -> int:
    text = sniper_attack(VvSniperAttack(target_cover=cover), chance)
    return 0 if text == "-" else int(text)


def _terrain_row(terrain: str) -> str:
    return terrain if terrain in TERRAIN_ROWS else BOARD_TERRAINS.get(terrain, "open")


def attack_at(  # noqa: PLR0911 - one return per reason a firer has no shot
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
    range, LOS, FFA or APFP): for a sniper, 17.5's target cover; else the AP attack with its
    modifiers read from the board. ``fortification``: the cover the movers have there (see
    ``fortification_cover``); ``infantry_target``: infantry among them (17.4: snipers fire at
    infantry only); ``ap_target``: any unit that AP fire affects (14.1: not AFVs).
    ``hindrance``: the line's modifier when the caller knows the hex is seen, from a visible
    set under the same V&V LOS policy (the threat map reads every line at once); the line is
    then not traced again (a sniper's still is: 17.5 reads the line both ways)."""
    board = scenario.board
    distance = firer.hex.distance(target)
    if distance == 0:
        return None
    if hindrance is None or firer.kind == "sniper":
        verdict = line_of_sight(board, firer.hex, target, VV_LOS)
        if not verdict.visible:
            return None  # 13.8: entering a hex out of LOS gives no attack
        hindrance = verdict.modifier
    label, where = board.label(firer.hex), board.label(target)
    if firer.kind == "sniper":
        if distance > SNIPER_RANGE or not infantry_target:
            return None
        own = terrain_cover(_terrain_row(board.terrain_of(target)))
        own += fortification_cover(fortification) + (1 if assault else 0)
        cover = min(8, own + hindrance)
        back = line_of_sight(board, target, firer.hex, VV_LOS)
        sniper_cover = terrain_cover(_terrain_row(board.terrain_of(firer.hex))) + back.modifier
        return Opportunity(
            firer,
            index,
            target,
            where,
            None,
            cover,
            max(1, min(8, sniper_cover)),
            expected(sniper_odds(cover)),
            distance == 1,
            label,
        )
    if not ap_target:
        return None
    if firer.kind == "vehicle":
        unit = firer.units[0]
        reach = unit.fire_range
        if (reach is not None and distance > reach) or not ffa_contains(unit, target):
            return None
        apfp, leadership = unit.apfp, 0
    else:
        apfp = sum(_weapon_apfp(u, distance) for u in firer.units)
        leadership = min(
            (u.leadership_modifier for u in firer.units if u.type == "leader"), default=0
        )
    if apfp <= 0:
        return None
    fort = scenario.fortification_at(firer.hex)
    attack = with_board(
        VvApAttack(
            apfp=apfp,
            opportunity_fire=True,
            leadership_modifier=leadership,
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


def opportunities(
    plan: MovePlan,
    *,
    fortification_cover: FortificationCover = "path_end",
    opportunity_no_cover: NoCoverReading = "no_cover_or_hindrance",
    holding: frozenset[str] = frozenset(),
) -> dict[str, list[Opportunity]]:
    """Every attack each firer may make along the path, hex by hex, by firer id (``holding``:
    units left out, see :func:`firers`)."""
    infantry_moving = any(u.is_infantry for u in plan.stack)
    ap_targets = any(u.type != "afv" for u in plan.stack)
    found: dict[str, list[Opportunity]] = {}
    for firer in firers(plan.scenario, plan.side, holding=holding):
        options = [
            o
            for step in plan.steps
            if (
                o := attack_at(
                    plan.scenario,
                    firer,
                    step.hex,
                    index=step.index,
                    assault=plan.assault,
                    fortification=_fortification(plan, step.index, fortification_cover),
                    infantry_target=infantry_moving,
                    ap_target=ap_targets,
                    opportunity_no_cover=opportunity_no_cover,
                )
            )
            is not None
        ]
        if options:
            found[firer.id] = options
    return found


# --- fire policies -------------------------------------------------------------------------------


class Shot(Protocol):
    """What a fire policy weighs of one attack a firer may make along the path: the firer,
    the hex (``index`` from 1, ``label``), whether it is adjacent, and ``score``: the attack's
    worth (an AP attack's expected CPs, :class:`Opportunity`; an AT attack's chance of
    stopping a vehicle, :class:`~firefight.rulesets.vv.at_move.AtOpportunity`)."""

    @property
    def firer(self) -> Firer:
        """Who fires."""
        ...

    @property
    def index(self) -> int:
        """The hex entered, from 1."""
        ...

    @property
    def label(self) -> str:
        """The hex's label."""
        ...

    @property
    def adjacent(self) -> bool:
        """The hex is adjacent to the firer."""
        ...

    @property
    def score(self) -> Fraction:
        """The attack's worth."""
        ...


S = TypeVar("S", bound=Shot)


class FirePolicy(Protocol):
    """Decides, for one firer, at which of its opportunities along the path it fires."""

    def choose(self, options: Sequence[S]) -> S | None:
        """The opportunity it fires at (one of ``options``, in path order), or none."""
        ...


@dataclass(frozen=True)
class Threshold:
    """Fire at the first hex where the attack's expected CPs reach ``threshold``, and always at
    the first adjacent hex (its -2, 13.8, is the best shot a defender gets)."""

    threshold: Fraction = DEFAULT_THRESHOLD

    def choose(self, options: Sequence[S]) -> S | None:
        """The first option at or above the threshold, or adjacent."""
        return next((o for o in options if o.adjacent or o.score >= self.threshold), None)


@dataclass(frozen=True)
class FirstSight:
    """Fire at the first hex the firer may fire at."""

    def choose(self, options: Sequence[S]) -> S | None:
        """The first option."""
        return options[0] if options else None


@dataclass(frozen=True)
class BestShot:
    """Hold fire for the best shot: the hex of the most expected CPs (the first of equals)."""

    def choose(self, options: Sequence[S]) -> S | None:
        """The option of the most expected CPs (AT: the best chance of stopping a vehicle)."""
        return max(options, key=lambda o: (o.score, -o.index), default=None)


@dataclass(frozen=True)
class PlayerChoice:
    """The defender's choice: ``hexes`` maps a firer (its id, any of its units' ids, or
    ``sniper``) to the hex label where it fires; firers not named hold their fire."""

    hexes: Mapping[str, str]

    def choose(self, options: Sequence[S]) -> S | None:
        """The option at the hex chosen for this firer, if any."""
        if not options:
            return None
        firer = options[0].firer
        wanted = {h for name, h in self.hexes.items() if firer.named_by(name)}
        if len(wanted) > 1:
            raise InputError(
                "fire",
                f"one hex for fire group {firer.id} (14.2: it fires together)",
                ",".join(sorted(wanted)),
            )
        if not wanted:
            return None
        hex_label = next(iter(wanted))
        for option in options:
            if option.label == hex_label:
                return option
        allowed = ", ".join(o.label for o in options)
        raise InputError(
            f"fire.{firer.id}", f"a hex it may fire at on this path: {allowed}", hex_label
        )


def fire_policy(
    name: str, *, threshold: Fraction = DEFAULT_THRESHOLD, player: Mapping[str, str] | None = None
) -> FirePolicy:
    """The named policy (:data:`POLICIES`)."""
    if name == "threshold":
        return Threshold(threshold)
    if name == "first_sight":
        return FirstSight()
    if name == "best_shot":
        return BestShot()
    if name == "player":
        return PlayerChoice(dict(player or {}))
    raise InputError("policy", one_of(POLICIES), name)


def fire_plan(
    plan: MovePlan, policy: FirePolicy, by_firer: Mapping[str, list[Opportunity]]
) -> tuple[Opportunity, ...]:
    """The attacks the policy makes, in path order then firer order."""
    if isinstance(policy, PlayerChoice):
        known = {u.id for o in by_firer.values() for u in o[0].firer.units} | set(by_firer)
        known |= (
            {"sniper"} if any(o[0].firer.kind == "sniper" for o in by_firer.values()) else set()
        )
        for name in policy.hexes:
            if name not in known:
                allowed = "a firer with a shot on this path: " + (
                    ", ".join(sorted(known)) or "none"
                )
                raise InputError("fire", allowed, name)
    chosen = [c for options in by_firer.values() if (c := policy.choose(options)) is not None]
    order = {firer_id: n for n, firer_id in enumerate(by_firer)}
    del plan
    return tuple(sorted(chosen, key=lambda o: (o.index, order[o.firer.id])))


# --- the move as a process -----------------------------------------------------------------------


class Mover(NamedTuple):
    """A moving unit's state: reduced, pinned, eliminated, the hex index where it stopped
    (-1: still moving), and immobilized (an AFV hit by AT fire, 18.4: it stops there)."""

    reduced: bool = False
    pinned: bool = False
    eliminated: bool = False
    stopped_at: int = -1
    immobilized: bool = False

    @property
    def moving(self) -> bool:
        """Still moving."""
        return self.stopped_at < 0 and not self.eliminated

    def condition(self, start: Mover) -> str:
        """``unhurt``, ``pinned``, ``reduced``, ``reduced_pinned``, ``immobilized`` (an AFV,
        18.4) or ``eliminated``, against how it started."""
        if self.eliminated:
            return "eliminated"
        if self.immobilized:
            return "immobilized"
        reduced = self.reduced and not start.reduced
        if reduced and self.pinned:
            return "reduced_pinned"
        if reduced:
            return "reduced"
        return "pinned" if self.pinned else "unhurt"


class MoveState(NamedTuple):
    """The move so far: the hex entered last (``at``, 0 = the start hex), each moving
    unit's state, whether the leader's bonus still holds (6.31), whether the move has halted
    (no unit may go on), and ``marks``: facts phases leave for later ones (``fired:FIRER`` for
    each firer that has fired on the stack; an extension's own, e.g. fire lanes laid)."""

    at: int
    movers: tuple[Mover, ...]
    bonus: bool = True
    halted: bool = False
    marks: frozenset[str] = frozenset()

    def __str__(self) -> str:
        return f"hex {self.at}: " + ", ".join(
            "eliminated"
            if m.eliminated
            else "immobilized"
            if m.immobilized
            else ("pinned" if m.pinned else "moving" if m.moving else "stopped")
            for m in self.movers
        )


def unit_for_casualties(unit: ScenarioUnit, mover: Mover | None = None) -> Unit:
    """A scenario unit as :mod:`~firefight.rulesets.vv.units` takes CPs (14.61): a squad
    with its half-squad rating, an MG team as a unit that cannot be reduced (pinned for 1 CP,
    eliminated at its rating). ``mover``: its state in a move (default: its state in the
    scenario, reduced and pinned as the file says). Used by the move's CPs (:func:`apply_cps`)
    and by an overrun's on the target hex (:mod:`.overrun_move`, 19.4)."""
    if mover is None:
        mover = Mover(reduced=unit.reduced, pinned=unit.pinned)
    if unit.type == "squad" and not mover.reduced:
        return Unit(
            "squad",
            unit.casualty_rating,
            name=unit.id,
            half_squad_rating=unit.half_squad_rating,
            pinned=mover.pinned,
        )
    rating = (
        unit.half_squad_rating
        if unit.type == "squad" and unit.half_squad_rating
        else unit.casualty_rating
    )
    kind = {"leader": "leader", "gun": "gun", "unarmoured_vehicle": "unarmoured_vehicle"}.get(
        unit.type, "half_squad"
    )
    return Unit(kind, max(rating, 1), name=unit.id, pinned=mover.pinned)  # type: ignore[arg-type]


@dataclass(frozen=True, eq=False)
class MoveModel:
    """The move and its fire: the plan, the attacks chosen, and the process."""

    plan: MovePlan
    attacks: tuple[Opportunity, ...]
    process: Process[MoveState]
    start: MoveState

    @property
    def hexes(self) -> int:
        """Hexes on the path."""
        return len(self.plan.steps)


def apply_cps(
    plan: MovePlan, state: MoveState, targets: list[int], cps: int, chance: Chance
) -> MoveState:
    """``cps`` applied to the moving units ``targets`` (indices into ``plan.stack``) as their
    owner allocates them (14.6, ``plan.allocator``; by default the ``least_rating_lost``
    policy): reduced, pinned (it stops here) or eliminated."""
    if not cps or not targets:
        return state
    units = HexUnits(tuple(unit_for_casualties(plan.stack[i], state.movers[i]) for i in targets))
    where = plan.scenario.board.label(plan.hexes[state.at])
    ids = tuple(plan.stack[i].id for i in targets)
    allocation = plan.allocator(Hit(where, plan.side, ids, units, cps))
    chance.note(
        "14.61 allocation",
        ", ".join(
            f"{plan.stack[i].id} {c}" for i, c in zip(targets, allocation, strict=True) if c != NONE
        )
        or "none",
    )
    results = apply_allocation(units, cps, allocation, chance)
    movers = list(state.movers)
    for i, result in zip(targets, results, strict=True):
        mover = movers[i]
        if result == "eliminated":
            movers[i] = mover._replace(eliminated=True, stopped_at=state.at)
        else:
            reduced = mover.reduced or result in ("reduced", "reduced_pinned")
            pinned = mover.pinned or result in ("pinned", "reduced_pinned")
            movers[i] = mover._replace(
                reduced=reduced,
                pinned=pinned,
                stopped_at=state.at if pinned else mover.stopped_at,
            )
    return state._replace(movers=tuple(movers))


def targets_in_hex(plan: MovePlan, state: MoveState, *, infantry_only: bool = False) -> list[int]:
    """13.8: the moving units in the hex just entered (pinned there by an earlier attack
    included); AFVs take no AP fire (14.1)."""
    return [
        i
        for i, m in enumerate(state.movers)
        if not m.eliminated
        and (m.stopped_at < 0 or (m.stopped_at == state.at and m.pinned))
        and plan.stack[i].type != "afv"
        and (not infantry_only or plan.stack[i].is_infantry)
    ]


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


def _enter(plan: MovePlan) -> Callable[[MoveState, Chance], MoveState]:
    def enter(state: MoveState, chance: Chance) -> MoveState:
        del chance
        following = state.at + 1
        movers = []
        for i, mover in enumerate(state.movers):
            if mover.moving and not plan.may_enter(plan.stack[i].id, following, bonus=state.bonus):
                movers.append(mover._replace(stopped_at=state.at))  # 6.31: out of MPs
            else:
                movers.append(mover)
        if not any(m.moving for m in movers):
            return state._replace(movers=tuple(movers), halted=True)
        return state._replace(at=following, movers=tuple(movers))

    return enter


def _mines(plan: MovePlan) -> Callable[[MoveState, Chance], MoveState]:
    def mines(state: MoveState, chance: Chance) -> MoveState:
        if state.halted or not plan.steps[state.at - 1].minefield:
            return state
        movers = list(state.movers)
        for i, mover in enumerate(movers):
            if mover.moving:
                chance.note(
                    "20.7 minefield",
                    f"{plan.stack[i].id} enters {plan.steps[state.at - 1].label}",
                )
                if minefield(VvMinefield(units=1), chance) == "1":
                    movers[i] = mover._replace(eliminated=True, stopped_at=state.at)
        return state._replace(movers=tuple(movers))

    return mines


def _fire(plan: MovePlan, attack: Opportunity) -> Callable[[MoveState, Chance], MoveState]:
    def fire(state: MoveState, chance: Chance) -> MoveState:
        if state.halted or state.at != attack.index:
            return state
        sniper = attack.firer.kind == "sniper"
        targets = targets_in_hex(plan, state, infantry_only=sniper)
        if not targets:
            return state
        state = state._replace(marks=state.marks | {f"fired:{attack.firer.id}"})
        names = "+".join(plan.stack[i].id for i in targets)
        if sniper:
            chance.note(
                "17.4 sniper opportunity fire",
                f"{attack.firer.id} at {names} in {attack.label}: "
                f"target cover {attack.target_cover} (17.5)",
            )
            cps = _sniper_cps(attack.target_cover, chance)
            state = apply_cps(plan, state, targets, cps, chance)
            if any(not state.movers[i].pinned and not state.movers[i].eliminated for i in targets):
                sniper_elimination(VvSniperElimination(sniper_cover=attack.sniper_cover), chance)
            return state
        assert attack.attack is not None
        mods = (
            "; ".join(f"{m.label} {int(m.value):+d} ({m.rule})" for m in modifiers(attack.attack))
            or "none"
        )
        chance.note(
            "13.8 opportunity fire",
            f"{attack.firer.id} ({attack.firer_label}) at {names} in {attack.label}: "
            f"APFP {attack.attack.apfp}, modifiers: {mods}",
        )
        cps = roll_cps(attack.attack, chance, attack.firer.units)
        return apply_cps(plan, state, targets, cps, chance)

    return fire


def _settle(plan: MovePlan) -> Callable[[MoveState, Chance], MoveState]:
    def settle(state: MoveState, chance: Chance) -> MoveState:
        if state.halted:
            return state
        step = plan.steps[state.at - 1]
        staying = [u.type for u in step.friendly]
        movers = list(state.movers)
        for i, mover in enumerate(movers):
            stopped = mover.pinned or mover.immobilized
            if stopped and mover.stopped_at == state.at and not mover.eliminated:
                if stacking_problem([*staying, plan.stack[i].type]):
                    chance.note(
                        "13.8 stacking",
                        f"{plan.stack[i].id} {'immobilized' if mover.immobilized else 'pinned'}"
                        f" in {step.label}, a friendly hex already stacked to its limit: "
                        "eliminated",
                    )
                    movers[i] = mover._replace(eliminated=True)
                else:
                    staying.append(plan.stack[i].type)
        bonus = state.bonus and not any(
            (m.pinned or m.eliminated)
            for i, m in enumerate(movers)
            if plan.stack[i].type == "leader"
        )
        if state.at == len(plan.steps):
            movers = [m._replace(stopped_at=state.at) if m.moving else m for m in movers]
        return state._replace(movers=tuple(movers), bonus=bonus)

    return settle


Phase = Callable[[MoveState, Chance], MoveState]
"""One phase of a hex entered: a procedure over ``Chance`` from state to state."""


def move_process(
    plan: MovePlan,
    attacks: Sequence[Opportunity],
    *,
    on_entry: Sequence[Phase] = (),
    after_fire: Sequence[Phase] = (),
) -> MoveModel:
    """The move as a process: one step per hex entered, as phases (enter, minefield,
    ``on_entry``, each attack chosen at that hex, ``after_fire``, then pins, stacking and the
    leader's bonus settled).

    ``on_entry`` and ``after_fire`` are the extension point for what else happens in a hex
    entered (fire lanes, 13.9, attack units entering a lane hex; a firer lays its lane after
    it fires, ``fired:FIRER`` in ``MoveState.marks``; overruns, 19): each phase does nothing
    unless ``state.at`` is its hex and, to hurt the moving units, takes
    :func:`targets_in_hex` and :func:`apply_cps`. A unit it pins stops (``stopped_at``) and
    the settle phase applies 13.8's stacking rule and 6.31's bonus to it as to any other.
    """
    phases = (
        _enter(plan),
        _mines(plan),
        *on_entry,
        *(_fire(plan, a) for a in attacks),
        *after_fire,
        _settle(plan),
    )

    def terminal(state: MoveState) -> bool:
        return state.halted or not any(m.moving for m in state.movers)

    start = MoveState(
        0, tuple(Mover(reduced=u.reduced) for u in plan.stack), bonus=bool(plan.leader_ids)
    )
    process: Process[MoveState] = Process(Phases(phases), terminal=terminal, name="move")
    return MoveModel(plan, tuple(attacks), process, start)


# --- answers -------------------------------------------------------------------------------------


def _fraction(p: Fraction) -> dict[str, object]:
    return {"probability": float(p), "fraction": str(p)}


@dataclass(frozen=True)
class MoveOdds:
    """The exact odds of a move (``exact`` is always true: no sampling here).

    ``units``: for each moving unit (by id), the distribution of ``(condition, hex)``: its
    condition at the end (unhurt, pinned, reduced, reduced_pinned, eliminated) and the hex
    where it stopped (or was eliminated). ``first_hit``: for each hex entered, the chance
    that the first pin or worse of any moving unit happens there; ``unit_first_hit`` the same
    per unit. ``attacks``: the attacks the policy makes; ``options``: every attack possible.
    """

    model: MoveModel
    policy: str
    units: Mapping[str, Distribution[tuple[str, str]]]
    first_hit: tuple[Fraction, ...]
    unit_first_hit: Mapping[str, tuple[Fraction, ...]]
    options: Mapping[str, list[Opportunity]]
    states: int

    def to_json(self) -> dict[str, object]:
        """The shape ``firefight move --json`` prints (docs/vv.md)."""
        plan = self.model.plan
        board = plan.scenario.board
        attacks_at: dict[int, list[str]] = {}
        for attack in self.model.attacks:
            attacks_at.setdefault(attack.index, []).append(attack.firer.id)
        return {
            "scenario": plan.scenario.name,
            "stack": board.label(plan.start),
            "units": [u.id for u in plan.stack],
            "path": [s.label for s in plan.steps],
            "assault": plan.assault,
            "policy": self.policy,
            "exact": True,
            "states": self.states,
            "fire_plan": [a.to_json() for a in self.model.attacks],
            "hexes": [
                {
                    "index": step.index,
                    "hex": step.label,
                    "terrain": step.terrain,
                    "fortification": step.fortification,
                    "mp_spent": dict(step.spent),
                    "attacks": attacks_at.get(step.index, []),
                    "may_fire": sorted(
                        firer
                        for firer, options in self.options.items()
                        if any(o.index == step.index for o in options)
                    ),
                    "first_hit": _fraction(self.first_hit[step.index - 1]),
                }
                for step in plan.steps
            ],
            "outcomes": {
                unit_id: [
                    {"state": condition, "hex": where, **_fraction(p)}
                    for (condition, where), p in odds.items()
                ]
                for unit_id, odds in self.units.items()
            },
            "unit_first_hit": {
                unit_id: [_fraction(p) for p in hits]
                for unit_id, hits in self.unit_first_hit.items()
            },
        }


def _where(plan: MovePlan, state: MoveState, mover: Mover) -> str:
    index = mover.stopped_at if mover.stopped_at >= 0 else state.at
    return plan.scenario.board.label(plan.hexes[index])


def build_move(
    plan: MovePlan,
    policy: str = "threshold",
    *,
    threshold: Fraction = DEFAULT_THRESHOLD,
    player: Mapping[str, str] | None = None,
    fortification_cover: FortificationCover = "path_end",
) -> tuple[MoveModel, dict[str, list[Opportunity]]]:
    """The move's process with the attacks the named policy chooses, and every option."""
    options = opportunities(plan, fortification_cover=fortification_cover)
    chosen = fire_plan(plan, fire_policy(policy, threshold=threshold, player=player), options)
    return move_process(plan, chosen), options


def move_odds(
    plan: MovePlan,
    policy: str = "threshold",
    *,
    threshold: Fraction = DEFAULT_THRESHOLD,
    player: Mapping[str, str] | None = None,
    fortification_cover: FortificationCover = "path_end",
) -> MoveOdds:
    """The exact odds of the move under the policy (see :class:`MoveOdds`)."""
    model, options = build_move(
        plan, policy, threshold=threshold, player=player, fortification_cover=fortification_cover
    )
    return model_odds(model, policy, options)


def model_odds(model: MoveModel, policy: str, options: Mapping[str, list[Opportunity]]) -> MoveOdds:
    """The exact odds of a move's process, however it was built (a :func:`move_process` with
    extra phases included); ``policy`` and ``options`` are reported as given."""
    plan = model.plan
    steps = model.hexes
    by_step = model.process.distributions(model.start, steps)
    start = model.start.movers
    ids = [u.id for u in plan.stack]

    def hit_chance(dist: Distribution[MoveState], who: Sequence[int]) -> Fraction:
        return sum(
            (
                p
                for state, p in dist.items()
                if any(state.movers[i].condition(start[i]) in HIT for i in who)
            ),
            Fraction(0),
        )

    everyone = range(len(ids))
    cumulative = [hit_chance(d, everyone) for d in by_step]
    first_hit = tuple(cumulative[t] - cumulative[t - 1] for t in range(1, steps + 1))
    unit_first: dict[str, tuple[Fraction, ...]] = {}
    for i, unit_id in enumerate(ids):
        mine = [hit_chance(d, (i,)) for d in by_step]
        unit_first[unit_id] = tuple(mine[t] - mine[t - 1] for t in range(1, steps + 1))
    final = by_step[-1]
    units: dict[str, Distribution[tuple[str, str]]] = {}
    for i, unit_id in enumerate(ids):
        units[unit_id] = Distribution(
            ((state.movers[i].condition(start[i]), _where(plan, state, state.movers[i])), p)
            for state, p in final.items()
        )
    states = len({s for d in by_step for s in d})
    return MoveOdds(model, policy, units, first_hit, unit_first, options, states)


@dataclass(frozen=True)
class MoveResolution:
    """One move resolved with seeded dice or the player's: each unit's end and the trace."""

    model: MoveModel
    run: ProcessResolution[MoveState]

    def outcome(self) -> dict[str, tuple[str, str]]:
        """Each moving unit's condition and the hex where it stopped."""
        final = self.run.final
        plan = self.model.plan
        return {
            u.id: (m.condition(s), _where(plan, final, m))
            for u, m, s in zip(plan.stack, final.movers, self.model.start.movers, strict=True)
        }

    def to_json(self) -> dict[str, object]:
        """``{"seed", "outcome": {id: {"state", "hex"}}, "steps": [...], "replay": [...]}``."""
        data = self.run.to_json()
        board = self.model.plan.scenario.board
        for step, run_step in zip(data["steps"], self.run.steps, strict=True):  # type: ignore[call-overload]
            step["hex"] = board.label(self.model.plan.hexes[run_step.after.at])
        return {
            "seed": self.run.seed,
            "outcome": {k: {"state": c, "hex": h} for k, (c, h) in self.outcome().items()},
            "steps": data["steps"],
            "replay": self.run.replay_values(),
        }


def resolve_move(
    plan: MovePlan,
    policy: str = "threshold",
    *,
    seed: int | None = None,
    roll: Sequence[int | str] | None = None,
    threshold: Fraction = DEFAULT_THRESHOLD,
    player: Mapping[str, str] | None = None,
    fortification_cover: FortificationCover = "path_end",
) -> MoveResolution:
    """One move: seeded (``seed``) or with the dice rolled at the table (``roll``)."""
    model, _ = build_move(
        plan, policy, threshold=threshold, player=player, fortification_cover=fortification_cover
    )
    return model_run(model, seed=seed, roll=roll)


def model_run(
    model: MoveModel, *, seed: int | None = None, roll: Sequence[int | str] | None = None
) -> MoveResolution:
    """One run of a move's process: seeded, or with the dice rolled at the table."""
    if roll is not None:
        return MoveResolution(model, model.process.replay(model.start, roll))
    return MoveResolution(model, model.process.sample(model.start, seed or 0))
