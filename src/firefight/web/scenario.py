"""V&V scenarios on the web (issue 15): the board with the scenario's counters, the threat map
of the side that moves, a stack's path clicked hex by hex with the exact odds per hex, and a
seeded roll (docs/vv.md, "Threat map" and "Scenarios, movement and opportunity fire").

* ``GET /rulesets/vv/scenario?name=village`` — the page (a sample, or your scenario's TOML
  loaded in the page);
* ``GET /api/vv/scenarios`` — the samples; ``POST /api/vv/scenario`` — ``{"scenario": TOML}``:
  the scenario as data and its board drawn (what the page shows for a pasted scenario);
* ``POST /api/vv/threat`` — ``{"scenario": TOML, "side", "stack"?, "assault"?,
  "standing_lanes"?, "lane_side"?, "lane_naturals"?, "lane_after_mg_pinned"?}``:
  ``firefight threat --json``, the standing fire lanes' attacks included (13.9);
* ``POST /api/vv/move`` — ``{"scenario": TOML, "stack", "path": [HEX, ...], "policy"?,
  "player"?, "assault"?, "lanes"?, "lane_side"?, "lane_length"?, "lane_naturals"?,
  "lane_after_mg_pinned"?, "standing_lanes"?, "seed"? | "roll"?}``: ``firefight move --json``,
  the exact odds along the path or one run with its trace, with the move's fire lanes.

A scenario sent to the server names a sample board (``vv_village``): the server reads no file
it is told. Bad input is a 422 with the CLI's one line, as everywhere in the API. Answers are
computed in the server's pool of processes (:class:`~firefight.web.app.Calculator`), and a pool
process gives up after :data:`SCENARIO_SECONDS` (a one-line 422).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from firefight.board.overlay import (
    LANE_COLOUR,
    PATH_COLOUR,
    SHADE_ALPHA,
    SHADE_STOPS,
    SIDE_COLOURS,
    ink_on,
    legend_stops,
)
from firefight.digits import SEED_MAX
from firefight.errors import QUOTED_MAX, FirefightError, InputError, one_of, quoted
from firefight.web import language, schemas
from firefight.web.boardsvg import board_svg

if TYPE_CHECKING:
    from firefight.rulesets.vv.lanes import FireLane, LaneReadings
    from firefight.rulesets.vv.scenario import Scenario

HERE = Path(__file__).resolve().parent
SOURCE = "scenario"
"""How a pasted scenario is named in its errors."""
SCENARIO_SECONDS = 20
"""The most time a pool process spends on one answer (the sample's threat map takes about
30 ms)."""
log = logging.getLogger("firefight.web")

Compute = Callable[..., Awaitable[tuple[int, bytes]]]

ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": schemas.ErrorOut, "description": "Unknown sample scenario"},
    422: {"model": schemas.ErrorOut, "description": "Bad input: the CLI's one-line message"},
    413: {"model": schemas.ErrorOut, "description": "Request body over 64 KiB"},
}


class ScenarioTooCostlyError(InputError):
    """An answer took longer than :data:`SCENARIO_SECONDS` in a pool process."""

    def __init__(self) -> None:
        super().__init__(
            "scenario",
            f"a scenario whose answer takes at most {SCENARIO_SECONDS} s here (fewer units or "
            "a shorter path; the command line has no limit)",
            f"more than {SCENARIO_SECONDS} s",
        )


class ScenarioIn(BaseModel):
    """A scenario's TOML text."""

    model_config = ConfigDict(extra="forbid")

    scenario: str = Field(max_length=60_000, description="The scenario file's TOML text.")


class LaneOptions(ScenarioIn):
    """The fire lane options (13.9, 13.91) shared by the threat map and the move: the CLI's
    ``--standing-lanes``, ``--lane-side``, ``--lane-naturals``, ``--lane-after-mg-pinned``
    (:class:`~firefight.rulesets.vv.lanes.LaneReadings`, checked there in one line)."""

    standing_lanes: str | None = Field(
        None,
        max_length=400,
        description="Lanes laid earlier in the Movement Phase: FROM-TO,... (0605-0305).",
    )
    lane_side: str = Field(
        "left", max_length=20, description="A staggered lane's first marker: left or right."
    )
    lane_naturals: str = Field(
        "none", max_length=20, description="Lane rolls call for valor and snipers (16.2, 17.2)."
    )
    lane_after_mg_pinned: str = Field(
        "stays",
        max_length=20,
        description="A standing lane whose MG is pinned or eliminated: stays or removed.",
    )

    def readings(self, length: str = "to_target") -> LaneReadings:
        """These options as the lanes' readings."""
        from firefight.core.inputs import validate  # noqa: PLC0415
        from firefight.rulesets.vv.lanes import LaneReadings  # noqa: PLC0415

        return validate(
            LaneReadings,
            {
                "first_side": self.lane_side,
                "length": length,
                "naturals": self.lane_naturals,
                "after_mg_pinned": self.lane_after_mg_pinned,
            },
        )

    def standing(self, scenario: Scenario, readings: LaneReadings) -> tuple[FireLane, ...]:
        """The standing lanes named, laid on the scenario's board."""
        from firefight.rulesets.vv.lanes import (  # noqa: PLC0415
            lanes_laid_earlier,
            parse_lane_pairs,
        )

        pairs = parse_lane_pairs(self.standing_lanes or "")
        return lanes_laid_earlier(scenario, pairs, readings)


