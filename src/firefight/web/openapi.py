"""The OpenAPI document at ``/docs``: every procedure's input model (and its resolve body) as
a component, and the errors each route may answer."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from starlette.routing import BaseRoute

from firefight.digits import SEED_MAX
from firefight.rulesets import added
from firefight.rulesets import rulesets as every_ruleset
from firefight.web import schemas, uploads


def _component(ruleset_id: str, procedure_name: str, what: str) -> str:
    return f"{ruleset_id}.{procedure_name}.{what}"


def _openapi_components(app: FastAPI) -> dict[str, Any]:
    """The input model of every procedure (and its resolve body) as OpenAPI components."""
    components: dict[str, Any] = {}
    for found in every_ruleset():
        for procedure in found.procedures:
            name = _component(found.id, procedure.name, "input")
            template = "#/components/schemas/" + _component(found.id, procedure.name, "{model}")
            schema = procedure.input_model.model_json_schema(ref_template=template)
            if uploads.takes_uploads(procedure.input_model):
                uploads.document(procedure.input_model, schema)
            for def_name, definition in schema.pop("$defs", {}).items():
                components[_component(found.id, procedure.name, def_name)] = definition
            components[name] = schema
            components[_component(found.id, procedure.name, "resolve")] = {
                "title": f"{found.id} {procedure.name}: resolve",
                "type": "object",
                "properties": {
                    "input": {"$ref": "#/components/schemas/" + name},
                    "seed": {
                        "type": "integer",
                        "minimum": 0,
                        "maximum": SEED_MAX,
                        "description": "Seeded dice.",
                    },
                    "roll": {
                        "type": "string",
                        "description": "Dice rolled at the table, as --roll reads them: 3,4",
                    },
                },
                "required": ["input"],
                "additionalProperties": False,
            }
    return components


_DOCUMENTED_PATH = re.compile(r"/api/rulesets/[^/{}]+/[^/{}]+/(odds|resolve|modifiers)")
"""The path of a procedure's documented route (a rule set's id and a procedure's name)."""


def _with_documented(document: dict[str, Any], documented: dict[str, Any]) -> None:
    """``document`` with the procedures' paths in it replaced by those of ``documented`` (a
    document of the procedures' routes alone), where the first of them was."""
    paths: dict[str, Any] = document.get("paths", {})
    kept = [(path, item) for path, item in paths.items() if not _DOCUMENTED_PATH.fullmatch(path)]
    first = next((i for i, path in enumerate(paths) if _DOCUMENTED_PATH.fullmatch(path)), None)
    at = len(kept) if first is None else first
    document["paths"] = dict([*kept[:at], *documented.get("paths", {}).items(), *kept[at:]])
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    for name, schema in documented.get("components", {}).get("schemas", {}).items():
        schemas.setdefault(name, schema)


def install(app: FastAPI, documented: Callable[[], list[BaseRoute]]) -> None:
    """Have ``app`` build its OpenAPI document on the first request for it, with
    :func:`_openapi_components` added, and again when the rule sets it documents change (a
    game file added to the user's folder, changed or removed): the procedures' routes are
    ``documented()``'s then, those of the games known now, in place of the app's own routes
    for the procedures known at start-up."""
    built: list[object] = [None]

    def openapi() -> dict[str, Any]:
        known = tuple((found.id, found.procedure_names) for found in every_ruleset())
        state = (added.seen(), known)
        if app.openapi_schema is None or built[0] != state:
            document = get_openapi(
                title=app.title,
                version=app.version,
                description=app.description,
                routes=app.routes,
            )
            fresh = get_openapi(title=app.title, version=app.version, routes=documented())
            _with_documented(document, fresh)  # the procedures' routes: those of now
            document.setdefault("components", {}).setdefault("schemas", {}).update(
                _openapi_components(app)
            )
            app.openapi_schema = document
            built[0] = state
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": schemas.ErrorOut, "description": "Unknown rule set, procedure, chart or board"},
    422: {"model": schemas.ErrorOut, "description": "Bad input: the CLI's one-line message"},
}
BODY_ERRORS: dict[int | str, dict[str, Any]] = {
    **ERRORS,
    413: {"model": schemas.ErrorOut, "description": "Request body over 64 KiB"},
    429: {
        "model": schemas.ErrorOut,
        "description": "Up Front: too many uploaded files being read from this address",
    },
}


def body_doc(ruleset_id: str, procedure_name: str, what: str) -> dict[str, Any]:
    """A procedure route's request body in the document: the component ``what`` of it."""
    ref = "#/components/schemas/" + _component(ruleset_id, procedure_name, what)
    return {
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": {"$ref": ref}}},
        }
    }
