"""How bad each outcome of the percentile game's fire is: no effect, suppressed, kill
(:class:`~firefight.rulesets.severity.Severity`)."""

from __future__ import annotations

from firefight.rulesets.severity import Severity, ranked

FIRE = ranked("no_effect", "suppressed", "kill")

SEVERITY: dict[str, Severity] = {"fire": FIRE, "example_fire": FIRE}
"""Each procedure's severity, by the procedure's name."""
