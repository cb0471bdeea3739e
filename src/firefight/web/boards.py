"""The boards' JSON API: the sample boards, a board as data, the line of sight between two
hexes and what a hex can see (``firefight board ... --json``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import Response

from firefight import faces
from firefight.web import lookup, schemas
from firefight.web.openapi import ERRORS


def router() -> APIRouter:
    """The board routes, under ``/api/boards``."""
    router = APIRouter()

    @router.get("/api/boards", response_model=list[schemas.BoardSummaryOut], tags=["boards"])
    def api_boards() -> Response:
        """The sample boards (``firefight board list --json``)."""
        from firefight.rulesets.boards import sample_boards  # noqa: PLC0415

        samples = {name: lookup.sample(name)[0] for name in sample_boards()}
        return lookup.reply(faces.boards_json(samples))

    @router.get(
        "/api/boards/{name}", response_model=schemas.BoardOut, responses=ERRORS, tags=["boards"]
    )
    def api_board(name: str) -> Response:
        """A board as data (``firefight board show NAME --json``)."""
        return lookup.reply(lookup.board(name)[0].to_json())

    @router.get(
        "/api/boards/{name}/los", response_model=schemas.LosOut, responses=ERRORS, tags=["boards"]
    )
    def api_los(
        name: str,
        firer: Annotated[str, Query(alias="from", description="The firer's hex, e.g. 0504.")],
        target: Annotated[str, Query(alias="to", description="The target's hex, e.g. 0908.")],
    ) -> Response:
        """The line of sight between two hexes and why (``firefight board los … --json``)."""
        from firefight.board.los import line_of_sight  # noqa: PLC0415

        board, policy = lookup.board(name)
        a = board.hex(lookup.hex_label(board, "from", firer))
        b = board.hex(lookup.hex_label(board, "to", target))
        verdict = line_of_sight(board, a, b, policy)
        return lookup.reply(faces.los_json(board, firer, target, verdict))

    @router.get(
        "/api/boards/{name}/visible",
        response_model=schemas.VisibleOut,
        responses=ERRORS,
        tags=["boards"],
    )
    def api_visible(
        name: str,
        origin: Annotated[str, Query(alias="from", description="The hex that looks, e.g. 0504.")],
    ) -> Response:
        """Every hex a hex can see, with its hindrance modifier (``firefight board visible``)."""
        from firefight.board.visibility import visible_set  # noqa: PLC0415

        board, policy = lookup.board(name)
        a = board.hex(lookup.hex_label(board, "from", origin))
        seen = visible_set(board, a, policy)
        return lookup.reply(faces.visible_json(board, origin, seen))

    return router
