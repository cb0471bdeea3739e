"""A hex not on the board names the argument it was given for (errors name the
option in the CLI), ``FROM``, ``TO`` or ``AIM``, not the board's internal ``'hex'``."""

from __future__ import annotations

import pytest

from tests.helpers import run_cli as run


@pytest.mark.parametrize(
    ("args", "name", "given"),
    [
        (["board", "los", "vv_village", "9999", "0301"], "FROM", "9999"),
        (["board", "los", "vv_village", "0301", "9999"], "TO", "9999"),
        (["board", "visible", "vv_village", "0000"], "FROM", "0000"),
        (["board", "scatter", "normandy_bocage", "9999"], "AIM", "9999"),
    ],
)
def test_a_hex_off_the_board_names_its_argument(capsys, args, name, given):
    code, _, err = run(capsys, *args)
    assert code == 2
    assert err.startswith(f"error: '{name}' must be a hex of board "), err
    assert err.strip().endswith(f"(got '{given}')"), err
    assert len(err.strip().splitlines()) == 1
