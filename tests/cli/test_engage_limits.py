"""``firefight engage`` and engagement sweeps read a scenario file bounded: its size
(:data:`MAX_SCENARIO_BYTES`, read in chunks), its nesting, and the samples asked for."""

from __future__ import annotations

from pathlib import Path

from firefight.sim.scenario import MAX_SCENARIO_BYTES, sample_scenarios
from firefight.sim.spec import MAX_SAMPLES
from tests.helpers import run_cli

DEEP = "x = " + "[" * 3000 + "]" * 3000 + "\n"


def _sparse(path: Path, size: int) -> Path:
    """A file of ``size`` zero bytes that takes no disk."""
    with path.open("wb") as handle:
        handle.truncate(size)
    return path


def test_an_engage_file_past_max_scenario_bytes_is_refused_unread(tmp_path, capsys):
    """Before: a 300 MB file was read whole (645 MB)."""
    path = _sparse(tmp_path / "huge.toml", 300 * 2**20)
    code, _, err = run_cli(capsys, "engage", str(path))
    assert code == 2
    assert err == f"error: {path}: file: the file must be at most 256 KiB\n"


def test_an_engage_file_at_max_scenario_bytes_is_read(tmp_path, capsys):
    text = sample_scenarios()["vv_village"].read_text(encoding="utf-8")
    path = tmp_path / "padded.toml"
    path.write_text(text + "#" * (MAX_SCENARIO_BYTES - len(text.encode()) - 1) + "\n")
    assert path.stat().st_size == MAX_SCENARIO_BYTES
    code, _, err = run_cli(capsys, "engage", str(path), "--seed", "1", "--turns", "1", "--json")
    assert code == 0, err


def test_an_engage_file_nested_3000_deep_is_one_line(tmp_path, capsys):
    path = tmp_path / "deep.toml"
    path.write_text(DEEP, encoding="utf-8")
    code, _, err = run_cli(capsys, "engage", str(path))
    assert code == 2
    assert err == f"error: {path}: TOML: arrays and tables nested more than 64 levels deep\n"


def test_engage_samples_share_the_sweeps_limit(capsys):
    code, _, err = run_cli(capsys, "engage", "vv_village", "--samples", str(MAX_SAMPLES + 1))
    assert code == 2
    assert err == (
        f"error: '--samples' must be an integer from 100 to {MAX_SAMPLES:,} "
        f"(got {MAX_SAMPLES + 1})\n"
    )


def _engagement_spec(folder: Path) -> Path:
    spec = folder / "spec.toml"
    spec.write_text(
        'kind = "engagement"\nscenario = "mine.toml"\n\n[axes]\nturns = [1, 2]\n',
        encoding="utf-8",
    )
    return spec


def test_an_engagement_sweeps_scenario_nested_3000_deep_is_one_line(tmp_path, capsys):
    """Before: a RecursionError (exit 70)."""
    (tmp_path / "mine.toml").write_text(DEEP, encoding="utf-8")
    spec = _engagement_spec(tmp_path)
    code, _, err = run_cli(
        capsys, "sweep", str(spec), "--workers", "1", "-o", str(tmp_path / "r.csv")
    )
    assert code == 2
    assert err == (
        f"error: {spec}: scenario: mine.toml: TOML: arrays and tables nested more than 64 "
        "levels deep\n"
    )


def test_an_engagement_sweeps_scenario_past_max_scenario_bytes_is_refused(tmp_path, capsys):
    _sparse(tmp_path / "mine.toml", 300 * 2**20)
    spec = _engagement_spec(tmp_path)
    code, _, err = run_cli(
        capsys, "sweep", str(spec), "--workers", "1", "-o", str(tmp_path / "r.csv")
    )
    assert code == 2
    assert err == f"error: {spec}: scenario: mine.toml: file: the file must be at most 256 KiB\n"
