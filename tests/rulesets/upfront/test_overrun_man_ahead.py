"""Page 7's walk with the last man's own card and his TMM card drawn ahead (overrun_walk's
``man_ahead``): equal, Fraction for Fraction, to prefix replay of the rule and to the walk
that draws his card in his turn (his TMM card drawn ahead of every man, as before)."""

from __future__ import annotations

import pytest

from firefight.chance import exact
from firefight.rulesets.upfront import overrun_walk
from firefight.rulesets.upfront.overrun import OVERRUN, _overrun_rule, overrun_odds
from firefight.rulesets.upfront.overrun_draws import Attack

PILE = "3,9,14,22,31,40,57,77,101"
"""A pile that cannot run out before the last TMM card (what drawing ahead needs)."""

CASES = [
    {"targets": "us-rifle,us-bar,jap-rifle", "tmm": "jap-rifle", "defender_terrain": "woods"},
    {
        "targets": "us-rifle,us-bar,jap-rifle,brit-rifle",
        "tmm": "brit-rifle",
        "heroic": "brit-rifle",
        "crew": "crew_exposed",
        "defender_tem": -4,
    },
    {
        "targets": "ita-rifle,us-bar,jap-rifle,us-rifle",
        "tmm": "us-rifle",
        "heroic": "us-bar",
        "pinned_targets": "us-rifle",
        "malfunction": "continue",
        "defender_terrain": "buildings",
        "defender_tem": -2,
    },
    {
        "targets": "us-rifle,jap-rifle,ger-rifle-1",
        "tmm": "ger-rifle-1",
        "unpinned_when": "before",
        "ot_reading": "open_topped",
        "defender_tem": -6,
        "concealment": 3,
    },
]


def _input(data: dict[str, object]) -> object:
    return OVERRUN.parse({**data, "pool": "omniscient", "pile": PILE})


@pytest.mark.parametrize("data", CASES)
def test_the_last_mans_cards_drawn_ahead_give_the_odds_of_prefix_replay(data):
    inp = _input(data)
    walked = overrun_odds(inp)
    assert dict(walked) == dict(exact(lambda chance: _overrun_rule(inp, chance)))
    assert sum(walked.values()) == 1


@pytest.mark.parametrize("data", CASES)
def test_the_last_mans_cards_drawn_ahead_equal_the_walk_drawing_his_card_in_turn(data, monkeypatch):
    inp = _input(data)
    chosen: list[int] = []
    choose = overrun_walk.man_ahead

    def noted(ahead: tuple[int, ...], attack: Attack) -> int:
        chosen.append(choose(ahead, attack))
        return chosen[-1]

    monkeypatch.setattr(overrun_walk, "man_ahead", noted)
    ahead = overrun_odds(inp)
    assert chosen
    assert all(man == len(data["targets"].split(",")) - 1 for man in chosen)
    monkeypatch.setattr(overrun_walk, "man_ahead", lambda ahead, attack: -1)
    in_turn = overrun_odds(inp)
    assert dict(ahead) == dict(in_turn)


def test_smoke_keeps_the_last_mans_card_in_his_turn():
    data = {**CASES[0], "smoke": -2}
    inp = _input(data)
    assert dict(overrun_odds(inp)) == dict(exact(lambda chance: _overrun_rule(inp, chance)))
    attack = Attack((), (), (), False, (False, False, True), True)
    assert overrun_walk.man_ahead((2,), attack) == -1
    assert overrun_walk.man_ahead((2,), Attack((), (), (), False, (False, False, True), False))
