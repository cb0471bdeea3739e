"""The sample boards shipped in the package: they load, use only their rule set's vocabulary,
and the lines of sight their design promises hold under each rule set's policy."""

from __future__ import annotations

from dataclasses import replace

import pytest

from firefight.board.los import line_of_sight
from firefight.rulesets.boards import load, sample_boards
from tests.board.test_orientation import Turned

NORMANDY, VILLAGE = "normandy_bocage", "vv_village"


def test_both_samples_are_listed():
    assert {NORMANDY, VILLAGE} <= set(sample_boards())


@pytest.mark.parametrize(
    ("name", "ruleset", "size"),
    [(NORMANDY, "ept", (16, 12)), (VILLAGE, "vv", (16, 12))],
)
def test_a_sample_loads_with_its_rule_set(name, ruleset, size):
    board, policy = load(name)
    assert (board.ruleset, policy.ruleset) == (ruleset, ruleset)
    assert (board.columns, board.rows) == size


@pytest.mark.parametrize("name", [NORMANDY, VILLAGE])
def test_every_terrain_and_feature_is_in_the_vocabulary(name):
    board, policy = load(name)
    assert {board.terrain_of(h) for h in board.hexes()} <= policy.hex_terrains
    assert set(board.hexsides.values()) <= policy.hexside_features
    assert all(a in board and b in board and a.distance(b) == 1 for a, b in board.hexsides)


@pytest.mark.parametrize("name", [NORMANDY, VILLAGE])
def test_a_sample_file_starts_with_a_comment_describing_it(name):
    first = sample_boards()[name].read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# ")


