"""Sweep specifications: the grid, its defaults, and one-line errors naming file and place."""

from __future__ import annotations

import pytest

from firefight.sim import SpecError, find_spec, load_spec, sample_specs
from firefight.sim.spec import spec_from_data
from tests.sim.conftest import SMALL_EXACT, write_spec


def test_every_sample_spec_loads():
    assert {"ept_fire", "ept_morale_sampled"} <= set(sample_specs())
    for name in sample_specs():
        spec = load_spec(find_spec(name))
        assert spec.cells > 0


def test_the_ept_sample_is_strength_1_to_20_by_protection_by_range():
    spec = load_spec(find_spec("ept_fire"))
    assert [a.name for a in spec.axes] == ["strength", "protection", "range"]
    assert spec.axes[0].values == tuple(range(1, 21))
    assert spec.cells == 20 * 4 * 3


def test_cells_are_numbered_row_major_with_the_last_axis_fastest(exact_spec):
    spec = load_spec(exact_spec)
    assert spec.values_at(0) == {"strength": 1, "protection": "none", "range": "adjacent"}
    assert spec.values_at(1) == {"strength": 1, "protection": "none", "range": "long"}
    assert spec.values_at(2) == {"strength": 1, "protection": "important", "range": "adjacent"}
    assert spec.values_at(spec.cells - 1) == {
        "strength": 6,
        "protection": "important",
        "range": "long",
    }


def test_a_span_axis_takes_its_step(tmp_path):
    text = SMALL_EXACT.replace("{ from = 1, to = 6 }", "{ from = 2, to = 9, step = 3 }")
    assert load_spec(write_spec(tmp_path, text)).axes[0].values == (2, 5, 8)


def test_statistics_default_to_each_declared_outcome():
    data = {"ruleset": "ept", "procedure": "fire", "axes": {"strength": [3, 4]}}
    spec = spec_from_data(data, "x.toml")
    assert [s.name for s in spec.statistics][:3] == ["-", "S", "S1"]
    assert spec.statistics[0].outcomes == ("-",)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ('mode = "exact"', 'mode = "fast"'),
            "spec.toml: mode: must be exact or sampled (got 'fast')",
        ),
        (
            ("{ from = 1, to = 6 }", "{ from = 0, to = 6 }"),
            "spec.toml: axes.strength: 'strength' must be an integer from 1 to 99 (got 0) "
            "(in cell 0: strength=0, protection=none, range=adjacent)",
        ),
        (
            ('"none", "important"', '"none", "thick"'),
            "spec.toml: axes.protection: 'protection' must be one of none, light, medium, "
            "important (got 'thick') (in cell 2: strength=1, protection=thick, range=adjacent)",
        ),
        (
            ('procedure = "fire"', 'procedure = "shoot"'),
            "spec.toml: procedure: 'procedure' must be one of fire,",
        ),
        (
            ('ruleset = "ept"', 'ruleset = "chess"'),
            "spec.toml: ruleset: 'ruleset' must be one of",
        ),
        (
            ('step_lost = ["1", "E"]', 'step_lost = ["1", "X"]'),
            "spec.toml: statistics.step_lost: outcomes must be among -, S,",
        ),
        (
            ('mode = "exact"', 'mode = "exact"\nseeds = 3'),
            "spec.toml: seeds: unknown key; allowed: kind, mode,",
        ),
        (
            ("{ from = 1, to = 6 }", "{ from = 1, upto = 6 }"),
            "spec.toml: axes.strength.upto: unknown key; allowed: from, to, step",
        ),
        (
            ('["adjacent", "long"]', '["long", "long"]'),
            "spec.toml: axes.range: repeats a value (got ['long', 'long'])",
        ),
        (
            ('mode = "exact"', 'mode = "sampled"\nsamples = 0'),
            "spec.toml: samples: must be an integer from 1 to 10,000,000 (got 0)",
        ),
        (
            ('mode = "exact"', 'kind = "battle"'),
            "spec.toml: kind: must be one of procedure, engagement (got 'battle')",
        ),
        (
            ("[axes]", "[inputs]\nrange = 'long'\n\n[axes]"),
            "spec.toml: axes.range: is also a fixed input in [inputs]; give it once",
        ),
        (
            ("[axes]", "[inputs]\nstrenght = 3\n\n[axes]"),
            "spec.toml: inputs: 'input' must be one of strength, range,",
        ),
    ],
)
def test_a_bad_spec_is_one_line_naming_the_file_and_the_place(tmp_path, change, message):
    path = write_spec(tmp_path, SMALL_EXACT.replace(*change))
    with pytest.raises(SpecError) as raised:
        load_spec(path)
    text = str(raised.value)
    assert "\n" not in text
    assert text.startswith(str(tmp_path / message.split(": ", 1)[0]))
    assert text.replace(str(tmp_path) + "/", "").startswith(message)


def test_a_toml_syntax_error_names_the_file_and_the_line(tmp_path):
    path = write_spec(tmp_path, SMALL_EXACT.replace("[axes]", "[axes"))
    with pytest.raises(SpecError) as raised:
        load_spec(path)
    assert str(raised.value).startswith(f"{path}: ")
    assert "line 6" in str(raised.value)


def test_the_fingerprint_ignores_the_batch_but_not_the_seed_of_a_sampled_sweep(tmp_path):
    from tests.sim.conftest import SMALL_SAMPLED  # noqa: PLC0415

    base = load_spec(write_spec(tmp_path, SMALL_SAMPLED, "a.toml")).fingerprint()
    batched = load_spec(write_spec(tmp_path, SMALL_SAMPLED + "\n", "b.toml"))
    assert batched.fingerprint() == base
    reseeded = SMALL_SAMPLED.replace("seed = 7", "seed = 8")
    assert load_spec(write_spec(tmp_path, reseeded, "c.toml")).fingerprint() != base
