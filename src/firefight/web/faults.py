"""How the web answers a bug raised from a rule set firefight does not ship (a third party's
package, a game file): a 500 with the JSON shape of every other error, its ``detail`` the one
line the CLI prints (:func:`firefight.rulesets.registry.fault`: the package or file, the
procedure, the exception), its traceback in the server's log. Any other bug (firefight's own)
is answered as before: ``Internal Server Error``, its traceback logged."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fastapi.responses import Response

from firefight.rulesets.registry import fault
from firefight.web.errors import JSON, json_bytes

if TYPE_CHECKING:
    from fastapi import FastAPI, Request

INTERNAL = "Internal Server Error"


def fault_answer(error: BaseException) -> tuple[int, bytes]:
    """A bug's status and JSON body: 500, ``{"detail": the one line, "field": null}``."""
    return 500, json_bytes({"detail": fault(error) or INTERNAL, "field": None})


def install_fault_handler(app: FastAPI) -> None:
    """Answer a bug no route caught (a page, a route run on the event loop) as
    :func:`fault_answer` says (Starlette still logs it and re-raises it to the server)."""

    @app.exception_handler(Exception)
    async def bug(request: Request, error: Exception) -> Response:
        status, content = fault_answer(error)
        return Response(content, status_code=status, media_type=JSON)
