"""pydantic's plugin loader left unread while every pydantic plugin is off.

pydantic imports its plugin loader (``pydantic.plugin._loader``) when it builds its first model,
and that module imports :mod:`importlib.metadata` (to read the installed packages' entry
points) as it is imported, whether or not a plugin is on. With every plugin off (the console
script's default, :data:`VARIABLE`), the loader's answer is known: no
plugin. :func:`install` puts a finder first on :data:`sys.meta_path` that gives, for that
module alone, a stand-in whose ``get_plugins`` answers as pydantic's would: none while the
variable turns every plugin off, else pydantic's own loader's answer, that module imported
then. Any other name of the module is read from pydantic's loader, imported then too. Nothing
is in :data:`sys.modules` until pydantic asks for it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from importlib import import_module
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from importlib.abc import Loader

LOADER = "pydantic.plugin._loader"
VARIABLE = "PYDANTIC_DISABLE_PLUGINS"
"""pydantic's switch for its plugins: set, pydantic skips its scan of every installed package's
entry points when it builds its first model (firefight uses no pydantic plugin)."""
ALL_OFF = ("__all__", "1", "true")
"""The values of :data:`VARIABLE` that turn every plugin off (pydantic's own list)."""


def _pydantics() -> ModuleType:
    """pydantic's own loader, imported (the stand-in and this finder out of the way)."""
    if isinstance(sys.modules.get(LOADER), StandIn):
        del sys.modules[LOADER]
    for finder in [f for f in sys.meta_path if isinstance(f, Finder)]:
        sys.meta_path.remove(finder)
    return import_module(LOADER)


class StandIn(ModuleType):
    """The loader's stand-in: ``get_plugins`` as pydantic's, any other name pydantic's."""

    def get_plugins(self) -> Iterable[object]:
        if os.environ.get(VARIABLE) in ALL_OFF:
            return ()
        found: Iterable[object] = _pydantics().get_plugins()
        return found

    def __getattr__(self, name: str) -> object:
        if name.startswith("__"):  # the import system's questions (``__path__``): a module
            raise AttributeError(name)
        return getattr(_pydantics(), name)


class Finder:
    """The meta path finder (and loader) of the stand-in, for :data:`LOADER` alone, while
    every plugin is off."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> ModuleSpec | None:
        if name != LOADER or os.environ.get(VARIABLE) not in ALL_OFF:
            return None
        return ModuleSpec(name, cast("Loader", self))  # a loader by its methods

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        return StandIn(spec.name, "pydantic's plugin loader, unread: every plugin is off")

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the stand-in is whole."""


def install() -> None:
    """The finder first on :data:`sys.meta_path` (once), unless pydantic's loader is already
    imported."""
    if LOADER in sys.modules or any(isinstance(f, Finder) for f in sys.meta_path):
        return
    sys.meta_path.insert(0, Finder())
