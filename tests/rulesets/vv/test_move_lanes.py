"""Fire lanes in a move (13.9, 13.91): an infantry MG firing on opportunity lays its lane, and
the moving units that then enter its hexes are attacked on the 1-4 row; lanes in the JSON and
the trace."""

from __future__ import annotations

from fractions import Fraction

from firefight.board.board import Board
from firefight.board.hexes import from_offset
from firefight.rulesets.vv.lanes import FireLane, LaneReadings, lane_hexes
from firefight.rulesets.vv.lanes_move import LaneMove, build_lane_move
from firefight.rulesets.vv.move_results import model_odds, model_run
from firefight.rulesets.vv.movement import plan_move
from firefight.rulesets.vv.scenario import BoardScenario as Scenario
from firefight.rulesets.vv.scenario import ScenarioUnit, SupportWeapon

MG42 = SupportWeapon("MG42", "L", "mg", 4, 8)


class Answer:
    """A move's odds or run with its lanes: ``to_json`` is what ``move --json`` prints."""

    def __init__(self, answer, move: LaneMove) -> None:
        self.answer = answer
        self.move = move
        self.units = getattr(answer, "units", None)

    def to_json(self) -> dict[str, object]:
        return self.move.with_lanes(self.answer.to_json())


def move_odds(plan, policy, **options) -> Answer:
    move = build_lane_move(plan, policy, **options)
    return Answer(model_odds(move.model, policy, move.options), move)


def resolve_move(plan, policy, *, seed=None, roll=None, **options) -> Answer:
    move = build_lane_move(plan, policy, **options)
    return Answer(model_run(move.model, seed=seed, roll=roll), move)


def scenario(*, mg_team: bool = False) -> Scenario:
    board = Board("open", "vv", 8, 8, default_terrain="open")
    germans = [
        ScenarioUnit(
            "de-sq",
            "de",
            "squad",
            from_offset(3, 1),
            apfp=1,
            range=1,
            casualty_rating=4,
            half_squad_rating=2,
            support_weapons=(MG42,),
        )
    ]
    if mg_team:
        germans.append(
            ScenarioUnit(
                "de-mg", "de", "mg_team", from_offset(3, 1), apfp=4, range=8, casualty_rating=2
            )
        )
    us = ScenarioUnit(
        "us-sq",
        "us",
        "squad",
        from_offset(5, 5),
        apfp=4,
        range=6,
        casualty_rating=4,
        half_squad_rating=2,
    )
    return Scenario("lanes", board, {"us": "Americans", "de": "Germans"}, (*germans, us))


PATH = ["0405", "0305", "0304", "0303"]
FIRE = {"de-sq": "0305"}


def unhurt(odds, where: str = "0303") -> Fraction:
    return odds.units["us-sq"][("unhurt", where)]


def test_an_mg_firing_on_opportunity_lays_its_lane_and_the_stack_entering_it_is_attacked() -> None:
    """13.9: the lane 0302-0305 is laid when the MG fires at 0305; the squad was there when it
    was laid (no attack), then enters 0304 and 0303, each a 1-4 row attack (no effect 7/12)."""
    plan = plan_move(scenario(), "0505", PATH)
    with_lanes = move_odds(plan, "player", player=FIRE)
    without = move_odds(plan, "player", player=FIRE, lanes="never")
    assert unhurt(with_lanes) == unhurt(without) * Fraction(7, 12) ** 2
    data = with_lanes.to_json()
    assert data["lanes"] == [
        {
            "mg": "de-sq MG42",
            "from": "0301",
            "to": "0305",
            "hexes": ["0302", "0303", "0304", "0305"],
            "laid_at": 2,
        }
    ]
    assert [h["lane_markers"] for h in data["hexes"]] == [0, 0, 1, 1]
    assert without.to_json()["lanes"] == []


def test_two_mgs_of_one_hex_along_one_path_are_a_crossfire() -> None:
    """13.91: two MGs from one hex along the same path: two markers per hex, -1 (no effect on
    the 1-4 row at -1: 15/36)."""
    plan = plan_move(scenario(mg_team=True), "0505", PATH)
    with_lanes = move_odds(plan, "player", player=FIRE)
    without = move_odds(plan, "player", player=FIRE, lanes="never")
    assert unhurt(with_lanes) == unhurt(without) * Fraction(15, 36) ** 2
    assert [h["lane_markers"] for h in with_lanes.to_json()["hexes"]] == [0, 0, 2, 2]


