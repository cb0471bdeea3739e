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
from firefight.errors import FirefightError, quoted
from firefight.rulesets.info import RuleSetInfo
from firefight.translation import N_
from firefight.translation import gettext as _

if TYPE_CHECKING:
    from firefight.rulesets.procedure import RuleSet

FOLDER_VARIABLE = "FIREFIGHT_RULESETS"
"""The environment variable naming the folder of added rule sets (tests, a shared server)."""
SUFFIX = ".toml"
HEADER_BYTES = 256 * 1024
"""The most read of a file to list it (the designed loader's own limit)."""
_ID = re.compile(r"[a-z][a-z0-9-]{0,39}")


class Said:
    """A message worded each time it is shown (``str()``), in the language active then: a
    problem kept from one request to the next (a file left out, a package's) is said in each
    request's language. Its parts are shown as given (a file's names, a package's)."""

    def __init__(self, message: str, **parts: object) -> None:
        self.message = message
        self.parts = parts

    def __str__(self) -> str:
        return _(self.message).format(**{key: str(part) for key, part in self.parts.items()})

    def __repr__(self) -> str:
        return f"Said({self.message!r}, **{self.parts!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Said) and (self.message, self.parts) == (
            other.message,
            other.parts,
        )

    def __hash__(self) -> int:
        return hash(self.message)


def expected(where: str, what: object, got: object = None, *, given: bool = True) -> Said:
    """``WHERE: expected WHAT (got VALUE)``: a game file's refusal, ``where`` the file and the
    place in it (``skirmish.toml: fields[2].max``), ``what`` what was expected."""
    if given:
        return Said(
            N_("{where}: expected {expected} (got {got})"),
            where=where,
            expected=what,
            got=quoted(got),
        )
    return Said(N_("{where}: expected {expected}"), where=where, expected=what)


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
            raise FirefightError(
                Said(
                    N_("{file}: its id is now {new}, not {old}"),
                    file=self.path.name,
                    new=repr(found.id),
                    old=repr(self.id),
                )
            )
        return found


def header(path: Path) -> FileInfo:
    """A game file's id, title, source and procedure, read without building the game."""
    data = parse_toml(read_text(path, path.name, HEADER_BYTES), path.name, max_values=20_000)
    texts: dict[str, str] = {}
    for key, default in (("id", None), ("title", None), ("source", None), ("procedure", "combat")):
        value = data.get(key, default)
        if not isinstance(value, str) or not value.strip():
            raise FirefightError(expected(f"{path.name}: {key}", "a text", value))
        texts[key] = value
    if not _ID.fullmatch(texts["id"]):
        raise FirefightError(
            expected(f"{path.name}: id", "lower-case letters, digits and '-'", texts["id"])
        )
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
    problems: tuple[tuple[Path, Said | FirefightError], ...]
    """Each file left out, and why (worded in the active language when shown: ``str()``)."""


@cache
def _scan(where: str, taken: frozenset[str]) -> Added:
    found: list[FileInfo] = []
    problems: list[tuple[Path, Said | FirefightError]] = []
    place = Path(where)
    paths = sorted(place.glob(f"*{SUFFIX}")) if place.is_dir() else []
    for path in paths:
        try:
            info = header(path)
        except FirefightError as error:
            problems.append((path, error))
            continue
        clash = clash_of(info.id, taken, found, path.name)
        if clash is not None:
            problems.append((path, clash))
            continue
        found.append(info)
    return Added(tuple(found), tuple(problems))


def clash_of(
    game_id: str,
    taken: frozenset[str],
    files: list[FileInfo] | tuple[FileInfo, ...],
    file: str,
) -> Said | None:
    """Why the file ``file`` may not be added with its id (``None``: it may): the id is a
    built-in game's, or another file's."""
    if game_id in taken:
        return Said(
            N_("{file}: the id {id} is a built-in rule set's: give the file another id"),
            file=file,
            id=repr(game_id),
        )
    other = next((f for f in files if f.id == game_id), None)
    if other is not None and other.path is not None:
        return Said(
            N_("{file}: the id {id} is that of {other}: give the file another id"),
            file=file,
            id=repr(game_id),
            other=other.path.name,
        )
    return None


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
    clash = clash_of(found.id, taken, (), Path(path).name)
    if clash is not None:
        raise FirefightError(clash)
    return RuleSetInfo.of(found)


def named(name: str, taken: frozenset[str]) -> RuleSetInfo:
    """The rule set of a game file named on the command line (read once per process)."""
    return _named(str(Path(name).resolve()), taken)


def problem_named(name: str, taken: frozenset[str]) -> Said | FirefightError | None:
    """The problem of the folder's file named ``name`` (by its file's stem), if it has one."""
    wanted = name.casefold()
    for path, problem in added(taken).problems:
        if path.stem.casefold() == wanted:
            return problem
    return None
