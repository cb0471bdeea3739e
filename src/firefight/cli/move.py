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
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from firefight.cli.integers import ascii_integer
from firefight.digits import SEED_MAX

if TYPE_CHECKING:
    from firefight.board.hexes import Hex
    from firefight.chance import Resolution
    from firefight.rulesets.vv.at_move import AtMove
    from firefight.rulesets.vv.lanes import FireLane, LaneReadings
    from firefight.rulesets.vv.lanes_move import LaneMove
    from firefight.rulesets.vv.movement import MovePlan
    from firefight.rulesets.vv.opportunity import MoveOdds, MoveResolution
    from firefight.rulesets.vv.overrun import OverrunOutcome
    from firefight.rulesets.vv.overrun_move import OverrunOdds, OverrunSetup
    from firefight.rulesets.vv.scenario import Scenario

PATH_COLOUR = "#1f4e9c"
LANE_COLOUR = "#d2691e"
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


def parse_threshold(text: str, field: str = "threshold") -> Fraction:
    """``--threshold`` (or ``field``) as an exact number (``1``, ``1.5``, ``3/2``), at least 0."""
    from firefight.errors import InputError  # noqa: PLC0415 - lazy: fast start-up

    try:
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise InputError(field, "a number of at least 0 (1, 1.5 or 3/2)", text) from None
    if value < 0 or len(text) > 20:
        raise InputError(field, "a number of at least 0 (1, 1.5 or 3/2)", text)
    return value


def parse_chance(text: str, field: str) -> Fraction:
    """A chance from 0 to 1 as an exact number (``1/3``, ``0.25``): ``--at-threshold``."""
    from firefight.errors import InputError  # noqa: PLC0415 - lazy: fast start-up

    value = parse_threshold(text, field)
    if value > 1:
        raise InputError(field, "a chance from 0 to 1 (1/3, 0.25)", text)
    return value


def move_armour(text: str) -> tuple[str, str] | dict[str, tuple[str, str]]:
    """``--armour FRONT,REAR`` for every moving AFV, or ``ID=FRONT/REAR,...`` per AFV (one
    letter: the only Armor Rating, 18.5)."""
    if "=" not in text:
        return armour_letters(text)
    return {
        unit_id: armour_letters(letters.replace("/", ","))
        for unit_id, letters in parse_pairs("armour", text, "us-t1=E/C").items()
    }


def armour_letters(text: str) -> tuple[str, str]:
    """``--armour FRONT,REAR`` (one letter: the only Armor Rating, serving every facing,
    18.5); the letters are checked where they are read."""
    from firefight.errors import InputError  # noqa: PLC0415 - lazy: fast start-up

    parts = [a.strip() for a in text.split(",")]
    if len(parts) == 1:
        parts *= 2  # one printed Armor Rating serves every facing (18.5)
    if len(parts) != 2:
        raise InputError("armour", "FRONT,REAR Armor Ratings A-F (18.5)", text)
    return parts[0], parts[1]


def parse_pairs(field: str, text: str, example: str) -> dict[str, str]:
    """``KEY=VALUE,...`` (``--at de-sq1=D``), one line naming ``field`` when malformed."""
    from firefight.errors import InputError  # noqa: PLC0415 - lazy: fast start-up

    found: dict[str, str] = {}
    for token in (t.strip() for t in text.split(",")):
        if not token:
            continue
        key, sep, value = token.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise InputError(field, f"KEY=VALUE pairs separated by commas ({example})", token)
        found[key.strip()] = value.strip()
    return found


def parse_standing_lanes(text: str) -> list[tuple[str, str]]:
    """``--standing-lanes FROM-TO,...``: lanes laid earlier in the Movement Phase (13.9)."""
    from firefight.rulesets.vv.lanes import parse_lane_pairs  # noqa: PLC0415 - fast start-up

    return parse_lane_pairs(text)


