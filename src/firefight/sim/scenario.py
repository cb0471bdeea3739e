"""Engagement scenarios: two sides and the situation, in TOML (docs/engagements.md).

```toml
ruleset = "ept"                    # a rule set with engagement rules (RuleSet.engagement)
title = "MG nest in the hedgerow"
turns = 10                         # the engagement ends after this many turns at most
policy = "best_expected_effect"    # or focus, spread: who fires at whom
order = "alternating"              # optional: the rule set's order of fire by default

[situation]                        # the procedure's input fields for every attack
range = "normal"

[rules]                            # the rule set's engagement readings

[a]
name = "Germans"
[a.target]                         # fields of every attack on this side (its cover)
protection = "medium"
[a.fire]                           # fields of every attack this side makes
[[a.units]]                        # the rule set's unit fields (its counter and state)
name = "MG 42"
strength = [8, 4]
morale = 8
```

A mistake is one line naming the file and the place in it (``a.units[2]``, ``situation``).
A file is read only up to :data:`MAX_SCENARIO_BYTES`, its nesting bounded
(:func:`firefight.core.files.parse_toml`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, cast, get_args

from firefight.core.files import FileError, check_length, loader, parse_toml, read_text
from firefight.core.inputs import RuleInput, validate
from firefight.errors import FirefightError, InputError, quoted
from firefight.i18n import gettext as _
from firefight.rulesets import rulesets
from firefight.rulesets.engagement import ORDERS, EngagementRules, Order

Policy = Literal["best_expected_effect", "focus", "spread"]
POLICIES: tuple[Policy, ...] = get_args(Policy)
SIDES = ("a", "b")
MAX_TURNS = 100
MAX_UNITS = 12
"""The most units a side may have: an engagement's cost grows with every unit, sampled
runs' too (each run resolves every unit's fire every turn)."""
DEFAULT_TURNS = 10
MAX_SCENARIO_BYTES = 256 * 2**10
"""The largest scenario file read: 256 KiB. The shipped samples take about 1 KiB; the largest
scenario allowed (:data:`MAX_UNITS` units a side, each with its name and every field of its
rule set) takes under 10 KiB, so this leaves room for comments many times over."""

_TOP = ("ruleset", "title", "turns", "policy", "order", "situation", "rules", "a", "b")
_SIDE = ("name", "units", "fire", "target")


class ScenarioError(FirefightError):
    """A scenario file's mistake: the file, the place in it, what is wrong."""

    def __init__(self, source: str, place: str, message: str) -> None:
        self.source = source
        self.place = place
        super().__init__(f"{source}: {place}: {message}")


@dataclass(frozen=True)
class Side:
    """One side: its name, its units (the rule set's unit model) and its situation tables."""

    name: str
    units: tuple[RuleInput, ...]
    fire: Mapping[str, Any]
    target: Mapping[str, Any]


@dataclass(frozen=True)
class Scenario:
    """A validated scenario."""

    source: str
    title: str
    ruleset: str
    rules: EngagementRules[Any, Any]
    turns: int
    policy: Policy
    order: Order
    situation: Mapping[str, Any]
    sides: tuple[Side, Side]


def engagement_rules() -> dict[str, type[EngagementRules[Any, Any]]]:
    """The rule sets with engagement rules (:attr:`RuleSet.engagement`), by id."""
    return {found.id: found.engagement for found in rulesets() if found.engagement is not None}


def sample_folders() -> list[Path]:
    """The rule sets' folders of sample scenarios (:attr:`RuleSet.scenarios`)."""
    return [found.scenarios for found in rulesets() if found.scenarios is not None]


def sample_scenarios() -> dict[str, Path]:
    """The shipped sample scenarios by name (the file's stem), from every rule set's folder of
    samples, ordered by name."""
    found = [path for folder in sample_folders() for path in folder.glob("*.toml")]
    return {path.stem: path for path in sorted(found, key=lambda p: (p.stem, str(p)))}


def find_scenario(name_or_path: str) -> Path:
    """A sample scenario's name or a file's path."""
    samples = sample_scenarios()
    if name_or_path in samples:
        return samples[name_or_path]
    path = Path(name_or_path)
    if not path.is_file():
        raise InputError(
            "scenario",
            _("a scenario file or one of {samples}").format(samples=", ".join(samples)),
            name_or_path,
        )
    return path


