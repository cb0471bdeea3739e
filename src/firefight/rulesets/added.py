"""Rule sets a user adds as files: a designer's one-chart game, one TOML file each
(:mod:`firefight.rulesets.designed`), in a folder of the user's configuration.

The folder is ``platformdirs.user_config_dir("firefight")/rulesets`` (``~/.config/firefight/
rulesets`` on Linux), or the one ``FIREFIGHT_RULESETS`` names. ``firefight rulesets --add FILE``
copies a file there, and files may be dropped there by hand: the registry reads the folder
once per process (every command; ``firefight serve`` when it starts). Listing reads each file's
id, title and source alone; a game is read whole, and checked, the first time it is used. A
file whose id is a built-in game's, or another file's, is left out, and its problem said in one
line (``firefight rulesets``, and a command that names it).

This module is light (no game is imported); the games are built by
:mod:`firefight.rulesets.designed`, imported when one is loaded.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING

from firefight.core.files import parse_toml, read_text
from firefight.errors import FirefightError
from firefight.rulesets.info import RuleSetInfo

if TYPE_CHECKING:
    from firefight.rulesets.procedure import RuleSet

FOLDER_VARIABLE = "FIREFIGHT_RULESETS"
"""The environment variable naming the folder of added rule sets (tests, a shared server)."""
SUFFIX = ".toml"
HEADER_BYTES = 256 * 1024
"""The most read of a file to list it (the designed loader's own limit)."""
_ID = re.compile(r"[a-z][a-z0-9-]{0,39}")


def folder() -> Path:
    """The folder of added rule sets: ``$FIREFIGHT_RULESETS``, else ``rulesets`` in the
    user's configuration folder."""
    named = os.environ.get(FOLDER_VARIABLE)
    if named:
        return Path(named)
    return _config_folder(os.environ.get("XDG_CONFIG_HOME"), os.environ.get("HOME"))


@cache
def _config_folder(_xdg: str | None, _home: str | None) -> Path:
    """The user's folder of added rule sets for these environment values (what platformdirs
    reads): worked out once for them, as the registry asks at every lookup of a rule set."""
    from platformdirs import user_config_dir  # noqa: PLC0415 - only when the folder is read

    return Path(user_config_dir("firefight")) / "rulesets"


def names_a_file(name: str) -> bool:
    """Whether a rule set's name, as given, is a game file's path (``my-game.toml``)."""
    return name.casefold().endswith(SUFFIX)


def load_file(path: Path) -> RuleSet:
    """A game file's rule set, read whole and checked (one line naming the place if not)."""
    designed = import_module("firefight.rulesets.designed")
    found: RuleSet = designed.load_game(path)
    return found


@dataclass(frozen=True)
class FileInfo(RuleSetInfo):
    """An added file's metadata, read from its header; its rule set is read from the file
    the first time it is wanted."""

    path: Path | None = None

    def _import(self) -> RuleSet:
        assert self.path is not None
        found = load_file(self.path)
        if found.id != self.id:  # the file changed since the folder was read
            msg = f"{self.path.name}: its id is now {found.id!r}, not {self.id!r}"
            raise FirefightError(msg)
        return found


def header(path: Path) -> FileInfo:
    """A game file's id, title, source and procedure, read without building the game."""
    data = parse_toml(read_text(path, path.name, HEADER_BYTES), path.name, max_values=20_000)
    texts: dict[str, str] = {}
    for key, default in (("id", None), ("title", None), ("source", None), ("procedure", "combat")):
        value = data.get(key, default)
        if not isinstance(value, str) or not value.strip():
            msg = f"{path.name}: {key}: expected a text (got {value!r})"
            raise FirefightError(msg)
        texts[key] = value
    if not _ID.fullmatch(texts["id"]):
        msg = f"{path.name}: id: expected lower-case letters, digits and '-' (got {texts['id']!r})"
        raise FirefightError(msg)
    title = data.get("procedure_title", texts["title"])
    return FileInfo(
        id=texts["id"],
        title=texts["title"],
        source=texts["source"],
        target="",
        procedures=(texts["procedure"],),
        procedure_titles=(str(title),),
        path=path,
    )


@dataclass(frozen=True)
class Added:
    """What the folder holds: the files' rule sets, and each file left out with why."""

    infos: tuple[FileInfo, ...]
    problems: tuple[tuple[Path, str], ...]


@cache
def _scan(where: str, taken: frozenset[str]) -> Added:
    found: list[FileInfo] = []
    problems: list[tuple[Path, str]] = []
    place = Path(where)
    paths = sorted(place.glob(f"*{SUFFIX}")) if place.is_dir() else []
    for path in paths:
        try:
            info = header(path)
        except FirefightError as error:
            problems.append((path, str(error)))
            continue
        clash = clash_of(info.id, taken, found)
        if clash:
            problems.append((path, f"{path.name}: {clash}"))
            continue
        found.append(info)
    return Added(tuple(found), tuple(problems))


def clash_of(
    game_id: str, taken: frozenset[str], files: list[FileInfo] | tuple[FileInfo, ...]
) -> str:
    """Why an id may not be added (``""``: it may): a built-in game's, or another file's."""
    if game_id in taken:
        return f"the id {game_id!r} is a built-in rule set's: give the file another id"
    other = next((f for f in files if f.id == game_id), None)
    if other is not None and other.path is not None:
        return f"the id {game_id!r} is that of {other.path.name}: give the file another id"
    return ""


def added(taken: frozenset[str]) -> Added:
    """The folder's rule sets (read once per process), none taking an id of ``taken``."""
    return _scan(str(folder()), taken)


def forget() -> None:
    """Read the folder again at the next ask (a file added, a test's folder)."""
    _scan.cache_clear()
    _named.cache_clear()


@cache
def _named(path: str, taken: frozenset[str]) -> RuleSetInfo:
    found = load_file(Path(path))
    clash = clash_of(found.id, taken, ())
    if clash:
        msg = f"{Path(path).name}: {clash}"
        raise FirefightError(msg)
    return RuleSetInfo.of(found)


def named(name: str, taken: frozenset[str]) -> RuleSetInfo:
    """The rule set of a game file named on the command line (read once per process)."""
    return _named(str(Path(name).resolve()), taken)


def problem_named(name: str, taken: frozenset[str]) -> str | None:
    """The problem of the folder's file named ``name`` (by its file's stem), if it has one."""
    wanted = name.casefold()
    for path, problem in added(taken).problems:
        if path.stem.casefold() == wanted:
            return problem
    return None
