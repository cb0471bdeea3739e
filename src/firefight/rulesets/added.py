"""Rule sets a user adds as files: a designer's one-chart game, one TOML file each
(:mod:`firefight.rulesets.designed`), in a folder of the user's configuration.

The folder is ``platformdirs.user_config_dir("firefight")/rulesets`` (``~/.config/firefight/
rulesets`` on Linux), or the one ``FIREFIGHT_RULESETS`` names. ``firefight rulesets --add FILE``
copies a file there, and files may be dropped there by hand: the registry reads the folder
when first asked, and looks at it again at most every second (:data:`RECHECK_SECONDS`), by its
files' names, sizes and last changes, so that a running ``firefight serve`` sees a file added,
changed or removed (a file unchanged is not read again). Listing reads each file's
id, title and source alone; a game is read whole, and checked, the first time it is used. A
file whose id is a built-in game's, or another file's, is left out, and its problem said in one
line (``firefight rulesets``, and a command that names it); so is a file whose game does not
load (:func:`left_out_file`), until it changes.

This module is light (no game is imported); the games are built by
:mod:`firefight.rulesets.designed`, imported when one is loaded.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
import time
from dataclasses import dataclass, field
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


PRINTABLE = Said(N_("printable characters, without control characters or line breaks"))
"""What a file's words may hold (``str.isprintable``): the faces print a game's words as they
are, so a terminal's escape or a line break is refused where it is read."""


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
    keys = ("id", "title", "source", "procedure", "procedure_title")
    for key in keys:
        value = data.get(key, {"procedure": "combat"}.get(key, texts.get("title")))
        if not isinstance(value, str) or not value.strip():
            raise FirefightError(expected(f"{path.name}: {key}", "a text", value))
        if not value.isprintable():
            raise FirefightError(expected(f"{path.name}: {key}", PRINTABLE, value))
        texts[key] = value
    if not _ID.fullmatch(texts["id"]):
        raise FirefightError(
            expected(f"{path.name}: id", "lower-case letters, digits and '-'", texts["id"])
        )
    return FileInfo(
        id=texts["id"],
        title=texts["title"],
        source=texts["source"],
        target="",
        procedures=(texts["procedure"],),
        procedure_titles=(texts["procedure_title"],),
        path=path,
    )


@dataclass(frozen=True)
class Added:
    """What the folder holds: the files' rule sets, and each file left out with why."""

    infos: tuple[FileInfo, ...]
    problems: tuple[tuple[Path, Said | FirefightError], ...]
    """Each file left out, and why (worded in the active language when shown: ``str()``)."""


Key = tuple[str, int, int]
"""A file of the folder as its reading is decided: its name, its size and its last change
(``st_mtime_ns``)."""
RECHECK_SECONDS = 1.0
"""How often, at most, the folder is looked at again (its files' names, sizes and last
changes): a file added, changed or removed is seen at the first ask after that."""
clock = time.monotonic
"""The clock the rechecks are timed by (a test moves it)."""


@dataclass
class _Read:
    """What this process read of one folder: the files' keys, each header (or why it is left
    out), each file whose game did not load, and when the folder was last looked at."""

    place: Path
    keys: tuple[Key, ...]
    token: str
    """The keys' digest: what two processes compare (:func:`catch_up`)."""
    checked: float
    headers: dict[Key, FileInfo | FirefightError]
    broken: dict[Key, FirefightError] = field(default_factory=dict)
    listed: dict[frozenset[str], Added] = field(default_factory=dict)


_reads: dict[str, _Read] = {}
_lock = threading.Lock()
"""Held while the folder is read again: the web serves requests from several threads."""


def _keys(place: Path) -> tuple[Key, ...]:
    """The folder's game files, by name, size and last change (none: no folder)."""
    try:
        entries = list(os.scandir(place))
    except OSError:
        return ()
    found = []
    for entry in entries:
        if not entry.name.endswith(SUFFIX):
            continue
        try:
            stat = entry.stat()
        except OSError:  # removed meanwhile, or a link to nothing
            continue
        found.append((entry.name, stat.st_size, stat.st_mtime_ns))
    return tuple(sorted(found))


def _header_or_problem(path: Path) -> FileInfo | FirefightError:
    try:
        return header(path)
    except FirefightError as error:
        return error


def _current(where: str, *, now: bool = False) -> _Read:
    """What is read of the folder ``where``, looked at again if it was last looked at
    :data:`RECHECK_SECONDS` ago or more (``now``: at once); a file whose key is unchanged is
    not read again (its header, and its game once loaded, are kept)."""
    read = _reads.get(where)
    if read is not None and not now and clock() - read.checked < RECHECK_SECONDS:
        return read
    with _lock:
        read = _reads.get(where)
        at = clock()
        if read is not None and not now and at - read.checked < RECHECK_SECONDS:
            return read  # another thread looked meanwhile
        place = Path(where)
        keys = _keys(place)
        if read is not None and keys == read.keys:
            read.checked = at
            return read
        old = read.headers if read is not None else {}
        headers = {k: old[k] if k in old else _header_or_problem(place / k[0]) for k in keys}
        broken = {k: e for k, e in read.broken.items() if k in headers} if read else {}
        token = hashlib.blake2b(repr((where, keys)).encode(), digest_size=8).hexdigest()
        _reads[where] = _Read(place, keys, token, at, headers, broken)
        return _reads[where]


def _listed(read: _Read, taken: frozenset[str]) -> Added:
    found: list[FileInfo] = []
    problems: list[tuple[Path, Said | FirefightError]] = []
    for key in read.keys:
        path = read.place / key[0]
        info = read.headers[key]
        problem: Said | FirefightError | None = (
            info if isinstance(info, FirefightError) else read.broken.get(key)
        )
        if problem is None and isinstance(info, FileInfo):
            problem = clash_of(info.id, taken, found, path.name)
        if problem is not None:
            problems.append((path, problem))
        elif isinstance(info, FileInfo):
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
    """The folder's rule sets, none taking an id of ``taken`` (the folder looked at again
    at most every :data:`RECHECK_SECONDS`)."""
    read = _current(str(folder()))
    found = read.listed.get(taken)
    if found is None:
        with _lock:  # not kept across a file left out meanwhile (:func:`left_out_file`)
            found = read.listed[taken] = _listed(read, taken)
    return found


def left_out_file(info: FileInfo, problem: FirefightError) -> None:
    """Leave out the folder's file of ``info``, whose game does not load (``problem``), until
    the file changes: the other games keep working."""
    if info.path is None:
        return
    with _lock:
        read = _reads.get(str(info.path.parent))
        if read is None:
            return
        for key in read.keys:
            if read.headers.get(key) is info:
                read.broken[key] = problem
                read.listed.clear()


def seen() -> str:
    """What this process last read of the folder, as a digest (``""``: nothing yet): a server
    hands it to its pool's processes (:func:`catch_up`), and keys its answers by it."""
    read = _reads.get(str(folder()))
    return read.token if read is not None else ""


def catch_up(token: str) -> None:
    """Look at the folder at once unless this process last read it as ``token`` says (a pool
    process, given what its server read): a game the server sees is seen here too."""
    where = str(folder())
    read = _reads.get(where)
    if token and read is not None and read.token != token:
        _current(where, now=True)


def forget() -> None:
    """Read the folder again at the next ask (a file added, a test's folder)."""
    _reads.clear()
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
