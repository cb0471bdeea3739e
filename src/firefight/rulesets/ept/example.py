"""EPT's worked example (``firefight demo``): one fire attack from start to finish."""

from __future__ import annotations

from firefight.rulesets.worked_example import WorkedExample

EXAMPLE = {
    "strength": 6,
    "range": "normal",
    "target_movement": "tactical",
    "protection": "medium",
    "hindrance_hexes": 1,
}

WORKED_EXAMPLE = WorkedExample(
    procedure="fire",
    inputs=EXAMPLE,
    situation=(
        "A strength-6 unit fires at an enemy within normal range (not adjacent: one hex lies "
        "between them, of visual hindrance), moving tactically, in medium protection. CLI:"
    ),
    seed=42,
)
"""EPT's ``example`` hook."""
