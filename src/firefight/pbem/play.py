"""Playing by e-mail: each player's secrets, the messages exchanged, and the four commands'
work (``firefight pbem new|declare|answer|verify``, and ``end``), on the player's own journal.

Both players hold a copy of **one** journal: each step is appended by the player who takes it,
and a message carries the entries its sender wrote since the other's last one (as the journal's
JSON Lines), which the receiver checks — every protocol step — and imports. A message is a text
block that survives being pasted in a mail (zlib, then base64 in lines of 76 characters)::

    -----BEGIN FIREFIGHT PBEM-----
    Game: pbem-3f9a0c2b7d1e4a55
    eJy1Vt1u2zAMfhfdp0Ft…
    -----END FIREFIGHT PBEM-----

A player's seeds are kept apart from the journal, one file per chain named by its anchor
(readable by him only), in ``FIREFIGHT_PBEM_SECRETS`` or the ``pbem`` folder of his data folder.

Part, its public names re-exported here: the message's block, its game's name and the bounds
it is read within (:mod:`.message`). This module keeps the secrets and the commands' work.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firefight.errors import FirefightError, InputError
from firefight.journal.canonical import GENESIS
from firefight.journal.database import database_url, shown
from firefight.journal.entry import Draft, Entry
from firefight.journal.store import Journal, JournalError
from firefight.pbem.chain import anchor, element, new_seed
from firefight.pbem.game import (
    SIDES,
    Game,
    answer_draft,
    check_next,
    declare_draft,
    join_draft,
    offer_draft,
    other,
    rules_version,
    seed_draft,
)
from firefight.pbem.message import (
    BEGIN,
    END,
    HEX_DIGITS,
    INFLATED_MAX,
    LINES_MAX,
    MESSAGE_MAX,
    NAME_PREFIX,
    MessageError,
    armor,
    dearmor,
    example_message,
    game_name,
    load_message,
    read_message,
)
from firefight.translation import gettext
from firefight.translation import gettext as _

SECRETS_VARIABLE = "FIREFIGHT_PBEM_SECRETS"


# secrets


def secrets_dir() -> Path:
    """Where this player's seeds are kept."""
    given = os.environ.get(SECRETS_VARIABLE)
    if given:
        return Path(given)
    from platformdirs import user_data_path  # noqa: PLC0415

    return user_data_path("firefight", appauthor=False) / "pbem"


def save_seed(seed: bytes, length: int) -> str:
    """Keep ``seed`` in a file only its owner can read; its chain's anchor (hex)."""
    top = anchor(seed, length).hex()
    folder = secrets_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{top}.json"
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        json.dump({"seed": seed.hex(), "length": length, "anchor": top}, file)
    return top


def load_seed(anchor_hex: str) -> bytes | None:
    """The seed of the chain anchored at ``anchor_hex``, if this player holds it."""
    path = secrets_dir() / f"{anchor_hex}.json"
    if not path.is_file():
        return None
    return bytes.fromhex(json.loads(path.read_text(encoding="utf-8"))["seed"])


def my_side(game: Game, side: str | None = None) -> str:
    """The side this player plays: the one whose seed he holds (``side`` when he holds both,
    as one person testing both sides does)."""
    held = [s for s in SIDES if s in game.anchors and load_seed(game.anchors[s]) is not None]
    if side is not None:
        if side not in held:
            raise InputError(
                "side",
                _("a side whose seed you hold ({held})").format(held=", ".join(held) or _("none")),
                side,
            )
        return side
    if len(held) == 1:
        return held[0]
    if not held:
        msg = _("you hold neither side's seed in {secrets_dir} (set {secrets_variable})").format(
            secrets_dir=secrets_dir(), secrets_variable=SECRETS_VARIABLE
        )
        raise FirefightError(msg)
    raise InputError("side", "A or B: you hold both sides' seeds", "")


def outgoing(entries: list[Entry], side: str) -> list[Entry]:
    """What to send: the entries written by ``side`` since the other side's last one."""
    start = len(entries)
    while start > 0 and entries[start - 1].body.get("side") == side:
        start -= 1
    return entries[start:]


# the commands' work


@dataclass
class Step:
    """What a command did: the game's name, its state, the message to send (if any)."""

    name: str
    game: Game
    message: str | None
    said: str

    def to_json(self) -> dict[str, Any]:
        """``--json``'s answer."""
        return {
            "game": self.name,
            "id": self.game.id or None,
            "status": self.game.status(),
            "resolved": self.game.resolved,
            "said": self.said,
            "message": self.message,
        }


def _read(journal: Journal) -> tuple[list[Entry], Game]:
    entries = list(journal.entries())
    return entries, Game.read(entries)


