"""V&V rally, support missions, minefields and snipers: charts against second transcriptions,
odds against brute-force twins written from the rule text, monotonicity, the board, the CLI."""

from __future__ import annotations

import json
import re
from collections import Counter
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import firefight
from firefight.board.board import Board
from firefight.board.hexes import Hex
from firefight.chance import exact, scripted
from firefight.cli import main
from firefight.core.chart import Chart, load_chart
from firefight.errors import RuleError
from firefight.rulesets.vv import at, support
from firefight.rulesets.vv.support import (
    DATA,
    VvArtilleryPlacement,
    VvArtilleryVsAfv,
    VvMinefield,
    VvRally,
    VvSniperAttack,
    VvSniperElimination,
    activates_sniper,
    air_burst_casualty_points,
    doubles_casualty_points,
    impact,
    impact_odds,
    resolve_impact,
    smoke_after_action,
    smoke_hindrance,
)

VV = firefight.ruleset("vv")
RALLY = VV.procedure("rally")
PLACEMENT = VV.procedure("artillery_placement")
VS_AFV = VV.procedure("artillery_vs_afv")
MINEFIELD = VV.procedure("minefield")
SNIPER_ATTACK = VV.procedure("sniper_attack")
SNIPER_ELIMINATION = VV.procedure("sniper_elimination")
TWO_D6 = [a + b for a, b in product(range(1, 7), repeat=2)]
ARMOR = "ABCDEF"

# --- second transcriptions ------------------------------------------------------------------------

# Pasted from 14_anti-personnel_combat.txt (14.8), re-wrapped only.
RULES_14_8 = """
Unit Dice roll Leader ≤ 7 Infantry (elite) ≤ 7 Infantry ≤ 6 Vehicle ≤ 7 Gun ≤ 7 The active
player, during his After-Action Phase, may attempt to rally his pinned units.
"""
# Pasted from 21_artillery_and_air_support.txt (21.4), re-wrapped only.
RULES_21_4 = "Die roll Effect ≤ 4 Hit 5 1 hex scatter 6 2 hex scatter When a player uses"
# Typed from die_dice_roll_summary.png, one line per entry.
DIE_ROLL_SUMMARY = {
    "Rally Dice Roll (14.8)": "7 or less for leaders, elite infantry, vehicles, or Guns / "
    "6 or less for regular infantry units",
    "Sniper Attack Die Roll (17.5)": "> cover = Casualty Points",
    "Sniper Elimination Die Roll (17.6)": "> cover eliminates sniper",
    "AFV Abandonment Die Roll (18.6)": "2 or less the crew abandons AFV",
    "Support Mission Die Roll (21.4)": "4 or less hits target hex / 5 = 1 hex scatter, "
    "6 = 2 hex scatter",
    "Minefield Attack Die Roll (20.7)": "3 or less eliminates unit",
}
# Pasted from shared/research/FACTS.md ("Valor & Victory"), re-wrapped only.
FACTS = """
Inference from the chart's colours: fighter-bomber = 19-28 row, light barrage = 29-40, heavy
barrage = 41+. Fire-lane attacks use the 1-4 row.
* Artillery/air placement: 1d6 ≤ 4 on target; 5 scatters 1 hex; 6 scatters 2. Against an AFV:
  to-hit 2d6 ≤ 8 with cover, then the elimination roll against rear armour. Artillery CPs on
  infantry in woods or jungle are doubled. Inference: light barrage = ATFP row B, heavy = C,
  fighter-bomber = D.
"""
# Typed from the colours of armor_elimination_table.png, per mission (not per row).
ARMOR_TABLE_COLOURS = {"Light Barrage": "B", "Heavy Barrage": "C", "Fighter-Bomber": "D"}


def flat(text: str) -> str:
    return " ".join(text.split())


def rally_transcription() -> dict[str, str]:
    text = flat(RULES_14_8).split("Dice roll ", 1)[1].split(" The active", 1)[0]
    return dict(re.findall(r"([A-Z][a-z]+(?: \(elite\))?) (≤ \d+)", text))


def placement_transcription() -> dict[str, str]:
    text = RULES_21_4.split("Effect ", 1)[1].split(" When", 1)[0]
    return dict(re.findall(r"(≤ \d|\d) (Hit|\d hex scatter)", text))


