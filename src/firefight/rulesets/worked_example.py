"""A game's worked example (the ``example`` hook of :class:`~firefight.rulesets.RuleSet`): one
procedure's inputs, from start to finish, as ``firefight demo`` prints them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class WorkedExample:
    """One situation of a procedure: its inputs, the sentence that tells it and a seed.

    The demo shows the inputs' itemized modifiers, exact odds and a seeded resolution on the
    procedure's chart (``procedure`` must have one), with the command lines that give them.
    """

    procedure: str
    """The name of the procedure (one of the rule set's)."""
    inputs: Mapping[str, object]
    """Field name -> value, in the order the command lines give them."""
    situation: str
    """The situation in words, ending with what introduces the command line (e.g. "CLI:")."""
    seed: int = 42
