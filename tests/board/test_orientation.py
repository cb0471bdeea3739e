"""Boards typed as printed: flat-top or pointy-top hexes, ``CCRR`` or letter + number labels.

A map printed with pointy-topped hexes is the flat-top map turned a quarter turn. Here each
flat-top board is turned by an independent formula (pixel centres written out below, not
firefight's), typed as a pointy-top board file, and asked the same questions: line of sight,
the visible sets, V&V fire lanes (left and right must stay on the same side of the printed
line), pictures and Tiled maps.
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firefight.board.board import Board, BoardError, board_from_data
from firefight.board.hexes import Hex
from firefight.board.los import line_of_sight
from firefight.board.tiled import board_to_tiled, tiled_to_data
from firefight.board.visibility import visibility_matrix
from firefight.errors import InputError
from firefight.rulesets.boards import load
from firefight.rulesets.ept.board import EPT_LOS
from firefight.rulesets.vv.board import VV_LOS
from firefight.rulesets.vv.lanes import lane_hexes
from firefight.web.boardsvg import board_svg
from tests.board.random_boards import random_board

BOARDS = Path(__file__).parent / "boards"
SQRT3 = math.sqrt(3)


def flat_centre(column: int, row: int, offset: str) -> tuple[float, float]:
    """A flat-top hex's centre: columns 1.5 apart, odd (odd-q) or even columns half a hex low."""
    low = column % 2 == (1 if offset == "odd-q" else 0)
    return 1.5 * column, SQRT3 * (row + (0.5 if low else 0.0))


def pointy_centre(column: int, row: int, offset: str) -> tuple[float, float]:
    """A pointy-top hex's centre: rows 1.5 apart, odd (odd-r) or even rows half a hex right."""
    right = row % 2 == (1 if offset == "odd-r" else 0)
    return SQRT3 * (column + (0.5 if right else 0.0)), 1.5 * row


