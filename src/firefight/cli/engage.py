"""``firefight engage SCENARIO``: how an engagement ends, exactly (or sampled, labelled so),
or one engagement turn by turn with seeded dice or the dice rolled at the table."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from firefight.cli.integers import ascii_integer
from firefight.core.files import loader
from firefight.digits import SEED_MAX
from firefight.i18n import gettext as _
from firefight.translation import thousands

if TYPE_CHECKING:
    from rich.console import Console

    from firefight.chance.process import ProcessResolution
    from firefight.sim.engagement import Engagement, EngagementOdds, Estimate, State
    from firefight.sim.engagement_odds import Fought


def _example() -> str:
    """The text of the sample scenario quickest to answer exactly (the fewest units, then the
    fewest turns, then by name): a valid scenario, answered at once."""
    from firefight.sim.scenario import load_scenario, sample_scenarios  # noqa: PLC0415 - lazy

    samples = sample_scenarios()

    def cost(name: str) -> tuple[int, int, str]:
        scenario = load_scenario(name)
        return sum(len(side.units) for side in scenario.sides), scenario.turns, name

    return samples[min(samples, key=cost)].read_text(encoding="utf-8")


@loader("engage", ".toml", _example, ("engage", "{path}", "--json"))
def engagement_file(path: Path) -> Engagement:
    """What ``firefight engage PATH`` reads: a scenario file (bounded as every scenario,
    :data:`firefight.sim.scenario.MAX_SCENARIO_BYTES`), as an engagement to answer."""
    from firefight.sim.engagement import Engagement  # noqa: PLC0415 - lazy: fast start-up
    from firefight.sim.scenario import read_scenario  # noqa: PLC0415

    return Engagement(read_scenario(path))


def _emit(data: object) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def _percent(estimate: Estimate) -> str:
    text = f"{100 * float(estimate):6.2f}"
    if estimate.interval is not None:
        low, high = estimate.interval
        text += f" [{100 * low:.2f}, {100 * high:.2f}]"
    return text


FRACTION_CHARS = 16
"""The longest exact fraction the odds table prints; a longer one is printed as its first
decimals followed by an ellipsis (the exact fraction is in ``--json``)."""


def _fraction(estimate: Estimate) -> str:
    """The probability column: the exact fraction, its first decimals when the fraction is too
    long to read, or a sampled estimate as a decimal marked approximate (its 95 % interval is
    in the next column)."""
    if estimate.interval is not None:
        return f"≈ {float(estimate.value):.4f}"
    text = str(estimate.value)
    if len(text) <= FRACTION_CHARS:
        return text
    return f"{float(estimate.value):.7f}…"


def engage(  # noqa: PLR0917 - Typer passes each option as a parameter
    scenario: Annotated[
        str,
        typer.Argument(help="A scenario file (TOML) or a sample's name: ept_hedgerow, vv_village."),
    ],
    seed: Annotated[
        int | None,
        typer.Option(
            parser=ascii_integer(0, SEED_MAX),
            help="Resolve one engagement turn by turn with seeded dice (replayable).",
        ),
    ] = None,
    roll: Annotated[
        str | None,
        typer.Option(
            help="Resolve one engagement with the dice rolled at the table (3,4,...; "
            "ask: asked for one at a time)."
        ),
    ] = None,
    turns: Annotated[
        int | None,
        typer.Option(min=1, help="With --seed or --roll: resolve this many turns at most."),
    ] = None,
    samples: Annotated[
        int | None,
        typer.Option(
            min=100,
            help="Sample this many engagements instead of the exact odds (labelled sampled).",
        ),
    ] = None,
    sample_seed: Annotated[
        int,
        typer.Option(
            parser=ascii_integer(0, SEED_MAX),
            help="Seed of sampled engagements (--samples, or past the limit).",
        ),
    ] = 0,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Also draw P(each side still fighting) by turn (.png, .svg)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
    optimal: Annotated[
        bool,
        typer.Option(
            "--optimal",
            help="The best fire plan turn by turn (exact), and what each fire policy loses.",
        ),
    ] = False,
    objective: Annotated[
        str,
        typer.Option(help="With --optimal: win (P(win)) or losses (expected enemy losses)."),
    ] = "win",
    side: Annotated[str, typer.Option(help="With --optimal: the side advised, a or b.")] = "a",
    against: Annotated[
        str | None,
        typer.Option(
            help="With --optimal: the opponent, optimal (alternating fire's default) or a "
            "fire policy (simultaneous fire's default: the scenario's)."
        ),
    ] = None,
) -> None:
    """How an engagement ends: P(each side wins), P(decided by turn t), turns, survivors."""
    from firefight.sim.scenario import find_scenario  # noqa: PLC0415 - lazy: fast start-up

    _check_options(seed, roll, turns, samples, out)
    advice = {"side": side, "objective": objective, "against": against}
    _check_advice(optimal, advice, {"seed": seed, "roll": roll, "samples": samples, "out": out})
    if optimal:
        from firefight.cli.engage_optimal import advise_file  # noqa: PLC0415 - lazy

        advise_file(find_scenario(scenario), side, objective, against, as_json)
        return
    engagement = engagement_file(find_scenario(scenario))
    if seed is not None or roll is not None:
        _resolve(engagement, seed, roll, turns, as_json)
        return
    _answer(engagement, samples, sample_seed, out, as_json)


def _check_advice(optimal: bool, given: dict[str, str | None], dice: dict[str, object]) -> None:
    """The best fire plan's options (``--side``, ``--objective``, ``--against``) only with
    ``--optimal``, and ``--optimal`` with no dice: each refused in one line naming the options
    as typed."""
    from firefight.sim.optimal import check_apart  # noqa: PLC0415 - lazy: fast start-up

    advice = {
        "side": given["side"] if given["side"] != "a" else None,
        "objective": given["objective"] if given["objective"] != "win" else None,
        "against": given["against"],
    }
    names = {name: f"--{name}" for name in (*advice, "optimal")}
    check_apart(optimal, advice, dice, names)


def _check_options(
    seed: int | None, roll: str | None, turns: int | None, samples: int | None, out: Path | None
) -> None:
    """The options given together are ones that go together (a user error otherwise), and a
    picture asked for can be written, before any work."""
    from firefight.errors import InputError  # noqa: PLC0415 - lazy: fast start-up
    from firefight.sim.spec import MAX_SAMPLES  # noqa: PLC0415

    if seed is not None and roll is not None:
        raise InputError("seed/roll", "at most one of --seed N or --roll V[,V...]", "both")
    if turns is not None and seed is None and roll is None:
        raise InputError("turns", "given with --seed or --roll only", turns)
    if samples is not None and (seed is not None or roll is not None):
        raise InputError("samples", "given without --seed or --roll", samples)
    if samples is not None and samples > MAX_SAMPLES:
        raise InputError(
            "samples",
            _("an integer from 100 to {max_samples}").format(max_samples=thousands(MAX_SAMPLES)),
            samples,
        )
    if out is not None:
        from firefight.board.picture_file import chart_target  # noqa: PLC0415 - lazy: fast start-up

        chart_target(out)


def _resolve(
    engagement: Engagement, seed: int | None, roll: str | None, turns: int | None, as_json: bool
) -> None:
    """One engagement turn by turn, with seeded dice or the dice rolled at the table."""
    from firefight.cli.asking import at_table  # noqa: PLC0415 - lazy: fast start-up
    from firefight.faces import parse_roll  # noqa: PLC0415 - lazy: fast start-up
    from firefight.sim.engagement import resolution_json  # noqa: PLC0415

    with at_table(roll):
        run = (
            engagement.resolve(seed, turns)
            if seed is not None
            else engagement.replay(parse_roll(roll or ""), turns)
        )
    if as_json:
        _emit(resolution_json(engagement, run))
        return
    _show_run(engagement, run)


def _answer(
    engagement: Engagement, samples: int | None, sample_seed: int, out: Path | None, as_json: bool
) -> None:
    """How the engagement ends, exact or sampled, and its curve drawn to ``out`` if asked."""
    odds = (
        engagement.sampled(samples, sample_seed)
        if samples is not None
        else engagement.answer(seed=sample_seed)
    )
    if out is not None:
        from firefight.sim.curve import draw_curve  # noqa: PLC0415 - matplotlib is slow

        written = draw_curve(odds, out)
        sys.stderr.write(f"drawn to {written}\n")
    if as_json:
        _emit(odds.to_json())
        return
    _show_odds(odds)


def _console() -> Console:
    from firefight.cli.render import console  # noqa: PLC0415 - lazy: fast start-up

    return console()


def _units(engagement: Fought, state: State) -> str:
    """Both sides' units in ``state``, each unit's state in words."""
    from firefight.sim.engagement_words import sides_words  # noqa: PLC0415 - lazy: fast start-up

    return sides_words(engagement.describe(state))


def _title(scenario: object) -> str:
    """The scenario's title as the engagement page shows it (a sample's title translated)."""
    title = getattr(scenario, "title", "")
    return _(title) if title else str(getattr(scenario, "source", ""))


def _show_odds(odds: EngagementOdds) -> None:
    from rich.markup import escape  # noqa: PLC0415

    from firefight.sim.engagement_words import order_words, policy_words  # noqa: PLC0415

    scenario = odds.engagement.scenario
    a, b = (side.name for side in scenario.sides)
    out = _console()
    label = (
        _("exact")
        if odds.exact
        else _("SAMPLED ({n} runs, seed {seed}; 95 % intervals)").format(
            n=f"{odds.n:,}", seed=odds.seed
        )
    )
    head = _("{a} against {b}, at most {turns} turns, policy {policy}, {order}").format(
        a=escape(a),
        b=escape(b),
        turns=scenario.turns,
        policy=escape(policy_words(scenario.policy)),
        order=escape(order_words(scenario.order)),
    )
    out.print(
        _("{title} ({ruleset}): {text}").format(
            title=f"[bold]{escape(_title(scenario))}[/bold]",
            ruleset=scenario.ruleset,
            text=f"{head} — {escape(label)}",
        )
    )
    if odds.reason:
        sampled = _("{reason}: sampled instead").format(reason=odds.reason)
        out.print(f"[yellow]{escape(sampled)}[/yellow]")
    _show_outcome(odds, a, b)
    _show_by_turn(odds, a, b)
    _show_survivors(odds)
    _show_end_states(odds, a, b)


def _show_outcome(odds: EngagementOdds, a: str, b: str) -> None:
    """How it ends: each result's probability, then P(a win) and the turns fought."""
    from rich.markup import escape  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415

    from firefight.sim.engagement_words import result_words  # noqa: PLC0415

    out = _console()
    table = Table(title=_("How it ends"))
    table.add_column(_("result"))
    table.add_column(_("probability"), justify="right")
    table.add_column("%", justify="right")
    for result, estimate in odds.outcome.items():
        words = result_words(result, a, b)
        table.add_row(escape(words), _fraction(estimate), _percent(estimate))
    out.print(table)
    turns = f"{float(odds.expected_turns):.3f}" + (
        f" [{odds.expected_turns.interval[0]:.3f}, {odds.expected_turns.interval[1]:.3f}]"
        if odds.expected_turns.interval
        else " (" + _("exact") + ")"
    )
    out.print(
        escape(
            _("P({side} win) = {p} %; expected turns fought: {turns}").format(
                side=a, p=_percent(odds.outcome["a_wins"]).strip(), turns=turns
            )
        )
    )


