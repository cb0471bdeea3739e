"""Integer options of the commands that are not a procedure's input (``serve --port``,
``sweep --workers``): read as every number firefight reads, ASCII digits only and bounded.

Click's own ``INT`` takes ``int(text)``, which accepts ``1_0``, `` 3`` and other scripts'
digits; a procedure's options already go through :func:`firefight.digits.read_integer`.
"""

from __future__ import annotations

from collections.abc import Callable

import typer

from firefight.digits import read_integer


def ascii_integer(low: int, high: int) -> Callable[[object], int]:
    """A Typer ``parser``: an integer from ``low`` to ``high`` written in ASCII digits, or
    Click's one-line refusal (``main`` adds the value given)."""

    def parse(value: object) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number: int | None = value  # a default, already a number
        else:
            number = read_integer(str(value))
        if number is None or not low <= number <= high:
            refused = typer.BadParameter(f"must be an integer from {low} to {high}")
            refused.given = value if number is None else number  # type: ignore[attr-defined]
            raise refused  # an argument's value is not found in the command line by its name
        return number

    return parse
