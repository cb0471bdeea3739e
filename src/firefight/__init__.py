"""firefight: exact odds and replayable resolution of fire combat in tactical WWII wargames.

>>> import firefight
>>> fire = firefight.ruleset("ept").procedure("fire")
>>> attack = fire.parse({"strength": 6, "range": "adjacent", "protection": "medium"})
>>> fire.odds(attack)["1"]  # lose a step + neutralized
Fraction(1, 12)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from firefight.rulesets import RuleSet

__version__ = "0.1.0"


def ruleset(name: str) -> RuleSet:
    """A rule set by id or alias; see :func:`firefight.rulesets.ruleset`."""
    from firefight.rulesets import ruleset as find  # noqa: PLC0415 - keeps `import firefight` light

    return find(name)


def list_rulesets() -> list[RuleSet]:
    """Every known rule set; see :func:`firefight.rulesets.rulesets`.

    (Not ``firefight.rulesets``: that name is the package of the rule sets.)
    """
    from firefight.rulesets import rulesets as every  # noqa: PLC0415 - keeps `import firefight` light

    return every()


__all__ = ["__version__", "list_rulesets", "ruleset"]
