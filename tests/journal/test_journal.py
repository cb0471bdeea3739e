"""The journal on both databases: append, read, verify, and every kind of tampering caught."""

from __future__ import annotations

import hashlib
import itertools
import json
import multiprocessing

import pytest
from sqlalchemy import delete, text, update

from firefight.errors import InputError
from firefight.journal import (
    GENESIS,
    Draft,
    Entry,
    Journal,
    canonical,
    database_url,
    default_path,
    entry_hash,
)
from firefight.journal.schema import entries, heads


def _fill(journal: Journal, n: int, who: str = "alice") -> list[Entry]:
    return [journal.append(Draft(who, {"roll": i, "note": "été"})) for i in range(n)]


def _sql(journal: Journal, statement) -> None:
    with journal.engine.begin() as connection:
        connection.execute(statement)


def test_appended_entries_chain_from_genesis(db_url):
    with Journal.open(db_url) as journal:
        written = _fill(journal, 4)
        assert [e.seq for e in written] == [1, 2, 3, 4]
        assert written[0].prev == GENESIS
        assert all(b.prev == a.hash for a, b in itertools.pairwise(written))
        assert all(e.hash == entry_hash(e.content()) for e in written)
        assert list(journal.entries()) == written
        assert journal.head() == (4, written[-1].hash)
        assert journal.count() == 4
        verdict = journal.verify()
        assert verdict.ok
        assert (verdict.entries, verdict.head) == (4, written[-1].hash)


def test_an_entry_reopened_reads_back_byte_for_byte(db_url):
    with Journal.open(db_url) as journal:
        body = {"z": [1, {"b": None, "a": True}], "ü": "ß", "big": 2**70}
        written = journal.append(Draft("bob", body, kind="note", time="2026-11-30T00:00:00Z"))
    with Journal.open(db_url) as again:
        read = again.entry(1)
    assert read == written
    assert read.to_line() == written.to_line()


def test_the_hash_covers_the_canonical_json_of_the_content():
    content = {"seq": 1, "kind": "k", "time": "t", "who": "w", "body": {"b": 1, "a": [2]},
               "prev": GENESIS}  # fmt: skip
    assert canonical(content) == (
        b'{"body":{"a":[2],"b":1},"kind":"k","prev":"' + GENESIS.encode() + b'","seq":1,'
        b'"time":"t","who":"w"}'
    )
    assert entry_hash(content) == hashlib.sha256(canonical(content)).hexdigest()


def test_canonical_json_refuses_nan():
    with pytest.raises(ValueError, match="JSON compliant"):
        canonical({"x": float("nan")})


def test_an_edited_body_is_detected(db_url):
    with Journal.open(db_url) as journal:
        _fill(journal, 3)
        _sql(journal, update(entries).where(entries.c.seq == 2).values(body='{"roll":6}'))
        verdict = journal.verify()
    assert not verdict.ok
    assert [(p.seq, p.problem) for p in verdict.problems] == [
        (2, "its hash does not match its content (edited)")
    ]


def test_an_edited_player_and_a_rehashed_entry_are_detected(db_url):
    with Journal.open(db_url) as journal:
        written = _fill(journal, 3)
        forged = Entry(**{**written[1].to_json(), "who": "mallory"})
        _sql(
            journal,
            update(entries)
            .where(entries.c.seq == 2)
            .values(who="mallory", hash=forged.computed_hash()),
        )
        verdict = journal.verify()
    # the entry now matches its own hash, but the next one's prev no longer names it
    assert [p.seq for p in verdict.problems] == [3]
    assert "prev" in verdict.problems[0].problem


def test_a_body_that_is_no_longer_json_is_detected(db_url):
    with Journal.open(db_url) as journal:
        _fill(journal, 2)
        _sql(journal, update(entries).where(entries.c.seq == 1).values(body="{not json"))
        verdict = journal.verify()
    assert {p.seq for p in verdict.problems} == {1}
    assert any("not a JSON object" in p.problem for p in verdict.problems)


def test_a_deleted_entry_is_detected(db_url):
    with Journal.open(db_url) as journal:
        _fill(journal, 4)
        _sql(journal, delete(entries).where(entries.c.seq == 2))
        problems = journal.verify().problems
    assert problems[0].seq == 3
    assert "entry 2 missing before it (deleted)" in problems[0].problem
    assert "prev" in problems[1].problem


def test_entries_deleted_from_the_end_are_detected_by_the_head(db_url):
    with Journal.open(db_url) as journal:
        _fill(journal, 4)
        _sql(journal, delete(entries).where(entries.c.seq >= 3))
        problems = journal.verify().problems
    assert len(problems) == 1
    assert problems[0].seq == 0
    assert "head is entry 4" in problems[0].problem
    assert "last entry is 2" in problems[0].problem


def test_a_cut_journal_with_a_forged_head_is_caught_by_a_head_kept_elsewhere(db_url):
    with Journal.open(db_url) as journal:
        written = _fill(journal, 4)
        _sql(journal, delete(entries).where(entries.c.seq >= 3))
        _sql(journal, update(heads).values(seq=2, hash=written[1].hash))
        assert journal.verify().ok  # consistent on its own ...
        verdict = journal.verify([written[3].hash])  # ... but not with the head the other saw
        assert not verdict.ok
        assert "not in the journal" in verdict.problems[0].problem
        assert journal.verify([written[1].hash]).ok  # an older head seen is still in it


