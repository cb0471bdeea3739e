"""Scripted exchanges of fire on the move and opportunity fire, ruled as the seed says."""

from __future__ import annotations

from fractions import Fraction

import pytest

from firefight.errors import RuleError
from firefight.rulesets.tirs.effects import GROUP, THREE_HITS, TargetState
from firefight.rulesets.tirs.opportunity import (
    Exchange,
    Fire,
    FireOnTheMove,
    Move,
    OpportunityFire,
    Unit,
)
from firefight.rulesets.tirs.precision import dice_modifier, fire_sheet, number_of_dice


def exchange(**options) -> Exchange:
    """Allied group A1 and A2 (initiative) against German group G1 and MG crew G2."""
    return Exchange(
        units=(
            Unit("A1", "Allies", "infantry", 3, Fraction(15), TargetState(GROUP)),
            Unit("A2", "Allies", "infantry", 2, Fraction(15), TargetState(GROUP)),
            Unit("G1", "Germans", "infantry", 2, Fraction(15), TargetState(GROUP)),
            Unit("G2", "Germans", "heavy_support", 2, Fraction(10), TargetState(THREE_HITS)),
        ),
        **{"initiative": "Allies", **options},
    )


def play(state: Exchange, *script):
    """Declare each action (an int resolves the pending fire with that many hits); return the
    final state and each ruling's (accepted, reason)."""
    rulings = []
    for step in script:
        if isinstance(step, int):
            state = state.resolve(step)
            continue
        ruling = state.declare(step)
        rulings.append((ruling.accepted, ruling.reason))
        state = ruling.exchange
    return state, rulings


def test_opportunity_fire_answers_a_move_and_the_passive_player_spends_one_point_at_a_time():
    state, rulings = play(
        exchange(),
        Move("A1", 12),
        OpportunityFire("G2", "A1", "medium"),
        0,
        OpportunityFire("G1", "A1", "medium"),
        Move("A1", 12),
        OpportunityFire("G1", "A1", "medium"),
        0,
    )
    assert [accepted for accepted, _ in rulings] == [True, True, False, True, True]
    assert rulings[2][1] == (
        "Germans does not have the initiative: it spends one PA at a time, and Allies spends "
        "the next point"
    )
    assert state.points_left("A1") == 1
    assert state.points_left("G1") == 1
    assert state.points_left("G2") == 1


def test_an_opportunity_fire_may_answer_an_opportunity_fire_so_reactions_chain():
    state, rulings = play(
        exchange(),
        Move("A1", 12),
        OpportunityFire("G1", "A1", "medium"),
        0,
        OpportunityFire("A2", "G1", "short"),
        0,
        OpportunityFire("G2", "A2", "medium"),
    )
    assert [accepted for accepted, _ in rulings] == [True, True, True, True]
    assert state.pending is not None
    assert (state.pending.firer, state.pending.target) == ("G2", "A2")


def test_no_opportunity_fire_at_a_unit_that_has_spent_nothing():
    _, rulings = play(exchange(), OpportunityFire("G1", "A2", "medium"))
    assert rulings == [(False, "A2 has not just spent a PA moving or firing: no opportunity fire")]


def test_the_window_reading_decides_whether_an_earlier_move_still_draws_fire():
    script = (
        Move("A1", 12),
        Move("A2", 12),
        OpportunityFire("G1", "A1", "medium"),
    )
    _, last = play(exchange(), *script)
    _, turn = play(exchange(window="this_turn"), *script)
    assert last[-1][0] is False
    assert turn[-1][0] is True


def test_a_unit_without_points_cannot_fire_and_fires_are_resolved_as_declared():
    state, rulings = play(
        exchange(),
        Move("A1", 12),
        OpportunityFire("G2", "A1", "medium"),
        Move("A1", 12),
    )
    assert rulings[-1] == (
        False,
        "the fire of G2 at A1 must be resolved first: fires are resolved as they are declared",
    )
    state, rulings = play(
        state,
        0,
        Move("A1", 12),
        OpportunityFire("G2", "A1", "medium"),
        0,
        Move("A1", 12),
        OpportunityFire("G2", "A1", "medium"),
    )
    assert rulings[-1] == (False, "G2 has 0 PA left; opportunity fire costs 1")
    assert rulings[-2] == (True, "A1 spends 1 PA: move")


