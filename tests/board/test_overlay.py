"""A rule set's overlay on a board picture: counters by side, a path, fire lanes, shading with
its legend and notes (firefight.board.overlay, drawn by render_board)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from firefight.board.board import BoardError
from firefight.board.overlay import SHADE_STOPS, Counter, Overlay, shade_colour, side_colours
from firefight.board.render import render_board
from firefight.errors import InputError
from firefight.rulesets.boards import load


def test_the_shading_ramp_runs_from_its_first_stop_to_its_last():
    assert shade_colour(0) == SHADE_STOPS[0][1]
    assert shade_colour(Fraction(1)) == SHADE_STOPS[-1][1]
    assert shade_colour(0.5) == "#f37b2a"
    assert shade_colour(-1) == shade_colour(0)
    lightness = [
        sum(int(shade_colour(k / 10)[i : i + 2], 16) for i in (1, 3, 5)) for k in range(11)
    ]
    assert lightness == sorted(lightness, reverse=True)


def test_sides_take_their_own_colours_and_reuse_them_past_the_last():
    assert side_colours(0) != side_colours(1)
    assert side_colours(4) == side_colours(0)


def test_a_shading_value_outside_zero_to_one_is_refused():
    board, _ = load("vv_village")
    with pytest.raises(InputError, match="'shading' must be values from 0 to 1"):
        Overlay(shading={board.hex("0101"): Fraction(3, 2)})


def test_an_overlay_draws_counters_path_lanes_shading_and_legend(tmp_path):
    board, _ = load("vv_village")
    h = board.hex
    overlay = Overlay(
        counters=(
            Counter(h("0305"), "1/A", 0),
            Counter(h("0305"), "Ldr", 0, "pinned"),
            Counter(h("0808"), "MG42", 1, "fired"),
        ),
        path=(h("0305"), h("0405"), h("0505")),
        lanes=((h("0807"), h("0706"), h("0606")),),
        shading={h("0405"): Fraction(1, 4), h("0505"): Fraction(3, 4)},
        notes={h("0405"): "25%"},
        legend="P(pinned or worse)",
    )
    plain = render_board(board, tmp_path / "plain.svg").read_text(encoding="utf-8")
    drawn = render_board(board, tmp_path / "o.svg", overlay=overlay).read_text(encoding="utf-8")
    for text in (">Ldr<", ">MG42<", ">pinned +1<", ">fired<", ">25%<", ">P(pinned or worse)<"):
        assert text in drawn
    assert ">1/A<" not in drawn  # under the leader: only the top counter's text is printed
    assert ">75%<" in drawn
    assert ">0%<" in drawn
    for colour in (shade_colour(Fraction(1, 4)), shade_colour(Fraction(3, 4)), "#b0008a"):
        assert colour in drawn
        assert colour not in plain
    no_shading = Overlay(counters=overlay.counters, path=overlay.path)
    text = render_board(board, tmp_path / "n.svg", overlay=no_shading).read_text(encoding="utf-8")
    assert "P(pinned" not in text
    assert ">0%<" not in text


def test_an_overlay_off_the_board_is_refused_before_drawing(tmp_path):
    board, _ = load("vv_village")
    far = board.hex("0101") + board.hex("0101").__class__(40, 0)
    with pytest.raises(BoardError, match="off the board"):
        render_board(board, tmp_path / "o.png", overlay=Overlay(path=(board.hex("0101"), far)))
    assert not list(tmp_path.iterdir())
