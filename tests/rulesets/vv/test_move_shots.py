"""A move's attack phases with their own exact kernels (:mod:`firefight.rulesets.vv.move_shots`:
each roll's odds cached by the attack's input, each hit's allocation once per hex, units and
their states, the attacks of a hex as one phase) give the odds that the same phases give when
the engine evaluates each one's procedure by prefix replay, state by state, Fraction for
Fraction: AP opportunity fire, fire lanes, AT fire, a sniper; and the lines the firers see
the path along judged in one march are the lines of sight judged one by one."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from firefight.chance.process import KnownPhase, Phases, Process
from firefight.rulesets.vv.at_move import build_at_move
from firefight.rulesets.vv.move_results import MoveOdds, model_odds
from firefight.rulesets.vv.move_shots import HexPhases, ShotPhase, SteadyPhase
from firefight.rulesets.vv.move_steps import MoveModel
from firefight.rulesets.vv.movement import plan_move
from firefight.rulesets.vv.opportunity import attack_at, firers, opportunities
from firefight.rulesets.vv.scenario import BoardScenario
from tests.rulesets.vv.move_helpers import leader, scenario, squad

ROW = ["0205", "0305", "0405", "0505"]
MG42 = {"name": "MG42", "class": "L", "kind": "mg", "apfp": 4, "range": 8}
SCHRECK = {"name": "Panzerschreck", "class": "L", "kind": "anti_tank", "apfp": 0, "range": 3}
AFV = {"type": "afv", "apfp": 6, "movement_points": 8, "facing": 2}


def field(tmp_path: Path, *, sniper: bool = True, afv: bool = True) -> BoardScenario:
    """An AFV (or a second squad), a squad and a leader moving east along row 5 under AP fire
    from four hexes (two of them MG groups laying lanes, one a crossfire), AT fire from a Gun
    and a Panzerschreck, and a sniper; woods, a building and a hedge on the way."""
    germans: list[dict[str, Any]] = [
        squad("m", "de", "0303", support_weapons=[MG42]),
        {"id": "n", "side": "de", "type": "mg_team", "hex": "0303", "apfp": 4, "range": 8,
         "casualty_rating": 2},
        squad("k", "de", "0607", support_weapons=[MG42]),
        squad("b", "de", "0406", support_weapons=[SCHRECK]),
        squad("c", "de", "0406"),
        squad("e", "de", "0702", apfp=6),
        leader("el", "de", "0702"),
        {"id": "g", "side": "de", "type": "gun", "hex": "0905", "apfp": 3,
         "casualty_rating": 3, "facing": 5},
    ]  # fmt: skip
    movers = [
        {"id": "t", "side": "us", "hex": "0105", **AFV}
        if afv
        else squad("a2", "us", "0105", casualty_rating=3),
        squad("a", "us", "0105"),
        leader("l", "us", "0105"),
    ]
    return scenario(
        tmp_path,
        [*movers, *germans],
        hexes={"0404": "woods", "0506": "building", "0304": "woods"},
        hexsides={"0405/0505": "hedge"},
        snipers=[{"side": "de", "hex": "0802"}] if sniper else None,
    )


def replayed(model: MoveModel) -> MoveModel:
    """The same move with every phase evaluated by the engine's prefix replay of its rule
    procedure, one phase per attack (as before the phases knew their kernels)."""
    step = model.process.step
    assert isinstance(step, Phases)
    phases: list[Any] = []
    for phase in step.phases:
        if isinstance(phase, HexPhases):
            for index in sorted(phase.by_hex):
                phases.extend(p.procedure for p in phase.by_hex[index])
        elif isinstance(phase, ShotPhase | SteadyPhase):
            phases.append(phase.procedure)
        else:
            phases.append(phase)
    assert not any(isinstance(p, KnownPhase) for p in phases)
    process = Process(Phases(tuple(phases)), terminal=model.process.terminal, name="move")
    return replace(model, process=process)


def same_odds(found: MoveOdds, expected: MoveOdds) -> None:
    assert found.units == expected.units
    for unit_id, odds in found.units.items():
        assert all(isinstance(p, Fraction) for p in odds.values())
        assert list(odds.items()) == list(expected.units[unit_id].items())
    assert found.first_hit == expected.first_hit
    assert found.unit_first_hit == expected.unit_first_hit
    assert found.states == expected.states


@pytest.mark.parametrize("policy", ["first_sight", "threshold", "best_shot"])
def test_the_known_kernels_are_the_replayed_ones(tmp_path: Path, policy: str) -> None:
    s = field(tmp_path)
    plan = plan_move(s, "0105", ROW)
    move = build_at_move(plan, policy, ratings={"g": "C", "b": "D"}, armour=("E", "C"))
    model = move.lanes.model
    assert move.at_attacks  # AT fire
    assert move.lanes.lanes  # and lanes are in it
    assert any(a.firer.kind == "sniper" for a in model.attacks) or policy != "first_sight"
    assert len(model.attacks) >= 4
    slow = replayed(model)
    steps = len(plan.steps)
    for found, expected in zip(
        model.process.distributions(model.start, steps),
        slow.process.distributions(slow.start, steps),
        strict=True,
    ):
        assert dict(found) == dict(expected)
    same_odds(
        model_odds(model, policy, move.lanes.options), model_odds(slow, policy, move.lanes.options)
    )


def test_hits_shared_by_firers_and_states_stay_exact(tmp_path: Path) -> None:
    """Several firers on one hex, the stack already hurt by the first: the hit cache is keyed
    by the units' own states, so every firer's allocation is the one its state calls for;
    Assault Movement changes the attacks (6.4) and so their odds."""
    s = field(tmp_path, sniper=False, afv=False)
    for assault in (False, True):
        plan = plan_move(s, "0105", ROW[:2], assault=assault)
        move = build_at_move(plan, "first_sight")
        model = move.lanes.model
        hexes = [a.index for a in model.attacks]
        assert len(hexes) > len(set(hexes))  # firers sharing a hex entered
        slow = replayed(model)
        same_odds(
            model_odds(model, "first_sight", move.lanes.options),
            model_odds(slow, "first_sight", move.lanes.options),
        )


def test_a_sampled_move_draws_from_the_exact_kernels(tmp_path: Path) -> None:
    s = field(tmp_path)
    plan = plan_move(s, "0105", ROW)
    model = build_at_move(plan, "first_sight", ratings={"g": "C", "b": "D"}, armour=("E", "C"))
    process, start = model.lanes.model.process, model.lanes.model.start
    exact_end = process.after(start, len(ROW))
    sampled = process.sampled(start, 2000, seed=3, steps=len(ROW))
    assert sum(sampled.counts.values()) == 2000
    assert set(sampled.counts) <= set(exact_end)


def test_the_lines_to_the_path_judged_together_are_each_line_of_sight(tmp_path: Path) -> None:
    """:func:`opportunities` judges every firer's lines to the path in one march; each attack
    equals the one :func:`attack_at` builds tracing its own line of sight."""
    s = field(tmp_path)
    for path in (ROW, ["0106", "0206", "0306"]):
        plan = plan_move(s, "0105", path)
        expected = {}
        for firer in firers(plan.scenario, plan.side):
            options = [
                o
                for step in plan.steps
                if (
                    o := attack_at(
                        plan.scenario,
                        firer,
                        step.hex,
                        index=step.index,
                        fortification="none",
                        infantry_target=True,
                        ap_target=True,
                    )
                )
                is not None
            ]
            if options:
                expected[firer.id] = options
        found = opportunities(plan)
        assert found == expected
        assert any(len(v) < len(plan.steps) for v in found.values())  # a line blocked
