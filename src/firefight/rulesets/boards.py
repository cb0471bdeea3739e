"""Boards and the rule sets they belong to: each board file names its rule set, whose terrain
vocabulary validates it and whose line-of-sight policy judges it."""

from __future__ import annotations

from pathlib import Path

from firefight.board.board import Board, BoardError, board_from_data, read_toml, shown
from firefight.board.los import LosPolicy
from firefight.errors import InputError, one_of
from firefight.rulesets.ept.board import EPT_LOS
from firefight.rulesets.vv.board import VV_LOS

SAMPLES = Path(__file__).resolve().parent.parent / "board" / "samples"
"""The sample boards shipped in the package."""

POLICIES: dict[str, LosPolicy] = {
    "ept": EPT_LOS,
    "vv": VV_LOS,
}


TILED_SUFFIXES = (".json", ".tmj")
"""File name endings of Tiled JSON maps (``.tmj`` is Tiled's own since 1.9)."""


def los_policy(ruleset: str) -> LosPolicy:
    """The line-of-sight policy of a rule set."""
    if ruleset not in POLICIES:
        raise InputError("ruleset", one_of(POLICIES), ruleset)
    return POLICIES[ruleset]


def sample_boards() -> dict[str, Path]:
    """The shipped sample boards by name (the file's stem)."""
    return {path.stem: path for path in sorted(SAMPLES.glob("*.toml"))}


def find_board(name_or_path: str) -> Path:
    """A sample board by name, or a board file by path."""
    samples = sample_boards()
    if name_or_path in samples:
        return samples[name_or_path]
    path = Path(name_or_path)
    if path.suffix.lower() in (".toml", *TILED_SUFFIXES) and path.is_file():
        return path
    allowed = "a board file (.toml, or a Tiled .json/.tmj map) or one of " + ", ".join(samples)
    raise InputError("board", allowed, name_or_path)


def load(name_or_path: str) -> tuple[Board, LosPolicy]:
    """Load a board (sample name or file) with its rule set's policy."""
    path = find_board(name_or_path)
    if path.suffix.lower() in TILED_SUFFIXES:
        from firefight.board.tiled import load_tiled  # noqa: PLC0415 - only for Tiled maps

        return load_tiled(path, POLICIES)
    data = read_toml(path)
    ruleset = data.get("ruleset")
    if not isinstance(ruleset, str) or ruleset not in POLICIES:
        msg = f"{path.name}: 'ruleset' must be one of {', '.join(POLICIES)} (got {shown(ruleset)})"
        raise BoardError(msg)
    policy = POLICIES[ruleset]
    return board_from_data(data, policy, path.name), policy
