"""The play-by-e-mail protocol: a game read from its journal entries, and the next entries.

A game is a journal (docs/journal.md) whose entries are the protocol's steps, in order
(docs/pbem.md):

1. ``pbem-offer`` — one side commits to the anchor of his chain, with the scenario, the
   players, the chain length and the rules version (firefight's version);
2. ``pbem-join`` — the other side commits to his anchor; the **game id** is the SHA-256 of the
   canonical JSON of both anchors, the scenario, the players, the length, the rules version and
   the protocol, and every later step names it;
3. ``pbem-declare`` — the acting side declares resolution ``index`` (rule set, procedure,
   input) and reveals his element for it;
4. ``resolution`` — the other side reveals his element; the dice are the HMAC of both elements
   over the game id, the index and the declared input (:mod:`firefight.chance.keyed`), fed to
   the procedure's ``replay`` so that the entry holds the usual trace (a ``resolution`` entry,
   as ``firefight resolve --journal`` writes, so the luck report reads it);
5. ``pbem-seed`` — at the end each side reveals his seed; every element, and so every roll,
   then recomputes from the seeds alone.

Reading a game applies each step with every check; a step that breaks the protocol raises
:class:`ProtocolError` naming the entry. The same checks guard the steps a player writes and
the steps a verifier reads.

Part, its public names re-exported here: the protocol's vocabulary, the game id and the offer's
field checks (:mod:`.vocabulary`). This module keeps the game and the drafts of its steps.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from firefight.chance.keyed import keyed
from firefight.errors import InputError
from firefight.journal.entry import KIND_RESOLUTION, Draft, Entry
from firefight.pbem.chain import follows, seed_reaches
from firefight.pbem.vocabulary import (
    HEX,
    KIND_DECLARE,
    KIND_JOIN,
    KIND_OFFER,
    KIND_SEED,
    KIND_TABLE,
    KINDS,
    PLAYER_MAX,
    PROTOCOL,
    SCENARIO_MAX,
    SIDES,
    ProtocolError,
    check_offer_fields,
    game_id,
    hex_bytes,
    other,
    rules_version,
)


@dataclass(frozen=True)
class Declaration:
    """An open declaration: resolution ``index`` by ``side``, waiting for the other's element."""

    index: int
    side: str
    ruleset: str
    procedure: str
    input: dict[str, Any]
    element: str
    hash: str

    def declared(self) -> dict[str, Any]:
        """What the dice are bound to: rule set, procedure and input."""
        return {"ruleset": self.ruleset, "procedure": self.procedure, "input": self.input}