class StepConflictError(FirefightError):
    """Another writer appended to the game between reading it and writing this step."""


def append_step(journal: Journal, game: Game, draft: Draft) -> Entry:
    """Append ``draft`` as the step after the game's last entry, checked against the game, and
    only if the journal still ends there: written as an import of that one entry (one
    transaction under the journal's write lock), so two writers at once — two server
    processes, two commands — cannot both take the same turn; the second is refused."""
    seq = game.last.seq + 1 if game.last else 1
    entry = Entry.chained(draft, seq, game.last.hash if game.last else GENESIS)
    check_next(game, draft)
    try:
        journal.merge([entry.to_line()], "this step")
    except JournalError as error:
        if "does not continue" not in str(error) and "differs" not in str(error):
            raise  # the database failed: not a conflict
        msg = (
            f"the game {journal.name} moved on meanwhile (entry {seq} was written by "
            "another); read it again"
        )
        raise StepConflictError(msg) from None
    game.apply(entry)
    return entry


_append = append_step


def new(db: str | None, side: str, players: Mapping[str, str], scenario: str, length: int) -> Step:
    """Offer a game: a new chain, its anchor committed in the journal's first entry."""
    seed = new_seed()
    draft = offer_draft(side, players, scenario, length, anchor(seed, length).hex())
    name = NAME_PREFIX + Entry.chained(draft, 1, GENESIS).hash[:16]
    save_seed(seed, length)
    with Journal.open(db, name) as journal:
        if journal.count():
            raise FirefightError(
                gettext("the journal {name} exists already").format(name=name)
            )  # pragma: no cover
        _, game = _read(journal)
        entry = _append(journal, game, draft)
        return Step(name, game, armor(name, [entry]), f"offered game {name} as side {side}")


def _held(db: str | None, name: str) -> list[Entry]:
    """The entries this player's journal holds of the game ``name``, read without writing (a
    journal the database does not hold, or a database file not there, holds none)."""
    try:
        journal = Journal.open(db, name, create=False)
    except InputError:
        return []
    with journal:
        return list(journal.entries())


def receive(db: str | None, text: str) -> tuple[str, Journal]:
    """Check a message against the game so far (every step) and import its entries. Nothing
    is written, not even an empty journal, unless the message is accepted."""
    name, incoming = dearmor(text)
    merged = {e.seq: e for e in _held(db, name)}
    for entry in incoming:
        if entry.seq in merged and merged[entry.seq].hash != entry.hash:
            raise FirefightError(
                _("the message's entry {seq} differs from yours (the journals diverge)").format(
                    seq=entry.seq
                )
            )
        merged.setdefault(entry.seq, entry)
    Game.read(merged[s] for s in sorted(merged))
    journal = Journal.open(db, name)
    try:
        journal.merge([e.to_line() for e in incoming], "the message")
    except BaseException:
        journal.close()
        raise
    return name, journal


def answer(db: str | None, text: str, side: str | None = None) -> Step:
    """Import a message and take the step it asks for: join an offer, reveal an element for a
    declaration, reveal a seed when the other revealed his."""
    name, journal = receive(db, text)
    with journal:
        entries, game = _read(journal)
        if game.offer is not None and not game.started:
            if load_seed(game.anchors[game.offer_side]) is not None:
                return Step(name, game, None, "your own offer: send it to the other player")
            seed = new_seed()
            top = save_seed(seed, game.length)
            _append(journal, game, join_draft(game, top))
            mine = other(game.offer_side)
            said = f"joined game {name} as side {mine}; game id {game.id}"
        else:
            mine = my_side(game, side)
            seed = _seed(game, mine)
            if game.open is not None and game.open.side != mine:
                index = game.open.index
                _append(
                    journal, game, answer_draft(game, mine, element(seed, game.length, index).hex())
                )
                said = (
                    f"answered resolution {index}: {game.last.body['outcome'] if game.last else ''}"
                )
            elif game.seeds and mine not in game.seeds:
                _append(journal, game, seed_draft(game, mine, seed.hex()))
                said = "revealed your seed: the game is over"
            else:
                return Step(name, game, None, f"nothing to answer: {game.status()}")
        entries = list(journal.entries())
        return Step(name, game, armor(name, outgoing(entries, mine)), said)


def _seed(game: Game, side: str) -> bytes:
    seed = load_seed(game.anchors[side])
    if seed is None:  # pragma: no cover - my_side checked it
        raise FirefightError(_("no seed for side {side}").format(side=side))
    return seed


