"""V&V's actions (issue 15): a stack's ``move`` under opportunity fire and the ``threat`` map of
a side's move, both on a scenario's board (:data:`SCENARIO`). Their input models give the
commands ``firefight move`` and ``firefight threat`` and the routes ``/api/vv/move`` and
``/api/vv/threat``; their answers (:mod:`.answers`) the ``--json`` shapes (docs/vv.md), the
tables printed and the pictures of ``--out``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Protocol, cast, get_args

from pydantic import Field

from firefight.board.hexes import Hex
from firefight.core.inputs import RuleInput, validate
from firefight.digits import SEED_MAX
from firefight.errors import InputError, one_of
from firefight.i18n import gettext as _
from firefight.rulesets.action import Action, Answer, CliForm, Subject
from firefight.rulesets.vv.answers import (
    AtThreatAnswer,
    MoveOddsAnswer,
    MoveRunAnswer,
    OverrunOddsAnswer,
    OverrunRunAnswer,
    ThreatAnswer,
    page_data,
)
from firefight.rulesets.vv.at_move import build_at_move, vehicle_threat
from firefight.rulesets.vv.fire_policies import POLICIES
from firefight.rulesets.vv.lanes import (
    FireLane,
    LaneAfterPin,
    LaneLength,
    LaneNaturals,
    LaneReadings,
    LaneSide,
)
from firefight.rulesets.vv.lanes_move import LANE_POLICIES
from firefight.rulesets.vv.lanes_standing import lanes_laid_earlier, parse_lane_pairs
from firefight.rulesets.vv.move_results import model_odds, model_run
from firefight.rulesets.vv.movement import plan_move
from firefight.rulesets.vv.opportunity import FortificationCover
from firefight.rulesets.vv.overrun_move import (
    PositionCost,
    build_overrun,
    overrun_odds,
    resolve_overrun_move,
)
from firefight.rulesets.vv.scenario import (
    BoardScenario,
    load_board_scenario,
    pasted_board_scenario,
    sample_board_scenarios,
)
from firefight.rulesets.vv.threat import threat_map


def parse_fire(text: str) -> dict[str, str]:
    """``--fire FIRER=HEX,...`` for the player policy: the hex where each firer fires."""
    found: dict[str, str] = {}
    for token in (t.strip() for t in text.split(",")):
        if not token:
            continue
        name, sep, hex_label = token.partition("=")
        if not sep or not name.strip() or not hex_label.strip():
            raise InputError("fire", "FIRER=HEX pairs separated by commas (de-mg=0606)", token)
        found[name.strip()] = hex_label.strip()
    return found


def parse_threshold(text: str, field: str = "threshold") -> Fraction:
    """``--threshold`` (or ``field``) as an exact number (``1``, ``1.5``, ``3/2``), at least 0."""
    try:
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise InputError(field, "a number of at least 0 (1, 1.5 or 3/2)", text) from None
    if value < 0 or len(text) > 20:
        raise InputError(field, "a number of at least 0 (1, 1.5 or 3/2)", text)
    return value


def parse_chance(text: str, field: str) -> Fraction:
    """A chance from 0 to 1 as an exact number (``1/3``, ``0.25``): ``--at-threshold``."""
    value = parse_threshold(text, field)
    if value > 1:
        raise InputError(field, "a chance from 0 to 1 (1/3, 0.25)", text)
    return value


def parse_pairs(field: str, text: str, example: str) -> dict[str, str]:
    """``KEY=VALUE,...`` (``--at de-sq1=D``), one line naming ``field`` when malformed."""
    found: dict[str, str] = {}
    for token in (t.strip() for t in text.split(",")):
        if not token:
            continue
        key, sep, value = token.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise InputError(field, f"KEY=VALUE pairs separated by commas ({example})", token)
        found[key.strip()] = value.strip()
    return found


def armour_letters(text: str) -> tuple[str, str]:
    """``--armour FRONT,REAR`` (one letter: the only Armor Rating, serving every facing,
    18.5); the letters are checked where they are read."""
    parts = [a.strip() for a in text.split(",")]
    if len(parts) == 1:
        parts *= 2  # one printed Armor Rating serves every facing (18.5)
    if len(parts) != 2:
        raise InputError("armour", "FRONT,REAR Armor Ratings A-F (18.5)", text)
    return parts[0], parts[1]


def move_armour(text: str) -> tuple[str, str] | dict[str, tuple[str, str]]:
    """``--armour FRONT,REAR`` for every moving AFV, or ``ID=FRONT/REAR,...`` per AFV (one
    letter: the only Armor Rating, 18.5)."""
    if "=" not in text:
        return armour_letters(text)
    return {
        unit_id: armour_letters(letters.replace("/", ","))
        for unit_id, letters in parse_pairs("armour", text, "us-t1=E/C").items()
    }


def _ids(text: str) -> list[str] | None:
    return [u.strip() for u in text.split(",") if u.strip()] if text else None


def _hexes(text: str) -> list[str]:
    return [h.strip() for h in text.split(",") if h.strip()]


def _dice(roll: str | list[str]) -> list[str]:
    """Dice rolled at the table: ``"3,4"`` or ``"3+4,2"``, or a run's replay list."""
    text = roll if isinstance(roll, str) else ",".join(roll)
    return [token.strip() for token in text.split(",") if token.strip()]


