"""A choice, a rule set or a procedure may be typed by a unique beginning (``--range adj``), and
an unknown one is refused in one line that suggests the closest (``odds ept fyre``: did you mean
'fire'?)."""

from __future__ import annotations

import pytest

from firefight.errors import InputError, closest, prefixed
from firefight.rulesets import ruleset
from tests.cli.test_engage_cli import run

ATTACK = ("--strength", "6", "--protection", "medium")


def test_a_unique_beginning_names_the_choice(capsys):
    code, whole, _ = run(capsys, "odds", "ept", "fire", *ATTACK, "--range", "adjacent", "--json")
    assert code == 0
    assert run(capsys, "odds", "ept", "fire", *ATTACK, "--range", "adj", "--json")[1] == whole
    assert run(capsys, "odds", "ep", "fi", *ATTACK, "--range", "ADJ", "--json")[1] == whole


def test_an_unknown_procedure_suggests_the_closest(capsys):
    code, _, err = run(capsys, "odds", "ept", "fyre")
    assert code == 2
    assert err.strip().endswith("(got 'fyre'); did you mean 'fire'?")
    assert len(err.strip().splitlines()) == 1


def test_an_unknown_rule_set_and_choice_suggest_the_closest(capsys):
    code, _, err = run(capsys, "odds", "eptt", "fire")
    assert code == 2
    assert err.strip().endswith("(got 'eptt'); did you mean 'ept'?")
    code, _, err = run(capsys, "odds", "ept", "fire", *ATTACK, "--range", "adjasent")
    assert code == 2
    assert "'--range' must be one of adjacent, normal, long" in err
    assert err.strip().endswith("did you mean 'adjacent'?")


def test_a_beginning_of_several_is_refused_listing_them(capsys):
    code, _, err = run(capsys, "odds", "ept", "at")  # at_to_hit, at_fire, at_shot
    assert code == 2
    assert "'procedure' must be one of fire, at_to_hit" in err
    with pytest.raises(InputError):
        ruleset("ept").procedure("a")


def test_prefixed_and_closest():
    options = ["adjacent", "normal", "long"]
    assert prefixed("ADJ", options) == "adjacent"
    assert prefixed("", options) is None
    assert prefixed("x", options) is None
    assert prefixed("assault", ["assault", "assault_initiative"]) == "assault"
    assert prefixed("assault_", ["assault", "assault_initiative"]) == "assault_initiative"
    assert closest("lnog", options) == "long"
    assert closest("zzzz", options) is None
    assert closest(3, options) is None
