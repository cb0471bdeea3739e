"""A procedure as a card table (``/rulesets/{ruleset}/{procedure}/cards``), for a rule set
that gives it a :class:`~firefight.rulesets.cardtable.CardView`: the hand and the men as
cards, the odds beside, worked out on the server under the odds' work budget.

The form under the cards is the one truth, and the page works without scripts: a card is a
submit button (``play``: its number, added to the view's play field or taken out of it), the
form is sent by GET, and the address holds the whole input. ``static/cards.js`` only plays a
card and fetches the page again in place."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from firefight.chance import WorkBudgetError, work_budget
from firefight.core.inputs import validate
from firefight.digits import read_integer
from firefight.errors import FirefightError, InputError
from firefight.i18n import gettext as _
from firefight.rulesets import ruleset
from firefight.rulesets.action import Shown
from firefight.rulesets.cardtable import CardTable, toggled
from firefight.web import lookup, uploads
from firefight.web.compute import WORK_BUDGET
from firefight.web.errors import NotFoundError, bad_input_page
from firefight.web.forms import Control, controls

if TYPE_CHECKING:
    from fastapi.templating import Jinja2Templates

    from firefight.rulesets.cardtable import CardView
    from firefight.rulesets.procedure import RuleSet
    from firefight.web.compute import Calculator

PLAY = "play"
"""The query's name of a card clicked without a script."""


def typed(control: Control, text: str) -> object:
    """A form's text as its field's type (an integer, a flag, a choice's own type); text a
    field cannot read stays text, for the input model to refuse in one line."""
    if control.kind == "number" or (
        control.kind == "select"
        and text in control.choices
        and control.choice_types[control.choices.index(text)] == "integer"
    ):
        number = read_integer(text)
        return text if number is None else number
    if control.kind == "checkbox":
        return text.lower() in {"true", "on", "yes", "1"}
    if control.kind == "select" and text in control.choices:
        kind = control.choice_types[control.choices.index(text)]
        return text == "True" if kind == "boolean" else text
    return text


def form_input(fields: list[Control], query: Mapping[str, str]) -> dict[str, object]:
    """The procedure's input data from the form's text: the fields the query names, typed
    (a blank number or choice left to its default; a data file as the address names it,
    which :func:`~firefight.web.lookup.parse` refuses unless the shipped one)."""
    data: dict[str, object] = {}
    for control in fields:
        text = query.get(control.name)
        if text is None:
            continue
        if text == "" and control.kind in ("number", "select"):
            continue
        data[control.name] = typed(control, text)
    return data


def table_of(
    ruleset_id: str, procedure_name: str, data: dict[str, object]
) -> tuple[int, CardTable | str]:
    """The card table for the input ``data`` (the form's text typed: strings, integers and
    flags), under the :data:`WORK_BUDGET`, or the one line that refuses the input (run in
    the pool: picklable values in and out)."""
    found, proc = lookup.find(ruleset_id, procedure_name)
    view = found.card_view(proc.name)
    if view is None:  # pragma: no cover - the route checks it first
        return 404, "no card view"
    try:
        with work_budget(WORK_BUDGET):
            inp = lookup.parse(proc, dict(data))
            return 200, view.table(inp)
    except (FirefightError, WorkBudgetError) as error:
        return 422, str(error)


ACTION = "action"
"""The query's name of an action's button (its value the action's name)."""


def answer_of(
    ruleset_id: str, action_name: str, data: dict[str, object]
) -> tuple[int, list[Shown] | str]:
    """An action's answer as lines and tables for the input ``data`` (the form's text typed),
    under the :data:`WORK_BUDGET` like any odds, or the one line that refuses it (run in the
    pool: picklable values in and out)."""
    found = ruleset(ruleset_id)
    try:
        action = found.action(action_name)
        with work_budget(WORK_BUDGET):
            data = dict(uploads.web_data(action.input_model, data))  # never a file's path
            inp = validate(action.input_model, data)
            return 200, list(action.run(None, inp).text())
    except (FirefightError, WorkBudgetError) as error:
        return 422, str(error)


