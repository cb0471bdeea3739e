"""Extract firefight's messages and update the catalogues: ``python -m firefight.cli.catalogue``
(``make catalogue``; docs/languages.md, "Adding or changing a message, adding a language").

Two sources make the template ``locale/messages.pot``:

* the ``_()`` / ``gettext`` / ``ngettext`` calls of the Python code, the Jinja templates and
  the web's scripts (``tr()``), extracted by Babel;
* the metadata the faces translate by its English text: rule set and procedure titles, field
  labels (a field's name as read, ``target movement``), choice labels (``force march``), outcome
  meanings (a chart's legend or a procedure's ``meanings``), outcome names with no meaning,
  the field descriptions of the rulebooks not in English (:data:`ENGLISH`), the CLI's ``--help``
  texts (its commands', arguments' and options') and the sample engagements' titles.

Each language's ``messages.po`` is then updated from the template: translations kept, new
messages added empty (a test fails until they are translated), and messages gone dropped.
After running it, translate the empty entries of ``fr/LC_MESSAGES/messages.po``.
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Iterator
from contextlib import redirect_stderr
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import annotated_types
import typer
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from firefight.cli import HELP_CHROME, app, help_texts
from firefight.core.inputs import _non_none, choices
from firefight.core.modifier import ModifierKind
from firefight.errors import FirefightError
from firefight.faces import meanings
from firefight.i18n import DOMAIN, LANGUAGES, LOCALE, OUTCOME_WORDS, SOURCE, catalogue_path
from firefight.rulesets import rulesets
from firefight.rulesets.action import Action
from firefight.rulesets.procedure import Procedure, RuleSet
from firefight.sim.scenario import parse_scenario, sample_scenarios

SOURCES = Path(__file__).resolve().parent.parent
"""The ``firefight`` package: its Python code, templates and scripts."""
TEMPLATE = LOCALE / f"{DOMAIN}.pot"
KEYWORDS = {
    "_": None,
    "N_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "tr": None,
    "InputError": (2,),
    "ScriptError": (2,),
    "StateLimitError": (1,),
}
"""The calls whose literal text is a message: gettext's, and the refusals' phrases that
:class:`~firefight.errors.InputError` and :class:`~firefight.chance.limits.StateLimitError`
translate when they word their line (what a field allows, what a limit counts)."""
METHODS = [
    ("**/static/vendor/**", "ignore"),
    ("**/static/**.js", "javascript"),
    ("**/templates/**.html", "jinja2"),
    ("**.py", "python"),
]
OPTIONS = {"**/static/**.js": {"parse_template_string": True}}
"""The scripts' messages inside a template literal's ``${…}`` (``${tr("exact")}``), which
Babel's JavaScript lexer skips unless told to parse template strings."""
ENGLISH = "en"
"""The language of the messages: a rule set whose rulebook is in another
(:attr:`~firefight.rulesets.procedure.RuleSet.rulebook_language`, the French rulebooks) has its
fields' descriptions translated too, for its players read that language (docs/languages.md)."""
_WORDS = re.compile(r"[a-z][a-z_ ,'()-]*")
"""An outcome name worth translating: words, not a code (``S1``) or a composite key."""


def readable(value: object) -> str:
    """A name or a choice as a player reads it (``force_march`` -> ``force march``): the
    message the faces translate for it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value).replace("_", " ")


SHOWN_LABELS = ("modifier label", "fact label", "trace label")
"""The labels a procedure's answer carries (``modifiers[].label``, ``facts``, ``trace[].label``):
English in the JSON, translated where a face shows them; the web's scripts get them too."""


def _probe_values(info: object) -> list[object]:
    """The values of a field that the label probe tries: every choice, both flags, and an
    integer field's lowest value (a label that counts, ``observer at 3 hexes``, is left out)."""
    annotation, _optional = _non_none(getattr(info, "annotation", None))
    found = choices(annotation)
    if found is not None:
        return list(found)
    if annotation is bool:
        return [False, True]
    if annotation is int:
        metadata = getattr(info, "metadata", ())
        low = next((m.ge for m in metadata if isinstance(m, annotated_types.Ge)), 1)
        return [max(low, 1) if isinstance(low, int) else 1]
    return []


def shown_labels(procedure: Procedure[Any]) -> Iterator[tuple[str, str]]:
    """``(label, what)`` for the modifier, fact and trace labels a procedure shows, found by
    asking it for its modifiers, facts and a seeded resolution with each choice and flag of its
    fields in turn (the labels
    are built by the rules from the inputs, so they are found the way a player meets them)."""
    fields = procedure.input_model.model_fields
    base = {
        name: values[0]
        for name, info in fields.items()
        if info.is_required() and (values := _probe_values(info))
    }
    trials = [base] + [
        {**base, name: value} for name, info in fields.items() for value in _probe_values(info)
    ]
    for data in trials:
        try:
            inp = procedure.parse(data)
            modifiers = procedure.modifiers(inp)
            facts = procedure.facts(inp)
            trace = procedure.resolve(inp, 1).trace
        except (FirefightError, ValueError):
            continue  # a combination the rules refuse: its labels come with another
        for modifier in modifiers:
            if not _COUNTED.search(modifier.label):
                yield modifier.label, SHOWN_LABELS[0]
        for label, _value in facts:
            if not _COUNTED.search(label):
                yield label, SHOWN_LABELS[1]
        for event in trace:
            if not _COUNTED_DICE.search(event.label):
                yield event.label, SHOWN_LABELS[2]


