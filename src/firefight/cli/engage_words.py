"""An engagement's identifiers as the CLI shows them: in words, in the active language, the
words of the web's engagement page (``static/engage.js``) where it has them.

The JSON keeps the identifiers (``a_wins``, ``best_expected_effect``, ``alternating``) and the
rule sets' English descriptions of a unit's state (``2 steps, stopped``); only the text a
player reads is worded here. Side and unit names come from the scenario file, as written."""

from __future__ import annotations

import re

from firefight.i18n import N_, ngettext
from firefight.i18n import gettext as _

ORDER_WORDS = {"alternating": N_("alternating fire"), "simultaneous": N_("simultaneous fire")}
"""A scenario's fire order (``firefight.sim.scenario``: ``order``) in words."""

_STEPS = re.compile(r"(\d+) steps?")
"""A unit's strength in steps, in a state's description (``2 steps``)."""

IDENTIFIER = re.compile(r"\b[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+\b")
"""A word of letters and digits joined by underscores (``ap_combat``, ``best_expected_effect``)."""


def readable(identifier: str) -> str:
    """An identifier in words, in the active language (``best_expected_effect`` ->
    ``best expected effect``, ``meilleur effet attendu``): the catalogue's message for it."""
    return _(identifier.replace("_", " "))


def worded(text: str) -> str:
    """``text`` with every identifier in it written in words (:func:`readable`)."""
    return IDENTIFIER.sub(lambda found: readable(found.group(0)), text)


def result_words(result: str, a: str, b: str) -> str:
    """An engagement's result (``a_wins``, ``draw``, ...) in the engagement page's words."""
    if result in {"a_wins", "b_wins"}:
        return _("{side} win").format(side=a if result == "a_wins" else b)
    if result == "draw":
        return _("both out at once")
    if result == "undecided":
        return _("still fighting after the last turn")
    return worded(result)


def order_words(order: str) -> str:
    """The scenario's fire order in words (``alternating fire``)."""
    return _(ORDER_WORDS[order]) if order in ORDER_WORDS else worded(order)


def policy_words(policy: str) -> str:
    """A fire policy's name in words (``best expected effect``, ``meilleur effet attendu``)."""
    return readable(policy)


def state_words(state: str) -> str:
    """A unit's state as the rule set describes it (``2 steps, stopped``), each part in the
    active language (``2 pas, stoppé``): a part is the catalogue's message (a rule set marks
    the words of its states that no procedure's metadata lists with ``N_``)."""
    parts = []
    for part in state.split(", "):
        steps = _STEPS.fullmatch(part)
        if steps:
            n = int(steps.group(1))
            parts.append(ngettext("{n} step", "{n} steps", n).format(n=n))
        else:
            parts.append(_(part) if part else part)
    return ", ".join(parts)


def unit_words(described: str) -> str:
    """A unit's line (``MG 42 team: 2 steps, stopped``, :meth:`Engagement.describe`): its name
    as the scenario writes it, its state in words."""
    name, colon, state = described.rpartition(": ")
    if not colon:
        return state_words(described)
    return f"{name}: {state_words(state)}"


def sides_words(described: dict[str, list[str]]) -> str:
    """Both sides' units (``a`` then ``b``), each unit's line in words."""
    return " | ".join("; ".join(unit_words(line) for line in described[s]) for s in ("a", "b"))
