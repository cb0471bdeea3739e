"""What a rule set tells an engagement (``firefight engage``) about its units.

An engagement is turns of fire between two sides (docs/engagements.md). The engine in
:mod:`firefight.sim.engagement` knows nothing of any game: each rule set gives an
:class:`EngagementRules` (in ``rulesets/<game>/engagement.py``) that says, citing its rules,

* what a unit is in a scenario file (``unit_model``: the counter's values and its state at the
  start) and what its state is during the engagement (a small frozen, hashable value);
* which of its registered procedures resolves one unit's fire at another (``procedure``), and
  the input fields a firer and a target give it (:meth:`EngagementRules.attack_fields`): the
  attack is then the procedure's own rule, never a second copy of it;
* how that procedure's outcome changes the target's state (:meth:`EngagementRules.apply`);
* which units are interchangeable (``kind``: by default equal counters but for the name);
* who can fire, who is out of the fight, when a side is broken, and what happens at the start
  of a side's fire (a rally, markers removed);
* the order of fire its rules give (``order``: ``simultaneous`` or ``alternating``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar, Generic, Literal, Protocol, TypeVar

from firefight.chance.distribution import Distribution
from firefight.chance.protocol import Chance
from firefight.core.inputs import RuleInput

Order = Literal["simultaneous", "alternating"]
"""The order of fire within a turn: both sides at once, or one side after the other."""
ORDERS: tuple[Order, ...] = ("simultaneous", "alternating")

U = TypeVar("U", bound=RuleInput)  # a unit as the scenario gives it (its counter)
S = TypeVar("S")  # its state during the engagement (hashable, immutable)


class AttackProcedure(Protocol):
    """What an engagement reads of the procedure that resolves one fire (a registered
    :class:`~firefight.rulesets.procedure.Procedure`)."""

    @property
    def name(self) -> str:
        """The procedure's name."""
        ...

    @property
    def input_model(self) -> type[RuleInput]:
        """Its input model (the fields a scenario's situation tables may set)."""
        ...

    @property
    def rule(self) -> Callable[[Any, Chance], str]:
        """The rule itself, run on a chance."""
        ...

    def parse(self, data: Mapping[str, object]) -> Any:  # noqa: ANN401 - its own input model
        """Validate an attack's fields into the input model."""
        ...

    def odds(self, inp: Any) -> Distribution[str]:  # noqa: ANN401 - its own input model
        """The attack's exact odds."""
        ...


class EngagementRules(Generic[U, S]):
    """A rule set's part of an engagement: its units, its procedure and what a result does.

    Subclasses set the class variables and implement the methods; every method reads the
    rulebook and its docstring cites the rule (or names the reading where the rules are
    silent, with the scenario option that chooses the other reading).
    """

    ruleset: ClassVar[str]
    procedure: ClassVar[AttackProcedure]
    unit_model: ClassVar[type[RuleInput]]
    order: ClassVar[Order]
    """The order of fire within a turn that the rules give (or the reading taken)."""
    order_rule: ClassVar[str]
    """Where that order comes from, in words (shown in the docs and the JSON)."""
    unit_fields: ClassVar[frozenset[str]]
    """The procedure's input fields each attack takes from its firer and target: a scenario's
    situation tables may not set them."""
    options_model: ClassVar[type[RuleInput]]
    """The rule set's engagement readings (the scenario's ``[rules]`` table)."""

    def __init__(self, options: RuleInput) -> None:
        self.options = options

    def start(self, unit: U) -> S:
        """The unit's state at the start of the engagement (from the scenario)."""
        raise NotImplementedError

    def kind(self, unit: U) -> dict[str, Any]:
        """What makes two units interchangeable in the engagement: by default their counters
        but for their names (two units of one kind in one state are the same to the rules, so
        a side's state is a multiset of unit states). A rule set whose rules tell two such
        units apart (a position, a leader) returns what does."""
        return unit.model_dump(exclude={"name"})

    def attack_fields(self, firer: U, firer_state: S, target: U, target_state: S) -> dict[str, Any]:
        """The procedure's input fields that this firer and this target give."""
        raise NotImplementedError

    def apply(self, target: U, state: S, outcome: str) -> S:
        """The target's state after the procedure's ``outcome``."""
        raise NotImplementedError

    def can_fire(self, unit: U, state: S) -> bool:
        """Whether the unit may fire this turn."""
        raise NotImplementedError

    def out(self, unit: U, state: S) -> bool:
        """Whether the unit is out of the fight for good (eliminated): no longer a target."""
        raise NotImplementedError

    def broken(self, units: Sequence[U], states: Sequence[S]) -> bool:
        """Whether a side is eliminated or broken (the engagement ends)."""
        raise NotImplementedError

    def before_fire(self, unit: U, state: S) -> S:
        """The unit's state at the start of its side's fire (a rally, markers removed)."""
        del unit
        return state

    def starts_fire(self) -> bool:
        """Whether :meth:`before_fire` can change a unit (else the phase is left out of the
        turn: it would only cost time)."""
        return True

    def value(self, unit: U, state: S) -> Fraction:
        """What the unit is worth to its side: "best expected effect" fires where the
        expected fall of this value is largest."""
        raise NotImplementedError

    def describe(self, unit: U, state: S) -> str:
        """The state in the rulebook's words (``2 steps, stopped``)."""
        raise NotImplementedError


def merge_fields(*tables: Mapping[str, Any]) -> dict[str, Any]:
    """Later tables win: the situation, the firer's side, the target's side, the units."""
    merged: dict[str, Any] = {}
    for table in tables:
        merged.update(table)
    return merged
