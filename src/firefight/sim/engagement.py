"""Engagements: turns of fire between two sides, exact over state (docs/engagements.md).

An engagement is a :class:`~firefight.chance.process.Process` whose state is both sides'
units in the rule set's own terms, and whose step is a turn: the phases of the turn (each
side's start of fire, then each unit's fire) in the order of fire of the scenario. Each fire
is the rule set's registered procedure on the attack the fire policy chooses; its exact odds
(computed once per attack by the procedure, from the same rule) are the phase's kernel, so
no rule is written twice, and equal states are merged after every phase and every turn.
Sampled and replayed engagements run the same phases with the procedure's rule itself.

Above the state engine's limit (:data:`~firefight.chance.process.MAX_STATES`) the answer
falls back to sampled runs, labelled "sampled" with their confidence intervals.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from math import gcd, lcm
from typing import Any, Literal

import numpy as np

from firefight.chance import Chance
from firefight.chance.batch import Sampler, wilson
from firefight.chance.distribution import Distribution
from firefight.chance.evaluate import generator
from firefight.chance.process import MAX_STATES, Kernel, Process, ProcessResolution, StateLimitError
from firefight.core.inputs import RuleInput
from firefight.errors import RuleError
from firefight.sim.scenario import SIDES, Scenario

State = tuple[tuple[Any, ...], tuple[Any, ...]]
"""Both sides' unit states, side a first."""
TurnState = tuple[State | None, State]
"""Within a turn: the state at the start of the turn (simultaneous fire reads it; ``None``
when fire alternates) and the state now."""

RESULTS = ("a_wins", "b_wins", "draw", "undecided")
"""How an engagement ends: one side eliminated or broken, both at once, or neither by the
last turn."""

DEFAULT_SAMPLES = 10_000
"""Engagements drawn when an engagement is sampled (95 % intervals of about +-1 point): an
engagement too large for exact odds costs about 3 ms a run here (10 against 10, 10 turns)."""


@dataclass(frozen=True)
class Phase:
    """One phase of a turn: a side's start of fire, or one unit's fire."""

    kind: Literal["prepare", "fire"]
    side: int
    unit: int = -1


@dataclass(frozen=True)
class Estimate:
    """An exact probability (a ``Fraction``) or a sampled one with its 95 % interval."""

    value: Fraction | float
    interval: tuple[float, float] | None = None

    def __float__(self) -> float:
        return float(self.value)

    def to_json(self) -> object:
        """Exact: ``"p/q"``; sampled: ``{"estimate", "interval": [low, high]}``."""
        if self.interval is None:
            return str(self.value)
        return {"estimate": float(self.value), "interval": list(self.interval)}


IntKernel = tuple[int, tuple[tuple[Any, int], ...]]
"""A kernel as integer weights over one denominator: ``(denominator, ((state, weight), ...))``
(the exact odds add and multiply integers, not ``Fraction``s, inside a turn and a horizon)."""


