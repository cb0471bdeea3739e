"""Every error firefight reports to a user derives from :class:`FirefightError`.

A user error is one line that names the field, the allowed values and the value given, e.g.
``'target_movement' must be one of none, tactical, normal, force_march (got 'fast')``.
The CLI prints it and exits with code 2; nothing else about it is shown. The words are in the
active language (:mod:`firefight.translation`, which imports nothing of firefight: the errors
sit above it and below :mod:`firefight.i18n`); the field's name and the values stay as typed.
"""

from __future__ import annotations

from collections.abc import Iterable
from difflib import get_close_matches

from firefight.translation import gettext as _
from firefight.translation import phrase

QUOTED_MAX = 80
"""At most this many characters of a value given are quoted in an error line (README, "The
command line"): a 10,000-character option or JSON value must not become a 10,000-character
error."""


def quoted(value: object, limit: int = QUOTED_MAX) -> str:
    """``repr(value)``, cut to ``limit`` characters with an ellipsis; a string stays quoted
    (``'aaaa…'``)."""
    shown = repr(value)
    if len(shown) <= limit:
        return shown
    if isinstance(value, str):
        cut = value[:limit]
        while cut and len(repr(cut + "…")) > limit:  # escapes (\x00) are longer than one
            cut = cut[:-1]
        return repr(cut + "…")
    return shown[: limit - 1] + "…"


def one_of(values: Iterable[object]) -> str:
    """What a field allows when it is a list: ``one of none, light`` (in the active language)."""
    return _("one of {values}").format(values=", ".join(str(v) for v in values))


class FirefightError(Exception):
    """Base class of the errors that firefight reports to a user as one line."""


def prefixed(value: str, options: Iterable[str]) -> str | None:
    """The option ``value`` names: itself in any case, else the one option it begins (``adj``
    names ``adjacent``); ``None`` when it names none or begins several."""
    wanted = value.casefold()
    listed = list(options)
    for option in listed:
        if option.casefold() == wanted:
            return option
    begun = [option for option in listed if wanted and option.casefold().startswith(wanted)]
    return begun[0] if len(begun) == 1 else None


def closest(value: object, options: Iterable[object]) -> str | None:
    """The option most like ``value`` as typed (``fyre`` -> ``fire``), if one is close."""
    if not isinstance(value, str):
        return None
    texts = {str(option).casefold(): str(option) for option in options}
    found = get_close_matches(value.casefold(), list(texts), n=1, cutoff=0.6)
    return texts[found[0]] if found else None


class InputError(FirefightError):
    """A value given for a named field is not allowed. Where ``options`` are given (the field
    is a choice), the line ends by suggesting the closest, if one is close.

    ``allowed`` is a message of the catalogue: a literal phrase (the extraction takes the
    second argument of ``InputError(...)`` and ``ScriptError(...)``, translated here), or one
    already worded (``_("an integer from 1 to {top}").format(top=...)``, :func:`one_of`)."""

    def __init__(
        self, field: str, allowed: str, got: object, options: Iterable[object] = ()
    ) -> None:
        self.field = field
        self.allowed = allowed
        self.got = got
        line = _("'{field}' must be {allowed} (got {got})").format(
            field=field, allowed=phrase(allowed), got=quoted(got)
        )
        suggested = closest(got, options)
        if suggested is not None and suggested != got:
            line = _("{error}; did you mean {option}?").format(error=line, option=quoted(suggested))
        super().__init__(line)


class RuleError(FirefightError):
    """The input is well formed but the rules forbid the action (e.g. no column to fire on)."""


class ChartError(FirefightError):
    """A chart data file is malformed."""


class ScriptError(InputError):
    """Dice or cards supplied by the player cannot be used by the procedure."""
