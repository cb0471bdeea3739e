"""The worked example printed by ``make run``: one procedure of the first rule set that
declares a worked example (its ``example`` hook), from start to finish."""

from __future__ import annotations

from firefight.cli.fields import option_name
from firefight.cli.render import chart_table, console, modifier_table, odds_table, resolution_view
from firefight.errors import FirefightError
from firefight.rulesets import RuleSet, rulesets
from firefight.rulesets.worked_example import WorkedExample
from firefight.translation import gettext as _


def worked_example() -> tuple[RuleSet, WorkedExample]:
    """The first rule set (by id) with a worked example, and its example."""
    for rules in rulesets():
        if rules.example is not None:
            return rules, rules.example
    raise FirefightError("no rule set declares a worked example")


def show() -> None:
    """Print the attack, its itemized modifiers, its exact odds and a seeded resolution."""
    rules, example = worked_example()
    procedure = rules.procedure(example.procedure)
    data = dict(example.inputs)
    inp = procedure.parse(data)
    if procedure.chart is None:
        raise FirefightError(
            _("{id} {name}: a worked example needs a chart").format(
                id=rules.id, name=procedure.name
            )
        )
    chart = rules.chart(procedure.chart)
    out = console()
    out.rule()
    out.print(f"[bold]{rules.title}[/bold]: {procedure.title}")  # whole, where a title is cut
    out.print(example.situation)
    odds_words = ["firefight", "odds", rules.id, procedure.name, *command_words(data)]
    out.print(shell_lines(odds_words, out.width), soft_wrap=True, highlight=False)
    out.print(modifier_table(procedure.modifiers(inp), procedure.facts(inp)))
    meanings = dict(chart.legend)
    out.print(odds_table(procedure.odds(inp), meanings, width=out.width))
    resolution = procedure.resolve(inp, example.seed)
    out.print(resolution_view(resolution, meanings))
    used = next(e for e in resolution.trace if e.label == chart.title)
    row = str(used.value).split("row ")[1].split(",")[0]
    column = str(used.value).split("column ")[1].split(" ")[0]
    out.print(chart_table(chart, highlight=(row, column), width=out.width))
    replay = ["firefight", "resolve", rules.id, procedure.name, *command_words(data)]
    out.print("Replay this roll:")
    seeded = [*replay, "--seed", str(example.seed)]
    out.print(shell_lines(seeded, out.width), soft_wrap=True, highlight=False)
    out.print("or with your own dice:")
    dice = ",".join(resolution.replay_values())
    out.print(shell_lines([*replay, "--roll", dice], out.width), soft_wrap=True, highlight=False)


def command_words(data: dict[str, object]) -> list[str]:
    """The options that give ``data`` on the command line: ``--strength 6 --range normal``."""
    return [word for field, value in data.items() for word in (option_name(field), str(value))]


def shell_lines(words: list[str], width: int) -> str:
    """A command as a shell reads it, broken with ``\\`` before ``width`` columns (an option
    stays on one line with its value), so that it can be copied from any terminal."""
    lines: list[str] = []
    line = ""
    for i, word in enumerate(words):
        glue = " " if line else ""
        keep = word.startswith("--") and i + 1 < len(words) and not words[i + 1].startswith("--")
        piece = f"{word} {words[i + 1]}" if keep else word
        if i > 0 and words[i - 1].startswith("--") and not word.startswith("--"):
            continue  # already placed with its option
        if line and len(line) + len(glue) + len(piece) + 2 > width:
            lines.append(line + " \\")
            line, glue = "  ", ""
        line += glue + piece
    lines.append(line)
    return "\n".join(lines)
