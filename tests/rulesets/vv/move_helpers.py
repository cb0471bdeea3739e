"""Small V&V boards and scenarios for the movement and opportunity fire tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firefight.rulesets.vv.scenario import BoardScenario as Scenario
from firefight.rulesets.vv.scenario import scenario_from_data

BOARD = """
name = "test field"
ruleset = "vv"
columns = 12
rows = 8
offset = "odd-q"
default_terrain = "open"
[hexes]
{hexes}
[hexsides]
{hexsides}
"""


def squad(unit_id: str, side: str, hex_: str, **extra: Any) -> dict[str, Any]:
    return {
        "id": unit_id,
        "side": side,
        "type": "squad",
        "hex": hex_,
        "apfp": 4,
        "range": 6,
        "casualty_rating": 4,
        "half_squad_rating": 2,
        "half_squad_apfp": 2,
        **extra,
    }


def leader(unit_id: str, side: str, hex_: str, **extra: Any) -> dict[str, Any]:
    return {
        "id": unit_id,
        "side": side,
        "type": "leader",
        "hex": hex_,
        "apfp": 1,
        "range": 4,
        "casualty_rating": 2,
        "leadership_modifier": -1,
        **extra,
    }


def scenario(
    tmp_path: Path,
    units: list[dict[str, Any]],
    *,
    hexes: dict[str, Any] | None = None,
    hexsides: dict[str, str] | None = None,
    fortifications: list[dict[str, str]] | None = None,
    snipers: list[dict[str, Any]] | None = None,
) -> Scenario:
    def value(v: Any) -> str:
        if isinstance(v, dict):
            return "{ " + ", ".join(f"{k} = {value(x)}" for k, x in v.items()) + " }"
        return f'"{v}"' if isinstance(v, str) else str(v)

    board = BOARD.format(
        hexes="\n".join(f'"{k}" = {value(v)}' for k, v in (hexes or {}).items()),
        hexsides="\n".join(f'"{k}" = "{v}"' for k, v in (hexsides or {}).items()),
    )
    (tmp_path / "field.toml").write_text(board)
    data: dict[str, Any] = {
        "board": "field.toml",
        "sides": {"us": {"name": "Americans"}, "de": {"name": "Germans"}},
        "units": units,
    }
    if fortifications:
        data["fortifications"] = fortifications
    if snipers:
        data["snipers"] = snipers
    return scenario_from_data(data, "test.toml", base=tmp_path)