def test_a_pinned_unit_cannot_move_and_a_demoralized_one_cannot_fire():
    state, rulings = play(
        exchange(),
        Move("A1", 12),
        OpportunityFire("G1", "A1", "medium"),
        1,
        Move("A1", 5),
        Fire("A1", "G1", "medium"),
        0,
    )
    assert rulings[-2] == (False, "A1 is 1st pinned: it cannot move")
    assert rulings[-1] == (True, "A1 spends 1 PA: fire (element by element: pinned and normal)")
    assert state.unit("A1").state.name == "1st pinned"
    state = state.declare(Move("A2", 3)).exchange
    state = state.declare(OpportunityFire("G1", "A2", "medium")).exchange.resolve(4)
    assert state.declare(Fire("A2", "G2", "long")).reason == (
        "A2 is 2nd demoralized: it cannot fire"
    )


def test_opportunity_fire_at_a_target_that_moved_at_most_half_rolls_one_die():
    _, half = play(exchange(), Move("A1", Fraction(15, 2)))
    ruling = (
        exchange()
        .declare(Move("A1", Fraction(15, 2)))
        .exchange.declare(OpportunityFire("G1", "A1", "short"))
    )
    assert half == [(True, "A1 spends 1 PA: move")]
    assert ruling.order is not None
    assert ruling.order.opportunity_half_move
    assert ruling.reason.endswith("(the target moved at most half its movement: one D10)")
    inp = ruling.order.precision_input(cdt=3, experience="trained")
    assert inp.opportunity_half_move
    assert inp.range == "short"
    farther = (
        exchange().declare(Move("A1", 8)).exchange.declare(OpportunityFire("G1", "A1", "short"))
    )
    assert farther.order is not None
    assert not farther.order.opportunity_half_move


def test_fire_on_the_move_costs_two_points_at_short_range_for_infantry_only():
    state, rulings = play(
        exchange(),
        FireOnTheMove("A1", "G1", 10, "medium"),
        FireOnTheMove("A1", "G1", 10),
    )
    assert rulings == [
        (False, "a fire on the move is made at short range only"),
        (True, "A1 spends 2 PA: fire on the move"),
    ]
    assert state.points_left("A1") == 1
    assert state.pending is not None
    assert state.pending.firer_moving
    # The fire on the move is both a move and a fire: it draws opportunity fire.
    state = state.resolve(0)
    assert state.declare(OpportunityFire("G1", "A1", "short")).accepted
    state = state.resolve(0) if state.pending else state
    assert state.declare(FireOnTheMove("A1", "G1", 10)).reason == (
        "A1 has 1 PA left; fire on the move costs 2"
    )


def test_support_weapons_do_not_fire_on_the_move_and_the_passive_player_only_reacts():
    germans = exchange(initiative="Germans")
    assert germans.declare(FireOnTheMove("G2", "A1", 5)).reason == (
        "only infantry fires on the move (flamethrowers excepted): not heavy_support"
    )
    assert exchange().declare(Move("G1", 5)).reason == (
        "Germans does not have the initiative: it spends PA only on opportunity fire"
    )
    assert exchange().declare(Move("A1", 16)).reason == "A1 moves at most 15 per move (got 16)"
    assert exchange().declare(Fire("A1", "A2", "short")).reason == "A2 is not an enemy of A1"


def test_a_refused_action_leaves_the_state_untouched_and_unknown_units_are_errors():
    start = exchange()
    ruling = start.declare(OpportunityFire("G1", "A1", "short"))
    assert ruling.exchange is start
    assert start.ledger == ()
    with pytest.raises(RuleError, match="'unit' must be one of A1, A2, G1, G2"):
        start.declare(Move("B7", 3))
    with pytest.raises(RuleError, match="no fire is waiting"):
        start.resolve(1)


# --- opportunity fire at a moving target ----------------------------------------------------


def test_opportunity_fire_at_a_mover_takes_the_target_moving_modifier():
    """'Cible en mouvement -2' comes with the move the opportunity fire answers."""
    ruling = (
        exchange().declare(Move("A1", 12)).exchange.declare(OpportunityFire("G1", "A1", "medium"))
    )
    assert ruling.order is not None
    assert ruling.order.target_moving
    inp = ruling.order.precision_input(cdt=2, experience="trained", protection=1)
    assert inp.target_moving
    assert dice_modifier(inp) == -2 + 1
    # a trained die hits on 5 - (-2 + 1) = 6 or less
    assert fire_sheet(inp).hit_chance == Fraction(6, 10)
    with pytest.raises(RuleError, match="'target_moving' is True for this opportunity fire: A1"):
        ruling.order.precision_input(cdt=2, experience="trained", target_moving=False)


