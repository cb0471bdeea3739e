"""The action deck (``deck.toml``): one entry per printed card, validated on load.

Up Front has no dice: every random result is read from the next card of the draw pile, its
Random Number (RN, 0-6, black or red) and its row of ten Random Position Numbers (RPN, each
black or red, under column labels printed once per deck; the flow charts' "RPC(7)", "RPC(0)",
"0r", "2b", "4c", "5o" name such columns). The printed values are not public: the player
supplies his deck; ``data/illustrative/deck.toml`` is an ILLUSTRATIVE deck (format and
assumptions in docs/upfront.md), never the published values.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from firefight.core.files import loader
from firefight.rulesets.upfront.loader import (
    FileCache,
    Reader,
    Uploads,
    read_data_file,
    read_data_text,
)
from firefight.rulesets.upfront.paths import ILLUSTRATIVE_DECK

__all__ = [
    "CARD_KINDS",
    "COLOURS",
    "NATIONALITIES",
    "RN_HIGHEST",
    "RPN_COLUMNS",
    "STATED_COMPOSITION",
    "UPLOADED_DECK",
    "UPLOADED_DECKS",
    "Card",
    "DeckData",
    "Number",
    "deck_file",
    "deck_from_text",
    "load_deck",
]

Colour = Literal["black", "red"]
COLOURS: tuple[Colour, ...] = ("black", "red")
RN_HIGHEST = 6
"""An RN is 0 to 6 (FACTS.md, Up Front: card anatomy)."""
RPN_HIGHEST = 9
"""An RPN is printed 0 to 9 (the charts' "RPC 0r=1-5" and "6-0" bands: 0 reads as the top)."""
RPN_COLUMNS = 10
"""Ten RPNs per card (FACTS.md)."""
CARD_KINDS = (
    "terrain",
    "movement",
    "fire",
    "rally",
    "concealed",
    "smoke",
    "wire",
    "hero",
    "sniper",
    "split",
    "radio",
    "other",
)
"""Kinds a card may be; the first ten are the 162-card deck's (FACTS.md), radio the
expansions' (flow chart page 5), other any further kind."""
STATED_COMPOSITION: dict[str, int] = {
    "terrain": 35,
    "movement": 26,
    "fire": 48,
    "rally": 19,
    "concealed": 14,
    "smoke": 4,
    "wire": 3,
    "hero": 2,
    "sniper": 4,
    "split": 7,
}
"""The 162 action cards of the basic game (FACTS.md: rulebook 2.2 and a deck listing)."""
NATIONALITIES = ("german", "american", "british", "russian", "japanese", "french", "italian")


@dataclass(frozen=True, slots=True)
class Number:
    """A printed number and its colour (an RN or one RPN)."""

    value: int
    colour: Colour

    @property
    def red(self) -> bool:
        """Printed red."""
        return self.colour == "red"

    def __str__(self) -> str:
        return f"{self.value} {self.colour}"


@dataclass(frozen=True, slots=True)
class Card:
    """One printed action card. ``value`` is its fire strength (fire), cover (terrain, the
    negative number printed) or concealment value (concealed); ``modifier`` the circled
    firing modifier of a terrain card; ``kia`` a KIA number, only for the reading that KIA is
    printed on the action card (``kia_on = "card"``, docs/upfront.md)."""

    number: int
    kind: str
    rn: Number
    rpn: tuple[Number, ...]
    value: int | None = None
    modifier: int | None = None
    breeze: bool = False
    split: tuple[tuple[str, str], ...] = ()
    kia: int | None = None
    name: str = ""

    @property
    def id(self) -> str:
        """The inventory number as the chance engine's card name (``"17"``)."""
        return str(self.number)

    def rpn_at(self, column: int) -> Number:
        """The RPN printed in ``column`` (0-9, as the charts' "RPC(7)" reads it)."""
        return self.rpn[column]


@dataclass(frozen=True)
class DeckData:
    """A whole deck: its cards by inventory number, its column labels, whether illustrative."""

    source: str
    title: str
    cards: tuple[Card, ...]
    columns: tuple[str, ...]
    illustrative: bool
    note: str
    composition: tuple[tuple[str, int], ...]

    def card(self, number: int) -> Card:
        """A card by inventory number (KeyError if there is none)."""
        return self._by_number()[number]

    def _by_number(self) -> dict[int, Card]:
        cached: dict[int, Card] | None = self.__dict__.get("_index")
        if cached is None:
            cached = {c.number: c for c in self.cards}
            object.__setattr__(self, "_index", cached)
        return cached

    def has(self, number: int) -> bool:
        """Whether the deck holds the card with this inventory number."""
        return number in self._by_number()

    @property
    def label(self) -> str:
        """How the deck is shown: its title, and ILLUSTRATIVE when it is not the published one."""
        return (
            f"ILLUSTRATIVE deck ({self.title}), not the published values"
            if (self.illustrative)
            else self.title
        )


_CARD_REQUIRED = {"number", "kind", "rn", "rpn"}
_CARD_OPTIONAL = {"value", "modifier", "breeze", "split", "kia", "name"}
_TOP = {"title", "illustrative", "note", "columns", "composition", "card"}
MAX_CARDS = 1000
"""The most cards a deck file may hold (the basic deck has 162; expansions add some)."""


def _number(reader: Reader, entry: str, field: str, value: object, highest: int) -> Number:
    """``"4r"`` / ``"4b"``: a printed number and its colour (r red, b black)."""
    must = f'a number 0 to {highest} and its colour, e.g. "4r" (red) or "4b" (black)'
    if not isinstance(value, str) or len(value) != 2 or value[1] not in "rb":
        raise reader.fail(entry, field, must, value)
    digit = value[0]
    if digit not in "0123456789" or int(digit) > highest:
        raise reader.fail(entry, field, must, value)
    return Number(int(digit), "red" if value[1] == "r" else "black")


def _card(reader: Reader, position: int, raw: object) -> Card:
    if not isinstance(raw, dict):
        raise reader.fail(f"card #{position}", "card", "a table ([[card]])", raw)
    entry = f"card #{position}"
    if "number" in raw:
        number = reader.integer(entry, "number", raw["number"], 1, 9999)
        entry = f"card {number}"
    reader.keys(entry, raw, _CARD_REQUIRED, _CARD_OPTIONAL)
    number = reader.integer(entry, "number", raw["number"], 1, 9999)
    kind = reader.choice(entry, "kind", raw["kind"], CARD_KINDS)
    rn = _number(reader, entry, "rn", raw["rn"], RN_HIGHEST)
    rpns = reader.array(entry, "rpn", raw["rpn"], RPN_COLUMNS)
    rpn = tuple(
        _number(reader, entry, f"rpn[{i}]", item, RPN_HIGHEST) for i, item in enumerate(rpns)
    )
    value = raw.get("value")
    if value is not None:
        value = reader.integer(entry, "value", value, -9, 20)
    elif kind in ("fire", "terrain", "concealed"):
        raise reader.fail(entry, "value", f"given for a {kind} card", None)
    modifier = raw.get("modifier")
    if modifier is not None:
        modifier = reader.integer(entry, "modifier", modifier, -9, 9)
    breeze = reader.flag(entry, "breeze", raw.get("breeze", False))
    split: tuple[tuple[str, str], ...] = ()
    if "split" in raw:
        table = reader.table(entry, "split", raw["split"])
        if kind != "split" or len(table) < 2:
            raise reader.fail(
                entry, "split", "two or more nationality = action pairs, on a split card", table
            )
        pairs = []
        for nation, action in table.items():
            reader.choice(entry, "split", nation, NATIONALITIES)
            pairs.append((nation, reader.choice(entry, f"split.{nation}", action, CARD_KINDS)))
        split = tuple(sorted(pairs))
    elif kind == "split":
        raise reader.fail(entry, "split", "given for a split card (nationality = action)", None)
    kia = raw.get("kia")
    if kia is not None:
        kia = reader.integer(entry, "kia", kia, 0, 30)
    name = reader.text(entry, "name", raw["name"]) if "name" in raw else ""
    return Card(number, kind, rn, rpn, value, modifier, breeze, split, kia, name)


def _shipped_deck() -> str:
    """The shipped deck file's text: the loader's valid example."""
    return ILLUSTRATIVE_DECK.read_text(encoding="utf-8")


@loader("deck", ".toml", _shipped_deck, ("odds", "upfront", "artillery", "--deck", "{path}"))
def load_deck(path: Path) -> DeckData:
    """Load and validate a deck file; the first problem is one :class:`DataFileError` line."""
    return _deck(read_data_file(path, "a deck file"), path.name)


UPLOADED_DECK = "uploaded deck"
"""How errors and facts name a deck that came as text (the web's upload), not as a file."""


def deck_from_text(text: str) -> DeckData:
    """Load and validate a deck given as TOML text (the web's uploaded file), with the file
    loader's checks and limit; errors name ``uploaded deck``, the card and the field."""
    return _deck(read_data_text(text, UPLOADED_DECK, "a deck file"), UPLOADED_DECK)


UPLOADED_DECKS: Uploads[DeckData] = Uploads(deck_from_text)
"""Uploaded decks by content hash (``deck = "uploaded:SHA256"``, set by the web only)."""


def _deck(data: dict[str, object], source: str) -> DeckData:
    reader = Reader(source)
    reader.keys("", data, {"title", "card"}, _TOP - {"title", "card"})
    title = reader.text("", "title", data["title"], 120)
    illustrative = reader.flag("", "illustrative", data.get("illustrative", False))
    note = data.get("note", "")
    if not isinstance(note, str) or len(note) > 2000:
        raise reader.fail("", "note", "text of at most 2000 characters", note)
    columns_raw = reader.array("", "columns", data.get("columns", list(map(str, range(10)))), 10)
    columns = tuple(reader.text("", f"columns[{i}]", c, 8) for i, c in enumerate(columns_raw))
    raw_cards = reader.array("", "card", data["card"], None)
    if not 1 <= len(raw_cards) <= MAX_CARDS:
        raise reader.fail("", "card", f"1 to {MAX_CARDS} [[card]] entries", len(raw_cards))
    cards: list[Card] = []
    seen: set[int] = set()
    for position, raw in enumerate(raw_cards, 1):
        card = _card(reader, position, raw)
        if card.number in seen:
            raise reader.fail(f"card {card.number}", "number", "unique in the deck", card.number)
        seen.add(card.number)
        cards.append(card)
    composition: tuple[tuple[str, int], ...] = ()
    if "composition" in data:
        table = reader.table("", "composition", data["composition"])
        stated = {
            reader.choice("", "composition", kind, CARD_KINDS): reader.integer(
                "", f"composition.{kind}", count, 0, MAX_CARDS
            )
            for kind, count in table.items()
        }
        counted = {kind: sum(1 for c in cards if c.kind == kind) for kind in CARD_KINDS}
        for kind in CARD_KINDS:
            if counted[kind] != stated.get(kind, 0):
                raise reader.fail(
                    "",
                    f"composition.{kind}",
                    f"the number of {kind} cards in the file ({counted[kind]})",
                    stated.get(kind, 0),
                )
        composition = tuple((k, n) for k, n in stated.items())
    cards.sort(key=lambda c: c.number)
    return DeckData(source, title, tuple(cards), columns, illustrative, note, composition)


_FILES: FileCache[DeckData] = FileCache("a deck file", ILLUSTRATIVE_DECK, load_deck)


def deck_file(name: str) -> DeckData:
    """The deck a procedure's ``deck`` field names: ``illustrative`` (the shipped file) or a
    path; loaded once per file version (path, size, modification time). A deck the web
    registered from uploaded text (:data:`UPLOADED_DECKS`) is found by its ``uploaded:`` name."""
    uploaded = UPLOADED_DECKS.get(name)
    if uploaded is not None:
        return uploaded
    return _FILES(name)
