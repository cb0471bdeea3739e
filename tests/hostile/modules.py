"""Every module of the firefight package imported, so every loader registers (also imported by
the runner, a script, as a sibling module)."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

import firefight

NOT_IMPORTED = ("firefight.__main__", "firefight.journal.migrations")
"""Modules not imported by the walk: ``__main__`` runs the CLI, the migrations are Alembic's
scripts (run inside Alembic only)."""


@cache
def every_module() -> tuple[str, ...]:
    """Import every module of the firefight package; their names."""
    names = []
    for found in pkgutil.walk_packages(firefight.__path__, "firefight."):
        if found.name.startswith(NOT_IMPORTED):
            continue
        importlib.import_module(found.name)
        names.append(found.name)
    return tuple(names)