def _show_by_turn(odds: EngagementOdds, a: str, b: str) -> None:
    """P(decided by turn t) and P(each side still fighting), turn by turn."""
    from rich.markup import escape  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415

    by_turn = Table(title=_("By turn"))
    fighting = _("P({side} fighting)")
    for column in (_("turn"), _("P(decided by)"), fighting.format(side=a), fighting.format(side=b)):
        by_turn.add_column(escape(column), justify="right")
    for turn, decided in enumerate(odds.decided_by):
        by_turn.add_row(
            str(turn),
            _percent(decided),
            _percent(odds.fighting["a"][turn]),
            _percent(odds.fighting["b"][turn]),
        )
    _console().print(by_turn)


def _show_survivors(odds: EngagementOdds) -> None:
    """Each unit's chance of not being eliminated at the end."""
    from rich.markup import escape  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415

    survivors = Table(title=_("Survivors (P(not eliminated) at the end)"))
    survivors.add_column(_("side"))
    survivors.add_column(_("unit"))
    survivors.add_column("%", justify="right")
    for key, side in zip(("a", "b"), odds.engagement.scenario.sides, strict=True):
        for unit, estimate in zip(side.units, odds.survivors[key], strict=True):
            survivors.add_row(escape(side.name), escape(unit.name), _percent(estimate))  # type: ignore[attr-defined]
    _console().print(survivors)