@dataclass
class Game:
    """A game's state after the entries read so far (:meth:`read`)."""

    table: dict[str, Any] | None = None
    """A shared table's game: its first entry (scenario, players, length, token hashes)."""
    offer: dict[str, Any] | None = None
    offer_side: str = ""
    anchors: dict[str, str] = field(default_factory=dict)
    id: str = ""
    revealed: dict[str, str] = field(default_factory=dict)
    """Each side's last revealed element (his anchor before the first)."""
    resolved: int = 0
    open: Declaration | None = None
    seeds: dict[str, str] = field(default_factory=dict)
    last: Entry | None = None

    @classmethod
    def read(cls, entries: Iterable[Entry]) -> Game:
        """The game the entries make, every step checked (:class:`ProtocolError` at the first
        step that breaks the protocol)."""
        game = cls()
        for entry in entries:
            game.apply(entry)
        return game

    # what the state allows

    @property
    def started(self) -> bool:
        """Both anchors committed: the game id exists."""
        return bool(self.id)

    @property
    def players(self) -> dict[str, str]:
        """Each side's player."""
        return dict(self.offer["players"]) if self.offer else {}

    @property
    def length(self) -> int:
        """The chain length: how many resolutions the game can hold."""
        return int(self.offer["length"]) if self.offer else 0

    @property
    def ended(self) -> bool:
        """A seed was revealed: no more resolutions."""
        return bool(self.seeds)

    def status(self) -> str:
        """What the game waits for, in words."""
        if self.offer is None:
            return "no offer yet"
        if not self.started:
            return f"waiting for side {other(self.offer_side)} to join"
        if len(self.seeds) == len(SIDES):
            return f"ended after {self._resolutions()}; both seeds revealed"
        if self.seeds:
            missing = next(s for s in SIDES if s not in self.seeds)
            return f"ended; waiting for side {missing} to reveal his seed"
        if self.open is not None:
            waiting = other(self.open.side)
            return (
                f"resolution {self.open.index} declared by side {self.open.side}; "
                f"waiting for side {waiting}'s element"
            )
        return f"{self._resolutions()}; either side may declare resolution {self.resolved + 1}"

    def _resolutions(self) -> str:
        return f"{self.resolved} resolution{'' if self.resolved == 1 else 's'}"

    # reading one step

    def apply(self, entry: Entry) -> None:
        """Apply one entry, checking it against the protocol."""
        if entry.kind not in KINDS:
            self._fail(entry, f"kind must be one of {', '.join(KINDS)}")
        body = entry.body
        if entry.kind == KIND_TABLE:
            if entry.seq != 1:
                self._fail(entry, "a table entry comes first")
            self.table = dict(body)
        elif entry.kind == KIND_OFFER:
            self._apply_offer(entry, body)
        elif entry.kind == KIND_JOIN:
            self._apply_join(entry, body)
        elif entry.kind == KIND_DECLARE:
            self._apply_declare(entry, body)
        elif entry.kind == KIND_RESOLUTION:
            self._apply_resolution(entry, body)
        else:
            self._apply_seed(entry, body)
        self.last = entry

    @staticmethod
    def _fail(entry: Entry, problem: str) -> None:
        msg = f"entry {entry.seq} ({entry.kind}): {problem}"
        raise ProtocolError(msg)

    def _side(self, entry: Entry, body: Mapping[str, Any]) -> str:
        side = body.get("side")
        if side not in SIDES:
            self._fail(entry, f"side must be A or B (got {side!r})")
        return str(side)

    def _check_game(self, entry: Entry, body: Mapping[str, Any]) -> None:
        if not self.started:
            self._fail(entry, "the game has not started (both anchors committed)")
        if body.get("game") != self.id:
            self._fail(
                entry, f"names game {str(body.get('game'))[:16]}…, not this game {self.id[:16]}…"
            )

    def _reveal(self, entry: Entry, side: str, value: object) -> None:
        try:
            revealed = hex_bytes(value, "element")
        except InputError:
            self._fail(entry, "element must be 64 lower-case hex digits")
        if not follows(revealed, bytes.fromhex(self.revealed[side])):
            self._fail(
                entry,
                f"side {side}'s element does not hash to the one revealed before it "
                "(a reused, skipped or made-up element)",
            )
        self.revealed[side] = str(value)

    def _apply_offer(self, entry: Entry, body: Mapping[str, Any]) -> None:
        if self.offer is not None:
            self._fail(entry, "a game has one offer")
        side = self._side(entry, body)
        check_offer_fields(body)
        if body.get("protocol") != PROTOCOL:
            self._fail(entry, f"protocol must be {PROTOCOL}")
        if self.table is not None:
            for name in ("scenario", "players", "length"):
                if body.get(name) != self.table.get(name):
                    self._fail(entry, f"its {name} is not the table's")
        self.offer = dict(body)
        self.offer_side = side
        self.anchors[side] = body["anchor"]
        self.revealed[side] = body["anchor"]

    def _apply_join(self, entry: Entry, body: Mapping[str, Any]) -> None:
        if self.offer is None or self.started:
            self._fail(entry, "a join answers an offer, once")
        side = self._side(entry, body)
        if side == self.offer_side:
            self._fail(entry, f"side {side} made the offer; the other side joins")
        hex_bytes(body.get("anchor"), "anchor")
        if body.get("anchor") == self.anchors[self.offer_side]:
            self._fail(entry, "both sides committed to the same anchor")
        anchors = {**self.anchors, side: body["anchor"]}
        expected = game_id(self.offer, anchors)  # type: ignore[arg-type]
        if body.get("game") != expected:
            self._fail(entry, f"the game id must be {expected}")
        self.anchors = anchors
        self.revealed[side] = body["anchor"]
        self.id = expected

    def _apply_declare(self, entry: Entry, body: Mapping[str, Any]) -> None:
        self._check_game(entry, body)
        if self.ended:
            self._fail(entry, "the game has ended (a seed was revealed)")
        if self.open is not None:
            self._fail(entry, f"resolution {self.open.index} is declared and not yet answered")
        index = self.resolved + 1
        if body.get("index") != index:
            self._fail(entry, f"index must be {index} (got {body.get('index')!r})")
        if index > self.length:
            self._fail(entry, f"the chains hold {self.length} resolutions")
        side = self._side(entry, body)
        procedure_of(str(body.get("ruleset")), str(body.get("procedure")), body.get("input"))
        self._reveal(entry, side, body.get("element"))
        self.open = Declaration(
            index,
            side,
            str(body["ruleset"]),
            str(body["procedure"]),
            dict(body["input"]),
            str(body["element"]),
            entry.hash,
        )

    def _apply_resolution(self, entry: Entry, body: Mapping[str, Any]) -> None:
        self._check_game(entry, body)
        declared = self.open
        if declared is None:
            self._fail(entry, "no declaration waits for an answer")
            return
        side = self._side(entry, body)
        if side == declared.side:
            self._fail(entry, f"side {side} declared; the other side answers")
        if body.get("index") != declared.index or body.get("declaration") != declared.hash:
            self._fail(
                entry, f"must answer resolution {declared.index}, entry {declared.hash[:16]}…"
            )
        self._reveal(entry, side, body.get("element"))
        expected = self.resolution(declared, str(body["element"]), side)
        for name in ("ruleset", "procedure", "input", "dice", "outcome", "trace"):
            if body.get(name) != expected[name]:
                self._fail(
                    entry, f"its {name} is not what the elements give (the roll does not recompute)"
                )
        self.open = None
        self.resolved = declared.index

    def _apply_seed(self, entry: Entry, body: Mapping[str, Any]) -> None:
        self._check_game(entry, body)
        side = self._side(entry, body)
        if side in self.seeds:
            self._fail(entry, f"side {side} revealed his seed already")
        if self.open is not None and self.open.side == side:
            self._fail(entry, f"side {side} has a declaration waiting; the other answers first")
        seed = hex_bytes(body.get("seed"), "seed")
        if not seed_reaches(seed, self.length, bytes.fromhex(self.anchors[side])):
            self._fail(entry, f"side {side}'s seed does not give his anchor")
        self.seeds[side] = str(body["seed"])

    def resolution(self, declared: Declaration, element: str, side: str) -> dict[str, Any]:
        """The resolution body the elements give (:func:`resolution_body`): a subclass that
        holds it worked out already answers it without working it out again."""
        return resolution_body(self, declared, element, side)

    # the next steps

    def key(self, elements: Mapping[str, str]) -> bytes:
        """The HMAC key of one resolution: side A's element then side B's (64 bytes)."""
        return bytes.fromhex(elements["A"]) + bytes.fromhex(elements["B"])


