"""V&V scenarios: units on a board (V&V 6.9, 7, 12, 13, 14.3, 17, 18, 20).

A scenario file (TOML) names a board (a sample's name such as ``vv_village``, or a board file
beside the scenario), the sides, the units with their printed values and state, the
fortifications and entrenchments on the board (20) and the snipers in play (17):

.. code-block:: toml

    board = "vv_village"
    [sides.us]
    name = "Americans"
    [[units]]
    id = "us-1"
    side = "us"
    type = "squad"   # squad | half_squad | leader | mg_team | gun | afv | unarmoured_vehicle
    hex = "0506"
    apfp = 4                  # its printed values: what its type needs (REQUIRED)
    range = 6
    casualty_rating = 4
    half_squad_rating = 2
    support_weapons = [{ name = "BAR", class = "L", kind = "mg", apfp = 2, range = 6 }]
    state = "full"            # full | reduced | pinned | reduced_pinned; fired, moved: markers
    carried_by = "us-ht"      # a passenger: the id of its transport (14.3)

AT FP Ratings and Armor Ratings are the rulebook's letters A-F (18.4, 18.5): ``atfp = "C"``
(a Gun, AFV or vehicle; an infantry unit's is its ``anti_tank`` weapon's ``atfp``),
``armour = "E"`` or ``["E", "C"]`` (front, rear).

Public API: :class:`BoardScenario` (``board``, ``sides``, ``units``, ``fortifications``,
``snipers``; ``units_at(hex)``, ``unit(id)``, ``fortification_at(hex)``, ``passengers_of(id)``),
:class:`ScenarioUnit`, :class:`SupportWeapon`, :class:`Fortification`, :class:`Sniper`,
:func:`load_board_scenario` (a path or the name of a shipped sample: ``village``),
:func:`scenario_from_data`, :func:`stacking_problem` (6.9) and :func:`sample_board_scenarios`.
Every error is one line naming the file, the unit (or entry) and the field:
:class:`BoardScenarioError`. The units and the rules read from a unit alone are in
:mod:`.scenario_units`, the reading of each table in :mod:`.scenario_fields`, the ratings the
AT fire and the overrun read in :mod:`.scenario_ratings`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from firefight.board.board import MAX_TOML_VALUES, Board, board_file_error, read_toml, shown
from firefight.board.hexes import Hex
from firefight.core.files import FileError, loader, parse_toml
from firefight.errors import QUOTED_MAX, FirefightError, InputError, one_of, quoted
from firefight.i18n import gettext
from firefight.rulesets.boards import board_named_in, load_file, sample_boards
from firefight.rulesets.vv.scenario_fields import (
    REQUIRED,
    REQUIRED_WHY,
    UNIT_FIELDS,
    Reader,
    fortification,
    snipers,
    unit,
)
from firefight.rulesets.vv.scenario_units import (
    ENTRENCHMENTS,
    INFANTRY_STACK,
    INFANTRY_TYPES,
    MG_RANGE,
    MIXED_INFANTRY,
    OBSTACLES,
    PASSENGER_LIMIT,
    POSITIONS,
    PROHIBITED,
    RATINGS,
    TRANSPORTS,
    UNIT_STATES,
    UNIT_TYPES,
    VEHICLE_STACK,
    VEHICLE_TYPES,
    BoardScenarioError,
    Fortification,
    FortificationKind,
    ScenarioUnit,
    Sniper,
    SupportWeapon,
    UnitStateName,
    UnitType,
    WeaponClass,
    WeaponKind,
    ffa_contains,
    passenger_overrun_apfp,
    prohibited,
    stacking_problem,
)

__all__ = [
    "ENTRENCHMENTS",
    "INFANTRY_STACK",
    "INFANTRY_TYPES",
    "MG_RANGE",
    "MIXED_INFANTRY",
    "OBSTACLES",
    "PASSENGER_LIMIT",
    "POSITIONS",
    "PROHIBITED",
    "RATINGS",
    "REQUIRED",
    "REQUIRED_WHY",
    "SCENARIOS",
    "TRANSPORTS",
    "UNIT_FIELDS",
    "UNIT_STATES",
    "UNIT_TYPES",
    "VEHICLE_STACK",
    "VEHICLE_TYPES",
    "BoardScenario",
    "BoardScenarioError",
    "Fortification",
    "FortificationKind",
    "ScenarioUnit",
    "Sniper",
    "SupportWeapon",
    "UnitStateName",
    "UnitType",
    "WeaponClass",
    "WeaponKind",
    "ffa_contains",
    "find_board_scenario",
    "load_board_scenario",
    "passenger_overrun_apfp",
    "pasted_board_scenario",
    "prohibited",
    "sample_board_scenarios",
    "scenario_from_data",
    "stacking_problem",
    "stacks_text",
]

SCENARIOS = Path(__file__).parent / "data" / "scenarios"
"""The sample scenarios shipped in the package."""


@dataclass(frozen=True)
class BoardScenario:
    """A board with units on it. ``sides`` maps each side's key to its name."""

    name: str
    board: Board
    sides: Mapping[str, str]
    units: tuple[ScenarioUnit, ...]
    fortifications: tuple[Fortification, ...] = ()
    snipers: tuple[Sniper, ...] = ()
    source: str = ""
    board_name: str = ""
    _by_hex: dict[Hex, tuple[ScenarioUnit, ...]] = field(
        default_factory=dict, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        found: dict[Hex, list[ScenarioUnit]] = {}
        for unit_ in self.units:
            found.setdefault(unit_.hex, []).append(unit_)
        self._by_hex.update({h: tuple(us) for h, us in found.items()})

    def units_at(self, hex_: Hex) -> tuple[ScenarioUnit, ...]:
        """The units in a hex, in file order (passengers included)."""
        return self._by_hex.get(hex_, ())

    def unit(self, unit_id: str) -> ScenarioUnit:
        """A unit by id; an unknown id is a one-line error listing the ids."""
        for unit_ in self.units:
            if unit_.id == unit_id:
                return unit_
        raise InputError("unit", one_of(u.id for u in self.units), unit_id)

    def passengers_of(self, unit_id: str) -> tuple[ScenarioUnit, ...]:
        """The units a vehicle transports (14.3), in file order."""
        return tuple(u for u in self.units if u.carried_by == unit_id)

    def fortification_at(self, hex_: Hex) -> Fortification | None:
        """The fortification, entrenchment or obstacle in a hex, if any."""
        for fort in self.fortifications:
            if fort.hex == hex_:
                return fort
        return None

    def enemies_of(self, side: str) -> tuple[ScenarioUnit, ...]:
        """Every unit of the other sides."""
        return tuple(u for u in self.units if u.side != side)

    def to_json(self) -> dict[str, object]:
        """The scenario as data (hexes as board labels; AT FP and Armor Ratings as letters)."""
        label = self.board.label
        return {
            "name": self.name,
            "board": self.board_name or self.board.name,
            "sides": dict(self.sides),
            "units": [
                {
                    "id": u.id,
                    "side": u.side,
                    "type": u.type,
                    "hex": label(u.hex),
                    "state": u.state,
                    "fired": u.fired,
                    "apfp": u.apfp,
                    "range": u.fire_range,
                    "casualty_rating": u.casualty_rating,
                    "atfp": u.at_rating,
                    "armour": list(u.armour) if u.armour else None,
                    "carried_by": u.carried_by,
                    "support_weapons": [w.name for w in u.support_weapons],
                }
                for u in self.units
            ],
            "fortifications": {label(f.hex): f.kind for f in self.fortifications},
            "snipers": [{"side": s.side, "hex": label(s.hex)} for s in self.snipers],
        }


def stacks_text(scenario: BoardScenario, side: str | None = None) -> str:
    """The scenario's stacks (of ``side``, or of every side), each its hex and its units:
    ``0206 (us-sq1+us-sq2+us-ldr), 0605 (de-sq1+de-mg)``, in the order of the hexes."""
    board = scenario.board
    stacks: dict[str, list[str]] = {}
    for each in scenario.units:
        if side is None or each.side == side:
            stacks.setdefault(board.label(each.hex), []).append(each.id)
    return ", ".join(f"{label} ({'+'.join(ids)})" for label, ids in sorted(stacks.items()))


# --- loading -------------------------------------------------------------------------------------


SAMPLE_ALIASES = {"village": "vv_crossroads", "armour": "vv_armour"}
"""The names a sample went by before it was renamed (``village``, which the ``vv_village``
engagement sample also reads as), each still loading it: a command or a link written
earlier keeps working."""


class Samples(dict[str, Path]):
    """The samples by name, a former name (:data:`SAMPLE_ALIASES`) finding its sample too:
    listed under their names alone."""

    def __contains__(self, name: object) -> bool:
        return super().__contains__(SAMPLE_ALIASES.get(str(name), name))

    def __getitem__(self, name: str) -> Path:
        return super().__getitem__(SAMPLE_ALIASES.get(name, name))


def sample_board_scenarios() -> Samples:
    """The shipped sample scenarios by name (the file's stem)."""
    return Samples((path.stem, path) for path in sorted(SCENARIOS.glob("*.toml")))


def find_board_scenario(name_or_path: str | Path) -> Path:
    """A sample scenario by name, or a scenario file by path."""
    samples = sample_board_scenarios()
    if str(name_or_path) in samples:
        return samples[str(name_or_path)]
    path = Path(name_or_path)
    if path.suffix.lower() == ".toml" and path.is_file():
        return path
    allowed = gettext("a scenario file (.toml) or one of {samples}").format(
        samples=", ".join(samples)
    )
    raise InputError("scenario", allowed, str(name_or_path))


def _example() -> str:
    return sample_board_scenarios()["vv_crossroads"].read_text(encoding="utf-8")


@loader("vv-scenario", ".toml", example=_example, command=("threat", "{path}", "--side", "us"))
def load_board_scenario(path: str | Path) -> BoardScenario:
    """Load and check a scenario file (or a shipped sample by name)."""
    found = find_board_scenario(path)
    try:
        data = read_toml(found, found.name)
    except FirefightError as error:
        raise BoardScenarioError(str(error)) from None
    return scenario_from_data(data, found.name, base=found.parent)


def _board(data: Mapping[str, object], source: str, base: Path | None) -> tuple[Board, str]:
    name = data.get("board")
    if not isinstance(name, str):
        raise BoardScenarioError(
            gettext("{source}: 'board' must be a board's name or file (got {name})").format(
                source=source, name=shown(name)
            )
        )
    try:
        board, _policy = load_file(board_named_in(name, base, source))
    except FirefightError as error:
        raise BoardScenarioError(str(error)) from None
    if board.ruleset != "vv":
        raise BoardScenarioError(
            gettext("{source}: 'board' must be a V&V board (got {ruleset} board)").format(
                source=source, ruleset=board.ruleset
            )
        )
    return board, name


def _sides(data: Mapping[str, object], top: Reader, source: str) -> dict[str, str]:
    sides_raw = data.get("sides")
    if not isinstance(sides_raw, dict) or len(sides_raw) < 2:
        raise top.fail("sides", "a table of at least two sides ([sides.KEY] name = ...)", sides_raw)
    sides: dict[str, str] = {}
    for key, value in sides_raw.items():
        table = Reader(value if isinstance(value, dict) else {}, f"{source}: side {quoted(key)}")
        if not isinstance(value, dict):
            raise table.fail("name", "a table with a name", value)
        table.unknown(("name",))
        sides[key] = table.text("name", key) or key
    return sides


def _check_ids(units: tuple[ScenarioUnit, ...], source: str) -> None:
    seen: set[str] = set()
    for unit_ in units:
        if unit_.id in seen:
            raise BoardScenarioError(
                gettext("{source}: unit {id}: 'id' must be unique (got it twice)").format(
                    source=source, id=quoted(unit_.id)
                )
            )
        seen.add(unit_.id)


def _transport_problem(passenger: ScenarioUnit, units: tuple[ScenarioUnit, ...]) -> str | None:
    """What is wrong with a passenger's ``carried_by`` (14.3, 6.9, 14.7), in words, or
    ``None``: a vehicle of its side in its hex, not itself carried, not over
    :data:`PASSENGER_LIMIT` infantry or one Gun, pinned with its pinned transport."""
    by_id = {u.id: u for u in units}
    transport = by_id.get(passenger.carried_by or "")
    if transport is None or transport.type not in TRANSPORTS or transport.is_passenger:
        vehicles = [u.id for u in units if u.type in TRANSPORTS and u.side == passenger.side]
        return "the id of an AFV or vehicle of its side: " + (", ".join(vehicles) or "none")
    if not (passenger.is_infantry or passenger.type == "gun"):
        return "left out for a vehicle (14.3: infantry or a Gun is transported)"
    if transport.side != passenger.side or transport.hex != passenger.hex:
        return f"a vehicle of its side in its hex ({transport.id} is not)"
    load = [u for u in units if u.carried_by == transport.id and (u.is_infantry or u.type == "gun")]
    guns = sum(1 for u in load if u.type == "gun")
    if (guns and len(load) > 1) or len(load) > PASSENGER_LIMIT:
        return (
            f"a vehicle with room: at most {PASSENGER_LIMIT} infantry units or one Gun "
            f"(6.9; {transport.id} carries {len(load)})"
        )
    if transport.pinned and not passenger.pinned:
        return f"a transport it is pinned with (14.7: {transport.id} is pinned, it is not)"
    return None


def _check_stacks(units: tuple[ScenarioUnit, ...], board: Board, source: str) -> None:
    """Transports (14.3), no enemies in one hex (6.8) and the stacking limits (6.9)."""
    for passenger in units:
        if passenger.is_passenger:
            problem = _transport_problem(passenger, units)
            if problem:
                raise BoardScenarioError(
                    gettext(
                        "{source}: unit {id}: 'carried_by' must be {problem} (got {carried_by})"
                    ).format(
                        source=source,
                        id=quoted(passenger.id),
                        problem=problem,
                        carried_by=quoted(passenger.carried_by),
                    )
                )
    by_hex: dict[Hex, list[ScenarioUnit]] = {}
    for unit_ in units:
        by_hex.setdefault(unit_.hex, []).append(unit_)
    for hex_, here in by_hex.items():
        if len({u.side for u in here}) > 1:
            raise BoardScenarioError(
                gettext(
                    "{source}: unit {id}: 'hex' must not hold enemy units (6.8: got {hex})"
                ).format(source=source, id=quoted(here[-1].id), hex=board.label(hex_))
            )
        problem = stacking_problem(here)
        if problem:
            raise BoardScenarioError(
                gettext(
                    "{source}: unit {id}: 'hex' {hex} is over the stacking limit (6.9): {problem}"
                ).format(
                    source=source, id=quoted(here[-1].id), hex=board.label(hex_), problem=problem
                )
            )


def scenario_from_data(
    data: Mapping[str, object], source: str, base: Path | None = None
) -> BoardScenario:
    """Build and check a scenario from parsed TOML (``source`` names the file in errors)."""
    top = Reader(data, source)
    top.unknown(("name", "board", "sides", "units", "fortifications", "snipers"))
    board, board_name = _board(data, source, base)
    sides = _sides(data, top, source)
    units_raw = data.get("units")
    if not isinstance(units_raw, list) or not units_raw:
        raise top.fail("units", "a list of units ([[units]] tables)", units_raw)
    units = tuple(unit(raw, i, source, board, sides) for i, raw in enumerate(units_raw))
    _check_ids(units, source)
    _check_stacks(units, board, source)
    forts_raw = data.get("fortifications", [])
    if not isinstance(forts_raw, list):
        raise top.fail("fortifications", "a list of [[fortifications]] tables", forts_raw)
    forts = tuple(fortification(raw, i, source, board) for i, raw in enumerate(forts_raw))
    if len({f.hex for f in forts}) != len(forts):
        raise top.fail("fortifications", "at most one per hex", [board.label(f.hex) for f in forts])
    snipers_raw = data.get("snipers", [])
    if not isinstance(snipers_raw, list):
        raise top.fail("snipers", "a list of [[snipers]] tables", snipers_raw)
    found_snipers = snipers(snipers_raw, source, board, sides)
    name = top.text("name", source, 100) or source
    return BoardScenario(name, board, sides, units, forts, found_snipers, source, board_name)


def pasted_board_scenario(text: str, source: str = "scenario") -> BoardScenario:
    """A scenario from its TOML text (pasted on the web); its board must be a sample board,
    never a path: the server reads no file it is told."""

    try:
        data = parse_toml(text, source, max_values=MAX_TOML_VALUES)
    except FileError as error:  # syntax, nesting, values or a number too long: one line
        if error.reason == "syntax":
            raise BoardScenarioError(
                gettext("{source}: not TOML ({problem})").format(
                    source=source, problem=error.problem
                )
            ) from None
        raise BoardScenarioError(str(board_file_error(error, source, text, toml=True))) from None
    board = data.get("board")
    boards = list(sample_boards())  # a sample's name only: scenario_from_data checks its rules
    if board not in boards:
        short = isinstance(board, str) and len(board) <= QUOTED_MAX
        shown_board = json.dumps(board) if short else quoted(board)
        allowed = "a sample board on the web: one of " + ", ".join(boards)
        msg = gettext("{source}: 'board' must be {allowed} (got {shown_board})").format(
            source=source, allowed=allowed, shown_board=shown_board
        )
        raise BoardScenarioError(msg)
    return scenario_from_data(data, source)
