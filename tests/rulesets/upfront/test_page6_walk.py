"""The page 6 walk (malfunction = page6, a full group): its exact odds are the rule's
own (prefix replay of resolve_group_page6 on small piles, any firing group and reading), a
10-man group is walked within the web's work budget, and past its limits it answers in one
line."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firefight.chance import WorkBudgetError, exact, work_budget
from firefight.errors import RuleError
from firefight.rulesets.upfront import malfunction_walk
from firefight.rulesets.upfront.cards import load_deck
from firefight.rulesets.upfront.malfunction import Firer
from firefight.rulesets.upfront.malfunction_kinds import attack_of
from firefight.rulesets.upfront.malfunction_walk import page6_group_odds, resolve_group_page6
from firefight.rulesets.upfront.paths import ILLUSTRATIVE_DECK
from firefight.rulesets.upfront.resolution import MAN_RESULTS, Readings, Tally, targets

DECK = load_deck(ILLUSTRATIVE_DECK)
SPECIAL = [3, 14, 17, 29, 31, 45, 49, 51, 54]
"""Red RN 6 (3, 51, 54), red 5 (17, 45, 49), red 4 (14, 31) and a BREEZE card (29)."""
PLAIN = [1, 2, 4, 5, 6, 7, 8]
SPARE = [41, 42, 43]
"""The cards a reshuffle adds to the pile's own (every other card is in the opponent's hand,
out of a reshuffle), so that prefix replay stays small."""
TARGETS = ("ger-rifle-1", "ger-rifle-2", "us-rifle", "jap-rifle", "ger-leader")
STATES = ("", "pinned", "malfed", "captured", "not firing")


def _firers() -> list[object]:
    men = Readings().men_data()
    mp4 = replace(men.man("ger-leader"), id="mp4", malfunction=4)
    unarmed = replace(men.man("ger-rifle-1"), id="unarmed", weapon="unarmed", malfunction=None)
    ids = ("ger-lmg", "us-rifle", "us-bar", "ger-assistant")
    return [*(men.man(i) for i in ids), mp4, unarmed]


FIRER_MEN = _firers()


def _prefix_replay(inp: Readings, ffs: int, rr: int, group, firers):
    """The rule's own odds: the group's tally and each man's results, by prefix replay."""
    odds = exact(lambda chance: "|".join(resolve_group_page6(inp, chance, ffs, rr, group, firers)))
    tallies: dict[Tally, Fraction] = {}
    per_man: list[dict[str, Fraction]] = [{} for _ in group]
    for key, p in odds.items():
        results = key.split("|")
        tally = Tally.of(results)
        tallies[tally] = tallies.get(tally, Fraction(0)) + p
        for man, result in zip(per_man, results, strict=True):
            man[result] = man.get(result, Fraction(0)) + p
    return tallies, per_man


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(
    pile=st.lists(st.sampled_from(SPECIAL + PLAIN), min_size=2, max_size=6, unique=True),
    men=st.lists(st.sampled_from(TARGETS), min_size=1, max_size=3, unique=True),
    team=st.lists(
        st.tuples(st.integers(0, len(FIRER_MEN) - 1), st.sampled_from(STATES)),
        min_size=1,
        max_size=3,
        unique_by=lambda t: t[0],
    ),
    ffs=st.integers(-3, 6),
    smoke=st.sampled_from([0, -2]),
    select=st.sampled_from(["rpn", "lowest_malf"]),
    reshuffle=st.sampled_from(["discards", "end_attack"]),
    check=st.sampled_from(["red_at_least", "any_at_least"]),
    breaks_on=st.sampled_from(["malfunction_card", "repair"]),
    kinds=st.sampled_from(["latent", "split", "auto"]),
)
def test_the_page6_walk_gives_the_odds_of_prefix_replay_of_the_rule(  # noqa: PLR0917
    pile, men, team, ffs, smoke, select, reshuffle, check, breaks_on, kinds
):
    """Any small pile (red RN 4 to 6 malfunction weapons of numbers 4, 5 and 6; BREEZE clears
    smoke), any firing group of up to three (pinned, malfunctioned, captured, not firing,
    unarmed, an assistant crewman), either selection reading, the selection RPN read within
    the kinds or from kinds split by it: the walk's group tally and each man's odds are the
    rule's own, replayed over every sequence of cards."""
    kept = set(pile) | set(SPARE)
    inp = Readings(
        pool="omniscient",
        pile=",".join(map(str, pile)),
        opponent_hand=",".join(str(c.number) for c in DECK.cards if c.number not in kept),
        targets=",".join(men),
        smoke=smoke,
        reshuffle=reshuffle,
        malfunction="page6",
        malfunction_check=check,
        select=select,
        breaks_on=breaks_on,
    )
    group = targets(inp, inp.men_data())
    firers = tuple(
        Firer(
            FIRER_MEN[i],
            pinned=state == "pinned",
            malfed=state == "malfed",
            captured=state == "captured",
            firing=state != "not firing",
        )
        for i, state in team
    )
    walked = page6_group_odds(inp, ffs, 3, group, firers, kinds=kinds)
    tallies, per_man = _prefix_replay(inp, ffs, 3, group, firers)
    assert dict(walked.tally) == tallies
    assert [dict(odds) for _, odds in walked.men] == [
        {r: m[r] for r in MAN_RESULTS if r in m} for m in per_man
    ]
    assert sum(walked.tally.values()) == 1