class ThreatIn(LaneOptions):
    """A threat map request (``firefight threat``'s options)."""

    side: str = Field(max_length=40, description="The side about to move (its key).")
    stack: str | None = Field(
        None, max_length=8, description="The moving stack's hex: its units are the target."
    )
    assault: bool = Field(False, description="The target uses Assault Movement (6.4).")


class MoveIn(LaneOptions):
    """A move (``firefight move``'s options): the exact odds, or one run with ``seed`` or
    ``roll``."""

    stack: str = Field(max_length=8, description="The moving stack's hex.")
    path: list[str] = Field(
        min_length=1, max_length=40, description="The hexes entered, in order (CCRR labels)."
    )
    policy: str = Field("threshold", max_length=20, description="The opportunity fire policy.")
    player: dict[str, str] | None = Field(
        None,
        max_length=40,
        description="With policy player: the hex each firer fires at (firer id -> hex).",
    )
    assault: bool = Field(False, description="Assault Movement (6.4).")
    lanes: str = Field(
        "always",
        max_length=20,
        description="Fire lanes (13.9): always = MGs firing on opportunity lay them; never.",
    )
    lane_length: str = Field(
        "to_target", max_length=20, description="A lane's length: to_target or to_mg_range."
    )
    seed: int | None = Field(
        None, ge=0, le=SEED_MAX, description="Resolve one move with this seed."
    )
    roll: str | list[str] | None = Field(
        None,
        max_length=4000,
        description="Resolve one move with these dice (3,4,... or a run's replay list).",
    )


def sample_text(name: str) -> str:
    """A sample scenario's TOML (an unknown name: a 404 naming the samples)."""
    from firefight.rulesets.vv.scenario import sample_scenarios  # noqa: PLC0415

    samples = sample_scenarios()
    if name not in samples:
        from firefight.web.errors import NotFoundError  # noqa: PLC0415

        raise NotFoundError(InputError("name", one_of(samples), name))
    return samples[name].read_text(encoding="utf-8")


def parse(text: str, source: str = SOURCE) -> Scenario:
    """A scenario from its TOML text; its board must be a sample board (never a path)."""
    from firefight.board.board import MAX_TOML_VALUES, board_file_error  # noqa: PLC0415
    from firefight.core.files import FileError, parse_toml  # noqa: PLC0415
    from firefight.rulesets.boards import sample_boards  # noqa: PLC0415
    from firefight.rulesets.vv.scenario import ScenarioError, scenario_from_data  # noqa: PLC0415

    try:
        data = parse_toml(text, source, max_values=MAX_TOML_VALUES)
    except FileError as error:  # syntax, nesting, values or a number too long: one line
        if error.reason == "syntax":
            raise ScenarioError(f"{source}: not TOML ({error.problem})") from None
        raise ScenarioError(str(board_file_error(error, source, text, toml=True))) from None
    board = data.get("board")
    boards = list(sample_boards())  # a sample's name only: scenario_from_data checks its rules
    if board not in boards:
        short = isinstance(board, str) and len(board) <= QUOTED_MAX
        shown = json.dumps(board) if short else quoted(board)
        allowed = "a sample board on the web: one of " + ", ".join(boards)
        msg = f"{source}: 'board' must be {allowed} (got {shown})"
        raise ScenarioError(msg)
    return scenario_from_data(data, source)


