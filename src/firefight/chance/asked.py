"""Dice given one at a time: a ``Chance`` that asks for each value as the rule comes to it.

Where :class:`~firefight.chance.evaluate.Scripted` reads the dice rolled at the table from a
list given up front (``--roll 3,4``), :class:`Asked` pulls each one from an :class:`Ask` (the
command line's ``--roll ask``) when the rule needs it, saying what it is for (the event's label,
the rule's words) and which dice it wants (:class:`Wanted`: ``2d6``, ``d10``, ``d% (01-100)``,
a card). A player at the table then never has to know beforehand how many dice a run will use.

An entry is read as a scripted value is (:func:`read_face`): one die's face (a D10's ``0`` is
10), a roll of several dice as its dice (``3+4``, ``3 4``) or its total (``7``), a pool as every
die, a card by its name. The trace is the one ``--roll`` would give with the same values, so a
run asked for is replayed, journaled and checked as any other.

:func:`asking` puts an :class:`Ask` in force: inside, every scripted resolution given the single
value ``ask`` asks it instead (:func:`~firefight.chance.evaluate.scripted`), so that every
command that takes ``--roll`` reaches it without a parameter through every rule set. A rule
that needs an answer that is no roll (which unit takes a casualty) asks with :func:`choose`,
which asks the player only under an asked run and otherwise keeps the rule's default; the
answer is traced as a ``choice`` event, which the replay (``--roll``) gives as ``#N``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar, runtime_checkable

from firefight.chance.events import Deck, Dice
from firefight.chance.protocol import Chance, Resolution, TraceEvent
from firefight.digits import read_integer
from firefight.errors import ScriptError, one_of
from firefight.i18n import gettext as _

T = TypeVar("T")
V = TypeVar("V")

ASK = "ask"
"""The one value that asks for each roll instead of giving them (``--roll ask``)."""

D10_FACES = tuple(range(1, 11))
"""The faces of a D10 numbered 1 to 10, whose 10 most D10s print as ``0``: a player who types
the ``0`` he sees means 10. A die numbered 0 to 9 (a percentile die) keeps its 0."""

_SEPARATORS = re.compile(r"[+,\s]+")


@dataclass(frozen=True)
class Wanted(Generic[V]):
    """One value a rule asks the player for: the dice in words (``2d6``, ``d10``, ``a card``),
    how to give it (``each die 1..6 joined by +, or the total 2..12``), and how an entry is
    read (:attr:`read` raises a one-line :class:`~firefight.errors.ScriptError` naming the
    purpose and what it allows when the entry cannot be the value)."""

    dice: str
    how: str
    read: Callable[[str], V]


class Ask(Protocol):
    """Whoever answers an asked run: the player at the command line (``--roll ask``), or a
    test's list. A rule never calls it directly: :class:`Asked` asks for rolls and draws,
    :func:`choose` for choices."""

    def ask_roll(self, purpose: str, dice: Wanted[V]) -> V:
        """The value the player rolled (or drew) for ``purpose``: an entry read by
        ``dice.read``; an entry it refuses may be asked for again or refused."""
        ...

    def ask_choice(self, purpose: str, options: Sequence[str]) -> str:
        """One of ``options``, chosen by the player for ``purpose``."""
        ...


def read_face(dice: Dice, token: str, purpose: str, allowed: str) -> int:
    """One die's face as typed (ASCII digits; a D10's ``0`` is its 10), or a
    :class:`~firefight.errors.ScriptError` naming ``purpose`` and what is ``allowed``."""
    face = read_integer(token)
    if face == 0 and dice.faces == D10_FACES:
        face = 10  # most D10s print their 10 as 0 (docs/tirs.md, "Your dice")
    if face is None or face not in dice.faces:
        raise ScriptError(
            "roll", _("{allowed} for {purpose!r}").format(allowed=allowed, purpose=purpose), token
        )
    return face


def _span(values: Sequence[int] | frozenset[int]) -> str:
    return f"{min(values)}..{max(values)}"


def roll_wanted(dice: Dice, purpose: str) -> Wanted[tuple[int, tuple[int, ...]]]:
    """A roll of ``dice``: ``(total, faces)``, the faces empty where the total was given."""
    if dice.count == 1:
        allowed = _("a die of {faces}").format(faces=_span(dice.faces))
        how = _("the die, {span}").format(span=_span(dice.faces))
    else:
        allowed = _("{count} dice of {faces} or a total of {totals}").format(
            count=dice.count, faces=_span(dice.faces), totals=_span(dice.totals)
        )
        how = _("each die {faces} joined by +, or the total {totals}").format(
            faces=_span(dice.faces), totals=_span(dice.totals)
        )

    def read(text: str) -> tuple[int, tuple[int, ...]]:
        parts = [part for part in _SEPARATORS.split(text.strip()) if part]
        if dice.count > 1 and len(parts) == 1:
            total = read_integer(parts[0])
            if total is None or total not in dice.totals:
                raise ScriptError(
                    "roll",
                    _("{allowed} for {purpose!r}").format(allowed=allowed, purpose=purpose),
                    text.strip(),
                )
            return total, ()
        if len(parts) != dice.count:
            raise ScriptError(
                "roll",
                _("{allowed} for {purpose!r}").format(allowed=allowed, purpose=purpose),
                text.strip(),
            )
        faces = tuple(read_face(dice, part, purpose, allowed) for part in parts)
        return sum(faces), faces

    return Wanted(dice.name, how, read)


def pool_wanted(dice: Dice, purpose: str) -> Wanted[tuple[int, ...]]:
    """A pool of ``dice`` counted die by die: every die's face."""
    allowed = _("{count} dice of {faces}").format(count=dice.count, faces=_span(dice.faces))
    how = _("each of the {count} dice {faces}, joined by +").format(
        count=dice.count, faces=_span(dice.faces)
    )

    def read(text: str) -> tuple[int, ...]:
        parts = [part for part in _SEPARATORS.split(text.strip()) if part]
        if len(parts) != dice.count:
            raise ScriptError(
                "roll",
                _("{allowed} for {purpose!r}").format(allowed=allowed, purpose=purpose),
                text.strip(),
            )
        return tuple(read_face(dice, part, purpose, allowed) for part in parts)

    return Wanted(dice.name, how, read)


