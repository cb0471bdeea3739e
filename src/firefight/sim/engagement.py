"""Engagements: turns of fire between two sides, exact over state (docs/engagements.md).

An engagement is a :class:`~firefight.chance.process.Process` whose state is both sides'
units in the rule set's own terms, and whose step is a turn: the phases of the turn (each
side's start of fire, then each unit's fire) in the order of fire of the scenario
(:class:`~firefight.chance.process.Staged` phases, over the state at the start of the turn
and the state now). Each fire is the rule set's registered procedure on the attack the fire
policy chooses (:mod:`firefight.sim.engagement_fire`); its exact odds (computed once per
attack by the procedure, from the same rule) are the phase's kernel and its batch draws (a
:class:`~firefight.chance.process.KnownPhase`), so no rule is written twice, and equal states
are merged after every phase and every turn.
Sampled and replayed engagements run the same phases with the procedure's rule itself.

Above the state engine's limit (:data:`~firefight.chance.process.MAX_STATES`) the answer
falls back to sampled runs, labelled "sampled" with their confidence intervals
(:mod:`firefight.sim.engagement_odds`).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from firefight.chance import Chance
from firefight.chance.batch import Sampler
from firefight.chance.distribution import Distribution
from firefight.chance.phases import IntKernel
from firefight.chance.process import (
    MAX_STATES,
    Process,
    ProcessResolution,
    Staged,
    StateLimitError,
)
from firefight.core.inputs import RuleInput
from firefight.sim.engagement_batch import BatchRuns
from firefight.sim.engagement_fire import EngagementFire
from firefight.sim.engagement_odds import (
    RESULTS,
    EngagementOdds,
    Estimate,
    State,
    exact_odds,
    resolution_json,
    sampled_odds,
)
from firefight.sim.engagement_phases import Phase, SideFire, TurnState, grouped, merged_weights
from firefight.sim.scenario import SIDES

__all__ = [
    "DEFAULT_SAMPLES",
    "RESULTS",
    "Engagement",
    "EngagementOdds",
    "Estimate",
    "Phase",
    "State",
    "TurnState",
    "resolution_json",
]

DEFAULT_SAMPLES = 10_000
"""Engagements drawn when an engagement is sampled (95 % intervals of about +-1 point)."""


def _now(turn_state: TurnState) -> State:
    return turn_state[1]


@dataclass(eq=False)
class Engagement(EngagementFire):
    """A scenario's engagement: its turn as a process over its fire
    (:class:`~firefight.sim.engagement_fire.EngagementFire`: its policy, its cached attacks)."""

    _outcome_samplers: dict[RuleInput, Sampler[str]] = field(default_factory=dict)
    _out: dict[tuple[int, tuple[Any, ...]], bool] = field(default_factory=dict)
    _side_hits: dict[tuple[Any, ...], IntKernel[tuple[Any, ...]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        super().__post_init__()
        self.phases = self._phases()
        self.step: Staged[State, TurnState] = Staged(
            self._enter,
            tuple(SideFire(self, group) for group in grouped(self.phases)),
            self._leave if self.groups.merges else _now,
            within="turn",
        )
        self.process: Process[State] = Process(
            self.step, self.ended, self.scenario.title or "engagement"
        )

    # --- the state ---------------------------------------------------------------------------

    def start(self) -> State:
        """Both sides as the scenario sets them up."""
        a, b = (tuple(self.rules.start(u) for u in side.units) for side in self.scenario.sides)
        return (self.groups.side(0, a), self.groups.side(1, b))

    def side_out(self, state: State, side: int) -> bool:
        """The side is eliminated or broken (its rule set says when; cached per side state)."""
        return self.side_out_of(side, state[side])

    def side_out_of(self, side: int, states: tuple[Any, ...]) -> bool:
        """:meth:`side_out` of the side's own states."""
        key = (side, states)
        found = self._out.get(key)
        if found is None:
            found = self.rules.broken(self.scenario.sides[side].units, states)
            self._out[key] = found
        return found

    def ended(self, state: State) -> bool:
        """A side is eliminated or broken."""
        return self.side_out(state, 0) or self.side_out(state, 1)

    def fighting(self, state: State, side: int) -> bool:
        """The side is neither eliminated nor broken."""
        return not self.side_out(state, side)

    def survives(self, state: State, side: int, index: int) -> bool:
        """The unit is not eliminated."""
        return not self.rules.out(self.scenario.sides[side].units[index], state[side][index])

    def ends_in(self, state: State, result: str) -> bool:
        """The state's :meth:`result` is ``result``."""
        return self.result(state) == result

    def result(self, state: State) -> str:
        """``a_wins``, ``b_wins``, ``draw`` (both out at once) or ``undecided``."""
        a_out, b_out = self.side_out(state, 0), self.side_out(state, 1)
        if a_out and b_out:
            return "draw"
        if b_out:
            return "a_wins"
        return "b_wins" if a_out else "undecided"

    def describe(self, state: State) -> dict[str, list[str]]:
        """Each side's units in the rule set's words, ``{"a": ["MG 42: 2 steps"], ...}``."""
        return {
            SIDES[s]: [
                f"{unit.name}: {self.rules.describe(unit, unit_state)}"  # type: ignore[attr-defined]
                for unit, unit_state in zip(self.scenario.sides[s].units, state[s], strict=True)
            ]
            for s in (0, 1)
        }

    # --- the turn ----------------------------------------------------------------------------

    def _phases(self) -> tuple[Phase, ...]:
        sides = self.scenario.sides
        fire = {s: [Phase("fire", s, i) for i in range(len(sides[s].units))] for s in (0, 1)}
        prepare = {s: [Phase("prepare", s)] if self.rules.starts_fire() else [] for s in (0, 1)}
        if self.scenario.order == "simultaneous":
            return (*prepare[0], *prepare[1], *fire[0], *fire[1])
        return (*prepare[0], *fire[0], *prepare[1], *fire[1])

    def _enter(self, state: State) -> TurnState:
        """The turn's own state at its start: simultaneous fire keeps the state it starts from."""
        return (state if self.scenario.order == "simultaneous" else None, state)

    def _leave(self, turn_state: TurnState) -> State:
        """The state at the end of the turn, each side in canonical order."""
        now = turn_state[1]
        return (self.groups.side(0, now[0]), self.groups.side(1, now[1]))

    def _settled(self, start: State | None, now: State, side: int) -> TurnState:
        """The turn's state after a phase changed ``side``: its units in canonical order
        (by their pairs of states within a simultaneous turn)."""
        if not self.groups.groups[side]:
            return (start, now)
        if start is None:
            states = self.groups.side(side, now[side])
            return (None, (states, now[1]) if side == 0 else (now[0], states))
        begun, current = self.groups.pair(side, start[side], now[side])
        if side == 0:
            return ((begun, start[1]), (current, now[1]))
        return ((start[0], begun), (now[0], current))

    def _prepared(self, side: int, now: State) -> State:
        units = self.scenario.sides[side].units
        states = tuple(self.rules.before_fire(u, s) for u, s in zip(units, now[side], strict=True))
        return (states, now[1]) if side == 0 else (now[0], states)

    @staticmethod
    def _with(now: State, side: int, index: int, unit_state: Hashable) -> State:
        states = list(now[side])
        states[index] = unit_state
        return (tuple(states), now[1]) if side == 0 else (now[0], tuple(states))

    def phase_kernel(
        self, phase: Phase, turn_state: TurnState
    ) -> tuple[tuple[TurnState, Fraction], ...]:
        """The phase's exact successors: the chosen attack's cached odds, each outcome's
        effect applied, equal states merged."""
        denominator, items = self.phase_weights(phase, turn_state)
        return tuple((s, Fraction(w, denominator)) for s, w in items)

    def phase_weights(self, phase: Phase, turn_state: TurnState) -> IntKernel[TurnState]:
        """:meth:`phase_kernel` as integer weights over the attack's own denominator."""
        start, now = turn_state
        if phase.kind == "prepare":
            return 1, ((self._settled(start, self._prepared(phase.side, now), phase.side), 1),)
        chosen = self.choose(phase.side, phase.unit, start or now, now)
        if chosen is None:
            return 1, ((turn_state, 1),)
        target, attack = chosen
        side = 1 - phase.side
        if start is None:
            denominator, sides = self.side_hit(attack, side, target, now[side])
            other = now[phase.side]
            if side:
                return denominator, tuple(((None, (other, s)), w) for s, w in sides)
            return denominator, tuple(((None, (s, other)), w) for s, w in sides)
        denominator, weights = self.hit(attack, side, target, now[side][target])
        settled, with_ = self._settled, self._with
        return merged_weights(
            ((settled(start, with_(now, side, target, after), side), w) for after, w in weights),
            denominator,
        )

    def side_hit(
        self, attack: RuleInput, side: int, target: int, states: tuple[Any, ...]
    ) -> IntKernel[tuple[Any, ...]]:
        """The target side's states after the attack (alternating fire: no start of the turn
        kept), each in canonical order, equal ones merged, as integer weights over the
        attack's denominator: cached per target side, whoever fires."""
        key = (id(attack), side, target, states)  # attacks live in _inputs
        found = self._side_hits.get(key)
        if found is None:
            denominator, weights = self.hit(attack, side, target, states[target])
            canonical = self.groups.side
            found = merged_weights(
                (
                    (canonical(side, (*states[:target], after, *states[target + 1 :])), w)
                    for after, w in weights
                ),
                denominator,
            )
            self._side_hits[key] = found
        return found

    def draw_phase(
        self, phase: Phase, turn_state: TurnState, k: int, rng: np.random.Generator
    ) -> Iterator[tuple[TurnState, int]]:
        """Where ``k`` runs in ``turn_state`` go in the phase: the attack's outcomes drawn in
        one batch from its exact odds (no kernel per state: most states of a large
        engagement are met by one run only)."""
        start, now = turn_state
        if phase.kind == "prepare":
            yield self._settled(start, self._prepared(phase.side, now), phase.side), k
            return
        chosen = self.choose(phase.side, phase.unit, start or now, now)
        if chosen is None:
            yield turn_state, k
            return
        target, attack = chosen
        sampler = self._outcome_samplers.get(attack)
        if sampler is None:
            sampler = Sampler.of(self.odds(attack))
            self._outcome_samplers[attack] = sampler
        enemy = self.scenario.sides[1 - phase.side].units[target]
        before = now[1 - phase.side][target]
        for outcome, drawn in zip(sampler.outcomes, sampler.counts(k, rng), strict=True):
            if drawn:
                after = self.rules.apply(enemy, before, outcome)
                changed = self._with(now, 1 - phase.side, target, after)
                yield self._settled(start, changed, 1 - phase.side), int(drawn)

    def turn(self, state: State, chance: Chance) -> State:
        """One turn resolved with ``chance`` (seeded or the player's dice): every phase in
        order, each fire the procedure's own rule, each choice and effect noted."""
        return self.step(state, chance)

    def sequence(self, chance: Chance, fire_phases: int) -> State:
        """The engagement from the start as ONE procedure, stopped after ``fire_phases``
        fire phases (or when a side is out at the end of a turn): the way a sequence was
        evaluated before the state engine, by ``exact()``'s prefix replay over every event
        (the benchmark's baseline and a test's twin)."""
        now = self.start()
        fired = 0
        while fired < fire_phases and not self.ended(now):
            turn_state = self._enter(now)
            for phase in self.phases:
                if fired == fire_phases:
                    break
                turn_state = self.run_phase(phase, turn_state, chance)
                fired += phase.kind == "fire"
            now = self._leave(turn_state)
        return now

    def after_fire_phases(self, fire_phases: int) -> Distribution[State]:
        """The exact distribution of :meth:`sequence` (the state after ``fire_phases`` fire
        phases), by the phases' kernels with equal states merged after each phase: the twin
        the benchmark times against the prefix replay of :meth:`sequence`."""
        done: dict[State, Fraction] = {}
        active: dict[State, Fraction] = {self.start(): Fraction(1)}
        fired = 0
        while fired < fire_phases and active:
            turn_states: dict[TurnState, Fraction] = {}
            for state, mass in active.items():
                if self.ended(state):
                    done[state] = done.get(state, Fraction(0)) + mass
                    continue
                key = self._enter(state)
                turn_states[key] = turn_states.get(key, Fraction(0)) + mass
            for phase in self.phases:
                if fired == fire_phases:
                    break
                following: dict[TurnState, Fraction] = {}
                for turn_state, mass in turn_states.items():
                    for after, p in self.phase_kernel(phase, turn_state):
                        following[after] = following.get(after, Fraction(0)) + mass * p
                turn_states = following
                fired += phase.kind == "fire"
            active = {}
            for turn_state, mass in turn_states.items():
                now = self._leave(turn_state)
                active[now] = active.get(now, Fraction(0)) + mass
        for state, mass in active.items():
            done[state] = done.get(state, Fraction(0)) + mass
        return Distribution(done)

    def run_phase(self, phase: Phase, turn_state: TurnState, chance: Chance) -> TurnState:
        """The phase resolved with ``chance``: the procedure's own rule, the choice and the
        effect noted."""
        start, now = turn_state
        sides = self.scenario.sides
        if phase.kind == "prepare":
            prepared = self._prepared(phase.side, now)
            if prepared != now:
                chance.note(
                    f"{sides[phase.side].name}: start of fire", _changes(self, now, prepared)
                )
            return self._settled(start, prepared, phase.side)
        chosen = self.choose(phase.side, phase.unit, start or now, now)
        if chosen is None:
            return turn_state
        target, attack = chosen
        firer = sides[phase.side].units[phase.unit]
        enemy = sides[1 - phase.side].units[target]
        before = now[1 - phase.side][target]
        chance.note("fire", f"{sides[phase.side].name} {firer.name} fires at {enemy.name}")  # type: ignore[attr-defined]
        outcome = self.rules.procedure.rule(attack, chance)
        after = self.rules.apply(enemy, before, outcome)
        chance.note(
            "effect",
            f"{enemy.name}: {outcome}: {self.rules.describe(enemy, before)} -> "  # type: ignore[attr-defined]
            f"{self.rules.describe(enemy, after)}",
        )
        return self._settled(start, self._with(now, 1 - phase.side, target, after), 1 - phase.side)

    # --- answers -----------------------------------------------------------------------------

    def odds_over_turns(self, *, max_states: int = MAX_STATES) -> EngagementOdds:
        """The exact answer over the scenario's turns; ``StateLimitError`` above the limit."""
        steps = self.process.weights(self.start(), self.scenario.turns, max_states=max_states)
        return exact_odds(self, steps)

    def sampled(self, n: int = DEFAULT_SAMPLES, seed: int = 0) -> EngagementOdds:
        """``n`` runs drawn phase by phase from the attacks' exact odds (the runs in one state
        advance together, one batch draw per state and phase, so an engagement too large for
        a whole turn's exact kernel is still sampled): frequencies with Wilson intervals,
        labelled "sampled". The same seed gives the same counts."""
        return sampled_odds(self, BatchRuns(self).run(n, seed))

    def answer(
        self, *, n: int = DEFAULT_SAMPLES, seed: int = 0, max_states: int = MAX_STATES
    ) -> EngagementOdds:
        """Exact odds, or sampled ones (labelled so) when the states pass the limit: the
        exact work is estimated as it starts and stopped as soon as it would pass the limit
        (:class:`~firefight.chance.limits.Budget`), so a too-large engagement is sampled
        within about a second of asking."""
        try:
            return self.odds_over_turns(max_states=max_states)
        except StateLimitError as error:
            odds = self.sampled(n, seed)
            odds.reason = str(error)
            return odds

    def resolve(self, seed: int, turns: int | None = None) -> ProcessResolution[State]:
        """One engagement turn by turn with seeded dice and the whole trace."""
        return self.process.sample(
            self.start(), seed, self.scenario.turns if turns is None else turns
        )

    def replay(
        self, values: Sequence[int | str], turns: int | None = None
    ) -> ProcessResolution[State]:
        """One engagement with the dice rolled at the table (every die of ``turns`` turns)."""
        return self.process.replay(
            self.start(), values, self.scenario.turns if turns is None else turns
        )


def _changes(engagement: Engagement, before: State, after: State) -> str:
    described_before, described_after = engagement.describe(before), engagement.describe(after)
    changed = [
        f"{b} -> {a.split(': ', 1)[1]}"
        for side in SIDES
        for b, a in zip(described_before[side], described_after[side], strict=True)
        if a != b
    ]
    return "; ".join(changed)