def test_the_tiled_twin_of_the_normandy_board_is_the_same_board():
    twin = sample_boards()[NORMANDY].with_suffix(".json")
    assert twin.is_file()
    assert load(str(twin))[0] == load(NORMANDY)[0]
    assert twin.with_name("ept_tiles.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def verdict(name, a, b):
    board, policy = load(name)
    return board, line_of_sight(board, board.hex(a), board.hex(b), policy)


# --- Normandy bocage (EPT) -------------------------------------------------------------------

NORMANDY_LOS = [
    # bocage between the ends blocks: across the top of enclosure B
    ("0101", "0601", "blocked", 0, "hexside 0201/0301 (bocage)"),
    ("0303", "0603", "blocked", 0, "hexside 0403/0503 (bocage)"),
    # ...but a unit sees out of its own enclosure and into the next one, over two fields
    ("0202", "0502", "hindered", 2, None),
    # the orchard hinders, +1 a hex
    ("0702", "0706", "hindered", 2, None),
    # the stone farm and the wood block
    ("0705", "1005", "blocked", 0, "hex 0805 (stone_building)"),
    ("1205", "1602", "blocked", 0, "hex 1403 (forest)"),
    # the rise (level 1) hides the ground beyond it, from either side
    ("0409", "0412", "blocked", 0, "hex 0410 (level 1)"),
    ("0412", "0409", "blocked", 0, "hex 0411 (level 1)"),
    # the open wheat field: three fields hinder +3, a fourth blocks (sum > +3)
    ("1406", "1410", "hindered", 3, None),
    ("1406", "1411", "blocked", 0, "visual hindrance +4"),
    ("1506", "1509", "hindered", 2, None),
    # the road runs clear from edge to edge
    ("0107", "1605", "clear", 0, None),
]


@pytest.mark.parametrize(("a", "b", "status", "modifier", "why"), NORMANDY_LOS)
def test_normandy_lines_of_sight(a, b, status, modifier, why):
    _, found = verdict(NORMANDY, a, b)
    assert (found.status, found.modifier) == (status, modifier)
    if why:
        assert found.blocked_by is not None
        assert found.blocked_by.startswith(why)


def test_normandy_the_bocage_the_lines_cross_is_on_the_board():
    board, _ = load(NORMANDY)
    for a, b in [("0201", "0301"), ("0403", "0503"), ("0202", "0302"), ("0402", "0502")]:
        assert board.hexside_of(board.hex(a), board.hex(b)) == "bocage"


def test_normandy_the_orchard_and_fields_are_what_hinder():
    _, found = verdict(NORMANDY, "0702", "0706")
    assert [(h.where, h.what) for h in found.hindrances] == [
        ("hex 0703", "orchard"),
        ("hex 0704", "orchard"),
    ]
    _, found = verdict(NORMANDY, "0202", "0502")
    assert [h.what for h in found.hindrances] == ["field", "field"]


# --- Village crossroads (V&V) ----------------------------------------------------------------

VILLAGE_LOS = [
    # 10.4: buildings block a line through them...
    ("0505", "0905", "blocked", 0, "hex 0705 (building)"),
    ("0806", "0604", "blocked", 0, "hex 0705 (building)"),
    # ...not into them (9.2)
    ("0903", "0905", "clear", 0, None),
    # 10.8: the orchard hinders into or through, +1 a hex
    ("0903", "1203", "hindered", 2, None),
    ("0902", "1104", "hindered", 3, None),
    # 10.9 and 10.10: crops and a hedge crossed, each +1
    ("0702", "0402", "hindered", 3, None),
    # 10.10: a garden wall hinders the line to the house behind it, not the firer behind it
    ("0404", "0605", "hindered", 1, None),
    ("0605", "0404", "clear", 0, None),
    # 10.101: the hedgerow blocks beyond the hex it bounds; the hex next to it sees across
    ("1008", "1012", "blocked", 0, "hexside 1009/1010 (hedgerow)"),
    ("1009", "1011", "clear", 0, None),
    # 10.7: from the summit (level 2) past one level-1 slope hex down to the ground
    ("0310", "0610", "clear", 0, None),
    ("0310", "0112", "clear", 0, None),
    # ...but not past two level-1 hexes
    ("0309", "0107", "blocked", 0, "hex 0209 (level 1 hill)"),
    # the hill hides the ground behind it; the summit hides one slope from the other
    ("0108", "0512", "blocked", 0, "hex 0209 (level 1 hill)"),
    ("0209", "0411", "blocked", 0, "hex 0309 (level 2 hill)"),
    # a plateau: level 1 sees level 1 along the slopes
    ("0208", "0211", "clear", 0, None),
    # the road over the bridge is open
    ("0806", "1606", "clear", 0, None),
]


@pytest.mark.parametrize(("a", "b", "status", "modifier", "why"), VILLAGE_LOS)
def test_village_lines_of_sight(a, b, status, modifier, why):
    _, found = verdict(VILLAGE, a, b)
    assert (found.status, found.modifier) == (status, modifier)
    if why:
        assert found.blocked_by is not None
        assert found.blocked_by.startswith(why)


def test_village_the_hill_is_built_as_described():
    board, _ = load(VILLAGE)
    level = {label: board.elevation_of(board.hex(label)) for label in ("0309", "0310", "0410")}
    assert level == {"0309": 2, "0310": 2, "0410": 1}
    assert board.elevation_of(board.hex("0510")) == 0
    assert board.hexside_of(board.hex("0504"), board.hex("0605")) == "wall"


def test_board_files_that_are_not_utf8_or_have_a_boolean_size_are_one_line_errors(tmp_path):
    from firefight.board.board import BoardError  # noqa: PLC0415
    from firefight.rulesets.boards import load  # noqa: PLC0415

    latin = tmp_path / "latin.toml"
    latin.write_bytes(b'name="x"\nruleset="ept"\ncolumns=5\nrows=5\n[hexes]\n"0101"="caf\xe9"\n')
    with pytest.raises(BoardError, match=r"latin\.toml"):
        load(str(latin))
    boolean = tmp_path / "boolean.toml"
    boolean.write_text('name="x"\nruleset="ept"\ncolumns=true\nrows=5\n', encoding="utf-8")
    with pytest.raises(BoardError, match="'columns' must be an integer"):
        load(str(boolean))


def test_a_picture_is_not_drawn_into_a_missing_folder(tmp_path):
    from firefight.board.render import render_board  # noqa: PLC0415
    from firefight.errors import InputError  # noqa: PLC0415
    from firefight.rulesets.boards import load  # noqa: PLC0415

    board, _ = load("vv_village")
    with pytest.raises(InputError, match="'out' must be a file in an existing folder"):
        render_board(board, tmp_path / "missing" / "map.png")
    assert not (tmp_path / "missing").exists()


# --- The village typed pointy-top (V&V) ------------------------------------------------------

VILLAGE_POINTY = "vv_village_pointy"


def test_the_pointy_top_village_is_listed_and_loads_as_a_printed_map():
    board, policy = load(VILLAGE_POINTY)
    assert VILLAGE_POINTY in sample_boards()
    assert (board.ruleset, policy.ruleset) == ("vv", "vv")
    assert (board.orientation, board.labels, board.offset) == (
        "pointy-top",
        "letter-number",
        "even-r",
    )
    assert (board.columns, board.rows) == (12, 16)
    assert {board.terrain_of(h) for h in board.hexes()} <= policy.hex_terrains
    assert set(board.hexsides.values()) <= policy.hexside_features


def test_the_pointy_top_village_is_the_village_turned_with_its_lines_of_sight():
    """The pointy-top sample is vv_village turned a quarter turn clockwise (its hexes, levels and
    hexsides where the turn puts them); every line of sight from a hex of the village, to every
    other, is the same verdict, modifier and hindrances on the printed map."""
    flat, policy = load(VILLAGE)
    pointy, pointy_policy = load(VILLAGE_POINTY)
    turned = Turned(flat, clockwise=True)
    assert replace(pointy, name=turned.board.name) == turned.board
    for a in list(flat.hexes())[::16]:
        for b in flat.hexes():
            if a == b:
                continue
            seen = line_of_sight(flat, a, b, policy)
            there = pointy.hex(turned.label(flat.label(a))), pointy.hex(turned.label(flat.label(b)))
            found = line_of_sight(pointy, *there, pointy_policy)
            assert (found.status, found.modifier) == (seen.status, seen.modifier), (a, b)
            assert [h.what for h in found.hindrances] == [h.what for h in seen.hindrances]
