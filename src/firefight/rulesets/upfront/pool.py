"""The pool a card is drawn from, and drawing from it through the chance engine.

Every random result of Up Front is read from the next card of the draw pile. Which cards that
may be is a named choice (docs/upfront.md, "The pool"):

* ``observer``: the cards this player has not seen, the deck minus his hand and the cards he
  has seen (``seen``: discards, cards in play). The opponent's hand is exchangeable with the
  draw pile, so it is part of the pool.
* ``omniscient``: the actual draw pile (``pile``), for solo play and referees.

A rule reads only some fields of a card (its RN, some RPN columns, BREEZE); cards equal on
those fields are one *class*, so that exact odds branch once per class, not once per card,
and a pool state (:class:`PoolState`) is the members left in each class: the state engine's
draws without replacement as state (docs/chance.md). A class is named by its lowest inventory
number still in the pool, so a seeded trace shows real inventory numbers and replays as is,
and the player's own cards are given by inventory number (``--draw 17,102,55``): any member of
a class is accepted for it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Annotated, Literal

from pydantic import Field, model_validator

from firefight.chance import Chance, Deck
from firefight.core.inputs import NamedFile, RuleInput
from firefight.errors import InputError, RuleError, quoted
from firefight.i18n import gettext as _
from firefight.rulesets.upfront.cards import Card, DeckData, deck_file
from firefight.rulesets.upfront.lists import CardNumbers, shown
from firefight.rulesets.upfront.men import MenData, men_file

__all__ = [
    "CardInput",
    "Pool",
    "PoolMode",
    "PoolState",
    "Reads",
    "Reshuffle",
    "inventory_numbers",
    "pool_for",
]

PoolMode = Literal["observer", "omniscient"]
Reshuffle = Literal["discards", "end_attack"]


DATA_FILE = NamedFile(suffixes=(".toml",), keywords=("illustrative",))
"""The player's data files (deck, men): a TOML file, or ``illustrative`` for the shipped one."""


class CardInput(RuleInput):
    """The fields every Up Front procedure shares: the player's data files and the pool."""

    deck: Annotated[str, DATA_FILE] = Field(
        "illustrative",
        max_length=500,
        description=(
            "The action deck file (deck.toml format, docs/upfront.md); 'illustrative' is the "
            "shipped ILLUSTRATIVE deck, not the published card values."
        ),
    )
    men: Annotated[str, DATA_FILE] = Field(
        "illustrative",
        max_length=500,
        description=(
            "The personality file (men.toml format); 'illustrative' is the shipped "
            "ILLUSTRATIVE personalities, not the published values."
        ),
    )
    pool: PoolMode = Field(
        "observer",
        description=(
            "Which cards a draw may be: observer (the deck minus your hand and the cards "
            "seen) or omniscient (the actual draw pile, given as pile)."
        ),
    )
    hand: CardNumbers = Field(
        (),
        description="Your hand, as inventory numbers (e.g. 3,17,88): never drawn.",
    )
    seen: CardNumbers = Field(
        (),
        description=(
            "Cards you have seen since the last reshuffle (discards, cards in play), as "
            "inventory numbers: out of the observer's pool."
        ),
    )
    pile: CardNumbers = Field(
        (),
        description="The actual draw pile, as inventory numbers (omniscient pool only).",
    )
    in_play: CardNumbers = Field(
        (),
        description=(
            "Cards on the table (terrain, concealment, ...) as inventory numbers: they stay "
            "out of a reshuffle (and are seen)."
        ),
    )
    opponent_hand: CardNumbers = Field(
        (),
        description=(
            "The opponent's hand as inventory numbers (omniscient pool only): out of a reshuffle."
        ),
    )
    reshuffle: Reshuffle = Field(
        "discards",
        description=(
            "When the pool runs out in the middle of an attack: discards (every card not in a "
            "hand or in play is reshuffled into a new pile and drawing goes on) or end_attack "
            "(the attack ends; the men not yet resolved are unaffected)."
        ),
    )

    @model_validator(mode="after")
    def _pile_follows_the_pool(self) -> CardInput:
        """The draw pile and the opponent's hand are known to an omniscient pool only, and an
        omniscient pool needs its pile (the one rule, for every face: the Python API, the
        CLI and the web alike)."""
        if self.pool == "observer":
            for name, numbers in (("pile", self.pile), ("opponent_hand", self.opponent_hand)):
                if numbers:
                    raise ValueError(
                        _(
                            "'{field}' must be empty with pool = observer (omniscient only) "
                            "(got {got})"
                        ).format(field=name, got=quoted(shown(numbers)))
                    )
        elif not self.pile:
            raise ValueError(
                _(
                    "'pile' must be the draw pile's inventory numbers with pool = omniscient "
                    "(got {got})"
                ).format(got=quoted(shown(self.pile)))
            )
        return self

    def deck_data(self) -> DeckData:
        """The deck file this input names, loaded once per file version."""
        return deck_file(self.deck)

    def men_data(self) -> MenData:
        """The personality file this input names, loaded once per file version."""
        return men_file(self.men)


