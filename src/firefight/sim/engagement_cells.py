"""Engagements as a sweep's cell kind (docs/sweeps.md, docs/engagements.md).

A spec says ``kind = "engagement"`` and ``scenario = "vv_village"`` (a sample's name, or a
scenario file, looked for beside the spec first); its ``[inputs]`` and ``[axes]`` name the
scenario's fields by their place in the file, quoted because of the dots:

* ``"turns"``, ``"policy"``, ``"order"``;
* ``"situation.FIELD"``, ``"rules.FIELD"``, ``"a.target.FIELD"``, ``"a.fire.FIELD"`` (and
  ``b.…``): the procedure's inputs, as in the scenario's tables;
* ``"a.units.N.FIELD"``: a field of side a's N-th unit (from 1).

Each cell's outcomes are how its engagement ends: ``a_wins``, ``b_wins``, ``draw``,
``undecided`` — exactly (the engagement's exact odds) or from ``n`` sampled engagements.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from firefight.chance.distribution import Distribution
from firefight.core.files import FileError, named_inside
from firefight.errors import FirefightError, InputError, quoted
from firefight.i18n import gettext as _
from firefight.sim.engagement import RESULTS, Engagement
from firefight.sim.kind import CellKind, Scalar, SpecError
from firefight.sim.scenario import (
    SIDES,
    Scenario,
    ScenarioError,
    read_scenario_data,
    sample_scenarios,
    scenario_from_data,
)

FIELDS_HELP = (
    "a scenario field: turns, policy, order, situation.FIELD, rules.FIELD, a.target.FIELD, "
    "a.fire.FIELD, a.units.N.FIELD (or b.)"
)
_TABLES = ("situation", "rules")
_SIDE_TABLES = ("target", "fire")


def _problem(field: str, message: str, got: object) -> InputError:
    error = InputError(field, message, got)
    error.args = (message,)
    return error


def _place(key: str) -> tuple[list[str | int], str]:
    """Where a dotted key goes in the scenario's data, and the place a ScenarioError names."""
    parts = key.split(".")
    if len(parts) == 1 and parts[0] in ("turns", "policy", "order"):
        return [parts[0]], parts[0]
    if len(parts) == 2 and parts[0] in _TABLES:
        return [parts[0], parts[1]], parts[0]
    if len(parts) == 3 and parts[0] in SIDES and parts[1] in _SIDE_TABLES:
        return [parts[0], parts[1], parts[2]], f"{parts[0]}.{parts[1]}"
    if len(parts) == 4 and parts[0] in SIDES and parts[1] == "units" and parts[2].isdigit():
        number = int(parts[2])
        if number >= 1:
            return [parts[0], "units", number - 1, parts[3]], f"{parts[0]}.units[{number}]"
    raise _problem(key, f"{quoted(key)} must be {FIELDS_HELP}", key)


def _set(data: dict[str, Any], path: list[str | int], value: object, key: str) -> None:
    node: Any = data
    for step in path[:-1]:
        if isinstance(step, int):
            if not isinstance(node, list) or step >= len(node):
                raise _problem(key, f"{quoted(key)}: the side has no unit {step + 1}", key)
            node = node[step]
        else:
            node = node.setdefault(step, {})
            if not isinstance(node, dict | list):
                raise _problem(key, f"{quoted(key)}: {step} is not a table in the scenario", key)
    node[path[-1]] = value


def scenario_named_in(name: str, folder: Path, source: str) -> Path:
    """The scenario a sweep spec (``source``, read from ``folder``) names: a sample's name, or
    a scenario file in the spec's own folder or one below it, and nowhere else (a spec sent by
    someone else must not make firefight open a file of the reader's); a refusal is one line
    naming the field and the value."""
    samples = sample_scenarios()
    if name in samples:
        return samples[name]
    try:
        return named_inside(folder, name, (".toml",))
    except FileError as error:
        allowed = _(
            "a sample ({names}) or a .toml scenario file in the spec's own folder or one below "
            "it ({why})"
        ).format(names=", ".join(samples), why=error.problem)
        raise InputError("scenario", allowed, name) from None


class EngagementCells:
    """Cells that are one engagement: the scenario with the cell's fields changed."""

    def __init__(self, scenario: str, spec_source: str) -> None:
        path = scenario_named_in(scenario, Path(spec_source).parent, spec_source)
        self.source = path.name
        self.data = read_scenario_data(path, self.source)
        self.base = scenario_from_data(copy.deepcopy(self.data), self.source)

    def describe(self) -> dict[str, object]:
        return {
            "scenario": self.source,
            "ruleset": self.base.ruleset,
            "title": self.base.title,
        }

    def outcomes(self) -> Sequence[str]:
        return RESULTS

    def cell(self, values: Mapping[str, object]) -> Scenario:
        data = copy.deepcopy(self.data)
        places: dict[str, str] = {}
        for key, value in values.items():
            path, place = _place(key)
            _set(data, path, value, key)
            places[key] = place
        try:
            return scenario_from_data(data, self.source)
        except ScenarioError as error:
            culprit = next((k for k, p in places.items() if p == error.place), None)
            if culprit is None:
                raise
            raise _problem(culprit, str(error), values[culprit]) from None

    def exact(self, cell: Any) -> Distribution[str]:  # noqa: ANN401 - the Scenario cell made
        odds = Engagement(cell).odds_over_turns()
        return Distribution({r: e.value for r, e in odds.outcome.items()})  # type: ignore[misc]

    def sample(self, cell: Any, n: int, seed: int) -> Counter[str]:  # noqa: ANN401
        odds = Engagement(cell).sampled(n, seed)
        return Counter({r: k for r, k in (odds.result_counts or {}).items() if k})


def engagement_cells(settings: Mapping[str, Scalar], source: str) -> CellKind:
    """The ``engagement`` kind from a spec's ``scenario``."""
    try:
        return EngagementCells(str(settings["scenario"]), source)
    except FirefightError as error:
        raise SpecError(source, "scenario", str(error)) from None
