"""Target priority (exact "most effective"), the split morale test and the user data files."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

import firefight
from firefight.cli import main
from firefight.errors import ChartError, RuleError
from firefight.rulesets.tirs.effects import TirsFire
from firefight.rulesets.tirs.priority import Candidate, effectiveness, rank_targets
from firefight.rulesets.tirs.userdata import EXAMPLE_DATA, load_data, range_band

SPLIT = firefight.ruleset("tirs").procedure("split")


def at(**fields) -> TirsFire:
    return TirsFire.model_validate({"cdt": 2, "experience": "trained", **fields})


def test_targets_rank_by_threat_then_distance_then_exact_effectiveness():
    covered = Candidate("in the wood", 1, 20, at(protection=2))
    open_ground = Candidate("in the open", 1, 20, at())
    near = Candidate("near", 1, 10, at(protection=3))
    machine_gun = Candidate("MG", 3, 40, at(range="long", target="support_crew"))
    ranking = rank_targets([covered, open_ground, near, machine_gun])
    assert ranking.names == ["MG", "near", "in the open", "in the wood"]
    assert ranking.ranked[2].effectiveness == Fraction(1)  # 2 dice at 1/2: one step expected
    assert ranking.ranked[3].effectiveness == Fraction(3, 5)  # 2 dice at 3/10


def test_effectiveness_measures_are_exact():
    crew = at(target="command_post", target_state="demoralized")
    assert effectiveness(crew, "elimination") == Fraction(3, 4)
    assert effectiveness(crew, "any_hit") == Fraction(3, 4)
    assert effectiveness(crew, "expected_steps") == Fraction(3, 4)  # one step left at most


def test_a_target_no_fire_can_reach_is_excluded_with_the_reason():
    ranking = rank_targets([Candidate("far", 5, 90, at(cdt=1, range="long"))])
    assert ranking.ranked == ()
    assert ranking.excluded[0][0] == "far"
    assert "0 dice" in ranking.excluded[0][1]


def test_split_morale_test_on_a_d10_or_2d6():
    assert dict(SPLIT.odds(SPLIT.parse({"morale": 6}))) == {
        "split": Fraction(3, 5),
        "together": Fraction(2, 5),
    }
    assert SPLIT.odds(SPLIT.parse({"morale": 7, "morale_test": "2d6"}))["split"] == Fraction(21, 36)
    played = SPLIT.replay(SPLIT.parse({"morale": 6}), [7])
    assert played.outcome == "together"


def test_only_a_group_with_one_element_pinned_may_split():
    from firefight.rulesets.tirs.effects import GROUP, TargetState  # noqa: PLC0415
    from firefight.rulesets.tirs.morale import split_halves  # noqa: PLC0415

    assert split_halves(TargetState(GROUP).after(1)) == ("pinned", "normal")
    with pytest.raises(RuleError, match="got 2nd pinned"):
        split_halves(TargetState(GROUP).after(2))


def test_the_example_data_set_is_labelled_and_picks_range_bands_in_cm_or_inches():
    text = EXAMPLE_DATA.read_text(encoding="utf-8")
    assert "EXAMPLE" in EXAMPLE_DATA.name
    assert text.startswith("# EXAMPLE data set")
    data = load_data(EXAMPLE_DATA)
    assert data.example
    assert data.title.startswith("EXAMPLE")
    assert range_band(data, "fusil", 10) == "short"
    assert range_band(data, "fusil", "10.5") == "medium"
    assert range_band(data, "fusil", 4, "in") == "medium"  # 10.16 cm
    assert range_band(data, "fusil", Fraction(393, 100), "in") == "short"  # 9.98 cm
    assert data.protection("bois") == 2
    assert data.elements["mitrailleuse"].target == "support_crew"
    with pytest.raises(RuleError, match="beyond the long range of fusil"):
        range_band(data, "fusil", 41)
    with pytest.raises(RuleError, match="'weapon' must be one of fusil, "):
        range_band(data, "canon", 1)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("short = 10\n", "short = -3\n", "weapons.fusil.short must be a positive number (got -3)"),
        ('class = "infantry"', 'class = "tank"', "weapons.fusil.class must be one of infantry"),
        ("protection = 2", "protection = 9", "terrain.bois.protection must be an integer from 0"),
        ('weapon = "fusil"', 'weapon = "arc"', "elements.groupe_de_combat.weapon must be one of"),
        ('unit = "cm"', 'unit = "m"', "unit must be one of cm, in (got 'm')"),
        ("morale = 6\n", "morale = 6\nmoral = 6\n", "elements.groupe_de_combat.moral must be"),
    ],
)
def test_a_bad_data_file_is_one_line_naming_the_file_entry_and_value(tmp_path, old, new, message):
    text = EXAMPLE_DATA.read_text(encoding="utf-8")
    assert old in text
    bad = tmp_path / "mine.toml"
    bad.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ChartError) as caught:
        load_data(bad)
    assert str(caught.value).startswith("mine.toml: ")
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_cli_odds_and_resolve_json(capsys):
    args = ["tirs", "fire", "--cdt", "3", "--experience", "trained", "--range", "short"]
    assert main(["odds", *args, "--target-state", "1st pinned", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["distribution"]["2nd eliminated"] == "7/64"
    assert sum(Fraction(p) for p in data["distribution"].values()) == 1
    assert data["modifiers"][0]["rule"].endswith("Portée courte")
    resolve = ["resolve", "tirs", "precision", "--cdt", "3", "--experience", "trained"]
    assert main([*resolve, "--roll", "2,7,9", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["outcome"] == "1 hit"
    assert data["trace"][0]["dice"] == [2, 7, 9]
    assert main([*resolve, "--firer-state", "demoralized", "--seed", "1"]) == 2
    assert capsys.readouterr().err.strip().startswith("error: a demoralized element")


def test_the_charts_are_listed(capsys):
    assert main(["tables", "tirs", "--json"]) == 0
    ids = [c["id"] for c in json.loads(capsys.readouterr().out)]
    assert ids == ["crew_hits", "group_hits", "modifiers", "precision"]
    assert Path(EXAMPLE_DATA).parent.name == "examples"