def standing_lanes_field(help_text: str) -> Any:  # noqa: ANN401 - pydantic's Field
    """The ``standing_lanes`` field: lanes laid earlier in the Movement Phase (13.9)."""
    return Field(None, max_length=400, description=help_text)


LANE_SIDE = Field(
    "left", max_length=20, description="A staggered lane's first marker: left or right of its LOS."
)
LANE_NATURALS = Field(
    "none",
    max_length=20,
    description="Lane rolls call for valor and snipers: none or valor_and_sniper.",
)
LANE_AFTER_MG_PINNED = Field(
    "stays",
    max_length=20,
    description="A standing lane whose MG is pinned or eliminated: stays (13.9) or removed.",
)


class LaneOptions(Protocol):
    """The fire lane options (13.9, 13.91) of the threat map and the move."""

    @property
    def standing_lanes(self) -> str | None: ...
    @property
    def lane_side(self) -> str: ...
    @property
    def lane_naturals(self) -> str: ...
    @property
    def lane_after_mg_pinned(self) -> str: ...


def lane_readings(inp: LaneOptions, length: str = "to_target") -> LaneReadings:
    """The lane options as the lanes' readings (checked there, in one line)."""
    return validate(
        LaneReadings,
        {
            "first_side": inp.lane_side,
            "length": length,
            "naturals": inp.lane_naturals,
            "after_mg_pinned": inp.lane_after_mg_pinned,
        },
    )


def standing(
    inp: LaneOptions, scenario: BoardScenario, readings: LaneReadings, side: str
) -> tuple[FireLane, ...]:
    """The standing lanes named, laid on the scenario's board by the MGs of the sides not
    moving (``side`` moves)."""
    pairs = parse_lane_pairs(inp.standing_lanes or "")
    return tuple(lanes_laid_earlier(scenario, pairs, readings, side=side))


LANE_ERRORS = {
    "first_side": "lane_side",
    "length": "lane_length",
    "naturals": "lane_naturals",
    "after_mg_pinned": "lane_after_mg_pinned",
}
"""The lanes' readings as the commands name them (``'--lane-side'``; the web says
``'first_side'``, the reading's own name)."""