def _first_kind_away(inp: Readings, ffs: int, group, firers) -> bool:
    """Whether, with kinds split by the selection RPN, some man's card group has cards in
    the pool but its first kind none (that kind's cards are only in the reshuffle)."""
    attack = attack_of(inp, ffs, 3, group, firers, (), True, {})
    pool, cut = attack.counts[0], attack.cut
    for position, ids in enumerate(cut.ids[: len(group)]):
        held = [0] * cut.groups[position]
        for kind, g in enumerate(ids):
            held[g] += pool[kind]
        if any(held[g] and not pool[first] for g, first in enumerate(cut.first[position])):
            return True
    return False


@pytest.mark.parametrize(
    ("pile", "men", "weapons", "ffs", "smoke", "reshuffle"),
    [
        ([49, 3, 14], 2, ("us-rifle", "ger-leader"), -1, 0, "discards"),
        ([54, 29, 49], 4, ("ger-assistant", "ger-leader"), -1, 0, "end_attack"),
        ([29, 49, 54, 45, 17], 4, ("us-rifle", "ger-leader"), 3, -2, "end_attack"),
        ([14, 49, 51, 6, 45], 2, ("ger-leader", "ger-assistant"), -1, 0, "end_attack"),
    ],
)
def test_a_selection_card_from_a_split_group_whose_first_kind_is_not_in_the_pile(  # noqa: PLR0917
    pile, men, weapons, ffs, smoke, reshuffle
):
    """Kinds split by the selection RPN: a card group holds the kinds of one RPN that the men
    read alike, and its first kind can be one whose cards are only in the reshuffle (card 41
    beside card 49 here) while the pool holds the group's other cards. A selection card
    drawn from that group still shows the group's RPN: both steps give the rule's own odds,
    every way of reading the selection, summing to 1 (reading the first kind alone lost the
    group's selection draws: 5/6 and 19/20 in all)."""
    kept = set(pile) | set(SPARE)
    inp = Readings(
        pool="omniscient",
        pile=",".join(map(str, pile)),
        opponent_hand=",".join(str(c.number) for c in DECK.cards if c.number not in kept),
        targets=",".join(TARGETS[:men]),
        smoke=smoke,
        reshuffle=reshuffle,
        malfunction="page6",
    )
    group = targets(inp, inp.men_data())
    firers = tuple(Firer(inp.men_data().man(i)) for i in weapons)
    assert _first_kind_away(inp, ffs, group, firers)
    tallies, per_man = _prefix_replay(inp, ffs, 3, group, firers)
    assert sum(tallies.values()) == 1
    for kinds in ("split", "latent", "auto"):
        for compiled in (True, False):
            walked = page6_group_odds(inp, ffs, 3, group, firers, kinds=kinds, compiled=compiled)
            assert dict(walked.tally) == tallies, (kinds, compiled)
            assert [dict(odds) for _, odds in walked.men] == [
                {r: m[r] for r in MAN_RESULTS if r in m} for m in per_man
            ]


