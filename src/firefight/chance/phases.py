"""A step made of phases, and exact odds as integer weights (:mod:`firefight.chance.process`).

:class:`Phases` runs its phases one after the other on one chance; the state engine builds
its exact kernel phase by phase, equal states merged between phases, and a
:class:`KnownPhase` gives its own exact successors and batch draws. A horizon and a phased
step add integer weights over one denominator (:data:`IntKernel`, :class:`Weights`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import TYPE_CHECKING, Generic, TypeVar

from firefight.chance.distribution import Distribution
from firefight.chance.protocol import Chance

if TYPE_CHECKING:
    import numpy as np

    from firefight.chance.limits import Budget

S = TypeVar("S", bound=Hashable)
T = TypeVar("T")

IntKernel = tuple[int, tuple[tuple[S, int], ...]]
"""A kernel as integer weights over one denominator, ``(denominator, ((state, weight), ...))``:
a horizon and a phased step add and multiply integers, not ``Fraction`` objects."""


def integer_kernel(items: Iterable[tuple[S, Fraction]]) -> IntKernel[S]:
    """``items`` (exact probabilities) as integer weights over their least common denominator."""
    pairs = tuple(items)
    denominator = lcm(*(p.denominator for _, p in pairs))
    return denominator, tuple((s, p.numerator * (denominator // p.denominator)) for s, p in pairs)


@dataclass(frozen=True)
class Weights(Generic[S]):
    """A distribution over states as integer masses over one denominator (a step of
    :meth:`Process.weights`): sums over states stay integer sums."""

    masses: dict[S, int]
    denominator: int

    def probability(self, predicate: Callable[[S], bool]) -> Fraction:
        """The exact probability of the states where ``predicate`` holds."""
        return Fraction(sum(m for s, m in self.masses.items() if predicate(s)), self.denominator)

    def distribution(self) -> Distribution[S]:
        """The same distribution as :class:`Distribution`."""
        return Distribution({s: Fraction(m, self.denominator) for s, m in self.masses.items()})


class KnownPhase(Generic[T]):
    """A phase of :class:`Phases` that knows its own odds, without an exact evaluation of its
    procedure per state: its exact successors (:meth:`kernel`) and a batch draw of many runs'
    successors (:meth:`draw`), both of which must agree with calling it on a chance (as when
    the phase's chance is one cached distribution, e.g. a rule procedure's odds, mapped onto
    the state)."""

    def __call__(self, state: T, chance: Chance) -> T:
        """The phase run on ``chance`` (sampled or replayed)."""
        raise NotImplementedError

    def kernel(self, state: T) -> Sequence[tuple[T, Fraction]]:
        """The phase's exact distribution of next states from ``state``."""
        raise NotImplementedError

    def draw(self, state: T, runs: int, rng: np.random.Generator) -> Iterable[tuple[T, int]]:
        """Where ``runs`` runs in ``state`` go, drawn with ``rng``: ``(state, how many)``."""
        raise NotImplementedError

    def integer_kernel(self, state: T, budget: Budget | None = None) -> IntKernel[T]:
        """:meth:`kernel` as integer weights over one denominator, as the state engine sums
        them (a phase that holds its odds as integer weights gives them as they are); a phase
        that expands states of its own within it spends ``budget`` as it goes."""
        del budget
        return integer_kernel(self.kernel(state))


@dataclass(frozen=True)
class Phases(Generic[S]):
    """A step made of phases run one after the other (each unit's fire in a turn, then the
    rally phase): called, it runs them in order on one ``chance``, so a sampled or replayed
    step is the phases' events in order. Its exact kernel is built phase by phase, each
    phase's kernel cached per state and equal states merged between phases, instead of one
    prefix replay across every phase's events (whose cost multiplies phase by phase).

    ``within`` names a step in the error raised when the states within one step pass the
    process's limit (``"turn"``: "states within one turn"); ``None``, the default, sets no
    limit there. A phase that is a :class:`KnownPhase` gives its own kernel and batch draws."""

    phases: tuple[Callable[[S, Chance], S], ...]
    within: str | None = None

    def enter(self, state: S) -> S:
        """The phases' state at the start of a step: the step's state itself."""
        return state

    def leave(self, inner: S) -> S:
        """The step's state at the end of the phases: theirs."""
        return inner

    def __call__(self, state: S, chance: Chance) -> S:
        for phase in self.phases:
            state = phase(state, chance)
        return state


@dataclass(frozen=True)
class Staged(Generic[S, T]):
    """:class:`Phases` over a state of their own within the step (``T``): ``enter`` makes it
    from the step's state (say, the state the turn started from and the state now),
    ``leave`` gives the step's state back; exact kernels, limits and batch draws as for
    :class:`Phases`."""

    enter: Callable[[S], T]
    phases: tuple[Callable[[T, Chance], T], ...]
    leave: Callable[[T], S]
    within: str | None = None

    def __call__(self, state: S, chance: Chance) -> S:
        inner = self.enter(state)
        for phase in self.phases:
            inner = phase(inner, chance)
        return self.leave(inner)