def facts_transcription() -> dict[str, dict[str, str]]:
    text = flat(FACTS)
    rows = dict(
        re.findall(r"(fighter-bomber|light barrage|heavy barrage) = ([\d+-]+?)(?: row)?[,.]", text)
    )
    classes = dict(
        re.findall(r"(light barrage|heavy|fighter-bomber) = (?:ATFP row )?([A-F])\b", text)
    )
    classes["heavy barrage"] = classes.pop("heavy")
    to_hit = re.search(r"to-hit 2d6 ≤ (\d+)", text)
    assert to_hit is not None
    return {
        name: {"APFP row": rows[name], "ATFP class": classes[name], "AFV to-hit": to_hit[1]}
        for name in ("fighter-bomber", "light barrage", "heavy barrage")
    }


def test_the_transcriptions_are_whole():
    assert rally_transcription() == {
        "Leader": "≤ 7",
        "Infantry (elite)": "≤ 7",
        "Infantry": "≤ 6",
        "Vehicle": "≤ 7",
        "Gun": "≤ 7",
    }
    assert placement_transcription() == {"≤ 4": "Hit", "5": "1 hex scatter", "6": "2 hex scatter"}
    assert len(facts_transcription()) == 3


def rally_differences(chart: Chart) -> list[str]:
    expected = rally_transcription()
    found = [
        f"rows {list(chart.rows.labels)}" for _ in [0] if list(chart.rows.labels) != list(expected)
    ]
    for row, cell in expected.items():
        actual = chart.cell_at(row, "Dice roll").value
        if actual != cell:
            found.append(f"{row}: data {actual!r}, rules {cell!r}")
    return found


def test_rally_chart_matches_the_rules_text():
    assert rally_differences(support.rally_chart()) == []


def test_rally_chart_agrees_with_the_die_roll_summary():
    summary = DIE_ROLL_SUMMARY["Rally Dice Roll (14.8)"]
    seven, six = (int(n) for n in re.findall(r"(\d) or less", summary))
    chart = support.rally_chart()
    for unit, number in [
        ("Leader", seven),
        ("Infantry (elite)", seven),
        ("Vehicle", seven),
        ("Gun", seven),
        ("Infantry", six),
    ]:
        assert chart.cell_at(unit, "Dice roll").value == f"≤ {number}"


def test_placement_chart_matches_the_rules_text_and_the_summary():
    chart = support.placement_chart()
    assert {row: chart.cell_at(row, "Effect").value for row in chart.rows.labels} == (
        placement_transcription()
    )
    summary = DIE_ROLL_SUMMARY["Support Mission Die Roll (21.4)"]
    assert re.findall(r"(\d) or less hits|(\d) = (\d) hex", summary) == [
        ("4", "", ""),
        ("", "5", "1"),
        ("", "6", "2"),
    ]


def test_missions_chart_matches_facts_and_the_armor_table_colours():
    chart = support.missions_chart()
    expected = facts_transcription()
    for row in chart.rows.labels:
        for column in chart.columns.labels:
            assert chart.cell_at(row, column).value == expected[row.lower()][column], (row, column)
        assert chart.cell_at(row, "ATFP class").value == ARMOR_TABLE_COLOURS[row]


def test_a_typo_in_the_rally_data_is_caught(tmp_path: Path):
    text = (DATA / "support_rally.toml").read_text(encoding="utf-8")
    typo = text.replace('"Infantry" =         ["≤ 6"]', '"Infantry" =         ["≤ 7"]')
    assert typo != text
    path = tmp_path / "support_rally.toml"
    path.write_text(typo, encoding="utf-8")
    assert rally_differences(load_chart(path)) == ["Infantry: data '≤ 7', rules '≤ 6'"]


def test_constants_agree_with_the_die_roll_summary():
    mines = re.search(r"(\d) or less", DIE_ROLL_SUMMARY["Minefield Attack Die Roll (20.7)"])
    abandon = re.search(r"(\d) or less", DIE_ROLL_SUMMARY["AFV Abandonment Die Roll (18.6)"])
    assert mines is not None
    assert abandon is not None
    assert int(mines[1]) == support.MINE_ELIMINATES_AT_MOST
    assert int(abandon[1]) == at.ABANDON_ON


# --- rally (14.8) ---------------------------------------------------------------------------------


def rally_twin(unit: str, lm: int) -> Fraction:
    number = 6 if unit == "infantry" else 7
    return Fraction(sum(1 for t in TWO_D6 if t + lm <= number), 36)


