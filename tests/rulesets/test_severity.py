"""Every outcome of every procedure has a severity, from no effect to the worst, declared in
its rule set's contract (:attr:`RuleSet.severity`); the parts of a compound outcome rank it."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import firefight
from firefight import faces
from firefight.rulesets.severity import GRADES, NEUTRAL, ranked
from tests.rulesets.test_every_procedure import PROCEDURES, inputs, valid

IDS = [f"{r.id}.{p.name}" for r, p in PROCEDURES]


def test_every_procedure_declares_a_severity_and_none_names_an_unknown_procedure():
    for found in firefight.list_rulesets():
        names = set(found.procedure_names)
        assert set(found.severity) == names, found.id
        for name in names:
            severity = found.outcome_severity(name)
            assert severity is not None
            assert severity.neutral or len(severity.levels) >= 2, f"{found.id}.{name}"


@pytest.mark.parametrize(("ruleset", "procedure"), PROCEDURES, ids=IDS)
def test_every_listed_outcome_has_a_severity(ruleset, procedure):
    severity = ruleset.outcome_severity(procedure.name)
    listed = set(procedure.outcome_order) | set(faces.meanings(ruleset, procedure))
    missing = sorted(o for o in listed if not severity.declares(o))
    assert missing == []


@pytest.mark.parametrize(("ruleset", "procedure"), PROCEDURES, ids=IDS)
@settings(
    max_examples=15,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
    deadline=None,
)
@given(data=st.data())
def test_every_outcome_the_odds_give_has_a_severity(ruleset, procedure, data):
    found = valid(procedure, data.draw(inputs(procedure)))
    assume(found is not None)
    severity = ruleset.outcome_severity(procedure.name)
    missing = sorted(o for o in found[1] if not severity.declares(o))
    assert missing == []


def test_the_grades_run_from_no_effect_to_the_worst():
    severity = ranked("no_effect", ("pinned", "stopped"), "reduced", "eliminated")
    assert [severity.grade(o) for o in ("no_effect", "pinned", "reduced", "eliminated")] == [
        0,
        1,
        3,
        GRADES - 1,
    ]
    assert severity.grade("stopped") == severity.grade("pinned")


def test_a_compound_outcome_ranks_as_its_worst_part_or_its_first():
    severity = ranked("unhurt", "pinned", "eliminated")
    assert severity.rank("unit1 pinned, unit2 eliminated; no_check") == 2
    assert severity.rank("eliminated;valorous") == 2
    assert severity.rank("valorous") is None
    first = ranked("no effect", "KIA", first_part=True)
    assert first.rank("no effect; AFV KIA") == 0


def test_a_neutral_procedure_declares_every_outcome_and_grades_none():
    assert NEUTRAL.declares("+0.5")
    assert NEUTRAL.grade("+0.5") is None
