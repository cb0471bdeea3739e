"""Finding rule sets: built in or added by a third party through the entry point group
``firefight.rulesets`` (each entry point names a :class:`RuleSet` object)."""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points

from firefight.errors import FirefightError, InputError, one_of
from firefight.rulesets.procedure import RuleSet

GROUP = "firefight.rulesets"

_registered: dict[str, RuleSet] = {}


def register(ruleset: RuleSet) -> None:
    """Add a rule set at run time (e.g. one built in a notebook or a test)."""
    _registered[ruleset.id] = ruleset


@cache
def _installed() -> tuple[RuleSet, ...]:
    found: list[RuleSet] = []
    for point in sorted(entry_points(group=GROUP), key=lambda p: p.name):
        loaded = point.load()
        if not isinstance(loaded, RuleSet):
            msg = f"entry point {point.name!r} in {GROUP} is not a RuleSet ({point.value})"
            raise FirefightError(msg)
        found.append(loaded)
    return tuple(found)


def rulesets() -> list[RuleSet]:
    """Every known rule set, installed ones first, ordered by id."""
    by_id = {r.id: r for r in _installed()}
    by_id.update(_registered)
    return [by_id[k] for k in sorted(by_id)]


def ruleset(name: str) -> RuleSet:
    """A rule set by id or alias (``"ept"``, ``"en-pointe-toujours"``), in any case (``"EPT"``:
    a choice, and choices are case-insensitive)."""
    known = rulesets()
    wanted = name.casefold()
    for candidate in known:
        if wanted in {candidate.id.casefold(), *(a.casefold() for a in candidate.aliases)}:
            return candidate
    raise InputError("ruleset", one_of(r.id for r in known), name)