def procedure_of(ruleset_id: str, procedure_name: str, data: object) -> tuple[Any, Any, Any]:
    """The rule set, procedure and validated input of a declaration (one-line errors)."""
    from firefight.rulesets import ruleset  # noqa: PLC0415

    if not isinstance(data, dict):
        raise InputError("input", "a JSON object of the procedure's inputs", data)
    found = ruleset(ruleset_id)
    procedure = found.procedure(procedure_name)
    return found, procedure, procedure.parse(data)


def dice_context(game: Game, declared: Declaration) -> dict[str, Any]:
    """What the HMAC message holds besides the event: protocol, game id, index, declared input."""
    return {
        "protocol": PROTOCOL,
        "game": game.id,
        "index": declared.index,
        "declared": declared.declared(),
    }


def resolution_body(game: Game, declared: Declaration, element: str, side: str) -> dict[str, Any]:
    """The ``resolution`` entry's body for ``declared`` answered with ``element``: the dice from
    the HMAC, replayed through the procedure's ``replay`` for the usual trace."""
    from firefight.faces import resolve_json  # noqa: PLC0415

    found, procedure, inp = procedure_of(declared.ruleset, declared.procedure, declared.input)
    elements = {declared.side: declared.element, side: element}
    drawn = keyed(
        lambda chance: procedure.rule(inp, chance), game.key(elements), dice_context(game, declared)
    )
    dice = drawn.replay_values()
    replayed = procedure.replay(inp, dice)
    if replayed.outcome != drawn.outcome or replayed.trace != drawn.trace:  # pragma: no cover
        msg = "the keyed dice do not replay to the same resolution"
        raise AssertionError(msg)
    answer = resolve_json(found, procedure, inp, replayed)
    answer.pop("seed", None)
    odds = [
        [outcome, probability] for outcome, probability in procedure.odds(inp).to_json().items()
    ]
    return {
        **answer,
        "dice": dice,
        "odds": odds,
        "protocol": PROTOCOL,
        "game": game.id,
        "index": declared.index,
        "side": side,
        "element": element,
        "declaration": declared.hash,
        "actor": declared.side,
    }


