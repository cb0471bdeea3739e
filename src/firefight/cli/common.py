"""What the commands of the ``firefight`` CLI share: the ``--json`` option, JSON on standard
output, and text Rich must show as is."""

from __future__ import annotations

from typing import Annotated

import typer

from firefight.cli.output import emit, escape

JsonOption = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]


def complete_ruleset(incomplete: str) -> list[str]:
    """Shell completion of a rule set's id: the ids starting with what was typed, read from
    the rule sets' metadata (no game's procedures imported)."""
    from firefight.rulesets import infos  # noqa: PLC0415 - lazy: fast start-up

    typed = incomplete.casefold()
    return [info.id for info in infos() if info.id.casefold().startswith(typed)]


__all__ = ["JsonOption", "complete_ruleset", "emit", "escape"]
