"""V&V units as values, and a hex of units as explicit state (V&V 14, 16, 20).

A :class:`Unit` is immutable: a combat result returns a new unit (``pinned()``,
``reduced()``), and a :class:`HexUnits` is the tuple of units in one hex, so that later work
(opportunity fire, fire lanes) can keep a turn's state as plain values and undo by keeping
the old one.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Literal

from firefight.errors import InputError
from firefight.i18n import gettext

UnitKind = Literal["squad", "half_squad", "leader", "unarmoured_vehicle", "armoured_vehicle", "gun"]
INFANTRY: frozenset[str] = frozenset({"squad", "half_squad", "leader"})
VEHICLES: frozenset[str] = frozenset({"unarmoured_vehicle", "armoured_vehicle"})
SURVIVAL_ROLL_KINDS: frozenset[str] = frozenset({"unarmoured_vehicle", "gun"})
"""14.64: unarmoured vehicles and Guns make a survival roll when hit for several CPs."""


@dataclass(frozen=True)
class Unit:
    """One V&V counter in a hex.

    ``casualty_rating`` is the counter's Casualty Rating (for a squad, the full squad's);
    ``half_squad_rating`` the Casualty Rating of the half squad a squad reduces to (14.61);
    ``leadership_modifier`` a leader's (negative) Leadership Modifier (13.6); ``gun_shield``
    a Gun's shield (13.5); ``valorous`` a Valor marker (16.3); ``fired`` a Fire marker
    (13.8, for opportunity fire); ``passengers`` the infantry carried by a vehicle (14.3,
    14.65).
    """

    kind: UnitKind
    casualty_rating: int
    name: str = ""
    half_squad_rating: int | None = None
    leadership_modifier: int = 0
    apfp: int = 0
    pinned: bool = False
    valorous: bool = False
    gun_shield: bool = False
    fired: bool = False
    passengers: tuple[Unit, ...] = ()

    def __post_init__(self) -> None:
        label = self.name or self.kind
        if self.casualty_rating < 1:
            raise InputError(f"{label}.casualty_rating", "at least 1", self.casualty_rating)
        if self.kind == "squad":
            half = self.half_squad_rating
            if half is None or not 1 <= half < self.casualty_rating:
                raise InputError(
                    f"{label}.half_squad_rating",
                    gettext("from 1 to {most} (below the squad's rating)").format(
                        most=self.casualty_rating - 1
                    ),
                    half,
                )
        if self.leadership_modifier > 0:
            raise InputError(
                f"{label}.leadership_modifier", "0 or negative", self.leadership_modifier
            )
        if self.passengers and self.kind not in VEHICLES:
            raise InputError(f"{label}.passengers", "carried by a vehicle only", self.kind)
        for passenger in self.passengers:
            if passenger.kind not in ("squad", "half_squad", "leader"):
                raise InputError(f"{label}.passengers", "infantry units (14.65)", passenger.kind)

    @property
    def label(self) -> str:
        """Its name, or its kind in words."""
        return self.name or self.kind.replace("_", " ")

    @property
    def is_infantry(self) -> bool:
        """Squads, half squads and leaders (16.1: valor applies to infantry only)."""
        return self.kind in INFANTRY

    @property
    def affected_by_ap(self) -> bool:
        """14.1: AP fire has no effect on AFVs."""
        return self.kind != "armoured_vehicle"

    @property
    def reduction_cost(self) -> int:
        """14.61: reducing a squad to a half squad costs the difference in Casualty Rating."""
        if self.kind != "squad" or self.half_squad_rating is None:
            msg = gettext("only a squad can be reduced (got {kind})").format(kind=self.kind)
            raise ValueError(msg)
        return self.casualty_rating - self.half_squad_rating

    def as_pinned(self) -> Unit:
        """The unit flipped to its pinned side (14.7); a vehicle's passengers are pinned too."""
        return replace(self, pinned=True, passengers=tuple(p.as_pinned() for p in self.passengers))

    def as_reduced(self) -> Unit:
        """A squad reduced to its half squad (14.61); valor is kept (16.4)."""
        return replace(
            self,
            kind="half_squad",
            casualty_rating=self.reduction_target,
            half_squad_rating=None,
        )

    @property
    def reduction_target(self) -> int:
        """The half squad's Casualty Rating."""
        if self.half_squad_rating is None:
            msg = gettext("only a squad can be reduced (got {kind})").format(kind=self.kind)
            raise ValueError(msg)
        return self.half_squad_rating


@dataclass(frozen=True)
class HexUnits:
    """The units in one hex (the target of an AP attack, 14.1)."""

    units: tuple[Unit, ...]

    def __iter__(self) -> Iterator[Unit]:
        return iter(self.units)

    def __len__(self) -> int:
        return len(self.units)

    def replace_unit(self, index: int, unit: Unit | None) -> HexUnits:
        """A new hex with unit ``index`` replaced (``None``: removed, e.g. eliminated)."""
        units = list(self.units)
        if unit is None:
            del units[index]
        else:
            units[index] = unit
        return HexUnits(tuple(units))


def best_leadership_modifier(units: tuple[Unit, ...]) -> int:
    """13.6 (one Leadership Modifier per attack roll) and seed 003 "Leadership Modifiers": with
    several leaders in a fire group the best (most negative) modifier counts."""
    return min((u.leadership_modifier for u in units if u.kind == "leader"), default=0)


def fire_group_apfp(units: tuple[Unit, ...], support_weapons_apfp: int = 0) -> int:
    """14.2: a fire group's combined APFP; 16.3: +1 inherent APFP per valorous unit.

    ``support_weapons_apfp`` is the APFP of the support weapons fired (not raised by valor).
    """
    return sum(u.apfp + (1 if u.valorous and u.is_infantry else 0) for u in units) + (
        support_weapons_apfp
    )
