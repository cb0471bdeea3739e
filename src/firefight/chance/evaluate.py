"""The three ways to evaluate a procedure: exactly, sampled with a seed, or scripted.

Exact evaluation re-runs the procedure once per branch: a replaying ``Chance`` answers the
events it has been told and, at the first event it has not, stops the run with that event's
distribution, so that every value of it is explored in turn. Equal outcomes are merged.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from fractions import Fraction
from itertools import accumulate
from math import lcm
from typing import TYPE_CHECKING, Literal, TypeVar

from firefight.chance.asked import ask_in_force, asked, read_face
from firefight.chance.distribution import Distribution
from firefight.chance.events import Deck, Dice, Weights
from firefight.chance.protocol import CHOICE_MARK, Chance, Resolution, TraceEvent
from firefight.digits import read_integer
from firefight.errors import InputError, ScriptError, one_of
from firefight.translation import gettext, ngettext, thousands

if TYPE_CHECKING:
    import numpy as np

T = TypeVar("T", bound=Hashable)


class _Branch(BaseException):
    """Raised by the replaying chance at the first event it has no value for."""

    def __init__(self, branches: Weights) -> None:
        super().__init__()
        self.branches = branches


class _ChanceBase:
    def roll(self, dice: Dice, label: str) -> int:
        raise NotImplementedError

    def count(self, dice: Dice, test: Callable[[int], bool], label: str) -> int:
        raise NotImplementedError

    def check(self, dice: Dice, test: Callable[[int], bool], label: str) -> bool:
        """A roll, traced as one, then its test (the sampled and scripted ways)."""
        return test(self.roll(dice, label))

    def draw(self, deck: Deck, label: str) -> str:
        raise NotImplementedError

    def note(self, label: str, value: str) -> None:
        """Notes matter to a trace only."""


class _Replay(_ChanceBase):
    __slots__ = ("_position", "_prefix")

    def __init__(self, prefix: tuple[int | str, ...]) -> None:
        self._prefix = prefix
        self._position = 0

    def _next(self, branches: Callable[[], Weights]) -> int | str:
        if self._position < len(self._prefix):
            value = self._prefix[self._position]
            self._position += 1
            return value
        raise _Branch(branches())

    def roll(self, dice: Dice, label: str) -> int:
        return int(self._next(lambda: dice.total_weights))

    def count(self, dice: Dice, test: Callable[[int], bool], label: str) -> int:
        return int(self._next(lambda: dice.count_weights(test)))

    def check(self, dice: Dice, test: Callable[[int], bool], label: str) -> bool:
        return bool(self._next(lambda: dice.check_weights(test)))

    def draw(self, deck: Deck, label: str) -> str:
        return str(self._next(deck.draw_weights))


class WorkBudgetError(InputError):
    """Exact evaluation was stopped at the work budget in force (:func:`work_budget`)."""

    def __init__(self, steps: int) -> None:
        allowed = gettext("inputs whose exact odds take at most {steps} steps to work out")
        more = gettext("more than {steps}").format(steps=thousands(steps))
        super().__init__("input", allowed.format(steps=thousands(steps)), more)


class _Budget:
    __slots__ = ("left", "steps")

    def __init__(self, steps: int) -> None:
        self.steps = steps
        self.left = steps


_BUDGET: ContextVar[_Budget | None] = ContextVar("firefight_work_budget", default=None)


@contextmanager
def work_budget(steps: int) -> Iterator[None]:
    """Bound the work of every exact evaluation inside, together, to ``steps``: each run of
    a procedure costs the events it replays plus one (the time of a run grows with them).
    Past it, :class:`WorkBudgetError`. None is in force unless one is set (the CLI waits);
    the web server sets one per request, so that no request costs more than it allows."""
    token = _BUDGET.set(_Budget(steps))
    try:
        yield
    finally:
        _BUDGET.reset(token)


def work_left() -> int | None:
    """The steps left of the :func:`work_budget` in force (``None``: none in force), so that
    a caller can tell what a computation spent."""
    budget = _BUDGET.get()
    return None if budget is None else budget.left


def spend(steps: int) -> None:
    """Pay ``steps`` of work out of the :func:`work_budget` in force (none: free), for an
    exact evaluation that does not run through :func:`exact`: a walk over states of its own
    (Up Front's draws without replacement) pays for the states it expands. Past the budget,
    :class:`WorkBudgetError`."""
    budget = _BUDGET.get()
    if budget is not None:
        budget.left -= steps
        if budget.left < 0:
            raise WorkBudgetError(budget.steps)


def exact(procedure: Callable[[Chance], T]) -> Distribution[T]:
    """Every outcome of ``procedure`` with its exact probability.

    A branch's probability is kept as an integer weight over an integer denominator (the
    product of its events' denominators); fractions are formed once per outcome at the end.
    Under a :func:`work_budget`, every run is paid for first.
    """
    results: dict[T, dict[int, int]] = {}
    pending: list[tuple[tuple[int | str, ...], int, int]] = [((), 1, 1)]
    budget = _BUDGET.get()
    while pending:
        prefix, weight, denominator = pending.pop()
        if budget is not None:
            budget.left -= len(prefix) + 1
            if budget.left < 0:
                raise WorkBudgetError(budget.steps)
        try:
            outcome = procedure(_Replay(prefix))
        except _Branch as branch:
            below = denominator * branch.branches.denominator
            pending.extend(
                ((*prefix, value), weight * w, below)
                for value, w in reversed(branch.branches.outcomes)
            )
            continue
        by_denominator = results.setdefault(outcome, {})
        by_denominator[denominator] = by_denominator.get(denominator, 0) + weight
    probabilities: dict[T, Fraction] = {}
    for outcome, parts in results.items():
        common = lcm(*parts)
        probabilities[outcome] = Fraction(sum(w * (common // d) for d, w in parts.items()), common)
    return Distribution(probabilities)


class Sampled(_ChanceBase):
    """Draws from a seeded ``numpy.random.Generator(PCG64(seed))`` and records a trace."""

    def __init__(self, rng: np.random.Generator) -> None:
        self._rng = rng
        self.trace: list[TraceEvent] = []

    def _faces(self, dice: Dice, n: int) -> tuple[int, ...]:
        if len(set(dice.weights)) == 1:
            picks = self._rng.integers(0, len(dice.faces), size=n)
            return tuple(dice.faces[int(i)] for i in picks)
        cumulative = list(accumulate(dice.weights))
        picks = self._rng.integers(0, cumulative[-1], size=n)
        return tuple(dice.faces[bisect_right(cumulative, int(u))] for u in picks)

    def roll(self, dice: Dice, label: str) -> int:
        faces = self._faces(dice, dice.count)
        total = sum(faces)
        self.trace.append(TraceEvent(label, total, "roll", faces))
        return total

    def count(self, dice: Dice, test: Callable[[int], bool], label: str) -> int:
        faces = self._faces(dice, dice.count)
        hits = sum(1 for face in faces if test(face))
        self.trace.append(TraceEvent(label, hits, "count", faces))
        return hits

    def draw(self, deck: Deck, label: str) -> str:
        position = int(self._rng.integers(0, deck.size))
        cumulative = list(accumulate(n for _, n in deck.cards))
        card = deck.cards[bisect_right(cumulative, position)][0]
        self.trace.append(TraceEvent(label, card, "draw"))
        return card

    def note(self, label: str, value: str) -> None:
        self.trace.append(TraceEvent(label, value, "note"))


def generator(seed: int) -> np.random.Generator:
    """The seeded generator behind every sampled resolution."""
    import numpy as np  # noqa: PLC0415 - numpy only where a resolution is sampled

    return np.random.Generator(np.random.PCG64(seed))


def sample(procedure: Callable[[Chance], T], seed: int) -> Resolution[T]:
    """One seeded resolution with its trace: same seed and input give the same trace."""
    chance = Sampled(generator(seed))
    outcome = procedure(chance)
    return Resolution(outcome, tuple(chance.trace), seed)


def sample_many(procedure: Callable[[Chance], T], seed: int, n: int) -> list[T]:
    """``n`` seeded outcomes from one generator (for statistics; traces are dropped)."""
    chance = Sampled(generator(seed))
    outcomes = []
    for _ in range(n):
        outcomes.append(procedure(chance))
        chance.trace.clear()
    return outcomes


ScriptMode = Literal["faces", "totals", "explicit"]


class Scripted(_ChanceBase):
    """Uses the values a player supplies: dice rolled at the table, cards drawn.

    ``faces``: a roll of several dice takes one value per die. ``totals``: it takes one value,
    the roll's total. ``explicit``: every value is one event, a roll's dice joined by ``+``
    (``3+4``) or its total (``7``). A pool of dice always takes its dice, one value each (joined
    by ``+`` in ``explicit``). :func:`scripted` chooses the mode.
    """

    def __init__(self, values: Sequence[int | str], mode: ScriptMode = "faces") -> None:
        self._values = [str(v).strip() for v in values]
        self._mode = mode
        self._position = 0
        self.trace: list[TraceEvent] = []

    @property
    def events_read(self) -> int:
        """How many random events have been read so far."""
        return sum(1 for event in self.trace if event.kind != "note")

    def _take(self, label: str, allowed: str) -> str:
        if self._position >= len(self._values):
            got = ",".join(self._values) if self._values else ""
            raise ScriptError(
                "roll",
                gettext("{allowed} for {label!r} too; ran out of values").format(
                    allowed=allowed, label=label
                ),
                got,
            )
        value = self._values[self._position]
        self._position += 1
        return value

    @staticmethod
    def _as_face(dice: Dice, token: str, label: str, allowed: str) -> int:
        return read_face(dice, token, label, allowed)

    def _faces(self, dice: Dice, label: str, allowed: str) -> tuple[int, ...]:
        if self._mode == "explicit" and dice.count > 1:
            token = self._take(label, allowed)
            parts = token.split("+")
            if len(parts) != dice.count:
                raise ScriptError(
                    "roll",
                    gettext("{allowed} for {label!r}").format(allowed=allowed, label=label),
                    token,
                )
            return tuple(self._as_face(dice, part, label, allowed) for part in parts)
        return tuple(
            self._as_face(dice, self._take(label, allowed), label, allowed)
            for _ in range(dice.count)
        )

    def roll(self, dice: Dice, label: str) -> int:
        face_text = f"{min(dice.faces)}..{max(dice.faces)}"
        if dice.count == 1:
            faces = self._faces(dice, label, gettext("a die of {faces}").format(faces=face_text))
            self.trace.append(TraceEvent(label, faces[0], "roll", faces))
            return faces[0]
        allowed = gettext("{count} dice of {faces} or a total of {totals}").format(
            count=dice.count, faces=face_text, totals=f"{min(dice.totals)}..{max(dice.totals)}"
        )
        explicit_total = (
            self._mode == "explicit"
            and self._position < len(self._values)
            and "+" not in self._values[self._position]
        )
        if self._mode == "totals" or explicit_total:
            token = self._take(label, allowed)
            total = _as_int(token)
            if total is None or total not in dice.totals:
                raise ScriptError(
                    "roll",
                    gettext("{allowed} for {label!r}").format(allowed=allowed, label=label),
                    token,
                )
            self.trace.append(TraceEvent(label, total, "roll"))
            return total
        faces = self._faces(dice, label, allowed)
        self.trace.append(TraceEvent(label, sum(faces), "roll", faces))
        return sum(faces)

    def count(self, dice: Dice, test: Callable[[int], bool], label: str) -> int:
        allowed = gettext("{count} dice of {faces}").format(
            count=dice.count, faces=f"{min(dice.faces)}..{max(dice.faces)}"
        )
        faces = self._faces(dice, label, allowed)
        hits = sum(1 for face in faces if test(face))
        self.trace.append(TraceEvent(label, hits, "count", faces))
        return hits

    def draw(self, deck: Deck, label: str) -> str:
        cards = [card for card, _ in deck.cards]
        allowed = one_of(cards)
        card = self._take(label, allowed)
        if deck.count(card) == 0:
            raise ScriptError(
                "roll",
                gettext("{allowed} for {label!r}").format(allowed=allowed, label=label),
                card,
            )
        self.trace.append(TraceEvent(label, card, "draw"))
        return card

    def note(self, label: str, value: str) -> None:
        self.trace.append(TraceEvent(label, value, "note"))

    def take_choice(self, purpose: str, options: Sequence[str]) -> str | None:
        """The option a value ``#N`` names where the next value is one (the replay of an asked
        run's choice, :func:`~firefight.chance.asked.choose`), traced as the choice; ``None``
        (nothing read) where the next value is a roll or there is none."""
        if self._position >= len(self._values):
            return None
        token = self._values[self._position]
        if not token.startswith(CHOICE_MARK):
            return None
        self._position += 1
        number = _as_int(token[len(CHOICE_MARK) :])
        if number is None or not 1 <= number <= len(options):
            allowed = gettext("{choice_mark}1..{choice_mark}{count} for {purpose!r}").format(
                choice_mark=CHOICE_MARK, count=len(options), purpose=purpose
            )
            raise ScriptError("roll", allowed, token)
        self.trace.append(TraceEvent(purpose, options[number - 1], "choice", (number,)))
        return options[number - 1]

    def finish(self) -> None:
        """Fail if values were left over: a typo must not pass unnoticed."""
        if self._position < len(self._values):
            used = self._position
            allowed = ngettext(
                "exactly the {used} value this resolution uses",
                "exactly the {used} values this resolution uses",
                used,
            ).format(used=used)
            raise ScriptError("roll", allowed, ",".join(self._values))


def _as_int(token: str) -> int | None:
    return read_integer(token)


def _attempt(
    procedure: Callable[[Chance], T], values: Sequence[str], mode: ScriptMode
) -> tuple[Resolution[T] | None, ScriptError | None, int]:
    chance = Scripted(values, mode)
    try:
        outcome = procedure(chance)
        chance.finish()
    except ScriptError as error:
        return None, error, chance.events_read
    return Resolution(outcome, tuple(chance.trace)), None, chance.events_read


def scripted(procedure: Callable[[Chance], T], values: Sequence[int | str]) -> Resolution[T]:
    """A resolution with the values the player rolled at the table.

    A value with ``+`` makes every value one event (``3+4,7``: a roll's dice, or its total).
    Otherwise the values are read both as single dice (``3,4``) and as totals (``7``); the
    reading that uses them all exactly is taken, and if both do and disagree the values are
    refused as ambiguous rather than guessed.

    The single value ``ask`` asks for each roll as it comes instead, through the
    :class:`~firefight.chance.asked.Ask` in force (:func:`~firefight.chance.asked.asking`);
    with none in force it is refused.
    """
    ask = ask_in_force(values)
    if ask is not None:
        return asked(procedure, ask)
    tokens = [str(v).strip() for v in values]
    if any("+" in token[1:] for token in tokens):
        resolution, error, _ = _attempt(procedure, tokens, "explicit")
        if resolution is None:
            raise error or ScriptError("roll", "values the procedure can use", ",".join(tokens))
        return resolution
    by_faces, faces_error, faces_read = _attempt(procedure, tokens, "faces")
    by_totals, totals_error, totals_read = _attempt(procedure, tokens, "totals")
    if by_faces is not None and by_totals is not None and by_faces != by_totals:
        raise ScriptError(
            "roll",
            "unambiguous: join one roll's dice with + (3+4) or give its total (7)",
            ",".join(tokens),
        )
    if by_faces is not None:
        return by_faces
    if by_totals is not None:
        return by_totals
    # Report the dice reading's problem, unless it failed on the first value (a total, likely).
    error = totals_error if faces_read == 0 < totals_read else faces_error
    raise error or ScriptError("roll", "values the procedure can use", ",".join(tokens))
