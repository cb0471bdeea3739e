"""A rule set's player data files on the web: uploaded, never a path (docs/upfront.md, "The
web", for Up Front's deck and personalities).

A rule set declares the data files its procedures read (``RuleSet.files``, each a
:class:`~firefight.rulesets.datafile.DataFile`); a procedure whose input has such a file's
field (``deck``) names the file there: ``illustrative`` or, in the CLI and the Python API, a
file path. The server reads no file it is told, so on the web those fields take only
``illustrative`` (the shipped file) or ``uploaded``; an uploaded file's text comes in the
request body itself, in the file's text field (``deck_toml``: the page reads the file the
player picks and sends its text), of at most the file's ``max_bytes`` like a file. It is
validated by the file loader's own checks, kept by content hash (the file's ``uploads``), and
the input then names it ``uploaded:SHA256``: a request computed in a pool process carries the
text in its body, and the pool process registers it again from there.

A text not yet read is parsed off the event loop, in the server's pool of processes
(:class:`Reading`): a file of the most values allowed costs a parse that, on the loop, every
other client would wait for. A client address may have
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
from firefight.i18n import gettext
from firefight.rulesets.datafile import DataFile, Kept
from firefight.rulesets.registry import ruleset, rulesets
from firefight.translation import thousands
from firefight.web.forms import Control

__all__ = [
    "CLIENT",
    "UPLOADS_PER_CLIENT",
    "UPLOAD_BODY",
    "UPLOAD_VALUES",
    "Reading",
    "UploadError",
    "UploadsBusyError",
    "document",
    "files_of",
    "illustrative_labels",
    "keep",
    "load_upload",
    "takes_uploads",
    "upload_control",
    "upload_fields",
    "web_data",
]

ILLUSTRATIVE = "illustrative"
UPLOADED = "uploaded"
OTHER_BODY = 64 * 1024
"""What a body holds beside its uploaded texts (every route without uploads: at most this)."""


def _largest(size: Callable[[DataFile[Any]], int]) -> int:
    """The most that one installed rule set's data files add up to, by ``size``."""
    return max((sum(size(f) for f in found.files) for found in rulesets()), default=0)


UPLOAD_BODY = _largest(lambda f: f.max_bytes) + OTHER_BODY
"""The largest request body a route taking uploads accepts: each of its data files at its
largest and the other inputs (every other route: 64 KiB)."""
UPLOAD_VALUES = _largest(lambda f: f.max_values)
"""The values and separators a request body taking uploads may hold beyond any other body's:
its uploaded texts' own (each file's ``max_values``), which the JSON reader counts before
parsing although each text is one JSON value."""
UPLOADS_PER_CLIENT = 2
"""New uploaded texts one client address may have being read at once (a request carries at
most one text per data file, two for Up Front's deck and personalities; a text already read
is found by its hash and counts for nothing). Behind a reverse proxy on 127.0.0.1 the address
is the one its ``X-Forwarded-For`` names (``FORWARDED_ALLOW_IPS`` widens that); a proxy
elsewhere makes every client one."""

CLIENT: ContextVar[str] = ContextVar("client", default="unknown")
"""The address the request being answered comes from (set by the app's body limit, which
every request passes)."""

Compute = Callable[..., Awaitable[Any]]
"""The app's :class:`~firefight.web.compute.Calculator`: ``await compute(function, *args)``."""
Read = Sequence[tuple[Kept[Any], str, object]]
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


def files_of(model: type[object]) -> tuple[tuple[str, DataFile[Any]], ...]:
    """The data files a procedure's or an action's input ``model`` names, each with its rule
    set's id: the files its rule set declares (``RuleSet.files``) whose field the model has.
    Worked out once per model (an input model is its own procedure's or action's, of one rule
    set, whose files are fixed): every request asks it several times, and the search walks
    the registry."""
    known = _FILES.get(model)
    if known is None:
        known = _FILES[model] = _files_of(model)
    return known


_FILES: dict[type[object], tuple[tuple[str, DataFile[Any]], ...]] = {}


def _files_of(model: type[object]) -> tuple[tuple[str, DataFile[Any]], ...]:
    fields = getattr(model, "model_fields", None)
    if not isinstance(model, type) or not fields:
        return ()
    for found in rulesets():
        if found.files and (
            any(p.input_model is model for p in found.procedures)
            or any(a.input_model is model for a in found.actions)
        ):
            return tuple((found.id, f) for f in found.files if f.field in fields)
    return ()


def _file(ruleset_id: str, field: str) -> DataFile[Any]:
    return next(f for f in ruleset(ruleset_id).files if f.field == field)


