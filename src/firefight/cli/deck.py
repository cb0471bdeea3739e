"""``firefight deck check FILE``: a player's data file (a rule set's deck or personality
cards, those of its ``RuleSet.files`` that have an editor) checked whole: every problem on a
line of its own, naming the entry and the field; exit code 2 when there is one.

Which kind of file it is comes from the file itself (its first ``[[...]]`` array of tables:
``[[card]]``, ``[[man]]``), or ``--file``. docs/upfront.md describes Up Front's formats."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from firefight.errors import InputError
from firefight.i18n import gettext as _

if TYPE_CHECKING:
    from firefight.rulesets.datafile import Checked, DataFile

deck_app = typer.Typer(
    name="deck",
    help="A player's own deck or personality cards: check a file before playing with it.",
    no_args_is_help=True,
)

_ARRAY = re.compile(r"^\s*\[\[\s*([A-Za-z0-9_-]+)\s*\]\]", re.MULTILINE)


def editable() -> list[tuple[str, DataFile[Any]]]:
    """Every installed rule set's data file that has an editor, with the rule set's id."""
    from firefight.rulesets import rulesets  # noqa: PLC0415 - lazy: fast start-up

    return [(found.id, f) for found in rulesets() for f in found.files if f.editor is not None]


def _which(text: str, kind: str | None, ruleset: str | None) -> tuple[str, DataFile[Any]]:
    """The data file ``text`` is: the one ``--file`` names, else the one whose entries'
    array of tables comes first in it (else the first declared)."""
    files = [(r, f) for r, f in editable() if ruleset is None or r == ruleset]
    if not files:
        found = ", ".join(sorted({r for r, _f in editable()}))
        raise InputError(
            "--ruleset", _("a rule set with editable files: {found}").format(found=found), ruleset
        )
    if kind is not None:
        for pair in files:
            if kind == pair[1].field:
                return pair
        names = [f.field for _r, f in files]
        either = _("{items} or {last}").format(items=", ".join(names[:-1]), last=names[-1])
        raise InputError("--file", either if len(names) > 1 else names[0], kind)
    arrays = _ARRAY.findall(text)
    for array in arrays:
        for pair in files:
            editor = pair[1].editor
            if editor is not None and editor.entry == array:
                return pair
    return files[0]


def report(checked: Checked, file: DataFile[Any], path: str) -> dict[str, object]:
    """The check as JSON: the file, its kind, every problem, the entries counted."""
    return {
        "file": path,
        "kind": file.field,
        "valid": not checked.problems,
        "entries": checked.entries,
        "counts": dict(checked.counts),
        "expected": dict(checked.expected),
        "problems": [
            {"entry": p.entry, "field": p.field, "message": p.message} for p in checked.problems
        ],
    }


@deck_app.command("check")
def check(
    file: Annotated[Path, typer.Argument(help="The TOML file: a deck.toml or a men.toml.")],
    kind: Annotated[
        str | None,
        typer.Option("--file", help="Which kind of file (deck, men); default: read from it."),
    ] = None,
    ruleset: Annotated[
        str | None, typer.Option("--ruleset", help="The rule set whose file it is.")
    ] = None,
    partial: Annotated[
        bool,
        typer.Option(
            "--partial", help="A file still being typed: too few cards of a kind is no error."
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
) -> None:
    """Check a deck or personality file: one line per problem, naming the card and the field
    (exit code 2 if any)."""
    from firefight.core.files import read_text  # noqa: PLC0415 - lazy: fast start-up

    largest = max((f.max_bytes for _r, f in editable()), default=0)
    text = read_text(file, file.name, largest)  # the file's own limit: checked by its check
    _ruleset_id, data_file = _which(text, kind, ruleset)
    editor = data_file.editor
    assert editor is not None  # editable() keeps only files with one
    checked = editor.check(text, file.name, partial)
    if as_json:
        sys.stdout.write(json.dumps(report(checked, data_file, str(file)), indent=2) + "\n")
    else:
        for problem in checked.problems:
            sys.stdout.write(problem.message + "\n")
        if not checked.problems:
            counted = ", ".join(f"{n} {k}" for k, n in checked.counts if n)
            line = _("{file}: {entries} entries, no problem").format(
                file=file.name, entries=checked.entries
            )
            sys.stdout.write(line + (f" ({counted})" if counted else "") + "\n")
    if checked.problems:
        raise typer.Exit(2)
