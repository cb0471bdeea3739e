"""Sampled engagements in vectorized batches (docs/engagements.md, "Exact, or sampled").

Every run is a row of unit-state numbers, one array per side, and a turn advances all the
runs still fighting at once, phase by phase, as the exact engine does
(:class:`firefight.sim.engagement.Engagement`): the same fire policy and the same canonical
order of exchangeable units, read through tables over the unit states met so far. The Python
rules are asked once per distinct situation (a firer's state and a target's: the attack, its
effect, the states it leaves, from the attack's cached exact odds), and each fire's outcome is
drawn for every run together, as an integer below the attack's denominator (exactly its odds).
The same seed gives the same runs.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from firefight.chance.evaluate import generator
from firefight.chance.phases import IntKernel
from firefight.chance.runs import SampledOdds
from firefight.core.inputs import RuleInput
from firefight.rulesets.engagement import EngagementRules
from firefight.sim.engagement_groups import Exchange
from firefight.sim.engagement_phases import Phase, State
from firefight.sim.scenario import Scenario


class Engagement(Protocol):
    """What the batches read of their engagement (:class:`firefight.sim.engagement.Engagement`)."""

    scenario: Scenario
    rules: EngagementRules[Any, Any]
    kinds: tuple[tuple[int, ...], tuple[int, ...]]
    groups: Exchange
    phases: tuple[Phase, ...]

    def start(self) -> State:
        """Both sides at the start (canonical)."""
        ...

    def side_out_of(self, side: int, states: tuple[Any, ...]) -> bool:
        """The side is eliminated or broken."""
        ...

    def attack(
        self, side: int, firer: int, target: int, firer_state: Hashable, target_state: Hashable
    ) -> RuleInput | None:
        """The procedure's input for this fire, or ``None``."""
        ...

    def effect(self, attack: RuleInput, side: int, index: int, state: Hashable) -> Fraction:
        """The expected fall of the target's value under the attack."""
        ...

    def hit(
        self, attack: RuleInput, side: int, target: int, before: Hashable
    ) -> IntKernel[Hashable]:
        """The target's states after the attack, as integer weights."""
        ...


Ints = npt.NDArray[np.int64]
UNKNOWN = -2
"""A table's entry not asked of the rules yet."""


