"""Action points, firing on the move and opportunity fire of "Les tirs" (seed 001).

A small rules engine over action-point (PA) ledgers. An :class:`Exchange` is an immutable
state: the units, who has the initiative, every point spent so far and the fire waiting to be
resolved. :meth:`Exchange.declare` accepts or refuses an action with the reason, and returns a
new state (the old one is untouched, so "undo" is keeping the old value). The rules:

* Tir en mouvement: only infantry (flamethrowers excepted among support weapons) fires on the
  move, for 2 PA, at short range only, at half its rate of fire.
* Tir d'opportunité: a unit with at least 1 PA may spend it to fire, without being activated,
  at an enemy that has spent at least 1 PA on a move or a fire (an opportunity fire included,
  so reactions chain); fires are resolved as they are declared; the player without the
  initiative spends one PA at a time, the player with it spending a point in between.
* Tir d'opportunité contre une cible en mouvement: against a target that moved at most half its
  movement the rate of fire falls to one D10; an opportunity fire answering a move (or a fire
  on the move) is a fire at a moving target, so "Cible en mouvement -2" comes with it.
* A group whose two elements are in different states (one pinned, one normal; one
  demoralized, one pinned) fires element by element, each its half of the group's CdT with its
  own state (``mixed_group_fire``, a reading: the seed does not say).
* Effects: a pinned unit (cloué) cannot move, a demoralized one cannot move or fire, an
  eliminated one is off the table.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal

from firefight.errors import RuleError
from firefight.rulesets.tirs.effects import ElementStatus, TargetState
from firefight.rulesets.tirs.precision import (
    OPPORTUNITY_RULE,
    Experience,
    Range,
    TirsPrecision,
    Weapon,
)
from firefight.translation import gettext as _

__all__ = [
    "Action",
    "Exchange",
    "Fire",
    "FireOnTheMove",
    "FireOrder",
    "Move",
    "OpportunityFire",
    "Ruling",
    "Spend",
    "Unit",
]

SpendKind = Literal["move", "fire", "fire_on_the_move", "opportunity_fire"]
Window = Literal["last_action", "this_turn"]
LightSupport = Literal["forbidden", "allowed"]
MixedGroupFire = Literal["by_element", "whole_group"]

COSTS: dict[SpendKind, int] = {"move": 1, "fire": 1, "fire_on_the_move": 2, "opportunity_fire": 1}
"""PA per action: a move or a fire 1 (the initiative player 'peut dépenser 1 PA pour agir, en
faisant un tir ou un mouvement'), an opportunity fire 1, a fire on the move 2."""


@dataclass(frozen=True, slots=True)
class Unit:
    """An element or unit on the table: its side, weapon, PA, movement and hit-track state."""

    name: str
    side: str
    weapon: Weapon
    action_points: int
    movement: Fraction
    state: TargetState


@dataclass(frozen=True, slots=True)
class Move:
    """Move ``unit`` by ``distance`` (at most its movement) for 1 PA."""

    unit: str
    distance: Fraction | int


@dataclass(frozen=True, slots=True)
class Fire:
    """The activated player's fire at ``target`` for 1 PA."""

    unit: str
    target: str
    range: Range


@dataclass(frozen=True, slots=True)
class FireOnTheMove:
    """Tir en mouvement: move by ``distance`` and fire at ``target`` for 2 PA."""

    unit: str
    target: str
    distance: Fraction | int
    range: Range = "short"


@dataclass(frozen=True, slots=True)
class OpportunityFire:
    """Tir d'opportunité at ``target``, which has just spent PA moving or firing, for 1 PA."""

    unit: str
    target: str
    range: Range


Action = Move | Fire | FireOnTheMove | OpportunityFire


@dataclass(frozen=True, slots=True)
class Spend:
    """One line of the PA ledger."""

    unit: str
    side: str
    kind: SpendKind
    points: int
    distance: Fraction | None = None


@dataclass(frozen=True, slots=True)
class FireOrder:
    """An accepted fire, waiting to be resolved: what its precision test takes from the
    exchange (moving, pinned, one die against a target that moved at most half, a target
    fired on as it moves, a group firing element by element)."""

    firer: str
    target: str
    kind: SpendKind
    range: Range
    weapon: Weapon
    firer_moving: bool
    firer_pinned: bool
    opportunity_half_move: bool
    target_moving: bool = False
    """An opportunity fire answering the target's move (or fire on the move): Cible en
    mouvement -2 applies, and a caller cannot leave it out."""
    element_states: tuple[ElementStatus, ...] = ()
    """The states of the firer's elements that fire on their own, each with half the group's
    CdT (a group in mixed states, ``mixed_group_fire="by_element"``); empty when the firer
    fires as one (its whole CdT, ``firer_pinned`` giving its state)."""

    def precision_inputs(
        self, cdt: int, experience: Experience, **modifiers: object
    ) -> tuple[TirsPrecision, ...]:
        """The ``precision`` inputs of this fire, one pool each: one for a unit firing as one;
        one per element able to fire for a group in mixed states firing element by element
        (``cdt`` is the group's). ``modifiers`` adds the target's (protection, camouflage,
        ...); ``target_moving`` is the exchange's for an opportunity fire."""
        if self.kind == "opportunity_fire" and modifiers.get(
            "target_moving", self.target_moving
        ) != (self.target_moving):
            moved = "moved" if self.target_moving else "did not move"
            msg = _(
                "'target_moving' is {target_moving} for this opportunity fire: {target} "
                "{moved} in the spend it answers (got {modifiers!r}; {opportunity_rule})"
            ).format(
                target_moving=self.target_moving,
                target=self.target,
                moved=moved,
                modifiers=modifiers["target_moving"],
                opportunity_rule=OPPORTUNITY_RULE,
            )
            raise RuleError(msg)
        data: dict[str, object] = {
            "cdt": cdt,
            "experience": experience,
            "range": self.range,
            "weapon": self.weapon,
            "firer_moving": self.firer_moving,
            "firer_state": "pinned" if self.firer_pinned else "normal",
            "opportunity_half_move": self.opportunity_half_move,
            "target_moving": self.target_moving,
            **modifiers,
        }
        if not self.element_states:
            return (TirsPrecision.model_validate(data),)
        return tuple(
            TirsPrecision.model_validate({**data, "firer_state": state, "element_share": "half"})
            for state in self.element_states
        )

    def precision_input(
        self, cdt: int, experience: Experience, **modifiers: object
    ) -> TirsPrecision:
        """The ``precision`` input of a fire made as one pool (see :meth:`precision_inputs`)."""
        inputs = self.precision_inputs(cdt, experience, **modifiers)
        if len(inputs) != 1:
            msg = _(
                "{firer} fires element by element, {values} (mixed_group_fire=by_element): "
                "take its pools from precision_inputs"
            ).format(firer=self.firer, values=" and ".join(self.element_states))
            raise RuleError(msg)
        return inputs[0]


@dataclass(frozen=True, slots=True)
class Ruling:
    """The engine's answer to a declared action: accepted or refused, why, and the state after
    (the same state when refused)."""

    action: Action
    accepted: bool
    reason: str
    exchange: Exchange
    order: FireOrder | None = None


@dataclass(frozen=True, slots=True)
class Exchange:
    """The state of a turn's exchange of actions: units, initiative, the PA ledger.

    ``window`` reads which enemies an opportunity fire may take: ``last_action`` = the unit
    that spent the last point (the default: a reaction answers what just happened);
    ``this_turn`` = any enemy that has spent a point moving or firing this turn.

    ``mixed_group_fire`` reads how a group whose elements are in different states fires (the
    seed gives each state to "l'élément" and is silent on the group's rate of fire):
    ``by_element`` = each element able to fire rolls half the group's CdT with its own state
    (a pinned one at +2, a demoralized one not at all); ``whole_group`` = the group rolls its
    whole CdT as one, at +2 only when no element able to fire is normal.
    """

    units: tuple[Unit, ...]
    initiative: str
    ledger: tuple[Spend, ...] = ()
    pending: FireOrder | None = None
    window: Window = "last_action"
    light_support_moving: LightSupport = "forbidden"
    mixed_group_fire: MixedGroupFire = "by_element"

    def unit(self, name: str) -> Unit:
        """A unit by name; an unknown name lists the units."""
        for unit in self.units:
            if unit.name == name:
                return unit
        msg = _("'unit' must be one of {values} (got {name!r})").format(
            values=", ".join(u.name for u in self.units), name=name
        )
        raise RuleError(msg)

    def points_left(self, name: str) -> int:
        """The PA a unit has left: its allowance less the points in the ledger."""
        spent = sum(s.points for s in self.ledger if s.unit == name)
        return self.unit(name).action_points - spent

    def declare(self, action: Action) -> Ruling:
        """Accept or refuse ``action``; an accepted one is spent in the ledger (and a fire
        waits, as ``pending``, to be resolved before anything else is declared)."""
        reason = self._refusal(action)
        if reason is not None:
            return Ruling(action, False, reason, self)
        return self._accept(action)

    def resolve(self, hits: int) -> Exchange:
        """Resolve the pending fire: its hits walk down the target's track."""
        if self.pending is None:
            msg = _("no fire is waiting to be resolved")
            raise RuleError(msg)
        target = self.unit(self.pending.target)
        hit = replace(target, state=target.state.after(hits))
        units = tuple(hit if u.name == target.name else u for u in self.units)
        return replace(self, units=units, pending=None)

    # --- the rules ---------------------------------------------------------------------

    def _kind(self, action: Action) -> SpendKind:
        if isinstance(action, Move):
            return "move"
        if isinstance(action, Fire):
            return "fire"
        if isinstance(action, FireOnTheMove):
            return "fire_on_the_move"
        return "opportunity_fire"

    def _refusal(self, action: Action) -> str | None:  # noqa: PLR0911 - one return per rule
        if self.pending is not None:
            return (
                f"the fire of {self.pending.firer} at {self.pending.target} must be resolved "
                "first: fires are resolved as they are declared"
            )
        unit = self.unit(action.unit)
        kind = self._kind(action)
        if unit.state.eliminated:
            return f"{unit.name} is eliminated"
        left = self.points_left(unit.name)
        if left < COSTS[kind]:
            return f"{unit.name} has {left} PA left; {kind.replace('_', ' ')} costs {COSTS[kind]}"
        if kind != "opportunity_fire" and unit.side != self.initiative:
            return (
                f"{unit.side} does not have the initiative: it spends PA only on opportunity fire"
            )
        moves = kind in ("move", "fire_on_the_move")
        if moves and not unit.state.can_move:
            return f"{unit.name} is {unit.state.name}: it cannot move"
        distance = getattr(action, "distance", None)
        if moves and (distance is None or not 0 <= Fraction(distance) <= unit.movement):
            return f"{unit.name} moves at most {unit.movement} per move (got {distance})"
        if kind == "fire_on_the_move":
            refusal = self._on_the_move(unit, action)
            if refusal is not None:
                return refusal
        if kind != "move":
            return self._fire_refusal(unit, action, kind)
        return None

    def _on_the_move(self, unit: Unit, action: Action) -> str | None:
        allowed = {"infantry", "flamethrower"}
        if self.light_support_moving == "allowed":
            allowed.add("light_support")
        if unit.weapon not in allowed:
            return f"only infantry fires on the move (flamethrowers excepted): not {unit.weapon}"
        if getattr(action, "range", None) != "short":
            return "a fire on the move is made at short range only"
        return None

    def _fire_refusal(  # noqa: PLR0911 - one return per rule
        self, unit: Unit, action: Action, kind: SpendKind
    ) -> str | None:
        target = self.unit(getattr(action, "target", ""))
        if not unit.state.can_fire:
            return f"{unit.name} is {unit.state.name}: it cannot fire"
        if target.side == unit.side:
            return f"{target.name} is not an enemy of {unit.name}"
        if target.state.eliminated:
            return f"{target.name} is eliminated"
        if kind != "opportunity_fire":
            return None
        if unit.side != self.initiative and self.ledger and self.ledger[-1].side == unit.side:
            return (
                f"{unit.side} does not have the initiative: it spends one PA at a time, and "
                f"{self.initiative} spends the next point"
            )
        if self._trigger(target.name) is None:
            when = "just" if self.window == "last_action" else "this turn"
            return f"{target.name} has not {when} spent a PA moving or firing: no opportunity fire"
        return None

    def _trigger(self, name: str) -> Spend | None:
        """The spend of ``name`` that an opportunity fire answers, if any."""
        if self.window == "last_action":
            last = self.ledger[-1] if self.ledger else None
            return last if last is not None and last.unit == name else None
        mine = [s for s in self.ledger if s.unit == name]
        return mine[-1] if mine else None

    def _accept(self, action: Action) -> Ruling:
        unit = self.unit(action.unit)
        kind = self._kind(action)
        distance = getattr(action, "distance", None)
        spend = Spend(
            unit.name,
            unit.side,
            kind,
            COSTS[kind],
            None if distance is None else Fraction(distance),
        )
        order = None
        if kind != "move":
            target = self.unit(getattr(action, "target", ""))
            trigger = self._trigger(target.name) if kind == "opportunity_fire" else None
            half = (
                trigger is not None
                and trigger.distance is not None
                and trigger.distance <= target.movement / 2
            )
            elements = unit.state.elements
            mixed = len(set(elements)) > 1 and self.mixed_group_fire == "by_element"
            order = FireOrder(
                unit.name,
                target.name,
                kind,
                getattr(action, "range", "short"),
                unit.weapon,
                kind == "fire_on_the_move",
                unit.state.fires_pinned,
                half,
                target_moving=trigger is not None and trigger.kind in ("move", "fire_on_the_move"),
                element_states=tuple(e for e in elements if e in ("normal", "pinned"))
                if mixed
                else (),
            )
        after = replace(self, ledger=(*self.ledger, spend), pending=order)
        reason = f"{unit.name} spends {COSTS[kind]} PA: {kind.replace('_', ' ')}"
        if order is not None and order.opportunity_half_move:
            reason += " (the target moved at most half its movement: one D10)"
        if order is not None and order.element_states:
            reason += f" (element by element: {' and '.join(order.element_states)})"
        return Ruling(action, True, reason, after, order)
