"""Hostile requests to the V&V scenario API and to the board, history and procedure pages:
every one is answered with a one-line 422 (or a page), never a 500, and none holds a pool
process past the time limit."""

from __future__ import annotations

import json
import threading
import time

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firefight.rulesets.vv.scenario import sample_board_scenarios as sample_scenarios
from firefight.web import scenario as web_scenario
from firefight.web.app import create_app
from firefight.web.engage import EngagementTooCostlyError

TEXT = sample_scenarios()["village"].read_text(encoding="utf-8")
HEAD = 'name = "x"\nboard = "vv_village"\n'
ROUTES = {
    "/api/vv/scenario": {},
    "/api/vv/threat": {"side": "us"},
    "/api/vv/move": {"stack": "0206", "path": ["0306"]},
}


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app())


def _one_line_422(response) -> str:
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert "\n" not in detail
    return detail


@pytest.mark.parametrize("route", ROUTES)
def test_a_pasted_scenario_with_a_number_too_long_to_read_is_a_422(client, route):
    body = {"scenario": HEAD + "x = " + "9" * 5000 + "\n", **ROUTES[route]}
    detail = _one_line_422(client.post(route, json=body))
    assert detail.startswith("scenario: not a readable TOML file: a number in it has more than")


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("nesting", ["[" * 3000 + "]" * 3000, "{a=" * 3000 + "1" + "}" * 3000])
def test_a_pasted_scenario_nested_too_deeply_is_a_422(client, route, nesting):
    body = {"scenario": HEAD + "x = " + nesting + "\n", **ROUTES[route]}
    detail = _one_line_422(client.post(route, json=body))
    assert detail.startswith("scenario: line 3: arrays and inline tables nested too deeply")


def test_a_path_of_50_hexes_is_refused_before_any_work(client):
    body = {"scenario": TEXT, "stack": "0206", "path": ["0306", "0206"] * 25}
    assert _one_line_422(client.post("/api/vv/move", json=body)).startswith("'path' must be")


def _crowded(enemies: int) -> str:
    """A scenario with four moving squads and ``enemies`` MG-armed squads in the east."""
    squad = (
        '[[units]]\nid = "{id}"\nside = "{side}"\ntype = "squad"\nhex = "{hex}"\napfp = 5\n'
        "range = 12\ncasualty_rating = 4\nhalf_squad_rating = 2\nhalf_squad_apfp = 2\n"
        'support_weapons = [{{ name = "MG", class = "L", kind = "mg", apfp = 4, range = 12 }}]\n'
    )
    parts = [HEAD, '[sides.us]\nname = "A"\n[sides.de]\nname = "B"\n']
    parts += [squad.format(id=f"us{i}", side="us", hex="0106") for i in range(4)]
    hexes = [f"{c:02d}{r:02d}" for c in range(9, 17) for r in range(1, 13) for _ in range(4)]
    parts += [squad.format(id=f"de{i}", side="de", hex=h) for i, h in enumerate(hexes[:enemies])]
    return "".join(parts)


def test_a_costly_pasted_move_is_cut_off_at_the_time_limit(monkeypatch):
    """50 enemy MG squads firing on a 4-hex move: the real computation (not a stub) stops at
    the limit in a pool process's main thread, in one line."""
    monkeypatch.setattr(web_scenario, "SCENARIO_SECONDS", 0.02)
    body = {"scenario": _crowded(50), "stack": "0106", "path": ["0206", "0306", "0406", "0506"]}
    started = time.monotonic()
    status, answer = web_scenario.compute_answer("move", json.dumps(body))
    assert time.monotonic() - started < 5
    assert status == 422
    assert "a scenario whose answer takes at most 0.02 s here" in json.loads(answer)["detail"]


