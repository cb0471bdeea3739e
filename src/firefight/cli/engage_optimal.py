"""``firefight engage SCENARIO --optimal``: the best fire plan turn by turn, exact, and what
each fire policy loses against it (docs/advisor-engagements.md)."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from firefight.sim.optimal_answer import OptimalAnswer

OBJECTIVE_WORDS = {"win": "P(win)", "losses": "expected enemy losses"}


def words(policy: str) -> str:
    """A policy's name as words (``best expected effect``)."""
    return policy.replace("_", " ")


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
        return f"{100 * float(value):.2f} points"
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
    opponent = (
        "an optimal opponent (minimax)"
        if found.opponent == "optimal"
        else f"the opponent's {words(found.opponent)} policy"
    )
    say(
        f"[bold]{escape(scenario.title or scenario.source)}[/bold]: the best fire plan for "
        f"{escape(advised)}, {OBJECTIVE_WORDS[objective]} over {scenario.turns} turns against "
        f"{opponent}, fire {scenario.order} — exact"
    )
    if scenario.order == "simultaneous":
        say(
            "[yellow]simultaneous fire: a best response; mixed strategies are out of scope[/yellow]"
        )
    rows = [("optimal", _figure(found.optimal, objective), _short(found.optimal), "—")]
    rows.extend(
        (
            words(policy),
            _figure(value, objective),
            _short(value),
            _loss(found.optimal - value, objective),
        )
        for policy, value in found.heuristics
    )
    title = f"{OBJECTIVE_WORDS[objective]} of {advised}'s fire policy"
    numbers = ("value", "fraction", "loss")
    out.print(fitted(title, ("policy", *numbers), rows, out.width, numbers))
    if found.both_scenario_policy is not None:
        say(
            f"Both sides playing the scenario's policy ({words(scenario.policy)}): "
            f"{_figure(found.both_scenario_policy, objective)}"
        )
    for decision in found.plan:
        best = max(a.value for a in decision.alternatives)
        say(
            f"[bold]Turn 1: {escape(decision.unit)} fires at "
            f"{escape(decision.best or 'nothing')}[/bold], in the state it meets most often "
            f"({100 * float(decision.probability):.2f} %): "
            + escape(" | ".join("; ".join(decision.state[s]) for s in ("a", "b")))
        )
        plan = [
            (
                alternative.target or "no fire",
                _figure(alternative.value, objective),
                _loss(best - alternative.value, objective),
            )
            for alternative in decision.alternatives
        ]
        out.print(fitted("", ("target", "value", "loss"), plan, out.width, ("value", "loss")))


def _short(value: Fraction) -> str:
    text = str(value)
    return text if len(text) <= 16 else f"{float(value):.7f}…"
