"""The charts of V&V's rally and support missions (14.8, 21.4, 21.5) as the data
files give them, and the readings shared by :mod:`firefight.rulesets.vv.support`'s procedures.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Literal

from firefight.core.chart import Chart, load_chart
from firefight.core.modifier import Modifier, ModifierKind
from firefight.errors import ChartError
from firefight.i18n import gettext

DATA = Path(__file__).parent / "data"
"""The V&V charts' folder (the package's ``DATA``, named here to avoid a circular import)."""


Mission = Literal["light_barrage", "heavy_barrage", "fighter_bomber"]


ArmorClass = Literal["A", "B", "C", "D", "E", "F"]


_AT_MOST = re.compile(r"^≤ (\d+)$")


MISSION_ROWS: dict[str, str] = {
    "light_barrage": "Light Barrage",
    "heavy_barrage": "Heavy Barrage",
    "fighter_bomber": "Fighter-Bomber",
    "smoke_barrage": "Light Barrage",  # 21.7: a smoke barrage needs an artillery marker
}


DIRECTION_NAMES = {
    1: "up",
    2: "upper right",
    3: "lower right",
    4: "down",
    5: "lower left",
    6: "upper left",
}
"""The Artillery Scatter Diagram's six directions (21.4), as :mod:`firefight.board` numbers them."""


def at_most(label: str, chart: Chart) -> int:
    """The number of a printed ``≤ n`` cell or row label."""
    match = _AT_MOST.match(label)
    if match is None:
        msg = gettext("chart {id}: {label} is not a printed '≤ n'").format(
            id=repr(chart.id), label=repr(label)
        )
        raise ChartError(msg)
    return int(match[1])


@cache
def rally_chart() -> Chart:
    """The 14.8 rally numbers, loaded once from ``data/support_rally.toml``."""
    return load_chart(DATA / "support_rally.toml")


@cache
def placement_chart() -> Chart:
    """The 21.4 support mission die roll, loaded once from ``data/support_artillery.toml``."""
    return load_chart(DATA / "support_artillery.toml")


@cache
def missions_chart() -> Chart:
    """Each mission's AP row, ATFP class and AFV to-hit, from ``data/support_missions.toml``."""
    return load_chart(DATA / "support_missions.toml")


def roll_modifier(value: int, label: str, rule: str) -> Modifier:
    return Modifier(label, Fraction(value), ModifierKind.DICE, rule)