def _example() -> str:
    """The first sample's text, by name (a valid scenario)."""
    return next(iter(sample_scenarios().values())).read_text(encoding="utf-8")


def load_scenario(name_or_path: str) -> Scenario:
    """Read and validate a scenario file (or a sample's name)."""
    return read_scenario(find_scenario(name_or_path))


@loader(
    "scenario", ".toml", _example, ("engage", "{path}", "--seed", "1", "--turns", "1", "--json")
)
def read_scenario(path: Path) -> Scenario:
    """Read and validate a scenario file (at most :data:`MAX_SCENARIO_BYTES`); a sample is
    named by its file's name in errors, any other file by its path."""
    folders = {form for folder in sample_folders() for form in (folder, folder.resolve())}
    source = path.name if path.parent in folders else str(path)
    return scenario_from_data(read_scenario_data(path, source), source)


def read_scenario_data(path: Path, source: str) -> dict[str, Any]:
    """A scenario file's TOML as data (not yet validated), read as :func:`read_scenario`."""
    try:
        text = read_text(path, source, MAX_SCENARIO_BYTES)
    except FileError as error:
        raise ScenarioError(source, "file", error.problem) from None
    return read_toml(text, source)


def parse_scenario(text: str, source: str = "scenario") -> Scenario:
    """Validate a scenario's TOML text; ``source`` names it in errors."""
    return scenario_from_data(read_toml(text, source), source)


def read_toml(text: str, source: str) -> dict[str, Any]:
    """A scenario's TOML as data (not yet validated): at most :data:`MAX_SCENARIO_BYTES`, its
    values counted and its nesting bounded; a failure is one line (``source: TOML: ...``)."""
    try:
        check_length(text, source, MAX_SCENARIO_BYTES, _("the scenario"))
        return parse_toml(text, source)
    except FileError as error:
        raise ScenarioError(source, "TOML", error.problem) from None


def scenario_from_data(data: dict[str, Any], source: str) -> Scenario:
    """Validate a scenario already read (a sweep's cell changes some of its fields)."""
    return _scenario(data, source)


def _unknown(source: str, place: str, data: Mapping[str, Any], allowed: tuple[str, ...]) -> None:
    for key in data:
        if key not in allowed:
            raise ScenarioError(
                source,
                place,
                _("unknown field {key} (allowed: {allowed})").format(
                    key=quoted(key), allowed=", ".join(allowed)
                ),
            )


def _table(source: str, place: str, value: object) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ScenarioError(
            source, place, _("must be a table (got {value})").format(value=quoted(value))
        )
    return cast("dict[str, Any]", value)