def test_the_limit_striking_inside_an_import_is_still_the_limit(monkeypatch):
    """The timer's error raised inside code that wraps it in one of its own (a module first
    imported then: Python reports the class body it cut short as a RuntimeError) is the one
    line of the limit, not a 500."""

    def importing(body: str) -> dict[str, object]:
        try:
            time.sleep(2)
        except EngagementTooCostlyError as error:
            raise RuntimeError("Error calling __set_name__ on 'Field' instance") from error
        return {}

    monkeypatch.setattr(web_scenario, "SCENARIO_SECONDS", 0.02)
    monkeypatch.setitem(web_scenario.ANSWERS, "importing", importing)
    status, answer = web_scenario.compute_answer("importing", "{}")
    assert status == 422
    assert "a scenario whose answer takes at most 0.02 s here" in json.loads(answer)["detail"]


VALUES = st.sampled_from(
    [
        "0",
        "-1",
        "99999",
        "1.5",
        "nan",
        "-inf",
        "true",
        '"x"',
        '""',
        '"\\u001b[2J"',
        "[]",
        "[1, 2]",
        "{}",
        "{ a = 1 }",
        "1979-05-27",
        '"0206"',
        '"9999"',
        '"afv"',
        '"gun"',
        '"leader"',
        '"mg_team"',
        '"pinned"',
        "9" * 4400,
        "[" * 600 + "]" * 600,
    ]
)
LINES = TEXT.splitlines()
EDITABLE = [i for i, line in enumerate(LINES) if " = " in line and not line.startswith("#")]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    edits=st.lists(st.tuples(st.sampled_from(EDITABLE), VALUES), min_size=1, max_size=3),
    route=st.sampled_from(sorted(ROUTES)),
)
def test_a_mangled_sample_scenario_is_answered_never_a_500(edits, route):
    lines = list(LINES)
    for index, value in edits:
        lines[index] = lines[index].split(" = ")[0] + " = " + value
    body = {"scenario": "\n".join(lines), **ROUTES[route]}
    status, answer = web_scenario.compute_answer(route.rsplit("/", 1)[1], json.dumps(body))
    assert status in {200, 422}, answer
    if status == 422:
        assert "\n" not in json.loads(answer)["detail"]


@pytest.mark.parametrize(
    ("player", "field"),
    [({"nobody": "0306"}, "player"), ({"de-sq1": "0406"}, "player.de-sq1+de-ldr")],
)
def test_a_bad_player_choice_names_the_apis_player_field(client, player, field):
    """The CLI's --fire is the API's ``player``: the 422 names the field the request sent."""
    body = {"scenario": TEXT, "stack": "0206", "path": ["0306"], "policy": "player"}
    response = client.post("/api/vv/move", json={**body, "player": player})
    detail = _one_line_422(response)
    assert response.json()["field"] == field
    assert detail.startswith(f"'{field}' must be")


def test_odds_are_not_held_up_by_a_costly_pasted_scenario():
    """``firefight serve`` with one odds process: a pasted move that runs to the 20 s limit is
    computed apart, and an odds request sent while it runs comes back before it (before: the
    odds waited in the same pool for the move to be cut off)."""
    from tests.web.served import serving  # noqa: PLC0415 - a served test's own helper
    from tests.web.test_slow_requests import COSTLY, post  # noqa: PLC0415

    body = {"scenario": _crowded(50), "stack": "0106", "path": ["0206", "0306", "0406", "0506"]}
    finished: dict[str, float] = {}
    with serving(env={"FIREFIGHT_COMPUTE_PROCESSES": "1"}) as server:

        def ask(name: str, route: str, data: dict[str, object]) -> None:
            server.request(post(route, data), timeout=120)
            finished[name] = time.monotonic()

        costly = threading.Thread(target=ask, args=("move", "/api/vv/move", body))
        costly.start()
        time.sleep(1)  # the move is in its pool
        ask("odds", "/api/rulesets/tirs/fire/odds", COSTLY[0])
        costly.join()
    assert finished["odds"] < finished["move"]


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ("x = " + "9" * 5000, "scenario: TOML: a number in it has more than 4300 digits"),
        ("x = " + "[" * 3000 + "]" * 3000, "scenario: TOML: arrays and tables nested more than"),
    ],
)
def test_a_pasted_engagement_the_toml_parser_cannot_read_is_a_422(client, toml, message):
    """The same pool's other route: a 500 before."""
    detail = _one_line_422(client.post("/api/engage", json={"scenario": toml}))
    assert detail.startswith(message)
