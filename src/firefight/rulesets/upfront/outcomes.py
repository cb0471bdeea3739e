"""The outcomes of an attack on a group, named shortly: ``1 KIA, 2 pinned`` with its meaning
(``4 VP to the attacker``) beside, where the outcome's code is the whole tally
(:meth:`.resolution.Tally.text`: ``KIA 1, wounded 0, pinned 2, routed 0, berserk 0 (VP 4)``),
which stays what ``--json``, the journal and a replay give."""

from __future__ import annotations

import re

from firefight.i18n import gettext as _
from firefight.rulesets.upfront.resolution import LOSSES, Tally

__all__ = ["loss_words", "outcome_names", "read_tally"]

_TALLY = re.compile(
    r"KIA (\d+), wounded (\d+), pinned (\d+), routed (\d+), berserk (\d+) \(VP (\d+)\)"
    r"( attack ended)?"
)
""":meth:`Tally.text`, read back."""


def read_tally(text: str) -> tuple[Tally, int] | None:
    """The tally and its VP that :meth:`Tally.text` wrote as ``text``, or ``None`` when
    ``text`` is no tally (one man's result)."""
    found = _TALLY.fullmatch(text)
    if found is None:
        return None
    kia, wounded, pinned, routed, berserk, vp = (int(g) for g in found.groups()[:6])
    ended = 1 if found.group(7) else 0
    return Tally((kia, wounded, pinned, routed, berserk, ended)), vp


def loss_words(tally: Tally) -> str:
    """The men a tally counts, in words: ``1 KIA, 2 pinned``, or ``no losses``."""
    words = {
        "KIA": _("{count} KIA"),
        "wounded": _("{count} wounded"),
        "pinned": _("{count} pinned"),
        "routed": _("{count} routed"),
        "berserk": _("{count} berserk"),
    }
    parts = [
        words[kind].format(count=count)
        for kind, count in zip(LOSSES, tally.counts, strict=True)
        if kind in words and count
    ]
    return ", ".join(parts) if parts else _("no losses")


def outcome_names(outcome: str) -> tuple[str, str] | None:
    """A group's outcome as a short name and its meaning (the procedures' ``names``), or
    ``None`` for one man's result, whose code is its name."""
    read = read_tally(outcome)
    if read is None:
        return None
    tally, vp = read
    name = loss_words(tally)
    meaning = _("{vp} VP to the attacker").format(vp=vp)
    if tally.counts[LOSSES.index("attack ended")]:
        name = _("{losses}; attack ended").format(losses=name)
        meaning = _(
            "{vp} VP to the attacker; a weapon malfunction ended the attack (page 6) before "
            "every man was resolved"
        ).format(vp=vp)
    return name, meaning
