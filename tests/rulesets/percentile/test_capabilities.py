"""The user's firepower data: the EXAMPLE file, range bands in inches or cm, validation errors."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

import firefight
from firefight.cli import main
from firefight.errors import ChartError, InputError, RuleError
from firefight.rulesets.percentile.capabilities import (
    EXAMPLE_CAPABILITIES,
    base_centre_range,
    example_capabilities,
    load_capabilities,
)
from firefight.rulesets.percentile.example import EXAMPLE_UNIT_TYPES

EXAMPLE_FIRE = firefight.ruleset("percentile").procedure("example_fire")


def test_the_example_file_is_labelled_example_in_its_name_title_and_first_line():
    assert "EXAMPLE" in EXAMPLE_CAPABILITIES.name
    assert example_capabilities().title.startswith("EXAMPLE")
    first = EXAMPLE_CAPABILITIES.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# EXAMPLE")
    assert "NOT the rulebook's" in first


def test_the_example_file_is_not_read_as_a_chart():
    ids = [chart.id for chart in firefight.ruleset("percentile").charts()]
    assert ids == ["defense_firepower", "defense_modifiers"]


def test_nm_british_paratroopers_at_12_to_16_inches_have_firepower_2():
    caps = example_capabilities()
    reading = caps.infantry_firepower("british_paratroopers", 14)
    assert reading.firepower == 2
    assert reading.source == "British Paratroopers, NM, 12-16 inches"
    assert caps.infantry_firepower("british_paratroopers", 14, moving=True).source.endswith(
        "MV, 12-16 inches"
    )


def test_a_grenade_has_firepower_1():
    assert example_capabilities().he_firepower("grenade").firepower == 1


@pytest.mark.parametrize(
    ("distance", "on_boundary", "band"),
    [(0, "shorter", "0-4"), (12, "shorter", "8-12"), (12, "longer", "12-16"),
     (12.5, "shorter", "12-16"), (16, "shorter", "12-16"), (24, "longer", "16-24")],
)  # fmt: skip
def test_a_range_picks_its_band(distance, on_boundary, band):
    reading = example_capabilities().infantry_firepower(
        "british_paratroopers", distance, on_boundary=on_boundary
    )
    assert reading.source.endswith(f"{band} inches")


def test_centimetres_are_converted_exactly():
    caps = example_capabilities()
    # 30.48 cm is exactly 12 inches: the boundary, so the shorter band.
    assert caps.infantry_firepower("british_paratroopers", 30.48, unit="cm").source.endswith(
        "8-12 inches"
    )
    assert caps.infantry_firepower("british_paratroopers", 30.49, unit="cm").source.endswith(
        "12-16 inches"
    )


def test_range_between_base_centres():
    assert base_centre_range((0, 0), (9, 12)) == 15
    reading = example_capabilities().infantry_firepower(
        "german_ss", base_centre_range((0, 0), (9, 12))
    )
    assert reading.firepower == 2


def test_beyond_the_longest_band_cannot_fire():
    with pytest.raises(RuleError, match=r"British Paratroopers cannot fire at 25 inches.*16-24"):
        example_capabilities().infantry_firepower("british_paratroopers", 25)


def test_firepower_0_means_the_unit_cannot_fire_there():
    with pytest.raises(RuleError, match=r"MG 42 team, MV, 0-8 inches: firepower 0"):
        example_capabilities().infantry_firepower("mg42_team", 3, moving=True)


def test_an_unknown_unit_type_lists_the_file_s():
    with pytest.raises(InputError, match=r"'unit_type' must be one of british_paratroopers, .*"):
        example_capabilities().infantry_firepower("gurkhas", 3)
    with pytest.raises(InputError, match=r"'weapon' must be one of grenade, "):
        example_capabilities().he_firepower("satchel")


def test_the_example_procedure_lists_the_example_file_s_unit_types():
    assert set(EXAMPLE_UNIT_TYPES) == set(example_capabilities().infantry)


def test_example_fire_reads_the_band_then_the_chart(capsys):
    args = ["odds", "percentile", "example_fire", "--unit-type", "british_paratroopers"]
    assert main([*args, "--range-inches", "14", "--building", "wood", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["distribution"] == {"kill": "1/5", "suppressed": "37/100", "no_effect": "43/100"}
    facts = dict(EXAMPLE_FIRE.facts(EXAMPLE_FIRE.parse({
        "unit_type": "british_paratroopers", "range_inches": 14, "building": "wood"
    })))  # fmt: skip
    assert facts["EXAMPLE firepower"].startswith("2 (British Paratroopers, NM, 12-16 inches")


def test_a_user_file_in_centimetres(tmp_path: Path):
    path = tmp_path / "my_capabilities.toml"
    path.write_text(
        'title = "My rulebook"\nrange_unit = "cm"\n'
        '[infantry.rifles]\nname = "Rifles"\nrange_bands = ["0-20", "20-40"]\n'
        "non_moving = [3, 2]\nmoving = [2, 1]\n",
        encoding="utf-8",
    )
    caps = load_capabilities(path)
    assert caps.infantry_firepower("rifles", 8, unit="inches").firepower == 2  # 20.32 cm
    assert caps.infantry_firepower("rifles", Fraction(1000, 254), unit="inches").firepower == 3
    assert caps.infantry_firepower("rifles", 20).firepower == 3  # 20 cm: the boundary
    assert caps.infantry_firepower("rifles", 21).firepower == 2
    assert caps.he == {}


GOOD = (
    'title = "T"\n'
    '[infantry.rifles]\nname = "Rifles"\nrange_bands = ["0-4", "4-8"]\n'
    "non_moving = [3, 2]\nmoving = [2, 1]\n"
    '[he.grenade]\nname = "Grenade"\nfirepower = 1\n'
)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('range_bands = ["0-4", "4-8"]', 'range_bands = ["0-4", "5-8"]',
         r"bad\.toml: infantry\.rifles\.range_bands must be a band from 4 .* \(got '5-8'\)"),
        ('range_bands = ["0-4", "4-8"]', 'range_bands = ["0-4", "4 to 8"]',
         r"infantry\.rifles\.range_bands must be bands written \"low-high\".* \(got '4 to 8'\)"),
        ("moving = [2, 1]", "moving = [2]",
         r"infantry\.rifles\.moving must be a list of 2 integers of at least 0 \(got \[2\]\)"),
        ("non_moving = [3, 2]", "non_moving = [3, -2]",
         r"infantry\.rifles\.non_moving must be a list of 2 integers .* \(got \[3, -2\]\)"),
        ("firepower = 1", "firepower = 0",
         r"bad\.toml: he\.grenade\.firepower must be an integer of at least 1 \(got 0\)"),
        ('title = "T"', 'title = "T"\nrange_unit = "feet"',
         r"range_unit must be one of inches, cm \(got 'feet'\)"),
        ('name = "Rifles"', 'name = "Rifles"\nrange = 3',
         r"infantry\.rifles must be made of .* \(got 'range'\)"),
        ('title = "T"\n', "",
         r"bad\.toml: title must be a non-empty string \(got None\)"),
        ("[infantry.rifles]", "[infantry.Rifles]",
         r"infantry key must be lower-case letters, digits and _ \(got 'Rifles'\)"),
    ],
)  # fmt: skip
def test_a_bad_file_is_one_line_naming_the_file_the_entry_and_the_value(
    tmp_path: Path, old, new, message
):
    assert old in GOOD
    path = tmp_path / "bad.toml"
    path.write_text(GOOD.replace(old, new), encoding="utf-8")
    with pytest.raises(ChartError, match=message) as caught:
        load_capabilities(path)
    assert "\n" not in str(caught.value)


def test_a_file_that_is_not_toml_names_the_file(tmp_path: Path):
    path = tmp_path / "broken.toml"
    path.write_text("title = \n", encoding="utf-8")
    with pytest.raises(ChartError, match=r"^broken\.toml: "):
        load_capabilities(path)
    good = tmp_path / "good.toml"
    good.write_text(GOOD, encoding="utf-8")
    assert load_capabilities(good).infantry["rifles"].non_moving == (3, 2)


def test_the_players_page_python_example_runs(capsys):
    import re  # noqa: PLC0415 - only this test reads the page

    page = Path(__file__).resolve().parents[3] / "docs" / "percentile.md"
    code = re.search(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
    assert code is not None
    exec(compile(code.group(1), "percentile.md", "exec"), {})  # our own page's example
    printed = capsys.readouterr().out
    assert "source='British Paratroopers, NM, 12-16 inches'" in printed
    assert "Fraction(1, 5)" in printed  # "20 57": 01-20 of 01-100 kill
