"""What a scenario says of its units' AT fire and transport, against what the command line
says (V&V 14.3, 18.1, 18.4, 18.5, 19.4): the AT FP Ratings of the units that may fire AT, a
moving AFV's Armor Ratings and an overrunning AFV's passengers' APFP.

Each value comes from the scenario file; the command line's ``--at``, ``--armour`` and
``--passenger-apfp`` give what the file does not say. Where both say it they must agree: a
disagreement is refused in one line naming the option, the scenario's value and the value
given (never one silently winning over the other).
"""

from __future__ import annotations

from collections.abc import Mapping

from firefight.errors import InputError
from firefight.rulesets.vv.at_charts import Rating
from firefight.rulesets.vv.scenario import BoardScenario, ScenarioUnit, passenger_overrun_apfp
from firefight.translation import gettext as _


def scenario_at_ratings(scenario: BoardScenario, side: str) -> dict[str, Rating]:
    """The AT FP Ratings the scenario gives the enemies of ``side`` (18.1: a Gun's, AFV's or
    vehicle's own, an infantry unit's ``anti_tank`` weapon's; none for passengers)."""
    return {u.id: rating for u in scenario.enemies_of(side) if (rating := u.at_rating) is not None}


def with_scenario_ratings(
    scenario: BoardScenario, side: str, given: Mapping[str, Rating]
) -> dict[str, Rating]:
    """The AT firers of a move or an overrun by ``side``: the scenario's ratings with those
    given (``--at``, checked letters) for units the scenario does not rate; a given letter
    for a rated unit must be the scenario's, and a passenger makes no AT attack (18.1)."""
    ratings = scenario_at_ratings(scenario, side)
    for unit_id, letter in given.items():
        unit = scenario.unit(unit_id)
        if unit.is_passenger:
            raise InputError(
                "at",
                "a unit not carried by a vehicle (18.1: passengers make no AT attack)",
                unit_id,
            )
        known = ratings.get(unit_id)
        if known is not None and known != letter:
            raise InputError(
                f"at.{unit_id}",
                _("the scenario's AT FP Rating {known} (or left out)").format(known=known),
                letter,
            )
        ratings[unit_id] = letter
    return ratings


def afv_armour(
    unit: ScenarioUnit, given: tuple[Rating, Rating] | None
) -> tuple[Rating, Rating] | None:
    """A moving AFV's Armor Ratings, front then rear (18.5): the scenario's, or ``given``
    (``--armour``, checked letters) where the file has none; both must agree."""
    if given is None or unit.armour is None:
        return unit.armour if given is None else given
    if given != unit.armour:
        raise InputError(
            "armour",
            _("the scenario's Armor Ratings {values} for {id} (or left out)").format(
                values="/".join(unit.armour), id=unit.id
            ),
            "/".join(given),
        )
    return given


def carried_apfp(scenario: BoardScenario, afv: ScenarioUnit, given: int | None = None) -> int:
    """19.4: the APFP the AFV's passengers add to its overrun, not doubled: the sum of
    :func:`~firefight.rulesets.vv.scenario_units.passenger_overrun_apfp` over the units it
    carries in the scenario; ``given`` (``--passenger-apfp``) where it carries none, else it
    must be that sum."""
    carried = scenario.passengers_of(afv.id)
    if not carried:
        return given or 0
    total = sum(passenger_overrun_apfp(u) for u in carried)
    if given is not None and given != total:
        ids = ", ".join(u.id for u in carried)
        raise InputError(
            "passenger_apfp",
            _("the scenario's passengers' APFP {total} ({ids}; or left out)").format(
                total=total, ids=ids
            ),
            given,
        )
    return total
