"""Distribution, Modifier and input validation."""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

import pytest
from pydantic import Field

from firefight.chance.distribution import Distribution
from firefight.core.inputs import RuleInput, allowed_text, validate
from firefight.core.modifier import Modifier, ModifierKind
from firefight.errors import InputError


def test_distribution_merges_drops_zero_and_keeps_order():
    d = Distribution(
        iter(
            [
                ("b", Fraction(1, 2)),
                ("a", Fraction(1, 4)),
                ("b", Fraction(1, 4)),
                ("z", Fraction(0)),
            ]
        )
    )
    assert list(d) == ["b", "a"]
    assert d["b"] == Fraction(3, 4)
    assert d["missing"] == 0
    assert "z" not in d
    assert d.to_json() == {"b": "3/4", "a": "1/4"}
    assert list(d.ordered(lambda k: k)) == ["a", "b"]
    assert d.probability(lambda k: k == "a") == Fraction(1, 4)
    assert dict(d.map(lambda k: "x")) == {"x": Fraction(1)}
    assert d == Distribution({"a": Fraction(1, 4), "b": Fraction(3, 4)})
    assert "Fraction(3, 4)" in repr(d)


def test_distribution_must_sum_to_one():
    with pytest.raises(ValueError, match="sum to 1/2"):
        Distribution({"a": Fraction(1, 2)})
    with pytest.raises(ValueError, match="sum to 0, not 1"):
        Distribution({})
    with pytest.raises(ValueError, match="sum to 8/15"):
        Distribution({"a": Fraction(1, 3), "b": Fraction(1, 5)})
    with pytest.raises(ValueError, match="sum to 1001/1000"):
        Distribution({"a": Fraction(1, 8), "b": Fraction(7, 8), "c": Fraction(1, 1000)})
    ints = Distribution({"a": 1, "b": 0})  # plain numbers are taken as fractions
    assert dict(ints.items()) == {"a": Fraction(1)}
    assert type(ints["a"]) is Fraction
    with pytest.raises(ValueError, match="negative"):
        Distribution({"a": Fraction(3, 2), "b": Fraction(-1, 2)})


def test_modifier_display_and_json():
    half = Modifier("firer stopped", Fraction(1, 2), ModifierKind.FACTOR, "MODIFICATEURS DE TIR")
    minus = Modifier(
        "target in force march", Fraction(-3), ModifierKind.DICE, "MODIFICATEURS DE TIR"
    )
    assert half.display() == "x1/2"
    assert minus.display() == "-3"
    assert half.to_json() == {
        "label": "firer stopped",
        "value": "1/2",
        "kind": "factor",
        "rule": "MODIFICATEURS DE TIR",
    }


class Sample(RuleInput):
    movement: Literal["none", "fast"] = "none"
    strength: int = Field(ge=1)
    morale: int | None = Field(None, ge=2, le=12)
    flag: bool = False


def test_allowed_text_in_words():
    fields = Sample.model_fields
    assert allowed_text(fields["movement"]) == "one of none, fast"
    assert allowed_text(fields["strength"]) == "an integer of at least 1"
    assert allowed_text(fields["morale"]) == "an integer from 2 to 12, or omitted"
    assert allowed_text(fields["flag"]) == "true or false"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"strength": 1, "movement": "slow"}, "'movement' must be one of none, fast (got 'slow')"),
        ({"strength": 0}, "'strength' must be an integer of at least 1 (got 0)"),
        ({}, "'strength' must be given: an integer of at least 1 (got None)"),
        (
            {"strength": 1, "speed": 3},
            "'input' must be one of movement, strength, morale, flag (got 'speed')",
        ),
        (
            {"strength": 1, "morale": 13},
            "'morale' must be an integer from 2 to 12, or omitted (got 13)",
        ),
    ],
)
def test_validation_errors_are_one_line(data, message):
    with pytest.raises(InputError) as error:
        validate(Sample, data)
    assert str(error.value) == message
    assert "\n" not in str(error.value)


def test_inputs_are_frozen():
    sample = validate(Sample, {"strength": 3})
    assert sample.strength == 3
    with pytest.raises(Exception, match="frozen"):
        sample.strength = 4  # type: ignore[misc]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"strength": True}, "'strength' must be an integer of at least 1 (got True)"),
        ({"strength": "6"}, "'strength' must be an integer of at least 1 (got '6')"),
        ({"strength": "6.0"}, "'strength' must be an integer of at least 1 (got '6.0')"),
        ({"strength": 6.0}, "'strength' must be an integer of at least 1 (got 6.0)"),
        ({"strength": "1_000"}, "'strength' must be an integer of at least 1 (got '1_000')"),
        ({"strength": "\u0663"}, "'strength' must be an integer of at least 1 (got '\u0663')"),
        ({"strength": 1, "flag": 1}, "'flag' must be true or false (got 1)"),
        ({"strength": 1, "flag": "true"}, "'flag' must be true or false (got 'true')"),
        (
            {"strength": 1, "morale": False},
            "'morale' must be an integer from 2 to 12, or omitted (got False)",
        ),
    ],
)
def test_inputs_take_strict_types_not_coerced_ones(data, message):
    """A flag is a boolean and an integer an integer (``true`` is not 1, ``"6.0"``
    and ``"1_000"`` are not integers); only the CLI reads text, before validation."""
    with pytest.raises(InputError) as error:
        validate(Sample, data)
    assert str(error.value) == message


def test_an_error_quotes_at_most_80_characters_of_the_value_given():
    """The value is cut with an ellipsis, a string still quoted; a short one whole."""
    long = str(InputError("movement", "one of none, fast", "x" * 10_000))
    assert long == "'movement' must be one of none, fast (got '" + "x" * 77 + "…')"
    escaped = str(InputError("movement", "one of none, fast", "\x00" * 100))
    assert len(escaped.split("(got ", 1)[1]) <= 81
    assert escaped.endswith("…')")
    listed = str(InputError("body", "a JSON object", list(range(1000))))
    assert len(listed.split("(got ", 1)[1]) == 81
    assert str(InputError("movement", "one of none, fast", "slow")).endswith("(got 'slow')")
