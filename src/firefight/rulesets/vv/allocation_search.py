"""V&V 14.61-14.65: the legal allocations of a hit found slot by slot, without trying every
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

from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from firefight.rulesets.vv.allocation import Casualty, Slot

_NEVER = 1 << 30
_GONE = ("eliminate", "destroy")
_PINNED_OR_GONE = ("pin", "reduce_pin", "eliminate", "survival", "destroy")


class _Walk(NamedTuple):
    """Where the walk stands after some slots: the CPs ``spent`` outside an outright
    elimination, the largest ``last`` step, the outright elimination (``destroy``) if any, the
    passengers' ``credit`` (the ratings of those eliminated with their vehicle), whether a
    pinned unit took CPs (``touched``), the unpinned units left neither pinned nor gone
    (``loose``, 14.62) and the units that could take CPs left standing (``standing``)."""

    spent: int = 0
    last: int = 0
    destroy: Casualty | None = None
    credit: int = 0
    touched: bool = False
    loose: int = 0
    standing: int = 0


def legal_in_order(
    units: tuple[Slot, ...],
    per_slot: Sequence[Sequence[Casualty]],
    cps: int,
    absorbs: tuple[bool, ...],
) -> Iterator[tuple[Casualty, ...]]:
    """The legal allocations of ``cps >= 1`` among the combinations of ``per_slot`` (each
    slot's casualties; ``absorbs``: which slots may take CPs at all), in the order of
    :func:`itertools.product`, each outright elimination given the CPs left."""
    count = len(units)
    cheapest_destroy = [_NEVER] * (count + 1)  # the fewest CPs a destroy from slot i on needs
    for i in range(count - 1, -1, -1):
        here = min((c.cost for c in per_slot[i] if c.action == "destroy"), default=_NEVER)
        cheapest_destroy[i] = min(here, cheapest_destroy[i + 1])
    chosen: list[Casualty] = []

    def extend(index: int, walk: _Walk) -> Iterator[tuple[Casualty, ...]]:
        if index == count:
            found = _finished(chosen, cps, walk)
            if found is not None:
                yield found
            return
        for casualty in per_slot[index]:
            after = _step(units, chosen, index, casualty, cps, walk, absorbs[index])
            if after is None:
                continue
            if after.destroy is not None:
                if after.spent > cps - after.destroy.cost:
                    continue
            elif (
                cps <= after.spent - after.last
                and after.spent > cps - cheapest_destroy[index + 1]
            ):
                continue
            chosen.append(casualty)
            yield from extend(index + 1, after)
            chosen.pop()

    return extend(0, _Walk())


def _step(  # noqa: PLR0913, PLR0917 - the walk's place, passed on from extend
    units: tuple[Slot, ...],
    chosen: list[Casualty],
    index: int,
    casualty: Casualty,
    cps: int,
    walk: _Walk,
    absorbs: bool,
) -> _Walk | None:
    """The walk after slot ``index`` takes ``casualty``, or ``None`` where no allocation can
    follow: two outright eliminations (14.64), a passenger given CPs beside its eliminated
    vehicle (14.64), an ignored first CP with CPs still to apply to the same unit (14.63)."""
    slot = units[index]
    action = casualty.action
    carrier = None if slot.carrier is None else chosen[slot.carrier].action
    if (carrier in _GONE and action != "none") or (action == "ignore" and cps != 1):
        return None
    spent, last, destroy = walk.spent, walk.last, walk.destroy
    if action == "destroy":
        if destroy is not None:
            return None
        destroy = casualty
    else:
        spent += casualty.cost
        last = max(last, casualty.last_step)
    unit = slot.unit
    free = slot.carrier is None
    gone = action == "eliminate" or carrier == "eliminate"
    return _Walk(
        spent,
        last,
        destroy,
        walk.credit + (unit.casualty_rating if carrier == "eliminate" else 0),
        walk.touched or (free and unit.pinned and action != "none"),
        walk.loose
        + (free and not unit.pinned and unit.affected_by_ap and action not in _PINNED_OR_GONE),
        walk.standing + (absorbs and not gone),
    )


def _finished(chosen: list[Casualty], cps: int, walk: _Walk) -> tuple[Casualty, ...] | None:
    """The allocation if the walk ends legal (14.61, 14.62, 14.64), its outright elimination
    given all the CPs left."""
    if walk.touched and walk.loose:
        return None  # 14.62: CPs to a pinned unit while an unpinned one is left
    others = walk.spent + walk.credit
    destroy = walk.destroy
    if destroy is not None:
        if walk.credit:
            return None  # the vehicle's passengers take CPs the outright elimination must take
        taken = cps - walk.spent - (1 if destroy.ignored else 0)
        return tuple(replace(c, cps=taken) if c.action == "destroy" else c for c in chosen)
    if others >= cps:
        return tuple(chosen) if others - walk.last < cps else None
    return tuple(chosen) if not walk.standing else None
