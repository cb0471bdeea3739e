"""``firefight serve --db``: the shared table's games are journaled in the database given on
the command line, as every ``firefight journal`` and ``pbem`` command takes it
(``--db postgresql://…`` or ``FIREFIGHT_DB``)."""

from __future__ import annotations

import json

from firefight.journal import Journal
from firefight.web import serve
from tests.helpers import run_cli as run
from tests.web.served import HOST, serving


def _post(path: str, data: object) -> bytes:
    body = json.dumps(data).encode()
    return (
        f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode() + body


def test_serve_db_journals_the_tables_games_in_the_database_given(tmp_path):
    given = tmp_path / "club.sqlite3"
    other = tmp_path / "default.sqlite3"
    with serving("--db", str(given), env={"FIREFIGHT_DB": str(other)}) as server:
        answer = server.request(
            _post("/api/table", {"scenario": "Hill 112", "players": {"A": "al", "B": "bo"}})
        )
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200"), answer[:300]
    game = json.loads(body)["game"]
    with Journal.open(str(given), game) as journal:
        assert journal.count() == 1
        assert journal.entry(1).kind == "pbem-table"
        assert journal.verify().ok
    assert not other.exists()


def test_serve_refuses_a_bad_db_in_one_line_before_starting(capsys):
    code, out, err = run(capsys, "serve", "--db", "ftp://club.example/x")
    assert code == 2
    assert out == ""
    assert err == (
        "error: '--db' must be a postgresql:// or sqlite:/// URL, or a file path "
        "(got 'ftp://club.example/x')\n"
    )


def test_serve_refuses_a_database_it_cannot_open_before_starting(capsys, tmp_path, monkeypatch):
    def started(*_: object) -> None:
        raise AssertionError("the server started")

    monkeypatch.setattr(serve, "run", started)
    (tmp_path / "plain").write_text("not a folder")
    where = tmp_path / "plain" / "club.sqlite3"
    code, out, err = run(capsys, "serve", "--db", str(where))
    assert code == 2
    assert out == ""
    assert err.startswith(f"error: cannot open the journal at {where}: ")
    assert err.count("\n") == 1
