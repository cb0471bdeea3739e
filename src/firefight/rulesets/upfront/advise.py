"""The best play from the hand (page 1, then page 3 on each man): which FIRE cards of the hand
to play (their total at most the group's FP), whether to add a CONCEALMENT or a SMOKE card of
the hand, or whether to call the attack off, ranked by an objective over the exact odds of
each play (:func:`.fire.fire_odds`, the code that resolves the fire).

A play is its FIRE cards' total, the CONCEALMENT value and the SMOKE value it adds: the FIRE
cards, and any card added, come from the hand, so every play draws from the same pool (a card
played goes from the hand onto the table, :func:`.pool.pool_for`), and plays of the same
total and additions have the same odds: they are one play, shown with how many ways the hand
makes it and one of them (the fewest cards, then the lowest inventory numbers). The cards kept
in hand are shown, not valued: the odds are those of this attack alone.

The totals the hand can make are found by subset sums (each total's count of ways and its
fewest-cards representative), not by listing every subset: a tested twin lists them all.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import Field, create_model, model_validator

from firefight.chance import spend
from firefight.chance.distribution import Distribution
from firefight.errors import InputError
from firefight.rulesets.upfront.cards import Card, DeckData
from firefight.rulesets.upfront.fire import afv_target, fire_odds
from firefight.rulesets.upfront.firepower import UpFrontFire, fire_strength, is_fire_card
from firefight.rulesets.upfront.lists import shown
from firefight.rulesets.upfront.pool import inventory_numbers, pool_for
from firefight.rulesets.upfront.resolution import Tally, reads_for, rout_vp, targets

__all__ = [
    "CHOSEN",
    "OBJECTIVES",
    "Advice",
    "AdviseInput",
    "Objective",
    "Play",
    "advise",
    "fire_input",
    "hand_totals",
    "play_input",
]

Objective = Literal["expected_vp", "kia", "no_effect"]
OBJECTIVES: tuple[Objective, ...] = ("expected_vp", "kia", "no_effect")
"""What a play is ranked by: ``expected_vp`` (the expected victory points, page 3's KIA 2,
wounded or routed 1: highest first), ``kia`` (the probability of at least one KIA: highest
first) or ``no_effect`` (the probability that no man is hit, pinned or worse: lowest first)."""

CHOSEN = ("fire_cards", "call_off")
"""The fields of the fire attack the advisor chooses (the rest is the situation)."""

SUBSETS_PER_STEP = 64
"""How many of the hand's (total, card count) entries the subset sums pay one step of the
web's work budget for (the odds of each play pay for themselves, as the fire's do)."""

if TYPE_CHECKING:
    _Situation = UpFrontFire
else:
    _Situation = create_model(
        "_Situation",
        __base__=UpFrontFire.__mro__[1],  # Readings: page 3's, without page 1's choices
        **{
            name: (info.annotation, info)
            for name, info in UpFrontFire.model_fields.items()
            if name not in CHOSEN and name not in UpFrontFire.__mro__[1].model_fields
        },
    )


class AdviseInput(_Situation):
    """The situation of a fire attack (page 1's fields but the FIRE cards and calling off,
    which are what the advisor chooses) and what the plays are ranked by."""

    readings: ClassVar[frozenset[str]] = UpFrontFire.readings | {"smoke_card"}

    objective: Objective = Field(
        "expected_vp",
        description=(
            "What the plays are ranked by: expected_vp (expected victory points, page 3's KIA "
            "2, wounded or routed 1), kia (the chance of at least one KIA) or no_effect (the "
            "chance that no man is hit or pinned: lowest first)."
        ),
    )
    smoke_card: int = Field(
        -1,
        ge=-9,
        le=-1,
        description=(
            "What a SMOKE card played from the hand adds to the smoke modifier when the deck "
            "gives it no value (page 1 counts smoke in the TEM without printing it; page 2: "
            "-1 each smoke)."
        ),
    )

    @model_validator(mode="before")
    @classmethod
    def _null_is_default(cls, data: Any) -> Any:  # noqa: ANN401 - pydantic's raw input
        """A field given as null keeps its default (the command line's options not given)."""
        if isinstance(data, dict):
            return {k: v for k, v in data.items() if v is not None}
        return data


@dataclass(frozen=True)
class Play:
    """One play: the FIRE cards (a representative of ``ways`` sets of the same total), the
    CONCEALMENT and SMOKE cards added (inventory numbers, or None), or the attack called off;
    its exact odds: the victory points' distribution and the tally's."""

    call_off: bool
    fire_cards: tuple[int, ...]
    total: int
    ways: int
    kept: tuple[int, ...]
    concealment: int | None
    smoke: int | None
    ffs: int | None
    vp: Distribution[int]
    outcomes: Distribution[str]
    p_kia: Fraction
    p_no_effect: Fraction

    @property
    def expected_vp(self) -> Fraction:
        """The expected victory points."""
        return sum((Fraction(v) * p for v, p in self.vp.items()), Fraction(0))

    def score(self, objective: Objective) -> Fraction:
        """The play's value for ``objective`` (as the player reads it: a probability for
        ``kia`` and ``no_effect``)."""
        if objective == "kia":
            return self.p_kia
        if objective == "no_effect":
            return self.p_no_effect
        return self.expected_vp

    def key(self, objective: Objective) -> tuple[Fraction, int, int, int]:
        """The ranking key, best first: the objective, then the fewest cards on the table,
        then the lower total (a tie-break only: the cards kept are not valued)."""
        value = self.score(objective)
        better = value if objective == "no_effect" else -value
        added = (self.concealment is not None) + (self.smoke is not None)
        return (better, len(self.fire_cards) + added, self.total, int(self.call_off))


@dataclass(frozen=True)
class Advice:
    """The plays ranked, best first, with what they were worked out from."""

    objective: Objective
    fp: int
    pool: int
    fire: tuple[int, ...]
    """The hand's FIRE cards."""
    plays: tuple[Play, ...]

    def behind(self, play: Play) -> Fraction:
        """How far ``play`` is behind the best for the objective (0 for the best)."""
        best = self.plays[0].score(self.objective)
        gap = play.score(self.objective) - best
        return gap if self.objective == "no_effect" else -gap


def fire_input(inp: AdviseInput, fire_cards: tuple[int, ...] = (), **more: object) -> UpFrontFire:
    """The fire procedure's input for ``inp`` with these FIRE cards (and ``more`` fields)."""
    data = inp.model_dump(exclude={"objective", "smoke_card"})
    data.update({"fire_cards": fire_cards, "call_off": not fire_cards, **more})
    return UpFrontFire.model_validate(data)


def _cards_of(deck: DeckData, hand: Sequence[int], kind: str) -> list[Card]:
    return [deck.card(n) for n in hand if deck.card(n).kind == kind]


def hand_totals(
    values: Sequence[tuple[int, int]], fp: int
) -> dict[int, tuple[int, tuple[int, ...]]]:
    """Each total at most ``fp`` that a non-empty set of the cards ``(number, value)`` makes:
    how many sets make it and the one of fewest cards (then the lowest inventory numbers), by
    subset sums over the cards in ascending inventory order."""
    found: dict[int, tuple[int, tuple[int, ...]]] = {}
    for number, value in sorted(values):
        spend(len(found) // SUBSETS_PER_STEP + 1)
        grown = dict(found)
        for total, (ways, cards) in [(0, (1, ())), *found.items()]:
            mine = (*cards, number)
            have = grown.get(total + value)
            if have is None:
                grown[total + value] = (ways, mine)
            else:
                fewest = min(have[1], mine, key=lambda c: (len(c), c))
                grown[total + value] = (have[0] + ways, fewest)
        found = grown
    return {t: found[t] for t in sorted(found) if t <= fp}


def play_input(
    inp: AdviseInput, cards: tuple[int, ...], concealment: Card | None, smoke: Card | None
) -> UpFrontFire:
    """The fire input of one play (its FIRE cards, a CONCEALMENT and a SMOKE card added)."""
    more: dict[str, object] = {}
    if concealment is not None:
        more["concealment"] = concealment.value or 0
    if smoke is not None:
        value = smoke.value if smoke.value is not None else inp.smoke_card
        more["smoke"] = max(-9, inp.smoke + value)
    return fire_input(inp, cards, **more)


def _play(
    inp: AdviseInput,
    found: tuple[int, tuple[int, ...]],
    total: int,
    concealment: Card | None,
    smoke: Card | None,
) -> Play:
    ways, cards = found
    fire = play_input(inp, cards, concealment, smoke)
    odds = fire_odds(fire)
    routed = rout_vp(inp.rr, inp.rout_taken)
    tally: Distribution[Tally] = odds.tally
    added = {c.number for c in (concealment, smoke) if c is not None}
    return Play(
        call_off=False,
        fire_cards=cards,
        total=total,
        ways=ways,
        kept=tuple(n for n in inp.hand if n not in cards and n not in added),
        concealment=None if concealment is None else concealment.number,
        smoke=None if smoke is None else smoke.number,
        ffs=fire_strength(fire).ffs,
        vp=tally.map(lambda t: t.vp_with(routed)),
        outcomes=tally.map(lambda t: t.text(routed)),
        p_kia=tally.probability(lambda t: t.counts[0] > 0),
        p_no_effect=tally.probability(lambda t: not any(t.counts[:5])),
    )


def _called_off(inp: AdviseInput) -> Play:
    return Play(
        call_off=True,
        fire_cards=(),
        total=0,
        ways=1,
        kept=tuple(inp.hand),
        concealment=None,
        smoke=None,
        ffs=None,
        vp=Distribution({0: Fraction(1)}),
        outcomes=Distribution({"called off": Fraction(1)}),
        p_kia=Fraction(0),
        p_no_effect=Fraction(1),
    )


def _one_of_each_value(cards: Iterable[Card]) -> list[Card | None]:
    """None (nothing added), then one card of each value (the lowest inventory number)."""
    chosen: dict[int | None, Card] = {}
    for card in sorted(cards, key=lambda c: c.number):
        chosen.setdefault(card.value, card)
    return [None, *chosen.values()]


def advise(inp: AdviseInput) -> Advice:
    """Every play of the hand, ranked for ``inp.objective``, best first."""
    situation = fire_input(inp)
    strength = fire_strength(situation)  # the group's FP; one-line errors on the situation
    if afv_target(situation) is not None:
        raise InputError(
            "targets", "men (the advisor ranks fire on men, page 3)", shown(inp.targets)
        )
    targets(situation, situation.men_data())
    deck = inp.deck_data()
    hand = inventory_numbers("hand", inp.hand, deck)
    fire = [deck.card(n) for n in hand if is_fire_card(deck.card(n), strength.nationality)]
    if not fire:
        raise InputError("hand", "a hand holding one or more FIRE cards", shown(hand))
    totals = hand_totals([(c.number, c.value or 0) for c in fire], strength.fp)
    concealments = (
        _one_of_each_value(_cards_of(deck, hand, "concealed")) if not inp.concealment else [None]
    )
    smokes = _one_of_each_value(_cards_of(deck, hand, "smoke"))
    plays = [_called_off(inp)]
    plays += [
        _play(inp, found, total, concealment, smoke)
        for total, found in totals.items()
        for concealment in concealments
        for smoke in smokes
    ]
    plays.sort(key=lambda p: p.key(inp.objective))
    pool = pool_for(situation, reads_for(situation)).start.size
    return Advice(inp.objective, strength.fp, pool, tuple(c.number for c in fire), tuple(plays))
