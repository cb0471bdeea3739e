"""``firefight serve``: the web calculator, started from the command line."""

from __future__ import annotations

from typing import Annotated

import typer

from firefight.cli.integers import ascii_integer
from firefight.cli.journal import DbOption


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[
        int, typer.Option(parser=ascii_integer(0, 65535), help="Port to listen on.")
    ] = 8000,
    workers: Annotated[
        int,
        typer.Option(
            parser=ascii_integer(1, 64),
            help="Server processes (one per CPU core for a club's server; each keeps its own "
            "cache of answers).",
        ),
    ] = 1,
    timeout: Annotated[
        int,
        typer.Option(
            parser=ascii_integer(1, 300),
            help="Seconds a connection may stay idle, and a request may take to arrive once "
            "begun; then the connection is closed.",
        ),
    ] = 5,
    db: DbOption = None,
) -> None:
    """Serve the web calculator (pages, JSON API, OpenAPI at /docs) until Ctrl-C; the shared
    table's games are journaled in --db (docs/pbem.md, "A shared table")."""
    from firefight.web.serve import check_port, run, shown_host  # noqa: PLC0415 - lazy

    if db:
        from firefight.journal import Journal  # noqa: PLC0415

        # opened (and migrated) once before the server starts: a bad URL, a server that does
        # not answer, a file that cannot be made are one line and exit code 2, not a 422 later
        Journal.open(db).close()
    from firefight.cli.added import say_problems  # noqa: PLC0415 - the folder, read at start
    from firefight.rulesets import rulesets  # noqa: PLC0415

    rulesets()  # loaded, as the server will: a package whose chart does not load is met
    say_problems()  # a package or a game file of the user's folder left out: one line each
    check_port(host, port)  # taken: one line, exit 2, and no line saying it serves
    typer.echo(f"firefight web calculator: http://{shown_host(host)}:{port}/ (Ctrl-C to stop)")
    run(host, port, workers, timeout, db)
