"""docs/upfront.md against the code, so that the page can not go stale: the page summaries'
numbers and readings ("The flow charts restored, page by page") against the code's own
tables, every readings table's defaults against the input models, and the "For
implementers" table against the rule set's procedures and the package's modules."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import pytest

from firefight.rulesets.upfront import RULESET, ordnance, printed
from firefight.rulesets.upfront.afv_readings import CRITICAL_IMMOBILIZED_RN, CRITICAL_KIA_RN
from firefight.rulesets.upfront.cards import Card, Number
from firefight.rulesets.upfront.malfunction import Firer, MalfunctionReadings, outcome_for
from firefight.rulesets.upfront.morale import UpFrontMoraleCheck
from firefight.rulesets.upfront.overrun_attack import UpFrontOverrun, adverse_effect
from firefight.rulesets.upfront.page8 import passes_morale

ROOT = Path(__file__).resolve().parents[3]
DOC = (ROOT / "docs" / "upfront.md").read_text(encoding="utf-8")
PACKAGE = ROOT / "src" / "firefight" / "rulesets" / "upfront"


def _summary(page: int) -> str:
    """The page's paragraph under "The flow charts restored, page by page", on one line."""
    start = DOC.index(f"**Page {page} — ")
    end = DOC.find("\n\n", start)
    return " ".join(DOC[start:end].split())


def _section(heading: str) -> str:
    start = DOC.index(heading)
    end = DOC.find("\n## ", start + len(heading))
    return " ".join(DOC[start:end].split())


def _red(value: int) -> Card:
    return Card(1, "fire", Number(value, "red"), (Number(0, "black"),) * 10)


def test_page_2s_summary_lists_the_to_hit_modifiers_the_code_applies():
    text = _summary(2)
    assert f"{ordnance.COMMANDER_KIA_TO_HIT} per commander KIA".replace("-", "−") in text
    assert f"{ordnance.TURRETLESS_IMMOBILE_TO_HIT} if immobilized".replace("-", "−") in text
    assert f"{ordnance.MOVING_TARGET_TO_HIT} against a moving target".replace("-", "−") in text
    assert f"{ordnance.SMOKE_TO_HIT} each smoke".replace("-", "−") in text
    assert f"{ordnance.WIRE_TO_HIT} each wire".replace("-", "−") in text
    assert f"+{ordnance.ACQUIRED_TO_HIT} target acquired" in text
    assert f"Black {ordnance.BLACK_HIT_RN} is a hit" in text


def test_page_3s_summary_has_the_codes_victory_points_columns_and_rr():
    text = _summary(3)
    assert f"KIA, {printed.KIA_VP} VP" in text
    assert f"RPNC({printed.WOUND_COLUMN}) = morale → at RR {printed.BERSERK_RR}" in text
    assert f"wounded ({printed.WOUNDED_VP} VP" in text
    assert f"RPNC({printed.ROUT_COLUMN}) > rout #" in text
    assert "(1 VP, an uncrewed weapon is removed" in text
    assert printed.ROUTED_VP == 1


def test_page_4s_summary_has_the_codes_critical_hits():
    text = _summary(4)
    assert f"Black {CRITICAL_IMMOBILIZED_RN} → immobilized" in text
    assert f"Black {CRITICAL_KIA_RN} and open-topped → AFV KIA" in text


def test_page_5s_summary_has_the_codes_strengths():
    text = _summary(5)
    low, high = printed.ARTILLERY_HIT_LOW, printed.ARTILLERY_HIT_HIGH
    assert f"to hit = Black {low}–{high}, strength {printed.ARTILLERY_STRENGTH}" in text
    assert f"{printed.DC_MALFUNCTION_RN} → malfunction, remove the DC" in text
    assert f"FS = {printed.DC_STRENGTH} +" in text


