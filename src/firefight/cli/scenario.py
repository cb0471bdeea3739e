"""``firefight scenario``: a scenario on its board, seen before a command moves in it.

``firefight scenario show NAME`` lists its stacks (each hex with units, its side and its
units) and draws the board with them (``--out FILE.svg`` or ``.png``). NAME is a sample's
name or a scenario file, of any rule set whose actions work on scenarios (the subjects of
:attr:`~firefight.rulesets.procedure.RuleSet.actions`): the command names no game, it reads
what the subject's page shows (:attr:`~firefight.rulesets.action.Subject.page`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from firefight.cli.common import JsonOption, emit, escape
from firefight.i18n import gettext as _

if TYPE_CHECKING:
    from firefight.rulesets.action import Subject
    from firefight.rulesets.procedure import RuleSet

scenario_app = typer.Typer(
    name="scenario",
    help="Scenarios on their boards: the stacks, units and hexes of one, its board drawn.",
    no_args_is_help=True,
)


def subjects() -> list[tuple[RuleSet, Subject[Any]]]:
    """Every rule set's subjects of actions (a scenario on its board), each once: only the
    rule sets that declare actions are loaded."""
    from firefight.rulesets import ruleset  # noqa: PLC0415 - lazy: fast start-up
    from firefight.rulesets.registry import infos  # noqa: PLC0415

    found: list[tuple[RuleSet, Subject[Any]]] = []
    for info in infos():
        if not info.actions:
            continue
        rules = ruleset(info.id)
        for action in rules.actions:
            subject = action.subject
            if subject is not None and all(subject is not s for _r, s in found):
                found.append((rules, subject))
    return found


def sample_names() -> list[str]:
    """The samples' names, of every subject."""
    return [name for _rules, subject in subjects() for name in subject.samples()]


def find(name: str) -> tuple[RuleSet, Subject[Any], Any, str]:
    """The rule set, the subject, the scenario loaded and its text: a sample by name (or a
    former name), else a file that one of the subjects reads; else a one-line error naming
    the samples."""
    from firefight.errors import FirefightError, InputError, one_of  # noqa: PLC0415

    known = subjects()
    for rules, subject in known:
        samples = subject.samples()
        if name in samples:
            return rules, subject, subject.load(name), samples[name].read_text(encoding="utf-8")
    path = Path(name)
    if path.suffix.lower() != ".toml" or not path.is_file():
        allowed = _("a scenario file (.toml) or {samples}").format(samples=one_of(sample_names()))
        raise InputError("scenario", allowed, name)
    first: FirefightError | None = None
    for rules, subject in known:
        try:
            return rules, subject, subject.load(name), path.read_text(encoding="utf-8")
        except FirefightError as error:  # another game's scenario: the next subject reads it
            first = first or error
    assert first is not None
    raise first


def stacks(shown: dict[str, Any], sides: dict[str, str]) -> list[dict[str, Any]]:
    """The units a page shows, as stacks: each hex that holds units of a side, in the order
    of the hexes, with that side's name and its units (id, name, kind)."""
    by_hex: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for unit in shown.get("units", []):
        by_hex.setdefault((str(unit["hex"]), str(unit["side"])), []).append(unit)
    return [
        {
            "hex": hex_,
            "side": side,
            "side_name": sides.get(side, side),
            "units": [
                {"id": u["id"], "name": u.get("name", ""), "kind": u.get("kind", "")} for u in units
            ],
        }
        for (hex_, side), units in sorted(by_hex.items())
    ]


@scenario_app.command("show")
def show(
    name: Annotated[
        str, typer.Argument(help="A sample's name (vv_crossroads) or a scenario file (TOML).")
    ],
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Also draw the board with its stacks (.png, .svg)."),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """A scenario's stacks: each hex with units, its side and its units; --out draws them."""
    rules, subject, found, text = find(name)
    shown: dict[str, Any] = subject.page(found, text) if subject.page is not None else {}
    sides = {str(k): str(v) for k, v in dict(shown.get("sides") or {}).items()}
    listed = stacks(shown, sides)
    drawn = None if out is None else _draw(subject, found, listed, out)
    if as_json:
        emit(
            {
                "ruleset": rules.id,
                "name": subject.title(found),
                "board": subject.board_name(found),
                "sides": sides,
                "stacks": listed,
                **({"drawn": str(drawn)} if drawn is not None else {}),
            }
        )
        return
    _print(rules, subject, found, listed)
    if drawn is not None:
        typer.echo(_("drawn to {path}").format(path=drawn), err=True)


def _print(
    rules: RuleSet, subject: Subject[Any], found: object, listed: list[dict[str, Any]]
) -> None:
    """The title, then one row per unit: its stack's hex and side on the stack's first row."""
    from rich import box  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415

    from firefight.cli.render import console  # noqa: PLC0415

    title = _("{scenario} ({ruleset}, board {board})").format(
        scenario=subject.title(found), ruleset=rules.id, board=subject.board_name(found)
    )
    table = Table(title=escape(title), box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for column in (_("hex"), _("side"), _("unit"), _("name"), _("kind")):
        table.add_column(column, overflow="fold", no_wrap=column in {_("hex"), _("unit")})
    for n, stack in enumerate(listed):
        if n:
            table.add_row()  # a blank line between stacks
        for i, unit in enumerate(stack["units"]):
            table.add_row(
                escape(stack["hex"]) if i == 0 else "",
                escape(stack["side_name"]) if i == 0 else "",
                escape(str(unit["id"])),
                escape(str(unit["name"])),
                escape(_(str(unit["kind"]).replace("_", " "))),
            )
    console().print(table)


def _draw(subject: Subject[Any], found: object, listed: list[dict[str, Any]], out: Path) -> Path:
    """The board with a counter per stack (its first unit's id, and how many more), drawn
    by the board's own drawing code."""
    from firefight.board.render import render_board  # noqa: PLC0415 - matplotlib is slow

    board = subject.board(found)
    per_hex: dict[str, list[str]] = {}
    for stack in listed:
        per_hex.setdefault(stack["hex"], []).extend(str(u["id"]) for u in stack["units"])
    units = {
        board.hex(label): ids[0] + (f" +{len(ids) - 1}" if len(ids) > 1 else "")
        for label, ids in per_hex.items()
    }
    return render_board(board, out, units=units, title=subject.title(found))
