"""``firefight pbem new|answer|declare|end|verify``: two players exchange message files."""

from __future__ import annotations

import base64
import json
import zlib

from tests.helpers import run_cli as run


def _as(monkeypatch, tmp_path, who: str) -> list[str]:
    monkeypatch.setenv("FIREFIGHT_PBEM_SECRETS", str(tmp_path / f"{who}-secrets"))
    return ["--db", str(tmp_path / f"{who}.sqlite3")]


def _ok(capsys, *args: str) -> dict:
    code, out, err = run(capsys, *args, "--json")
    assert (code, err) == (0, ""), err
    return json.loads(out)


def test_a_game_by_message_files_from_offer_to_both_seeds(capsys, monkeypatch, tmp_path):
    m = [tmp_path / f"m{i}.txt" for i in range(8)]
    alice = lambda: _as(monkeypatch, tmp_path, "alice")  # noqa: E731
    bob = lambda: _as(monkeypatch, tmp_path, "bob")  # noqa: E731
    offer = _ok(
        capsys,
        "pbem",
        "new",
        "--player",
        "alice",
        "--opponent",
        "bob",
        *alice(),
        "--out",
        str(m[0]),
    )
    name = offer["game"]
    assert m[0].read_text().startswith("-----BEGIN FIREFIGHT PBEM-----\nGame: " + name)
    joined = _ok(capsys, "pbem", "answer", str(m[0]), *bob(), "--out", str(m[1]))
    assert joined["id"]
    assert "joined" in joined["said"]
    _ok(capsys, "pbem", "answer", str(m[1]), *alice())
    _ok(
        capsys,
        "pbem",
        "declare",
        name,
        "ept",
        "fire",
        "--strength",
        "6",
        "--range",
        "adjacent",
        *alice(),
        "--out",
        str(m[2]),
    )
    answered = _ok(capsys, "pbem", "answer", str(m[2]), *bob(), "--out", str(m[3]))
    assert answered["resolved"] == 1
    _ok(capsys, "pbem", "answer", str(m[3]), *alice())
    _ok(capsys, "pbem", "end", name, *alice(), "--out", str(m[4]))
    _ok(capsys, "pbem", "answer", str(m[4]), *bob(), "--out", str(m[5]))
    _ok(capsys, "pbem", "answer", str(m[5]), *alice())
    verdict = _ok(capsys, "pbem", "verify", name, *alice())
    assert verdict["ok"]
    assert verdict["seeds"] == ["A", "B"]
    assert verdict["resolved"] == 1
    # the text form, and the resolution's dice shown
    # the luck report reads the game's resolutions: whose roll it was, with its exact odds
    luck = _ok(capsys, "journal", "luck", "--name", name, *alice())
    assert {(row["player"], row["resolutions"]) for row in luck} == {("alice", 1)}
    code, out, _ = run(capsys, "pbem", "verify", name, *bob())
    assert code == 0
    assert out.startswith(f"ok: {name}, 6 entries")


def test_a_pasted_message_with_mail_quoting_is_read(capsys, monkeypatch, tmp_path):
    alice = _as(monkeypatch, tmp_path, "alice")
    offer = _ok(capsys, "pbem", "new", "--player", "alice", "--opponent", "bob", *alice)
    quoted = "Here is my offer:\n" + "".join(
        f"> {line}\n" for line in offer["message"].splitlines()
    )
    (tmp_path / "mail.txt").write_text(quoted)
    joined = _ok(
        capsys, "pbem", "answer", str(tmp_path / "mail.txt"), *_as(monkeypatch, tmp_path, "bob")
    )
    assert joined["game"] == offer["game"]


def test_bad_pbem_input_is_one_line_and_exit_code_2(capsys, monkeypatch, tmp_path):
    alice = _as(monkeypatch, tmp_path, "alice")
    cases = [
        (
            ["pbem", "new", "--player", "a", "--opponent", "b", "--side", "C", *alice],
            "'--side' must be A or B (got 'C')",
        ),
        (
            ["pbem", "declare", "nothex", "ept", "fire", "--strength", "6", *alice],
            "'game' must be pbem- and 16 hex digits",
        ),
        (
            ["pbem", "answer", str(tmp_path / "none.txt"), *alice],
            "'message' must be a file holding a message",
        ),
    ]
    (tmp_path / "junk.txt").write_text("hello")
    cases.append(
        (
            ["pbem", "answer", str(tmp_path / "junk.txt"), *alice],
            "no -----BEGIN FIREFIGHT PBEM-----",
        )
    )
    for args, message in cases:
        code, out, err = run(capsys, *args)
        assert code == 2, (args, err)
        assert out == ""
        assert err.count("\n") == 1, err
        assert message in err, err


def test_verify_exits_1_when_the_game_does_not_verify(capsys, monkeypatch, tmp_path):
    alice = _as(monkeypatch, tmp_path, "alice")
    offer = _ok(capsys, "pbem", "new", "--player", "alice", "--opponent", "bob", *alice)
    text = offer["message"]
    lines = text.splitlines()
    raw = zlib.decompress(base64.b64decode("".join(lines[2:-1]))).decode()
    edited = (
        raw.replace('"Hill', '"Hull')
        if "Hill" in raw
        else raw.replace('"scenario":""', '"scenario":"x"')
    )
    payload = base64.b64encode(zlib.compress(edited.encode())).decode()
    (tmp_path / "edited.txt").write_text("\n".join([lines[0], lines[1], payload, lines[-1]]))
    code, out, _ = run(capsys, "pbem", "verify", str(tmp_path / "edited.txt"))
    assert code == 1
    assert "does not match its content" in out


def test_a_game_not_in_the_journal_is_one_line(capsys, monkeypatch, tmp_path):
    alice = _as(monkeypatch, tmp_path, "alice")
    code, out, err = run(capsys, "pbem", "verify", "pbem-0123456789abcdef", *alice)
    assert code == 2
    assert out == ""
    assert err.startswith("error: 'game' must be a game of the journal ")
    assert err.rstrip().endswith("(got 'pbem-0123456789abcdef')")
