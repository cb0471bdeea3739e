"""Boards and the rule sets they belong to: each board file names its rule set, whose terrain
vocabulary validates it and whose line-of-sight policy (its ``sight`` hook) judges it; the
sample boards are those each rule set ships in its ``boards`` folder. Rule sets are found
through the registry: this module names no game."""

from __future__ import annotations

from pathlib import Path

from firefight.board.board import Board, BoardError, board_from_data, read_toml, shown
from firefight.board.los import LosPolicy
from firefight.core.files import FileError, loader, named_inside
from firefight.errors import FirefightError, InputError, one_of, quoted
from firefight.i18n import gettext as _
from firefight.rulesets.registry import rulesets


def policies() -> dict[str, LosPolicy]:
    """The line-of-sight policy of each rule set that has one (its ``sight``), by id."""
    return {r.id: r.sight for r in rulesets() if r.sight is not None}


TILED_SUFFIXES = (".json", ".tmj")
"""File name endings of Tiled JSON maps (``.tmj`` is Tiled's own since 1.9)."""


def los_policy(ruleset: str) -> LosPolicy:
    """The line-of-sight policy of a rule set."""
    known = policies()
    if ruleset not in known:
        raise InputError("ruleset", one_of(known), ruleset)
    return known[ruleset]


def sample_boards() -> dict[str, Path]:
    """The sample boards the rule sets ship (each in its ``boards`` folder) by name (the
    file's stem), in the order of their names; a name two rule sets ship is the first's in
    the registry's order."""
    found: dict[str, Path] = {}
    for ruleset in rulesets():
        if ruleset.boards is not None:
            for path in sorted(ruleset.boards.glob("*.toml")):
                found.setdefault(path.stem, path)
    return dict(sorted(found.items()))


def sample_files(suffix: str) -> list[Path]:
    """The files ending in ``suffix`` (``.json``: Tiled maps) in the rule sets' ``boards``
    folders, in the order of their names."""
    found = [
        path
        for ruleset in rulesets()
        if ruleset.boards is not None
        for path in ruleset.boards.glob(f"*{suffix}")
    ]
    return sorted(found, key=lambda path: path.name)


def find_board(name_or_path: str) -> Path:
    """A sample board by name, or a board file by path."""
    samples = sample_boards()
    if name_or_path in samples:
        return samples[name_or_path]
    path = Path(name_or_path)
    if path.suffix.lower() in (".toml", *TILED_SUFFIXES) and path.is_file():
        return path
    allowed = _("a board file (.toml, or a Tiled .json/.tmj map) or one of {samples}").format(
        samples=", ".join(samples)
    )
    raise InputError("board", allowed, name_or_path)


BOARD_SUFFIXES = (".toml", *TILED_SUFFIXES)
"""File name endings of board files: TOML boards and Tiled JSON maps."""


def board_named_in(name: str, folder: Path | None, source: str, field: str = "board") -> Path:
    """The board a file (``source``, read from ``folder``) names in ``field``: a sample
    board's name, or a board file in the file's own folder or one below it, and nowhere else:
    not an absolute path, not up through ``..``, not out through a link (a file sent by
    someone else must not make firefight open a file of the reader's). ``folder`` ``None``
    (a text with no folder, such as a paste): a sample board's name only. Every refusal is
    one line naming the field and the value."""
    samples = sample_boards()
    if name in samples:
        return samples[name]
    names = ", ".join(samples)

    def refuse(why: str) -> FirefightError:
        msg = _(
            "{source}: '{field}' must be a board file (.toml, or a Tiled .json/.tmj map) in the "
            "scenario's own folder or one below it, or one of {names} ({why}) (got {name})"
        ).format(source=source, field=field, names=names, why=why, name=quoted(name))
        return FirefightError(msg)

    if folder is None:
        raise refuse(_("a text without a folder names a sample board only"))
    try:
        return named_inside(folder, name, BOARD_SUFFIXES)
    except FileError as error:
        raise refuse(error.problem) from None


def _sample_text(suffix: str) -> str:
    """The text of the first sample board file ending in ``suffix``: a valid example."""
    return sample_files(suffix)[0].read_text(encoding="utf-8")


@loader(
    "board",
    ".toml",
    example=lambda: _sample_text(".toml"),
    command=("board", "show", "{path}"),
)
def load_toml_board(path: Path) -> tuple[Board, LosPolicy]:
    """A TOML board file (docs/boards.md) with the policy of the rule set it names."""
    data = read_toml(path)
    ruleset = data.get("ruleset")
    known = policies()
    if not isinstance(ruleset, str) or ruleset not in known:
        msg = _("{name}: 'ruleset' must be one of {known} (got {shown})").format(
            name=path.name, known=", ".join(known), shown=shown(ruleset)
        )
        raise BoardError(msg)
    policy = known[ruleset]
    return board_from_data(data, policy, path.name), policy


@loader(
    "tiled-map",
    ".json",
    example=lambda: _sample_text(".json"),
    command=("board", "show", "{path}"),
)
def load_tiled_map(path: Path) -> tuple[Board, LosPolicy]:
    """A Tiled JSON map (docs/boards.md) with the policy of the rule set it names."""
    from firefight.board.tiled import load_tiled  # noqa: PLC0415 - only for Tiled maps

    return load_tiled(path, policies())


def load_file(path: Path) -> tuple[Board, LosPolicy]:
    """Load a board file (TOML, or a Tiled map by its suffix) with its rule set's policy."""
    if path.suffix.lower() in TILED_SUFFIXES:
        return load_tiled_map(path)
    return load_toml_board(path)


def load(name_or_path: str) -> tuple[Board, LosPolicy]:
    """Load a board (sample name or file) with its rule set's policy."""
    return load_file(find_board(name_or_path))