def test_page_6s_summary_maps_the_result_boxes_as_the_code_does():
    text = _summary(6)
    men = UpFrontOverrun().men_data()
    rifle, other, assistant, lmg = (
        men.man(i) for i in ("ger-rifle-1", "ger-rifle-2", "ger-assistant", "ger-lmg")
    )
    readings = MalfunctionReadings()

    def box(firers: list[Firer], position: int) -> str:
        return outcome_for(firers, position, rn=5, ffs=10, rr=3, inp=readings).box

    group = [
        Firer(rifle, pinned=True),
        Firer(other),
        Firer(assistant),
        Firer(other, firing=False),
        Firer(lmg),
    ]
    assert box(group, 0).endswith("malf or remove weapon, N/E on FFS")
    assert box(group, 3).endswith("no effect")
    assert box(group, 2).endswith(f"no malf, {printed.MALFUNCTION_FFS} to FFS")
    assert box(group, 1).startswith("malf weapon, -1/2 FP")
    pinned = re.search(r"a pinned man or one with a malfunctioned weapon → ([^;]+);", text)
    assert pinned
    assert "malfunctions" in pinned[1]
    assert "no effect on the FFS" in pinned[1]
    unarmed = re.search(r"non-firing flamethrower/infiltrator → ([^;]+);", text)
    assert unarmed
    assert unarmed[1] == "no effect"
    crew = re.search(r"assistant crewman of an LMG/MMG → ([^;]+);", text)
    assert crew
    assert crew[1] == f"no malfunction, {printed.MALFUNCTION_FFS} to the FFS".replace("-", "−")
    assert "else malfunction the weapon, −½ its FP from the FFS (round up)" in text


def test_page_7s_summary_and_section_read_the_adverse_effects_as_the_code_does():
    inp = UpFrontOverrun()
    effects = {
        "Red 6": adverse_effect(_red(6), False, False, inp),
        "Red 5 and open-topped": adverse_effect(_red(5), False, True, inp),
    }
    assert effects == {"Red 6": "AFV immobilized", "Red 5 and open-topped": "AFV KIA"}
    text = _summary(7)
    assert f"Red {printed.OVERRUN_RED_6[0]} → AFV immobilized, end" in text
    assert f"Red {printed.OVERRUN_RED_5_OT[0]} and open-topped → AFV KIA" in text
    heroic = "(heroic man: Red {} or {}; Red {})".format(
        *printed.OVERRUN_RED_6_HEROIC, *printed.OVERRUN_RED_5_OT_HEROIC
    )
    assert heroic in text
    assert f"at RR {printed.OVERRUN_RR} to an opposing" in text
    assert "OVR ×½ with a malfunctioned MG or gun, ×¼ with a flamethrower" in text
    assert (printed.OVR_MG_FACTOR, printed.OVR_FT_FACTOR) == (0.5, 0.25)
    section = _section("## Page 7: Overrun attacks")
    assert "**Red 6** immobilizes the AFV and ends the attack" in section
    assert "**Red 5 on an OT AFV** kills it" in section
    assert f"`adverse_reading = {inp.adverse_reading}`" in section
    assert f"`adverse_on_malfunction = {inp.adverse_on_malfunction}`" in section


def test_page_8s_summary_has_the_codes_counts_values_and_signs():
    text = _summary(8)
    rpn = printed.INFILTRATION_RPN
    for words in (
        f"Night {rpn['night']}",
        f"smoke {rpn['smoke']} each",
        f"from brush {rpn['brush']}",
        f"from open ground {rpn['open']}",
        f"from woods {rpn['woods']}",
        f"from a hill {rpn['hill']}",
        f"against a pillbox {rpn['pillbox']}",
        f"Japanese {rpn['japanese']}",
        f"jungle scenario {rpn['jungle']}",
        f"commander KIA {rpn['commander_kia']} each",
        f"minimum {printed.INFILTRATION_MIN}, maximum {printed.INFILTRATION_MAX}",
    ):
        assert words in text, words
    ccv = printed.CCV_WEAPON
    assert f"carbine/assault rifle {ccv['carbine']}, other rifles {ccv['rifle']}" in text
    assert f"MP {ccv['mp']} (Japanese {printed.CCV_JAPANESE['mp']})" in text
    assert (
        f"LMG {ccv['lmg']} (Japanese {printed.CCV_JAPANESE['lmg']}), MMG/ATR {ccv['mmg']}" in text
    )
    low, high = printed.CC_AFV_NO_EFFECT
    bands = (
        f"total ≤ {printed.CC_AFV_ATTACKER_KIA_AT_MOST} attacker KIA, {low}–{high} no effect, "
        f"{printed.CC_AFV_IMMOBILIZED} immobilized, ≥ {printed.CC_AFV_KIA_AT_LEAST} AFV KIA"
    )
    assert bands in text
    default = UpFrontMoraleCheck().morale_pass
    assert default == "at_most"
    assert passes_morale(4, 4, default)
    assert f"RN ≤ morale passes (`morale_pass = {default}`" in text


