"""V&V fire lanes standing when a side moves, laid earlier in the Movement Phase (13.8, 13.9).

Each lane is given as its MG's hex and the hex it fired at (``--standing-lanes FROM-TO,...``,
:func:`parse_lane_pairs`); :func:`lanes_laid_earlier` lays each by one MG of its hex (one lane
per MG, 13.9 Fire Lane Examples) and :func:`lane_fire` marks those MGs as having fired (13.8).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from firefight.board.hexes import Hex
from firefight.errors import InputError
from firefight.i18n import gettext
from firefight.rulesets.vv.lanes import (
    LANE_LAYERS,
    FireLane,
    LaneReadings,
    lay_lane,
    standing_lanes,
)
from firefight.rulesets.vv.scenario import (
    BoardScenario,
    ScenarioUnit,
)
from firefight.translation import N_

STANDING_LANES_EXAMPLE = N_("FROM-TO hex pairs separated by commas (0301-0305)")


def parse_lane_pairs(text: str, field: str = "standing_lanes") -> list[tuple[str, str]]:
    """``FROM-TO,...`` (``--standing-lanes``, the API's ``standing_lanes``): each lane laid
    earlier in the Movement Phase as its MG's hex and the hex it fired at (13.9); one line
    naming ``field`` when malformed."""
    found: list[tuple[str, str]] = []
    for token in (t.strip() for t in text.split(",")):
        if not token:
            continue
        start, sep, end = token.partition("-")
        if not sep or not start.strip() or not end.strip():
            raise InputError(field, STANDING_LANES_EXAMPLE, token)
        found.append((start.strip(), end.strip()))
    return found


def carries_mg(unit: ScenarioUnit) -> bool:
    """An infantry unit that may have laid a lane (13.9): an MG team, or a unit carrying an MG
    support weapon (12.2)."""
    if unit.type not in LANE_LAYERS:
        return False
    return unit.type == "mg_team" or any(w.kind == "mg" for w in unit.support_weapons)


def lane_layers(scenario: BoardScenario, hex_: Hex, side: str | None) -> list[ScenarioUnit]:
    """The units of a hex that may have laid a standing lane: those carrying an MG
    (:func:`carries_mg`) of a side other than ``side`` (the side moving; ``None``: any side),
    the unpinned first, then in file order (a pinned MG may have laid its lane before it was
    pinned, 13.9)."""
    found = [
        u for u in scenario.units_at(hex_) if carries_mg(u) and (side is None or u.side != side)
    ]
    return sorted(found, key=lambda u: u.pinned)


def _lane_mgs(
    scenario: BoardScenario, pairs: Sequence[tuple[str, str]], side: str | None
) -> list[ScenarioUnit]:
    """Each standing lane's MG unit (13.9 Fire Lane Examples: "Each machine gun may only create
    a single fire lane"): the lanes from one hex go to its MGs in :func:`lane_layers` order.
    A lane from a hex without an MG, or more lanes from a hex than its MGs, is refused in one
    line naming ``standing_lanes``."""
    board = scenario.board
    by_hex: dict[Hex, list[str]] = {}
    for start, end in pairs:
        by_hex.setdefault(board.hex(start), []).append(f"{start}-{end}")
    layers = {hex_: lane_layers(scenario, hex_, side) for hex_ in by_hex}
    for hex_, tokens in by_hex.items():
        mgs = layers[hex_]
        if not mgs:
            holding = sorted(
                {board.label(u.hex) for u in scenario.units if carries_mg(u)}
                if side is None
                else {board.label(u.hex) for u in scenario.enemies_of(side) if carries_mg(u)}
            )
            allowed = gettext(
                "FROM-TO lanes from a hex holding an MG of the side not moving (13.9: an MG's "
                "opportunity fire lays a lane): {hexes}"
            ).format(hexes=", ".join(holding) or gettext("none"))
            raise InputError("standing_lanes", allowed, tokens[0])
        if len(tokens) > len(mgs):
            allowed = gettext(
                "at most {n} lane(s) from {hex}, one per MG there (13.9: each MG creates a "
                "single fire lane): {mgs}"
            ).format(n=len(mgs), hex=board.label(hex_), mgs=", ".join(u.id for u in mgs))
            raise InputError("standing_lanes", allowed, ",".join(tokens))
    taken: dict[Hex, int] = {}
    found: list[ScenarioUnit] = []
    for start, _ in pairs:
        hex_ = board.hex(start)
        found.append(layers[hex_][taken.get(hex_, 0)])
        taken[hex_] = taken.get(hex_, 0) + 1
    return found


def lanes_laid_earlier(
    scenario: BoardScenario,
    pairs: Sequence[tuple[str, str]],
    readings: LaneReadings | None = None,
    *,
    side: str | None = None,
) -> tuple[FireLane, ...]:
    """The standing lanes of a Move Phase, laid earlier in it (13.9): each ``(FROM, TO)``
    (board labels) laid as :func:`lay_lane` lays it, named ``standing lane N``, by one MG of
    its ``FROM`` hex (``FireLane.unit``; :func:`_lane_mgs`: one lane per MG, a hex without an
    MG of a side other than ``side``, the side moving, lays none). Under the
    ``after_mg_pinned`` reading ``removed``, those whose MG is pinned in the scenario (a
    pinned unit may not fire, 14.7) are taken off; under ``stays`` (default) every one stands
    (13.9 removes markers only at the end of the Move Phase)."""
    readings = readings or LaneReadings()
    board = scenario.board
    mgs = _lane_mgs(scenario, pairs, side)
    laid = [
        replace(
            lay_lane(
                board,
                board.hex(start),
                board.hex(end),
                mg=f"standing lane {n}",
                firer_kind=unit.type,
                readings=readings,
            ),
            unit=unit.id,
        )
        for n, ((start, end), unit) in enumerate(zip(pairs, mgs, strict=True), start=1)
    ]
    gone = [lane.mg for lane, unit in zip(laid, mgs, strict=True) if unit.pinned]
    return standing_lanes(laid, gone, readings)


def lane_fire(scenario: BoardScenario, lanes: Iterable[FireLane]) -> BoardScenario:
    """The scenario with the unit of each lane's MG marked with a Fire marker (13.8: "Units
    that conduct an Opportunity Fire attack are marked with a Fire marker"): an MG that laid a
    lane earlier in the Movement Phase fires no more in it, neither on opportunity nor to lay
    a second lane (13.9). Lanes whose unit is unknown (``FireLane.unit`` ``None``) mark none."""
    fired = {lane.unit for lane in lanes if lane.unit is not None}
    if not fired or all(scenario.unit(u).fired for u in fired):
        return scenario
    units = tuple(replace(u, fired=True) if u.id in fired else u for u in scenario.units)
    return BoardScenario(
        scenario.name,
        scenario.board,
        scenario.sides,
        units,
        scenario.fortifications,
        scenario.snipers,
        scenario.source,
        scenario.board_name,
    )
