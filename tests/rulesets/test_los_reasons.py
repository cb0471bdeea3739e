"""Each line-of-sight rule is written once: EPT's and V&V's reasons are named from
the rule's own record of the line (the facts it found at each step, its judgement), never from
a walk of their own, and they tell the verdict the vectorized engine gives for every line."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from firefight.board import hexes, hexline, los, shape, traced, visibility
from firefight.board.board import Board, hexside
from firefight.board.hexes import Hex
from firefight.board.los import line_of_sight
from firefight.board.visibility import record_line, visibility_matrix
from firefight.rulesets.boards import load, sample_boards
from firefight.rulesets.ept.board import EPT_LOS
from firefight.rulesets.ept.sight import EptSightRule
from firefight.rulesets.vv.board import HEXSIDE_FEATURES_ALONG, HEXSIDE_PAIR, VV_LOS, VvSightRule

UNIT_A = Path(__file__).parents[1] / "board" / "boards" / "vv_unit_a.toml"
BOARDS = [*sample_boards(), str(UNIT_A)]
RANGE = 10
"""Every pair of hexes at most this far apart (the sample boards are 16 x 12)."""
TURNED_STRIDE = 6
"""A pointy-top sample is a flat-top one turned a quarter turn (tests/board/test_samples.py
checks their lines equal), so every sixth of its hexes fires: the flat one's fire from all."""
PAIR_PARITY = 4
"""On a flat-top board, the lines between hexes ``i`` and ``j`` (board order) with ``i + j``
a multiple of 4: a quarter of them (every line, then half, took four and twice the time),
yet every hex fires and is fired at, and the random boards of tests/board check every
line."""


def told(verdict):
    """The verdict the named reasons tell: blocked when something is named as blocking, else
    the hindrances named, summed (each rule set's dice modifier when the line is visible)."""
    if verdict.blocked_by is not None:
        return False, 0
    return True, sum(h.modifier for h in verdict.hindrances)


def test_the_sample_boards_hold_both_rule_sets():
    assert {load(name)[1].ruleset for name in BOARDS} == {"ept", "vv"}


@pytest.mark.parametrize("name", BOARDS, ids=lambda name: Path(name).stem)
def test_the_named_reasons_tell_the_engines_verdict_on_the_lines_of_a_sample_board(name):
    """The lines within ``RANGE`` hexes (``PAIR_PARITY``'s half of them on a flat-top board):
    ``line_of_sight`` (the rule recorded on the line and its reasons) gives the whole-board
    engine's verdict and modifier, and what its reasons name tells the same: a blocker exactly
    when blocked, hindrances summing to the modifier."""
    board, policy = load(name)
    matrix = visibility_matrix(board, policy)
    listed = list(board.hexes())
    wrong, seen = [], set()
    turned = board.orientation == "pointy-top"
    for i, a in enumerate(listed):
        if turned and i % TURNED_STRIDE:
            continue
        for j, b in enumerate(listed):
            if a.distance(b) > RANGE or (not turned and (i + j) % PAIR_PARITY):
                continue
            verdict = line_of_sight(board, a, b, policy)
            expected = (bool(matrix.visible[i, j]), int(matrix.modifier[i, j]))
            if (verdict.visible, verdict.modifier) != expected or told(verdict) != expected:
                wrong.append((board.label(a), board.label(b), str(verdict), expected))
            seen.add(verdict.status)
    assert not wrong, wrong[:5]
    assert seen == {"clear", "hindered", "blocked"}


# --- the reasons are named from the record, not from a walk of their own --------------------


def _lines(board):
    listed = list(board.hexes())
    return [(a, b) for a in listed[::5] for b in listed[::3] if a.distance(b) <= RANGE]


@pytest.mark.parametrize("name", ["normandy_bocage", "vv_village"])
def test_the_reasons_neither_trace_the_line_nor_run_the_rule_again(name, monkeypatch):
    """Given the record, a policy names its reasons with every way of tracing a line
    (``Hex.line_to``, ``lines_between``, ``trace``, the engine's numpy lines) and of running
    the rule (``march``, ``record_line``, the rule's ``steps`` and ``judge``) broken: the same
    reasons come out."""
    board, policy = load(name)
    lines = _lines(board)
    expected = [line_of_sight(board, a, b, policy) for a, b in lines]
    records = [record_line(board, a, b, policy) for a, b in lines]

    def walked(*args, **kwargs):
        raise AssertionError("the reasons walked the line")

    for owner, names in (
        (hexes.Hex, ["line_to", "neighbour", "neighbours"]),
        (hexes, ["lines_between"]),
        (los, ["trace", "lines_between", "record_line", "vertex_hexsides"]),
        (visibility, ["hex_lines", "trace_lines", "march", "record_line", "fold", "step_window"]),
        (hexline, ["hex_lines"]),
        (shape, ["hex_lines"]),
        (traced, ["step_window"]),
        (EptSightRule, ["start", "steps", "judge"]),
        (VvSightRule, ["start", "steps", "judge"]),
    ):
        for attribute in names:
            monkeypatch.setattr(owner, attribute, walked)
    for record, verdict in zip(records, expected, strict=True):
        reasons = policy.explain(board, record)
        assert (reasons.hindrances, reasons.blocked_by) == (verdict.hindrances, verdict.blocked_by)
    assert {v.status for v in expected} == {"clear", "hindered", "blocked"}


