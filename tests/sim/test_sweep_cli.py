"""``firefight sweep``: the summary, --json, Parquet, the heatmap, and one-line errors."""

from __future__ import annotations

import json

import pyarrow.parquet as pq

from firefight.errors import quoted
from tests.helpers import run_cli
from tests.sim.conftest import SMALL_EXACT, rows_of, write_spec

SUMMARY_KEYS = {
    "spec", "kind", "ruleset", "procedure", "mode", "samples", "seed", "confidence", "axes",
    "statistics", "cells", "computed", "skipped", "forbidden", "tasks", "batch", "backend",
    "seconds", "fingerprint", "output", "manifest", "parquet", "picture",
}  # fmt: skip


def test_sweep_json_summary(capsys, exact_spec, tmp_path):
    out = tmp_path / "r.csv"
    code, printed, err = run_cli(capsys, "sweep", str(exact_spec), "-o", str(out), "--json")
    assert code == 0, err
    summary = json.loads(printed)
    assert set(summary) == SUMMARY_KEYS
    assert (summary["ruleset"], summary["procedure"], summary["mode"]) == ("ept", "fire", "exact")
    assert summary["cells"] == summary["computed"] == 24
    assert summary["forbidden"] == 2  # strength 1 at long range, both protections
    assert summary["output"] == str(out)
    assert (tmp_path / "r.csv.manifest.json").is_file()


def test_sweep_prints_what_it_did(capsys, exact_spec, tmp_path):
    code, printed, _ = run_cli(capsys, "sweep", str(exact_spec), "-o", str(tmp_path / "r.csv"))
    assert code == 0
    assert printed.startswith("ept fire (exact): 24 cells, 24 computed and 0 from an earlier run")
    assert "2 cells forbidden by the rules" in printed


def test_the_output_defaults_to_the_specs_name_here(capsys, exact_spec, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, _ = run_cli(capsys, "sweep", "ept_fire", "--workers", "1")
    assert code == 0
    assert (tmp_path / "ept_fire.csv").is_file()


def test_parquet_holds_the_same_rows_typed(capsys, exact_spec, tmp_path):
    out = tmp_path / "r.csv"
    code, _, err = run_cli(capsys, "sweep", str(exact_spec), "-o", str(out), "--parquet")
    assert code == 0, err
    table = pq.read_table(tmp_path / "r.parquet")
    rows = rows_of(out)
    assert table.column_names == list(rows[0])
    assert table.num_rows == len(rows)
    assert str(table.schema.field("strength").type) == "int64"
    assert str(table.schema.field("p_no_effect").type) == "double"
    assert table.column("strength").to_pylist() == [int(r["strength"]) for r in rows]
    assert table.column("p_step_lost").to_pylist() == [
        float(r["p_step_lost"]) if r["p_step_lost"] else None for r in rows
    ]


def test_the_heatmap_is_drawn_as_png_or_svg(capsys, exact_spec, tmp_path):
    for name in ("heat.png", "heat.svg"):
        picture = tmp_path / name
        code, _, err = run_cli(
            capsys, "sweep", str(exact_spec), "-o", str(tmp_path / "r.csv"), "--out",
            str(picture), "--x", "strength", "--y", "protection", "--value", "step_lost",
            "--at", "range=long",
        )  # fmt: skip
        assert code == 0, err
    assert (tmp_path / "heat.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = (tmp_path / "heat.svg").read_text()
    assert "<svg" in svg
    assert "range = long" in svg


def test_a_wrong_heatmap_axis_is_an_error_before_any_work(capsys, exact_spec, tmp_path):
    out = tmp_path / "r.csv"
    code, _, err = run_cli(
        capsys, "sweep", str(exact_spec), "-o", str(out), "--out", str(tmp_path / "h.png"),
        "--x", "colour",
    )  # fmt: skip
    assert code == 2
    assert (
        err == "error: '--x' must be one of the axes strength, protection, range (got 'colour')\n"
    )
    assert not out.exists()


def test_a_value_held_must_be_one_of_the_axis_values(capsys, exact_spec, tmp_path):
    code, _, err = run_cli(
        capsys, "sweep", str(exact_spec), "-o", str(tmp_path / "r.csv"), "--out",
        str(tmp_path / "h.png"), "--at", "range=far",
    )  # fmt: skip
    assert code == 2
    assert err == "error: 'at range' must be one of adjacent, long (got 'far')\n"


def test_a_bad_spec_is_one_line_and_exit_code_2(capsys, tmp_path):
    path = write_spec(tmp_path, SMALL_EXACT.replace("to = 6", "to = 0"))
    code, printed, err = run_cli(capsys, "sweep", str(path))
    assert code == 2
    assert printed == ""
    assert err == f"error: {path}: axes.strength.to: must be at least from (1) (got 0)\n"


def test_an_unknown_spec_names_the_samples(capsys):
    code, _, err = run_cli(capsys, "sweep", "nowhere.toml")
    assert code == 2
    assert err.startswith("error: 'spec' must be an existing .toml file or a sample: ept_fire")


def test_an_output_in_a_missing_folder_is_a_one_line_error(capsys, exact_spec, tmp_path):
    out = tmp_path / "missing" / "r.csv"
    code, _, err = run_cli(capsys, "sweep", str(exact_spec), "-o", str(out))
    assert code == 2
    assert err == (
        "error: '--output' must be a file that can be written (No such file or directory) "
        f"(got {quoted(str(out))})\n"
    )


def test_a_picture_in_a_missing_folder_is_a_one_line_error(capsys, exact_spec, tmp_path):
    picture = tmp_path / "missing" / "h.png"
    code, _, err = run_cli(
        capsys, "sweep", str(exact_spec), "-o", str(tmp_path / "r.csv"), "--out", str(picture)
    )
    assert code == 2
    assert (
        err == f"error: '--out' must be a file in an existing folder (got {quoted(str(picture))})\n"
    )
    assert not (tmp_path / "r.csv").exists()  # said before any work


def test_a_sweep_of_one_axis_draws_a_one_row_heatmap(capsys, tmp_path):
    text = SMALL_EXACT.replace('protection = ["none", "important"]\n', "").replace(
        'range = ["adjacent", "long"]\n', ""
    )
    path = write_spec(tmp_path, text)
    picture = tmp_path / "h.png"
    code, _, err = run_cli(
        capsys, "sweep", str(path), "-o", str(tmp_path / "r.csv"), "--out", str(picture)
    )
    assert code == 0, err
    assert picture.read_bytes()[:4] == b"\x89PNG"
