"""The picture of an engagement: P(each side still fighting) by turn (PNG or SVG).

matplotlib is imported inside :func:`draw_curve`, so importing the engagement stays light;
the output is deterministic (no date in the SVG, fixed ids), as the board pictures are.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from firefight.errors import InputError

if TYPE_CHECKING:
    from firefight.sim.engagement import EngagementOdds

KINDS = ("png", "svg")


def check_target(path: Path | str) -> Path:
    """The picture's file: a ``.png`` or ``.svg`` in an existing folder (checked before any
    work is done)."""
    target = Path(path)
    if target.suffix.lower().lstrip(".") not in KINDS:
        raise InputError("out", "a file ending in .png or .svg", str(target))
    if not target.parent.is_dir():
        raise InputError("out", "a file in an existing folder", str(target))
    return target


def draw_curve(odds: EngagementOdds, path: Path | str) -> Path:
    """Draw P(side a / side b still fighting) after each turn; sampled answers show their
    95 % intervals as a band and say "sampled" in the title."""
    import matplotlib as mpl  # noqa: PLC0415 - matplotlib is slow to import
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: PLC0415
    from matplotlib.figure import Figure  # noqa: PLC0415

    target = check_target(path)
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
        temporary = target.with_name(f".{target.name}.{os.getpid()}.part")
        try:
            metadata: dict[str, str | None] = {"Date": None} if kind == "svg" else {}
            figure.savefig(temporary, format=kind, dpi=100, metadata=metadata)
            temporary.replace(target)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
    return target