@pytest.mark.parametrize("unit", ["leader", "elite_infantry", "infantry", "vehicle", "gun"])
@pytest.mark.parametrize("lm", [0, -1, -2, -3])
def test_rally_odds_match_the_twin(unit, lm):
    odds = RALLY.odds(VvRally(unit=unit, leadership_modifier=lm))
    assert odds["rallied"] == rally_twin(unit, lm)
    assert odds["rallied"] + odds["still_pinned"] == 1


def test_regular_infantry_rallies_on_6_and_a_leader_helps():
    assert RALLY.odds(VvRally(unit="infantry"))["rallied"] == Fraction(15, 36)
    assert RALLY.odds(VvRally(unit="infantry", leadership_modifier=-1))["rallied"] == Fraction(
        21, 36
    )
    assert [m.rule for m in RALLY.modifiers(VvRally(unit="gun", leadership_modifier=-2))] == [
        "V&V 14.8"
    ]


@given(
    unit=st.sampled_from(["leader", "elite_infantry", "infantry", "vehicle", "gun"]),
    lm=st.integers(-3, -1),
)
def test_a_better_leader_never_lowers_the_rally_chance(unit, lm):
    better = RALLY.odds(VvRally(unit=unit, leadership_modifier=lm))["rallied"]
    worse = RALLY.odds(VvRally(unit=unit, leadership_modifier=lm + 1))["rallied"]
    assert better >= worse


def test_rally_replays_the_players_dice():
    assert RALLY.replay(VvRally(unit="infantry", leadership_modifier=-1), ["3+4"]).outcome == (
        "rallied"
    )
    assert RALLY.replay(VvRally(unit="infantry"), ["3+4"]).outcome == "still_pinned"


# --- placement (21.4) -----------------------------------------------------------------------------


def test_placement_odds():
    odds = PLACEMENT.odds(VvArtilleryPlacement())
    assert dict(odds) == {"0": Fraction(2, 3), "1": Fraction(1, 6), "2": Fraction(1, 6)}
    fighter = VvArtilleryPlacement(mission="fighter_bomber", fighter_bomber_placement="always_hits")
    assert dict(PLACEMENT.odds(fighter)) == {"0": Fraction(1)}
    smoke = VvArtilleryPlacement(mission="smoke_barrage")
    assert PLACEMENT.odds(smoke) == odds


def test_a_scatter_follows_the_diagram_direction():
    aim = Hex(5, 5)
    inp = VvArtilleryPlacement()
    assert scripted(lambda c: impact(inp, aim, c), [6, 1]).outcome == Hex(5, 3)  # 2 hexes up
    assert scripted(lambda c: impact(inp, aim, c), [5, 4]).outcome == Hex(5, 6)  # 1 hex down
    assert scripted(lambda c: impact(inp, aim, c), [5, 2]).outcome == Hex(6, 4)  # upper right
    assert scripted(lambda c: impact(inp, aim, c), [3]).outcome == aim


def test_impact_odds_agree_with_the_rule_and_count_off_board_as_none():
    board = Board("small", "vv", 3, 3)
    aim = next(h for h in board.hexes() if board.label(h) == "0101")
    inp = VvArtilleryPlacement()
    odds = impact_odds(inp, aim, board)
    assert odds == exact(lambda c: impact(inp, aim, c, board))
    assert odds[aim] == Fraction(2, 3)
    assert odds[None] > 0
    assert sum(odds.values()) == 1
    free = impact_odds(inp, aim)
    assert None not in free
    assert len(free) == 1 + 6 + 6
    assert all(p == Fraction(1, 36) for h, p in free.items() if h != aim)


def test_resolve_impact_is_seeded():
    aim = Hex(2, 2)
    first = resolve_impact(VvArtilleryPlacement(), aim, seed=7)
    assert resolve_impact(VvArtilleryPlacement(), aim, seed=7) == first


# --- support missions against AFVs (21.5) ---------------------------------------------------------

EN = {  # the Armor Elimination Table's rows B, C, D, typed from the chart image per column
    "B": dict(zip(ARMOR, ["9", "7", "5", "3", "-", "-"], strict=True)),
    "C": dict(zip(ARMOR, ["11", "9", "7", "5", "3", "-"], strict=True)),
    "D": dict(zip(ARMOR, ["E", "11", "9", "7", "5", "3"], strict=True)),
}
MISSION_CLASS = {"light_barrage": "B", "heavy_barrage": "C", "fighter_bomber": "D"}


