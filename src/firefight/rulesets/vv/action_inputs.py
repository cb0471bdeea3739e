"""The inputs of V&V's actions (:mod:`.actions`): the ``move`` and ``threat`` input models
(their fields give the commands' options and the routes' JSON fields), the lane options both
take (13.9, 13.91), and the readers of what a player types on the command line (``--fire``,
``--at``, ``--armour``, ``--roll``, thresholds).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Any, Literal, Protocol

from pydantic import AliasChoices, Field

from firefight.core.inputs import RuleInput, validate
from firefight.digits import SEED_MAX
from firefight.errors import InputError
from firefight.rulesets.vv.lanes import FireLane, LaneReadings
from firefight.rulesets.vv.lanes_standing import lanes_laid_earlier, parse_lane_pairs
from firefight.rulesets.vv.scenario import BoardScenario
from firefight.translation import gettext as _


def parse_fire(text: str) -> dict[str, str]:
    """``--fire FIRER=HEX,...`` for the player policy: the hex where each firer fires."""
    found: dict[str, str] = {}
    for token in (t.strip() for t in text.split(",")):
        if not token:
            continue
        name, sep, hex_label = token.partition("=")
        if not sep or not name.strip() or not hex_label.strip():
            raise InputError("fire", "FIRER=HEX pairs separated by commas (de-mg=0606)", token)
        found[name.strip()] = hex_label.strip()
    return found


def parse_threshold(text: str, field: str = "threshold") -> Fraction:
    """``--threshold`` (or ``field``) as an exact number (``1``, ``1.5``, ``3/2``), at least 0."""
    try:
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise InputError(field, "a number of at least 0 (1, 1.5 or 3/2)", text) from None
    if value < 0 or len(text) > 20:
        raise InputError(field, "a number of at least 0 (1, 1.5 or 3/2)", text)
    return value


def parse_chance(text: str, field: str) -> Fraction:
    """A chance from 0 to 1 as an exact number (``1/3``, ``0.25``): ``--at-threshold``."""
    value = parse_threshold(text, field)
    if value > 1:
        raise InputError(field, "a chance from 0 to 1 (1/3, 0.25)", text)
    return value


def parse_pairs(field: str, text: str, example: str) -> dict[str, str]:
    """``KEY=VALUE,...`` (``--at de-sq1=D``), one line naming ``field`` when malformed."""
    found: dict[str, str] = {}
    for token in (t.strip() for t in text.split(",")):
        if not token:
            continue
        key, sep, value = token.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise InputError(
                field,
                _("KEY=VALUE pairs separated by commas ({example})").format(example=example),
                token,
            )
        found[key.strip()] = value.strip()
    return found


def armour_letters(text: str) -> tuple[str, str]:
    """``--armour FRONT,REAR`` (one letter: the only Armor Rating, serving every facing,
    18.5); the letters are checked where they are read."""
    parts = [a.strip() for a in text.split(",")]
    if len(parts) == 1:
        parts *= 2  # one printed Armor Rating serves every facing (18.5)
    if len(parts) != 2:
        raise InputError("armour", "FRONT,REAR Armor Ratings A-F (18.5)", text)
    return parts[0], parts[1]


def move_armour(text: str) -> tuple[str, str] | dict[str, tuple[str, str]]:
    """``--armour FRONT,REAR`` for every moving AFV, or ``ID=FRONT/REAR,...`` per AFV (one
    letter: the only Armor Rating, 18.5)."""
    if "=" not in text:
        return armour_letters(text)
    return {
        unit_id: armour_letters(letters.replace("/", ","))
        for unit_id, letters in parse_pairs("armour", text, "us-t1=E/C").items()
    }


def parse_ids(text: str) -> list[str] | None:
    return [u.strip() for u in text.split(",") if u.strip()] if text else None


def parse_hexes(text: str) -> list[str]:
    return [h.strip() for h in text.split(",") if h.strip()]


def parse_dice(roll: str | list[str]) -> list[str]:
    """Dice rolled at the table: ``"3,4"`` or ``"3+4,2"``, or a run's replay list."""
    text = roll if isinstance(roll, str) else ",".join(roll)
    return [token.strip() for token in text.split(",") if token.strip()]


