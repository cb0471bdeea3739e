"""``firefight move --to``: the safest paths on the command line, their ``--json`` shape, the
picture, and the options it refuses (one line, exit code 2)."""

from __future__ import annotations

import json

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
