"""Hindrances are cumulative (V&V 9.3, 13.4): whatever sum a line of sight adds up on a valid
board stands in the attack, and no threat map, move or attack raises on it."""

from __future__ import annotations

import random

import pytest

from firefight.board.board import Board
from firefight.board.hexes import Hex
from firefight.board.los import line_of_sight
from firefight.rulesets.vv.ap import AP_ATTACK, VvApAttack, with_board
from firefight.rulesets.vv.at import VvAtAttack
from firefight.rulesets.vv.board import VV_LOS
from firefight.rulesets.vv.scenario import (
    BoardScenario as Scenario,
)
from firefight.rulesets.vv.scenario import (
    ScenarioUnit,
    SupportWeapon,
    prohibited,
)
from firefight.rulesets.vv.threat import threat_map, visible_from_hexes

KINDS = ("open",) * 3 + ("orchard",) * 3 + ("crops", "crops", "field", "woods", "road")
MG42 = SupportWeapon("MG42", "L", "mg", 4, 8)


def orchard_column(rows: int = 16) -> Board:
    """One column of orchards: a line down it passes every one (+1 each, 9.3)."""
    terrain = {Hex(1, row): "orchard" for row in range(2, rows + 1)}
    return Board("orchards", "vv", 2, rows, "odd-q", "open", terrain)


def test_a_line_down_a_column_of_orchards_sums_past_ten_and_the_sum_stands() -> None:
    board = orchard_column()
    firer, target = Hex(1, 1), Hex(1, 16)
    verdict = line_of_sight(board, firer, target, VV_LOS)
    assert verdict.visible
    assert verdict.modifier == 15
    attack = with_board(VvApAttack(apfp=12, leadership_modifier=-3), board, firer, target)
    assert attack.hindrance == 15
    assert "hindrances (15)" in [m.label for m in AP_ATTACK.modifiers(attack)]
    # 2 + 15 - 3 = 14 at least: the 12+ column always, whatever the dice show
    assert AP_ATTACK.odds(attack) == AP_ATTACK.odds(attack.model_copy(update={"hindrance": 20}))


def test_a_threat_map_along_the_orchards_keeps_the_sum() -> None:
    board = orchard_column()
    units = (
        ScenarioUnit("de-sq", "de", "squad", Hex(1, 1), 5, None, 20, 4, 2, 2),
        ScenarioUnit("us-sq", "us", "squad", Hex(2, 16), 4, None, 6, 4, 2, 2),
    )
    scenario = Scenario("orchards", board, {"us": "Americans", "de": "Germans"}, units)
    found = threat_map(scenario, "us")
    (shot,) = found.hexes[Hex(1, 16)].firers
    assert shot.attack.hindrance == 15


def test_an_at_attack_takes_the_whole_sum_too() -> None:
    attack = VvAtAttack.model_validate({"atfp": "A", "front_armour": "A", "hindrance": 15})
    assert attack.hindrance == 15


def countryside(rng: random.Random, columns: int = 15, rows: int = 10) -> Board:
    """A dense random board as the threat benchmark builds them: hindrance hexes, blocking
    hexes, hills, hedges, walls and hedgerows."""
    shell = Board("shell", "vv", columns, rows, "odd-q", "open")
    hexes = list(shell.hexes())
    terrain = {h: rng.choice(KINDS) for h in hexes}
    elevation = {h: rng.choice((0,) * 6 + (1, 2)) for h in hexes}
    sides: dict[tuple[Hex, Hex], str] = {}
    for h in hexes:
        for n in h.neighbours():
            if n in terrain and rng.random() < 0.3:
                side = (h, n) if (h.q, h.r) < (n.q, n.r) else (n, h)
                sides[side] = rng.choice(("hedge",) * 4 + ("wall",) * 3 + ("hedgerow",))
    return Board("random", "vv", columns, rows, "odd-q", "open", terrain, elevation, sides)


def scenario_on(board: Board, rng: random.Random, groups: int = 20) -> Scenario:
    """:data:`groups` German firing hexes (a squad with an MG42, or an MG team) and four
    American squads, placed at random on hexes they may hold."""
    open_hexes = [h for h in board.hexes() if not prohibited("squad", board.terrain_of(h))]
    picks = rng.sample(open_hexes, min(len(open_hexes), groups + 4))
    units: list[ScenarioUnit] = []
    for index, hex_ in enumerate(picks[:-4]):
        if index % 2:
            units.append(ScenarioUnit(f"de-mg{index}", "de", "mg_team", hex_, 5, None, 8, 3))
        else:
            weapons = (MG42,)
            units.append(
                ScenarioUnit(f"de-sq{index}", "de", "squad", hex_, 5, None, 5, 4, 2, 2, weapons)
            )
    for index, hex_ in enumerate(picks[-4:]):
        units.append(ScenarioUnit(f"us-sq{index}", "us", "squad", hex_, 4, None, 6, 4, 2, 2))
    return Scenario("random", board, {"us": "Americans", "de": "Germans"}, tuple(units))


SEEDS = range(12)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_dense_boards_never_raise_and_every_hindrance_is_the_lines_sum(seed: int) -> None:
    rng = random.Random(seed)
    board = countryside(rng)
    scenario = scenario_on(board, rng)
    found = threat_map(scenario, "us")  # no exception, whatever the lines add up to
    seen = visible_from_hexes(board, sorted({u.hex for u in scenario.units if u.side == "de"}))
    for hex_, threat in found.hexes.items():
        for shot in threat.firers:
            assert shot.attack.hindrance == seen[shot.group.hex][hex_]
    firer = scenario.units[0].hex
    for target, hindrance in seen[firer].items():
        if target != firer:
            attack = with_board(VvApAttack(apfp=8), board, firer, target)
            assert attack.hindrance == hindrance


def test_the_random_boards_hold_lines_that_sum_past_ten_within_an_mgs_range() -> None:
    """The boards above are the ones that matter: on most, a German hex sees a hex within its
    MG42's range (8) along a line that adds up past 10."""
    past_ten = 0
    for seed in SEEDS:
        rng = random.Random(seed)
        board = countryside(rng)
        scenario = scenario_on(board, rng)
        firers = sorted({u.hex for u in scenario.units if u.side == "de"})
        seen = visible_from_hexes(board, firers)
        lines = [h for o in firers for x, h in seen[o].items() if o.distance(x) <= MG42.range]
        past_ten += max(lines) > 10
    assert past_ten > len(SEEDS) // 2
