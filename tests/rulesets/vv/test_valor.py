"""V&V 16.2 valor check."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

import firefight
from firefight.cli import main
from firefight.errors import InputError
from firefight.rulesets.vv.valor import triggers_valor, valor_number

VALOR = firefight.ruleset("vv").procedure("valor")


def twin(number: int) -> Fraction:
    """2d6 at most ``number``, counted over the 36 rolls."""
    return Fraction(sum(1 for a, b in product(range(1, 7), repeat=2) if a + b <= number), 36)


@given(st.integers(1, 12))
def test_a_squad_becomes_valorous_on_2d6_at_most_its_casualty_rating(rating):
    odds = VALOR.odds(VALOR.parse({"unit": "squad", "casualty_rating": rating}))
    assert odds["valorous"] == twin(rating)
    assert sum(odds.values()) == 1


def test_a_leader_becomes_valorous_on_6_or_less():
    odds = VALOR.odds(VALOR.parse({"unit": "leader"}))
    assert odds["valorous"] == Fraction(15, 36)
    assert valor_number("leader", 9) == 6


def test_a_squad_needs_its_casualty_rating():
    with pytest.raises(InputError, match="'casualty_rating' must be given for a half squad"):
        VALOR.odds(VALOR.parse({"unit": "half_squad"}))


def test_only_a_natural_two_triggers_valor():
    assert [n for n in range(2, 13) if triggers_valor(n)] == [2]


def test_scripted_check(capsys):
    args = ["resolve", "vv", "valor", "--unit", "squad", "--casualty-rating", "4", "--roll", "1,3"]
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["outcome"] == "valorous"
    counts = Counter(e["label"] for e in data["trace"])
    assert counts["valor check, squad (2d6)"] == 1
