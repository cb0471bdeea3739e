"""Engagements: exact answers against independent computations, sampled against exact, the
fire policies and orders, and each rule set's effects (docs/engagements.md)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from scipy.stats import chisquare

from firefight.chance import Process, exact
from firefight.rulesets.ept.engagement import EptState
from firefight.rulesets.ept.fire import FIRE
from firefight.rulesets.percentile.fire import FIRE as PERCENTILE_FIRE
from firefight.rulesets.tirs.effects import FIRE as TIRS_FIRE
from firefight.rulesets.vv.casualties import AP_ATTACK_HEX
from firefight.rulesets.vv.engagement import VvState
from firefight.sim.engagement import RESULTS, Engagement
from firefight.sim.scenario import load_scenario, parse_scenario

EPT_1V1 = """
ruleset = "ept"
turns = {turns}
[situation]
range = "normal"
[a]
name = "A"
[[a.units]]
name = "a1"
strength = [{a_strength}]
morale = 7
[b]
name = "B"
[b.target]
protection = "light"
[[b.units]]
name = "b1"
strength = [{b_strength}]
morale = 6
"""

OUT = {"neutralized", "step_lost_neutralized", "eliminated"}  # a one-step unit stops firing


def ept_1v1(turns: int = 1, a_strength: int = 6, b_strength: int = 5) -> Engagement:
    text = EPT_1V1.format(turns=turns, a_strength=a_strength, b_strength=b_strength)
    return Engagement(parse_scenario(text, "1v1.toml"))


def attack(strength: int, morale: int, **fields: object):
    return FIRE.parse(
        {"strength": strength, "follow_up": "morale_test", "morale": morale, **fields}
    )


def test_one_turn_of_one_against_one_equals_the_hand_computation_from_single_attack_odds():
    odds = ept_1v1().odds_over_turns()
    a_fire = FIRE.odds(attack(6, 6, protection="light"))
    b_out = sum((p for o, p in a_fire.items() if o in OUT), Fraction(0))
    # B answers only if still able to fire: stopped, it fires at x1/2 (MODIFICATEURS DE TIR).
    b_stopped = a_fire["stopped"]
    b_free = 1 - b_out - b_stopped
    a_out_free = sum((p for o, p in FIRE.odds(attack(5, 7)).items() if o in OUT), Fraction(0))
    halved = FIRE.odds(attack(5, 7, firer_stopped=True))
    a_out_stopped = sum((p for o, p in halved.items() if o in OUT), Fraction(0))
    assert odds.outcome["a_wins"].value == b_out
    assert odds.outcome["b_wins"].value == b_free * a_out_free + b_stopped * a_out_stopped
    assert odds.outcome["draw"].value == 0
    assert sum(e.value for e in odds.outcome.values()) == 1
    assert odds.decided_by[1].value == b_out + odds.outcome["b_wins"].value


def test_the_turn_kernel_from_cached_odds_equals_the_prefix_replay_of_the_traced_turn():
    text = EPT_1V1.format(turns=3, a_strength="6, 3", b_strength="5, 2")
    engagement = Engagement(parse_scenario(text, "1v1.toml"))
    twin = Process(engagement.turn, engagement.ended, "prefix replay")
    start = engagement.start()
    assert dict(engagement.process.kernel(start)) == dict(twin.kernel(start))
    assert engagement.process.distributions(start, 3) == twin.distributions(start, 3)


def test_expected_turns_and_the_end_distribution_sum_exactly():
    engagement = ept_1v1(turns=4)
    odds = engagement.odds_over_turns()
    assert sum(e.value for _, e in odds.end_states) == 1
    assert odds.expected_turns.value == sum(1 - e.value for e in odds.decided_by[:-1])
    fights = [e.value for e in odds.fighting["b"]]
    assert fights == sorted(fights, reverse=True)  # a side out stays out (recovery = none)


def _ept_2v2(policy: str = "best_expected_effect", order: str = "alternating") -> str:
    return f"""
