"""``firefight rulesets --add FILE`` and ``--check FILE``: a designer's game file checked (and
its chart printed), or copied into the user's folder of rule sets
(:mod:`firefight.rulesets.added`); the folder's files left out, each said in one line."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import typer

from firefight.cli.common import emit
from firefight.errors import FirefightError, InputError
from firefight.i18n import gettext as _
from firefight.i18n import show_game
from firefight.rulesets import added
from firefight.rulesets.registry import installed_ids, left_out


def say_problems() -> None:
    """Each package and file of the folder left out, and why, one line each on standard
    error (:func:`~firefight.rulesets.registry.left_out`)."""
    for _name, problem in left_out():
        sys.stderr.write(problem + "\n")


def add_or_check(add: str | None, check: str | None, *, as_json: bool = False) -> None:
    """Check the file given (``--check``: print its chart), or add it to the folder."""
    if add is not None and check is not None:
        raise InputError("--add", _("--add or --check, not both"), add)
    name = add if add is not None else check
    assert name is not None
    path = Path(name)
    if not added.names_a_file(name):
        raise InputError("--add" if add is not None else "--check", _("a .toml file"), name)
    found = added.load_file(path)
    show_game(found.id)  # its own words, in its chart and the line saying it is added
    taken = installed_ids()
    if check is not None:
        clash = added.clash_of(found.id, taken, (), path.name)
        if clash is not None:
            raise FirefightError(clash)
        from firefight.cli.chart_text import show_chart  # noqa: PLC0415

        chart = found.charts()[0]
        if not as_json:
            typer.echo(
                _("{file}: a valid game: {id}, its procedure {procedure}").format(
                    file=path.name, id=found.id, procedure=found.procedure_names[0]
                )
            )
        show_chart(chart, as_json=as_json)
        return
    folder = added.folder()
    others = tuple(i for i in added.added(taken).infos if i.path and i.path.name != path.name)
    clash = added.clash_of(found.id, taken, others, path.name)
    if clash is not None:
        raise FirefightError(clash)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if (folder / path.name).resolve() != path.resolve():  # else: already there
            shutil.copyfile(path, folder / path.name)
    except OSError as error:
        raise FirefightError(
            _("{folder}: cannot copy the file there ({why})").format(
                folder=folder, why=error.strerror or "error"
            )
        ) from None
    added.forget()
    if as_json:
        emit({"id": found.id, "title": found.title, "file": str(folder / path.name)})
        return
    typer.echo(
        _("added {id} ({title}) to {folder}").format(
            id=found.id, title=_(found.title), folder=folder
        )
    )