def _action_fields(
    view: CardView, found: RuleSet, proc_model: type[Any], query: Mapping[str, str]
) -> list[Any]:
    """Each action button of the view: its name, label and the controls of its own fields
    (those the procedure's input has not)."""
    buttons = []
    for name, label in view.actions:
        model = found.action(name).input_model
        own = [n for n in model.model_fields if n not in proc_model.model_fields]
        buttons.append((name, _(label), [c for c in controls(model, query) if c.name in own]))
    return buttons


async def _action_answer(
    calculator: Calculator, found: RuleSet, view: CardView, query: Mapping[str, str]
) -> dict[str, Any]:
    """The answer of the action whose button was pressed (``action`` in the query), if any."""
    name = query.get(ACTION)
    if not name or name not in {n for n, _label in view.actions}:
        return {"answer": None, "answer_error": ""}
    model = found.action(name).input_model
    data = form_input(controls(model, dict(query)), query)
    _status, shown = await calculator(answer_of, found.id, name, data)
    if isinstance(shown, str):
        return {"answer": None, "answer_error": shown}
    return {"answer": shown, "answer_error": ""}


def _query(view: CardView, model: type[Any], request: Request) -> dict[str, str]:
    """The form's text: the address's, over the view's sample where the address names no
    field the page shows; a card clicked without a script (``play``) played or taken back."""
    query = dict(request.query_params)
    if not set(query) & (set(model.model_fields) - set(view.hidden)):
        query = {**view.sample, **query}
    played = query.pop(PLAY, None)
    if played is not None:
        number = read_integer(played)
        if number is None:
            raise InputError(PLAY, "an inventory number", played)
        query[view.play_field] = toggled(query.get(view.play_field, ""), number)
    return query


def _grouped(view: CardView, fields: list[Control]) -> dict[str, Any]:
    """The controls shown open, each fold's (its title and controls), the readings."""
    named = {c.name: c for c in fields if c.name not in view.hidden}
    shown = [named[n] for n in view.shown if n in named]
    folds = [(_(title), [named[n] for n in names if n in named]) for title, names in view.folded]
    placed = set(view.shown) | {n for _, names in view.folded for n in names}
    readings = [c for c in named.values() if c.reading and c.name not in placed]
    rest = [c for c in named.values() if not c.reading and c.name not in placed]
    if rest:
        folds.insert(0, (_("More of the situation: modifiers and the men's state"), rest))
    return {"shown": shown, "folds": folds, "readings": readings}


def router(templates: Jinja2Templates, calculator: Calculator) -> APIRouter:
    """The card table pages, their tables computed by ``calculator``."""
    router = APIRouter()

    @router.get(
        "/rulesets/{ruleset}/{procedure}/cards",
        response_class=HTMLResponse,
        include_in_schema=False,
    )
    async def card_page(request: Request, ruleset: str, procedure: str) -> Response:
        found, proc = lookup.find(ruleset, procedure)
        view = found.card_view(proc.name)
        if view is None:
            allowed = ", ".join(v.procedure for v in found.card_views) or "none"
            wanted = _("a procedure with a card view ({allowed})").format(allowed=allowed)
            raise NotFoundError(InputError("procedure", wanted, procedure))
        try:
            query = _query(view, proc.input_model, request)
        except InputError as refused:
            return bad_input_page(templates, request, refused)
        fields = controls(proc.input_model, query)
        data = form_input(fields, query)
        status, table = await calculator(table_of, found.id, proc.name, data)
        error = table if isinstance(table, str) else table.error
        context = {
            "ruleset": found,
            "procedure": proc,
            "view": view,
            "table": None if isinstance(table, str) else table,
            "error": error,
            "play_field": view.play_field,
            "play_value": query.get(view.play_field, ""),
            "form_page": f"/rulesets/{found.id}/{proc.name}",
            "illustrative": uploads.illustrative_labels(proc.input_model),
            **_grouped(view, fields),
            "buttons": _action_fields(view, found, proc.input_model, query),
            **await _action_answer(calculator, found, view, query),
        }
        code = status if status != 200 else (422 if error else 200)
        return templates.TemplateResponse(request, "cards.html", context, status_code=code)

    return router