LaneSideOption = Annotated[
    str, typer.Option(help="A staggered lane's first marker: left or right of its LOS.")
]
"""``--lane-side``, shared by ``firefight move`` and ``firefight threat`` (13.9)."""
LaneNaturalsOption = Annotated[
    str, typer.Option(help="Lane rolls call for valor and snipers: none or valor_and_sniper.")
]
"""``--lane-naturals``, shared by ``firefight move`` and ``firefight threat`` (13.91)."""
LaneAfterMgPinnedOption = Annotated[
    str,
    typer.Option(help="A standing lane whose MG is pinned or eliminated: stays (13.9) or removed."),
]
"""``--lane-after-mg-pinned``, shared by ``firefight move`` and ``firefight threat`` (13.9)."""


def draw_move(
    out: Path,
    plan: MovePlan,
    *,
    odds: MoveOdds | None = None,
    resolution: MoveResolution | None = None,
    notes: Mapping[Hex, str] | None = None,
    lanes: Sequence[Sequence[Hex]] = (),
    standing: Sequence[FireLane] = (),
) -> Path:
    """Draw the board with every unit (counters by side, :mod:`firefight.board.overlay`), the
    fortifications and snipers (named under their hex), the stack's path, the threat map of the
    stack's move shaded under it (its units the target:
    :func:`~firefight.rulesets.vv.threat.threat_map`), and per hex of the path the chance that
    the first pin or worse happens there (with ``odds``) or where each unit stopped (with
    ``resolution``). ``notes`` adds text per hex. ``lanes``: each fire lane, its MG's hex
    first (13.9), drawn as a chain of markers (a move's own: :meth:`LaneMove.lane_paths`);
    ``standing``: the lanes laid before the move, whose attacks join the threat shading."""
    from dataclasses import replace  # noqa: PLC0415

    from firefight.board.render import render_board  # noqa: PLC0415 - matplotlib is slow
    from firefight.rulesets.vv.threat import threat_map, threat_overlay  # noqa: PLC0415

    scenario = plan.scenario
    board = scenario.board
    written: dict[Hex, str] = dict(notes or {})
    drawn_lanes = list(lanes)
    for fort in scenario.fortifications:
        written.setdefault(fort.hex, fort.kind.replace("_", " "))
    for sniper in scenario.snipers:
        text = f"sniper ({sniper.side})"
        written[sniper.hex] = f"{written[sniper.hex]}; {text}" if sniper.hex in written else text
    title = f"{scenario.name}: {board.label(plan.start)} to {plan.steps[-1].label}"
    if odds is not None:
        for step, p in zip(plan.steps, odds.first_hit, strict=True):
            if p:
                chance = f"{100 * float(p):.0f}%"
                written[step.hex] = (
                    f"{written[step.hex]}; {chance}" if step.hex in written else chance
                )
        title += f" ({odds.policy})"
    if resolution is not None:
        for unit_id, (condition, where) in resolution.outcome().items():
            hex_ = board.hex(where)
            text = f"{unit_id} {condition}"
            written[hex_] = f"{written[hex_]}; {text}" if hex_ in written else text
    everyone_infantry = all(u.is_infantry for u in plan.stack)
    stack = (
        plan.start
        if everyone_infantry and len(plan.stack) == len(scenario.units_at(plan.start))
        else None
    )
    threat = threat_map(
        scenario, plan.side, stack=stack, assault_movement=plan.assault, lanes=standing
    )
    overlay = replace(
        threat_overlay(threat, path=plan.hexes),
        notes=written,
        lanes=tuple(tuple(lane) for lane in drawn_lanes),
    )
    return render_board(board, out, title=title, overlay=overlay)


