"""V&V 14.61-14.65: the legal allocations of a hit (:func:`legal_allocations`) and the one a
policy weighs least (:func:`least_allocation`), found slot by slot, without trying every
combination of the slots' casualties.

The combinations are walked in the order of :func:`itertools.product` (the first slot's
casualty changing slowest), and a branch is left as soon as no choice for the slots after it
can make the allocation legal. What 14.61-14.65 ask of the whole allocation is carried along
as counts, so each allocation reached is judged at once, by the same clauses as
:func:`~firefight.rulesets.vv.allocation.allocation_problem` (the tests hold the two to the
same answers on every small hex).

Why a branch can be left: the CPs of the casualties other than an outright elimination
(``spent``; passengers sharing their vehicle's elimination not counted) never fall as slots
are added, nor does ``spent`` less the largest last step (a casualty costs at least its last
step). With no outright elimination, ``spent - last >= cps`` applies CPs past the point where
they were fulfilled (14.61); an outright elimination must be left at least its fewest CPs
(14.64, :func:`~firefight.rulesets.vv.allocation.fit_destroy`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import NamedTuple

from firefight.rulesets.vv.allocation import (
    NONE,
    Casualty,
    Slot,
    SurvivalReading,
    absorbing,
    options,
    shielded,
    slots,
)
from firefight.rulesets.vv.units import HexUnits

_NEVER = 1 << 30
_PINNED_OR_GONE = ("pin", "reduce_pin", "eliminate", "survival", "destroy")


class _Choice(NamedTuple):
    """One casualty a slot may take, with what the walk counts of it: the CPs it ``spends``
    and its ``last`` step outside an outright elimination, the fewest CPs of an outright
    elimination (``destroy``, 0 for any other), whether it leaves the unit pinned or gone
    (``settles``, 14.62), whether it takes any CP (``takes``), and, weighed, its harm's first
    two numbers (``lost``, ``pins``; a passenger's are weighed with its vehicle's casualty)."""

    casualty: Casualty
    action: str
    spends: int
    last: int
    destroy: int
    settles: bool
    takes: bool
    lost: int = 0
    pins: int = 0


class _Facts(NamedTuple):
    """What the walk needs of a slot: its ``carrier`` (a passenger's vehicle), its Casualty
    Rating, whether it is a unit of the hex already pinned (``pinned``), one unpinned that AP
    fire affects (``unpinned``, 14.62), and whether it may take CPs at all (``absorbs``)."""

    carrier: int | None
    rating: int
    pinned: bool
    unpinned: bool
    absorbs: bool


def _choice(casualty: Casualty, harm: tuple[int, int, int] | None = None) -> _Choice:
    """The casualty as the walk counts it, with its slot's ``harm`` where it is weighed."""
    lost, pins = (0, 0) if harm is None else harm[:2]
    action = casualty.action
    if action == "destroy":
        return _Choice(casualty, action, 0, 0, casualty.cost, True, True, lost, pins)
    settles = action in _PINNED_OR_GONE
    return _Choice(
        casualty,
        action,
        casualty.cost,
        casualty.last_step,
        0,
        settles,
        action != "none",
        lost,
        pins,
    )


def _facts(slot: Slot, absorbs: bool) -> _Facts:
    unit = slot.unit
    free = slot.carrier is None
    return _Facts(
        slot.carrier,
        unit.casualty_rating,
        free and unit.pinned,
        free and not unit.pinned and unit.affected_by_ap,
        absorbs,
    )


_Counts = tuple[int, bool, int, int]
"""What the walk counts of the slots chosen so far (:func:`_ends_legal`): ``credit``,
``touched``, ``loose``, ``standing``."""


Weigh = Callable[[int, Casualty, Casualty | None], tuple[int, int, int]]
"""A slot's harm under a casualty (the slot's index, its casualty, its vehicle's): numbers
that never fall below 0, the first two summed over the slots to rank allocations."""


@lru_cache(maxsize=4096)
def legal_allocations(
    hex_units: HexUnits,
    cps: int,
    *,
    attack_in_gun_ffa: bool = True,
    gun_moving: bool = False,
    survival: SurvivalReading = "cps_applied",
) -> tuple[tuple[Casualty, ...], ...]:
    """Every legal allocation of ``cps`` CPs to the hex (14.61-14.65), in a fixed order.

    When the hex cannot absorb them all (every unit eliminated), the CPs left are lost.
    """
    return tuple(_walk(hex_units, cps, None, attack_in_gun_ffa, gun_moving, survival))


def least_allocation(
    hex_units: HexUnits,
    cps: int,
    weigh: Weigh,
    *,
    attack_in_gun_ffa: bool = True,
    gun_moving: bool = False,
    survival: SurvivalReading = "cps_applied",
) -> tuple[Casualty, ...]:
    """The first of :func:`legal_allocations` whose harms (``weigh``: a slot's, by its index,
    its casualty and its vehicle's) add up least: the sums of the first two numbers, then the
    CPs applied. Found without listing the others (:func:`legal_in_order`)."""
    return _walk(hex_units, cps, weigh, attack_in_gun_ffa, gun_moving, survival)[0]


def _walk(  # noqa: PLR0917 - the two entry points' arguments, passed on
    hex_units: HexUnits,
    cps: int,
    weigh: Weigh | None,
    attack_in_gun_ffa: bool,
    gun_moving: bool,
    survival: SurvivalReading,
) -> list[tuple[Casualty, ...]]:
    """The walk of both entry points: each slot's casualties, then :func:`legal_in_order`
    (every legal allocation, or with ``weigh`` the first of the least harm); no CPs, no
    casualty."""
    units = slots(hex_units)
    if cps < 1:
        return [tuple(NONE for _ in units)]
    per_slot = [
        options(s, shielded(s, attack_in_gun_ffa, gun_moving), cps, survival) for s in units
    ]
    return legal_in_order(units, per_slot, cps, absorbing(units), weigh)


def legal_in_order(
    units: tuple[Slot, ...],
    per_slot: Sequence[Sequence[Casualty]],
    cps: int,
    absorbs: tuple[bool, ...],
    weigh: Weigh | None = None,
) -> list[tuple[Casualty, ...]]:
    """The legal allocations of ``cps >= 1`` among the combinations of ``per_slot`` (each
    slot's casualties; ``absorbs``: which slots may take CPs at all), in the order of
    :func:`itertools.product`, each outright elimination given the CPs left.

    With ``weigh``, only the first of them whose harms add up least: the sums of the first two
    numbers, then the CPs applied, compared in that order. Harms never fall as slots are
    added, so a branch whose sums already reach the least found is left."""
    count = len(units)
    facts = [_facts(s, a) for s, a in zip(units, absorbs, strict=True)]
    choices, cheapest_destroy = _prepared(units, per_slot, cps, weigh)
    chosen: list[_Choice] = []
    found: list[tuple[Casualty, ...]] = []
    least = [(_NEVER, _NEVER, _NEVER)]

    def keep(spent: int, destroy: int, lost: int, pins: int) -> None:
        """A legal end: every one kept, or, weighed, the first of the least harm."""
        if weigh is None:
            found.append(_fitted(chosen, cps, spent, destroy))
            return
        total = (lost, pins, cps if destroy else spent)  # an outright elimination takes all
        if total < least[0]:
            least[0] = total
            found[:] = [_fitted(chosen, cps, spent, destroy)]

    def extend(  # noqa: PLR0917 - the walk's counts (see _ends_legal), the harms so far
        index: int, spent: int, last: int, destroy: int, counts: _Counts, lost: int, pins: int
    ) -> None:
        slot, (credit, touched, loose, standing) = facts[index], counts
        carrier = None if slot.carrier is None else chosen[slot.carrier]
        shares = carrier is not None and carrier.action == "eliminate"
        carried_off = carrier is not None and carrier.action in ("eliminate", "destroy")
        later_destroy = cheapest_destroy[index + 1]
        more = index + 1 < count
        for choice in choices[index]:
            if carried_off and choice.takes:
                continue  # 14.64: a passenger shares its vehicle's elimination
            if choice.destroy and destroy:
                continue  # 14.64: one outright elimination takes all the CPs left
            now_spent = spent + choice.spends
            now_last = max(last, choice.last)
            now_destroy = destroy or choice.destroy
            if now_destroy:
                if now_spent > cps - now_destroy:
                    continue
            elif cps <= now_spent - now_last and now_spent > cps - later_destroy:
                continue
            now_lost, now_pins = lost + choice.lost, pins + choice.pins
            if weigh is not None:
                if carrier is not None:
                    harm = weigh(index, choice.casualty, carrier.casualty)
                    now_lost += harm[0]
                    now_pins += harm[1]
                if (now_lost, now_pins, now_spent + now_destroy) >= least[0]:
                    continue  # the CPs applied: at least the fewest the destroy takes
            counts = (
                credit + (slot.rating if shares else 0),
                touched or (slot.pinned and choice.takes),
                loose + (slot.unpinned and not choice.settles),
                standing + (slot.absorbs and not shares and choice.action != "eliminate"),
            )
            chosen.append(choice)
            if more:
                extend(index + 1, now_spent, now_last, now_destroy, counts, now_lost, now_pins)
            elif _ends_legal(cps, now_spent, now_last, now_destroy, counts):
                keep(now_spent, now_destroy, now_lost, now_pins)
            chosen.pop()

    extend(0, 0, 0, 0, (0, False, 0, 0), 0, 0)
    return found


def _prepared(
    units: tuple[Slot, ...],
    per_slot: Sequence[Sequence[Casualty]],
    cps: int,
    weigh: Weigh | None,
) -> tuple[list[list[_Choice]], list[int]]:
    """Each slot's choices (an ignored first CP only when it is the only CP, 14.63), weighed
    if ``weigh`` is given (but a passenger's), and the fewest CPs an outright elimination from
    each slot on needs."""
    choices = [
        _slot_choices(index, options, cps, weigh if units[index].carrier is None else None)
        for index, options in enumerate(per_slot)
    ]
    count = len(choices)
    cheapest = [_NEVER] * (count + 1)
    for i in range(count - 1, -1, -1):
        here = min((c.destroy for c in choices[i] if c.destroy), default=_NEVER)
        cheapest[i] = min(here, cheapest[i + 1])
    return choices, cheapest


def _slot_choices(
    index: int, options: Sequence[Casualty], cps: int, weigh: Weigh | None
) -> list[_Choice]:
    """One slot's choices, each with its harm when ``weigh`` is given."""
    kept = [c for c in options if c.action != "ignore" or cps == 1]
    if weigh is None:
        return [_choice(c) for c in kept]
    return [_choice(c, weigh(index, c, None)) for c in kept]


def _ends_legal(cps: int, spent: int, last: int, destroy: int, counts: _Counts) -> bool:
    """Whether the walk ends legal (14.61, 14.62, 14.64). ``spent``: the CPs outside an
    outright elimination; ``last``: the largest last step; ``destroy``: the fewest CPs of the
    outright elimination (0: none); ``counts``: ``credit``, the ratings of the passengers
    eliminated with their vehicle; ``touched``, a pinned unit took CPs; ``loose``, the unpinned
    units left neither pinned nor gone; ``standing``, the units that could take CPs left
    standing."""
    credit, touched, loose, standing = counts
    if touched and loose:
        return False  # 14.62: CPs go to unpinned units before pinned ones
    if destroy:
        return not credit  # the passengers would take CPs the vehicle must take
    others = spent + credit
    if others >= cps:
        return others - last < cps  # 14.61: stop once the CPs are fulfilled
    return not standing  # 14.61: short only when every unit is gone


def _fitted(chosen: list[_Choice], cps: int, spent: int, destroy: int) -> tuple[Casualty, ...]:
    """The allocation, its outright elimination given all the CPs left (14.64)."""
    if not destroy:
        return tuple(c.casualty for c in chosen)
    return tuple(
        replace(c.casualty, cps=cps - spent - (1 if c.casualty.ignored else 0))
        if c.destroy
        else c.casualty
        for c in chosen
    )
