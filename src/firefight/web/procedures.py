"""The rules' JSON API: the rule sets and their charts, and each procedure's ``odds``,
``modifiers`` and ``resolve`` routes, generated from the registry and the procedure's input
model. The odds answers are kept (:class:`OddsAnswers`), the most recently asked, and an
input asked again while it is computed waits for that one computation."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Mapping
from functools import partial
from typing import TYPE_CHECKING

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel

from firefight import faces
from firefight.i18n import language
from firefight.rulesets import added
from firefight.rulesets import rulesets as every_ruleset
from firefight.rulesets.registry import left_out
from firefight.web import lookup, schemas, uploads
from firefight.web.compute import (
    compute_answer,
    compute_odds,
    parsed_odds,
    quick_answer,
    quick_odds,
    resolve_request,
)
from firefight.web.openapi import BODY_ERRORS, ERRORS, body_doc

if TYPE_CHECKING:
    from starlette.routing import BaseRoute

    from firefight.core.inputs import RuleInput
    from firefight.rulesets.procedure import Procedure, RuleSet
    from firefight.web.compute import Calculator

CACHED_ANSWERS = 4096
"""Odds answers kept in each server process, the most recently asked."""

Endpoint = Callable[[Request, str, str], Awaitable[Response]]


class OddsAnswers:
    """The odds route's answers, ``await answers(ruleset, procedure, body)``: the cached one
    (at once), or one computed (quick odds on the event loop, the rest by the
    :class:`~firefight.web.compute.Calculator` ``calculator``); uploaded files are read by
    ``reading``. Both the FastAPI route and :class:`~firefight.web.middleware.LeanOdds` call
    it, so they give the same status and bytes."""

    def __init__(self, calculator: Calculator, reading: uploads.Reading) -> None:
        self.calculator = calculator
        self.reading = reading
        self.answers: OrderedDict[Hashable, tuple[int, bytes]] = OrderedDict()
        self.computing: dict[Hashable, asyncio.Future[tuple[int, bytes]]] = {}

    def _remember(self, key: Hashable, done: asyncio.Future[tuple[int, bytes]]) -> None:
        del self.computing[key]
        if not done.cancelled() and done.exception() is None and done.result()[0] < 500:
            self.answers[key] = done.result()
            if len(self.answers) > CACHED_ANSWERS:
                self.answers.popitem(last=False)

    async def _computed(
        self,
        ruleset_id: str,
        procedure_name: str,
        raw: bytes,
        read: uploads.Read = (),
        parsed: tuple[RuleSet, Procedure[RuleInput], RuleInput] | None = None,
    ) -> tuple[int, bytes]:
        """Cheap odds in the calculator's cheap lane (the cheapest on the loop, from the
        input ``parsed``), the rest in its pool
        (:meth:`~firefight.web.compute.Calculator.answer`); with uploads (already read:
        ``read``), in the pool, where their texts are parsed and kept."""
        if read:  # uploaded texts: parsed and kept in the pool's processes
            uploads.keep(read)
            return await self.calculator(compute_odds, ruleset_id, procedure_name, raw)
        key = ("odds", ruleset_id, procedure_name)
        here = None if parsed is None else partial(parsed_odds, *parsed)
        return await self.calculator.answer(
            key, quick_odds, compute_odds, ruleset_id, procedure_name, raw, here=here
        )

    async def __call__(self, ruleset: str, procedure: str, raw: bytes) -> tuple[int, bytes]:
        """The cached answer (here, at once), or one computed by the calculator; requests for
        the same input while it is computed wait for that one computation."""
        found, proc = lookup.find(ruleset, procedure)
        data = lookup.body_data(proc, raw)
        read = await self.reading.ready(proc.input_model, data)
        uploads.keep(read)
        inp = lookup.parse(proc, data)
        # an error's words are in a language; a game file changed is another game
        key = (language(), added.seen(), found.id, proc.name, inp)
        try:
            answer = self.answers.get(key)
        except TypeError:  # an input model with an unhashable field: no cache
            return await self._computed(found.id, proc.name, raw, read)
        if answer is not None:
            self.answers.move_to_end(key)
            return answer
        running = self.computing.get(key)
        if running is None:
            running = asyncio.ensure_future(
                self._computed(found.id, proc.name, raw, read, (found, proc, inp))
            )
            self.computing[key] = running
            running.add_done_callback(lambda done: self._remember(key, done))
        return await asyncio.shield(running)  # a client that leaves stops no one else's


def rules_router() -> APIRouter:
    """The rule sets and their charts (``firefight rulesets``, ``tables``, ``table``)."""
    router = APIRouter()

    @router.get("/api/rulesets", response_model=list[schemas.RuleSetOut], tags=["rules"])
    def api_rulesets() -> Response:
        """Every rule set and its procedures, then each package or game file left out, with
        its one line in ``left_out`` (``firefight rulesets --json``)."""
        found = every_ruleset()  # loaded: a package that does not load is met here
        return lookup.reply(faces.rulesets_json(found, left_out()))

    @router.get(
        "/api/rulesets/{ruleset}/tables",
        response_model=list[schemas.ChartSummaryOut],
        responses=ERRORS,
        tags=["rules"],
    )
    def api_tables(ruleset: str) -> Response:
        """The charts of a rule set (``firefight tables RULESET --json``)."""
        return lookup.reply(faces.tables_json(lookup.ruleset(ruleset).charts()))

    @router.get(
        "/api/rulesets/{ruleset}/tables/{table}",
        response_model=schemas.ChartOut,
        responses=ERRORS,
        tags=["rules"],
    )
    def api_table(ruleset: str, table: str) -> Response:
        """A chart as printed (``firefight table RULESET TABLE --json``)."""
        chart = lookup.chart(lookup.ruleset(ruleset), table)
        return lookup.reply(faces.table_json(chart))

    return router


def router(answers: OddsAnswers, reading: uploads.Reading) -> APIRouter:
    """Each procedure's ``odds`` (``answers``), ``modifiers`` and ``resolve`` routes, one of
    each per procedure known at start-up (documented), then one of each for any name (rule
    sets registered later, game files added to the folder since, aliases, and unknown names'
    404); uploaded files are read by ``reading``."""

    async def odds(request: Request, ruleset: str, procedure: str) -> Response:
        status, content = await answers(ruleset, procedure, await request.body())
        return Response(content, status_code=status, media_type=lookup.JSON)

    async def computed(route: str, ruleset: str, procedure: str, raw: bytes) -> Response:
        """``route``'s answer (facts and a roll may work out a chance) in the calculator's
        cheap lane, or its pool where that is costly: never on the event loop."""
        found, proc = lookup.find(ruleset, procedure)
        data = lookup.body_data(proc, raw)
        if route == "resolve":
            data = resolve_request(data)[0]
        read = await reading.ready(proc.input_model, data)
        uploads.keep(read)
        lookup.parse(proc, data)  # a bad input: its 422 before any lane
        key = (route, found.id, proc.name)
        if read:  # uploaded texts: parsed and kept in the pool's processes
            status, content = await answers.calculator(
                compute_answer, route, found.id, proc.name, raw
            )
        else:
            status, content = await answers.calculator.answer(
                key, quick_answer, compute_answer, route, found.id, proc.name, raw
            )
        return Response(content, status_code=status, media_type=lookup.JSON)

    async def modifiers(request: Request, ruleset: str, procedure: str) -> Response:
        return await computed("modifiers", ruleset, procedure, await request.body())

    async def resolve(request: Request, ruleset: str, procedure: str) -> Response:
        return await computed("resolve", ruleset, procedure, await request.body())

    endpoints: dict[str, Endpoint] = {"odds": odds, "resolve": resolve, "modifiers": modifiers}
    routes = APIRouter()
    routes.routes.extend(documented(endpoints))
    for what, endpoint in endpoints.items():
        # Rule sets registered after start-up, aliases and unknown names (404) land here.
        routes.add_api_route(
            f"/api/rulesets/{{ruleset}}/{{procedure}}/{what}",
            endpoint,
            methods=["POST"],
            include_in_schema=False,
        )
    return routes


DOCUMENTED: dict[str, tuple[type[BaseModel], str, str]] = {
    "odds": (schemas.OddsOut, "input", "Exact odds, modifiers and facts"),
    "resolve": (schemas.ResolveOut, "resolve", "One seeded or scripted resolution"),
    "modifiers": (schemas.ModifiersOut, "input", "The itemized modifiers"),
}
"""Each procedure's routes: the answer's model, the body's component and the summary."""