def _ten_men(tmp_path) -> str:
    text = 'title = "ten riflemen"\n'
    for i in range(10):
        text += f"""
[[man]]
id = "r{i}"
nationality = "german"
rank = "private"
weapon = "rifle"
firepower = [1, 1, 2, 2, 3, 3]
morale = {3 + i % 2}
panic = {4 + i % 2}
rout = {5 + i % 2}
malfunction = 6
kia = 8
"""
    path = tmp_path / "men.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_ten_man_group_is_walked_within_the_web_budget(tmp_path):
    """Fire by an LMG (malfunction 5) and a rifle (6) with smoke in play on ten men of two
    profiles, the draw pile known (omniscient, 12 cards: red 6, red 5 and red 4 cards and a
    BREEZE among them): exact odds within the web's work budget."""
    pile = "3,14,17,29,31,45,1,2,4,5,6,7"
    inp = Readings(
        men=_ten_men(tmp_path),
        pool="omniscient",
        pile=pile,
        targets=",".join(f"r{i}" for i in range(10)),
        smoke=-2,
        malfunction="page6",
        reshuffle="end_attack",
    )
    illustrative = Readings().men_data()
    firers = (Firer(illustrative.man("ger-lmg")), Firer(illustrative.man("us-rifle")))
    with work_budget(100_000):
        walked = page6_group_odds(inp, 3, 5, targets(inp, inp.men_data()), firers)
    assert sum(walked.tally.values()) == 1
    assert len(walked.men) == 10
    assert all(sum(odds.values()) == 1 for _, odds in walked.men)
    assert walked.tally.probability(lambda t: t.counts[-1] == 1) > 0  # page 6 ended some


def test_a_page6_walk_past_the_web_budget_is_refused_in_one_line():
    """Over the 162-card pool the walk grows with every man; the web's budget stops it."""
    inp = Readings(targets=",".join(TARGETS), smoke=-2, malfunction="page6")
    men = inp.men_data()
    firers = tuple(Firer(men.man(i)) for i in ("ger-lmg", "us-rifle", "us-bar"))
    with pytest.raises(WorkBudgetError) as error, work_budget(2_000):
        page6_group_odds(inp, 3, 5, targets(inp, men), firers)
    assert "\n" not in str(error.value)


def test_more_pairs_than_the_page6_walk_keeps_is_one_line(monkeypatch):
    """Without a budget (the CLI) the walk stops at MAX_PAIRS (pool state, tally) pairs after
    a man, in one line naming the reading to change."""
    monkeypatch.setattr(malfunction_walk, "MAX_PAIRS", 50)
    inp = Readings(targets="ger-rifle-1,ger-rifle-2,us-rifle", malfunction="page6")
    men = inp.men_data()
    firers = tuple(Firer(men.man(i)) for i in ("ger-lmg", "ger-leader"))
    with pytest.raises(RuleError, match=r"malfunction = page6 need more than 50 \(pool") as error:
        page6_group_odds(inp, 3, 2, targets(inp, men), firers)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("kinds", ["latent", "split"])
@pytest.mark.parametrize("ffs", [-3, 0])
def test_selection_cards_read_twice_from_one_kind_give_the_rules_odds(ffs, kinds):
    """Three weapons every red 5 or 6 reaches (an LMG and a BAR, 5; an MP, 4): a malfunction
    draws a selection card, and a second malfunction another one, often from the same kind
    of cards (at a low FFS the plain cards are read alike). The second card's RPN depends on
    the first's, which the walk keeps (``_Mode.seen``): the odds are the rule's own."""
    pile = [3, 51, 54, 17, 45, 1, 2, 4, 5]
    inp = Readings(
        pool="omniscient",
        pile=",".join(map(str, pile)),
        targets="jap-rifle,ger-rifle-2",
        malfunction="page6",
        reshuffle="end_attack",
    )
    group = targets(inp, inp.men_data())
    lmg, bar, mp4 = FIRER_MEN[0], FIRER_MEN[2], FIRER_MEN[4]
    firers = (Firer(lmg), Firer(bar), Firer(mp4))
    walked = page6_group_odds(inp, ffs, 3, group, firers, kinds=kinds)
    tallies, per_man = _prefix_replay(inp, ffs, 3, group, firers)
    assert dict(walked.tally) == tallies
    assert [dict(odds) for _, odds in walked.men] == [
        {r: m[r] for r in MAN_RESULTS if r in m} for m in per_man
    ]


def test_the_ten_illustrative_men_under_page6_fire_are_within_the_web_budget():
    """Fire by a rifle (malfunction 6) and a BAR (5), FIRE card 62, on every illustrative man
    but the AFV, over the whole 162-card pool: exact odds within the web's work budget (the
    walk before refused past five men)."""
    from firefight.rulesets.upfront.fire import UpFrontFire, fire_odds  # noqa: PLC0415

    ten = "ger-rifle-1,ger-rifle-2,jap-rifle,brit-rifle,ita-rifle,ger-leader,ger-assistant"
    inp = UpFrontFire(
        targets=ten + ",ger-lmg,us-rifle,us-bar",
        firers="us-rifle,us-bar",
        fire_cards="62",
        malfunction="page6",
    )
    with work_budget(100_000):
        odds = fire_odds(inp)
    assert sum(odds.tally.values()) == 1
    assert len(odds.men) == 10
    assert 0 < odds.tally.probability(lambda t: t.counts[-1] == 1) < 1