def inventory_numbers(field_name: str, numbers: Sequence[int], deck: DeckData) -> tuple[int, ...]:
    """Inventory numbers (each once: the input model's rule) that must be cards of ``deck``;
    one-line errors."""
    low = min(c.number for c in deck.cards)
    high = max(c.number for c in deck.cards)
    allowed = _(
        "inventory numbers of cards in {source} ({low} to {high}), comma-separated, each once"
    ).format(source=deck.source, low=low, high=high)
    for number in numbers:
        if not deck.has(number):
            raise InputError(field_name, allowed, str(number))
    return tuple(numbers)


@dataclass(frozen=True)
class Reads:
    """The fields of a card a rule reads: its signature (cards equal on them are one class)
    and how a draw is shown in the trace."""

    rn: bool = True
    rn_colour: bool = False
    rpn: tuple[int, ...] = ()
    rpn_colour: tuple[int, ...] = ()
    breeze: bool = False
    kia: bool = False

    def __call__(self, card: Card) -> Hashable:
        return (
            card.rn.value if self.rn else None,
            card.rn.colour if self.rn_colour else None,
            tuple(card.rpn[c].value for c in self.rpn),
            tuple(card.rpn[c].colour for c in self.rpn_colour),
            card.breeze if self.breeze else None,
            card.kia if self.kia else None,
        )

    def describe(self, card: Card, columns: tuple[str, ...]) -> str:
        """What was read: ``RN 4 red; RPN(7) 3 black; BREEZE``."""
        parts = []
        if self.rn:
            parts.append(f"RN {card.rn}" if self.rn_colour else f"RN {card.rn.value}")
        for column in sorted(set(self.rpn) | set(self.rpn_colour)):
            number = card.rpn[column]
            shown = str(number) if column in self.rpn_colour else str(number.value)
            if column not in self.rpn:
                shown = number.colour
            parts.append(f"RPN({columns[column]}) {shown}")
        if self.breeze:
            parts.append("BREEZE" if card.breeze else "no BREEZE")
        if self.kia:
            parts.append(f"KIA {card.kia}")
        return "; ".join(parts)


@dataclass(frozen=True)
class PoolState:
    """The cards left to draw: each class's members (inventory numbers, ascending), in the
    pool's fixed class order; ``reshuffles`` counts the reshuffles so far in this attack."""

    classes: tuple[tuple[int, ...], ...]
    reshuffles: int = 0

    @property
    def size(self) -> int:
        """How many cards are left."""
        return sum(len(members) for members in self.classes)

    def deck(self) -> Deck:
        """The chance engine's deck: one entry per class, named by its lowest member (built
        once per state; which class a drawn number belongs to is looked up when a drawn card
        is checked, not built with every deck)."""
        return self._deck

    @cached_property
    def _deck(self) -> Deck:
        return _PoolDeck(tuple((str(m[0]), len(m)) for m in self.classes if m), self.classes)

    def without(self, number: int) -> PoolState:
        """The state after the card ``number`` is drawn."""
        return PoolState(
            tuple(
                tuple(n for n in members if n != number) if number in members else members
                for members in self.classes
            ),
            self.reshuffles,
        )

    def counts(self) -> tuple[int, ...]:
        """How many cards are left in each class (the pool's class order)."""
        return tuple(len(members) for members in self.classes)


@dataclass(frozen=True)
class _PoolDeck(Deck):
    """A deck of classes that accepts any member's inventory number as a drawn card."""

    classes: tuple[tuple[int, ...], ...] = field(default=(), compare=False, hash=False)

    def count(self, card: str) -> int:
        name = card.strip().lstrip("0") or "0"
        if not name.isascii() or not name.isdigit():
            return 0
        number = int(name)
        return next((len(m) for m in self.classes if number in m), 0)


