"""V&V 18's charts and numbers: the Anti-Tank To-Hit Numbers (18.3, with 12.65's
mortar minimum range), the Armor Elimination Table (18.4), the Armor Facing Diagram (18.5),
18.6's abandonment number, and the outcomes an AT attack can have.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from firefight.board.hexes import DIRECTIONS, Hex
from firefight.core.chart import Chart, load_chart
from firefight.errors import InputError

_DATA = Path(__file__).parent / "data"


Weapon = Literal["at_weapon", "gun", "artillery_strike", "air_strike", "on_board_mortar"]


Rating = Literal["A", "B", "C", "D", "E", "F"]


Target = Literal["afv", "unarmoured_vehicle", "gun"]


Facing = Literal["front", "rear", "along_front_rear_hexside"]


INFANTRY_WEAPONS = frozenset({"at_weapon", "on_board_mortar"})
"""Weapons an infantry unit fires: its leader (13.6, 12.61) and its valor (16.2, 16.3) count."""


STRIKES = frozenset({"artillery_strike", "air_strike", "on_board_mortar"})
"""Attacks on a hex that read the rear armour and eliminate on <= EN (21.5, 12.67)."""


MORTAR_MINIMUM_RANGE = 2
"""12.65: mortars may not fire at targets inside their minimum range of two hexes."""


ABANDON_ON = 2
"""18.6: the crew abandons an immobilized AFV on a die roll of 2 or less."""


REAR_FROM = 4
"""18.5: along the hexside between front and rear armour, 1-3 hits the front, 4-6 the rear."""


BASE_OUTCOMES = (
    "miss",
    "no_effect",
    "abandoned",
    "immobilized",
    "immobilized_abandoned",
    "eliminated",
)


OUTCOMES = BASE_OUTCOMES + tuple(
    f"{base};{valor}" for valor in ("valorous", "not_valorous") for base in BASE_OUTCOMES
)
"""Every outcome; ``;valorous`` / ``;not_valorous`` follow a natural two when
``check_valor`` is on."""


@cache
def at_to_hit_table() -> Chart:
    """The Anti-Tank To-Hit Numbers chart, from ``data/at_to_hit.toml``."""
    return load_chart(_DATA / "at_to_hit.toml")


@cache
def armor_elimination_table() -> Chart:
    """The Armor Elimination Table, from ``data/armor_elimination.toml``."""
    return load_chart(_DATA / "armor_elimination.toml")


def to_hit_number(weapon: Weapon, range_hexes: int) -> tuple[str, int]:
    """The chart row and the to-hit number (Anti-Tank To-Hit Numbers, V&V 18.3)."""
    if weapon == "gun":
        if range_hexes <= 10:
            row = "Guns at 10 hexes or less"
        elif range_hexes <= 19:
            row = "Guns at 11-19 hexes"
        else:
            row = "Guns at 20 hexes or more"
    else:
        row = {
            "at_weapon": "AT Weapons",
            "artillery_strike": "Arty & Air Strikes",
            "air_strike": "Arty & Air Strikes",
            "on_board_mortar": "On-board mortars",
        }[weapon]
    cell = at_to_hit_table().cell_at(row, "To-hit number").value
    return row, int(cell.removesuffix(" or less"))


@cache
def elimination_number(atfp: str, armor: str) -> str:
    """The Armor Elimination Table cell as printed: "3" ... "11", "E" or "-" (V&V 18.4; read
    once per pair of classes: exact odds re-run the rule)."""
    return armor_elimination_table().cell_at(atfp, armor).value


def armor_facing(attacker: Hex, target: Hex, target_facing: int) -> Facing:
    """Which armour an attack from ``attacker`` meets (the Armor Facing Diagram, V&V 18.5).

    ``target_facing`` is the hexside the target faces, 1-6 clockwise from the top. The diagram
    splits the hexes around the target by the line through its two vertices that lie at right
    angles to its facing: the three hexes on the faced side see the front armour, the three
    behind the rear; a line of fire running exactly along that line (along the hexside between
    a front and a rear hex) is ``along_front_rear_hexside``.
    """
    if target_facing not in DIRECTIONS:
        raise InputError("target_facing", "an integer from 1 to 6", target_facing)
    if attacker == target:
        raise InputError("attacker", "a hex other than the target's", str(attacker))
    dq, dr = DIRECTIONS[target_facing]
    q, r = attacker.q - target.q, attacker.r - target.r
    # Dot product of the two flat-topped pixel vectors, times 4 so it stays an integer.
    dot = 9 * q * dq + 3 * (2 * r + q) * (2 * dr + dq)
    if dot > 0:
        return "front"
    if dot < 0:
        return "rear"
    return "along_front_rear_hexside"