def _fields() -> dict[str, tuple[set[object], set[str]]]:
    """Every Up Front input field: (its defaults, its Literal choices)."""
    found: dict[str, tuple[set[object], set[str]]] = {}
    for procedure in RULESET.procedures:
        for name, info in procedure.input_model.model_fields.items():
            defaults, choices = found.setdefault(name, (set(), set()))
            defaults.add(info.default)
            if typing.get_origin(info.annotation) is typing.Literal:
                choices.update(str(a) for a in typing.get_args(info.annotation))
    return found


def _reading_rows() -> list[tuple[str, str, str]]:
    """(field, default cell, the row) of every docs table row naming a reading: a table whose
    header has a "default" column, a row whose first cell names a field in backticks."""
    rows = []
    for table in re.findall(r"(?:^\|.*\|\n)+", DOC, re.M):
        lines = table.strip().splitlines()
        header = [c.strip() for c in lines[0].strip("|").split("|")]
        column = next((i for i, c in enumerate(header) if "default" in c), None)
        if column is None or len(lines) < 3:
            continue
        for line in lines[2:]:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) <= column:
                continue
            rows.extend(
                (name, cells[column], line) for name in re.findall(r"`([a-z_]+)`", cells[0])
            )
            for name, _ in re.findall(r"`([a-z_]+) = ([a-z_0-9]+)`", cells[column]):
                rows.append((name, cells[column], line))
    return rows


def test_every_readings_tables_default_is_the_input_models():
    fields = _fields()
    checked = 0
    for name, cell, row in _reading_rows():
        if name not in fields:
            continue
        defaults, choices = fields[name]
        named = re.search(rf"`{name} = ([a-z_0-9]+)`", cell)
        token = named[1] if named else re.match(r"`([a-z_0-9]+)`", cell)
        value = token if isinstance(token, str) else token[1] if token else None
        if value is None or value not in choices:
            continue
        assert value in {str(d) for d in defaults}, f"{name}: docs say {value}: {row[:120]}"
        checked += 1
    assert checked >= 30  # the readings of pages 1 to 8


def test_the_readings_tables_name_the_new_page_7_readings():
    names = {name for name, _, _ in _reading_rows()}
    assert {"adverse_reading", "adverse_on_malfunction", "ot_reading", "morale_pass"} <= names


def _implementers() -> list[list[str]]:
    start = DOC.index("## For implementers")
    table = DOC[DOC.index("| page | procedures | modules |", start) :]
    table = table[: table.index("\n\n")]
    return [[c.strip() for c in line.strip("|").split("|")] for line in table.splitlines()[2:]]


def test_the_implementers_table_names_every_procedure_and_existing_modules_only():
    rows = _implementers()
    assert len(rows) == 8
    named = {p for row in rows for p in re.findall(r"`([a-z_]+)`", row[1])}
    registered = {p.name for p in RULESET.procedures}
    assert named - {"page6"} <= registered
    assert registered - {"range", "hand"} <= named
    for row in rows:
        for module in re.findall(r"`([a-z_0-9]+\.py)`", row[2]):
            assert (PACKAGE / module).is_file(), module
    assert "to build" not in DOC
    assert "remaining page" not in DOC


@pytest.mark.parametrize("module", ["printed.py"])
def test_printed_says_every_page_is_implemented(module):
    text = (PACKAGE / module).read_text(encoding="utf-8")
    assert "not implemented" not in text
    assert "still to come" not in text
