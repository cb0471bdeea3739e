"""Page 3's panic: a pinned man with FR > panic reads the same card's RPNC(0). Default
``panic = panic_column`` (docs/sources.md: KIA when the RPN is at most his Panic value,
otherwise he routs; page 3's "Is RPNC(0) > Rout #?" with a result on both branches);
``rout_check`` kept (RPNC(0) > rout #: routs, otherwise no effect). The trace states the
comparison that decided."""

from __future__ import annotations

from fractions import Fraction

from firefight.chance import exact, scripted
from firefight.rulesets.upfront.fire import RESOLUTION
from firefight.rulesets.upfront.resolution import (
    RESULT_MEANINGS,
    Target,
    UpFrontResolution,
    man_result,
    targets,
)

F = Fraction
# Illustrative deck, us-rifle (KIA 8, morale 4, panic 5, rout 6) pinned, FFS 2:
# card 1: RN 4 (FR 6), RPNC(0) 5; card 14: RN 4 (FR 6), RPNC(0) 9;
# card 20: RN 4 (FR 6), RPNC(0) 4; card 27: RN 6 (FR 8 = KIA, RPNC(7) 5 is not his morale:
# on to the pinned test), RPNC(0) 6 (his rout #).
PANIC = {"ffs": 2, "targets": "us-rifle", "pinned_targets": "us-rifle"}


def _inp(**fields: object) -> UpFrontResolution:
    return RESOLUTION.parse({**PANIC, "pool": "omniscient", "pile": "1,14,20,27", **fields})


def test_panic_column_is_the_default_and_every_panic_has_a_result():
    assert UpFrontResolution(ffs=0).panic == "panic_column"
    assert dict(RESOLUTION.odds(_inp())) == {"KIA (panic)": F(1, 2), "routed": F(1, 2)}


def test_rout_check_is_kept_as_the_alternative():
    assert dict(RESOLUTION.odds(_inp(panic="rout_check"))) == {
        "routed": F(1, 4),
        "no effect": F(3, 4),
    }


def test_a_pinned_man_who_panics_never_ends_with_no_effect_by_default():
    inp = UpFrontResolution(**PANIC)  # type: ignore[arg-type]
    (target,) = targets(inp, inp.men_data())
    deck = inp.deck_data()
    for card in deck.cards:
        fr = inp.ffs + card.rn.value
        result = man_result(target, inp.ffs, 0, card, inp)
        if fr > target.man.panic and fr < (target.man.kia or 0):
            assert result in ("KIA (panic)", "routed"), card.number


def test_the_trace_states_the_comparison_that_decided():
    inp = _inp()
    kill = scripted(lambda chance: RESOLUTION.rule(inp, chance), ["1"])
    assert kill.outcome == "KIA (panic)"
    shown = [str(e) for e in kill.trace]
    assert "man 1 (us-rifle): FR 6 > panic 5; RPNC(0) 5 <= panic # 5: KIA (panic)" in shown
    rout = scripted(lambda chance: RESOLUTION.rule(inp, chance), ["27"])
    assert rout.outcome == "routed"
    assert "man 1 (us-rifle): FR 8 > panic 5; RPNC(0) 6 > panic # 5: routed" in [
        str(e) for e in rout.trace
    ]
    check = _inp(panic="rout_check")
    stays = scripted(lambda chance: RESOLUTION.rule(check, chance), ["27"])
    assert stays.outcome == "no effect"
    assert "man 1 (us-rifle): FR 8 > panic 5; RPNC(0) 6 <= rout # 6: no effect" in [
        str(e) for e in stays.trace
    ]


def test_the_meanings_name_the_comparison_of_each_result():
    assert RESULT_MEANINGS["KIA"].startswith("FR > KIA")
    assert "RPNC(0) <= his panic #" in RESULT_MEANINGS["KIA (panic)"]
    assert "> his panic # (reading panic_column)" in RESULT_MEANINGS["routed"]
    assert "> his rout # (rout_check)" in RESULT_MEANINGS["routed"]


def test_group_odds_with_panic_equal_prefix_replay():
    for reading in ("panic_column", "rout_check"):
        inp = RESOLUTION.parse(
            {
                "ffs": 3,
                "rr": 5,
                "pool": "omniscient",
                "pile": "1,14,20,27,3,9,29,17",
                "targets": "us-rifle,ger-rifle-1,jap-rifle",
                "pinned_targets": "us-rifle,ger-rifle-1,jap-rifle",
                "banzai": True,
                "smoke": -1,
                "panic": reading,
            }
        )
        fast = RESOLUTION.odds(inp)
        assert dict(fast) == dict(exact(lambda chance, inp=inp: RESOLUTION.rule(inp, chance)))
        assert sum(fast.values()) == 1


def test_a_banzaiing_japanese_who_would_rout_is_still_kia():
    target = Target(RESOLUTION.parse(PANIC).men_data().man("jap-rifle"), True, False, True)
    inp = _inp()
    card = inp.deck_data().card(14)  # RN 4, RPNC(0) 9 > panic
    assert man_result(target, 3, 0, card, inp) == "KIA (banzai)"  # FR 7 > panic 6


def test_the_trace_of_a_wound_states_the_column_7_check_as_it_fell():
    # us-rifle unpinned, FFS 2, card 27: RN 6 (FR 8 = KIA 8), RPNC(7) 5, morale 4
    inp = RESOLUTION.parse({"ffs": 2, "targets": "us-rifle", "equality": "wounded"})
    wound = scripted(lambda chance: RESOLUTION.rule(inp, chance), ["27"])
    assert wound.outcome == "wounded"
    assert "man 1 (us-rifle): FR 8 = KIA 8; RPNC(7) 5 != morale 4: wounded" in [
        str(e) for e in wound.trace
    ]
