"""Boards drawn in the Tiled map editor (https://www.mapeditor.org), read from its JSON format.

A Tiled map is turned into the same mapping a TOML board file gives, and that mapping is
validated by :func:`~firefight.board.board.board_from_data`, so a Tiled board obeys exactly the
rules of a hand-written one. The convention (``docs/boards.md`` shows it step by step):

* the map is **hexagonal**, with **stagger axis X** (flat-topped hexes standing in columns: a
  ``flat-top`` board) or **Y** (pointy-topped hexes in rows: a ``pointy-top`` board);
* Tiled's zero-based tile column ``x`` and row ``y`` are the board's column ``x + 1`` and row
  ``y + 1`` (Tiled's top-left tile is hex ``0101``, or ``A1``). Tiled shifts the columns (or
  rows) whose index is odd (stagger index ``odd``) or even (``even``); board lines are numbered
  from 1, so stagger index ``even`` (Tiled lines 0, 2, ... = board lines 01, 03, ...) is the
  board offset ``odd-q`` (stagger X) or ``odd-r`` (Y), and ``odd`` is ``even-q`` or ``even-r``;
* map custom properties: ``ruleset`` (required: ``ept``, ``vv``...), ``name`` (default: the file
  name without its extension), ``default_terrain`` (default: the rule set's) and ``labels``
  (``numbers``, the default, or ``letter-number``: how the hexes are named in the file and by
  the hexsides' ``from``/``to`` and ``hexsides`` properties);
* a tile layer named ``terrain``: each tile's terrain is the tile's string property ``terrain``
  (or, failing that, the tile's class, called type before Tiled 1.9); an empty cell is the
  default terrain;
* an optional tile layer named ``elevation``: each tile's int property ``elevation``; an empty
  cell is level 0;
* an optional object layer named ``hexsides``: each object gives a hexside feature (its string
  property ``feature``, or its class) and where it lies: string properties ``from`` and ``to``
  (two adjacent hex labels), or a property ``hexsides`` listing ``CCRR/CCRR`` pairs, or else the
  object's own shape: a polyline or polygon drawn along hex edges, one edge per segment, its
  vertices on hex corners;
* other layers (a background image, notes) are ignored. Layers may sit inside group layers.

Layer data may be CSV (a JSON array) or base64, uncompressed or zlib/gzip compressed. Tilesets
may be embedded or external JSON files (``.tsj``/``.json``); an external XML tileset (``.tsx``)
must be embedded or saved as JSON. :func:`board_to_tiled` writes a board back out as such a map.

Parts: Tiled's constants and pixel layout (:mod:`~firefight.board.tiled_format`), reading a
map (:mod:`~firefight.board.tiled_reader`) and its hexsides (:mod:`~firefight.board.tiled_sides`),
writing one (:mod:`~firefight.board.tiled_writer`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from firefight.board.board import Board, BoardError, board_from_data, shown
from firefight.board.tiled_format import (
    ELEVATION_LAYER,
    GID_MASK,
    GZIP_WBITS,
    HEX_SIDE,
    HEXSIDE_ENTRIES_PER_HEX,
    HEXSIDES_LAYER,
    MAX_TILE_PIXELS,
    OFFSET_TO_STAGGER,
    STAGGER_TO_OFFSET,
    TERRAIN_LAYER,
    TILE_HEIGHT,
    TILE_WIDTH,
    Geometry,
    read_json,
)
from firefight.board.tiled_reader import MapReader
from firefight.board.tiled_writer import board_to_tiled, dumps_tiled
from firefight.i18n import gettext as _

if TYPE_CHECKING:
    from firefight.board.los import LosPolicy

__all__ = [
    "ELEVATION_LAYER",
    "GID_MASK",
    "GZIP_WBITS",
    "HEXSIDES_LAYER",
    "HEXSIDE_ENTRIES_PER_HEX",
    "HEX_SIDE",
    "MAX_TILE_PIXELS",
    "OFFSET_TO_STAGGER",
    "STAGGER_TO_OFFSET",
    "TERRAIN_LAYER",
    "TILE_HEIGHT",
    "TILE_WIDTH",
    "Geometry",
    "board_to_tiled",
    "dumps_tiled",
    "load_tiled",
    "tiled_to_data",
]


def load_tiled(path: Path, policies: Mapping[str, LosPolicy]) -> tuple[Board, LosPolicy]:
    """Load a Tiled JSON map as a board, with the policy of the rule set it names."""
    source = path.name
    data = read_json(path, source, "Tiled JSON map")
    if not isinstance(data, dict):
        raise BoardError(
            _("{source}: not a Tiled JSON map (the file is not a JSON object)").format(
                source=source
            )
        )
    board_data = tiled_to_data(data, source, folder=path.parent, stem=path.stem)
    ruleset = board_data.get("ruleset")
    if not isinstance(ruleset, str) or ruleset not in policies:
        allowed = ", ".join(policies)
        raise BoardError(
            _("{source}: map property 'ruleset' must be one of {allowed} (got {value})").format(
                source=source, allowed=allowed, value=shown(ruleset)
            )
        )
    policy = policies[ruleset]
    return board_from_data(board_data, policy, source), policy


def tiled_to_data(
    tiled: Mapping[str, object], source: str, *, folder: Path | None = None, stem: str = "board"
) -> dict[str, object]:
    """The TOML-shaped mapping of a parsed Tiled map (for :func:`board_from_data`).

    ``folder`` is where external tilesets are looked for; ``stem`` names the board when the map
    has no ``name`` property.
    """
    return MapReader(tiled, source, folder).board_data(stem)
