"""``firefight pbem``: play by e-mail with dice neither player can predict or steer.

``new`` offers a game, ``answer MESSAGE`` takes whatever step a message from the other player
asks for (join an offer, reveal an element for his declaration, reveal a seed), ``declare``
declares a resolution, ``end`` reveals this player's seed, ``verify`` checks every step and
every roll. Each command writes to the player's journal (``--db``) and prints the message to
send (or writes it to ``--out``). docs/pbem.md describes the protocol and its threat model.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from firefight.cli.common import JsonOption
from firefight.cli.integers import ascii_integer

if TYPE_CHECKING:
    from firefight.pbem.play import Step

pbem_app = typer.Typer(
    name="pbem",
    help="Play by e-mail: dice from both players' hash chains (new, declare, answer, end, verify).",
    no_args_is_help=True,
)

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="Your journal's database: a postgresql:// URL or a SQLite file "
        "(default: FIREFIGHT_DB, else journal.sqlite3 in your data folder).",
    ),
]
OutOption = Annotated[
    Path | None,
    typer.Option("--out", help="Write the message to send to this file (default: print it)."),
]
SideOption = Annotated[
    str | None,
    typer.Option(
        "--side", help="A or B: only when you hold both sides' seeds (one person testing)."
    ),
]
GameArgument = Annotated[str, typer.Argument(help="The game, as 'pbem new' printed (pbem-…).")]


def _read_message(source: str) -> str:
    from firefight.pbem.play import read_message  # noqa: PLC0415

    return read_message(source)


def _report(step: Step, out: Path | None, as_json: bool) -> None:
    if out is not None and step.message is not None:
        out.write_text(step.message, encoding="utf-8")
    if as_json:
        sys.stdout.write(json.dumps(step.to_json(), indent=2, ensure_ascii=False) + "\n")
        return
    typer.echo(f"{step.said}")
    typer.echo(f"game {step.name}: {step.game.status()}")
    if step.game.last is not None and step.game.last.kind == "resolution":
        body = step.game.last.body
        typer.echo(
            f"resolution {body['index']}: dice {','.join(body['dice'])} -> {body['outcome']}"
        )
    if step.message is None:
        return
    if out is not None:
        typer.echo(f"send {out} to the other player")
    else:
        typer.echo("send this to the other player:")
        typer.echo(step.message, nl=False)


@pbem_app.command()
def new(  # noqa: PLR0917 - Typer passes each option as a parameter
    player: Annotated[str, typer.Option(help="Your name.")],
    opponent: Annotated[str, typer.Option(help="The other player's name.")],
    side: Annotated[str, typer.Option(help="Your side: A or B.")] = "A",
    scenario: Annotated[
        str, typer.Option(help="The scenario, in words (bound into the game id).")
    ] = "",
    length: Annotated[
        int,
        typer.Option(
            parser=ascii_integer(1, 1_000_000),
            help="Resolutions the game can hold (the length of each chain).",
        ),
    ] = 1000,
    db: DbOption = None,
    out: OutOption = None,
    as_json: JsonOption = False,
) -> None:
    """Offer a game: a new secret seed, its chain's anchor in the journal, the message to send."""
    from firefight.errors import InputError  # noqa: PLC0415
    from firefight.pbem.play import new as offer  # noqa: PLC0415

    if side not in {"A", "B"}:
        raise InputError("side", "A or B", side)
    players = {side: player, ("B" if side == "A" else "A"): opponent}
    _report(offer(db, side, players, scenario, length), out, as_json)


@pbem_app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def declare(  # noqa: PLR0917 - Typer passes each option as a parameter
    ctx: typer.Context,
    game: GameArgument,
    ruleset: Annotated[str, typer.Argument(help="Rule set id or alias.")],
    procedure: Annotated[str, typer.Argument(help="Procedure name.")],
    side: SideOption = None,
    db: DbOption = None,
    out: OutOption = None,
    as_json: JsonOption = False,
) -> None:
    """Declare the next resolution (its inputs as options, as for 'firefight resolve') and
    reveal your element for it."""
    from firefight.cli.odds import find_procedure as _find  # noqa: PLC0415
    from firefight.cli.odds import procedure_input as _input  # noqa: PLC0415
    from firefight.pbem.play import declare as declaring  # noqa: PLC0415

    found, proc = _find(ruleset, procedure)
    inp = _input(proc, ctx.args)
    data = inp.model_dump(mode="json")
    _report(declaring(db, game, found.id, proc.name, data, side), out, as_json)


@pbem_app.command()
def answer(
    message: Annotated[str, typer.Argument(help="The message received: a file, or - (pasted).")],
    side: SideOption = None,
    db: DbOption = None,
    out: OutOption = None,
    as_json: JsonOption = False,
) -> None:
    """Import the other player's message and take the step it asks for: join his offer, reveal
    your element for his declaration (the dice are then known), or reveal your seed."""
    from firefight.pbem.play import answer as answering  # noqa: PLC0415

    _report(answering(db, _read_message(message), side), out, as_json)


@pbem_app.command()
def end(
    game: GameArgument,
    side: SideOption = None,
    db: DbOption = None,
    out: OutOption = None,
    as_json: JsonOption = False,
) -> None:
    """End the game: reveal your seed (the other answers with his); every roll then recomputes."""
    from firefight.pbem.play import end as ending  # noqa: PLC0415

    _report(ending(db, game, side), out, as_json)


@pbem_app.command()
def verify(
    game: Annotated[
        str,
        typer.Argument(
            help="The game (pbem-…) in your journal, or a message file holding a game from entry 1."
        ),
    ],
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Check the journal's chain, every protocol step, every element and every roll; exit code 1
    when something does not verify."""
    from firefight.pbem.play import verify as verifying  # noqa: PLC0415
    from firefight.pbem.play import verify_message  # noqa: PLC0415

    verdict = (
        verify_message(_read_message(game))
        if Path(game).is_file() or game == "-"
        else verifying(db, game)
    )
    if as_json:
        sys.stdout.write(json.dumps(verdict.to_json(), indent=2, ensure_ascii=False) + "\n")
    else:
        for problem in verdict.problems:
            typer.echo(f"problem: {problem}")
        for note in verdict.notes:
            typer.echo(f"note: {note}")
        state = verdict.game.status() if verdict.game else "unreadable"
        word = "ok" if verdict.ok else "FAILED"
        typer.echo(f"{word}: {verdict.name}, {verdict.entries} entries; {state}")
    if not verdict.ok:
        raise typer.Exit(1)
