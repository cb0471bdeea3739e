"""A procedure shown as a card table: the player's hand and the men as cards, the odds beside.

A game played with cards may give one of its procedures a :class:`CardView`
(:attr:`~firefight.rulesets.procedure.RuleSet.card_views`): the faces draw its
:class:`CardTable` (the web's ``/rulesets/{ruleset}/{procedure}/cards``) without knowing the
game. The procedure's input stays the one truth: a card played is a number added to the
field :attr:`CardView.play_field`, and the table is worked out again from the input.
Every text here is already in the active language; probabilities are exact.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from firefight.i18n import N_

__all__ = ["ActionCard", "CardTable", "CardView", "Mark", "OutcomeRow", "PersonCard", "toggled"]


@dataclass(frozen=True, slots=True)
class Mark:
    """One printed value of a card: its label (``RN``, a column's label) and its value."""

    label: str
    value: str
    red: bool = False


@dataclass(frozen=True, slots=True)
class ActionCard:
    """A card of the player's hand as printed, and whether it is played."""

    number: int
    kind: str
    """What the card is, in words (``FIRE 3``, ``terrain -2``)."""
    rn: Mark
    rpn: tuple[Mark, ...]
    played: bool
    playable: bool
    """Whether a click plays it (adds it to the play field)."""


@dataclass(frozen=True, slots=True)
class PersonCard:
    """A man (or vehicle) card: his name, the values printed on him, and his state."""

    id: str
    title: str
    values: tuple[Mark, ...]
    state: str = ""
    """What marks him now, in words (``pinned``), or ``""``."""


@dataclass(frozen=True, slots=True)
class OutcomeRow:
    """One outcome: a short name, what it means, its exact probability."""

    name: str
    meaning: str
    probability: Fraction

    @property
    def percent(self) -> float:
        """The probability in percent, for display only."""
        return float(self.probability) * 100


@dataclass(frozen=True, slots=True)
class CardTable:
    """What the table shows for one input."""

    hand: tuple[ActionCard, ...]
    groups: tuple[tuple[str, tuple[PersonCard, ...]], ...]
    """Each group's title and its men (the firers, the targets)."""
    summary: tuple[Mark, ...]
    """The attack worked out (firepower, fire strength, cards in the pool)."""
    men: tuple[tuple[str, tuple[OutcomeRow, ...]], ...]
    """Each man's odds, in the order he is resolved (empty: one outcome only, below)."""
    outcomes: tuple[OutcomeRow, ...]
    """The distribution of the whole attack (a group's losses)."""
    notes: tuple[str, ...] = ()
    """What the player must know of the data (an ILLUSTRATIVE deck)."""
    error: str = ""
    """Why the input cannot be worked out (one line), or ``""``: the odds are above."""


@dataclass(frozen=True)
class CardView:
    """How one procedure is shown as cards."""

    procedure: str
    sample: Mapping[str, str]
    """The input the table opens with when the address names none (a sample hand), as a
    form's text."""
    play_field: str
    """The field of inventory numbers a card played is added to (or taken from)."""
    shown: tuple[str, ...]
    """The fields of the situation shown open under the cards; the others are folded."""
    folded: tuple[tuple[str, tuple[str, ...]], ...]
    """Fields folded apart, each fold's title (an English message) and its fields."""
    table: Callable[[Any], CardTable]
    """The table for an input of the procedure's model."""
    losses_title: str = N_("Distribution of the outcome")
    """The title of :attr:`CardTable.outcomes` (an English message)."""
    hidden: tuple[str, ...] = ()
    """Fields the view never shows (the data files): their defaults, or the address's."""
    actions: tuple[tuple[str, str], ...] = ()
    """The rule set's actions the table offers as buttons, each by its name and the button's
    label (an English message): given the table's input (the fields their model shares with
    the procedure's) and their own fields, their answer is shown beside the odds."""


def toggled(numbers: str, number: int) -> str:
    """A comma-separated list of inventory numbers with ``number`` added, or taken out when
    it is there: what a click on a card does to the play field."""
    entries = [n.strip() for n in numbers.split(",") if n.strip()]
    text = str(number)
    kept = [n for n in entries if n != text]
    return ",".join(kept if len(kept) < len(entries) else [*entries, text])
