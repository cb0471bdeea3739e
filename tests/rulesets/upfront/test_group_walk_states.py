"""The page 3 walk over pool states tells card kinds apart only by what can still change a
result (so exact group odds are fast for mixed groups), and stays the rule's own odds."""

from __future__ import annotations

from firefight.chance import exact
from firefight.rulesets.upfront.fire import RESOLUTION
from firefight.rulesets.upfront.group import _Kind, _partitions
from firefight.rulesets.upfront.resolution import UpFrontResolution


def _kind(malfunction: bool, *results: tuple[int, int]) -> _Kind:
    return _Kind(malfunction=malfunction, breeze=False, results=results)


def test_with_smoke_in_play_the_drawing_mans_result_without_smoke_does_not_split_kinds():
    # two kinds alike but for the first man's result without smoke: he reads his card with
    # smoke in play (BREEZE clears it only after his card), so they are one group for him
    a = _kind(False, (1, 2), (3, 4))
    b = _kind(False, (1, 5), (3, 4))
    parts = _partitions([a, b], 2, smoke=True, ends=True)
    assert parts[0, True] == ((0, 0), 1)
    assert parts[0, False] == ((0, 1), 2)  # without smoke his result tells them apart


def test_a_malfunction_that_does_not_end_the_attack_does_not_split_kinds():
    a = _kind(True, (1, 1))
    b = _kind(False, (1, 1))
    assert _partitions([a, b], 1, smoke=False, ends=False)[0, False] == ((0, 0), 1)
    assert _partitions([a, b], 1, smoke=False, ends=True)[0, False] == ((0, 1), 2)


def test_a_mixed_group_with_smoke_walked_over_fewer_states_equals_prefix_replay():
    inp = UpFrontResolution(
        pool="omniscient",
        pile="29,69,17,45,1,2,4,5,6",  # 29, 69: BREEZE; 17, 45: red RN 5
        ffs=4,
        rr=5,
        smoke=-3,
        firers="ger-lmg",
        targets="ger-rifle-1,us-bar,jap-rifle,ger-rifle-2",
    )
    assert dict(RESOLUTION.odds(inp)) == dict(exact(lambda chance: RESOLUTION.rule(inp, chance)))


def test_distinct_men_pinned_and_wounded_with_smoke_equal_prefix_replay():
    """Five men of five distinct profiles, some pinned or wounded (rout and second-wound
    branches), smoke in play with two BREEZE cards and a malfunction that ends the attack:
    the walk's tally and each man's odds equal prefix replay of the rule on a small pile."""
    inp = UpFrontResolution(
        pool="omniscient",
        pile="29,69,17,45,1,2,3,4,5",  # 29, 69: BREEZE; 17, 45: red RN 5
        ffs=3,
        rr=5,
        smoke=-2,
        firers="ger-lmg",
        targets="ger-rifle-1,us-bar,jap-rifle,ger-rifle-2,ger-leader",
        pinned_targets="us-bar,ger-rifle-2",
        wounded_targets="jap-rifle",
    )
    assert dict(RESOLUTION.odds(inp)) == dict(exact(lambda chance: RESOLUTION.rule(inp, chance)))


def test_distinct_men_past_the_pile_reshuffle_equal_prefix_replay():
    """Four distinct men drawing from a 3-card pile: the fourth card comes from the reshuffled
    discards (reshuffle = discards), walked as the rule draws it."""
    inp = UpFrontResolution(
        pool="omniscient",
        pile="29,17,1",
        seen="2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,18,19,20",
        ffs=4,
        rr=3,
        smoke=-1,
        firers="ger-rifle-1",
        malfunction="continue",
        targets="ger-rifle-1,us-bar,jap-rifle,ger-leader",
        pinned_targets="jap-rifle",
    )
    assert dict(RESOLUTION.odds(inp)) == dict(exact(lambda chance: RESOLUTION.rule(inp, chance)))


def test_ten_distinct_men_with_smoke_are_within_the_webs_work_budget(tmp_path):
    """The walk is charged by its measured time (group.DRAWS_PER_STEP), so the exact odds of
    a 10-man group of ten distinct profiles, smoke in play or not, fit the web's budget
    (the walk in Python refused the one with smoke; figures in docs/upfront.md, Figures)."""
    from firefight.chance import work_budget  # noqa: PLC0415
    from firefight.web.app import WORK_BUDGET  # noqa: PLC0415

    text = 'title = "ten distinct"\n'
    for i in range(10):
        text += (
            f'[[man]]\nid = "r{i}"\nnationality = "german"\nrank = "private"\n'
            'weapon = "rifle"\nfirepower = [1, 1, 2, 2, 3, 3]\n'
            f"morale = {2 + i % 5}\npanic = {3 + i % 5}\nrout = {4 + i % 3}\n"
            f"malfunction = 6\nkia = {6 + i % 4}\n"
        )
    men = tmp_path / "men.toml"
    men.write_text(text, encoding="utf-8")
    targets = ",".join(f"r{i}" for i in range(10))
    plain = UpFrontResolution(men=str(men), ffs=3, rr=5, targets=targets, firers="r0")
    for inp in (plain, plain.model_copy(update={"smoke": -2})):
        with work_budget(WORK_BUDGET):
            odds = RESOLUTION.odds(inp)
        assert sum(odds.values()) == 1
