"""What the commands print through, with no command-line library imported: JSON on standard
output, and text Rich must show as is (the fast dispatch of ``odds`` prints through these)."""

from __future__ import annotations

import json
import sys


def escape(text: str) -> str:
    """Text shown as is by Rich: charts print brackets ("[minus one]") that are not markup."""
    from rich.markup import escape as rich_escape  # noqa: PLC0415 - lazy: fast start-up

    return rich_escape(text)


def emit(data: object) -> None:
    """``data`` as indented JSON on standard output (``--json``)."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
