"""Page 2's exact odds (each class of To Hit RNC, then page 3's walk on the men or page 4's
replay on the AFV) against their brute-force twin, the rule replayed once per branch of every
draw (``replayed_odds``): the same outcomes with the same Fractions (those the procedure
ranks in the same order; a group's tallies, which it does not rank, come in each walk's own
order, as page 3's and the overrun's twins compare them), or an error of the same kind. The
inputs are drawn from the input model (every choice, flag and bounded number) over a small
part of the deck (the rest in your hand), so that the replay stays within
:data:`REPLAY_STEPS` and the pool runs out, and is reshuffled, on some draws."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from firefight.chance import WorkBudgetError, work_budget
from firefight.errors import FirefightError
from firefight.rulesets.upfront.ordnance import ORDNANCE, Attack
from tests.rulesets.test_every_procedure import field_strategy

REPLAY_STEPS = 20_000
DECK = range(1, 163)
"""The illustrative deck's inventory numbers."""
MEN = ("ger-leader", "ger-rifle-1", "ger-rifle-2", "ger-lmg", "us-rifle", "jap-rifle")
"""Illustrative infantry to fire at (page 3)."""
FREE = {"deck", "men", "firer", "afv", "targets", "pinned_targets", "wounded_targets"}
FREE |= {"transferring", "hand", "seen", "pile", "in_play", "opponent_hand", "pool", "kia_on"}
"""Fields set apart: the files, the men and the cards. ``kia_on`` stays ``man``: the
illustrative deck prints no KIA numbers, so ``card`` is refused wherever page 3 reads a card
(and the odds read the To Hit card's too, where an attack that ends before any man draws
needs none)."""

DRAWN = {
    name: field_strategy(info)
    for name, info in ORDNANCE.input_model.model_fields.items()
    if name not in FREE
}


@st.composite
def attacks(draw: st.DrawFn) -> dict[str, object]:
    """An ordnance attack over a few cards of the deck (the others in your hand)."""
    data = {k: v for k, v in draw(st.fixed_dictionaries(DRAWN)).items() if v is not None}
    if data.get("target", "afv") == "afv":
        data.pop("defender_wire", None)  # page 2 refuses it against an AFV
    left = draw(st.lists(st.sampled_from(DECK), min_size=1, max_size=9, unique=True))
    data["hand"] = [n for n in DECK if n not in left]
    if draw(st.booleans()):
        data.update(pool="omniscient", pile=left[: draw(st.integers(1, len(left)))])
    else:
        data["seen"] = left[: draw(st.integers(0, len(left) - 1))]
    data["targets"] = draw(st.lists(st.sampled_from(MEN), min_size=1, max_size=3, unique=True))
    data["pinned_targets"] = draw(st.lists(st.sampled_from(data["targets"]), unique=True))
    return data


@settings(
    max_examples=120,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
    deadline=None,
)
@given(data=attacks())
def test_the_ordnance_odds_equal_the_replayed_rule(data):
    try:
        inp = ORDNANCE.parse(data)
    except FirefightError:
        assume(False)
    try:
        with work_budget(REPLAY_STEPS):
            replayed = ORDNANCE.replayed_odds(inp)
    except WorkBudgetError:
        assume(False)
    except FirefightError as error:
        event(f"refused: {type(error).__name__}")
        with pytest.raises(type(error)):
            ORDNANCE.odds(inp)
        return
    pool = Attack.of(inp).pool
    men = f"{len(inp.targets)} men" if inp.target == "men" else "the AFV"
    event(f"{men}, {pool.start.size} cards left of {pool.refill.size}")
    odds = ORDNANCE.odds(inp)
    assert dict(odds) == dict(replayed)
    ranked = set(ORDNANCE.outcome_order)  # a group's tallies are not ranked: each walk's order
    assert [o for o in odds if o in ranked] == [o for o in replayed if o in ranked]
