"""Writing a picture: the file is written whole or not at all (:func:`save_whole`). A board's
picture (:mod:`firefight.board.render`: deterministic output, fixed DPI) makes an unwritable
target a user error; a chart drawn from results (the journal's luck, an engagement's curve)
names a ``.png`` or ``.svg`` file in an existing folder (:func:`chart_target`).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import TYPE_CHECKING

from firefight.errors import InputError
from firefight.translation import gettext as _

if TYPE_CHECKING:
    from matplotlib.figure import Figure


DPI = 150


CHART_KINDS = ("png", "svg")
"""The file kinds a chart drawn from results is written as."""


def save_whole(
    figure: Figure, target: Path, kind: str, *, dpi: int = DPI, transparent: bool | None = None
) -> None:
    """Save next to the target, then move into place: no half-written file is left behind
    (an SVG carries no date, so the same figure gives the same file). ``transparent`` left
    ``None`` is matplotlib's default."""
    temporary = target.with_name(f".{target.name}.{os.getpid()}.part")
    try:
        metadata: dict[str, str | None] = {"Date": None} if kind == "svg" else {}
        figure.savefig(temporary, format=kind, dpi=dpi, metadata=metadata, transparent=transparent)
        temporary.replace(target)
    except BaseException:
        _remove(temporary)
        raise


def write_picture(
    figure: Figure, target: Path, kind: str, *, dpi: int = DPI, transparent: bool = False
) -> None:
    """:func:`save_whole`, where a place that cannot be written (no such folder, no
    permission, ``/proc``) is the user's error, in one line."""
    try:
        save_whole(figure, target, kind, dpi=dpi, transparent=transparent)
    except OSError as error:
        raise _unwritable(target, error.strerror) from None


def chart_target(path: Path | str) -> Path:
    """A chart's picture file: a ``.png`` or ``.svg`` in an existing folder (checked before any
    work is done)."""
    target = Path(path)
    if target.suffix.lower().lstrip(".") not in CHART_KINDS:
        raise InputError("out", "a file ending in .png or .svg", str(target))
    if not target.parent.is_dir():
        raise InputError("out", "a file in an existing folder", str(target))
    return target


def check_writable(target: Path) -> None:
    """Refuse at once (before drawing) a picture that cannot be written where asked."""
    if not target.parent.is_dir():
        raise _unwritable(target, "no such folder")
    if target.is_dir():
        raise _unwritable(target, "it is a folder")
    if not os.access(target.parent, os.W_OK):
        raise _unwritable(target, "the folder cannot be written to")


def _unwritable(target: Path, reason: str | None) -> InputError:
    return InputError(
        "out",
        _("a file in an existing folder that can be written ({reason})").format(
            reason=reason or _("error")
        ),
        str(target),
    )


def _remove(temporary: Path) -> None:
    with contextlib.suppress(OSError):  # nothing was written there
        temporary.unlink(missing_ok=True)
