"""What a player reads in place of an identifier: a choice's value, a field's name or an
outcome's code written in words, in the active language.

An identifier's words are its catalogue message (``force_march`` -> ``force march``, in French
``marche forcée``); where the catalogue has no French for it, the English words show, never
the identifier. A text that names identifiers (a field's help, a rule's trace) has each one
so replaced; an outcome's code that joins parts (``eliminated;valorous``,
``assaulters_cp=3``) is written part by part.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from markupsafe import Markup, escape

from firefight.i18n import N_
from firefight.i18n import gettext as _

BUILT_WORDS = (
    # an engagement's result (firefight.sim.engagement_odds.RESULTS) and its trace
    N_("a wins"),
    N_("b wins"),
    N_("effect"),
    # a chart's identifier in a trace's value (V&V's ``ap_combat``), a track's in its label
    N_("ap combat"),
    N_("group hits"),
    # EPT's tests, named in an engagement's trace
    N_("neutralization test"),
    N_("stoppage test"),
    # the terrains and hexside features of the sample boards, in their legends
    N_("haystack"),
    N_("hedgerow"),
    # a data file field's value: the file the rule set ships
    N_("illustrative"),
    # a reading of Les tirs' opportunity fire: how a group in mixed states fires
    N_("mixed group fire"),
    N_("by element"),
    N_("whole group"),
    # an engagement's fire policies (firefight.sim.scenario.POLICIES), the best fire plan's
    # opponents
    N_("best expected effect"),
    N_("focus"),
    N_("spread"),
)
"""Words the faces build from identifiers that no rule set's metadata lists (the catalogue
takes the rest from the rule sets: :func:`firefight.cli.catalogue.derived_words`); the pages
hand them to their scripts by identifier (:func:`script_words`)."""


def script_words() -> dict[str, str]:
    """:data:`BUILT_WORDS` in the active language, by their identifier and by their English
    (``ap_combat`` and ``ap combat``): the labels a script words a trace or a code with."""
    words: dict[str, str] = {}
    for english in BUILT_WORDS:
        words[english] = words[english.replace(" ", "_")] = _(english)
    return words


IDENTIFIER = re.compile(r"\b[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+\b")
"""A word of letters and digits joined by underscores (``force_march``, ``mortar_60``)."""


def readable(value: object) -> str:
    """A choice as a player reads it, in the active language: ``force_march`` -> ``force
    march`` (``marche forcée``), ``above_3`` -> ``above 3``, ``True`` -> ``yes``; the value
    sent stays the field's own. The English text is the catalogue's message
    (:func:`firefight.cli.catalogue.readable`)."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, int):
        return str(value)
    return _(str(value).replace("_", " "))


def worded(text: str) -> str:
    """``text`` with every identifier in it written in words (:func:`readable`)."""
    return IDENTIFIER.sub(lambda found: readable(found.group(0)), text)


def outcome_label(code: str) -> str:
    """An outcome's code as a player reads it: each ``;``-joined part in words, a part
    ``name=value`` as the name's words and the value (``assault failed, assaulters CP 0``)."""
    parts = [part.strip() for part in code.split(";")]
    return ", ".join(_part(part) for part in parts if part) or code


def _part(part: str) -> str:
    name, equals, value = part.partition("=")
    if equals:
        return f"{readable(name)} {value}"
    return readable(part)


def outcome_labels(codes: Iterable[str]) -> dict[str, str]:
    """Each outcome's label (:func:`outcome_label`) but a compound one's, and the words of
    every identifier in them, so that the page's script words a code it was not given (a
    compound outcome) from its parts in the page's language."""
    labels: dict[str, str] = {}
    for code in codes:
        if ";" not in code and "=" not in code:  # a compound's words come from its parts
            labels[code] = outcome_label(code)
        for found in IDENTIFIER.finditer(code):
            labels.setdefault(found.group(0), readable(found.group(0)))
    return labels


FILE_NAME = re.compile(r"\b[\w.-]+\.(?:txt|png|jpe?g|pdf|md|toml|tmx|tsx|json)\b")
"""A file's name in a citation (``14_anti-personnel_combat.txt``)."""


def cited(text: str) -> Markup:
    """A source's citation as HTML: the file names in it marked as code (what a player would
    look for on disk, not words to read), the rest escaped."""
    parts: list[str] = []
    last = 0
    for found in FILE_NAME.finditer(text):
        parts += [escape(text[last : found.start()]), f"<code>{escape(found.group(0))}</code>"]
        last = found.end()
    parts.append(escape(text[last:]))
    return Markup("".join(parts))
