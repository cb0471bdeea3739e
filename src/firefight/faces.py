"""The JSON shapes every face gives: the CLI's ``--json`` and the web calculator's API.

One module builds them so that ``firefight odds … --json`` and ``POST /api/…/odds`` cannot drift
apart (DESIGN.md, "Faces" and "Machine-readable output"). Probabilities are exact fractions in
lowest terms, as text (``"5/18"``); modifier values likewise.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from firefight.board.board import Board
    from firefight.board.hexes import Hex
    from firefight.board.los import LosVerdict
    from firefight.chance import Resolution
    from firefight.chance.distribution import Distribution
    from firefight.core.chart import Chart
    from firefight.core.inputs import RuleInput
    from firefight.rulesets.info import RuleSetInfo
    from firefight.rulesets.procedure import Procedure, RuleSet

Json = dict[str, object]


def rulesets_json(
    found: Iterable[RuleSet | RuleSetInfo], left_out: Iterable[tuple[str, str]] = ()
) -> list[Json]:
    """``firefight rulesets --json``: ``[{"id", "title", "source", "aliases", "procedures"}]``,
    then each package or game file ``left_out`` (its name and its one line) as
    ``{"id": its name, "title": its name, "source": "", "aliases": [], "procedures": [],
    "left_out": the line}``: asked for by that name, it answers that line."""
    listed = [r.to_json() for r in found]
    for name, line in left_out:
        listed.append(
            {
                "id": name,
                "title": name,
                "source": "",
                "aliases": [],
                "procedures": [],
                "left_out": line,
            }
        )
    return listed


def tables_json(charts: Iterable[Chart]) -> list[Json]:
    """``firefight tables RULESET --json``: ``[{"id", "title", "source"}]``."""
    return [{"id": c.id, "title": c.title, "source": c.source} for c in charts]


def table_json(chart: Chart) -> Json:
    """``firefight table RULESET TABLE --json``: the chart with labels and cells as printed."""
    return chart.to_json()


def base_json(found: RuleSet, procedure: Procedure[RuleInput], inp: RuleInput) -> Json:
    """``{"ruleset", "procedure", "input", "modifiers"}``: how every answer starts."""
    return {
        "ruleset": found.id,
        "procedure": procedure.name,
        "input": inp.model_dump(mode="json"),
        "modifiers": [m.to_json() for m in procedure.modifiers(inp)],
    }


def odds_json(
    found: RuleSet,
    procedure: Procedure[RuleInput],
    inp: RuleInput,
    distribution: Distribution[str] | None = None,
) -> Json:
    """``firefight odds … --json``: the base shape and ``"distribution": {"OUTCOME": "p/q"}``."""
    odds = procedure.odds(inp) if distribution is None else distribution
    answer = {**base_json(found, procedure, inp), "distribution": odds.to_json()}
    return {**answer, **names_json(procedure, odds)}


def names_json(procedure: Procedure[RuleInput], outcomes: Iterable[str]) -> Json:
    """``{"names": {"OUTCOME": [name, meaning]}}``: the short name and meaning, in the active
    language, of each outcome that the procedure names (:meth:`Procedure.named`, a group's
    tally), as the CLI's result column shows them; nothing for a procedure that names none."""
    named = {code: list(found) for code in outcomes if (found := procedure.named(code))}
    return {"names": named} if named else {}


def facts_pairs(procedure: Procedure[RuleInput], inp: RuleInput) -> list[list[str]]:
    """The procedure's facts (``final attack factor: 6 -> 12``) as ``[label, value]`` pairs."""
    return [[label, value] for label, value in procedure.facts(inp)]


def modifiers_json(found: RuleSet, procedure: Procedure[RuleInput], inp: RuleInput) -> Json:
    """``firefight modifiers … --json``: the base shape and ``"facts": {label: value}``."""
    return {**base_json(found, procedure, inp), "facts": dict(procedure.facts(inp))}


def resolve_json(
    found: RuleSet, procedure: Procedure[RuleInput], inp: RuleInput, resolution: Resolution[str]
) -> Json:
    """``firefight resolve … --json``: the base shape, ``"outcome"``, ``"trace"`` and ``"seed"``."""
    return {
        **base_json(found, procedure, inp),
        "outcome": resolution.outcome,
        "trace": [event.to_json() for event in resolution.trace],
        "seed": resolution.seed,
        **names_json(procedure, [resolution.outcome]),
    }


def parse_roll(text: str) -> list[str]:
    """Dice rolled at the table, as ``--roll`` reads them: ``"3,4"`` or ``"3+4,2"``."""
    return [token.strip() for token in text.split(",") if token.strip()]


def meanings(found: RuleSet, procedure: Procedure[RuleInput]) -> dict[str, str]:
    """What each outcome code means: the chart's legend, then the procedure's own words."""
    legend = dict(found.chart(procedure.chart).legend) if procedure.chart else {}
    return {**legend, **procedure.meanings}


def boards_json(samples: Mapping[str, Board]) -> list[Json]:
    """``firefight board list --json``: ``[{"name", "title", "ruleset"}]``."""
    return [{"name": n, "title": b.name, "ruleset": b.ruleset} for n, b in samples.items()]


def los_json(board: Board, firer: str, target: str, verdict: LosVerdict) -> Json:
    """``firefight board los … --json``: ``{"board", "from", "to", "status", "range", …}``."""
    return {"board": board.name, "from": firer, "to": target, **verdict.to_json()}


def visible_json(board: Board, origin: str, seen: Mapping[Hex, int]) -> Json:
    """``firefight board visible … --json``: ``{"board", "from", "count", "visible"}``."""
    labelled = {board.label(h): modifier for h, modifier in sorted(seen.items())}
    return {"board": board.name, "from": origin, "count": len(seen), "visible": labelled}