def afv_twin(inp: VvArtilleryVsAfv) -> dict[str, Fraction]:
    """Every die enumerated, from 21.5, 18.4 and 18.6 as written."""
    cell = EN[MISSION_CLASS[inp.mission] if inp.atfp_class is None else inp.atfp_class][
        inp.rear_armour
    ]
    counts: Counter[str] = Counter()
    for hit_roll, elim, abandon in product(TWO_D6, TWO_D6, range(1, 7)):
        if hit_roll + inp.cover > 8:
            result = "missed"
        elif cell == "E":
            result = "eliminated"
        elif cell == "-" or elim > int(cell):
            result = "no_effect"
        elif elim < int(cell) or inp.equal_roll == "eliminates":
            result = "eliminated"
        else:
            result = "abandoned" if abandon <= 2 else "immobilized"
        if inp.already_immobilized and result in ("missed", "no_effect") and abandon <= 2:
            result = "abandoned"
        counts[result] += 1
    total = sum(counts.values())
    return {k: Fraction(v, total) for k, v in counts.items()}


@given(
    mission=st.sampled_from(["light_barrage", "heavy_barrage", "fighter_bomber"]),
    armor=st.sampled_from(list(ARMOR)),
    cover=st.integers(0, 6),
    equal_roll=st.sampled_from(["eliminates", "immobilizes"]),
    immobilized=st.booleans(),
)
def test_artillery_vs_afv_matches_the_twin(mission, armor, cover, equal_roll, immobilized):
    inp = VvArtilleryVsAfv(
        mission=mission,
        rear_armour=armor,
        cover=cover,
        equal_roll=equal_roll,
        already_immobilized=immobilized,
    )
    assert dict(VS_AFV.odds(inp)) == afv_twin(inp)


def kill(inp: VvArtilleryVsAfv) -> Fraction:
    odds = VS_AFV.odds(inp)
    return odds["eliminated"] + odds["abandoned"]


@given(
    mission=st.sampled_from(["light_barrage", "heavy_barrage", "fighter_bomber"]),
    armor=st.integers(0, 5),
    cover=st.integers(0, 5),
    equal_roll=st.sampled_from(["eliminates", "immobilizes"]),
)
def test_more_cover_or_armour_never_raises_the_kill_chance(mission, armor, cover, equal_roll):
    base = VvArtilleryVsAfv(
        mission=mission, rear_armour=ARMOR[armor], cover=cover, equal_roll=equal_roll
    )
    assert kill(base.model_copy(update={"cover": cover + 1})) <= kill(base)
    if armor < 5:
        assert kill(base.model_copy(update={"rear_armour": ARMOR[armor + 1]})) <= kill(base)


def test_the_heavier_mission_is_never_weaker_against_armour():
    for armor in ARMOR:
        light, heavy = (
            kill(VvArtilleryVsAfv(mission=m, rear_armour=armor))
            for m in ("light_barrage", "heavy_barrage")
        )
        assert heavy >= light


def test_artillery_vs_afv_worked_example():
    # Light barrage (B) on a rear armour C AFV in woods (+2): to-hit 2d6 <= 6 (15/36), then
    # 2d6 <= 5 (10/36) eliminates (21.5).
    inp = VvArtilleryVsAfv(rear_armour="C", cover=2)
    assert VS_AFV.odds(inp)["eliminated"] == Fraction(15, 36) * Fraction(10, 36)
    assert [m.rule for m in VS_AFV.modifiers(inp)] == ["V&V 21.5"]
    assert VS_AFV.replay(inp, ["2+3", "1+4"]).outcome == "eliminated"
    assert VS_AFV.replay(inp, ["4+3"]).outcome == "missed"


# --- air bursts (21.6) ----------------------------------------------------------------------------


def test_artillery_cps_on_infantry_in_woods_or_jungle_are_doubled():
    assert air_burst_casualty_points(3, "light_barrage", "woods", infantry=True) == 6
    assert air_burst_casualty_points(3, "heavy_barrage", "jungle", infantry=True) == 6
    assert air_burst_casualty_points(3, "heavy_barrage", "building", infantry=True) == 3
    assert air_burst_casualty_points(3, "heavy_barrage", "woods", infantry=False) == 3
    assert air_burst_casualty_points(2, "fighter_bomber", "woods", infantry=True) == 2
    assert doubles_casualty_points(
        "fighter_bomber", "woods", infantry=True, fighter_bombers="doubled"
    )


