"""Effets du tir (effects of hits) of "Les tirs" (seed 001): hit tracks as explicit state.

A combat group (two elements) walks down the six lines of "Effets des tirs contre un groupe";
a command post (PC) down the three lines of "Effets des tirs contre PC et servants"; a
support-weapon crew or a gun crew (servants) down its own two-hit track, "les servants ...
peuvent subir deux touches avant d'être éliminés" (``crew_hits``). The state after k hits is
named by the k-th line reached: after three hits a group is "1st demoralized" (1st element
demoralized, 2nd still pinned).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from typing import ClassVar, Literal

from pydantic import Field

from firefight.chance import Chance
from firefight.chance.distribution import Distribution
from firefight.chance.evaluate import spend
from firefight.chance.phases import IntKernel, integer_kernel
from firefight.core.chart import Chart, load_chart
from firefight.core.modifier import Modifier
from firefight.errors import RuleError
from firefight.i18n import N_
from firefight.i18n import gettext as _
from firefight.rulesets.procedure import Procedure
from firefight.rulesets.tirs.paths import DATA
from firefight.rulesets.tirs.precision import (
    TirsPrecision,
    fire_sheet,
    hits_odds,
)
from firefight.rulesets.tirs.precision import facts as precision_facts
from firefight.rulesets.tirs.precision import modifiers as precision_modifiers

__all__ = [
    "FIRE",
    "GROUP",
    "PROCEDURES",
    "SERVANTS_TWO_HITS",
    "STATE_MEANINGS",
    "THREE_HITS",
    "ElementStatus",
    "TargetKind",
    "TargetState",
    "TirsFire",
    "Track",
    "state_odds",
    "track_for",
]

ElementStatus = Literal["normal", "pinned", "demoralized", "eliminated"]
TargetKind = Literal["group", "command_post", "support_crew", "gun_crew"]
StateName = Literal[
    "normal",
    "1st pinned",
    "2nd pinned",
    "1st demoralized",
    "2nd demoralized",
    "1st eliminated",
    "pinned",
    "demoralized",
]
"""States a target can be fired on in (an eliminated target is off the table)."""

GROUP_LINES = {
    "1er élément cloué": "1st pinned",
    "2ème élément cloué": "2nd pinned",
    "1er élément démoralisé": "1st demoralized",
    "2ème élément démoralisé": "2nd demoralized",
    "1er élément éliminé": "1st eliminated",
    "2ème élément éliminé": N_("2nd eliminated"),  # a group's end in an engagement
}
"""The group chart's French lines -> the English state names of the API."""
CREW_LINES = {
    "Elément cloué": "pinned",
    "Elément démoralisé": "demoralized",
    "Elément éliminé": "eliminated",
}
"""The crew chart's French lines -> the English state names of the API."""
_STATUS: dict[str, ElementStatus] = {
    "cloué": "pinned",
    "démoralisé": "demoralized",
    "éliminé": "eliminated",
}

STATE_MEANINGS: dict[str, str] = {
    "normal": "no hit taken",
    "1st pinned": "1st element pinned, 2nd normal: the group may try to split (tirs split)",
    "2nd pinned": "both elements pinned: cannot move; each may fire at +2",
    "1st demoralized": "1st element demoralized (no move, no fire), 2nd pinned",
    "2nd demoralized": "both elements demoralized: cannot move or fire",
    "1st eliminated": "1st element removed, 2nd demoralized",
    "2nd eliminated": "both elements eliminated: the group is removed from the table",
    "pinned": "pinned: cannot move; may fire at +2",
    "demoralized": "demoralized: cannot move or fire",
    "eliminated": "eliminated: removed from the table",
}


@dataclass(frozen=True, slots=True)
class Track:
    """A hit track: the state after 0, 1, 2, ... hits and each element's status there."""

    name: str
    chart: str
    states: tuple[str, ...]
    statuses: tuple[tuple[ElementStatus, ...], ...]

    @property
    def length(self) -> int:
        """The number of hits that eliminate the target."""
        return len(self.states) - 1

    def index(self, state: str) -> int:
        """How many hits a state stands for; an unknown state lists the track's states."""
        if state not in self.states:
            msg = _("'target_state' must be one of {states} for a {track} (got {state})").format(
                states=", ".join(self.states[:-1]), track=_(self.name), state=repr(state)
            )
            raise RuleError(msg)
        return self.states.index(state)


@cache
def _chart(name: str) -> Chart:
    return load_chart(DATA / f"{name}.toml")


