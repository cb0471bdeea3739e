"""Random boards for the visibility tests, and the per-pair reference the matrix must equal."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from firefight.board.board import Board, hexside
from firefight.board.hexes import Hex
from firefight.board.los import line_of_sight
from firefight.board.visibility import visibility_matrix
from firefight.rulesets.ept.board import EPT_LOS, EptLosPolicy
from firefight.rulesets.vv.board import VV_LOS

EPT_SETTINGS = (
    EPT_LOS,
    EptLosPolicy(hindrance_blocking="from_3"),
    EptLosPolicy(blocking_terrain=frozenset()),
    EptLosPolicy(
        blocking_terrain=frozenset({"forest", "orchard"}),
        blocking_hexsides=frozenset({"bocage", "hedge", "wall"}),
    ),
)
POLICIES = (VV_LOS, *EPT_SETTINGS)

TERRAIN = {
    "vv": ["open", "open", "open", "woods", "building", "orchard", "crops", "haystack", "road"],
    "ept": ["clear", "clear", "clear", "forest", "stone_building", "field", "orchard", "brush"],
}
FEATURES = {"vv": ["wall", "hedge", "hedgerow"], "ept": ["hedge", "bocage", "wall"]}
BLOCKING_FEATURE = {"vv": "hedgerow", "ept": "bocage"}


@st.composite
def boards(draw, ruleset, max_side=6, min_side=1, corner_odds=3):
    """A small board: random terrain (also on the hexes just off its edges, which a line can
    graze), levels 0-2 (sometimes 3), and random hexside features, often two of one kind
    meeting at a corner of a hex (where a hexside line may pass between them), some stored the
    wrong way round or between hexes that are not adjacent (which Board.hexside_of never
    finds)."""
    columns = draw(st.integers(min_side, max_side))
    rows = draw(st.integers(min_side, max_side))
    offset = draw(st.sampled_from(["odd-q", "even-q"]))
    first = draw(st.integers(0, 2))
    default = TERRAIN[ruleset][0]
    shell = Board("shape", ruleset, columns, rows, offset, default, first=first)
    on_board = list(shell.hexes())
    around = sorted({n for h in on_board for n in h.neighbours()} - set(on_board))
    names = st.sampled_from(TERRAIN[ruleset])
    terrain = {h: draw(names) for h in on_board if draw(st.booleans())}
    terrain |= {h: draw(names) for h in around if draw(st.integers(0, 3)) == 0}
    levels = st.sampled_from([0, 0, 0, 1, 1, 2, 2, 3])
    elevation = {h: draw(levels) for h in on_board + around if draw(st.booleans())}
    features = st.sampled_from(FEATURES[ruleset])
    corner_features = st.sampled_from([*FEATURES[ruleset], *[BLOCKING_FEATURE[ruleset]] * 3])
    sides: dict[tuple[Hex, Hex], str] = {}
    for h in on_board:
        if draw(st.integers(0, 3)) == 0:
            sides[hexside(h, h.neighbour(draw(st.integers(1, 6))))] = draw(features)
        if draw(st.integers(0, corner_odds - 1)) == 0:  # two hexsides meeting at a corner of h
            direction, feature = draw(st.integers(1, 6)), draw(corner_features)
            for d in (direction, direction % 6 + 1):
                sides[hexside(h, h.neighbour(d))] = feature
    if on_board and draw(st.booleans()):
        h = draw(st.sampled_from(on_board))
        other = h.neighbour(draw(st.integers(1, 6)))
        sides[max(h, other), min(h, other)] = draw(features)  # not in hexside() order
        sides[h, h + Hex(2, 0)] = draw(features)  # not adjacent
    return Board(
        "random", ruleset, columns, rows, offset, default, terrain, elevation, sides, first
    )


def told(verdict):
    """The verdict its named reasons tell, apart from its status: blocked when something is
    named as blocking, else the hindrances named, summed."""
    if verdict.blocked_by is not None:
        return False, 0
    return True, sum(h.modifier for h in verdict.hindrances)


def every_line(board, policy):
    """``line_of_sight`` on every ordered pair of the board's hexes, each traced once."""
    listed = list(board.hexes())
    return {(a, b): line_of_sight(board, a, b, policy) for a in listed for b in listed}


def per_pair(board, policy, lines=None):
    """The reference: what the named reasons of ``line_of_sight`` tell (the rule on one line
    in recording mode, its reasons named from the record) for every pair, as arrays
    (``lines``: :func:`every_line`'s, when the caller has them)."""
    listed = list(board.hexes())
    lines = every_line(board, policy) if lines is None else lines
    verdicts = [[told(lines[a, b]) for b in listed] for a in listed]
    visible = np.array([[v for v, _ in row] for row in verdicts], dtype=bool)
    modifier = np.array([[m for _, m in row] for row in verdicts], dtype=np.int16)
    return visible.reshape(len(listed), len(listed)), modifier.reshape(len(listed), len(listed))


def assert_matrix_equals_per_pair(board, policy, lines=None):
    matrix = visibility_matrix(board, policy)
    assert matrix.hexes == tuple(board.hexes())
    lines = every_line(board, policy) if lines is None else lines
    visible, modifier = per_pair(board, policy, lines)
    mismatches = [
        (a, b, lines[a, b])
        for i, a in enumerate(matrix.hexes)
        for j, b in enumerate(matrix.hexes)
        if (matrix.visible[i, j], matrix.modifier[i, j]) != (visible[i, j], modifier[i, j])
    ]
    assert not mismatches, mismatches[:3]


def random_board(ruleset, columns, rows, seed):
    rng = np.random.default_rng(seed)
    shell = Board("shape", ruleset, columns, rows)
    names, features = TERRAIN[ruleset], FEATURES[ruleset]
    terrain, elevation, sides = {}, {}, {}
    for h in shell.hexes():
        terrain[h] = names[rng.integers(len(names))]
        elevation[h] = int(rng.choice([0, 0, 0, 0, 1, 2]))
        if rng.random() < 0.15:
            sides[hexside(h, h.neighbour(int(rng.integers(1, 7))))] = features[
                rng.integers(len(features))
            ]
    return Board("random", ruleset, columns, rows, "odd-q", names[0], terrain, elevation, sides)
