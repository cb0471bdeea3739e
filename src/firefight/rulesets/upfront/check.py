"""A whole deck or personality file checked (``firefight deck check``, the web's editor page):
every problem, one line each, not only the first that the loader stops at.

The check is the loader itself (:mod:`.cards`, :mod:`.men`): an entry is read, and when a
field fails, the problem is kept, the field is put right with a stand-in (a required field) or
taken out (an optional one) and the entry read again, until it reads; the file is then read
whole the same way (its title, its composition, numbers given twice). So the editor, the
command and the procedures can never disagree on what a valid file is. A deck is then counted
against the 162 cards of the basic game (:data:`~.cards.STATED_COMPOSITION`).
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from typing import Any, TypeVar

from firefight.i18n import gettext as _
from firefight.rulesets.datafile import Checked, Problem
from firefight.rulesets.upfront.cards import (
    CARD_KINDS,
    STATED_COMPOSITION,
    _card,
    _deck,
)
from firefight.rulesets.upfront.loader import DataFileError, Reader, read_data_text
from firefight.rulesets.upfront.men import _man, _men

__all__ = ["BASIC_DECK", "check_deck", "check_men"]

BASIC_DECK = sum(STATED_COMPOSITION.values())
"""The cards of the basic game's deck (162)."""
TRIES = 64
"""The most problems kept for one entry (or the file's own fields) before it is given up."""

T = TypeVar("T")
Raw = dict[str, Any]

_CARD_STAND_IN: Raw = {"number": 1, "kind": "other", "rn": "0b", "rpn": ["0b"] * 10}
_CARD_FILL: Raw = {"value": 0, "split": {"german": "fire", "american": "fire"}}
"""What a card is given for a field its kind needs and it lacks (``value``, ``split``)."""
_MAN_STAND_IN: Raw = {
    "id": "man",
    "nationality": "german",
    "rank": "private",
    "weapon": "rifle",
    "firepower": [0] * 6,
    "morale": 0,
    "panic": 0,
    "rout": 0,
}
_FILE_STAND_IN: Raw = {"title": "file"}


def _problem(error: DataFileError) -> Problem:
    return Problem(error.entry, error.field, str(error), missing=error.got is None)


def _top(error: DataFileError) -> str:
    """The entry's field that ``error`` is about (``rpn`` for ``rpn[3]``, ``afv`` for a field
    of the AFV's table)."""
    if "." in error.entry:  # a nested table's own keys: "man x.afv"
        return error.entry.split(".", 1)[1].split(".")[0]
    return error.field.split(".")[0].split("[")[0]


def _repair(raw: Raw, error: DataFileError, stand_in: Raw, fill: Raw) -> bool:
    """Put ``raw``'s failing field right (a stand-in, what its kind needs, or taken out);
    ``False`` when nothing is left to put right."""
    top = _top(error)
    index = error.field[len(top) :]
    given = raw.get(top)
    if index.startswith("[") and top in stand_in and isinstance(given, list):
        at = int(index[1:].split("]")[0])
        if at < len(given) and given[at] != stand_in[top][0]:
            given[at] = stand_in[top][0]
            return True
    if top in stand_in:
        if given == stand_in[top]:
            return False
        raw[top] = copy.deepcopy(stand_in[top])
        return True
    if top in fill and given != fill[top]:
        raw[top] = copy.deepcopy(fill[top])
        return True
    if top in raw:
        del raw[top]
        return True
    return False


def _read_all(
    read: Callable[[Raw], T], raw: Raw, stand_in: Raw, fill: Raw, problems: list[Problem]
) -> tuple[T | None, Raw]:
    """``read(raw)``, each failing field kept in ``problems`` and put right, until it reads
    (what it read and the entry as put right) or nothing more can be put right (``None``)."""
    raw = copy.deepcopy(raw)
    for _try in range(TRIES):
        try:
            return read(raw), raw
        except DataFileError as error:
            problems.append(_problem(error))
            if not _repair(raw, error, stand_in, fill):
                break
    return None, raw


