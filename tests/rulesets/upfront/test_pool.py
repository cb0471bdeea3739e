"""The pool a card is drawn from: observer and omniscient, classes of equal cards, replay by
inventory number, reshuffle, and one-line errors for bad inventory numbers."""

from __future__ import annotations

from fractions import Fraction

import pytest

from firefight.chance import exact, sample, scripted
from firefight.errors import InputError, ScriptError
from firefight.rulesets.upfront.pool import CardInput, Reads, pool_for

RN = Reads(rn=True)


class Draws(CardInput):
    pass


def _two_rns(inp: CardInput):
    pool = pool_for(inp, RN)

    def procedure(chance):
        state = pool.start
        values = []
        for label in ("first", "second"):
            drawn = pool.draw(chance, state, label)
            if drawn is None:
                return "ended"
            card, state = drawn
            values.append(card.rn.value)
        return ",".join(map(str, values))

    return procedure


def test_observer_pool_is_the_deck_minus_hand_and_seen():
    pool = pool_for(Draws(hand="1,2,3", seen="4,5"), RN)
    assert pool.start.size == 157
    assert len(pool.start.classes) == 7  # one class per RN: equal cards merge


def test_omniscient_pool_is_the_pile_and_its_odds_are_the_piles():
    inp = Draws(pool="omniscient", pile="1,2,3")
    deck = inp.deck_data()
    odds = exact(_two_rns(inp))
    assert sum(odds.values()) == 1
    rns = [deck.card(n).rn.value for n in (1, 2, 3)]
    pairs = {f"{a},{b}" for i, a in enumerate(rns) for j, b in enumerate(rns) if i != j}
    assert set(odds) == pairs


def test_exact_draw_odds_are_the_hand_computed_hypergeometric_ones():
    inp = Draws()
    deck = inp.deck_data()
    count = {v: sum(1 for c in deck.cards if c.rn.value == v) for v in range(7)}
    odds = exact(_two_rns(inp))
    assert odds["6,6"] == Fraction(count[6], 162) * Fraction(count[6] - 1, 161)
    assert odds["3,0"] == Fraction(count[3], 162) * Fraction(count[0], 161)


def test_the_players_cards_replay_by_inventory_number_and_the_trace_shows_what_was_read():
    inp = Draws()
    deck = inp.deck_data()
    resolution = scripted(_two_rns(inp), ["17", "102"])
    assert resolution.outcome == f"{deck.card(17).rn.value},{deck.card(102).rn.value}"
    shown = [str(event) for event in resolution.trace]
    assert shown[0] == "first: 17"
    assert shown[1] == f"first: card 17: RN {deck.card(17).rn.value}"


def test_a_card_drawn_twice_or_in_the_hand_is_refused_in_one_line():
    with pytest.raises(ScriptError, match="second"):
        scripted(_two_rns(Draws()), ["17", "17"])
    with pytest.raises(ScriptError, match="first"):
        scripted(_two_rns(Draws(hand="17")), ["17", "18"])


def test_a_seeded_resolution_replays_from_its_own_trace():
    procedure = _two_rns(Draws())
    resolution = sample(procedure, 11)
    again = scripted(procedure, resolution.replay_values())
    assert again.outcome == resolution.outcome


def test_an_exhausted_pile_reshuffles_the_discards_or_ends_the_attack():
    one = Draws(pool="omniscient", pile="5")
    odds = exact(_two_rns(one))
    assert sum(odds.values()) == 1
    assert "ended" not in odds
    ended = exact(_two_rns(Draws(pool="omniscient", pile="5", reshuffle="end_attack")))
    assert dict(ended) == {"ended": 1}


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"hand": "1,999"}, "'hand' must be inventory numbers of cards in deck.toml (1 to 162)"),
        ({"hand": "1,1"}, "'hand' must be inventory numbers"),
        ({"seen": "x"}, "'seen' must be inventory numbers"),
        ({"hand": "3", "seen": "3"}, "'seen' must be cards not in your hand"),
    ],
)
def test_bad_inventory_numbers_are_one_line(fields, message):
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        pool_for(Draws(**fields), RN)


def test_a_pool_states_deck_takes_any_member_of_a_class_as_its_card():
    """The deck of a pool state names each class by its lowest member and counts any
    member's inventory number (leading zeros allowed) as a card of that class; a number of
    no class left, or not a number, counts none. The deck is built once per state."""
    pool = pool_for(CardInput(), Reads(rn=True))
    state = pool.start
    deck = state.deck()
    assert deck is state.deck()
    for members in state.classes:
        if members:
            assert (str(members[0]), len(members)) in deck.cards
            assert deck.count(str(members[-1])) == len(members)
            assert deck.count("0" + str(members[-1])) == len(members)
    drawn = state.classes[0][0]
    after = state.without(drawn)
    assert after.deck().count(str(drawn)) == 0
    assert deck.count("x1") == 0
    assert deck.count("") == 0
