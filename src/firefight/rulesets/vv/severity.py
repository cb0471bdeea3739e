"""How bad each V&V outcome is (:class:`~firefight.rulesets.severity.Severity`): Casualty
Points from none ('-') to five and more; a unit from unhurt through pinned, reduced and
reduced and pinned to eliminated; an AFV from a miss through the Elimination Numbers (the
higher, the likelier its end), abandoned or immobilized, both, to eliminated. A close assault
ranks as its first part (the defenders' fate), an AT attack's valor check aside. A valor check
and the artillery's placement are values, not effects."""

from __future__ import annotations

from firefight.rulesets.severity import NEUTRAL, Severity, ranked

MANY_CP = 5
"""Casualty Points: as many or more is the worst level."""
MOST_CP = 20

CASUALTIES = ranked(
    ("-", "unhurt", "no_check", "sniper_survives", "sniper_eliminated"),
    ("1", "pinned"),
    ("2", "reduced"),
    ("3", "4", "reduced_pinned"),
    (*(str(n) for n in range(MANY_CP, MOST_CP + 1)), "eliminated"),
)
"""Casualty Points and the units' states they leave (the sniper's own fate is no harm to the
units fired on)."""

ARMOUR = ranked(
    ("miss", "missed", "no_effect", "-"),
    ("3", "5"),
    ("abandoned", "immobilized", "7", "9"),
    ("immobilized_abandoned", "11"),
    ("E", "eliminated"),
)

MINES = ranked(
    "0",
    "1",
    "2",
    ("3", "4"),
    tuple(str(n) for n in range(MANY_CP, 13)),
)
"""A minefield's units eliminated."""

SEVERITY: dict[str, Severity] = {
    "ap_attack": CASUALTIES,
    "ap_attack_hex": CASUALTIES,
    "apply_casualties": CASUALTIES,
    "sniper_attack_hex": CASUALTIES,
    "sniper_attack": CASUALTIES,
    "fire_lane_attack": CASUALTIES,
    "overrun_attack": CASUALTIES,
    "at_attack": ARMOUR,
    "final_opportunity_fire": ARMOUR,
    "artillery_vs_afv": ARMOUR,
    "close_assault": ranked("assault_failed", "defenders_eliminated", first_part=True),
    "minefield": MINES,
    "rally": ranked("rallied", "still_pinned"),
    "sniper_elimination": ranked("sniper_survives", "sniper_eliminated"),
    "valor": NEUTRAL,
    "artillery_placement": NEUTRAL,
}
"""Each procedure's severity, by the procedure's name."""
