"""The optimal defender's kernels shared by every path of a game (:mod:`.defender_kernels`):
each path solved over the game's store gives what it gives over kernels of its own (the same
value, the same states, the same plan walked), and no kernel is computed twice in a game."""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from firefight.rulesets.vv import defender
from firefight.rulesets.vv.action_inputs import MoveInput
from firefight.rulesets.vv.attack_memo import AttackMemo
from firefight.rulesets.vv.defender import Defence
from firefight.rulesets.vv.defender_action import Setting, play, setting_of
from firefight.rulesets.vv.defender_count import decision_states
from firefight.rulesets.vv.defender_kernels import GameKernels
from firefight.rulesets.vv.move_state import MoveState
from firefight.rulesets.vv.movement import plan_move
from firefight.rulesets.vv.opportunity import opportunities, sights_along
from firefight.rulesets.vv.scenario import BoardScenario, load_board_scenario

from .test_defender import TWO, field

ONE, THIRD = Fraction(1), Fraction(1, 3)


def games(tmp_path: Path) -> list[tuple[BoardScenario, MoveInput]]:
    """The sample's platoon to 0406 (each objective), and the 10 x 8 field with two German
    squads, one with an MG42 laying its lanes, to 0405."""
    village = load_board_scenario("village")
    s = field(tmp_path, TWO, leader_too=True)
    return [
        *(
            (village, MoveInput(stack="0206", to="0406", policy="optimal", objective=o))
            for o in ("unpinned", "not_eliminated", "cps")
        ),
        (s, MoveInput(stack="0204", to="0405", policy="optimal", objective="cps")),
    ]


def solved_in_game(
    scenario: BoardScenario, inp: MoveInput, monkeypatch: pytest.MonkeyPatch
) -> tuple[Setting, list[tuple[Defence, Fraction, int]]]:
    """The game played over one store: each path solved, its value and the states it
    valued."""
    solved: list[tuple[Defence, Fraction, int]] = []
    solve = Defence.solve

    def watched(self: Defence) -> Fraction:
        before = self.budget.used
        value = solve(self)
        if before != self.budget.used:
            solved.append((self, value, self.budget.used - before))
        return value

    monkeypatch.setattr(Defence, "solve", watched)
    sett = setting_of(scenario, inp, ONE, THIRD)
    assert inp.to is not None
    play(sett, inp.to, 3)
    monkeypatch.setattr(Defence, "solve", solve)
    return sett, solved


def walked(d: Defence) -> tuple[Any, ...]:
    """The optimal plan walked: its final states, its decisions (each fire by its firer, hex
    and lanes), the first hits, the score."""
    w = d.walk(d.best)
    decisions = [
        (x.state, x.chance, None if x.fire is None else (x.fire.firer, x.fire.index, x.fire.lanes))
        for x in w.decisions
    ]
    return dict(w.finals), decisions, w.first_hit, w.score()


def fresh_value(d: Defence) -> tuple[Fraction, int]:
    """The brute-force twin: the path's backward induction over the move's states, each
    kernel from the path's own phases (:meth:`~.defender.Defence.settling`, ``entered``,
    ``fired``), none from a store; the value and the decision states valued."""
    values: dict[MoveState, Fraction] = {}

    def expect(kernel: Any, value: Any) -> Fraction:
        denominator, items = kernel
        return sum((Fraction(w, denominator) * value(s) for s, w in items), Fraction(0))

    def settled(state: MoveState) -> Fraction:
        if d.terminal(state):
            return d.leaf(state)
        return expect(d.entered(state), value)

    def value(state: MoveState) -> Fraction:
        if state not in values:
            if state.halted:
                values[state] = d.leaf(state)
            else:
                best = expect(d.settling(state), settled)
                for fire in d.may_fire(state):
                    best = min(best, expect(d.fired(state, fire), value))
                values[state] = best
        return values[state]

    return settled(d.start), len(values)


@pytest.mark.parametrize("game", range(4))
def test_each_path_over_the_games_store_gives_what_its_own_kernels_give(
    tmp_path: Path, game: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    scenario, inp = games(tmp_path)[game]
    sett, solved = solved_in_game(scenario, inp, monkeypatch)
    assert len(solved) > 10
    for shared, value, states in solved:
        own = setting_of(scenario, inp, ONE, THIRD).defence(shared.plan)  # a store of its own
        assert fresh_value(own) == (value, states)
        assert own.store is not sett.kernels
        assert decision_states(own, defender.MAX_STATES) == states
        assert own.solve() == value
        assert own.budget.used == states
        assert walked(own) == walked(shared)
    assert sett.budget.used == sum(states for _, _, states in solved)


def kernel_key(d: Defence, name: str, state: MoveState, *args: Any) -> Hashable:
    """What a kernel is asked for: its phase (as the store numbers it) and the state."""
    bare = state._replace(marks=frozenset())
    if name == "fire_raw":
        return args[0].key, bare
    if name == "settle_raw":
        return d.store.phase(d.settle_key(state.at)), bare
    lanes = frozenset(m for m in state.marks if m.startswith("lane:"))
    return d.store.phase(d.enter_key(state.at, lanes)), bare


@pytest.mark.parametrize("game", [0, 3])
def test_a_game_computes_each_kernel_once_and_fewer_than_its_paths_alone(
    tmp_path: Path, game: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    scenario, inp = games(tmp_path)[game]
    asked: list[Hashable] = []

    def counting(name: str) -> Any:
        kernel = getattr(Defence, name)

        def counted(self: Defence, *args: Any) -> Any:
            asked.append(kernel_key(self, name, *args))
            return kernel(self, *args)

        return counted

    for name in ("settle_raw", "enter_raw", "fire_raw"):
        monkeypatch.setattr(Defence, name, counting(name))
    sett, solved = solved_in_game(scenario, inp, monkeypatch)
    assert len(asked) == len(set(asked)) == sett.kernels.computed > 0
    alone = 0
    for shared, _, _ in solved:
        own = setting_of(scenario, inp, ONE, THIRD).defence(shared.plan)
        own.solve()
        alone += own.store.computed
    assert sett.kernels.computed < alone / 2  # the paths share most of their kernels


def test_a_store_of_its_own_is_the_default() -> None:
    s = load_board_scenario("village")
    inp = MoveInput(stack="0206", path=["0305", "0406"], policy="optimal")
    sett = setting_of(s, inp, ONE, THIRD)
    plan = plan_move(s, "0206", ["0305", "0406"])
    d = sett.defence(plan)
    assert d.store is sett.kernels
    own = Defence(
        d.plan, d.ap, d.at, d.standing, d.readings, d.lay, d.objective, defender.Budget(),
        sett.shots.cache(d.plan),
    )  # fmt: skip
    assert isinstance(own.store, GameKernels)
    assert own.store is not sett.kernels
    assert own.solve() == d.solve()


def test_the_lines_and_attacks_known_from_other_paths_are_the_paths_own() -> None:
    s = load_board_scenario("village")
    known = AttackMemo()
    paths = [["0305", "0406"], ["0306", "0406"], ["0305", "0405", "0505"], ["0305"]]
    for path in paths:
        plan = plan_move(s, "0206", path)
        origins = [u.hex for u in s.units if u.side != plan.side]
        assert sights_along(plan, origins, known) == sights_along(plan, origins)
        assert opportunities(plan, memo=known) == opportunities(plan)
    assert known.sights
    assert known.attacks
