"""The safest path: a stack's legal paths to a hex, ranked by exact odds (V&V 6, 13.8).

:func:`search_paths` finds, among the paths a stack may take from its hex to a destination
(each checked and priced by :func:`~.movement.plan_move`: MPs and terrain costs, the leader's
bonus, stacking, wire; with and without Assault Movement), those that score best under the
defender's fire policy and the standing lanes, each scored by the move's own exact odds (the
process of :func:`~.move_steps.move_process` built as ``firefight move`` builds it, passed in as
``build``). The objectives (:data:`OBJECTIVES`, the best first): ``unpinned`` the chance that
no moving unit ends pinned or worse; ``not_eliminated`` the chance that none is eliminated;
``cps`` the expected Casualty Points the stack's end states cost (14.61: 1 a pin, the
difference of the ratings a reduction, the rating an elimination; AT losses of a vehicle, with
no Casualty Rating, count none), the fewest best.

**Exact, and why the pruning cannot lose the best path.** The paths are the simple ones (no
hex entered twice, the start hex never re-entered). Under a fire policy that decides from the
path so far (``threshold``, ``first_sight``: a firer fires at the first hex that qualifies),
extending a path changes nothing of what happened on it but the cover of its last hex
(``path_end`` fortification cover: only weaker fire there) and only adds fire after it, and
every objective is then monotone: a path's P(unpinned) and P(not eliminated) can only fall, its
expected CPs only rise, as it is extended. So a prefix's own score, as if the move ended there,
bounds every path through it (a prefix that may not end where it is, 6.9, takes its parent's
bound), and the search is best-first branch and bound: the open prefix of the best bound is
taken next (evaluated when it first comes out, unless its one way on is the destination
itself), a prefix whose bound is below the ``top``-th best path found (or equal with no
shorter path possible) is dropped, and a prefix whose MPs left are fewer than the cheapest
way on to the destination (:func:`cost_to_go`, a lower bound) is never made. ``best_shot``
holds fire for a later hex, so no prefix bounds its paths: every path is evaluated
(``exhaustive``). Both are exact; equal
scores rank the shorter path first, then by the hexes' labels.

**Work budget**, fixed before the search: :data:`MAX_EVALUATIONS` paths evaluated exactly and
:data:`MAX_PREFIXES` prefixes checked; past either, one line refusing ``to``. Before any work,
the search's bound (:func:`~.path_bound.path_space`: the walks the MPs allow, counted over the
hexes) refuses at once a search more than :data:`BOUND_SLACK` times past a limit; the counts
during the work stay, for those within it that prune less than their bound. Each evaluation
also pays :data:`EVALUATION_COST` steps of the web's work budget
(:func:`~firefight.chance.evaluate.spend`).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from firefight.board.hexes import Hex
from firefight.chance.evaluate import spend
from firefight.errors import InputError, one_of
from firefight.i18n import gettext as _
from firefight.rulesets.vv.at_move import AtMove
from firefight.rulesets.vv.attack_memo import AttackMemo
from firefight.rulesets.vv.move_results import HIT
from firefight.rulesets.vv.move_shots import ShotCache
from firefight.rulesets.vv.move_steps import MoveModel
from firefight.rulesets.vv.movement import WHOLE_ALLOWANCE, MovePlan, plan_move
from firefight.rulesets.vv.path_bound import Space, cost_to_go, path_space
from firefight.rulesets.vv.scenario import BoardScenario, ScenarioUnit, stacking_problem
from firefight.translation import thousands

OBJECTIVES: tuple[str, ...] = ("unpinned", "not_eliminated", "cps")
PREFIX_POLICIES = frozenset({"threshold", "first_sight"})
"""The fire policies under which a path's prefix bounds its extensions (see the module)."""
SEARCH_POLICIES: tuple[str, ...] = ("threshold", "first_sight", "best_shot")
MAX_EVALUATIONS = 4_000
"""The paths (and prefixes) one search may evaluate exactly: about 3-15 ms each here."""
MAX_PREFIXES = 60_000
"""The prefixes one search may check and price (:func:`~.movement.plan_move`)."""
EVALUATION_COST = 20
"""The web's work budget paid by one path evaluated."""
BOUND_SLACK = 4
"""A search is refused before any work when its bound (:func:`~.path_bound.path_space`) is
more than this many times a limit: the branch and bound prunes most of the prefixes its bound
counts (the sample truck's 12 MPs: 6,583 bounded, 509 evaluated), so a bound past a limit
alone does not refuse; one this far past is far out of the budget's reach."""

Build = Callable[[MovePlan], AtMove]
"""The whole move of a plan, as ``firefight move`` builds it (fire policy, lanes, AT fire)."""


