"""Finding rule sets: built in or added by a third party through the entry point group
``firefight.rulesets``, or added as a game's TOML file (:mod:`firefight.rulesets.added`: the
user's folder of them, and a file named by its path).

A built-in game asked for by one of its names (:func:`built_in`) is found without reading the
installed packages' metadata: a third party's package takes no built-in game's id or alias (one
that does is left out, said in one line), so no scan could find another game by that name.

An entry point names either a :class:`~firefight.rulesets.info.RuleSetInfo` (the rule set's
metadata, in a module that imports nothing heavy: the built-in games' ``INFO``) or a full
:class:`RuleSet` (loaded when the entry points are read). :func:`infos` reads the metadata
alone; :func:`ruleset` loads the one rule set it finds; :func:`rulesets` loads them all.

A third party's package that is broken (its entry point fails to import, its rule set, a
procedure or a chart fails to load) is left out and reported in one line naming the package
(:func:`problems`; :func:`left_out` with the folder's files left out, which the faces show:
``firefight rulesets`` and ``serve`` on standard error, the API's list of rule sets; logged once
as a warning for a server's log, never on a bare standard error): the other games keep working,
and asking for it by name gives that line as the error. A package whose words ``rulesets``
prints (its id, title, source, procedures) hold a character that is not printable is left out
alike; a line's error is shown with such characters escaped (:func:`printable`). A bug raised
from a third party's code while it runs (or a game file's rule) is said in one line naming it by
:func:`fault`.
"""

from __future__ import annotations

import os
import sys
from functools import cache
from importlib import import_module
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, TypeGuard

from firefight.errors import FirefightError, InputError, one_of, prefixed
from firefight.rulesets.info import RuleSetInfo
from firefight.translation import N_
from firefight.translation import gettext as _

if TYPE_CHECKING:
    import logging
    from collections.abc import Iterable
    from importlib.metadata import EntryPoint

    from firefight.rulesets import added
    from firefight.rulesets.added import Said
    from firefight.rulesets.procedure import RuleSet

GROUP = "firefight.rulesets"
OWN_DISTRIBUTION = "firefight"
"""The distribution of the built-in games' entry points: never left out, never blamed."""

RULE_SET_MODULE = "ruleset"
"""The module every built-in game's package holds (its :class:`RuleSet`): what tells a game's
package among the subpackages of ``firefight.rulesets`` (docs/writing-a-rule-set.md)."""


@cache
def built_in() -> tuple[str, ...]:
    """The built-in games' metadata, as firefight's own entry points name them (a test keeps
    the two the same): ``<package>:INFO`` for each subpackage of ``firefight.rulesets`` holding
    a :data:`RULE_SET_MODULE`, found in the package's folder (no game is named here, no
    package's metadata read): what a built-in game's name is looked up in first."""
    here = Path(__file__).parent
    return tuple(
        sorted(
            f"{__package__}.{entry.name}:INFO"
            for entry in os.scandir(here)
            if entry.is_dir() and (here / entry.name / f"{RULE_SET_MODULE}.py").is_file()
        )
    )


_registered: dict[str, RuleSet] = {}
_problems: dict[str, Said] = {}
"""Per entry point name (or rule set id), the one line saying why its package is left out."""
_packages: dict[str, tuple[str, str]] = {}
"""Per third party's rule set id: its distribution's name and its top-level module."""


def entry_points(group: str) -> Iterable[EntryPoint]:
    """The installed packages' entry points of ``group`` (:mod:`importlib.metadata`, imported
    the first time: a built-in game asked for by name reads none)."""
    from importlib.metadata import entry_points as installed  # noqa: PLC0415 - lazy: start-up

    return installed(group=group)


def _log() -> logging.Logger:
    """The registry's logger (:mod:`logging` imported the first time a line is logged)."""
    import logging  # noqa: PLC0415 - lazy: only a package left out is logged

    log = logging.getLogger(__name__)
    if not any(isinstance(h, logging.NullHandler) for h in log.handlers):
        log.addHandler(logging.NullHandler())  # the faces say the lines: none on a bare stderr
    return log


def register(ruleset: RuleSet) -> None:
    """Add a rule set at run time (e.g. one built in a notebook or a test)."""
    _registered[ruleset.id] = ruleset


def _distribution(point: EntryPoint, known: dict[int, str]) -> str:
    """The name of the distribution an entry point comes from (else its top-level module);
    ``known``: the names already read, by distribution (each read parses its metadata)."""
    dist = getattr(point, "dist", None)
    if dist is None:
        return point.module.partition(".")[0]
    if id(dist) not in known:
        known[id(dist)] = str(dist.name)
    return known[id(dist)]


