"""A move's attacks as phases that know their exact odds (V&V 13.8, 13.9, 14.6, 18 in a move).

A move's exact odds take each phase's distribution of next states from every state the move
reaches (:class:`~firefight.chance.process.Phases`). An attack written as one rule procedure
(who is in the hex, the roll, the owner's allocation of the CPs) would be evaluated by the
engine's prefix replay once per state and phase: the same 2d6 on the same row and the same
allocation replayed for every state that reaches the hex and every firer. A
:class:`ShotPhase` is that procedure (run as written on a chance: sampled, replayed with the
player's dice, asked) with its exact kernel built from parts that are each computed once:

* ``aim(state)``: what the phase does before it rolls, without chance: nothing (``None``),
  or the state it rolls from (its marks set) and an :class:`Aimed`: the roll's exact odds and,
  for each result, the states it leads to;
* the roll's odds depend on the attack's input alone (the firepower, the modifiers, the
  target's cover: :class:`~firefight.rulesets.vv.ap.VvApAttack`, the lane markers, the AT
  attack), never on the state, so they come from caches keyed by that input
  (:func:`~firefight.rulesets.vv.opportunity.cp_odds`, :meth:`ShotCache.odds`);
* the CPs of a hit applied to the moving units (:func:`~.move_state.apply_cps`) read the
  state only through the hex entered (``at``), the units hit and their own :class:`Mover`
  states, and change nothing else: :meth:`ShotCache.hit` evaluates the allocation exactly once
  per (hex, units, their states, CPs) in one move and splices the outcome into each state.

So the kernel of a phase is the same exact distribution the procedure's own evaluation gives
(a roll whose result changes no state, a valor check or a sniper's Elimination Check, merges
away there and is left out here); the tests check both Fraction for Fraction. The attacks of
one hex are one phase (:class:`HexPhases`: the others do nothing there), and the phases that
seldom roll (entering a hex, a minefield, settling) are run once where they roll nothing
(:class:`SteadyPhase`). Kernels are integer weights over one denominator, as the state engine
sums them (:meth:`~firefight.chance.process.KnownPhase.integer_kernel`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import gcd, lcm
from typing import TYPE_CHECKING, Any, TypeVar

from firefight.chance import Chance, exact
from firefight.chance.distribution import Distribution
from firefight.chance.limits import Budget
from firefight.chance.process import IntKernel, KnownPhase, integer_kernel
from firefight.rulesets.vv.move_state import Mover, MoveState, Phase, apply_cps
from firefight.rulesets.vv.movement import MovePlan

if TYPE_CHECKING:
    import numpy as np

    from firefight.chance.batch import Sampler
    from firefight.rulesets.vv.attack_memo import AttackMemo

ONE = Fraction(1)
Outcomes = Sequence[tuple[MoveState, Fraction]]
HitKey = tuple[int, tuple[int, ...], tuple[Mover, ...], int]
S = TypeVar("S")


@dataclass(eq=False)
class ShotCache:
    """One move's cache (one plan: its stack, path, board and allocator): each roll's odds by
    the key of its input (:meth:`odds`) and each hit's outcome (:meth:`hit`), as integer
    weights over one denominator (:data:`~firefight.chance.process.IntKernel`); ``memo``: the
    lines and attacks judged on the board, where paths share them
    (:class:`~.attack_memo.AttackMemo`; none by default); each attack's kernels by the
    attack's key (:meth:`kernels`)."""

    plan: MovePlan
    _odds: dict[Hashable, IntKernel[Any]] = field(default_factory=dict)
    _hits: dict[HitKey, IntKernel[tuple[Mover, ...]]] = field(default_factory=dict)
    memo: AttackMemo | None = None
    _kernels: dict[Hashable, dict[MoveState, IntKernel[MoveState]]] = field(default_factory=dict)

    def kernels(self, key: Hashable) -> dict[MoveState, IntKernel[MoveState]]:
        """The exact kernels, by state, of the attack named by ``key`` (a
        :class:`ShotPhase`'s own): ``key`` must name all the attack reads besides the state and
        what :meth:`hit` reads (the hex entered and its index, the roll's input, the firer),
        so that the phases of paths that share this cache's stores share them."""
        found = self._kernels.get(key)
        if found is None:
            found = self._kernels[key] = {}
        return found

    def odds(self, key: Hashable, roll: Callable[[Chance], Hashable]) -> IntKernel[Any]:
        """The exact odds of ``roll``, a procedure of the roll's input named by ``key``
        alone (computed the first time the key is asked)."""
        found = self._odds.get(key)
        if found is None:
            found = integer_kernel(exact(roll).items())
            self._odds[key] = found
        return found

    def hit(self, state: MoveState, targets: Sequence[int], cps: int) -> IntKernel[MoveState]:
        """The exact states after ``cps`` CPs on the moving units ``targets`` in ``state``
        (:func:`~.move_state.apply_cps`, the owner's allocation included), from the outcome
        cached for the hex, the units hit and their states."""
        if not cps or not targets:
            return 1, ((state, 1),)
        chosen = tuple(targets)
        key = (state.at, chosen, tuple(state.movers[i] for i in chosen), cps)
        found = self._hits.get(key)
        if found is None:
            merged: dict[tuple[Mover, ...], Fraction] = {}
            after = exact(lambda chance: apply_cps(self.plan, state, list(chosen), cps, chance))
            for s, p in after.items():
                movers = tuple(s.movers[i] for i in chosen)
                merged[movers] = merged.get(movers, Fraction(0)) + p
            found = integer_kernel(merged.items())
            self._hits[key] = found
        denominator, items = found
        return denominator, tuple((_spliced(state, chosen, m), w) for m, w in items)


