"""The shared table's API: two player links with their own tokens, a short game,
and a wrong token, the other side's step, a reused element, a big body and too many steps
each refused."""

from __future__ import annotations

import json
import sqlite3
import threading
import time

import pytest
import sqlalchemy
from fastapi import FastAPI
from fastapi.testclient import TestClient

from firefight.journal import Journal
from firefight.pbem import play
from firefight.pbem.chain import anchor, element, new_seed
from firefight.web import table
from firefight.web.app import create_app

FIRE = {"strength": 6, "range": "adjacent"}


@pytest.fixture
def client(tmp_path, monkeypatch) -> TestClient:
    monkeypatch.setenv("FIREFIGHT_DB", str(tmp_path / "server.sqlite3"))
    return TestClient(create_app())


def _game(client: TestClient) -> tuple[str, dict[str, dict[str, str]]]:
    made = client.post(
        "/api/table", json={"scenario": "Hill 112", "players": {"A": "al", "B": "bo"}}
    )
    assert made.status_code == 200, made.text
    name = made.json()["game"]
    auth = {
        side: {"Authorization": "Bearer " + link.split("#", 1)[1]}
        for side, link in made.json()["links"].items()
    }
    return name, auth


def _start(client: TestClient, name: str, auth, length: int = 1000) -> dict[str, bytes]:
    seeds = {"A": new_seed(), "B": new_seed()}
    for side in ("B", "A"):
        answer = client.post(
            f"/api/table/{name}/commit",
            json={"anchor": anchor(seeds[side], length).hex()},
            headers=auth[side],
        )
        assert answer.status_code == 200, answer.text
    return seeds


def test_a_short_game_at_the_table_verifies_like_one_by_mail(client, tmp_path):
    name, auth = _game(client)
    seeds = _start(client, name, auth)
    for index, (actor, answerer) in enumerate((("A", "B"), ("B", "A")), start=1):
        state = client.get(f"/api/table/{name}", headers=auth[actor]).json()
        assert state["expects"] == "declare"
        declared = client.post(
            f"/api/table/{name}/declare",
            json={
                "ruleset": "ept",
                "procedure": "fire",
                "input": FIRE,
                "element": element(seeds[actor], 1000, index).hex(),
            },
            headers=auth[actor],
        )
        assert declared.status_code == 200, declared.text
        assert (
            client.get(f"/api/table/{name}", headers=auth[answerer]).json()["expects"] == "answer"
        )
        answered = client.post(
            f"/api/table/{name}/answer",
            json={"element": element(seeds[answerer], 1000, index).hex()},
            headers=auth[answerer],
        )
        assert answered.json()["resolved"] == index
    for side in ("A", "B"):
        client.post(f"/api/table/{name}/seed", json={"seed": seeds[side].hex()}, headers=auth[side])
    state = client.get(f"/api/table/{name}", headers=auth["A"]).json()
    assert state["expects"] == "over"
    assert [e["kind"] for e in state["entries"]].count("resolution") == 2
    with Journal.open(str(tmp_path / "server.sqlite3"), name) as journal:
        entries = list(journal.entries())
        verdict = play.verify_entries(name, entries, [str(p) for p in journal.verify().problems])
    assert verdict.ok, verdict.problems
    assert verdict.game is not None
    assert sorted(verdict.game.seeds) == ["A", "B"]
    # the tokens are stored only as hashes
    tokens = [h["Authorization"].split()[1] for h in auth.values()]
    assert not any(token in line for token in tokens for line in (e.to_line() for e in entries))


def test_a_wrong_or_missing_token_reads_nothing(client):
    name, auth = _game(client)
    wrong = client.get(f"/api/table/{name}", headers={"Authorization": "Bearer " + "x" * 43})
    assert wrong.status_code == 403
    assert wrong.json() == {"detail": "the token is not one of this game's"}
    assert "entries" not in wrong.json()
    assert client.get(f"/api/table/{name}").status_code == 401
    other_name, _ = _game(client)
    assert client.get(f"/api/table/{other_name}", headers=auth["A"]).status_code == 403


