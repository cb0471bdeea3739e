"""A message's bounds (docs/pbem.md, "Limits"): a block that inflates past its limit is refused
once the limit is reached, in bounded memory; a message's lines are counted before they are
split; a refused message (a forged game name, a bad offer) leaves no journal behind; and the
``pbem-message`` loader's example is a message the command reads."""

from __future__ import annotations

import base64
import os
import subprocess
import sys
import zlib

import pytest

from firefight.core.files import LOADERS
from firefight.errors import FirefightError, InputError
from firefight.journal import GENESIS, Draft, Entry, Journal
from firefight.pbem import play
from tests.helpers import run_cli as run

MEASURED = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=600)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
sys.stdout.write(f"{peak}\\n{done.returncode}\\n{done.stderr}")
"""
"""Runs a command and reports its peak RSS (KiB) alone: a fresh parent has waited for no other
child."""
PEAK_MAX_KIB = 400 * 1024
"""The CLI starting and reading a message takes about 110 MiB; a 16 MiB block on top of it stays
well under this (an uncapped bomb took 1.5 and 3.1 GB)."""


def _block(name: str, raw_parts: list[bytes]) -> str:
    packer = zlib.compressobj(9)
    packed = b"".join([*(packer.compress(part) for part in raw_parts), packer.flush()])
    payload = base64.b64encode(packed).decode()
    lines = [payload[i : i + 76] for i in range(0, len(payload), 76)]
    return "\n".join([play.BEGIN, f"Game: {name}", *lines, play.END]) + "\n"


def _bomb(byte: bytes, mib: int) -> str:
    chunk = byte * 2**20
    return _block("pbem-0123456789abcdef", [chunk] * mib)


def _measured(args: list[str], env: dict[str, str]) -> tuple[int, int, str]:
    done = subprocess.run(
        [sys.executable, "-c", MEASURED, sys.executable, "-m", "firefight", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,  # a guard against a hang only
        check=True,
    )
    peak, code, err = done.stdout.split("\n", 2)
    return int(peak), int(code), err


@pytest.mark.parametrize(("byte", "mib"), [(b"0", 700), (b"\n", 300)], ids=["zeros", "newlines"])
def test_a_zlib_bomb_is_refused_in_bounded_memory(tmp_path, byte, mib):
    message = tmp_path / "bomb.txt"
    message.write_text(_bomb(byte, mib))
    assert message.stat().st_size < play.MESSAGE_MAX  # a message of a legal size
    env = {**os.environ, "FIREFIGHT_PBEM_SECRETS": str(tmp_path / "secrets")}
    db = tmp_path / "bob.sqlite3"
    peak, code, err = _measured(["pbem", "answer", str(message), "--db", str(db)], env)
    assert (code, err) == (2, "error: the message: decompresses to more than 16 MiB\n")
    assert peak < PEAK_MAX_KIB
    assert not db.exists()


def test_the_lines_of_a_message_are_counted_before_they_are_split():
    with pytest.raises(play.MessageError, match="at most 20,000 lines"):
        play.dearmor(_block("pbem-0123456789abcdef", [b"\n" * 2**20]))


def test_a_message_past_its_size_is_refused_as_it_is_read(tmp_path):
    path = tmp_path / "big.txt"
    path.write_bytes(b"x" * (play.MESSAGE_MAX + 1))
    with pytest.raises(FirefightError, match="a message must be at most"):
        play.read_message(str(path))


def test_a_message_that_is_not_utf8_is_one_line(capsys, tmp_path):
    path = tmp_path / "latin.txt"
    path.write_bytes(play.example_message().encode() + b"\xe9\n")
    code, out, err = run(capsys, "pbem", "verify", str(path))
    assert (code, out) == (2, "")
    assert err.startswith(f"error: {path}: the message must be UTF-8 text")


def _offer(monkeypatch, tmp_path) -> str:
    monkeypatch.setenv(play.SECRETS_VARIABLE, str(tmp_path / "alice-secrets"))
    step = play.new(str(tmp_path / "alice.sqlite3"), "A", {"A": "a", "B": "b"}, "", 20)
    monkeypatch.setenv(play.SECRETS_VARIABLE, str(tmp_path / "bob-secrets"))
    assert step.message is not None
    return step.message


def _no_journal(db: str, name: str) -> None:
    with pytest.raises(InputError):
        Journal.open(db, name, create=False).close()


def test_a_forged_game_name_is_refused_and_opens_no_journal(monkeypatch, tmp_path, db_url):
    message = _offer(monkeypatch, tmp_path)
    name = message.splitlines()[1].removeprefix("Game: ")
    forged = message.replace(name, "pbem-zzzzzzzzzzzzzzzz")
    with pytest.raises(InputError, match="'Game' must be pbem- and 16 hex digits"):
        play.answer(db_url, forged)
    _no_journal(db_url, "pbem-zzzzzzzzzzzzzzzz")


def test_a_bad_offer_is_refused_and_opens_no_journal(monkeypatch, tmp_path, db_url):
    monkeypatch.setenv(play.SECRETS_VARIABLE, str(tmp_path / "bob-secrets"))
    body = {**dict(play.offer_draft("A", {"A": "a", "B": "b"}, "", 20, "ab" * 32).body)}
    body["anchor"] = "not an anchor"
    entry = Entry.chained(Draft("a", body, "pbem-offer"), 1, GENESIS)
    name = play.NAME_PREFIX + entry.hash[:16]
    with pytest.raises(InputError, match="'anchor' must be 64 lower-case hex digits"):
        play.answer(db_url, play.armor(name, [entry]))
    _no_journal(db_url, name)


@pytest.mark.parametrize("command", ["declare", "end", "verify"])
def test_a_game_not_held_is_refused_and_opens_no_journal(capsys, tmp_path, db_url, command):
    args = ["ept", "fire", "--strength", "6"] if command == "declare" else []
    code, _, err = run(capsys, "pbem", command, "pbem-0123456789abcdef", *args, "--db", db_url)
    assert code == 2
    assert "'game' must be a game of the journal" in err
    _no_journal(db_url, "pbem-0123456789abcdef")


def test_the_message_loader_reads_its_example_and_its_command_accepts_it(capsys, tmp_path):
    registered = LOADERS["pbem-message"]
    path = tmp_path / f"example{registered.suffix}"
    path.write_text(registered.example())
    name, entries = play.load_message(path)
    assert [e.kind for e in entries] == ["pbem-offer"]
    assert name == play.NAME_PREFIX + entries[0].hash[:16]
    command = [str(path) if arg == "{path}" else arg for arg in registered.command]
    code, out, err = run(capsys, *command)
    assert (code, err) == (0, "")
    assert out.startswith(f"ok: {name}, 1 entries")