def card_wanted(deck: Deck, purpose: str) -> Wanted[str]:
    """A card drawn from ``deck``: its name as the deck knows it (an inventory number)."""
    allowed = one_of(card for card, _count in deck.cards)

    def read(text: str) -> str:
        card = text.strip()
        if not card or deck.count(card) == 0:
            raise ScriptError(
                "roll",
                _("{allowed} for {purpose!r}").format(allowed=allowed, purpose=purpose),
                card,
            )
        return card

    return Wanted(_("card"), _("the card drawn, by its name or number"), read)


class Asked:
    """A ``Chance`` that asks ``ask`` for every roll, pool and draw, and traces each as
    :class:`~firefight.chance.evaluate.Scripted` would with the same values."""

    def __init__(self, ask: Ask) -> None:
        self.ask = ask
        self.trace: list[TraceEvent] = []

    @property
    def events_read(self) -> int:
        """How many random events have been answered so far."""
        return sum(1 for event in self.trace if event.kind != "note")

    def roll(self, dice: Dice, label: str) -> int:
        total, faces = self.ask.ask_roll(label, roll_wanted(dice, label))
        self.trace.append(TraceEvent(label, total, "roll", faces))
        return total

    def count(self, dice: Dice, test: Callable[[int], bool], label: str) -> int:
        faces = self.ask.ask_roll(label, pool_wanted(dice, label))
        hits = sum(1 for face in faces if test(face))
        self.trace.append(TraceEvent(label, hits, "count", faces))
        return hits

    def check(self, dice: Dice, test: Callable[[int], bool], label: str) -> bool:
        """A roll, traced as one, then its test (as the scripted way)."""
        return test(self.roll(dice, label))

    def draw(self, deck: Deck, label: str) -> str:
        card = self.ask.ask_roll(label, card_wanted(deck, label))
        self.trace.append(TraceEvent(label, card, "draw"))
        return card

    def note(self, label: str, value: str) -> None:
        self.trace.append(TraceEvent(label, value, "note"))

    def choose(self, purpose: str, options: Sequence[str]) -> str:
        """The player's choice among ``options``, traced as a choice (replayed as ``#N``)."""
        chosen = self.ask.ask_choice(purpose, options)
        if chosen not in options:
            raise ScriptError(
                "choice",
                _("{choices} for {purpose!r}").format(choices=one_of(options), purpose=purpose),
                chosen,
            )
        number = list(options).index(chosen) + 1
        self.trace.append(TraceEvent(purpose, chosen, "choice", (number,)))
        return chosen


def asked(procedure: Callable[[Chance], T], ask: Ask) -> Resolution[T]:
    """One resolution whose every roll and draw ``ask`` answers as the rule comes to it."""
    chance = Asked(ask)
    outcome = procedure(chance)
    return Resolution(outcome, tuple(chance.trace))


@runtime_checkable
class ReadsChoices(Protocol):
    """A ``Chance`` given its values up front that may hold a choice among them (``#2``, as
    the replay of an asked run writes it: :class:`~firefight.chance.evaluate.Scripted`)."""

    def take_choice(self, purpose: str, options: Sequence[str]) -> str | None:
        """The option the next value names, or ``None`` where it is no choice."""
        ...


def choose(chance: Chance, purpose: str, options: Sequence[str], default: str) -> str:
    """A rule's question with choices (which unit takes the casualty, 13.4): under an asked
    run the player chooses among ``options`` (traced as a choice, which the replay gives as
    ``#N``, its number); with the values given up front, the option a ``#N`` there names;
    evaluated exactly, seeded or with no ``#N`` next, ``default`` (the rule's reading where
    nobody is asked)."""
    if default not in options:
        msg = f"the default {default!r} is not one of the options {list(options)!r}"
        raise ValueError(msg)
    if isinstance(chance, Asked):
        return chance.choose(purpose, options)
    if isinstance(chance, ReadsChoices):
        return chance.take_choice(purpose, options) or default
    return default


_ASKING: ContextVar[Ask | None] = ContextVar("firefight_asking", default=None)


@contextmanager
def asking(ask: Ask) -> Iterator[None]:
    """Inside, a scripted resolution given the single value ``ask`` (:data:`ASK`) asks
    ``ask`` for each roll (:func:`~firefight.chance.evaluate.scripted`)."""
    token = _ASKING.set(ask)
    try:
        yield
    finally:
        _ASKING.reset(token)


def asks(values: Sequence[int | str]) -> bool:
    """Whether ``values`` are the one value ``ask`` (any case, spaces around)."""
    return len(values) == 1 and str(values[0]).strip().casefold() == ASK


def ask_in_force(values: Sequence[int | str]) -> Ask | None:
    """The :class:`Ask` to use for ``values``: the one in force where they are ``ask``,
    ``None`` where they are dice given up front. ``ask`` with none in force (the web, the
    API) is refused in one line."""
    if not asks(values):
        return None
    ask = _ASKING.get()
    if ask is None:
        raise ScriptError(
            "roll",
            "the dice rolled (asking for each roll as it comes is for the command line only)",
            str(values[0]).strip(),
        )
    return ask