def letters(number: int) -> str:
    return chr(ord("A") + (number - 1) % 26) * ((number - 1) // 26 + 1)


class Turned:
    """A flat-top board turned a quarter turn (clockwise or not) and typed as pointy-top."""

    def __init__(self, flat: Board, clockwise: bool, labels: str = "letter-number") -> None:
        sides = {k: v for k, v in flat.hexsides.items() if k[0] in flat and k[1] in flat}
        flat = replace(flat, hexsides=sides)  # a file names hexsides on its board only
        self.flat, self.clockwise, self.labels = flat, clockwise, labels
        columns, rows = flat.columns, flat.rows
        if clockwise:  # (x, y) -> (-y, x): the flat columns become rows, top to bottom
            self.place = lambda c, r: (rows + 1 - r, c)
        else:  # (x, y) -> (y, -x): the flat columns become rows, bottom to top
            self.place = lambda c, r: (r, columns + 1 - c)
        self.offset = self._offset()
        self.board = board_from_data(self._data(), VV_LOS if flat.ruleset == "vv" else EPT_LOS, "t")

    def turn(self, x: float, y: float) -> tuple[float, float]:
        return (-y, x) if self.clockwise else (y, -x)

    def _offset(self) -> str:
        """The pointy-top offset whose centres are the turned flat centres, moved as one."""
        found = []
        for offset in ("odd-r", "even-r"):
            moves = set()
            for c in range(1, self.flat.columns + 1):
                for r in range(1, self.flat.rows + 1):
                    tx, ty = self.turn(*flat_centre(c, r, self.flat.offset))
                    px, py = pointy_centre(*self.place(c, r), offset)
                    moves.add((round(tx - px, 6), round(ty - py, 6)))
            if len(moves) == 1:
                found.append(offset)
        if 1 in (self.flat.columns, self.flat.rows):  # one line: both offsets draw it alike
            return found[0]
        assert len(found) == 1, found
        return found[0]

    def label(self, flat_label: str) -> str:
        column, row = self.flat.column_row(self.flat.locate(flat_label))  # a lane may leave it
        c, r = self.place(column, row)
        if self.labels == "numbers":
            return f"{c:02d}{r:02d}"
        return f"{letters(r)}{c}"

    def _data(self) -> dict[str, object]:
        flat = self.flat.to_json()
        hexes = flat["hexes"]
        sides = flat["hexsides"]
        assert isinstance(hexes, dict)
        assert isinstance(sides, dict)
        return {
            "name": "turned",
            "ruleset": self.flat.ruleset,
            "orientation": "pointy-top",
            "labels": self.labels,
            "offset": self.offset,
            "columns": self.flat.rows,
            "rows": self.flat.columns,
            "default_terrain": self.flat.default_terrain,
            "hexes": {self.label(k): v for k, v in hexes.items()},
            "hexsides": {
                "/".join(self.label(p) for p in k.split("/")): v for k, v in sides.items()
            },
        }


def test_the_turned_board_is_drawn_where_the_formula_puts_it():
    """firefight's pixel layout of a pointy-top board is the turned flat-top one (moved as one),
    and its labels name the hexes the turn puts there."""
    flat = random_board("vv", 5, 4, seed=1)
    for clockwise in (True, False):
        turned = Turned(flat, clockwise)
        moves = set()
        for h in flat.hexes():
            label = flat.label(h)
            other = turned.board.hex(turned.label(label))
            assert turned.board.label(other) == turned.label(label)
            assert turned.board.terrain_of(other) == flat.terrain_of(h)
            px, py = turned.board.centre(other)
            tx, ty = turned.turn(*flat_centre(*flat.column_row(h), flat.offset))
            moves.add((round(tx - px, 6), round(ty - py, 6)))
        assert len(moves) == 1


@pytest.mark.parametrize("policy", [VV_LOS, EPT_LOS], ids=["vv", "ept"])
@pytest.mark.parametrize("clockwise", [True, False], ids=["clockwise", "anticlockwise"])
@pytest.mark.parametrize("labels", ["letter-number", "numbers"])
def test_line_of_sight_is_the_same_on_the_turned_board(policy, clockwise, labels):
    """Every pair of hexes: the same verdict, modifier and hindrances, whichever way it is
    printed; the whole-board engine agrees."""
    flat = random_board(policy.ruleset, 6, 5, seed=3)
    turned = Turned(flat, clockwise, labels)
    flat, pointy = turned.flat, turned.board
    listed = [flat.label(h) for h in flat.hexes()]
    for a in listed:
        for b in listed:
            one = line_of_sight(flat, flat.hex(a), flat.hex(b), policy)
            two = line_of_sight(
                pointy, pointy.hex(turned.label(a)), pointy.hex(turned.label(b)), policy
            )
            assert (one.status, one.modifier) == (two.status, two.modifier), (a, b)
            assert len(one.hindrances) == len(two.hindrances)
    flat_matrix, pointy_matrix = visibility_matrix(flat, policy), visibility_matrix(pointy, policy)
    assert pointy_matrix.hexes == tuple(pointy.hexes())
    for a in listed:
        i, k = flat_matrix.index(flat.hex(a)), pointy_matrix.index(pointy.hex(turned.label(a)))
        for b in listed:
            j = flat_matrix.index(flat.hex(b))
            m = pointy_matrix.index(pointy.hex(turned.label(b)))
            assert flat_matrix.visible[i, j] == pointy_matrix.visible[k, m]
            assert flat_matrix.modifier[i, j] == pointy_matrix.modifier[k, m]


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 7), st.integers(1, 7), st.integers(0, 10**6), st.booleans())
def test_any_board_sees_alike_turned(columns, rows, seed, clockwise):
    flat = random_board("vv", columns, rows, seed=seed)
    turned = Turned(flat, clockwise)
    flat = turned.flat
    flat_matrix = visibility_matrix(flat, VV_LOS)
    pointy_matrix = visibility_matrix(turned.board, VV_LOS)
    for h in flat.hexes():
        i = flat_matrix.index(h)
        k = pointy_matrix.index(turned.board.hex(turned.label(flat.label(h))))
        seen_flat = {
            flat.label(x)
            for x, v in zip(flat_matrix.hexes, flat_matrix.visible[i], strict=True)
            if v
        }
        seen_pointy = {
            turned.board.label(x)
            for x, v in zip(pointy_matrix.hexes, pointy_matrix.visible[k], strict=True)
            if v
        }
        assert {turned.label(x) for x in seen_flat} == seen_pointy