# drafts of the next step, each checked by applying it to a copy of the game


def offer_draft(
    side: str, players: Mapping[str, str], scenario: str, length: int, anchor: str
) -> Draft:
    """Side ``side`` offers a game, committing to ``anchor``."""
    if side not in SIDES:
        raise InputError("side", "A or B", side)
    body = {
        "protocol": PROTOCOL,
        "side": side,
        "players": dict(players),
        "scenario": scenario,
        "length": length,
        "rules": rules_version(),
        "anchor": anchor,
    }
    check_offer_fields(body)
    return Draft(who=players[side], body=body, kind=KIND_OFFER)


def join_draft(game: Game, anchor: str) -> Draft:
    """The other side joins ``game``, committing to ``anchor``."""
    if game.offer is None or game.started:
        msg = "only an offer waiting for its second player can be joined"
        raise ProtocolError(msg)
    side = other(game.offer_side)
    hex_bytes(anchor, "anchor")
    body = {
        "protocol": PROTOCOL,
        "side": side,
        "anchor": anchor,
        "game": game_id(game.offer, {**game.anchors, side: anchor}),
    }
    return Draft(who=game.players[side], body=body, kind=KIND_JOIN)


def declare_draft(  # noqa: PLR0917 - the declaration's parts
    game: Game,
    side: str,
    ruleset_id: str,
    procedure_name: str,
    data: Mapping[str, Any],
    element: str,
) -> Draft:
    """Side ``side`` declares the next resolution and reveals ``element``."""
    found, procedure, inp = procedure_of(ruleset_id, procedure_name, dict(data))
    body = {
        "protocol": PROTOCOL,
        "game": game.id,
        "index": game.resolved + 1,
        "side": side,
        "ruleset": found.id,
        "procedure": procedure.name,
        "input": inp.model_dump(mode="json"),
        "element": element,
    }
    return Draft(who=game.players.get(side, side), body=body, kind=KIND_DECLARE)


def answer_draft(game: Game, side: str, element: str) -> Draft:
    """Side ``side`` answers the open declaration with ``element``: the resolution."""
    declared = game.open
    if declared is None:
        msg = "no declaration waits for an answer"
        raise ProtocolError(msg)
    if declared.side == side:
        msg = f"side {side} declared resolution {declared.index}; the other side answers"
        raise ProtocolError(msg)
    body = resolution_body(game, declared, element, side)
    # ``who`` is who rolled, for the luck report: the declaring side's player.
    return Draft(who=game.players[declared.side], body=body, kind=KIND_RESOLUTION)


def seed_draft(game: Game, side: str, seed: str) -> Draft:
    """Side ``side`` ends the game by revealing his seed."""
    body = {"protocol": PROTOCOL, "game": game.id, "side": side, "seed": seed}
    return Draft(who=game.players.get(side, side), body=body, kind=KIND_SEED)


def check_next(game: Game, draft: Draft) -> None:
    """Refuse ``draft`` unless it is a valid next step of ``game`` (applied to a copy)."""
    import copy  # noqa: PLC0415

    seq = game.last.seq + 1 if game.last else 1
    prev = game.last.hash if game.last else "0" * 64
    copy.deepcopy(game).apply(Entry.chained(draft, seq, prev))


__all__ = [
    "HEX",
    "KINDS",
    "KIND_DECLARE",
    "KIND_JOIN",
    "KIND_OFFER",
    "KIND_SEED",
    "KIND_TABLE",
    "PLAYER_MAX",
    "PROTOCOL",
    "SCENARIO_MAX",
    "SIDES",
    "Declaration",
    "Game",
    "ProtocolError",
    "answer_draft",
    "check_next",
    "check_offer_fields",
    "declare_draft",
    "dice_context",
    "game_id",
    "hex_bytes",
    "join_draft",
    "offer_draft",
    "other",
    "procedure_of",
    "resolution_body",
    "rules_version",
    "seed_draft",
]