@dataclass(eq=False)
class _Tables:
    """Unit states as numbers, and what the rules say of them, asked once each."""

    engagement: Engagement
    values: list[Hashable] = field(default_factory=list)
    ids: dict[Hashable, int] = field(default_factory=dict)
    effects: list[Fraction] = field(default_factory=list)
    effect_ids: dict[Fraction, int] = field(default_factory=dict)
    hits: list[tuple[Ints, Ints]] = field(default_factory=list)
    hit_ids: dict[tuple[Any, ...], int] = field(default_factory=dict)
    _scores: dict[tuple[int, int, int], Ints] = field(default_factory=dict)
    _hit_tables: dict[tuple[int, int, int], Ints] = field(default_factory=dict)
    _unit: dict[tuple[str, int, int], Ints] = field(default_factory=dict)
    _met: dict[tuple[int, int], set[int]] = field(default_factory=dict)
    _ranks: dict[tuple[int, int], tuple[Ints, Ints]] = field(default_factory=dict)

    def id(self, value: Hashable) -> int:
        found = self.ids.get(value)
        if found is None:
            found = self.ids[value] = len(self.values)
            self.values.append(value)
        return found

    def _grown(self, table: Ints, dims: int) -> Ints:
        size = len(self.values)
        if table.shape[0] >= size:
            return table
        bigger = np.full((max(2 * size, 8),) * dims, UNKNOWN, dtype=np.int64)
        bigger[tuple(slice(0, n) for n in table.shape)] = table
        return bigger

    def unit(self, what: str, side: int, index: int, states: Ints) -> Ints:
        """What the rules say of one unit's kind in each of ``states``: ``can_fire`` (0/1)
        or ``prepare`` (its state at the start of its side's fire), asked once per state."""
        key = (what, side, self.engagement.kinds[side][index])
        table = self._grown(self._unit.get(key, np.full(0, UNKNOWN, dtype=np.int64)), 1)
        found = table[states]
        missing = found == UNKNOWN
        if missing.any():
            unit = self.engagement.scenario.sides[side].units[index]
            rules = self.engagement.rules
            for state in np.unique(states[missing]).tolist():
                value = self.values[state]
                table[state] = (
                    rules.can_fire(unit, value)
                    if what == "can_fire"
                    else self.id(rules.before_fire(unit, value))
                )
                if what == "prepare":
                    self.met(side, index, [int(table[state])])
            found = table[states]
        self._unit[key] = table
        return found

    def met(self, side: int, index: int, states: list[int]) -> None:
        """Note that the unit's kind is met in ``states`` (its canonical order covers them)."""
        kind = (side, self.engagement.kinds[side][index])
        known = self._met.setdefault(kind, set())
        if not known.issuperset(states):
            known.update(states)
            self._ranks.pop(kind, None)

    def ranks(self, side: int, index: int) -> tuple[Ints, Ints]:
        """Each state's place among the unit's kind (the canonical order), and the state at
        each place: over the states the kind is met in."""
        kind = (side, self.engagement.kinds[side][index])
        found = self._ranks.get(kind)
        if found is None or found[0].shape[0] < len(self.values):
            key = self.engagement.groups.key
            order = sorted(self._met[kind], key=lambda i: key(side, index, self.values[i]))
            rank = np.zeros(len(self.values), dtype=np.int64)
            rank[np.array(order, dtype=np.int64)] = np.arange(len(order))
            found = self._ranks[kind] = (rank, np.array(order, dtype=np.int64))
        return found

    def scores(self, side: int, firer: int, target: int, codes: tuple[Ints, Ints, Ints]) -> Ints:
        """The fire policy's score of each run's target (the effect's id; -1: no attack)."""
        engagement = self.engagement
        key = (side, engagement.kinds[side][firer], engagement.kinds[1 - side][target])
        table = self._grown(self._scores.get(key, np.full((0,) * 3, UNKNOWN, np.int64)), 3)
        found = table[codes]
        missing = found == UNKNOWN
        if missing.any():
            for f, v, n in {tuple(c) for c in np.stack(codes, 1)[missing].tolist()}:
                table[f, v, n] = self._score(side, firer, target, (f, v, n))
            found = table[codes]
        self._scores[key] = table
        return found

    def _score(self, side: int, firer: int, target: int, code: tuple[int, int, int]) -> int:
        engagement, values = self.engagement, self.values
        firer_state, view, now = (values[c] for c in code)
        if engagement.rules.out(engagement.scenario.sides[1 - side].units[target], view):
            return -1
        attack = engagement.attack(side, firer, target, firer_state, now)
        if attack is None:
            return -1
        if engagement.scenario.policy != "best_expected_effect":
            return 0
        effect = engagement.effect(attack, side, target, view)
        found = self.effect_ids.get(effect)
        if found is None:
            found = self.effect_ids[effect] = len(self.effects)
            self.effects.append(effect)
        return found

    def effect_ranks(self) -> Ints:
        """Each effect id's rank among the effects (larger: a better target); -1 stays."""
        order = sorted(range(len(self.effects)), key=self.effects.__getitem__)
        ranks = np.empty(len(self.effects) + 1, dtype=np.int64)
        ranks[np.array(order, dtype=np.int64)] = np.arange(len(order))
        ranks[-1] = -1
        return ranks

    def hit_of(self, side: int, firer: int, target: int, codes: tuple[Ints, Ints]) -> Ints:
        """Each run's hit (an id of :attr:`hits`): its attack on the target's state now."""
        engagement = self.engagement
        key = (side, engagement.kinds[side][firer], engagement.kinds[1 - side][target])
        table = self._grown(self._hit_tables.get(key, np.full((0, 0), UNKNOWN, np.int64)), 2)
        found = table[codes]
        missing = found == UNKNOWN
        if missing.any():
            for f, n in {tuple(c) for c in np.stack(codes, 1)[missing].tolist()}:
                table = self._grown(table, 2)
                table[f, n] = self._hit(side, firer, target, f, n)
            found = table[codes]
        self._hit_tables[key] = table
        return found

    def _hit(self, side: int, firer: int, target: int, f: int, n: int) -> int:
        engagement = self.engagement
        attack = engagement.attack(side, firer, target, self.values[f], self.values[n])
        if attack is None:  # pragma: no cover - a score of -1 never chooses it
            return -1
        key = (attack, 1 - side, engagement.kinds[1 - side][target], self.values[n])
        found = self.hit_ids.get(key)
        if found is None:
            denominator, weights = engagement.hit(attack, 1 - side, target, self.values[n])
            after = np.array([self.id(s) for s, _ in weights], dtype=np.int64)
            self.met(1 - side, target, after.tolist())
            cumulative, total = [], 0
            for _, weight in weights:
                total += weight
                cumulative.append(total)
            if denominator < 2**62:  # drawn as an integer below the denominator: exact
                bounds = np.array(cumulative, dtype=np.int64)
            else:  # pragma: no cover - drawn as a float: its odds to 1e-16
                bounds = np.array([c / denominator for c in cumulative], dtype=np.float64)
            self.hits.append((after, bounds))
            self.hit_ids[key] = found = len(self.hits) - 1
        return found


