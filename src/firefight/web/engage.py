"""Engagements on the web: a page per sample scenario (or your own scenario's TOML) and the
JSON API (``firefight engage --json``'s shapes, docs/engagements.md).

* ``GET /engage`` — the sample scenarios and a blank scenario to paste;
* ``GET /engage/{name}`` — a sample's TOML in an editable box: **Odds** asks
  ``POST /api/engage`` for the exact (or sampled, labelled so) answer, **Roll** resolves one
  engagement turn by turn with the seed shown, **Use dice** with the dice rolled at the table;
* ``GET /api/engagements`` — the samples; ``GET /api/engagements/{name}`` — a sample's odds;
* ``POST /api/engage`` — ``{"scenario": TOML, "seed"?, "roll"?, "turns"?, "samples"?,
  "sample_seed"?}``: the odds, or one engagement with ``seed`` or ``roll``.

Bad scenarios are 422s with the CLI's one line (file and place), as everywhere in the API.
Answers are kept for the last :data:`CACHED` scenarios and options.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, ConfigDict, Field

from firefight.errors import InputError
from firefight.faces import parse_roll
from firefight.sim.engagement import Engagement, resolution_json
from firefight.sim.scenario import parse_scenario, sample_scenarios
from firefight.web import schemas

HERE = Path(__file__).resolve().parent
CACHED = 64
"""How many answers (scenario text and options) a server process keeps."""
SOURCE = "scenario"
"""How a pasted scenario is named in its errors."""


class EngageIn(BaseModel):
    """An engagement request: the scenario's TOML and what to answer."""

    model_config = ConfigDict(extra="forbid")

    scenario: str = Field(max_length=60_000, description="The scenario file's TOML text.")
    seed: int | None = Field(None, ge=0, description="Resolve one engagement with this seed.")
    roll: str | None = Field(
        None, max_length=4000, description="Resolve one engagement with these dice (3,4,...)."
    )
    turns: int | None = Field(None, ge=1, le=100, description="With seed or roll: turns at most.")
    samples: int | None = Field(
        None, ge=100, le=1_000_000, description="Sample this many engagements (labelled sampled)."
    )
    sample_seed: int = Field(0, ge=0, description="Seed of the sampled engagements.")


ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": schemas.ErrorOut, "description": "Unknown sample scenario"},
    422: {"model": schemas.ErrorOut, "description": "Bad scenario: the CLI's one-line message"},
}
BODY_ERRORS: dict[int | str, dict[str, Any]] = {
    422: ERRORS[422],
    413: {"model": schemas.ErrorOut, "description": "Request body over 64 KiB"},
}

_answers: OrderedDict[tuple[str, str, str], dict[str, Any]] = OrderedDict()
_lock = threading.Lock()
"""The answers are shared by the server's threads (FastAPI runs these routes in a pool)."""


def answer(text: str, source: str, request: EngageIn) -> dict[str, Any]:
    """The odds or the resolution for a scenario's text (cached per text and options)."""
    if request.seed is not None and request.roll is not None:
        raise InputError("seed/roll", "at most one of seed or roll", "both")
    if request.turns is not None and request.seed is None and request.roll is None:
        raise InputError("turns", "given with seed or roll only", request.turns)
    key = (text, source, request.model_dump_json(exclude={"scenario"}))
    with _lock:
        found = _answers.get(key)
        if found is not None:
            _answers.move_to_end(key)
            return found
    engagement = Engagement(parse_scenario(text, source))
    if request.seed is not None:
        found = resolution_json(engagement, engagement.resolve(request.seed, request.turns))
    elif request.roll is not None:
        run = engagement.replay(parse_roll(request.roll), request.turns)
        found = resolution_json(engagement, run)
    elif request.samples is not None:
        found = engagement.sampled(request.samples, request.sample_seed).to_json()
    else:
        found = engagement.answer().to_json()
    with _lock:
        _answers[key] = found
        while len(_answers) > CACHED:
            _answers.popitem(last=False)
    return found


def _sample_text(name: str) -> str:
    samples = sample_scenarios()
    if name not in samples:
        # A 404 through the app's NotFoundError handler, which names the samples.
        from firefight.web.app import NotFoundError  # noqa: PLC0415 - app imports this module

        raise NotFoundError(InputError("scenario", "one of " + ", ".join(samples), name))
    return samples[name].read_text(encoding="utf-8")


def router() -> APIRouter:
    """The engagement pages and API routes (included by :func:`firefight.web.app.create_app`)."""
    routes = APIRouter()
    templates = Jinja2Templates(directory=HERE / "templates")

    @routes.get("/api/engagements", tags=["engagements"])
    def api_samples() -> list[dict[str, str]]:
        """The sample scenarios: ``[{"name", "title", "ruleset"}]``."""
        found = []
        for name in sample_scenarios():
            scenario = parse_scenario(_sample_text(name), f"{name}.toml")
            found.append({"name": name, "title": scenario.title, "ruleset": scenario.ruleset})
        return found

    @routes.get("/api/engagements/{name}", tags=["engagements"], responses=ERRORS)
    def api_sample(name: str) -> dict[str, Any]:
        """A sample scenario's odds (``firefight engage NAME --json``)."""
        return answer(_sample_text(name), f"{name}.toml", EngageIn(scenario=""))

    @routes.post("/api/engage", tags=["engagements"], responses=BODY_ERRORS)
    def api_engage(request: EngageIn) -> dict[str, Any]:
        """A scenario's odds, or one engagement with ``seed`` or ``roll`` (the shapes of
        ``firefight engage --json``)."""
        return answer(request.scenario, SOURCE, request)

    @routes.get("/engage", response_class=HTMLResponse, include_in_schema=False)
    def engage_index(request: Request) -> Response:
        return templates.TemplateResponse(
            request, "engage.html", {"samples": list(sample_scenarios()), "name": None, "text": ""}
        )

    @routes.get("/engage/{name}", response_class=HTMLResponse, include_in_schema=False)
    def engage_page(request: Request, name: str) -> Response:
        return templates.TemplateResponse(
            request,
            "engage.html",
            {"samples": list(sample_scenarios()), "name": name, "text": _sample_text(name)},
        )

    return routes