def _choice(source: str, place: str, value: object, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise ScenarioError(
            source,
            place,
            _("must be one of {allowed} (got {value})").format(
                allowed=", ".join(allowed), value=quoted(value)
            ),
        )
    return str(value)


def _scenario(data: dict[str, Any], source: str) -> Scenario:
    _unknown(source, "top level", data, _TOP)
    known = engagement_rules()
    ruleset = _choice(source, "ruleset", data.get("ruleset"), tuple(known))
    rules_class = known[ruleset]
    options = _model(
        source, "rules", rules_class.options_model, _table(source, "rules", data.get("rules"))
    )
    rules = rules_class(options)
    turns = data.get("turns", DEFAULT_TURNS)
    if isinstance(turns, bool) or not isinstance(turns, int) or not 1 <= turns <= MAX_TURNS:
        raise ScenarioError(
            source,
            "turns",
            _("must be an integer from 1 to {max_turns} (got {turns})").format(
                max_turns=MAX_TURNS, turns=quoted(turns)
            ),
        )
    policy = _choice(source, "policy", data.get("policy", POLICIES[0]), POLICIES)
    order = _choice(source, "order", data.get("order", rules.order), ORDERS)
    title = data.get("title", "")
    if not isinstance(title, str):
        raise ScenarioError(
            source, "title", _("must be text (got {title})").format(title=quoted(title))
        )
    situation = _situation(source, "situation", data.get("situation"), rules)
    sides = tuple(_side(source, key, data.get(key), rules) for key in SIDES)
    scenario = Scenario(
        source=source,
        title=title,
        ruleset=ruleset,
        rules=rules,
        turns=turns,
        policy=cast("Policy", policy),
        order=cast("Order", order),
        situation=situation,
        sides=(sides[0], sides[1]),
    )
    _check_attacks(scenario)
    return scenario


def _model(source: str, place: str, model: type[RuleInput], data: Mapping[str, Any]) -> RuleInput:
    # TOML has arrays where the strict input models take tuples (a unit's strength per step).
    data = {key: tuple(v) if isinstance(v, list) else v for key, v in data.items()}
    try:
        return validate(model, data)
    except InputError as error:
        if (
            error.field == "input"
            and isinstance(error.got, str)
            and error.got not in model.model_fields
        ):
            raise ScenarioError(
                source,
                place,
                _("unknown field {got} (allowed: {values})").format(
                    got=quoted(error.got), values=", ".join(model.model_fields)
                ),
            ) from None
        raise ScenarioError(source, place, str(error)) from None


def _situation(
    source: str, place: str, value: object, rules: EngagementRules[Any, Any]
) -> dict[str, Any]:
    table = _table(source, place, value)
    fields = rules.procedure.input_model.model_fields
    for key in table:
        if key in rules.unit_fields:
            raise ScenarioError(
                source,
                place,
                _("{key} comes from each unit, not from the situation").format(key=quoted(key)),
            )
        if key not in fields:
            allowed = [f for f in fields if f not in rules.unit_fields]
            raise ScenarioError(
                source,
                place,
                _("unknown field {key} of {ruleset} {name} (allowed: {allowed})").format(
                    key=quoted(key),
                    ruleset=rules.ruleset,
                    name=rules.procedure.name,
                    allowed=", ".join(allowed),
                ),
            )
    return table


def _side(source: str, key: str, value: object, rules: EngagementRules[Any, Any]) -> Side:
    if value is None:
        raise ScenarioError(
            source, key, _("the side is missing (give a table [{key}])").format(key=key)
        )
    table = _table(source, key, value)
    _unknown(source, key, table, _SIDE)
    name = table.get("name", key)
    if not isinstance(name, str) or not name:
        raise ScenarioError(
            source, f"{key}.name", _("must be text (got {name})").format(name=quoted(name))
        )
    units = table.get("units", [])
    if not isinstance(units, list) or not units:
        raise ScenarioError(source, f"{key}.units", "a side needs at least one unit (got none)")
    if len(units) > MAX_UNITS:
        raise ScenarioError(
            source,
            f"{key}.units",
            _("a side has at most {max_units} units (got {count})").format(
                max_units=MAX_UNITS, count=len(units)
            ),
        )
    parsed: list[RuleInput] = []
    for number, unit in enumerate(units, start=1):
        place = f"{key}.units[{number}]"
        model = _model(source, place, rules.unit_model, _table(source, place, unit))
        try:
            rules.start(model)
        except FirefightError as error:
            raise ScenarioError(source, place, str(error)) from None
        parsed.append(model)
    names = [u.name for u in parsed]  # type: ignore[attr-defined]
    for number, unit_name in enumerate(names, start=1):
        if names.index(unit_name) != number - 1:
            raise ScenarioError(
                source,
                f"{key}.units[{number}]",
                _("a second unit named {unit_name}").format(unit_name=quoted(unit_name)),
            )
    return Side(
        name=name,
        units=tuple(parsed),
        fire=_situation(source, f"{key}.fire", table.get("fire"), rules),
        target=_situation(source, f"{key}.target", table.get("target"), rules),
    )


def _check_attacks(scenario: Scenario) -> None:
    """Build every first attack once, so that a bad value in a situation table is named now
    (with the table that set it), not in the middle of the odds."""
    rules = scenario.rules
    for firing, targeted in ((0, 1), (1, 0)):
        firer_side, target_side = scenario.sides[firing], scenario.sides[targeted]
        for firer in firer_side.units:
            for target in target_side.units:
                fields = rules.attack_fields(firer, rules.start(firer), target, rules.start(target))
                tables = (
                    ("situation", scenario.situation),
                    (f"{SIDES[firing]}.fire", firer_side.fire),
                    (f"{SIDES[targeted]}.target", target_side.target),
                )
                merged: dict[str, Any] = {}
                for _name, table in tables:
                    merged.update(table)
                merged.update(fields)
                try:
                    rules.procedure.parse(merged)
                except InputError as error:
                    place = next(
                        (name for name, table in reversed(tables) if error.field in table),
                        "situation",
                    )
                    raise ScenarioError(scenario.source, place, str(error)) from None