_ENTRY_POINT = N_("rule set package {package} left out: entry point {name} does not load ({error})")
_RULE_SET = N_("rule set package {package} left out: rule set {name} does not load ({error})")
_WORDS = N_(
    "rule set package {package} left out: rule set {name} has words that cannot be printed "
    "({error})"
)


def printable(text: str) -> str:
    """``text`` as a face may print it: each character that is not printable (a terminal's
    escape, a line break) written as its escape (``\\x1b``); a third party's words are shown
    so, never raw."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _unprintable(info: RuleSetInfo) -> str | None:
    """The first of a package's rule set's words that ``firefight rulesets`` would print and
    that holds a character not printable (its field and the words escaped), else ``None``."""
    words = [("id", info.id), ("title", info.title), ("source", info.source)]
    words += [("aliases", alias) for alias in info.aliases]
    words += [("procedures", name) for name in info.procedures]
    words += [("procedure_titles", title) for title in info.procedure_titles]
    words += [("actions", text) for action in info.actions for text in action]
    for key, text in words:
        if not text.isprintable():
            return f"{key}: {text!r}"
    return None


def _left_out(key: str, package: str, message: str, name: str, error: BaseException) -> None:
    """Record (and log, once) the one line saying why a package's rule set is left out:
    ``message`` is :data:`_ENTRY_POINT` or :data:`_RULE_SET`, ``name`` the entry point's or
    the rule set's."""
    from firefight.rulesets.added import Said  # noqa: PLC0415 - lazy: only a package left out

    detail = printable(" ".join(str(error).split()))
    _said(
        key,
        Said(
            message,
            package=repr(package),
            name=repr(name),
            error=f"{type(error).__name__}{': ' + detail if detail else ''}",
        ),
    )


def _said(key: str, line: Said) -> None:
    """Record (and log, once) ``line``, why the package of ``key`` is left out."""
    if _problems.get(key) != line:
        _problems[key] = line
        _log().warning("%s", line)


def problems() -> list[str]:
    """The one-line reports of the third parties' packages left out, in the order met (in
    the active language)."""
    return [str(line) for line in _problems.values()]


def left_out() -> list[tuple[str, str]]:
    """Each package and game file left out, as the faces show them: the name it would be
    asked for by (an entry point's or rule set's name, a file's stem) and its one line, in the
    active language; the packages first, in the order met, then the folder's files."""
    from firefight.rulesets import added  # noqa: PLC0415 - lazy: a built-in game reads no file
    from firefight.rulesets.added import Said  # noqa: PLC0415

    taken = installed_ids()  # the packages read first: their lines recorded
    found = [(key, str(line)) for key, line in _problems.items()]
    for path, problem in added.added(taken).problems:
        found.append((path.stem, str(Said(N_("left out: {problem}"), problem=problem))))
    return found


@cache
def _installed() -> tuple[RuleSetInfo, ...]:
    found: list[RuleSetInfo] = []
    _problems.clear()
    _packages.clear()
    names: dict[int, str] = {}
    points = sorted(entry_points(group=GROUP), key=lambda p: p.name)
    for point in points:  # the points the scan holds: the distributions' ids stay theirs
        package = _distribution(point, names)
        if package == OWN_DISTRIBUTION:
            found.append(_entry(point))
            continue
        try:
            info = _entry(point)
        except Exception as error:  # a third party's: left out, said in one line
            _left_out(point.name, package, _ENTRY_POINT, point.name, error)
            continue
        unprintable = _unprintable(info)
        if unprintable is not None:  # its words would reach a terminal raw: left out
            from firefight.rulesets.added import Said  # noqa: PLC0415 - lazy: only one left out

            _said(
                point.name,
                Said(_WORDS, package=repr(package), name=repr(info.id), error=unprintable),
            )
            continue
        taken = sorted(info.names() & _built_in_names())
        if taken:  # it would hide a built-in game, or be hidden by it
            _said(info.id, _taken(package, taken[0]))
            continue
        _packages[info.id] = (package, point.value.partition(":")[0].split(".")[0])
        found.append(info)
    return tuple(found)


_TAKEN = N_("rule set package {package} left out: {name} is a built-in rule set's name")


def _taken(package: str, name: str) -> Said:
    from firefight.rulesets.added import Said  # noqa: PLC0415 - lazy: only a package left out

    return Said(_TAKEN, package=repr(package), name=repr(name))


@cache
def _built_in() -> tuple[RuleSetInfo, ...]:
    """The built-in games' metadata (:func:`built_in`), their light packages imported."""
    found = []
    for target in built_in():
        module, _colon, attribute = target.partition(":")
        info = getattr(import_module(module), attribute)
        if not isinstance(info, RuleSetInfo):
            msg = _("{target!r} does not name a RuleSetInfo").format(target=target)
            raise FirefightError(msg)
        found.append(info)
    return tuple(found)


