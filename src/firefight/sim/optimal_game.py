"""An engagement as a game: its fire phases' choices and each choice's exact kernel
(docs/advisor-engagements.md).

The choices are the allocations the fire policies already choose among (one per distinct
target, :class:`~firefight.sim.engagement_fire.EngagementFire`): a unit able to fire picks
one enemy unit still in the fight that the rules let it attack. Each choice's successors are
the engagement's own phase kernel with that choice made (:class:`Steered`), so the attack,
its odds and its effect are the rule set's procedure, as in every other answer.

The game is explored layer by layer, a layer being the turn states before one phase of one
turn, every choice of the sides that choose followed (:func:`explore`); the work is the state
engine's (:class:`~firefight.chance.limits.Budget`): the states of a layer and the successors
merged, checked as they come.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field, replace

from firefight.chance.limits import KERNEL_COST, MAX_STATES, Budget, StateLimitError
from firefight.chance.phases import IntKernel
from firefight.core.inputs import RuleInput
from firefight.errors import FirefightError
from firefight.sim.engagement import Engagement
from firefight.sim.engagement_phases import Phase, State, TurnState
from firefight.sim.scenario import POLICIES, Policy
from firefight.translation import gettext as _
from firefight.translation import phrase, thousands

Choice = tuple[int, RuleInput] | None
"""A fire's allocation: the target's index among the enemy units and the attack on it, or
``None`` when the unit does not fire (it cannot, or has no target it can attack)."""

_SHARED = ("_inputs", "_odds", "_attacks", "_effects", "_hits", "_side_hits")
"""The caches of an engagement that do not depend on its policy (attacks, odds, effects),
shared by the engagements of one scenario under each policy."""


class OptimalLimitError(FirefightError):
    """The optimal policy's game is past the state engine's limits: the limit it passed
    (the :class:`StateLimitError`'s count and its limit), in the active language."""

    def __init__(self, name: str, passed: StateLimitError) -> None:
        super().__init__(
            _(
                "'{name}': the optimal policy is exact only, and its game has more than "
                "{limit} {what}, the limit for exact odds (fewer units or turns)"
            ).format(name=name, limit=thousands(passed.limit), what=phrase(passed.what))
        )


@dataclass(eq=False)
class Steered(Engagement):
    """An engagement whose fire takes the choice it is given (:meth:`forced_weights`), or its
    scenario's policy otherwise."""

    _forced: Choice = None
    _steering: bool = False

    def choose(
        self, side: int, firer: int, view: State, now: State
    ) -> tuple[int, RuleInput] | None:
        """The forced choice while one is given, else the scenario's policy's."""
        if self._steering:
            return self._forced
        return super().choose(side, firer, view, now)

    def forced_weights(
        self, phase: Phase, turn_state: TurnState, choice: Choice
    ) -> IntKernel[TurnState]:
        """The phase's exact successors with ``choice`` made (the engagement's own kernel)."""
        self._steering, self._forced = True, choice
        try:
            return self.phase_weights(phase, turn_state)
        finally:
            self._steering, self._forced = False, None

    def under(self, policy: Policy) -> Engagement:
        """The same scenario under another fire policy, sharing this one's attacks and odds."""
        other = Engagement(replace(self.scenario, policy=policy), self.exchange)
        for name in _SHARED:
            setattr(other, name, getattr(self, name))
        return other

    def allocations(self, side: int, firer: int, turn_state: TurnState) -> tuple[Choice, ...]:
        """Every allocation the firer may choose: one per distinct target (a kind and its
        states), as the policies see them; none when it cannot fire."""
        start, now = turn_state
        view = start or now
        units, enemies = self.scenario.sides[side].units, self.scenario.sides[1 - side].units
        own = view[side][firer]
        if not self.rules.can_fire(units[firer], own):
            return ()
        kinds, seen = self.kinds[1 - side], set()
        found: list[Choice] = []
        for target, enemy in enumerate(enemies):
            if self.rules.out(enemy, view[1 - side][target]):
                continue
            distinct = (kinds[target], view[1 - side][target], now[1 - side][target])
            if distinct in seen:
                continue
            seen.add(distinct)
            attack = self.attack(side, firer, target, own, now[1 - side][target])
            if attack is not None:
                found.append((target, attack))
        return tuple(found)


@dataclass(frozen=True)
class Node:
    """A phase in one turn state: each choice open to the side that fires and its exact
    kernel (one entry when nobody chooses), and where each named policy's choice is."""

    phase: Phase
    choices: tuple[Choice, ...]
    kernels: tuple[IntKernel[TurnState], ...]
    policies: dict[str, int]
    """The index of each named policy's choice among ``choices``."""


@dataclass(eq=False)
class Game:
    """The explored game: each turn's layers of nodes and the states between turns."""

    engagement: Steered
    side: int
    """The side advised: every choice it has is explored."""
    opponent: str
    """``optimal`` (its every choice explored) or the policy it plays."""
    phases: tuple[Phase, ...]
    layers: list[dict[TurnState, Node]] = field(default_factory=list)
    boundaries: list[set[State]] = field(default_factory=list)
    """The states after 0, 1, ... turns (those ended stay in the turn's set)."""
    explored: int = 0

    @property
    def turns(self) -> int:
        """The turns the game is played over."""
        return len(self.boundaries) - 1

    def leaf(self, state: State, turn: int) -> bool:
        """The state after ``turn`` turns ends the game: a side is out, or the last turn."""
        return turn == self.engagement.scenario.turns or self.engagement.ended(state)


def turn_phases(engagement: Engagement, side: int) -> tuple[Phase, ...]:
    """The turn's phases as the game plays them. Alternating fire: the engagement's own.
    Simultaneous: the starts of fire, the advised side's fires, then the other's: every unit
    fires from the turn's start, each side's fire changes the other's units only, so the
    turn's end is the same in any order of the two sides' fires, and the advised side then
    chooses without seeing the other side's fire of the same turn."""
    if engagement.scenario.order != "simultaneous":
        return engagement.phases
    prepare = tuple(p for p in engagement.phases if p.kind == "prepare")
    fires = tuple(p for p in engagement.phases if p.kind == "fire")
    own = tuple(p for p in fires if p.side == side)
    return (*prepare, *own, *(p for p in fires if p.side != side))


def explore(engagement: Steered, side: int, opponent: str, max_states: int = MAX_STATES) -> Game:
    """Every state the game reaches, each phase's node with its choices' kernels, within the
    state engine's limits (:class:`OptimalLimitError` past them)."""
    game = Game(engagement, side, opponent, turn_phases(engagement, side))
    budget = Budget(engagement.scenario.title or "engagement", max_states)
    named: dict[str, Engagement] = {p: engagement.under(p) for p in POLICIES}
    start = engagement.start()
    game.boundaries.append({start})
    try:
        for turn in range(engagement.scenario.turns):
            if not game.boundaries[-1] or all(game.leaf(s, turn) for s in game.boundaries[-1]):
                break
            current = {
                engagement.step.enter(s) for s in game.boundaries[-1] if not game.leaf(s, turn)
            }
            for phase in game.phases:
                layer: dict[TurnState, Node] = {}
                following: set[TurnState] = set()
                for turn_state in current:
                    node = _node(game, named, phase, turn_state)
                    layer[turn_state] = node
                    for _, items in node.kernels:
                        following.update(s for s, _ in items)
                        budget.spend(KERNEL_COST + len(items))
                    budget.states(len(following), "turn")
                game.layers.append(layer)
                game.explored += len(layer)
                current = following
            game.boundaries.append({engagement.step.leave(s) for s in current})
            budget.states(len(game.boundaries[-1]), "turn")
    except StateLimitError as error:
        raise OptimalLimitError(budget.name, error) from None
    return game


def _node(game: Game, named: dict[str, Engagement], phase: Phase, turn_state: TurnState) -> Node:
    engagement = game.engagement
    if phase.kind != "fire":
        return Node(phase, (None,), (engagement.forced_weights(phase, turn_state, None),), {})
    start, now = turn_state
    view = start or now
    own = phase.side == game.side
    scenario_policy = engagement.scenario.policy
    policies = (
        POLICIES if own else (scenario_policy,) if game.opponent == "optimal" else (game.opponent,)
    )
    choices: list[Choice] = []
    if own or game.opponent == "optimal":
        choices.extend(engagement.allocations(phase.side, phase.unit, turn_state))
    distinct = {_target(engagement, phase.side, c, turn_state): c for c in choices}
    picked: dict[str, Choice] = {}
    for policy in policies:
        choice = named[policy].choose(phase.side, phase.unit, view, now)
        # A target identical to one allocated (spread's k-th of a kind) is that allocation.
        choice = distinct.setdefault(_target(engagement, phase.side, choice, turn_state), choice)
        picked[policy] = choice
        if choice not in choices:
            choices.append(choice)
    if not choices:
        choices.append(None)
    kernels = tuple(engagement.forced_weights(phase, turn_state, c) for c in choices)
    index = {p: choices.index(c) for p, c in picked.items()}
    return Node(phase, tuple(choices), kernels, index)


def _target(engagement: Steered, side: int, choice: Choice, turn_state: TurnState) -> Hashable:
    """What tells one target from another: its kind and its states (the start of the turn's
    and now), as the fire policies see them."""
    if choice is None:
        return None
    start, now = turn_state
    view = start or now
    target = choice[0]
    return (engagement.kinds[1 - side][target], view[1 - side][target], now[1 - side][target])


__all__ = [
    "Choice",
    "Game",
    "Node",
    "OptimalLimitError",
    "Steered",
    "explore",
    "turn_phases",
]
