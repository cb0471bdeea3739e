"""Engagements on the web: a page per sample scenario (or your own scenario's TOML) and the
JSON API (``firefight engage --json``'s shapes, docs/engagements.md).

* ``GET /engage`` — the first sample's page;
* ``GET /engage/{name}`` — a sample's odds, a picker of the samples, and its TOML folded in an
  editable box: **Odds** asks ``POST /engage/answer`` for the exact (or sampled, labelled so)
  answer, **Roll** resolves one engagement turn by turn (the seed typed, or a random one when
  the box is blank, shown with the result), **Use dice** with the dice rolled at the table;
* ``GET /api/engagements`` — the samples; ``GET /api/engagements/{name}`` — a sample's odds;
* ``POST /api/engage`` — ``{"scenario": TOML, "seed"?, "roll"?, "turns"?, "samples"?,
  "sample_seed"?, "optimal"?, "side"?, "objective"?, "against"?}``: the odds, one engagement
  with ``seed`` or ``roll``, or with ``optimal`` the best fire plan
  (docs/advisor-engagements.md);
* ``POST /engage/answer`` — the page's: the same body, ``{"answer": the API's answer,
  "words": ...}``, the words the page shows in place of the answer's identifiers and English
  notes, in the request's language (:mod:`firefight.web.engage_words`).

Bad scenarios are 422s with the CLI's one line (file and place), as everywhere in the API.
Answers are kept for the last :data:`CACHED` scenarios and options. An answer not kept is
computed in the server's pool of processes (:class:`~firefight.web.compute.Calculator`), off the
event loop and its GIL, and a pool process gives up on it after :data:`ENGAGE_SECONDS` (a
one-line 422): a scenario anyone can paste must not hold the server (README, "Serving: limits").
"""

from __future__ import annotations

import json
import logging
import signal
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from firefight.core.inputs import _non_none, choices
from firefight.digits import SEED_MAX
from firefight.errors import FirefightError, InputError, one_of
from firefight.faces import parse_roll
from firefight.rulesets import rulesets as every_ruleset
from firefight.sim.engagement import Engagement, resolution_json
from firefight.sim.optimal import check_apart
from firefight.sim.optimal_answer import advise
from firefight.sim.scenario import parse_scenario, sample_scenarios
from firefight.web import language, schemas
from firefight.web.engage_words import answer_words
from firefight.web.errors import NotFoundError, api_error, naming
from firefight.web.faults import fault_answer
from firefight.web.wording import readable, script_words

HERE = Path(__file__).resolve().parent
CACHED = 64
"""How many answers (scenario text and options) a server process keeps."""
SOURCE = "scenario"
"""How a pasted scenario is named in its errors."""
SCENARIO_CHARS = 60_000
"""The longest scenario text a request may carry (the request body's limit is 64 KiB)."""
BODY_VALUES = SCENARIO_CHARS + schemas.MAX_BODY_VALUES
"""The values and separators an engagement request body may hold, counted before it is
parsed: its scenario text is one JSON value, but every character of it may be a separator."""
ENGAGE_SECONDS = 20
"""The most time a pool process spends on one engagement answer (the sample scenarios take
well under a second; a pasted 12-against-12 scenario's sampled answer can take minutes)."""

log = logging.getLogger("firefight.web")

Compute = Callable[..., Awaitable[tuple[int, bytes]]]
"""The app's :class:`~firefight.web.compute.Calculator`: ``await compute(function, *args)``."""


class EngagementTooCostlyError(InputError):
    """An engagement answer took longer than :data:`ENGAGE_SECONDS` in a pool process."""

    def __init__(self) -> None:
        super().__init__(
            "scenario",
            f"a scenario whose answer takes at most {ENGAGE_SECONDS} s here (fewer units or "
            "turns, or fewer samples; the command line has no limit)",
            f"more than {ENGAGE_SECONDS} s",
        )


