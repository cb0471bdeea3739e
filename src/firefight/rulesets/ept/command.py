"""EPT II charts (seed 000): being written."""

from __future__ import annotations

from typing import Any

from firefight.rulesets.procedure import Procedure

PROCEDURES: tuple[Procedure[Any], ...] = ()