ruleset = "ept"
turns = 3
policy = "{policy}"
order = "{order}"
[a]
name = "A"
[[a.units]]
name = "a1"
strength = [6, 3]
morale = 7
[[a.units]]
name = "a2"
strength = [4]
morale = 8
[b]
name = "B"
[[b.units]]
name = "steady"
strength = [5]
morale = 12
[[b.units]]
name = "shaky"
strength = [5]
morale = 3
"""


def _targets(engagement: Engagement, seed: int = 1) -> list[str]:
    run = engagement.resolve(seed, turns=1)
    return [
        e.value for e in run.steps[0].trace if e.label == "fire" and str(e.value).startswith("A ")
    ]


def test_best_expected_effect_fires_at_the_target_the_attack_hurts_most():
    engagement = Engagement(parse_scenario(_ept_2v2(), "2v2.toml"))
    assert _targets(engagement) == ["A a1 fires at shaky", "A a2 fires at shaky"]


def test_focus_fires_every_unit_at_the_first_target_still_there():
    engagement = Engagement(parse_scenario(_ept_2v2("focus"), "2v2.toml"))
    assert _targets(engagement) == ["A a1 fires at steady", "A a2 fires at steady"]


def test_spread_gives_each_firer_the_next_target():
    engagement = Engagement(parse_scenario(_ept_2v2("spread"), "2v2.toml"))
    assert _targets(engagement) == ["A a1 fires at steady", "A a2 fires at shaky"]


def test_simultaneous_fire_lets_a_unit_hit_this_turn_fire_back():
    simultaneous = Engagement(parse_scenario(_ept_2v2(order="simultaneous"), "s.toml"))
    alternating = Engagement(parse_scenario(_ept_2v2(order="alternating"), "a.toml"))
    # Side a silences a unit of b before it fires only when fire alternates.
    s_odds, a_odds = simultaneous.odds_over_turns(), alternating.odds_over_turns()
    assert s_odds.outcome["b_wins"].value > a_odds.outcome["b_wins"].value
    run = simultaneous.resolve(5, turns=1)
    assert sum(1 for e in run.trace if e.label == "fire" and str(e.value).startswith("B ")) == 2


def test_a_neutralized_ept_unit_does_not_fire_and_recovers_only_by_option():
    text = _ept_2v2().replace(
        "strength = [6, 3]\nmorale = 7", "strength = [6, 3]\nmorale = 7\nneutralized = true"
    )
    engagement = Engagement(parse_scenario(text, "n.toml"))
    assert engagement.start()[0][0] == EptState(2, False, True)
    assert _side_fires(engagement, "A a1") == 0
    recovering = Engagement(parse_scenario(text + '[rules]\nrecovery = "own_turn"\n', "r.toml"))
    assert _side_fires(recovering, "A a1") == 1


def test_a_side_whose_units_are_all_neutralized_is_broken_unless_markers_are_removed():
    text = EPT_1V1.format(turns=2, a_strength=6, b_strength=5).replace(
        "morale = 7", "morale = 7\nneutralized = true"
    )
    assert Engagement(parse_scenario(text, "n.toml")).answer().outcome["b_wins"].value == 1
    recovering = Engagement(parse_scenario(text + '[rules]\nrecovery = "own_turn"\n', "r.toml"))
    assert recovering.answer().outcome["b_wins"].value < 1


def _side_fires(engagement: Engagement, side: str) -> int:
    run = engagement.resolve(3, turns=1)
    return sum(1 for e in run.trace if e.label == "fire" and str(e.value).startswith(side + " "))


def test_ept_results_map_to_steps_stopped_and_neutralized():
    rules = ept_1v1().rules
    unit = ept_1v1().scenario.sides[0].units[0]
    two = EptState(2)
    assert rules.apply(unit, two, "step_lost_neutralized") == EptState(1, False, True)
    assert rules.apply(unit, EptState(1), "step_lost_neutralized") == EptState(0)
    assert rules.apply(unit, two, "stopped") == EptState(2, True, False)
    assert rules.apply(unit, EptState(2, True), "stopped") == EptState(2, True, False)
    assert rules.apply(unit, two, "eliminated") == EptState(0)


VV_1V1 = """
ruleset = "vv"
turns = {turns}
[a]
name = "A"
[[a.units]]
name = "a1"
apfp = 6
casualty_rating = 4
half_squad_apfp = 3
half_squad_rating = 2
pinned = {pinned}
[b]
name = "B"
[[b.units]]
name = "b1"
kind = "half_squad"
apfp = 3
casualty_rating = 2
"""


def test_vv_one_turn_equals_the_hand_computation_from_ap_attack_hex_odds():
    engagement = Engagement(parse_scenario(VV_1V1.format(turns=1, pinned="false"), "v.toml"))
    odds = engagement.odds_over_turns()
    a_fire = AP_ATTACK_HEX.odds(
        AP_ATTACK_HEX.parse({"apfp": 6, "unit1": "half_squad", "unit1_casualty_rating": 2})
    )
    b_gone = a_fire["unit1 eliminated"]
    assert odds.outcome["a_wins"].value == b_gone
    # Pinned by A's fire, the half squad rallies in B's Command Phase (5.31, 14.7) and fires.
    b_back = a_fire["unit1 unhurt"] + a_fire["unit1 pinned"]
    assert b_back == 1 - b_gone
    b_fire = AP_ATTACK_HEX.odds(
        AP_ATTACK_HEX.parse(
            {"apfp": 3, "unit1": "squad", "unit1_casualty_rating": 4, "unit1_half_squad_rating": 2}
        )
    )
    assert odds.outcome["b_wins"].value == b_back * b_fire["unit1 eliminated"]


def test_a_pinned_vv_unit_rallies_in_its_command_phase_and_fires():
    engagement = Engagement(parse_scenario(VV_1V1.format(turns=1, pinned="true"), "v.toml"))
    assert engagement.start()[0][0] == VvState(pinned=True)
    run = engagement.resolve(2, turns=1)
    labels = [e.label for e in run.trace]
    assert labels[0] == "A: start of fire"  # 5.31: rallied before the Fire Phase
    assert _side_fires(engagement, "A") == 1


def test_sampled_engagements_agree_with_the_exact_odds():
    engagement = Engagement(parse_scenario(_ept_2v2(), "2v2.toml"))
    exact = engagement.odds_over_turns()
    n = 20_000
    sampled = engagement.sampled(n, seed=11)
    assert not sampled.exact
    assert sampled.label == "sampled"
    kept = [r for r in RESULTS if exact.outcome[r].value > 0]
    observed = [round(float(sampled.outcome[r]) * n) for r in kept]
    expected = [float(exact.outcome[r].value) * n for r in kept]
    assert chisquare(observed, expected).pvalue > 0.001
    low, high = sampled.expected_turns.interval or (0, 0)
    margin = (high - low) / 2  # a 95 % interval: allow about 3.3 sigma
    assert abs(float(exact.expected_turns) - float(sampled.expected_turns)) < 1.7 * margin


def test_an_engagement_over_the_state_limit_falls_back_to_sampling_labelled_so():
    engagement = Engagement(parse_scenario(_ept_2v2(), "2v2.toml"))
    answer = engagement.answer(n=2_000, seed=3, max_states=3)
    assert not answer.exact
    assert answer.reason is not None
    assert "limit for exact odds" in answer.reason
    data = answer.to_json()
    assert data["label"] == "sampled"
    assert data["exact"] is False
    assert set(data["outcome"]["a_wins"]) == {"estimate", "interval"}


def test_a_seeded_engagement_replays_from_its_own_dice():
    engagement = Engagement(parse_scenario(_ept_2v2(), "2v2.toml"))
    run = engagement.resolve(seed=9)
    again = engagement.replay(run.replay_values())
    assert again.trace == run.trace
    assert again.final == run.final
    assert engagement.odds_over_turns().end_states  # the run's end is one of the exact ends
    assert run.final in dict(engagement.odds_over_turns().end_states)


@pytest.mark.parametrize(
    "name", ["ept_hedgerow", "vv_village", "tirs_crossroads", "percentile_farm"]
)
def test_every_sample_scenario_has_exact_odds_that_sum_to_one(name):
    odds = Engagement(load_scenario(name)).answer()
    assert odds.exact
    assert sum(e.value for e in odds.outcome.values()) == 1


def test_two_turns_merged_equal_the_whole_sequence_evaluated_by_prefix_replay():
    engagement = ept_1v1(turns=2, a_strength="6, 3", b_strength="5, 2")
    fire_phases = 2 * len(engagement.scenario.sides[0].units + engagement.scenario.sides[1].units)
    replayed = exact(lambda chance: engagement.sequence(chance, fire_phases))
    assert dict(replayed) == dict(engagement.process.after(engagement.start(), 2))


TIRS_1V1 = """
ruleset = "tirs"
turns = 1
[a]
name = "A"
[[a.units]]
name = "g1"
cdt = 3
experience = "veteran"
[b]
name = "B"
[[b.units]]
name = "g2"
cdt = 4
experience = "trained"
"""


def test_tirs_one_turn_equals_the_hand_computation_from_the_fire_odds():
    odds = Engagement(parse_scenario(TIRS_1V1, "t.toml")).odds_over_turns()
    fire = TIRS_FIRE.odds(TIRS_FIRE.parse({"cdt": 3, "experience": "veteran"}))
    silenced = {"2nd demoralized", "1st eliminated", "2nd eliminated"}  # no element can fire
    assert odds.outcome["a_wins"].value == sum(p for s, p in fire.items() if s in silenced)
    b_wins = Fraction(0)
    for state, p in fire.items():
        if state in silenced:
            continue
        # A group with no normal element left fires pinned (+2 to each die).
        pinned = state in ("2nd pinned", "1st demoralized")
        back = TIRS_FIRE.odds(
            TIRS_FIRE.parse(
                {
                    "cdt": 4,
                    "experience": "trained",
                    "firer_state": "pinned" if pinned else "normal",
                }
            )
        )
        b_wins += p * sum(q for s, q in back.items() if s in silenced)
    assert odds.outcome["b_wins"].value == b_wins


PERCENTILE_1V1 = """
ruleset = "percentile"
turns = 2
[a]
name = "A"
[[a.units]]
name = "p1"
firepower = 3
[b]
name = "B"
[[b.units]]
name = "p2"
firepower = 4
base_defense = 3
"""


def test_percentile_suppression_sits_out_one_fire_as_computed_by_hand():
    odds = Engagement(parse_scenario(PERCENTILE_1V1, "p.toml")).odds_over_turns()
    a_fire = PERCENTILE_FIRE.odds(PERCENTILE_FIRE.parse({"firepower": 3, "base_defense": 3}))
    b_fire = PERCENTILE_FIRE.odds(PERCENTILE_FIRE.parse({"firepower": 4, "base_defense": 2}))
    ak, asup, anone = a_fire["kill"], a_fire["suppressed"], a_fire["no_effect"]
    bk, bsup, bnone = b_fire["kill"], b_fire["suppressed"], b_fire["no_effect"]
    # Turn 1: A fires (B killed: A wins); B, suppressed, sits out its fire, else fires back.
    # Turn 2, after B sat out (asup): A fires; B fights again unless suppressed anew.
    # After A was suppressed (anone * bsup): A sits out, B fires. After both missed: both fire.
    a_wins = ak + asup * ak + anone * bnone * ak
    b_wins = anone * bk + asup * anone * bk + anone * bsup * bk + anone * bnone * anone * bk
    assert odds.outcome["a_wins"].value == a_wins
    assert odds.outcome["b_wins"].value == b_wins


def _side(side: str, count: int) -> str:
    units = "".join(
        f'[[{side}.units]]\nname = "{side}{i}"\nstrength = [6, 3]\nmorale = 7\n'
        for i in range(count)
    )
    return f"[{side}]\n{units}"


def test_an_engagement_too_large_for_a_turns_kernel_is_sampled_phase_by_phase():
    text = 'ruleset = "ept"\nturns = 2\n' + _side("a", 6) + _side("b", 6)
    answer = Engagement(parse_scenario(text, "big.toml")).answer(n=500, seed=2, max_states=200)
    assert not answer.exact
    assert "states within one turn" in (answer.reason or "")
    assert sum((answer.result_counts or {}).values()) == 500
    again = Engagement(parse_scenario(text, "big.toml")).sampled(500, seed=2)
    assert again.result_counts == answer.result_counts  # the same seed, the same engagements


@pytest.mark.parametrize(("order", "fire_phases"), [("alternating", 3), ("simultaneous", 3)])
def test_merging_phase_by_phase_equals_the_prefix_replay_of_the_sequence(order, fire_phases):
    engagement = Engagement(parse_scenario(_ept_2v2(order=order), "2v2.toml"))
    replayed = exact(lambda chance: engagement.sequence(chance, fire_phases))
    assert dict(engagement.after_fire_phases(fire_phases)) == dict(replayed)
