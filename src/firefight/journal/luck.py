"""The luck report: per player and per procedure, outcomes obtained against outcomes expected.

Each resolution entry holds the exact odds of its own input (``body["odds"]``, the procedure's
distribution when it was rolled, as ``[outcome, "p/q"]`` pairs in the chart's order), so the
expected number of times an outcome comes up over a player's resolutions is the sum of its
probability in each: an exact fraction, whatever the inputs were. Its spread is that of a sum of
independent yes/no events, variance ``sum p (1 - p)``; ``z`` is (obtained - expected) / standard
deviation, how many standard deviations lucky (positive) or unlucky a player was on that outcome
— for an outcome that is bad for him, a positive ``z`` is bad luck.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from firefight.board.picture_file import chart_target, save_whole
from firefight.errors import InputError
from firefight.journal.entry import KIND_RESOLUTION, Entry


@dataclass(frozen=True)
class LuckRow:
    """One outcome of one procedure, for one player."""

    player: str
    ruleset: str
    procedure: str
    outcome: str
    resolutions: int
    obtained: int
    expected: Fraction
    variance: Fraction

    @property
    def z(self) -> float | None:
        """(obtained - expected) / standard deviation; ``None`` when the outcome was certain
        or impossible every time (no spread)."""
        if self.variance == 0:
            return None
        return float(self.obtained - self.expected) / math.sqrt(self.variance)

    def to_json(self) -> dict[str, object]:
        """``{"player", "ruleset", "procedure", "outcome", "resolutions", "obtained",
        "expected", "variance", "z"}``; ``expected`` and ``variance`` exact (``"p/q"``)."""
        z = self.z
        return {
            "player": self.player,
            "ruleset": self.ruleset,
            "procedure": self.procedure,
            "outcome": self.outcome,
            "resolutions": self.resolutions,
            "obtained": self.obtained,
            "expected": str(self.expected),
            "variance": str(self.variance),
            "z": None if z is None else round(z, 4),
        }


def luck(entries: Iterable[Entry]) -> list[LuckRow]:
    """The luck rows of every resolution entry, grouped by player then ``ruleset procedure``
    (in first-seen order), outcomes in the order of the procedure's odds."""
    groups: dict[tuple[str, str, str], dict[str, list[Fraction | int]]] = {}
    counts: dict[tuple[str, str, str], int] = {}
    for entry in entries:
        if entry.kind != KIND_RESOLUTION:
            continue
        body = entry.body
        key = (entry.who, str(body.get("ruleset")), str(body.get("procedure")))
        tallies = groups.setdefault(key, {})
        counts[key] = counts.get(key, 0) + 1
        odds = body.get("odds")
        if not isinstance(odds, list) or not all(
            isinstance(pair, list) and len(pair) == 2 for pair in odds
        ):
            raise InputError(f"entry {entry.seq} odds", "a list of [outcome, 'p/q'] pairs", odds)
        for outcome, probability in odds:
            p = _probability(entry.seq, probability)
            tally = tallies.setdefault(str(outcome), [0, Fraction(0), Fraction(0)])
            tally[1] += p
            tally[2] += p * (1 - p)
        outcome = str(body.get("outcome"))
        tallies.setdefault(outcome, [0, Fraction(0), Fraction(0)])[0] += 1
    return [
        LuckRow(
            player,
            ruleset,
            procedure,
            outcome,
            counts[(player, ruleset, procedure)],
            int(obtained),
            Fraction(expected),
            Fraction(variance),
        )
        for (player, ruleset, procedure), tallies in groups.items()
        for outcome, (obtained, expected, variance) in tallies.items()
    ]


def _probability(seq: int, text: object) -> Fraction:
    try:
        p = Fraction(str(text))
    except (ValueError, ZeroDivisionError):
        p = Fraction(-1)
    if not 0 <= p <= 1:
        raise InputError(f"entry {seq} odds", "probabilities written p/q, 0 to 1", text)
    return p


def spread(row: LuckRow) -> tuple[float, float]:
    """How far the expected bar's ±1 standard deviation reaches below and above it, cut at 0
    and at the number of resolutions: a count of outcomes can be neither negative nor more than
    the rolls (a rare outcome's expected 0.3 ± 0.5 would otherwise draw down to -0.2)."""
    expected, sd = float(row.expected), math.sqrt(row.variance)
    return min(sd, expected), min(sd, row.resolutions - expected)


def draw_luck(rows: list[LuckRow], path: Path | str) -> Path:
    """One panel per player and procedure: bars of each outcome obtained, beside the number
    expected with one standard deviation either side, cut at 0 and at the number of
    resolutions (:func:`spread`)."""
    import matplotlib as mpl  # noqa: PLC0415 - matplotlib is slow to import
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: PLC0415
    from matplotlib.figure import Figure  # noqa: PLC0415

    target = chart_target(path)
    kind = target.suffix.lower().lstrip(".")
    panels: dict[tuple[str, str, str], list[LuckRow]] = {}
    for row in rows:
        panels.setdefault((row.player, row.ruleset, row.procedure), []).append(row)
    with mpl.rc_context({"svg.hashsalt": "firefight", "svg.fonttype": "none"}):
        height = 3.2 * max(1, len(panels))
        figure = Figure(figsize=(8, height))
        FigureCanvasAgg(figure)
        for index, ((player, ruleset, procedure), group) in enumerate(panels.items(), start=1):
            axes = figure.add_subplot(max(1, len(panels)), 1, index)
            places = list(range(len(group)))
            axes.bar(
                [x - 0.2 for x in places],
                [r.obtained for r in group],
                width=0.4,
                label="obtained",
            )
            axes.bar(
                [x + 0.2 for x in places],
                [float(r.expected) for r in group],
                width=0.4,
                yerr=list(zip(*(spread(r) for r in group), strict=True)),
                capsize=3,
                label="expected (± 1 sd, within 0 to the number rolled)",
                alpha=0.6,
            )
            # a journal's text (players, outcomes) is never read as mathtext ($...$)
            axes.set_xticks(places, [r.outcome for r in group], parse_math=False)
            axes.set_ylabel("resolutions")
            title = f"{player}: {ruleset} {procedure} ({group[0].resolutions} rolled)"
            axes.set_title(title, parse_math=False)
            axes.grid(axis="y", alpha=0.3)
            axes.legend()
        if not panels:
            figure.add_subplot().set_title("no resolutions in the journal")
        figure.tight_layout()
        save_whole(figure, target, kind, dpi=100)
    return target
