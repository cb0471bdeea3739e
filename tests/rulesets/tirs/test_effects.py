"""Effects of hits: the tracks as state, and the state after one or several fires, exactly."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import firefight
from firefight.errors import RuleError
from firefight.rulesets.tirs.effects import (
    GROUP,
    SERVANTS_TWO_HITS,
    THREE_HITS,
    TargetState,
    state_odds,
    track_for,
)
from firefight.rulesets.tirs.precision import TirsPrecision

FIRE = firefight.ruleset("tirs").procedure("fire")

# The seed's tracks, in English, typed from the seed's text (not read from the data files).
SEED_GROUP = [
    "normal",
    "1st pinned",
    "2nd pinned",
    "1st demoralized",
    "2nd demoralized",
    "1st eliminated",
    "2nd eliminated",
]
SEED_CREW = ["normal", "pinned", "demoralized", "eliminated"]
SEED_SERVANTS = ["normal", "pinned", "eliminated"]
EXPERIENCE = {"novice": 4, "trained": 5, "veteran": 6}


def fire(**fields):
    return FIRE.parse(fields)


def brute_force_states(
    cdt: int, experience: str, modifier: int, track: list[str], before: str, *, fires: int
) -> dict[str, Fraction]:
    """Every face of every die of every fire, walked down the track by hand."""
    counts: Counter[str] = Counter()
    for faces in product(range(1, 11), repeat=cdt * fires):
        taken = track.index(before)
        for number in range(fires):
            if taken == len(track) - 1:
                break
            dice = faces[number * cdt : (number + 1) * cdt]
            hits = sum(1 for d in dice if d + modifier <= EXPERIENCE[experience])
            taken = min(taken + hits, len(track) - 1)
        counts[track[taken]] += 1
    return {state: Fraction(n, 10 ** (cdt * fires)) for state, n in counts.items()}


def test_the_tracks_are_the_seed_tracks():
    assert list(GROUP.states) == SEED_GROUP
    assert list(THREE_HITS.states) == SEED_CREW
    assert GROUP.statuses[3] == ("demoralized", "pinned")
    assert GROUP.statuses[5] == ("eliminated", "demoralized")
    assert track_for("command_post", "two") is THREE_HITS
    assert track_for("gun_crew", "three") is THREE_HITS
    assert track_for("support_crew", "three") is THREE_HITS


def test_the_servants_two_hit_track_is_the_default():
    # "les servants ... peuvent subir deux touches avant d'être éliminés", read as the group's
    # "six touches" and the PC's "trois touches": the 2nd hit eliminates.
    assert list(SERVANTS_TWO_HITS.states) == SEED_SERVANTS
    assert SERVANTS_TWO_HITS.length == 2
    assert track_for("support_crew") is SERVANTS_TWO_HITS
    assert track_for("gun_crew") is SERVANTS_TWO_HITS
    assert track_for("command_post") is THREE_HITS
    # Six hits for the group, three for the PC: the Nth line is the elimination.
    assert GROUP.length == 6
    assert THREE_HITS.length == 3
    assert FIRE.parse({"cdt": 1, "experience": "novice"}).crew_hits == "two"


@settings(max_examples=40, deadline=None)
@given(
    cdt=st.integers(1, 4),
    experience=st.sampled_from(sorted(EXPERIENCE)),
    target_moving=st.booleans(),
    before=st.sampled_from(SEED_GROUP[:-1]),
)
def test_state_after_one_fire_equals_brute_force(cdt, experience, target_moving, before):
    inp = fire(cdt=cdt, experience=experience, target_moving=target_moving, target_state=before)
    expected = brute_force_states(
        cdt, experience, -2 if target_moving else 0, SEED_GROUP, before, fires=1
    )
    assert dict(FIRE.odds(inp)) == expected


@pytest.mark.parametrize("before", SEED_CREW[:-1])
@pytest.mark.parametrize(
    ("target", "crew_hits"),
    [("command_post", "two"), ("support_crew", "three"), ("gun_crew", "three")],
)
def test_crew_state_after_two_fires_equals_brute_force(target, crew_hits, before):
    inp = fire(
        cdt=2, experience="veteran", target=target, target_state=before, fires=2,
        crew_hits=crew_hits,
    )  # fmt: skip
    assert dict(FIRE.odds(inp)) == brute_force_states(2, "veteran", 0, SEED_CREW, before, fires=2)


@pytest.mark.parametrize("before", SEED_SERVANTS[:-1])
@pytest.mark.parametrize("target", ["support_crew", "gun_crew"])
def test_servants_state_after_two_fires_equals_brute_force(target, before):
    inp = fire(cdt=2, experience="veteran", target=target, target_state=before, fires=2)
    expected = brute_force_states(2, "veteran", 0, SEED_SERVANTS, before, fires=2)
    assert dict(FIRE.odds(inp)) == expected


def test_group_after_three_fires_equals_brute_force():
    inp = fire(cdt=1, experience="trained", protection=1, target_state="1st pinned", fires=3)
    expected = brute_force_states(1, "trained", 1, SEED_GROUP, "1st pinned", fires=3)
    assert dict(FIRE.odds(inp)) == expected


def test_the_two_hit_crew_reading_eliminates_on_the_second_hit():
    inp = fire(cdt=2, experience="trained", target="support_crew")
    # Two D10 hitting on 5 or less (1/2 each): 0 hits 1/4, 1 hit 1/2, 2 hits 1/4.
    assert dict(FIRE.odds(inp)) == {
        "normal": Fraction(1, 4),
        "pinned": Fraction(1, 2),
        "eliminated": Fraction(1, 4),
    }
    three = inp.model_copy(update={"crew_hits": "three"})
    assert dict(FIRE.odds(three)) == {
        "normal": Fraction(1, 4),
        "pinned": Fraction(1, 2),
        "demoralized": Fraction(1, 4),
    }
    with pytest.raises(RuleError, match="must be one of normal, pinned for a support-weapon"):
        FIRE.odds(inp.model_copy(update={"target_state": "demoralized"}))
    # The command post keeps its printed three-hit track whatever the crews' reading.
    post = inp.model_copy(update={"target": "command_post"})
    assert set(FIRE.odds(post)) == {"normal", "pinned", "demoralized"}


def test_a_group_state_on_a_crew_is_refused():
    with pytest.raises(RuleError, match="'target_state' must be one of normal, pinned"):
        FIRE.odds(fire(cdt=1, experience="novice", target="gun_crew", target_state="2nd pinned"))


def test_composed_distributions_equal_the_procedure_for_identical_fires():
    inp = fire(cdt=3, experience="trained", range="short", target_state="1st pinned", fires=3)
    before = TargetState.named(GROUP, "1st pinned")
    assert state_odds(before, [inp] * 3) == FIRE.odds(inp)


def test_a_sequence_of_different_fires_composes_exactly():
    near = TirsPrecision(cdt=2, experience="veteran", range="short")
    far = TirsPrecision(cdt=2, experience="novice", range="long")
    odds = state_odds(TargetState(THREE_HITS), [near, far])
    # far: one die hitting on 4 or less; near: four dice hitting on 6 or less.
    near_hits = {k: Fraction(comb, 1) for k, comb in enumerate([1, 4, 6, 4, 1])}
    expected: Counter[int] = Counter()
    for k, ways in near_hits.items():
        p = ways * Fraction(6, 10) ** k * Fraction(4, 10) ** (4 - k)
        if k >= 3:
            expected[3] += p
            continue
        expected[min(k + 1, 3)] += p * Fraction(4, 10)
        expected[k] += p * Fraction(6, 10)
    assert dict(odds) == {SEED_CREW[k]: p for k, p in expected.items()}


def test_target_state_records_its_history_and_never_changes():
    fresh = TargetState(GROUP)
    hit = fresh.after(1)
    again = hit.after(4)
    assert (fresh.name, hit.name, again.name) == ("normal", "1st pinned", "1st eliminated")
    assert again.history == (1, 4)
    assert fresh.history == ()
    assert hit.elements == ("pinned", "normal")
    assert not hit.can_move
    assert hit.can_fire
    assert not hit.fires_pinned
    assert hit.after(1).fires_pinned
    assert not again.can_fire
    assert again.after(9).eliminated
    with pytest.raises(RuleError, match="eliminated: it cannot be fired on"):
        again.after(9).after(1)


def test_a_fire_stops_once_the_target_is_eliminated():
    inp = fire(
        cdt=2, experience="veteran", target="command_post", target_state="demoralized", fires=3
    )
    played = FIRE.replay(inp, [1, 1])
    assert played.outcome == "eliminated"
    assert [e.kind for e in played.trace] == ["count", "note"]


def test_fire_replay_traces_each_fire_and_the_track():
    inp = fire(cdt=3, experience="trained", target_moving=True, target_state="1st pinned")
    played = FIRE.replay(inp, [2, 7, 9])
    assert played.outcome == "1st demoralized"
    assert [str(e) for e in played.trace] == [
        "precision test (3 D10, hit on die -2 <= 5): 2 7 9 -> 2",
        "group_hits: 2 hits: 3 in all -> 1st demoralized",
    ]