def _read_track(chart_id: str, lines: dict[str, str], name: str, elements: int) -> Track:
    chart = _chart(chart_id)
    states = ["normal"]
    statuses: list[tuple[ElementStatus, ...]] = [tuple(["normal"] * elements)]
    current: list[ElementStatus] = ["normal"] * elements
    for row in chart.rows.labels:
        line = chart.cell_at(row, "Effet").value
        states.append(lines[line])
        which = 1 if line.startswith("2") else 0
        current[which if elements == 2 else 0] = _STATUS[line.split()[-1]]
        statuses.append(tuple(current))
    return Track(name, chart_id, tuple(states), tuple(statuses))


GROUP = _read_track("group_hits", GROUP_LINES, N_("combat group"), 2)
"""Effets des tirs contre un groupe: six hits."""
THREE_HITS = _read_track("crew_hits", CREW_LINES, N_("command post or crew"), 1)
"""Effets des tirs contre PC et servants: three hits (élément cloué, démoralisé, éliminé); a
PC's track, and the crews' with ``crew_hits="three"``."""
SERVANTS_TWO_HITS = Track(
    N_("support-weapon or gun crew (servants: two hits)"),
    "crew_hits",
    ("normal", "pinned", "eliminated"),
    (("normal",), ("pinned",), ("eliminated",)),
)
"""The servants' two-hit track, "Les servants d'une arme de soutien ou d'une pièce
d'artillerie, peuvent subir deux touches avant d'être éliminés" read as the group's "six
touches" and the PC's "trois touches" are (the Nth hit eliminates): the 1st hit pins (élément
cloué, the first line of the PC-and-crew chart), the 2nd eliminates (élément éliminé). The
default, ``crew_hits="two"``."""

CrewHits = Literal["two", "three"]


def track_for(target: TargetKind, crew_hits: CrewHits = "two") -> Track:
    """The track a target walks down; ``crew_hits`` reads the crews' two-hit sentence."""
    if target == "group":
        return GROUP
    if target in ("support_crew", "gun_crew") and crew_hits == "two":
        return SERVANTS_TWO_HITS
    return THREE_HITS


@dataclass(frozen=True, slots=True)
class TargetState:
    """A target's place on its track, with the hits of each fire it has taken (its history).

    Immutable: :meth:`after` returns the state after one more fire.
    """

    track: Track
    hits: int = 0
    history: tuple[int, ...] = ()

    @classmethod
    def named(cls, track: Track, state: str) -> TargetState:
        """The state of a target already in ``state`` (e.g. ``"1st pinned"``)."""
        return cls(track, track.index(state))

    @property
    def name(self) -> str:
        """The state's name: the last line of the track reached (``"2nd pinned"``)."""
        return self.track.states[self.hits]

    @property
    def elements(self) -> tuple[ElementStatus, ...]:
        """Each element's status (1st, 2nd for a group)."""
        return self.track.statuses[self.hits]

    @property
    def eliminated(self) -> bool:
        """Removed from the table."""
        return self.hits >= self.track.length

    @property
    def can_move(self) -> bool:
        """Only an unhit target moves: a pinned or demoralized element cannot (a group with one
        element pinned moves only after splitting, see ``tirs split``)."""
        return all(status == "normal" for status in self.elements)

    @property
    def can_fire(self) -> bool:
        """Some element is normal or pinned (pinned fires at +2)."""
        return any(status in ("normal", "pinned") for status in self.elements)

    @property
    def fires_pinned(self) -> bool:
        """Its fire takes the pinned +2: no element able to fire is normal."""
        return self.can_fire and "normal" not in self.elements

    def after(self, hits: int) -> TargetState:
        """The state after a fire that scored ``hits`` (hits past elimination are lost)."""
        if hits < 0:
            msg = _("'hits' must be an integer of at least 0 (got {hits})").format(hits=hits)
            raise RuleError(msg)
        if self.eliminated:
            msg = _("the {track} is eliminated: it cannot be fired on").format(
                track=_(self.track.name)
            )
            raise RuleError(msg)
        return TargetState(
            self.track, min(self.hits + hits, self.track.length), (*self.history, hits)
        )


