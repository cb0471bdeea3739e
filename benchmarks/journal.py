"""firefight journal benchmark: verifying a 10,000-entry journal on SQLite and PostgreSQL.

Run with ``make bench`` or ``.venv/bin/python benchmarks/journal.py`` (``--entries N``,
``--repeats R``). For each database it writes a journal of N real resolutions (EPT fire,
seeded 0..N-1, each entry with its input, dice, trace and exact odds, as ``firefight resolve
--journal`` writes them; loaded by one import, a single transaction), then times:

* **verify**: ``Journal.verify()``, the whole walk (every row read, every hash recomputed,
  every link checked), the median of R runs; the baseline is the same check of the same
  entries already in memory (hashing and linking alone), so the ratio is what reading from the
  database adds;
* **append**: one ``append`` (its own transaction, committed and synced) over 200 appends, the
  rate of ``firefight resolve --journal`` without its start-up.

PostgreSQL is a throwaway server started here (``firefight.journal.localserver``, a unix
socket, ``fsync = off``: it is deleted when the run ends). Prints a table and writes
``benchmarks/results/journal.json``; a missed target prints MISSED, and the exit code is 0 all
the same: benchmarks never fail the build.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import firefight
from firefight.faces import resolve_json
from firefight.journal import GENESIS, Draft, Entry, Journal, verify_entries
from firefight.journal.localserver import LocalPostgres
from firefight.journal.record import resolution_draft
from report import (
    environment,
    fmt_time,
    print_table,
    progress,
    report_missed,
    row,
    timed,
    write_results,
)

VERIFY_TARGET_S = 2.0
"""Verifying 10,000 entries takes under 2 s: a player verifies a whole campaign's journal at
a keystroke."""
APPENDS = 200


def resolutions(n: int) -> list[Entry]:
    """``n`` chained entries of EPT fire resolutions (seeds 0..n-1)."""
    found = firefight.ruleset("ept")
    procedure = found.procedure("fire")
    inp = procedure.parse({"strength": 6, "range": "adjacent", "protection": "medium"})
    odds = procedure.odds(inp).to_json()
    chained: list[Entry] = []
    prev = GENESIS
    for seed in range(n):
        resolution = procedure.resolve(inp, seed)
        answer = resolve_json(found, procedure, inp, resolution)
        draft = resolution_draft(answer, resolution.replay_values(), odds, f"player {seed % 2}")
        entry = Entry.chained(draft, seed + 1, prev)
        chained.append(entry)
        prev = entry.hash
    return chained


def measure(label: str, url: str, chained: list[Entry], repeats: int) -> list[dict[str, object]]:
    """Load, verify and append on one database."""
    lines = [entry.to_line() for entry in chained]
    with Journal.open(url) as journal:
        progress(f"{label}: loading {len(lines):,} entries")
        load_s, _ = timed(lambda: journal.merge(lines, "benchmark"))
        progress(f"{label}: verifying ({repeats} runs)")
        verify_s, verdict = timed(journal.verify, repeats)
        assert verdict is not None
        assert verdict.ok
        assert verdict.entries == len(chained)
        memory_s, in_memory = timed(lambda: verify_entries(chained), repeats)
        assert in_memory is not None
        assert in_memory.ok
        progress(f"{label}: {APPENDS} appends")
        body = chained[0].body
        start = time.perf_counter()
        for _ in range(APPENDS):
            journal.append(Draft("player 0", body))
        append_s = (time.perf_counter() - start) / APPENDS
        assert journal.verify().ok
    n = f"{len(chained):,}"
    return [
        row(
            f"{label}: verify {n} entries",
            fmt_time(verify_s),
            baseline=f"{fmt_time(memory_s)} in memory",
            ratio=verify_s / memory_s,
            target=f"< {VERIFY_TARGET_S:.0f} s",
            met=verify_s < VERIFY_TARGET_S,
        ),
        row(f"{label}: load {n} entries (one import)", fmt_time(load_s)),
        row(f"{label}: one append, committed", fmt_time(append_s)),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    progress(f"building {args.entries:,} resolutions")
    chained = resolutions(args.entries)
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as folder:
        rows += measure("SQLite", str(Path(folder) / "journal.sqlite3"), chained, args.repeats)
    progress("starting a throwaway PostgreSQL server")
    with LocalPostgres() as server:
        rows += measure("PostgreSQL", server.create_database(), chained, args.repeats)
    print_table(rows)
    missed = report_missed(rows)
    write_results(
        Path(__file__).parent / "results" / "journal.json",
        {
            "when": datetime.now(UTC).isoformat(timespec="seconds"),
            "environment": environment(),
            "entries": args.entries,
            "rows": rows,
            "missed": missed,
        },
    )


if __name__ == "__main__":
    main()
