"""V&V 14.6 on the board: who applies the Casualty Points of a hit, and how.

14.61: "The defending player determines how Casualty Points are applied to the units in the
target hex" (14.62: "the owning player"). In a move under opportunity fire (13.8) the units
hit are the moving player's; in an overrun (19.4) the target hex's. A run consults an
:class:`Allocator` each time an attack's CPs are known, with a :class:`Hit` (the hex, the
owner, the units hit and the CPs), and applies the allocation it answers after checking it
(14.61-14.65, :func:`~firefight.rulesets.vv.allocation_outcome.check_allocation`). The hook
is consulted in every branch of the exact odds too, so an allocator answering a
:class:`Hit` should answer it the same each time it is asked (a player asked at the table
answers one run only).

:class:`PolicyAllocator` is the allocator the commands build: the owner's order declared
before the run for a hex (``orders``: hex label, or ``all``, -> unit ids; the units take the
CPs in that order, :func:`~firefight.rulesets.vv.allocation_outcome.ordered_allocation`), else
the named casualty policy (``least_rating_lost`` by default).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from firefight.chance import Chance
from firefight.chance.asked import choose
from firefight.errors import InputError, one_of
from firefight.i18n import gettext as _
from firefight.rulesets.vv.allocation import (
    NONE,
    POLICIES,
    Casualty,
    Policy,
    SurvivalReading,
)
from firefight.rulesets.vv.allocation_outcome import default_allocation, ordered_allocation
from firefight.rulesets.vv.allocation_search import legal_allocations
from firefight.rulesets.vv.units import HexUnits

EVERY_HEX = "all"
"""The key of an order that serves every hex hit without an order of its own."""


@dataclass(frozen=True)
class Hit:
    """An attack's CPs known, for the owner of the units hit to apply (14.6).

    ``hex``: the label of the hex hit; ``owner``: the side whose units are hit (the player
    who allocates); ``ids``: each slot's unit id, in the order of
    :func:`~firefight.rulesets.vv.allocation.slots` over ``units``; ``cps``: the CPs to apply;
    the readings and shields the allocation is checked under (14.63, 14.64).
    """

    hex: str
    owner: str
    ids: tuple[str, ...]
    units: HexUnits
    cps: int
    survival: SurvivalReading = "cps_applied"
    attack_in_gun_ffa: bool = True
    gun_moving: bool = False

    def entries(self, allocation: Sequence[Casualty]) -> str:
        """The allocation as ``ID ACTION CPS`` entries (``de-sq1 eliminate 5, de-sq2 pin 1``)."""
        return ", ".join(
            f"{unit_id} {c}" for unit_id, c in zip(self.ids, allocation, strict=True) if c != NONE
        )


@dataclass(frozen=True)
class HitHex:
    """Where hits will fall before their CPs are known: the hex's label, the owning side and
    each slot's unit id (an overrun's target hex, 19.4)."""

    hex: str
    owner: str
    ids: tuple[str, ...]

    def hit(self, units: HexUnits, cps: int, survival: SurvivalReading = "cps_applied") -> Hit:
        """The :class:`Hit` of ``cps`` on ``units`` here."""
        return Hit(self.hex, self.owner, self.ids, units, cps, survival)


class Allocator(Protocol):
    """The owner's allocation of a hit: one :class:`~firefight.rulesets.vv.allocation.Casualty`
    per slot of ``hit.units`` (the run checks it and refuses an illegal one in one line)."""

    def __call__(self, hit: Hit) -> tuple[Casualty, ...]:
        """The allocation of ``hit.cps`` to ``hit.units``."""
        ...


@dataclass(frozen=True)
class PolicyAllocator:
    """The owner's order for a hex when one is declared (``orders``: pairs of a hex label or
    :data:`EVERY_HEX` and the unit ids, first the one taking the most), else ``policy``."""

    policy: Policy = "least_rating_lost"
    orders: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def order_for(self, hex_label: str) -> tuple[str, ...] | None:
        """The order declared for the hex, or for every hex, if any."""
        found = dict(self.orders)
        return found.get(hex_label, found.get(EVERY_HEX))

    def __call__(self, hit: Hit) -> tuple[Casualty, ...]:
        """The order's allocation (units of the order not among those hit left out), else the
        policy's."""
        order = self.order_for(hit.hex)
        readings = (hit.attack_in_gun_ffa, hit.gun_moving, hit.survival)
        if order is None:
            return default_allocation(
                hit.units,
                hit.cps,
                self.policy,
                attack_in_gun_ffa=readings[0],
                gun_moving=readings[1],
                survival=readings[2],
            )
        slots = tuple(hit.ids.index(u) for u in order if u in hit.ids)
        return ordered_allocation(
            hit.units,
            hit.cps,
            slots,
            attack_in_gun_ffa=readings[0],
            gun_moving=readings[1],
            survival=readings[2],
        )

    def to_json(self) -> dict[str, object]:
        """``{"policy": ..., "orders": {hex: [ids]}}``: how the CPs of each hit are applied."""
        return {"policy": self.policy, "orders": {h: list(ids) for h, ids in self.orders}}

    def describe(self) -> str:
        """One line: the orders declared, then the policy for the other hexes."""
        orders = "; ".join(f"{h}: {' then '.join(ids)}" for h, ids in self.orders)
        return (f"the owner's order ({orders}); " if orders else "") + f"policy {self.policy}"