def move(  # noqa: PLR0917 - Typer passes each option as a parameter, each checked
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
    lanes: Annotated[
        str,
        typer.Option(help="Fire lanes (13.9): always = MGs firing on opportunity lay them; never."),
    ] = "always",
    lane_side: LaneSideOption = "left",
    lane_length: Annotated[
        str, typer.Option(help="A lane's length: to_target (13.9) or to_mg_range.")
    ] = "to_target",
    lane_naturals: LaneNaturalsOption = "none",
    lane_after_mg_pinned: LaneAfterMgPinnedOption = "stays",
    standing_lanes: Annotated[
        str | None,
        typer.Option(help="Lanes laid earlier in the Movement Phase: FROM-TO,... (0301-0305)."),
    ] = None,
    overrun: Annotated[
        bool,
        typer.Option(
            "--overrun", help="The AFV overruns the path's last hex (19): exit hex, fire, odds."
        ),
    ] = False,
    armour: Annotated[
        str | None,
        typer.Option(help="The moving AFVs' Armor Ratings FRONT,REAR or ID=FRONT/REAR,... (18.5)."),
    ] = None,
    at: Annotated[
        str | None,
        typer.Option(help="Enemy units firing AT and their AT FP letter (18.4): ID=D,..."),
    ] = None,
    at_threshold: Annotated[
        str,
        typer.Option(help="The threshold policy's chance of stopping a vehicle (default 1/3)."),
    ] = "1/3",
    position_cost: Annotated[
        str,
        typer.Option(help="With --overrun: the target position's 20.3 +1: not_charged, charged."),
    ] = "not_charged",
    seed: Annotated[
        int | None,
        typer.Option(
            parser=ascii_integer(0, SEED_MAX),
            help="Resolve one move with seeded dice (replayable).",
        ),
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
    from firefight.errors import InputError, one_of  # noqa: PLC0415 - lazy: fast start-up
    from firefight.faces import parse_roll  # noqa: PLC0415
    from firefight.rulesets.vv.at_move import build_at_move  # noqa: PLC0415
    from firefight.rulesets.vv.lanes import lanes_laid_earlier  # noqa: PLC0415
    from firefight.rulesets.vv.movement import plan_move  # noqa: PLC0415
    from firefight.rulesets.vv.opportunity import (  # noqa: PLC0415
        POLICIES,
        model_odds,
        model_run,
    )
    from firefight.rulesets.vv.scenario import load_scenario  # noqa: PLC0415

    if seed is not None and roll is not None:
        raise InputError("seed/roll", "at most one of --seed N or --roll V[,V...]", "both")
    if policy not in POLICIES:
        raise InputError("policy", one_of(POLICIES), policy)
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
    if overrun:
        _overrun(
            loaded,
            stack.strip(),
            hexes,
            armour=armour,
            at=at,
            position_cost=position_cost,
            seed=seed,
            roll=roll,
            out=out,
            as_json=as_json,
        )
        return
    at_level = parse_chance(at_threshold, "at_threshold")
    ids = [u.strip() for u in units.split(",") if u.strip()] if units else None
    plan = plan_move(loaded, stack.strip(), hexes, units=ids, assault=assault)
    readings = lane_readings(lane_side, lane_length, lane_naturals, lane_after_mg_pinned)
    standing = lanes_laid_earlier(loaded, parse_standing_lanes(standing_lanes or ""), readings)
    whole = build_at_move(
        plan,
        policy,
        threshold=level,
        at_threshold=at_level,
        player=choice,
        ratings=parse_pairs("at", at or "", "de-sq1=D"),
        armour=move_armour(armour) if armour is not None else None,
        fortification_cover=cover,  # type: ignore[arg-type]
        lanes=lanes,
        lane_readings=readings,
        standing=standing,
    )
    move_ = whole.lanes
    if seed is not None or roll is not None:
        run = model_run(move_.model, seed=seed, roll=parse_roll(roll) if roll is not None else None)
        if out is not None:
            drawn = draw_move(
                out, plan, resolution=run, lanes=move_.lane_paths(), standing=standing
            )
            sys.stderr.write(f"drawn to {drawn}\n")
        if as_json:
            _emit(whole.with_at(run.to_json()))
            return
        _show_run(run)
        return
    odds = model_odds(move_.model, policy, move_.options)
    if out is not None:
        drawn = draw_move(out, plan, odds=odds, lanes=move_.lane_paths(), standing=standing)
        sys.stderr.write(f"drawn to {drawn}\n")
    if as_json:
        _emit(whole.with_at(odds.to_json()))
        return
    _show_odds(odds, move_, whole)


def _percent(p: Fraction) -> str:
    return f"{100 * float(p):6.2f}"


def lane_readings(
    side: str, length: str, naturals: str, after_mg_pinned: str = "stays"
) -> LaneReadings:
    """The ``--lane-*`` options as :class:`~firefight.rulesets.vv.lanes.LaneReadings`."""
    from firefight.cli.fields import renamed  # noqa: PLC0415
    from firefight.core.inputs import validate  # noqa: PLC0415
    from firefight.errors import InputError  # noqa: PLC0415
    from firefight.rulesets.vv.lanes import LaneReadings  # noqa: PLC0415

    readings = {
        "first_side": side,
        "length": length,
        "naturals": naturals,
        "after_mg_pinned": after_mg_pinned,
    }
    try:
        return validate(LaneReadings, readings)
    except InputError as error:  # the fields' options, as the player typed them
        options = {"first_side": "--lane-side", "length": "--lane-length"}
        raise renamed(
            error,
            {**options, "naturals": "--lane-naturals", "after_mg_pinned": "--lane-after-mg-pinned"},
        ) from None


def _overrun(
    scenario: Scenario,
    stack: str,
    hexes: list[str],
    *,
    armour: str | None,
    at: str | None,
    position_cost: str,
    seed: int | None,
    roll: str | None,
    out: Path | None,
    as_json: bool,
) -> None:
    """``move --overrun``: the AFV's overrun of the path's last hex (V&V 19)."""
    from firefight.errors import InputError  # noqa: PLC0415
    from firefight.faces import parse_roll  # noqa: PLC0415
    from firefight.rulesets.vv.overrun_move import (  # noqa: PLC0415
        build_overrun,
        overrun_odds,
        resolve_overrun_move,
    )

    if armour is None:
        raise InputError("armour", "the AFV's Armor Ratings FRONT,REAR (A-F, 18.5)", None)
    if position_cost not in ("not_charged", "charged"):
        raise InputError("position_cost", "one of not_charged, charged", position_cost)
    setup = build_overrun(
        scenario,
        stack,
        hexes,
        armour=armour_letters(armour),
        at_ratings=parse_pairs("at", at or "", "de-sq1=D"),
        position_cost=position_cost,  # type: ignore[arg-type]
    )
    if out is not None:
        sys.stderr.write(f"drawn to {draw_overrun(out, setup)}\n")
    if seed is not None or roll is not None:
        run = resolve_overrun_move(
            setup, seed=seed, roll=parse_roll(roll) if roll is not None else None
        )
        if as_json:
            _emit(
                {
                    "overrun": setup.to_json(),
                    "seed": seed,
                    "outcome": str(run.outcome),
                    "trace": [e.to_json() for e in run.trace],
                    "replay": run.replay_values(),
                }
            )
            return
        _show_overrun_run(setup, run, seed)
        return
    odds = overrun_odds(setup)
    if as_json:
        _emit(odds.to_json())
        return
    _show_overrun(odds)


def draw_overrun(out: Path, setup: OverrunSetup) -> Path:
    """The board, the units, the AFV's route through the target hex into the exit hex."""
    from firefight.board.render import render_board  # noqa: PLC0415 - matplotlib is slow

    scenario = setup.scenario
    board = scenario.board
    units = {u.hex: u.id[:6] for u in scenario.units}
    notes = {setup.plan.target: "overrun", setup.plan.exit: "exit"}
    return render_board(
        board,
        out,
        units=units,
        title=f"{scenario.name}: {setup.afv.id} overruns {board.label(setup.plan.target)}",
        paths=[((*setup.plan.path, setup.plan.exit), PATH_COLOUR)],
        notes=notes,
    )


def _show_overrun(odds: OverrunOdds) -> None:
    from rich.markup import escape  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415

    from firefight.cli.render import console  # noqa: PLC0415

    out = console()
    data = odds.setup.to_json()
    attack = data["attack"]
    assert isinstance(attack, dict)
    out.print(
        f"[bold]{escape(odds.setup.scenario.name)}[/bold]: {escape(odds.setup.afv.id)} overruns "
        f"{data['target']} into {data['exit']} ({data['movement_points']} MPs, 19.3); "
        f"APFP {attack['apfp']} ({attack['row']}), cover "
        + (", ".join(f"{m['label']} {m['value']:+d}" for m in attack["modifiers"]) or "none")
    )
    shots = Table(title="AT fire at the AFV (19.2)")
    for column in ("firer", "at", "moment", "armour", "range"):
        shots.add_column(column)
    for shot in (*(s for shots_ in odds.setup.approach for s in shots_), *odds.setup.exit_fire):
        shots.add_row(
            escape(shot.firer),
            shot.at,
            shot.moment,
            shot.attack.facing,
            str(shot.attack.range_hexes),
        )
    for index in sorted(odds.setup.final):
        shots.add_row(
            escape(odds.setup.defenders[index].id), str(data["target"]), "final", "rear", "1"
        )
    out.print(shots)
    table = Table(title="How it ends (exact)")
    for column in ("who", "state", "%", "exact"):
        table.add_column(column)
    for state, p in odds.afv.items():
        table.add_row(escape(odds.setup.afv.id), state, _percent(p), str(p))
    for unit_id, dist in odds.defenders.items():
        for state, p in dist.items():
            table.add_row(escape(unit_id), state, _percent(p), str(p))
    out.print(table)


def _show_overrun_run(
    setup: OverrunSetup, run: Resolution[OverrunOutcome], seed: int | None
) -> None:
    from rich.markup import escape  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415

    from firefight.cli.render import console  # noqa: PLC0415

    out = console()
    source = f"seed {seed}" if seed is not None else "your dice"
    table = Table(
        title=f"{setup.afv.id} overruns {setup.scenario.board.label(setup.plan.target)} ({source})"
    )
    table.add_column("event")
    table.add_column("value")
    for event in run.trace:
        table.add_row(escape(event.label), escape(str(event)[len(event.label) + 2 :]))
    out.print(table)
    out.print(escape(str(run.outcome)))


def _show_odds(
    odds: MoveOdds, lane_move: LaneMove | None = None, whole: AtMove | None = None
) -> None:
    from rich.markup import escape  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415

    from firefight.cli.render import console  # noqa: PLC0415

    out = console()
    plan = odds.model.plan
    board = plan.scenario.board
    out.print(
        f"[bold]{escape(plan.scenario.name)}[/bold]: {escape(', '.join(u.id for u in plan.stack))} "
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
    for laid in lane_move.lanes if lane_move is not None else ():
        lane = laid.lane
        when = f"laid at hex {laid.index}" if laid.index else "standing"
        out.print(
            f"Fire lane {escape(lane.mg)} from {board.label(lane.firer)}: "
            + " ".join(board.label(h) for h in lane.hexes)
            + f" ({when}; 13.9)"
        )
    ends = Table(title="Each unit: how it ends and where it stops")
    for column in ("unit", "state", "hex", "%", "exact"):
        ends.add_column(column)
    if whole is not None and whole.at_options:
        _show_at(whole)
    for unit_id, dist in odds.units.items():
        for (condition, where), p in sorted(dist.items(), key=lambda kv: -kv[1]):
            text = str(p)
            ends.add_row(
                escape(unit_id),
                condition,
                where,
                _percent(p),
                text if len(text) <= 24 else "--json",
            )
    out.print(ends)


def _show_at(whole: AtMove) -> None:
    """The AT fire at the stack's vehicles (13.8, 18): every shot possible, the ones fired."""
    from rich.markup import escape  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415

    from firefight.cli.render import console  # noqa: PLC0415

    stack = whole.lanes.model.plan.stack
    fired = {(a.firer.id, a.index) for a in whole.at_attacks}
    table = Table(title="AT opportunity fire at the vehicles (13.8, 18)")
    for column in ("firer", "hex", "target", "weapon", "armour", "range", "stop %", "fires"):
        table.add_column(column)
    for firer_id, found in whole.at_options.items():
        for option in found:
            data = option.to_json(stack)
            table.add_row(
                escape(firer_id),
                option.label,
                escape(str(data["target"])),
                f"{data['weapon']} {data['atfp']}",
                str(data["facing"] or "-"),
                str(data["range"]),
                _percent(option.score),
                "yes" if (firer_id, option.index) in fired else "",
            )
    console().print(table)


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
