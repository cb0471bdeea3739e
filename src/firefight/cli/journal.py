"""``firefight journal``: list, show, verify, export, import a journal; the luck report.

Every command takes ``--db`` (a ``postgresql://`` URL or a SQLite file; default
``FIREFIGHT_DB``, else the file in the user's data folder) and ``--name`` (one journal of
several in a database). docs/journal.md describes the formats and the chain.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from firefight.cli.common import JsonOption
from firefight.cli.integers import ascii_integer
from firefight.errors import InputError

if TYPE_CHECKING:
    from firefight.journal import Entry, Journal

journal_app = typer.Typer(
    name="journal",
    help="The hash-chained journal of resolutions: list, show, verify, export, import, luck.",
    no_args_is_help=True,
)

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="The journal's database: a postgresql:// URL or a SQLite file "
        "(default: FIREFIGHT_DB, else journal.sqlite3 in your data folder).",
    ),
]
NameOption = Annotated[
    str, typer.Option("--name", help="Which journal of the database (one per game, say).")
]
SEQ_MAX = 2**62


def _emit(data: object) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def _open(db: str | None, name: str, *, create: bool = False) -> Journal:
    """The journal, opened to read (``create=False``: every command but ``import``): nothing is
    created or written, so a mistyped ``--db`` file or ``--name`` is a one-line error rather than
    a new, empty journal that lists nothing and verifies ("ok: 0 entries"), and a read-only
    database user can list, show, verify, export and read the luck report."""
    from firefight.journal import Journal  # noqa: PLC0415 - lazy: fast start-up

    return Journal.open(db, name, create=create)


def _console() -> object:
    from firefight.cli.render import console  # noqa: PLC0415

    return console()


def _shown(value: object) -> str:
    """Text from a journal as the terminal gets it: Rich markup escaped, and control characters
    (an imported or shared journal's ESC sequences, which its hashes do not make harmless)
    written as escapes such as ``\\x1b``, never sent to the terminal."""
    from rich.markup import escape  # noqa: PLC0415

    text = str(value)
    if not text.isprintable():
        text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return escape(text)


def _summary(entry: Entry) -> dict[str, object]:
    body = entry.body
    return {
        "seq": entry.seq,
        "time": entry.time,
        "who": entry.who,
        "kind": entry.kind,
        "ruleset": body.get("ruleset"),
        "procedure": body.get("procedure"),
        "outcome": body.get("outcome"),
        "hash": entry.hash,
    }


@journal_app.command("list")
def list_entries(
    db: DbOption = None,
    name: NameOption = "main",
    last: Annotated[
        int | None,
        typer.Option(
            parser=ascii_integer(1, SEQ_MAX), help="Only the last N entries (default: all)."
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """The journal's entries: number, time, who, what was resolved, its outcome, its hash."""
    with _open(db, name) as journal:
        count = journal.head()[0]
        start = 1 if last is None else max(1, count - last + 1)
        found = [_summary(e) for e in journal.entries(start)]
    if as_json:
        _emit(found)
        return
    from rich.table import Table  # noqa: PLC0415

    table = Table(title=f"journal {_shown(name)} ({count} entries)")
    for column in ("seq", "time", "who", "resolved", "outcome", "hash"):
        whole = column in {"seq", "time", "hash"}  # never broken inside: they are short
        table.add_column(column, no_wrap=whole, overflow="fold")
    for row in found:
        resolved = f"{row['ruleset']} {row['procedure']}" if row["kind"] == "resolution" else ""
        table.add_row(
            str(row["seq"]),
            _shown(_to_the_second(str(row["time"]))),
            _shown(str(row["who"])),
            _shown(resolved or str(row["kind"])),
            _shown(str(row["outcome"] or "")),
            str(row["hash"])[:12] + "…",
        )
    _console().print(table)  # type: ignore[attr-defined]


def _to_the_second(time: str) -> str:
    """An entry's time as a list shows it: ``2026-12-02 12:23:34Z``, without the fraction of
    a second the journal keeps (``journal show`` and ``--json`` give it whole)."""
    day, sep, clock = time.partition("T")
    if not sep:
        return time
    whole, dot, rest = clock.partition(".")
    zone = rest.lstrip("0123456789") if dot else ""
    return f"{day} {whole}{zone}"


@journal_app.command()
def show(
    seq: Annotated[int, typer.Argument(parser=ascii_integer(1, SEQ_MAX), help="Entry number.")],
    db: DbOption = None,
    name: NameOption = "main",
    as_json: JsonOption = False,
) -> None:
    """One entry in full: its input, dice, outcome, trace, odds and place in the chain."""
    with _open(db, name) as journal:
        entry = journal.entry(seq)
    if as_json:
        _emit(entry.to_json())
        return
    from rich.table import Table  # noqa: PLC0415

    table = Table(title=f"entry {entry.seq}", show_header=False)
    table.add_column("field", style="bold")
    table.add_column("value")
    for label, value in (("time", entry.time), ("who", entry.who), ("kind", entry.kind)):
        table.add_row(label, _shown(value))
    for key, value in entry.body.items():
        shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        table.add_row(_shown(key), _shown(shown))
    table.add_row("prev", entry.prev)
    table.add_row("hash", entry.hash)
    _console().print(table)  # type: ignore[attr-defined]


@journal_app.command()
def verify(
    db: DbOption = None,
    name: NameOption = "main",
    head: Annotated[
        list[str] | None,
        typer.Option(
            "--head",
            help="A head hash seen earlier (an opponent's, a mail's): it must still be in the "
            "chain. May be given several times.",
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Walk the chain: every hash recomputed, every link and number checked, the last entry
    against the journal's head. Exit code 0 when it verifies, 1 when it does not."""
    known = [h.strip().lower() for h in head or ()]
    for given, hashed in zip(head or (), known, strict=True):
        if not re.fullmatch(r"[0-9a-f]{64}", hashed):
            raise InputError("head", "an entry's hash: 64 hex digits", given)
    with _open(db, name) as journal:
        verdict = journal.verify(known)
    if as_json:
        _emit(verdict.to_json())
    elif verdict.ok:
        typer.echo(f"ok: {verdict.entries} entries, head {verdict.head}")
    else:
        for problem in verdict.problems:
            typer.echo(f"FAILED: {problem}")
        typer.echo(f"{len(verdict.problems)} problems in {verdict.entries} entries")
    if not verdict.ok:
        raise typer.Exit(1)


@journal_app.command()
def export(
    db: DbOption = None,
    name: NameOption = "main",
    out: Annotated[
        Path | None, typer.Option("--out", help="Write to this file (default: standard output).")
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help="With --out, say what was written as JSON (the file is JSON Lines either way).",
        ),
    ] = False,
) -> None:
    """The journal as JSON Lines: one entry's canonical JSON per line (what import reads)."""
    from firefight.errors import InputError  # noqa: PLC0415
    from firefight.journal import GENESIS  # noqa: PLC0415

    if out is not None and not out.parent.is_dir():
        raise InputError("out", "a file in an existing folder", str(out))
    with _open(db, name) as journal:
        if out is None:
            for line in journal.export_lines():
                sys.stdout.write(line + "\n")
            return
        temporary = out.with_name(f".{out.name}.{os.getpid()}.part")
        count, head = 0, GENESIS
        try:
            with temporary.open("w", encoding="utf-8", newline="\n") as stream:
                for entry in journal.entries():
                    stream.write(entry.to_line() + "\n")
                    count, head = count + 1, entry.hash
            temporary.replace(out)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
    if as_json:
        _emit({"entries": count, "head": head, "out": str(out)})
        return
    typer.echo(f"exported {count} entries to {out} (head {head})")


@journal_app.command("import")
def import_entries(
    file: Annotated[str, typer.Argument(help="An exported journal (JSON Lines); - for stdin.")],
    db: DbOption = None,
    name: NameOption = "main",
    as_json: JsonOption = False,
) -> None:
    """Import an exported journal: it must verify, agree with the entries already held and
    continue the chain; all of it is written, or nothing."""
    from firefight.journal.transfer import file_lines  # noqa: PLC0415

    with _open(db, name, create=True) as journal:
        merged = journal.merge(file_lines(file), file)
        verdict = journal.head()
    if as_json:
        _emit({**merged.to_json(), "entries": verdict[0], "head": verdict[1]})
        return
    typer.echo(
        f"imported {merged.added} entries ({merged.present} already held): "
        f"{verdict[0]} entries, head {verdict[1]}"
    )


@journal_app.command()
def luck(
    db: DbOption = None,
    name: NameOption = "main",
    player: Annotated[
        str | None, typer.Option("--player", help="Only this player's resolutions.")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Also draw obtained against expected (.png or .svg)."),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Per player and procedure, how often each outcome came up against how often its exact
    odds say it should have (summed over every resolution)."""
    from firefight.board.picture_file import chart_target  # noqa: PLC0415
    from firefight.journal.luck import draw_luck  # noqa: PLC0415
    from firefight.journal.luck import luck as report  # noqa: PLC0415

    if out is not None:
        chart_target(out)
    with _open(db, name) as journal:
        rows = report(e for e in journal.entries() if player is None or e.who == player)
    if out is not None:
        draw_luck(rows, out)
    if as_json:
        _emit([r.to_json() for r in rows])
        return
    from rich.table import Table  # noqa: PLC0415

    table = Table(title="Luck: outcomes obtained against expected")
    for column in ("player", "procedure", "rolled", "outcome", "obtained", "expected", "z"):
        table.add_column(column, justify="left" if column in {"player", "procedure"} else "right")
    for row in rows:
        z = row.z
        table.add_row(
            _shown(row.player),
            _shown(f"{row.ruleset} {row.procedure}"),
            str(row.resolutions),
            _shown(row.outcome),
            str(row.obtained),
            f"{float(row.expected):.2f}",
            "" if z is None else f"{z:+.2f}",
        )
    _console().print(table)  # type: ignore[attr-defined]
    if out is not None:
        typer.echo(f"drawn: {out}")
