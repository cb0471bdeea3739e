"""Page 3's "May take as RR5, 5VP" as a named reading: rout_taken =
taken_at_rr5 scores each routed man 5 VP instead of 1 at RR 5; the odds of every result
are unchanged (no card is read)."""

from __future__ import annotations

import re

from firefight.chance import exact
from firefight.rulesets.upfront.fire import RESOLUTION, UpFrontFire, fire_odds
from firefight.rulesets.upfront.resolution import UpFrontResolution, rout_vp

GROUP = {"targets": "ger-rifle-1,ger-rifle-2", "pinned_targets": "ger-rifle-1,ger-rifle-2"}


def _odds(rr: int, reading: str) -> dict[str, object]:
    inp = UpFrontResolution(ffs=3, rr=rr, rout_taken=reading, **GROUP)  # type: ignore[arg-type]
    return dict(RESOLUTION.odds(inp))


def _taken(text: str) -> str:
    """The same tally with 4 more VP per routed man (5 instead of 1)."""
    routed = int(re.search(r"routed (\d+)", text).group(1))  # type: ignore[union-attr]
    vp = int(re.search(r"\(VP (\d+)\)", text).group(1))  # type: ignore[union-attr]
    return text.replace(f"(VP {vp})", f"(VP {vp + 4 * routed})")


def test_routed_men_score_five_vp_when_taken_at_rr_5():
    plain = _odds(5, "rout")
    taken = _odds(5, "taken_at_rr5")
    assert any("routed 1" in text for text in plain)
    assert taken == {_taken(text): p for text, p in plain.items()}


def test_taken_at_rr5_changes_nothing_below_rr_5():
    assert _odds(4, "taken_at_rr5") == _odds(4, "rout")


def test_rout_vp_is_one_unless_taken_at_rr_5():
    assert rout_vp(5, "rout") == 1
    assert rout_vp(4, "taken_at_rr5") == 1
    assert rout_vp(5, "taken_at_rr5") == 5


def test_taken_at_rr5_on_a_fire_attack_equals_prefix_replay():
    inp = UpFrontFire(
        pool="omniscient",
        pile="1,2,4,5,6,17",
        rr=5,
        fire_cards="64",
        firers="ger-rifle-1",
        rout_taken="taken_at_rr5",
        targets="us-rifle,us-bar",
        pinned_targets="us-rifle,us-bar",
    )
    from firefight.rulesets.upfront.fire import FIRE  # noqa: PLC0415

    replayed = dict(exact(lambda chance: FIRE.rule(inp, chance)))
    assert dict(FIRE.odds(inp)) == replayed
    assert fire_odds(inp).tally  # the same walk, only the VP text differs
