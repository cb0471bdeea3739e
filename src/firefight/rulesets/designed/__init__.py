"""Games a designer writes as one TOML file: one chart, its dice, input fields, modifiers and
results (docs/writing-a-rule-set.md), read into a rule set with one procedure that every face
shows as it shows a built-in game's.

:func:`load_game` reads a file (bounded as every loader of firefight is: its size, its nesting,
its number of values), :func:`check_game` reads and builds it. The files a user adds live in a
folder of their own (:mod:`firefight.rulesets.added`).
"""

from __future__ import annotations

from pathlib import Path

from firefight.core.files import loader, parse_toml, read_text
from firefight.rulesets.designed.build import DesignedRuleSet, ruleset_of
from firefight.rulesets.designed.parse import parse_game
from firefight.rulesets.designed.schema import KEYS, Game

__all__ = ["KEYS", "MAX_BYTES", "MAX_VALUES", "DesignedRuleSet", "Game", "load_game", "read_game"]

MAX_BYTES = 256 * 1024
"""The largest game file read: a chart of 40 rows and 40 columns with its words is under 40 KiB."""
MAX_VALUES = 20_000
"""The most values a game file may hold."""
MAX_DEPTH = 6
"""The deepest nesting a game file needs: ``modifiers[1].when.range.at_least`` is 4 levels."""


def read_game(path: Path) -> Game:
    """A game file's game, or one error line naming the file and the place in it."""
    text = read_text(path, path.name, MAX_BYTES)
    data = parse_toml(text, path.name, max_values=MAX_VALUES, max_depth=MAX_DEPTH)
    return parse_game(data, path.name)


def load_game(path: Path) -> DesignedRuleSet:
    """A game file's rule set, built and ready for every face."""
    return ruleset_of(read_game(path), path)


def _example() -> str:
    return (Path(__file__).parent / "example.toml").read_text(encoding="utf-8")


@loader("designed-game", ".toml", _example, ("rulesets", "--check", "{path}"))
def check_game(path: Path) -> DesignedRuleSet:
    """The hostile-file run's reader of a game file: the file read and its rule set built."""
    return load_game(path)
