"""The web face of the rule sets' actions (:mod:`firefight.rulesets.action`), generated from
their input models, with no line about a game:

* ``POST /api/{ruleset}/{action}`` — the subject's text and the input model's fields (its
  OpenAPI schema the model's): the command's ``--json`` (``/api/vv/move``, ``/api/vv/threat``);
* ``GET /api/{ruleset}/{subject}s`` — the sample subjects (``/api/vv/scenarios``);
* ``POST /api/{ruleset}/{subject}`` — ``{"scenario": TOML}``: the subject as data and its
  board drawn (what the page shows for a pasted one);
* ``GET /rulesets/{ruleset}/{subject}?name=SAMPLE`` — the page of a subject on its board (a
  sample, or your own text loaded in the page).

Answers are computed in the server's pool of processes (:mod:`firefight.web.scenario`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel

from firefight.board.overlay import ink_on, legend_stops
from firefight.errors import InputError, one_of
from firefight.rulesets import rulesets
from firefight.rulesets.action import Action, Subject
from firefight.rulesets.procedure import RuleSet
from firefight.web import language, schemas
from firefight.web.boardsvg import board_svg
from firefight.web.errors import NotFoundError
from firefight.web.scenario import compute_answer, page_controls, request_model, subject_model

HERE = Path(__file__).resolve().parent
Compute = Callable[..., Awaitable[tuple[int, bytes]]]
"""The app's :class:`~firefight.web.compute.Calculator`: ``await compute(function, *args)``."""

ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": schemas.ErrorOut, "description": "Unknown sample"},
    422: {"model": schemas.ErrorOut, "description": "Bad input: the CLI's one-line message"},
    413: {"model": schemas.ErrorOut, "description": "Request body over 64 KiB"},
}


def subjects(ruleset: RuleSet) -> list[Subject[Any]]:
    """The subjects a rule set's actions work on, each once."""
    found: list[Subject[Any]] = []
    for action in ruleset.actions:
        if action.subject is not None and all(s is not action.subject for s in found):
            found.append(action.subject)
    return found


def sample_text(subject: Subject[Any], name: str) -> str:
    """A sample's text (an unknown name: a 404 naming the samples)."""
    samples = subject.samples()
    if name not in samples:
        raise NotFoundError(InputError("name", one_of(samples), name))
    return samples[name].read_text(encoding="utf-8")


def _sample_title(subject: Subject[Any], name: str) -> str:
    """A sample's own title, as its file gives it (the name when the file gives none)."""
    found = subject.parse(sample_text(subject, name), f"{name}.toml")
    return subject.title(found) or name


def _post(
    routes: APIRouter, key: str, model: type[BaseModel], *, compute: Compute, doc: str, tag: str
) -> None:
    """``POST /api/{key}`` taking ``model``, answered by :func:`compute_answer` for ``key``."""

    async def route(request: BaseModel) -> Response:
        status, body = await compute(compute_answer, key, request.model_dump_json())
        return Response(body, status_code=status, media_type="application/json")

    route.__annotations__ = {"request": model, "return": Response}
    route.__doc__ = doc
    route.__name__ = "api_" + key.replace("/", "_")
    routes.post(f"/api/{key}", tags=[tag], responses=ERRORS, response_model=None)(route)


def _subject_routes(
    routes: APIRouter, ruleset: RuleSet, subject: Subject[Any], compute: Compute, tag: str
) -> None:
    base = f"/api/{ruleset.id}/{subject.name}"
    templates = language.templates(HERE / "templates")

    def api_samples() -> list[dict[str, str]]:
        found = []
        for name in subject.samples():
            loaded = subject.load(name)
            found.append(
                {"name": name, "title": subject.title(loaded), "board": subject.board_name(loaded)}
            )
        return found

    api_samples.__doc__ = f'The sample {subject.name}s: ``[{{"name", "title", "board"}}]``.'
    routes.get(base + "s", tags=[tag])(api_samples)
    if subject.page is None:
        return
    key = f"{ruleset.id}/{subject.name}"
    doc = f"A {subject.name} as the page draws it: its counters, sides and board."
    _post(routes, key, subject_model(subject), compute=compute, doc=doc, tag=tag)

    def page(request: Request, name: str = "") -> Response:
        samples = list(subject.samples())
        chosen = name or subject.default_sample or samples[0]
        text = sample_text(subject, chosen)
        found = subject.parse(text, f"{chosen}.toml")
        board = subject.board(found)
        assert subject.page is not None
        data = subject.page(found, text)
        data["api"] = f"/api/{ruleset.id}"
        offered = subject.choices()
        drawn = {a.name: page_controls(a, offered) for a in ruleset.actions if a.subject is subject}
        data["shapes"] = {a: {c["name"]: c["shape"] for c in cs} for a, cs in drawn.items()}
        return templates.TemplateResponse(
            request,
            "scenario.html",
            {
                "title": subject.title(found),
                "ruleset": ruleset.id,
                "subject": subject.name,
                "texts": subject.page_text,
                "board": board,
                "svg": board_svg(board),
                "samples": [(s, _sample_title(subject, s)) for s in samples],
                "sides": list(data.get("sides", {})),  # type: ignore[call-overload]
                "choices": offered,
                "controls": drawn,
                "legend": [(value, colour, ink_on(colour)) for value, colour in legend_stops()],
                "text": text,
                "page": data,
            },
        )

    path = f"/rulesets/{ruleset.id}/{subject.name}"
    routes.get(path, response_class=HTMLResponse, include_in_schema=False)(page)


def router(compute: Compute) -> APIRouter:
    """The actions' routes and their subjects' pages, for every rule set in the registry
    (included by :func:`firefight.web.app.create_app`; ``compute`` is its
    :class:`~firefight.web.compute.Calculator`)."""
    routes = APIRouter()
    for ruleset in rulesets():
        for subject in subjects(ruleset):
            _subject_routes(routes, ruleset, subject, compute, f"{ruleset.id} {subject.name}s")
        for action in ruleset.actions:
            action_route(routes, ruleset, action, compute)
    return routes


def action_route(
    routes: APIRouter, ruleset: RuleSet, action: Action[Any, Any], compute: Compute
) -> None:
    """``POST /api/{ruleset}/{action}``, its body the action's input model and its subject."""
    tag = f"{ruleset.id} {action.subject.name}s" if action.subject else f"{ruleset.id} actions"
    key = f"{ruleset.id}/{action.name}"
    _post(routes, key, request_model(action), compute=compute, doc=action.summary, tag=tag)
