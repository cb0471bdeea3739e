"""Nothing lost: a writer killed with SIGKILL at random points loses no entry it reported
written, and leaves a journal that verifies, on SQLite and on PostgreSQL.

Each round starts ``kill_writer.py`` on the same journal and kills it (SIGKILL, no clean-up of
any kind) at a random moment: one round in five while it starts and opens the journal (the
first such round may land in the migrations), the others while it appends, within a fifth of a
second of its being ready. After each kill the journal must verify and hold every entry the
writer printed, with the hash it printed. ``FIREFIGHT_KILLS`` raises the number of rounds (the
figures in docs/journal.md came from 150); ``FIREFIGHT_KILL_BUDGET_S`` bounds the time.
"""

from __future__ import annotations

import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from firefight.journal import Journal

WRITER = Path(__file__).with_name("kill_writer.py")
KILLS = int(os.environ.get("FIREFIGHT_KILLS", "12"))
KILL_BUDGET_S = float(os.environ.get("FIREFIGHT_KILL_BUDGET_S", "30"))
MIN_KILLS = 10
"""Fewer rounds than this within the time budget fails the test (a machine too loaded to
test anything)."""
STARTING = 0.2
"""The share of rounds killed while the writer starts, before it reports the journal open."""


def _round(url: str, rng: random.Random, who: str) -> tuple[dict[int, str], bool]:
    """One writer started and killed; the entries it reported written, and whether it was
    killed while appending (rather than while starting)."""
    src = str(Path(__file__).parents[2] / "src")
    env = {**os.environ, "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}
    writer = subprocess.Popen(
        [sys.executable, str(WRITER), url, who],
        stdout=subprocess.PIPE,
        env=env,
    )
    assert writer.stdout is not None
    appending = rng.random() >= STARTING
    if appending:
        assert writer.stdout.readline() == b"opening\n"
        ready, _, _ = select.select([writer.stdout], [], [], 60)
        assert ready, "the writer did not open the journal within a minute"
        time.sleep(rng.uniform(0.0, 0.2))
    else:
        time.sleep(rng.uniform(0.0, 0.6))
    writer.send_signal(signal.SIGKILL)
    output = writer.stdout.read().decode()
    writer.wait()
    assert writer.returncode == -signal.SIGKILL
    reported: dict[int, str] = {}
    for line in output.splitlines(keepends=True):
        if not line.endswith("\n") or line in {"opening\n", "ready\n"}:
            continue  # a line cut by the kill was not reported
        seq, digest = line.split()
        reported[int(seq)] = digest
    return reported, appending


def test_a_writer_killed_at_random_points_loses_nothing_reported(db_url, capsys):
    rng = random.Random(17)
    reported: dict[int, str] = {}
    kills = while_appending = 0
    started = time.monotonic()
    while kills < KILLS and time.monotonic() - started < KILL_BUDGET_S:
        written, appending = _round(db_url, rng, f"writer {kills}")
        reported.update(written)
        kills += 1
        while_appending += appending
        with Journal.open(db_url) as journal:
            verdict = journal.verify()
            assert verdict.ok, verdict.problems
            held = {e.seq: e.hash for e in journal.entries()}
        lost = {seq for seq, digest in reported.items() if held.get(seq) != digest}
        assert not lost, f"entries reported written but lost after kill {kills}: {sorted(lost)}"
    assert kills >= MIN_KILLS
    with capsys.disabled():
        database = db_url.split(":", 1)[0] if "://" in db_url else "sqlite"
        print(
            f"\nkill test ({database}): {kills} kills ({while_appending} while appending) in "
            f"{time.monotonic() - started:.1f} s; {len(reported)} entries reported written, "
            f"{verdict.entries} in the journal, 0 lost; the journal verifies"
        )


CREATING_ROUNDS = 8


def test_a_writer_killed_while_creating_the_journal_leaves_one_that_opens(request, db_url, capsys):
    """Each round a new database, the writer killed at a random moment of opening it for the
    first time (creating the file or the tables, migrating, its first entries). The journal
    then opens, migrating what is left to migrate, and verifies, with every entry reported."""
    rng = random.Random(23)
    src = str(Path(__file__).parents[2] / "src")
    migrated = 0
    for round_ in range(CREATING_ROUNDS):
        url = (
            request.getfixturevalue("postgres").create_database()
            if "://" in db_url
            else f"{db_url}.{round_}"
        )
        writer = subprocess.Popen(
            [sys.executable, str(WRITER), url, "creator"],
            stdout=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": src},
        )
        assert writer.stdout is not None
        assert writer.stdout.readline() == b"opening\n"  # imports done: opening now
        time.sleep(rng.uniform(0.0, 0.6))
        writer.send_signal(signal.SIGKILL)
        output = writer.stdout.read().decode()
        writer.wait()
        migrated += output.startswith("ready")
        reported = dict(
            line.split() for line in output.splitlines(keepends=True)[1:] if line.endswith("\n")
        )
        with Journal.open(url) as journal:
            assert journal.verify().ok
            held = {str(e.seq): e.hash for e in journal.entries()}
        assert all(held.get(seq) == digest for seq, digest in reported.items())
    assert migrated < CREATING_ROUNDS, "no kill landed before the journal was open"
    with capsys.disabled():
        print(
            f"\nkilled while creating: {CREATING_ROUNDS} new journals, "
            f"{CREATING_ROUNDS - migrated} killed before open returned; each opened and verified"
        )