def test_opportunity_fire_at_a_fire_does_not_take_the_target_moving_modifier():
    state = exchange().declare(Fire("A2", "G1", "medium")).exchange.resolve(0)
    ruling = state.declare(OpportunityFire("G1", "A2", "medium"))
    assert ruling.accepted
    assert ruling.order is not None
    assert not ruling.order.target_moving
    assert not ruling.order.precision_input(cdt=2, experience="trained").target_moving
    with pytest.raises(RuleError, match="'target_moving' is False for this opportunity fire"):
        ruling.order.precision_input(cdt=2, experience="trained", target_moving=True)


def test_the_half_move_opportunity_fire_is_a_fire_at_a_moving_target():
    from firefight.rulesets.tirs.precision import TirsPrecision  # noqa: PLC0415

    inp = TirsPrecision(cdt=3, experience="trained", opportunity_half_move=True)
    assert number_of_dice(inp) == 1
    assert dice_modifier(inp) == -2  # one D10, hitting on 5 + 2 = 7 or less
    assert fire_sheet(inp).hit_chance == Fraction(7, 10)


# --- a group whose elements are in different states -----------------------------------------


def pinned_group_fires(**options):
    """A1 pinned by one hit ('1st pinned': 1st element pinned, 2nd normal) fires at G1."""
    state = (
        exchange(**options)
        .declare(Move("A1", 12))
        .exchange.declare(OpportunityFire("G1", "A1", "medium"))
        .exchange.resolve(1)
    )
    assert state.unit("A1").state.elements == ("pinned", "normal")
    return state.declare(Fire("A1", "G1", "short"))


def test_a_group_in_mixed_states_fires_element_by_element_by_default():
    ruling = pinned_group_fires()
    assert ruling.order is not None
    pools = ruling.order.precision_inputs(cdt=3, experience="trained")
    # each element: CdT 3 x2 (short) x1/2 (its half) = 3 D10; the pinned one at +2
    assert [(number_of_dice(p), dice_modifier(p)) for p in pools] == [(3, 2), (3, 0)]
    assert [fire_sheet(p).hit_chance for p in pools] == [Fraction(3, 10), Fraction(5, 10)]
    with pytest.raises(RuleError, match="A1 fires element by element, pinned and normal"):
        ruling.order.precision_input(cdt=3, experience="trained")


def test_a_group_in_mixed_states_may_fire_as_a_whole_by_option():
    ruling = pinned_group_fires(mixed_group_fire="whole_group")
    assert ruling.order is not None
    (pool,) = ruling.order.precision_inputs(cdt=3, experience="trained")
    assert (number_of_dice(pool), dice_modifier(pool)) == (6, 0)


def test_a_demoralized_element_leaves_the_pinned_one_its_half():
    state = (
        exchange().declare(Move("A1", 12)).exchange.declare(OpportunityFire("G1", "A1", "medium"))
    )
    state = state.exchange.resolve(3)  # '1st demoralized': demoralized and pinned
    assert state.unit("A1").state.elements == ("demoralized", "pinned")
    ruling = state.declare(Fire("A1", "G1", "medium"))
    assert ruling.order is not None
    pool = ruling.order.precision_input(cdt=4, experience="veteran")
    # CdT 4 x1/2 = 2 D10 at +2: a veteran die hits on 4 or less
    assert (number_of_dice(pool), dice_modifier(pool), fire_sheet(pool).hit_chance) == (
        2,
        2,
        Fraction(4, 10),
    )
    whole = (
        exchange(mixed_group_fire="whole_group")
        .declare(Move("A1", 12))
        .exchange.declare(OpportunityFire("G1", "A1", "medium"))
        .exchange.resolve(3)
        .declare(Fire("A1", "G1", "medium"))
    )
    assert whole.order is not None
    pool = whole.order.precision_input(cdt=4, experience="veteran")
    assert (number_of_dice(pool), dice_modifier(pool)) == (4, 2)
