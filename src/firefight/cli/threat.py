"""``firefight threat SCENARIO --side SIDE``: the V&V threat map of a side's move (issue 15):
for each hex, the enemy units that could fire on a unit entering it on opportunity (13.8) and
the exact chance of being pinned or worse there (docs/vv.md, "Threat map")."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from firefight.cli.move import LaneAfterMgPinnedOption, LaneNaturalsOption, LaneSideOption

if TYPE_CHECKING:
    from firefight.board.hexes import Hex
    from firefight.rulesets.vv.scenario import Scenario


def threat(  # noqa: PLR0917 - Typer passes each option as a parameter
    scenario: Annotated[
        str, typer.Argument(help="A V&V scenario file (TOML) or a sample's name: village.")
    ],
    side: Annotated[
        str, typer.Option("--side", help="The side about to move (its key in the scenario).")
    ],
    stack: Annotated[
        str | None,
        typer.Option(
            "--stack", help="The moving stack's hex: its units are the target (else a full squad)."
        ),
    ] = None,
    assault: Annotated[
        bool,
        typer.Option("--assault", help="The target moves with Assault Movement (6.4: +1 cover)."),
    ] = False,
    standing_lanes: Annotated[
        str | None,
        typer.Option(
            help="Fire lanes standing when the side moves (13.9): FROM-TO,... (0301-0305)."
        ),
    ] = None,
    lane_side: LaneSideOption = "left",
    lane_naturals: LaneNaturalsOption = "none",
    lane_after_mg_pinned: LaneAfterMgPinnedOption = "stays",
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Also draw the threat map to this .png or .svg file."),
    ] = None,
    at: Annotated[
        str | None,
        typer.Option(help="The map for vehicles: enemy units firing AT, ID=LETTER,... (18.4)."),
    ] = None,
    armour: Annotated[
        str | None, typer.Option(help="With --at: the AFV's Armor Ratings FRONT,REAR (18.5).")
    ] = None,
    heading: Annotated[
        int | None,
        typer.Option(
            help="With --at: the hexside the AFV moves towards, 1-6 (default: --stack's)."
        ),
    ] = None,
    vehicle: Annotated[
        str | None,
        typer.Option(
            help="With --at: afv, unarmoured_vehicle or gun (default: --stack's, else afv)."
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
) -> None:
    """Where the enemy can fire on a side's units as they move, and how likely a pin is."""
    from firefight.cli.move import lane_readings, parse_standing_lanes  # noqa: PLC0415
    from firefight.errors import InputError  # noqa: PLC0415
    from firefight.rulesets.vv.lanes import lanes_laid_earlier  # noqa: PLC0415
    from firefight.rulesets.vv.scenario import load_scenario  # noqa: PLC0415 - fast start-up
    from firefight.rulesets.vv.threat import threat_json, threat_map  # noqa: PLC0415

    found = load_scenario(scenario)
    origin = None
    if stack is not None:
        try:
            origin = found.board.hex(stack)
        except InputError as error:
            raise InputError("stack", error.allowed, stack) from None
    if at is not None:
        _vehicles(
            found,
            side,
            origin,
            at=at,
            armour=armour,
            heading=heading,
            vehicle=vehicle,
            out=out,
            as_json=as_json,
        )
        return
    for name, value in (("armour", armour), ("heading", heading), ("vehicle", vehicle)):
        if value is not None:
            raise InputError(name, "given with --at (the map for vehicles)", value)
    readings = lane_readings(lane_side, "to_target", lane_naturals, lane_after_mg_pinned)
    lanes = lanes_laid_earlier(found, parse_standing_lanes(standing_lanes or ""), readings)
    answer = threat_map(
        found,
        side,
        stack=origin,
        assault_movement=assault,
        lanes=lanes,
        lane_readings=readings,
    )
    if out is not None:
        from firefight.board.render import render_board  # noqa: PLC0415 - matplotlib is slow
        from firefight.rulesets.vv.threat import threat_overlay  # noqa: PLC0415

        written = render_board(
            found.board, out, overlay=threat_overlay(answer), title=f"{found.name}: threat map"
        )
        sys.stderr.write(f"drawn to {written}\n")
    if as_json:
        sys.stdout.write(json.dumps(threat_json(answer), indent=2, ensure_ascii=False) + "\n")
        return
    _show(answer)


