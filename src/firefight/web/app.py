"""The web calculator (DESIGN.md "Faces"): server-rendered pages and a JSON API.

Every page and every API route is generated from the rule set registry and each procedure's
input model, so a new rule set or procedure appears without code written for it. The API gives
the CLI's ``--json`` shapes (built by :mod:`firefight.faces`); bad input is a 422 whose
``detail`` is the one line the CLI prints, unknown names a 404 of the same shape, and request
bodies over 64 KiB a 413.

Served (:func:`serving_app`), odds not in the cache are computed in a pool of processes, so a
costly request delays no one else's answer, and every request is bounded by the chance
engine's :data:`~firefight.web.compute.WORK_BUDGET`; what one connection may send is bounded by
:mod:`firefight.web.protocol`.

:func:`create_app` assembles the parts, each in its module: the body limits and the lean odds
route (:mod:`~firefight.web.middleware`), the odds' work budget and pool
(:mod:`~firefight.web.compute`), the rules' and procedures' API
(:mod:`~firefight.web.procedures`), the boards' (:mod:`~firefight.web.boards`), the pages
(:mod:`~firefight.web.pages`), the OpenAPI document (:mod:`~firefight.web.openapi`), the
engagements, actions and shared table (:mod:`~firefight.web.engage`,
:mod:`~firefight.web.actions`, :mod:`~firefight.web.table`).
"""

from __future__ import annotations

import gc
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline

from firefight.errors import InputError
from firefight.rulesets import rulesets as every_ruleset
from firefight.web import (
    actions,
    boards,
    cards,
    editor,
    engage,
    openapi,
    pages,
    procedures,
    table,
    uploads,
)
from firefight.web import language as languages
from firefight.web.compute import LENGTHY_PROCESSES, WORK_BUDGET, Calculator
from firefight.web.errors import api_error, install_handlers
from firefight.web.faults import install_fault_handler
from firefight.web.middleware import MAX_BODY, BodyLimit, LeanOdds

HERE = Path(__file__).resolve().parent


def create_app(*, lean_odds: bool = True, calculator: Calculator | None = None) -> FastAPI:
    """The web calculator: pages, JSON API, OpenAPI document at ``/docs``.

    ``lean_odds``: answer the odds route with :class:`LeanOdds` (the same answers as the
    FastAPI route, which the tests check by turning it off). ``calculator``: where odds not
    in the cache are computed (default: in the request's own task).
    """
    compute = calculator or Calculator()
    lengthy = Calculator(LENGTHY_PROCESSES if compute.processes else 0)
    app = _bare_app(compute, lengthy)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    templates = languages.templates(HERE / "templates")
    app.include_router(engage.router(lengthy))
    app.include_router(actions.router(lengthy))
    app.include_router(table.router(budget=WORK_BUDGET, compute=compute))

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        return FileResponse(HERE / "static" / "favicon.ico", media_type="image/x-icon")

    install_handlers(app, templates)
    install_fault_handler(app)  # a third party's bug: one line naming it
    reading = uploads.Reading(compute)  # uploaded files parsed in the pool, off the loop
    answers = procedures.OddsAnswers(compute, reading)
    app.include_router(procedures.rules_router())
    app.include_router(procedures.router(answers, reading))
    app.include_router(boards.router())
    app.include_router(editor.router(reading))
    app.include_router(editor.page_router(templates))
    app.include_router(pages.router(templates))
    app.include_router(cards.router(templates, compute))  # after a chart's page: tables/{id}
    _add_middleware(app, answers if lean_odds else None)
    openapi.install(app, procedures.documented)
    return app


def _bare_app(compute: Calculator, lengthy: Calculator) -> FastAPI:
    """The app without its routes: its pools started and closed with it, its documents at
    ``/docs`` and ``/redoc``."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        compute.start()
        lengthy.start()
        try:
            yield
        finally:
            compute.close()
            lengthy.close()

    # FastAPIOffline: FastAPI with /docs and /redoc whose Swagger UI and ReDoc assets are
    # served by firefight itself from the fastapi-offline package (no CDN: /docs works on a
    # club's network without the internet).
    return FastAPIOffline(
        favicon_url="/favicon.ico",
        swagger_ui_parameters={"validatorUrl": None},  # Swagger UI's badge asks a website
        lifespan=lifespan,
        title="firefight",
        version="0.1.0",
        description=(
            "Exact odds and replayable resolution of fire combat. The JSON shapes are the "
            "CLI's --json (DESIGN.md, 'Machine-readable output')."
        ),
    )


def _add_middleware(app: FastAPI, lean: procedures.OddsAnswers | None) -> None:
    """:class:`LeanOdds` answering with ``lean`` (if any), inside the :class:`BodyLimit`
    (Up Front's routes, which take uploaded data files, with the uploads' larger limit),
    inside the language of the request."""
    if lean is not None:
        app.add_middleware(LeanOdds, answer=lean, status=api_error)
    uploading = {  # Up Front's routes take uploaded data files (firefight.web.uploads)
        f"/api/rulesets/{name}/": uploads.UPLOAD_BODY
        for found in every_ruleset()
        if any(uploads.takes_uploads(p.input_model) for p in found.procedures)
        for name in (found.id, *found.aliases)
    }
    app.add_middleware(BodyLimit, limit=MAX_BODY, larger=uploading)
    # added last: the outermost, so that every answer (LeanOdds' too) is in its language
    app.add_middleware(languages.Language)


GC_THRESHOLD = (20_000, 50, 50)
"""The collector's thresholds in a server process (Python's defaults: 700, 10, 10). An answer
allocates thousands of short-lived objects (fractions, chart cells, JSON), so at the defaults
the collector would run every 700 of them and walk the caches of answers every few rounds;
with these thresholds and :func:`gc.freeze` it runs seldom (``benchmarks/web.py`` measures the
server's time per new attack)."""


COMPUTE_PROCESSES = "FIREFIGHT_COMPUTE_PROCESSES"
"""The environment variable that sizes each server process's pool of odds processes
(``firefight serve`` sets it to the CPU cores shared among its ``--workers``)."""


def compute_processes(default: int) -> int:
    """The pool size :data:`COMPUTE_PROCESSES` asks for (1 to 256), else ``default``."""
    text = os.environ.get(COMPUTE_PROCESSES, "")
    if not text:
        return default
    if not (text.isascii() and text.isdigit() and 1 <= int(text) <= 256):
        raise InputError(COMPUTE_PROCESSES, "an integer from 1 to 256", text)
    return int(text)


def serving_app() -> FastAPI:
    """:func:`create_app` for a server process (``firefight serve``; uvicorn calls this in each
    worker): odds not in the cache are computed in a pool of processes
    (:data:`COMPUTE_PROCESSES`, default one per core); the app and everything it loaded are
    frozen out of the garbage collector's view (``gc.freeze``; they live as long as the
    process), and the collector runs less often (:data:`GC_THRESHOLD`). Tests use
    :func:`create_app`, which computes in the request's task and leaves the collector alone."""
    default = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    processes = compute_processes(default or os.cpu_count() or 1)
    app = create_app(calculator=Calculator(processes, inline=True))
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)
    return app