@pytest.mark.parametrize("path", ["", "/commit", "/declare", "/answer", "/seed"])
def test_an_unknown_game_answers_as_a_wrong_token_does(client, tmp_path, path):
    """The game was looked up before the token: a 404 for a name that is not a game and a 403
    for one that is told anyone which names exist; and the lookup created a journal per name."""
    name, auth = _game(client)
    wrong = {"Authorization": "Bearer " + "x" * 43}
    unknown = "table-0000000000000000"

    def ask(game: str, headers: dict[str, str]):
        if path:
            return client.post(f"/api/table/{game}{path}", json={}, headers=headers)
        return client.get(f"/api/table/{game}", headers=headers)

    answers = [ask(name, wrong), ask(unknown, wrong), ask(unknown, auth["A"])]
    assert {(a.status_code, a.text) for a in answers} == {
        (403, json.dumps({"detail": table.WRONG_TOKEN}, separators=(",", ":")))
    }
    with sqlite3.connect(tmp_path / "server.sqlite3") as db:
        assert db.execute("SELECT journal FROM journal_head").fetchall() == [(name,)]


def test_a_player_steps_for_his_own_side_only(client):
    name, auth = _game(client)
    seeds = _start(client, name, auth)
    # B holds his token only: he cannot declare as A (his own element is not A's)
    forged = client.post(
        f"/api/table/{name}/declare",
        json={
            "ruleset": "ept",
            "procedure": "fire",
            "input": FIRE,
            "element": element(seeds["A"], 1000, 1).hex(),
        },
        headers=auth["B"],
    )
    assert forged.status_code == 422
    assert "side B's element does not hash" in forged.json()["detail"]
    client.post(
        f"/api/table/{name}/declare",
        json={
            "ruleset": "ept",
            "procedure": "fire",
            "input": FIRE,
            "element": element(seeds["A"], 1000, 1).hex(),
        },
        headers=auth["A"],
    )
    own = client.post(
        f"/api/table/{name}/answer",
        json={"element": element(seeds["A"], 1000, 1).hex()},
        headers=auth["A"],
    )
    assert own.status_code == 422
    assert "the other side answers" in own.json()["detail"]


def test_a_reused_element_is_refused_at_the_table(client):
    name, auth = _game(client)
    seeds = _start(client, name, auth)
    body = {
        "ruleset": "ept",
        "procedure": "fire",
        "input": FIRE,
        "element": element(seeds["A"], 1000, 1).hex(),
    }
    client.post(f"/api/table/{name}/declare", json=body, headers=auth["A"])
    client.post(
        f"/api/table/{name}/answer",
        json={"element": element(seeds["B"], 1000, 1).hex()},
        headers=auth["B"],
    )
    again = client.post(f"/api/table/{name}/declare", json=body, headers=auth["A"])
    assert again.status_code == 422
    assert "reused" in again.json()["detail"]


def test_table_requests_are_limited_in_size_and_rate(tmp_path, monkeypatch):
    monkeypatch.setenv("FIREFIGHT_DB", str(tmp_path / "server.sqlite3"))
    app = FastAPI()
    app.include_router(table.router(steps_per_minute=3, budget=1000))
    client = TestClient(app)
    big = client.post("/api/table", content=b"{" + b" " * table.TABLE_BODY + b"}")
    assert big.status_code == 413
    codes = [
        client.post("/api/table", json={"players": {"A": "a", "B": "b"}}).status_code
        for _ in range(3)
    ]
    assert codes == [200, 200, 429]


def test_bad_table_input_is_a_422_naming_the_field(client):
    answer = client.post("/api/table", json={"players": {"A": "a"}})
    assert answer.status_code == 422
    assert answer.json()["detail"] == "'B' must be text of 1 to 200 characters (got None)"
    name, auth = _game(client)
    bad = client.post(f"/api/table/{name}/commit", json={"anchor": "zz"}, headers=auth["A"])
    assert bad.status_code == 422
    assert bad.json()["detail"].startswith("'anchor' must be 64 lower-case hex digits")