def units_json(scenario: Scenario) -> list[dict[str, object]]:
    """The counters the page draws: each unit with its side's index (colours) and its text."""
    from firefight.rulesets.vv.threat import scenario_counters  # noqa: PLC0415

    label = scenario.board.label
    return [
        {
            "id": unit.id,
            "name": unit.label,
            "side": unit.side,
            "side_index": counter.side,
            "kind": unit.type,
            "hex": label(unit.hex),
            "text": counter.text,
            "state": counter.state,
        }
        for unit, counter in zip(scenario.units, scenario_counters(scenario), strict=True)
    ]


def page_data(scenario: Scenario, text: str) -> dict[str, object]:
    """What the page's script starts from: the scenario's text and counters, the colours."""
    return {
        "scenario": text,
        "board": scenario.board_name,
        "sides": dict(scenario.sides),
        "units": units_json(scenario),
        "colours": {
            "stops": [list(stop) for stop in SHADE_STOPS],
            "alpha": SHADE_ALPHA,
            "sides": [list(pair) for pair in SIDE_COLOURS],
            "lane": LANE_COLOUR,
            "path": PATH_COLOUR,
        },
    }


def threat_answer(request: ThreatIn) -> dict[str, object]:
    """``firefight threat --json`` for a request."""
    from firefight.rulesets.vv.threat import threat_json, threat_map  # noqa: PLC0415

    scenario = parse(request.scenario)
    stack = None
    if request.stack is not None:
        try:
            stack = scenario.board.hex(request.stack)
        except InputError as error:
            raise InputError("stack", error.allowed, request.stack) from None
    readings = request.readings()
    found = threat_map(
        scenario,
        request.side,
        stack=stack,
        assault_movement=request.assault,
        lanes=request.standing(scenario, readings),
        lane_readings=readings,
    )
    return threat_json(found)


def move_answer(request: MoveIn) -> dict[str, object]:
    """``firefight move --json``: the exact odds along the path, or one seeded or scripted
    run with its trace, with the move's fire lanes (``lanes``, per hex ``lane_markers``)."""
    from firefight.faces import parse_roll  # noqa: PLC0415
    from firefight.rulesets.vv.at_move import build_at_move  # noqa: PLC0415
    from firefight.rulesets.vv.movement import plan_move  # noqa: PLC0415
    from firefight.rulesets.vv.opportunity import model_odds, model_run  # noqa: PLC0415

    if request.seed is not None and request.roll is not None:
        raise InputError("seed/roll", "at most one of seed or roll", "both")
    scenario = parse(request.scenario)
    plan = plan_move(scenario, request.stack, request.path, assault=request.assault)
    readings = request.readings(request.lane_length)
    try:
        whole = build_at_move(  # the CLI's move: AP fire, fire lanes, AT fire (none rated here)
            plan,
            request.policy,
            player=request.player,
            lanes=request.lanes,
            lane_readings=readings,
            standing=request.standing(scenario, readings),
        )
        move = whole.lanes
        if request.seed is not None:
            return whole.with_at(model_run(move.model, seed=request.seed).to_json())
        if request.roll is not None:
            roll = request.roll if isinstance(request.roll, str) else ",".join(request.roll)
            dice = parse_roll(roll)
            return whole.with_at(model_run(move.model, roll=dice).to_json())
        return whole.with_at(model_odds(move.model, request.policy, move.options).to_json())
    except InputError as error:  # the CLI's --fire is this API's "player" field
        if error.field != "fire" and not error.field.startswith("fire."):
            raise
        raise InputError("player" + error.field[4:], error.allowed, error.got) from None


def scenario_answer(request: ScenarioIn) -> dict[str, object]:
    """The scenario as the page needs it: its data, its counters and its board drawn."""
    scenario = parse(request.scenario)
    drawing = board_svg(scenario.board)
    return {
        **page_data(scenario, request.scenario),
        "name": scenario.name,
        "drawing": {
            "view_box": drawing.view_box,
            "width": drawing.width,
            "height": drawing.height,
            "hexes": [asdict(h) for h in drawing.hexes],
            "sides": [asdict(s) for s in drawing.sides],
        },
    }


ANSWERS: dict[str, Callable[[Any], dict[str, object]]] = {
    "threat": lambda body: threat_answer(ThreatIn.model_validate_json(body)),
    "scenario": lambda body: scenario_answer(ScenarioIn.model_validate_json(body)),
    "move": lambda body: move_answer(MoveIn.model_validate_json(body)),
}