_COUNTED_DICE = re.compile(r"\d+ D10|<=")
"""A trace label that counts dice or carries a threshold (Les tirs' ``precision test (2 D10,
hit on die +1 <= 4)``); a roll's dice (``combat roll (2d6)``) do not count."""
_COUNTED = re.compile(r"\d")
"""A label with a number in it counts something (``observer at 1 hexes``): one message per
count is not worth a translation each; such labels are shown as the rules build them."""


def metadata() -> Iterator[tuple[str, str, str]]:
    """``(message, where, what)`` for every text of the rule sets' metadata that a face
    shows translated."""
    yield from _help_texts()
    yield from _engagement_titles()
    yield from derived_words()
    # a game written as one TOML file gives its own words, in its file: no catalogue's
    for found in _catalogued():
        yield found.title, found.id, "rule set title"
        for chart in found.charts():
            for _code, meaning in chart.legend:
                yield meaning, f"{found.id}/tables/{chart.id}", "chart legend"
        for procedure in found.procedures:
            where = f"{found.id}/{procedure.name}"
            yield procedure.title, where, "procedure title"
            for name, info in procedure.input_model.model_fields.items():
                yield readable(name), where, "field label"
                if found.rulebook_language != ENGLISH and info.description:
                    yield info.description, where, "field description"
                annotation, _optional = _non_none(info.annotation)
                for value in choices(annotation) or ():
                    if not isinstance(value, int) or isinstance(value, bool):
                        yield readable(value), where, "choice label"
            if found.rulebook_language != ENGLISH:
                yield from ((label, where, what) for label, what in shown_labels(procedure))
            explained = meanings(found, procedure)
            for meaning in explained.values():
                yield meaning, where, "outcome meaning"
            for outcome in procedure.outcome_order:
                if outcome not in explained and _WORDS.fullmatch(outcome):
                    yield readable(outcome), where, "outcome"


IDENTIFIER = re.compile(r"\b[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+\b")
"""An identifier in an outcome's code (``immobilized_abandoned``, ``assaulters_cp=3``): the
faces word each one (:func:`firefight.web.wording.outcome_label`)."""


def _catalogued() -> list[RuleSet]:
    """The rule sets whose words the catalogue holds: all but a game written as one TOML file,
    which gives its own words in its file."""
    return [r for r in rulesets() if not getattr(r, "own_words", False)]


def derived_words() -> Iterator[tuple[str, str, str]]:
    """The words the faces build at run time from the rule sets' identifiers (``force_march``
    -> ``force march``, :func:`readable`): each procedure's name (the engagement page's steps),
    the words of every outcome's code (a code the rules explain still shows its words), the
    fields and choices of the actions (the board page's controls), the choices of the data
    file editors, and the modifiers' kinds."""
    for kind in ModifierKind:
        yield readable(kind.value), "modifiers", "modifier kind"
    for found in _catalogued():
        for procedure in found.procedures:
            yield from _procedure_words(found, procedure)
        for action in found.actions:
            yield from _action_words(f"{found.id}/{action.name}", action)
        for file in found.files:
            for field in file.editor.fields if file.editor else ():
                for value in field.choices:
                    yield readable(value), f"{found.id}/files/{file.field}", "choice label"


def _procedure_words(found: RuleSet, procedure: Procedure[Any]) -> Iterator[tuple[str, str, str]]:
    """A procedure's name, its outcomes' words and the fact labels its page opens with."""
    where = f"{found.id}/{procedure.name}"
    yield readable(procedure.name), where, "procedure name"
    for outcome in procedure.outcome_order:
        if _WORDS.fullmatch(outcome):
            yield readable(outcome), where, OUTCOME_WORDS
    for code in (*procedure.outcome_order, *meanings(found, procedure)):
        for part in IDENTIFIER.findall(code):
            yield readable(part), where, OUTCOME_WORDS
    yield from ((label, where, "fact label") for label in _first_facts(procedure))


def _action_words(where: str, action: Action[Any, Any]) -> Iterator[tuple[str, str, str]]:
    """An action's field labels, their choices (its subject's, else the field's type's) and
    the defaults that are words."""
    offered = action.subject.choices() if action.subject else {}
    for name, info in action.input_model.model_fields.items():
        yield readable(name), where, "field label"
        values = offered.get(name) or choices(_non_none(info.annotation)[0]) or ()
        for value in (*values, *_default_words(info)):
            if not isinstance(value, int) or isinstance(value, bool):
                yield readable(value), where, "choice label"


def _default_words(info: object) -> tuple[str, ...]:
    """A text field's default where it is a word (``path_end``), which its control shows."""
    default = getattr(info, "default", None)
    return (default,) if isinstance(default, str) and _WORDS.fullmatch(default) else ()