def _built_in_names() -> set[str]:
    return {name for known in _built_in() for name in known.names()}


def _built_in_named(wanted: str) -> RuleSetInfo | None:
    """The built-in game whose id or alias is ``wanted`` (casefolded), found without reading
    any package's metadata; ``None`` when none is, or when a rule set registered at run time
    has that name too (it is looked for among all then, as :func:`info` always did)."""
    for found in _registered.values():
        if wanted in {found.id.casefold(), *(alias.casefold() for alias in found.aliases)}:
            return None
    return next((known for known in _built_in() if wanted in known.names()), None)


def _entry(point: EntryPoint) -> RuleSetInfo:
    """What an entry point names, as metadata."""
    loaded = point.load()
    if isinstance(loaded, RuleSetInfo):
        return loaded
    from firefight.rulesets.procedure import RuleSet  # noqa: PLC0415 - only for a full one

    if not isinstance(loaded, RuleSet):
        msg = _(
            "entry point {name!r} in {group} is not a RuleSet nor a RuleSetInfo ({value})"
        ).format(name=point.name, group=GROUP, value=point.value)
        raise FirefightError(msg)
    return RuleSetInfo.of(loaded)


def installed_ids() -> frozenset[str]:
    """The ids of the rule sets installed (built in, or a package's entry point): ids a game
    file may not take."""
    return frozenset(info.id for info in _installed())


def infos() -> list[RuleSetInfo]:
    """Every known rule set's metadata, ordered by id, without importing any game's
    procedures (a rule set registered at run time replaces an installed one of its id)."""
    by_id = {info.id: info for info in _installed()}
    from firefight.rulesets import added  # noqa: PLC0415 - lazy: a built-in game reads no file

    by_id.update({info.id: info for info in added.added(frozenset(by_id)).infos})
    by_id.update({key: RuleSetInfo.of(found) for key, found in _registered.items()})
    return [by_id[k] for k in sorted(by_id)]


def rulesets() -> list[RuleSet]:
    """Every known rule set, loaded, ordered by id. A third party's that does not load (its
    rule set, a procedure or a chart) is left out, reported in one line (:func:`problems`)."""
    found = []
    for known in infos():
        if _is_file(known):
            loaded = _file_loaded(known)
            if loaded is not None:
                found.append(loaded)
            continue
        if known.id not in _packages or known.id in _registered:
            found.append(known.load())
            continue
        checked = _checked(known)
        if checked is not None:
            found.append(checked)
    return found


def _is_file(found: RuleSetInfo) -> TypeGuard[added.FileInfo]:
    """Whether ``found`` is a game file's (:class:`~firefight.rulesets.added.FileInfo`): never
    where :mod:`~firefight.rulesets.added` was not imported (a built-in game asked for by
    name reads no file), so the check imports nothing."""
    module = sys.modules.get("firefight.rulesets.added")
    return module is not None and isinstance(found, module.FileInfo)


def _file_loaded(known: added.FileInfo, *, raising: bool = False) -> RuleSet | None:
    """A folder's game file's rule set, or ``None`` where it does not load: the file is left
    out (said in one line by :func:`left_out`) until it changes; ``raising``: its line raised."""
    from firefight.rulesets.added import left_out_file  # noqa: PLC0415 - lazy: a file's

    try:
        return known.load()
    except FirefightError as error:
        left_out_file(known, error)
        if raising:
            raise
        return None


def _checked(known: RuleSetInfo) -> RuleSet | None:
    """A third party's rule set with its procedures and charts loaded, or ``None`` (left out,
    said in one line)."""
    package = _packages[known.id][0]
    try:
        loaded = known.load()
        list(loaded.procedures)
        loaded.charts()
    except Exception as error:  # a third party's: left out, said in one line
        _left_out(known.id, package, _RULE_SET, known.id, error)
        return None
    return loaded


def _culprit(error: BaseException) -> tuple[str, str] | None:
    """Who ``error`` comes from when firefight did not write the code that raised it: a third
    party's package (the innermost frame of theirs or firefight's is theirs), or a game file
    (its rule ran when it raised): ``("rule set package 'NAME'", rule set id)`` or
    ``("game file 'FILE'", rule set id)``; else ``None``."""
    modules = {module: (package, key) for key, (package, module) in _packages.items()}
    frames: TracebackType | None = error.__traceback__
    found = None
    game = None
    while frames is not None:
        frame = frames.tb_frame
        top = str(frame.f_globals.get("__name__", "")).partition(".")[0]
        if top in modules:
            found = modules[top]
        elif top == OWN_DISTRIBUTION:  # firefight's own code raised, called from theirs
            found = None
        played = getattr(frame.f_locals.get("self"), "played_from", None)
        if callable(played) and game is None:  # a game file's rule (designed.build)
            game = played()
        frames = frames.tb_next
    if found is not None:
        return f"rule set package {found[0]!r}", found[1]
    if game is not None:
        return f"game file {game[0]!r}", game[1]
    return None