def compute_answer(what: str, body: str) -> tuple[int, bytes]:
    """One answer as the API's status and JSON body; it runs in a pool process, so it takes and
    gives strings and bytes and never raises (a user error is its answer, a bug a 500)."""
    from firefight.web.engage import EngagementTooCostlyError, _time_limit  # noqa: PLC0415
    from firefight.web.errors import api_error  # noqa: PLC0415

    try:
        with _time_limit(SCENARIO_SECONDS):
            found = ANSWERS[what](body)
    except EngagementTooCostlyError:
        return api_error(ScenarioTooCostlyError())
    except FirefightError as error:
        return api_error(error)
    except Exception:
        log.exception("scenario answer failed")
        return 500, json.dumps({"detail": "Internal Server Error", "field": None}).encode()
    return 200, json.dumps(found, ensure_ascii=False, separators=(",", ":")).encode()


def router(compute: Compute) -> APIRouter:
    """The scenario page and its API routes (included by :func:`firefight.web.app.create_app`;
    ``compute`` is its :class:`~firefight.web.app.Calculator`)."""
    routes = APIRouter()
    templates = language.templates(HERE / "templates")

    async def reply(what: str, request: BaseModel) -> Response:
        status, body = await compute(compute_answer, what, request.model_dump_json())
        return Response(body, status_code=status, media_type="application/json")

    @routes.get("/api/vv/scenarios", tags=["vv scenarios"])
    def api_samples() -> list[dict[str, str]]:
        """The sample V&V scenarios: ``[{"name", "title", "board"}]``."""
        from firefight.rulesets.vv.scenario import load_scenario, sample_scenarios  # noqa: PLC0415

        found = []
        for name in sample_scenarios():
            scenario = load_scenario(name)
            found.append({"name": name, "title": scenario.name, "board": scenario.board_name})
        return found

    @routes.post("/api/vv/scenario", tags=["vv scenarios"], responses=ERRORS, response_model=None)
    async def api_scenario(request: ScenarioIn) -> Response:
        """A scenario as the page draws it: its counters, sides and board."""
        return await reply("scenario", request)

    @routes.post("/api/vv/threat", tags=["vv scenarios"], responses=ERRORS, response_model=None)
    async def api_threat(request: ThreatIn) -> Response:
        """The threat map of a side's move (``firefight threat --json``, docs/vv.md)."""
        return await reply("threat", request)

    @routes.post("/api/vv/move", tags=["vv scenarios"], responses=ERRORS, response_model=None)
    async def api_move(request: MoveIn) -> Response:
        """A stack's move under opportunity fire: the exact odds along the path, or one run
        with ``seed`` or ``roll`` and its trace (``firefight move --json``, docs/vv.md)."""
        return await reply("move", request)

    @routes.get("/rulesets/vv/scenario", response_class=HTMLResponse, include_in_schema=False)
    def scenario_page(request: Request, name: str = "village") -> Response:
        from firefight.rulesets.vv.scenario import sample_scenarios  # noqa: PLC0415

        text = sample_text(name)
        scenario = parse(text, f"{name}.toml")
        return templates.TemplateResponse(
            request,
            "scenario.html",
            {
                "title": scenario.name,
                "board": scenario.board,
                "svg": board_svg(scenario.board),
                "samples": list(sample_scenarios()),
                "sides": list(scenario.sides),
                "policies": POLICIES,
                "lane_choices": lane_choices(),
                "legend": [(value, colour, ink_on(colour)) for value, colour in legend_stops()],
                "text": text,
                "page": page_data(scenario, text),
            },
        )

    return routes


POLICIES: tuple[str, ...] = ("threshold", "first_sight", "best_shot", "player")
"""The opportunity fire policies the page offers (:mod:`firefight.rulesets.vv.opportunity`);
with ``player`` the page lists each firer that may fire along the path with the hexes it may
fire at, and sends the defender's choices as the API's ``player`` field."""


def lane_choices() -> dict[str, list[str]]:
    """The fire lane options the page offers, from the rule set's own lists (13.9; the lane
    policy of :mod:`~firefight.rulesets.vv.lanes_move`, the readings of
    :class:`~firefight.rulesets.vv.lanes.LaneReadings`), each default first."""
    from typing import get_args  # noqa: PLC0415

    from firefight.rulesets.vv.lanes import (  # noqa: PLC0415
        LaneAfterPin,
        LaneLength,
        LaneNaturals,
        LaneSide,
    )
    from firefight.rulesets.vv.lanes_move import LANE_POLICIES  # noqa: PLC0415

    return {
        "lanes": list(LANE_POLICIES),
        "side": list(get_args(LaneSide)),
        "length": list(get_args(LaneLength)),
        "naturals": list(get_args(LaneNaturals)),
        "after_mg_pinned": list(get_args(LaneAfterPin)),
    }
