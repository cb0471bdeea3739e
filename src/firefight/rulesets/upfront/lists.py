"""The lists an Up Front input takes: men by id (``firers``, ``targets``, ...) and cards by
inventory number (``hand``, ``fire_cards``, ...), typed fields of the input models.

Each is a tuple (of ids, of integers) validated once in the input model: a list (JSON, the
Python API) or today's comma-separated text (the CLI, the web's forms: ``ger-lmg,ger-rifle-1``,
``3,17,88``), split here. Whether an id is in the men file or a number in the deck is the
data file's to say, where the rule reads the file (:func:`.pool.men_by_id`,
:func:`.pool.inventory_numbers`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from pydantic import BeforeValidator, ValidationInfo

from firefight.errors import InputError
from firefight.translation import N_, thousands
from firefight.translation import gettext as _

__all__ = ["LIST_TEXT_MAX", "CardNumbers", "ManIds", "shown", "split"]

LIST_TEXT_MAX = 2000
"""The longest list a field takes, as comma-separated text (characters)."""
IDS_ALLOWED = N_("ids from the men file, comma-separated")
NUMBERS_ALLOWED = N_("inventory numbers, comma-separated, each once")


def shown(values: Sequence[object]) -> str:
    """A list as the player writes it: ``ger-lmg,ger-rifle-1``, ``3,17``."""
    return ",".join(str(v) for v in values)


def split(text: str) -> tuple[str, ...]:
    """Comma-separated text's entries, stripped, blanks dropped (``"a, b,,c"``: a, b, c)."""
    return tuple(token.strip() for token in text.split(",") if token.strip())


def _entries(value: object, field: str, allowed: str) -> list[object]:
    """The entries of a list given as text (split at commas, blanks dropped) or as a list."""
    if isinstance(value, str):
        if len(value) > LIST_TEXT_MAX:
            raise InputError(
                field,
                _("{allowed}, at most {list_text_max} characters").format(
                    allowed=allowed, list_text_max=thousands(LIST_TEXT_MAX)
                ),
                value,
            )
        return list(split(value))
    if isinstance(value, list | tuple) and len(value) <= LIST_TEXT_MAX:
        return list(value)
    raise InputError(field, allowed, value)


def _ids(value: object, info: ValidationInfo) -> tuple[str, ...]:
    field = info.field_name or "ids"
    ids = []
    for entry in _entries(value, field, IDS_ALLOWED):
        if not isinstance(entry, str) or not entry.strip() or "," in entry:
            raise InputError(field, IDS_ALLOWED, entry)
        ids.append(entry.strip())
    return tuple(ids)


def _numbers(value: object, info: ValidationInfo) -> tuple[int, ...]:
    field = info.field_name or "numbers"
    numbers: list[int] = []
    for entry in _entries(value, field, NUMBERS_ALLOWED):
        if isinstance(entry, str) and entry.isascii() and entry.isdigit():
            number = int(entry)
        elif type(entry) is int and entry >= 0:
            number = entry
        else:
            raise InputError(field, NUMBERS_ALLOWED, entry)
        if number in numbers:
            raise InputError(field, NUMBERS_ALLOWED, entry)
        numbers.append(number)
    return tuple(numbers)


ManIds = Annotated[tuple[str, ...], BeforeValidator(_ids)]
"""Men by personality id, in order (an id may repeat: two cards of one personality)."""
CardNumbers = Annotated[tuple[int, ...], BeforeValidator(_numbers)]
"""Cards by inventory number, each once."""