def state_odds(before: TargetState, fires: Sequence[TirsPrecision]) -> Distribution[str]:
    """Exact odds of the target's state after ``fires`` in turn (each may differ): each fire's
    exact hit distribution carried down the track by :meth:`TargetState.after`, the same step
    the ``fire`` rule takes (a Markov chain over the track's states, so that many fires of many
    dice stay fast; integer weights over one denominator, each fire's hits worked out once).
    Under a work budget it pays one step per state and number of hits carried."""
    current: dict[int, int] = {before.hits: 1}
    denominator = 1
    kernels: dict[int, IntKernel[int]] = {}
    for fire in fires:
        if id(fire) not in kernels:
            kernels[id(fire)] = integer_kernel(hits_odds(fire).items())
        below, hits = kernels[id(fire)]
        spend(len(current) * len(hits))
        following: dict[int, int] = {}
        for taken, mass in current.items():
            state = TargetState(before.track, taken)
            if state.eliminated:  # not fired on again, as in the rule
                following[taken] = following.get(taken, 0) + mass * below
                continue
            for k, weight in hits:
                reached = state.after(k).hits
                following[reached] = following.get(reached, 0) + mass * weight
        current = following
        denominator *= below
    return Distribution(
        (before.track.states[k], Fraction(current[k], denominator))
        for k in sorted(current)
        if current[k]
    )


class TirsFire(TirsPrecision):
    """A direct fire and its effect on the target's hit track (Test de précision; Effets des
    tirs contre un groupe; Effets des tirs contre PC et servants)."""

    readings: ClassVar[frozenset[str]] = frozenset({"moving_fire_rate", "crew_hits"})
    """The fields that read the rules where they are silent (folded apart on the web)."""

    target: TargetKind = Field(
        "group",
        description=(
            "What is fired on: group (groupe de combat, two elements, six hits); "
            "command_post (PC): three hits; support_crew (servants d'arme de soutien), "
            "gun_crew (servants de pièce d'artillerie): two hits (see crew_hits)."
        ),
    )
    target_state: StateName = Field(
        "normal",
        description=(
            "The target's state before the fire, named by the last line of its track reached: "
            "a group: 1st pinned, 2nd pinned, 1st demoralized, 2nd demoralized, "
            "1st eliminated; a PC (or a crew with crew_hits=three): pinned, demoralized; "
            "a crew: pinned."
        ),
    )
    fires: int = Field(
        1,
        ge=1,
        le=5,
        description="How many identical fires are made in turn at the target (1 = one fire).",
    )
    crew_hits: CrewHits = Field(
        "two",
        description=(
            "Reading of 'les servants ... peuvent subir deux touches avant d'être éliminés': "
            "two = the 2nd hit eliminates, as the group's 'six touches' and the PC's 'trois "
            "touches' read (the servants' two-hit track: pinned, eliminated); three = they "
            "survive two hits and the third eliminates (the printed PC-and-crew track: "
            "pinned, demoralized, eliminated)."
        ),
    )


def _before(inp: TirsFire) -> TargetState:
    return TargetState.named(track_for(inp.target, inp.crew_hits), inp.target_state)


@lru_cache(maxsize=4096)
def _checked_before(inp: TirsFire) -> TargetState:
    fire_sheet(inp)
    return _before(inp)


def fire(inp: TirsFire, chance: Chance) -> str:
    """Roll the precision test ``fires`` times (each ONE pool event) and walk the hits down the
    target's track; a target eliminated before the last fire is not fired on again."""
    state = _checked_before(inp)
    sheet = fire_sheet(inp)
    for number in range(1, inp.fires + 1):
        if state.eliminated:
            break
        label = sheet.label if inp.fires == 1 else f"fire {number}: {sheet.label}"
        hits = chance.count(sheet.pool, sheet.test, label)
        state = state.after(hits)
        chance.note(
            state.track.chart,
            f"{hits} hit{'' if hits == 1 else 's'}: {state.hits} in all -> {state.name}",
        )
    return state.name


def fire_odds(inp: TirsFire) -> Distribution[str]:
    """The exact odds of ``fire``: its fires' hits carried down the track by
    :func:`state_odds` (a Markov chain over the track's states), not the rule replayed once
    per pool of every fire."""
    return state_odds(_checked_before(inp), [inp] * inp.fires)


def modifiers(inp: TirsFire) -> list[Modifier]:
    """The precision test's modifiers (the track has none)."""
    return precision_modifiers(inp)


def facts(inp: TirsFire) -> list[tuple[str, str]]:
    """The precision test's facts and the target's track."""
    before = _checked_before(inp)
    return [
        *precision_facts(inp),
        ("target track", f"{before.track.name}: {', '.join(before.track.states[1:])}"),
        ("hits taken before", f"{before.hits} ({before.name})"),
    ]


_ORDER = ("normal", *GROUP.states[1:], *THREE_HITS.states[1:])

FIRE: Procedure[TirsFire] = Procedure(
    name="fire",
    title="Direct fire: precision test and the target's state after (Effets du tir)",
    input_model=TirsFire,
    rule=fire,
    modifiers=modifiers,
    chart="precision",
    outcome_order=_ORDER,
    facts=facts,
    meanings=STATE_MEANINGS,
    exact_odds=fire_odds,
)

PROCEDURES = (FIRE,)