class ThreatInput(RuleInput):
    """``firefight threat``: the side about to move, its stack, the map for vehicles."""

    side: str = Field(
        max_length=40, description="The side about to move (its key in the scenario)."
    )
    stack: str | None = Field(
        None,
        max_length=8,
        description="The moving stack's hex: its units are the target (else a full squad).",
    )
    assault: bool = Field(
        False, description="The target moves with Assault Movement (6.4: +1 cover)."
    )
    standing_lanes: str | None = standing_lanes_field(
        "Fire lanes standing when the side moves (13.9): FROM-TO,... (0301-0305)."
    )
    lane_side: str = LANE_SIDE
    lane_naturals: str = LANE_NATURALS
    lane_after_mg_pinned: str = LANE_AFTER_MG_PINNED
    at: str | None = Field(
        None,
        max_length=400,
        description="The map for vehicles: enemy units firing AT, ID=LETTER,... (18.4).",
    )
    armour: str | None = Field(
        None, max_length=20, description="With --at: the AFV's Armor Ratings FRONT,REAR (18.5)."
    )
    heading: int | None = Field(
        None, description="With --at: the hexside the AFV moves towards, 1-6 (default: --stack's)."
    )
    vehicle: str | None = Field(
        None,
        max_length=20,
        description="With --at: afv, unarmoured_vehicle or gun (default: --stack's, else afv).",
    )


class MoveInput(RuleInput):
    """``firefight move``: a stack, its path and how the enemy fires on it; the exact odds, or
    one move with ``seed`` or ``roll``."""

    stack: str = Field(max_length=8, description="The hex of the moving stack (0206).")
    path: list[str] = Field(
        max_length=40, description="The hexes it enters, in order (0306,0406,...)."
    )
    units: list[str] | None = Field(
        None,
        max_length=40,
        description="The ids of the units that move (default: every unpinned unit).",
    )
    assault: bool = Field(False, description="Assault Movement: half MPs, +1 cover (6.4).")
    policy: str = Field(
        "threshold",
        max_length=20,
        description="Who fires where: threshold, first_sight, best_shot or player.",
    )
    threshold: str = Field(
        "1", max_length=40, description="The threshold policy's expected CPs (default 1)."
    )
    player: dict[str, str] | None = Field(
        None,
        max_length=40,
        description="The player policy's choice: FIRER=HEX,... (unit id or 'sniper').",
    )
    fortification_cover: str = Field(
        "path_end",
        max_length=20,
        description="A fortification's cover for movers: path_end, always or never.",
    )
    lanes: str = Field(
        "always",
        max_length=20,
        description="Fire lanes (13.9): always = MGs firing on opportunity lay them; never.",
    )
    lane_side: str = LANE_SIDE
    lane_length: str = Field(
        "to_target", max_length=20, description="A lane's length: to_target (13.9) or to_mg_range."
    )
    lane_naturals: str = LANE_NATURALS
    lane_after_mg_pinned: str = LANE_AFTER_MG_PINNED
    standing_lanes: str | None = standing_lanes_field(
        "Lanes laid earlier in the Movement Phase: FROM-TO,... (0301-0305)."
    )
    overrun: bool = Field(
        False, description="The AFV overruns the path's last hex (19): exit hex, fire, odds."
    )
    armour: str | None = Field(
        None,
        max_length=400,
        description="The moving AFVs' Armor Ratings FRONT,REAR or ID=FRONT/REAR,... (18.5).",
    )
    at: str | None = Field(
        None,
        max_length=400,
        description="Enemy units firing AT and their AT FP letter (18.4): ID=D,...",
    )
    at_threshold: str = Field(
        "1/3",
        max_length=40,
        description="The threshold policy's chance of stopping a vehicle (default 1/3).",
    )
    position_cost: str = Field(
        "not_charged",
        max_length=20,
        description="With --overrun: the target position's 20.3 +1: not_charged, charged.",
    )
    seed: int | None = Field(
        None, ge=0, le=SEED_MAX, description="Resolve one move with seeded dice (replayable)."
    )
    roll: str | list[str] | None = Field(
        None, max_length=4000, description="Resolve one move with the dice rolled at the table."
    )


