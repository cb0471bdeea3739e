"""Exchangeable units, the limit known before the work, and batch sampling (docs/engagements.md).

The multiset engine is checked Fraction for Fraction against a brute-force twin written here:
a tuple-state engine that never merges two assignments of states to units, and fires, chooses
and hits in the canonical order the engine promises (the k-th unit of a kind in that order
fires k-th), each unit kept as itself through every turn.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from scipy.stats import chisquare

from firefight.chance.batch import wilson
from firefight.chance.limits import Budget, StateLimitError
from firefight.sim.engagement import RESULTS, Engagement
from firefight.sim.scenario import parse_scenario

UNITS = {"rifles": ("[6, 3]", 7), "mg": ("[8, 4]", 8), "bar": ("[5]", 8)}


def _text(a: list[str], b: list[str], turns: int, policy: str, order: str) -> str:
    def side(name: str, kinds: list[str]) -> str:
        out = f'[{name}]\nname = "{name.upper()}"\n'
        for i, kind in enumerate(kinds):
            strength, morale = UNITS[kind]
            out += f'[[{name}.units]]\nname = "{kind} {i}"\nstrength = {strength}\n'
            out += f"morale = {morale}\n"
        return out

    head = f'ruleset = "ept"\nturns = {turns}\npolicy = "{policy}"\norder = "{order}"\n'
    return head + '[situation]\nrange = "normal"\n' + side("a", a) + side("b", b)


def engagement(a, b, turns=2, policy="best_expected_effect", order="alternating", **kw):
    return Engagement(parse_scenario(_text(a, b, turns, policy, order), "x.toml"), **kw)


# --- the brute-force twin ------------------------------------------------------------------


def _perm(e: Engagement, side: int, start, now) -> list[int]:
    """The unit at each canonical position: each kind's units sorted by their states."""
    at = list(range(len(now[side])))
    for members in e.groups.groups[side]:
        unit = e.scenario.sides[side].units[members[0]]

        def key(i, unit=unit):
            own = (-e.rules.value(unit, now[side][i]), repr(now[side][i]))
            if start is None:
                return own
            return ((-e.rules.value(unit, start[side][i]), repr(start[side][i])), own)

        for position, unit_index in zip(members, sorted(members, key=key), strict=True):
            at[position] = unit_index
    return at


def _target(e: Engagement, side: int, position: int, start, now):
    rules, view = e.rules, start or now
    firing = _perm(e, side, start, now)
    firer = firing[position]
    if not rules.can_fire(e.scenario.sides[side].units[firer], view[side][firer]):
        return None
    enemies = e.scenario.sides[1 - side].units
    candidates = []
    for q, t in enumerate(_perm(e, 1 - side, start, now)):
        if rules.out(enemies[t], view[1 - side][t]):
            continue
        attack = e.attack(side, firer, t, view[side][firer], now[1 - side][t])
        if attack is not None:
            candidates.append((q, t, attack))
    if not candidates:
        return None
    if e.scenario.policy == "focus":
        return candidates[0][1:]
    if e.scenario.policy == "spread":
        rank = sum(
            rules.can_fire(e.scenario.sides[side].units[firing[i]], view[side][firing[i]])
            for i in range(position)
        )
        return candidates[rank % len(candidates)][1:]

    def effect(c):
        unit, state = enemies[c[1]], view[1 - side][c[1]]
        after = sum(
            (p * rules.value(unit, rules.apply(unit, state, o)) for o, p in e.odds(c[2]).items()),
            Fraction(0),
        )
        return (rules.value(unit, state) - after, -c[0])

    return max(candidates, key=effect)[1:]


def _twin_turn(e: Engagement, state, mass, into) -> None:
    simultaneous = e.scenario.order == "simultaneous"
    current = {((state if simultaneous else None), state): mass}
    for phase in e.phases:
        following: dict = {}
        for (start, now), m in current.items():
            side = phase.side
            if phase.kind == "prepare":
                units = e.scenario.sides[side].units
                states = tuple(
                    e.rules.before_fire(u, s) for u, s in zip(units, now[side], strict=True)
                )
                after = (states, now[1]) if side == 0 else (now[0], states)
                following[(start, after)] = following.get((start, after), 0) + m
                continue
            chosen = _target(e, side, phase.unit, start, now)
            if chosen is None:
                following[(start, now)] = following.get((start, now), 0) + m
                continue
            t, attack = chosen
            enemy = e.scenario.sides[1 - side].units[t]
            for outcome, p in e.odds(attack).items():
                hit = list(now[1 - side])
                hit[t] = e.rules.apply(enemy, hit[t], outcome)
                after = (now[0], tuple(hit)) if side == 0 else (tuple(hit), now[1])
                following[(start, after)] = following.get((start, after), 0) + m * p
        current = following
    for (_, now), m in current.items():
        into[now] = into.get(now, 0) + m


def twin(e: Engagement, turns: int) -> dict:
    """The tuple-state engine: each unit itself, the canonical order only read, never kept."""
    current = {e.start(): Fraction(1)}
    for _ in range(turns):
        following: dict = {}
        for state, mass in current.items():
            if e.ended(e._leave((None, state))):
                following[state] = following.get(state, 0) + mass
            else:
                _twin_turn(e, state, mass, following)
        current = following
    merged: dict = {}
    for state, mass in current.items():
        canonical = e._leave((None, state))
        merged[canonical] = merged.get(canonical, 0) + mass
    return merged


