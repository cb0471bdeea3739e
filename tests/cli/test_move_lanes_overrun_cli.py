"""``firefight move`` with fire lanes (13.9, 13.91) and ``--overrun`` (19): the options, the
JSON shapes, the trace, the picture and one-line errors."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from tests.helpers import run_cli as run

MOVE = ["move", "village", "--stack", "0206", "--path", "0306,0406,0506,0606"]

TANK = """
name = "Overrun test"
board = "vv_village"
[sides.us]
name = "Americans"
[sides.de]
name = "Germans"
[[units]]
id = "us-tank"
side = "us"
type = "afv"
hex = "0212"
apfp = 19
movement_points = 10
casualty_rating = 4
facing = 1
[[units]]
id = "de-sq"
side = "de"
type = "squad"
hex = "0210"
apfp = 5
range = 5
casualty_rating = 5
half_squad_rating = 3
support_weapons = [{ name = "Panzerschreck", class = "L", kind = "anti_tank", apfp = 0, range = 3 }]
"""


def tank(tmp_path: Path) -> list[str]:
    path = tmp_path / "tank.toml"
    path.write_text(TANK, encoding="utf-8")
    return ["move", str(path), "--stack", "0212", "--path", "0211,0210", "--overrun"]


def test_move_lays_fire_lanes_and_shows_them(capsys):
    """The MG42 at 0605 fires at 0306 and lays its lane; the stack enters 0406, a lane hex."""
    code, out, _ = run(capsys, *MOVE)
    assert code == 0
    assert "Fire lane de-sq1 MG42 from 0605: 0505 0406 0306 (laid at hex 1; 13.9)" in out
    code, out, _ = run(capsys, *MOVE, "--json")
    data = json.loads(out)
    assert data["lanes"][0]["hexes"] == ["0505", "0406", "0306"]
    assert [h["lane_markers"] for h in data["hexes"]] == [0, 1, 0, 0]


def test_lanes_never_and_standing_lanes(capsys):
    code, out, _ = run(capsys, *MOVE, "--lanes", "never", "--json")
    assert code == 0
    assert json.loads(out)["lanes"] == []
    code, out, _ = run(capsys, *MOVE, "--lanes", "never", "--standing-lanes", "0605-0506", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["lanes"] == [
        {
            "mg": "standing lane 1",
            "from": "0605",
            "to": "0506",
            "hexes": ["0606", "0506"],
            "laid_at": 0,
        }
    ]
    assert [h["lane_markers"] for h in data["hexes"]] == [0, 0, 1, 1]


def test_standing_lanes_need_one_mg_each_in_their_hex(capsys):
    """13.9: one lane per MG, and only an MG of the side not moving lays one: exit 2, one line
    naming the option, what it allows and the value given."""
    for lanes, allowed in (
        ("0605-0305,0605-0405", "at most 1 lane(s) from 0605, one per MG there"),
        ("0406-0506", "FROM-TO lanes from a hex holding an MG of the side not moving"),
        ("0206-0306", "FROM-TO lanes from a hex holding an MG of the side not moving"),
    ):
        code, _, err = run(capsys, *MOVE, "--standing-lanes", lanes)
        assert code == 2
        assert f"'--standing-lanes' must be {allowed}" in err
        assert f"(got '{lanes}')" in err
        assert len(err.strip().splitlines()) == 1


def test_the_mg_of_a_standing_lane_has_fired(capsys):
    """13.8: the MG42 of 0605 laid a lane earlier in the Movement Phase: it has a Fire marker,
    so it neither fires on the stack (its squad is in no fire plan) nor lays a second lane."""
    code, out, _ = run(capsys, *MOVE, "--json")
    before = json.loads(out)
    assert "de-sq1 MG42" in [lane["mg"] for lane in before["lanes"]]
    code, out, _ = run(capsys, *MOVE, "--standing-lanes", "0605-0305", "--json")
    assert code == 0
    data = json.loads(out)
    mgs = [lane["mg"] for lane in data["lanes"]]
    assert mgs[0] == "standing lane 1"
    assert "de-sq1 MG42" not in mgs
    firers = [a["firer"] for a in data["fire_plan"]] + [
        f for h in data["hexes"] for f in h["may_fire"]
    ]
    assert not any("de-sq1" in f for f in firers)


def test_a_seeded_move_traces_its_lane_rolls_and_replays(capsys):
    code, out, _ = run(capsys, *MOVE, "--standing-lanes", "0605-0306", "--seed", "1", "--json")
    assert code == 0
    seeded = json.loads(out)
    labels = [e["label"] for step in seeded["steps"] for e in step["trace"]]
    assert "13.9 fire lane" in labels
    code, out, _ = run(
        capsys,
        *MOVE,
        "--standing-lanes",
        "0605-0306",
        "--roll",
        ",".join(seeded["replay"]),
        "--json",
    )
    assert json.loads(out)["outcome"] == seeded["outcome"]


def test_move_json_gives_each_lane_attack_as_data(capsys):
    """The lane attacks in move --json: the odds' rows (row, markers, crossfire, the CPs'
    odds) and a seeded run's (the roll and result, the same roll its trace names)."""
    code, out, _ = run(capsys, *MOVE, "--json")
    (row,) = json.loads(out)["lane_attacks"]
    assert {k: row[k] for k in ("hex", "mgs", "markers", "row", "dice_modifier")} == {
        "hex": "0406",
        "mgs": ["de-sq1 MG42"],
        "markers": 1,
        "row": "1-4",
        "dice_modifier": 0,
    }
    assert row["cps"]["-"] == "7/12"
    code, out, _ = run(capsys, *MOVE, "--seed", "2", "--json")
    assert code == 0
    seeded = json.loads(out)
    (made,) = seeded["lane_attacks"]
    rolls = [
        e["value"]
        for step in seeded["steps"]
        for e in step["trace"]
        if e["label"] == "fire lane attack dice roll (2d6)"
    ]
    assert rolls == [made["roll"]]
    assert made["modified_roll"] == made["roll"] + made["dice_modifier"]
    assert made["units"]
    assert made["result"] in {"-", "1", "2", "3", "4", "5"}


