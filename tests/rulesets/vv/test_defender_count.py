"""The optimal defender's decision states counted before they are valued: the count equals
the states the backward induction values, and a move past the budget is refused before any
state is valued (the hostile input: twelve firers on a three-hex path)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from firefight.errors import InputError
from firefight.rulesets.vv import defender
from firefight.rulesets.vv.action_inputs import MoveInput
from firefight.rulesets.vv.actions import move
from firefight.rulesets.vv.defender import Defence
from firefight.rulesets.vv.defender_action import play, setting_of
from firefight.rulesets.vv.defender_count import decision_states
from firefight.rulesets.vv.movement import plan_move
from firefight.rulesets.vv.path_search import OBJECTIVES
from firefight.rulesets.vv.scenario import BoardScenario, load_board_scenario, scenario_from_data

from .move_helpers import leader, squad
from .test_defender import PATHS, TWO, field, setting
from .test_defender import defence as field_defence
from .test_path_search import FIELD

VILLAGE = [(["0305", "0406"], True), (["0306", "0406"], False), (["0305", "0405", "0505"], False)]
HEXES = ["0601", "0602", "0603", "0604", "0605", "0606", "0607", "0701", "0702", "0703"]
HOSTILE = [(f"de-{i}", h, i % 2 == 0) for i, h in enumerate([*HEXES, "0704", "0705"])]
"""Twelve German squads, every other one with an MG42, all in range of the path."""


def hostile(tmp_path: Path, firers: int) -> BoardScenario:
    """The 10 x 8 field: two American squads and a leader in 0204, ``firers`` of
    :data:`HOSTILE`."""
    (tmp_path / "field.toml").write_text(FIELD)
    mg = {"name": "MG42", "class": "L", "kind": "mg", "apfp": 4, "range": 8}
    units = [squad("us-a", "us", "0204"), leader("us-l", "us", "0204"), squad("us-b", "us", "0204")]
    for unit_id, hex_, with_mg in HOSTILE[:firers]:
        units.append(squad(unit_id, "de", hex_, **({"support_weapons": [mg]} if with_mg else {})))
    sides = {"us": {"name": "Americans"}, "de": {"name": "Germans"}}
    data = {"board": "field.toml", "sides": sides, "units": units}
    return scenario_from_data(data, "test.toml", base=tmp_path)


def solved(d: Defence) -> int:
    d.solve()
    return d.budget.used


@pytest.mark.parametrize("objective", OBJECTIVES)
@pytest.mark.parametrize("path", PATHS)
def test_the_count_is_the_states_the_induction_values(
    tmp_path: Path, path: list[str], objective: str
) -> None:
    s = field(tmp_path, [*TWO, ("de-c", "0705", True)], leader_too=True)
    d = field_defence(s, path, objective)
    counted = decision_states(d, defender.MAX_STATES)
    assert counted == solved(field_defence(s, path, objective)) > 1


@pytest.mark.parametrize(("path", "assault"), VILLAGE)
def test_on_the_sample_the_count_is_the_states_valued(path: list[str], assault: bool) -> None:
    s = load_board_scenario("village")
    inp = MoveInput(stack="0206", path=path, assault=assault, policy="optimal", objective="cps")
    sett = setting_of(s, inp, Fraction(1), Fraction(1, 3))
    plan = plan_move(s, "0206", path, assault=assault)
    counted = decision_states(sett.defence(plan), defender.MAX_STATES)
    assert counted == solved(setting_of(s, inp, Fraction(1), Fraction(1, 3)).defence(plan))
    assert decision_states(sett.defence(plan), 10) == 11  # stops past its limit


def test_the_hostile_move_is_refused_before_any_state_is_valued(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = hostile(tmp_path, len(HOSTILE))
    valued = kernels = 0
    state, fired = defender.Budget.state, Defence.fire_raw

    def count_state(self: defender.Budget) -> None:
        nonlocal valued
        valued += 1
        state(self)

    def count_fired(self: Defence, *args: Any) -> Any:
        nonlocal kernels
        kernels += 1
        return fired(self, *args)

    monkeypatch.setattr(defender.Budget, "state", count_state)
    monkeypatch.setattr(Defence, "fire_raw", count_fired)
    inp = MoveInput(stack="0204", path=["0304", "0404", "0504"], policy="optimal")
    with pytest.raises(InputError, match=r"'policy' must be a move .* budget of 100,000 states"):
        move(s, inp)
    assert valued == 0
    assert 0 < kernels < 2_000  # each fire's kernel once per state of the movers


def test_a_move_within_the_budget_is_answered_as_before(tmp_path: Path) -> None:
    s = hostile(tmp_path, 4)
    d = setting(s).defence(plan_move(s, "0204", ["0304", "0404", "0504"]))
    counted = decision_states(d, defender.MAX_STATES)
    assert counted == solved(d) < defender.MAX_STATES


@pytest.mark.parametrize(("path", "assault"), VILLAGE)
def test_the_induction_computes_no_kernel_the_count_did_not(
    path: list[str], assault: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = load_board_scenario("village")
    inp = MoveInput(stack="0206", path=path, assault=assault, policy="optimal", objective="cps")
    d = setting_of(s, inp, Fraction(1), Fraction(1, 3)).defence(
        plan_move(s, "0206", path, assault=assault)
    )
    counted = decision_states(d, defender.MAX_STATES)
    kernels = 0

    def counting(name: str) -> Any:
        kernel = getattr(Defence, name)

        def counted_kernel(self: Defence, *args: Any) -> Any:
            nonlocal kernels
            kernels += 1
            return kernel(self, *args)

        return counted_kernel

    for name in ("settle_raw", "enter_raw", "fire_raw"):
        monkeypatch.setattr(Defence, name, counting(name))
    d.solve()
    assert kernels == 0
    assert d.budget.used == counted


def test_a_game_past_its_budget_values_no_state_past_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(defender, "MAX_STATES", 3_000)  # the game to 0406 values 6,747
    s = load_board_scenario("village")
    sett = setting_of(
        s, MoveInput(stack="0206", to="0406", policy="optimal"), Fraction(1), Fraction(1, 3)
    )
    refused_by_state = False
    state = defender.Budget.state

    def watch(self: defender.Budget) -> None:
        nonlocal refused_by_state
        try:
            state(self)
        except InputError:
            refused_by_state = True
            raise

    monkeypatch.setattr(defender.Budget, "state", watch)
    with pytest.raises(InputError, match=r"'policy' must be a move .* budget of 3,000 states"):
        play(sett, "0406", 3)
    assert not refused_by_state  # the path past the budget left was counted, none of it valued
    assert 0 < sett.budget.used <= 3_000
