"""The API's user errors as answers: a 404 for an unknown name, a 422 for bad input (429 when
the uploads are busy), each ``{"detail": the CLI's one line, "field": the field named}``.

Apart from :mod:`firefight.web.app` so that the routers the app includes (and the functions
they run in the server's pool) answer errors the same way without importing the app."""

from __future__ import annotations

import json
import logging

from firefight.errors import ChartError, FirefightError, InputError
from firefight.web import uploads

log = logging.getLogger("firefight.web")

BROKEN_DATA = "a data file of firefight is broken; the server's log says which and how"


class NotFoundError(FirefightError):
    """An unknown rule set, procedure, chart or board: a 404 naming the allowed ones."""

    def __init__(self, error: InputError) -> None:
        super().__init__(str(error))
        self.field: str | None = error.field


def _json_bytes(data: object) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def api_error(error: FirefightError) -> tuple[int, bytes]:
    """A user error as the API answers it: 404 for an unknown name, else 422, with
    ``{"detail": the CLI's one line, "field": the field named}``. A broken data file
    (:class:`ChartError`) is no user's error: it is logged, and the answer is a 500 that names
    no file."""
    if isinstance(error, ChartError):
        log.error("broken data file: %s", error, exc_info=error)
        return 500, _json_bytes({"detail": BROKEN_DATA, "field": None})
    status = 422
    if isinstance(error, NotFoundError):
        status = 404
    elif isinstance(error, uploads.UploadsBusyError):
        status = 429
    detail = {"detail": str(error), "field": getattr(error, "field", None)}
    return status, _json_bytes(detail)