class _ByHex(dict[Any, Any]):
    """One path's view of the search's hits (:meth:`~.move_shots.ShotCache.hit`): a hit's
    outcome is a function of the hex index, the hex itself, the units hit, their states and
    the CPs (the stack and the owner's allocation are the search's), so paths that enter
    the same hex at the same index share it."""

    def __init__(self, hexes: Sequence[Hex], store: dict[Any, Any]) -> None:
        super().__init__()
        self.hexes = hexes
        self.store = store

    def get(self, key: Any, default: Any = None) -> Any:  # noqa: ANN401 - the cache's keys
        return self.store.get((self.hexes[key[0]], key), default)

    def __setitem__(self, key: Any, value: Any) -> None:  # noqa: ANN401
        self.store[(self.hexes[key[0]], key)] = value


@dataclass
class SharedShots:
    """The attacks' odds and hits, the lines of sight and the attacks judged, shared by every
    path of one search (each path's own :class:`~.move_shots.ShotCache` over the same
    stores): the same answers, computed once."""

    odds: dict[Any, Any] = field(default_factory=dict)
    hits: dict[Any, Any] = field(default_factory=dict)
    attacks: AttackMemo = field(default_factory=AttackMemo)
    kernels: dict[Any, Any] = field(default_factory=dict)

    def cache(self, plan: MovePlan) -> ShotCache:
        """A path's cache over the shared stores."""
        hits = _ByHex(plan.hexes, self.hits)
        return ShotCache(plan, self.odds, hits, self.attacks, self.kernels)


@dataclass(frozen=True)
class Score:
    """A path's three objectives, exact: P(no moving unit pinned or worse), P(none
    eliminated), the expected CPs of the stack's end states."""

    unpinned: Fraction
    not_eliminated: Fraction
    cps: Fraction

    def value(self, objective: str) -> Fraction:
        """The objective as "the more, the better" (``cps`` negated)."""
        value: Fraction = -self.cps if objective == "cps" else getattr(self, objective)
        return value


@dataclass(frozen=True)
class Found:
    """One path found: its plan (hexes, Assault Movement), its score and its whole move."""

    plan: MovePlan
    score: Score
    whole: AtMove

    def key(self, objective: str) -> tuple[Fraction, int, tuple[str, ...], bool]:
        """The ranking, the best least: the objective, then fewer hexes, then the labels."""
        return (
            -self.score.value(objective),
            len(self.plan.steps),
            tuple(s.label for s in self.plan.steps),
            self.plan.assault,
        )


@dataclass(frozen=True)
class PathSearch:
    """The answer: the best paths, best first (at most ``top``), how they were found
    (``method``: ``branch_and_bound`` or ``exhaustive``, both exact), the work done."""

    start: Hex
    to: Hex
    objective: str
    policy: str
    paths: tuple[Found, ...]
    method: str
    evaluated: int
    prefixes: int


def unit_cps(unit: ScenarioUnit, condition: str, *, started_reduced: bool) -> int:
    """The fewest CPs that leave ``unit`` in ``condition`` (14.61): a pin 1, a reduction the
    difference of the ratings (+1 pinned too), an elimination the rating of the side it is on."""
    full = unit.casualty_rating or 0
    half = unit.half_squad_rating or 0
    if condition == "pinned":
        return 1
    if condition in ("reduced", "reduced_pinned"):
        return full - half + (condition == "reduced_pinned")
    if condition == "eliminated":
        return half if started_reduced and half else full
    return 0


def score_of(model: MoveModel) -> Score:
    """The three objectives of a move's process, from its final states' exact masses."""
    plan = model.plan
    final = model.process.weights(model.start, model.hexes)[-1]
    start = model.start.movers
    hurt = eliminated = 0
    cps = 0
    for state, mass in final.masses.items():
        conditions = [m.condition(s) for m, s in zip(state.movers, start, strict=True)]
        hurt += mass * any(c in HIT for c in conditions)
        eliminated += mass * ("eliminated" in conditions)
        cps += mass * sum(
            unit_cps(u, c, started_reduced=s.reduced)
            for u, c, s in zip(plan.stack, conditions, start, strict=True)
        )
    total = final.denominator
    return Score(1 - Fraction(hurt, total), 1 - Fraction(eliminated, total), Fraction(cps, total))


