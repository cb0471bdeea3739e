"""The worked example printed by ``make run``: one EPT fire attack from start to finish."""

from __future__ import annotations

from firefight.cli.render import chart_table, console, modifier_table, odds_table, resolution_view
from firefight.rulesets import ruleset

EXAMPLE = {
    "strength": 6,
    "range": "adjacent",
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
    out.rule(f"[bold]{ept.title}[/bold]: {fire.title}")
    out.print(
        "A strength-6 unit fires at an adjacent enemy in medium protection, moving tactically, "
        "through one hex of visual hindrance.\n"
        "CLI: firefight odds ept fire --strength 6 --range adjacent --target-movement tactical "
        "--protection medium --hindrance-hexes 1"
    )
    out.print(modifier_table(fire.modifiers(attack), fire.facts(attack)))
    meanings = dict(chart.legend)
    out.print(odds_table(fire.odds(attack), meanings))
    resolution = fire.resolve(attack, SEED)
    out.print(resolution_view(resolution, meanings))
    used = next(e for e in resolution.trace if e.label == chart.title)
    row = str(used.value).split("row ")[1].split(",")[0]
    column = str(used.value).split("column ")[1].split(" ")[0]
    out.print(chart_table(chart, highlight=(row, column), width=out.width))
    out.print(
        f"Replay this roll: firefight resolve ept fire ... --seed {SEED}   "
        f"or with your own dice: --roll {','.join(resolution.replay_values())}"
    )
