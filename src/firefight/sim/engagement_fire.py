"""An engagement's fire: each attack's input, exact odds and effect, and the fire policy's
choice of target (docs/engagements.md), each computed once and cached.

:class:`EngagementFire` holds the scenario, its rules and which units are exchangeable
(:mod:`firefight.sim.engagement_groups`); :class:`~firefight.sim.engagement.Engagement` builds
its turn over it. An attack is cached per kind of firer and target and their states, its odds
per input, a target's states after it per kind of target (integer weights over the attack's
denominator, the kernel a fire phase adds), and a policy's choice per situation.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from firefight.chance.distribution import Distribution
from firefight.chance.phases import IntKernel, integer_kernel
from firefight.core.inputs import RuleInput
from firefight.errors import RuleError
from firefight.sim.engagement_groups import Exchange
from firefight.sim.engagement_phases import State, merged_weights
from firefight.sim.scenario import Scenario


@dataclass(eq=False)
class EngagementFire:
    """A scenario's fire: its attacks, their odds and effects, its policy (all cached)."""

    scenario: Scenario
    exchange: bool = True
    """Units of one kind are interchangeable (a side's state is a multiset of unit states,
    :mod:`firefight.sim.engagement_groups`); ``False``: the tuple-state engine."""
    _inputs: dict[tuple[tuple[str, Any], ...], RuleInput | None] = field(default_factory=dict)
    _odds: dict[RuleInput, Distribution[str]] = field(default_factory=dict)
    _effects: dict[tuple[int, int, Hashable], Fraction] = field(default_factory=dict)
    _choices: dict[tuple[Hashable, ...], tuple[int, RuleInput] | None] = field(default_factory=dict)
    _attacks: dict[tuple[int, int, int, Hashable, Hashable], RuleInput | None] = field(
        default_factory=dict
    )
    _hits: dict[tuple[Any, ...], IntKernel[Hashable]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.rules = self.scenario.rules
        sides = self.scenario.sides
        self.groups = Exchange(self.rules, (sides[0].units, sides[1].units), self.exchange)
        self.kinds = self.groups.kinds

    def attack(
        self, side: int, firer: int, target: int, firer_state: Hashable, target_state: Hashable
    ) -> RuleInput | None:
        """The procedure's input for this fire, or ``None`` when the rules allow no attack
        (a final attack factor below the chart, no line of sight)."""
        quick = (
            side,
            self.kinds[side][firer],
            self.kinds[1 - side][target],
            firer_state,
            target_state,
        )
        if quick in self._attacks:
            return self._attacks[quick]
        sides = self.scenario.sides
        firing, targeted = sides[side], sides[1 - side]
        fields = {
            **self.scenario.situation,
            **firing.fire,
            **targeted.target,
            **self.rules.attack_fields(
                firing.units[firer], firer_state, targeted.units[target], target_state
            ),
        }
        key = tuple(sorted(fields.items()))
        if key in self._inputs:
            attack = self._inputs[key]
        else:
            attack = self.rules.procedure.parse(fields)
            try:
                self.odds(attack)
            except RuleError:
                attack = None
            self._inputs[key] = attack
        self._attacks[quick] = attack
        return attack

    def odds(self, attack: RuleInput) -> Distribution[str]:
        """The procedure's exact odds for one attack (computed once)."""
        found = self._odds.get(attack)
        if found is None:
            found = self.rules.procedure.odds(attack)
            self._odds[attack] = found
        return found

    def choose(
        self, side: int, firer: int, view: State, now: State
    ) -> tuple[int, RuleInput] | None:
        """The target and the attack the scenario's fire policy gives this firer
        (docs/engagements.md: best_expected_effect, focus, spread); kept per situation."""
        if self.scenario.policy == "spread":
            key: tuple[Hashable, ...] = (side, firer, view[side], view[1 - side], now[1 - side])
        else:
            own = view[side][firer]
            key = (side, self.kinds[side][firer], own, view[1 - side], now[1 - side])
        if key in self._choices:
            return self._choices[key]
        found = self._choose(side, firer, view, now)
        self._choices[key] = found
        return found

    def _choose(
        self, side: int, firer: int, view: State, now: State
    ) -> tuple[int, RuleInput] | None:
        sides = self.scenario.sides
        units, enemies = sides[side].units, sides[1 - side].units
        if not self.rules.can_fire(units[firer], view[side][firer]):
            return None
        firer_state = view[side][firer]
        candidates: list[tuple[int, RuleInput]] = []
        policy = self.scenario.policy
        kinds, seen = self.kinds[1 - side], set()
        for target, target_unit in enumerate(enemies):
            if self.rules.out(target_unit, view[1 - side][target]):
                continue
            if policy != "spread":  # one allocation per distinct target: the first stands
                distinct = (kinds[target], view[1 - side][target], now[1 - side][target])
                if distinct in seen:
                    continue
                seen.add(distinct)
            attack = self.attack(side, firer, target, firer_state, now[1 - side][target])
            if attack is not None:
                candidates.append((target, attack))
        if not candidates:
            return None
        if policy == "focus":
            return candidates[0]
        if policy == "spread":
            rank = sum(1 for i in range(firer) if self.rules.can_fire(units[i], view[side][i]))
            return candidates[rank % len(candidates)]
        return max(
            candidates,
            key=lambda c: (self.effect(c[1], side, c[0], view[1 - side][c[0]]), -c[0]),
        )

    def effect(self, attack: RuleInput, side: int, index: int, state: Hashable) -> Fraction:
        """The expected fall of the target's value under this attack (cached)."""
        kind = self.kinds[1 - side][index]
        key = (id(attack), kind if side else -1 - kind, state)  # attacks live in _inputs
        found = self._effects.get(key)
        if found is None:
            target = self.scenario.sides[1 - side].units[index]
            found = self.rules.value(target, state) - sum(
                (
                    p * self.rules.value(target, self.rules.apply(target, state, o))
                    for o, p in self.odds(attack).items()
                ),
                Fraction(0),
            )
            self._effects[key] = found
        return found

    def hit(
        self, attack: RuleInput, side: int, target: int, before: Hashable
    ) -> IntKernel[Hashable]:
        """The target's states after the attack, as integer weights over the attack's
        denominator, outcomes with one effect merged (cached per kind of target)."""
        key = (attack, side, self.kinds[side][target], before)
        found = self._hits.get(key)
        if found is None:
            enemy = self.scenario.sides[side].units[target]
            odds = integer_kernel(self.odds(attack).items())
            found = merged_weights(
                ((self.rules.apply(enemy, before, o), w) for o, w in odds[1]), odds[0]
            )
            self._hits[key] = found
        return found