@dataclass
class _Work:
    """The budget spent so far (both limits fixed before the search)."""

    to_label: str
    evaluated: int = 0
    prefixes: int = 0

    def evaluation(self) -> None:
        self.evaluated += 1
        if self.evaluated > MAX_EVALUATIONS:
            self._refuse(
                _("{count} paths evaluated exactly").format(count=thousands(MAX_EVALUATIONS))
            )
        spend(EVALUATION_COST)

    def prefix(self) -> None:
        self.prefixes += 1
        if self.prefixes > MAX_PREFIXES:
            self._refuse(_("{count} paths checked").format(count=thousands(MAX_PREFIXES)))

    def bound(self, space: Space, *, looks_ahead: bool) -> None:
        """Refuse before any work a search whose bound is far past a limit (see
        :data:`BOUND_SLACK`): the prefixes checked, and the paths (every path, when the
        search evaluates each) or prefixes (the branch and bound's) evaluated."""
        evaluated = space.paths if looks_ahead else space.prefixes
        if evaluated > BOUND_SLACK * MAX_EVALUATIONS:
            self._refuse(
                _("{count} paths evaluated exactly").format(count=thousands(MAX_EVALUATIONS)),
                _("{count} paths").format(count=thousands(evaluated)),
            )
        if space.checks > BOUND_SLACK * MAX_PREFIXES:
            self._refuse(
                _("{count} paths checked").format(count=thousands(MAX_PREFIXES)),
                _("{count} paths").format(count=thousands(space.checks)),
            )

    def _refuse(self, what: str, bound: str | None = None) -> None:
        found = _("the bound before the search: {bound}; ").format(bound=bound) if bound else ""
        raise InputError(
            "to",
            _(
                "a destination the path search reaches within its budget of {what} ({found}a "
                "nearer hex, fewer --units, or --assault)"
            ).format(what=what, found=found),
            self.to_label,
        )


@dataclass(frozen=True)
class _Search:
    """What every prefix shares: the scenario, the stack, the destination."""

    scenario: BoardScenario
    start: Hex
    to: Hex
    units: Sequence[str] | None
    build: Build
    work: _Work
    need: dict[str, dict[Hex, int]] = field(default_factory=dict)

    def plan(self, hexes: Sequence[Hex], *, assault: bool) -> MovePlan | None:
        """The prefix checked and priced, or ``None`` where the rules forbid it."""
        self.work.prefix()
        try:
            return plan_move(
                self.scenario, self.start, hexes, units=self.units, assault=assault, end=False
            )
        except InputError:
            return None

    def children(self, plan: MovePlan) -> Iterator[MovePlan]:
        """The legal one-hex extensions of a prefix that can still reach the destination."""
        board = self.scenario.board
        here = plan.hexes[-1]
        seen = set(plan.hexes)
        for after in here.neighbours():
            if after not in board or after in seen:
                continue
            extended = self.plan([*plan.hexes[1:], after], assault=plan.assault)
            if extended is not None and self.may_reach(extended):
                yield extended

    def roots(self, modes: Sequence[bool]) -> Iterator[MovePlan]:
        """The paths of one hex (6.6: the first hex always), each way of moving."""
        for assault in modes:
            for after in self.start.neighbours():
                if after in self.scenario.board:
                    plan = self.plan([after], assault=assault)
                    if plan is not None and self.may_reach(plan):
                        yield plan

    def may_reach(self, plan: MovePlan) -> bool:
        """Whether every unit has the MPs left to reach the destination from the prefix's
        last hex by the cheapest way there (:func:`cost_to_go`)."""
        if plan.hexes[-1] == self.to:
            return True
        if any(u.id not in self.need for u in plan.stack):
            cost_to_go(self.scenario, plan.stack, self.to, self.need)
        last = plan.steps[-1]
        need = self.need
        return all(
            need[u.id].get(last.hex, WHOLE_ALLOWANCE) <= plan.allowance[u.id] - last.spent[u.id]
            for u in plan.stack
        )

    def evaluate(self, plan: MovePlan) -> Found | None:
        """The path's score if the stack may end there (6.7, 6.9), else ``None``."""
        last = plan.steps[-1]
        if stacking_problem([*last.friendly, *plan.stack]):
            return None
        self.work.evaluation()
        whole = self.build(plan)
        return Found(plan, score_of(whole.lanes.model), whole)


def _left(plan: MovePlan) -> int:
    """The fewest MPs any unit of the stack has left after the prefix."""
    last = plan.steps[-1]
    return min(plan.allowance[u] - last.spent[u] for u in plan.allowance)


def _modes(*, assault: bool) -> list[bool]:
    """Assault Movement is searched beside the normal move (6.4: infantry only, so a stack
    with a vehicle has none), alone when asked for."""
    return [True] if assault else [False, True]


def _ranked(found: list[Found], objective: str, top: int) -> list[Found]:
    return sorted(found, key=lambda f: f.key(objective))[:top]