CASES = [
    (["rifles", "rifles", "bar"], ["rifles", "rifles"], "best_expected_effect", "alternating"),
    (["rifles", "rifles", "bar"], ["rifles", "rifles"], "best_expected_effect", "simultaneous"),
    (["mg", "rifles", "rifles"], ["bar", "bar", "rifles"], "focus", "alternating"),
    (["rifles", "rifles"], ["bar", "bar", "rifles"], "spread", "simultaneous"),
]


@pytest.mark.parametrize(("a", "b", "policy", "order"), CASES)
def test_the_multiset_engine_equals_the_tuple_state_twin_fraction_for_fraction(a, b, policy, order):
    e = engagement(a, b, turns=2, policy=policy, order=order)
    assert e.groups.merges
    exact = dict(e.process.after(e.start(), 2))
    assert exact == twin(e, 2)
    assert sum(exact.values()) == 1


def test_merging_exchangeable_units_holds_fewer_states_than_the_tuple_engine():
    merged = engagement(["rifles"] * 3, ["rifles"] * 3, turns=3)
    tuples = engagement(["rifles"] * 3, ["rifles"] * 3, turns=3, exchange=False)
    assert not tuples.groups.merges
    assert len(merged.odds_over_turns().end_states) < len(tuples.odds_over_turns().end_states)


def test_without_two_units_of_a_kind_both_engines_are_the_same():
    a, b = ["mg", "rifles", "bar"], ["rifles", "bar"]
    one, other = engagement(a, b, turns=3), engagement(a, b, turns=3, exchange=False)
    assert not one.groups.merges
    assert one.odds_over_turns().outcome == other.odds_over_turns().outcome


def test_a_side_state_is_its_canonical_multiset_whatever_unit_took_the_hit():
    e = engagement(["rifles", "rifles"], ["bar"])
    hit, whole = e.rules.apply(e.scenario.sides[0].units[0], e.start()[0][0], "stopped"), None
    whole = e.start()[0][1]
    assert e.groups.side(0, (hit, whole)) == e.groups.side(0, (whole, hit)) == (whole, hit)


# --- the limit, known before the work ------------------------------------------------------


def test_an_engagement_far_past_the_limit_is_stopped_by_its_estimate():
    e = engagement(["rifles"] * 12, ["rifles"] * 12, turns=10)
    with pytest.raises(StateLimitError, match="estimated"):
        e.odds_over_turns()
    answer = e.answer(n=500, seed=4)
    assert answer.label == "sampled"
    assert "estimated" in (answer.reason or "")


def test_a_budget_refuses_work_it_estimates_past_its_limit():
    budget = Budget("x", max_states=10, work=100)
    budget.estimate(10, 10)  # exactly the work left: allowed
    with pytest.raises(StateLimitError, match="estimated"):
        budget.estimate(10, 11)
    with pytest.raises(StateLimitError, match="states within one turn"):
        budget.states(11, "turn")
    with pytest.raises(StateLimitError, match="successors to merge"):
        budget.spend(101)


# --- batch sampling ------------------------------------------------------------------------


@pytest.mark.parametrize(("a", "b", "policy", "order"), CASES)
def test_batch_sampled_engagements_agree_with_the_exact_odds(a, b, policy, order):
    e = engagement(a, b, turns=3, policy=policy, order=order)
    exact, n = e.odds_over_turns(), 20_000
    sampled = e.sampled(n, seed=5)
    assert sampled.label == "sampled"
    assert sum((sampled.result_counts or {}).values()) == n
    kept = [r for r in RESULTS if exact.outcome[r].value > 0]
    observed = [(sampled.result_counts or {})[r] for r in kept]
    assert chisquare(observed, [float(exact.outcome[r].value) * n for r in kept]).pvalue > 0.001
    for r in kept:  # within a 99.9 % interval
        low, high = wilson((sampled.result_counts or {})[r], n, 3.29)
        assert low <= float(exact.outcome[r].value) <= high
    ends = dict(exact.end_states)
    assert all(state in ends for state, _ in sampled.end_states)  # each sampled end is exact's


def test_the_same_seed_samples_the_same_engagements():
    e = engagement(["rifles"] * 4, ["bar", "bar", "rifles"], turns=4)
    one, two = (
        e.sampled(3_000, seed=8),
        engagement(["rifles"] * 4, ["bar", "bar", "rifles"], turns=4).sampled(3_000, seed=8),
    )
    assert one.result_counts == two.result_counts
    assert [(s, e.value) for s, e in one.end_states] == [(s, e.value) for s, e in two.end_states]
    assert e.sampled(3_000, seed=9).result_counts != one.result_counts


@pytest.mark.parametrize(("a", "b", "policy", "order"), CASES)
def test_the_horizon_phase_by_phase_equals_each_states_own_turn_kernel(a, b, policy, order):
    e = engagement(a, b, turns=3, policy=policy, order=order)
    by_phase = e.process.distributions(e.start(), 3)
    current = {e.start(): Fraction(1)}
    for turn in range(4):
        assert dict(by_phase[turn]) == current
        following: dict = {}
        for state, p in current.items():
            kernel = ((state, Fraction(1)),) if e.ended(state) else e.process.kernel(state)
            for after, q in kernel:  # each state's whole turn composed on its own
                following[after] = following.get(after, 0) + p * q
        current = following
