"""The language a command line asks for, read with no command-line library imported (the
fast dispatch of ``odds`` reads it as the Typer application does)."""

from __future__ import annotations

import os
from collections.abc import Sequence

from firefight.i18n import LANGUAGE_VARIABLE, SOURCE


def language_of(args: Sequence[str]) -> str:
    """The language asked for: ``--lang`` among the global options (before the command), else
    ``$FIREFIGHT_LANG``, else English; a language firefight does not speak is a user error."""
    from firefight.i18n import checked  # noqa: PLC0415

    position = 0
    while position < len(args) and args[position].startswith("-"):
        name, _sep, inline = args[position].partition("=")
        if name == "--lang":
            if inline:
                return checked(inline)
            if position + 1 < len(args):
                return checked(args[position + 1])
        position += 1
    return checked(os.environ.get(LANGUAGE_VARIABLE) or SOURCE, LANGUAGE_VARIABLE)
