"""EPT antitank fire for the tests: the seed's texts, pasted verbatim from seed 000
(000_7e545a6d88e32420.txt) and re-wrapped only, parsed here independently of firefight's chart
loader; twins of the odds computed from that text alone; input strategies."""

from __future__ import annotations

import math
import re
from collections import Counter
from fractions import Fraction
from itertools import product

from hypothesis import strategies as st

import firefight

EPT = firefight.ruleset("ept")
TO_HIT = EPT.procedure("at_to_hit")
AT_FIRE = EPT.procedure("at_fire")
AT_SHOT = EPT.procedure("at_shot")
PORTABLE = EPT.procedure("portable_at")
PF_AVAILABILITY = EPT.procedure("panzerfaust_availability")

PORTABLE_TEXT = """
TIR D’ARMES PORTATIVES ANTICHARS = Fire of Portable Antitank Weapons -- Panzerschreck: 7 --
Panzerfaust; Bazooka: 6 -- PIAT: 5 Roll less with 2d6 [roll less = destroyed; roll equal =
immobilized] Maximum Distance: 2 hexagons (PF = 1) Modifiers to the dice (cumulative): --
Target size: Large: -1 Small: +1 Very small: +2 -- Firer with movement marker: +2 -- Target
with movement marker: +2 -- Recruit: +1 Veteran: -1 -- Schurzen (on side): +1 -- at 2 hexes: +1
PF Availability: unmodified colored die <= to the availability of the scenario [2 for Normandy
(17.1)]"""

AT_FIRE_TEXT = """
TIRS ANTICHARS = Antitank Fire DICE DIFFERENTIAL <=0 1 2 3 4 5 6 >=7 2 D D D D D D D D 3 I D D
D D D D D 4 S I I D D D D D 5 S S I D D D D D 6 - - S I D D D D 7 - - - S I D D D 8 - - - - S I
D D 9 - - - - - S I D 10 - - - - - - S I 11 - - - - - - - S 12 - - - - - - - - D = destroyed; I
= Immobilized, S = Shut Down Natural 12 = miss Modifiers to the dice: -- Differential less than
0: +1 to the dice per column of difference. -- Differential greater than 7: -1 to the dice per
column of difference. -- Fire to the rear: -1 to the value of side armor -- Modification to
function of the gun: >6 hex. >10 hex. >15 hex. Small +1 +2 +3 Medium -- +1 +2 Long -- -- +1"""

TO_HIT_TEXT = """
TABLE DE TOUCHER ANTICHAR = Antitank To Hit Table (VV 32) DISTANCE 1-10 hex. 11-20 hex. 21 hex.
and more Armor 8 7 6 Dice modifiers: -- Moving target: +2 -- Moving firer: +2 -- Recruit: +1 --
Veteran: -1 -- Target size: Large: -1 Small: +1 Very small: +2 -- fire to the flank or rear:
according to the turret speed -- Protection of terrain and visual hindrances (see table) --
Modification to function of gun: > 10 hex. > 20 hex. Small +1 +2 Medium -- +1 Long -- --"""

FIRE_TERRAIN_TEXT = """
Terrain: modifiers to the dice -- Light protection: +1 -- Medium protection: +2 -- Important
protection: +3 -- Target in smoke: +1 -- Visual hindrance: +1 per hex. traversed (max.: 3)"""
"""The MODIFICATEURS DE TIR terrain lines, which the to-hit chart's '(see table)' points to."""


# --- an independent transcription of the seed's text ---------------------------------------


def flat(text: str) -> str:
    return " ".join(text.split())


def named_values(text: str) -> dict[str, int]:
    """Every 'Name: +n' in a run of modifiers ('Large: -1 Small: +1' gives both)."""
    return {
        name.strip(): int(value)
        for name, value in re.findall(r"([A-Za-z][A-Za-z0-9 ()]*?):\s*([+-]\d+)", text)
    }


