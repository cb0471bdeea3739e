"""The process the kill test kills: opens a journal, then appends entries without end.

Prints ``opening`` once its imports are done, ``ready`` once the journal is open, then
``SEQ HASH`` after each append returns (that is, once it is committed): a line printed is an
entry reported written. Run as ``python kill_writer.py URL WHO``.
"""

from __future__ import annotations

import sys

from firefight.journal import Draft, Journal


def main() -> None:
    url, who = sys.argv[1], sys.argv[2]
    sys.stdout.write("opening\n")
    sys.stdout.flush()
    journal = Journal.open(url)
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    trace = [{"label": f"die {i}", "value": i % 6 + 1} for i in range(40)]
    count = 0
    while True:
        entry = journal.append(Draft(who, {"count": count, "trace": trace}))
        sys.stdout.write(f"{entry.seq} {entry.hash}\n")
        sys.stdout.flush()
        count += 1


if __name__ == "__main__":
    main()
