"""V&V 13.9 MG Fire Lanes and 13.91 Fire Lane Crossfire: the lane's hexes, who it attacks, the
attack's exact odds, and the readings (docs/vv.md, "Fire lanes")."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

import firefight
from firefight.board.board import Board
from firefight.board.hexes import Hex, from_offset
from firefight.chance import exact, scripted
from firefight.errors import FirefightError, RuleError
from firefight.rulesets.vv.lane_attack import VvFireLaneAttack, lane_attack, lane_threat
from firefight.rulesets.vv.lanes import (
    FireLane,
    LaneReadings,
    attacked_by_lanes,
    check_one_lane_per_mg,
    lane_attacks_on_entering,
    lane_hexes,
    lay_lane,
    markers,
    standing_lanes,
)

VV = firefight.ruleset("vv")
LANE = VV.procedure("fire_lane_attack")


def board(terrain: dict[Hex, str] | None = None, columns: int = 10, rows: int = 10) -> Board:
    return Board("test", "vv", columns, rows, terrain=terrain or {}, default_terrain="open")


def left_of_line(firer: Hex, target: Hex, hex_: Hex) -> bool:
    """Whether ``hex_``'s centre is left of the line firer -> target, seen from the firer (y
    grows downwards on the board)."""
    (ax, ay), (bx, by), (hx, hy) = firer.centre(), target.centre(), hex_.centre()
    return (bx - ax) * (hy - ay) - (by - ay) * (hx - ax) < 0


def test_lane_from_a5_to_e3_is_straight_with_one_marker_per_hex_of_range() -> None:
    """13.9 Fire Lane Examples: the lane from A5 to E3 runs straight along the LOS; four hexes
    of range, four markers, the target hex included and the firer's not."""
    firer, target = from_offset(1, 5), from_offset(5, 3)
    lane = lay_lane(board(), firer, target, mg="LMG")
    assert len(lane.hexes) == firer.distance(target) == 4
    assert lane.hexes[-1] == target
    assert firer not in lane.hexes
    assert lane.hexes == tuple(firer.line_to(target)[1:])


@pytest.mark.parametrize("target", [Hex(2, 2), Hex(3, 3), Hex(-2, 4), Hex(4, -2), Hex(-3, -3)])
@pytest.mark.parametrize("first_side", ["left", "right"])
def test_lane_along_hexsides_keeps_the_chosen_side_in_one_pattern(
    target: Hex, first_side: str
) -> None:
    """13.9 Fire Lane Examples: the lane "must maintain the same pattern along its entire
    length ... as determined by the player": along hexsides every marker off the line falls on
    the side chosen, so the lane repeats one step (here on the line, then beside it); each
    marker is adjacent to the one before."""
    firer = Hex(0, 0)
    hexes = lane_hexes(firer, target, first_side=first_side)  # type: ignore[arg-type]
    assert len(hexes) == firer.distance(target)
    assert hexes[-1] == target
    chain = (firer, *hexes)
    assert all(a.distance(b) == 1 for a, b in itertools.pairwise(chain))
    plus, minus = firer.line_to(target, 1e-6), firer.line_to(target, -1e-6)
    ties = [i for i in range(1, len(hexes) + 1) if plus[i] != minus[i]]
    assert len(ties) >= 1
    other = lane_hexes(firer, target, first_side="right" if first_side == "left" else "left")
    assert {hexes[i - 1] for i in ties}.isdisjoint(other[i - 1] for i in ties)  # mirrors
    # one side all along: every hex off the line is on the chosen side of it
    sides = {left_of_line(firer, target, hexes[i - 1]) for i in ties}
    assert sides == {first_side == "left"}
    # one step pattern: the step from each hex to the next repeats every two steps
    steps = [(b.q - a.q, b.r - a.r) for a, b in itertools.pairwise(chain)]
    assert all(steps[i] == steps[i + 2] for i in range(len(steps) - 2))


def test_a_lane_crossing_several_hexsides_is_the_same_pattern_at_each() -> None:
    """13.9: with three hexside points along the LOS (0,0) to (3,3), the markers off the line
    are all on the left (the default): the lane is left, on, left, on, left, on."""
    firer, target = Hex(0, 0), Hex(3, 3)
    left = lane_hexes(firer, target)
    assert left[1::2] == (Hex(1, 1), Hex(2, 2), Hex(3, 3))  # on the line
    assert all(left_of_line(firer, target, h) for h in left[0::2])
    right = lane_hexes(firer, target, first_side="right")
    assert right[1::2] == left[1::2]
    assert not any(left_of_line(firer, target, h) for h in right[0::2])
    assert {(b.q - a.q, b.r - a.r) for a, b in itertools.pairwise(left[0::2])} == {(1, 1)}


def test_left_means_left_of_the_firer_looking_at_the_target() -> None:
    """Up the board (direction 1 then 2 alternately): the left marker is the upper-left one."""
    firer, target = Hex(0, 0), Hex(1, -2)
    assert lane_hexes(firer, target, first_side="left")[0] == Hex(0, -1)
    assert lane_hexes(firer, target, first_side="right")[0] == Hex(1, -1)


