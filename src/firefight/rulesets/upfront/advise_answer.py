"""The ``advise`` action: the best play from the hand (:mod:`.advise`) as the command
``firefight advise`` (``--ruleset upfront`` where other rule sets declare ``advise`` too), the
route ``POST /api/upfront/advise`` and the card table's "Advise" button, all generated from
:class:`.advise.AdviseInput`. Its ``--json`` shape is in docs/advisor.md."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from firefight.errors import InputError
from firefight.i18n import N_
from firefight.i18n import gettext as _
from firefight.rulesets.action import Action, Line, Shown, Table, bold, dim
from firefight.rulesets.upfront.advise import Advice, AdviseInput, Play, advise
from firefight.rulesets.upfront.lists import shown

__all__ = ["ACTIONS", "ADVISE", "AdviceAnswer"]

SHAPE = 1
"""The version of the ``--json`` shape (docs/advisor.md)."""


def _percent(p: Fraction) -> str:
    return f"{float(p) * 100:.1f} %"


def _score_text(objective: str, value: Fraction) -> str:
    return f"{float(value):.3f}" if objective == "expected_vp" else _percent(value)


def _play_words(play: Play) -> str:
    """A play in words: ``FIRE 67+70 (7)``, ``+ CONCEALMENT 120``, or called off."""
    if play.call_off:
        return _("call the attack off")
    cards = "+".join(map(str, play.fire_cards))
    words = _("FIRE {cards} = {total}").format(cards=cards, total=play.total)
    if play.concealment is not None:
        words += " + " + _("CONCEALMENT {card}").format(card=play.concealment)
    if play.smoke is not None:
        words += " + " + _("SMOKE {card}").format(card=play.smoke)
    return words


def _vp_text(play: Play) -> str:
    """The VP distribution, compact: ``0:64.7 2:30.3 4:3.8`` (percent)."""
    return " ".join(f"{vp}:{float(p) * 100:.1f}" for vp, p in sorted(play.vp.items()))


def play_json(advice: Advice, rank: int, play: Play) -> dict[str, object]:
    """One play of the ``--json`` shape (probabilities as exact ``"p/q"`` text)."""
    return {
        "rank": rank,
        "call_off": play.call_off,
        "fire_cards": list(play.fire_cards),
        "total": play.total,
        "ways": play.ways,
        "kept": list(play.kept),
        "concealment": play.concealment,
        "smoke": play.smoke,
        "ffs": play.ffs,
        "score": str(play.score(advice.objective)),
        "behind": str(advice.behind(play)),
        "expected_vp": str(play.expected_vp),
        "p_kia": str(play.p_kia),
        "p_no_effect": str(play.p_no_effect),
        "vp": {str(v): str(p) for v, p in sorted(play.vp.items())},
        "outcomes": play.outcomes.to_json(),
    }


@dataclass(frozen=True)
class AdviceAnswer:
    """The plays ranked, as the faces show them."""

    advice: Advice

    def to_json(self) -> Mapping[str, object]:
        """The ``--json`` shape (docs/advisor.md)."""
        advice = self.advice
        return {
            "shape": SHAPE,
            "ruleset": "upfront",
            "action": "advise",
            "objective": advice.objective,
            "fp": advice.fp,
            "pool": advice.pool,
            "fire_in_hand": list(advice.fire),
            "kept_valued": False,
            "best": play_json(advice, 1, advice.plays[0]),
            "plays": [play_json(advice, i, p) for i, p in enumerate(advice.plays, 1)],
        }

    def text(self) -> Sequence[Shown]:
        """The best play in a line, then every play ranked with its odds."""
        advice = self.advice
        best = advice.plays[0]
        objective = _(OBJECTIVE_WORDS[advice.objective])
        lines: list[Shown] = [
            Line.of(
                bold(_("Best play: {play}").format(play=_play_words(best))),
                _(" ({objective}: {score})").format(
                    objective=objective,
                    score=_score_text(advice.objective, best.score(advice.objective)),
                ),
            ),
        ]
        if len(advice.plays) > 1:
            second = advice.plays[1]
            margin = _score_text(advice.objective, advice.behind(second))
            lines.append(
                Line.of(
                    _("ahead of the next, {play}, by {margin}").format(
                        play=_play_words(second), margin=margin
                    )
                )
            )
        lines.append(
            Line.of(
                dim(
                    _(
                        "group FP {fp}; FIRE cards in hand {cards}; {pool} cards in the pool. "
                        "The cards kept in hand are shown, not valued: the odds are this "
                        "attack's alone."
                    ).format(fp=advice.fp, cards=shown(advice.fire) or _("none"), pool=advice.pool)
                )
            )
        )
        rows = tuple(
            (
                str(rank),
                _play_words(play),
                str(play.ways),
                shown(play.kept) or "-",
                "-" if play.ffs is None else str(play.ffs),
                f"{float(play.expected_vp):.3f}",
                _percent(play.p_kia),
                _percent(play.p_no_effect),
                _score_text(advice.objective, advice.behind(play)),
                _vp_text(play),
            )
            for rank, play in enumerate(advice.plays, 1)
        )
        columns = (
            "#",
            _("play"),
            _("ways"),
            _("kept in hand"),
            _("FFS"),
            _("expected VP"),
            _("P(KIA)"),
            _("P(no effect)"),
            _("behind"),
            _("VP: %"),
        )
        right = frozenset(columns[4:9]) | {columns[0], columns[2]}
        lines.append(
            Table(
                _("The plays, best first ({objective})").format(objective=objective),
                columns,
                rows,
                right,
            )
        )
        return lines

    def draw(self, out: Path) -> Path:
        """The advice draws nothing (the action declares no ``--out``)."""
        raise InputError("out", "nothing: the advice draws no picture", str(out))


OBJECTIVE_WORDS = {
    "expected_vp": N_("expected VP"),
    "kia": N_("P(at least one KIA)"),
    "no_effect": N_("P(no effect), lowest first"),
}
"""Each objective in words (English messages, translated where shown)."""


def _answer(subject: None, inp: AdviseInput) -> AdviceAnswer:
    del subject  # the advice works on no scenario: the input is the whole situation
    return AdviceAnswer(advise(inp))


ADVISE: Action[AdviseInput, None] = Action(
    name="advise",
    title=_("Up Front: the best play from the hand, ranked by exact odds."),
    summary=(
        "The plays of the hand ranked by an objective over their exact odds, best first, each "
        "with how far it is behind the best (``firefight advise --json``, docs/advisor.md)."
    ),
    input_model=AdviseInput,
    answer=_answer,
    budgeted=True,
    costly=("hand", N_("fewer FIRE cards in the hand, or fewer firers or targets")),
)

ACTIONS = (ADVISE,)
"""The rule set's actions."""
