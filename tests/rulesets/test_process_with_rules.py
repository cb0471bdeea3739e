"""A rule set's own procedure as a process step: its exact odds become the kernel, the same
procedure samples and replays the run (the way an engagement is built on the state engine)."""

from __future__ import annotations

from fractions import Fraction

from firefight.chance import Phases, Process
from firefight.rulesets.registry import ruleset

FIRE = ruleset("ept").procedure("fire")
ATTACK = FIRE.parse(
    {
        "strength": 6,
        "range": "adjacent",
        "protection": "medium",
        "follow_up": "morale_test",
        "morale": 7,
    }
)
LOSSES = {"step_lost_neutralized": 1, "eliminated": 99}


def under_fire(steps_left: int, chance) -> int:
    """One turn of EPT fire on a unit (test scaffolding: a step lost or the unit eliminated)."""
    outcome = FIRE.rule(ATTACK, chance)
    return max(steps_left - LOSSES.get(outcome, 0), 0)


def test_the_kernel_of_a_turn_is_the_procedures_own_exact_odds():
    process = Process(under_fire, lambda steps: steps == 0, "under fire")
    odds = FIRE.odds(ATTACK)
    expected = odds.map(lambda outcome: max(2 - LOSSES.get(outcome, 0), 0))
    assert dict(process.kernel(2)) == dict(expected)


def test_turns_until_a_two_step_unit_is_eliminated_are_exact():
    process = Process(under_fire, lambda steps: steps == 0, "under fire")
    odds = FIRE.odds(ATTACK)
    lose, kill = odds["step_lost_neutralized"], odds["eliminated"]
    answer = process.absorption(2)
    assert dict(answer.terminal) == {0: Fraction(1)}
    # E2 = 1 + (1 - lose - kill) E2 + lose E1, and E1 = 1 / (lose + kill)
    e1 = 1 / (lose + kill)
    assert answer.expected_steps == (1 + lose * e1) / (lose + kill)
    ended = process.ended_by(2, 3)
    assert ended[1] == kill


def test_two_firers_a_turn_as_phases_sample_and_replay_with_the_rules_trace():
    process = Process(Phases((under_fire, under_fire)), lambda steps: steps == 0, "two firers")
    run = process.sample(2, seed=5)
    labels = [event.label for event in run.steps[0].trace]
    assert labels.count("combat roll (2d6)") == 2
    assert process.replay(2, run.replay_values()).trace == run.trace
    single = Process(under_fire, lambda steps: steps == 0)
    assert process.after(2, 1) == single.after(2, 2)
