"""Finding rule sets: built in or added by a third party through the entry point group
``firefight.rulesets``, or added as a game's TOML file (:mod:`firefight.rulesets.added`: the
user's folder of them, and a file named by its path).

An entry point names either a :class:`~firefight.rulesets.info.RuleSetInfo` (the rule set's
metadata, in a module that imports nothing heavy: the built-in games' ``INFO``) or a full
:class:`RuleSet` (loaded when the entry points are read). :func:`infos` reads the metadata
alone; :func:`ruleset` loads the one rule set it finds; :func:`rulesets` loads them all.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points
from typing import TYPE_CHECKING

from firefight.errors import FirefightError, InputError, one_of, prefixed
from firefight.rulesets import added
from firefight.rulesets.info import RuleSetInfo

if TYPE_CHECKING:
    from firefight.rulesets.procedure import RuleSet

GROUP = "firefight.rulesets"

_registered: dict[str, RuleSet] = {}


def register(ruleset: RuleSet) -> None:
    """Add a rule set at run time (e.g. one built in a notebook or a test)."""
    _registered[ruleset.id] = ruleset


@cache
def _installed() -> tuple[RuleSetInfo, ...]:
    found: list[RuleSetInfo] = []
    for point in sorted(entry_points(group=GROUP), key=lambda p: p.name):
        loaded = point.load()
        if isinstance(loaded, RuleSetInfo):
            found.append(loaded)
            continue
        from firefight.rulesets.procedure import RuleSet  # noqa: PLC0415 - only for a full one

        if not isinstance(loaded, RuleSet):
            msg = (
                f"entry point {point.name!r} in {GROUP} is not a RuleSet nor a RuleSetInfo "
                f"({point.value})"
            )
            raise FirefightError(msg)
        found.append(RuleSetInfo.of(loaded))
    return tuple(found)


def installed_ids() -> frozenset[str]:
    """The ids of the rule sets installed (built in, or a package's entry point): ids a game
    file may not take."""
    return frozenset(info.id for info in _installed())


def infos() -> list[RuleSetInfo]:
    """Every known rule set's metadata, ordered by id, without importing any game's
    procedures (a rule set registered at run time replaces an installed one of its id)."""
    by_id = {info.id: info for info in _installed()}
    by_id.update({info.id: info for info in added.added(frozenset(by_id)).infos})
    by_id.update({key: RuleSetInfo.of(found) for key, found in _registered.items()})
    return [by_id[k] for k in sorted(by_id)]


def rulesets() -> list[RuleSet]:
    """Every known rule set, loaded, ordered by id."""
    return [info.load() for info in infos()]


def info(name: str, *, files: bool = False) -> RuleSetInfo:
    """A rule set's metadata by id or alias, in any case (``"EPT"``: a choice, and choices are
    case-insensitive); an unknown name lists the known ids. ``files``: a name ending ``.toml``
    is a game's file, read (the command line's own argument alone: a name a request, a
    scenario or a game sent by another player gives is never a path to read)."""
    if files and added.names_a_file(name):  # ``firefight odds my-game.toml ...``
        return added.named(name, installed_ids())
    known = infos()
    wanted = name.casefold()
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
    raise InputError("ruleset", one_of(ids), name, options=ids)


def ruleset(name: str, *, files: bool = False) -> RuleSet:
    """A rule set by id or alias (``"ept"``, ``"en-pointe-toujours"``), in any case; only this
    one is loaded (``files``: as :func:`info`)."""
    return info(name, files=files).load()


def action_names() -> dict[str, list[str]]:
    """Each action name the rule sets declare, with the ids of those declaring it, in the
    registry's order (read from their metadata: none is loaded)."""
    found: dict[str, list[str]] = {}
    for known in infos():
        for name, _title in known.actions:
            found.setdefault(name, []).append(known.id)
    return found
