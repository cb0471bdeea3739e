"""The fire attack (page 1, then page 3 on each man) as a card table: the player's hand as
action cards (RN and its colour, the row of RPNs, the kind and value), the firing and target
groups as personality cards, a FIRE card played by a click (added to ``fire_cards``), and
beside them the odds of each man and the distribution of the group's losses, from the same
exact odds as the ``fire`` procedure (:func:`.fire.fire_odds`)."""

from __future__ import annotations

from collections.abc import Sequence

from firefight.chance.distribution import Distribution
from firefight.errors import FirefightError
from firefight.i18n import N_
from firefight.i18n import gettext as _
from firefight.rulesets.cardtable import (
    ActionCard,
    CardTable,
    CardView,
    Mark,
    OutcomeRow,
    PersonCard,
)
from firefight.rulesets.upfront.cards import Card, DeckData
from firefight.rulesets.upfront.fire import FIRE, afv_target, fire_odds
from firefight.rulesets.upfront.firepower import UpFrontFire, fire_strength, is_fire_card
from firefight.rulesets.upfront.men import Man, MenData
from firefight.rulesets.upfront.outcomes import read_tally
from firefight.rulesets.upfront.pool import pool_for
from firefight.rulesets.upfront.resolution import reads_for, targets

__all__ = ["CARD_VIEWS", "FIRE_CARDS", "fire_table"]

SAMPLE = {
    "firers": "ger-rifle-1,ger-rifle-2,ger-lmg,ger-assistant",
    "targets": "us-rifle,us-bar",
    "rr": "3",
    "hand": "64,67,70,5,37,112",
    "fire_cards": "67,70",
}
"""A German squad at Relative Range 3 with six cards in hand, two FIRE cards (3 and 4)
played, against two Americans: the table opens with odds to read."""


KINDS = {
    "terrain": N_("terrain"),
    "movement": N_("movement"),
    "fire": N_("fire"),
    "rally": N_("rally"),
    "concealed": N_("concealed"),
    "smoke": N_("smoke"),
    "wire": N_("wire"),
    "hero": N_("hero"),
    "sniper": N_("sniper"),
    "split": N_("split"),
    "radio": N_("radio"),
    "other": N_("other"),
}
"""Each kind of card as the player reads it (:data:`.cards.CARD_KINDS`)."""


def _kind(card: Card) -> str:
    """What a card is, in words, with its printed value (``FIRE 3``, ``terrain -2``)."""
    kind = _(KINDS.get(card.kind, card.kind))
    kind = kind.upper() if card.kind == "fire" else kind
    return kind if card.value is None else f"{kind} {card.value}"


def _action_card(card: Card, deck: DeckData, played: bool, nationality: str | None) -> ActionCard:
    fire = is_fire_card(card, nationality) if nationality else card.kind == "fire"
    return ActionCard(
        number=card.number,
        kind=_kind(card),
        rn=Mark(_("RN"), str(card.rn.value), card.rn.red),
        rpn=tuple(
            Mark(label, str(n.value), n.red)
            for label, n in zip(deck.columns, card.rpn, strict=True)
        ),
        played=played,
        playable=fire,
    )


def _hand(inp: UpFrontFire, deck: DeckData, nationality: str | None) -> tuple[ActionCard, ...]:
    """The hand in its order, then any FIRE card played that the hand does not name."""
    numbers = [n for n in inp.hand if deck.has(n)]
    numbers += [n for n in inp.fire_cards if deck.has(n) and n not in numbers]
    played = set(inp.fire_cards)
    return tuple(_action_card(deck.card(n), deck, n in played, nationality) for n in numbers)


def _person(man: Man, rr: int, state: Sequence[str], fp: int | None = None) -> PersonCard:
    values = [
        Mark(_("FP"), str(man.firepower[rr] if fp is None else fp)),
        Mark(_("morale"), str(man.morale)),
        Mark(_("panic"), str(man.panic)),
        Mark(_("rout"), str(man.rout)),
    ]
    if man.kia is not None:
        values.append(Mark(_("KIA"), str(man.kia)))
    title = f"{man.name or man.id} · {_(man.weapon.replace('_', ' '))}"
    return PersonCard(man.id, title, tuple(values), ", ".join(state))


def _known(men: MenData, man_id: str) -> bool:
    return any(m.id == man_id for m in men.men)