def gun_grid(text: str) -> dict[tuple[str, int], str]:
    """(gun, 'beyond' distance) -> cell, from '> 10 hex. > 20 hex. Small +1 +2 ...'."""
    thresholds = [int(n) for n in re.findall(r">\s*(\d+) hex\.", text)]
    tokens = re.split(r"hex\.", text)[-1].split()
    grid = {}
    width = len(thresholds) + 1
    for start in range(0, len(tokens), width):
        gun, *cells = tokens[start : start + width]
        for threshold, cell in zip(thresholds, cells, strict=True):
            grid[gun, threshold] = cell
    return grid


def parse_at_fire(text: str) -> dict[tuple[str, str], str]:
    body = flat(text).split("DICE DIFFERENTIAL")[1].split(" D = destroyed")[0]
    tokens = body.split()
    columns, tokens = tokens[:8], tokens[8:]
    cells = {}
    for row in range(2, 13):
        assert tokens[0] == str(row), f"expected row {row}, found {tokens[0]!r}"
        for column, cell in zip(columns, tokens[1:9], strict=True):
            cells[str(row), column] = cell
        tokens = tokens[9:]
    assert not tokens
    return cells


def parse_to_hit(text: str) -> list[tuple[int, float, int]]:
    """(first hex, last hex, number) for each distance column."""
    body = flat(text).split("DISTANCE")[1].split("Dice modifiers")[0]
    bands: list[tuple[int, float]] = [
        (int(lo), int(hi)) for lo, hi in re.findall(r"(\d+)-(\d+) hex\.", body)
    ]
    bands += [(int(lo), math.inf) for lo in re.findall(r"(\d+) hex\. and more", body)]
    numbers = [int(n) for n in body.split("Armor")[1].split()]
    return [(lo, hi, n) for (lo, hi), n in zip(bands, numbers, strict=True)]


def parse_portable(text: str) -> tuple[dict[str, int], dict[str, int]]:
    """Weapon -> number, and weapon -> maximum distance."""
    body = flat(text)
    weapons = body.split("Weapons")[1].split("Roll less")[0]
    numbers = {}
    for entry in weapons.split("--"):
        if entry.strip():
            names, number = entry.split(":")
            for name in names.split(";"):
                numbers[name.strip()] = int(number)
    distance = re.search(r"Maximum Distance: (\d+) hexagons \(PF = (\d+)\)", body)
    assert distance is not None
    maximum = {name: int(distance.group(1)) for name in numbers}
    maximum["Panzerfaust"] = int(distance.group(2))
    return numbers, maximum


AT_FIRE_CELLS = parse_at_fire(AT_FIRE_TEXT)
AT_FIRE_GUN = gun_grid(flat(AT_FIRE_TEXT).split("function of the gun:")[1])
TO_HIT_NUMBERS = parse_to_hit(TO_HIT_TEXT)
TO_HIT_GUN = gun_grid(flat(TO_HIT_TEXT).split("function of gun:")[1])
TO_HIT_MODIFIERS = named_values(
    flat(TO_HIT_TEXT).split("Dice modifiers:")[1].split("-- fire to")[0]
)
TERRAIN_MODIFIERS = named_values(flat(FIRE_TERRAIN_TEXT))
HINDRANCE_MAXIMUM = int(re.findall(r"max\.: (\d+)", FIRE_TERRAIN_TEXT)[0])
PORTABLE_NUMBERS, PORTABLE_MAXIMUM = parse_portable(PORTABLE_TEXT)
PORTABLE_MODIFIERS = named_values(flat(PORTABLE_TEXT).split("(cumulative):")[1].split("PF ")[0])


# --- twins: the odds recomputed from the seed's text by brute force over the dice ----------

TWO_DICE = list(product(range(1, 7), repeat=2))
GUN_ROW = {"small": "Small", "medium": "Medium", "long": "Long"}
SIZE = {"large": "Large", "small": "Small", "very_small": "Very small"}


