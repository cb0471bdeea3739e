"""Running a sweep: each row from the rules' own odds or seeded samples, and the same file
whatever the backend, the number of workers or the batch size."""

from __future__ import annotations

import json
import os
from collections import Counter
from fractions import Fraction

import pytest

from firefight.chance import sample_many
from firefight.rulesets import ruleset
from firefight.sim import InProcess, LocalProcesses, backend_for, cell_seed, load_spec, run_sweep
from firefight.sim.sweep import default_batch, wilson
from tests.sim.conftest import rows_of

FIRE = ruleset("ept").procedure("fire")


def test_an_exact_row_is_the_procedures_own_odds(exact_spec, tmp_path):
    spec = load_spec(exact_spec)
    out = tmp_path / "out.csv"
    run_sweep(spec, out, InProcess())
    rows = rows_of(out)
    assert [int(r["cell"]) for r in rows] == list(range(spec.cells))
    row = next(r for r in rows if r["strength"] == "6" and r["protection"] == "none")
    odds = FIRE.odds(FIRE.parse({"strength": 6, "protection": "none", "range": row["range"]}))
    assert json.loads(row["distribution"]) == odds.to_json()
    assert Fraction(row["exact_step_lost"]) == odds["1"] + odds["E"]
    assert float(row["p_step_lost"]) == float(odds["1"] + odds["E"])
    assert row["mode"] == "exact"
    assert row["seed"] == ""
    assert row["status"] == "ok"


def test_a_cell_the_rules_forbid_says_why_and_the_sweep_goes_on(exact_spec, tmp_path):
    out = tmp_path / "out.csv"
    report = run_sweep(load_spec(exact_spec), out, InProcess())
    weak = [r for r in rows_of(out) if r["strength"] == "1" and r["range"] == "long"]
    assert weak
    assert all(r["status"].startswith("forbidden: final attack factor 1/2") for r in weak)
    assert all(r["p_no_effect"] == "" for r in weak)
    assert report.forbidden == len(weak)


def test_a_cells_seed_comes_from_the_sweep_seed_and_its_index_alone():
    assert cell_seed(7, 3) == cell_seed(7, 3)
    assert len({cell_seed(7, i) for i in range(100)}) == 100
    assert cell_seed(7, 3) != cell_seed(8, 3)


def test_a_sampled_row_is_reproduced_by_sampling_the_rule_with_the_cells_seed(
    sampled_spec, tmp_path
):
    spec = load_spec(sampled_spec)
    out = tmp_path / "out.csv"
    run_sweep(spec, out, InProcess())
    row = rows_of(out)[4]
    assert row["mode"] == "sampled"
    assert int(row["seed"]) == cell_seed(spec.seed, 4)
    attack = FIRE.parse({"strength": int(row["strength"]), "protection": row["protection"]})
    drawn = Counter(sample_many(lambda chance: FIRE.rule(attack, chance), int(row["seed"]), 400))
    assert json.loads(row["distribution"]) == dict(sorted(drawn.items()))
    assert float(row["p_no_effect"]) == drawn["-"] / 400


def test_sampled_intervals_cover_the_exact_probabilities(tmp_path):
    (tmp_path / "s.toml").write_text(
        'ruleset = "ept"\nprocedure = "fire"\nmode = "sampled"\nsamples = 2000\nseed = 11\n'
        "[axes]\nstrength = { from = 1, to = 20 }\n"
        '[statistics]\nno_effect = ["-"]\nsuppressed = ["N", "N1", "N2", "N3", "1", "E"]\n',
        encoding="utf-8",
    )
    out = tmp_path / "out.csv"
    run_sweep(load_spec(tmp_path / "s.toml"), out, InProcess())
    covered = total = 0
    for row in rows_of(out):
        odds = FIRE.odds(FIRE.parse({"strength": int(row["strength"])}))
        for name, outcomes in (("no_effect", ["-"]), ("suppressed", ["N", "N1", "N2", "N3"])):
            exact = float(sum((odds[o] for o in outcomes), Fraction(0)))
            if name == "suppressed":
                exact += float(odds["1"] + odds["E"])
            total += 1
            covered += float(row[f"lo_{name}"]) <= exact <= float(row[f"hi_{name}"])
    assert covered >= 0.85 * total  # 95 % intervals: about 38 of 40 cover


def test_the_wilson_interval():
    low, high = wilson(0, 100, 1.959963984540054)
    assert low == 0.0
    assert high == pytest.approx(0.03699, abs=1e-5)
    low, high = wilson(50, 100, 1.959963984540054)
    assert (low, high) == pytest.approx((0.40383, 0.59617), abs=1e-5)


def test_tasks_hold_about_ten_thousand_samples(sampled_spec, exact_spec):
    assert default_batch(load_spec(sampled_spec)) == 25  # 400 samples a cell
    assert default_batch(load_spec(exact_spec)) == 200


def test_the_file_is_the_same_whatever_the_backend_workers_or_batch(sampled_spec, tmp_path):
    spec = load_spec(sampled_spec)
    files = []
    for name, backend, batch in [
        ("serial-1", InProcess(), 1),
        ("serial-4", InProcess(), 4),
        ("pool-2", LocalProcesses(2, adaptive=False), 2),
        ("pool-2-big", LocalProcesses(2, adaptive=False), 5),
    ]:
        out = tmp_path / f"{name}.csv"
        run_sweep(spec, out, backend, batch=batch)
        files.append(out.read_bytes())
    assert all(f == files[0] for f in files[1:])


def test_one_worker_runs_in_process_and_more_start_processes():
    assert isinstance(backend_for(1), InProcess)
    assert isinstance(backend_for(3), LocalProcesses)
    assert not backend_for(3).adaptive  # workers asked for by name are started
    assert backend_for().adaptive or (os.cpu_count() or 1) == 1
    assert backend_for(scheduler="tcp://127.0.0.1:1").description == "dask tcp://127.0.0.1:1"


def test_a_small_local_sweep_starts_no_pool_and_writes_the_same_file(exact_spec, tmp_path):
    spec = load_spec(exact_spec)
    serial, pooled = tmp_path / "serial.csv", tmp_path / "pooled.csv"
    run_sweep(spec, serial, InProcess(), batch=4)
    backend = LocalProcesses(2)
    report = run_sweep(spec, pooled, backend, batch=4)
    assert report.backend == "in-process (under 2 s of work)"
    assert pooled.read_bytes() == serial.read_bytes()


def test_progress_is_reported_from_the_cells_already_done(exact_spec, tmp_path):
    spec = load_spec(exact_spec)
    out = tmp_path / "out.csv"
    run_sweep(spec, out, InProcess(), batch=5)
    lines = out.read_bytes().splitlines(keepends=True)
    out.write_bytes(b"".join(lines[:11]))  # 10 cells done
    starts, counts = [], []
    run_sweep(spec, out, InProcess(), batch=5, on_start=lambda *a: starts.append(a),
              on_rows=counts.append)  # fmt: skip
    assert starts == [(10, spec.cells)]
    assert counts == [5, 5, 4]
