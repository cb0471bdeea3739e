"""Priorité des cibles (target priority) of "Les tirs" (seed 001).

"Au moment du tir, si une unité a plusieurs cibles potentielles, elle traitera celles-ci dans
l'ordre des priorités suivantes: 1) la cible la plus menaçante, 2) la cible la plus proche,
3) la cible contre laquelle le tir sera le plus efficace." The threat is the player's rating
(the seed gives no scale); "most effective" is measured with the exact odds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from firefight.errors import RuleError
from firefight.rulesets.tirs.effects import TargetState, TirsFire, state_odds, track_for

__all__ = ["Candidate", "Effectiveness", "Ranked", "Ranking", "effectiveness", "rank_targets"]

Effectiveness = Literal["expected_steps", "elimination", "any_hit"]
"""How "le plus efficace" is measured: the exact expected number of steps the fire moves the
target down its track (default), the chance of eliminating it, or the chance of a hit."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """A potential target: its name, the player's threat rating (higher = more threatening),
    its base-to-base distance, and the fire that would be made at it."""

    name: str
    threat: int
    distance: Fraction | int
    fire: TirsFire


@dataclass(frozen=True, slots=True)
class Ranked:
    """A candidate with its exact effectiveness."""

    candidate: Candidate
    effectiveness: Fraction


@dataclass(frozen=True, slots=True)
class Ranking:
    """Candidates in priority order, and those no fire can be made at (with why)."""

    ranked: tuple[Ranked, ...]
    excluded: tuple[tuple[str, str], ...]

    @property
    def names(self) -> list[str]:
        """The candidates' names in priority order."""
        return [r.candidate.name for r in self.ranked]


def effectiveness(fire: TirsFire, measure: Effectiveness = "expected_steps") -> Fraction:
    """The exact effectiveness of ``fire`` at its target (all its ``fires`` together)."""
    before = TargetState.named(track_for(fire.target, fire.crew_hits), fire.target_state)
    odds = state_odds(before, [fire] * fire.fires)
    states = before.track.states
    if measure == "elimination":
        return odds[states[-1]]
    if measure == "any_hit":
        return 1 - odds[before.name]
    return sum((p * (states.index(s) - before.hits) for s, p in odds.items()), Fraction(0))


def rank_targets(
    candidates: Sequence[Candidate], measure: Effectiveness = "expected_steps"
) -> Ranking:
    """Rank candidates: most threatening, then nearest, then most effective; equal ones keep
    the order given. A candidate the rules forbid firing at is excluded with the reason."""
    ranked: list[Ranked] = []
    excluded: list[tuple[str, str]] = []
    for candidate in candidates:
        try:
            ranked.append(Ranked(candidate, effectiveness(candidate.fire, measure)))
        except RuleError as error:
            excluded.append((candidate.name, str(error)))
    ranked.sort(
        key=lambda r: (-r.candidate.threat, Fraction(r.candidate.distance), -r.effectiveness)
    )
    return Ranking(tuple(ranked), tuple(excluded))