def seed_gun(grid: dict[tuple[str, int], str], gun: str, distance: int) -> int:
    beyond = [t for g, t in grid if g == GUN_ROW[gun] and distance > t]
    if not beyond:
        return 0
    cell = grid[GUN_ROW[gun], max(beyond)]
    return 0 if cell == "--" else int(cell)


def seed_quality(data: dict, table: dict[str, int]) -> int:
    quality = data.get("firer_quality", "line")
    if quality == "shock" and data.get("shock_quality") == "as_veteran":
        quality = "veteran"
    return table.get(quality.capitalize(), 0)


def twin_to_hit_modifier(data: dict) -> int:
    m = TO_HIT_MODIFIERS
    terrain = {"light": "Light", "medium": "Medium", "important": "Important"}
    protection = data.get("protection", "none")
    return (
        (m["Moving target"] if data.get("target_moving") else 0)
        + (m["Moving firer"] if data.get("firer_moving") else 0)
        + seed_quality(data, m)
        + m.get(SIZE.get(data.get("target_size", "normal"), ""), 0)
        + data.get("turret_penalty", 0)
        + (TERRAIN_MODIFIERS[f"{terrain[protection]} protection"] if protection != "none" else 0)
        + (TERRAIN_MODIFIERS["Target in smoke"] if data.get("target_in_smoke") else 0)
        + min(data.get("hindrance_hexes", 0), HINDRANCE_MAXIMUM)
        * TERRAIN_MODIFIERS["Visual hindrance"]
        + seed_gun(TO_HIT_GUN, data["gun_length"], data["distance"])
    )


def twin_hit_chance(data: dict) -> Fraction:
    number = next(n for lo, hi, n in TO_HIT_NUMBERS if lo <= data["distance"] <= hi)
    modifier = twin_to_hit_modifier(data)
    return Fraction(sum(1 for a, b in TWO_DICE if a + b + modifier <= number), 36)


def twin_to_hit(data: dict) -> dict[str, Fraction]:
    hit = twin_hit_chance(data)
    return {k: v for k, v in {"hit": hit, "miss": 1 - hit}.items() if v}


def twin_at_fire(data: dict) -> dict[str, Fraction]:
    armour = {
        "front": data["front_armour"],
        "side": data["side_armour"],
        "rear": data["side_armour"] - 1,
    }[data.get("facing", "front")]
    differential = data["at_value"] - armour
    column = "<=0" if differential <= 0 else ">=7" if differential >= 7 else str(differential)
    modifier = (
        max(0, -differential)
        - max(0, differential - 7)
        + seed_gun(AT_FIRE_GUN, data["gun_length"], data["distance"])
    )
    counts = Counter(
        "miss" if a + b == 12 else AT_FIRE_CELLS[str(min(max(a + b + modifier, 2), 12)), column]
        for a, b in TWO_DICE
    )
    return {code: Fraction(n, 36) for code, n in counts.items()}


def twin_shot(data: dict) -> dict[str, Fraction]:
    hit = twin_hit_chance(data)
    words = {"D": "destroyed", "I": "immobilized", "S": "shut_down", "-": "no_effect"}
    result: Counter = Counter({"miss": 1 - hit})
    for code, p in twin_at_fire(data).items():
        result[words.get(code, "miss")] += hit * p
    return {k: v for k, v in result.items() if v}


def twin_portable(data: dict) -> dict[str, Fraction]:
    name = {"piat": "PIAT"}.get(data["weapon"], data["weapon"].capitalize())
    number = PORTABLE_NUMBERS[name]
    m = PORTABLE_MODIFIERS
    modifier = (
        m.get(SIZE.get(data.get("target_size", "normal"), ""), 0)
        + (m["Firer with movement marker"] if data.get("firer_movement_marker") else 0)
        + (m["Target with movement marker"] if data.get("target_movement_marker") else 0)
        + seed_quality(data, m)
        + (m["Schurzen (on side)"] if data.get("schurzen_on_side") else 0)
        + (m["at 2 hexes"] if data["distance"] == 2 else 0)
    )

    def effect(total: int) -> str:
        if total + modifier < number:
            return "destroyed"
        return "immobilized" if total + modifier == number else "no_effect"

    check = data.get("panzerfaust_check", "none")
    availability = data.get("availability", 2)
    counts: Counter = Counter()
    for coloured, white, extra in product(range(1, 7), range(1, 7), range(1, 7)):
        # 216 equal branches: 'coloured' is the separate die or the attack's coloured die.
        if check != "none" and coloured > availability:
            counts["not_available"] += 1
        elif check == "separate_die":
            counts[effect(white + extra)] += 1
        else:
            counts[effect(white + coloured)] += 1
    return {k: Fraction(n, 216) for k, n in counts.items()}