def _entries(
    data: Raw,
    array: str,
    reader: Reader,
    *,
    read: Callable[[Reader, int, object], Any],
    stand_in: Callable[[int], Raw],
    problems: list[Problem],
) -> list[Raw] | None:
    """Every entry of ``data[array]`` read and put right (entries that are no table left out),
    or ``None`` when the array itself is missing or is none."""
    given = data.get(array)
    if not isinstance(given, list):
        return None
    kept: list[Raw] = []
    for position, entry in enumerate(given, 1):
        if not isinstance(entry, dict):
            try:
                read(reader, position, entry)
            except DataFileError as error:
                problems.append(_problem(error))
            continue
        fill = _CARD_FILL if array == "card" else {}
        read_one, fixed = _read_all(
            functools.partial(read, reader, position),
            entry,
            stand_in(position),
            fill,
            problems,
        )
        if read_one is not None:
            kept.append(fixed)
    return kept


def _whole(
    data: Raw, array: str, key: str, read: Callable[[Raw], T], problems: list[Problem]
) -> T | None:
    """The file read whole once its entries are right: its own fields put right, an entry
    whose ``key`` was given before left out."""
    data = dict(data)
    for _try in range(TRIES):
        try:
            return read(data)
        except DataFileError as error:
            problems.append(_problem(error))
            entries = data.get(array)
            if error.field == key and error.entry and isinstance(entries, list):
                twice = [i for i, e in enumerate(entries) if e.get(key) == error.got]
                data[array] = [e for i, e in enumerate(entries) if i != twice[-1]]
            elif error.entry or not _repair(data, error, _FILE_STAND_IN, {}):
                return None
    return None


def _parse(text: str, source: str, problems: list[Problem]) -> Raw | None:
    try:
        return read_data_text(text, source, _("a data file"))
    except DataFileError as error:
        problems.append(Problem("", "", str(error)))
        return None


def _numbered(position: int) -> Raw:
    return {**_CARD_STAND_IN, "number": 9999 - position}


def check_deck(text: str, source: str, partial: bool = False) -> Checked:
    """Every problem of the deck ``text`` (named ``source``), then its cards counted by kind
    against the 162-card deck: each kind short or over is a problem, only those over when
    ``partial`` (a deck still being typed)."""
    problems: list[Problem] = []
    data = _parse(text, source, problems)
    if data is None:
        return Checked(tuple(problems), 0)
    reader = Reader(source)
    cards = _entries(data, "card", reader, read=_card, stand_in=_numbered, problems=problems)
    if cards is None:
        _whole(data, "card", "number", lambda d: _deck(d, source), problems)
        return Checked(tuple(problems), 0)
    deck = _whole({**data, "card": cards}, "card", "number", lambda d: _deck(d, source), problems)
    read = deck.cards if deck is not None else ()
    counts = {kind: sum(1 for c in read if c.kind == kind) for kind in CARD_KINDS}
    for kind, stated in STATED_COMPOSITION.items():
        if counts[kind] > stated or (counts[kind] < stated and not partial):
            message = _(
                "{source}: the {total}-card deck has {stated} {kind} cards (got {count})"
            ).format(source=source, total=BASIC_DECK, stated=stated, kind=kind, count=counts[kind])
            problems.append(Problem("", kind, message))
    return Checked(
        tuple(problems),
        len(read),
        tuple((k, n) for k, n in counts.items() if n or k in STATED_COMPOSITION),
        tuple(STATED_COMPOSITION.items()),
    )


def check_men(text: str, source: str, partial: bool = False) -> Checked:
    """Every problem of the personality file ``text`` (named ``source``); a file of men has no
    stated count, so ``partial`` changes nothing."""
    problems: list[Problem] = []
    data = _parse(text, source, problems)
    if data is None:
        return Checked(tuple(problems), 0)
    reader = Reader(source)
    men = _entries(
        data,
        "man",
        reader,
        read=_man,
        stand_in=lambda at: {**_MAN_STAND_IN, "id": f"man-{at}"},
        problems=problems,
    )
    if men is None:
        _whole(data, "man", "id", lambda d: _men(d, source), problems)
        return Checked(tuple(problems), 0)
    read = _whole({**data, "man": men}, "man", "id", lambda d: _men(d, source), problems)
    found = read.men if read is not None else ()
    ranks: dict[str, int] = {}
    for man in found:
        ranks[man.rank] = ranks.get(man.rank, 0) + 1
    return Checked(tuple(problems), len(found), tuple(ranks.items()))