def _branch_and_bound(
    search: _Search, modes: Sequence[bool], objective: str, top: int
) -> list[Found]:
    """Best-first branch and bound over the prefixes (the module's docstring says why no
    prefix dropped can hold a better path than the ``top`` kept)."""
    best: list[Found] = []
    order = 0
    # (-bound, hexes entered, order, evaluated, plan): a prefix pushed with its parent's
    # bound is evaluated when it comes first, then pushed again with its own.
    heap: list[tuple[Fraction, int, int, bool, MovePlan]] = []
    most = Fraction(0) if objective == "cps" else Fraction(1)
    for plan in search.roots(modes):
        heap.append((-most, 1, order, False, plan))
        order += 1
    heapq.heapify(heap)
    while heap:
        negative, length, _, evaluated, plan = heapq.heappop(heap)
        bound = -negative
        if len(best) == top:
            kth = best[-1].key(objective)
            if -bound > kth[0]:
                break  # every prefix left is bounded by less than the top-th path
            if -bound == kth[0] and length + plan.hexes[-1].distance(search.to) > kth[1]:
                continue
        if not evaluated and plan.hexes[-1] != search.to and _left(plan) <= 1:
            evaluated = True  # its one way on is the destination: that path's score will do
        if not evaluated:
            found = search.evaluate(plan)
            if found is not None:
                bound = min(bound, found.score.value(objective))
                if plan.hexes[-1] == search.to:
                    best = _ranked([*best, found], objective, top)
            if plan.hexes[-1] == search.to:
                continue  # a simple path does not come back to its destination
            heapq.heappush(heap, (-bound, length, order, True, plan))
            order += 1
            continue
        for child in search.children(plan):
            heapq.heappush(heap, (-bound, length + 1, order, False, child))
            order += 1
    return best


def legal_paths(search: _Search, modes: Sequence[bool]) -> Iterator[MovePlan]:
    """Every legal simple path from the start to the destination (depth first)."""
    stack = list(search.roots(modes))
    while stack:
        plan = stack.pop()
        if plan.hexes[-1] == search.to:
            yield plan
            continue
        stack.extend(search.children(plan))


def _exhaustive(search: _Search, modes: Sequence[bool], objective: str, top: int) -> list[Found]:
    """Every legal path evaluated (a fire policy that looks ahead: no prefix bounds it);
    counted first, so that a search past the budget is refused before any evaluation."""
    plans = list(legal_paths(search, modes))
    if len(plans) > MAX_EVALUATIONS:
        search.work.evaluated = len(plans)
        search.work.evaluation()
    found = [f for plan in plans if (f := search.evaluate(plan)) is not None]
    return _ranked(found, objective, top)


def unreachable(to_label: str) -> InputError:
    """The error of a destination no legal path of the stack reaches (its MPs, the hexes it
    may enter, the stacking at the end): one line naming ``to``, as typed."""
    return InputError("to", _("a hex the stack can reach with its MPs"), to_label)


def search_paths(
    scenario: BoardScenario,
    stack_hex: Hex,
    to: Hex,
    build: Build,
    *,
    policy: str,
    units: Sequence[str] | None = None,
    assault: bool = False,
    objective: str = "unpinned",
    top: int = 3,
    exhaustive: bool = False,
) -> PathSearch:
    """The ``top`` best legal paths from ``stack_hex`` to ``to`` by ``objective``, exact (see
    the module). ``build``: the whole move of a plan, as the ``move`` action builds it under
    ``policy``; ``exhaustive``: evaluate every path whatever the policy (the twin of the
    branch and bound)."""
    if objective not in OBJECTIVES:
        raise InputError("objective", one_of(OBJECTIVES), objective)
    if policy not in SEARCH_POLICIES:
        raise InputError(
            "policy", _("{choices} with --to").format(choices=one_of(SEARCH_POLICIES)), policy
        )
    board = scenario.board
    if to == stack_hex:
        raise InputError("to", "a hex other than the stack's", board.label(to))
    work = _Work(board.label(to))
    search = _Search(scenario, stack_hex, to, units, build, work)
    modes = _modes(assault=assault)
    looks_ahead = exhaustive or policy not in PREFIX_POLICIES
    space = path_space(scenario, stack_hex, to, units, modes, need=search.need)
    work.bound(space, looks_ahead=looks_ahead)
    method = "exhaustive" if looks_ahead else "branch_and_bound"
    run = _exhaustive if looks_ahead else _branch_and_bound
    paths = run(search, modes, objective, top)
    return PathSearch(
        stack_hex, to, objective, policy, tuple(paths), method, work.evaluated, work.prefixes
    )


PathSpace = _Search
"""The search's space of prefixes (its checks, its extensions, its evaluation), for a search
that prices paths its own way (the optimal defender's, :mod:`.defender_action`)."""
SearchWork = _Work
"""The budget a search spends."""
moving_modes = _modes
"""The ways of moving searched."""
branch_and_bound = _branch_and_bound
"""The best-first branch and bound over a :data:`PathSpace`'s prefixes."""