# --- strategies -----------------------------------------------------------------------------

GUNS = ("small", "medium", "long")
QUALITIES = ("recruit", "line", "veteran", "shock")
SIZES = ("large", "normal", "small", "very_small")
WEAPONS = ("panzerschreck", "panzerfaust", "bazooka", "piat")


@st.composite
def to_hit_inputs(draw: st.DrawFn) -> dict:
    distance = draw(st.integers(1, 30))
    return {
        "distance": distance,
        "gun_length": draw(st.sampled_from(GUNS)),
        "target_moving": draw(st.booleans()),
        "firer_moving": draw(st.booleans()),
        "firer_quality": draw(st.sampled_from(QUALITIES)),
        "shock_quality": draw(st.sampled_from(("no_modifier", "as_veteran"))),
        "target_size": draw(st.sampled_from(SIZES)),
        "turret_penalty": draw(st.integers(0, 3)),
        "protection": draw(st.sampled_from(("none", "light", "medium", "important"))),
        "target_in_smoke": draw(st.booleans()),
        # the hexes between firer and target: none at 1 hex
        "hindrance_hexes": draw(st.integers(0, min(3, distance - 1))),
    }


@st.composite
def at_fire_inputs(draw: st.DrawFn) -> dict:
    return {
        "distance": draw(st.integers(1, 20)),
        "gun_length": draw(st.sampled_from(GUNS)),
        "at_value": draw(st.integers(0, 20)),
        "front_armour": draw(st.integers(0, 15)),
        "side_armour": draw(st.integers(0, 15)),
        "facing": draw(st.sampled_from(("front", "side", "rear"))),
    }


@st.composite
def shot_inputs(draw: st.DrawFn) -> dict:
    data = draw(at_fire_inputs())
    hit = draw(to_hit_inputs())
    hindrance = min(hit["hindrance_hexes"], data["distance"] - 1)  # the hexes between
    return {**hit, **data, "hindrance_hexes": hindrance}


@st.composite
def portable_inputs(draw: st.DrawFn) -> dict:
    weapon = draw(st.sampled_from(WEAPONS))
    data = {
        "weapon": weapon,
        "distance": 1 if weapon == "panzerfaust" else draw(st.integers(1, 2)),
        "target_size": draw(st.sampled_from(SIZES)),
        "firer_movement_marker": draw(st.booleans()),
        "target_movement_marker": draw(st.booleans()),
        "firer_quality": draw(st.sampled_from(QUALITIES)),
        "shock_quality": draw(st.sampled_from(("no_modifier", "as_veteran"))),
        "schurzen_on_side": draw(st.booleans()),
    }
    if weapon == "panzerfaust":
        data["panzerfaust_check"] = draw(st.sampled_from(("none", "separate_die", "attack_roll")))
        data["availability"] = draw(st.integers(0, 6))
    return data


ANY_INPUT = st.one_of(
    st.tuples(st.just(TO_HIT), to_hit_inputs()),
    st.tuples(st.just(AT_FIRE), at_fire_inputs()),
    st.tuples(st.just(AT_SHOT), shot_inputs()),
    st.tuples(st.just(PORTABLE), portable_inputs()),
    st.tuples(
        st.just(PF_AVAILABILITY), st.builds(lambda a: {"availability": a}, st.integers(0, 6))
    ),
)
