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

A text not yet read is parsed off the event loop, in the server's pool of processes
(:class:`Reading`): a file of the most values allowed
(:data:`~firefight.rulesets.upfront.loader.MAX_VALUES`) takes a tenth of a second of CPU,
which on the loop every other client would wait for. A client address may have
:data:`UPLOADS_PER_CLIENT` new texts being read at once; past them, a 429 in one line.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import replace
from functools import partial
from typing import Any

from firefight.errors import FirefightError, InputError
from firefight.rulesets.upfront.cards import UPLOADED_DECKS
from firefight.rulesets.upfront.loader import MAX_FILE_BYTES, MAX_VALUES, DataFileError, Uploads
from firefight.rulesets.upfront.men import UPLOADED_MEN_FILES
from firefight.rulesets.upfront.pool import CardInput
from firefight.web.forms import Control

__all__ = [
    "CLIENT",
    "UPLOADS",
    "UPLOADS_PER_CLIENT",
    "UPLOAD_BODY",
    "UPLOAD_VALUES",
    "Reading",
    "UploadError",
    "UploadsBusyError",
    "document",
    "illustrative_labels",
    "keep",
    "load_upload",
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
UPLOAD_VALUES = 2 * MAX_VALUES
"""The values and separators an Up Front request body may hold beyond any other body's: its
two uploaded texts' own (:data:`~firefight.rulesets.upfront.loader.MAX_VALUES` each), which
the JSON reader counts before parsing although each text is one JSON value."""
UPLOADS_PER_CLIENT = 2
"""New uploaded texts one client address may have being read at once (a request carries at
most a deck and a personality file; a text already read is found by its hash and counts for
nothing). Behind a reverse proxy on 127.0.0.1 the address is the one its ``X-Forwarded-For``
names (``FORWARDED_ALLOW_IPS`` widens that); a proxy elsewhere makes every client one."""

CLIENT: ContextVar[str] = ContextVar("client", default="unknown")
"""The address the request being answered comes from (set by the app's body limit, which
every request passes)."""

Compute = Callable[..., Awaitable[Any]]
"""The app's :class:`~firefight.web.app.Calculator`: ``await compute(function, *args)``."""
Read = Sequence[tuple[Uploads[Any], str, object]]
"""What :meth:`Reading.ready` read: each cache, the text's name and what it loaded into."""


class UploadError(FirefightError):
    """An uploaded file is malformed: the loader's one line (``uploaded deck: card 17: 'rn'
    must be ...``), answered 422 with the upload's field."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


class UploadsBusyError(FirefightError):
    """A client address has :data:`UPLOADS_PER_CLIENT` uploads being read: a 429."""

    status = 429
    field = None

    def __init__(self, client: str) -> None:
        super().__init__(
            f"{client} has {UPLOADS_PER_CLIENT} uploaded files being read already (at most "
            f"{UPLOADS_PER_CLIENT} at once): send this one again once they are answered"
        )


def load_upload(field: str, text: str) -> tuple[object | None, str | None]:
    """Read an uploaded text for the path field ``field`` (in a pool process, which takes and
    gives plain values): what it loaded into, or the loader's one-line error."""
    _, kept, _ = UPLOADS[field]
    try:
        return kept.load(text), None
    except DataFileError as error:
        return None, str(error)


class Reading:
    """The server's uploaded texts read off the event loop by ``compute`` (the pool of
    processes), each text once at a time however many requests carry it, and at most
    :data:`UPLOADS_PER_CLIENT` new texts per client address at once."""

    def __init__(self, compute: Compute, per_client: int = UPLOADS_PER_CLIENT) -> None:
        self.compute = compute
        self.per_client = per_client
        self.busy: Counter[str] = Counter()
        self.reading: dict[tuple[str, str], asyncio.Future[tuple[object | None, str | None]]]
        self.reading = {}

    async def ready(self, model: type[object], data: Mapping[str, object]) -> Read:
        """Read ``data``'s uploaded texts not read yet (the request's :data:`CLIENT` may have
        :attr:`per_client` new ones read at once); what was read, for :func:`keep` to put
        back in the caches right before the synchronous work that needs it (another request's
        uploads may have pushed it out of them while this one waited)."""
        if not takes_uploads(model):
            return ()
        read: list[tuple[Uploads[Any], str, object]] = []
        client = CLIENT.get()
        for field, (upload_field, kept, _) in UPLOADS.items():
            text, given = data.get(upload_field), data.get(field)
            if (
                not isinstance(text, str)
                or given not in (None, UPLOADED)
                or len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES
            ):
                continue  # refused by web_data, in one line
            name = kept.name_of(text)
            loaded = kept.get(name)
            if loaded is None:
                loaded = await self._read(field, upload_field, name, text, client)
            read.append((kept, name, loaded))
        return read

    async def _read(
        self, field: str, upload_field: str, name: str, text: str, client: str
    ) -> object:
        key = (field, name)
        running = self.reading.get(key)
        if running is None:
            if self.busy[client] >= self.per_client:
                raise UploadsBusyError(client)
            self.busy[client] += 1
            running = asyncio.ensure_future(self.compute(load_upload, field, text))
            self.reading[key] = running
            running.add_done_callback(partial(self._done, key, client))
        loaded, problem = await asyncio.shield(running)  # a client that leaves stops no one
        if problem is not None:
            raise UploadError(upload_field, problem)
        return loaded

    def _done(self, key: tuple[str, str], client: str, done: asyncio.Future[object]) -> None:
        del self.reading[key]
        self.busy[client] -= 1
        if not self.busy[client]:
            del self.busy[client]
        if not done.cancelled():
            done.exception()  # retrieved: a client that left leaves no warning behind


def keep(read: Read) -> None:
    """Put what :meth:`Reading.ready` read back in the caches (no parsing)."""
    for kept, name, loaded in read:
        kept.keep(name, loaded)


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
