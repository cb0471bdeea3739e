"""Which resolutions are journaled, by whom, and the entry one makes.

``firefight resolve`` journals a resolution when asked: ``--journal``, or ``--db URL`` (giving
a database is asking to write to it), or the setting ``FIREFIGHT_JOURNAL=1``. The default is
off: ``resolve`` is also a calculator and a script's building block, and writing to a file in
the user's data folder at every call, unasked, would be a side effect nobody requested; a game
whose rolls must be kept turns it on once (the environment variable) or per call. (Journaling
every resolution by default was the alternative not taken.)
"""

from __future__ import annotations

import getpass
import os
from collections.abc import Mapping, Sequence

from firefight.errors import InputError
from firefight.journal.entry import KIND_RESOLUTION, Draft

JOURNAL_VARIABLE = "FIREFIGHT_JOURNAL"
"""``1``: ``firefight resolve`` journals every resolution; ``0`` or unset: only when asked."""
PLAYER_VARIABLE = "FIREFIGHT_PLAYER"
"""Who is rolling, when ``--player`` is not given (else the login name)."""


def journaling(flag: bool, db: str | None) -> bool:
    """Whether to journal this resolution: ``--journal``, ``--db`` or ``FIREFIGHT_JOURNAL=1``."""
    if flag or db:
        return True
    setting = os.environ.get(JOURNAL_VARIABLE, "")
    if setting not in {"", "0", "1"}:
        raise InputError(JOURNAL_VARIABLE, "0 or 1", setting)
    return setting == "1"


def player(given: str | None) -> str:
    """Who rolled: ``--player``, else ``FIREFIGHT_PLAYER``, else the login name."""
    if given:
        return given
    from_setting = os.environ.get(PLAYER_VARIABLE)
    if from_setting:
        return from_setting
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no login name (a container's numeric user)
        return "unknown"


def resolution_draft(
    answer: Mapping[str, object],
    dice: Sequence[str],
    odds: Mapping[str, str],
    who: str,
) -> Draft:
    """The entry of one resolution: ``resolve --json``'s answer (rule set, procedure, input,
    modifiers, outcome, trace, seed) with the dice as ``--roll`` replays them and the exact odds
    of this input (for the luck report) as ``[outcome, "p/q"]`` pairs, in the chart's order
    (a JSON object's keys are sorted in canonical JSON)."""
    pairs = [[outcome, probability] for outcome, probability in odds.items()]
    return Draft(who=who, body={**answer, "dice": list(dice), "odds": pairs}, kind=KIND_RESOLUTION)


def record(
    answer: Mapping[str, object],
    dice: Sequence[str],
    odds: Mapping[str, str],
    who: str | None,
    db: str | None,
) -> dict[str, object]:
    """Append one resolution to the journal at ``db`` (``None``: ``FIREFIGHT_DB`` or the
    default file); ``{"seq", "hash", "db", "name"}`` of the entry, once committed."""
    from firefight.journal.store import DEFAULT_NAME, Journal  # noqa: PLC0415

    with Journal.open(db) as journal:
        entry = journal.append(resolution_draft(answer, dice, odds, player(who)))
        return {"seq": entry.seq, "hash": entry.hash, "db": journal.where, "name": DEFAULT_NAME}
