"""V&V fire policies: who of the firers along a move's path fires at which hex (V&V 13.8).

For each firer, given its opportunities along the path in order (each with the attack's worth,
:class:`Shot`), a policy names the hex where it fires, or none (:data:`POLICIES`, the
interface :class:`FirePolicy`). ``threshold`` (default): the first hex where the expected CPs
reach ``threshold`` (1 by default), and always the first adjacent hex; ``first_sight``: the
first hex it may fire at; ``best_shot``: the hex of the most expected CPs (the first of
equals); ``player``: the defender chooses, a mapping firer -> hex (a firer named by any of its
units' ids, ``sniper`` for the sniper). A firer whose chosen hex no moving unit reaches keeps
its fire. :func:`fire_plan` gathers the attacks a policy makes along a path.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, Protocol, TypeVar

from firefight.errors import InputError, one_of
from firefight.rulesets.vv.movement import MovePlan
from firefight.rulesets.vv.opportunity import Firer, Opportunity
from firefight.translation import gettext as _

DEFAULT_THRESHOLD = Fraction(1)
"""The ``threshold`` policy's default: fire once the attack's expected CPs reach 1 (one CP
pins a unit, 14.61)."""
PolicyName = Literal["threshold", "first_sight", "best_shot", "player"]
POLICIES: tuple[str, ...] = ("threshold", "first_sight", "best_shot", "player")


class Shot(Protocol):
    """What a fire policy weighs of one attack a firer may make along the path: the firer,
    the hex (``index`` from 1, ``label``), whether it is adjacent, and ``score``: the attack's
    worth (an AP attack's expected CPs, :class:`Opportunity`; an AT attack's chance of
    stopping a vehicle, :class:`~firefight.rulesets.vv.at_move.AtOpportunity`)."""

    @property
    def firer(self) -> Firer:
        """Who fires."""
        ...

    @property
    def index(self) -> int:
        """The hex entered, from 1."""
        ...

    @property
    def label(self) -> str:
        """The hex's label."""
        ...

    @property
    def adjacent(self) -> bool:
        """The hex is adjacent to the firer."""
        ...

    @property
    def score(self) -> Fraction:
        """The attack's worth."""
        ...


S = TypeVar("S", bound=Shot)


class FirePolicy(Protocol):
    """Decides, for one firer, at which of its opportunities along the path it fires."""

    def choose(self, options: Sequence[S]) -> S | None:
        """The opportunity it fires at (one of ``options``, in path order), or none."""
        ...


@dataclass(frozen=True)
class Threshold:
    """Fire at the first hex where the attack's expected CPs reach ``threshold``, and always at
    the first adjacent hex (its -2, 13.8, is the best shot a defender gets)."""

    threshold: Fraction = DEFAULT_THRESHOLD

    def choose(self, options: Sequence[S]) -> S | None:
        """The first option at or above the threshold, or adjacent."""
        return next((o for o in options if o.adjacent or o.score >= self.threshold), None)


@dataclass(frozen=True)
class FirstSight:
    """Fire at the first hex the firer may fire at."""

    def choose(self, options: Sequence[S]) -> S | None:
        """The first option."""
        return options[0] if options else None


@dataclass(frozen=True)
class BestShot:
    """Hold fire for the best shot: the hex of the most expected CPs (the first of equals)."""

    def choose(self, options: Sequence[S]) -> S | None:
        """The option of the most expected CPs (AT: the best chance of stopping a vehicle)."""
        return max(options, key=lambda o: (o.score, -o.index), default=None)


@dataclass(frozen=True)
class PlayerChoice:
    """The defender's choice: ``hexes`` maps a firer (its id, any of its units' ids, or
    ``sniper``) to the hex label where it fires; firers not named hold their fire."""

    hexes: Mapping[str, str]

    def choose(self, options: Sequence[S]) -> S | None:
        """The option at the hex chosen for this firer, if any."""
        if not options:
            return None
        firer = options[0].firer
        wanted = {h for name, h in self.hexes.items() if firer.named_by(name)}
        if len(wanted) > 1:
            raise InputError(
                "fire",
                _("one hex for fire group {id} (14.2: it fires together)").format(id=firer.id),
                ",".join(sorted(wanted)),
            )
        if not wanted:
            return None
        hex_label = next(iter(wanted))
        for option in options:
            if option.label == hex_label:
                return option
        allowed = ", ".join(o.label for o in options)
        raise InputError(
            f"fire.{firer.id}",
            _("a hex it may fire at on this path: {allowed}").format(allowed=allowed),
            hex_label,
        )


def fire_policy(
    name: str, *, threshold: Fraction = DEFAULT_THRESHOLD, player: Mapping[str, str] | None = None
) -> FirePolicy:
    """The named policy (:data:`POLICIES`)."""
    if name == "threshold":
        return Threshold(threshold)
    if name == "first_sight":
        return FirstSight()
    if name == "best_shot":
        return BestShot()
    if name == "player":
        return PlayerChoice(dict(player or {}))
    raise InputError("policy", one_of(POLICIES), name)


def fire_plan(
    plan: MovePlan, policy: FirePolicy, by_firer: Mapping[str, list[Opportunity]]
) -> tuple[Opportunity, ...]:
    """The attacks the policy makes, in path order then firer order."""
    if isinstance(policy, PlayerChoice):
        known = {u.id for o in by_firer.values() for u in o[0].firer.units} | set(by_firer)
        known |= (
            {"sniper"} if any(o[0].firer.kind == "sniper" for o in by_firer.values()) else set()
        )
        for name in policy.hexes:
            if name not in known:
                allowed = _("a firer with a shot on this path: {firers}").format(
                    firers=", ".join(sorted(known)) or _("none")
                )
                raise InputError("fire", allowed, name)
    chosen = [c for options in by_firer.values() if (c := policy.choose(options)) is not None]
    order = {firer_id: n for n, firer_id in enumerate(by_firer)}
    del plan
    return tuple(sorted(chosen, key=lambda o: (o.index, order[o.firer.id])))
