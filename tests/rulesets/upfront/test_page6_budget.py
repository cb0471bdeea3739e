"""The page 6 walk pays the web's work budget for the work it does, as it does it: the moves
its compiled step is given (worked out in Python, mode by mode) and the new pool states the
compiled loop makes, which stops itself at the budget left. Asserted on the steps charged
against counters of the work done, never on time."""

from __future__ import annotations

import pytest

from firefight.chance import WorkBudgetError, work_budget, work_left
from firefight.errors import RuleError
from firefight.rulesets.upfront import malfunction_level, malfunction_loop, malfunction_walk
from firefight.rulesets.upfront.fire import UpFrontFire, fire_odds
from firefight.rulesets.upfront.malfunction_step import PAGE6_MOVE_COST, PAGE6_UPDATES_PER_STEP

FIVE_FIRERS = UpFrontFire(
    firers="ger-leader,ger-rifle-1,ger-rifle-2,ger-lmg,ger-assistant",
    targets="us-rifle,us-bar,jap-rifle,brit-rifle,ita-rifle",
    rr=2,
    hand="62,64,67,70,73,129,143",
    fire_cards="62,64,67,70",
    malfunction="page6",
)
"""Five firers of four malfunction numbers on five men of five profiles: every malfunction
card draws a selection card, and the modes (FFS, weapons, selection cards seen) multiply
by some thirty a man, so that the moves worked out in Python, not the tallies, are the
walk's work."""

ILLUSTRATIVE_SMOKE = UpFrontFire(
    targets="ger-rifle-1,ger-rifle-2,jap-rifle,brit-rifle,ita-rifle,ger-leader,ger-assistant,"
    "ger-lmg,us-rifle,us-bar",
    firers="us-rifle,us-bar",
    fire_cards="62",
    smoke=-2,
    malfunction="page6",
)
"""Fire by a rifle and a BAR with smoke on the ten illustrative men: the compiled loop's
new pool states are most of the work."""


class _Counted:
    """The moves the walk worked out (per mode) and each compiled loop's cap and work."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.moves = 0
        self.most_per_mode = 0
        self.per_man: dict[int, int] = {}
        self.loops: list[tuple[int, int]] = []
        mode_moves, loop = malfunction_level._mode_moves, malfunction_loop.advance_page6

        def counted_moves(walk, moves, *args):
            before = len(moves.rows)
            found = mode_moves(walk, moves, *args)
            self.moves += len(moves.rows) - before
            self.per_man[args[0]] = self.per_man.get(args[0], 0) + len(moves.rows) - before
            self.most_per_mode = max(self.most_per_mode, len(moves.rows) - before)
            return found

        def counted_loop(*args):
            out = loop(*args)
            self.loops.append((int(args[-1]), int(out[6])))
            return out

        monkeypatch.setattr(malfunction_level, "_mode_moves", counted_moves)
        monkeypatch.setattr(malfunction_loop, "advance_page6", counted_loop)


def _refused(inp: UpFrontFire, steps: int) -> int:
    """The steps ``inp``'s odds charged before the budget of ``steps`` refused them."""
    fire_odds.cache_clear()
    left: list[int | None] = []

    def walked() -> None:
        try:
            fire_odds(inp)
        finally:
            left.append(work_left())

    with pytest.raises(WorkBudgetError) as error, work_budget(steps):
        walked()
    assert "\n" not in str(error.value)
    assert left[0] is not None
    return steps - left[0]


@pytest.mark.parametrize("steps", [2_000, 20_000])
def test_the_moves_worked_out_in_python_pay_the_budget_as_they_are_made(monkeypatch, steps):
    monkeypatch.setattr(malfunction_walk, "ESTIMATE_MARGIN", 10**12)  # walk, then pay
    counted = _Counted(monkeypatch)
    charged = _refused(FIVE_FIRERS, steps)
    paid_for = charged * PAGE6_UPDATES_PER_STEP // PAGE6_MOVE_COST
    assert counted.moves > steps  # the moves are this walk's work...
    assert counted.moves <= paid_for + counted.most_per_mode  # ... each paid, one mode late


@pytest.mark.parametrize("steps", [1_500, 5_000])
def test_the_compiled_loop_stops_itself_at_the_budget_left(monkeypatch, steps):
    counted = _Counted(monkeypatch)
    _refused(ILLUSTRATIVE_SMOKE, steps)
    cap, work = counted.loops[-1]
    assert cap >= 0
    assert work > cap  # the last loop stopped itself ...
    most = 64 * (malfunction_loop.PROBE_COST + malfunction_loop.NEW_STATE_COST * 38)
    assert work <= cap + most  # ... one pool state's moves past the budget left
    assert all(w <= c for c, w in counted.loops[:-1])
    assert cap <= (steps + 1) * malfunction_level.LOOP_UNITS_PER_STEP


def test_without_a_budget_the_loop_is_not_capped(monkeypatch):
    counted = _Counted(monkeypatch)
    fire_odds.cache_clear()
    inp = UpFrontFire(
        targets="ger-rifle-1,ger-rifle-2,jap-rifle",
        firers="us-rifle,us-bar",
        fire_cards="62",
        malfunction="page6",
    )
    odds = fire_odds(inp)
    assert sum(odds.tally.values()) == 1
    assert counted.loops
    assert all(cap < 0 for cap, _ in counted.loops)


def test_more_moves_than_one_man_may_take_is_one_line_without_a_budget(monkeypatch):
    """Without a budget (the CLI) a man's moves stop at MAX_MOVES, as they are worked out:
    the five firers' modes would outgrow memory before the pairs after the man are known."""
    monkeypatch.setattr(malfunction_level, "MAX_MOVES", 5_000)
    monkeypatch.setattr(malfunction_walk, "ESTIMATE_MARGIN", 10**12)  # walk, then stop
    counted = _Counted(monkeypatch)
    fire_odds.cache_clear()
    with pytest.raises(RuleError, match=r"malfunction = page6 need more than 5,000 moves") as error:
        fire_odds(FIVE_FIRERS)
    assert "\n" not in str(error.value)
    last = max(counted.per_man)
    assert f"for man {last + 1} of 5" in str(error.value)
    assert 5_000 < counted.per_man[last] <= 5_000 + counted.most_per_mode


def test_an_input_far_past_the_budget_is_refused_before_any_move(monkeypatch):
    """The five firers' estimate (the modes the selection cards seen tell apart) is far past
    what the web's budget pays for: refused in one line before a move is worked out."""
    counted = _Counted(monkeypatch)
    _refused(FIVE_FIRERS, 100_000)
    assert counted.moves == 0


def test_without_a_budget_an_input_far_past_max_moves_is_refused_before_any_move(monkeypatch):
    counted = _Counted(monkeypatch)
    fire_odds.cache_clear()
    with pytest.raises(RuleError, match=r"malfunction = page6 would need about") as error:
        fire_odds(FIVE_FIRERS)
    assert "\n" not in str(error.value)
    assert f"{malfunction_level.MAX_MOVES * malfunction_walk.ESTIMATE_MARGIN:,}" in str(error.value)
    assert counted.moves == 0