@contextmanager
def _time_limit(seconds: int) -> Iterator[None]:
    """Past ``seconds``, :class:`EngagementTooCostlyError`; only in a process's main thread
    (a pool process), where a timer signal can interrupt the computation. The signal may strike
    inside code that wraps what it raises in an error of its own (a module first imported
    then: Python reports a class body it cut short as a ``RuntimeError``): any error raised
    once the time is up is the limit's."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    fired: list[bool] = []

    def expired(signum: int, frame: FrameType | None) -> None:
        fired.append(True)
        raise EngagementTooCostlyError

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    except EngagementTooCostlyError:
        raise
    except Exception as error:
        if fired:
            raise EngagementTooCostlyError from error
        raise
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def compute_answer(text: str, source: str, options: str) -> tuple[int, bytes]:
    """:func:`answer` as the API's status and JSON body; it runs in a pool process, so it takes
    and gives strings and bytes and never raises (a user error is its answer, a bug a 500)."""
    try:
        with _time_limit(ENGAGE_SECONDS):
            request = EngageIn.model_validate({**json.loads(options), "scenario": ""})
            found = answer(text, source, request)
    except FirefightError as error:
        return api_error(error)
    except Exception as error:
        log.exception("engagement answer failed")
        return fault_answer(error)  # a third party's bug: one line naming it
    return 200, json.dumps(found, ensure_ascii=False, separators=(",", ":")).encode()


class EngageIn(BaseModel):
    """An engagement request: the scenario's TOML and what to answer."""

    model_config = ConfigDict(extra="forbid")

    scenario: str = Field(max_length=SCENARIO_CHARS, description="The scenario file's TOML text.")
    seed: int | None = Field(
        None, ge=0, le=SEED_MAX, description="Resolve one engagement with this seed."
    )
    roll: str | None = Field(
        None, max_length=4000, description="Resolve one engagement with these dice (3,4,...)."
    )
    turns: int | None = Field(None, ge=1, le=100, description="With seed or roll: turns at most.")
    samples: int | None = Field(
        None, ge=100, le=1_000_000, description="Sample this many engagements (labelled sampled)."
    )
    sample_seed: int = Field(0, ge=0, le=SEED_MAX, description="Seed of the sampled engagements.")
    optimal: bool = Field(
        False, description="The best fire plan turn by turn (exact) and each policy's loss."
    )
    side: Literal["a", "b"] = Field("a", description="With optimal: the side advised.")
    objective: Literal["win", "losses"] = Field(
        "win", description="With optimal: P(win), or the expected enemy losses."
    )
    against: Literal["optimal", "best_expected_effect", "focus", "spread"] | None = Field(
        None,
        description="With optimal: the opponent (default: optimal with alternating fire, the "
        "scenario's policy with simultaneous).",
    )


ADVICE = {
    name: choices(_non_none(EngageIn.model_fields[name].annotation)[0]) or ()
    for name in ("side", "objective", "against")
}
"""The best fire plan's options as the page offers them: the request's own choices."""

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
    advice = {
        "side": request.side if request.side != "a" else None,
        "objective": request.objective if request.objective != "win" else None,
        "against": request.against,
    }
    dice = {"seed": request.seed, "roll": request.roll, "samples": request.samples}
    names = {name: f"'{name}'" for name in (*advice, "optimal")}
    check_apart(request.optimal, advice, dice, names)
    key = (text, source, request.model_dump_json(exclude={"scenario"}))
    with _lock:
        found = _answers.get(key)
        if found is not None:
            _answers.move_to_end(key)
            return found
    with naming("scenario"):  # the body's field of the text
        scenario = parse_scenario(text, source)
    if request.optimal:
        return _kept(
            key, advise(scenario, request.side, request.objective, request.against).to_json()
        )
    engagement = Engagement(scenario)
    if request.seed is not None:
        found = resolution_json(engagement, engagement.resolve(request.seed, request.turns))
    elif request.roll is not None:
        run = engagement.replay(parse_roll(request.roll), request.turns)
        found = resolution_json(engagement, run)
    elif request.samples is not None:
        found = engagement.sampled(request.samples, request.sample_seed).to_json()
    else:
        found = engagement.answer().to_json()
    return _kept(key, found)


def _kept(key: tuple[str, str, str], found: dict[str, Any]) -> dict[str, Any]:
    """``found``, kept among the answers (the oldest let go past :data:`CACHED`)."""
    with _lock:
        _answers[key] = found
        while len(_answers) > CACHED:
            _answers.popitem(last=False)
    return found


def _sample_text(name: str) -> str:
    samples = sample_scenarios()
    if name not in samples:
        # A 404 through the app's NotFoundError handler, which names the samples.
        raise NotFoundError(InputError("scenario", one_of(samples), name))
    return samples[name].read_text(encoding="utf-8")


