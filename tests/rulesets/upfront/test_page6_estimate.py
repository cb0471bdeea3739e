"""The page 6 walk's estimate of its moves, made before the walk (an input past it is
refused at once): never more than ESTIMATE_MARGIN times the moves the walk works out, so
that no input the walk could finish within its limit is refused by the estimate."""

from __future__ import annotations

import pytest

from firefight.rulesets.upfront import malfunction_level, malfunction_walk
from firefight.rulesets.upfront.fire import UpFrontFire, fire_odds

FIVE = "ger-leader,ger-rifle-1,ger-rifle-2,ger-lmg,ger-assistant"
CASES = {
    "five firers, two men": UpFrontFire(
        firers=FIVE,
        targets="us-rifle,us-bar",
        rr=2,
        hand="62,64,67,70,73,129,143",
        fire_cards="62,64,67,70",
        malfunction="page6",
    ),
    "five firers, three men": UpFrontFire(
        firers=FIVE,
        targets="us-rifle,us-bar,jap-rifle",
        rr=2,
        hand="62,64,67,70,73,129,143",
        fire_cards="62,64,67,70",
        malfunction="page6",
    ),
    "a rifle and a BAR, smoke, ten men": UpFrontFire(
        targets="ger-rifle-1,ger-rifle-2,jap-rifle,brit-rifle,ita-rifle,ger-leader,"
        "ger-assistant,ger-lmg,us-rifle,us-bar",
        firers="us-rifle,us-bar",
        fire_cards="62",
        smoke=-2,
        malfunction="page6",
    ),
    "four firers, lowest_malf": UpFrontFire(
        firers="ger-rifle-1,ger-rifle-2,ger-lmg,ger-assistant",
        targets="us-rifle,us-bar,jap-rifle",
        fire_cards="62",
        smoke=-2,
        malfunction="page6",
        select="lowest_malf",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_estimate_is_within_its_margin_of_the_moves_worked_out(monkeypatch, name):
    estimates: list[int] = []
    moves = [0]
    estimate, mode_moves = malfunction_walk.moves_estimate, malfunction_level._mode_moves

    def estimated(*args: object) -> int:
        found = estimate(*args)
        estimates.append(found)
        return found

    def counted(walk, rows, *args):
        before = len(rows.rows)
        found = mode_moves(walk, rows, *args)
        moves[0] += len(rows.rows) - before
        return found

    monkeypatch.setattr(malfunction_walk, "moves_estimate", estimated)
    monkeypatch.setattr(malfunction_level, "_mode_moves", counted)
    fire_odds.cache_clear()
    odds = fire_odds(CASES[name])
    assert sum(odds.tally.values()) == 1
    assert estimates
    assert moves[0] > 0
    assert estimates[0] <= malfunction_walk.ESTIMATE_MARGIN * moves[0]
