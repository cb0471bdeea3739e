"""A designed chart's rows and columns: bands of values (``"<=2"``, ``"3-4"``, ``"12+"``) or
odds ratios (``"1-2"``, ``"1-1"``, ``"3-1"``), each checked to leave no gap and no overlap.

A value (a modified roll, a strength) reads the band it falls in; an odds ratio is worked out
exactly and rounded in the defender's favour (9 against 4 is 2-1, 4 against 9 is 1-3), then
read as its column. What happens beyond the first or the last band is the file's ``below`` and
``above``: ``clamp`` (the end band is read) or ``error`` (the attack is refused).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise
from typing import Literal

from firefight.api import RuleError
from firefight.translation import gettext

Policy = Literal["clamp", "error"]

_BAND = re.compile(
    r"^(?:<=\s*(?P<le>-?\d+)|(?P<plus>-?\d+)\+|(?P<lo>-?\d+)-(?P<hi>-?\d+)|(?P<n>-?\d+))$",
    re.ASCII,  # digits 0-9 alone: int() would read other scripts' digits too
)
_RATIO = re.compile(r"^(?P<a>\d+)-(?P<b>\d+)$", re.ASCII)


def band(label: str) -> tuple[float, float] | None:
    """The closed interval a band's label stands for, or ``None`` for a label that is none:
    ``"<=2"`` (up to 2), ``"3-4"``, ``"12+"`` (12 and up), ``"7"``."""
    match = _BAND.match(label.strip())
    if match is None:
        return None
    if match["le"] is not None:
        return (-math.inf, int(match["le"]))
    if match["plus"] is not None:
        return (int(match["plus"]), math.inf)
    if match["lo"] is not None:
        low, high = int(match["lo"]), int(match["hi"])
        return (low, high) if low <= high else None
    return (int(match["n"]), int(match["n"]))


def ratio_step(label: str) -> int | None:
    """An odds column's place on the ladder of ratios: ``1-1`` is 0, ``n-1`` is ``n - 1``,
    ``1-n`` is ``1 - n``; ``None`` for a label that is no such ratio."""
    match = _RATIO.match(label.strip())
    if match is None:
        return None
    a, b = int(match["a"]), int(match["b"])
    if a < 1 or b < 1 or (a != 1 and b != 1):
        return None
    return a - 1 if b == 1 else 1 - b


def gap_or_overlap(bands: list[tuple[float, float]]) -> tuple[int, str] | None:
    """The first band (its index) that does not follow the one before it, and what is wrong:
    ``"gap"`` or ``"overlap"``; ``None`` when each band begins just after the one before."""
    for index, ((_, high), (low, _)) in enumerate(pairwise(bands), start=1):
        if low <= high:
            return index, "overlap"
        if low > high + 1:
            return index, "gap"
    return None


def ratio_label(attacker: Fraction, defender: Fraction) -> tuple[int, str]:
    """The odds of ``attacker`` against ``defender`` rounded in the defender's favour: its
    step on the ladder (:func:`ratio_step`) and its label (``"2-1"``, ``"1-3"``)."""
    if attacker >= defender:
        times = math.floor(attacker / defender)
        return times - 1, f"{times}-1"
    times = math.ceil(defender / attacker)
    return 1 - times, f"1-{times}"


@dataclass(frozen=True)
class Ladder:
    """An axis read by value: each label's interval (or ratio step), in order, and what is
    done beyond its ends."""

    header: str
    labels: tuple[str, ...]
    lows: tuple[float, ...]
    highs: tuple[float, ...]
    below: Policy
    above: Policy

    def index(self, value: Fraction | int, shown: str) -> int:
        """The band ``value`` falls in (``shown`` is how an error names it)."""
        for i, (low, high) in enumerate(zip(self.lows, self.highs, strict=True)):
            if low <= value <= high:
                return i
        if value < self.lows[0]:
            if self.below == "clamp":
                return 0
            msg = gettext("{header} {shown} is below the chart's lowest, {lowest}").format(
                header=self.header, shown=shown, lowest=self.labels[0]
            )
            raise RuleError(msg)
        if self.above == "clamp":
            return len(self.labels) - 1
        msg = gettext("{header} {shown} is above the chart's highest, {highest}").format(
            header=self.header, shown=shown, highest=self.labels[-1]
        )
        raise RuleError(msg)