def test_reordered_entries_are_detected(db_url):
    with Journal.open(db_url) as journal:
        _fill(journal, 3)
        # swap entries 1 and 2 whole: each keeps its content and hash, under the other's seq
        with journal.engine.begin() as connection:
            connection.execute(update(entries).where(entries.c.seq == 1).values(seq=-1))
            connection.execute(update(entries).where(entries.c.seq == 2).values(seq=1))
            connection.execute(update(entries).where(entries.c.seq == -1).values(seq=2))
        verdict = journal.verify()
    assert not verdict.ok
    assert {p.seq for p in verdict.problems} >= {1, 2}


def test_an_edited_time_is_detected(db_url):
    with Journal.open(db_url) as journal:
        _fill(journal, 2)
        _sql(journal, update(entries).where(entries.c.seq == 1).values(time="1999-01-01T00:00Z"))
        assert [p.seq for p in journal.verify().problems] == [1]


def test_journals_of_one_database_are_separate(db_url):
    with Journal.open(db_url, "game-1") as one, Journal.open(db_url, "game-2") as two:
        _fill(one, 3)
        _fill(two, 1, who="bob")
        assert one.head()[0] == 3
        assert two.head()[0] == 1
        assert one.verify().ok
        assert two.verify().ok
        assert [e.who for e in two.entries()] == ["bob"]


def test_a_missing_entry_names_the_range(db_url):
    with Journal.open(db_url) as journal:
        _fill(journal, 2)
        with pytest.raises(InputError, match=r"'seq' must be an entry of the journal, 1 to 2"):
            journal.entry(3)


def test_a_too_long_player_name_is_refused_on_both_databases(db_url):
    with Journal.open(db_url) as journal, pytest.raises(InputError, match="'player' must be"):
        journal.append(Draft("x" * 201, {}))


def test_entries_are_read_in_chunks(db_url, monkeypatch):
    monkeypatch.setattr("firefight.journal.store.READ_CHUNK", 3)
    with Journal.open(db_url) as journal:
        written = _fill(journal, 8)
        assert list(journal.entries()) == written
        assert list(journal.entries(4, 6)) == written[3:6]
        assert journal.verify().ok


def test_export_then_import_gives_the_same_journal(db_url, tmp_path):
    with Journal.open(db_url, "source") as journal:
        _fill(journal, 5)
        lines = list(journal.export_lines())
        assert all(json.loads(line)["seq"] == i for i, line in enumerate(lines, start=1))
        with Journal.open(db_url, "copy") as copy:
            merged = copy.merge(lines, "export.jsonl")
            assert (merged.added, merged.present) == (5, 0)
            assert list(copy.export_lines()) == lines
            assert copy.verify().ok
            # the same file again adds nothing; a longer one adds only what is new
            assert copy.merge(lines, "export.jsonl").to_json() == {"added": 0, "present": 5}
            _fill(journal, 2)
            longer = list(journal.export_lines())
            assert copy.merge(longer, "longer.jsonl").to_json() == {"added": 2, "present": 5}
            assert copy.head() == journal.head()


def test_an_import_that_diverges_writes_nothing(db_url):
    with Journal.open(db_url, "a") as a, Journal.open(db_url, "b") as b:
        _fill(a, 3)
        _fill(b, 2, who="bob")
        with pytest.raises(Exception, match="entry 1 differs from the journal's"):
            b.merge(list(a.export_lines()), "a.jsonl")
        assert b.head()[0] == 2
        assert b.verify().ok


def _append_many(url: str, who: str, n: int) -> None:
    with Journal.open(url) as journal:
        for i in range(n):
            journal.append(Draft(who, {"i": i}))


def test_two_processes_appending_at_once_make_one_chain(db_url):
    Journal.open(db_url).close()
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_append_many, args=(db_url, w, 25)) for w in ("a", "b")]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
        assert worker.exitcode == 0
    with Journal.open(db_url) as journal:
        verdict = journal.verify()
        assert verdict.ok
        assert verdict.entries == 50
        assert sorted(e.who for e in journal.entries()) == ["a"] * 25 + ["b"] * 25


def test_the_schema_is_migrated_once_and_versioned(db_url):
    Journal.open(db_url).close()
    with Journal.open(db_url) as journal, journal.engine.connect() as connection:
        versions = connection.execute(text("SELECT version_num FROM alembic_version")).all()
    assert [v[0] for v in versions] == ["0001"]


def test_the_database_is_a_url_a_file_or_the_default_in_the_data_folder(monkeypatch, tmp_path):
    assert database_url("postgresql://u@h/db").drivername == "postgresql+psycopg"
    assert database_url(str(tmp_path / "j.db")).database == str(tmp_path / "j.db")
    assert database_url(None).database == str(tmp_path / "default.sqlite3")  # FIREFIGHT_DB
    monkeypatch.delenv("FIREFIGHT_DB")
    assert database_url(None).database == str(default_path())
    assert default_path().name == "journal.sqlite3"
    assert default_path().parent.name == "firefight"


def test_sqlite_journals_run_in_wal_mode_synced_at_each_commit(tmp_path):
    with Journal.open(str(tmp_path / "j.sqlite3")) as journal:
        journal.append(Draft("alice", {}))
        with journal.engine.connect() as connection:
            mode = connection.exec_driver_sql("PRAGMA journal_mode").scalar()
            synchronous = connection.exec_driver_sql("PRAGMA synchronous").scalar()
            assert (tmp_path / "j.sqlite3-wal").exists()  # while a connection is open
    assert mode == "wal"
    assert synchronous == 2  # FULL
