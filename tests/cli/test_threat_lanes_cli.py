"""``firefight threat`` with standing fire lanes (13.9, 13.91) and the ``--lane-after-mg-pinned``
reading on ``threat`` and ``move``: the table, the JSON, the picture, one-line errors."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from firefight.board.overlay import LANE_COLOUR
from firefight.rulesets.vv.scenario import sample_board_scenarios as sample_scenarios
from tests.helpers import run_cli as run
from tests.helpers import shown

THREAT = ["threat", "village", "--side", "us"]
MOVE = ["move", "village", "--stack", "0206", "--path", "0306,0406,0506,0606"]


def _pinned_mg_scenario(tmp_path: Path) -> str:
    """The sample with the German squad carrying the MG42 in 0605 pinned."""
    text = sample_scenarios()["village"].read_text(encoding="utf-8")
    marker = 'id = "de-sq1"\n'
    assert marker in text
    text = text.replace(marker, marker + 'state = "pinned"\n', 1)
    path = tmp_path / "pinned.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_threat_standing_lanes_fill_the_lanes_keys_and_the_hexs_chance(capsys):
    code, out, _ = run(capsys, *THREAT, "--json")
    bare = json.loads(out)
    code, out, _ = run(capsys, *THREAT, "--standing-lanes", "0605-0305", "--json")
    assert code == 0
    data = json.loads(out)
    assert [lane["hexes"] for lane in data["lanes"]] == [["0505", "0405", "0305"]]
    (lane,) = data["hexes"]["0405"]["lanes"]
    assert lane["pinned_or_worse"] == "5/12"
    # 13.8: the MG that laid the lane (de-sq1's, 0605) has fired, so its squad is no firer
    # here; de-sq1's group fires without it (its leader), the MG in 0907 as before
    before = {tuple(f["units"]): f for f in bare["hexes"]["0405"]["firers"]}
    firers = {tuple(f["units"]): f for f in data["hexes"]["0405"]["firers"]}
    assert set(before) == {("de-sq1", "de-ldr"), ("de-mg",)}
    assert set(firers) == {("de-ldr",), ("de-mg",)}
    spared = Fraction(7, 12)  # the lane's attack misses
    for firer in firers.values():
        spared *= 1 - Fraction(firer["pinned_or_worse"])
    after = Fraction(data["hexes"]["0405"]["pinned_or_worse"])
    assert after == 1 - spared
    counted_twice = 1 - (1 - Fraction(bare["hexes"]["0405"]["pinned_or_worse"])) * Fraction(7, 12)
    assert after < counted_twice  # the lane's MG no longer also fires on opportunity


def test_threat_table_names_the_lanes(capsys):
    code, out, _ = run(capsys, *THREAT, "--standing-lanes", "0605-0305")
    assert code == 0
    assert "Fire lane standing lane 1 from 0605: 0505 0405 0305 (standing; 13.9)" in out
    assert shown("fire lane x1 (42%; 13.9)", out)


def test_threat_picture_draws_the_standing_lanes(capsys, tmp_path):
    plain, laned = tmp_path / "plain.svg", tmp_path / "laned.svg"
    assert run(capsys, *THREAT, "--out", str(plain))[0] == 0
    assert run(capsys, *THREAT, "--standing-lanes", "0605-0305", "--out", str(laned))[0] == 0
    # each lane: a dashed chain with one marker per hex, drawn only when there is a lane
    colour = LANE_COLOUR.lower()
    assert colour not in plain.read_text(encoding="utf-8")
    assert colour in laned.read_text(encoding="utf-8")


def test_lane_after_mg_pinned_removes_a_pinned_mgs_standing_lane(capsys, tmp_path):
    scenario = _pinned_mg_scenario(tmp_path)
    base = ["threat", scenario, "--side", "us", "--standing-lanes", "0605-0305", "--json"]
    code, out, _ = run(capsys, *base)
    assert code == 0
    assert len(json.loads(out)["lanes"]) == 1  # default: stays (13.9)
    code, out, _ = run(capsys, *base, "--lane-after-mg-pinned", "removed")
    assert code == 0
    assert json.loads(out)["lanes"] == []
    move = ["move", scenario, "--stack", "0206", "--path", "0306,0406", "--json"]
    move += ["--lanes", "never", "--standing-lanes", "0605-0305"]
    code, out, _ = run(capsys, *move)
    assert [lane["from"] for lane in json.loads(out)["lanes"]] == ["0605"]
    code, out, _ = run(capsys, *move, "--lane-after-mg-pinned", "removed")
    assert code == 0
    assert json.loads(out)["lanes"] == []


def test_lane_options_of_threat_refuse_bad_values_in_one_line(capsys):
    for command, args, field in (
        (THREAT, ["--standing-lanes", "0605"], "'--standing-lanes'"),
        (THREAT, ["--lane-after-mg-pinned", "maybe"], "'--lane-after-mg-pinned'"),
        (THREAT, ["--lane-naturals", "all"], "'--lane-naturals'"),
        (THREAT, ["--standing-lanes", "0907-0507"], "no fire lane from 0907 to 0507"),
        (MOVE, ["--lane-after-mg-pinned", "maybe"], "'--lane-after-mg-pinned'"),
    ):
        code, _, err = run(capsys, *command, *args)
        assert code == 2, args
        assert field in err
        assert len(err.strip().splitlines()) == 1