def move(scenario: BoardScenario, inp: MoveInput) -> Answer:
    """A stack's move under opportunity fire: its exact odds, or one run with its trace."""
    if inp.policy not in POLICIES:
        raise InputError("policy", one_of(POLICIES), inp.policy)
    if inp.player is not None and inp.policy != "player":
        raise InputError("fire", "given with --policy player only", _pairs_text(inp.player))
    if inp.fortification_cover not in get_args(FortificationCover):
        allowed = one_of(get_args(FortificationCover))
        raise InputError("fortification_cover", allowed, inp.fortification_cover)
    level = parse_threshold(inp.threshold)
    if inp.overrun:
        return _overrun(scenario, inp)
    at_level = parse_chance(inp.at_threshold, "at_threshold")
    plan = plan_move(scenario, inp.stack.strip(), inp.path, units=inp.units, assault=inp.assault)
    readings = lane_readings(inp, inp.lane_length)
    laid = standing(inp, scenario, readings, plan.side)
    whole = build_at_move(
        plan,
        inp.policy,
        threshold=level,
        at_threshold=at_level,
        player=inp.player or {},
        ratings=parse_pairs("at", inp.at or "", "de-sq1=D"),
        armour=move_armour(inp.armour) if inp.armour is not None else None,
        fortification_cover=cast(FortificationCover, inp.fortification_cover),
        lanes=inp.lanes,
        lane_readings=readings,
        standing=laid,
    )
    lanes = whole.lanes
    if inp.seed is not None or inp.roll is not None:
        dice = _dice(inp.roll) if inp.roll is not None else None
        run = model_run(lanes.model, seed=inp.seed, roll=dice)
        return MoveRunAnswer(plan, whole, run, laid)
    odds = model_odds(lanes.model, inp.policy, lanes.options)
    return MoveOddsAnswer(plan, whole, odds, laid)


def _pairs_text(pairs: dict[str, str]) -> str:
    return ",".join(f"{k}={v}" for k, v in pairs.items())


def _overrun(scenario: BoardScenario, inp: MoveInput) -> Answer:
    """``move --overrun``: the AFV's overrun of the path's last hex (V&V 19)."""
    if inp.armour is None:
        raise InputError("armour", "the AFV's Armor Ratings FRONT,REAR (A-F, 18.5)", None)
    if inp.position_cost not in get_args(PositionCost):
        raise InputError("position_cost", one_of(get_args(PositionCost)), inp.position_cost)
    setup = build_overrun(
        scenario,
        inp.stack.strip(),
        inp.path,
        armour=armour_letters(inp.armour),
        at_ratings=parse_pairs("at", inp.at or "", "de-sq1=D"),
        position_cost=cast(PositionCost, inp.position_cost),
    )
    if inp.seed is not None or inp.roll is not None:
        dice = _dice(inp.roll) if inp.roll is not None else None
        return OverrunRunAnswer(
            setup, resolve_overrun_move(setup, seed=inp.seed, roll=dice), inp.seed
        )
    return OverrunOddsAnswer(overrun_odds(setup))


def threat(scenario: BoardScenario, inp: ThreatInput) -> Answer:
    """Where the enemy can fire on a side's units as they move, and how likely a pin is."""
    origin = None
    if inp.stack is not None:
        try:
            origin = scenario.board.hex(inp.stack)
        except InputError as error:
            raise InputError("stack", error.allowed, inp.stack) from None
    if inp.at is not None:
        return _vehicles(scenario, inp, origin, inp.at)
    for name, value in (("armour", inp.armour), ("heading", inp.heading), ("vehicle", inp.vehicle)):
        if value is not None:
            raise InputError(name, "given with --at (the map for vehicles)", value)
    readings = lane_readings(inp)
    answer = threat_map(
        scenario,
        inp.side,
        stack=origin,
        assault_movement=inp.assault,
        lanes=standing(inp, scenario, readings, inp.side),
        lane_readings=readings,
    )
    return ThreatAnswer(answer)