def declare(  # noqa: PLR0917 - the command's options
    db: str | None,
    name: str,
    ruleset_id: str,
    procedure_name: str,
    data: Mapping[str, Any],
    side: str | None = None,
) -> Step:
    """Declare the next resolution and reveal this player's element for it."""
    with _existing(db, name) as journal:
        _, game = _read(journal)
        if not game.started:
            raise FirefightError(
                gettext("game {name} has not started: {status}").format(
                    name=name, status=game.status()
                )
            )
        mine = my_side(game, side)
        seed = _seed(game, mine)
        index = game.resolved + 1
        if index > game.length:
            raise FirefightError(
                gettext("the chains hold {length} resolutions; the game is full").format(
                    length=game.length
                )
            )
        draft = declare_draft(
            game, mine, ruleset_id, procedure_name, data, element(seed, game.length, index).hex()
        )
        _append(journal, game, draft)
        entries = list(journal.entries())
        return Step(
            journal.name,
            game,
            armor(journal.name, outgoing(entries, mine)),
            f"declared resolution {index}",
        )


def end(db: str | None, name: str, side: str | None = None) -> Step:
    """End the game by revealing this player's seed."""
    with _existing(db, name) as journal:
        _, game = _read(journal)
        mine = my_side(game, side)
        _append(journal, game, seed_draft(game, mine, _seed(game, mine).hex()))
        entries = list(journal.entries())
        return Step(
            journal.name, game, armor(journal.name, outgoing(entries, mine)), "revealed your seed"
        )


def _existing(db: str | None, given: str, *, write: bool = True) -> Journal:
    """The journal of the game ``given``, which must hold at least its offer: looked for
    without writing, so a mistyped game never becomes an empty journal; opened to write
    (migrating the database as needed) only once found, unless ``write`` is false."""
    name = game_name(given)
    try:
        found = Journal.open(db, name, create=False)
    except InputError:
        found = None
    if found is not None and found.count() > 0:
        if not write:
            return found
        found.close()
        return Journal.open(db, name)
    where = found.where if found is not None else shown(database_url(db))
    if found is not None:
        found.close()
    raise InputError("game", _("a game of the journal {where}").format(where=where), given)


@dataclass
class Verdict:
    """``pbem verify``'s answer: the journal's chain, then the protocol."""

    name: str
    entries: int
    problems: list[str]
    game: Game | None

    @property
    def notes(self) -> list[str]:
        """What the reader should know though it is no problem: a game written by another
        version of firefight (its rolls recompute with this one's rules)."""
        written = self.game.offer.get("rules") if self.game and self.game.offer else None
        if written is None or written == rules_version():
            return []
        return [f"the game was played with {written}; verified with {rules_version()}"]

    @property
    def ok(self) -> bool:
        """Everything verifies."""
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        """``--json``'s answer."""
        game = self.game
        return {
            "game": self.name,
            "ok": self.ok,
            "entries": self.entries,
            "problems": self.problems,
            "notes": self.notes,
            "id": game.id if game else None,
            "resolved": game.resolved if game else 0,
            "seeds": sorted(game.seeds) if game else [],
            "status": game.status() if game else None,
        }


def verify_entries(name: str, entries: list[Entry], chain_problems: list[str]) -> Verdict:
    """Every check: the chain's problems given, then every protocol step and every roll."""
    problems = list(chain_problems)
    game: Game | None = None
    try:
        game = Game.read(entries)
    except FirefightError as error:
        problems.append(str(error))
    return Verdict(name, len(entries), problems, game)


def verify(db: str | None, name: str) -> Verdict:
    """Verify the game ``name`` in the journal at ``db``."""
    with _existing(db, name, write=False) as journal:
        checked = journal.verify()
        entries = list(journal.entries())
        return verify_entries(journal.name, entries, [str(p) for p in checked.problems])


def verify_message(text: str) -> Verdict:
    """Verify a message holding a whole game (``firefight journal export`` in a block, or a
    game's full history): the chain from entry 1, then the protocol."""
    from firefight.journal.chain import verify_entries as chain_verify  # noqa: PLC0415

    name, entries = dearmor(text, chained=False)
    checked = chain_verify(entries)
    return verify_entries(name, entries, [str(p) for p in checked.problems])


__all__ = [
    "BEGIN",
    "END",
    "HEX_DIGITS",
    "INFLATED_MAX",
    "LINES_MAX",
    "MESSAGE_MAX",
    "NAME_PREFIX",
    "SECRETS_VARIABLE",
    "MessageError",
    "Step",
    "StepConflictError",
    "Verdict",
    "answer",
    "append_step",
    "armor",
    "dearmor",
    "declare",
    "end",
    "example_message",
    "game_name",
    "load_message",
    "load_seed",
    "my_side",
    "new",
    "outgoing",
    "read_message",
    "receive",
    "save_seed",
    "secrets_dir",
    "verify",
    "verify_entries",
    "verify_message",
]
