"""The answers of the actions' routes (:mod:`firefight.web.actions`), computed in the server's
pool of processes (:class:`~firefight.web.app.Calculator`): the request's JSON body in, the
API's status and JSON body out, under :data:`SCENARIO_SECONDS`.

``compute_answer("vv/move", body)`` answers an action of a rule set (``"move"`` alone: the
first rule set declaring it), ``"vv/scenario"`` the rule set's subject as its page draws it.
The subject in the body is its text, read as the rule set reads a pasted one (a scenario names
a sample board: the server reads no file it is told). Bad input is a 422 with the CLI's one
line (the field named as the request sent it), as everywhere in the API.

:func:`page_controls` gives a subject's page the form controls of an action's input model
(:mod:`firefight.web.forms`), each with the shape its text is sent in.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import asdict, replace
from typing import Annotated, Any, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, create_model

from firefight.chance import work_budget
from firefight.core.inputs import RuleInput, _non_none, is_reading, validate
from firefight.errors import FirefightError, InputError
from firefight.i18n import N_
from firefight.i18n import gettext as _
from firefight.rulesets import rulesets
from firefight.rulesets.action import Action, CliForm, Subject
from firefight.rulesets.procedure import RuleSet
from firefight.web.boardsvg import board_svg
from firefight.web.compute import WORK_BUDGET
from firefight.web.engage import EngagementTooCostlyError, _time_limit
from firefight.web.errors import api_error, naming
from firefight.web.faults import fault_answer
from firefight.web.forms import control, readable
from firefight.web.schemas import json_object
from firefight.web.uploads import web_data

SOURCE = "scenario"
"""How a pasted subject is named in its errors."""
SCENARIO_SECONDS = 20
"""The most time a pool process spends on one answer (the sample's threat map takes well
under a second)."""
log = logging.getLogger("firefight.web")


class ScenarioTooCostlyError(InputError):
    """An answer took longer than :data:`SCENARIO_SECONDS` in a pool process."""

    def __init__(self) -> None:
        super().__init__(
            "scenario",
            f"a scenario whose answer takes at most {SCENARIO_SECONDS} s here (fewer units or "
            "a shorter path; the command line has no limit)",
            f"more than {SCENARIO_SECONDS} s",
        )


COSTLY_INPUT = N_(
    "an input whose answer takes at most {seconds} s here ({reduce}; the command line has no limit)"
)
"""The refusal of an action's answer past :data:`SCENARIO_SECONDS` where the action names the
field that made the work too large and what to reduce (:attr:`Action.costly`)."""


def too_costly(what: str) -> InputError:
    """The one-line refusal of ``what``'s answer past :data:`SCENARIO_SECONDS`: the field the
    action names as what made the work too large (the subject's by default) and what to
    reduce."""
    try:
        ruleset, name = find(what)
    except InputError:
        return ScenarioTooCostlyError()
    action = next((a for a in ruleset.actions if a.name == name), None)
    field, reduce = action.costly if action is not None else ("", "")
    if not field:
        return ScenarioTooCostlyError()
    allowed = _(COSTLY_INPUT).format(seconds=SCENARIO_SECONDS, reduce=_(reduce))
    return InputError(field, allowed, _("more than {seconds} s").format(seconds=SCENARIO_SECONDS))


def parsed(subject: Subject[Any], text: str) -> Any:  # noqa: ANN401 - the subject's own type
    """``text`` read as ``subject`` (a pasted one, named :data:`SOURCE`); an error naming no
    field names the body's field holding the text."""
    with naming(subject.name):
        return subject.parse(text, SOURCE)


def subject_field(subject: Subject[Any]) -> tuple[type[str], Any]:
    """The body's field holding the subject's text."""
    return (str, Field(max_length=subject.max_chars, description=subject.description))


def request_model(action: Action[Any, Any]) -> type[BaseModel]:
    """The body of an action's route: its subject's text first, then every field of its input
    model (the OpenAPI schema is this model's)."""
    fields: dict[str, Any] = {}
    if action.subject is not None:
        fields[action.subject.name] = subject_field(action.subject)
    for name, info in action.input_model.model_fields.items():
        fields[name] = (info.annotation, info)
    title = action.name.title().replace("_", "") + "In"
    return create_model(title, __base__=RuleInput, __doc__=action.summary, **fields)


def subject_model(subject: Subject[Any]) -> type[BaseModel]:
    """The body of a subject's route: its text."""
    name = subject.name.title() + "In"
    config = ConfigDict(extra="forbid")
    fields: dict[str, Any] = {subject.name: subject_field(subject)}
    return create_model(name, __config__=config, **fields)


def find(what: str) -> tuple[RuleSet, str]:
    """``"vv/move"`` (or ``"move"``: the first rule set declaring it): the rule set and name."""
    ruleset_id, _, name = what.rpartition("/")
    for ruleset in rulesets():
        if ruleset_id and ruleset.id != ruleset_id:
            continue
        names = {a.name for a in ruleset.actions}
        names |= {a.subject.name for a in ruleset.actions if a.subject is not None}
        if name in names:
            return ruleset, name
    raise InputError("action", "an action of a rule set", what)


_OPTION = r"--[a-z][a-z0-9-]*(?: [A-Z]+(?:\[[^\]]*\])?(?![a-z]))?"
"""A command's option as the rules' words name it, with its value's placeholder if any
(``--to HEX``, ``--roll V[,V...]``, ``--policy``)."""
_OPTIONS = re.compile(f"{_OPTION}(?: {_OPTION})*")
"""Options named one after the other (``--path --seed``)."""


def _fields_named(action: Action[Any, Any], text: str) -> str:
    """``text`` naming each option of the command as the request names its field: ``--to
    HEX`` as ``'to'``, ``--fire`` as ``'player'``, ``--path --seed`` as ``'path' and 'seed'``:
    the web's errors name the JSON fields, as the command's name its options."""
    fields = {
        "--" + (action.cli.get(f, CliForm()).option or f).replace("_", "-"): f
        for f in action.input_model.model_fields
    }

    def named(found: re.Match[str]) -> str:
        options = [part for part in found[0].split() if part.startswith("--")]
        if not all(option in fields for option in options):
            return found[0]
        return " and ".join(f"'{fields[option]}'" for option in options)

    return _OPTIONS.sub(named, text)


def _renamed(action: Action[Any, Any], error: InputError) -> InputError:
    """``error`` naming the field as the request sent it (``player`` for the CLI's ``fire``)
    and the other fields its words name too (``'path' must be left out with 'to'``, where the
    command says ``--to``)."""
    allowed = _fields_named(action, error.allowed)
    for said, field in action.web_errors.items():
        if error.field == said or error.field.startswith(said + "."):
            return InputError(field + error.field[len(said) :], allowed, error.got)
    if allowed != error.allowed:
        return InputError(error.field, allowed, error.got)
    return error


def action_answer(action: Action[Any, Any], body: str) -> dict[str, object]:
    """An action's answer (its ``--json``) for a request body."""
    data = json_object(body.encode())  # bounded, as every body the web reads
    if action.rolls and data.get("seed") is not None and data.get("roll") is not None:
        raise InputError("seed/roll", "at most one of seed or roll", "both")
    subject = None
    if action.subject is not None:
        subject = parsed(action.subject, str(data.pop(action.subject.name, "")))
    data = dict(web_data(action.input_model, data))  # a data file: shipped, never a path
    inp = validate(action.input_model, data)
    try:
        with work_budget(WORK_BUDGET) if action.budgeted else nullcontext():
            return dict(action.run(subject, inp).to_json())
    except InputError as error:
        raise _renamed(action, error) from None


def subject_answer(subject: Subject[Any], body: str) -> dict[str, object]:
    """A subject as its page draws it: the page's data, its title and its board drawn."""
    text = str(json_object(body.encode()).get(subject.name, ""))
    found = parsed(subject, text)
    drawing = board_svg(subject.board(found))
    page = subject.page(found, text) if subject.page is not None else {}
    return {
        **page,
        "name": subject.title(found),
        "drawing": {
            "view_box": drawing.view_box,
            "width": drawing.width,
            "height": drawing.height,
            "hexes": [asdict(h) for h in drawing.hexes],
            "sides": [asdict(s) for s in drawing.sides],
        },
    }


def _answer_of(what: str) -> Callable[[str], dict[str, object]]:
    ruleset, name = find(what)
    for action in ruleset.actions:
        if action.name == name:
            return lambda body: action_answer(action, body)
    subject = next(a.subject for a in ruleset.actions if a.subject and a.subject.name == name)
    return lambda body: subject_answer(subject, body)


class _Answers(dict[str, Callable[[str], dict[str, object]]]):
    """The answer of each ``"ruleset/name"``, found in the registry when asked."""

    def __missing__(self, what: str) -> Callable[[str], dict[str, object]]:
        return _answer_of(what)


ANSWERS: dict[str, Callable[[str], dict[str, object]]] = _Answers()
"""The function answering each ``"ruleset/name"`` (or ``"name"``), from the registry; a test
may put its own in."""


def compute_answer(what: str, body: str) -> tuple[int, bytes]:
    """One answer as the API's status and JSON body; it runs in a pool process, so it takes and
    gives strings and bytes and never raises (a user error is its answer, a bug a 500)."""
    try:
        answer = ANSWERS[what]  # the rule sets loaded first: not the answer's time
        with _time_limit(SCENARIO_SECONDS):
            found = answer(body)
    except EngagementTooCostlyError:
        return api_error(too_costly(what))
    except FirefightError as error:
        return api_error(error)
    except Exception as error:
        log.exception("scenario answer failed")
        return fault_answer(error)  # a third party's bug: one line naming it
    return 200, json.dumps(found, ensure_ascii=False, separators=(",", ":")).encode()


def _shape(annotation: object) -> str:
    """How the page writes a text control's value into the field's JSON: ``"list"`` (comma-
    separated, ``0306,0406``), ``"orders"`` (``KEY=ID/ID,...``: a list per key), ``"pairs"``
    (``KEY=VALUE,...``) or ``"text"`` (as typed)."""
    annotation, _optional = _non_none(annotation)
    origin = get_origin(annotation)
    if origin is list:
        return "list"
    if origin is dict:
        value = get_args(annotation)[1]
        value = get_args(value)[0] if get_origin(value) is Annotated else value
        return "orders" if get_origin(value) is list else "pairs"
    return "text"


def page_controls(
    action: Action[Any, Any], offered: Mapping[str, Sequence[str]]
) -> list[dict[str, object]]:
    """The form controls of every field of an action's input model, as the page draws them
    (``_control.html``) and sends them (``shape``, :func:`_shape`): a field the page offers
    choices for (the subject's ``choices``, default first) is a select of them."""
    found = []
    for name, info in action.input_model.model_fields.items():
        drawn = control(name, info, None, reading=is_reading(action.input_model, name))
        if name in offered and drawn.kind == "text":
            values = tuple(offered[name])
            drawn = replace(
                drawn,
                kind="select",
                choices=values,
                choice_labels=tuple(readable(v) for v in values),
                choice_types=("string",) * len(values),
                value=drawn.value or (values[0] if values else ""),
            )
        shape = _shape(info.annotation)
        if shape != "text":  # "(dict)" says nothing to a player: the help gives the syntax
            drawn = replace(drawn, allowed=_("typed as on the command line, or left empty"))
        found.append({**asdict(drawn), "shape": shape})
    return found
