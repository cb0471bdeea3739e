"""What a path search shares between its paths: the memo of lines, attacks and lanes
(:class:`~firefight.rulesets.vv.attack_memo.AttackMemo`) and the attacks' odds, hits and
kernels (:class:`~firefight.rulesets.vv.path_search.SharedShots`). Over drawn paths on the
samples (one memo and one builder for every path met), every answer is the one judged afresh:
the same attacks and lanes, the same exact distribution after every hex."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from firefight.errors import InputError
from firefight.rulesets.vv.action_inputs import MoveInput
from firefight.rulesets.vv.at_move import AtMove
from firefight.rulesets.vv.attack_memo import AttackMemo
from firefight.rulesets.vv.lanes import LaneReadings
from firefight.rulesets.vv.lanes_move import laid_lanes
from firefight.rulesets.vv.movement import MovePlan, plan_move
from firefight.rulesets.vv.opportunity import opportunities
from firefight.rulesets.vv.path_action import builder
from firefight.rulesets.vv.path_search import Build
from firefight.rulesets.vv.scenario import BoardScenario, load_board_scenario
from firefight.rulesets.vv.scenario_units import Fortification

MEMO = AttackMemo()
"""One memo for every example: what earlier paths left in it must not change an answer."""
STACKS = {"village": "0206", "village_dug_in": "0206", "vv_armour": "0212"}


@cache
def scenario(name: str) -> BoardScenario:
    """A sample, or the village with foxholes on the platoon's ways east (their cover, by the
    fortification cover reading, is in the movers' reading of a hex)."""
    if name != "village_dug_in":
        return load_board_scenario(name)
    village = load_board_scenario("village")
    holes = tuple(Fortification(village.board.hex(h), "foxhole") for h in ("0306", "0407", "0305"))
    return replace(village, fortifications=(*village.fortifications, *holes))


def walk(s: BoardScenario, start: str, turns: list[int], *, assault: bool) -> MovePlan | None:
    """The longest legal path the turns draw from ``start`` (each a neighbour's index)."""
    here = origin = s.board.hex(start)
    hexes = [origin]
    plan = None
    for turn in turns:
        after = here.neighbours()[turn]
        if after not in s.board or after in hexes:
            continue
        try:
            plan = plan_move(s, origin, [*hexes[1:], after], assault=assault, end=False)
        except InputError:
            continue
        hexes.append(after)
        here = after
    return plan


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(sorted(STACKS)),
    turns=st.lists(st.integers(0, 5), min_size=1, max_size=8),
    assault=st.booleans(),
    cover=st.sampled_from(["path_end", "always", "never"]),
    no_cover=st.sampled_from(["no_cover_or_hindrance", "no_positive_cover"]),
    side=st.sampled_from(["left", "right"]),
)
def test_a_memo_shared_by_many_paths_gives_the_answers_judged_afresh(
    *, name: str, turns: list[int], assault: bool, cover: str, no_cover: str, side: str
) -> None:
    s = scenario(name)
    plan = walk(s, STACKS[name], turns, assault=assault)
    if plan is None:
        return
    fresh = opportunities(plan, fortification_cover=cover, opportunity_no_cover=no_cover)  # type: ignore[arg-type]
    shared = opportunities(
        plan,
        fortification_cover=cover,  # type: ignore[arg-type]
        opportunity_no_cover=no_cover,  # type: ignore[arg-type]
        memo=MEMO,
    )
    assert shared == fresh
    attacks = [o for found in fresh.values() for o in found]
    readings = LaneReadings(first_side=side)  # type: ignore[arg-type]
    assert laid_lanes(plan, attacks, "always", readings, MEMO) == laid_lanes(
        plan, attacks, "always", readings
    )


def test_the_memo_starts_again_on_other_fortifications() -> None:
    memo = AttackMemo()
    plain, dug_in = scenario("village"), scenario("village_dug_in")
    plan = plan_move(plain, "0206", ["0306", "0407"], end=False)
    opportunities(plan, memo=memo)
    assert memo.attacks
    assert memo.of(dug_in).attacks == {}
    assert memo.of(dug_in) is memo


@cache
def shared_build(name: str, policy: str) -> Build:
    """One builder for every example of a sample: its caches kept from path to path."""
    return fresh_build(name, policy)


def fresh_build(name: str, policy: str) -> Build:
    """A builder of its own: nothing shared with another path."""
    s = scenario(name)
    inp = MoveInput(stack=STACKS[name], to=STACKS[name], policy=policy)
    return builder(s, inp, Fraction(1), Fraction(1, 3))[0]


def distributions(whole: AtMove) -> list[tuple[dict[object, int], int]]:
    """The move's exact state after every hex, as integer masses over a denominator."""
    model = whole.lanes.model
    steps = model.process.weights(model.start, model.hexes)
    return [(dict(w.masses), w.denominator) for w in steps]


@settings(max_examples=40, deadline=None)
@given(
    name=st.sampled_from(sorted(STACKS)),
    turns=st.lists(st.integers(0, 5), min_size=1, max_size=7),
    assault=st.booleans(),
    policy=st.sampled_from(["threshold", "first_sight"]),
)
def test_a_move_built_over_the_shared_caches_has_the_odds_of_one_built_afresh(
    *, name: str, turns: list[int], assault: bool, policy: str
) -> None:
    plan = walk(scenario(name), STACKS[name], turns, assault=assault)
    if plan is None:
        return
    shared = shared_build(name, policy)(plan)
    fresh = fresh_build(name, policy)(plan)
    assert shared.lanes.model.attacks == fresh.lanes.model.attacks
    assert shared.lanes.markers == fresh.lanes.markers
    assert distributions(shared) == distributions(fresh)
