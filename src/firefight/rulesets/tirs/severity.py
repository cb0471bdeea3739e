"""How bad each Tirs outcome is (:class:`~firefight.rulesets.severity.Severity`): a target's
track from normal through pinned and demoralized to eliminated (a group's first element
eliminated one level short of the whole group), and a precision fire's hits from none to six
(a group's six hits) and more. A group's split is a choice, not an effect."""

from __future__ import annotations

from firefight.rulesets.severity import NEUTRAL, Severity, ranked

MANY_HITS = 6
"""A group's hits: as many or more is the worst level."""
MOST_HITS = 40

SEVERITY: dict[str, Severity] = {
    "fire": ranked(
        "normal",
        ("1st pinned", "2nd pinned", "pinned"),
        ("1st demoralized", "2nd demoralized", "demoralized"),
        "1st eliminated",
        ("2nd eliminated", "eliminated"),
    ),
    "precision": ranked(
        "0 hits",
        "1 hit",
        "2 hits",
        tuple(f"{n} hits" for n in range(3, MANY_HITS)),
        tuple(f"{n} hits" for n in range(MANY_HITS, MOST_HITS + 1)),
    ),
    "split": NEUTRAL,
}
"""Each procedure's severity, by the procedure's name."""