def _first_facts(procedure: Procedure[Any]) -> list[str]:
    """The fact labels a procedure's page opens with (its required fields at their first
    values, as :func:`shown_labels` starts): the page hands them to its script in words."""
    fields = procedure.input_model.model_fields
    base = {
        name: values[0]
        for name, info in fields.items()
        if info.is_required() and (values := _probe_values(info))
    }
    try:
        facts = procedure.facts(procedure.parse(base))
    except (FirefightError, ValueError):
        return []
    return [label for label, _value in facts if not _COUNTED.search(label)]


def _engagement_titles() -> Iterator[tuple[str, str, str]]:
    """The sample engagements' titles (the engagement page's picker shows them)."""
    for name, path in sample_scenarios().items():
        title = parse_scenario(path.read_text(encoding="utf-8"), path.name).title
        if title:
            yield title, f"engage/{name}", "engagement title"


def _help_texts() -> Iterator[tuple[str, str, str]]:
    """The CLI's ``--help`` texts (commands, arguments, options; Typer's words around them),
    which :func:`firefight.cli.main` translates before Typer renders them."""
    for text in HELP_CHROME:
        yield text, "cli", "CLI help"
    for _owner, _attribute, text in help_texts(typer.main.get_command(app)):
        yield text, "cli", "CLI help"


SKIPPED_FSTRING = "warning: Skipping f-string with substitutions"
"""Babel's line for an f-string among a keyword call's arguments. The refusals' keywords
(``InputError`` and the like) take their message from one argument and the value given (often
an f-string: ``f"--{name}"``) from another, which Babel reads too and warns about; that a
message is never an f-string is ``tests/i18n/test_refusal_words.py``'s check, so these lines
are left out of what the command prints."""


def _code_messages() -> list[tuple[str, int, str | tuple[str, ...], list[str]]]:
    """The messages Babel extracts from the code, the templates and the scripts (its warnings
    printed, but for :data:`SKIPPED_FSTRING`)."""
    said = io.StringIO()
    with redirect_stderr(said):
        found = [
            (path, line, message, list(comments))
            for path, line, message, comments, _context in extract_from_dir(
                SOURCES, METHODS, OPTIONS, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)
            )
        ]
    for warning in said.getvalue().splitlines(keepends=True):
        if SKIPPED_FSTRING not in warning:
            sys.stderr.write(warning)
    return found


def extracted() -> Catalog:
    """Every message of the code, the templates, the scripts and the metadata."""
    catalogue = Catalog(domain=DOMAIN, project="firefight", charset="utf-8")
    for path, line, message, comments in _code_messages():
        if not message or (isinstance(message, tuple) and not message[0]):
            continue
        catalogue.add(message, None, [(f"firefight/{path}", line)], auto_comments=comments)
    for message, where, what in metadata():
        if message:
            catalogue.add(message, None, [(f"metadata:{where}", 0)], auto_comments=[what])
    return catalogue


HEADER = "# Messages of firefight (docs/languages.md), kept up to date by `make catalogue`."


def _render(catalogue: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalogue, width=100, include_lineno=False, sort_output=True)
    return out.getvalue()


def _body(rendered: bytes) -> bytes:
    """A catalogue without its dates: what changes when a message or the header changes."""
    return re.sub(rb'"(?:POT-Creation|PO-Revision)-Date: [^"]*"\n', b"", rendered)


def _write(catalogue: Catalog, path: Path) -> None:
    """Write ``catalogue`` unless only its dates would change (no churn, no merge conflicts)."""
    catalogue.header_comment = HEADER
    catalogue.version = "0.1.0"
    catalogue.copyright_holder = "the firefight authors"
    catalogue.msgid_bugs_address = ""
    catalogue.last_translator = "firefight"
    catalogue.language_team = "firefight"
    catalogue.revision_date = datetime.now(UTC)
    rendered = _render(catalogue)
    if path.exists() and _body(path.read_bytes()) == _body(rendered):
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(rendered)


def _translated(text: object) -> bool:
    """A translation is there: every form of a plural, or the one string."""
    return all(text) if isinstance(text, (tuple, list)) else bool(text)


def update() -> dict[str, int]:
    """Write the template and update every language's catalogue from it; returns how many
    messages of each language have no translation yet."""
    template = extracted()
    _write(template, TEMPLATE)
    untranslated: dict[str, int] = {}
    for lang in LANGUAGES:
        if lang == SOURCE:
            continue
        path = catalogue_path(lang)
        if path.exists():
            with path.open("rb") as source:
                catalogue = read_po(source, locale=lang, domain=DOMAIN)
        else:
            catalogue = Catalog(locale=lang, domain=DOMAIN, project="firefight")
        catalogue.fuzzy = False  # the header: its translator is this project
        catalogue.update(template, no_fuzzy_matching=True)
        catalogue.obsolete.clear()
        _write(catalogue, path)
        untranslated[lang] = sum(1 for m in catalogue if m.id and not _translated(m.string))
    return untranslated


if __name__ == "__main__":
    for lang, count in update().items():
        print(f"{lang}: {count} messages to translate in {catalogue_path(lang)}")
