"""How the web face answers a user's error: the 404 of an unknown name, the API's JSON error
body (shared by the app's routes and the engagement and scenario routes)."""

from __future__ import annotations

import json
import logging

from firefight.errors import ChartError, FirefightError, InputError
from firefight.web import uploads

__all__ = ["BROKEN_DATA", "NotFoundError", "api_error", "json_bytes"]

log = logging.getLogger("firefight.web")


class NotFoundError(FirefightError):
    """An unknown rule set, procedure, chart or board: a 404 naming the allowed ones."""

    def __init__(self, error: InputError) -> None:
        super().__init__(str(error))
        self.field: str | None = error.field


def json_bytes(data: object) -> bytes:
    """Compact JSON, UTF-8 kept as it is."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


BROKEN_DATA = "a data file of firefight is broken; the server's log says which and how"


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
    elif isinstance(error, uploads.UploadsBusyError):
        status = 429
    detail = {"detail": str(error), "field": getattr(error, "field", None)}
    return status, json_bytes(detail)
