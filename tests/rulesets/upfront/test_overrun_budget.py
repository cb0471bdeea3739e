"""The overrun's exact odds pay the web's work budget for all their work
(rulesets/upfront/overrun_budget.py): the readings of every card kind at every FFS before any
is read, each FFS's walk, each draw as it begins by its pairs and card groups and, once its
compiled step is made, by the states and pairs it made, and each split and merge; so
the steps charged grow with the work, a budget below them refuses the overrun before the work
it would not pay for, and the odds within it are the odds without one."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from firefight.chance import WorkBudgetError, work_budget, work_left
from firefight.chance.distribution import Distribution
from firefight.rulesets.upfront import kernel, levels, overrun, overrun_walk
from firefight.rulesets.upfront.overrun import overrun_odds
from firefight.rulesets.upfront.overrun_attack import UpFrontOverrun
from firefight.rulesets.upfront.overrun_budget import (
    DRAW_STEPS,
    MERGED_PAIRS_PER_STEP,
    WALK_STEPS,
    draw_steps,
    made_steps,
    reading_steps,
)
from tests.rulesets.upfront.small_files import group_men

PLENTY = 10**12
"""A budget no overrun reaches: what is left of it tells what was charged."""


@pytest.fixture(scope="module")
def men(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Ten riflemen of distinct profiles (no two alike: KIA 6-9, morale 2-6, panic 3-7, rout
    4-6) and a Pz IV (OVR 8)."""
    path: Path = tmp_path_factory.mktemp("overrun_budget") / "men.toml"
    path.write_text(group_men(10, prefix="r", nationality="german"), encoding="utf-8")
    return str(path)


def _overrun(men: str, count: int, **fields: Any) -> UpFrontOverrun:
    targets = ",".join(f"r{i}" for i in range(count))
    return UpFrontOverrun(men=men, afv="pz", targets=targets, **fields)


def _charged(inp: UpFrontOverrun) -> tuple[int, Distribution[str]]:
    """The steps the overrun's odds charge, and the odds."""
    with work_budget(PLENTY):
        odds = overrun_odds(inp)
        left = work_left()
    assert left is not None
    return PLENTY - left, odds


@dataclass
class _Work:
    """What the overrun did, counted apart from what it charged."""

    readings: int = 0
    walks: int = 0
    draws: list[tuple[int, int]] = field(default_factory=list)
    """Each draw's pair-groups and card groups, as it began."""
    made: list[tuple[int, int]] = field(default_factory=list)
    """Each compiled step's states and pairs after."""
    merged: int = 0
    """The pairs of the levels merged."""


@pytest.fixture
def work(monkeypatch: pytest.MonkeyPatch) -> _Work:
    """Count the cards read, the walks, the draws, what the compiled steps made and the pairs
    merged, in the overruns worked out inside."""
    counted = _Work()
    reading, walk, draw = overrun._reading, overrun.walk, overrun_walk._Walker.draw
    advance, merged = kernel.advance, levels.merged

    def counted_reading(*args: Any) -> Any:
        counted.readings += 1
        return reading(*args)

    def counted_walk(walks: Any, *args: Any) -> Any:
        counted.walks += len(walks)
        return walk(walks, *args)

    def counted_draw(self: Any, drawing: Any, codes: Any, point: Any, *rest: Any) -> Any:
        after = rest[0]
        groups = max(self.parts[p, phase][1] for p in (point, after) for phase in self.phases)
        counted.draws.append((drawing.pairs * groups, groups))
        return draw(self, drawing, codes, point, *rest)

    def counted_advance(*args: Any, **kwargs: Any) -> Any:
        found = advance(*args, **kwargs)
        counted.made.append((len(found[0].phases), found[0].pairs))
        return found

    def counted_merged(held: Any, moduli: Any) -> Any:
        counted.merged += sum(level.pairs for level, _ in held)
        return merged(held, moduli)

    monkeypatch.setattr(overrun, "_reading", counted_reading)
    monkeypatch.setattr(overrun, "walk", counted_walk)
    monkeypatch.setattr(overrun_walk._Walker, "draw", counted_draw)
    monkeypatch.setattr(kernel, "advance", counted_advance)
    monkeypatch.setattr(levels, "merged", counted_merged)
    return counted


def _priced(work: _Work, men: int) -> int:
    """The steps of the readings, the walks, the draws and what their steps made, and the
    merges (not the splits at a TMM card)."""
    return (
        reading_steps(work.readings, men)
        + work.walks * WALK_STEPS
        + sum(draw_steps(*draw) for draw in work.draws)
        + sum(made_steps(*made) for made in work.made)
        + work.merged // MERGED_PAIRS_PER_STEP
    )


CASES = {
    "1 man": {"count": 1},
    "3 men, a TMM in woods": {"count": 3, "tmm": "r2", "defender_terrain": "woods"},
    "3 men, a TMM on the first": {"count": 3, "tmm": "r0"},
    "10 men": {"count": 10},
    "10 men, smoke": {"count": 10, "smoke": -2},
}


@pytest.mark.parametrize("case", CASES)
def test_the_steps_charged_are_the_readings_walks_draws_and_merges_the_overrun_made(
    men: str, work: _Work, case: str
):
    fields = dict(CASES[case])
    inp = _overrun(men, fields.pop("count"), **fields)
    charged, _ = _charged(inp)
    assert work.readings
    assert len(work.draws) == len(work.made)
    if "tmm" in fields:  # TMM cards split the tallies that draw none off, paid too
        assert charged >= _priced(work, len(inp.targets))
    else:
        assert charged == _priced(work, len(inp.targets))
    assert charged >= len(work.draws) * DRAW_STEPS + work.readings  # not pairs alone


def test_a_case_with_more_draws_and_cards_to_read_is_charged_more(men: str):
    found = [
        _charged(_overrun(men, count, **fields))[0]
        for count, fields in (
            (1, {}),
            (3, {}),
            (10, {}),
            (10, {"tmm": "r9", "defender_terrain": "woods"}),  # TMM cards too
        )
    ]
    assert found == sorted(found)
    assert len(set(found)) == len(found)
    assert found[2] > 5 * found[0]  # ten men's draws and readings, not one man's


def test_a_budget_below_the_charge_refuses_the_overrun_and_the_charge_itself_gives_its_odds(
    men: str,
):
    inp = _overrun(men, 3, tmm="r2", defender_terrain="woods")
    charged, odds = _charged(inp)
    with pytest.raises(WorkBudgetError), work_budget(charged - 1):
        overrun_odds(inp)
    with work_budget(charged):
        assert overrun_odds(inp) == odds
    assert overrun_odds(inp) == odds  # no budget: the same Fractions


def test_past_the_budget_the_overrun_is_refused_before_the_work_it_cannot_pay(
    men: str, work: _Work
):
    inp = _overrun(men, 10, smoke=-2)
    charged, _ = _charged(inp)
    readings = reading_steps(work.readings, len(inp.targets))
    walks = work.walks * WALK_STEPS
    first_draw = draw_steps(*work.draws[0])
    assert charged > readings + walks + first_draw
    counted = (work.readings, len(work.made))
    with pytest.raises(WorkBudgetError), work_budget(readings - 1):
        overrun_odds(inp)
    assert (work.readings, len(work.made)) == counted  # no card read, no draw
    with pytest.raises(WorkBudgetError), work_budget(readings + walks + first_draw - 1):
        overrun_odds(inp)
    assert len(work.made) == counted[1]  # the cards read, no compiled step made