UNIT_A = ("vv_unit_a.toml", "0504", {"0704": "woods", "0104": "building"})
UNIT_A_POINTY = ("vv_unit_a_pointy.toml", "E4", {"G4": "woods", "A4": "building"})


@pytest.mark.parametrize("example", [UNIT_A, UNIT_A_POINTY], ids=["flat-top", "pointy-top"])
def test_the_vv_unit_a_example_typed_either_way(example):
    """V&V chapter 9, Line of Sight and Cover Modifier Examples, unit A, typed as a flat-top
    map and as a pointy-top map with lettered rows: "Fire coming into the hex, however, from
    units 1 or 2, will suffer a +1 hindrance modifier for the hedge"; unit A fires freely."""
    name, unit_a, firers = example
    board, policy = load(str(BOARDS / name))
    a = board.hex(unit_a)
    for label, cover in firers.items():
        firer = board.hex(label)
        assert board.terrain_of(firer) == cover
        incoming = line_of_sight(board, firer, a, policy)
        assert (incoming.status, incoming.modifier) == ("hindered", 1)
        assert [h.what for h in incoming.hindrances] == ["hedge"]
        outgoing = line_of_sight(board, a, firer, policy)
        assert (outgoing.status, outgoing.modifier) == ("clear", 0)


def test_the_pointy_unit_a_file_is_the_flat_one_turned():
    flat, _ = load(str(BOARDS / "vv_unit_a.toml"))
    pointy, _ = load(str(BOARDS / "vv_unit_a_pointy.toml"))
    turned = Turned(flat, clockwise=True)
    assert pointy.offset == turned.offset
    assert (pointy.columns, pointy.rows) == (turned.board.columns, turned.board.rows)
    assert pointy.terrain == turned.board.terrain
    assert pointy.hexsides == turned.board.hexsides


def lane_labels(board: Board, firer: str, target: str, side: str) -> list[str]:
    hexes = lane_hexes(board.hex(firer), board.hex(target), first_side=side)  # type: ignore[arg-type]
    return [board.label(h) for h in hexes]


@pytest.mark.parametrize("clockwise", [True, False], ids=["clockwise", "anticlockwise"])
@pytest.mark.parametrize("side", ["left", "right"])
def test_vv_lane_sides_mean_the_same_on_the_printed_map(clockwise, side):
    """13.9 Fire Lane Examples (A5 to E3 straight; along hexsides the markers alternate, the
    player's side first): every lane of a 7 x 7 board, typed flat-top and turned pointy-top,
    puts its markers in the same printed hexes, ``left`` on the left of the line seen from
    the firer in both."""
    flat = Board("lanes", "vv", 7, 7, default_terrain="open", labels="letter-number")
    assert lane_labels(flat, "A5", "E3", side) == ["B5", "C4", "D4", "E3"]
    turned = Turned(flat, clockwise)
    listed = [flat.label(h) for h in flat.hexes()]
    for a in listed:
        for b in listed:
            if a == b:
                continue
            expected = [turned.label(x) for x in lane_labels(flat, a, b, side)]
            assert lane_labels(turned.board, turned.label(a), turned.label(b), side) == expected


