"""What the commands of the ``firefight`` CLI share: the ``--json`` option, JSON on standard
output, and text Rich must show as is."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

JsonOption = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]


def escape(text: str) -> str:
    """Text shown as is by Rich: charts print brackets ("[minus one]") that are not markup."""
    from rich.markup import escape as rich_escape  # noqa: PLC0415 - lazy: fast start-up

    return rich_escape(text)


def emit(data: object) -> None:
    """``data`` as indented JSON on standard output (``--json``)."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def complete_ruleset(incomplete: str) -> list[str]:
    """Shell completion of a rule set's id: the ids starting with what was typed, read from
    the rule sets' metadata (no game's procedures imported)."""
    from firefight.rulesets import infos  # noqa: PLC0415 - lazy: fast start-up

    typed = incomplete.casefold()
    return [info.id for info in infos() if info.id.casefold().startswith(typed)]
