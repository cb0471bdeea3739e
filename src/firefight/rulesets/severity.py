"""How bad each outcome of a procedure is, from no effect to the worst (eliminated): the
order a rule set declares for its procedures' outcomes (:attr:`RuleSet.severity`), which the
faces read to colour the odds (green for no effect, red for the worst).

A procedure's outcomes are ranked in levels, each level a set of outcome codes as the rule
returns them. A code the levels do not name is read by its parts: split at ``;`` (where
``first_part``, the first part alone: what befalls the target, the rest what befalls others)
and ``,``, each part is ranked whole or, failing that, by the worst of its words the levels
name (``unit1 reduced, unit2 unhurt`` ranks as ``reduced``). A
procedure whose outcomes are values rather than effects (a terrain's modifier, a scatter's
direction, a hand's size) is declared :data:`NEUTRAL`: its outcomes have no rank and are
shown uncoloured.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

GRADES = 5
"""How many colours a face shows, from no effect (0) to the worst (``GRADES - 1``)."""

_PARTS = re.compile(r"\s*;\s*")
_PIECES = re.compile(r"\s*,\s*")


@dataclass(frozen=True)
class Severity:
    """A procedure's outcomes in levels, from no effect (the first) to the worst (the last);
    ``neutral``: its outcomes are values, not effects, and have no rank."""

    levels: tuple[frozenset[str], ...] = ()
    neutral: bool = False
    first_part: bool = False
    _ranks: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        for rank, level in enumerate(self.levels):
            for outcome in level:
                self._ranks.setdefault(outcome, rank)

    @property
    def top(self) -> int:
        """The worst level's rank."""
        return max(len(self.levels) - 1, 0)

    def rank(self, outcome: str) -> int | None:
        """The outcome's level (0: no effect), read whole or by its parts; ``None``: the
        levels name neither it nor any of its parts (or the procedure is neutral)."""
        found = self._ranks.get(outcome)
        if found is not None or self.neutral:
            return found
        parts = _PARTS.split(outcome)
        if self.first_part:
            parts = parts[:1]
        ranks = [r for part in parts if (r := self._part(part)) is not None]
        return max(ranks) if ranks else None

    def _part(self, part: str) -> int | None:
        found = self._ranks.get(part)
        if found is not None:
            return found
        ranks = [r for piece in _PIECES.split(part) if (r := self._piece(piece)) is not None]
        return max(ranks) if ranks else None

    def _piece(self, piece: str) -> int | None:
        found = self._ranks.get(piece)
        if found is not None:
            return found
        words = [self._ranks.get(word) for word in piece.split()]
        ranked = [r for r in words if r is not None]
        return max(ranked) if ranked else None

    def declares(self, outcome: str) -> bool:
        """Whether the outcome has a severity: a rank, or the procedure is neutral."""
        return self.neutral or self.rank(outcome) is not None

    def grade(self, outcome: str) -> int | None:
        """The outcome's colour, 0 (no effect) to ``GRADES - 1`` (the worst): its rank scaled
        to the grades, rounded half up; ``None``: no rank."""
        rank = self.rank(outcome)
        if rank is None or self.top == 0:
            return None
        return (2 * rank * (GRADES - 1) + self.top) // (2 * self.top)


NEUTRAL = Severity(neutral=True)
"""The severity of a procedure whose outcomes are values, not effects."""


def ranked(*levels: str | tuple[str, ...], first_part: bool = False) -> Severity:
    """A severity from its levels, from no effect to the worst: each an outcome code, or a
    tuple of codes as bad as each other."""
    sets = tuple(frozenset((level,) if isinstance(level, str) else level) for level in levels)
    return Severity(sets, first_part=first_part)