def test_a_standing_lane_attacks_on_entry_and_shows_in_the_json_and_the_trace() -> None:
    """A lane laid earlier in the Movement Phase (0301-0304) attacks the units entering its
    hexes: 0405 is not in it, 0304 is (1-4 row: pinned on a 6); the seeded trace names the lane
    roll and the JSON the lane, laid_at 0 (before the move)."""
    firer, target = from_offset(3, 1), from_offset(3, 4)
    lane = FireLane("de-sq MG42", firer, target, lane_hexes(firer, target))
    plan = plan_move(scenario(), "0505", ["0405", "0304"])
    odds = move_odds(plan, "player", player={}, standing=(lane,))
    assert odds.units["us-sq"][("unhurt", "0304")] == Fraction(7, 12)
    assert odds.to_json()["lanes"][0]["laid_at"] == 0
    run = resolve_move(plan, "player", player={}, standing=(lane,), roll=["5+1"]).to_json()
    assert run["outcome"]["us-sq"] == {"state": "pinned", "hex": "0304"}
    labels = [event["label"] for step in run["steps"] for event in step["trace"]]
    assert labels[:2] == ["13.9 fire lane", "fire lane attack dice roll (2d6)"]
    assert run["lanes"][0]["hexes"] == ["0302", "0303", "0304"]


def test_lane_readings_reach_the_move() -> None:
    """The first_side reading is the move's too (a straight lane does not change)."""
    plan = plan_move(scenario(), "0505", PATH)
    left = move_odds(plan, "player", player=FIRE, lane_readings=LaneReadings(first_side="left"))
    right = move_odds(plan, "player", player=FIRE, lane_readings=LaneReadings(first_side="right"))
    assert left.to_json()["lanes"] == right.to_json()["lanes"]


def test_the_mg_that_laid_a_standing_lane_neither_fires_nor_lays_another() -> None:
    """13.8: an MG that laid a lane earlier in the Movement Phase carries a Fire marker: with
    the squad's lane standing, the squad has no shot on the path and lays no second lane, and
    the MG team of its hex still fires and lays its own (13.9: one lane per MG)."""
    firer, target = from_offset(3, 1), from_offset(3, 4)
    lane = FireLane("de-sq MG42", firer, target, lane_hexes(firer, target), unit="de-sq")
    plan = plan_move(scenario(mg_team=True), "0505", PATH)
    fresh = build_lane_move(plan, "first_sight")
    assert "de-sq+de-mg" in fresh.options
    move = build_lane_move(plan, "first_sight", standing=(lane,))
    assert list(move.options) == ["de-mg"]
    assert [laid.lane.mg for laid in move.lanes] == ["de-sq MG42", "de-mg"]
    assert not plan.scenario.unit("de-sq").fired  # the plan given is not changed


def test_the_lane_attacks_are_data_in_the_odds_json() -> None:
    """move --json: each lane attack the path may meet, its hex, MGs, markers, the 1-4 row, the
    crossfire modifier (13.91: two markers, -1) and the exact odds of its CPs."""
    plan = plan_move(scenario(mg_team=True), "0505", PATH)
    data = move_odds(plan, "player", player=FIRE).to_json()
    rows = data["lane_attacks"]
    assert [(r["index"], r["hex"]) for r in rows] == [(3, "0304"), (4, "0303")]
    first = rows[0]
    assert first["mgs"] == ["de-sq MG42", "de-mg"]
    assert (first["markers"], first["row"], first["dice_modifier"]) == (2, "1-4", -1)
    assert first["cps"]["-"] == "5/12"
    assert sum(Fraction(p) for p in first["cps"].values()) == 1


def test_a_runs_lane_attacks_are_data_with_their_roll_and_result() -> None:
    """A run's JSON names each lane attack it made: the units attacked, the roll, the modified
    roll and the result on the 1-4 row (a 6: 1 CP)."""
    firer, target = from_offset(3, 1), from_offset(3, 4)
    lane = FireLane("de-sq MG42", firer, target, lane_hexes(firer, target))
    plan = plan_move(scenario(), "0505", ["0405", "0304"])
    move = build_lane_move(plan, "player", player={}, standing=(lane,))
    run = model_run(move.model, roll=["5+1"])
    data = move.with_run_attacks(move.with_lanes(run.to_json()), run)
    assert data["lane_attacks"] == [
        {
            "index": 2,
            "hex": "0304",
            "mgs": ["de-sq MG42"],
            "markers": 1,
            "row": "1-4",
            "dice_modifier": 0,
            "units": ["us-sq"],
            "roll": 6,
            "dice": [5, 1],
            "modified_roll": 6,
            "result": "1",
        }
    ]
    quiet = model_run(move.model, roll=["6+6"])
    assert move.with_run_attacks({}, quiet)["lane_attacks"][0]["result"] == "-"
