"""``firefight move SCENARIO --stack HEX --path HEX,HEX,...``: a V&V stack's move under
opportunity fire (issue 15): the exact odds along the path, or one move resolved with seeded
dice (``--seed``) or the dice rolled at the table (``--roll``), with its whole trace.

``--json`` prints :meth:`~firefight.rulesets.vv.opportunity.MoveOdds.to_json` (or
:meth:`~firefight.rulesets.vv.opportunity.MoveResolution.to_json`); docs/vv.md documents both
shapes. ``--out picture.png|svg`` draws the board, the units and the path with
:func:`draw_move`, the one function to extend for more on the picture.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from firefight.board.hexes import Hex
    from firefight.rulesets.vv.movement import MovePlan
    from firefight.rulesets.vv.opportunity import MoveOdds, MoveResolution

PATH_COLOUR = "#1f4e9c"
SIDE_COLOURS = ("#1f4e9c", "#8b0000")


def _emit(data: object) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def parse_fire(text: str) -> dict[str, str]:
    """``--fire FIRER=HEX,...`` for the player policy: the hex where each firer fires."""
    from firefight.errors import InputError  # noqa: PLC0415 - lazy: fast start-up

    found: dict[str, str] = {}
    for token in (t.strip() for t in text.split(",")):
        if not token:
            continue
        name, sep, hex_label = token.partition("=")
        if not sep or not name.strip() or not hex_label.strip():
            raise InputError("fire", "FIRER=HEX pairs separated by commas (de-mg=0606)", token)
        found[name.strip()] = hex_label.strip()
    return found


def parse_threshold(text: str) -> Fraction:
    """``--threshold`` as an exact number (``1``, ``1.5``, ``3/2``), at least 0."""
    from firefight.errors import InputError  # noqa: PLC0415 - lazy: fast start-up

    try:
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise InputError("threshold", "a number of at least 0 (1, 1.5 or 3/2)", text) from None
    if value < 0 or len(text) > 20:
        raise InputError("threshold", "a number of at least 0 (1, 1.5 or 3/2)", text)
    return value


def draw_move(
    out: Path,
    plan: MovePlan,
    *,
    odds: MoveOdds | None = None,
    resolution: MoveResolution | None = None,
    notes: Mapping[Hex, str] | None = None,
) -> Path:
    """Draw the board with every unit (a counter per hex: side and number of units), the
    stack's path, and per hex of the path the chance that the first pin or worse happens
    there (with ``odds``) or where each unit stopped (with ``resolution``). ``notes`` adds
    text per hex (the threat map's helper extends the picture here)."""
    from firefight.board.render import render_board  # noqa: PLC0415 - matplotlib is slow

    scenario = plan.scenario
    board = scenario.board
    units: dict[Hex, str] = {}
    for unit in scenario.units:
        here = scenario.units_at(unit.hex)
        units[unit.hex] = f"{unit.side}{len(here)}" if len(here) > 1 else unit.id[:6]
    written: dict[Hex, str] = dict(notes or {})
    title = f"{scenario.name}: {board.label(plan.start)} to {plan.steps[-1].label}"
    if odds is not None:
        for step, p in zip(plan.steps, odds.first_hit, strict=True):
            if p:
                written.setdefault(step.hex, f"{100 * float(p):.0f}%")
        title += f" ({odds.policy})"
    if resolution is not None:
        for unit_id, (condition, where) in resolution.outcome().items():
            hex_ = board.hex(where)
            text = f"{unit_id} {condition}"
            written[hex_] = f"{written[hex_]}; {text}" if hex_ in written else text
    return render_board(
        board,
        out,
        units=units,
        title=title,
        paths=[(plan.hexes, PATH_COLOUR)],
        notes=written,
    )


def move(  # noqa: PLR0917 - Typer passes each option as a parameter
    scenario: Annotated[
        str, typer.Argument(help="A V&V scenario file (TOML) or a sample's name: village.")
    ],
    stack: Annotated[str, typer.Option("--stack", help="The hex of the moving stack (0206).")],
    path: Annotated[
        str, typer.Option("--path", help="The hexes it enters, in order (0306,0406,...).")
    ],
    units: Annotated[
        str | None,
        typer.Option(help="The ids of the units that move (default: every unpinned unit)."),
    ] = None,
    assault: Annotated[
        bool, typer.Option("--assault", help="Assault Movement: half MPs, +1 cover (6.4).")
    ] = False,
    policy: Annotated[
        str,
        typer.Option(help="Who fires where: threshold, first_sight, best_shot or player."),
    ] = "threshold",
    threshold: Annotated[
        str, typer.Option(help="The threshold policy's expected CPs (default 1).")
    ] = "1",
    fire: Annotated[
        str | None,
        typer.Option(help="The player policy's choice: FIRER=HEX,... (unit id or 'sniper')."),
    ] = None,
    fortification_cover: Annotated[
        str,
        typer.Option(help="A fortification's cover for movers: path_end, always or never."),
    ] = "path_end",
    seed: Annotated[
        int | None, typer.Option(help="Resolve one move with seeded dice (replayable).")
    ] = None,
    roll: Annotated[
        str | None, typer.Option(help="Resolve one move with the dice rolled at the table.")
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Also draw the board and the path (.png, .svg).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
) -> None:
    """A V&V stack's move under opportunity fire: exact odds along the path, or one move."""
    from firefight.errors import InputError  # noqa: PLC0415 - lazy: fast start-up
    from firefight.faces import parse_roll  # noqa: PLC0415
    from firefight.rulesets.vv.movement import plan_move  # noqa: PLC0415
    from firefight.rulesets.vv.opportunity import (  # noqa: PLC0415
        POLICIES,
        move_odds,
        resolve_move,
    )
    from firefight.rulesets.vv.scenario import load_scenario  # noqa: PLC0415

    if seed is not None and roll is not None:
        raise InputError("seed/roll", "at most one of --seed N or --roll V[,V...]", "both")
    if seed is not None and seed < 0:
        raise InputError("seed", "an integer of at least 0", seed)
    if policy not in POLICIES:
        raise InputError("policy", "one of " + ", ".join(POLICIES), policy)
    if fire is not None and policy != "player":
        raise InputError("fire", "given with --policy player only", fire)
    if fortification_cover not in ("path_end", "always", "never"):
        raise InputError(
            "fortification_cover", "one of path_end, always, never", fortification_cover
        )
    cover = fortification_cover  # checked above
    if out is not None and out.suffix.lower() not in (".png", ".svg"):
        raise InputError("out", "a file name ending in .png or .svg", str(out))
    level = parse_threshold(threshold)
    choice = parse_fire(fire or "")
    loaded = load_scenario(scenario)
    hexes = [h.strip() for h in path.split(",") if h.strip()]
    ids = [u.strip() for u in units.split(",") if u.strip()] if units else None
    plan = plan_move(loaded, stack.strip(), hexes, units=ids, assault=assault)
    options = {
        "threshold": level,
        "player": choice,
        "fortification_cover": cover,
    }
    if seed is not None or roll is not None:
        run = resolve_move(
            plan,
            policy,
            seed=seed,
            roll=parse_roll(roll) if roll is not None else None,
            **options,  # type: ignore[arg-type]
        )
        if out is not None:
            sys.stderr.write(f"drawn to {draw_move(out, plan, resolution=run)}\n")
        if as_json:
            _emit(run.to_json())
            return
        _show_run(run)
        return
    odds = move_odds(plan, policy, **options)  # type: ignore[arg-type]
    if out is not None:
        sys.stderr.write(f"drawn to {draw_move(out, plan, odds=odds)}\n")
    if as_json:
        _emit(odds.to_json())
        return
    _show_odds(odds)


def _percent(p: Fraction) -> str:
    return f"{100 * float(p):6.2f}"


def _show_odds(odds: MoveOdds) -> None:
    from rich.markup import escape  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415

    from firefight.cli.render import console  # noqa: PLC0415

    out = console()
    plan = odds.model.plan
    board = plan.scenario.board
    out.print(
        f"[bold]{escape(plan.scenario.name)}[/bold]: {', '.join(u.id for u in plan.stack)} "
        f"from {board.label(plan.start)} (policy {odds.policy}; exact, {odds.states} states)"
    )
    fire_at: dict[int, list[str]] = {}
    for attack in odds.model.attacks:
        total = 0 if attack.attack is None else attack.attack.apfp
        fire_at.setdefault(attack.index, []).append(
            f"{attack.firer.id} (APFP {total}, E[CP] {float(attack.expected_cps):.2f})"
            if attack.attack is not None
            else f"{attack.firer.id} (cover {attack.target_cover})"
        )
    table = Table(title="Along the path")
    for column in ("hex", "terrain", "MP spent", "may fire", "fires", "first pin %"):
        table.add_column(column)
    for step, p in zip(plan.steps, odds.first_hit, strict=True):
        may = sorted(
            f for f, opts in odds.options.items() if any(o.index == step.index for o in opts)
        )
        table.add_row(
            step.label,
            step.terrain + (f", {step.fortification}" if step.fortification else ""),
            " ".join(str(v) for v in dict.fromkeys(step.spent.values())),
            escape(", ".join(may)),
            escape("; ".join(fire_at.get(step.index, []))),
            _percent(p),
        )
    out.print(table)
    ends = Table(title="Each unit: how it ends and where it stops")
    for column in ("unit", "state", "hex", "%", "exact"):
        ends.add_column(column)
    for unit_id, dist in odds.units.items():
        for (condition, where), p in sorted(dist.items(), key=lambda kv: -kv[1]):
            text = str(p)
            ends.add_row(
                unit_id, condition, where, _percent(p), text if len(text) <= 24 else "--json"
            )
    out.print(ends)


def _show_run(run: MoveResolution) -> None:
    from rich.markup import escape  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415

    from firefight.cli.render import console  # noqa: PLC0415

    out = console()
    plan = run.model.plan
    source = f"seed {run.run.seed}" if run.run.seed is not None else "your dice"
    out.print(f"[bold]{escape(plan.scenario.name)}[/bold] ({source})")
    for step in run.run.steps:
        label = plan.steps[step.after.at - 1].label if step.after.at else plan.steps[0].label
        if not step.trace:
            out.print(f"hex {step.number}: {label}, no fire")
            continue
        table = Table(title=f"Hex {step.number}: {label}")
        table.add_column("event")
        table.add_column("value")
        for event in step.trace:
            table.add_row(escape(event.label), escape(str(event)[len(event.label) + 2 :]))
        out.print(table)
    for unit_id, (condition, where) in run.outcome().items():
        out.print(f"{escape(unit_id)}: {condition} in {where}")
    out.print(f"[dim]replay with: --roll {escape(','.join(run.run.replay_values()))}[/dim]")
