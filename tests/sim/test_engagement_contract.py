"""A rule set takes part in engagements through its contract alone: a throwaway RuleSet
declaring engagement rules and a folder of sample scenarios is read, listed and answered by
the shared layers with no other line written for it."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from fastapi.testclient import TestClient

from firefight.rulesets import register, registry, ruleset
from firefight.rulesets.percentile.engagement import PercentileEngagement
from firefight.sim.engagement import Engagement
from firefight.sim.scenario import (
    ScenarioError,
    engagement_rules,
    load_scenario,
    parse_scenario,
    sample_scenarios,
)
from firefight.web.app import create_app
from tests.helpers import run_cli

SKIRMISH = """
ruleset = "skirmish"
title = "Skirmish: the ford (1 against 1)"
turns = 2

[a]
name = "Reds"
[[a.units]]
name = "red squad"
firepower = 3

[b]
name = "Blues"
[[b.units]]
name = "blue squad"
firepower = 2
"""


class SkirmishEngagement(PercentileEngagement):
    """Another game's engagement rules: the percentile units under a new rule set's id."""

    ruleset = "skirmish"


@pytest.fixture
def skirmish(tmp_path):
    folder = tmp_path / "engagements"
    folder.mkdir()
    (folder / "skirmish_ford.toml").write_text(SKIRMISH, encoding="utf-8")
    base = ruleset("percentile")
    register(
        replace(
            base,
            id="skirmish",
            title="Skirmish",
            aliases=(),
            engagement=SkirmishEngagement,
            scenarios=folder,
        )
    )
    yield folder
    registry._registered.pop("skirmish", None)


def test_a_registered_rule_sets_engagement_rules_and_samples_are_found(skirmish):
    assert engagement_rules()["skirmish"] is SkirmishEngagement
    assert sample_scenarios()["skirmish_ford"] == skirmish / "skirmish_ford.toml"
    scenario = load_scenario("skirmish_ford")
    assert scenario.ruleset == "skirmish"
    assert scenario.source == "skirmish_ford.toml"  # a sample is named by its file's name
    odds = Engagement(scenario).odds_over_turns()
    assert sum(e.value for e in odds.outcome.values()) == 1


def test_firefight_engage_answers_a_registered_rule_sets_sample(skirmish, capsys):
    code, out, _ = run_cli(capsys, "engage", "skirmish_ford", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["ruleset"] == "skirmish"
    assert data["scenario"] == "skirmish_ford.toml"
    assert data["exact"] is True


def test_the_engage_page_lists_a_registered_rule_sets_sample(skirmish):
    listed = TestClient(create_app()).get("/api/engagements").json()
    assert {"name": "skirmish_ford", "title": "Skirmish: the ford (1 against 1)"}.items() <= (
        next(s for s in listed if s["name"] == "skirmish_ford").items()
    )


def test_a_rule_set_without_engagement_rules_is_refused_naming_those_with_them(skirmish):
    with pytest.raises(ScenarioError) as raised:
        parse_scenario(SKIRMISH.replace('"skirmish"', '"upfront"', 1), "bad.toml")
    text = str(raised.value)
    assert text.startswith("bad.toml: ruleset: must be one of ")
    assert "skirmish" in text
    assert "upfront" not in text.split("(got", maxsplit=1)[0]


def test_without_its_registration_the_rule_set_and_its_samples_are_gone():
    assert "skirmish" not in engagement_rules()
    assert "skirmish_ford" not in sample_scenarios()
