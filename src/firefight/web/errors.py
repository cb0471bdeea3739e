"""How the web calculator answers an error: the status and the one-line JSON body of each.

A user error is the CLI's one line as ``{"detail": the line, "field": the field named}``: an
unknown rule set, procedure, chart, board or scenario (:class:`NotFoundError`) is a 404 (a page
of the site answers it with the error page), uploads beyond their limit a 429, any other
:class:`~firefight.errors.FirefightError` a 422. A request FastAPI refuses before a route runs
(a field missing or of the wrong type) is a 422 worded as the CLI's error, and an HTTP error
(an unknown URL, a method not allowed) keeps its status with the same shape. A broken data file
of firefight (:class:`~firefight.errors.ChartError`) is no user's error: it is logged, and the
answer is a 500 that names no file.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from firefight.errors import ChartError, FirefightError, InputError, one_of
from firefight.i18n import N_
from firefight.i18n import gettext as _
from firefight.web.uploads import UploadsBusyError

if TYPE_CHECKING:
    from fastapi.templating import Jinja2Templates

log = logging.getLogger("firefight.web")
JSON = "application/json"
BROKEN_DATA = "a data file of firefight is broken; the server's log says which and how"


class NotFoundError(FirefightError):
    """An unknown rule set, procedure, chart or board: a 404 naming the allowed ones."""

    def __init__(self, error: InputError) -> None:
        super().__init__(str(error))
        self.field: str | None = error.field


class FieldError(FirefightError):
    """A user error that named no field (a scenario's text not TOML), naming the request
    body's field its text came from, as every other error of the API names its own."""

    def __init__(self, error: FirefightError, field: str) -> None:
        super().__init__(str(error))
        self.field = field


@contextmanager
def naming(field: str) -> Iterator[None]:
    """Inside, a user error that names no field is a :class:`FieldError` naming ``field``
    (a broken data file of firefight and an unknown name keep their own answers)."""
    try:
        yield
    except (ChartError, NotFoundError):
        raise
    except FirefightError as error:
        if getattr(error, "field", None) is not None:
            raise
        raise FieldError(error, field) from None


def json_bytes(data: object) -> bytes:
    """Compact JSON, UTF-8 kept as it is."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def _error(status: int, detail: str, field: str | None = None) -> JSONResponse:
    return JSONResponse({"detail": detail, "field": field}, status_code=status)


def api_error(error: FirefightError) -> tuple[int, bytes]:
    """A user error as the API answers it: 404 for an unknown name, else 422, with
    ``{"detail": the CLI's one line, "field": the field named}``. A broken data file
    (:class:`ChartError`) is no user's error: it is logged, and the answer is a 500 that names
    no file."""
    if isinstance(error, ChartError):
        log.error("broken data file: %s", error, exc_info=error)
        return 500, json_bytes({"detail": BROKEN_DATA, "field": None})
    status = 422
    if isinstance(error, NotFoundError):
        status = 404
    elif isinstance(error, UploadsBusyError):
        status = 429
    detail = {"detail": str(error), "field": getattr(error, "field", None)}
    return status, json_bytes(detail)


def _api_error_response(error: FirefightError) -> Response:
    status, content = api_error(error)
    return Response(content, status_code=status, media_type=JSON)


def bad_input_page(templates: Jinja2Templates, request: Request, error: InputError) -> Response:
    """A page's answer to input it refuses: the error page, 422, with the one-line message."""
    return templates.TemplateResponse(
        request, "error.html", {"message": str(error), "heading": "Bad input"}, status_code=422
    )


def install_handlers(app: FastAPI, templates: Jinja2Templates) -> None:
    """Answer ``app``'s errors as this module says; ``templates`` gives a page's 404."""

    @app.exception_handler(NotFoundError)
    async def not_found(request: Request, error: NotFoundError) -> Response:
        if request.url.path.startswith("/api/"):
            return _api_error_response(error)
        return templates.TemplateResponse(
            request, "error.html", {"message": str(error)}, status_code=404
        )

    @app.exception_handler(FirefightError)
    async def user_error(request: Request, error: FirefightError) -> Response:
        return _api_error_response(error)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> Response:
        problem = error.errors()[0] if error.errors() else {}
        field, message = validation_line(problem, _body_fields(request))
        return _error(422, message, field)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        response = _error(error.status_code, str(error.detail))
        response.headers.update(error.headers or {})  # 405's Allow, for one
        return response


def _body_fields(request: Request) -> tuple[str, ...]:
    """The fields of the body the matched route takes (its model's), or none where the route
    has no model body."""
    body = getattr(request.scope.get("route"), "body_field", None)
    model = getattr(getattr(body, "field_info", None), "annotation", None)
    fields = getattr(model, "model_fields", None)
    return tuple(fields) if isinstance(fields, dict) else ()


_SOURCES = ("body", "query", "path", "header", "cookie")
"""Where FastAPI found a value: the first part of a problem's location, not a field."""


def _place(location: list[str]) -> tuple[str, str]:
    """The field a problem's location names (the body's own field: ``allocation``) and the
    place inside it the line names (``allocation.0406``); ``body`` for the body itself."""
    where, inside = (location[0], location[1:]) if location[0] in _SOURCES else ("", location)
    if not inside or (where == "body" and len(inside) == 1 and inside[0].isdigit()):
        return "body", "body"  # the body itself, or a place in text that is not JSON
    return inside[0], ".".join(inside)


_LENGTHS = {
    "string_too_long": (N_("a text of at most {count} characters"), "max_length"),
    "string_too_short": (N_("a text of at least {count} characters"), "min_length"),
    "too_long": (N_("a list of at most {count} items"), "max_length"),
    "too_short": (N_("a list of at least {count} items"), "min_length"),
}
"""A length pydantic refused, in the CLI's words, and the bound its context gives."""


def _allowed(problem: dict[str, Any], fields: tuple[str, ...]) -> str:
    """What the value should have been, in the CLI's words where pydantic has its own: a text
    or a list's length, a field the request has not, a body that is not a JSON object."""
    kind = str(problem.get("type", ""))
    limits = problem.get("ctx") or {}
    if kind == "extra_forbidden":
        allowed = one_of(fields) if fields else _("a field of the request's OpenAPI schema")
        return _("left out: not a field of this request, which takes {allowed}").format(
            allowed=allowed
        )
    length = _LENGTHS.get(kind)
    if length is not None:
        template, bound = length
        return _(template).format(count=limits.get(bound))
    said = str(problem.get("msg", "valid")).removeprefix("Value error, ")
    return said.removeprefix("Input should be ").removeprefix("Input must be ")


def validation_line(problem: dict[str, Any], fields: tuple[str, ...]) -> tuple[str, str]:
    """A request FastAPI refused before its route ran, as the CLI's one line: the body's field
    named (the ``field`` of the answer) and ``'place' must be ALLOWED (got VALUE)``."""
    field, place = _place([str(part) for part in problem.get("loc") or ["input"]])
    kind = problem.get("type")
    if kind == "missing":
        return field, str(InputError(place, "given", None))
    if kind == "json_invalid" or (
        field == "body" and kind in ("model_attributes_type", "dict_type")
    ):
        got = problem.get("input") if kind != "json_invalid" else _("text that is not JSON")
        return "body", str(InputError("body", _("a JSON object"), got))
    return field, str(InputError(place, _allowed(problem, fields), problem.get("input")))
