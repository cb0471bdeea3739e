"""Up Front's player data on the web: uploaded, never a path (docs/upfront.md, "The web").

Every Up Front procedure's input (:class:`~firefight.rulesets.upfront.pool.CardInput`) names
its deck and personalities in ``deck`` and ``men``: ``illustrative`` or, in the CLI and the
Python API, a file path. The server reads no file it is told, so on the web those fields take
only ``illustrative`` (the shipped ILLUSTRATIVE files) or ``uploaded``; an uploaded file's
TOML text comes in the request body itself, as ``deck_toml`` or ``men_toml`` (the page reads
the file the player picks and sends its text), of at most
:data:`~firefight.rulesets.upfront.loader.MAX_FILE_BYTES` bytes like a file. It is validated
by the file loader's own checks (:func:`~firefight.rulesets.upfront.cards.deck_from_text`),
kept by content hash (:class:`~firefight.rulesets.upfront.loader.Uploads`, the most recent
16), and the input then names it ``uploaded:SHA256``: a request computed in a pool process
carries the text in its body, and the pool process registers it again from there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from firefight.errors import FirefightError, InputError
from firefight.rulesets.upfront.cards import UPLOADED_DECKS
from firefight.rulesets.upfront.loader import MAX_FILE_BYTES, DataFileError, Uploads
from firefight.rulesets.upfront.men import UPLOADED_MEN_FILES
from firefight.rulesets.upfront.pool import CardInput
from firefight.web.forms import Control

__all__ = [
    "UPLOADS",
    "UPLOAD_BODY",
    "UploadError",
    "document",
    "illustrative_labels",
    "takes_uploads",
    "upload_control",
    "web_data",
]

ILLUSTRATIVE = "illustrative"
UPLOADED = "uploaded"
UPLOADS: dict[str, tuple[str, Uploads[Any], str]] = {
    "deck": ("deck_toml", UPLOADED_DECKS, "deck"),
    "men": ("men_toml", UPLOADED_MEN_FILES, "personality file"),
}
"""Each path field, the body field that carries its uploaded text, and what that text is."""
UPLOAD_BODY = 2 * MAX_FILE_BYTES + 64 * 1024
"""The largest request body an Up Front route accepts: a deck, a personality file and the
other inputs (every other route: 64 KiB)."""


class UploadError(FirefightError):
    """An uploaded file is malformed: the loader's one line (``uploaded deck: card 17: 'rn'
    must be ...``), answered 422 with the upload's field."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def takes_uploads(model: type[object]) -> bool:
    """Whether a procedure's input names player data files (every Up Front procedure)."""
    return isinstance(model, type) and issubclass(model, CardInput)


def web_data(model: type[object], data: Mapping[str, object]) -> Mapping[str, object]:
    """``data`` as the procedure parses it on the web: ``deck``/``men`` refused unless
    ``illustrative`` or ``uploaded``, an uploaded text validated and named by its hash."""
    if not takes_uploads(model):
        return data
    out = dict(data)
    for field, (upload_field, uploads, what) in UPLOADS.items():
        given = out.get(field)
        text = out.pop(upload_field, None)
        if text is None:
            if given is not None and given != ILLUSTRATIVE:
                allowed = (
                    f"{ILLUSTRATIVE} (the shipped ILLUSTRATIVE {what}) or {UPLOADED} (with its "
                    f"text as {upload_field}); the server reads no file path"
                )
                raise InputError(field, allowed, given)
            continue
        if given is not None and given != UPLOADED:
            raise InputError(field, f"{UPLOADED} when {upload_field} is sent", given)
        if not isinstance(text, str):
            raise InputError(upload_field, f"the uploaded {what}'s TOML text", text)
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > MAX_FILE_BYTES:
            allowed = f"the TOML text of a {what} of at most {MAX_FILE_BYTES:,} bytes"
            raise InputError(upload_field, allowed, f"{size:,} bytes")
        try:
            out[field] = uploads.register(text)
        except DataFileError as error:
            raise UploadError(upload_field, str(error)) from None
    return out


def illustrative_labels() -> list[str]:
    """How the page labels the shipped files: ILLUSTRATIVE, not the published values."""
    from firefight.rulesets.upfront.cards import deck_file  # noqa: PLC0415
    from firefight.rulesets.upfront.men import men_file  # noqa: PLC0415

    return [deck_file(ILLUSTRATIVE).label, men_file(ILLUSTRATIVE).label]


def upload_control(control: Control) -> Control:
    """A data file's control as the page draws it: a file input (``upload``), with help that
    says what an empty one means (the shipped ILLUSTRATIVE file)."""
    if control.name not in UPLOADS:
        return control
    upload_field, _, what = UPLOADS[control.name]
    help_text = (
        f"Your {what} (TOML, the format in docs/upfront.md): its text is sent as "
        f"{upload_field}. None chosen: the shipped ILLUSTRATIVE {what}, not the published values."
    )
    allowed = f"{ILLUSTRATIVE} or an uploaded file of at most {MAX_FILE_BYTES:,} bytes"
    return replace(control, kind="upload", help=help_text, allowed=allowed)


def document(schema: dict[str, Any]) -> None:
    """An Up Front procedure's input schema as the web takes it (the OpenAPI document):
    ``deck``/``men`` one of ``illustrative``, ``uploaded``; the uploads' text fields."""
    properties = schema.setdefault("properties", {})
    for field, (upload_field, _, what) in UPLOADS.items():
        if field not in properties:
            continue
        properties[field] = {
            "title": field.capitalize(),
            "type": "string",
            "enum": [ILLUSTRATIVE, UPLOADED],
            "default": ILLUSTRATIVE,
            "description": (
                f"{ILLUSTRATIVE}: the shipped ILLUSTRATIVE {what}, not the published values; "
                f"{UPLOADED}: the {what} whose TOML text is {upload_field}. The server reads "
                "no file path."
            ),
        }
        properties[upload_field] = {
            "title": upload_field,
            "type": "string",
            "maxLength": MAX_FILE_BYTES,
            "description": (
                f"The uploaded {what}'s TOML text (docs/upfront.md), at most "
                f"{MAX_FILE_BYTES:,} bytes; with {field} = {UPLOADED}."
            ),
        }
