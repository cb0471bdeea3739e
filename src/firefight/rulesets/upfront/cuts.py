"""Card kinds cut into card groups by what can still change a result: the Up Front walks'
one way of keeping pool states small (docs/chance.md, "draws without replacement as state").

A walk reads each card kind through a *key*: what the draws still to come read of it (a
man's result, a malfunction that ends the attack, BREEZE while smoke is in play...). Kinds of
equal keys are one *card group*: a pool state keeps the count of each group, and states
equal in those counts merge. Each walk states its key (what its chart page reads); this
module cuts by it, once per draw (:func:`cut_apart`) or at every man (:class:`Cut`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field

__all__ = ["Cut", "Groups", "cut_apart", "grouped"]

Groups = tuple[tuple[int, ...], int, tuple[int, ...]]
"""A cut of the kinds into card groups: each kind's group, how many groups, each group's first
kind (what a group's cards read)."""


def cut_apart(keys: Iterable[Hashable]) -> Groups:
    """The card groups of kinds read through ``keys`` (one per kind, in order): kinds of
    equal keys are one group, groups numbered by their first kind."""
    seen: dict[Hashable, int] = {}
    ids = tuple(seen.setdefault(key, len(seen)) for key in keys)
    first = [0] * len(seen)
    for kind in range(len(ids) - 1, -1, -1):
        first[ids[kind]] = kind
    return ids, len(seen), tuple(first)


def grouped(counts: Sequence[int], ids: Sequence[int], groups: int) -> tuple[int, ...]:
    """Counts by kind as counts by card group (``ids``: each kind's group)."""
    out = [0] * groups
    for kind, count in enumerate(counts):
        out[ids[kind]] += count
    return tuple(out)


@dataclass(frozen=True)
class Cut:
    """Card kinds cut into groups at every man position: each kind's group (``ids``), how
    many groups, and a kind of each group (``first``: what a group's cards read)."""

    ids: list[tuple[int, ...]]
    groups: list[int]
    first: list[tuple[int, ...]]
    _maps: dict[tuple[int, int], tuple[int, ...] | None] = field(
        default_factory=dict, compare=False, hash=False
    )

    @staticmethod
    def of(men: int, kinds: int, key: Callable[[int, int], Hashable]) -> Cut:
        """The cut telling kinds apart at man ``position`` by ``key(position, kind)``."""
        ids: list[tuple[int, ...]] = []
        groups: list[int] = []
        first: list[tuple[int, ...]] = []
        for position in range(men + 1):
            found, count, heads = cut_apart(key(position, kind) for kind in range(kinds))
            ids.append(found)
            groups.append(count)
            first.append(heads)
        return Cut(ids, groups, first)

    def grouped(self, counts: Sequence[int], position: int) -> tuple[int, ...]:
        """Counts by kind as counts by the groups at man ``position``."""
        return grouped(counts, self.ids[position], self.groups[position])

    def map_to(self, position: int, into: Cut) -> tuple[int, ...] | None:
        """Each group of this cut at man ``position`` as a group of ``into`` (as coarse or
        coarser) at the next man; None when they are the same groups."""
        key = (position, id(into))
        if key not in self._maps:
            ids = into.ids[position + 1]
            found = tuple(ids[kind] for kind in self.first[position])
            same = found == tuple(range(len(found))) and len(found) == into.groups[position + 1]
            self._maps[key] = None if same else found
        return self._maps[key]

    def recut(self, counts: tuple[int, ...], position: int, into: Cut) -> tuple[int, ...]:
        """Counts in this cut at man ``position`` as counts in ``into`` at the next man."""
        groups = self.map_to(position, into)
        if groups is None:
            return counts
        out = [0] * into.groups[position + 1]
        for g, count in enumerate(counts):
            out[groups[g]] += count
        return tuple(out)

    def drawn(  # noqa: PLR0917 - a pile, cards drawn, in the cut after
        self,
        pile: tuple[int, ...],
        left: tuple[int, ...],
        drawn: tuple[int, ...],
        position: int,
        into: Cut,
        bases: dict[int, list[int]],
    ) -> tuple[int, ...]:
        """``left`` (``pile`` less a card of each group in ``drawn``) in the cut ``into`` at
        the next man; the whole pile's counts in that cut are kept in ``bases`` for the
        pile's other draws."""
        groups = self.map_to(position, into)
        if groups is None:
            return left
        base = bases.get(id(into))
        if base is None:
            base = bases[id(into)] = [0] * into.groups[position + 1]
            for h, count in enumerate(pile):
                base[groups[h]] += count
        out = base.copy()
        for g in drawn:
            out[groups[g]] -= 1
        return tuple(out)
