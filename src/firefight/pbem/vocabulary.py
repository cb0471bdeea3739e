"""The play-by-e-mail protocol's vocabulary: its name, the sides, the kinds of its steps'
entries, the game id that binds an offer and a join, and the checks of an offer's fields, each
error one line. Part of :mod:`~firefight.pbem.game`, which reads a game from these steps.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from firefight.errors import FirefightError, InputError
from firefight.journal.canonical import canonical
from firefight.journal.entry import KIND_RESOLUTION
from firefight.pbem.chain import MAX_LENGTH
from firefight.translation import gettext as _
from firefight.translation import thousands

PROTOCOL = "firefight-pbem/1"
SIDES = ("A", "B")
KIND_TABLE = "pbem-table"
KIND_OFFER = "pbem-offer"
KIND_JOIN = "pbem-join"
KIND_DECLARE = "pbem-declare"
KIND_SEED = "pbem-seed"
KINDS = (KIND_TABLE, KIND_OFFER, KIND_JOIN, KIND_DECLARE, KIND_RESOLUTION, KIND_SEED)
HEX = frozenset("0123456789abcdef")
SCENARIO_MAX = 2000
PLAYER_MAX = 200


class ProtocolError(FirefightError):
    """A step that breaks the protocol (a wrong element, a step out of turn, a roll that does
    not recompute): one line naming the entry."""


def rules_version() -> str:
    """The rules version bound into a game id: firefight's own version."""
    from firefight import __version__  # noqa: PLC0415

    return f"firefight {__version__}"


def other(side: str) -> str:
    """The other side."""
    return "B" if side == "A" else "A"


def hex_bytes(value: object, name: str, size: int = 32) -> bytes:
    """``value`` as ``size`` bytes written in lower-case hex, or a one-line error."""
    if not isinstance(value, str) or len(value) != 2 * size or not set(value) <= HEX:
        raise InputError(name, _("{count} lower-case hex digits").format(count=2 * size), value)
    return bytes.fromhex(value)


def game_id(offer: Mapping[str, Any], anchors: Mapping[str, str]) -> str:
    """The game id: SHA-256 of the canonical JSON binding both anchors, the scenario, the
    players, the chain length, the rules version and the protocol."""
    bound = {
        "protocol": offer["protocol"],
        "scenario": offer["scenario"],
        "rules": offer["rules"],
        "length": offer["length"],
        "players": offer["players"],
        "anchors": dict(anchors),
    }
    return hashlib.sha256(canonical(bound)).hexdigest()


def check_offer_fields(body: Mapping[str, Any]) -> None:
    """The offer's fields and their types, each error one line."""
    hex_bytes(body.get("anchor"), "anchor")
    scenario = body.get("scenario")
    if not isinstance(scenario, str) or len(scenario) > SCENARIO_MAX:
        raise InputError(
            "scenario",
            _("text of at most {scenario_max} characters").format(scenario_max=SCENARIO_MAX),
            scenario,
        )
    length = body.get("length")
    if not isinstance(length, int) or isinstance(length, bool) or not 1 <= length <= MAX_LENGTH:
        raise InputError(
            "length",
            _("a whole number of resolutions from 1 to {max_length}").format(
                max_length=thousands(MAX_LENGTH)
            ),
            length,
        )
    players = body.get("players")
    if not isinstance(players, dict) or sorted(players) != list(SIDES):
        raise InputError("players", "a player for side A and one for side B", players)
    for side in SIDES:
        name = players[side]
        if not isinstance(name, str) or not 1 <= len(name) <= PLAYER_MAX:
            raise InputError(
                f"players.{side}",
                _("text of 1 to {player_max} characters").format(player_max=PLAYER_MAX),
                name,
            )
    if not isinstance(body.get("rules"), str):
        raise InputError("rules", "the rules version (text)", body.get("rules"))
