"""The data files an Up Front player supplies (``RuleSet.files``): the deck and the
personalities, each named by a procedure's ``deck`` or ``men`` field (docs/upfront.md)."""

from __future__ import annotations

from firefight.i18n import N_
from firefight.rulesets.datafile import DataFile
from firefight.rulesets.upfront.cards import UPLOADED_DECKS, deck_file
from firefight.rulesets.upfront.editing import DECK_EDITOR, MEN_EDITOR
from firefight.rulesets.upfront.loader import MAX_FILE_BYTES, MAX_VALUES, DataFileError
from firefight.rulesets.upfront.men import UPLOADED_MEN_FILES, men_file

__all__ = ["DECK", "FILES", "MEN"]

DECK = DataFile(
    field="deck",
    text_field="deck_toml",
    what=N_("deck"),
    uploads=UPLOADED_DECKS,
    max_bytes=MAX_FILE_BYTES,
    max_values=MAX_VALUES,
    error=DataFileError,
    shipped_label=lambda: deck_file("illustrative").label,
    doc="docs/upfront.md",
    editor=DECK_EDITOR,
)
MEN = DataFile(
    field="men",
    text_field="men_toml",
    what=N_("personality file"),
    uploads=UPLOADED_MEN_FILES,
    max_bytes=MAX_FILE_BYTES,
    max_values=MAX_VALUES,
    error=DataFileError,
    shipped_label=lambda: men_file("illustrative").label,
    doc="docs/upfront.md",
    editor=MEN_EDITOR,
)
FILES = (DECK, MEN)
"""Every Up Front procedure's input (:class:`~.pool.CardInput`) names both."""
