"""How bad each Up Front outcome is (:class:`~firefight.rulesets.severity.Severity`): a man
from no effect through pinned, routed (or berserk), wounded to KIA; an AFV from no effect
through buttoned up, stunned, immobilized (or its commander KIA) to KIA. An overrun's outcome
ranks as its first part, the men's fate (the rest is the overrunning AFV's); a malfunction as
the weapon's fate. A range, a hand's size are values, not effects."""

from __future__ import annotations

from firefight.rulesets.severity import NEUTRAL, Severity, ranked

NONE = (
    "no effect",
    "attack ended",
    "called off",
    "miss",
    "miss (no attack)",
    "radio breaks (no attack)",
    "DC malfunctions (removed, no effect)",
    "ordnance weapon broken",
    "AFV bogged: attack ends",
)
KIA = (
    "KIA",
    "KIA (2nd wound)",
    "KIA (banzai)",
    "KIA (panic)",
    "AFV KIA",
    "AFV KIA (critical hit)",
    "AFV KIA (stunned twice)",
)
LEVELS = (
    NONE,
    ("pinned", "buttoned up"),
    ("routed", "berserk", "stunned"),
    ("wounded", "immobilized", "commander KIA"),
    KIA,
)

FIRE = ranked(*LEVELS)

SEVERITY: dict[str, Severity] = {
    "fire": FIRE,
    "resolution": FIRE,
    "ordnance": FIRE,
    "afv": FIRE,
    "artillery": FIRE,
    "demolition": FIRE,
    "overrun": ranked(*LEVELS, first_part=True),
    "malfunction": ranked("unaffected", "malfunctions", ("removed", "broken")),
    "infiltration": ranked(("not attempted", "infiltrated"), ("pinned (morale check)", "pinned")),
    "close_combat": ranked(
        ("no combat", "attacker KIA"),
        ("defender prisoner", "defender prisoner, weapon captured"),
        ("both KIA", "defender KIA", "defender KIA, weapon captured"),
    ),
    "close_combat_afv": ranked(
        ("no combat", "attacker KIA", "no effect"), "AFV immobilized", "AFV KIA"
    ),
    "morale_check": ranked(("not checked", "passed"), "pinned"),
    "range": NEUTRAL,
    "hand": NEUTRAL,
}
"""Each procedure's severity, by the procedure's name."""
