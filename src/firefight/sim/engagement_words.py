"""An engagement's identifiers and notes in words, in the active language, as both faces show
them: ``firefight engage`` on the terminal and the web's engagement page, whose route hands its
script these words beside the API's answer.

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


_DICE = re.compile(r"(.+) (\([^()]*\))")
"""A dice event's label with its dice after it (``neutralization test (2d6)``)."""


def label_words(label: str) -> str:
    """A trace event's label in words: the catalogue's message for it, else for the label
    without the dice in brackets after it (``test de neutralisation (2d6)``)."""
    shown = _(label)
    dice = _DICE.fullmatch(label)
    if shown == label and dice:
        return f"{_(dice.group(1))} {dice.group(2)}"
    return worded(shown)


def outcome_words(outcome: str) -> str:
    """A procedure's outcome in an engagement's trace: its catalogue message, else each of its
    words in words, an identifier as :func:`readable` (``no_effect`` -> ``sans effet``,
    ``unit1 reduced_pinned`` -> ``unité 1 réduit et cloué``)."""
    shown = _(outcome)
    if shown != outcome:
        return shown
    return " ".join(
        readable(word) if IDENTIFIER.fullmatch(word) else _(word) for word in outcome.split(" ")
    )


def note_words(sides: list[tuple[str, list[str]]], label: str, value: str) -> tuple[str, str]:
    """An engagement's own note (:meth:`Engagement.step`'s ``fire``, ``effect`` and ``start of
    fire``) in words: ``sides`` are each side's name and units' names, to read the note by.
    Any other event's label and value have their identifiers in words."""
    names = sorted((unit for _side, units in sides for unit in units), key=len, reverse=True)
    if label == "fire":
        for s, (side, units) in enumerate(sides):
            for unit in units:
                for target in sides[1 - s][1]:
                    if value == f"{side} {unit} fires at {target}":
                        fires = _("{side} {unit} fires at {target}")
                        return _("fire"), fires.format(side=side, unit=unit, target=target)
    if label == "effect":
        for name in names:
            if value.startswith(f"{name}: ") and " -> " in value:
                outcome, _colon, change = value[len(name) + 2 :].rpartition(": ")
                before, _arrow, after = change.partition(" -> ")
                shown = f"{outcome_words(outcome)}: {state_words(before)} -> {state_words(after)}"
                return _("effect"), f"{name}: {shown}"
    for side, _units in sides:
        if label == f"{side}: start of fire":
            changes = (change.partition(" -> ") for change in value.split("; "))
            value = "; ".join(f"{unit_words(b)} -> {state_words(a)}" for b, _to, a in changes)
            return _("{side}: start of fire").format(side=side), value
    return label_words(label), worded(value)
