"""Page 3 alone (``resolution``) takes ``not_firing`` as page 1's ``fire`` does:
a firer who does not fire this attack has his weapon left out of the malfunction check."""

from __future__ import annotations

import pytest

from firefight.chance import exact
from firefight.errors import InputError
from firefight.rulesets.upfront.fire import RESOLUTION
from firefight.rulesets.upfront.resolution import UpFrontResolution

ENDED = "attack ended"


def _odds(**fields: object) -> dict[str, object]:
    inp = UpFrontResolution(ffs=3, rr=3, targets="ger-rifle-1", **fields)
    return dict(RESOLUTION.odds(inp))


def test_a_non_firing_firers_weapon_is_not_checked_for_malfunction_on_page_3_alone():
    # ger-lmg: malfunction 5; ger-rifle-1: malfunction 6 (ILLUSTRATIVE men)
    both = _odds(firers="ger-lmg,ger-rifle-1")
    quiet = _odds(firers="ger-lmg,ger-rifle-1", not_firing="ger-lmg")
    alone = _odds(firers="ger-rifle-1")
    assert quiet[ENDED] == alone[ENDED] < both[ENDED]


def test_not_firing_every_firer_leaves_no_malfunction_check():
    assert ENDED not in _odds(firers="ger-lmg", not_firing="ger-lmg")


def test_not_firing_on_page_3_alone_equals_prefix_replay_with_page_6_wired():
    inp = UpFrontResolution(
        pool="omniscient",
        pile="17,45,1,2,4",
        ffs=3,
        rr=3,
        targets="ger-rifle-1,ger-rifle-2",
        firers="ger-lmg,ger-rifle-1",
        not_firing="ger-lmg",
        malfunction="page6",
    )
    assert dict(RESOLUTION.odds(inp)) == dict(exact(lambda chance: RESOLUTION.rule(inp, chance)))


def test_not_firing_must_name_firers():
    with pytest.raises(
        InputError,
        match=r"^'not_firing' must be ids among the firers: ger-lmg \(got '?ger-leader'?\)$",
    ):
        _odds(firers="ger-lmg", not_firing="ger-leader")
