"""The picture of an engagement: P(each side still fighting) by turn (PNG or SVG).

matplotlib is imported inside :func:`draw_curve`, so importing the engagement stays light;
the output is deterministic (no date in the SVG, fixed ids), as the board pictures are.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from firefight.board.picture_file import chart_target, save_whole

if TYPE_CHECKING:
    from firefight.sim.engagement import EngagementOdds


def draw_curve(odds: EngagementOdds, path: Path | str) -> Path:
    """Draw P(side a / side b still fighting) after each turn; sampled answers show their
    95 % intervals as a band and say "sampled" in the title."""
    import matplotlib as mpl  # noqa: PLC0415 - matplotlib is slow to import
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: PLC0415
    from matplotlib.figure import Figure  # noqa: PLC0415

    target = chart_target(path)
    kind = target.suffix.lower().lstrip(".")
    scenario = odds.engagement.scenario
    with mpl.rc_context({"svg.hashsalt": "firefight", "svg.fonttype": "none"}):
        figure = Figure(figsize=(7, 4))
        FigureCanvasAgg(figure)
        axes = figure.add_subplot()
        for key, side in zip(("a", "b"), scenario.sides, strict=True):
            values = [float(e) for e in odds.fighting[key]]
            turns = list(range(len(values)))
            (line,) = axes.plot(turns, values, marker="o", label=side.name)
            intervals = [e.interval for e in odds.fighting[key]]
            if all(i is not None for i in intervals):
                axes.fill_between(
                    turns,
                    [i[0] for i in intervals if i is not None],
                    [i[1] for i in intervals if i is not None],
                    color=line.get_color(),
                    alpha=0.2,
                )
        axes.set_ylim(0, 1.02)
        axes.set_xlabel("turn")
        axes.set_ylabel("P(still fighting)")
        axes.set_title(f"{scenario.title or scenario.source} ({odds.label})")
        axes.grid(alpha=0.3)
        axes.legend()
        figure.tight_layout()
        save_whole(figure, target, kind, dpi=100)
    return target
