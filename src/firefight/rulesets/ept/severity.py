"""How bad each EPT procedure's outcomes are, from no effect to eliminated
(:class:`~firefight.rulesets.severity.Severity`): the Combat Table's results from '-' through
stopped (S), neutralized (N) and a step lost (1) to eliminated (E); the antitank results from a
miss to destroyed. Checks of the firer's own (activation, rate of fire, a Panzerfaust's
availability, the artillery's delay), the terrain's values and a scatter's direction are
values, not effects: :data:`~firefight.rulesets.severity.NEUTRAL`."""

from __future__ import annotations

from firefight.rulesets.severity import NEUTRAL, Severity, ranked

COMBAT = ranked(
    ("-", "no_effect", "no_smoke", "smoke_1", "smoke_2"),
    ("S", "S1", "S2", "stopped"),
    ("N", "N1", "N2", "N3", "neutralized"),
    ("1", "step_lost_neutralized"),
    ("E", "eliminated"),
)
"""The Combat Table's results and the tests they lead to (a smoke mission's smoke harms no
one: no effect)."""

ANTITANK = ranked(
    ("miss", "-", "no_effect", "not_available"),
    ("S", "shut_down"),
    ("I", "immobilized"),
    ("D", "destroyed"),
)
"""The Antitank Fire chart's results, in the chart's order (D, I, S, -) reversed."""

SEVERITY: dict[str, Severity] = {
    "fire": COMBAT,
    "indirect_fire": COMBAT,
    "artillery_mission": COMBAT,
    "vehicle_ap_fire": COMBAT,
    "at_to_hit": ranked("miss", "hit"),
    "at_fire": ANTITANK,
    "at_shot": ANTITANK,
    "portable_at": ANTITANK,
    "indirect_vs_armor": ANTITANK,
    "assault": ranked("no_effect", "step_loss", "eliminated"),
    "observation": ranked("keeps_camouflage", "loses_camouflage"),
    "panzerfaust_availability": NEUTRAL,
    "assault_initiative": NEUTRAL,
    "activation": NEUTRAL,
    "adjunct": NEUTRAL,
    "rate_of_fire": NEUTRAL,
    "artillery_delay": NEUTRAL,
    "scatter": NEUTRAL,
    "terrain": NEUTRAL,
    "line_of_sight": NEUTRAL,
}
"""Each procedure's severity, by the procedure's name."""
