"""The calculator's pages, rendered on the server: the index, a chart, a procedure's form, a
board and its fire feed, the history."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from firefight import faces
from firefight.core.modifier import ModifierKind
from firefight.errors import FirefightError, InputError
from firefight.i18n import gettext as _
from firefight.rulesets import rulesets as every_ruleset
from firefight.web import lookup, uploads
from firefight.web.boardsvg import board_svg
from firefight.web.engage import samples_listed
from firefight.web.errors import bad_input_page
from firefight.web.forms import Control, controls
from firefight.web.wording import outcome_labels, readable, script_words, worded

if TYPE_CHECKING:
    from fastapi.templating import Jinja2Templates

    from firefight.board.board import Board
    from firefight.board.los import LosPolicy
    from firefight.core.chart import Chart
    from firefight.rulesets.procedure import Procedure, RuleSet


def _games() -> list[dict[str, Any]]:
    """The home page's games, in the rule sets' order: each with the procedures it features,
    its sample boards, its sample engagements and its actions' pages."""
    from firefight.rulesets.boards import sample_boards  # noqa: PLC0415

    boards = [(name, lookup.sample(name)[0]) for name in sample_boards()]
    engagements = samples_listed()
    return [
        {
            "ruleset": found,
            "featured": found.featured_procedures(),
            "boards": [(name, board) for name, board in boards if board.ruleset == found.id],
            "engagements": [e for e in engagements if e["ruleset"] == found.id],
            "pages": [a.subject for a in found.actions if a.subject and a.subject.page][:1],
            "files": [f for f in found.files if f.editor is not None],
        }
        for found in every_ruleset()
    ]


def router(templates: Jinja2Templates) -> APIRouter:
    """The pages (none in the OpenAPI document), rendered with ``templates``.

    Each route is a thin handler, as FastAPI's decorators declare them; a page that does more
    than render a template does its work in a function of its own below."""
    router = APIRouter()

    @router.get("/", response_class=HTMLResponse, include_in_schema=False)
    def index(request: Request) -> Response:
        return templates.TemplateResponse(request, "index.html", {"games": _games()})

    @router.get(
        "/rulesets/{ruleset}/tables/{table}", response_class=HTMLResponse, include_in_schema=False
    )
    def chart_page(
        request: Request,
        ruleset: str,
        table: str,
        row: str | None = None,
        column: str | None = None,
    ) -> Response:
        found = lookup.ruleset(ruleset)
        chart = lookup.chart(found, table)
        return templates.TemplateResponse(
            request,
            "chart.html",
            {"ruleset": found, "chart": chart, "row": row, "column": column},
        )

    @router.get(
        "/rulesets/{ruleset}/{procedure}", response_class=HTMLResponse, include_in_schema=False
    )
    def procedure_page(request: Request, ruleset: str, procedure: str) -> Response:
        return _procedure_page(templates, request, ruleset, procedure)

    @router.get("/boards/{name}/fire", include_in_schema=False)
    def board_fire(
        request: Request,
        name: str,
        origin: Annotated[str, Query(alias="from")] = "",
        target: Annotated[str, Query(alias="to")] = "",
    ) -> Response:
        """The fire procedure of the board's rule set, what its feed reads of the line of
        sight ``from`` -> ``to`` filled in (``board_fire``; the feed's options, such as a
        reading, from the query): a redirect to the procedure page, whose address carries
        them."""
        board, policy = lookup.board(name)
        try:
            return _board_fire(board, policy, request.query_params, origin, target)
        except InputError as error:
            return bad_input_page(templates, request, error)

    @router.get("/history", response_class=HTMLResponse, include_in_schema=False)
    def history_page(request: Request) -> Response:
        return templates.TemplateResponse(request, "history.html", {})

    @router.get("/boards/{name}", response_class=HTMLResponse, include_in_schema=False)
    def board_page(request: Request, name: str) -> Response:
        return _board_page(templates, request, name)

    return router


def _procedure_page(
    templates: Jinja2Templates, request: Request, ruleset: str, procedure: str
) -> Response:
    """A procedure's page: its form, opened with the inputs the address names; a data file
    named other than as the web takes one is a 422 error page."""
    found, proc = lookup.find(ruleset, procedure)
    query = dict(request.query_params)
    fields = controls(proc.input_model, query)
    illustrative: list[str] = []
    if uploads.takes_uploads(proc.input_model):  # Up Front: files uploaded, never a path
        try:
            _check_uploads(proc.input_model, query)
        except InputError as error:
            return bad_input_page(templates, request, error)
        fields = [uploads.upload_control(c, proc.input_model) for c in fields]
        illustrative = uploads.illustrative_labels(proc.input_model)
    chart = found.chart(proc.chart) if proc.chart else None
    page = _page_data(found, proc, chart, fields, query, uploaded=bool(illustrative))
    return templates.TemplateResponse(
        request,
        "procedure.html",
        {
            "ruleset": found,
            "procedure": proc,
            "controls": fields,
            "chart": chart,
            "page": page,
            "seed": query.get("seed", ""),
            "roll": query.get("roll", ""),
            "illustrative": illustrative,
        },
    )