def samples_listed() -> list[dict[str, str]]:
    """The sample scenarios as ``{"name", "title", "ruleset"}``, ordered by name."""
    found = []
    for name in sample_scenarios():
        scenario = parse_scenario(_sample_text(name), f"{name}.toml")
        found.append({"name": name, "title": scenario.title, "ruleset": scenario.ruleset})
    return found


async def _found(compute: Compute, text: str, source: str, request: EngageIn) -> tuple[int, bytes]:
    """The answer's status and JSON body: kept, or computed in ``compute``'s pool and kept."""
    options = request.model_dump_json(exclude={"scenario"})
    key = (text, source, options)
    with _lock:
        kept = _answers.get(key)
    if kept is not None:  # kept: no need to go to the pool
        return 200, json.dumps(kept, ensure_ascii=False, separators=(",", ":")).encode()
    status, body = await compute(compute_answer, text, source, options)
    if status == 200:  # kept here too (the pool process kept its own copy)
        _kept(key, json.loads(body))
    return status, body


async def _asked(request: Request) -> EngageIn:
    """An engagement request's body, bounded and checked (a refusal is the CLI's one line)."""
    data = schemas.json_object(await request.body(), BODY_VALUES)  # bounded: one line
    try:
        return EngageIn.model_validate(data)
    except ValidationError as error:  # the app's handler: the CLI's one line
        raise RequestValidationError(error.errors()) from None


def router(compute: Compute) -> APIRouter:
    """The engagement pages and API routes (included by :func:`firefight.web.app.create_app`;
    ``compute`` is its :class:`~firefight.web.compute.Calculator`)."""
    routes = APIRouter()
    templates = language.templates(HERE / "templates")

    @routes.get("/api/engagements", tags=["engagements"])
    def api_samples() -> list[dict[str, str]]:
        """The sample scenarios: ``[{"name", "title", "ruleset"}]``."""
        return samples_listed()

    async def reply(text: str, source: str, request: EngageIn) -> Response:
        status, body = await _found(compute, text, source, request)
        return Response(body, status_code=status, media_type="application/json")

    @routes.get(
        "/api/engagements/{name}", tags=["engagements"], responses=ERRORS, response_model=None
    )
    async def api_sample(name: str) -> Response:
        """A sample scenario's odds (``firefight engage NAME --json``)."""
        return await reply(_sample_text(name), f"{name}.toml", EngageIn(scenario=""))

    body_doc = {"application/json": {"schema": EngageIn.model_json_schema()}}

    @routes.post(
        "/api/engage",
        tags=["engagements"],
        responses=BODY_ERRORS,
        response_model=None,
        openapi_extra={"requestBody": {"required": True, "content": body_doc}},
    )
    async def api_engage(request: Request) -> Response:
        """A scenario's odds, or one engagement with ``seed`` or ``roll`` (the shapes of
        ``firefight engage --json``)."""
        asked = await _asked(request)
        return await reply(asked.scenario, SOURCE, asked)

    @routes.post("/engage/answer", include_in_schema=False)
    async def page_answer(request: Request) -> Response:
        """The engagement page's answer: ``{"answer": the API's answer, unchanged, "words":
        {English text: its words}}`` in the request's language (:func:`answer_words`); an
        error is the API's."""
        asked = await _asked(request)
        status, body = await _found(compute, asked.scenario, SOURCE, asked)
        if status != 200:
            return Response(body, status_code=status, media_type="application/json")
        answered = json.loads(body)
        words = answer_words(answered, parse_scenario(asked.scenario, SOURCE))
        shown = {"answer": answered, "words": words}
        body = json.dumps(shown, ensure_ascii=False, separators=(",", ":")).encode()
        return Response(body, media_type="application/json")

    def page(request: Request, name: str) -> Response:
        samples = samples_listed()
        text = _sample_text(name)
        words = {n: readable(n) for found in every_ruleset() for n in found.procedure_names}
        words |= script_words()
        return templates.TemplateResponse(
            request,
            "engage.html",
            {"samples": samples, "name": name, "text": text, "words": words, "advice": ADVICE},
        )

    @routes.get("/engage", response_class=HTMLResponse, include_in_schema=False)
    def engage_index(request: Request) -> Response:
        """The page opens on the first sample, its odds answered at once: a picker of the
        samples above, the scenario text folded below for editing or pasting."""
        return page(request, next(iter(sample_scenarios())))

    @routes.get("/engage/{name}", response_class=HTMLResponse, include_in_schema=False)
    def engage_page(request: Request, name: str) -> Response:
        return page(request, name)

    return routes
