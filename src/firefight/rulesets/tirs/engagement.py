"""Les tirs units in an engagement: their place on the hit track (seed 001, Effets du tir).

Each unit's fire is the registered ``fire`` procedure (Test de précision, then the target's
hit track: "Effets des tirs contre un groupe" or "contre PC et servants") with one fire: its
outcome is the target's state after it, named by the last line of its track reached
(``2nd pinned``), which is the target's new state. A firer fires as its own track says
(:class:`~firefight.rulesets.tirs.effects.TargetState`): an element pinned fires at +2
(``firer_state = pinned``), a demoralized or eliminated one does not.

The seed has no rally: hits stay for the engagement. Action points (opportunity fire,
``tirs`` Python API) are not spent: in an exchange of fire every unit fires once a turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar, Literal

from pydantic import Field, model_validator

from firefight.core.inputs import RuleInput
from firefight.errors import InputError
from firefight.rulesets.engagement import EngagementRules, Order
from firefight.rulesets.tirs.effects import FIRE, TargetKind, TargetState, Track, track_for
from firefight.rulesets.tirs.precision import Experience, Weapon
from firefight.translation import gettext as _


class TirsUnit(RuleInput):
    """A Les tirs unit (a combat group, a PC or a crew) and its state at the start."""

    name: str = Field(min_length=1, max_length=60, description="The unit's name.")
    kind: TargetKind = Field(
        "group",
        description=(
            "group (two elements, six hits), command_post, support_crew or gun_crew (three "
            "hits; see the rules' crew_hits)."
        ),
    )
    cdt: int = Field(ge=1, le=20, description="Cadence de tir (CdT): one D10 per point.")
    experience: Experience = Field(description="novice, trained or veteran (Test de précision).")
    weapon: Weapon = Field("infantry", description="What it fires (armes de soutien...).")
    state: str = Field(
        "normal",
        description="Its state at the start, a line of its track (1st pinned, pinned, ...).",
    )

    @model_validator(mode="after")
    def _state_on_its_track(self) -> TirsUnit:
        states = track_for(self.kind).states[:-1] + track_for(self.kind, "two").states[:-1]
        if self.state not in states:
            allowed = ", ".join(dict.fromkeys(states))
            msg = f"'state' must be one of {allowed} for a {self.kind} (got {self.state!r})"
            raise ValueError(msg)
        return self


class TirsEngagementOptions(RuleInput):
    """Les tirs' engagement readings (the scenario's ``[rules]`` table)."""

    crew_hits: Literal["three", "two"] = Field(
        "three",
        description=(
            "Crews' track: three = pinned, demoralized, eliminated (the printed chart); two = "
            "pinned, eliminated (see docs/tirs.md)."
        ),
    )


class TirsEngagement(EngagementRules[TirsUnit, int]):
    """Les tirs direct fire between two sides: ``fire`` walks each target down its track."""

    ruleset: ClassVar[str] = "tirs"
    procedure = FIRE
    unit_model = TirsUnit
    options_model = TirsEngagementOptions
    order: ClassVar[Order] = "alternating"
    order_rule: ClassVar[str] = (
        "reading: the chapter gives no turn sequence; one side fires, then the other, side a first"
    )
    unit_fields = frozenset(
        {
            "cdt",
            "experience",
            "weapon",
            "firer_state",
            "target",
            "target_state",
            "fires",
            "crew_hits",
        }
    )
    options: TirsEngagementOptions

    def track(self, unit: TirsUnit) -> Track:
        """The unit's hit track (the crews' by the ``crew_hits`` reading)."""
        return track_for(unit.kind, self.options.crew_hits)

    def _state(self, unit: TirsUnit, hits: int) -> TargetState:
        return TargetState(self.track(unit), hits)

    def start(self, unit: TirsUnit) -> int:
        """The hits its starting state stands for (a line of its track)."""
        track = self.track(unit)
        if unit.state not in track.states[:-1]:
            raise InputError(
                "state",
                _("one of {values} on the {name} track").format(
                    values=", ".join(track.states[:-1]), name=track.name
                ),
                unit.state,
            )
        return track.index(unit.state)

    def attack_fields(
        self, firer: TirsUnit, firer_state: int, target: TirsUnit, target_state: int
    ) -> dict[str, Any]:
        """The firer's CdT, experience, weapon and state (pinned +2); the target's track and
        state; one fire."""
        firer_track = self._state(firer, firer_state)
        return {
            "cdt": firer.cdt,
            "experience": firer.experience,
            "weapon": firer.weapon,
            "firer_state": "pinned" if firer_track.fires_pinned else "normal",
            "target": target.kind,
            "target_state": self._state(target, target_state).name,
            "fires": 1,
            "crew_hits": self.options.crew_hits,
        }

    def apply(self, target: TirsUnit, state: int, outcome: str) -> int:
        """The fire's outcome is the line of the track reached."""
        del state
        track = self.track(target)
        return track.states.index(outcome)

    def can_fire(self, unit: TirsUnit, state: int) -> bool:
        """An element normal or pinned fires; demoralized or eliminated ones do not."""
        return self._state(unit, state).can_fire

    def out(self, unit: TirsUnit, state: int) -> bool:
        """Eliminated: off the table."""
        return self._state(unit, state).eliminated

    def broken(self, units: Sequence[TirsUnit], states: Sequence[int]) -> bool:
        """No unit can fire (every one demoralized or eliminated: the seed has no rally)."""
        return not any(self.can_fire(u, s) for u, s in zip(units, states, strict=True))

    def starts_fire(self) -> bool:
        """Nothing happens at the start of a side's fire."""
        return False

    def value(self, unit: TirsUnit, state: int) -> Fraction:
        """Hits left to elimination plus its CdT (x1/2 when it fires pinned, none when it
        cannot fire)."""
        track_state = self._state(unit, state)
        fire = Fraction(unit.cdt) if track_state.can_fire else Fraction(0)
        if track_state.fires_pinned:
            fire /= 2
        return (self.track(unit).length - state) + fire

    def describe(self, unit: TirsUnit, state: int) -> str:
        """The track's line reached (``2nd pinned``), ``normal`` without a hit."""
        return self._state(unit, state).name


RULES = TirsEngagement
