"""``firefight move --to``: the safest paths on the command line, their ``--json`` shape, the
picture, and the options it refuses (one line, exit code 2)."""

from __future__ import annotations

import json

import pytest

from firefight.rulesets.vv.actions import MOVE, page_choices
from tests.helpers import run_cli as run


def test_move_to_prints_the_best_paths_as_json(capsys):
    code, out, err = run(capsys, "move", "village", "--stack", "0206", "--to", "0406", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert set(data) == {
        "scenario", "stack", "to", "objective", "policy", "method", "exact", "evaluated",
        "prefixes", "paths",
    }  # fmt: skip
    best = data["paths"][0]
    assert set(best) == {
        "rank", "path", "assault", "units", "unpinned", "not_eliminated", "cps", "behind_best",
        "mp_spent", "where_hit",
    }  # fmt: skip
    assert best["unpinned"]["fraction"] == "5/12"
    assert best["behind_best"] == "0"
    assert data["method"] == "branch_and_bound"


def test_move_to_draws_the_best_paths(capsys, tmp_path):
    out_file = tmp_path / "paths.svg"
    args = ("move", "village", "--stack", "0206", "--to", "0406", "--out", str(out_file))
    code, out, err = run(capsys, *args)
    assert code == 0, err
    assert "Best paths" in out
    assert out_file.read_text(encoding="utf-8").lstrip().startswith("<?xml")


def test_move_to_with_a_seed_is_refused_in_one_line(capsys):
    args = ("move", "village", "--stack", "0206", "--to", "0406", "--seed", "3")
    code, out, err = run(capsys, *args)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert err.startswith("error: '--seed' must be left out with --to")


def test_a_path_given_with_to_is_refused_with_the_path_as_typed(capsys):
    args = ("move", "village", "--stack", "0206", "--to", "0406", "--path", "0305,0406")
    code, out, err = run(capsys, *args)
    assert (code, out) == (2, "")
    assert err == (
        "error: '--path' must be left out with --to (the search finds the paths) "
        "(got '0305,0406')\n"
    )


@pytest.mark.parametrize("policy", ["threshold", "optimal"])
@pytest.mark.parametrize("as_json", [False, True])
def test_a_destination_no_path_reaches_is_a_one_line_error(capsys, policy, as_json):
    # 1001 is beyond the stack's movement points
    args = ["move", "village", "--stack", "0206", "--to", "1001", "--policy", policy]
    code, out, err = run(capsys, *args, *(["--json"] if as_json else []))
    assert (code, out) == (2, "")
    assert err == "error: '--to' must be a hex the stack can reach with its MPs (got '1001')\n"


def test_the_policies_refused_with_to_list_every_policy_the_search_takes(capsys):
    code, out, err = run(capsys, "move", "village", "--stack", "0206", "--to", "0406",
                         "--policy", "player")  # fmt: skip
    assert (code, out) == (2, "")
    choices = [p for p in page_choices()["policy"] if p != "player"]
    assert "optimal" in choices
    assert err == (
        f"error: '--policy' must be one of {', '.join(choices)} with --to (got 'player')\n"
    )
    assert MOVE.subject is not None
    assert MOVE.subject.choices() == page_choices()