def test_only_infantry_mgs_lay_lanes() -> None:
    """13.9: "AFV and vehicle MGs cannot create fire lanes"."""
    with pytest.raises(RuleError, match="only an infantry unit's MG"):
        lay_lane(board(), Hex(0, 0), Hex(0, 3), mg="hull MG", firer_kind="armoured_vehicle")


def test_lane_needs_line_of_sight_and_range() -> None:
    """The lane follows the original LOS of an opportunity fire attack within the MG's range."""
    blocked = board({from_offset(1, 3): "woods"})
    with pytest.raises(RuleError, match="no line of sight"):
        lay_lane(blocked, from_offset(1, 2), from_offset(1, 4), mg="LMG")
    with pytest.raises(RuleError, match="beyond its range 3"):
        lay_lane(board(), Hex(0, 0), Hex(0, 4), mg="LMG", mg_range=3)


def test_lane_stops_at_the_target_by_default_and_runs_to_mg_range_by_the_other_reading() -> None:
    """13.9: 'The number of Fire Lane markers used is equal to the original range'; the
    to_mg_range reading runs on along the same line, stopping where the LOS ends."""
    firer, target = from_offset(2, 1), from_offset(2, 3)
    assert len(lay_lane(board(), firer, target, mg="LMG", mg_range=6).hexes) == 2
    longer = lay_lane(
        board(), firer, target, mg="LMG", mg_range=6, readings=LaneReadings(length="to_mg_range")
    )
    assert list(longer.hexes) == firer.line_to(from_offset(2, 7))[1:]
    cut = board({from_offset(2, 5): "woods"})
    short = lay_lane(
        cut, firer, target, mg="LMG", mg_range=6, readings=LaneReadings(length="to_mg_range")
    )
    assert short.hexes == tuple(firer.line_to(from_offset(2, 5))[1:])  # into woods, not beyond


def test_crossfire_counts_one_marker_per_mg_and_same_path_lanes_double() -> None:
    """13.91: one marker per MG; two MGs from one hex along the same path put two markers in
    every hex of the lane."""
    a = FireLane("MG1", Hex(0, 0), Hex(0, 3), lane_hexes(Hex(0, 0), Hex(0, 3)))
    b = FireLane("MG2", Hex(0, 0), Hex(0, 3), lane_hexes(Hex(0, 0), Hex(0, 3)))
    c = FireLane("MG3", Hex(-2, 2), Hex(2, 2), lane_hexes(Hex(-2, 2), Hex(2, 2)))
    count = markers([a, b, c])
    assert count[Hex(0, 1)] == 2
    assert count[Hex(0, 2)] == 3  # the crossing
    assert count[Hex(1, 2)] == 1


def test_each_mg_lays_one_lane() -> None:
    """13.9 Fire Lane Examples: "Each machine gun may only create a single fire lane"."""
    lane = FireLane("MG1", Hex(0, 0), Hex(0, 3), lane_hexes(Hex(0, 0), Hex(0, 3)))
    with pytest.raises(RuleError, match="one per MG"):
        check_one_lane_per_mg([lane, lane])


def test_only_units_entering_a_lane_hex_are_attacked() -> None:
    """13.9: units already occupying a lane hex when it is laid are not affected; one attack per
    lane hex entered, with its marker count."""
    lane = FireLane("MG1", Hex(0, 0), Hex(0, 3), lane_hexes(Hex(0, 0), Hex(0, 3)))
    path = [Hex(0, 2), Hex(1, 1), Hex(0, 1), Hex(-1, 1)]
    assert lane_attacks_on_entering(path, [lane]) == [(Hex(0, 1), 1)]


def test_infantry_guns_and_unarmoured_vehicles_are_attacked_afvs_are_not() -> None:
    """13.9: "Infantry, Gun, or unarmored vehicle units that enter a fire lane hex"."""
    assert all(attacked_by_lanes(k) for k in ("squad", "half_squad", "leader", "gun"))
    assert attacked_by_lanes("unarmoured_vehicle")
    assert not attacked_by_lanes("armoured_vehicle")


def test_lane_attack_is_the_1_4_row_with_no_modifiers() -> None:
    """13.9: 1-4 row, no combat or cover modifiers: 2 -> 5 CPs ... 6 -> 1 CP, 7+ no effect."""
    odds = LANE.odds(LANE.parse({}))
    assert odds["5"] == Fraction(1, 36)
    assert odds["1"] == Fraction(5, 36)
    assert odds["-"] == Fraction(21, 36)
    assert sum(odds.values()) == 1
    assert LANE.modifiers(LANE.parse({})) == []


def test_crossfire_example_two_markers_attack_on_the_1_4_row_at_minus_one() -> None:
    """13.91's example: two lanes cross, two markers: the 1-4 row and -1 (a 7 reads as 6)."""
    inp = VvFireLaneAttack(markers=2)
    assert [(m.rule, int(m.value)) for m in LANE.modifiers(inp)] == [("13.91", -1)]
    assert scripted(lambda c: lane_attack(inp, c), [3, 4]).outcome == "1"
    odds = LANE.odds(inp)
    assert odds["-"] == Fraction(15, 36)
    three = LANE.odds(VvFireLaneAttack(markers=3))
    assert three["5"] == Fraction(6, 36)  # 2, 3 or 4 -2 reads as 2 or less