def _integer_kernel(items: Sequence[tuple[Any, Fraction]]) -> IntKernel:
    denominator = lcm(*(p.denominator for _, p in items))
    return denominator, tuple((s, p.numerator * (denominator // p.denominator)) for s, p in items)


@dataclass(frozen=True, eq=False)
class _TurnProcess(Process[State]):
    """A process whose kernel is built phase by phase from the attacks' cached odds, and
    whose finite horizon adds integer weights over a common denominator (the same answer as
    :meth:`Process.distributions`, which the tests check)."""

    turn_kernel: Callable[[State], IntKernel] | None = None
    _int_kernels: dict[State, IntKernel] = field(default_factory=dict, repr=False)

    def integer_kernel(self, state: State) -> IntKernel:
        """The turn's kernel as integer weights (cached)."""
        found = self._int_kernels.get(state)
        if found is None:
            assert self.turn_kernel is not None
            found = self.turn_kernel(state)
            self._int_kernels[state] = found
        return found

    def kernel(self, state: State) -> Kernel[State]:
        found = self._kernels.get(state)
        if found is None:
            denominator, items = self.integer_kernel(state)
            found = tuple((s, Fraction(w, denominator)) for s, w in items)
            self._kernels[state] = found
        return found

    def horizon(
        self, start: State, steps: int, *, max_states: int = MAX_STATES
    ) -> list[tuple[dict[State, int], int]]:
        """The state after 0..``steps`` steps as integer masses over a common denominator,
        ``[(masses, denominator), ...]``; equal states merged after every step."""
        current: dict[State, int] = {start: 1}
        denominator = 1
        result = [(current, denominator)]
        for _ in range(steps):
            kernels = {
                s: (1, ((s, 1),)) if self.terminal(s) else self.integer_kernel(s) for s in current
            }
            common = lcm(*(k[0] for k in kernels.values()))
            following: dict[State, int] = {}
            for state, mass in current.items():
                kernel_denominator, items = kernels[state]
                scaled = mass * (common // kernel_denominator)
                for successor, weight in items:
                    following[successor] = following.get(successor, 0) + scaled * weight
            if len(following) > max_states:
                raise StateLimitError("states at one step", max_states, self.name)
            current = following
            denominator *= common
            result.append((current, denominator))
        return result

    def distributions(
        self, start: State, steps: int, *, max_states: int = MAX_STATES
    ) -> tuple[Distribution[State], ...]:
        return tuple(
            Distribution({s: Fraction(m, denominator) for s, m in masses.items()})
            for masses, denominator in self.horizon(start, steps, max_states=max_states)
        )


@dataclass(eq=False)
class Engagement:
    """A scenario's engagement: its turn as a process, its policy, its cached attacks."""

    scenario: Scenario
    _inputs: dict[tuple[tuple[str, Any], ...], RuleInput | None] = field(default_factory=dict)
    _odds: dict[RuleInput, Distribution[str]] = field(default_factory=dict)
    _phase_kernels: dict[tuple[int, TurnState], IntKernel] = field(default_factory=dict)
    _effects: dict[tuple[int, int, Hashable], Fraction] = field(default_factory=dict)
    _outcome_samplers: dict[RuleInput, Sampler[str]] = field(default_factory=dict)
    _choices: dict[tuple[Hashable, ...], tuple[int, RuleInput] | None] = field(default_factory=dict)
    _attacks: dict[tuple[int, int, int, Hashable, Hashable], RuleInput | None] = field(
        default_factory=dict
    )
    _out: dict[tuple[int, tuple[Any, ...]], bool] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.max_states = MAX_STATES
        self.rules = self.scenario.rules
        self.phases = self._phases()
        self.process: Process[State] = _TurnProcess(
            self.turn,
            self.ended,
            self.scenario.title or "engagement",
            turn_kernel=self._turn_kernel,
        )

    # --- the state ---------------------------------------------------------------------------

    def start(self) -> State:
        """Both sides as the scenario sets them up."""
        a, b = (tuple(self.rules.start(u) for u in side.units) for side in self.scenario.sides)
        return (a, b)

    def side_out(self, state: State, side: int) -> bool:
        """The side is eliminated or broken (its rule set says when; cached per side state)."""
        key = (side, state[side])
        found = self._out.get(key)
        if found is None:
            found = self.rules.broken(self.scenario.sides[side].units, state[side])
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

    def attack(
        self, side: int, firer: int, target: int, firer_state: Hashable, target_state: Hashable
    ) -> RuleInput | None:
        """The procedure's input for this fire, or ``None`` when the rules allow no attack
        (a final attack factor below the chart, no line of sight)."""
        quick = (side, firer, target, firer_state, target_state)
        if quick in self._attacks:
            return self._attacks[quick]
        sides = self.scenario.sides
        firing, targeted = sides[side], sides[1 - side]
        fields = {
            **self.scenario.situation,
            **firing.fire,
            **targeted.target,
            **self.rules.attack_fields(
                firing.units[firer], firer_state, targeted.units[target], target_state
            ),
        }
        key = tuple(sorted(fields.items()))
        if key in self._inputs:
            attack = self._inputs[key]
        else:
            attack = self.rules.procedure.parse(fields)
            try:
                self.odds(attack)
            except RuleError:
                attack = None
            self._inputs[key] = attack
        self._attacks[quick] = attack
        return attack

    def odds(self, attack: RuleInput) -> Distribution[str]:
        """The procedure's exact odds for one attack (computed once)."""
        found = self._odds.get(attack)
        if found is None:
            found = self.rules.procedure.odds(attack)
            self._odds[attack] = found
        return found

    def choose(
        self, side: int, firer: int, view: State, now: State
    ) -> tuple[int, RuleInput] | None:
        """The target and the attack the scenario's fire policy gives this firer
        (docs/engagements.md: best_expected_effect, focus, spread); kept per situation."""
        own: Hashable = view[side] if self.scenario.policy == "spread" else view[side][firer]
        key = (side, firer, own, view[1 - side], now[1 - side])
        if key in self._choices:
            return self._choices[key]
        found = self._choose(side, firer, view, now)
        self._choices[key] = found
        return found

    def _choose(
        self, side: int, firer: int, view: State, now: State
    ) -> tuple[int, RuleInput] | None:
        sides = self.scenario.sides
        units, enemies = sides[side].units, sides[1 - side].units
        if not self.rules.can_fire(units[firer], view[side][firer]):
            return None
        firer_state = view[side][firer]
        candidates: list[tuple[int, RuleInput]] = []
        for target, target_unit in enumerate(enemies):
            if self.rules.out(target_unit, view[1 - side][target]):
                continue
            attack = self.attack(side, firer, target, firer_state, now[1 - side][target])
            if attack is not None:
                candidates.append((target, attack))
        if not candidates:
            return None
        policy = self.scenario.policy
        if policy == "focus":
            return candidates[0]
        if policy == "spread":
            rank = sum(1 for i in range(firer) if self.rules.can_fire(units[i], view[side][i]))
            return candidates[rank % len(candidates)]
        return max(
            candidates,
            key=lambda c: (self._effect(c[1], side, c[0], view[1 - side][c[0]]), -c[0]),
        )

    def _effect(self, attack: RuleInput, side: int, index: int, state: Hashable) -> Fraction:
        """The expected fall of the target's value under this attack (cached)."""
        key = (id(attack), index if side else -1 - index, state)  # attacks live in _inputs
        found = self._effects.get(key)
        if found is None:
            target = self.scenario.sides[1 - side].units[index]
            found = self.rules.value(target, state) - sum(
                (
                    p * self.rules.value(target, self.rules.apply(target, state, o))
                    for o, p in self.odds(attack).items()
                ),
                Fraction(0),
            )
            self._effects[key] = found
        return found

    def _prepared(self, side: int, now: State) -> State:
        units = self.scenario.sides[side].units
        states = tuple(self.rules.before_fire(u, s) for u, s in zip(units, now[side], strict=True))
        return (states, now[1]) if side == 0 else (now[0], states)

    @staticmethod
    def _with(now: State, side: int, index: int, unit_state: Hashable) -> State:
        states = list(now[side])
        states[index] = unit_state
        return (tuple(states), now[1]) if side == 0 else (now[0], tuple(states))

    def _phase_kernel(self, index: int, turn_state: TurnState) -> IntKernel:
        key = (index, turn_state)
        found = self._phase_kernels.get(key)
        if found is not None:
            return found
        phase = self.phases[index]
        start, now = turn_state
        if phase.kind == "prepare":
            found = (1, (((start, self._prepared(phase.side, now)), 1),))
        else:
            chosen = self.choose(phase.side, phase.unit, start or now, now)
            if chosen is None:
                found = (1, ((turn_state, 1),))
            else:
                target, attack = chosen
                enemy = self.scenario.sides[1 - phase.side].units[target]
                before = now[1 - phase.side][target]
                merged: dict[TurnState, Fraction] = {}
                for outcome, p in self.odds(attack).items():
                    after = self.rules.apply(enemy, before, outcome)
                    following = (start, self._with(now, 1 - phase.side, target, after))
                    merged[following] = merged.get(following, Fraction(0)) + p
                found = _integer_kernel(tuple(merged.items()))
        self._phase_kernels[key] = found
        return found

    def _turn_kernel(self, state: State) -> IntKernel:
        """One turn's exact distribution, phase by phase, equal states merged between."""
        start = state if self.scenario.order == "simultaneous" else None
        current: dict[TurnState, int] = {(start, state): 1}
        denominator = 1
        phase_kernel = self._phase_kernel
        for index in range(len(self.phases)):
            kernels = [(mass, phase_kernel(index, ts)) for ts, mass in current.items()]
            common = lcm(*(k[0] for _, k in kernels))
            following: dict[TurnState, int] = {}
            get = following.get
            for mass, (kernel_denominator, items) in kernels:
                scaled = mass * (common // kernel_denominator)
                for after, weight in items:
                    following[after] = get(after, 0) + scaled * weight
            if len(following) > self.max_states:
                raise StateLimitError("states within one turn", self.max_states, self.process.name)
            current = following
            denominator *= common
        merged: dict[State, int] = {}
        for (_, now), mass in current.items():
            merged[now] = merged.get(now, 0) + mass
        divisor = gcd(denominator, *merged.values())
        return denominator // divisor, tuple((s, m // divisor) for s, m in merged.items())

    def turn(self, state: State, chance: Chance) -> State:
        """One turn resolved with ``chance`` (seeded or the player's dice): every phase in
        order, each fire the procedure's own rule, each choice and effect noted."""
        start = state if self.scenario.order == "simultaneous" else None
        now = state
        for phase in self.phases:
            now = self._run_phase(phase, start, now, chance)
        return now

    def sequence(self, chance: Chance, fire_phases: int) -> State:
        """The engagement from the start as ONE procedure, stopped after ``fire_phases``
        fire phases (or when a side is out at the end of a turn): the way a sequence was
        evaluated before the state engine, by ``exact()``'s prefix replay over every event
        (the benchmark's baseline and a test's twin)."""
        now = self.start()
        fired = 0
        while fired < fire_phases and not self.ended(now):
            start = now if self.scenario.order == "simultaneous" else None
            for phase in self.phases:
                if fired == fire_phases:
                    break
                now = self._run_phase(phase, start, now, chance)
                fired += phase.kind == "fire"
        return now

    def after_fire_phases(self, fire_phases: int) -> Distribution[State]:
        """The exact distribution of :meth:`sequence` (the state after ``fire_phases`` fire
        phases), by the phases' cached kernels with equal states merged after each phase:
        the twin the benchmark times against the prefix replay of :meth:`sequence`."""
        simultaneous = self.scenario.order == "simultaneous"
        done: dict[State, Fraction] = {}
        active: dict[State, Fraction] = {self.start(): Fraction(1)}
        fired = 0
        while fired < fire_phases and active:
            turn_states: dict[TurnState, Fraction] = {}
            for state, mass in active.items():
                if self.ended(state):
                    done[state] = done.get(state, Fraction(0)) + mass
                    continue
                key = (state if simultaneous else None, state)
                turn_states[key] = turn_states.get(key, Fraction(0)) + mass
            for index, phase in enumerate(self.phases):
                if fired == fire_phases:
                    break
                following: dict[TurnState, Fraction] = {}
                for turn_state, mass in turn_states.items():
                    denominator, items = self._phase_kernel(index, turn_state)
                    for after, weight in items:
                        share = mass * Fraction(weight, denominator)
                        following[after] = following.get(after, Fraction(0)) + share
                turn_states = following
                fired += phase.kind == "fire"
            active = {}
            for (_, now), mass in turn_states.items():
                active[now] = active.get(now, Fraction(0)) + mass
        for state, mass in active.items():
            done[state] = done.get(state, Fraction(0)) + mass
        return Distribution(done)

    def _run_phase(self, phase: Phase, start: State | None, now: State, chance: Chance) -> State:
        sides = self.scenario.sides
        if phase.kind == "prepare":
            prepared = self._prepared(phase.side, now)
            if prepared != now:
                chance.note(
                    f"{sides[phase.side].name}: start of fire", _changes(self, now, prepared)
                )
            return prepared
        chosen = self.choose(phase.side, phase.unit, start or now, now)
        if chosen is None:
            return now
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
        return self._with(now, 1 - phase.side, target, after)

    # --- answers -----------------------------------------------------------------------------

    def odds_over_turns(self, *, max_states: int = MAX_STATES) -> EngagementOdds:
        """The exact answer over the scenario's turns; ``StateLimitError`` above the limit."""
        assert isinstance(self.process, _TurnProcess)
        self.max_states = max_states
        steps = self.process.horizon(self.start(), self.scenario.turns, max_states=max_states)

        def probability(at: int, predicate: Callable[[State], bool]) -> Estimate:
            masses, denominator = steps[at]
            return Estimate(
                Fraction(sum(m for s, m in masses.items() if predicate(s)), denominator)
            )

        last = len(steps) - 1
        by_turn: list[tuple[int, int, int, int]] = []  # decided, a fighting, b fighting, denom
        for masses, denominator in steps:
            decided_mass = a_mass = b_mass = 0
            for state, mass in masses.items():
                a_out, b_out = self.side_out(state, 0), self.side_out(state, 1)
                if a_out or b_out:
                    decided_mass += mass
                if not a_out:
                    a_mass += mass
                if not b_out:
                    b_mass += mass
            by_turn.append((decided_mass, a_mass, b_mass, denominator))
        decided = tuple(Estimate(Fraction(d, q)) for d, _, _, q in by_turn)
        fighting = {
            "a": tuple(Estimate(Fraction(a, q)) for _, a, _, q in by_turn),
            "b": tuple(Estimate(Fraction(b, q)) for _, _, b, q in by_turn),
        }
        outcome = {r: probability(last, partial(self.ends_in, result=r)) for r in RESULTS}
        expected = sum((1 - Fraction(e.value) for e in decided[:-1]), Fraction(0))
        survivors = {
            SIDES[s]: tuple(
                probability(last, partial(self.survives, side=s, index=i))
                for i in range(len(self.scenario.sides[s].units))
            )
            for s in (0, 1)
        }
        masses, denominator = steps[last]
        ends = tuple(
            (st, Estimate(Fraction(m, denominator)))
            for st, m in sorted(masses.items(), key=lambda item: -item[1])
        )
        return EngagementOdds(
            self, True, outcome, decided, fighting, Estimate(expected), survivors, ends
        )

    def sampled(self, n: int = DEFAULT_SAMPLES, seed: int = 0) -> EngagementOdds:
        """``n`` runs drawn phase by phase from the attacks' exact odds (the runs in one state
        advance together, one batch draw per state and phase, so an engagement too large for
        a whole turn's exact kernel is still sampled): frequencies with Wilson intervals,
        labelled "sampled". The same seed gives the same counts."""
        rng = generator(seed)
        simultaneous = self.scenario.order == "simultaneous"
        alive: dict[State, int] = {self.start(): n}
        decided_counts: list[int] = []
        fighting_counts: dict[int, list[int]] = {0: [], 1: []}
        turns_taken = 0
        for turn in range(self.scenario.turns + 1):
            decided_counts.append(sum(k for st, k in alive.items() if self.ended(st)))
            for s in (0, 1):
                fighting_counts[s].append(
                    sum(k for st, k in alive.items() if not self.side_out(st, s))
                )
            if turn == self.scenario.turns:
                break
            following: dict[State, int] = {}
            active: dict[TurnState, int] = {}
            for st, k in alive.items():
                if self.ended(st):
                    following[st] = following.get(st, 0) + k
                    continue
                turns_taken += k
                key = (st if simultaneous else None, st)
                active[key] = active.get(key, 0) + k
            for index in range(len(self.phases)):
                after_phase: dict[TurnState, int] = {}
                for turn_state, k in active.items():
                    for successor, drawn in self._sample_phase(index, turn_state, k, rng):
                        after_phase[successor] = after_phase.get(successor, 0) + drawn
                active = after_phase
            for (_, now), k in active.items():
                following[now] = following.get(now, 0) + k
            alive = following
        decided = tuple(_frequency(k, n) for k in decided_counts)
        fighting = {SIDES[s]: tuple(_frequency(k, n) for k in fighting_counts[s]) for s in (0, 1)}
        counts = {r: sum(k for st, k in alive.items() if self.result(st) == r) for r in RESULTS}
        outcome = {r: _frequency(counts[r], n) for r in RESULTS}
        # The number of turns a run lasts is 1 + (turns it was still undecided after 1..N-1):
        # its mean is the sum of the undecided fractions, its variance from the same counts.
        mean = turns_taken / n
        undecided = [n - k for k in decided_counts[:-1]]
        second = sum((2 * t + 1) * u for t, u in enumerate(undecided)) / n
        variance = max(second - mean * mean, 0.0) * n / max(n - 1, 1)
        half = 1.96 * (variance / n) ** 0.5
        expected = Estimate(mean, (mean - half, mean + half))
        survivors = {
            SIDES[s]: tuple(
                _frequency(sum(k for st, k in alive.items() if not self.rules.out(u, st[s][i])), n)
                for i, u in enumerate(self.scenario.sides[s].units)
            )
            for s in (0, 1)
        }
        ends = tuple(
            (st, _frequency(k, n)) for st, k in sorted(alive.items(), key=lambda item: -item[1])
        )
        return EngagementOdds(
            self,
            False,
            outcome,
            decided,
            fighting,
            expected,
            survivors,
            ends,
            n=n,
            seed=seed,
            result_counts=counts,
        )

    def _sample_phase(
        self, index: int, turn_state: TurnState, k: int, rng: np.random.Generator
    ) -> Iterator[tuple[TurnState, int]]:
        """Where ``k`` runs in ``turn_state`` go in phase ``index``: the attack's outcomes
        drawn in one batch from its exact odds (no kernel per state: most states of a large
        engagement are met by one run only)."""
        phase = self.phases[index]
        start, now = turn_state
        if phase.kind == "prepare":
            yield (start, self._prepared(phase.side, now)), k
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
                yield (start, self._with(now, 1 - phase.side, target, after)), int(drawn)

    def answer(
        self, *, n: int = DEFAULT_SAMPLES, seed: int = 0, max_states: int = MAX_STATES
    ) -> EngagementOdds:
        """Exact odds, or sampled ones (labelled so) when the states pass the limit."""
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


def _frequency(k: int, n: int) -> Estimate:
    return Estimate(k / n, wilson(k, n))


@dataclass
class EngagementOdds:
    """How an engagement ends: exact (``Fraction``) or sampled (with 95 % intervals)."""

    engagement: Engagement
    exact: bool
    outcome: dict[str, Estimate]
    """P(a_wins), P(b_wins), P(draw), P(undecided after the last turn)."""
    decided_by: tuple[Estimate, ...]
    """P(decided by turn t), t = 0..turns."""
    fighting: dict[str, tuple[Estimate, ...]]
    """P(side still fighting at turn t): not eliminated or broken."""
    expected_turns: Estimate
    """The expected number of turns fought (at most the scenario's turns)."""
    survivors: dict[str, tuple[Estimate, ...]]
    """P(each unit not eliminated at the end)."""
    end_states: tuple[tuple[State, Estimate], ...]
    """Every end state, most likely first."""
    n: int | None = None
    seed: int | None = None
    reason: str | None = None
    """Why the answer is sampled (the state engine's limit), when it falls back."""
    result_counts: dict[str, int] | None = None
    """Sampled: how many engagements ended in each result."""

    @property
    def label(self) -> str:
        """``exact`` or ``sampled``."""
        return "exact" if self.exact else "sampled"

    def to_json(self, limit: int = 20) -> dict[str, object]:
        """The shape in docs/engagements.md; the ``limit`` most likely end states."""
        engagement = self.engagement
        scenario = engagement.scenario
        return {
            "scenario": scenario.source,
            "title": scenario.title,
            "ruleset": scenario.ruleset,
            "exact": self.exact,
            "label": self.label,
            "n": self.n,
            "seed": self.seed,
            "reason": self.reason,
            "turns": scenario.turns,
            "policy": scenario.policy,
            "order": scenario.order,
            "sides": {
                SIDES[s]: {
                    "name": side.name,
                    "units": [u.name for u in side.units],  # type: ignore[attr-defined]
                }
                for s, side in enumerate(scenario.sides)
            },
            "outcome": {r: e.to_json() for r, e in self.outcome.items()},
            "decided_by": [e.to_json() for e in self.decided_by],
            "fighting": {s: [e.to_json() for e in v] for s, v in self.fighting.items()},
            "expected_turns": self.expected_turns.to_json(),
            "survivors": {
                SIDES[s]: {
                    u.name: e.to_json()  # type: ignore[attr-defined]
                    for u, e in zip(scenario.sides[s].units, self.survivors[SIDES[s]], strict=True)
                }
                for s in (0, 1)
            },
            "end_states": [
                {
                    "result": engagement.result(st),
                    **engagement.describe(st),
                    "probability": e.to_json(),
                }
                for st, e in self.end_states[:limit]
            ],
            "end_states_total": len(self.end_states),
        }


def resolution_json(engagement: Engagement, run: ProcessResolution[State]) -> dict[str, object]:
    """A seeded or replayed engagement: ``{"scenario", "seed", "result", "start", "final",
    "turns": [{"turn", "after", "trace"}], "replay"}``."""
    return {
        "scenario": engagement.scenario.source,
        "seed": run.seed,
        "result": engagement.result(run.final),
        "start": engagement.describe(run.start),
        "final": engagement.describe(run.final),
        "turns": [
            {
                "turn": step.number,
                "after": engagement.describe(step.after),
                "trace": [event.to_json() for event in step.trace],
            }
            for step in run.steps
        ],
        "replay": ",".join(run.replay_values()),
    }
