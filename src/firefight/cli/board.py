"""``firefight board``: show a board, judge a line of sight, the LOS tool, scatter."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from firefight.cli.common import JsonOption
from firefight.translation import gettext
from firefight.translation import gettext as _

if TYPE_CHECKING:
    from firefight.board.board import Board
    from firefight.board.hexes import Hex
    from firefight.board.los import LosPolicy
    from firefight.rulesets import RuleSet

board_app = typer.Typer(
    name="board",
    help="Hex boards: show one, judge a line of sight, what a hex sees, where fire scatters.",
    no_args_is_help=True,
)

BoardArgument = Annotated[
    str, typer.Argument(help="A sample board's name (see `firefight board list`) or a board file.")
]
OutOption = Annotated[
    Path | None, typer.Option("--out", help="Also draw the board to this .png or .svg file.")
]


def _emit(data: object) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def _load(name: str) -> tuple[Board, LosPolicy]:
    from firefight.rulesets.boards import load  # noqa: PLC0415 - lazy: fast start-up

    return load(name)


def _draw(out: Path | None, board: Board, **options: object) -> None:
    if out is None:
        return
    from firefight.board.render import render_board  # noqa: PLC0415 - matplotlib is slow to import

    written = render_board(board, out, **options)  # type: ignore[arg-type]
    sys.stderr.write(f"drawn to {written}\n")


@board_app.command("list")
def list_boards(as_json: JsonOption = False) -> None:
    """The sample boards shipped with firefight."""
    from firefight.rulesets.boards import sample_boards  # noqa: PLC0415

    samples = {name: _load(name)[0] for name in sample_boards()}
    if as_json:
        from firefight.faces import boards_json  # noqa: PLC0415

        _emit(boards_json(samples))
        return
    for name, b in samples.items():
        typer.echo(f"{name}: {b.name} ({b.ruleset}, {b.columns} x {b.rows})")


def layout_words(found: Board) -> str:
    """How the board is printed, in words: ``pointy-top, rows lettered`` (the letter names the
    line the hexes are staggered in: a row of a pointy-top map, a column of a flat-top one),
    ``flat-top, numbered`` (``0504``: column then row)."""
    lines = "rows lettered" if found.orientation == "pointy-top" else "columns lettered"
    labels = lines if found.labels == "letter-number" else "numbered"
    return f"{found.orientation}, {labels}"


@board_app.command("show")
def show(board: BoardArgument, out: OutOption = None, as_json: JsonOption = False) -> None:
    """The board's size, terrain and hexsides (and a picture with --out)."""
    found, _ = _load(board)
    _draw(out, found)
    if as_json:
        _emit(found.to_json())
        return
    counts = Counter(found.terrain_of(h) for h in found.hexes())
    sides = Counter(found.hexsides.values())
    typer.echo(
        f"{found.name}: {found.ruleset} board, {found.columns} x {found.rows} "
        f"({layout_words(found)}, {found.offset})"
    )
    typer.echo("terrain: " + ", ".join(f"{t} {n}" for t, n in counts.most_common()))
    if sides:
        typer.echo("hexsides: " + ", ".join(f"{f} {n}" for f, n in sides.most_common()))
    levels = Counter(found.elevation.values())
    if levels:
        typer.echo("levels: " + ", ".join(f"level {lv}: {n}" for lv, n in sorted(levels.items())))


def _hex_of(found: Board, text: str, argument: str) -> Hex:
    """The hex ``text`` names on ``found``; one off the board names its ``argument`` (``TO``)."""
    from firefight.cli.fields import renamed  # noqa: PLC0415
    from firefight.errors import InputError  # noqa: PLC0415

    try:
        return found.hex(text)
    except InputError as error:
        raise renamed(error, {"hex": argument}) from None


@board_app.command("los")
def los(
    board: BoardArgument,
    firer: Annotated[str, typer.Argument(metavar="FROM", help="The firer's hex, e.g. 0504.")],
    target: Annotated[str, typer.Argument(metavar="TO", help="The target's hex, e.g. 0908.")],
    out: OutOption = None,
    as_json: JsonOption = False,
) -> None:
    """The line of sight between two hexes: clear, hindered or blocked, and why."""
    from firefight.board.los import line_of_sight  # noqa: PLC0415
    from firefight.errors import InputError  # noqa: PLC0415

    found, policy = _load(board)
    a, b = _hex_of(found, firer, "FROM"), _hex_of(found, target, "TO")
    if a == b:  # no line runs from a hex to itself: a typo, not a clear line of range 0
        raise InputError("TO", _("a hex other than FROM ({firer})").format(firer=firer), target)
    verdict = line_of_sight(found, a, b, policy)
    _draw(out, found, los=(a, b, verdict))
    if as_json:
        from firefight.faces import los_json  # noqa: PLC0415

        _emit(los_json(found, firer, target, verdict))
        return
    typer.echo(f"{firer} -> {target}: {verdict}")
    for hindrance in verdict.hindrances:
        typer.echo(f"  {hindrance.where}: {hindrance.what} {hindrance.modifier:+d}")