def allocate(allocator: Allocator, hit: Hit, chance: Chance) -> tuple[Casualty, ...]:
    """The allocation of ``hit`` applied in a run over ``chance`` (14.6).

    ``allocator``'s answer, except where it is a :class:`PolicyAllocator` with no order
    declared for the hex (``--allocation``) and more than one allocation is legal: then the
    owner is asked which to apply when the CPs are known, under an asked run (``--roll ask``),
    through :func:`~firefight.chance.asked.choose`. The options are the legal allocations
    (:func:`~firefight.rulesets.vv.allocation_search.legal_allocations`, 14.61-14.65) in words, as
    the ``14.61 allocation`` note writes them (``de-sq1 eliminate 5, de-sq2 pin 1``); the
    policy's first (option 1) and the default, which exact odds, seeded runs and dice given up
    front keep (a replay gives the choice back as ``#N``, the option's number). A hook of its
    own is the owner's answer already and is not asked again."""
    answer = allocator(hit)
    if not isinstance(allocator, PolicyAllocator) or allocator.order_for(hit.hex) is not None:
        return answer
    allowed = legal_allocations(
        hit.units,
        hit.cps,
        attack_in_gun_ffa=hit.attack_in_gun_ffa,
        gun_moving=hit.gun_moving,
        survival=hit.survival,
    )
    if len(allowed) < 2 or answer not in allowed:
        return answer
    by_words = {hit.entries(a) or "none": a for a in (answer, *allowed)}
    purpose = _("14.6 allocation of {cps} CPs in {hex} ({owner})").format(
        cps=hit.cps, hex=hit.hex, owner=hit.owner
    )
    chosen = choose(chance, purpose, list(by_words), hit.entries(answer) or "none")
    return by_words[chosen]


def allocator_json(allocator: Allocator) -> dict[str, object]:
    """How a run applies the CPs, for a ``--json`` answer: a :class:`PolicyAllocator`'s policy
    and orders, or the hook's name."""
    if isinstance(allocator, PolicyAllocator):
        return allocator.to_json()
    return {"hook": getattr(allocator, "__name__", type(allocator).__name__)}


def allocator_text(allocator: Allocator) -> str:
    """The same in one line, for the printed answer."""
    if isinstance(allocator, PolicyAllocator):
        return allocator.describe()
    return f"hook {allocator_json(allocator)['hook']}"


DEFAULT_ALLOCATOR = PolicyAllocator()
"""The allocation when none is asked for: the ``least_rating_lost`` policy in every hex."""


def parse_orders(text: str) -> dict[str, list[str]]:
    """``--allocation``: ``HEX=ID/ID,...`` (the units of the hex hit in the order they take the
    CPs), ``all=ID/ID`` or a bare ``ID/ID`` for every hex without an order of its own."""
    found: dict[str, list[str]] = {}
    for token in (t.strip() for t in text.split(",")):
        if not token:
            continue
        key, sep, ids = token.rpartition("=") if "=" in token else (EVERY_HEX, "=", token)
        order = [u.strip() for u in ids.split("/")]
        if not sep or not key.strip() or not all(order):
            raise InputError(
                "allocation", "HEX=ID/ID pairs or all=ID/ID separated by commas", token
            )
        if key.strip() in found:
            raise InputError("allocation", "each hex named once", key.strip())
        found[key.strip()] = order
    return found


def policy_allocator(
    policy: str,
    orders: Mapping[str, Sequence[str]] | None,
    *,
    hexes: Collection[str],
    units: Collection[str],
) -> PolicyAllocator:
    """The allocator of a command's ``casualty_policy`` and ``allocation``, checked: a policy of
    :data:`~firefight.rulesets.vv.allocation.POLICIES`, orders for ``hexes`` (the hexes that
    may be hit) or ``all``, naming ``units`` (the units that may be hit), each once."""
    if policy not in POLICIES:
        raise InputError("casualty_policy", one_of(POLICIES), policy)
    checked: list[tuple[str, tuple[str, ...]]] = []
    for hex_label, ids in (orders or {}).items():
        if hex_label != EVERY_HEX and hex_label not in hexes:
            allowed = ", ".join([EVERY_HEX, *hexes])
            raise InputError(
                "allocation",
                _("a hex its units may be hit in: {allowed}").format(allowed=allowed),
                hex_label,
            )
        for unit_id in ids:
            if unit_id not in units:
                raise InputError(
                    "allocation",
                    _("ids of the units that may be hit: {units}").format(units=", ".join(units)),
                    unit_id,
                )
        if len(set(ids)) != len(ids) or not ids:
            raise InputError("allocation", "each unit named once in a hex's order", "/".join(ids))
        checked.append((hex_label, tuple(ids)))
    return PolicyAllocator(policy, tuple(checked))
