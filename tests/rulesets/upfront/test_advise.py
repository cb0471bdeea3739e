"""The Up Front advisor (the best play from the hand): its ranking equals a brute-force twin
that lists every set of the hand's FIRE cards (with every CONCEALMENT and SMOKE added, and the
attack called off), evaluates each with the plain fire procedure's odds, and ranks them; the
subset sums equal the listing of every subset; the faces (command, route, card page) answer
from it, under the web's work budget."""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from itertools import combinations

import pytest

from firefight.rulesets.upfront.advise import (
    OBJECTIVES,
    AdviseInput,
    Objective,
    advise,
    hand_totals,
    play_input,
)
from firefight.rulesets.upfront.cards import Card
from firefight.rulesets.upfront.fire import FIRE
from firefight.rulesets.upfront.firepower import is_fire_card
from firefight.rulesets.upfront.outcomes import read_tally
from tests.helpers import run_cli

SQUAD = "ger-rifle-1,ger-rifle-2,ger-lmg,ger-assistant"
SITUATION = {"firers": SQUAD, "targets": "us-rifle,us-bar", "rr": 3}
HAND = "64,67,70,5,129,131,137"
"""Three FIRE cards (2, 3, 4), a terrain card, two CONCEALMENT cards and a SMOKE card."""


def _inp(**more: object) -> AdviseInput:
    return AdviseInput.model_validate({**SITUATION, "hand": HAND, **more})


def _subsets(cards: list[Card]) -> Iterator[tuple[Card, ...]]:
    for size in range(1, len(cards) + 1):
        yield from combinations(cards, size)


def _brute_force(inp: AdviseInput) -> dict[tuple[int, int | None, int | None], dict[str, Fraction]]:
    """Every play listed and evaluated with the fire procedure's own odds, grouped by its
    FIRE total and the values added: the groups must have one distribution each."""
    deck = inp.deck_data()
    hand = [deck.card(n) for n in inp.hand]
    fire = [c for c in hand if is_fire_card(c, "german")]
    extra = {kind: [None, *(c for c in hand if c.kind == kind)] for kind in ("concealed", "smoke")}
    fp = advise(inp).fp
    groups: dict[tuple[int, int | None, int | None], dict[str, Fraction]] = {}
    for chosen in _subsets(fire):
        total = sum(c.value or 0 for c in chosen)
        if total > fp:
            continue
        for concealment in extra["concealed"]:
            for smoke in extra["smoke"]:
                fire_inp = play_input(inp, tuple(c.number for c in chosen), concealment, smoke)
                odds = dict(FIRE.odds(fire_inp).items())
                key = (
                    total,
                    None if concealment is None else concealment.value,
                    None if smoke is None else inp.smoke_card,
                )
                assert groups.setdefault(key, odds) == odds  # one play: one distribution
    return groups


def _score(odds: dict[str, Fraction], objective: Objective) -> Fraction:
    tallies = [(read_tally(o), p) for o, p in odds.items()]
    if objective == "kia":
        return sum((p for t, p in tallies if t and t[0].counts[0]), Fraction(0))
    if objective == "no_effect":
        return sum((p for t, p in tallies if t and not any(t[0].counts[:5])), Fraction(0))
    return sum((p * t[1] for t, p in tallies if t), Fraction(0))


@pytest.mark.parametrize("objective", OBJECTIVES)
def test_the_ranking_equals_every_play_listed_and_evaluated_alone(objective: Objective):
    inp = _inp(objective=objective)
    advice = advise(inp)
    deck = inp.deck_data()
    found = {}
    for play in advice.plays:
        if play.call_off:
            continue
        concealment = None if play.concealment is None else deck.card(play.concealment).value
        smoke = None if play.smoke is None else inp.smoke_card
        found[(play.total, concealment, smoke)] = dict(play.outcomes.items())
        assert sum(play.vp.values()) == 1
        assert play.score(objective) == _score(found[(play.total, concealment, smoke)], objective)
    twin = _brute_force(inp)
    assert found == twin
    scores = [p.score(objective) for p in advice.plays]
    best_first = sorted(scores, reverse=objective != "no_effect")
    assert scores == best_first
    assert advice.behind(advice.plays[0]) == 0
    assert all(advice.behind(p) >= 0 for p in advice.plays)


def test_calling_off_is_a_play_of_no_effect():
    advice = advise(_inp())
    (off,) = [p for p in advice.plays if p.call_off]
    assert off.expected_vp == 0
    assert off.p_no_effect == 1
    assert off.kept == _inp().hand


def test_subset_sums_equal_every_subset_listed():
    cards = [(3, 2), (9, 1), (12, 2), (20, 3), (41, 1), (50, 4), (77, 2)]
    for fp in (0, 1, 4, 7, 15):
        listed: dict[int, list[tuple[int, ...]]] = {}
        for size in range(1, len(cards) + 1):
            for chosen in combinations(sorted(cards), size):
                total = sum(v for _n, v in chosen)
                if total <= fp:
                    listed.setdefault(total, []).append(tuple(n for n, _v in chosen))
        expected = {
            t: (len(sets), min(sets, key=lambda s: (len(s), s))) for t, sets in listed.items()
        }
        assert hand_totals(cards, fp) == expected


def test_the_best_play_is_the_strongest_fire_on_the_sample_hand():
    best = advise(_inp()).plays[0]
    assert best.fire_cards == (64, 67, 70)
    assert best.concealment is None
    assert best.smoke is None
    assert best.kept == (5, 129, 131, 137)


def test_a_hand_without_fire_cards_is_refused_in_one_line():
    from firefight.errors import InputError  # noqa: PLC0415

    with pytest.raises(InputError, match="'hand' must be a hand holding one or more FIRE"):
        advise(AdviseInput.model_validate({**SITUATION, "hand": "5,129"}))


def test_the_command_prints_the_ranking_and_its_json(capsys: pytest.CaptureFixture[str]):
    args = ["advise", "--firers", SQUAD, "--targets", "us-rifle,us-bar", "--hand", HAND]
    code, out, _err = run_cli(capsys, *args, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["shape"] == 1
    assert data["objective"] == "expected_vp"
    assert data["best"]["fire_cards"] == [64, 67, 70]
    assert data["kept_valued"] is False
    assert data["plays"][0] == data["best"]
    for play in data["plays"]:
        assert sum(Fraction(p) for p in play["vp"].values()) == 1
    code, out, _err = run_cli(capsys, *args, "--objective", "kia")
    assert code == 0
    assert "Best play: FIRE 64+67+70 = 9" in out


def test_the_command_refuses_a_bad_objective_in_one_line(capsys: pytest.CaptureFixture[str]):
    code, _out, err = run_cli(capsys, "advise", "--hand", HAND, "--objective", "most")
    assert code == 2
    assert err == "error: '--objective' must be one of expected_vp, kia, no_effect (got 'most')\n"
