"""What a request names, found: a rule set, a procedure, a chart or a sample board (an unknown
name a 404, :class:`NotFoundError`), and a procedure's input read from a request's data."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from fastapi.responses import Response

from firefight.errors import InputError, one_of
from firefight.rulesets import ruleset as find_ruleset
from firefight.translation import show_game
from firefight.web import schemas, uploads
from firefight.web.errors import NotFoundError, json_bytes

if TYPE_CHECKING:
    from firefight.board.board import Board
    from firefight.board.los import LosPolicy
    from firefight.core.chart import Chart
    from firefight.core.inputs import RuleInput
    from firefight.rulesets.procedure import Procedure, RuleSet

JSON = "application/json"


def ruleset(name: str) -> RuleSet:
    """The rule set a request names, made the game whose own words the request shows
    (:func:`~firefight.translation.show_game`: each request runs in a context of its own,
    which :class:`~firefight.web.language.Language` begins with no game shown)."""
    try:
        found = find_ruleset(name)
    except InputError as error:
        raise NotFoundError(error) from None
    show_game(found.id)
    return found


def find(ruleset_id: str, procedure_name: str) -> tuple[RuleSet, Procedure[RuleInput]]:
    found = ruleset(ruleset_id)
    try:
        return found, found.procedure(procedure_name)
    except InputError as error:
        raise NotFoundError(error) from None


def chart(found: RuleSet, table: str) -> Chart:
    try:
        return found.chart(table)
    except InputError as error:
        raise NotFoundError(error) from None


@cache
def sample(name: str) -> tuple[Board, LosPolicy]:
    from firefight.rulesets.boards import load  # noqa: PLC0415 - boards load on first use

    return load(name)


def board(name: str) -> tuple[Board, LosPolicy]:
    """A shipped sample board by name (never a path: the server reads no file it is told)."""
    from firefight.rulesets.boards import sample_boards  # noqa: PLC0415

    samples = sample_boards()
    if name not in samples:
        raise NotFoundError(InputError("board", one_of(samples), name))
    return sample(name)


def hex_label(board: Board, field: str, label: str) -> str:
    try:
        return board.label(board.hex(label))
    except InputError as error:
        raise InputError(field, error.allowed, error.got) from None


def parse(proc: Procedure[RuleInput], data: dict[str, object]) -> RuleInput:
    """The procedure's input from a request's data; Up Front's data files only as
    ``illustrative`` or uploaded text (:mod:`firefight.web.uploads`), never a path."""
    return proc.parse(uploads.web_data(proc.input_model, data))


def body_data(proc: Procedure[RuleInput], raw: bytes) -> dict[str, object]:
    """A request body that must be one JSON object (:func:`schemas.json_object`); Up Front's
    may hold its uploads' separators too (:data:`uploads.UPLOAD_VALUES`)."""
    extra = uploads.UPLOAD_VALUES if uploads.takes_uploads(proc.input_model) else 0
    return schemas.json_object(raw, schemas.MAX_BODY_VALUES + extra)


def reply(data: object) -> Response:
    return Response(json_bytes(data), media_type=JSON)
