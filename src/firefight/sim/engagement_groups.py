"""Exchangeable units: a side's state as a multiset of unit states (docs/engagements.md).

Units whose counters are equal but for their names (:meth:`EngagementRules.kind`) are
interchangeable: which of two identical squads holds which state does not change how the
engagement goes on, only which name the state is shown under. The engine keeps each side's
state as the multiset of each kind's unit states, written as its canonical tuple: within each
kind, the units' states sorted by the order :meth:`Exchange.key` gives (the unit worth most to
its side first, :meth:`EngagementRules.value`, then the state's text), so that the same
multiset is one state whichever unit took which hit, and the states a step creates merge.

The policies see the same choices: the units of a kind fire in that order, and fire is
allocated once per distinct target (kind and state), the first in that order standing for the
others.

Within a simultaneous turn each unit's state at the start of the turn (which it fires from)
and now are kept together: a kind's units are sorted by the pair, so that the start of the
turn stays in canonical order and each unit keeps its own pair.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from firefight.rulesets.engagement import EngagementRules

Side = tuple[Any, ...]


def _kind_ids(
    rules: EngagementRules[Any, Any], units: Sequence[Any], exchange: bool
) -> tuple[int, ...]:
    ids: dict[str, int] = {}
    kinds: list[int] = []
    for index, unit in enumerate(units):
        if not exchange:
            kinds.append(index)
            continue
        key = json.dumps(rules.kind(unit), sort_keys=True, default=str)
        kinds.append(ids.setdefault(key, len(ids)))
    return tuple(kinds)


@dataclass(eq=False)
class Exchange:
    """Which units of each side are exchangeable, and the canonical order of their states.

    ``exchange=False`` makes every unit its own kind: the tuple-state engine, one state per
    assignment of states to units.
    """

    rules: EngagementRules[Any, Any]
    units: tuple[tuple[Any, ...], tuple[Any, ...]]
    exchange: bool = True
    kinds: tuple[tuple[int, ...], tuple[int, ...]] = field(init=False)
    groups: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]] = field(init=False)
    columns: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]] = field(init=False)
    _keys: dict[tuple[int, int, Hashable], tuple[Fraction, str]] = field(default_factory=dict)
    _sides: dict[tuple[int, Side], Side] = field(default_factory=dict)

    def __post_init__(self) -> None:
        kinds = tuple(_kind_ids(self.rules, side, self.exchange) for side in self.units)
        self.kinds = (kinds[0], kinds[1])
        groups = []
        for side_kinds in self.kinds:
            members: dict[int, list[int]] = {}
            for index, kind in enumerate(side_kinds):
                members.setdefault(kind, []).append(index)
            groups.append(tuple(tuple(m) for m in members.values() if len(m) > 1))
        self.groups = (groups[0], groups[1])
        columns = []
        for side_kinds in self.kinds:
            found: dict[int, list[int]] = {}
            for index, kind in enumerate(side_kinds):
                found.setdefault(kind, []).append(index)
            columns.append(tuple(tuple(m) for m in found.values()))
        self.columns = (columns[0], columns[1])
        """Each side's units by kind, every kind (:attr:`groups`: the kinds of two or more)."""

    @property
    def merges(self) -> bool:
        """Some side has two units of one kind."""
        return any(self.groups)

    def key(self, side: int, index: int, state: Hashable) -> tuple[Fraction, str]:
        """The unit's place among its kind: worth most first (its value), then the text of
        its state (a total order on any rule set's states)."""
        kind = self.kinds[side][index]
        found = self._keys.get((side, kind, state))
        if found is None:
            found = (-self.rules.value(self.units[side][index], state), repr(state))
            self._keys[(side, kind, state)] = found
        return found

    def side(self, side: int, states: Side) -> Side:
        """The side's states in canonical order (cached)."""
        groups = self.groups[side]
        if not groups:
            return states
        found = self._sides.get((side, states))
        if found is None:
            out = list(states)
            for members in groups:
                first = members[0]
                ordered = sorted(
                    (states[i] for i in members), key=lambda s: self.key(side, first, s)
                )
                for index, state in zip(members, ordered, strict=True):
                    out[index] = state
            found = tuple(out)
            self._sides[(side, states)] = found
        return found

    def pair(self, side: int, start: Side, now: Side) -> tuple[Side, Side]:
        """Within a simultaneous turn: the side's units sorted by (start of turn, now)."""
        groups = self.groups[side]
        if not groups:
            return start, now
        begun, current = list(start), list(now)
        for members in groups:
            first = members[0]
            ordered = sorted(
                ((start[i], now[i]) for i in members),
                key=lambda p: (self.key(side, first, p[0]), self.key(side, first, p[1])),
            )
            for index, (then, state) in zip(members, ordered, strict=True):
                begun[index], current[index] = then, state
        return tuple(begun), tuple(current)