def standing_lanes_field(help_text: str) -> Any:  # noqa: ANN401 - pydantic's Field
    """The ``standing_lanes`` field: lanes laid earlier in the Movement Phase (13.9)."""
    return Field(None, max_length=400, description=help_text)


LANE_SIDE = Field(
    "left", max_length=20, description="A staggered lane's first marker: left or right of its LOS."
)
LANE_NATURALS = Field(
    "none",
    max_length=20,
    description="Lane rolls call for valor and snipers: none or valor_and_sniper.",
)
LANE_AFTER_MG_PINNED = Field(
    "stays",
    max_length=20,
    description="A standing lane whose MG is pinned or eliminated: stays (13.9) or removed.",
)


class LaneOptions(Protocol):
    """The fire lane options (13.9, 13.91) of the threat map and the move."""

    @property
    def standing_lanes(self) -> str | None: ...
    @property
    def lane_side(self) -> str: ...
    @property
    def lane_naturals(self) -> str: ...
    @property
    def lane_after_mg_pinned(self) -> str: ...


def lane_readings(inp: LaneOptions, length: str = "to_target") -> LaneReadings:
    """The lane options as the lanes' readings (checked there, in one line)."""
    return validate(
        LaneReadings,
        {
            "first_side": inp.lane_side,
            "length": length,
            "naturals": inp.lane_naturals,
            "after_mg_pinned": inp.lane_after_mg_pinned,
        },
    )


def standing(
    inp: LaneOptions, scenario: BoardScenario, readings: LaneReadings, side: str
) -> tuple[FireLane, ...]:
    """The standing lanes named, laid on the scenario's board by the MGs of the sides not
    moving (``side`` moves)."""
    pairs = parse_lane_pairs(inp.standing_lanes or "")
    return tuple(lanes_laid_earlier(scenario, pairs, readings, side=side))


LANE_ERRORS = {
    "first_side": "lane_side",
    "length": "lane_length",
    "naturals": "lane_naturals",
    "after_mg_pinned": "lane_after_mg_pinned",
}
"""The lanes' readings as the commands name them (``'--lane-side'``; the web says
``'first_side'``, the reading's own name)."""


class ThreatInput(RuleInput):
    """``firefight threat``: the side about to move, its stack, the map for vehicles."""

    side: str = Field(
        max_length=40, description="The side about to move (its key in the scenario)."
    )
    stack: str | None = Field(
        None,
        max_length=8,
        description="The moving stack's hex: its units are the target (else a full squad).",
    )
    assault: bool = Field(
        False, description="The target moves with Assault Movement (6.4: +1 cover)."
    )
    standing_lanes: str | None = standing_lanes_field(
        "Fire lanes standing when the side moves (13.9): FROM-TO,... (0301-0305)."
    )
    lane_side: str = LANE_SIDE
    lane_naturals: str = LANE_NATURALS
    lane_after_mg_pinned: str = LANE_AFTER_MG_PINNED
    at: str | None = Field(
        None,
        max_length=400,
        description="The map for vehicles: enemy units firing AT, ID=LETTER,... (18.4).",
    )
    armour: str | None = Field(
        None,
        validation_alias=AliasChoices("armour", "armor"),
        max_length=20,
        description="When AT firers are given: the AFV's Armor Ratings FRONT,REAR (18.5).",
    )
    heading: int | None = Field(
        None,
        description=(
            "When AT firers are given: the hexside the AFV moves towards, 1-6 (default: the "
            "moving stack's)."
        ),
    )
    vehicle: str | None = Field(
        None,
        max_length=20,
        description=(
            "When AT firers are given: afv, unarmoured_vehicle or gun (default: the moving "
            "stack's, else afv)."
        ),
    )


