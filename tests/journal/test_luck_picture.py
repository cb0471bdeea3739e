"""The luck picture's whiskers: a count of outcomes is never drawn below 0 or above the rolls."""

from __future__ import annotations

from fractions import Fraction

from matplotlib.axes import Axes

from firefight.journal.luck import LuckRow, draw_luck


def _row(outcome: str, p: Fraction, rolled: int = 1) -> LuckRow:
    return LuckRow("al", "ept", "fire", outcome, rolled, 0, rolled * p, rolled * p * (1 - p))


def test_the_luck_pictures_one_sd_bars_stay_between_zero_and_the_number_rolled(
    tmp_path, monkeypatch
):
    """A rare outcome (1/36 once: 0.03 ± 0.16) drew its bar down to -0.14, a likely one
    (35/36 once) up to 1.14 of a single roll."""
    drawn: list[tuple[list[float], object]] = []
    bar = Axes.bar

    def recorded(self, x, height, *args, **kwargs):
        if "yerr" in kwargs:
            drawn.append((list(height), kwargs["yerr"]))
        return bar(self, x, height, *args, **kwargs)

    monkeypatch.setattr(Axes, "bar", recorded)
    rows = [_row("KIA", Fraction(1, 36)), _row("-", Fraction(35, 36)), _row("S1", Fraction(1, 2))]
    draw_luck(rows, tmp_path / "luck.svg")
    [(heights, yerr)] = drawn
    symmetric = len(yerr) == len(heights)  # one sd each side (as drawn before the cut)
    below, above = (yerr, yerr) if symmetric else yerr
    lowest = [h - b for h, b in zip(heights, below, strict=True)]
    highest = [h + a for h, a in zip(heights, above, strict=True)]
    assert min(lowest) >= 0
    assert lowest[0] == 0  # cut at the axis
    assert max(highest) <= 1
    assert highest[1] == 1  # cut at the one roll
    assert below[2] == above[2] == 0.5  # a whisker inside the range is the whole sd