def test_a_mirrored_map_would_swap_the_lane_sides():
    """Why the pointy-top board is the flat one turned, not mirrored: typed through a mirror
    (columns read as rows), left and right trade places."""
    flat = Board("lanes", "vv", 7, 7, default_terrain="open")
    mirror = Board("mirror", "vv", 7, 7, "odd-r", default_terrain="open", orientation="pointy-top")
    swap = lambda label: label[2:] + label[:2]  # noqa: E731 - CCRR -> RRCC
    firer = flat.hex("0306")
    target = firer + Hex(2, -4)  # up the board along hexsides: directions 1 and 2 in turn
    a, b = flat.label(firer), flat.label(target)
    left = lane_labels(flat, a, b, "left")
    assert len(set(left)) == 4
    mirrored_left = lane_labels(mirror, swap(a), swap(b), "left")
    mirrored_right = lane_labels(mirror, swap(a), swap(b), "right")
    assert [swap(x) for x in left] != mirrored_left
    assert [swap(x) for x in left] == mirrored_right


# --- typing a board ----------------------------------------------------------------------------


def pointy_data(**changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "name": "p",
        "ruleset": "vv",
        "orientation": "pointy-top",
        "labels": "letter-number",
        "columns": 5,
        "rows": 4,
        "hexes": {"D2": "woods"},
        "hexsides": {"B2/B3": "hedge"},
    }
    data.update(changes)
    return data


def test_a_pointy_board_file_takes_its_printed_labels():
    board = board_from_data(pointy_data(), VV_LOS, "p.toml")
    assert board.offset == "odd-r"  # the pointy-top default
    assert board.terrain_of(board.hex("D2")) == "woods"
    assert board.label(board.hex("d2")) == "D2"
    assert [board.label(h) for h in board.hexes()][:6] == ["A1", "A2", "A3", "A4", "A5", "B1"]
    assert board.hexside_of(board.hex("B2"), board.hex("B3")) == "hedge"
    assert board.to_json()["orientation"] == "pointy-top"
    assert board.to_json()["hexes"] == {"D2": {"terrain": "woods", "elevation": 0}}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"orientation": "diagonal"},
            "p.toml: 'orientation' must be one of flat-top, pointy-top (got 'diagonal')",
        ),
        (
            {"offset": "odd-q"},
            "p.toml: 'offset' must be one of odd-r, even-r for a pointy-top board (got 'odd-q')",
        ),
        (
            {"labels": "roman"},
            "p.toml: 'labels' must be one of numbers, letter-number (got 'roman')",
        ),
        (
            {"hexes": {"Z99": "woods"}},
            "p.toml: hex 'Z99': 'hex' must be a hex of board 'p' (A1..D5) (got 'Z99')",
        ),
        (
            {"hexes": {"AB2": "woods"}},
            "p.toml: hex 'AB2': 'hex' must be a label such as D2 (row D, column 2) (got 'AB2')",
        ),
        (
            {"hexes": {"0102": "woods"}},
            "p.toml: hex '0102': 'hex' must be a label such as D2 (row D, column 2) (got '0102')",
        ),
        ({"hexsides": {"A1/C1": "hedge"}}, "p.toml: hexside A1/C1: A1 and C1 are not adjacent"),
    ],
)
def test_board_file_errors_are_one_line(changes, message):
    with pytest.raises(BoardError) as caught:
        board_from_data(pointy_data(**changes), VV_LOS, "p.toml")
    assert str(caught.value) == message
    assert "\n" not in str(caught.value)


def test_a_flat_board_refuses_a_pointy_offset():
    data = pointy_data(orientation="flat-top", offset="odd-r", hexes={}, hexsides={})
    with pytest.raises(BoardError, match=r"'offset' must be one of odd-q, even-q for a flat-top"):
        board_from_data(data, VV_LOS, "p.toml")


def test_a_flat_board_lettered_names_its_columns():
    board = Board("f", "vv", 10, 10, labels="letter-number")
    assert board.label(board.hex("A5")) == "A5"
    assert board.column_row(board.hex("E3")) == (5, 3)
    with pytest.raises(InputError, match=r"a label such as D2 \(column D, row 2\)"):
        board.hex("5A")


