"""Writing a board's picture: the file is written whole or not at all, and an
unwritable target is a user error (:mod:`firefight.board.render`: deterministic output, fixed
DPI).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import TYPE_CHECKING

from firefight.errors import InputError

if TYPE_CHECKING:
    from matplotlib.figure import Figure


DPI = 150


def write_picture(
    figure: Figure, target: Path, kind: str, *, dpi: int = DPI, transparent: bool = False
) -> None:
    """Save next to the target, then move into place: no half-written file is left behind.

    A place that cannot be written (no such folder, no permission, ``/proc``) is the user's
    error, in one line."""
    temporary = target.with_name(f".{target.name}.{os.getpid()}.part")
    try:
        metadata: dict[str, str | None] = {"Date": None} if kind == "svg" else {}
        figure.savefig(temporary, format=kind, dpi=dpi, metadata=metadata, transparent=transparent)
        temporary.replace(target)
    except OSError as error:
        _remove(temporary)
        raise _unwritable(target, error.strerror) from None
    except BaseException:
        _remove(temporary)
        raise


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
        f"a file in an existing folder that can be written ({reason or 'error'})",
        str(target),
    )


def _remove(temporary: Path) -> None:
    with contextlib.suppress(OSError):  # nothing was written there
        temporary.unlink(missing_ok=True)
