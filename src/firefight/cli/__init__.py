"""The ``firefight`` command (Typer + Rich).

Every command takes ``--json`` (shapes in DESIGN.md, "Machine-readable output"). A user error
is one line on stderr and exit code 2. Anything else that goes wrong is a bug in firefight: one
line saying so and exit code 70 (``EX_SOFTWARE``); ``FIREFIGHT_DEBUG=1`` or ``firefight
--debug ...`` shows its traceback instead. Heavy imports wait until a command needs them, so
that ``firefight --help`` starts fast; this package itself imports no command-line library.

:func:`main` tries the fast dispatch of ``odds GAME PROCEDURE --field value ...`` first
(:mod:`.fast`: no Typer imported), else runs the Typer application (:mod:`.running`). The
application and its wiring are in :mod:`.application`, the procedure commands in :mod:`.odds`,
the listings in :mod:`.listing`, ``serve`` in :mod:`.serve`, the help's translation in
:mod:`.help` and the wording of errors in :mod:`.errors`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from importlib import import_module
from typing import TYPE_CHECKING

from firefight.cli.plugins import VARIABLE

if TYPE_CHECKING:
    import typer

    from firefight.cli.errors import BUG_EXIT
    from firefight.cli.help import HELP_CHROME, help_texts, print_help

    app: typer.Typer
    """The application with every command (:func:`~firefight.cli.application.full`)."""

PLUGINS_VARIABLE = VARIABLE
"""pydantic's switch for its plugins (:data:`.plugins.VARIABLE`)."""
_LAZY = {
    "BUG_EXIT": "firefight.cli.errors",
    "HELP_CHROME": "firefight.cli.help",
    "help_texts": "firefight.cli.help",
    "print_help": "firefight.cli.help",
}
"""Names this package offers from modules that import Typer, imported when first asked for."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; user errors are one line on stderr and exit code 2, a bug one line and
    exit code 70 (its traceback with ``--debug`` or ``FIREFIGHT_DEBUG=1``)."""
    args = list(sys.argv[1:] if argv is None else argv)
    from firefight.cli.fast import dispatched  # noqa: PLC0415 - lazy: fast start-up

    code = dispatched(args)
    if code is not None:
        return code
    from firefight.cli.running import main as typed  # noqa: PLC0415 - Typer, when needed

    return typed(args)


def __getattr__(name: str) -> object:
    """``app`` (the whole application, made when first asked for: a run makes the command it
    runs alone) and the names of :data:`_LAZY`."""
    if name == "app":
        from firefight.cli.application import full  # noqa: PLC0415

        return full()
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    msg = f"module {__name__!r} has no attribute {name!r}"
    raise AttributeError(msg)


def run() -> None:
    """Console-script entry point (and ``python -m firefight``): pydantic's plugins off unless
    the user has set :data:`PLUGINS_VARIABLE` himself; with every plugin off, pydantic's plugin
    loader left unread (:mod:`.plugins`)."""
    os.environ.setdefault(PLUGINS_VARIABLE, "__all__")
    from firefight.cli.plugins import install  # noqa: PLC0415 - the console script's alone

    install()
    sys.exit(main())


__all__ = ["BUG_EXIT", "HELP_CHROME", "app", "help_texts", "main", "print_help", "run"]