class MoveInput(RuleInput):
    """``firefight move``: a stack, its path and how the enemy fires on it; the exact odds, or
    one move with ``seed`` or ``roll``."""

    stack: str = Field(max_length=8, description="The hex of the moving stack (0206).")
    path: list[str] | None = Field(
        None,
        max_length=40,
        description=(
            "The hexes it enters, in order (0306,0406,...); or a destination instead, to search."
        ),
    )
    units: list[str] | None = Field(
        None,
        max_length=40,
        description="The ids of the units that move (default: every unpinned unit).",
    )
    assault: bool = Field(False, description="Assault Movement: half MPs, +1 cover (6.4).")
    policy: str = Field(
        "threshold",
        max_length=20,
        description="Who fires where: threshold, first_sight, best_shot, player, or optimal "
        "(the defender's best fire hex by hex, exact).",
    )
    threshold: str = Field(
        "1", max_length=40, description="The threshold policy's expected CPs (default 1)."
    )
    player: dict[str, str] | None = Field(
        None,
        max_length=40,
        description="The player policy's choice: FIRER=HEX,... (unit id or 'sniper').",
    )
    fortification_cover: str = Field(
        "path_end",
        max_length=20,
        description="A fortification's cover for movers: path_end, always or never.",
    )
    lanes: str = Field(
        "always",
        max_length=20,
        description="Fire lanes (13.9): always = MGs firing on opportunity lay them; never.",
    )
    lane_side: str = LANE_SIDE
    lane_length: str = Field(
        "to_target", max_length=20, description="A lane's length: to_target (13.9) or to_mg_range."
    )
    lane_naturals: str = LANE_NATURALS
    lane_after_mg_pinned: str = LANE_AFTER_MG_PINNED
    standing_lanes: str | None = standing_lanes_field(
        "Lanes laid earlier in the Movement Phase: FROM-TO,... (0301-0305)."
    )
    overrun: bool = Field(
        False, description="The AFV overruns the path's last hex (19): exit hex, fire, odds."
    )
    armour: str | None = Field(
        None,
        validation_alias=AliasChoices("armour", "armor"),
        max_length=400,
        description="The moving AFVs' Armor Ratings FRONT,REAR or ID=FRONT/REAR,... (18.5).",
    )
    at: str | None = Field(
        None,
        max_length=400,
        description="Enemy units firing AT and their AT FP letter (18.4): ID=D,...",
    )
    at_threshold: str = Field(
        "1/3",
        max_length=40,
        description="The threshold policy's chance of stopping a vehicle (default 1/3).",
    )
    passenger_apfp: int | None = Field(
        None,
        ge=0,
        le=40,
        description=(
            "When the AFV overruns: the APFP of the infantry it carries, if the scenario has "
            "none (19.4)."
        ),
    )
    position_cost: str = Field(
        "not_charged",
        max_length=20,
        description="When the AFV overruns: the target position's 20.3 +1: not_charged, charged.",
    )
    casualty_policy: str = Field(
        "least_rating_lost",
        max_length=20,
        description=(
            "How the owner of the units hit applies the CPs where no allocation gives their "
            "order (14.6): least_rating_lost or in_order."
        ),
    )
    allocation: (
        dict[
            Annotated[str, Field(max_length=8)],
            Annotated[list[Annotated[str, Field(max_length=40)]], Field(max_length=12)],
        ]
        | None
    ) = Field(
        None,
        max_length=40,
        description=(
            "The owner's order of the units taking the CPs, first the most (14.6): "
            "HEX=ID/ID,... per hex hit, all=ID/ID (or ID/ID) for the others."
        ),
    )
    seed: int | None = Field(
        None, ge=0, le=SEED_MAX, description="Resolve one move with seeded dice (replayable)."
    )
    roll: str | list[str] | None = Field(
        None, max_length=4000, description="Resolve one move with the dice rolled at the table."
    )
    to: str | None = Field(
        None,
        max_length=8,
        description="Search the safest paths to this hex instead of evaluating a path.",
    )
    objective: Literal["unpinned", "not_eliminated", "cps"] = Field(
        "unpinned",
        description="When a destination is given: what ranks the paths: every unit unpinned "
        "(the default), no unit eliminated, or the fewest expected CPs.",
    )
    top: int = Field(
        3,
        ge=1,
        le=10,
        description="When a destination is given: how many of the best paths to show.",
    )