def _states(man_id: str, marks: Sequence[tuple[Sequence[str], str]]) -> list[str]:
    return [word for ids, word in marks if man_id in ids]


def _groups(
    inp: UpFrontFire, men: MenData, fps: dict[str, int]
) -> tuple[tuple[str, tuple[PersonCard, ...]], ...]:
    firer_marks = (
        (inp.pinned_firers, _("pinned")),
        (inp.wounded_firers, _("wounded")),
        (inp.not_firing, _("not firing")),
    )
    target_marks = ((inp.pinned_targets, _("pinned")), (inp.wounded_targets, _("wounded")))
    firers = tuple(
        _person(men.man(i), inp.rr, _states(i, firer_marks), fps.get(i))
        for i in inp.firers
        if _known(men, i)
    )
    hit = tuple(
        _person(men.man(i), inp.rr, _states(i, target_marks)) for i in inp.targets if _known(men, i)
    )
    return ((_("Firing group"), firers), (_("Target group"), hit))


def _worst_first(outcome: str) -> tuple[int, int]:
    """A group's outcomes with the most VP first, those a malfunction cut short last."""
    read = read_tally(outcome)
    if read is None:
        return 0, 0
    tally, vp = read
    return tally.counts[-1], -vp


def _rows(distribution: Distribution[str]) -> tuple[OutcomeRow, ...]:
    rows = []
    for outcome, probability in sorted(distribution.items(), key=lambda i: _worst_first(i[0])):
        named = FIRE.named(outcome)
        if named is None:
            meaning = FIRE.meanings.get(outcome)
            named = (_(outcome), _(meaning) if meaning else "")
        rows.append(OutcomeRow(named[0], named[1], probability))
    return tuple(rows)


def fire_table(inp: UpFrontFire) -> CardTable:
    """The card table of a fire attack: the cards from the data files, then the attack
    worked out (its one-line error instead of the odds where the input cannot fire)."""
    deck, men = inp.deck_data(), inp.men_data()
    notes = tuple(d.label for d in (deck, men) if d.illustrative)
    try:
        strength = fire_strength(inp)
    except FirefightError as error:
        nationality = next((men.man(i).nationality for i in inp.firers if _known(men, i)), None)
        hand = _hand(inp, deck, nationality)
        return CardTable(hand, _groups(inp, men, {}), (), (), (), notes, str(error))
    hand = _hand(inp, deck, strength.nationality)
    groups = _groups(inp, men, {man_id: fp for man_id, fp, _why in strength.firers})
    summary = [
        Mark(_("group FP"), str(strength.fp)),
        Mark(_("FIRE cards"), str(sum(deck.card(n).value or 0 for n in strength.cards))),
        Mark(_("FFS"), str(strength.ffs)),
    ]
    try:
        outcomes = _rows(FIRE.odds(inp))
        men_odds: tuple[tuple[str, tuple[OutcomeRow, ...]], ...] = ()
        if not inp.call_off and afv_target(inp) is None:
            summary.append(Mark(_("cards in the pool"), str(_pool_size(inp, strength.cards))))
            if len(targets(inp, men)) > 1:
                men_odds = tuple((man_id, _rows(d)) for man_id, d in fire_odds(inp).men)
    except FirefightError as error:
        return CardTable(hand, groups, tuple(summary), (), (), notes, str(error))
    return CardTable(hand, groups, tuple(summary), men_odds, outcomes, notes)


def _pool_size(inp: UpFrontFire, played: tuple[int, ...]) -> int:
    return pool_for(inp, reads_for(inp), played).start.size


FIRE_CARDS = CardView(
    procedure="fire",
    sample=SAMPLE,
    play_field="fire_cards",
    shown=("firers", "targets", "rr", "hand", "fire_cards", "pinned_targets"),
    folded=(
        (
            N_("The pool: which cards a draw may be"),
            ("pool", "seen", "pile", "in_play", "opponent_hand", "reshuffle"),
        ),
    ),
    table=fire_table,
    losses_title=N_("The group's losses"),
    hidden=("deck", "men"),
    actions=(("advise", N_("Advise: the best play from this hand")),),
)
"""The fire procedure as a card table (the rule set's :attr:`card_views`)."""

CARD_VIEWS = (FIRE_CARDS,)
"""The rule set's card views."""
