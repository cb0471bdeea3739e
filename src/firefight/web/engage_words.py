"""The words the engagement page shows for an answer of the engagement API: each unit's state,
each note of a turn's trace, each result and fire policy, worded as ``firefight engage`` words
them (:mod:`firefight.sim.engagement_words`), in the request's language.

The API's JSON keeps its identifiers and English descriptions (docs/engagements.md); the page
asks its own route for the answer and these words beside it, by the English text it shows
(``MG 42 team: 2 steps, neutralized`` -> ``MG 42 team: 2 pas, neutralisé``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from firefight.i18n import gettext as _
from firefight.sim.engagement_words import (
    note_words,
    order_words,
    policy_words,
    result_words,
    unit_words,
)
from firefight.sim.scenario import Scenario


def answer_words(found: Mapping[str, Any], scenario: Scenario) -> dict[str, str]:
    """The words of ``found`` (the odds, one engagement turn by turn, or the best fire plan,
    the API's shapes for ``scenario``) by the English text the page would show."""
    a, b = (side.name for side in scenario.sides)
    words: dict[str, str] = {
        scenario.policy: policy_words(scenario.policy),
        scenario.order: order_words(scenario.order),
    }
    if "plan" in found:  # the best fire plan (docs/advisor-engagements.md)
        policies = [found["opponent"], *(h["policy"] for h in found["heuristics"])]
        words |= {p: _("optimal") if p == "optimal" else policy_words(p) for p in policies}
        words |= _states(step["state"] for step in found["plan"])
        return words
    if "replay" in found:  # one engagement turn by turn
        words[found["result"]] = result_words(found["result"], a, b)
        turns = found["turns"]
        words |= _states([found["start"], found["final"], *(turn["after"] for turn in turns)])
        sides = [(side.name, [unit.name for unit in side.units]) for side in scenario.sides]  # type: ignore[attr-defined]
        for event in (event for turn in turns for event in turn["trace"]):
            label, value = note_words(sides, event["label"], str(event["value"]))
            words[event["label"]] = label
            if "dice" not in event:  # a roll's value is its dice's sum
                words[str(event["value"])] = value
        return words
    for state in found["end_states"]:  # the odds
        words[state["result"]] = result_words(state["result"], a, b)
    words |= _states(found["end_states"])
    return words


def _states(states: Iterable[Mapping[str, list[str]]]) -> dict[str, str]:
    """Each unit's line (``MG 42 team: 2 steps``) of both sides' units in ``states``, in words."""
    return {line: unit_words(line) for state in states for side in "ab" for line in state[side]}