def _spliced(state: MoveState, targets: tuple[int, ...], movers: tuple[Mover, ...]) -> MoveState:
    everyone = list(state.movers)
    for i, mover in zip(targets, movers, strict=True):
        everyone[i] = mover
    return state._replace(movers=tuple(everyone))


@dataclass(frozen=True)
class Aimed:
    """A phase's roll: its exact ``odds`` (integer weights) and ``then``, the exact states
    each result leads to."""

    odds: IntKernel[Any]
    then: Callable[[Any], IntKernel[MoveState]]


def cps_on(
    cache: ShotCache, state: MoveState, targets: Sequence[int], odds: IntKernel[int]
) -> Aimed:
    """A roll of ``odds`` CPs on ``targets`` (:meth:`ShotCache.hit`)."""
    return Aimed(odds, lambda cps: cache.hit(state, targets, cps))


def _chain(
    current: Mapping[S, int], denominator: int, step: Callable[[S], IntKernel[MoveState]]
) -> IntKernel[MoveState]:
    """The masses ``current`` (over ``denominator``) carried on by ``step``'s kernel from each,
    equal states merged, over their common denominator reduced."""
    kernels = [(mass, step(before)) for before, mass in current.items()]
    common = lcm(*(k[0] for _, k in kernels))
    following: dict[MoveState, int] = {}
    get = following.get
    for mass, (kernel_denominator, items) in kernels:
        scaled = mass * (common // kernel_denominator)
        for after, weight in items:
            following[after] = get(after, 0) + scaled * weight
    total = denominator * common
    divisor = gcd(total, *following.values())
    return total // divisor, tuple((s, m // divisor) for s, m in following.items())


def _fractions(weights: IntKernel[MoveState]) -> Outcomes:
    denominator, items = weights
    return tuple((s, Fraction(w, denominator)) for s, w in items)


@dataclass(frozen=True, eq=False)
class ShotPhase(KnownPhase[MoveState]):
    """A phase run as the rule procedure ``procedure`` on a chance, its exact kernel from
    ``aim`` (see the module's docstring); ``aim`` and ``procedure`` read the state the same
    way (the procedure calls the same ``aim``)."""

    procedure: Phase
    aim: Callable[[MoveState], Aimed | None]
    _weights: dict[MoveState, IntKernel[MoveState]] = field(default_factory=dict, repr=False)
    _samplers: dict[MoveState, Sampler[MoveState]] = field(default_factory=dict, repr=False)

    def __call__(self, state: MoveState, chance: Chance) -> MoveState:
        return self.procedure(state, chance)

    def weights(self, state: MoveState) -> IntKernel[MoveState]:
        """The exact kernel from ``state`` as integer weights (cached per state)."""
        found = self._weights.get(state)
        if found is None:
            aimed = self.aim(state)
            if aimed is None:
                found = 1, ((state, 1),)
            else:
                denominator, items = aimed.odds
                found = _chain(dict(items), denominator, aimed.then)
            self._weights[state] = found
        return found

    def kernel(self, state: MoveState) -> Outcomes:
        return _fractions(self.weights(state))

    def integer_kernel(
        self, state: MoveState, budget: Budget | None = None
    ) -> IntKernel[MoveState]:
        del budget  # a shot's odds are one cached distribution: no states of its own
        return self.weights(state)

    def draw(
        self, state: MoveState, runs: int, rng: np.random.Generator
    ) -> Iterable[tuple[MoveState, int]]:
        return _draw(self, self._samplers, state, runs, rng)


@dataclass(frozen=True, eq=False)
class HexPhases(KnownPhase[MoveState]):
    """The phases of the hex entered, in order: ``by_hex[state.at]`` (a phase of another hex
    does nothing in this one, so the others are not visited). Its exact kernel chains theirs,
    equal states merged between them, as one phase each would."""

    by_hex: Mapping[int, tuple[ShotPhase, ...]]
    _samplers: dict[MoveState, Sampler[MoveState]] = field(default_factory=dict, repr=False)

    def __call__(self, state: MoveState, chance: Chance) -> MoveState:
        for phase in self.by_hex.get(state.at, ()):
            state = phase(state, chance)
        return state

    def kernel(self, state: MoveState) -> Outcomes:
        return _fractions(self.integer_kernel(state))

    def integer_kernel(
        self, state: MoveState, budget: Budget | None = None
    ) -> IntKernel[MoveState]:
        del budget  # a shot's odds are one cached distribution: no states of its own
        weights: IntKernel[MoveState] = 1, ((state, 1),)
        for phase in self.by_hex.get(state.at, ()):
            weights = _chain(dict(weights[1]), weights[0], phase.weights)
        return weights

    def draw(
        self, state: MoveState, runs: int, rng: np.random.Generator
    ) -> Iterable[tuple[MoveState, int]]:
        return _draw(self, self._samplers, state, runs, rng)


def by_hex(phases: Iterable[tuple[int, ShotPhase]]) -> HexPhases:
    """``(hex index, phase)`` pairs, each doing nothing but in its hex, as one phase
    (:class:`HexPhases`), their order kept within each hex."""
    grouped: dict[int, list[ShotPhase]] = {}
    for index, phase in phases:
        grouped.setdefault(index, []).append(phase)
    return HexPhases({index: tuple(found) for index, found in grouped.items()})


def _draw(
    phase: KnownPhase[MoveState],
    samplers: dict[MoveState, Sampler[MoveState]],
    state: MoveState,
    runs: int,
    rng: np.random.Generator,
) -> list[tuple[MoveState, int]]:
    """Where ``runs`` runs in ``state`` go, drawn from the phase's exact kernel."""
    sampler = samplers.get(state)
    if sampler is None:
        from firefight.chance.batch import Sampler  # noqa: PLC0415 - numpy when sampled

        sampler = Sampler.of(Distribution(iter(phase.kernel(state))))
        samplers[state] = sampler
    counts = sampler.counts(runs, rng)
    return [(s, int(k)) for s, k in zip(sampler.outcomes, counts, strict=True) if k]


class _Random(Exception):  # noqa: N818 - a signal, not an error
    """The procedure asked for a roll, a count or a draw."""


class _Steady:
    """A chance for a procedure that seldom rolls: notes go nowhere, any event stops it."""

    def roll(self, dice: object, label: str) -> int:
        raise _Random

    def count(self, dice: object, test: object, label: str) -> int:
        raise _Random

    def check(self, dice: object, test: object, label: str) -> bool:
        raise _Random

    def draw(self, deck: object, label: str) -> str:
        raise _Random

    def note(self, label: str, value: str) -> None:
        """Notes matter to a trace only."""


@dataclass(frozen=True, eq=False)
class SteadyPhase(KnownPhase[MoveState]):
    """A phase that rolls in few states (entering a hex, a minefield's attack, settling pins
    and stacking): its kernel from one run of ``procedure`` where it rolls nothing, else from
    the engine's exact evaluation of it (the same distribution: a run without an event is the
    only one)."""

    procedure: Phase
    _samplers: dict[MoveState, Sampler[MoveState]] = field(default_factory=dict, repr=False)

    def __call__(self, state: MoveState, chance: Chance) -> MoveState:
        return self.procedure(state, chance)

    def kernel(self, state: MoveState) -> Outcomes:
        try:
            return ((self.procedure(state, _STEADY), ONE),)
        except _Random:
            return tuple(exact(lambda chance: self.procedure(state, chance)).items())

    def integer_kernel(
        self, state: MoveState, budget: Budget | None = None
    ) -> IntKernel[MoveState]:
        del budget  # a shot's odds are one cached distribution: no states of its own
        kernel = self.kernel(state)
        return (1, ((kernel[0][0], 1),)) if len(kernel) == 1 else integer_kernel(kernel)

    def draw(
        self, state: MoveState, runs: int, rng: np.random.Generator
    ) -> Iterable[tuple[MoveState, int]]:
        return _draw(self, self._samplers, state, runs, rng)


_STEADY = _Steady()