def _procedure_of(error: BaseException) -> str | None:
    """The name of the innermost procedure a frame of ``error``'s traceback was running (a
    :class:`~firefight.rulesets.procedure.Procedure` among its locals)."""
    from firefight.rulesets.procedure import Procedure  # noqa: PLC0415 - only for a bug

    name = None
    frames: TracebackType | None = error.__traceback__
    while frames is not None:
        for value in frames.tb_frame.f_locals.values():
            if isinstance(value, Procedure):
                name = value.name
        frames = frames.tb_next
    return name


def blamed(error: BaseException) -> str | None:
    """``rule set package 'NAME' (rule set ID)`` where ``error`` was raised in a third
    party's rule set package's code (the innermost frame of theirs or firefight's is
    theirs), or ``game file 'FILE' (rule set ID)`` where a game file's rule raised it, else
    ``None``."""
    culprit = _culprit(error)
    return None if culprit is None else f"{culprit[0]} (rule set {culprit[1]})"


def fault(error: BaseException) -> str | None:
    """The one line of a bug raised from a rule set firefight does not ship (a third party's
    package, or a game file), naming it, its procedure and the exception: what the CLI prints
    (after ``error:``, exit code 70) and the web answers (a 500's ``detail``). ``None`` for
    any other bug: firefight's own, which the faces report as firefight's."""
    culprit = _culprit(error)
    if culprit is None:
        return None
    procedure = _procedure_of(error)
    where = f"rule set {culprit[1]}" + (f", procedure {procedure}" if procedure else "")
    detail = printable(" ".join(str(error).split()))
    shown = f"{type(error).__name__}: {detail}" if detail else type(error).__name__
    if len(shown) > 120:
        shown = shown[:119] + "…"
    return f"internal error in {culprit[0]} ({where}): {shown}; report it to its authors"


def info(name: str, *, files: bool = False) -> RuleSetInfo:
    """A rule set's metadata by id or alias, in any case (``"EPT"``: a choice, and choices are
    case-insensitive); an unknown name lists the known ids. ``files``: a name ending ``.toml``
    is a game's file, read (the command line's own argument alone: a name a request, a
    scenario or a game sent by another player gives is never a path to read)."""
    wanted = name.casefold()
    built_in = _built_in_named(wanted)
    if built_in is not None:  # no package takes a built-in game's name, no game file its id
        return built_in
    from firefight.rulesets import added  # noqa: PLC0415 - lazy: a built-in game reads no file

    if files and added.names_a_file(name):  # ``firefight odds my-game.toml ...``
        return added.named(name, installed_ids())
    known = infos()
    for candidate in known:
        if wanted in candidate.names():
            return candidate
    ids = [r.id for r in known]
    begun = prefixed(name, ids)  # a unique beginning of an id: ``up`` for ``upfront``
    if begun is not None:
        return next(r for r in known if r.id == begun)
    problem = added.problem_named(name, installed_ids())
    if problem is not None:  # a file of the folder, left out: say why
        raise FirefightError(problem)
    if wanted in _problems:  # a third party's package, left out: say why
        raise FirefightError(_problems[wanted])
    raise InputError("ruleset", one_of(ids), name, options=ids)


def ruleset(name: str, *, files: bool = False) -> RuleSet:
    """A rule set by id or alias (``"ept"``, ``"en-pointe-toujours"``), in any case; only this
    one is loaded (``files``: as :func:`info`; a third party's that does not load: the one line
    saying so)."""
    found = info(name, files=files)
    if _is_file(found):
        loaded = _file_loaded(found, raising=True)
        assert loaded is not None
        return loaded
    if found.id not in _packages or found.id in _registered:
        return found.load()
    try:
        return found.load()
    except Exception as error:  # a third party's: said in one line
        _left_out(found.id, _packages[found.id][0], _RULE_SET, found.id, error)
        raise FirefightError(_problems[found.id]) from error


def action_names() -> dict[str, list[str]]:
    """Each action name the rule sets declare, with the ids of those declaring it, in the
    registry's order (read from their metadata: none is loaded)."""
    found: dict[str, list[str]] = {}
    for known in infos():
        for name, _title in known.actions:
            found.setdefault(name, []).append(known.id)
    return found
