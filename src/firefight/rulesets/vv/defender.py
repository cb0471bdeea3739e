"""The defender's best fire on a move: who fires where, hex by hex, by exact backward induction
(V&V 13.8, 13.9, 18 on the move).

A named fire policy (:mod:`.fire_policies`) fixes each firer's hex before the move, from the
attacks' expected CPs. The optimal defender decides as the stack enters each hex, seeing what
the dice did so far (who of the stack is pinned, reduced, eliminated or stopped; which of its
own firers have fired, where the lanes lie): in the hex just entered it may fire any firer
with a shot there that has not fired, one after another, each seeing the result of the one
before, an MG group laying its lanes to that hex or not (13.9: voluntary), or hold the rest
of its fire for later hexes. :class:`Defence` is that decision problem on one path, solved by
backward induction over the hexes with the move's own state (:class:`~.move_state.MoveState`:
the movers, the leader's bonus, the ``fired:FIRER`` marks, and ``lane:FIRER`` for the lanes
laid) as the state: the value of a state is the best, over the firers that may fire there and
holding, of the exact expectation of the values after it. Every transition is a phase of the
move's own process (:func:`~.move_steps.move_process`: entering, the minefield, the lane
attack, each AP and AT attack, the settling of pins and stacking), so a plan that fires what a
named policy fires gives that policy's odds, Fraction for Fraction (a test).

The objective is the mover's (:data:`~.path_search.OBJECTIVES`): the defender minimizes the
chance that every unit arrives unpinned (``unpinned``, so maximizes P(pinned or worse)), or
the chance that none is eliminated, or maximizes the expected CPs (``cps``). Equal values keep
the fire held (then the first firer in the move's order): the plan fires only where it gains.

Readings: a unit rated AT (``--at``) keeps its fire for the moving vehicles when any move, as
it would under a named policy that fires it AT (it is left out of the AP fire groups); the
lanes laid earlier in the phase stand from the start and their MGs have fired; a firer with
no moving unit left to hit in the hex does not fire there (its attack would change nothing).

**Work budget**, fixed before the work: :data:`MAX_STATES` decision states per request; past
it, one line refusing ``policy``. The states a path's induction will value are counted first,
without valuing them (:func:`~.defender_count.decision_states`, exact), so a path past the
budget left is refused before any is valued; the induction then values them over the kernels
the count computed (:class:`~.defender_count.Walk`), none computed twice in a game: every path
of a game shares one store of kernels (:mod:`.defender_kernels`), each kept by what its phase
reads. Each state also pays one step of the web's work budget.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import gcd, lcm

from firefight.chance.evaluate import spend
from firefight.chance.process import IntKernel
from firefight.errors import InputError
from firefight.rulesets.vv.at_move import AtOpportunity, at_phase
from firefight.rulesets.vv.defender_count import Kernel, State, decision_states
from firefight.rulesets.vv.defender_count import Walk as CountWalk
from firefight.rulesets.vv.defender_fire import Choose, Fire
from firefight.rulesets.vv.defender_kernels import GameKernels
from firefight.rulesets.vv.lanes import LaidLane, LaneReadings, markers_along
from firefight.rulesets.vv.lanes_move import lane_phase
from firefight.rulesets.vv.move_results import HIT
from firefight.rulesets.vv.move_shots import ShotCache, ShotPhase, SteadyPhase
from firefight.rulesets.vv.move_state import Mover, MoveState
from firefight.rulesets.vv.move_steps import enter_step, fire_step, mines_step, settle_step
from firefight.rulesets.vv.movement import MovePlan
from firefight.rulesets.vv.opportunity import Opportunity
from firefight.rulesets.vv.path_search import Score, unit_cps
from firefight.translation import gettext as _
from firefight.translation import thousands

MAX_STATES = 100_000
"""The decision states one request may solve (all paths of a game together)."""
OPTIMAL = "optimal"
"""The ``move`` action's policy name for the optimal defender."""


