"""``firefight engage SCENARIO --optimal``: the best fire plan turn by turn, exact, and what
each fire policy loses against it (docs/advisor-engagements.md)."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from firefight.i18n import N_
from firefight.i18n import gettext as _
from firefight.sim.engagement_words import order_words, policy_words, sides_words

if TYPE_CHECKING:
    from collections.abc import Callable

    from firefight.sim.optimal_answer import OptimalAnswer

OBJECTIVE_WORDS = {"win": N_("P(win)"), "losses": N_("expected enemy losses")}
"""An objective (``--objective``) in the engagement page's words."""


def words(policy: str) -> str:
    """A policy's name as words, in the active language (``best expected effect``)."""
    return _("optimal") if policy == "optimal" else policy_words(policy)


def advise_file(path: Path, side: str, objective: str, against: str | None, as_json: bool) -> None:
    """The optimal policy for a scenario file, printed or as JSON."""
    from firefight.sim.optimal_answer import advise  # noqa: PLC0415 - lazy: fast start-up
    from firefight.sim.scenario import read_scenario  # noqa: PLC0415

    found = advise(read_scenario(path), side, objective, against)
    if as_json:
        sys.stdout.write(json.dumps(found.to_json(), indent=2, ensure_ascii=False) + "\n")
        return
    show(found)


def _figure(value: Fraction, objective: str) -> str:
    return f"{100 * float(value):.2f} %" if objective == "win" else f"{float(value):.3f}"


def _loss(value: Fraction, objective: str) -> str:
    if objective == "win":
        return _("{n} points").format(n=f"{100 * float(value):.2f}")
    return f"{float(value):.3f}"


def show(found: OptimalAnswer) -> None:
    """The answer as tables fitted to the console (no number broken): the policies' values
    and losses, then the first turn's best allocations with the alternatives they beat."""
    from rich.markup import escape  # noqa: PLC0415
    from rich.text import Text  # noqa: PLC0415

    from firefight.cli.fit import fitted, wrapped  # noqa: PLC0415
    from firefight.cli.render import console  # noqa: PLC0415

    out = console()

    def say(markup: str) -> None:
        out.print(wrapped(Text.from_markup(markup), out.width))

    solution = found.solution
    scenario = solution.engagement.scenario
    objective = solution.objective
    advised = scenario.sides[solution.game.side].name
    _head(found, say)
    rows = [(_("optimal"), _figure(found.optimal, objective), _short(found.optimal), "—")]
    rows.extend(
        (
            words(policy),
            _figure(value, objective),
            _short(value),
            _loss(found.optimal - value, objective),
        )
        for policy, value in found.heuristics
    )
    title = _("{objective} of {side}'s fire policy").format(
        objective=_(OBJECTIVE_WORDS[objective]), side=advised
    )
    numbers = (_("value"), _("fraction"), _("loss"))
    out.print(fitted(title, (_("policy"), *numbers), rows, out.width, numbers))
    if found.both_scenario_policy is not None:
        both = _("Both sides playing the scenario's policy ({policy}): {value}").format(
            policy=words(scenario.policy), value=_figure(found.both_scenario_policy, objective)
        )
        say(escape(both))
    columns = (_("target"), _("value"), _("loss"))
    for decision in found.plan:
        best = max(a.value for a in decision.alternatives)
        fires = _("Turn 1: {unit} fires at {target}").format(
            unit=decision.unit, target=decision.best or _("nothing")
        )
        where = _("in the state it meets most often ({p}):").format(
            p=f"{100 * float(decision.probability):.2f} %"
        )
        say(f"[bold]{escape(fires)}[/bold], {escape(where)} {escape(sides_words(decision.state))}")
        plan = [
            (
                alternative.target or _("no fire"),
                _figure(alternative.value, objective),
                _loss(best - alternative.value, objective),
            )
            for alternative in decision.alternatives
        ]
        out.print(fitted("", columns, plan, out.width, columns[1:]))


def _head(found: OptimalAnswer, say: Callable[[str], None]) -> None:
    """The question answered: whose best fire plan, for what, against whom, and how fire goes."""
    from rich.markup import escape  # noqa: PLC0415

    solution = found.solution
    scenario = solution.engagement.scenario
    opponent = (
        _("against an optimal opponent (minimax)")
        if found.opponent == "optimal"
        else _("against the opponent's {policy} policy").format(policy=words(found.opponent))
    )
    title = _(scenario.title) if scenario.title else scenario.source
    text = _("the best fire plan for {side}, {objective} over {turns} turns {against}, {order}")
    text = text.format(
        side=scenario.sides[solution.game.side].name,
        objective=_(OBJECTIVE_WORDS[solution.objective]),
        turns=scenario.turns,
        against=opponent,
        order=order_words(scenario.order),
    )
    exact = _("exact")
    say(
        _("{title}: {text}").format(
            title=f"[bold]{escape(title)}[/bold]", text=f"{escape(text)} — {escape(exact)}"
        )
    )
    if scenario.order == "simultaneous":
        note = _(
            "Simultaneous fire: the best response to the opponent's policy; mixed strategies "
            "are out of scope."
        )
        say(f"[yellow]{escape(note)}[/yellow]")


def _short(value: Fraction) -> str:
    text = str(value)
    return text if len(text) <= 16 else f"{float(value):.7f}…"