# --- minefields (20.7) ----------------------------------------------------------------------------


@pytest.mark.parametrize("units", [1, 2, 3, 4])
def test_minefield_odds_match_every_die_enumerated(units):
    counts = Counter(sum(d <= 3 for d in dice) for dice in product(range(1, 7), repeat=units))
    twin = {str(k): Fraction(v, 6**units) for k, v in counts.items()}
    assert dict(MINEFIELD.odds(VvMinefield(units=units))) == twin


def test_one_unit_entering_a_minefield_is_eliminated_half_the_time():
    assert MINEFIELD.odds(VvMinefield())["1"] == Fraction(1, 2)
    assert MINEFIELD.replay(VvMinefield(units=3), ["1+4+6"]).outcome == "1"


# --- snipers (17) ---------------------------------------------------------------------------------


@pytest.mark.parametrize("cover", range(9))
def test_sniper_attack_gives_the_die_less_the_cover(cover):
    twin: Counter[str] = Counter(str(d - cover) if d > cover else "-" for d in range(1, 7))
    assert dict(SNIPER_ATTACK.odds(VvSniperAttack(target_cover=cover))) == {
        k: Fraction(v, 6) for k, v in twin.items()
    }


def test_the_rulebook_sniper_example():
    # 17.5: attackers in woods (+2) generate a sniper, who rolls a 5: 3 CPs.
    assert SNIPER_ATTACK.replay(VvSniperAttack(target_cover=2), [5]).outcome == "3"


@given(cover=st.integers(0, 7), at_least=st.integers(1, 6))
def test_more_cover_never_raises_the_sniper_cps(cover, at_least):
    def p(c: int) -> Fraction:
        odds = SNIPER_ATTACK.odds(VvSniperAttack(target_cover=c))
        return sum((q for k, q in odds.items() if k != "-" and int(k) >= at_least), Fraction(0))

    assert p(cover + 1) <= p(cover)


@pytest.mark.parametrize("cover", range(1, 9))
def test_sniper_elimination_exceeds_the_snipers_cover(cover):
    odds = SNIPER_ELIMINATION.odds(VvSniperElimination(sniper_cover=cover))
    assert odds["sniper_eliminated"] == Fraction(max(0, 6 - cover), 6)


def test_no_check_without_an_unpinned_target():
    with pytest.raises(RuleError, match=r"17\.6"):
        SNIPER_ELIMINATION.odds(VvSniperElimination(unpinned_target=False))


def test_a_natural_12_by_infantry_activates_a_sniper():
    assert activates_sniper(12)
    assert not activates_sniper(11)
    assert not activates_sniper(12, infantry_attacker=False)


# --- smoke (11) -----------------------------------------------------------------------------------


def test_smoke_is_a_hindrance_that_dissipates():
    assert smoke_hindrance("smoke_1") == 1
    assert smoke_hindrance("smoke_2") == 2
    assert smoke_after_action("smoke_2") == "smoke_1"
    assert smoke_after_action("smoke_1") is None


# --- CLI ------------------------------------------------------------------------------------------


def test_cli_odds_json(capsys):
    code = main(
        ["odds", "vv", "rally", "--unit", "infantry", "--leadership-modifier", "-1", "--json"]
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert data["distribution"] == {"rallied": "7/12", "still_pinned": "5/12"}
    assert data["modifiers"][0]["rule"] == "V&V 14.8"


def test_cli_resolve_with_the_players_dice(capsys):
    code = main(["resolve", "vv", "artillery_placement", "--roll", "6,3", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert data["outcome"] == "2"
    assert [e["label"] for e in data["trace"] if "dice" in e or e["label"].endswith("(1d6)")] == [
        "placement (1d6)",
        "scatter direction (1d6)",
    ]


def test_cli_one_line_error(capsys):
    code = main(["odds", "vv", "rally", "--unit", "conscript"])
    err = capsys.readouterr().err
    assert code == 2
    assert "unit" in err
    assert len(err.strip().splitlines()) == 1


def test_the_armor_elimination_chart_is_shared_not_copied():
    assert not list(DATA.glob("support_*armor*"))
    assert at.armor_elimination_table().id == "armor_elimination"
    assert support.elimination_number is at.elimination_number  # one rule, reused