def test_lane_rolls_call_no_valor_or_sniper_by_default() -> None:
    """Reading 'naturals': none by default (the hex attacks, 13.91); valor_and_sniper notes a
    natural 2 (16.2) and 12 (17.2) as the MG unit's roll."""
    plain = scripted(lambda c: lane_attack(VvFireLaneAttack(), c), [1, 1])
    assert not any("16.2" in e.label for e in plain.trace)
    both = scripted(lambda c: lane_attack(VvFireLaneAttack(naturals="valor_and_sniper"), c), [1, 1])
    assert any("16.2" in e.label for e in both.trace)
    sniper = scripted(
        lambda c: lane_attack(VvFireLaneAttack(naturals="valor_and_sniper"), c), [6, 6]
    )
    assert any("17.2" in e.label for e in sniper.trace)
    facts = dict(LANE.facts(VvFireLaneAttack(naturals="valor_and_sniper")))
    assert facts["natural 2: valor checks (16.2)"] == "1/36"


def test_lane_outlives_its_mg_pinned_by_default() -> None:
    """Reading 'after_mg_pinned': stays (13.9 names one removal, the end of the Move Phase);
    removed takes the pinned MG's lane off."""
    a = FireLane("MG1", Hex(0, 0), Hex(0, 3), lane_hexes(Hex(0, 0), Hex(0, 3)))
    b = FireLane("MG2", Hex(1, 0), Hex(1, 3), lane_hexes(Hex(1, 0), Hex(1, 3)))
    assert standing_lanes([a, b], ["MG1"]) == (a, b)
    assert standing_lanes([a, b], ["MG1"], LaneReadings(after_mg_pinned="removed")) == (b,)


def test_lane_attack_refuses_zero_markers_in_one_line() -> None:
    with pytest.raises(FirefightError) as error:
        LANE.parse({"markers": 0})
    assert "'markers'" in str(error.value)
    assert "\n" not in str(error.value)


def test_lane_odds_come_from_the_rolled_rule() -> None:
    """The odds are the same function that resolves a roll, evaluated exactly."""
    inp = VvFireLaneAttack(markers=2)
    assert exact(lambda c: lane_attack(inp, c)) == LANE.odds(inp)


def test_a_staggered_lane_at_the_board_edge_starts_on_the_side_that_is_on_the_board() -> None:
    """13.9 'a consistent pattern, if possible': along the top edge the left-first pattern
    would leave the board; the lane starts on the other side instead, all of it on the board."""
    edge = board(columns=8, rows=8)
    firer, target = from_offset(2, 1), from_offset(4, 1)
    assert any(h not in edge for h in lane_hexes(firer, target, first_side="left"))
    for side in ("left", "right"):
        lane = lay_lane(edge, firer, target, mg="MG", readings=LaneReadings(first_side=side))
        assert all(h in edge for h in lane.hexes)
        assert len(lane.hexes) == firer.distance(target)


def test_lane_threat_gives_each_lane_hex_its_mgs_markers_and_hit_chance() -> None:
    """For the threat map: one marker 5/12 of a CP or more, two crossing 7/12 (13.91)."""
    a = FireLane("MG1", Hex(0, 0), Hex(0, 3), lane_hexes(Hex(0, 0), Hex(0, 3)))
    b = FireLane("MG2", Hex(-2, 2), Hex(2, 2), lane_hexes(Hex(-2, 2), Hex(2, 2)))
    threat = lane_threat([a, b])
    assert threat[Hex(0, 1)].hit == Fraction(5, 12)
    assert threat[Hex(0, 2)].markers == 2
    assert threat[Hex(0, 2)].mgs == ("MG1", "MG2")
    assert threat[Hex(0, 2)].hit == Fraction(7, 12)
    assert threat[Hex(0, 2)].to_json()["fraction"] == "7/12"


def test_every_lane_is_a_chain_of_adjacent_hexes_of_the_range_ending_at_the_target() -> None:
    """13.9 'each Fire Lane marker placed one after another in adjacent hexes, or adjacent
    alternating hexes': for every target within 8 hexes, both first sides, and run on to 10
    hexes (to_mg_range), the markers are a chain from the firer's neighbour, one per hex of
    range, the target among them at its range."""
    firer = Hex(0, 0)
    for radius in range(1, 9):
        for target in firer.ring(radius):
            for side in ("left", "right"):
                for markers_wanted in (None, 10):
                    chain = (
                        firer,
                        *lane_hexes(firer, target, first_side=side, markers=markers_wanted),
                    )  # type: ignore[arg-type]
                    assert all(a.distance(b) == 1 for a, b in itertools.pairwise(chain))
                    assert chain[radius] == target
                    assert len(chain) - 1 == (markers_wanted or radius)
                    assert all(h.distance(firer) == i for i, h in enumerate(chain))