def _show_end_states(odds: EngagementOdds, a: str, b: str) -> None:
    """The most likely end states, each unit's state in words."""
    from rich.markup import escape  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415

    from firefight.sim.engagement_words import result_words  # noqa: PLC0415

    engagement = odds.engagement
    total = f"{len(odds.end_states):,}"
    ends = Table(title=_("Most likely end states (of {total})").format(total=total))
    ends.add_column("%", justify="right")
    ends.add_column(_("result"))
    ends.add_column(escape(f"{a} | {b}"))
    for state, estimate in odds.end_states[:8]:
        ends.add_row(
            _percent(estimate),
            escape(result_words(engagement.result(state), a, b)),
            escape(_units(engagement, state)),
        )
    _console().print(ends)


def _show_run(engagement: Engagement, run: ProcessResolution[State]) -> None:
    from rich.markup import escape  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415

    from firefight.sim.engagement_words import note_words, result_words  # noqa: PLC0415

    out = _console()
    scenario = engagement.scenario
    source = _("seed {seed}").format(seed=run.seed) if run.seed is not None else _("your dice")
    out.print(f"[bold]{escape(_title(scenario))}[/bold] ({escape(source)})")
    sides = [(side.name, [unit.name for unit in side.units]) for side in scenario.sides]  # type: ignore[attr-defined]
    start = _("start:")
    out.print(f"{escape(start)} {escape(_units(engagement, run.start))}")
    for step in run.steps:
        table = Table(title=_("Turn {turn}").format(turn=step.number))
        table.add_column(_("step"))
        table.add_column(_("value"))
        for event in step.trace:
            label, value = note_words(sides, event.label, str(event)[len(event.label) + 2 :])
            table.add_row(escape(label), escape(value))
        out.print(table)
        after = _("after turn {turn}:").format(turn=step.number)
        out.print(f"{escape(after)} {escape(_units(engagement, step.after))}")
    words = result_words(
        engagement.result(run.final), scenario.sides[0].name, scenario.sides[1].name
    )
    result = _("Result: {result}").format(result=words)
    out.print(f"[bold]{escape(result)}[/bold]")
    replay = ",".join(run.replay_values())
    replay_with = _("replay with:")
    out.print(f"[dim]{escape(replay_with)} --roll {escape(replay)}[/dim]")