def _canon(
    tables: _Tables, side: int, arrays: list[Ints], starts: list[Ints] | None, rows: Ints
) -> None:
    """The runs ``rows``' side in canonical order (by the pair within a simultaneous turn)."""
    for members in tables.engagement.groups.groups[side]:
        cols = np.array(members)
        now = arrays[side][np.ix_(rows, cols)]
        rank, state_at = tables.ranks(side, members[0])
        if starts is None:
            arrays[side][np.ix_(rows, cols)] = state_at[np.sort(rank[now], axis=1)]
            continue
        start = starts[side][np.ix_(rows, cols)]
        order = np.argsort(rank[start] * (len(rank) + 1) + rank[now], axis=1, kind="stable")
        arrays[side][np.ix_(rows, cols)] = np.take_along_axis(now, order, 1)
        starts[side][np.ix_(rows, cols)] = np.take_along_axis(start, order, 1)


def _distinct(arrays: list[Ints]) -> tuple[int, int, int]:
    """The distinct rows of both sides, and how many rows are met once and twice."""
    _, counts = np.unique(np.concatenate(arrays, axis=1), axis=0, return_counts=True)
    return len(counts), int((counts == 1).sum()), int((counts == 2).sum())


def estimated_states(seen: tuple[int, int, int]) -> int:
    """The number of states the runs' distribution has, estimated from the states ``n`` runs
    were in (Chao's bias-corrected estimator: the observed, plus f1 (f1 - 1) / 2 (f2 + 1) for
    f1 states met once and f2 met twice): a lower bound, near the truth once the runs meet
    most states twice, and far above any limit when they seldom meet a state twice."""
    observed, once, twice = seen
    return observed + once * (once - 1) // (2 * (twice + 1))


def _draw(tables: _Tables, hits: Ints, rng: np.random.Generator) -> Ints:
    """Each run's target state after its hit, drawn from the hit's exact odds."""
    result = np.empty(len(hits), dtype=np.int64)
    for hit in np.unique(hits).tolist():
        where = np.flatnonzero(hits == hit)
        after, bounds = tables.hits[hit]
        u: npt.NDArray[Any] = (
            rng.integers(0, int(bounds[-1]), size=len(where))
            if bounds.dtype == np.int64
            else rng.random(len(where))
        )
        result[where] = after[np.searchsorted(bounds, u, side="right")]
    return result