def _check_uploads(model: type[object], query: Mapping[str, str]) -> None:
    """Refuse (``InputError``) a data file the address names other than as the web takes one
    (the shipped file, or one ``uploaded``): the server reads no path."""
    named = uploads.upload_fields(model)
    uploads.web_data(model, {k: v for k, v in query.items() if k in named and v != "uploaded"})


def _page_data(
    found: RuleSet,
    proc: Procedure[Any],
    chart: Chart | None,
    fields: list[Control],
    query: Mapping[str, str],
    *,
    uploaded: bool,
) -> dict[str, Any]:
    """What a procedure's page hands its script: its addresses, charts, words and fields."""
    meanings = faces.meanings(found, proc)
    initial = {c.name: c for c in controls(proc.input_model, {})}
    return {
        "ruleset": found.id,
        "procedure": proc.name,
        "api": f"/api/rulesets/{found.id}/{proc.name}",
        "page": f"/rulesets/{found.id}/{proc.name}",
        "title": _(proc.title),
        "chart": chart.id if chart else None,
        "charts": {c.title: c.id for c in found.charts()},
        "meanings": {k: worded(_(v)) for k, v in meanings.items()},
        "labels": {
            **page_words(proc, fields, _first_inputs(fields)),
            **outcome_labels([*proc.outcome_order, *meanings]),
        },
        "fields": {
            c.name: {
                "kind": c.kind,
                "label": c.label,
                "choices": dict(zip(c.choices, c.choice_types, strict=True)),
                "initial": _initial(initial[c.name]),
            }
            for c in fields
        },
        "seed": query.get("seed"),
        "roll": query.get("roll"),
        "uploads": uploads.upload_fields(proc.input_model) if uploaded else {},
    }


def _board_fire(
    board: Board, policy: LosPolicy, params: Mapping[str, object], origin: str, target: str
) -> Response:
    """The redirect of ``/boards/{name}/fire`` (its route says what); a hex or an option
    refused is an ``InputError``."""
    from firefight.board.los import line_of_sight  # noqa: PLC0415
    from firefight.rulesets.board_fire import fire_inputs, fire_options  # noqa: PLC0415

    options = fire_options(board, params)
    a = board.hex(lookup.hex_label(board, "from", origin))
    b = board.hex(lookup.hex_label(board, "to", target))
    if a == b:
        raise InputError(
            "to", _("a hex other than the firer's {origin}").format(origin=origin), target
        )
    feed = fire_inputs(board, a, b, line_of_sight(board, a, b, policy), options)
    query = urlencode(feed.inputs)
    return RedirectResponse(f"/rulesets/{feed.ruleset}/{feed.procedure}?{query}", 303)


def _board_page(templates: Jinja2Templates, request: Request, name: str) -> Response:
    """A board's page: its picture, and the help of its rule set's fire link where it has one."""
    from firefight.rulesets.board_fire import board_fire  # noqa: PLC0415

    board, _policy = lookup.board(name)
    feed = board_fire(board.ruleset)
    return templates.TemplateResponse(
        request,
        "board.html",
        {
            "name": name,
            "board": board,
            "svg": board_svg(board),
            "fire_help": _(feed.help) if feed else "",
        },
    )


def page_words(
    procedure: Procedure[Any], fields: Iterable[Control], initial: Mapping[str, object]
) -> dict[str, str]:
    """The words a procedure's page hands its script, beyond its outcomes': what it may show
    as an answer's English (a modifier's kind, a fact's label for the page's first inputs, a
    field's name or choice in an error or a fact), each in the page's language."""
    words: dict[str, str] = {kind.value: readable(kind.value) for kind in ModifierKind}
    words |= script_words()
    words |= {"yes": readable(True), "no": readable(False)}
    for control in fields:
        words[control.name] = words[control.name.replace("_", " ")] = control.label
        words |= dict(zip(control.choices, control.choice_labels, strict=False))
    try:
        facts = procedure.facts(procedure.parse(initial))
    except FirefightError:  # the first inputs are incomplete: no facts to word yet
        facts = ()
    for label, _value in facts:
        words.setdefault(label, _(label))
    return words


def _first_inputs(fields: list[Control]) -> dict[str, object]:
    """The inputs the page's form opens with, typed as the page sends them (its uploads left
    to their defaults)."""
    given: dict[str, object] = {}
    for c in fields:
        if c.kind == "upload" or (c.value == "" and c.kind != "checkbox"):
            continue
        if c.kind == "checkbox":
            given[c.name] = c.checked
        elif c.kind == "number":
            given[c.name] = int(c.value) if c.value.lstrip("-").isdigit() else c.value
        elif c.kind == "select" and c.value in c.choices:
            kind = c.choice_types[c.choices.index(c.value)]
            if kind == "integer":
                given[c.name] = int(c.value)
            else:
                given[c.name] = c.value == "True" if kind == "boolean" else c.value
        else:
            given[c.name] = c.value
    return given


def _initial(control: Control) -> str:
    """The value a control opens with when the address names no value: the page leaves it out
    of the address it writes as the form is edited (README, "Web calculator")."""
    return ("true" if control.checked else "false") if control.kind == "checkbox" else control.value