def documented(endpoints: Mapping[str, Endpoint] | None = None) -> list[BaseRoute]:
    """The documented route of each procedure's ``odds``, ``resolve`` and ``modifiers``, for
    the rule sets known now, answered by ``endpoints`` (none: routes for the OpenAPI document
    alone, of the games seen since start-up, answered by the routes for any name)."""
    routes = APIRouter()
    for found in every_ruleset():
        for procedure in found.procedures:
            for what, (model, body, summary) in DOCUMENTED.items():
                endpoint = endpoints[what] if endpoints is not None else _unserved
                routes.add_api_route(
                    f"/api/rulesets/{found.id}/{procedure.name}/{what}",
                    _bound(endpoint, found.id, procedure.name),
                    methods=["POST"],
                    response_model=model,
                    responses=BODY_ERRORS,
                    summary=f"{found.id} {procedure.name}: {summary}",
                    description=procedure.title,
                    operation_id=f"{what}_{found.id}_{procedure.name}",
                    openapi_extra=body_doc(found.id, procedure.name, body),
                    tags=[found.id],
                )
    return routes.routes


async def _unserved(request: Request, ruleset: str, procedure: str) -> Response:
    raise AssertionError  # pragma: no cover - documented, never routed


def _bound(
    endpoint: Endpoint, ruleset_id: str, name: str
) -> Callable[[Request], Awaitable[Response]]:
    async def bound(request: Request) -> Response:
        return await endpoint(request, ruleset_id, name)

    bound.__name__ = f"{endpoint.__name__}_{ruleset_id}_{name}"
    bound.__doc__ = endpoint.__doc__
    return bound
