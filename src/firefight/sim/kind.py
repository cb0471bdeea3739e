"""What a sweep computes at each cell (a *cell kind*), and the error that names a spec's
mistake: the pieces the spec reader, the grid and every kind share (:mod:`firefight.sim.cells`
holds the kinds by name)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from firefight.chance.distribution import Distribution
from firefight.errors import FirefightError

Scalar = str | int | float | bool
"""One value of a spec's inputs or axes."""


class SpecError(FirefightError):
    """A sweep specification cannot be used: one line naming the file and the place."""

    def __init__(self, source: str, place: str, problem: str) -> None:
        self.source = source
        self.place = place
        super().__init__(f"{source}: {place}: {problem}" if place else f"{source}: {problem}")


class CellKind(Protocol):
    """The thing computed at each cell of a sweep."""

    def describe(self) -> dict[str, object]:
        """What the cells compute, for the summary (``{"ruleset": …, "procedure": …}``)."""
        ...

    def outcomes(self) -> Sequence[str]:
        """The outcomes declared in order (the default statistics); empty when unknown."""
        ...

    def cell(self, values: Mapping[str, object]) -> Any:  # noqa: ANN401 - each kind its own input
        """The validated input of one cell; an ``InputError`` names the field at fault."""
        ...

    def exact(self, cell: Any) -> Distribution[str]:  # noqa: ANN401 - the input ``cell`` made
        """The exact distribution of the cell's outcomes."""
        ...

    def sample(self, cell: Any, n: int, seed: int) -> Counter[str]:  # noqa: ANN401
        """How often each outcome came up in ``n`` samples drawn from ``seed`` (the same seed
        always gives the same counts)."""
        ...


@dataclass(frozen=True)
class KindFactory:
    """A cell kind's name in specs, its own top-level keys, and how to build it."""

    keys: tuple[str, ...]
    build: Callable[[Mapping[str, Scalar], str], CellKind]
