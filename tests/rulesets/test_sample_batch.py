"""sample_batch: a rule set procedure's outcomes drawn in batches from its cached exact odds."""

from __future__ import annotations

import pytest

from firefight.errors import InputError
from firefight.rulesets import procedure as procedure_module
from firefight.rulesets.procedure import sample_batch
from firefight.rulesets.registry import ruleset
from tests.helpers import assert_counts_agree_with_odds

REFERENCE = {"strength": 6, "range": "adjacent", "protection": "medium"}


def test_sample_batch_of_ept_fire_agrees_with_the_exact_odds_chi_square():
    fire = ruleset("ept").procedure("fire")
    attack = fire.parse(REFERENCE)
    odds = fire.odds(attack)
    counts = sample_batch(fire, attack, 300_000, seed=2).counts()
    assert list(counts) == list(odds)  # the chart's order
    assert_counts_agree_with_odds(counts, odds, 300_000)


def test_sample_batch_is_reproducible_and_reuses_the_cached_odds():
    fire = ruleset("ept").procedure("fire")
    attack = fire.parse(REFERENCE)
    first = fire.sample_batch(attack, 1000, seed=8)
    assert fire.sampler(attack) is fire.sampler(fire.parse(REFERENCE))
    assert fire.sample_batch(attack, 1000, seed=8).values() == first.values()


def test_sample_batch_of_a_morale_follow_up_covers_its_outcomes():
    fire = ruleset("ept").procedure("fire")
    attack = fire.parse({**REFERENCE, "follow_up": "morale_test", "morale": 7})
    batch = fire.sample_batch(attack, 20_000, seed=1)
    odds = fire.odds(attack)
    for outcome, probability in odds.items():
        low, high = batch.interval(outcome, z=4.0)
        assert low <= probability <= high


def test_a_negative_number_of_draws_is_a_one_line_error():
    fire = ruleset("ept").procedure("fire")
    message = r"^'n' must be a number of draws of at least 0 \(got -1\)"
    with pytest.raises(InputError, match=message):
        sample_batch(fire, fire.parse(REFERENCE), -1, seed=0)


def test_the_sampler_cache_keeps_the_most_recent_inputs_only(monkeypatch):
    monkeypatch.setattr(procedure_module, "SAMPLER_CACHE", 2)
    fire = ruleset("ept").procedure("fire")
    fire._samplers.clear()
    attacks = [fire.parse({**REFERENCE, "strength": s}) for s in (3, 4, 5)]
    first = fire.sampler(attacks[0])
    fire.sampler(attacks[1])
    fire.sampler(attacks[0])  # used again: the most recent
    fire.sampler(attacks[2])  # evicts attacks[1]
    assert len(fire._samplers) == 2
    assert fire.sampler(attacks[0]) is first
