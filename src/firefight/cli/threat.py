"""``firefight threat SCENARIO --side SIDE``: the V&V threat map of a side's move (issue 15):
for each hex, the enemy units that could fire on a unit entering it on opportunity (13.8) and
the exact chance of being pinned or worse there (docs/vv.md, "Threat map")."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer


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
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Also draw the threat map to this .png or .svg file."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
) -> None:
    """Where the enemy can fire on a side's units as they move, and how likely a pin is."""
    from firefight.rulesets.vv.scenario import load_scenario  # noqa: PLC0415 - fast start-up
    from firefight.rulesets.vv.threat import threat_json, threat_map  # noqa: PLC0415

    found = load_scenario(scenario)
    origin = None
    if stack is not None:
        from firefight.errors import InputError  # noqa: PLC0415

        try:
            origin = found.board.hex(stack)
        except InputError as error:
            raise InputError("stack", error.allowed, stack) from None
    answer = threat_map(found, side, stack=origin, assault_movement=assault)
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


def _show(answer: object) -> None:
    from rich.table import Table  # noqa: PLC0415

    from firefight.cli.render import console  # noqa: PLC0415
    from firefight.rulesets.vv.threat import ThreatMap  # noqa: PLC0415

    assert isinstance(answer, ThreatMap)
    label = answer.scenario.board.label
    side = answer.scenario.sides.get(answer.side, answer.side)
    out = console()
    out.print(f"[bold]{answer.scenario.name}[/bold]: threat map of the move of {side}")
    out.print(f"target: {answer.target.description}")
    groups = ", ".join(f"{g.id} in {label(g.hex)}" for g in answer.groups)
    out.print(f"enemy units able to fire on opportunity: {groups or 'none'}")
    table = Table(title="Hexes under fire (most dangerous first)")
    table.add_column("hex")
    table.add_column("firers")
    table.add_column("pinned or worse", justify="right")
    table.add_column("%", justify="right")
    ranked = sorted(answer.hexes.values(), key=lambda t: (-t.pinned_or_worse, t.hex))
    for threat in ranked:
        firers = ", ".join(f"{f.group.id} ({float(f.pinned_or_worse):.0%})" for f in threat.firers)
        table.add_row(
            label(threat.hex),
            firers,
            str(threat.pinned_or_worse),
            f"{float(threat.pinned_or_worse) * 100:.2f}",
        )
    out.print(table)
    total = answer.scenario.board.columns * answer.scenario.board.rows
    out.print(f"{len(answer.hexes)} of {total} hexes under fire")
