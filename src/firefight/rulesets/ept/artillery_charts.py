"""EPT artillery's charts (seed 000): DELAIS DE TIR D'ARTILLERIE, EMPARPILLEMENT,
ARTILLERIE/BOMBES and the effect of terrain on indirect fire, as the data files give them.
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from firefight.core.chart import Chart, chart_file
from firefight.errors import ChartError
from firefight.rulesets.ept.fire import DATA
from firefight.translation import gettext as _

INDIRECT_TERRAIN = "ARTILLERIE/BOMBES: effect of terrain on indirect fire"


SCATTER_MODIFIERS = "EMPARPILLEMENT: modifiers to dice for distance"


FactorRounding = Literal["down", "nearest", "up"]


@cache
def delay_chart() -> Chart:
    """DELAIS DE TIR D'ARTILLERIE, loaded once from ``data/artillery_delay.toml``."""
    return chart_file(DATA / "artillery_delay.toml")


@cache
def impact_chart() -> Chart:
    """ARTILLERIE/BOMBES, loaded once from ``data/artillery_impact.toml``."""
    return chart_file(DATA / "artillery_impact.toml")


@cache
def scatter_chart() -> Chart:
    """EMPARPILLEMENT, loaded once from ``data/scatter.toml``."""
    return chart_file(DATA / "scatter.toml")


def chart_value(chart: Chart, row_label: str) -> int:
    """The one number a single-column chart prints on a row (``"-1"`` -> -1)."""
    cell = chart.cell_at(row_label, chart.columns.labels[0]).value
    try:
        return int(cell)
    except ValueError:
        msg = _("chart {id!r}: row {row_label!r} prints {cell!r}, not a number").format(
            id=chart.id, row_label=row_label, cell=cell
        )
        raise ChartError(msg) from None