def _vehicles(scenario: BoardScenario, inp: ThreatInput, origin: Hex | None, at: str) -> Answer:
    """``threat --at``: the AT threat map of the side's vehicles (13.8, 18; docs/vv.md)."""
    side = inp.side
    moving = [u for u in scenario.units_at(origin) if u.side == side] if origin else []
    afvs = [u for u in moving if u.type == "afv"]
    kind = inp.vehicle or ("afv" if afvs or not moving else moving[0].type)
    heading = inp.heading
    if heading is None and afvs:
        heading = afvs[0].facing
    found = vehicle_threat(
        scenario,
        side,
        parse_pairs("at", at, "de-pak=D"),
        vehicle=kind,
        armour=armour_letters(inp.armour) if inp.armour is not None else None,
        heading=heading,
        skip=origin,
    )
    return AtThreatAnswer(scenario, side, origin, kind, found)


def page_choices() -> dict[str, list[str]]:
    """The choices the scenario page offers, from the rule set's own lists, default first."""
    return {
        "policy": list(POLICIES),
        "lanes": list(LANE_POLICIES),
        "lane_side": list(get_args(LaneSide)),
        "lane_length": list(get_args(LaneLength)),
        "lane_naturals": list(get_args(LaneNaturals)),
        "lane_after_mg_pinned": list(get_args(LaneAfterPin)),
    }


SCENARIO: Subject[BoardScenario] = Subject(
    name="scenario",
    help="A V&V scenario file (TOML) or a sample's name: village.",
    description="The scenario file's TOML text.",
    load=load_board_scenario,
    parse=pasted_board_scenario,
    samples=sample_board_scenarios,
    title=lambda scenario: scenario.name,
    board=lambda scenario: scenario.board,
    board_name=lambda scenario: scenario.board_name,
    page=page_data,
    choices=page_choices,
    page_text={
        "name": _("scenario"),
        "source": _("Valor & Victory on the board"),
        "how": _(
            "Pick the side that moves to shade where the enemy can fire on it; click one of its "
            "stacks, then the hexes of its path one by one; the odds along the path follow each "
            "click. Samples:"
        ),
        "index": _("A scenario's units on its board"),
        "index_more": _(
            ": where the enemy can fire on a moving stack (the threat map), and the exact odds "
            "of a move hex by hex under opportunity fire, then a roll."
        ),
    },
    default_sample="village",
)
"""A V&V scenario on its board: a file or a sample on the command line, its TOML text (on a
sample board) on the web."""

MOVE: Action[MoveInput, BoardScenario] = Action(
    name="move",
    title=_("A V&V stack's move under opportunity fire: exact odds along the path, or one move."),
    summary=(
        "A stack's move under opportunity fire: the exact odds along the path, or one run with "
        "``seed`` or ``roll`` and its trace (``firefight move --json``, docs/vv.md)."
    ),
    input_model=MoveInput,
    answer=move,
    subject=SCENARIO,
    cli={
        "path": CliForm(read=_hexes),
        "units": CliForm(read=_ids),
        "player": CliForm(option="fire", read=parse_fire),
    },
    cli_errors=LANE_ERRORS,
    web_errors={"fire": "player"},
    rolls=True,
    draws="Also draw the board and the path (.png, .svg).",
)

THREAT: Action[ThreatInput, BoardScenario] = Action(
    name="threat",
    title=_("Where the enemy can fire on a side's units as they move, and how likely a pin is."),
    summary="The threat map of a side's move (``firefight threat --json``, docs/vv.md).",
    input_model=ThreatInput,
    answer=threat,
    subject=SCENARIO,
    cli_errors=LANE_ERRORS,
    draws="Also draw the threat map to this .png or .svg file.",
)

ACTIONS: tuple[Action[MoveInput, BoardScenario] | Action[ThreatInput, BoardScenario], ...] = (
    MOVE,
    THREAT,
)
