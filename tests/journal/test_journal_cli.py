"""``firefight resolve --journal`` and ``firefight journal ...`` on both databases."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import select, update

import firefight
from firefight.errors import quoted
from firefight.journal import Journal, canonical_text
from firefight.journal.localserver import SUPERUSER
from firefight.journal.schema import entries, heads
from tests.helpers import run_cli as run

FIRE = ["resolve", "ept", "fire", "--strength", "6", "--range", "adjacent"]


def _journal(capsys, db: str, *extra: str) -> dict:
    code, out, err = run(capsys, *FIRE, *extra, "--db", db, "--json")
    assert (code, err) == (0, "")
    return json.loads(out)


def test_resolve_journals_the_whole_resolution_when_asked(capsys, db_url):
    answer = _journal(capsys, db_url, "--seed", "42", "--player", "alice")
    assert answer["journal"]["seq"] == 1
    with Journal.open(db_url) as journal:
        entry = journal.entry(1)
    assert entry.hash == answer["journal"]["hash"]
    assert entry.who == "alice"
    assert entry.kind == "resolution"
    body = entry.body
    assert (body["ruleset"], body["procedure"], body["seed"]) == ("ept", "fire", 42)
    assert body["input"] == answer["input"]
    assert body["outcome"] == answer["outcome"]
    assert body["trace"] == answer["trace"]
    # the dice replay the same resolution, and the odds are this input's exact odds
    procedure = firefight.ruleset("ept").procedure("fire")
    inp = procedure.parse(body["input"])
    assert procedure.replay(inp, body["dice"]).outcome == body["outcome"]
    assert body["odds"] == [[k, str(p)] for k, p in procedure.odds(inp).items()]
    assert sum(Fraction(p) for _, p in body["odds"]) == 1


def test_replayed_dice_are_journaled_too(capsys, db_url):
    answer = _journal(capsys, db_url, "--roll", "3,4")
    with Journal.open(db_url) as journal:
        body = journal.entry(1).body
    assert body["dice"] == ["3+4"]
    assert body["seed"] is None
    assert body["outcome"] == answer["outcome"]


def test_resolve_journals_nothing_by_default(capsys, tmp_path):
    code, out, _ = run(capsys, *FIRE, "--seed", "1", "--json")
    assert code == 0
    assert "journal" not in json.loads(out)
    assert not (tmp_path / "default.sqlite3").exists()


def test_the_journal_setting_turns_journaling_on(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("FIREFIGHT_JOURNAL", "1")
    monkeypatch.setenv("FIREFIGHT_PLAYER", "carol")
    code, out, _ = run(capsys, *FIRE, "--seed", "1")
    assert code == 0
    assert "journal: entry 1" in out
    with Journal.open(str(tmp_path / "default.sqlite3")) as journal:
        assert journal.entry(1).who == "carol"


def test_a_bad_journal_setting_is_one_line(capsys, monkeypatch):
    monkeypatch.setenv("FIREFIGHT_JOURNAL", "yes")
    code, out, err = run(capsys, *FIRE, "--seed", "1")
    assert (code, out) == (2, "")
    assert err == "error: 'FIREFIGHT_JOURNAL' must be 0 or 1 (got 'yes')\n"


def test_an_unsupported_database_url_is_one_line(capsys):
    code, _, err = run(capsys, "journal", "list", "--db", "mysql://host/db")
    assert code == 2
    assert err == (
        "error: '--db' must be a postgresql:// or sqlite:/// URL, or a file path "
        "(got 'mysql://host/db')\n"
    )


def test_an_unreachable_server_is_one_line(capsys, tmp_path):
    url = f"postgresql://nobody:secret@/journal?host={tmp_path}"
    code, _, err = run(capsys, "journal", "verify", "--db", url)
    assert code == 2
    assert err.startswith("error: cannot open the journal at postgresql+psycopg://nobody:***@")
    assert "secret" not in err
    assert err.count("\n") == 1


def test_list_show_and_verify(capsys, db_url):
    for seed in ("1", "2", "3"):
        _journal(capsys, db_url, "--seed", seed, "--player", "bob")
    code, out, _ = run(capsys, "journal", "list", "--db", db_url, "--json")
    assert code == 0
    listed = json.loads(out)
    assert [e["seq"] for e in listed] == [1, 2, 3]
    fields = {"seq", "time", "who", "kind", "ruleset", "procedure", "outcome", "hash"}
    assert set(listed[0]) == fields
    code, out, _ = run(capsys, "journal", "list", "--db", db_url, "--last", "1")
    assert code == 0
    assert "bob" in out
    code, out, _ = run(capsys, "journal", "show", "2", "--db", db_url, "--json")
    assert code == 0
    assert json.loads(out)["hash"] == listed[1]["hash"]
    code, out, _ = run(capsys, "journal", "show", "2", "--db", db_url)
    assert code == 0
    assert listed[1]["hash"] in out
    code, out, _ = run(capsys, "journal", "verify", "--db", db_url)
    assert code == 0
    assert out == f"ok: 3 entries, head {listed[2]['hash']}\n"


def test_show_of_a_missing_entry_is_one_line(capsys, db_url):
    _journal(capsys, db_url, "--seed", "1")
    code, _, err = run(capsys, "journal", "show", "9", "--db", db_url)
    assert code == 2
    assert err == "error: 'seq' must be an entry of the journal, 1 to 1 (got 9)\n"


def test_verify_fails_with_exit_code_1_on_an_edited_journal(capsys, db_url):
    for seed in ("1", "2"):
        _journal(capsys, db_url, "--seed", seed)
    with Journal.open(db_url) as journal, journal.engine.begin() as connection:
        connection.execute(update(entries).where(entries.c.seq == 1).values(who="mallory"))
    code, out, _ = run(capsys, "journal", "verify", "--db", db_url)
    assert code == 1
    assert "FAILED: entry 1: its hash does not match its content (edited)" in out
    code, out, _ = run(capsys, "journal", "verify", "--db", db_url, "--json")
    assert code == 1
    verdict = json.loads(out)
    assert verdict["ok"] is False
    assert verdict["problems"][0] == {
        "seq": 1,
        "problem": "its hash does not match its content (edited)",
    }


def test_verify_with_a_head_seen_elsewhere(capsys, db_url):
    seen = _journal(capsys, db_url, "--seed", "1")["journal"]["hash"]
    _journal(capsys, db_url, "--seed", "2")
    assert run(capsys, "journal", "verify", "--db", db_url, "--head", seen)[0] == 0
    code, out, _ = run(capsys, "journal", "verify", "--db", db_url, "--head", "ab" * 32)
    assert code == 1
    assert "not in the journal" in out


@pytest.mark.parametrize("head", ["zz", "ab" * 31, "ab" * 32 + "c"])
def test_verify_refuses_a_head_that_is_not_a_hash_in_one_line(capsys, tmp_path, head):
    """A mistyped ``--head`` is the user's error (exit code 2), not a journal that fails to
    verify (exit code 1)."""
    db = str(tmp_path / "j.sqlite3")
    code, out, err = run(capsys, "journal", "verify", "--db", db, "--head", head)
    assert (code, out) == (2, "")
    assert err == (f"error: '--head' must be an entry's hash: 64 hex digits (got {quoted(head)})\n")


@pytest.mark.parametrize(("seq", "shown"), [("x", "'x'"), ("0", "0"), ("1_0", "'1_0'")])
def test_show_of_an_entry_number_that_is_not_one_is_one_line_with_the_value(
    capsys, tmp_path, seq, shown
):
    db = str(tmp_path / "j.sqlite3")
    code, out, err = run(capsys, "journal", "show", seq, "--db", db)
    assert (code, out) == (2, "")
    assert err == f"error: 'seq' must be an integer from 1 to {2**62} (got {shown})\n"


def test_export_and_import_through_files(capsys, db_url, tmp_path):
    for seed in ("1", "2", "3"):
        _journal(capsys, db_url, "--seed", seed)
    exported = tmp_path / "game.jsonl"
    code, out, _ = run(
        capsys, "journal", "export", "--db", db_url, "--out", str(exported), "--json"
    )
    assert code == 0
    lines = exported.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3
    assert json.loads(out) == {
        "entries": 3,
        "head": json.loads(lines[-1])["hash"],
        "out": str(exported),
    }
    code, out, _ = run(capsys, "journal", "export", "--db", db_url)
    assert out.splitlines() == lines
    copy = str(tmp_path / "copy.sqlite3")
    code, out, _ = run(capsys, "journal", "import", str(exported), "--db", copy, "--json")
    assert code == 0
    head = json.loads(lines[-1])["hash"]
    assert json.loads(out) == {"added": 3, "present": 0, "entries": 3, "head": head}
    assert run(capsys, "journal", "verify", "--db", copy)[0] == 0


def _exported(capsys, tmp_path: Path) -> list[dict]:
    db = str(tmp_path / "source.sqlite3")
    for seed in ("1", "2", "3"):
        _journal(capsys, db, "--seed", seed)
    code, out, _ = run(capsys, "journal", "export", "--db", db)
    assert code == 0
    return [json.loads(line) for line in out.splitlines()]


def _import(capsys, tmp_path: Path, lines: list[str]) -> tuple[int, str]:
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    target = str(tmp_path / "target.sqlite3")
    code, out, err = run(capsys, "journal", "import", str(path), "--db", target)
    with Journal.open(target) as journal:
        assert journal.count() == 0, "a refused import writes nothing"
    assert out == ""
    return code, err.replace(str(path), "FILE")


IDS = ["not-json", "not-object", "missing-field", "seq-type", "bad-hash", "edited", "deleted"]
IDS += ["reordered", "empty"]


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda e: [*map(canonical_text, e[:2]), "{oops"], "line 3: not JSON (Expecting property"),
        (lambda e: [canonical_text(e[0]), "[1, 2]"], "line 2: not a JSON object"),
        (
            lambda e: [json.dumps({k: v for k, v in e[0].items() if k != "who"})],
            "line 1: an entry has the fields seq, kind, time, who, body, prev, hash (missing who)",
        ),
        (
            lambda e: [json.dumps({**e[0], "seq": "1"})],
            "line 1: 'seq' must be an integer of at least 1 (got '1')",
        ),
        (
            lambda e: [json.dumps({**e[0], "hash": "XYZ"})],
            "line 1: 'hash' must be 64 lower-case hexadecimal digits (got 'XYZ')",
        ),
        (
            lambda e: [canonical_text({**e[0], "who": "mallory"})],
            "line 1: entry 1: its hash does not match its content (edited)",
        ),
        (
            lambda e: [canonical_text(e[0]), canonical_text(e[2])],
            "line 2: entry 3: entry 2 missing before it (deleted)",
        ),
        (
            lambda e: [canonical_text(e[1]), canonical_text(e[0])],
            "line 2: entry 1: out of order: entry 3 expected",
        ),
        (lambda e: ["", ""], "line 1: no entries"),
    ],
    ids=[
        "not-json",
        "not-object",
        "missing-field",
        "seq-type",
        "bad-hash",
        "edited",
        "deleted",
        "reordered",
        "empty",
    ],
)
def test_a_bad_import_file_is_one_line_and_writes_nothing(capsys, tmp_path, damage, message):
    code, err = _import(capsys, tmp_path, damage(_exported(capsys, tmp_path)))
    assert code == 2
    assert err.startswith(f"error: FILE {message}"), err
    assert err.count("\n") == 1


def test_an_import_file_that_is_not_utf8_is_one_line(capsys, tmp_path):
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(b'{"seq": "\xe9"}\n')
    code, _, err = run(capsys, "journal", "import", str(path))
    assert code == 2
    assert err == f"error: {path} line 1: not UTF-8 text\n"


def test_a_missing_import_file_is_one_line(capsys, tmp_path):
    missing = str(tmp_path / "nope.jsonl")
    code, _, err = run(capsys, "journal", "import", missing)
    assert code == 2
    assert err == f"error: 'file' must be a readable file (got {quoted(missing)})\n"


def test_luck_sums_the_exact_odds_of_each_resolution(capsys, db_url, tmp_path):
    # two attacks with different odds, dice chosen: 3+4 and 6+6
    _journal(capsys, db_url, "--roll", "3,4", "--player", "alice")
    _journal(capsys, db_url, "--roll", "6,6", "--player", "alice", "--protection", "important")
    _journal(capsys, db_url, "--roll", "1,1", "--player", "bob")
    procedure = firefight.ruleset("ept").procedure("fire")
    light = procedure.odds(procedure.parse({"strength": 6, "range": "adjacent"}))
    heavy = procedure.odds(
        procedure.parse({"strength": 6, "range": "adjacent", "protection": "important"})
    )
    code, out, _ = run(capsys, "journal", "luck", "--db", db_url, "--player", "alice", "--json")
    assert code == 0
    rows = json.loads(out)
    assert {r["player"] for r in rows} == {"alice"}
    outcomes = set(light) | set(heavy)
    assert {r["outcome"] for r in rows} == outcomes
    for row in rows:
        p, q = light.get(row["outcome"], Fraction(0)), heavy.get(row["outcome"], Fraction(0))
        assert Fraction(row["expected"]) == p + q
        assert Fraction(row["variance"]) == p * (1 - p) + q * (1 - q)
        assert row["resolutions"] == 2
    assert sum(r["obtained"] for r in rows) == 2
    assert sum(Fraction(r["expected"]) for r in rows) == 2
    picture = tmp_path / "luck.png"
    code, out, _ = run(capsys, "journal", "luck", "--db", db_url, "--out", str(picture))
    assert code == 0
    assert "alice" in out
    assert "bob" in out
    assert picture.read_bytes().startswith(b"\x89PNG")


def test_luck_refuses_a_picture_it_cannot_draw_before_reading(capsys, tmp_path):
    code, _, err = run(capsys, "journal", "luck", "--out", str(tmp_path / "luck.gif"))
    assert code == 2
    assert err.startswith("error: '--out' must be a file ending in .png or .svg")


def test_an_empty_journal_name_is_one_line(capsys):
    code, _, err = run(capsys, "journal", "list", "--name", "")
    assert code == 2
    assert err == "error: '--name' must be text of 1 to 100 characters (got '')\n"


def test_a_sqlite_file_that_cannot_be_made_is_one_line(capsys, tmp_path):
    (tmp_path / "plain").write_text("not a folder")
    for where in (tmp_path / "plain" / "journal.sqlite3", tmp_path):
        code, _, err = run(capsys, *FIRE, "--seed", "1", "--db", str(where))
        assert code == 2
        assert err.startswith(f"error: cannot open the journal at {where}: ")
        assert err.count("\n") == 1


READING = (
    ("journal", "list"),
    ("journal", "show", "1"),
    ("journal", "verify"),
    ("journal", "export"),
    ("journal", "luck"),
)


def _names(db: str) -> list[str]:
    with Journal.open(db) as journal, journal.engine.connect() as connection:
        return sorted(connection.execute(select(heads.c.journal)).scalars())


@pytest.mark.parametrize("command", READING, ids=[c[1] for c in READING])
def test_reading_an_unknown_journal_name_is_one_line_and_creates_nothing(capsys, db_url, command):
    """``journal list --name NEW`` used to create the journal NEW (and list it empty)."""
    _journal(capsys, db_url, "--seed", "1")
    code, out, err = run(capsys, *command, "--db", db_url, "--name", "typo")
    assert (code, out) == (2, "")
    assert err == "error: '--name' must be one of 'main' (got 'typo')\n"
    assert _names(db_url) == ["main"]


@pytest.mark.parametrize("command", READING, ids=[c[1] for c in READING])
def test_reading_commands_leave_a_sqlite_file_as_it_was(capsys, tmp_path, command):
    db = str(tmp_path / "j.sqlite3")
    _journal(capsys, db, "--seed", "1")
    before = Path(db).read_bytes()
    files = sorted(p.name for p in tmp_path.iterdir())
    assert run(capsys, *command, "--db", db)[0] == 0
    assert Path(db).read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == files  # no -wal or -shm left either


def test_a_sqlite_file_this_user_cannot_write_is_read_in_read_only_mode(
    capsys, tmp_path, monkeypatch
):
    """Tests run as root, who may write any file: the check the database module makes is the
    one a read-only file fails."""
    from firefight.journal import database  # noqa: PLC0415

    db = str(tmp_path / "j.sqlite3")
    written = _journal(capsys, db, "--seed", "1")["journal"]["hash"]
    monkeypatch.setattr(database.os, "access", lambda path, mode: False)
    code, out, err = run(capsys, "journal", "verify", "--db", db)
    assert (code, out, err) == (0, f"ok: 1 entries, head {written}\n", "")


def test_reading_a_database_that_holds_no_journal_says_so(capsys, postgres):
    empty = postgres.create_database()
    code, _, err = run(capsys, "journal", "list", "--db", empty)
    assert code == 2
    assert (
        err
        == "error: '--name' must be a journal of the database (it holds none yet) (got 'main')\n"
    )
    with psycopg.connect(empty) as connection:
        tables = connection.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
        assert tables.fetchone() == (0,)


def test_a_read_only_postgresql_user_can_read_a_journal(capsys, postgres):
    """Opening wrote the journal's head row, so a user with SELECT only could not even list."""
    db = postgres.create_database()
    written = _journal(capsys, db, "--seed", "1")["journal"]["hash"]
    with psycopg.connect(db, autocommit=True) as connection:
        connection.execute("DROP ROLE IF EXISTS reader")
        connection.execute("CREATE ROLE reader LOGIN")
        connection.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader")
    reader = db.replace(f"//{SUPERUSER}@", "//reader@", 1)
    code, out, err = run(capsys, "journal", "list", "--db", reader, "--json")
    assert (code, err) == (0, "")
    assert [e["hash"] for e in json.loads(out)] == [written]
    code, out, _ = run(capsys, "journal", "verify", "--db", reader)
    assert (code, out) == (0, f"ok: 1 entries, head {written}\n")
    code, _, err = run(capsys, "journal", "show", "1", "--db", reader, "--name", "other")
    assert (code, err) == (2, "error: '--name' must be one of 'main' (got 'other')\n")
    assert _names(db) == ["main"]
