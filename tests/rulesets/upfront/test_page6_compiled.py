"""The page 6 walk's compiled step (rulesets/upfront/malfunction_level.py) against its twin,
the Python step (``compiled = False``): the same odds, exactly, over the whole pool and over
small piles that run out (where the walk goes on in Python)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from firefight.rulesets.upfront import malfunction_level
from firefight.rulesets.upfront.cards import load_deck
from firefight.rulesets.upfront.malfunction import Firer
from firefight.rulesets.upfront.malfunction_walk import page6_group_odds
from firefight.rulesets.upfront.paths import ILLUSTRATIVE_DECK
from firefight.rulesets.upfront.resolution import Readings, targets

DECK = load_deck(ILLUSTRATIVE_DECK)
SPECIAL = [3, 14, 17, 29, 31, 45, 49, 51, 54]
"""Red RN 6 (3, 51, 54), red 5 (17, 45, 49), red 4 (14, 31) and a BREEZE card (29)."""
PLAIN = [1, 2, 4, 5, 6, 7, 8, 9, 10, 11]
TARGETS = ("ger-rifle-1", "ger-rifle-2", "us-rifle", "jap-rifle", "ger-leader", "brit-rifle")
WEAPONS = ("ger-lmg", "us-rifle", "us-bar", "ger-leader", "ger-assistant")


def _both(inp: Readings, ffs: int, rr: int, firers: tuple[Firer, ...], kinds: str):
    group = targets(inp, inp.men_data())
    fast = page6_group_odds(inp, ffs, rr, group, firers, kinds=kinds)  # type: ignore[arg-type]
    twin = page6_group_odds(inp, ffs, rr, group, firers, kinds=kinds, compiled=False)  # type: ignore[arg-type]
    return fast, twin


def _same(fast, twin) -> None:
    assert dict(fast.tally) == dict(twin.tally)
    assert [(m, dict(o)) for m, o in fast.men] == [(m, dict(o)) for m, o in twin.men]
    assert sum(fast.tally.values()) == 1


@pytest.mark.parametrize(
    ("men", "weapons", "smoke", "select", "kinds"),
    [
        (3, ("ger-lmg", "us-rifle"), -2, "rpn", "auto"),
        (3, ("ger-lmg", "us-rifle"), 0, "lowest_malf", "latent"),
        (2, ("ger-lmg", "us-rifle", "us-bar"), -2, "rpn", "split"),
        (2, ("ger-lmg", "us-bar", "ger-leader"), -2, "rpn", "latent"),
        (4, ("us-rifle",), -2, "rpn", "auto"),
        (3, ("ger-assistant", "ger-lmg"), -2, "rpn", "auto"),
    ],
)
def test_the_compiled_page6_step_gives_the_python_steps_odds_over_the_whole_pool(
    men, weapons, smoke, select, kinds
):
    """Over the 162-card pool (observer), a few men, one to three weapons, with and without
    smoke, either selection reading and way of reading the selection RPN: equal odds, each
    man's and the group's."""
    inp = Readings(targets=",".join(TARGETS[:men]), smoke=smoke, malfunction="page6", select=select)
    data = inp.men_data()
    firers = tuple(Firer(data.man(i)) for i in weapons)
    _same(*_both(inp, 3, 5, firers, kinds))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    pile=st.lists(st.sampled_from(SPECIAL + PLAIN), min_size=2, max_size=8, unique=True),
    men=st.integers(1, 6),
    weapons=st.lists(st.sampled_from(WEAPONS), min_size=1, max_size=3, unique=True),
    ffs=st.integers(-2, 6),
    smoke=st.sampled_from([0, -2]),
    reshuffle=st.sampled_from(["discards", "end_attack"]),
    kinds=st.sampled_from(["latent", "split", "auto"]),
)
@example(  # split kinds: a card group whose first kind (card 41) is only in the reshuffle
    pile=[49, 3, 14],
    men=2,
    weapons=["us-rifle", "ger-leader"],
    ffs=-1,
    smoke=0,
    reshuffle="discards",
    kinds="split",
)
def test_the_compiled_page6_step_gives_the_python_steps_odds_on_small_piles(  # noqa: PLR0917
    pile, men, weapons, ffs, smoke, reshuffle, kinds
):
    """A known pile of 2 to 8 cards (omniscient; a reshuffle brings back a few more), up to
    six men: the pile runs out or down to its last card in some walks, which then go on in
    Python; the odds are the twin's all the same."""
    kept = set(pile) | {41, 42, 43}
    inp = Readings(
        pool="omniscient",
        pile=",".join(map(str, pile)),
        opponent_hand=",".join(str(c.number) for c in DECK.cards if c.number not in kept),
        targets=",".join(TARGETS[:men]),
        smoke=smoke,
        reshuffle=reshuffle,
        malfunction="page6",
    )
    data = inp.men_data()
    firers = tuple(Firer(data.man(i)) for i in weapons)
    _same(*_both(inp, ffs, 3, firers, kinds))


def test_weights_widened_into_more_lanes_keep_their_value():
    """Garner's digits: a weight's residues in more lanes are those of its value."""
    narrow = malfunction_level.lanes(1)
    wide = malfunction_level.lanes(10**40)
    values = [0, 1, 2**64 - 1, 2**64, 3**50, 10**40 - 7]
    narrow2 = malfunction_level.lanes(10**40 // 2**26)
    for moduli in (narrow, narrow2):
        wraps = [int(m) or 2**64 for m in moduli.tolist()]
        small = [v for v in values if v < _product(wraps)]
        weight = __import__("numpy").array([[v % m for m in wraps] for v in small], "uint64")
        level = malfunction_level.start((1,), 0, moduli)
        level = malfunction_level.Level(
            level.counts, level.modes, level.start, level.tally, weight, level.codes
        )
        widened = malfunction_level.widen(level, moduli, wide)
        primes = [int(m) or 2**64 for m in wide.tolist()]
        assert widened.weight.tolist() == [[v % m for m in primes] for v in small]


def _product(values: list[int]) -> int:
    out = 1
    for v in values:
        out *= v
    return out
