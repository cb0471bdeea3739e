"""Page 8's infiltration odds walked as draws as state (rulesets/upfront/infiltration_walk.py, ten
infiltrators with a Hero): equal to prefix replay of the rule on small piles, where the pile runs
out (a reshuffle, the end of the attack) or cannot; the law of the colours drawn where it is known;
ten infiltrators of distinct morale with a Hero over the whole deck within the web's work budget;
past ten, one line in the Python API, the CLI (exit 2) and the web (422)."""

from __future__ import annotations

import time
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firefight.chance import WorkBudgetError, exact, work_budget
from firefight.errors import InputError
from firefight.rulesets.upfront.infiltration import (
    INFILTRATION,
    INFILTRATORS_MAX,
    UpFrontInfiltration,
    _infiltration_rule,
    rpn_column,
)
from firefight.rulesets.upfront.infiltration_walk import Infiltration, walk
from firefight.web.app import WORK_BUDGET, create_app
from tests.helpers import run_cli

MAN = """
[[man]]
id = "m{i}"
nationality = "german"
rank = "private"
weapon = "rifle"
firepower = [1, 1, 2, 2, 3, 3]
morale = {morale}
panic = 5
rout = 6
"""
REFILL = 8
"""The cards a reshuffle brings back in the replayed cases (1 to 8; the others are in the
opponent's hand), so that replay stays small."""
OUT_OF_REFILL = ",".join(str(n) for n in range(REFILL + 1, 163))


def _men_file(folder: Path, morales: list[int]) -> str:
    text = 'title = "infiltrators"\n'
    for i, morale in enumerate(morales):
        text += MAN.format(i=i, morale=morale)
    path = folder / "men.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def men(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Eight men of morale 0 to 7 (RN 0-6: below, within and above every RN)."""
    return _men_file(tmp_path_factory.mktemp("men"), list(range(8)))


@pytest.fixture(scope="module")
def ten(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Eleven men of morale 0 to 6 in a mixed order, so that ten differ in morale as far as
    RN 0-6 can tell (morale 6 and above all pass)."""
    return _men_file(tmp_path_factory.mktemp("ten"), [3, 0, 5, 1, 6, 2, 4, 5, 1, 3, 2])


def _assert_walk_equals_replay(men: str, pile: list[int], who: list[int], **fields: object):
    """The walk's odds on a small omniscient pile (the reshuffle: cards 1 to REFILL) are
    exactly prefix replay of the rule, and add up to 1."""
    inp = INFILTRATION.parse(
        {
            "men": men,
            "pool": "omniscient",
            "pile": ",".join(map(str, pile)),
            "opponent_hand": OUT_OF_REFILL,
            "infiltrators": ",".join(f"m{i}" for i in who),
            **fields,
        }
    )
    walked = INFILTRATION.odds(inp)
    assert dict(walked) == dict(exact(lambda chance: _infiltration_rule(inp, chance)))
    assert sum(walked.values()) == 1


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    derandomize=True,
)
@given(
    pile=st.lists(st.integers(1, REFILL), min_size=1, max_size=REFILL, unique=True).map(sorted),
    who=st.lists(st.integers(0, 7), min_size=1, max_size=4),
    hero=st.booleans(),
    morale_check=st.sampled_from(["each", "none"]),
    morale_pass=st.sampled_from(["at_most", "below"]),
    reshuffle=st.sampled_from(["discards", "end_attack"]),
    defenders=st.integers(0, 10),
)
def test_the_walk_gives_the_odds_of_prefix_replay_of_the_rule(  # noqa: PLR0917
    men, pile, who, hero, morale_check, morale_pass, reshuffle, defenders
):
    """Any small pile (it may run out, or hold every card the attempts can draw), any men
    (repeats too), Hero or not, either morale reading and reshuffle, any column: the walk's
    odds are exactly the rule's own, replayed over every sequence of cards."""
    _assert_walk_equals_replay(
        men,
        pile,
        who,
        hero=hero,
        morale_check=morale_check,
        morale_pass=morale_pass,
        reshuffle=reshuffle,
        unpinned_defenders=defenders,
    )


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    derandomize=True,
)
@given(
    pile=st.lists(st.integers(1, REFILL), min_size=1, max_size=3, unique=True).map(sorted),
    who=st.lists(st.integers(0, 7), min_size=2, max_size=4),
    reshuffle=st.sampled_from(["discards", "end_attack"]),
    defenders=st.integers(1, 10),
)
def test_past_a_run_out_of_the_pile_the_walk_equals_prefix_replay(
    men, pile, who, reshuffle, defenders
):
    """A pile of 1 to 3 cards and 2 to 4 men with a Hero: the pile runs out at a morale
    check, an RPNC or the Hero's retry, and the rest is drawn from the reshuffle (or never)."""
    _assert_walk_equals_replay(
        men, pile, who, hero=True, reshuffle=reshuffle, unpinned_defenders=defenders
    )