def load_upload(field: str, text: str, ruleset_id: str) -> tuple[object | None, str | None]:
    """Read an uploaded text for the data file field ``field`` of the rule set
    ``ruleset_id`` (in a pool process, which takes and gives plain values): what it loaded
    into, or the loader's one-line error."""
    file = _file(ruleset_id, field)
    try:
        return file.uploads.read(text), None
    except file.error as error:
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
        read: list[tuple[Kept[Any], str, object]] = []
        client = CLIENT.get()
        for ruleset_id, file in files_of(model):
            text, given = data.get(file.text_field), data.get(file.field)
            if (
                not isinstance(text, str)
                or given not in (None, UPLOADED)
                or len(text.encode("utf-8", "surrogatepass")) > file.max_bytes
            ):
                continue  # refused by web_data, in one line
            name = file.uploads.name_of(text)
            loaded = file.uploads.get(name)
            if loaded is None:
                loaded = await self._read(ruleset_id, file, name, text, client)
            read.append((file.uploads, name, loaded))
        return read

    async def _read(
        self, ruleset_id: str, file: DataFile[Any], name: str, text: str, client: str
    ) -> object:
        key = (f"{ruleset_id}/{file.field}", name)
        running = self.reading.get(key)
        if running is None:
            if self.busy[client] >= self.per_client:
                raise UploadsBusyError(client)
            self.busy[client] += 1
            running = asyncio.ensure_future(self.compute(load_upload, file.field, text, ruleset_id))
            self.reading[key] = running
            running.add_done_callback(partial(self._done, key, client))
        loaded, problem = await asyncio.shield(running)  # a client that leaves stops no one
        if problem is not None:
            raise UploadError(file.text_field, problem)
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
    """Whether a procedure's input names player data files (its rule set's ``files``)."""
    return bool(files_of(model))


def web_data(model: type[object], data: Mapping[str, object]) -> Mapping[str, object]:
    """``data`` as the procedure parses it on the web: each data file's field refused unless
    ``illustrative`` or ``uploaded``, an uploaded text validated and named by its hash."""
    out = dict(data)
    for _, file in files_of(model):
        field, upload_field, what = file.field, file.text_field, file.what
        given = out.get(field)
        text = out.pop(upload_field, None)
        if text is None:
            if given is not None and given != ILLUSTRATIVE:
                allowed = gettext(
                    "{illustrative} (the shipped ILLUSTRATIVE {what}) or {uploaded} (with its text "
                    "as {upload_field}); the server reads no file path"
                ).format(
                    illustrative=ILLUSTRATIVE,
                    what=what,
                    uploaded=UPLOADED,
                    upload_field=upload_field,
                )
                raise InputError(field, allowed, given)
            continue
        if given is not None and given != UPLOADED:
            raise InputError(
                field,
                gettext("{uploaded} when {upload_field} is sent").format(
                    uploaded=UPLOADED, upload_field=upload_field
                ),
                given,
            )
        if not isinstance(text, str):
            raise InputError(
                upload_field,
                gettext("the uploaded {what}'s {format} text").format(
                    what=what, format=file.format
                ),
                text,
            )
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > file.max_bytes:
            allowed = gettext("the {format} text of a {what} of at most {max_bytes} bytes").format(
                format=file.format, what=what, max_bytes=thousands(file.max_bytes)
            )
            raise InputError(upload_field, allowed, f"{size:,} bytes")
        try:
            out[field] = file.uploads.register(text)
        except file.error as error:
            raise UploadError(upload_field, str(error)) from None
    return out


def upload_fields(model: type[object]) -> dict[str, str]:
    """Each data file field of ``model`` and the body field that carries its uploaded text."""
    return {file.field: file.text_field for _, file in files_of(model)}


def illustrative_labels(model: type[object]) -> list[str]:
    """How the page labels the shipped files: ILLUSTRATIVE, not the published values."""
    return [file.shipped_label() for _, file in files_of(model)]


def upload_control(control: Control, model: type[object] | None = None) -> Control:
    """A data file's control as the page draws it: a file input (``upload``), with help that
    says what an empty one means (the shipped ILLUSTRATIVE file). The file is ``model``'s
    (without it: the first rule set's that declares a file of that field)."""
    declared = (
        [f for _, f in files_of(model)]
        if model is not None
        else [f for found in rulesets() for f in found.files]
    )
    file = next((f for f in declared if f.field == control.name), None)
    if file is None:
        return control
    where = gettext(", the format in {doc}").format(doc=file.doc) if file.doc else ""
    help_text = gettext(
        "Your {what} ({format}{where}). None chosen: the shipped ILLUSTRATIVE {what}, not the "
        "published values."
    ).format(what=gettext(file.what), format=file.format, where=where)
    allowed = gettext("{illustrative} or an uploaded file of at most {max_bytes} bytes").format(
        illustrative=ILLUSTRATIVE, max_bytes=thousands(file.max_bytes)
    )
    return replace(control, kind="upload", help=help_text, allowed=allowed)


def document(model: type[object], schema: dict[str, Any]) -> None:
    """A procedure's input schema as the web takes it (the OpenAPI document): each data
    file's field one of ``illustrative``, ``uploaded``; the uploads' text fields."""
    properties = schema.setdefault("properties", {})
    for _, file in files_of(model):
        field, upload_field, what = file.field, file.text_field, file.what
        if field not in properties:
            continue
        properties[field] = {
            "title": field.capitalize(),
            "type": "string",
            "enum": [ILLUSTRATIVE, UPLOADED],
            "default": ILLUSTRATIVE,
            "description": (
                f"{ILLUSTRATIVE}: the shipped ILLUSTRATIVE {what}, not the published values; "
                f"{UPLOADED}: the {what} whose {file.format} text is {upload_field}. The "
                "server reads no file path."
            ),
        }
        where = f" ({file.doc})" if file.doc else ""
        properties[upload_field] = {
            "title": upload_field,
            "type": "string",
            "maxLength": file.max_bytes,
            "description": (
                f"The uploaded {what}'s {file.format} text{where}, at most "
                f"{file.max_bytes:,} bytes; with {field} = {UPLOADED}."
            ),
        }