@dataclass(eq=False)
class BatchRuns:
    """``n`` engagements sampled together (:meth:`Engagement.sampled`)."""

    engagement: Engagement
    tables: _Tables = field(init=False)
    _out: dict[tuple[int, tuple[int, ...]], bool] = field(default_factory=dict)
    seen: list[tuple[int, int, int]] | None = None
    """Kept when given (a list): at each turn, the runs' distinct states, and how many of them
    one run and two runs were in (:func:`estimated_states`)."""

    def __post_init__(self) -> None:
        self.tables = _Tables(self.engagement)

    def run(self, n: int, seed: int) -> SampledOdds[State]:
        """The runs' end states by the turn each ended, as the state engine gives them."""
        engagement, tables = self.engagement, self.tables
        rng = generator(seed)
        start = engagement.start()
        arrays = [
            np.tile(np.array([tables.id(s) for s in side], dtype=np.int64), (n, 1))
            for side in start
        ]
        for side, states in enumerate(start):
            for index, state in enumerate(states):
                tables.met(side, index, [tables.id(state)])
        by_steps: dict[int, dict[State, int]] = {}
        done: list[Ints] = [np.zeros((0, len(side)), dtype=np.int64) for side in start]
        for turn in range(engagement.scenario.turns + 1):
            if self.seen is not None:
                self.seen.append(
                    _distinct([np.concatenate(p) for p in zip(done, arrays, strict=True)])
                )
            ended = self._ended(arrays)
            if turn == engagement.scenario.turns:
                ended[:] = True
            if ended.any():
                by_steps[turn] = self._states([a[ended] for a in arrays])
                if self.seen is not None:
                    done = [
                        np.concatenate(p)
                        for p in zip(done, [a[ended] for a in arrays], strict=True)
                    ]
                arrays = [a[~ended] for a in arrays]
            if not len(arrays[0]):
                break
            self._turn(arrays, rng)
        steps = {turn: sum(c.values()) for turn, c in sorted(by_steps.items())}
        counts: dict[State, int] = {}
        for at in by_steps.values():
            for state, k in at.items():
                counts[state] = counts.get(state, 0) + k
        return SampledOdds(counts, n, seed, steps, by_steps=by_steps)

    def _ended(self, arrays: list[Ints]) -> npt.NDArray[np.bool_]:
        ended = np.zeros(len(arrays[0]), dtype=bool)
        values, out = self.tables.values, self._out
        for side in (0, 1):
            flags = []
            for row in map(tuple, arrays[side].tolist()):
                found = out.get((side, row))
                if found is None:
                    states = tuple(values[i] for i in row)
                    found = out[(side, row)] = self.engagement.side_out_of(side, states)
                flags.append(found)
            ended |= np.array(flags, dtype=bool)
        return ended

    def _states(self, arrays: list[Ints]) -> dict[State, int]:
        both = np.concatenate(arrays, axis=1)
        rows, counts = np.unique(both, axis=0, return_counts=True)
        split, values = arrays[0].shape[1], self.tables.values
        return {
            (tuple(values[i] for i in row[:split]), tuple(values[i] for i in row[split:])): k
            for row, k in zip(rows.tolist(), counts.tolist(), strict=True)
        }

    def _turn(self, arrays: list[Ints], rng: np.random.Generator) -> None:
        engagement = self.engagement
        starts = [a.copy() for a in arrays] if engagement.scenario.order == "simultaneous" else None
        for phase in engagement.phases:
            if phase.kind == "prepare":
                for index in range(arrays[phase.side].shape[1]):
                    column = arrays[phase.side][:, index]
                    arrays[phase.side][:, index] = self.tables.unit(
                        "prepare", phase.side, index, column
                    )
                _canon(self.tables, phase.side, arrays, starts, np.arange(len(arrays[0])))
            else:
                self._fire(phase, arrays, starts, rng)
        for side in (0, 1):
            _canon(self.tables, side, arrays, None, np.arange(len(arrays[0])))

    def _choose(
        self, valid: npt.NDArray[np.bool_], scores: Ints, own_side: Ints, side: int, firer: int
    ) -> Ints:
        """Each run's target by the scenario's fire policy (as :meth:`Engagement.choose`)."""
        policy = self.engagement.scenario.policy
        if policy == "best_expected_effect":  # the largest effect, the first of equals
            ranked = np.where(valid, self.tables.effect_ranks()[scores], -1)
            return np.asarray(np.argmax(ranked, axis=1), dtype=np.int64)
        if policy == "focus":
            return np.asarray(np.argmax(valid, axis=1), dtype=np.int64)
        rank = np.zeros(len(own_side), dtype=np.int64)
        for i in range(firer):
            rank += self.tables.unit("can_fire", side, i, own_side[:, i])
        wanted = rank % np.maximum(valid.sum(axis=1), 1)
        nth = valid & (np.cumsum(valid, axis=1) - 1 == wanted[:, None])
        return np.asarray(np.argmax(nth, axis=1), dtype=np.int64)

    def _fire(
        self, phase: Phase, arrays: list[Ints], starts: list[Ints] | None, rng: np.random.Generator
    ) -> None:
        tables, side, firer = self.tables, phase.side, phase.unit
        view = starts if starts is not None else arrays
        can = tables.unit("can_fire", side, firer, view[side][:, firer]).astype(bool)
        rows = np.flatnonzero(can)  # the runs where the firer may fire
        own = view[side][rows, firer]
        enemy_view, enemy_now = view[1 - side][rows], arrays[1 - side][rows]
        scores = np.empty(enemy_now.shape, dtype=np.int64)
        for cols in self.engagement.groups.columns[1 - side]:  # one table per target kind
            shape = (len(rows), len(cols))
            codes = (
                np.repeat(own, len(cols)),
                enemy_view[:, cols].reshape(-1),
                enemy_now[:, cols].reshape(-1),
            )
            scores[:, cols] = tables.scores(side, firer, cols[0], codes).reshape(shape)
        valid = scores >= 0
        chosen = self._choose(valid, scores, view[side][rows], side, firer)
        fires = np.flatnonzero(valid.any(axis=1))
        if not len(fires):
            return
        target = chosen[fires]
        before = enemy_now[fires, target]
        hits = np.empty(len(fires), dtype=np.int64)
        for t in np.unique(target).tolist():
            at = target == t
            hits[at] = tables.hit_of(side, firer, t, (own[fires][at], before[at]))
        arrays[1 - side][rows[fires], target] = _draw(tables, hits, rng)
        _canon(tables, 1 - side, arrays, starts, rows[fires])
