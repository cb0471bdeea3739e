"""V&V's actions: a stack's ``move`` under opportunity fire (an overrun with ``overrun``) and
the ``threat`` map of a side's move, both on a scenario's board (:data:`SCENARIO`). Their input
models (:mod:`.action_inputs`) give the commands ``firefight move`` and ``firefight threat``
and the routes ``/api/vv/move`` and ``/api/vv/threat``; their answers (:mod:`.answers`) the
``--json`` shapes (docs/vv.md), the tables printed and the pictures of ``--out``.

Parts, their public names re-exported here: the input models, the lane options and the
readers of typed options (:mod:`.action_inputs`). This module keeps the actions' answers and
their declarations.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import cast, get_args

from firefight.board.hexes import Hex
from firefight.errors import InputError, one_of
from firefight.i18n import gettext as _
from firefight.rulesets.action import Action, Answer, CliForm, Subject
from firefight.rulesets.vv.action_inputs import (
    LANE_AFTER_MG_PINNED,
    LANE_ERRORS,
    LANE_NATURALS,
    LANE_SIDE,
    LaneOptions,
    MoveInput,
    ThreatInput,
    armour_letters,
    lane_readings,
    move_armour,
    parse_chance,
    parse_dice,
    parse_fire,
    parse_hexes,
    parse_ids,
    parse_pairs,
    parse_threshold,
    standing,
    standing_lanes_field,
)
from firefight.rulesets.vv.allocation import POLICIES as CASUALTY_POLICIES
from firefight.rulesets.vv.allocator import parse_orders, policy_allocator
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
from firefight.rulesets.vv.defender import OPTIMAL
from firefight.rulesets.vv.defender_answer import optimal_move
from firefight.rulesets.vv.fire_policies import POLICIES
from firefight.rulesets.vv.lanes import (
    LaneAfterPin,
    LaneLength,
    LaneNaturals,
    LaneSide,
)
from firefight.rulesets.vv.lanes_move import LANE_POLICIES
from firefight.rulesets.vv.move_results import model_odds, model_run
from firefight.rulesets.vv.movement import plan_move
from firefight.rulesets.vv.opportunity import FortificationCover
from firefight.rulesets.vv.overrun_move import (
    PositionCost,
    armour_ratings,
    build_overrun,
    overrun_odds,
    resolve_overrun_move,
)
from firefight.rulesets.vv.path_action import search_move
from firefight.rulesets.vv.scenario import (
    BoardScenario,
    load_board_scenario,
    pasted_board_scenario,
    sample_board_scenarios,
)
from firefight.rulesets.vv.scenario_ratings import afv_armour
from firefight.rulesets.vv.threat import threat_map

__all__ = [
    "ACTIONS",
    "LANE_AFTER_MG_PINNED",
    "LANE_ERRORS",
    "LANE_NATURALS",
    "LANE_SIDE",
    "MOVE",
    "OVERRUN_UNREAD",
    "SCENARIO",
    "THREAT",
    "LaneOptions",
    "MoveInput",
    "ThreatInput",
    "armour_letters",
    "lane_readings",
    "move",
    "move_armour",
    "page_choices",
    "parse_chance",
    "parse_fire",
    "parse_pairs",
    "parse_threshold",
    "standing",
    "standing_lanes_field",
    "threat",
]


MOVE_POLICIES: tuple[str, ...] = (*POLICIES, OPTIMAL)
"""The fire policies ``move`` takes (``--policy``, the page's choices), the default first."""
ONE_PATH_POLICIES = frozenset({"player"})
"""The policies that name hexes of one path (``--fire``): not for a search (``--to``)."""


def move(scenario: BoardScenario, inp: MoveInput) -> Answer:
    """A stack's move under opportunity fire: its exact odds, or one run with its trace."""
    if inp.policy not in MOVE_POLICIES:
        raise InputError("policy", one_of(MOVE_POLICIES), inp.policy)
    if inp.to is not None and inp.policy in ONE_PATH_POLICIES:
        searched = [p for p in MOVE_POLICIES if p not in ONE_PATH_POLICIES]
        raise InputError(
            "policy", _("{choices} with --to").format(choices=one_of(searched)), inp.policy
        )
    if inp.player is not None and inp.policy != "player":
        raise InputError("fire", "given with --policy player only", _pairs_text(inp.player))
    if inp.fortification_cover not in get_args(FortificationCover):
        allowed = one_of(get_args(FortificationCover))
        raise InputError("fortification_cover", allowed, inp.fortification_cover)
    level = parse_threshold(inp.threshold)
    at_level = parse_chance(inp.at_threshold, "at_threshold")
    if inp.casualty_policy not in CASUALTY_POLICIES:
        raise InputError("casualty_policy", one_of(CASUALTY_POLICIES), inp.casualty_policy)
    _refuse_unread(inp)
    if inp.passenger_apfp is not None and not inp.overrun:
        raise InputError("passenger_apfp", "given with --overrun (19.4)", inp.passenger_apfp)
    if inp.policy == OPTIMAL:
        return optimal_move(scenario, inp, level, at_level)
    if inp.to is not None:
        return search_move(scenario, inp, level, at_level)
    if not inp.path:
        raise InputError("path", "at least one hex (or --to HEX: the safest paths there)", "")
    if inp.overrun:
        return _overrun(scenario, inp, at_level)
    plan = plan_move(
        scenario, inp.stack.strip(), inp.path or [], units=inp.units, assault=inp.assault
    )
    plan = replace(
        plan,
        allocator=policy_allocator(
            inp.casualty_policy,
            inp.allocation,
            hexes=[s.label for s in plan.steps],
            units=[u.id for u in plan.stack],
        ),
    )
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
        dice = parse_dice(inp.roll) if inp.roll is not None else None
        run = model_run(lanes.model, seed=inp.seed, roll=dice)
        return MoveRunAnswer(plan, whole, run, laid)
    odds = model_odds(lanes.model, inp.policy, lanes.options)
    return MoveOddsAnswer(plan, whole, odds, laid)


def _pairs_text(pairs: dict[str, str]) -> str:
    return ",".join(f"{k}={v}" for k, v in pairs.items())


OVERRUN_UNREAD = {
    "units": "the AFV overruns alone, 19.1",
    "assault": "Assault Movement is infantry's, 6.4",
    "threshold": "no AP fire at the AFV, 14.1; AT fire reads --at-threshold",
    "fortification_cover": "no AP fire at the AFV, 14.1",
    "lanes": "no AP fire at the AFV, 14.1",
    "lane_side": "no AP fire at the AFV, 14.1",
    "lane_length": "no AP fire at the AFV, 14.1",
    "lane_naturals": "no AP fire at the AFV, 14.1",
    "lane_after_mg_pinned": "no AP fire at the AFV, 14.1",
    "standing_lanes": "no AP fire at the AFV, 14.1",
}
"""The options a move reads and an overrun does not, with the reason (refused when given)."""


def _refuse_unread(inp: MoveInput) -> None:
    """Never ignore an option: one given (not its default) that this move does not read is
    refused in one line naming it."""
    fields = MoveInput.model_fields
    unread = OVERRUN_UNREAD if inp.overrun else {"position_cost": "given with --overrun only"}
    for name, why in unread.items():
        value = getattr(inp, name)
        if value != fields[name].default:
            allowed = why if not inp.overrun else f"left out with --overrun ({why})"
            raise InputError(name, allowed, value)


def _overrun(scenario: BoardScenario, inp: MoveInput, at_level: Fraction) -> Answer:
    """``move --overrun``: the AFV's overrun of the path's last hex (V&V 19), its AT fire
    chosen by the fire policy, its CPs applied by the defender (14.6)."""
    if inp.position_cost not in get_args(PositionCost):
        raise InputError("position_cost", one_of(get_args(PositionCost)), inp.position_cost)
    setup = build_overrun(
        scenario,
        inp.stack.strip(),
        inp.path or [],
        armour=armour_letters(inp.armour) if inp.armour is not None else None,
        at_ratings=parse_pairs("at", inp.at or "", "de-sq1=D"),
        position_cost=cast(PositionCost, inp.position_cost),
        passenger_apfp=inp.passenger_apfp,
        policy=inp.policy,
        at_threshold=at_level,
        player=inp.player or {},
    )
    setup = replace(
        setup,
        allocator=policy_allocator(
            inp.casualty_policy,
            inp.allocation,
            hexes=[scenario.board.label(setup.plan.target)],
            units=[u.id for u in setup.defenders],
        ),
    )
    if inp.seed is not None or inp.roll is not None:
        dice = parse_dice(inp.roll) if inp.roll is not None else None
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
    given = armour_ratings(armour_letters(inp.armour)) if inp.armour is not None else None
    found = vehicle_threat(
        scenario,
        side,
        parse_pairs("at", at, "de-pak=D"),
        vehicle=kind,
        armour=afv_armour(afvs[0], given) if afvs and kind == "afv" else given,
        heading=heading,
        skip=origin,
    )
    return AtThreatAnswer(scenario, side, origin, kind, found)


def page_choices() -> dict[str, list[str]]:
    """The choices the scenario page offers, from the rule set's own lists, default first."""
    return {
        "policy": list(MOVE_POLICIES),
        "casualty_policy": list(CASUALTY_POLICIES),
        "lanes": list(LANE_POLICIES),
        "lane_side": list(get_args(LaneSide)),
        "lane_length": list(get_args(LaneLength)),
        "lane_naturals": list(get_args(LaneNaturals)),
        "lane_after_mg_pinned": list(get_args(LaneAfterPin)),
    }


SCENARIO: Subject[BoardScenario] = Subject(
    name="scenario",
    help="A V&V scenario file (TOML) or a sample's name: vv_crossroads, vv_armour.",
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
    default_sample="vv_crossroads",
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
        "path": CliForm(read=parse_hexes),
        "units": CliForm(read=parse_ids),
        "player": CliForm(option="fire", read=parse_fire),
        "allocation": CliForm(read=parse_orders),
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