def ept_board(terrain, sides=None):
    return Board("t", "ept", 12, 12, "odd-q", "clear", terrain, {}, sides or {})


def vv_board(terrain, sides=None):
    return Board("t", "vv", 12, 12, "odd-q", "open", terrain, {}, sides or {})


# A hexside line (test_los.py): along LEFT_1|RIGHT_1, through MIDDLE, along LEFT_2|RIGHT_2.
ORIGIN = Hex(2, 5)
A, TARGET = ORIGIN, ORIGIN + Hex(2, -4)
LEFT_1, RIGHT_1, MIDDLE = ORIGIN + Hex(1, -1), ORIGIN + Hex(0, -1), ORIGIN + Hex(1, -2)
LEFT_2, RIGHT_2 = ORIGIN + Hex(2, -3), ORIGIN + Hex(1, -3)


def test_ept_names_the_side_its_rule_judged_the_more_open():
    """The more open side of a hexside line is the rule's choice (``right_chosen``): the
    reasons name whichever side the judgement says, even a judgement tampered with."""
    board = ept_board({LEFT_1: "field", LEFT_2: "field", RIGHT_1: "orchard"})
    record = record_line(board, A, TARGET, EPT_LOS)
    assert record.judged["right_chosen"]
    chosen = EPT_LOS.explain(board, record).hindrances
    assert [(h.where, h.what) for h in chosen] == [(f"hex {board.label(RIGHT_1)}", "orchard")]
    other = replace(record, judged={**record.judged, "right_chosen": False})
    assert [h.where for h in EPT_LOS.explain(board, other).hindrances] == [
        f"hex {board.label(LEFT_1)}",
        f"hex {board.label(LEFT_2)}",
    ]


def test_ept_names_the_hindrances_its_rule_recorded():
    """A hindrance is named where the rule's facts record one (a clear hex recorded as a
    hindrance is named, in its own terrain): the reasons do not judge the hexes again."""
    board = ept_board({})
    a, b = ORIGIN, ORIGIN + Hex(4, 0)
    record = record_line(board, a, b, EPT_LOS)
    assert EPT_LOS.explain(board, record).hindrances == ()
    facts = {**record.facts, "left_hindrance": (0, 1, 0)}
    (named,) = EPT_LOS.explain(board, replace(record, facts=facts)).hindrances
    assert (named.where, named.what) == (f"hex {board.label(ORIGIN + Hex(2, 0))}", "clear")


def test_vv_names_the_9_4_case_its_rule_judged():
    """V&V 9.4: a hexside line hindered on both sides counts +1 for the pair; the reasons
    name the case the rule's judgement gives (``hexside_case``), even one tampered with."""
    board = vv_board({LEFT_1: "orchard", RIGHT_1: "crops"})
    record = record_line(board, A, TARGET, VV_LOS)
    assert record.judged["hexside_case"] == HEXSIDE_PAIR
    (pair,) = VV_LOS.explain(board, record).hindrances
    left, right = board.label(LEFT_1), board.label(RIGHT_1)
    assert (pair.where, pair.what) == (
        f"hex {left} beside the line and hex {right} beside the line",
        "hexside line",
    )
    other = replace(record, judged={**record.judged, "hexside_case": HEXSIDE_FEATURES_ALONG})
    assert [h.what for h in VV_LOS.explain(board, other).hindrances] == ["orchard", "crops"]


def test_vv_names_the_blocker_its_rule_recorded():
    """What blocks is read off the facts: a hedgerow the rule recorded as crossed is named,
    whatever the board's hexside says."""
    side = (ORIGIN + Hex(1, 0), ORIGIN + Hex(2, 0))
    board = vv_board({}, {hexside(*side): "hedge"})
    record = record_line(board, ORIGIN, ORIGIN + Hex(4, 0), VV_LOS)
    (crossed,) = VV_LOS.explain(board, record).hindrances
    assert crossed.what == "hedge"
    facts = {**record.facts, "across_blocks": (0, 2, 0)}
    judged = {**record.judged, "visible": False, "modifier": 0}
    blocked = VV_LOS.explain(board, replace(record, facts=facts, judged=judged))
    assert blocked.blocked_by == f"hexside {board.label(side[0])}/{board.label(side[1])} (hedge)"
