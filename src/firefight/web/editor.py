"""A player's data file typed entry by entry on the web (a rule set's data files that have an
editor, ``RuleSet.files``; Up Front's deck and personality cards): the page
``/rulesets/{id}/files/{field}`` and its check, ``POST /api/rulesets/{id}/files/{field}/check``.

The page keeps the entries in the browser (its local storage) and sends them, or a file's
text the player uploads, to the check, which answers the file's TOML (to download), every
problem (one line each, with the entry it is about) and the entries counted: the check is the
file's own (``firefight deck check``'s), so the page and the command cannot disagree. The
route is under ``/api/rulesets/{id}/``, so its body has the uploads' limit (:mod:`.uploads`),
and a text over the file's ``max_bytes`` is a 422; the text is parsed and checked in the
server's pool of processes, off the event loop, as an upload is.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from firefight.core.files import FileError, check_length, parse_toml
from firefight.errors import InputError, one_of
from firefight.i18n import gettext as _
from firefight.rulesets.datafile import DataFile, FileEditor
from firefight.rulesets.editing import entries_of, file_text
from firefight.translation import thousands
from firefight.web import lookup, schemas
from firefight.web.errors import NotFoundError
from firefight.web.openapi import BODY_ERRORS
from firefight.web.uploads import UPLOAD_VALUES, Reading

if TYPE_CHECKING:
    from fastapi.templating import Jinja2Templates

__all__ = ["EditedFile", "checked_file", "editable_files", "page_router", "router"]

MAX_ENTRIES = 1000
"""The most entries one request may carry (a file's own count is its check's)."""


class EditedFile(BaseModel):
    """What the page sends: the entries as typed (with the file's title and other fields), or
    a file's text (an upload); ``partial`` for a file still being typed."""

    model_config = ConfigDict(extra="forbid")

    text: str | None = Field(None, description="A file's TOML text (an upload).")
    title: str = Field("", max_length=200)
    entries: list[dict[str, Any]] = Field(default_factory=list, max_length=MAX_ENTRIES)
    extra: dict[str, Any] = Field(default_factory=dict)
    partial: bool = True


def editable_files(ruleset_id: str) -> list[DataFile[Any]]:
    """The rule set's data files that a page can type."""
    return [f for f in lookup.ruleset(ruleset_id).files if f.editor is not None]


def _file(ruleset_id: str, field: str) -> tuple[DataFile[Any], FileEditor]:
    for file in editable_files(ruleset_id):
        if file.field == field and file.editor is not None:
            return file, file.editor
    allowed = one_of([f.field for f in editable_files(ruleset_id)])
    raise NotFoundError(InputError("file", allowed, field))


def _index(editor: FileEditor, entry: str, entries: list[dict[str, Any]]) -> int | None:
    """Which entry a problem's ``card 17`` or ``card #3`` names (``None``: the file's own)."""
    found = re.fullmatch(rf"{re.escape(editor.entry)} (#?)(.+?)(\..*)?", entry)
    if found is None:
        return None
    if found.group(1):
        at = int(found.group(2)) - 1 if found.group(2).isdigit() else -1
        return at if 0 <= at < len(entries) else None
    named = found.group(2)
    return next((i for i, e in enumerate(entries) if str(e.get(editor.key)) == named), None)


def checked_file(ruleset_id: str, field: str, body: dict[str, Any]) -> dict[str, Any]:
    """The check's answer (in a pool process: plain values in, plain values out)."""
    file, editor = _file(ruleset_id, field)
    sent = EditedFile.model_validate(body)
    source = f"{field}.toml"
    entries, title, extra = sent.entries, sent.title, sent.extra
    if sent.text is not None:
        text = sent.text
        try:
            check_length(text, source, file.max_bytes, file.what)
            title, entries, extra = entries_of(
                editor, parse_toml(text, source, max_values=file.max_values)
            )
        except FileError:
            entries = []  # the check words it, in one line
    else:
        text = file_text(editor, title or _(editor.title), entries, extra)
    checked = editor.check(text, source, sent.partial)
    return {
        "file": source,
        "text": text,
        "title": title or _(editor.title),
        "entries": entries,
        "extra": extra,
        "valid": not checked.problems,
        "counted": checked.entries,
        "counts": dict(checked.counts),
        "expected": dict(checked.expected),
        "problems": [
            {
                "entry": p.entry,
                "field": p.field,
                "message": p.message,
                "missing": p.missing,
                "index": _index(editor, p.entry, entries),
            }
            for p in checked.problems
        ],
    }


def router(reading: Reading) -> APIRouter:
    """The check's route, computed by ``reading``'s pool."""
    made = APIRouter()

    body_doc = {"application/json": {"schema": EditedFile.model_json_schema()}}

    @made.post(
        "/api/rulesets/{ruleset}/files/{field}/check",
        tags=["files"],
        responses=BODY_ERRORS,
        openapi_extra={"requestBody": {"required": True, "content": body_doc}},
    )
    async def check_file(ruleset: str, field: str, request: Request) -> dict[str, Any]:
        """Check a data file typed entry by entry, or uploaded as text: its TOML, every
        problem (one line each, and the entry it is about), its entries counted."""
        found = lookup.ruleset(ruleset)
        file, _editor = _file(found.id, field)
        data = schemas.json_object(await request.body(), schemas.MAX_BODY_VALUES + UPLOAD_VALUES)
        try:
            body = EditedFile.model_validate(data)
        except ValidationError as error:  # the app's handler: the CLI's one line
            raise RequestValidationError(error.errors()) from None
        if body.text is not None:
            size = len(body.text.encode("utf-8", "surrogatepass"))
            if size > file.max_bytes:
                allowed = _("the {format} text of a {what} of at most {max_bytes} bytes").format(
                    format=file.format, what=file.what, max_bytes=thousands(file.max_bytes)
                )
                raise InputError("text", allowed, f"{size:,} bytes")
        answer: dict[str, Any] = await reading.compute(
            checked_file, found.id, field, body.model_dump()
        )
        return answer

    return made


def page_router(templates: Jinja2Templates) -> APIRouter:
    """The editor's page."""
    made = APIRouter()

    @made.get(
        "/rulesets/{ruleset}/files/{field}", response_class=HTMLResponse, include_in_schema=False
    )
    def editor_page(request: Request, ruleset: str, field: str) -> Response:
        found = lookup.ruleset(ruleset)
        file, editor = _file(found.id, field)
        page = {
            "ruleset": found.id,
            "field": file.field,
            "api": f"/api/rulesets/{found.id}/files/{file.field}/check",
            "entry": editor.entry,
            "key": editor.key,
            "title": _(editor.title),
            "fields": [
                {
                    "name": f.name,
                    "label": _(f.label),
                    "kind": f.kind,
                    "required": f.required,
                    "count": f.count,
                }
                for f in editor.fields
            ],
        }
        return templates.TemplateResponse(
            request,
            "editor.html",
            {"ruleset": found, "file": file, "editor": editor, "page": page},
        )

    return made
