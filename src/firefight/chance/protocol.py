"""The one extension point: a procedure asks a ``Chance`` for every random event."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Literal, Protocol, TypeVar

from firefight.chance.events import Deck, Dice

T = TypeVar("T")

CHOICE_MARK = "#"
"""How a value given up front answers a rule's question instead of a roll: ``#2``, the second
option (:func:`~firefight.chance.asked.choose`), as the replay of an asked run writes it."""


class Chance(Protocol):
    """What a rule procedure may ask for. It never calls a random-number generator itself.

    The same procedure is evaluated exactly (every branch), sampled (seeded, traced) or
    scripted (dice the player rolled), depending on the ``Chance`` it is given.
    """

    def roll(self, dice: Dice, label: str) -> int:
        """Roll ``dice`` and return their total."""
        ...

    def count(self, dice: Dice, test: Callable[[int], bool], label: str) -> int:
        """Roll a pool of ``dice`` and return how many meet ``test`` (one event)."""
        ...

    def check(self, dice: Dice, test: Callable[[int], bool], label: str) -> bool:
        """Roll ``dice`` and return whether their total meets ``test``: a roll whose only use
        is a pass or a fail (a morale test, 1d6 <= 2). The trace and the player's dice are
        the roll's; exact odds branch on the pass and the fail alone."""
        ...

    def draw(self, deck: Deck, label: str) -> str:
        """Draw one card from ``deck`` without replacement and return it."""
        ...

    def note(self, label: str, value: str) -> None:
        """Record a deterministic step (the chart cell read) in the trace."""
        ...


EventKind = Literal["roll", "count", "draw", "note", "choice"]
"""``choice``: a player's answer to a rule's question (:func:`~firefight.chance.asked.choose`),
its option's number (from 1) kept in ``dice`` so that ``--roll`` replays it as ``#N``."""


@dataclass(frozen=True, slots=True)
class TraceEvent:
    """One step of a resolution: its label, its value and, for dice, each die."""

    label: str
    value: int | str
    kind: EventKind
    dice: tuple[int, ...] = ()

    def __str__(self) -> str:
        if len(self.dice) > 1 and self.kind == "roll":
            return f"{self.label}: {' + '.join(map(str, self.dice))} = {self.value}"
        if self.kind == "count":
            return f"{self.label}: {' '.join(map(str, self.dice))} -> {self.value}"
        return f"{self.label}: {self.value}"

    def to_json(self) -> dict[str, object]:
        """``{"label", "value"}``, with ``"dice"`` (each die) when the event rolled dice."""
        data: dict[str, object] = {"label": self.label, "value": self.value}
        if self.kind == "choice":
            data["option"] = self.dice[0]
        elif self.dice:
            data["dice"] = list(self.dice)
        return data


@dataclass(frozen=True, slots=True)
class Resolution(Generic[T]):
    """The outcome of one resolution and the trace that produced it."""

    outcome: T
    trace: tuple[TraceEvent, ...]
    seed: int | None = None

    def replay_values(self) -> list[str]:
        """The values to give a scripted resolution so that it repeats this one: each roll of
        several dice as its dice joined by ``+`` (``3+4``), so that the reading is exact; each
        choice as ``#N``, its option's number."""
        values: list[str] = []
        for event in self.trace:
            if event.kind in ("roll", "count") and event.dice:
                values.append("+".join(str(face) for face in event.dice))
            elif event.kind in {"roll", "draw"}:
                values.append(str(event.value))
            elif event.kind == "choice":
                values.append(f"{CHOICE_MARK}{event.dice[0]}")
        return values