def test_lane_options_refuse_bad_values_in_one_line(capsys):
    for args, field in (
        (["--lanes", "sometimes"], "--lanes"),
        (["--lane-side", "up"], "--lane-side"),
        (["--lane-length", "far"], "--lane-length"),
        (["--standing-lanes", "0406"], "--standing-lanes"),
        (["--armour", "E,C"], "--armour"),
    ):
        code, _, err = run(capsys, *MOVE, *args)
        assert code == 2, args
        assert f"'{field}'" in err
        assert len(err.strip().splitlines()) == 1


def test_overrun_odds_json_and_table(capsys, tmp_path):
    code, out, _ = run(capsys, *tank(tmp_path), "--armour", "E,C", "--at", "de-sq=D", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["overrun"]["exit"] == "0209"
    assert data["overrun"]["movement_points"] == 6  # 0211 is uphill (10.7): 2+1+2+1
    assert data["overrun"]["attack"]["apfp"] == 38
    assert data["overrun"]["final_fire"] == ["de-sq"]
    assert sum(Fraction(o["fraction"]) for o in data["outcomes"]) == 1
    assert sum(Fraction(o["fraction"]) for o in data["afv"]) == 1
    code, out, _ = run(capsys, *tank(tmp_path), "--armour", "E,C", "--at", "de-sq=D")
    assert code == 0
    assert "APFP 38 (29-40)" in out
    assert "final" in out


def test_overrun_seeded_run_replays_and_draws(capsys, tmp_path):
    picture = tmp_path / "overrun.svg"
    args = [*tank(tmp_path), "--armour", "E,C", "--at", "de-sq=D"]
    code, out, _ = run(capsys, *args, "--seed", "5", "--json", "--out", str(picture))
    assert code == 0
    assert picture.exists()
    seeded = json.loads(out)
    assert any(e["label"] == "19.4 overrun" for e in seeded["trace"])
    code, out, _ = run(capsys, *args, "--roll", ",".join(seeded["replay"]), "--json")
    assert json.loads(out)["outcome"] == seeded["outcome"]


def test_overrun_needs_armour_in_one_line(capsys, tmp_path):
    code, _, err = run(capsys, *tank(tmp_path))
    assert code == 2
    assert "'--armour'" in err


GUN = """
[[units]]
id = "de-gun"
side = "de"
type = "gun"
hex = "0208"
apfp = 3
casualty_rating = 3
facing = 4
"""


def tank_move(tmp_path: Path) -> list[str]:
    """The tank moves north up column 2 (no overrun) towards the Panzerschreck and a gun."""
    path = tmp_path / "tank_move.toml"
    path.write_text(TANK.replace('hex = "0210"', 'hex = "0309"') + GUN, encoding="utf-8")
    return ["move", str(path), "--stack", "0212", "--path", "0211,0210"]


def test_move_fires_at_at_a_moving_afv_json_table_and_trace(capsys, tmp_path):
    """13.8, 18: with --at and --armour, the AFV moving (no overrun) meets AT fire."""
    args = [*tank_move(tmp_path), "--armour", "E,C", "--at", "de-sq=D,de-gun=C"]
    code, out, _ = run(capsys, *args, "--policy", "first_sight", "--json")
    assert code == 0
    data = json.loads(out)
    assert {a["firer"] for a in data["at_fire_plan"]} == {"de-sq", "de-gun"}
    assert data["at_fire_plan"][0]["target"] == "us-tank"
    assert data["hexes"][0]["at_attacks"]
    fates = {o["state"] for o in data["outcomes"]["us-tank"]}
    assert {"eliminated", "immobilized", "unhurt"} <= fates
    assert sum(Fraction(o["fraction"]) for o in data["outcomes"]["us-tank"]) == 1
    code, out, _ = run(capsys, *args)
    assert code == 0
    assert "AT opportunity fire at the vehicles" in out
    code, out, _ = run(capsys, *args, "--seed", "2", "--json")
    seeded = json.loads(out)
    labels = [e["label"] for step in seeded["steps"] for e in step["trace"]]
    assert "13.8 AT opportunity fire" in labels
    code, out, _ = run(capsys, *args, "--roll", ",".join(seeded["replay"]), "--json")
    assert json.loads(out)["outcome"] == seeded["outcome"]


def test_at_fire_in_a_move_refuses_bad_values_in_one_line(capsys, tmp_path):
    for extra, field in (
        (["--at", "de-gun=C"], "--armour"),
        (["--at", "de-gun=Q", "--armour", "E,C"], "--at.de-gun"),
        (["--at", "de-gun=C", "--armour", "E,C", "--at-threshold", "2"], "--at-threshold"),
        (["--at", "nobody=C", "--armour", "E,C"], "unit"),
    ):
        code, _, err = run(capsys, *tank_move(tmp_path), *extra)
        assert code == 2, extra
        assert f"'{field}'" in err, err
        assert len(err.strip().splitlines()) == 1


def test_threat_at_maps_the_vehicles_json_table_and_picture(capsys, tmp_path):
    """firefight threat --at: the AT threat map of a side's AFV (13.8, 18)."""
    args = ["threat", "armour", "--side", "us", "--stack", "0212"]
    picture = tmp_path / "at.svg"
    extra = ["--at", "de-schreck=D,de-pak=E", "--armour", "E,C"]
    code, out, _ = run(capsys, *args, *extra, "--json", "--out", str(picture))
    assert code == 0
    assert picture.exists()
    data = json.loads(out)
    assert (data["vehicle"], data["heading"], data["armour"]) == ("afv", 1, ["E", "C"])
    assert {f["unit"] for f in data["hexes"]["0209"]["firers"]} == {"de-schreck", "de-pak"}
    assert "0212" not in data["hexes"]
    code, out, _ = run(capsys, *args, *extra)
    assert "Hexes under AT fire" in out
    code, _, err = run(capsys, "threat", "armour", "--side", "us", "--armour", "E,C")
    assert code == 2
    assert "'--armour'" in err
    assert len(err.strip().splitlines()) == 1


def test_lane_length_to_mg_range_runs_the_lane_on_to_the_board_edge(capsys):
    """The to_mg_range reading: the MG42 (range 8) lane from 0605 through 0306 runs on to the
    board's edge (0107), five hexes; the default stops at 0306."""
    code, out, _ = run(capsys, *MOVE, "--lane-length", "to_mg_range", "--json")
    assert code == 0
    lane = json.loads(out)["lanes"][0]
    assert lane["hexes"] == ["0505", "0406", "0306", "0207", "0107"]


def test_move_takes_armour_per_afv(capsys, tmp_path):
    args = [*tank_move(tmp_path), "--at", "de-gun=C", "--policy", "first_sight", "--json"]
    code, out, _ = run(capsys, *args, "--armour", "us-tank=E/C")
    assert code == 0
    assert json.loads(out)["at_fire_plan"][0]["target"] == "us-tank"
    code, _, err = run(capsys, *args, "--armour", "de-gun=E/C")
    assert code == 2
    assert "'--armour'" in err
