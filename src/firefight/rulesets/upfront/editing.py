"""How the editor page types the deck and the personality cards, field by field (format in
docs/upfront.md; the fields and their bounds are the loaders', :mod:`.cards` and :mod:`.men`)."""

from __future__ import annotations

from firefight.i18n import N_
from firefight.rulesets.datafile import EntryField, FileEditor
from firefight.rulesets.upfront.cards import (
    CARD_KINDS,
    NATIONALITIES,
    RN_HIGHEST,
    RPN_COLUMNS,
    RPN_HIGHEST,
)
from firefight.rulesets.upfront.check import check_deck, check_men
from firefight.rulesets.upfront.men import CREW_ROLES, RANGES, RANKS, WEAPONS

__all__ = ["DECK_EDITOR", "MEN_EDITOR"]

COLOURS = (("b", N_("black")), ("r", N_("red")))
"""A printed number's colours: the letter written in ``deck.toml`` and its word."""

DECK_FIELDS = (
    EntryField("number", N_("Inventory number"), "integer", True, low=1, high=9999),
    EntryField("rn", N_("RN"), "coloured", True, high=RN_HIGHEST, colours=COLOURS),
    EntryField(
        "rpn",
        N_("RPN"),
        "coloured_row",
        True,
        high=RPN_HIGHEST,
        count=RPN_COLUMNS,
        colours=COLOURS,
    ),
    EntryField("kind", N_("Kind"), "choice", True, choices=CARD_KINDS),
    EntryField(
        "value",
        N_("Value"),
        "integer",
        low=-9,
        high=20,
        hint=N_("fire strength, terrain cover or concealment"),
    ),
    EntryField("modifier", N_("Terrain modifier"), "integer", low=-9, high=9),
    EntryField("breeze", N_("BREEZE"), "flag"),
    EntryField(
        "split",
        N_("Split actions"),
        "pairs",
        choices=NATIONALITIES,
        hint=N_("nationality=action, e.g. german=fire american=movement"),
    ),
    EntryField("kia", N_("KIA on the card"), "integer", low=0, high=30),
    EntryField("name", N_("Name"), "text"),
)
"""A deck card's fields (``[[card]]`` in ``deck.toml``), as the loader reads them."""
MEN_FIELDS = (
    EntryField("id", N_("Id"), "text", True, hint=N_("no spaces, commas or '='")),
    EntryField("name", N_("Name"), "text"),
    EntryField("nationality", N_("Nationality"), "choice", True, choices=NATIONALITIES),
    EntryField("rank", N_("Rank"), "choice", True, choices=RANKS),
    EntryField("weapon", N_("Weapon"), "choice", True, choices=WEAPONS),
    EntryField(
        "firepower",
        N_("Firepower by range"),
        "integers",
        True,
        high=30,
        count=RANGES,
        hint=N_("six values, RR 0 (long) to 5 (point blank)"),
    ),
    EntryField("bracketed", N_("Bracketed firepower"), "integers", high=30, count=RANGES),
    EntryField("morale", N_("Morale"), "integer", True, high=10),
    EntryField("panic", N_("Panic"), "integer", True, high=10),
    EntryField("rout", N_("Rout"), "integer", True, high=10),
    EntryField("malfunction", N_("Malfunction"), "integer", high=RN_HIGHEST),
    EntryField("crew", N_("Crew"), "choice", choices=CREW_ROLES),
    EntryField("kia", N_("KIA"), "integer", high=30),
    EntryField("to_hit", N_("To hit by range"), "integers", high=10, count=RANGES),
)
"""A personality card's fields (``[[man]]`` in ``men.toml``), as the loader reads them."""

DECK_EDITOR = FileEditor("card", N_("card"), DECK_FIELDS, "number", check_deck, N_("my deck"))
MEN_EDITOR = FileEditor(
    "man", N_("personality"), MEN_FIELDS, "id", check_men, N_("my personalities")
)
