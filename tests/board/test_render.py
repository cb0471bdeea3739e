"""Pictures of boards: PNG and SVG, deterministic, with a line of sight, a visible set, units.

With the environment variable FIREFIGHT_ARTIFACTS set to a folder, one PNG per sample board
(and one with a line of sight and the visible set) is saved there to be looked at.
"""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from firefight.board.board import Board, BoardError
from firefight.board.hexes import parse_label
from firefight.board.los import line_of_sight, visible_from
from firefight.board.render import render_board, render_tileset, terrain_colour
from firefight.board.tiled import TILE_HEIGHT, TILE_WIDTH
from firefight.errors import InputError
from firefight.rulesets.boards import load
from firefight.rulesets.ept.board import EPT_LOS
from firefight.rulesets.vv.board import VV_LOS

SAMPLES = ["normandy_bocage", "vv_village"]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data.startswith(PNG_SIGNATURE)
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def artifacts() -> Path | None:
    folder = os.environ.get("FIREFIGHT_ARTIFACTS")
    if not folder:
        return None
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.mark.parametrize("name", SAMPLES)
def test_a_sample_renders_to_png(tmp_path, name):
    board, _ = load(name)
    out = render_board(board, tmp_path / f"{name}.png", title=board.name)
    assert out == tmp_path / f"{name}.png"
    width, height = png_size(out)
    assert 1000 < width < 4000
    assert 800 < height < 4000
    assert width > height  # 16 columns of flat-topped hexes are wider than 12 rows are tall
    saved = artifacts()
    if saved:
        render_board(board, saved / f"{name}.png", title=board.name)


@pytest.mark.parametrize("name", SAMPLES)
def test_a_sample_renders_to_svg_with_its_hex_labels_as_text(tmp_path, name):
    board, _ = load(name)
    out = render_board(board, tmp_path / f"{name}.svg", title=board.name)
    root = ET.parse(out).getroot()
    assert root.tag.endswith("svg")
    text = out.read_text(encoding="utf-8")
    for label in ("0101", "0112", "1601", "1612", "0806"):
        assert f">{label}<" in text
    assert board.name in text


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_the_output_is_the_same_every_time(tmp_path, suffix):
    board, _ = load("vv_village")
    first = render_board(board, tmp_path / f"a{suffix}").read_bytes()
    second = render_board(board, tmp_path / f"b{suffix}").read_bytes()
    assert first == second
    if suffix == ".svg":
        assert b"<dc:date>" not in first


def test_a_line_of_sight_a_visible_set_and_units_are_drawn(tmp_path):
    board, policy = load("normandy_bocage")
    a, b = board.hex("0202"), board.hex("0502")
    verdict = line_of_sight(board, a, b, policy)
    assert verdict.status == "hindered"
    plain = render_board(board, tmp_path / "plain.svg").read_text(encoding="utf-8")
    drawn = render_board(
        board,
        tmp_path / "los.svg",
        los=(a, b, verdict),
        units={a: "2/A", b: "MG42"},
        title="2nd platoon fires",
    ).read_text(encoding="utf-8")
    assert len(drawn) > len(plain)
    assert ">2/A<" in drawn
    assert ">MG42<" in drawn
    assert "LOS 0202 to 0502: hindered +2" in drawn
    origin = board.hex("0606")
    seen = visible_from(board, origin, policy)
    assert origin in seen
    assert len(seen) < len(list(board.hexes()))
    picture = render_board(board, tmp_path / "visible.png", visible=seen, origin=origin)
    png_size(picture)
    saved = artifacts()
    if saved:
        render_board(
            board, saved / "normandy_bocage_los.png", los=(a, b, verdict), units={a: "2/A"}
        )
        render_board(board, saved / "normandy_bocage_visible.png", visible=seen, origin=origin)


def test_a_blocked_line_outlines_what_blocks_it(tmp_path):
    board, policy = load("vv_village")
    a, b = board.hex("1008"), board.hex("1012")
    verdict = line_of_sight(board, a, b, policy)
    assert verdict.status == "blocked"
    text = render_board(board, tmp_path / "blocked.svg", los=(a, b, verdict)).read_text(
        encoding="utf-8"
    )
    assert "blocked by hexside 1009/1010 (hedgerow)" in text
    saved = artifacts()
    if saved:
        render_board(board, saved / "vv_village_hedgerow.png", los=(a, b, verdict))


def test_every_shape_of_visible_set_draws_the_same_greying(tmp_path):
    board, policy = load("vv_village")
    origin = board.hex("0310")
    verdicts = visible_from(board, origin, policy)
    modifiers = {h: v.modifier for h, v in verdicts.items()}
    pictures = [
        render_board(board, tmp_path / "verdicts.svg", visible=verdicts, origin=origin),
        render_board(board, tmp_path / "modifiers.svg", visible=modifiers, origin=origin),
        render_board(board, tmp_path / "pair.svg", visible=(origin, modifiers)),
    ]
    texts = [p.read_text(encoding="utf-8") for p in pictures]
    assert texts[0] == texts[1] == texts[2]
    plain = render_board(board, tmp_path / "plain.svg", visible=set(verdicts))
    assert plain.read_text(encoding="utf-8") != texts[0]  # no origin ring, no modifiers


def test_another_suffix_is_refused(tmp_path):
    board, _ = load("vv_village")
    with pytest.raises(InputError, match=r"'out' must be a file name ending in \.png or \.svg"):
        render_board(board, tmp_path / "board.jpg")
    assert not list(tmp_path.iterdir())


def test_a_unit_off_the_board_is_refused(tmp_path):
    board, _ = load("vv_village")
    with pytest.raises(BoardError, match="hex 2020 to draw is off the board"):
        render_board(board, tmp_path / "board.png", units={parse_label("2020"): "X"})
    assert not list(tmp_path.iterdir())


def test_an_unknown_terrain_gets_the_fallback_colour_and_its_name(tmp_path):
    board = Board("odd", "ept", 2, 2, terrain={parse_label("0101"): "minefield"})
    text = render_board(board, tmp_path / "odd.svg").read_text(encoding="utf-8")
    assert ">minefield<" in text
    assert terrain_colour("minefield") == "#d8d8d8"


def test_hills_are_browner_by_level():
    flat, level_1, level_2 = (terrain_colour("open", level) for level in (0, 1, 2))
    assert len({flat, level_1, level_2}) == 3
    assert sum(int(level_2[i : i + 2], 16) for i in (1, 3, 5)) < sum(
        int(level_1[i : i + 2], 16) for i in (1, 3, 5)
    )


@pytest.mark.parametrize(("policy", "count"), [(EPT_LOS, 13 + 3), (VV_LOS, 20 + 3)])
def test_the_tileset_image_has_one_tile_per_terrain_and_level(tmp_path, policy, count):
    out = render_tileset(policy, tmp_path / "tiles.png")
    assert png_size(out) == (TILE_WIDTH * count, TILE_HEIGHT)


def test_importing_the_board_package_does_not_import_matplotlib():
    code = "import sys, firefight.board; print('matplotlib' in sys.modules)"
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert found.strip() == "False"