@dataclass(frozen=True)
class Pool:
    """Where the cards come from for one input and one way of reading them: the deck, the
    start state, what a reshuffle brings back, and the class of each card."""

    data: DeckData
    reads: Callable[[Card], Hashable]
    start: PoolState
    refill: PoolState
    reshuffle: Reshuffle
    describe: Callable[[Card], str]

    def draw(self, chance: Chance, state: PoolState, label: str) -> tuple[Card, PoolState] | None:
        """Draw one card for ``label``: the card (what the rule reads) and the state left.

        An empty pool reshuffles (``reshuffle = discards``: the refill, noted in the trace) or
        ends the attack (``end_attack``: ``None``)."""
        if state.size == 0:
            if self.reshuffle == "end_attack" or self.refill.size == 0:
                chance.note("draw pile", "ran out: the attack ends (reshuffle = end_attack)")
                return None
            chance.note("draw pile", "ran out: the discards are reshuffled into a new pile")
            state = PoolState(self.refill.classes, state.reshuffles + 1)
        deck = state.deck()
        drawn = chance.draw(deck, label)
        name = drawn.strip().lstrip("0") or "0"
        number = int(name)
        card = self.data.card(number)
        chance.note(f"{label}: card {number}", self.describe(card))
        return card, state.without(number)


def _classes(
    cards: list[Card], signatures: dict[int, Hashable], order: list[Hashable]
) -> PoolState:
    by_class: dict[Hashable, list[int]] = {key: [] for key in order}
    for card in cards:
        by_class[signatures[card.number]].append(card.number)
    return PoolState(tuple(tuple(sorted(by_class[key])) for key in order))


_POOLS: dict[tuple[Hashable, ...], Pool] = {}


def pool_for(inp: CardInput, reads: Reads, played: tuple[int, ...] = ()) -> Pool:
    """The pool of ``inp`` read as ``reads`` (cached per input and reading). ``played``: cards
    the attack itself put on the table (its FIRE cards): out of the pool and of a reshuffle."""
    deck = inp.deck_data()
    key = (
        id(deck),
        inp.pool,
        inp.hand,
        inp.seen,
        inp.pile,
        inp.in_play,
        inp.opponent_hand,
        inp.reshuffle,
        reads,
        played,
    )
    found = _POOLS.get(key)
    if found is not None and found.data is deck:
        return found
    hand = set(inventory_numbers("hand", inp.hand, deck))
    seen = set(inventory_numbers("seen", inp.seen, deck))
    in_play = set(inventory_numbers("in_play", inp.in_play, deck))
    opponent = set(inventory_numbers("opponent_hand", inp.opponent_hand, deck))
    pile = inventory_numbers("pile", inp.pile, deck)
    for name, numbers in (("seen", seen), ("in_play", in_play), ("opponent_hand", opponent)):
        clash = sorted(numbers & hand)
        if clash:
            raise InputError(name, "cards not in your hand", clash[0])
    hand -= set(played)  # played from the hand onto the table
    in_play |= set(played)
    if inp.pool == "observer":  # pile and opponent_hand empty: the input model's rule
        out, back = hand | seen | in_play, hand | in_play
        left = [c for c in deck.cards if c.number not in out]
        refill = [c for c in deck.cards if c.number not in back]
    else:  # a pile given: the input model's rule
        out = hand | in_play | opponent
        clash = sorted(set(pile) & out)
        if clash:
            raise InputError("pile", "cards in no hand and not in play", clash[0])
        left = [deck.card(n) for n in pile]
        refill = [c for c in deck.cards if c.number not in out]
    if not left and not refill:
        raise RuleError(_("no card is left to draw: every card is in a hand or in play"))
    signatures = {card.number: reads(card) for card in deck.cards}
    order = list(dict.fromkeys(signatures.values()))  # the deck's order of first sight
    pool = Pool(
        deck,
        reads,
        _classes(left, signatures, order),
        _classes(refill, signatures, order),
        inp.reshuffle,
        lambda card: reads.describe(card, deck.columns),
    )
    if len(_POOLS) > 256:
        _POOLS.clear()
    _POOLS[key] = pool
    return pool


def men_by_id(data: MenData, field_name: str, ids: Sequence[str]) -> tuple[str, ...]:
    """Personality ids of ``data`` (repeats allowed: two cards of the same personality), one
    or more; one-line errors listing the ids."""
    for man_id in ids:
        if man_id not in data.ids:
            raise InputError(
                field_name,
                _("ids of {source}: {values}").format(
                    source=data.source, values=", ".join(data.ids)
                ),
                man_id,
            )
    if not ids:
        raise InputError(
            field_name, _("one or more ids of {source}").format(source=data.source), shown(ids)
        )
    return tuple(ids)