def _vehicles(
    found: Scenario,
    side: str,
    origin: Hex | None,
    *,
    at: str,
    armour: str | None,
    heading: int | None,
    vehicle: str | None,
    out: Path | None,
    as_json: bool,
) -> None:
    """``threat --at``: the AT threat map of the side's vehicles (13.8, 18; docs/vv.md)."""
    from firefight.cli.move import armour_letters, parse_pairs  # noqa: PLC0415
    from firefight.rulesets.vv.at_move import vehicle_threat  # noqa: PLC0415

    moving = [u for u in found.units_at(origin) if u.side == side] if origin else []
    afvs = [u for u in moving if u.type == "afv"]
    kind = vehicle or ("afv" if afvs or not moving else moving[0].type)
    if heading is None and afvs:
        heading = afvs[0].facing
    answer = vehicle_threat(
        found,
        side,
        parse_pairs("at", at, "de-pak=D"),
        vehicle=kind,
        armour=armour_letters(armour) if armour is not None else None,
        heading=heading,
        skip=origin,
    )
    label = found.board.label
    if out is not None:
        from firefight.board.overlay import Overlay  # noqa: PLC0415
        from firefight.board.render import render_board  # noqa: PLC0415 - matplotlib is slow
        from firefight.rulesets.vv.threat import scenario_counters  # noqa: PLC0415

        overlay = Overlay(
            counters=scenario_counters(found),
            shading={h: t.stopped for h, t in answer.hexes.items()},
            notes={h: f"{float(t.stopped):.0%}" for h, t in answer.hexes.items()},
            legend=f"{side}: P({kind} stopped by AT fire) on entering",
        )
        title = f"{found.name}: AT threat map"
        sys.stderr.write(
            f"drawn to {render_board(found.board, out, overlay=overlay, title=title)}\n"
        )
    if as_json:
        data = {
            "scenario": found.name,
            "side": side,
            "stack": label(origin) if origin else None,
            **answer.to_json(),
        }
        sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        return
    from rich.table import Table  # noqa: PLC0415

    from firefight.cli.render import console  # noqa: PLC0415

    facing = (
        f", heading {answer.heading}, armour {'/'.join(answer.armour)}" if answer.armour else ""
    )
    console().print(f"[bold]{found.name}[/bold]: AT threat map of {side}'s {kind}{facing}")
    table = Table(title="Hexes under AT fire (most dangerous first)")
    for column in ("hex", "firers", "stopped", "%"):
        table.add_column(column)
    for threat in sorted(answer.hexes.values(), key=lambda t: (-t.stopped, t.hex)):
        firers = ", ".join(
            f"{unit_id} ({attack.facing if attack.target == 'afv' else 'hit'}, {float(p):.0%})"
            for unit_id, attack, p in threat.firers
        )
        table.add_row(
            label(threat.hex), firers, str(threat.stopped), f"{float(threat.stopped) * 100:.2f}"
        )
    console().print(table)


def _show(answer: object) -> None:
    from rich.markup import escape  # noqa: PLC0415 - names and ids are the scenario's text
    from rich.table import Table  # noqa: PLC0415

    from firefight.cli.render import console  # noqa: PLC0415
    from firefight.rulesets.vv.threat import ThreatMap  # noqa: PLC0415

    assert isinstance(answer, ThreatMap)
    label = answer.scenario.board.label
    side = answer.scenario.sides.get(answer.side, answer.side)
    out = console()
    out.print(
        f"[bold]{escape(answer.scenario.name)}[/bold]: threat map of the move of {escape(side)}"
    )
    out.print(f"target: {answer.target.description}")
    groups = ", ".join(f"{g.id} in {label(g.hex)}" for g in answer.groups)
    out.print(f"enemy units able to fire on opportunity: {escape(groups) or 'none'}")
    table = Table(title="Hexes under fire (most dangerous first)")
    table.add_column("hex")
    table.add_column("firers")
    table.add_column("pinned or worse", justify="right")
    table.add_column("%", justify="right")
    ranked = sorted(answer.hexes.values(), key=lambda t: (-t.pinned_or_worse, t.hex))
    for threat in ranked:
        firers = ", ".join(f"{f.group.id} ({float(f.pinned_or_worse):.0%})" for f in threat.firers)
        if threat.lanes is not None:
            marks = threat.lanes
            firers += (", " if firers else "") + (
                f"fire lane x{marks.markers} ({float(marks.hit):.0%}; 13.9)"
            )
        table.add_row(
            label(threat.hex),
            escape(firers),
            str(threat.pinned_or_worse),
            f"{float(threat.pinned_or_worse) * 100:.2f}",
        )
    out.print(table)
    for lane in answer.lanes:
        hexes = " ".join(label(h) for h in lane.hexes)
        out.print(f"Fire lane {lane.mg} from {label(lane.firer)}: {hexes} (standing; 13.9)")
    total = answer.scenario.board.columns * answer.scenario.board.rows
    out.print(f"{len(answer.hexes)} of {total} hexes under fire")
