"""What running a process asks of it: the step, where it stops, its name and its caches.

:class:`~firefight.chance.process.Process` is the one implementation; the modules that run it
(:mod:`~firefight.chance.absorbing`, :mod:`~firefight.chance.sampling`,
:mod:`~firefight.chance.horizon`) read it through :class:`Stepped`, so that they need not
import the module that imports them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from firefight.chance.batch import Sampler
    from firefight.chance.limits import Budget
    from firefight.chance.phases import IntKernel
    from firefight.chance.protocol import Chance

S = TypeVar("S", bound=Hashable)

Kernel = tuple[tuple[S, Fraction], ...]
"""A step's exact distribution from one state: each next state with its probability."""


class Stepped(Protocol[S]):
    """A process as the modules that run it see it."""

    @property
    def step(self) -> Callable[[S, Chance], S]: ...

    @property
    def terminal(self) -> Callable[[S], bool]: ...

    @property
    def name(self) -> str: ...

    @property
    def _kernels(self) -> dict[S, Kernel[S]]: ...

    @property
    def _samplers(self) -> dict[tuple[int, Hashable], Sampler[Any]]: ...

    @property
    def _phase_kernels(self) -> dict[tuple[int, Hashable], IntKernel[Any]]: ...

    def kernel(self, state: S) -> Kernel[S]: ...

    def _phase_kernel(
        self,
        index: int,
        phase: Callable[[Any, Chance], Any],
        state: Hashable,
        budget: Budget | None = None,
    ) -> IntKernel[Any]: ...
