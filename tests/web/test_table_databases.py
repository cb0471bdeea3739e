"""The shared table on both databases (PostgreSQL for a club server): a game
played through the API is journaled in the server's database and verifies like one by mail,
on SQLite and on PostgreSQL (the journal's throwaway server, tests/journal/conftest.py)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from firefight.journal import Journal
from firefight.pbem import play
from firefight.pbem.chain import element
from firefight.web.app import create_app
from tests.journal.conftest import _no_default_journal, db_url, postgres
from tests.web.test_table import FIRE, _game, _start

__all__ = ["_no_default_journal", "db_url", "postgres"]


def test_a_game_at_the_table_is_journaled_in_either_database(monkeypatch, db_url):
    monkeypatch.setenv("FIREFIGHT_DB", db_url)
    with TestClient(create_app()) as client:
        name, auth = _game(client)
        seeds = _start(client, name, auth)
        declared = client.post(
            f"/api/table/{name}/declare",
            json={
                "ruleset": "ept",
                "procedure": "fire",
                "input": FIRE,
                "element": element(seeds["A"], 1000, 1).hex(),
            },
            headers=auth["A"],
        )
        assert declared.status_code == 200, declared.text
        answered = client.post(
            f"/api/table/{name}/answer",
            json={"element": element(seeds["B"], 1000, 1).hex()},
            headers=auth["B"],
        )
        assert answered.json()["resolved"] == 1
        again = client.post(
            f"/api/table/{name}/answer",
            json={"element": element(seeds["B"], 1000, 1).hex()},
            headers=auth["B"],
        )
        assert again.status_code == 422
        assert again.json() == {"detail": "no declaration waits for an answer"}
    with Journal.open(db_url, name) as journal:
        entries = list(journal.entries())
        verdict = play.verify_entries(name, entries, [str(p) for p in journal.verify().problems])
    assert verdict.ok, verdict.problems
    assert [e.kind for e in entries].count("resolution") == 1
