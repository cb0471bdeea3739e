"""``move --to HEX``: the ``move`` action searching the safest paths instead of evaluating one
(:mod:`.path_search`), each path's move built exactly as ``firefight move --path`` builds it:
the fire policy, the fire lanes and the standing ones, the AT fire, the owner's allocation.
The answer: :class:`~.path_answer.PathSearchAnswer`.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import cast, get_args

from firefight.board.hexes import Hex
from firefight.errors import InputError, one_of
from firefight.rulesets.vv.action_inputs import (
    MoveInput,
    lane_readings,
    move_armour,
    parse_pairs,
    standing,
)
from firefight.rulesets.vv.allocator import policy_allocator
from firefight.rulesets.vv.at_move import AtMove, build_at_move
from firefight.rulesets.vv.movement import MovePlan
from firefight.rulesets.vv.opportunity import FortificationCover
from firefight.rulesets.vv.path_answer import PathSearchAnswer
from firefight.rulesets.vv.path_search import Build, SharedShots, search_paths, unreachable
from firefight.rulesets.vv.scenario import BoardScenario
from firefight.translation import N_
from firefight.translation import gettext as _

SEARCH_UNREAD = {
    "path": N_("the search finds the paths"),
    "seed": N_("the search ranks exact odds; run a path found with --path --seed"),
    "roll": N_("the search ranks exact odds; run a path found with --path --roll"),
    "overrun": N_("an overrun's path is the player's"),
    "player": N_("the player policy names hexes of one path"),
}
"""The options ``move`` reads and ``move --to`` does not, with the reason (refused)."""


def _refuse_unread(inp: MoveInput) -> None:
    fields = MoveInput.model_fields
    for name, why in SEARCH_UNREAD.items():
        value = getattr(inp, name)
        if value is not None and value != fields[name].default and value != []:
            raise InputError(name, _("left out with --to ({why})").format(why=_(why)), typed(value))


def typed(value: object) -> str:
    """A value as it is typed on the command line: a list comma-separated (``0305,0406``),
    pairs as ``KEY=VALUE,...``."""
    if isinstance(value, dict):
        return ",".join(f"{k}={v}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def builder(
    scenario: BoardScenario, inp: MoveInput, level: Fraction, at_level: Fraction
) -> tuple[Build, str]:
    """How every path's whole move is built (the ``move`` action's steps), and the moving
    side."""
    board = scenario.board
    start = scenario.board.hex(inp.stack.strip())
    here = [u for u in scenario.units_at(start) if inp.units is None or u.id in inp.units]
    if not here:
        raise InputError("stack", "a hex with units in it", inp.stack)
    side = here[0].side
    readings = lane_readings(inp, inp.lane_length)
    laid = standing(inp, scenario, readings, side)
    ratings = parse_pairs("at", inp.at or "", "de-sq1=D")
    armour = move_armour(inp.armour) if inp.armour is not None else None
    allocator = policy_allocator(
        inp.casualty_policy,
        inp.allocation,
        hexes=[board.label(h) for h in board.hexes()],
        units=[u.id for u in here],
    )
    cover = cast(FortificationCover, inp.fortification_cover)
    shots = SharedShots()

    def build(plan: MovePlan) -> AtMove:
        return build_at_move(
            replace(plan, allocator=allocator),
            inp.policy,
            threshold=level,
            at_threshold=at_level,
            player={},
            ratings=ratings,
            armour=armour,
            fortification_cover=cover,
            lanes=inp.lanes,
            lane_readings=readings,
            standing=laid,
            cache=shots.cache(plan),
        )

    return build, side


def start_of(scenario: BoardScenario, inp: MoveInput) -> Hex:
    """The hex of the stack that moves, with the fortification cover checked: what a search and
    the optimal defender read first (one line naming ``stack`` or ``fortification_cover``)."""
    if inp.fortification_cover not in get_args(FortificationCover):
        allowed = one_of(get_args(FortificationCover))
        raise InputError("fortification_cover", allowed, inp.fortification_cover)
    try:
        return scenario.board.hex(inp.stack.strip())
    except InputError as error:
        raise InputError("stack", error.allowed, inp.stack) from None


def search_move(
    scenario: BoardScenario, inp: MoveInput, level: Fraction, at_level: Fraction
) -> PathSearchAnswer:
    """``move --to``: the best paths to the hex, exact (:func:`~.path_search.search_paths`)."""
    _refuse_unread(inp)
    start = start_of(scenario, inp)
    board = scenario.board
    try:
        to = board.hex(inp.to.strip() if inp.to else "")
    except InputError as error:
        raise InputError("to", error.allowed, inp.to) from None
    build, _side = builder(scenario, inp, level, at_level)
    found = search_paths(
        scenario,
        start,
        to,
        build,
        policy=inp.policy,
        units=inp.units,
        assault=inp.assault,
        objective=inp.objective,
        top=inp.top,
    )
    if not found.paths:
        raise unreachable(inp.to or "")
    return PathSearchAnswer(scenario, found)
