"""A second reading of a designed game's file, for the tests: its odds by brute force over
every face of every die (each die on its own, never a sum's distribution), worked out from
the file's TOML with none of the loader's code."""

from __future__ import annotations

import math
import re
import tomllib
from collections import Counter
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any


def dice_faces(text: str) -> list[tuple[int, int]]:
    """Each die of a roll as (sign, sides): ``1d6-1d6`` -> [(1, 6), (-1, 6)]."""
    found = []
    for sign, count, sides in re.findall(r"([+-]?)\s*(\d+)d(\d+)", text):
        found += [(-1 if sign == "-" else 1, int(sides))] * int(count)
    return found


def band_of(label: str, value: int) -> bool:
    label = label.strip()
    if label.startswith("<="):
        return value <= int(label[2:])
    if label.endswith("+"):
        return value >= int(label[:-1])
    if match := re.fullmatch(r"(-?\d+)-(-?\d+)", label):
        return int(match[1]) <= value <= int(match[2])
    return value == int(label)


def applies(modifier: dict[str, Any], inp: dict[str, Any]) -> bool:
    for name, wanted in modifier.get("when", {}).items():
        value = inp[name]
        if isinstance(wanted, dict):
            if "at_least" in wanted and value < wanted["at_least"]:
                return False
            if "at_most" in wanted and value > wanted["at_most"]:
                return False
        elif isinstance(wanted, list):
            if value not in wanted:
                return False
        elif value != wanted:
            return False
    return True


def column_index(game: dict[str, Any], inp: dict[str, Any], mods: list[dict[str, Any]]) -> int:
    column = game["column"]
    chosen = next((f for f in game["fields"] if f["name"] == column.get("field")), {})
    labels = column.get("labels") or chosen["choices"]

    def strength(name: str) -> Fraction:
        value = Fraction(inp[name])
        for m in mods:
            if "factor" in m and m["strength"] == name:
                value *= Fraction(str(m["factor"]))
        return value

    if column["by"] == "odds":
        a, d = strength(column["attacker"]), strength(column["defender"])
        label = f"{math.floor(a / d)}-1" if a >= d else f"1-{math.ceil(d / a)}"

        def rung(odds: str) -> int:  # ... 1-3 is -3, 1-2 is -2, 1-1 is 1, 2-1 is 2 ...
            attacker, defender = odds.split("-")
            return int(attacker) if defender == "1" else -int(defender)

        ladder = [rung(x) for x in labels]
        mine = rung(label)
        order = sorted(ladder)
        if mine in ladder:
            base = ladder.index(mine)
        elif mine < order[0]:
            assert column.get("below", "error") == "clamp", "below the chart"
            base = 0
        else:
            base = len(labels) - 1
    elif column["by"] == "strength":
        value = strength(column["strength"])
        value = math.floor(value) if column.get("round", "down") == "down" else math.ceil(value)
        hits = [i for i, label in enumerate(labels) if band_of(label, value)]
        base = hits[0] if hits else len(labels) - 1
    else:
        base = labels.index(inp[column["field"]])
    shift = sum(m["column_shift"] for m in mods if "column_shift" in m)
    return min(max(base + shift, 0), len(labels) - 1)


def brute_odds(path: Path, inp: dict[str, Any]) -> dict[str, Fraction]:
    """The file's odds for a full input (every field given), by brute force over the dice."""
    game = tomllib.loads(path.read_text(encoding="utf-8"))
    mods = [m for m in game.get("modifiers", []) if applies(m, inp)]
    column = column_index(game, inp, mods)
    dice_shift = sum(m["dice"] for m in mods if "dice" in m)
    main = dice_faces(game["dice"])
    follow_ups = game.get("follow_ups", [])
    second = [dice_faces(f["dice"]) for f in follow_ups]
    dice = main + [d for faces in second for d in faces]
    counts: Counter[str] = Counter()
    for faces in product(*(range(1, sides + 1) for _sign, sides in dice)):
        total = sum(sign * face for (sign, _), face in zip(main, faces, strict=False)) + dice_shift
        rows = game["rows"]["labels"]
        label = next(r for r in rows if band_of(r, total))  # the examples' rows cover all
        outcome = game["cells"][label][column]
        at = len(main)
        for follow, faces_of in zip(follow_ups, second, strict=True):
            rolled = sum(sign * f for (sign, _), f in zip(faces_of, faces[at:], strict=False))
            at += len(faces_of)
            if outcome in follow["after"]:
                target = follow["target"]
                target = inp[target] if isinstance(target, str) else target
                passed = (
                    rolled <= target
                    if follow.get("passes", "at_most") == "at_most"
                    else rolled >= target
                )
                outcome = follow.get("if_passed", outcome) if passed else follow["if_failed"]
        counts[outcome] += 1
    whole = sum(counts.values())
    return {code: Fraction(n, whole) for code, n in counts.items()}
