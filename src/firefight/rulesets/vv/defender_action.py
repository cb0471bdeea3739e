"""``move --policy optimal``: the defender's best fire on a path (:mod:`.defender`), and with
``--to`` the mover's best path against it (a game searched over every legal path).

**The game.** The mover commits to a path; the defender reacts hex by hex, seeing the path so
far and the dice, never the hexes still to come. A defender's plan is then a function of the
prefix entered (and of the state of the move): on the one path the mover takes, every prefix
is a prefix of that path, so the best such plan against it is :class:`~.defender.Defence`'s
backward induction over its hexes, and what the mover can guarantee on that path is that
value. The mover's best path is the one whose guaranteed value is best (``min`` over paths of
the defender's ``max``): whatever plan the defender holds, a function of the prefix or not,
the path does at least that well, and a defender who reads the path right holds it there. The
prefix is honoured because each path's value comes from plans over its own prefixes only;
nothing of the defender's decision at the k-th hex reads a hex after it. (The defender's own
guarantee, a single plan over the prefixes of every path before the mover chooses, can only be
lower; it is not searched.)

The paths are the safest path's (:mod:`.path_search`: the legal simple ones, both ways of
moving), searched by its branch and bound with each prefix priced by its own optimal defence
(:func:`play` says why that bounds every path through it), its budgets spent as there and
the states of :data:`~.defender.MAX_STATES` for every path together (their kernels, lines
of sight and attacks computed once for the game, :class:`Setting`); the twin solves every
legal path (at most :data:`MAX_PATHS`, counted before any is solved). Past any, one line; the
search's bound on the paths (:func:`~.path_bound.path_space`) refuses at once a game far past
the paths' budgets.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import cast

from firefight.board.hexes import Hex
from firefight.chance.collector import no_collection
from firefight.errors import InputError, one_of
from firefight.rulesets.vv import defender
from firefight.rulesets.vv.action_inputs import (
    MoveInput,
    lane_readings,
    move_armour,
    parse_pairs,
    standing,
)
from firefight.rulesets.vv.allocator import PolicyAllocator, policy_allocator
from firefight.rulesets.vv.at_move import Armour, AtMove, at_options, build_at_move
from firefight.rulesets.vv.defender import Budget, Defence, Walk
from firefight.rulesets.vv.defender_kernels import GameKernels
from firefight.rulesets.vv.lanes import FireLane, LaidLane, LaneReadings
from firefight.rulesets.vv.lanes_move import lane_fired_plan
from firefight.rulesets.vv.movement import MovePlan, plan_move
from firefight.rulesets.vv.opportunity import FortificationCover, opportunities
from firefight.rulesets.vv.path_action import start_of
from firefight.rulesets.vv.path_bound import path_space
from firefight.rulesets.vv.path_search import (
    OBJECTIVES,
    SEARCH_POLICIES,
    Found,
    PathSpace,
    Score,
    SearchWork,
    SharedShots,
    branch_and_bound,
    legal_paths,
    moving_modes,
    score_of,
    unreachable,
)
from firefight.rulesets.vv.scenario import BoardScenario, stacking_problem
from firefight.translation import N_, thousands
from firefight.translation import gettext as _

MAX_PATHS = 300
"""The paths one game may solve (each by backward induction)."""
BOUND_SLACK = 4
"""The twin is refused before any path is listed when the paths' bound
(:func:`~.path_bound.path_space`) is more than this many times :data:`MAX_PATHS`."""
NAMED: tuple[str, ...] = SEARCH_POLICIES
"""The named policies the optimal defender is compared with on each path."""
UNREAD = {
    "player": N_("the optimal defender chooses its own fire"),
    "overrun": N_("an overrun's fire is AT fire at one AFV"),
    "seed": N_(
        "the optimal defender answers exact odds; run its plan's fires with --policy player"
    ),
    "roll": N_(
        "the optimal defender answers exact odds; run its plan's fires with --policy player"
    ),
}
"""The options ``move`` reads and ``move --policy optimal`` does not, with the reason."""


@dataclass(frozen=True)
class Setting:
    """What the defence of every path shares: the options of ``move`` read once, the
    attacks' odds and hits, the kernels (:mod:`.defender_kernels`), the lines of sight and
    the attacks by hex (the shots' :class:`~.attack_memo.AttackMemo`)."""

    scenario: BoardScenario
    inp: MoveInput
    level: Fraction
    at_level: Fraction
    readings: LaneReadings
    laid: tuple[FireLane, ...]
    ratings: dict[str, str]
    armour: Armour | None
    cover: FortificationCover
    budget: Budget
    shots: SharedShots = field(default_factory=SharedShots)
    kernels: GameKernels = field(default_factory=GameKernels)
    allocators: dict[tuple[str, ...], PolicyAllocator] = field(default_factory=dict)

    def allocated(self, plan: MovePlan) -> MovePlan:
        """The plan with the owner's casualty policy and orders (checked once for the
        stack: the policy and the orders are values, the same on every path)."""
        units = tuple(u.id for u in plan.stack)
        allocator = self.allocators.get(units)
        if allocator is None:
            board = self.scenario.board
            allocator = policy_allocator(
                self.inp.casualty_policy,
                self.inp.allocation,
                hexes=[board.label(h) for h in board.hexes()],
                units=units,
            )
            self.allocators[units] = allocator
        return replace(plan, allocator=allocator)

    def defence(self, plan: MovePlan) -> Defence:
        """The defender's problem on the path (the standing lanes' MGs have fired; a unit
        rated AT keeps its fire for the vehicles)."""
        plan = lane_fired_plan(self.allocated(plan), self.laid)
        at = at_options(plan, self.ratings, self.armour, self.shots.attacks)
        ap = opportunities(
            plan, fortification_cover=self.cover, holding=frozenset(at), memo=self.shots.attacks
        )
        return Defence(
            plan,
            ap,
            at,
            tuple(LaidLane(lane, 0) for lane in self.laid),
            self.readings,
            self.inp.lanes == "always",
            self.inp.objective,
            self.budget,
            self.shots.cache(plan),
            self.kernels,
        )

    def named(self, plan: MovePlan, policy: str) -> Score:
        """The path's odds under a named policy, as ``move --path`` gives them."""
        whole = build_at_move(
            self.allocated(plan),
            policy,
            threshold=self.level,
            at_threshold=self.at_level,
            player={},
            ratings=self.ratings,
            armour=self.armour,
            fortification_cover=self.cover,
            lanes=self.inp.lanes,
            lane_readings=self.readings,
            standing=self.laid,
        )
        return score_of(whole.lanes.model)


@dataclass(frozen=True)
class Defended:
    """One path's answer: the optimal defence solved, its plan walked, the named policies'
    odds on the same path."""

    defence: Defence
    value: Fraction
    walk: Walk
    named: tuple[tuple[str, Score], ...]


def defend(setting: Setting, plan: MovePlan) -> Defended:
    """The optimal defence of one path, its plan and the named policies beside it (the
    collector paused over the solve, :func:`~firefight.chance.collector.no_collection`: its
    states are bounded by the budget)."""
    defence = setting.defence(plan)
    with no_collection():
        value = defence.solve()
        walk = defence.walk(defence.best)
    named = tuple((p, setting.named(plan, p)) for p in NAMED)
    return Defended(defence, value, walk, named)


def setting_of(
    scenario: BoardScenario, inp: MoveInput, level: Fraction, at_level: Fraction
) -> Setting:
    """The options read and checked once."""
    for name, why in UNREAD.items():
        value = getattr(inp, name)
        if value is not None and value != MoveInput.model_fields[name].default:
            raise InputError(
                name, _("left out with --policy optimal ({why})").format(why=_(why)), str(value)
            )
    if inp.objective not in OBJECTIVES:
        raise InputError("objective", one_of(OBJECTIVES), inp.objective)
    start = start_of(scenario, inp)
    here = [u for u in scenario.units_at(start) if inp.units is None or u.id in inp.units]
    if not here:
        raise InputError("stack", "a hex with units in it", inp.stack)
    readings = lane_readings(inp, inp.lane_length)
    return Setting(
        scenario,
        inp,
        level,
        at_level,
        readings,
        tuple(standing(inp, scenario, readings, here[0].side)),
        parse_pairs("at", inp.at or "", "de-sq1=D"),
        move_armour(inp.armour) if inp.armour is not None else None,
        cast(FortificationCover, inp.fortification_cover),
        Budget(defender.MAX_STATES),
    )


@dataclass(frozen=True)
class Game:
    """The mover's paths against the optimal defender, best first (at most ``top``), and the
    paths solved."""

    to: str
    paths: tuple[Defended, ...]
    solved: int
    method: str


def game_paths(setting: Setting, to_label: str) -> list[MovePlan]:
    """Every legal simple path to the hex (both ways of moving unless ``--assault``), counted
    and refused past :data:`MAX_PATHS` before any is solved."""
    inp, scenario = setting.inp, setting.scenario
    board = scenario.board
    start = board.hex(inp.stack.strip())
    try:
        to = board.hex(to_label.strip())
    except InputError as error:
        raise InputError("to", error.allowed, to_label) from None
    if to == start:
        raise InputError("to", "a hex other than the stack's", to_label)
    search = PathSpace(scenario, start, to, inp.units, _no_build, SearchWork(to_label))
    plans = []
    for plan in legal_paths(search, moving_modes(assault=inp.assault)):
        if stacking_problem([*plan.steps[-1].friendly, *plan.stack]):
            continue  # 6.9: the stack may not end there
        plans.append(plan)
        if len(plans) > MAX_PATHS:
            _too_many(to_label)
    return plans


def _too_many(to_label: str, bound: int | None = None) -> None:
    found = ""
    if bound is not None:
        found = _("the bound before the work: {bound}; ").format(bound=thousands(bound))
    raise InputError(
        "to",
        _(
            "a destination with at most {max_paths} legal paths for the optimal defender "
            "({found}a nearer hex, --assault, or a named policy)"
        ).format(max_paths=thousands(MAX_PATHS), found=found),
        to_label,
    )


def _no_build(plan: MovePlan) -> AtMove:
    raise AssertionError(plan)  # the game prices paths by their defence, not a named policy


@dataclass(frozen=True)
class _Against(PathSpace):
    """The safest path's search with each path priced by its optimal defence."""

    setting: Setting | None = None
    solved: dict[tuple[tuple[Hex, ...], bool], Defence] = field(default_factory=dict)

    def evaluate(self, plan: MovePlan) -> Found | None:
        """The path's three objectives under the defence optimal for the objective."""
        last = plan.steps[-1]
        if stacking_problem([*last.friendly, *plan.stack]):
            return None
        self.work.evaluation()
        assert self.setting is not None
        defence = self.setting.defence(plan)
        defence.solve()
        self.solved[(tuple(plan.hexes), plan.assault)] = defence
        return Found(plan, defence.walk(defence.best).score(), cast(AtMove, None))


def play(setting: Setting, to_label: str, top: int, *, exhaustive: bool = False) -> Game:
    """The ``top`` best paths against the optimal defender (the mover's objective), exact:
    best-first branch and bound over the prefixes, each prefix's value under its own optimal
    defence bounding every path through it (the defender of a longer path may fire as on
    the prefix and more; the prefix's last hex, no longer its end, loses ``path_end``
    cover); ``exhaustive``: every legal path solved (its twin). The collector is paused over
    the game (:func:`~firefight.chance.collector.no_collection`): its states, all paths
    together, are bounded by the budget."""
    with no_collection():
        return _play(setting, to_label, top, exhaustive=exhaustive)


def _play(setting: Setting, to_label: str, top: int, *, exhaustive: bool) -> Game:
    inp = setting.inp
    board = setting.scenario.board
    start = board.hex(inp.stack.strip())
    try:
        to = board.hex(to_label.strip())
    except InputError as error:
        raise InputError("to", error.allowed, to_label) from None
    if to == start:
        raise InputError("to", "a hex other than the stack's", to_label)
    work = SearchWork(to_label)
    modes = moving_modes(assault=inp.assault)
    space = path_space(setting.scenario, start, to, inp.units, modes)
    if exhaustive and space.paths > BOUND_SLACK * MAX_PATHS:
        _too_many(to_label, space.paths)
    work.bound(space, looks_ahead=exhaustive)
    search = _Against(setting.scenario, start, to, inp.units, _no_build, work, setting=setting)
    if exhaustive:
        plans = game_paths(setting, to_label)
        found = [f for plan in plans if (f := search.evaluate(plan)) is not None]
        best = sorted(found, key=lambda f: f.key(inp.objective))[:top]
        method = "exhaustive"
    else:
        best = branch_and_bound(search, modes, inp.objective, top)
        method = "branch_and_bound"
    if not best:
        raise unreachable(to_label)
    paths = []
    for f in best:
        defence = search.solved[(tuple(f.plan.hexes), f.plan.assault)]
        named = tuple((p, setting.named(f.plan, p)) for p in NAMED)
        value = f.score.value(inp.objective)
        paths.append(Defended(defence, value, defence.walk(defence.best), named))
    return Game(to_label, tuple(paths), work.evaluated, method)


def path_plan(setting: Setting) -> MovePlan:
    """The path given (``--path``), checked and priced as ``move --path`` does."""
    inp = setting.inp
    if not inp.path:
        raise InputError("path", "at least one hex (or --to HEX: the safest paths there)", "")
    return plan_move(
        setting.scenario, inp.stack.strip(), inp.path, units=inp.units, assault=inp.assault
    )


__all__ = [
    "MAX_PATHS",
    "NAMED",
    "Defended",
    "Game",
    "Setting",
    "defend",
    "game_paths",
    "path_plan",
    "play",
    "setting_of",
]