@board_app.command("visible")
def visible(
    board: BoardArgument,
    origin: Annotated[str, typer.Argument(metavar="FROM", help="The hex that looks, e.g. 0504.")],
    out: OutOption = None,
    as_json: JsonOption = False,
) -> None:
    """Every hex a hex can see, with the hindrance modifier to each (the LOS tool)."""
    from firefight.board.visibility import visible_set  # noqa: PLC0415

    found, policy = _load(board)
    a = _hex_of(found, origin, "FROM")
    seen = visible_set(found, a, policy)
    _draw(out, found, visible=(a, set(seen)))
    if as_json:
        from firefight.faces import visible_json  # noqa: PLC0415

        _emit(visible_json(found, origin, seen))
        return
    labelled = {found.label(h): modifier for h, modifier in sorted(seen.items())}
    total = found.columns * found.rows
    typer.echo(f"{origin} sees {len(seen)} of {total} hexes, each with its hindrance modifier:")
    from firefight.cli.render import UNBOUNDED_WIDTH, terminal_width  # noqa: PLC0415

    cells = [f"{label} {m:+d}," for label, m in labelled.items()]
    if cells:
        cells[-1] = cells[-1].rstrip(",")
    width = (terminal_width() or UNBOUNDED_WIDTH) - 1
    line = " "
    for cell in cells:  # each hex stays on one line with its modifier
        if len(line) + len(cell) + 2 > width and line.strip():
            typer.echo(line.rstrip())
            line = " "
        line += f" {cell}"
    if line.strip():
        typer.echo(line)


def _scattering() -> list[RuleSet]:
    """The rule sets with a scatter procedure, whose boards ``board scatter`` reads."""
    from firefight.rulesets import rulesets  # noqa: PLC0415

    return [r for r in rulesets() if "scatter" in r.procedure_names]


def _scatter_help(ctx: typer.Context, _param: object, value: bool) -> None:
    """``board scatter --help``: the command's help, then the options of each rule set's
    scatter procedure that it passes on."""
    if not value or ctx.resilient_parsing:
        return
    from firefight.cli.fields import option_help  # noqa: PLC0415
    from firefight.cli.help import print_help  # noqa: PLC0415 - only for this help
    from firefight.cli.option_list import option_block, option_entries  # noqa: PLC0415
    from firefight.cli.render import console  # noqa: PLC0415

    print_help(ctx)
    out = console()
    for rules in _scattering():
        procedure = rules.procedure("scatter")
        title = f"Options of the scatter procedure ({rules.id} scatter: {procedure.title})"
        entries = option_entries(option_help(procedure.input_model))
        for shown in option_block(title, entries, out.width):
            out.print(shown)
    raise typer.Exit


@board_app.command(
    "scatter",
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
    add_help_option=False,
)
def scatter(
    ctx: typer.Context,
    board: BoardArgument,
    aim: Annotated[str, typer.Argument(metavar="AIM", help="The hex aimed at, e.g. 0504.")],
    as_json: JsonOption = False,
    show_help: Annotated[
        bool,
        typer.Option(
            "--help",
            "-h",
            is_eager=True,
            expose_value=False,
            callback=_scatter_help,
            help="Show this message and the scatter procedure's options, and exit.",
        ),
    ] = False,
) -> None:
    """Exact odds of each impact hex, from the rule set's scatter procedure (its options follow)."""
    from firefight.board.scatter import impact_distribution  # noqa: PLC0415
    from firefight.cli.fields import options_named, parse_options  # noqa: PLC0415
    from firefight.errors import InputError  # noqa: PLC0415

    found, _ = _load(board)
    scattering = _scattering()
    rules = next((r for r in scattering if r.id == found.ruleset), None)
    if rules is None:
        names = ", ".join(r.id for r in scattering)
        allowed = gettext("a board of a rule set with a scatter procedure ({names})").format(
            names=names
        )
        raise InputError("board", allowed, board)
    procedure = rules.procedure("scatter")
    with options_named(procedure.input_model):
        inp = procedure.parse(parse_options(procedure.input_model, ctx.args))
        distances = {int(k): p for k, p in procedure.odds(inp).items()}
    impacts = impact_distribution(_hex_of(found, aim, "AIM"), distances)
    ordered = sorted(impacts.items(), key=lambda kv: (-kv[1], found.label(kv[0])))
    if as_json:
        _emit(
            {
                "board": found.name,
                "aim": aim,
                "distance": {str(k): str(p) for k, p in distances.items()},
                "impact": {found.label(h): str(p) for h, p in ordered},
            }
        )
        return
    typer.echo(f"aimed at {aim}: " + ", ".join(f"{k} hex {p}" for k, p in distances.items()))
    for hex_, p in ordered:
        mark = "" if hex_ in found else " (off the board)"
        typer.echo(f"  {found.label(hex_)}{mark}: {p} ({float(p) * 100:.2f}%)")
