"""The board hooks of the rule set contract: a rule set's ``sight``, ``board_fire`` and
``boards`` are all the board layers, ``board list/show``, the fire feed and the board pages
read. A throwaway rule set registered here, with no line written for it anywhere else, has
its boards listed and loaded, judged by its sight rule, and its line feeding its procedure."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Literal
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi.testclient import TestClient

from firefight.board.board import Board, BoardError
from firefight.board.hexes import Hex
from firefight.board.los import LosVerdict, line_of_sight
from firefight.core.inputs import RuleInput
from firefight.errors import InputError
from firefight.i18n import N_
from firefight.rulesets import RuleSet, register, registry, rulesets
from firefight.rulesets.board_fire import BoardFire, fire_inputs, fire_options, fire_rulesets
from firefight.rulesets.boards import load, los_policy, policies, sample_boards
from firefight.rulesets.ept.board import EPT_LOS
from tests.helpers import run_cli

TOY_BOARD = """\
# A throwaway board of the toy rule set.
name = "Toy field"
ruleset = "toy"
columns = 5
rows = 4

[hexes]
"0202" = "orchard"
"0302" = "forest"
"""


class ToyOptions(RuleInput):
    """The toy feed's one reading."""

    aim: Literal["high", "low"] = "high"


def _toy_feed(
    board: Board, firer: Hex, target: Hex, verdict: LosVerdict, options: ToyOptions
) -> tuple[dict[str, str], tuple[str, ...]]:
    inputs = {"distance": str(verdict.range), "aim": options.aim}
    return inputs, (f"toy: {board.terrain_of(target)}",)


@pytest.fixture
def toy(tmp_path: Path) -> Iterator[RuleSet]:
    """A rule set with a sight rule, a board fire feed and a boards folder, registered for
    the test only."""
    boards = tmp_path / "boards"
    boards.mkdir()
    (boards / "toy_field.toml").write_text(TOY_BOARD, encoding="utf-8")
    rules = RuleSet(
        id="toy",
        title="Toy",
        source="this test",
        procedures=(),
        sight=replace(EPT_LOS, ruleset="toy"),
        board_fire=BoardFire(
            procedure="shoot", feed=_toy_feed, options=ToyOptions, help=N_("Toy aim.")
        ),
        boards=boards,
    )
    register(rules)
    try:
        yield rules
    finally:
        registry._registered.pop("toy", None)


def test_a_registered_rule_sets_hooks_reach_the_boards_and_the_feed(toy: RuleSet) -> None:
    assert sample_boards()["toy_field"] == toy.boards / "toy_field.toml"  # type: ignore[operator]
    assert policies()["toy"] is toy.sight
    assert los_policy("toy") is toy.sight
    assert "toy" in fire_rulesets()
    board, policy = load("toy_field")
    assert (board.name, board.ruleset, policy) == ("Toy field", "toy", toy.sight)
    a, b = board.hex("0101"), board.hex("0203")
    verdict = line_of_sight(board, a, b, policy)
    feed = fire_inputs(board, a, b, verdict)
    assert (feed.ruleset, feed.procedure) == ("toy", "shoot")
    assert feed.inputs == {"distance": str(verdict.range), "aim": "high"}
    assert feed.notes == ("toy: clear",)
    low = fire_options(board, {"aim": "low", "from": "0101"})
    assert fire_inputs(board, a, b, verdict, low).inputs["aim"] == "low"
    with pytest.raises(InputError, match="'aim' must be one of high, low"):
        fire_options(board, {"aim": "sideways"})


def test_board_list_and_show_read_the_registered_rule_sets_board(
    toy: RuleSet, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(capsys, "board", "list", "--json")
    assert code == 0
    entry = next(b for b in json.loads(out) if b["name"] == "toy_field")
    assert entry["ruleset"] == "toy"
    code, out, _ = run_cli(capsys, "board", "show", "toy_field")
    assert code == 0
    assert out.startswith("Toy field: toy board, 5 x 4")


def test_the_board_page_and_its_fire_link_come_from_the_feed(toy: RuleSet) -> None:
    from firefight.web.app import create_app  # noqa: PLC0415 - the web only for this test

    client = TestClient(create_app())
    assert "Toy aim." in client.get("/boards/toy_field").text
    answer = client.get(
        "/boards/toy_field/fire",
        params={"from": "0101", "to": "0203", "aim": "low"},
        follow_redirects=False,
    )
    assert answer.status_code == 303
    where = urlsplit(answer.headers["location"])
    assert where.path == "/rulesets/toy/shoot"
    assert parse_qs(where.query)["aim"] == ["low"]


def test_a_board_naming_a_rule_set_without_sight_is_one_line_naming_those_with_one(
    tmp_path: Path,
) -> None:
    named = sorted(r.id for r in rulesets() if r.sight is not None)
    path = tmp_path / "other.toml"
    path.write_text(TOY_BOARD.replace('"toy"', '"tirs"'), encoding="utf-8")
    with pytest.raises(BoardError, match=rf"'ruleset' must be one of {', '.join(named)} "):
        load(str(path))
    with pytest.raises(InputError, match=f"'ruleset' must be one of {', '.join(named)}"):
        los_policy("tirs")


def test_each_feed_opens_one_of_its_rule_sets_procedures() -> None:
    for rules in rulesets():
        if rules.board_fire is not None:
            assert rules.board_fire.procedure in rules.procedure_names, rules.id
        if rules.boards is not None:
            assert rules.boards.is_dir(), rules.id
        if rules.boards is not None or rules.board_fire is not None:
            assert rules.sight is not None, rules.id
