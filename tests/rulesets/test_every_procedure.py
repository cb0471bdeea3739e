"""Properties every procedure of every rule set must have, with inputs drawn from its model.

The strategies are built from the input model itself (choices, flags, bounded integers), so a
new procedure is covered the day it is registered: its odds sum to exactly 1, a seeded
resolution is replayed exactly by its own dice, and every resolved outcome has a probability.
"""

from __future__ import annotations

import types
from fractions import Fraction
from typing import Literal, Union, get_args, get_origin

import annotated_types
import pytest
from hypothesis import HealthCheck, assume, find, given, settings
from hypothesis import strategies as st
from pydantic.fields import FieldInfo

import firefight
from firefight.errors import FirefightError

PROCEDURES = [(r, p) for r in firefight.list_rulesets() for p in r.procedures]


def field_strategy(info: FieldInfo) -> st.SearchStrategy[object]:
    annotation = info.annotation
    optional = False
    if get_origin(annotation) in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        annotation, optional = args[0], True
    if get_origin(annotation) is Literal:
        base: st.SearchStrategy[object] = st.sampled_from(get_args(annotation))
    elif annotation is bool:
        base = st.booleans()
    elif annotation is str:  # free text (a player's allocation): its default, or anything
        default = info.default if isinstance(info.default, str) else ""
        base = st.one_of(st.just(default), st.text(max_size=40))
    elif get_origin(annotation) is tuple:  # a typed list (men, cards): as its default, or text
        base = st.one_of(st.just(info.default), st.text(max_size=40))
    elif annotation is int:
        low = next((m.ge for m in info.metadata if isinstance(m, annotated_types.Ge)), 0)
        high = next((m.le for m in info.metadata if isinstance(m, annotated_types.Le)), low + 15)
        base = st.integers(int(low), int(min(high, low + 30)))
    else:
        pytest.fail(f"no strategy for {info.annotation!r}")
    return st.one_of(st.none(), base) if optional else base


def inputs(procedure) -> st.SearchStrategy[dict[str, object]]:
    fields = procedure.input_model.model_fields
    return st.fixed_dictionaries(
        {name: field_strategy(info) for name, info in fields.items() if info.is_required()},
        optional={
            name: field_strategy(info) for name, info in fields.items() if not info.is_required()
        },
    )


def valid(procedure, data):
    try:
        inp = procedure.parse({k: v for k, v in data.items() if v is not None})
        return inp, procedure.odds(inp)
    except FirefightError:
        return None


@pytest.mark.parametrize(
    ("ruleset", "procedure"), PROCEDURES, ids=[f"{r.id}.{p.name}" for r, p in PROCEDURES]
)
@settings(
    max_examples=25,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
    deadline=None,
    # the same draws every run: a game whose drawn inputs are valid about once in a hundred
    # (Up Front's fire) may otherwise meet none in the tries hypothesis allows (Unsatisfiable);
    # the inputs it reaches are checked apart (test_generated_inputs_reach_valid_attacks)
    derandomize=True,
)
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_odds_sum_to_1_and_resolutions_replay(ruleset, procedure, data, seed):
    drawn = data.draw(inputs(procedure))
    found = valid(procedure, drawn)
    assume(found is not None)
    inp, odds = found
    assert sum(odds.values()) == 1
    assert all(isinstance(p, Fraction) and p > 0 for p in odds.values())
    sampled = procedure.resolve(inp, seed)
    assert sampled.outcome in odds
    replayed = procedure.replay(inp, sampled.replay_values())
    assert replayed.outcome == sampled.outcome
    assert replayed.trace == sampled.trace
    assert [m.rule for m in procedure.modifiers(inp)] == [m.rule for m in procedure.modifiers(inp)]


@pytest.mark.parametrize(
    ("ruleset", "procedure"), PROCEDURES, ids=[f"{r.id}.{p.name}" for r, p in PROCEDURES]
)
def test_generated_inputs_reach_valid_attacks(ruleset, procedure):
    """The property test above must not pass by rejecting every input."""
    example = find(
        inputs(procedure),
        lambda d: valid(procedure, d) is not None,
        # a game of many list fields (Up Front's fire: a hand, the pool's piles, the cards
        # played) meets a valid draw about once in a hundred: room enough to find one always
        settings=settings(max_examples=5000, database=None),
    )
    assert valid(procedure, example) is not None


def upper_bound(info: FieldInfo) -> object:
    """The field's maximum (``le`` or ``lt``), or ``None``."""
    for meta in info.metadata:
        if isinstance(meta, annotated_types.Le):
            return meta.le
        if isinstance(meta, annotated_types.Lt):
            return meta.lt
    return None


def integer_fields():
    for ruleset, procedure in PROCEDURES:
        for name, info in procedure.input_model.model_fields.items():
            annotation = info.annotation
            if get_origin(annotation) in (Union, types.UnionType):
                annotation = next(a for a in get_args(annotation) if a is not type(None))
            if annotation is int:
                yield f"{ruleset.id}.{procedure.name}.{name}", info


def test_every_integer_input_has_an_upper_bound():
    """A number has the bound its rule gives (a range beyond the chart or the weapon)
    or an explicit maximum, never none (``--distance 1000000000`` was read as 21+ hexes)."""
    fields = dict(integer_fields())
    assert len(fields) > 100
    unbounded = [name for name, info in fields.items() if upper_bound(info) is None]
    assert unbounded == []
