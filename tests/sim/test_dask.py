"""Sweeps on a real Dask cluster: a scheduler and two one-thread workers on 127.0.0.1, started
as subprocesses with the ``dask`` commands of ``distributed`` (the workers import firefight
from this work tree through PYTHONPATH) and stopped at the end of the module."""

from __future__ import annotations

import json

import pytest

from firefight.errors import InputError
from firefight.sim import DaskCluster, InProcess, load_spec, run_sweep
from tests.helpers import run_cli


def test_a_sampled_sweep_on_the_cluster_equals_the_local_run(
    dask_scheduler, sampled_spec, tmp_path
):
    spec = load_spec(sampled_spec)
    local = tmp_path / "local.csv"
    run_sweep(spec, local, InProcess())
    remote = tmp_path / "dask.csv"
    report = run_sweep(spec, remote, DaskCluster(dask_scheduler), batch=2)
    assert report.tasks == 5  # 9 cells, 2 a task
    assert remote.read_bytes() == local.read_bytes()


def test_an_exact_sweep_through_the_cli_on_the_cluster_equals_the_local_run(
    dask_scheduler, exact_spec, tmp_path, capsys
):
    local = tmp_path / "local.csv"
    code, _, err = run_cli(capsys, "sweep", str(exact_spec), "-o", str(local), "--workers", "1")
    assert code == 0, err
    remote = tmp_path / "dask.csv"
    code, out, err = run_cli(
        capsys,
        "sweep",
        str(exact_spec),
        "-o",
        str(remote),
        "--scheduler",
        dask_scheduler,
        "--batch",
        "5",
        "--json",
    )
    assert code == 0, err
    summary = json.loads(out)
    assert summary["backend"] == f"dask {dask_scheduler}"
    assert summary["tasks"] == 5  # 24 cells, 5 a task
    assert remote.read_bytes() == local.read_bytes()


def test_a_scheduler_that_does_not_answer_is_a_one_line_error(exact_spec, tmp_path):
    with pytest.raises(InputError) as raised:
        run_sweep(load_spec(exact_spec), tmp_path / "x.csv", DaskCluster("tcp://127.0.0.1:9", 2))
    assert str(raised.value) == (
        "'scheduler' must be the address of a running Dask scheduler with workers, "
        "e.g. tcp://HOST:PORT (no scheduler answered there within 2 s) (got 'tcp://127.0.0.1:9')"
    )


def test_a_scheduler_address_without_its_protocol_is_refused(exact_spec, capsys):
    code, _, err = run_cli(capsys, "sweep", str(exact_spec), "--scheduler", "127.0.0.1:8786")
    assert code == 2
    assert err == (
        "error: '--scheduler' must be an address such as tcp://HOST:PORT (got '127.0.0.1:8786')\n"
    )


def test_workers_and_a_scheduler_are_not_given_together(exact_spec, capsys):
    code, _, err = run_cli(
        capsys, "sweep", str(exact_spec), "--scheduler", "tcp://127.0.0.1:8786", "--workers", "2"
    )
    assert code == 2
    assert err == (
        "error: '--workers' must be omitted with --scheduler (the cluster has its own workers) "
        "(got 2)\n"
    )
