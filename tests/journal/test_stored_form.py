"""What a journal keeps is its canonical form (docs/journal.md, "Limits"): a stored body edited
to a deep nesting, added whitespace or a duplicate key is reported as edited, in one line; an
imported line must be its entry's canonical JSON and within an appended entry's limits; a
journal its reader cannot write is read all the same; and the ``journal-import`` loader's
example imports."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from sqlalchemy import update

from firefight.core.files import LOADERS
from firefight.errors import InputError
from firefight.journal import Draft, Journal, canonical_text
from firefight.journal import database as database_module
from firefight.journal.canonical import GENESIS, entry_hash
from firefight.journal.schema import entries
from tests.helpers import run_cli as run

BODY = {"ruleset": "ept", "procedure": "fire", "dice": ["3", "4"], "outcome": "N1"}
ROOT = Path(__file__).parents[2]


def _stored(db: str, text: str) -> None:
    """A journal of two entries whose first body is stored as ``text``."""
    with Journal.open(db) as journal:
        journal.append(Draft("alice", BODY))
        journal.append(Draft("bob", BODY))
        with journal.engine.begin() as connection:
            connection.execute(update(entries).where(entries.c.seq == 1).values(body=text))


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[" * 100_000 + "]" * 100_000, "its body is not a JSON object this journal reads"),
        (canonical_text(BODY).replace(",", ", "), "its body is not stored as its canonical JSON"),
        ('{"dice":["6"],' + canonical_text(BODY)[1:], "its body is not stored as its canonical"),
    ],
    ids=["nested", "whitespace", "duplicate-key"],
)
def test_an_edited_stored_body_is_reported_as_edited_in_one_line(capsys, db_url, text, problem):
    _stored(db_url, text)
    code, out, err = run(capsys, "journal", "verify", "--db", db_url)
    assert (code, err) == (1, "")
    *failed, summary = out.splitlines()
    assert all(line.startswith("FAILED: entry 1: ") for line in failed)
    assert any(line.startswith(f"FAILED: entry 1: {problem}") for line in failed)
    assert summary == f"{len(failed)} problems in 2 entries"
    for command in (["list"], ["show", "1"], ["export"]):
        code, _, err = run(capsys, "journal", *command, "--db", db_url)
        assert (code, err) == (0, "")


def _line(**fields: object) -> str:
    content = {
        "seq": 1,
        "kind": "resolution",
        "time": "2026-11-30T00:00:00.000000Z",
        "who": "mallory",
        "body": BODY,
        "prev": GENESIS,
        **fields,
    }
    return canonical_text({**content, "hash": entry_hash(content)})


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        (_line().replace(",", ", "), "not canonical JSON (a line is the entry's canonical JSON"),
        ('{"seq":1,' + _line()[1:], "not canonical JSON (a line is the entry's canonical JSON"),
        (_line(who="w" * 500), "'who' must be text of 1 to 200 characters"),
        (_line(kind="k" * 100), "'kind' must be text of 1 to 40 characters"),
        (_line(time="t" * 100_000), "'time' must be text of 1 to 40 characters"),
        (_line(who=""), "'who' must be text of 1 to 200 characters"),
    ],
    ids=["whitespace", "duplicate-key", "who", "kind", "time", "empty-who"],
)
def test_an_import_takes_only_canonical_lines_within_an_appends_limits(
    capsys, tmp_path, db_url, line, problem
):
    path = tmp_path / "forged.jsonl"
    path.write_text(line + "\n")
    code, out, err = run(capsys, "journal", "import", str(path), "--db", db_url)
    assert (code, out) == (2, "")
    assert err == f"error: {path} line 1: {err.split(' line 1: ', 1)[1]}"
    assert problem in err
    assert err.count("\n") == 1
    with Journal.open(db_url) as journal:
        assert journal.count() == 0


def test_an_append_has_the_same_limits(db_url):
    with Journal.open(db_url) as journal, pytest.raises(InputError, match="'time' must be text"):
        journal.append(Draft("alice", BODY, time="t" * 41))


def test_a_journal_that_cannot_be_written_is_read_immutable(monkeypatch, tmp_path):
    db = tmp_path / "journal.sqlite3"
    monkeypatch.setattr(database_module.os, "access", lambda *_: False)
    assert database_module._reading_mode(str(db)) == "mode=ro&immutable=1"


def _as_reader_who_cannot_write(args: list[str]) -> subprocess.CompletedProcess[str]:
    """``firefight ARGS`` run by a reader whom the folder's permissions stop: this user, or
    root without the capability that lets root write anywhere (``setpriv``)."""
    prefix: list[str] = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("root needs setpriv to drop CAP_DAC_OVERRIDE")
        prefix = [setpriv, "--inh-caps=-dac_override", "--bounding-set=-dac_override"]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run(
        [*prefix, sys.executable, "-m", "firefight", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,  # a guard against a hang only
        check=False,
    )


def test_a_journal_in_a_read_only_folder_is_verified_listed_and_exported():
    folder = Path(tempfile.mkdtemp(prefix="firefight-read-only-"))
    try:
        db = folder / "journal.sqlite3"
        with Journal.open(str(db)) as journal:
            journal.append(Draft("alice", BODY))
        db.chmod(0o444)
        folder.chmod(0o555)
        for command in (["verify"], ["list", "--json"], ["export"]):
            done = _as_reader_who_cannot_write(["journal", *command, "--db", str(db)])
            assert (done.returncode, done.stderr) == (0, ""), done.stderr
        assert sorted(p.name for p in folder.iterdir()) == ["journal.sqlite3"]
    finally:
        folder.chmod(0o755)
        for path in folder.iterdir():
            path.unlink()
        folder.rmdir()


def test_the_import_loader_reads_its_example_and_its_command_imports_it(capsys, tmp_path):
    from firefight.journal.transfer import example_export, load_export  # noqa: PLC0415

    registered = LOADERS["journal-import"]
    assert registered.load is load_export
    path = tmp_path / f"example{registered.suffix}"
    path.write_text(registered.example())
    assert [e.seq for e in load_export(path)] == [1, 2]
    command = [str(path) if arg == "{path}" else arg for arg in registered.command]
    code, out, err = run(capsys, *command)
    assert (code, err) == (0, "")
    assert out.startswith("imported 2 entries (0 already held): 2 entries")
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]
    assert example_export() == registered.example()
