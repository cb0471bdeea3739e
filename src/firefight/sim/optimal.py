"""The optimal fire policy of an engagement, exact, by backward induction over the state
engine's states (docs/advisor-engagements.md).

The game (:mod:`firefight.sim.optimal_game`) is played over the engagement's own horizon,
its turn limit. Backward from the last turn, each node's value is worked out for every
pairing of the advised side's policy (optimal, or one of the named heuristics) with the
opponent's (optimal, or a named policy):

* where the advised side fires, the optimal policy takes the allocation of largest value,
  each heuristic its own choice;
* where the opponent fires, an optimal opponent takes the allocation of least value to the
  advised side (minimax: the advised side's value is then a guarantee against any opponent),
  a named one its policy's choice;
* a start of fire, or a unit that cannot fire, has one successor.

With alternating fire that is the game both sides play optimally. With simultaneous fire
only a best response against the opponent's named policy is computed: there an optimal
answer would need mixed strategies, out of scope.

The objective is the advised side's P(win) (``win``), or the expected losses it inflicts
(``losses``: the fall of the enemy side's value, the rule set's measure the
``best_expected_effect`` policy uses, from the start to the end). Values are exact: each
layer's kernels are integer weights over the layer's common denominator, so a node's value
is an integer over the product of the denominators of the layers left (compared as integers,
turned into a ``Fraction`` once at the end).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm
from typing import Literal, get_args

from firefight.chance.collector import no_collection
from firefight.chance.limits import MAX_STATES
from firefight.errors import FirefightError, InputError, one_of, quoted
from firefight.i18n import gettext as _
from firefight.sim.engagement_phases import State, TurnState
from firefight.sim.optimal_bound import OptimalBoundError, check_bound
from firefight.sim.optimal_game import Choice, Game, Node, OptimalLimitError, Steered, explore
from firefight.sim.scenario import POLICIES, SIDES, Scenario

Objective = Literal["win", "losses"]
OBJECTIVES: tuple[Objective, ...] = get_args(Objective)
OPTIMAL = "optimal"
MIXED_NOTE = (
    "simultaneous fire: the best response against the opponent's named policy (an optimal "
    "opponent would call for mixed strategies, out of scope)"
)

__all__ = [
    "MIXED_NOTE",
    "OBJECTIVES",
    "OPTIMAL",
    "ApartError",
    "Objective",
    "OptimalBoundError",
    "OptimalLimitError",
    "Solution",
    "check_apart",
    "solve",
]

Pairing = tuple[str, str]
"""The advised side's policy and the opponent's (``optimal`` or a policy's name)."""


def pairings(scenario: Scenario, opponent: str) -> tuple[Pairing, ...]:
    """The pairings worked out: the optimal policy and every heuristic against the opponent,
    and, against an optimal opponent, the scenario's policy on both sides (the engagement's
    own answer)."""
    found = [(OPTIMAL, opponent), *((p, opponent) for p in POLICIES)]
    if opponent == OPTIMAL:
        found.append((scenario.policy, scenario.policy))
    return tuple(found)


class ApartError(InputError):
    """Options of the optimal policy given without it: their own line, about ``optimal``
    (the field the web names), each option as the face names it."""

    def __init__(self, field: str, line: str, got: object) -> None:
        FirefightError.__init__(self, line)  # worded here, not as "'field' must be ..."
        self.field = field
        self.allowed = line
        self.got = got


def _listed(names: Sequence[str]) -> str:
    """``a, b and c`` (in the active language)."""
    if len(names) < 2:
        return "".join(names)
    return _("{items} and {last}").format(items=", ".join(names[:-1]), last=names[-1])


def check_apart(
    optimal: bool,
    advice: Mapping[str, object],
    others: Mapping[str, object],
    names: Mapping[str, str] | None = None,
) -> None:
    """The optimal policy answers the whole engagement, exactly: none of ``others`` (dice,
    samples, a picture: each ``None`` when not given) goes with it, and none of its own options
    (``advice``: each option's value given, ``None`` when left out) without it. One line naming
    the option, as ``names`` says the face names each (the field's own name otherwise):
    ``--side, --objective and --against apply only with --optimal (got --side 'b')``."""
    if optimal:
        for name, value in others.items():
            if value is not None:
                raise InputError(name, "left out with the optimal policy", value)
        return
    given = {name: value for name, value in advice.items() if value is not None}
    if not given:
        return
    shown = dict(names or {})

    def named(field: str) -> str:
        return shown.get(field, field)

    line = _("{options} apply only with {optimal} (got {given})").format(
        options=_listed([named(f) for f in advice]),
        optimal=named("optimal"),
        given=", ".join(f"{named(f)} {quoted(v)}" for f, v in given.items()),
    )
    raise ApartError("optimal", line, given)


def check_request(scenario: Scenario, side: str, objective: str, opponent: str | None) -> str:
    """The opponent's policy (by default optimal with alternating fire, the scenario's policy
    with simultaneous), after checking each option (one line naming it)."""
    if side not in SIDES:
        raise InputError("side", one_of(SIDES), side)
    if objective not in OBJECTIVES:
        raise InputError("objective", one_of(OBJECTIVES), objective)
    simultaneous = scenario.order == "simultaneous"
    if opponent is None:
        return scenario.policy if simultaneous else OPTIMAL
    allowed = POLICIES if simultaneous else (OPTIMAL, *POLICIES)
    if opponent not in allowed:
        words = one_of(allowed)
        if simultaneous:
            words = _("{choices} (simultaneous fire: an optimal opponent needs mixed strategies)")
            words = words.format(choices=one_of(allowed))
        raise InputError("against", words, opponent)
    return opponent


@dataclass(eq=False)
class Solution:
    """The game solved: each layer's node values for every pairing."""

    game: Game
    objective: Objective
    pairings: tuple[Pairing, ...]
    scales: list[int] = field(default_factory=list)
    """Each layer's common denominator (the product of those left: :attr:`below`)."""
    below: list[int] = field(default_factory=list)
    quantum: int = 1
    """The common denominator of the leaves' objective values."""
    values: list[list[dict[TurnState, int]]] = field(default_factory=list)
    """Per layer, per pairing: each node's value over ``below[layer] * quantum``."""
    leaves: dict[tuple[int, State], Fraction] = field(default_factory=dict)
    _ends: dict[int, dict[TurnState, int | TurnState]] = field(default_factory=dict)

    @property
    def engagement(self) -> Steered:
        """The engagement solved."""
        return self.game.engagement

    def value(self, pairing: Pairing) -> Fraction:
        """The advised side's objective from the start under ``pairing``."""
        i = self.pairings.index(pairing)
        start = self.engagement.start()
        if not self.game.layers:
            return self.leaves[(0, start)]
        root = self.engagement.step.enter(start)
        return Fraction(self.values[0][i][root], self.below[0] * self.quantum)

    def choice_values(self, layer: int, turn_state: TurnState, i: int = 0) -> list[Fraction]:
        """Each choice's value at the node under pairing ``i`` (the choice made, then play
        as the pairing plays)."""
        node = self.game.layers[layer][turn_state]
        child = self._child(layer, i)
        scale = self.scales[layer]
        denominator = scale * self.below[layer + 1] * self.quantum
        return [
            Fraction(scale // d * sum(w * child(s) for s, w in items), denominator)
            for d, items in node.kernels
        ]

    def chosen(self, layer: int, turn_state: TurnState, i: int = 0) -> int:
        """The index of the choice pairing ``i`` makes at the node (the first best one)."""
        node = self.game.layers[layer][turn_state]
        mode, opponent = self.pairings[i]
        if len(node.choices) == 1:
            return 0
        own = node.phase.side == self.game.side
        name = mode if own else opponent
        if name != OPTIMAL:
            return node.policies[name]
        values = self.choice_values(layer, turn_state, i)
        best = max(values) if own else min(values)
        return values.index(best)

    def policy(self, i: int = 0) -> Callable[[int, TurnState], Choice]:
        """Pairing ``i``'s choice at each node, by layer and turn state."""

        def choose(layer: int, turn_state: TurnState) -> Choice:
            node = self.game.layers[layer][turn_state]
            return node.choices[self.chosen(layer, turn_state, i)]

        return choose

    def _child(self, layer: int, i: int) -> Callable[[TurnState], int]:
        """The value of a node's successor (a node of the next layer, or after the turn's
        last phase the state it leaves, which may be a leaf)."""
        phases = len(self.game.phases)
        if (layer + 1) % phases:
            return self.values[layer + 1][i].__getitem__
        later = self.values[layer + 1][i] if layer + 1 < len(self.game.layers) else {}
        return {
            child: end if isinstance(end, int) else later[end]
            for child, end in self._turn_end(layer).items()
        }.__getitem__

    def _turn_end(self, layer: int) -> dict[TurnState, int | TurnState]:
        """Where each successor of a turn's last phase goes: its leaf's value (an integer
        over the layers left), or the next turn's node it enters (cached per layer)."""
        found = self._ends.get(layer)
        if found is not None:
            return found
        turn = (layer + 1) // len(self.game.phases)
        leave, enter = self.engagement.step.leave, self.engagement.step.enter
        scale = self.below[layer + 1] * self.quantum
        found = {}
        for node in self.game.layers[layer].values():
            for _weights, items in node.kernels:
                for child, _weight in items:
                    if child in found:
                        continue
                    state = leave(child)
                    leaf = self.leaves.get((turn, state))
                    found[child] = enter(state) if leaf is None else int(leaf * scale)
        self._ends[layer] = found
        return found

    def solve(self) -> None:
        """Every layer's values, from the last layer back (the leaves first)."""
        game = self.game
        self.scales = [
            lcm(*(d for node in layer.values() for d, _k in node.kernels)) for layer in game.layers
        ]
        self.below = [1] * (len(self.scales) + 1)
        for layer in range(len(self.scales) - 1, -1, -1):
            self.below[layer] = self.scales[layer] * self.below[layer + 1]
        for turn, states in enumerate(game.boundaries):
            for state in states:
                if game.leaf(state, turn) or turn == game.turns:
                    self.leaves[(turn, state)] = self._objective(state)
        self.quantum = lcm(*(v.denominator for v in self.leaves.values()))
        self.values = [[] for _layer in game.layers]
        for layer in range(len(game.layers) - 1, -1, -1):
            self.values[layer] = [self._layer(layer, i) for i in range(len(self.pairings))]

    def _layer(self, layer: int, i: int) -> dict[TurnState, int]:
        child = self._child(layer, i)
        scale = self.scales[layer]
        mode, opponent = self.pairings[i]
        side = self.game.side
        found: dict[TurnState, int] = {}
        for turn_state, node in self.game.layers[layer].items():
            found[turn_state] = _node_value(
                node, side=side, mode=mode, opponent=opponent, scale=scale, child=child
            )
        return found

    def _objective(self, state: State) -> Fraction:
        engagement, side = self.engagement, self.game.side
        if self.objective == "win":
            return Fraction(engagement.result(state) == ("a_wins", "b_wins")[side])
        return _side_value(engagement, engagement.start(), 1 - side) - _side_value(
            engagement, state, 1 - side
        )


def _node_value(
    node: Node,
    *,
    side: int,
    mode: str,
    opponent: str,
    scale: int,
    child: Callable[[TurnState], int],
) -> int:
    def expected(k: int) -> int:
        d, items = node.kernels[k]
        return scale // d * sum(w * child(s) for s, w in items)

    if len(node.choices) == 1:
        return expected(0)
    own = node.phase.side == side
    name = mode if own else opponent
    if name != OPTIMAL:
        return expected(node.policies[name])
    values: Iterator[int] = (expected(k) for k in range(len(node.choices)))
    return max(values) if own else min(values)


def _side_value(engagement: Steered, state: State, side: int) -> Fraction:
    units = engagement.scenario.sides[side].units
    return sum(
        (engagement.rules.value(u, s) for u, s in zip(units, state[side], strict=True)),
        Fraction(0),
    )


def solve(
    scenario: Scenario,
    side: str = "a",
    objective: str = "win",
    opponent: str | None = None,
    *,
    exchange: bool = True,
    max_states: int = MAX_STATES,
) -> Solution:
    """The optimal policy of ``side`` for ``objective`` against ``opponent`` (by default:
    optimal with alternating fire, the scenario's policy with simultaneous fire), with every
    heuristic's value beside it; past the state engine's limits, :class:`OptimalLimitError`."""
    against = check_request(scenario, side, objective, opponent)
    engagement = Steered(scenario, exchange)
    check_bound(engagement, SIDES.index(side), against, max_states)
    with no_collection():
        game = explore(engagement, SIDES.index(side), against, max_states)
        solution = Solution(game, objective, pairings(scenario, against))  # type: ignore[arg-type]
        solution.solve()
    return solution