def test_lines_past_z_double_their_letter():
    board = Board("wide", "vv", 3, 30, "odd-r", orientation="pointy-top", labels="letter-number")
    assert board.label(board.hex("Z1")) == "Z1"
    assert board.column_row(board.hex("AA2")) == (2, 27)
    assert board.label(board.hex("dd3")) == "DD3"


def test_a_board_refuses_an_offset_of_the_other_orientation():
    with pytest.raises(InputError, match="'offset' must be one of odd-r, even-r"):
        Board("b", "vv", 3, 3, "odd-q", orientation="pointy-top")
    with pytest.raises(InputError, match="'orientation' must be one of flat-top, pointy-top"):
        Board("b", "vv", 3, 3, orientation="sideways")  # type: ignore[arg-type]


# --- pictures, the web page, Tiled -------------------------------------------------------------


def test_the_web_drawing_has_pointy_hexes_and_printed_places():
    board = board_from_data(pointy_data(), VV_LOS, "p.toml")
    drawing = board_svg(board)
    first = drawing.hexes[0]
    assert (first.label, first.column, first.row) == ("A1", 1, 1)
    points = [tuple(map(float, p.split(","))) for p in first.points.split()]
    top = min(points, key=lambda p: p[1])
    assert abs(top[0] - first.x) < 0.2  # a corner straight above the centre: pointy-topped
    flat = board_svg(Board("f", "vv", 2, 2))
    flat_points = [tuple(map(float, p.split(","))) for p in flat.hexes[0].points.split()]
    assert sum(1 for p in flat_points if abs(p[1] - min(y for _, y in flat_points)) < 0.2) == 2


def test_the_picture_of_a_pointy_board(tmp_path):
    board = board_from_data(pointy_data(), VV_LOS, "p.toml")
    from firefight.board.render import render_board  # noqa: PLC0415 - matplotlib is slow

    a, b = board.hex("A1"), board.hex("D5")
    out = render_board(board, tmp_path / "p.svg", los=(a, b, line_of_sight(board, a, b, VV_LOS)))
    text = out.read_text()
    for label in ("A1", "D2", "D5", "LOS A1 to D5"):
        assert label in text


@pytest.mark.parametrize("labels", ["letter-number", "numbers"])
@pytest.mark.parametrize("offset", ["odd-r", "even-r"])
def test_a_pointy_board_goes_to_tiled_and_back(offset, labels):
    flat = random_board("vv", 5, 4, seed=11)
    turned = Turned(flat, clockwise=True, labels=labels)
    data = turned._data()
    data["offset"] = offset
    data["hexsides"] = {}
    board = board_from_data(data, VV_LOS, "t")
    sides = {}
    for h in board.hexes():
        n = h.neighbour(3)
        if n in board:
            sides[min(h, n), max(h, n)] = "hedge"
    board = Board(
        board.name,
        "vv",
        board.columns,
        board.rows,
        board.offset,
        board.default_terrain,
        board.terrain,
        board.elevation,
        sides,
        orientation="pointy-top",
        labels=board.labels,
    )
    tiled = board_to_tiled(board, VV_LOS)
    assert (tiled["staggeraxis"], tiled["tilewidth"], tiled["tileheight"]) == ("y", 56, 64)
    back = board_from_data(tiled_to_data(tiled, "t.json"), VV_LOS, "t.json")
    assert (back.orientation, back.offset, back.labels) == ("pointy-top", offset, labels)
    assert back.terrain == board.terrain
    assert back.elevation == board.elevation
    assert back.hexsides == board.hexsides


def test_a_pointy_tileset_has_turned_tiles(tmp_path):
    """The tileset image of a pointy-top map: tiles 56 wide and 64 tall, as the map's."""
    from PIL import Image  # noqa: PLC0415

    from firefight.board.render import render_tileset  # noqa: PLC0415 - matplotlib is slow

    out = render_tileset(VV_LOS, tmp_path / "t.png", levels=(1,), orientation="pointy-top")
    count = len(VV_LOS.hex_terrains) + 1
    with Image.open(out) as image:
        assert image.size == (56 * count, 64)