@dataclass
class Budget:
    """The decision states solved so far (the limit fixed before the work)."""

    limit: int = MAX_STATES
    used: int = 0

    def state(self) -> None:
        self.used += 1
        if self.used > self.limit:
            self.refuse()
        spend(1)

    def left(self) -> int:
        """The states the budget still allows."""
        return self.limit - self.used

    def refuse(self) -> None:
        """Past the budget: the one line refusing ``policy``."""
        raise InputError(
            "policy",
            _(
                "a move the optimal defender solves within its budget of {limit} states (a "
                "shorter path, fewer --units, or a named policy)"
            ).format(limit=thousands(self.limit)),
            OPTIMAL,
        )


def leaf_score(plan: MovePlan, state: MoveState, start: MoveState) -> Score:
    """The three objectives of one final state (each 0 or 1, the CPs its end states cost)."""
    conditions = [m.condition(s) for m, s in zip(state.movers, start.movers, strict=True)]
    cps = sum(
        unit_cps(u, c, started_reduced=s.reduced)
        for u, c, s in zip(plan.stack, conditions, start.movers, strict=True)
    )
    hurt = any(c in HIT for c in conditions)
    return Score(Fraction(not hurt), Fraction("eliminated" not in conditions), Fraction(cps))


Ratio = tuple[int, int]
"""An exact value as the induction sums it: its numerator and its denominator, in lowest
terms, the denominator positive (the Fraction it is, without a Fraction made per state)."""


