"""Simulation: engagements (turns of fire between two sides, :mod:`firefight.sim.engagement`,
docs/engagements.md) and sweeps over a grid of inputs, exact or sampled, locally or on a Dask
cluster.

``load_spec`` reads a sweep's TOML specification, ``run_sweep`` runs it on a backend
(``backend_for``) into a resumable CSV; ``draw_heatmap`` and ``write_parquet`` give the
picture and the Parquet copy. See docs/sweeps.md.
"""

from firefight.sim.cells import CELL_KINDS, ProcedureCells
from firefight.sim.heatmap import draw_heatmap
from firefight.sim.kind import CellKind, KindFactory, SpecError
from firefight.sim.results import write_parquet
from firefight.sim.spec import SweepSpec, find_spec, load_spec, sample_specs
from firefight.sim.sweep import (
    DaskCluster,
    InProcess,
    LocalProcesses,
    SweepReport,
    backend_for,
    cell_seed,
    run_sweep,
)

__all__ = [
    "CELL_KINDS",
    "CellKind",
    "DaskCluster",
    "InProcess",
    "KindFactory",
    "LocalProcesses",
    "ProcedureCells",
    "SpecError",
    "SweepReport",
    "SweepSpec",
    "backend_for",
    "cell_seed",
    "draw_heatmap",
    "find_spec",
    "load_spec",
    "run_sweep",
    "sample_specs",
    "write_parquet",
]