def test_a_pile_that_runs_out_mid_attempt_reshuffles_into_the_same_walk(men):
    """Three men with a Hero on a 3-card pile: the RPNC or the Hero's retry of a man may be
    the first card of the reshuffled pile; the walk starts again there, as the rule draws."""
    _assert_walk_equals_replay(men, [2, 5, 7], [2, 4, 3], hero=True)


def test_ten_infiltrators_without_morale_checks_follow_the_hypergeometric_law(ten):
    """No morale check, no Hero: ten RPNCs drawn from the 162 cards, each man infiltrating on
    a red RPN under the column, so the number infiltrated is hypergeometric."""
    inp = UpFrontInfiltration(
        men=ten, infiltrators=",".join(f"m{i}" for i in range(10)), morale_check="none"
    )
    column = rpn_column(1)
    red = sum(1 for card in inp.deck_data().cards if card.rpn[column].red)
    odds = INFILTRATION.odds(inp)
    for k in range(11):
        name = f"infiltrated {k}, pinned (morale check) 0, pinned {10 - k}"
        expected = Fraction(comb(red, k) * comb(162 - red, 10 - k), comb(162, 10))
        assert odds.get(name, Fraction(0)) == expected


def test_a_hero_retries_only_the_first_black_rpn():
    """Two RPNC-only men and a Hero over a pile of reds and blacks: the first black is drawn
    again, the second man's black stands (the colour runs counted by the walk)."""
    attempt = Infiltration(
        thresholds=(None, None),
        hero=True,
        atoms=((0, True), (0, False)),
        start=(2, 3),
        refill=(2, 3),
        end_attack=False,
    )
    odds = walk(attempt)
    # both pinned: the first man's black, his retry's black, the second man's black
    assert odds[0, 0, 2, 0] == Fraction(3 * 2 * 1, 5 * 4 * 3)
    # one of each: R then B B (the Hero retries the second man), B R then B, B B then R
    assert odds[1, 0, 1, 0] == Fraction(3 * (2 * 3 * 2), 5 * 4 * 3)
    # both infiltrate: R R, R B R, B R R
    assert odds[2, 0, 0, 0] == Fraction(2 * 1, 5 * 4) + Fraction(2 * (2 * 3 * 1), 5 * 4 * 3)
    assert sum(odds.values()) == 1


def test_ten_infiltrators_of_distinct_morale_with_a_hero_fit_the_web_budget(ten):
    """Ten men of seven morale classes with a Hero over the 162-card pool fit the web's work
    budget (the walk card by card did not, past three such men; figures in docs/upfront.md,
    Figures)."""
    inp = UpFrontInfiltration(men=ten, infiltrators=",".join(f"m{i}" for i in range(10)), hero=True)
    start = time.perf_counter()
    with work_budget(WORK_BUDGET):
        odds = INFILTRATION.odds(inp)
    assert time.perf_counter() - start < 5  # measured 0.02 s; a loose bound for a loaded host
    assert sum(odds.values()) == 1
    # every (infiltrated, pinned by morale, pinned) adding up to 10 but ten pinned by their
    # morale check: morale 6 passes on every RN
    assert len(odds) == 65
    assert "infiltrated 0, pinned (morale check) 10, pinned 0" not in odds


def test_a_costly_infiltration_still_pays_the_web_work_budget(ten):
    inp = UpFrontInfiltration(men=ten, infiltrators=",".join(f"m{i}" for i in range(10)), hero=True)
    with pytest.raises(WorkBudgetError), work_budget(20):
        INFILTRATION.odds(inp)


ELEVEN = ",".join(f"m{i}" for i in range(11))
REFUSAL = f"'infiltrators' must be 1 to {INFILTRATORS_MAX} ids (got '{ELEVEN}')"


def test_eleven_infiltrators_are_refused_in_one_line(ten):
    assert INFILTRATORS_MAX == 10
    with pytest.raises(InputError) as refused:
        INFILTRATION.odds(UpFrontInfiltration(men=ten, infiltrators=ELEVEN, hero=True))
    assert str(refused.value) == REFUSAL


def test_eleven_infiltrators_are_one_line_and_exit_2_in_the_cli(capsys, ten):
    args = ("odds", "upfront", "infiltration", "--men", ten, "--infiltrators", ELEVEN)
    code, out, err = run_cli(capsys, *args)
    named = REFUSAL.replace("'infiltrators'", "'--infiltrators'")
    assert (code, out, err) == (2, "", f"error: {named}\n")


def test_eleven_infiltrators_are_a_one_line_422_on_the_web(ten):
    text = Path(ten).read_text(encoding="utf-8")
    body = {"men_toml": text, "infiltrators": ELEVEN, "hero": True}
    answer = TestClient(create_app()).post("/api/rulesets/upfront/infiltration/odds", json=body)
    assert answer.status_code == 422
    assert answer.json()["detail"] == REFUSAL