def test_an_edited_row_of_a_tables_journal_is_detected(client, tmp_path):
    name, auth = _game(client)
    seeds = _start(client, name, auth)
    body = {"ruleset": "ept", "procedure": "fire", "input": FIRE}
    body["element"] = element(seeds["A"], 1000, 1).hex()
    client.post(f"/api/table/{name}/declare", json=body, headers=auth["A"])
    answer = {"element": element(seeds["B"], 1000, 1).hex()}
    client.post(f"/api/table/{name}/answer", json=answer, headers=auth["B"])
    url = str(tmp_path / "server.sqlite3")
    with Journal.open(url, name) as journal:
        entries = list(journal.entries())
        last = entries[-1]
        edited = json.dumps({**last.body, "outcome": "K"}, sort_keys=True, separators=(",", ":"))
        with journal.engine.begin() as connection:
            connection.execute(
                sqlalchemy.text(
                    "UPDATE journal_entry SET body = :b WHERE journal = :j AND seq = :s"
                ),
                {"b": edited, "j": name, "s": last.seq},
            )
        problems = [str(p) for p in journal.verify().problems]
        verdict = play.verify_entries(name, list(journal.entries()), problems)
    assert not verdict.ok
    assert any("does not match its content" in p for p in verdict.problems)
    # a fresh server process reading the game refuses it, naming the entry
    fresh = TestClient(create_app())
    read = fresh.get(f"/api/table/{name}", headers=auth["A"])
    assert read.status_code == 422
    assert read.json()["detail"].startswith(f"entry {last.seq} (resolution): its outcome")


def test_a_step_waiting_for_the_database_does_not_hold_up_other_requests(tmp_path, monkeypatch):
    """A table step that waits for the database's write lock (another process writing: SQLite
    waits up to 30 s) runs off the event loop: the server answers other requests meanwhile."""
    url = str(tmp_path / "server.sqlite3")
    monkeypatch.setenv("FIREFIGHT_DB", url)
    with TestClient(create_app()) as client:  # one event loop for every request
        name, auth = _game(client)
        seeds = {"A": new_seed(), "B": new_seed()}
        blocker = sqlite3.connect(url, isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")  # another writer holds the lock
        step: dict[str, int] = {}

        def commit() -> None:
            answer = client.post(
                f"/api/table/{name}/commit",
                json={"anchor": anchor(seeds["A"], 1000).hex()},
                headers=auth["A"],
            )
            step["status"] = answer.status_code

        waiting = threading.Thread(target=commit)
        waiting.start()
        try:
            time.sleep(0.5)  # the step is waiting for the lock
            assert waiting.is_alive()
            started = time.monotonic()
            assert client.get("/api/rulesets").status_code == 200
            assert time.monotonic() - started < 1.5
        finally:
            time.sleep(0.5)
            blocker.execute("ROLLBACK")
            blocker.close()
            waiting.join(timeout=30)
    assert step == {"status": 200}


@pytest.mark.parametrize(
    ("after", "shown"),
    [("abc", "'abc'"), ("-5", "-5"), ("99999999999999999999", "99999999999999999999")],
)
def test_a_read_after_an_entry_that_is_not_one_is_a_422_naming_it(client, after, shown):
    """``?after=`` is an entry number: text, a negative number or one past the databases'
    64-bit integers is refused in one line (a huge one was a 500)."""
    name, auth = _game(client)
    answer = client.get(f"/api/table/{name}?after={after}", headers=auth["A"])
    assert answer.status_code == 422
    assert answer.json()["detail"] == (
        f"'after' must be an entry number from 0 to {table.AFTER_MAX} (got {shown})"
    )
    assert client.get(f"/api/table/{name}?after=1", headers=auth["A"]).json()["entries"] == []


def test_the_rules_page_renders_the_protocol_without_leaving_the_site(client):
    page = client.get("/table/rules")
    assert page.status_code == 200
    html = page.text
    assert "<h2>A shared table: <code>firefight serve</code></h2>" in html
    assert "<table>" in html  # the limits' table rendered
    assert 'href="journal.md' not in html  # links to other documents kept as their words
    assert "the game's first journal entry" in html
    assert 'href="/table/rules"' in client.get("/table").text
