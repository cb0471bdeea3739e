"""The worked example printed by ``make run``: one EPT fire attack from start to finish."""

from __future__ import annotations

from firefight.cli.fields import option_name
from firefight.cli.render import chart_table, console, modifier_table, odds_table, resolution_view
from firefight.rulesets import ruleset

EXAMPLE = {
    "strength": 6,
    "range": "normal",
    "target_movement": "tactical",
    "protection": "medium",
    "hindrance_hexes": 1,
}
SEED = 42


def show() -> None:
    """Print the attack, its itemized modifiers, its exact odds and a seeded resolution."""
    ept = ruleset("ept")
    fire = ept.procedure("fire")
    attack = fire.parse(EXAMPLE)
    chart = ept.chart("combat")
    out = console()
    out.rule()
    out.print(f"[bold]{ept.title}[/bold]: {fire.title}")  # whole, where a rule's title is cut
    out.print(
        "A strength-6 unit fires at an enemy within normal range (not adjacent: one hex lies "
        "between them, of visual hindrance), moving tactically, in medium protection. CLI:"
    )
    odds_words = ["firefight", "odds", "ept", "fire", *command_words(EXAMPLE)]
    out.print(shell_lines(odds_words, out.width), soft_wrap=True, highlight=False)
    out.print(modifier_table(fire.modifiers(attack), fire.facts(attack)))
    meanings = dict(chart.legend)
    out.print(odds_table(fire.odds(attack), meanings))
    resolution = fire.resolve(attack, SEED)
    out.print(resolution_view(resolution, meanings))
    used = next(e for e in resolution.trace if e.label == chart.title)
    row = str(used.value).split("row ")[1].split(",")[0]
    column = str(used.value).split("column ")[1].split(" ")[0]
    out.print(chart_table(chart, highlight=(row, column), width=out.width))
    replay = ["firefight", "resolve", "ept", "fire", *command_words(EXAMPLE)]
    out.print("Replay this roll:")
    out.print(
        shell_lines([*replay, "--seed", str(SEED)], out.width), soft_wrap=True, highlight=False
    )
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