@dataclass(eq=False)
class Defence:
    """The defender's decision problem on one path (see the module)."""

    plan: MovePlan
    ap: Mapping[str, list[Opportunity]]
    at: Mapping[str, list[AtOpportunity]]
    standing: tuple[LaidLane, ...]
    readings: LaneReadings
    lay: bool
    objective: str
    budget: Budget
    cache: ShotCache
    store: GameKernels = field(default_factory=GameKernels)
    start: MoveState = field(init=False)
    fires: dict[int, list[Fire]] = field(init=False)
    _values: dict[State, Ratio] = field(default_factory=dict)
    _after: dict[State, Ratio] = field(default_factory=dict)
    _best: dict[State, Fire | None] = field(default_factory=dict)
    _graph: CountWalk | None = None
    _lanes: dict[frozenset[str], dict[int, int]] = field(default_factory=dict)
    _lane_phases: dict[tuple[int, int], ShotPhase] = field(default_factory=dict)
    _last: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        plan = self.plan
        self.start = MoveState(
            0, tuple(Mover(reduced=u.reduced) for u in plan.stack), bonus=bool(plan.leader_ids)
        )
        self.enter = SteadyPhase(enter_step(plan))
        self.mines = SteadyPhase(mines_step(plan))
        self.settle = SteadyPhase(settle_step(plan))
        self.fires = {}
        board = plan.scenario.board
        store = self.store
        for options in self.ap.values():
            for o in options:
                phase = fire_step(plan, o, self.cache)
                laid: tuple[LaidLane, ...] = ()
                if o.firer.kind == "infantry":
                    found = store.group_lanes(board, o.firer, o.hex, self.readings)
                    laid = tuple(LaidLane(lane, o.index) for lane in found)
                ways = [laid, ()] if laid and self.lay else [()]
                for lanes in ways:
                    key = store.phase(("ap", o, bool(lanes)))
                    fire = Fire(
                        "ap", o.firer.id, o.index, o.label, o.firer_label, lanes, phase, key
                    )
                    self.fires.setdefault(o.index, []).append(fire)
        for at_found in self.at.values():
            for shot in at_found:
                fire = Fire(
                    "at", shot.firer.id, shot.index, shot.label, shot.firer_label, (),
                    at_phase(plan, shot), store.phase(("at", shot, False)),
                )  # fmt: skip
                self.fires.setdefault(shot.index, []).append(fire)
        for fires in self.fires.values():
            for f in fires:
                self._last[f.mark] = max(self._last.get(f.mark, 0), f.index)
                if f.lanes:
                    covered = [
                        j
                        for j, h in enumerate(plan.hexes)
                        if j > f.index and any(h in x.lane.hexes for x in f.lanes)
                    ]
                    self._last[f.lane_mark] = max(covered, default=0)

    # --- the move's steps ----------------------------------------------------------------

    def _canon(self, kernel: IntKernel[MoveState]) -> IntKernel[MoveState]:
        """The kernel with the marks that can change nothing more dropped from its states (a
        firer with no shot left on the path, a lane on no hex still to enter), so that states
        equal but for them are one."""
        denominator, items = kernel
        last = self._last
        out = []
        for s, w in items:
            if s.marks:
                kept = frozenset(m for m in s.marks if last.get(m, 0) >= s.at)
                if kept != s.marks:
                    s = s._replace(marks=kept)  # noqa: PLW2901 - the state, canonical
            out.append((s, w))
        return denominator, tuple(out)

    def settle_raw(self, state: MoveState) -> IntKernel[MoveState]:
        """The end of the hex: pins, stacking and the leader's bonus settled (every mark
        kept)."""
        return self.settle.integer_kernel(state)

    def settling(self, state: MoveState) -> IntKernel[MoveState]:
        """The end of the hex, the marks that can change nothing more dropped."""
        return self._canon(self.settle_raw(state))

    def settle_key(self, at: int) -> Hashable:
        """What the settling of hex ``at`` reads beside the state (:mod:`.defender_kernels`):
        the hex (the friendly units staying there) and whether it ends the path."""
        return "settle", self.plan.hexes[at], at == len(self.plan.steps)

    def enter_key(self, at: int, lanes: frozenset[str]) -> Hashable:
        """What entering the hex after ``at`` reads beside the state, the lanes ``lanes``
        laid (:mod:`.defender_kernels`): which units may go on into it with and without the
        leader's bonus (6.31), the hex (its minefield, 20.7, and a hit's allocation there),
        and the Fire Lane markers met there (13.9, 13.91)."""
        plan, following = self.plan, at + 1
        if following > len(plan.steps):
            return "past the end", at
        may = tuple(
            plan.may_enter(u.id, following, bonus=bonus)
            for u in plan.stack
            for bonus in (False, True)
        )
        step = plan.steps[following - 1]
        count = self._markers(lanes).get(following, 0)
        return "enter", following, may, step.hex, step.minefield, count

    def _markers(self, lanes: frozenset[str]) -> dict[int, int]:
        """The Fire Lane markers along the path, by hex index, from the lanes standing and
        the lanes ``lanes`` laid (their marks)."""
        found = self._lanes.get(lanes)
        if found is None:
            laid = [*self.standing]
            for fires in self.fires.values():
                laid += [x for f in fires if f.lanes and f.lane_mark in lanes for x in f.lanes]
            found = markers_along(self.plan.hexes, laid)
            self._lanes[lanes] = found
        return found

    def _lane_phase(self, state: MoveState) -> ShotPhase:
        """The lane attack of the hex entered next from ``state``, from the lanes standing
        and laid so far (the phase reads only the markers of the hex it attacks in)."""
        lanes = frozenset(m for m in state.marks if m.startswith("lane:"))
        following = state.at + 1
        count = self._markers(lanes).get(following, 0)
        found = self._lane_phases.get((following, count))
        if found is None:
            marks = {following: count} if count else {}
            found = lane_phase(self.plan, marks, self.readings, self.cache)
            self._lane_phases[following, count] = found
        return found

    def entered(self, state: MoveState) -> IntKernel[MoveState]:
        """From a settled state, the next hex entered: its minefield and its lane attack,
        the marks that can change nothing more dropped."""
        return self._canon(self.enter_raw(state))

    def enter_raw(self, state: MoveState) -> IntKernel[MoveState]:
        """From a settled state, the next hex entered (every mark kept)."""
        denominator, items = self.enter.integer_kernel(state)
        for phase in (self.mines, self._lane_phase(state)):
            kernels = [(w, phase.integer_kernel(s)) for s, w in items]
            common = lcm(*(k[0] for _, k in kernels))
            merged: dict[MoveState, int] = {}
            for w, (d, after) in kernels:
                for s, v in after:
                    merged[s] = merged.get(s, 0) + w * (common // d) * v
            denominator *= common
            items = tuple(merged.items())
        return denominator, items

    def may_fire(self, state: MoveState) -> list[Fire]:
        """The fires the defender may make in ``state``: a firer with a shot at the hex
        entered that has not fired, with a moving unit there it may hit."""
        if state.halted:
            return []
        return [
            f
            for f in self.fires.get(state.at, ())
            if f.mark not in state.marks and f.phase.aim(state) is not None
        ]

    def fire_raw(self, state: MoveState, fire: Fire) -> IntKernel[MoveState]:
        """The states after ``fire``, its lanes, if any, marked laid (every mark kept)."""
        denominator, items = fire.phase.weights(state)
        if fire.lanes:
            mark = fire.lane_mark
            items = tuple((s._replace(marks=s.marks | {mark}), w) for s, w in items)
        return denominator, items

    def fired(self, state: MoveState, fire: Fire) -> IntKernel[MoveState]:
        """The states after ``fire``, the marks that can change nothing more dropped."""
        return self._canon(self.fire_raw(state, fire))

    def terminal(self, state: MoveState) -> bool:
        """The move has ended (as the move's process reads it)."""
        return state.halted or not any(m.moving for m in state.movers)

    def leaf(self, state: MoveState) -> Fraction:
        """The mover's objective in a final state, the more the better for the mover."""
        return Fraction(*self._leaf(state))

    def _leaf(self, state: MoveState) -> Ratio:
        """:meth:`leaf` as a :data:`Ratio`, kept in the game's store (a function of the
        movers' states, the stack and how it started, and the objective)."""
        key = (self.objective, state.movers)
        found = self.store.leaves.get(key)
        if found is None:
            value = leaf_score(self.plan, state, self.start).value(self.objective)
            found = self.store.leaves[key] = value.numerator, value.denominator
        return found

    # --- backward induction --------------------------------------------------------------

    def graph(self) -> CountWalk:
        """The transitions the count walks and the induction values
        (:class:`~.defender_count.Walk`): each kernel computed once, by whichever needs it
        first."""
        if self._graph is None:
            self._graph = CountWalk(self)
        return self._graph

    def _value(self, state: State) -> Ratio:
        """The mover's objective from a decision state under the best defence (memoized):
        the least, over holding and each fire it may make, of the exact expectations (equal
        ones keep the first)."""
        found = self._values.get(state)
        if found is not None:
            return found
        self.budget.state()
        graph = self.graph()
        bare = graph.bare[state[0]]
        choice: Fire | None = None
        if bare.halted:
            best = self._leaf(bare)
        else:
            best = self._expect(graph.settle_kernel(state), self._settled)
            for fire in graph.may_fire(state):
                worth = self._expect(graph.fire_kernel(state, fire), self._value)
                if worth[0] * best[1] < best[0] * worth[1]:  # worth < best, denominators > 0
                    best, choice = worth, fire[1]
        self._values[state] = best
        self._best[state] = choice
        return best

    def _settled(self, state: State) -> Ratio:
        """The value of a state settled at the end of a hex: a leaf, or the next hex."""
        found = self._after.get(state)
        if found is None:
            graph = self.graph()
            if graph.terminal(state[0]):
                found = self._leaf(graph.bare[state[0]])
            else:
                found = self._expect(graph.enter_kernel(state), self._value)
            self._after[state] = found
        return found

    @staticmethod
    def _expect(kernel: Kernel, value: Callable[[State], Ratio]) -> Ratio:
        """The exact expectation of ``value`` over the kernel, summed over the values' common
        denominator and reduced once."""
        denominator, items = kernel
        total, common = 0, 1
        for s, w in items:
            numerator, d = value(s)
            if d != common:
                g = gcd(d, common)
                total *= d // g
                common = common // g * d
            total += w * numerator * (common // d)
        common *= denominator
        g = gcd(total, common)
        return total // g, common // g

    @property
    def last_marks(self) -> Mapping[str, int]:
        """For each mark, the last hex index where it can still change something."""
        return self._last

    def solve(self) -> Fraction:
        """The mover's objective under the best defence; refused before any state is valued
        when the states it would value (:func:`~.defender_count.decision_states`, counted
        first) pass the budget left. The induction values them over the kernels the count
        computed."""
        if not self._values and decision_states(self, self.budget.left()) > self.budget.left():
            self.budget.refuse()
        return Fraction(*self._settled(self.graph().state(self.start)))

    def best(self, state: MoveState, fires: Sequence[Fire]) -> Fire | None:
        """The optimal plan (:data:`Choose`), after :meth:`solve`."""
        del fires
        key = self.graph().state(state)
        self._value(key)
        return self._best[key]

    # --- forward: a plan's odds and its decisions ----------------------------------------

    def hurt(self, state: MoveState) -> bool:
        """Whether a moving unit is pinned or worse in ``state``."""
        start = self.start.movers
        return any(m.condition(s) in HIT for m, s in zip(state.movers, start, strict=True))

    def walk(self, choose: Choose) -> Walk:
        """The exact final states under the plan ``choose``, each decision it makes where it
        had a choice (the state, its chance, what it fired or ``None``) and, per hex, the
        chance that the first pin or worse happens there. Its kernels are the count's and the
        induction's (:class:`~.defender_count.Walk`, the same states as :meth:`entered`,
        :meth:`settling` and :meth:`fired` give)."""
        graph = self.graph()
        first = [Fraction(0)] * len(self.plan.steps)
        finals: dict[MoveState, Fraction] = {}
        decisions: list[Decision] = []

        def spread(
            before: MoveState,
            kernel: IntKernel[MoveState],
            p: Fraction,
            into: dict[MoveState, Fraction],
        ) -> None:
            denominator, items = kernel
            was_hurt = self.hurt(before)
            for s, w in items:
                mass = p * w / denominator
                if s.at and not was_hurt and self.hurt(s):
                    first[s.at - 1] += mass
                into[s] = into.get(s, Fraction(0)) + mass

        def carry(settled: Mapping[MoveState, Fraction], into: dict[MoveState, Fraction]) -> None:
            for state, p in settled.items():
                if self.terminal(state):
                    finals[state] = finals.get(state, Fraction(0)) + p
                    continue
                entered: dict[MoveState, Fraction] = {}
                spread(state, graph.entered_states(state), p, entered)
                for s, mass in entered.items():
                    found = finals if s.halted else into
                    found[s] = found.get(s, Fraction(0)) + mass

        current: dict[MoveState, Fraction] = {}
        carry({self.start: Fraction(1)}, current)
        while current:
            following: dict[MoveState, Fraction] = {}
            for state, p in sorted(current.items(), key=lambda sp: (sp[0].at, str(sp[0]))):
                fires = graph.may_fire_states(state)
                fire = choose(state, fires) if fires else None
                if fires:
                    decisions.append(Decision(state, p, fire))
                if fire is None:
                    settled: dict[MoveState, Fraction] = {}
                    spread(state, graph.settling_states(state), p, settled)
                    carry(settled, following)
                else:
                    spread(state, graph.fired_states(state, fire), p, following)
            current = following
        return Walk(self, finals, tuple(decisions), tuple(first))


@dataclass(frozen=True)
class Decision:
    """One decision of a plan: the state (the hex entered is ``state.at``), its chance, and
    the fire made (``None``: held)."""

    state: MoveState
    chance: Fraction
    fire: Fire | None


@dataclass(frozen=True)
class Walk:
    """A plan's exact final states and decisions."""

    defence: Defence
    finals: Mapping[MoveState, Fraction]
    decisions: tuple[Decision, ...]
    first_hit: tuple[Fraction, ...]

    def score(self) -> Score:
        """The three objectives of the plan's final states."""
        plan, start = self.defence.plan, self.defence.start
        total = Score(Fraction(0), Fraction(0), Fraction(0))
        for state, p in self.finals.items():
            s = leaf_score(plan, state, start)
            total = Score(
                total.unpinned + p * s.unpinned,
                total.not_eliminated + p * s.not_eliminated,
                total.cps + p * s.cps,
            )
        return total
